from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ExportSetups")


@_attrs_define
class ExportSetups:
    """Each player's setup as the caller may know it.

    Attributes:
        blue (None | str):
        red (None | str): 100 characters, `a1` .. `j10`: this player's pieces (Red `B`..`M`,
            Blue `N`..`Y`), `A` for every other square, `_` for the lakes.
            `null` while the caller may not know it (an opponent's setup before
            the game is over) or before it is placed.
    """

    blue: None | str
    red: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blue: None | str
        blue = self.blue

        red: None | str
        red = self.red

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blue": blue,
                "red": red,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_blue(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        blue = _parse_blue(d.pop("blue"))

        def _parse_red(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        red = _parse_red(d.pop("red"))

        export_setups = cls(
            blue=blue,
            red=red,
        )

        export_setups.additional_properties = d
        return export_setups

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
