"""Plays a duel against a running server with the stratego_client package
(clients/python, generated from openapi.yaml), as pip installed it into the
Python that runs this; argv[1] is the base URL. Every answer is parsed into
the generated models, so a field the document gets wrong fails here."""

import random
import sys

from stratego_client import AuthenticatedClient, Client
from stratego_client.api.accounts import register_user
from stratego_client.api.events import list_events
from stratego_client.api.games import (
    create_game, get_game, join_game, list_games, list_moves, list_variants, place_setup,
    play_move)
from stratego_client.models import (
    CreateGameRequest, Credentials, EventPage, GamePage, GameView, MoveAnswer, MoveHistory,
    MoveRefusal, MoveRequest, RandomSetup, VariantList)
from stratego_client.types import UNSET

base = sys.argv[1]
anonymous = Client(base_url=base, raise_on_unexpected_status=True)
variants = list_variants.sync(client=anonymous)
assert isinstance(variants, VariantList), variants
assert {v.variant.value for v in variants.variants} == {"classic", "barrage", "duel"}

suffix = str(random.randrange(10**6))
users = {}
for name in ("red" + suffix, "blue" + suffix):
    registered = register_user.sync(
        client=anonymous, body=Credentials(username=name, password="correct horse battery"))
    users[name] = AuthenticatedClient(base_url=base, token=registered.access_token,
                                      raise_on_unexpected_status=True)
red, blue = users.values()
blue_name = list(users)[1]

view = create_game.sync(client=red, body=CreateGameRequest.from_dict(
    {"variant": "duel", "color": "red", "opponent": blue_name}))
assert isinstance(view, GameView), view
game = view.id
assert isinstance(join_game.sync(game, client=blue), GameView)
for player, seed in ((red, 1), (blue, 2)):
    assert isinstance(place_setup.sync(game, client=player, body=RandomSetup(random=True, seed=seed)),
                      GameView)

rng = random.Random(5)
plies = 0
while plies < 200:
    views = [(c, get_game.sync(game, client=c)) for c in (red, blue)]
    assert all(isinstance(v, GameView) for _, v in views), views
    movers = [(c, v) for c, v in views if v.legal_moves is not UNSET]
    if not movers:
        break
    mover, view = movers[0]
    if plies == 0:
        refused = play_move.sync(game, client=mover,
                                 body=MoveRequest(from_="e5", to="e6"))
        assert isinstance(refused, MoveRefusal), refused
        assert refused.reason.value == "no_piece", refused
    chosen = rng.choice(view.legal_moves)
    answer = play_move.sync(game, client=mover, body=MoveRequest(
        from_=chosen.from_, to=chosen.to, expected_version=view.version))
    assert isinstance(answer, MoveAnswer), answer
    plies += 1

assert plies > 0
history = list_moves.sync(game, client=red)
assert isinstance(history, MoveHistory) and len(history.moves) == plies
page = list_games.sync(client=red, mine=True)
assert isinstance(page, GamePage) and page.games
events = list_events.sync(client=red, after=0, wait=0)
assert isinstance(events, EventPage) and events.events, events
kinds = {type(e).__name__ for e in events.events}
assert "GameStartedEvent" in kinds, kinds
print(f"python client: played {plies} plies; events {sorted(kinds)}")
