from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color
from ..models.draw_offered_event_type import DrawOfferedEventType

T = TypeVar("T", bound="DrawOfferedEvent")


@_attrs_define
class DrawOfferedEvent:
    """The opponent offers a draw (sent to the other player).

    Attributes:
        by (Color): A side.
        created_at (datetime.datetime):
        game_id (UUID):
        id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
            `after` (or `Last-Event-ID`) to resume.
        type_ (DrawOfferedEventType):
    """

    by: Color
    created_at: datetime.datetime
    game_id: UUID
    id: int
    type_: DrawOfferedEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by = self.by.value

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
        by = Color(d.pop("by"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        game_id = UUID(d.pop("game_id"))

        id = d.pop("id")

        type_ = DrawOfferedEventType(d.pop("type"))

        draw_offered_event = cls(
            by=by,
            created_at=created_at,
            game_id=game_id,
            id=id,
            type_=type_,
        )

        draw_offered_event.additional_properties = d
        return draw_offered_event

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
