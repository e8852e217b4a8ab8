from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="IntegerRange")


@_attrs_define
class IntegerRange:
    """The range of a whole-number setting.

    Attributes:
        maximum (int):
        minimum (int):
        nullable (bool): `null` is accepted too (no cap)
    """

    maximum: int
    minimum: int
    nullable: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        maximum = self.maximum

        minimum = self.minimum

        nullable = self.nullable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "maximum": maximum,
                "minimum": minimum,
                "nullable": nullable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        maximum = d.pop("maximum")

        minimum = d.pop("minimum")

        nullable = d.pop("nullable")

        integer_range = cls(
            maximum=maximum,
            minimum=minimum,
            nullable=nullable,
        )

        integer_range.additional_properties = d
        return integer_range

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
