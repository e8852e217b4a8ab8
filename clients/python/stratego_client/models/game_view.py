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
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.board_piece import BoardPiece
    from ..models.captured import Captured
    from ..models.clocks_view import ClocksView
    from ..models.fischer_time_control import FischerTimeControl
    from ..models.game_result import GameResult
    from ..models.move import Move
    from ..models.move_view import MoveView
    from ..models.moves_in_days_time_control import MovesInDaysTimeControl
    from ..models.per_move_time_control import PerMoveTimeControl
    from ..models.player_ref import PlayerRef
    from ..models.players import Players
    from ..models.rescues_used import RescuesUsed
    from ..models.rules_view import RulesView
    from ..models.setup_done import SetupDone
    from ..models.tournament_link import TournamentLink


T = TypeVar("T", bound="GameView")


@_attrs_define
class GameView:
    """The game as one caller may see it (a player, or a spectator). It never
    holds a rank the caller may not know: an opponent's unrevealed piece has
    `piece: null`; before play starts `board` shows only the caller's own
    setup (spectators see no pieces then); once the game is finished every
    piece is revealed to everyone.

        Example:
            {'board': [{'color': 'red', 'id': 1, 'moved': True, 'piece': 'marshal', 'revealed': False, 'square': 'a1',
                'strength': 10}, {'color': 'red', 'id': 3, 'moved': True, 'piece': 'scout', 'revealed': True, 'square': 'b1',
                'strength': 2}, {'color': 'red', 'id': 5, 'moved': False, 'piece': 'spy', 'revealed': False, 'square': 'f1',
                'strength': 1}, {'color': 'red', 'id': 9, 'moved': False, 'piece': 'miner', 'revealed': False, 'square': 'j1',
                'strength': 3}, {'color': 'red', 'id': 10, 'moved': False, 'piece': 'bomb', 'revealed': False, 'square': 'a2',
                'strength': None}, {'color': 'red', 'id': 19, 'moved': False, 'piece': 'flag', 'revealed': False, 'square':
                'j2', 'strength': None}, {'color': 'red', 'id': 23, 'moved': True, 'piece': 'scout', 'revealed': True, 'square':
                'b3', 'strength': 2}, {'color': 'red', 'id': 24, 'moved': False, 'piece': 'miner', 'revealed': False, 'square':
                'e3', 'strength': 3}, {'color': 'red', 'id': 26, 'moved': False, 'piece': 'general', 'revealed': False,
                'square': 'g3', 'strength': 9}, {'color': 'red', 'id': 28, 'moved': False, 'piece': 'bomb', 'revealed': False,
                'square': 'i3', 'strength': None}, {'color': 'blue', 'id': 75, 'moved': True, 'piece': None, 'revealed': False,
                'square': 'f7', 'strength': None}, {'color': 'blue', 'id': 78, 'moved': True, 'piece': None, 'revealed': False,
                'square': 'i7', 'strength': None}, {'color': 'blue', 'id': 71, 'moved': False, 'piece': None, 'revealed': False,
                'square': 'b8', 'strength': None}, {'color': 'blue', 'id': 76, 'moved': False, 'piece': None, 'revealed': False,
                'square': 'g8', 'strength': None}, {'color': 'blue', 'id': 77, 'moved': False, 'piece': None, 'revealed': False,
                'square': 'h8', 'strength': None}, {'color': 'blue', 'id': 83, 'moved': False, 'piece': None, 'revealed': False,
                'square': 'd9', 'strength': None}, {'color': 'blue', 'id': 84, 'moved': False, 'piece': None, 'revealed': False,
                'square': 'e9', 'strength': None}, {'color': 'blue', 'id': 90, 'moved': False, 'piece': None, 'revealed': False,
                'square': 'a10', 'strength': None}, {'color': 'blue', 'id': 82, 'moved': True, 'piece': None, 'revealed': False,
                'square': 'c10', 'strength': None}, {'color': 'blue', 'id': 96, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'g10', 'strength': None}], 'captured': {'blue': [], 'red': []}, 'clocks': {'blue': {'deadline':
                None, 'on_vacation': False, 'remaining_seconds': 259200, 'running': False, 'until': None}, 'red': {'deadline':
                '2026-12-04T10:00:00Z', 'on_vacation': False, 'remaining_seconds': 172800, 'running': True, 'until': None}},
                'created_at': '2026-12-01T09:00:00Z', 'creator': {'deleted': False, 'id':
                '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}, 'days_per_move': 3, 'deadline':
                '2026-12-04T10:00:00Z', 'draw_offer': None, 'id': '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'last_move':
                {'battle': None, 'color': 'blue', 'from': 'i8', 'piece': None, 'ply': 6, 'rescue': None, 'to': 'i7'},
                'legal_moves': [{'from': 'b1', 'to': 'b2'}, {'from': 'b1', 'to': 'c1'}, {'from': 'b1', 'to': 'd1'}, {'from':
                'b1', 'to': 'e1'}, {'from': 'f1', 'to': 'f2'}, {'from': 'f1', 'to': 'g1'}, {'from': 'f1', 'to': 'e1'}, {'from':
                'j1', 'to': 'i1'}, {'from': 'b3', 'to': 'b4'}, {'from': 'b3', 'to': 'b5'}, {'from': 'b3', 'to': 'b6'}, {'from':
                'b3', 'to': 'b7'}, {'from': 'b3', 'to': 'b8'}, {'from': 'b3', 'to': 'b2'}, {'from': 'b3', 'to': 'c3'}, {'from':
                'b3', 'to': 'd3'}, {'from': 'b3', 'to': 'a3'}, {'from': 'e3', 'to': 'e4'}, {'from': 'e3', 'to': 'e2'}, {'from':
                'e3', 'to': 'f3'}, {'from': 'e3', 'to': 'd3'}, {'from': 'g3', 'to': 'g4'}, {'from': 'g3', 'to': 'g2'}, {'from':
                'g3', 'to': 'h3'}, {'from': 'g3', 'to': 'f3'}], 'opponent': {'deleted': False, 'id':
                '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}, 'players': {'blue': {'deleted': False, 'id':
                '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}, 'red': {'deleted': False, 'id':
                '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}}, 'plies_without_battle': 6, 'ply': 6, 'rated': True,
                'rescues_used': {'blue': 0, 'red': 0}, 'result': None, 'rules': {'aggressor_advantage': False, 'max_plies':
                None, 'max_plies_without_battle': None, 'more_squares_rule': False, 'rescue': False, 'scout_strike_after_move':
                True, 'silent_defense': False, 'two_square_limit': 3}, 'setup_done': {'blue': True, 'red': True}, 'status':
                'playing', 'time_control': {'days': 3, 'type': 'per_move'}, 'tournament': None, 'turn': 'red', 'updated_at':
                '2026-12-01T10:00:00Z', 'variant': 'duel', 'version': 9, 'you': 'red'}

        Attributes:
            board (list[BoardPiece]): Occupied squares only, `a1` .. `j10`.
            captured (Captured): Captured pieces of each color: known ranks in capture order, then `null`
                for each rank unknown to the viewer (only under `silent_defense`).
            clocks (ClocksView | None):
            created_at (datetime.datetime):
            creator (PlayerRef): A user taking part in a game.
            days_per_move (int): The time a move is given, in whole days: the days of `per_move`;
                for the other time controls, what they give a move on average
                (`time_control` says exactly).
            deadline (datetime.datetime | None): When the player to move (in the setup phase: the first player
                still to place a setup) runs out of time and loses (a missing setup
                aborts the game); `null` while waiting for an opponent, while that
                player is on vacation, and once the game is over. As of this
                answer; the same version of the game may be answered later with
                another (docs/lifecycle.md, "Clocks").
            draw_offer (Color | None):
            id (UUID):
            last_move (MoveView | None):
            opponent (None | PlayerRef):
            players (Players): Who sits on each side (`null`: the seat is still open).
            plies_without_battle (int): Plies since the last battle (for `max_plies_without_battle`).
            ply (int): Plies played so far.
            rated (bool): Whether the game counts for ratings (docs/ratings.md).
            rescues_used (RescuesUsed): Rescues made so far by each player.
            result (GameResult | None):
            rules (RulesView): The complete rules in force in a game (every rule is always sent). Example:
                {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
                'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}.
            setup_done (SetupDone): Whether each player's setup is in (public; the setups themselves are not).
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
            legal_moves (list[Move] | Unset): Present, and complete, only when it is the caller's turn in play;
                absent otherwise (never `null`).
    """

    board: list[BoardPiece]
    captured: Captured
    clocks: ClocksView | None
    created_at: datetime.datetime
    creator: PlayerRef
    days_per_move: int
    deadline: datetime.datetime | None
    draw_offer: Color | None
    id: UUID
    last_move: MoveView | None
    opponent: None | PlayerRef
    players: Players
    plies_without_battle: int
    ply: int
    rated: bool
    rescues_used: RescuesUsed
    result: GameResult | None
    rules: RulesView
    setup_done: SetupDone
    status: Status
    time_control: FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl
    tournament: None | TournamentLink
    turn: Color | None
    updated_at: datetime.datetime
    variant: Variant
    version: int
    you: Color | None
    legal_moves: list[Move] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.clocks_view import ClocksView
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.game_result import GameResult
        from ..models.move_view import MoveView
        from ..models.per_move_time_control import PerMoveTimeControl
        from ..models.player_ref import PlayerRef
        from ..models.tournament_link import TournamentLink

        board = []
        for board_item_data in self.board:
            board_item = board_item_data.to_dict()
            board.append(board_item)

        captured = self.captured.to_dict()

        clocks: dict[str, Any] | None
        if isinstance(self.clocks, ClocksView):
            clocks = self.clocks.to_dict()
        else:
            clocks = self.clocks

        created_at = self.created_at.isoformat()

        creator = self.creator.to_dict()

        days_per_move = self.days_per_move

        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        draw_offer: None | str
        if isinstance(self.draw_offer, Color):
            draw_offer = self.draw_offer.value
        else:
            draw_offer = self.draw_offer

        id = str(self.id)

        last_move: dict[str, Any] | None
        if isinstance(self.last_move, MoveView):
            last_move = self.last_move.to_dict()
        else:
            last_move = self.last_move

        opponent: dict[str, Any] | None
        if isinstance(self.opponent, PlayerRef):
            opponent = self.opponent.to_dict()
        else:
            opponent = self.opponent

        players = self.players.to_dict()

        plies_without_battle = self.plies_without_battle

        ply = self.ply

        rated = self.rated

        rescues_used = self.rescues_used.to_dict()

        result: dict[str, Any] | None
        if isinstance(self.result, GameResult):
            result = self.result.to_dict()
        else:
            result = self.result

        rules = self.rules.to_dict()

        setup_done = self.setup_done.to_dict()

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

        legal_moves: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.legal_moves, Unset):
            legal_moves = []
            for legal_moves_item_data in self.legal_moves:
                legal_moves_item = legal_moves_item_data.to_dict()
                legal_moves.append(legal_moves_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "board": board,
                "captured": captured,
                "clocks": clocks,
                "created_at": created_at,
                "creator": creator,
                "days_per_move": days_per_move,
                "deadline": deadline,
                "draw_offer": draw_offer,
                "id": id,
                "last_move": last_move,
                "opponent": opponent,
                "players": players,
                "plies_without_battle": plies_without_battle,
                "ply": ply,
                "rated": rated,
                "rescues_used": rescues_used,
                "result": result,
                "rules": rules,
                "setup_done": setup_done,
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
        if legal_moves is not UNSET:
            field_dict["legal_moves"] = legal_moves

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.board_piece import BoardPiece
        from ..models.captured import Captured
        from ..models.clocks_view import ClocksView
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.game_result import GameResult
        from ..models.move import Move
        from ..models.move_view import MoveView
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl
        from ..models.player_ref import PlayerRef
        from ..models.players import Players
        from ..models.rescues_used import RescuesUsed
        from ..models.rules_view import RulesView
        from ..models.setup_done import SetupDone
        from ..models.tournament_link import TournamentLink

        d = dict(src_dict)
        board = []
        _board = d.pop("board")
        for board_item_data in _board:
            board_item = BoardPiece.from_dict(board_item_data)

            board.append(board_item)

        captured = Captured.from_dict(d.pop("captured"))

        def _parse_clocks(data: object) -> ClocksView | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clocks_type_0 = ClocksView.from_dict(data)

                return clocks_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClocksView | None, data)

        clocks = _parse_clocks(d.pop("clocks"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        creator = PlayerRef.from_dict(d.pop("creator"))

        days_per_move = d.pop("days_per_move")

        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        def _parse_draw_offer(data: object) -> Color | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                draw_offer_type_0 = Color(data)

                return draw_offer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Color | None, data)

        draw_offer = _parse_draw_offer(d.pop("draw_offer"))

        id = UUID(d.pop("id"))

        def _parse_last_move(data: object) -> MoveView | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_move_type_0 = MoveView.from_dict(data)

                return last_move_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MoveView | None, data)

        last_move = _parse_last_move(d.pop("last_move"))

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

        plies_without_battle = d.pop("plies_without_battle")

        ply = d.pop("ply")

        rated = d.pop("rated")

        rescues_used = RescuesUsed.from_dict(d.pop("rescues_used"))

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

        _legal_moves = d.pop("legal_moves", UNSET)
        legal_moves: list[Move] | Unset = UNSET
        if _legal_moves is not UNSET:
            legal_moves = []
            for legal_moves_item_data in _legal_moves:
                legal_moves_item = Move.from_dict(legal_moves_item_data)

                legal_moves.append(legal_moves_item)

        game_view = cls(
            board=board,
            captured=captured,
            clocks=clocks,
            created_at=created_at,
            creator=creator,
            days_per_move=days_per_move,
            deadline=deadline,
            draw_offer=draw_offer,
            id=id,
            last_move=last_move,
            opponent=opponent,
            players=players,
            plies_without_battle=plies_without_battle,
            ply=ply,
            rated=rated,
            rescues_used=rescues_used,
            result=result,
            rules=rules,
            setup_done=setup_done,
            status=status,
            time_control=time_control,
            tournament=tournament,
            turn=turn,
            updated_at=updated_at,
            variant=variant,
            version=version,
            you=you,
            legal_moves=legal_moves,
        )

        game_view.additional_properties = d
        return game_view

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
