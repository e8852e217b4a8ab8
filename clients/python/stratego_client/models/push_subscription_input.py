from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.notify_event import NotifyEvent
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.push_keys import PushKeys


T = TypeVar("T", bound="PushSubscriptionInput")


@_attrs_define
class PushSubscriptionInput:
    """A browser's `PushSubscription.toJSON()`, and optionally the events to
    send to it.

        Example:
            {'endpoint': 'https://push.example.net/send/abc123', 'expirationTime': None, 'keys': {'auth':
                'BTBZMqHH6r4Tts7J_aSIgg', 'p256dh': 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-
                JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4'}}

        Attributes:
            endpoint (str): The push service's URL for this browser (`https`)
            keys (PushKeys): The keys of a `PushSubscription`.
            events (list[NotifyEvent] | None | Unset): The events to send to it (default: every event your preferences
                send to push)
            expiration_time (int | None | Unset): When the subscription ends, in milliseconds since the epoch, as the
                Push API gives it
    """

    endpoint: str
    keys: PushKeys
    events: list[NotifyEvent] | None | Unset = UNSET
    expiration_time: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        endpoint = self.endpoint

        keys = self.keys.to_dict()

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

        expiration_time: int | None | Unset
        if isinstance(self.expiration_time, Unset):
            expiration_time = UNSET
        else:
            expiration_time = self.expiration_time

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoint": endpoint,
                "keys": keys,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events
        if expiration_time is not UNSET:
            field_dict["expirationTime"] = expiration_time

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.push_keys import PushKeys

        d = dict(src_dict)
        endpoint = d.pop("endpoint")

        keys = PushKeys.from_dict(d.pop("keys"))

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

        def _parse_expiration_time(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expiration_time = _parse_expiration_time(d.pop("expirationTime", UNSET))

        push_subscription_input = cls(
            endpoint=endpoint,
            keys=keys,
            events=events,
            expiration_time=expiration_time,
        )

        return push_subscription_input
