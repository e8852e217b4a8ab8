from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.moves_in_days_time_control_type import MovesInDaysTimeControlType

T = TypeVar("T", bound="MovesInDaysTimeControl")


@_attrs_define
class MovesInDaysTimeControl:
    """`days` for every `moves` moves, unused time carried forward (as
    ICCF counts "10 moves in 50 days").

        Attributes:
            days (int):
            moves (int):
            type_ (MovesInDaysTimeControlType):
    """

    days: int
    moves: int
    type_: MovesInDaysTimeControlType

    def to_dict(self) -> dict[str, Any]:
        days = self.days

        moves = self.moves

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "days": days,
                "moves": moves,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        days = d.pop("days")

        moves = d.pop("moves")

        type_ = MovesInDaysTimeControlType(d.pop("type"))

        moves_in_days_time_control = cls(
            days=days,
            moves=moves,
            type_=type_,
        )

        return moves_in_days_time_control
