from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bot_info import BotInfo


T = TypeVar("T", bound="BotList")


@_attrs_define
class BotList:
    """The answer of `GET /bots`.

    Example:
        {'bots': [{'description': 'Places a random setup and plays a random legal move; declines every draw offer. For
            trying the API out.', 'strength': 1, 'username': 'bot-random'}, {'description': 'Hides its flag behind bombs,
            probes with scouts, remembers every rank it has seen ...', 'strength': 3, 'username': 'bot-tactician'}]}

    Attributes:
        bots (list[BotInfo]):
    """

    bots: list[BotInfo]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bots = []
        for bots_item_data in self.bots:
            bots_item = bots_item_data.to_dict()
            bots.append(bots_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bots": bots,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bot_info import BotInfo

        d = dict(src_dict)
        bots = []
        _bots = d.pop("bots")
        for bots_item_data in _bots:
            bots_item = BotInfo.from_dict(bots_item_data)

            bots.append(bots_item)

        bot_list = cls(
            bots=bots,
        )

        bot_list.additional_properties = d
        return bot_list

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
