from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.notify_event import NotifyEvent
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookInput")


@_attrs_define
class WebhookInput:
    """A webhook to create.

    Example:
        {'events': ['your_move', 'game_over'], 'url': 'https://bots.example.org/stratego/hook'}

    Attributes:
        url (str): Where deliveries are POSTed (`https`, resolving to public addresses)
        events (list[NotifyEvent] | None | Unset): The events to send to it (default: every event your preferences
            send to webhooks)
    """

    url: str
    events: list[NotifyEvent] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | None | Unset
        if isinstance(self.events, Unset):
            events = UNSET
        elif isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item = events_type_0_item_data.value
                events.append(events_type_0_item)

        else:
            events = self.events

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_events(data: object) -> list[NotifyEvent] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = []
                _events_type_0 = data
                for events_type_0_item_data in _events_type_0:
                    events_type_0_item = NotifyEvent(events_type_0_item_data)

                    events_type_0.append(events_type_0_item)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[NotifyEvent] | None | Unset, data)

        events = _parse_events(d.pop("events", UNSET))

        webhook_input = cls(
            url=url,
            events=events,
        )

        return webhook_input
