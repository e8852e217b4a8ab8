from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color

T = TypeVar("T", bound="RoundGame")


@_attrs_define
class RoundGame:
    """One of your games of a tournament's round.

    Attributes:
        color (Color): A side.
        game_id (UUID):
        opponent (str): Your opponent's username
        round_ (int):
    """

    color: Color
    game_id: UUID
    opponent: str
    round_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        color = self.color.value

        game_id = str(self.game_id)

        opponent = self.opponent

        round_ = self.round_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "color": color,
                "game_id": game_id,
                "opponent": opponent,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        color = Color(d.pop("color"))

        game_id = UUID(d.pop("game_id"))

        opponent = d.pop("opponent")

        round_ = d.pop("round")

        round_game = cls(
            color=color,
            game_id=game_id,
            opponent=opponent,
            round_=round_,
        )

        round_game.additional_properties = d
        return round_game

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
