from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """One delivery to a webhook, as its owner sees it.

    Example:
        {'attempts': 2, 'created_at': '2026-12-03T10:00:00Z', 'event': 'your_move', 'finished_at': None, 'id':
            'msg_2b3c4d5e6f7a4b8c9d0e1f2a3b4c5d6e', 'last_error': 'answered HTTP 503', 'last_status': 503,
            'next_attempt_at': '2026-12-03T10:05:05Z', 'state': 'pending'}

    Attributes:
        attempts (int): Attempts made so far
        created_at (datetime.datetime):
        event (str): The event (`ping` for a test)
        finished_at (datetime.datetime | None): When it was delivered or given up
        id (str): Its `webhook-id` header, the same on every attempt
        last_error (None | str): What went wrong with the last attempt
        last_status (int | None): The HTTP status of the last attempt, if one came
        next_attempt_at (datetime.datetime | None): When it is tried next (pending only)
        state (str): `pending` (to be tried, again or for the first time), `delivered`
            (answered 2xx) or `failed` (given up)
    """

    attempts: int
    created_at: datetime.datetime
    event: str
    finished_at: datetime.datetime | None
    id: str
    last_error: None | str
    last_status: int | None
    next_attempt_at: datetime.datetime | None
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created_at = self.created_at.isoformat()

        event = self.event

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = self.id

        last_error: None | str
        last_error = self.last_error

        last_status: int | None
        last_status = self.last_status

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "event": event,
                "finished_at": finished_at,
                "id": id,
                "last_error": last_error,
                "last_status": last_status,
                "next_attempt_at": next_attempt_at,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        event = d.pop("event")

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        id = d.pop("id")

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        def _parse_last_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status = _parse_last_status(d.pop("last_status"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        state = d.pop("state")

        delivery = cls(
            attempts=attempts,
            created_at=created_at,
            event=event,
            finished_at=finished_at,
            id=id,
            last_error=last_error,
            last_status=last_status,
            next_attempt_at=next_attempt_at,
            state=state,
        )

        delivery.additional_properties = d
        return delivery

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
