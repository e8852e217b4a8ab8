from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color
from ..models.piece import Piece

if TYPE_CHECKING:
    from ..models.battle import Battle
    from ..models.rescue import Rescue


T = TypeVar("T", bound="MoveView")


@_attrs_define
class MoveView:
    """One ply as the viewer may see it.

    Example:
        {'battle': {'attacker': 'captain', 'defender': 'major', 'outcome': 'defender_wins'}, 'color': 'blue', 'from':
            'e8', 'piece': 'captain', 'ply': 16, 'rescue': None, 'to': 'e7'}

    Attributes:
        battle (Battle | None):
        color (Color): A side.
        from_ (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the
            server writes lower case).
        piece (None | Piece):
        ply (int):
        rescue (None | Rescue):
        to (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the server
            writes lower case).
    """

    battle: Battle | None
    color: Color
    from_: str
    piece: None | Piece
    ply: int
    rescue: None | Rescue
    to: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.battle import Battle
        from ..models.rescue import Rescue

        battle: dict[str, Any] | None
        if isinstance(self.battle, Battle):
            battle = self.battle.to_dict()
        else:
            battle = self.battle

        color = self.color.value

        from_ = self.from_

        piece: None | str
        if isinstance(self.piece, Piece):
            piece = self.piece.value
        else:
            piece = self.piece

        ply = self.ply

        rescue: dict[str, Any] | None
        if isinstance(self.rescue, Rescue):
            rescue = self.rescue.to_dict()
        else:
            rescue = self.rescue

        to = self.to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "battle": battle,
                "color": color,
                "from": from_,
                "piece": piece,
                "ply": ply,
                "rescue": rescue,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.battle import Battle
        from ..models.rescue import Rescue

        d = dict(src_dict)

        def _parse_battle(data: object) -> Battle | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                battle_type_0 = Battle.from_dict(data)

                return battle_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Battle | None, data)

        battle = _parse_battle(d.pop("battle"))

        color = Color(d.pop("color"))

        from_ = d.pop("from")

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

        ply = d.pop("ply")

        def _parse_rescue(data: object) -> None | Rescue:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rescue_type_0 = Rescue.from_dict(data)

                return rescue_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Rescue, data)

        rescue = _parse_rescue(d.pop("rescue"))

        to = d.pop("to")

        move_view = cls(
            battle=battle,
            color=color,
            from_=from_,
            piece=piece,
            ply=ply,
            rescue=rescue,
            to=to,
        )

        move_view.additional_properties = d
        return move_view

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
