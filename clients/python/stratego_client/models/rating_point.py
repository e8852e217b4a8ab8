from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.variant import Variant

T = TypeVar("T", bound="RatingPoint")


@_attrs_define
class RatingPoint:
    """One point of a rating's history: the rating after a rated game.

    Attributes:
        at (datetime.datetime): When the game ended.
        deviation (float):
        game_id (UUID):
        number (int): 1 for the player's first rated game in the variant, then 2, 3, ...
        rating (float):
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        volatility (float):
    """

    at: datetime.datetime
    deviation: float
    game_id: UUID
    number: int
    rating: float
    variant: Variant
    volatility: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        deviation = self.deviation

        game_id = str(self.game_id)

        number = self.number

        rating = self.rating

        variant = self.variant.value

        volatility = self.volatility

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "deviation": deviation,
                "game_id": game_id,
                "number": number,
                "rating": rating,
                "variant": variant,
                "volatility": volatility,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        deviation = d.pop("deviation")

        game_id = UUID(d.pop("game_id"))

        number = d.pop("number")

        rating = d.pop("rating")

        variant = Variant(d.pop("variant"))

        volatility = d.pop("volatility")

        rating_point = cls(
            at=at,
            deviation=deviation,
            game_id=game_id,
            number=number,
            rating=rating,
            variant=variant,
            volatility=volatility,
        )

        rating_point.additional_properties = d
        return rating_point

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
