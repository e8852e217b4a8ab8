from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.piece import Piece

T = TypeVar("T", bound="SetupToSavePlacement")


@_attrs_define
class SetupToSavePlacement:
    """Your whole army by square, validated exactly like a game setup"""

    additional_properties: dict[str, Piece] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        setup_to_save_placement = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = Piece(prop_dict)

            additional_properties[prop_name] = additional_property

        setup_to_save_placement.additional_properties = additional_properties
        return setup_to_save_placement

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Piece:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Piece) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
