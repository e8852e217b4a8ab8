from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.piece import Piece

T = TypeVar("T", bound="ArmyPiece")


@_attrs_define
class ArmyPiece:
    """One kind of piece in an army.

    Attributes:
        count (int): How many each player has
        movable (bool): Bombs and flags never move
        old_number (str): The number printed in the 1961 edition (`1` marshal .. `9` scout,
            `S` spy, `B` bomb, `F` flag)
        piece (Piece): A piece by name.
        strength (int | None): Modern numbering (marshal 10 .. spy 1); `null` for bomb and flag
    """

    count: int
    movable: bool
    old_number: str
    piece: Piece
    strength: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        movable = self.movable

        old_number = self.old_number

        piece = self.piece.value

        strength: int | None
        strength = self.strength

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "movable": movable,
                "old_number": old_number,
                "piece": piece,
                "strength": strength,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        movable = d.pop("movable")

        old_number = d.pop("old_number")

        piece = Piece(d.pop("piece"))

        def _parse_strength(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        strength = _parse_strength(d.pop("strength"))

        army_piece = cls(
            count=count,
            movable=movable,
            old_number=old_number,
            piece=piece,
            strength=strength,
        )

        army_piece.additional_properties = d
        return army_piece

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
