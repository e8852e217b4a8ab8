from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.variant import Variant

T = TypeVar("T", bound="RatingView")


@_attrs_define
class RatingView:
    """A player's rating in one variant, with the rated games it comes from.

    Attributes:
        deviation (float):
        draws (int):
        games (int): Rated games finished in the variant, and how they went.
        last_game_at (datetime.datetime): When the last rated game in the variant ended.
        losses (int):
        rating (float):
        settled (bool): Whether the deviation is below the leaderboard's bound.
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        volatility (float):
        wins (int):
    """

    deviation: float
    draws: int
    games: int
    last_game_at: datetime.datetime
    losses: int
    rating: float
    settled: bool
    variant: Variant
    volatility: float
    wins: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deviation = self.deviation

        draws = self.draws

        games = self.games

        last_game_at = self.last_game_at.isoformat()

        losses = self.losses

        rating = self.rating

        settled = self.settled

        variant = self.variant.value

        volatility = self.volatility

        wins = self.wins

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deviation": deviation,
                "draws": draws,
                "games": games,
                "last_game_at": last_game_at,
                "losses": losses,
                "rating": rating,
                "settled": settled,
                "variant": variant,
                "volatility": volatility,
                "wins": wins,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        deviation = d.pop("deviation")

        draws = d.pop("draws")

        games = d.pop("games")

        last_game_at = datetime.datetime.fromisoformat(d.pop("last_game_at"))

        losses = d.pop("losses")

        rating = d.pop("rating")

        settled = d.pop("settled")

        variant = Variant(d.pop("variant"))

        volatility = d.pop("volatility")

        wins = d.pop("wins")

        rating_view = cls(
            deviation=deviation,
            draws=draws,
            games=games,
            last_game_at=last_game_at,
            losses=losses,
            rating=rating,
            settled=settled,
            variant=variant,
            volatility=volatility,
            wins=wins,
        )

        rating_view.additional_properties = d
        return rating_view

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
