from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_summary import GameSummary
    from ..models.rating_view import RatingView


T = TypeVar("T", bound="Profile")


@_attrs_define
class Profile:
    """A player's public profile.

    Example:
        {'current_games': [{'created_at': '2026-12-01T09:00:00Z', 'creator': {'deleted': False, 'id':
            '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}, 'days_per_move': 3, 'deadline':
            '2026-12-04T10:00:00Z', 'id': '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'opponent': {'deleted': False, 'id':
            '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}, 'players': {'blue': {'deleted': False, 'id':
            '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}, 'red': {'deleted': False, 'id':
            '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}}, 'ply': 6, 'rated': True, 'result': None, 'rules':
            {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
            'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}, 'setup_done':
            {'blue': True, 'red': True}, 'status': 'playing', 'time_control': {'days': 3, 'type': 'per_move'}, 'tournament':
            None, 'turn': 'red', 'updated_at': '2026-12-01T10:00:00Z', 'variant': 'duel', 'version': 9}], 'id':
            '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'joined_at': '2026-09-14T12:00:00Z', 'on_vacation': False, 'ratings':
            [{'deviation': 84.2, 'draws': 3, 'games': 31, 'last_game_at': '2026-11-30T18:00:00Z', 'losses': 10, 'rating':
            1612.4, 'settled': True, 'variant': 'classic', 'volatility': 0.0599, 'wins': 18}, {'deviation': 212.7, 'draws':
            1, 'games': 2, 'last_game_at': '2026-10-02T09:30:00Z', 'losses': 1, 'rating': 1478.0, 'settled': False,
            'variant': 'duel', 'volatility': 0.06, 'wins': 0}], 'username': 'ann', 'vacation_remaining_days': 30}

    Attributes:
        current_games (list[GameSummary]): Games not yet over in which the player holds a seat, newest first
            (at most 50), as any spectator sees them.
        id (UUID):
        joined_at (datetime.datetime): When the account was registered.
        on_vacation (bool): Whether the player is on vacation: their clocks are stopped
            (docs/lifecycle.md, "Vacation").
        ratings (list[RatingView]): One rating per variant with a rated game, in variant order.
        username (str):
        vacation_remaining_days (int): The vacation days the player has left this year.
    """

    current_games: list[GameSummary]
    id: UUID
    joined_at: datetime.datetime
    on_vacation: bool
    ratings: list[RatingView]
    username: str
    vacation_remaining_days: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        current_games = []
        for current_games_item_data in self.current_games:
            current_games_item = current_games_item_data.to_dict()
            current_games.append(current_games_item)

        id = str(self.id)

        joined_at = self.joined_at.isoformat()

        on_vacation = self.on_vacation

        ratings = []
        for ratings_item_data in self.ratings:
            ratings_item = ratings_item_data.to_dict()
            ratings.append(ratings_item)

        username = self.username

        vacation_remaining_days = self.vacation_remaining_days

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "current_games": current_games,
                "id": id,
                "joined_at": joined_at,
                "on_vacation": on_vacation,
                "ratings": ratings,
                "username": username,
                "vacation_remaining_days": vacation_remaining_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_summary import GameSummary
        from ..models.rating_view import RatingView

        d = dict(src_dict)
        current_games = []
        _current_games = d.pop("current_games")
        for current_games_item_data in _current_games:
            current_games_item = GameSummary.from_dict(current_games_item_data)

            current_games.append(current_games_item)

        id = UUID(d.pop("id"))

        joined_at = datetime.datetime.fromisoformat(d.pop("joined_at"))

        on_vacation = d.pop("on_vacation")

        ratings = []
        _ratings = d.pop("ratings")
        for ratings_item_data in _ratings:
            ratings_item = RatingView.from_dict(ratings_item_data)

            ratings.append(ratings_item)

        username = d.pop("username")

        vacation_remaining_days = d.pop("vacation_remaining_days")

        profile = cls(
            current_games=current_games,
            id=id,
            joined_at=joined_at,
            on_vacation=on_vacation,
            ratings=ratings,
            username=username,
            vacation_remaining_days=vacation_remaining_days,
        )

        profile.additional_properties = d
        return profile

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
