from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color
from ..models.status import Status
from ..models.variant import Variant

if TYPE_CHECKING:
    from ..models.export_setups import ExportSetups
    from ..models.fischer_time_control import FischerTimeControl
    from ..models.game_result import GameResult
    from ..models.move_view import MoveView
    from ..models.moves_in_days_time_control import MovesInDaysTimeControl
    from ..models.per_move_time_control import PerMoveTimeControl
    from ..models.player_ref import PlayerRef
    from ..models.players import Players
    from ..models.rules_view import RulesView
    from ..models.setup_done import SetupDone
    from ..models.tournament_link import TournamentLink


T = TypeVar("T", bound="GameExport")


@_attrs_define
class GameExport:
    """A game record as the caller may know it: the players, the setups, every
    move with its battle, and the result. Once the game is over it is the
    full record; while it runs an opponent's setup is `null` and the moves
    show only the ranks the caller could know right after each of them.

        Example:
            {'created_at': '2026-11-30T10:00:00Z', 'creator': {'deleted': False, 'id':
                '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}, 'days_per_move': 3, 'id':
                '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'moves': [{'battle': None, 'color': 'red', 'from': 'e1', 'piece':
                'scout', 'ply': 1, 'rescue': None, 'to': 'e2'}, {'battle': None, 'color': 'blue', 'from': 'a10', 'piece':
                'marshal', 'ply': 2, 'rescue': None, 'to': 'a9'}], 'opponent': None, 'players': {'blue': {'deleted': False,
                'id': '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bob'}, 'red': {'deleted': False, 'id':
                '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}}, 'ply': 2, 'rated': False, 'result': {'reason':
                'resignation', 'winner': 'red'}, 'rules': {'aggressor_advantage': False, 'max_plies': None,
                'max_plies_without_battle': None, 'more_squares_rule': False, 'rescue': False, 'scout_strike_after_move': True,
                'silent_defense': False, 'two_square_limit': 3}, 'setup_done': {'blue': True, 'red': True}, 'setups': {'blue':
                'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAXWQQPPONNY', 'red':
                'MBBCDDEEKLAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'},
                'status': 'finished', 'time_control': {'days': 3, 'type': 'per_move'}, 'tournament': None, 'turn': 'red',
                'updated_at': '2026-12-01T09:30:00Z', 'variant': 'duel', 'version': 7, 'you': 'red'}

        Attributes:
            created_at (datetime.datetime):
            creator (PlayerRef): A user taking part in a game.
            days_per_move (int): The time a move is given, in whole days: the days of `per_move`;
                for the other time controls, what they give a move on average
                (`time_control` says exactly).
            id (UUID):
            moves (list[MoveView]): Every move of the game, in order (resignations, draws and timeouts
                are not moves: `result` tells how the game ended).
            opponent (None | PlayerRef):
            players (Players): Who sits on each side (`null`: the seat is still open).
            ply (int): Plies played so far.
            rated (bool): Whether the game counts for ratings (docs/ratings.md).
            result (GameResult | None):
            rules (RulesView): The complete rules in force in a game (every rule is always sent). Example:
                {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
                'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}.
            setup_done (SetupDone): Whether each player's setup is in (public; the setups themselves are not).
            setups (ExportSetups): Each player's setup as the caller may know it.
            status (Status): Where a game is in its life.
            time_control (FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl): How much time each player has
                (docs/lifecycle.md, "Clocks"); `type`
                says which control. Bounds: `per_move` days 1-14; `fischer`
                initial_days 1-90, increment_days 1-14, max_days 1-180 and at least
                both others; `moves_in_days` moves 1-50, days 1-180 and at least
                moves.
            tournament (None | TournamentLink):
            turn (Color | None):
            updated_at (datetime.datetime):
            variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
            version (int): +1 with every change to the game.
            you (Color | None):
    """

    created_at: datetime.datetime
    creator: PlayerRef
    days_per_move: int
    id: UUID
    moves: list[MoveView]
    opponent: None | PlayerRef
    players: Players
    ply: int
    rated: bool
    result: GameResult | None
    rules: RulesView
    setup_done: SetupDone
    setups: ExportSetups
    status: Status
    time_control: FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl
    tournament: None | TournamentLink
    turn: Color | None
    updated_at: datetime.datetime
    variant: Variant
    version: int
    you: Color | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.game_result import GameResult
        from ..models.per_move_time_control import PerMoveTimeControl
        from ..models.player_ref import PlayerRef
        from ..models.tournament_link import TournamentLink

        created_at = self.created_at.isoformat()

        creator = self.creator.to_dict()

        days_per_move = self.days_per_move

        id = str(self.id)

        moves = []
        for moves_item_data in self.moves:
            moves_item = moves_item_data.to_dict()
            moves.append(moves_item)

        opponent: dict[str, Any] | None
        if isinstance(self.opponent, PlayerRef):
            opponent = self.opponent.to_dict()
        else:
            opponent = self.opponent

        players = self.players.to_dict()

        ply = self.ply

        rated = self.rated

        result: dict[str, Any] | None
        if isinstance(self.result, GameResult):
            result = self.result.to_dict()
        else:
            result = self.result

        rules = self.rules.to_dict()

        setup_done = self.setup_done.to_dict()

        setups = self.setups.to_dict()

        status = self.status.value

        time_control: dict[str, Any]
        if isinstance(self.time_control, PerMoveTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, FischerTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control.to_dict()

        tournament: dict[str, Any] | None
        if isinstance(self.tournament, TournamentLink):
            tournament = self.tournament.to_dict()
        else:
            tournament = self.tournament

        turn: None | str
        if isinstance(self.turn, Color):
            turn = self.turn.value
        else:
            turn = self.turn

        updated_at = self.updated_at.isoformat()

        variant = self.variant.value

        version = self.version

        you: None | str
        if isinstance(self.you, Color):
            you = self.you.value
        else:
            you = self.you

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "creator": creator,
                "days_per_move": days_per_move,
                "id": id,
                "moves": moves,
                "opponent": opponent,
                "players": players,
                "ply": ply,
                "rated": rated,
                "result": result,
                "rules": rules,
                "setup_done": setup_done,
                "setups": setups,
                "status": status,
                "time_control": time_control,
                "tournament": tournament,
                "turn": turn,
                "updated_at": updated_at,
                "variant": variant,
                "version": version,
                "you": you,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_setups import ExportSetups
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.game_result import GameResult
        from ..models.move_view import MoveView
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl
        from ..models.player_ref import PlayerRef
        from ..models.players import Players
        from ..models.rules_view import RulesView
        from ..models.setup_done import SetupDone
        from ..models.tournament_link import TournamentLink

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        creator = PlayerRef.from_dict(d.pop("creator"))

        days_per_move = d.pop("days_per_move")

        id = UUID(d.pop("id"))

        moves = []
        _moves = d.pop("moves")
        for moves_item_data in _moves:
            moves_item = MoveView.from_dict(moves_item_data)

            moves.append(moves_item)

        def _parse_opponent(data: object) -> None | PlayerRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                opponent_type_0 = PlayerRef.from_dict(data)

                return opponent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerRef, data)

        opponent = _parse_opponent(d.pop("opponent"))

        players = Players.from_dict(d.pop("players"))

        ply = d.pop("ply")

        rated = d.pop("rated")

        def _parse_result(data: object) -> GameResult | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = GameResult.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GameResult | None, data)

        result = _parse_result(d.pop("result"))

        rules = RulesView.from_dict(d.pop("rules"))

        setup_done = SetupDone.from_dict(d.pop("setup_done"))

        setups = ExportSetups.from_dict(d.pop("setups"))

        status = Status(d.pop("status"))

        def _parse_time_control(data: object) -> FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_0 = PerMoveTimeControl.from_dict(data)

                return componentsschemas_time_control_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_1 = FischerTimeControl.from_dict(data)

                return componentsschemas_time_control_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_time_control_type_2 = MovesInDaysTimeControl.from_dict(data)

            return componentsschemas_time_control_type_2

        time_control = _parse_time_control(d.pop("time_control"))

        def _parse_tournament(data: object) -> None | TournamentLink:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tournament_type_0 = TournamentLink.from_dict(data)

                return tournament_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TournamentLink, data)

        tournament = _parse_tournament(d.pop("tournament"))

        def _parse_turn(data: object) -> Color | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                turn_type_0 = Color(data)

                return turn_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Color | None, data)

        turn = _parse_turn(d.pop("turn"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        variant = Variant(d.pop("variant"))

        version = d.pop("version")

        def _parse_you(data: object) -> Color | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                you_type_0 = Color(data)

                return you_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Color | None, data)

        you = _parse_you(d.pop("you"))

        game_export = cls(
            created_at=created_at,
            creator=creator,
            days_per_move=days_per_move,
            id=id,
            moves=moves,
            opponent=opponent,
            players=players,
            ply=ply,
            rated=rated,
            result=result,
            rules=rules,
            setup_done=setup_done,
            setups=setups,
            status=status,
            time_control=time_control,
            tournament=tournament,
            turn=turn,
            updated_at=updated_at,
            variant=variant,
            version=version,
            you=you,
        )

        game_export.additional_properties = d
        return game_export

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
