from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AutoVacation")


@_attrs_define
class AutoVacation:
    """Turn automatic vacation on or off.

    Example:
        {'auto': True}

    Attributes:
        auto (bool):
    """

    auto: bool

    def to_dict(self) -> dict[str, Any]:
        auto = self.auto

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "auto": auto,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        auto = d.pop("auto")

        auto_vacation = cls(
            auto=auto,
        )

        return auto_vacation
