from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.per_move_time_control_type import PerMoveTimeControlType

T = TypeVar("T", bound="PerMoveTimeControl")


@_attrs_define
class PerMoveTimeControl:
    """`days` for every move (and for the setup); unused time is lost.

    Attributes:
        days (int):
        type_ (PerMoveTimeControlType):
    """

    days: int
    type_: PerMoveTimeControlType

    def to_dict(self) -> dict[str, Any]:
        days = self.days

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "days": days,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        days = d.pop("days")

        type_ = PerMoveTimeControlType(d.pop("type"))

        per_move_time_control = cls(
            days=days,
            type_=type_,
        )

        return per_move_time_control
