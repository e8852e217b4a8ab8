from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.piece import Piece

T = TypeVar("T", bound="Rescue")


@_attrs_define
class Rescue:
    """A rescue made with a move (docs/rules.md, `rescue`).

    Example:
        {'piece': 'captain', 'square': 'e2'}

    Attributes:
        piece (Piece): A piece by name.
        square (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the
            server writes lower case).
    """

    piece: Piece
    square: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        piece = self.piece.value

        square = self.square

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "piece": piece,
                "square": square,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        piece = Piece(d.pop("piece"))

        square = d.pop("square")

        rescue = cls(
            piece=piece,
            square=square,
        )

        rescue.additional_properties = d
        return rescue

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
