from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color
from ..models.end_reason import EndReason

T = TypeVar("T", bound="GameResult")


@_attrs_define
class GameResult:
    """How a game ended; `winner` is null for a draw.

    Example:
        {'reason': 'flag_captured', 'winner': 'red'}

    Attributes:
        reason (EndReason): Why a game ended.
        winner (Color | None):
    """

    reason: EndReason
    winner: Color | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        winner: None | str
        if isinstance(self.winner, Color):
            winner = self.winner.value
        else:
            winner = self.winner

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
                "winner": winner,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = EndReason(d.pop("reason"))

        def _parse_winner(data: object) -> Color | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                winner_type_0 = Color(data)

                return winner_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Color | None, data)

        winner = _parse_winner(d.pop("winner"))

        game_result = cls(
            reason=reason,
            winner=winner,
        )

        game_result.additional_properties = d
        return game_result

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
