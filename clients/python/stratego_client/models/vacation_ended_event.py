from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.vacation_ended_event_type import VacationEndedEventType

T = TypeVar("T", bound="VacationEndedEvent")


@_attrs_define
class VacationEndedEvent:
    """Your opponent's vacation ended: their clock runs again when it is
    theirs to act (sent as `vacation_started` was).

        Attributes:
            by (str): The username of the player back from vacation
            created_at (datetime.datetime):
            game_id (UUID):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            type_ (VacationEndedEventType):
    """

    by: str
    created_at: datetime.datetime
    game_id: UUID
    id: int
    type_: VacationEndedEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by = self.by

        created_at = self.created_at.isoformat()

        game_id = str(self.game_id)

        id = self.id

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by": by,
                "created_at": created_at,
                "game_id": game_id,
                "id": id,
                "type": type_,
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

        type_ = VacationEndedEventType(d.pop("type"))

        vacation_ended_event = cls(
            by=by,
            created_at=created_at,
            game_id=game_id,
            id=id,
            type_=type_,
        )

        vacation_ended_event.additional_properties = d
        return vacation_ended_event

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
