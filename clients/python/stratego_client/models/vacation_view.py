from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VacationView")


@_attrs_define
class VacationView:
    """A player's vacation and budget, as they see it.

    Example:
        {'allowance_days': 30, 'auto': False, 'carry_over_days': 10, 'ends_at': '2026-12-11T10:00:00Z', 'message':
            'hiking, back on the 11th', 'on_vacation': True, 'remaining_days': 29, 'since': '2026-12-04T10:00:00Z', 'until':
            '2026-12-11T10:00:00Z'}

    Attributes:
        allowance_days (int): Days each calendar year brings
        auto (bool): Whether a clock running out starts a vacation instead of a loss
        carry_over_days (int): Most unused days carried into the next year
        ends_at (datetime.datetime | None): When the vacation ends by itself: `until`, or sooner when the
            budget runs out (while on vacation)
        message (None | str): The note shown with it (while on vacation)
        on_vacation (bool):
        remaining_days (int): Whole days left this year, the vacation in progress charged as far
            as it went (each day or part of one)
        since (datetime.datetime | None): Since when (while on vacation)
        until (datetime.datetime | None): The end asked for with `days` (while on vacation, if asked)
    """

    allowance_days: int
    auto: bool
    carry_over_days: int
    ends_at: datetime.datetime | None
    message: None | str
    on_vacation: bool
    remaining_days: int
    since: datetime.datetime | None
    until: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        allowance_days = self.allowance_days

        auto = self.auto

        carry_over_days = self.carry_over_days

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        message: None | str
        message = self.message

        on_vacation = self.on_vacation

        remaining_days = self.remaining_days

        since: None | str
        if isinstance(self.since, datetime.datetime):
            since = self.since.isoformat()
        else:
            since = self.since

        until: None | str
        if isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "allowance_days": allowance_days,
                "auto": auto,
                "carry_over_days": carry_over_days,
                "ends_at": ends_at,
                "message": message,
                "on_vacation": on_vacation,
                "remaining_days": remaining_days,
                "since": since,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allowance_days = d.pop("allowance_days")

        auto = d.pop("auto")

        carry_over_days = d.pop("carry_over_days")

        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("ends_at"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        on_vacation = d.pop("on_vacation")

        remaining_days = d.pop("remaining_days")

        def _parse_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                since_type_0 = datetime.datetime.fromisoformat(data)

                return since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        since = _parse_since(d.pop("since"))

        def _parse_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = datetime.datetime.fromisoformat(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        until = _parse_until(d.pop("until"))

        vacation_view = cls(
            allowance_days=allowance_days,
            auto=auto,
            carry_over_days=carry_over_days,
            ends_at=ends_at,
            message=message,
            on_vacation=on_vacation,
            remaining_days=remaining_days,
            since=since,
            until=until,
        )

        vacation_view.additional_properties = d
        return vacation_view

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
