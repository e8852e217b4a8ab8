from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_summary import GameSummary


T = TypeVar("T", bound="GamePage")


@_attrs_define
class GamePage:
    """A page of games.

    Example:
        {'games': [{'created_at': '2026-12-01T09:00:00Z', 'creator': {'deleted': False, 'id':
            '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}, 'days_per_move': 3, 'deadline':
            '2026-12-04T10:00:00Z', 'id': '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'opponent': {'deleted': False, 'id':
            '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}, 'players': {'blue': {'deleted': False, 'id':
            '2c9d7b14-5e3a-4f0b-8d61-7a2e9c4b1f08', 'username': 'bo'}, 'red': {'deleted': False, 'id':
            '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}}, 'ply': 6, 'rated': True, 'result': None, 'rules':
            {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
            'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}, 'setup_done':
            {'blue': True, 'red': True}, 'status': 'playing', 'time_control': {'days': 3, 'type': 'per_move'}, 'tournament':
            None, 'turn': 'red', 'updated_at': '2026-12-01T10:00:00Z', 'variant': 'duel', 'version': 9}], 'next_cursor':
            None}

    Attributes:
        games (list[GameSummary]):
        next_cursor (None | str): Pass as `cursor` to get the next page; null on the last page.
    """

    games: list[GameSummary]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "games": games,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_summary import GameSummary

        d = dict(src_dict)
        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = GameSummary.from_dict(games_item_data)

            games.append(games_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        game_page = cls(
            games=games,
            next_cursor=next_cursor,
        )

        game_page.additional_properties = d
        return game_page

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
