from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.notify_event import NotifyEvent

T = TypeVar("T", bound="PushSubscription")


@_attrs_define
class PushSubscription:
    """A push subscription as its owner sees it (its keys are not shown).

    Example:
        {'created_at': '2026-12-03T10:00:00Z', 'endpoint': 'https://push.example.net/send/abc123', 'events': None,
            'expiration_time': None, 'id': '4c0a8f3e-2b1d-4e5f-8a9b-0c1d2e3f4a5b'}

    Attributes:
        created_at (datetime.datetime):
        endpoint (str):
        events (list[NotifyEvent] | None): The events sent to it; `null`: every event your preferences send
            to push
        expiration_time (datetime.datetime | None): When the push service ends it, if it said
        id (UUID):
    """

    created_at: datetime.datetime
    endpoint: str
    events: list[NotifyEvent] | None
    expiration_time: datetime.datetime | None
    id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        endpoint = self.endpoint

        events: list[str] | None
        if isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item = events_type_0_item_data.value
                events.append(events_type_0_item)

        else:
            events = self.events

        expiration_time: None | str
        if isinstance(self.expiration_time, datetime.datetime):
            expiration_time = self.expiration_time.isoformat()
        else:
            expiration_time = self.expiration_time

        id = str(self.id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "endpoint": endpoint,
                "events": events,
                "expiration_time": expiration_time,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        endpoint = d.pop("endpoint")

        def _parse_events(data: object) -> list[NotifyEvent] | None:
            if data is None:
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
            return cast(list[NotifyEvent] | None, data)

        events = _parse_events(d.pop("events"))

        def _parse_expiration_time(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expiration_time_type_0 = datetime.datetime.fromisoformat(data)

                return expiration_time_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expiration_time = _parse_expiration_time(d.pop("expiration_time"))

        id = UUID(d.pop("id"))

        push_subscription = cls(
            created_at=created_at,
            endpoint=endpoint,
            events=events,
            expiration_time=expiration_time,
            id=id,
        )

        push_subscription.additional_properties = d
        return push_subscription

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
