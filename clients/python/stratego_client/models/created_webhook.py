from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.notify_event import NotifyEvent

T = TypeVar("T", bound="CreatedWebhook")


@_attrs_define
class CreatedWebhook:
    """A webhook just created, with the secret its deliveries are signed with.

    Example:
        {'created_at': '2026-12-03T10:00:00Z', 'disabled_reason': None, 'events': None, 'id':
            '7d1e2f3a-4b5c-4d6e-8f9a-0b1c2d3e4f5a', 'secret': 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'state': 'active',
            'url': 'https://bots.example.org/stratego/hook'}

    Attributes:
        created_at (datetime.datetime):
        disabled_reason (None | str):
        events (list[NotifyEvent] | None):
        id (UUID):
        secret (str): `whsec_` and the base64 of the key: shown only now; keep it to
            verify each delivery's `webhook-signature`
        state (str):
        url (str):
    """

    created_at: datetime.datetime
    disabled_reason: None | str
    events: list[NotifyEvent] | None
    id: UUID
    secret: str
    state: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        events: list[str] | None
        if isinstance(self.events, list):
            events = []
            for events_type_0_item_data in self.events:
                events_type_0_item = events_type_0_item_data.value
                events.append(events_type_0_item)

        else:
            events = self.events

        id = str(self.id)

        secret = self.secret

        state = self.state

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "disabled_reason": disabled_reason,
                "events": events,
                "id": id,
                "secret": secret,
                "state": state,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

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

        id = UUID(d.pop("id"))

        secret = d.pop("secret")

        state = d.pop("state")

        url = d.pop("url")

        created_webhook = cls(
            created_at=created_at,
            disabled_reason=disabled_reason,
            events=events,
            id=id,
            secret=secret,
            state=state,
            url=url,
        )

        created_webhook.additional_properties = d
        return created_webhook

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
