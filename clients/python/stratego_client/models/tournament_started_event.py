from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tournament_started_event_type import TournamentStartedEventType

if TYPE_CHECKING:
    from ..models.round_game import RoundGame


T = TypeVar("T", bound="TournamentStartedEvent")


@_attrs_define
class TournamentStartedEvent:
    """A tournament you play in started (sent to every player): `games`
    are yours it started with (a round robin's: all of them; a Swiss
    event's: the first round's). Each game's setup phase, and its
    clock, has started (docs/tournaments.md).

        Attributes:
            bye (bool): Whether you have the first round's bye
            created_at (datetime.datetime):
            games (list[RoundGame]):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            name (str): The tournament's name
            tournament_id (UUID):
            type_ (TournamentStartedEventType):
    """

    bye: bool
    created_at: datetime.datetime
    games: list[RoundGame]
    id: int
    name: str
    tournament_id: UUID
    type_: TournamentStartedEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bye = self.bye

        created_at = self.created_at.isoformat()

        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        id = self.id

        name = self.name

        tournament_id = str(self.tournament_id)

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bye": bye,
                "created_at": created_at,
                "games": games,
                "id": id,
                "name": name,
                "tournament_id": tournament_id,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.round_game import RoundGame

        d = dict(src_dict)
        bye = d.pop("bye")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = RoundGame.from_dict(games_item_data)

            games.append(games_item)

        id = d.pop("id")

        name = d.pop("name")

        tournament_id = UUID(d.pop("tournament_id"))

        type_ = TournamentStartedEventType(d.pop("type"))

        tournament_started_event = cls(
            bye=bye,
            created_at=created_at,
            games=games,
            id=id,
            name=name,
            tournament_id=tournament_id,
            type_=type_,
        )

        tournament_started_event.additional_properties = d
        return tournament_started_event

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
