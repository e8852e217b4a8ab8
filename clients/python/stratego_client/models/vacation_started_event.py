from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.vacation_started_event_type import VacationStartedEventType

T = TypeVar("T", bound="VacationStartedEvent")


@_attrs_define
class VacationStartedEvent:
    """Your opponent went on vacation: their clock in this game is stopped
    (sent to the opponent in every game of theirs in progress).

        Attributes:
            by (str): The username of the player on vacation
            created_at (datetime.datetime):
            game_id (UUID):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            type_ (VacationStartedEventType):
            until (datetime.datetime): When their clock runs again at the latest (the vacation may
                end sooner)
    """

    by: str
    created_at: datetime.datetime
    game_id: UUID
    id: int
    type_: VacationStartedEventType
    until: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by = self.by

        created_at = self.created_at.isoformat()

        game_id = str(self.game_id)

        id = self.id

        type_ = self.type_.value

        until = self.until.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by": by,
                "created_at": created_at,
                "game_id": game_id,
                "id": id,
                "type": type_,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        by = d.pop("by")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        game_id = UUID(d.pop("game_id"))

        id = d.pop("id")

        type_ = VacationStartedEventType(d.pop("type"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        vacation_started_event = cls(
            by=by,
            created_at=created_at,
            game_id=game_id,
            id=id,
            type_=type_,
            until=until,
        )

        vacation_started_event.additional_properties = d
        return vacation_started_event

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
