from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.move_view import MoveView


T = TypeVar("T", bound="MoveHistory")


@_attrs_define
class MoveHistory:
    """The move history as the caller may see it.

    Example:
        {'game_id': '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'moves': [{'battle': None, 'color': 'red', 'from': 'b1',
            'piece': 'marshal', 'ply': 1, 'rescue': None, 'to': 'a1'}, {'battle': None, 'color': 'blue', 'from': 'c9',
            'piece': None, 'ply': 2, 'rescue': None, 'to': 'c10'}, {'battle': None, 'color': 'red', 'from': 'd3', 'piece':
            'scout', 'ply': 3, 'rescue': None, 'to': 'b3'}, {'battle': None, 'color': 'blue', 'from': 'f8', 'piece': None,
            'ply': 4, 'rescue': None, 'to': 'f7'}, {'battle': None, 'color': 'red', 'from': 'd1', 'piece': 'scout', 'ply':
            5, 'rescue': None, 'to': 'b1'}, {'battle': None, 'color': 'blue', 'from': 'i8', 'piece': None, 'ply': 6,
            'rescue': None, 'to': 'i7'}], 'version': 9}

    Attributes:
        game_id (UUID):
        moves (list[MoveView]):
        version (int):
    """

    game_id: UUID
    moves: list[MoveView]
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game_id = str(self.game_id)

        moves = []
        for moves_item_data in self.moves:
            moves_item = moves_item_data.to_dict()
            moves.append(moves_item)

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "moves": moves,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.move_view import MoveView

        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        moves = []
        _moves = d.pop("moves")
        for moves_item_data in _moves:
            moves_item = MoveView.from_dict(moves_item_data)

            moves.append(moves_item)

        version = d.pop("version")

        move_history = cls(
            game_id=game_id,
            moves=moves,
            version=version,
        )

        move_history.additional_properties = d
        return move_history

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
