from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tournament_finished_event_type import TournamentFinishedEventType

T = TypeVar("T", bound="TournamentFinishedEvent")


@_attrs_define
class TournamentFinishedEvent:
    """A tournament you played in is over (sent to every player, withdrawn
    ones included).

        Attributes:
            created_at (datetime.datetime):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            name (str): The tournament's name
            place (int): Your place in the final standings (shared places are equal)
            players (int): How many played
            tournament_id (UUID):
            type_ (TournamentFinishedEventType):
    """

    created_at: datetime.datetime
    id: int
    name: str
    place: int
    players: int
    tournament_id: UUID
    type_: TournamentFinishedEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        name = self.name

        place = self.place

        players = self.players

        tournament_id = str(self.tournament_id)

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "name": name,
                "place": place,
                "players": players,
                "tournament_id": tournament_id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        name = d.pop("name")

        place = d.pop("place")

        players = d.pop("players")

        tournament_id = UUID(d.pop("tournament_id"))

        type_ = TournamentFinishedEventType(d.pop("type"))

        tournament_finished_event = cls(
            created_at=created_at,
            id=id,
            name=name,
            place=place,
            players=players,
            tournament_id=tournament_id,
            type_=type_,
        )

        tournament_finished_event.additional_properties = d
        return tournament_finished_event

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
