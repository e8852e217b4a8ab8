from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.integer_range import IntegerRange


T = TypeVar("T", bound="FischerRanges")


@_attrs_define
class FischerRanges:
    """
    Attributes:
        increment_days (IntegerRange): The range of a whole-number setting.
        initial_days (IntegerRange): The range of a whole-number setting.
        max_days (IntegerRange): The range of a whole-number setting.
    """

    increment_days: IntegerRange
    initial_days: IntegerRange
    max_days: IntegerRange
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        increment_days = self.increment_days.to_dict()

        initial_days = self.initial_days.to_dict()

        max_days = self.max_days.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "increment_days": increment_days,
                "initial_days": initial_days,
                "max_days": max_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.integer_range import IntegerRange

        d = dict(src_dict)
        increment_days = IntegerRange.from_dict(d.pop("increment_days"))

        initial_days = IntegerRange.from_dict(d.pop("initial_days"))

        max_days = IntegerRange.from_dict(d.pop("max_days"))

        fischer_ranges = cls(
            increment_days=increment_days,
            initial_days=initial_days,
            max_days=max_days,
        )

        fischer_ranges.additional_properties = d
        return fischer_ranges

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
