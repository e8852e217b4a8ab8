from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stream_game_response_200_event import StreamGameResponse200Event

T = TypeVar("T", bound="StreamGameResponse200")


@_attrs_define
class StreamGameResponse200:
    """One event of the stream (the `retry:` line and `: keep-alive` comments carry no data and are not events)

    Attributes:
        data (str):
        event (StreamGameResponse200Event):
        id (str): the game's version
    """

    data: str
    event: StreamGameResponse200Event
    id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        event = self.event.value

        id = self.id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "event": event,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        event = StreamGameResponse200Event(d.pop("event"))

        id = d.pop("id")

        stream_game_response_200 = cls(
            data=data,
            event=event,
            id=id,
        )

        stream_game_response_200.additional_properties = d
        return stream_game_response_200

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
