from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.piece import Piece

T = TypeVar("T", bound="RescueRequest")


@_attrs_define
class RescueRequest:
    """A rescue made with a move (rules option `rescue`).

    Attributes:
        piece (Piece): A piece by name.
        square (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the
            server writes lower case).
    """

    piece: Piece
    square: str

    def to_dict(self) -> dict[str, Any]:
        piece = self.piece.value

        square = self.square

        field_dict: dict[str, Any] = {}

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

        rescue_request = cls(
            piece=piece,
            square=square,
        )

        return rescue_request
