from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.variant import Variant

if TYPE_CHECKING:
    from ..models.leaderboard_entry import LeaderboardEntry


T = TypeVar("T", bound="Leaderboard")


@_attrs_define
class Leaderboard:
    """A page of a variant's leaderboard.

    Example:
        {'active_days': 90, 'entries': [{'deviation': 84.2, 'games': 31, 'last_game_at': '2026-11-30T18:00:00Z', 'rank':
            1, 'rating': 1612.4, 'user_id': '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}, {'deviation': 97.5,
            'games': 22, 'last_game_at': '2026-12-01T08:15:00Z', 'rank': 2, 'rating': 1544.9, 'user_id':
            '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}], 'max_deviation': 110.0, 'next_cursor':
            'bHw0NjE4M...', 'variant': 'classic'}

    Attributes:
        active_days (int): Only players with a rated game in the variant in this many days.
        entries (list[LeaderboardEntry]):
        max_deviation (float): Only deviations below this are listed.
        next_cursor (None | str): Pass as `cursor` to get the next page; null on the last page.
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
    """

    active_days: int
    entries: list[LeaderboardEntry]
    max_deviation: float
    next_cursor: None | str
    variant: Variant
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active_days = self.active_days

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        max_deviation = self.max_deviation

        next_cursor: None | str
        next_cursor = self.next_cursor

        variant = self.variant.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active_days": active_days,
                "entries": entries,
                "max_deviation": max_deviation,
                "next_cursor": next_cursor,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_entry import LeaderboardEntry

        d = dict(src_dict)
        active_days = d.pop("active_days")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = LeaderboardEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        max_deviation = d.pop("max_deviation")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        variant = Variant(d.pop("variant"))

        leaderboard = cls(
            active_days=active_days,
            entries=entries,
            max_deviation=max_deviation,
            next_cursor=next_cursor,
            variant=variant,
        )

        leaderboard.additional_properties = d
        return leaderboard

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
