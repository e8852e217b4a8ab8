from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rematch_offered_event_type import RematchOfferedEventType

T = TypeVar("T", bound="RematchOfferedEvent")


@_attrs_define
class RematchOfferedEvent:
    """Your opponent of a finished game offers a rematch: a new game with
    the same rules and the colors swapped, `game_id`, waiting for you to
    join (accept) or decline it like a challenge (sent to the opponent).

        Attributes:
            created_at (datetime.datetime):
            from_ (str): The offering player's username
            game_id (UUID):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            rematch_of (UUID): The finished game
            type_ (RematchOfferedEventType):
    """

    created_at: datetime.datetime
    from_: str
    game_id: UUID
    id: int
    rematch_of: UUID
    type_: RematchOfferedEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        from_ = self.from_

        game_id = str(self.game_id)

        id = self.id

        rematch_of = str(self.rematch_of)

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "from": from_,
                "game_id": game_id,
                "id": id,
                "rematch_of": rematch_of,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        from_ = d.pop("from")

        game_id = UUID(d.pop("game_id"))

        id = d.pop("id")

        rematch_of = UUID(d.pop("rematch_of"))

        type_ = RematchOfferedEventType(d.pop("type"))

        rematch_offered_event = cls(
            created_at=created_at,
            from_=from_,
            game_id=game_id,
            id=id,
            rematch_of=rematch_of,
            type_=type_,
        )

        rematch_offered_event.additional_properties = d
        return rematch_offered_event

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
