from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.preferences_events import PreferencesEvents


T = TypeVar("T", bound="Preferences")


@_attrs_define
class Preferences:
    """Per event, the channels it goes to: every event is listed.

    Example:
        {'events': {'challenge_received': {'email': True, 'push': True, 'webhook': True}, 'deadline_soon': {'email':
            False, 'push': False, 'webhook': False}, 'draw_offered': {'email': False, 'push': False, 'webhook': False},
            'game_over': {'email': True, 'push': True, 'webhook': True}, 'game_started': {'email': False, 'push': False,
            'webhook': False}, 'rematch_offered': {'email': False, 'push': False, 'webhook': False}, 'round_started':
            {'email': True, 'push': True, 'webhook': True}, 'tournament_finished': {'email': True, 'push': True, 'webhook':
            True}, 'tournament_started': {'email': True, 'push': True, 'webhook': True}, 'vacation_ended': {'email': False,
            'push': False, 'webhook': False}, 'vacation_started': {'email': True, 'push': True, 'webhook': True},
            'your_move': {'email': True, 'push': True, 'webhook': True}}}

    Attributes:
        events (PreferencesEvents):
    """

    events: PreferencesEvents
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        events = self.events.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "events": events,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.preferences_events import PreferencesEvents

        d = dict(src_dict)
        events = PreferencesEvents.from_dict(d.pop("events"))

        preferences = cls(
            events=events,
        )

        preferences.additional_properties = d
        return preferences

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
