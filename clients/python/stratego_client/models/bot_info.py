from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BotInfo")


@_attrs_define
class BotInfo:
    """A bot anyone may challenge (`"opponent": "<username>"`) in every
    variant and ruleset.

        Attributes:
            description (str): How it plays
            strength (int): 1 (weakest) to 5 Example: 3.
            username (str):  Example: bot-tactician.
    """

    description: str
    strength: int
    username: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        strength = self.strength

        username = self.username

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "description": description,
                "strength": strength,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description")

        strength = d.pop("strength")

        username = d.pop("username")

        bot_info = cls(
            description=description,
            strength=strength,
            username=username,
        )

        bot_info.additional_properties = d
        return bot_info

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
