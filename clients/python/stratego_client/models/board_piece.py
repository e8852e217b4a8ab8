from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color
from ..models.piece import Piece

T = TypeVar("T", bound="BoardPiece")


@_attrs_define
class BoardPiece:
    """One occupied square as the viewer sees it.

    Example:
        {'color': 'blue', 'id': 76, 'moved': True, 'piece': None, 'revealed': False, 'square': 'h8', 'strength': None}

    Attributes:
        color (Color): A side.
        id (int): A stable id with no rank information: the piece's starting square
            index (0 = a1 .. 99 = j10), or 100, 101, ... for a piece brought back
            by a rescue (in the order of the game's rescues)
        moved (bool): The piece has moved at least once (public)
        piece (None | Piece):
        revealed (bool): The owner's opponent knows the rank
        square (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the
            server writes lower case).
        strength (int | None): Modern strength (marshal 10 .. spy 1); null when hidden or bomb/flag
    """

    color: Color
    id: int
    moved: bool
    piece: None | Piece
    revealed: bool
    square: str
    strength: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        color = self.color.value

        id = self.id

        moved = self.moved

        piece: None | str
        if isinstance(self.piece, Piece):
            piece = self.piece.value
        else:
            piece = self.piece

        revealed = self.revealed

        square = self.square

        strength: int | None
        strength = self.strength

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "color": color,
                "id": id,
                "moved": moved,
                "piece": piece,
                "revealed": revealed,
                "square": square,
                "strength": strength,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        color = Color(d.pop("color"))

        id = d.pop("id")

        moved = d.pop("moved")

        def _parse_piece(data: object) -> None | Piece:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                piece_type_0 = Piece(data)

                return piece_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Piece, data)

        piece = _parse_piece(d.pop("piece"))

        revealed = d.pop("revealed")

        square = d.pop("square")

        def _parse_strength(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        strength = _parse_strength(d.pop("strength"))

        board_piece = cls(
            color=color,
            id=id,
            moved=moved,
            piece=piece,
            revealed=revealed,
            square=square,
            strength=strength,
        )

        board_piece.additional_properties = d
        return board_piece

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
