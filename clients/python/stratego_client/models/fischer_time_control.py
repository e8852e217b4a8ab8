from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.fischer_time_control_type import FischerTimeControlType

T = TypeVar("T", bound="FischerTimeControl")


@_attrs_define
class FischerTimeControl:
    """A bank of `initial_days` per player; each move adds
    `increment_days`, never beyond `max_days`.

        Attributes:
            increment_days (int):
            initial_days (int):
            max_days (int):
            type_ (FischerTimeControlType):
    """

    increment_days: int
    initial_days: int
    max_days: int
    type_: FischerTimeControlType

    def to_dict(self) -> dict[str, Any]:
        increment_days = self.increment_days

        initial_days = self.initial_days

        max_days = self.max_days

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "increment_days": increment_days,
                "initial_days": initial_days,
                "max_days": max_days,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        increment_days = d.pop("increment_days")

        initial_days = d.pop("initial_days")

        max_days = d.pop("max_days")

        type_ = FischerTimeControlType(d.pop("type"))

        fischer_time_control = cls(
            increment_days=increment_days,
            initial_days=initial_days,
            max_days=max_days,
            type_=type_,
        )

        return fischer_time_control
