# Two new players start a duel on a Stratego server and red makes one move.
# Usage: python play_a_move.py [BASE_URL]   (default: http://127.0.0.1:8080)

import sys
import uuid

from stratego_client import AuthenticatedClient, Client
from stratego_client.api.accounts import register_user
from stratego_client.api.games import create_game, get_game, join_game, place_setup, play_move
from stratego_client.models import (
    CreateGameRequest, Credentials, GameView, MoveAnswer, MoveRequest, RandomSetup, Registered)

base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"


def expect(kind, answer):
    # Documented errors come back as values (Problem, MoveRefusal, ...), not as exceptions.
    if not isinstance(answer, kind):
        sys.exit(f"unexpected answer: {answer!r}")
    return answer


def sign_up(name):
    body = Credentials(username=name, password="correct horse battery")
    registered = expect(Registered, register_user.sync(client=Client(base_url=base_url), body=body))
    return AuthenticatedClient(base_url=base_url, token=registered.access_token)


names = [f"{color}-{uuid.uuid4().hex[:8]}" for color in ("red", "blue")]
red, blue = sign_up(names[0]), sign_up(names[1])
request = CreateGameRequest.from_dict({"variant": "duel", "color": "red", "opponent": names[1]})
game = expect(GameView, create_game.sync(client=red, body=request)).id
expect(GameView, join_game.sync(game, client=blue))
for player in (red, blue):
    expect(GameView, place_setup.sync(game, client=player, body=RandomSetup(random=True)))
move = expect(GameView, get_game.sync(game, client=red)).legal_moves[0]  # red moves first
answer = expect(MoveAnswer, play_move.sync(game, client=red, body=MoveRequest(from_=move.from_, to=move.to)))
print(f"{names[0]} moved {answer.move.from_}-{answer.move.to}; now it is {answer.game.turn.value}'s turn")
