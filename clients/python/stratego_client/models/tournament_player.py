from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TournamentPlayer")


@_attrs_define
class TournamentPlayer:
    """
    Attributes:
        rating (int | None): The rating in the tournament's variant it started with (`null`
            while open)
        username (str):
        withdrawn (bool): Left the running tournament (or deleted their account): not paired
            again, unplayed games forfeited
    """

    rating: int | None
    username: str
    withdrawn: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rating: int | None
        rating = self.rating

        username = self.username

        withdrawn = self.withdrawn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rating": rating,
                "username": username,
                "withdrawn": withdrawn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating = _parse_rating(d.pop("rating"))

        username = d.pop("username")

        withdrawn = d.pop("withdrawn")

        tournament_player = cls(
            rating=rating,
            username=username,
            withdrawn=withdrawn,
        )

        tournament_player.additional_properties = d
        return tournament_player

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
