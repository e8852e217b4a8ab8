from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClockView")


@_attrs_define
class ClockView:
    """One player's clock.

    Attributes:
        deadline (datetime.datetime | None): When this clock runs out at its present rate: `null` while it does
            not run (the other player's move, a setup already placed, a
            vacation, the game not in progress).
        on_vacation (bool): Whether the player is on vacation (docs/lifecycle.md, "Vacation"):
            the clock is stopped.
        remaining_seconds (int): Seconds left on this clock now (0 once it has run out).
        running (bool): Whether it runs now.
        until (datetime.datetime | None): While on vacation: when the clock runs again at the latest (the
            vacation may end sooner).
        moves_to_control (int | None | Unset): Under `moves_in_days` only: the moves this player still makes
            before the next control adds its days.
    """

    deadline: datetime.datetime | None
    on_vacation: bool
    remaining_seconds: int
    running: bool
    until: datetime.datetime | None
    moves_to_control: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deadline: None | str
        if isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        on_vacation = self.on_vacation

        remaining_seconds = self.remaining_seconds

        running = self.running

        until: None | str
        if isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        moves_to_control: int | None | Unset
        if isinstance(self.moves_to_control, Unset):
            moves_to_control = UNSET
        else:
            moves_to_control = self.moves_to_control

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deadline": deadline,
                "on_vacation": on_vacation,
                "remaining_seconds": remaining_seconds,
                "running": running,
                "until": until,
            }
        )
        if moves_to_control is not UNSET:
            field_dict["moves_to_control"] = moves_to_control

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_deadline(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline = _parse_deadline(d.pop("deadline"))

        on_vacation = d.pop("on_vacation")

        remaining_seconds = d.pop("remaining_seconds")

        running = d.pop("running")

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

        def _parse_moves_to_control(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        moves_to_control = _parse_moves_to_control(d.pop("moves_to_control", UNSET))

        clock_view = cls(
            deadline=deadline,
            on_vacation=on_vacation,
            remaining_seconds=remaining_seconds,
            running=running,
            until=until,
            moves_to_control=moves_to_control,
        )

        clock_view.additional_properties = d
        return clock_view

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
