from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.preferences_input_events import PreferencesInputEvents


T = TypeVar("T", bound="PreferencesInput")


@_attrs_define
class PreferencesInput:
    """Preferences to set: the events and channels given are set, the others
    take their defaults.

        Example:
            {'events': {'deadline_soon': {'push': True}, 'your_move': {'email': False}}}

        Attributes:
            events (PreferencesInputEvents | Unset):
    """

    events: PreferencesInputEvents | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events: dict[str, Any] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = self.events.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if events is not UNSET:
            field_dict["events"] = events

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preferences_input_events import PreferencesInputEvents

        d = dict(src_dict)
        _events = d.pop("events", UNSET)
        events: PreferencesInputEvents | Unset
        if isinstance(_events, Unset):
            events = UNSET
        else:
            events = PreferencesInputEvents.from_dict(_events)

        preferences_input = cls(
            events=events,
        )

        return preferences_input
