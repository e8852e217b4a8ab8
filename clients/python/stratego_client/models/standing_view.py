from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.standing_view_tiebreaks import StandingViewTiebreaks


T = TypeVar("T", bound="StandingView")


@_attrs_define
class StandingView:
    """
    Example:
        {'games': 4, 'points': 3.5, 'rank': 1, 'tiebreaks': {'buchholz': 10.0, 'buchholz_cut_1': 8.5,
            'sonneborn_berger': 9.25}, 'username': 'alice', 'wins': 3, 'withdrawn': False}

    Attributes:
        games (int): Finished games (byes not counted)
        points (float):
        rank (int): From 1; players level on points and every tie-break share one
        tiebreaks (StandingViewTiebreaks): Round robin: `sonneborn_berger`, `direct_encounter`, `wins`;
            Swiss: `buchholz_cut_1`, `buchholz`, `sonneborn_berger`; written
            in the order they break ties
        username (str):
        wins (int):
        withdrawn (bool):
    """

    games: int
    points: float
    rank: int
    tiebreaks: StandingViewTiebreaks
    username: str
    wins: int
    withdrawn: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        games = self.games

        points = self.points

        rank = self.rank

        tiebreaks = self.tiebreaks.to_dict()

        username = self.username

        wins = self.wins

        withdrawn = self.withdrawn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "games": games,
                "points": points,
                "rank": rank,
                "tiebreaks": tiebreaks,
                "username": username,
                "wins": wins,
                "withdrawn": withdrawn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.standing_view_tiebreaks import StandingViewTiebreaks

        d = dict(src_dict)
        games = d.pop("games")

        points = d.pop("points")

        rank = d.pop("rank")

        tiebreaks = StandingViewTiebreaks.from_dict(d.pop("tiebreaks"))

        username = d.pop("username")

        wins = d.pop("wins")

        withdrawn = d.pop("withdrawn")

        standing_view = cls(
            games=games,
            points=points,
            rank=rank,
            tiebreaks=tiebreaks,
            username=username,
            wins=wins,
            withdrawn=withdrawn,
        )

        standing_view.additional_properties = d
        return standing_view

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
