from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LeaderboardEntry")


@_attrs_define
class LeaderboardEntry:
    """One line of the leaderboard.

    Attributes:
        deviation (float):
        games (int): Rated games finished in the variant.
        last_game_at (datetime.datetime): When the last rated game in the variant ended.
        rank (int): 1 for the best rating; equal ratings are ordered by user id.
        rating (float):
        user_id (UUID):
        username (str):
    """

    deviation: float
    games: int
    last_game_at: datetime.datetime
    rank: int
    rating: float
    user_id: UUID
    username: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deviation = self.deviation

        games = self.games

        last_game_at = self.last_game_at.isoformat()

        rank = self.rank

        rating = self.rating

        user_id = str(self.user_id)

        username = self.username

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deviation": deviation,
                "games": games,
                "last_game_at": last_game_at,
                "rank": rank,
                "rating": rating,
                "user_id": user_id,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        deviation = d.pop("deviation")

        games = d.pop("games")

        last_game_at = datetime.datetime.fromisoformat(d.pop("last_game_at"))

        rank = d.pop("rank")

        rating = d.pop("rating")

        user_id = UUID(d.pop("user_id"))

        username = d.pop("username")

        leaderboard_entry = cls(
            deviation=deviation,
            games=games,
            last_game_at=last_game_at,
            rank=rank,
            rating=rating,
            user_id=user_id,
            username=username,
        )

        leaderboard_entry.additional_properties = d
        return leaderboard_entry

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
