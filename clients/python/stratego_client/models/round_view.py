from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.round_game_view import RoundGameView


T = TypeVar("T", bound="RoundView")


@_attrs_define
class RoundView:
    """
    Attributes:
        byes (list[str]): Who sat this round out
        games (list[RoundGameView]):
        number (int):
    """

    byes: list[str]
    games: list[RoundGameView]
    number: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        byes = self.byes

        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        number = self.number

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "byes": byes,
                "games": games,
                "number": number,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.round_game_view import RoundGameView

        d = dict(src_dict)
        byes = cast(list[str], d.pop("byes"))

        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = RoundGameView.from_dict(games_item_data)

            games.append(games_item)

        number = d.pop("number")

        round_view = cls(
            byes=byes,
            games=games,
            number=number,
        )

        round_view.additional_properties = d
        return round_view

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
