from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.deadline_soon_event_type import DeadlineSoonEventType

T = TypeVar("T", bound="DeadlineSoonEvent")


@_attrs_define
class DeadlineSoonEvent:
    """Less than the configured share of your move time (or, during setup,
    of your setup time, if your setup is not in yet) is left.

        Attributes:
            created_at (datetime.datetime):
            deadline (datetime.datetime): When your move (or setup) time runs out
            game_id (UUID):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            type_ (DeadlineSoonEventType):
    """

    created_at: datetime.datetime
    deadline: datetime.datetime
    game_id: UUID
    id: int
    type_: DeadlineSoonEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        deadline = self.deadline.isoformat()

        game_id = str(self.game_id)

        id = self.id

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "deadline": deadline,
                "game_id": game_id,
                "id": id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        deadline = datetime.datetime.fromisoformat(d.pop("deadline"))

        game_id = UUID(d.pop("game_id"))

        id = d.pop("id")

        type_ = DeadlineSoonEventType(d.pop("type"))

        deadline_soon_event = cls(
            created_at=created_at,
            deadline=deadline,
            game_id=game_id,
            id=id,
            type_=type_,
        )

        deadline_soon_event.additional_properties = d
        return deadline_soon_event

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
