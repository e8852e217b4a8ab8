from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.player_ref import PlayerRef


T = TypeVar("T", bound="Players")


@_attrs_define
class Players:
    """Who sits on each side (`null`: the seat is still open).

    Attributes:
        blue (None | PlayerRef):
        red (None | PlayerRef):
    """

    blue: None | PlayerRef
    red: None | PlayerRef
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.player_ref import PlayerRef

        blue: dict[str, Any] | None
        if isinstance(self.blue, PlayerRef):
            blue = self.blue.to_dict()
        else:
            blue = self.blue

        red: dict[str, Any] | None
        if isinstance(self.red, PlayerRef):
            red = self.red.to_dict()
        else:
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
        from ..models.player_ref import PlayerRef

        d = dict(src_dict)

        def _parse_blue(data: object) -> None | PlayerRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                blue_type_0 = PlayerRef.from_dict(data)

                return blue_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerRef, data)

        blue = _parse_blue(d.pop("blue"))

        def _parse_red(data: object) -> None | PlayerRef:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                red_type_0 = PlayerRef.from_dict(data)

                return red_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerRef, data)

        red = _parse_red(d.pop("red"))

        players = cls(
            blue=blue,
            red=red,
        )

        players.additional_properties = d
        return players

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
