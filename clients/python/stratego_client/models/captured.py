from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.piece import Piece

T = TypeVar("T", bound="Captured")


@_attrs_define
class Captured:
    """Captured pieces of each color: known ranks in capture order, then `null`
    for each rank unknown to the viewer (only under `silent_defense`).

        Attributes:
            blue (list[None | Piece]):
            red (list[None | Piece]):
    """

    blue: list[None | Piece]
    red: list[None | Piece]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blue = []
        for blue_item_data in self.blue:
            blue_item: None | str
            if isinstance(blue_item_data, Piece):
                blue_item = blue_item_data.value
            else:
                blue_item = blue_item_data
            blue.append(blue_item)

        red = []
        for red_item_data in self.red:
            red_item: None | str
            if isinstance(red_item_data, Piece):
                red_item = red_item_data.value
            else:
                red_item = red_item_data
            red.append(red_item)

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
        blue = []
        _blue = d.pop("blue")
        for blue_item_data in _blue:

            def _parse_blue_item(data: object) -> None | Piece:
                if data is None:
                    return data
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    blue_item_type_0 = Piece(data)

                    return blue_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(None | Piece, data)

            blue_item = _parse_blue_item(blue_item_data)

            blue.append(blue_item)

        red = []
        _red = d.pop("red")
        for red_item_data in _red:

            def _parse_red_item(data: object) -> None | Piece:
                if data is None:
                    return data
                try:
                    if not isinstance(data, str):
                        raise TypeError()
                    red_item_type_0 = Piece(data)

                    return red_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(None | Piece, data)

            red_item = _parse_red_item(red_item_data)

            red.append(red_item)

        captured = cls(
            blue=blue,
            red=red,
        )

        captured.additional_properties = d
        return captured

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
