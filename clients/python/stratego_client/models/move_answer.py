from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_view import GameView
    from ..models.move_view import MoveView


T = TypeVar("T", bound="MoveAnswer")


@_attrs_define
class MoveAnswer:
    """The answer to a move: the move as the mover sees it, and the mover's new
    view of the game.

        Example:
            {'game': {'board': [{'color': 'red', 'id': 1, 'moved': True, 'piece': 'marshal', 'revealed': False, 'square':
                'a1', 'strength': 10}, {'color': 'red', 'id': 3, 'moved': True, 'piece': 'scout', 'revealed': True, 'square':
                'b1', 'strength': 2}, {'color': 'red', 'id': 5, 'moved': False, 'piece': 'spy', 'revealed': False, 'square':
                'f1', 'strength': 1}, {'color': 'red', 'id': 9, 'moved': False, 'piece': 'miner', 'revealed': False, 'square':
                'j1', 'strength': 3}, {'color': 'red', 'id': 10, 'moved': False, 'piece': 'bomb', 'revealed': False, 'square':
                'a2', 'strength': None}, {'color': 'red', 'id': 19, 'moved': False, 'piece': 'flag', 'revealed': False,
                'square': 'j2', 'strength': None}, {'color': 'red', 'id': 23, 'moved': True, 'piece': 'scout', 'revealed': True,
                'square': 'b3', 'strength': 2}, {'color': 'red', 'id': 24, 'moved': False, 'piece': 'miner', 'revealed': False,
                'square': 'e3', 'strength': 3}, {'color': 'red', 'id': 26, 'moved': False, 'piece': 'general', 'revealed':
                False, 'square': 'g3', 'strength': 9}, {'color': 'red', 'id': 28, 'moved': False, 'piece': 'bomb', 'revealed':
                False, 'square': 'i3', 'strength': None}, {'color': 'blue', 'id': 75, 'moved': True, 'piece': None, 'revealed':
                False, 'square': 'f7', 'strength': None}, {'color': 'blue', 'id': 78, 'moved': True, 'piece': None, 'revealed':
                False, 'square': 'i7', 'strength': None}, {'color': 'blue', 'id': 71, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'b8', 'strength': None}, {'color': 'blue', 'id': 76, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'g8', 'strength': None}, {'color': 'blue', 'id': 77, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'h8', 'strength': None}, {'color': 'blue', 'id': 83, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'd9', 'strength': None}, {'color': 'blue', 'id': 84, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'e9', 'strength': None}, {'color': 'blue', 'id': 90, 'moved': False, 'piece': None, 'revealed':
                False, 'square': 'a10', 'strength': None}, {'color': 'blue', 'id': 82, 'moved': True, 'piece': None, 'revealed':
                False, 'square': 'c10', 'strength': None}, {'color': 'blue', 'id': 96, 'moved': False, 'piece': None,
                'revealed': False, 'square': 'g10', 'strength': None}], 'captured': {'blue': [], 'red': []}, 'clocks': {'blue':
                {'deadline': None, 'on_vacation': False, 'remaining_seconds': 259200, 'running': False, 'until': None}, 'red':
                {'deadline': '2026-12-04T10:00:00Z', 'on_vacation': False, 'remaining_seconds': 172800, 'running': True,
                'until': None}}, 'created_at': '2026-12-01T09:00:00Z', 'creator': {'deleted': False, 'id':
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
                '2026-12-01T10:00:00Z', 'variant': 'duel', 'version': 9, 'you': 'red'}, 'move': {'battle': None, 'color':
                'blue', 'from': 'i8', 'piece': 'spy', 'ply': 6, 'rescue': None, 'to': 'i7'}}

        Attributes:
            game (GameView): The game as one caller may see it (a player, or a spectator). It never
                holds a rank the caller may not know: an opponent's unrevealed piece has
                `piece: null`; before play starts `board` shows only the caller's own
                setup (spectators see no pieces then); once the game is finished every
                piece is revealed to everyone. Example: {'board': [{'color': 'red', 'id': 1, 'moved': True, 'piece': 'marshal',
                'revealed': False, 'square': 'a1', 'strength': 10}, {'color': 'red', 'id': 3, 'moved': True, 'piece': 'scout',
                'revealed': True, 'square': 'b1', 'strength': 2}, {'color': 'red', 'id': 5, 'moved': False, 'piece': 'spy',
                'revealed': False, 'square': 'f1', 'strength': 1}, {'color': 'red', 'id': 9, 'moved': False, 'piece': 'miner',
                'revealed': False, 'square': 'j1', 'strength': 3}, {'color': 'red', 'id': 10, 'moved': False, 'piece': 'bomb',
                'revealed': False, 'square': 'a2', 'strength': None}, {'color': 'red', 'id': 19, 'moved': False, 'piece':
                'flag', 'revealed': False, 'square': 'j2', 'strength': None}, {'color': 'red', 'id': 23, 'moved': True, 'piece':
                'scout', 'revealed': True, 'square': 'b3', 'strength': 2}, {'color': 'red', 'id': 24, 'moved': False, 'piece':
                'miner', 'revealed': False, 'square': 'e3', 'strength': 3}, {'color': 'red', 'id': 26, 'moved': False, 'piece':
                'general', 'revealed': False, 'square': 'g3', 'strength': 9}, {'color': 'red', 'id': 28, 'moved': False,
                'piece': 'bomb', 'revealed': False, 'square': 'i3', 'strength': None}, {'color': 'blue', 'id': 75, 'moved':
                True, 'piece': None, 'revealed': False, 'square': 'f7', 'strength': None}, {'color': 'blue', 'id': 78, 'moved':
                True, 'piece': None, 'revealed': False, 'square': 'i7', 'strength': None}, {'color': 'blue', 'id': 71, 'moved':
                False, 'piece': None, 'revealed': False, 'square': 'b8', 'strength': None}, {'color': 'blue', 'id': 76, 'moved':
                False, 'piece': None, 'revealed': False, 'square': 'g8', 'strength': None}, {'color': 'blue', 'id': 77, 'moved':
                False, 'piece': None, 'revealed': False, 'square': 'h8', 'strength': None}, {'color': 'blue', 'id': 83, 'moved':
                False, 'piece': None, 'revealed': False, 'square': 'd9', 'strength': None}, {'color': 'blue', 'id': 84, 'moved':
                False, 'piece': None, 'revealed': False, 'square': 'e9', 'strength': None}, {'color': 'blue', 'id': 90, 'moved':
                False, 'piece': None, 'revealed': False, 'square': 'a10', 'strength': None}, {'color': 'blue', 'id': 82,
                'moved': True, 'piece': None, 'revealed': False, 'square': 'c10', 'strength': None}, {'color': 'blue', 'id': 96,
                'moved': False, 'piece': None, 'revealed': False, 'square': 'g10', 'strength': None}], 'captured': {'blue': [],
                'red': []}, 'clocks': {'blue': {'deadline': None, 'on_vacation': False, 'remaining_seconds': 259200, 'running':
                False, 'until': None}, 'red': {'deadline': '2026-12-04T10:00:00Z', 'on_vacation': False, 'remaining_seconds':
                172800, 'running': True, 'until': None}}, 'created_at': '2026-12-01T09:00:00Z', 'creator': {'deleted': False,
                'id': '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}, 'days_per_move': 3, 'deadline':
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
                '2026-12-01T10:00:00Z', 'variant': 'duel', 'version': 9, 'you': 'red'}.
            move (MoveView): One ply as the viewer may see it. Example: {'battle': {'attacker': 'captain', 'defender':
                'major', 'outcome': 'defender_wins'}, 'color': 'blue', 'from': 'e8', 'piece': 'captain', 'ply': 16, 'rescue':
                None, 'to': 'e7'}.
    """

    game: GameView
    move: MoveView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game = self.game.to_dict()

        move = self.move.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "move": move,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_view import GameView
        from ..models.move_view import MoveView

        d = dict(src_dict)
        game = GameView.from_dict(d.pop("game"))

        move = MoveView.from_dict(d.pop("move"))

        move_answer = cls(
            game=game,
            move=move,
        )

        move_answer.additional_properties = d
        return move_answer

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
