from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.integer_range import IntegerRange
    from ..models.time_control_ranges import TimeControlRanges


T = TypeVar("T", bound="Settings")


@_attrs_define
class Settings:
    """The range of every setting of `POST /games` (the boolean rules take
    `true` or `false`).

        Attributes:
            days_per_move (IntegerRange): The range of a whole-number setting.
            default_days_per_move (int):
            max_plies (IntegerRange): The range of a whole-number setting.
            max_plies_without_battle (IntegerRange): The range of a whole-number setting.
            time_controls (TimeControlRanges): The range of every field of each time control; also `fischer`'s
                `max_days` is at least its other two, and `moves_in_days`' `days` at
                least its `moves`.
            two_square_limit (IntegerRange): The range of a whole-number setting.
    """

    days_per_move: IntegerRange
    default_days_per_move: int
    max_plies: IntegerRange
    max_plies_without_battle: IntegerRange
    time_controls: TimeControlRanges
    two_square_limit: IntegerRange
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        days_per_move = self.days_per_move.to_dict()

        default_days_per_move = self.default_days_per_move

        max_plies = self.max_plies.to_dict()

        max_plies_without_battle = self.max_plies_without_battle.to_dict()

        time_controls = self.time_controls.to_dict()

        two_square_limit = self.two_square_limit.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "days_per_move": days_per_move,
                "default_days_per_move": default_days_per_move,
                "max_plies": max_plies,
                "max_plies_without_battle": max_plies_without_battle,
                "time_controls": time_controls,
                "two_square_limit": two_square_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.integer_range import IntegerRange
        from ..models.time_control_ranges import TimeControlRanges

        d = dict(src_dict)
        days_per_move = IntegerRange.from_dict(d.pop("days_per_move"))

        default_days_per_move = d.pop("default_days_per_move")

        max_plies = IntegerRange.from_dict(d.pop("max_plies"))

        max_plies_without_battle = IntegerRange.from_dict(d.pop("max_plies_without_battle"))

        time_controls = TimeControlRanges.from_dict(d.pop("time_controls"))

        two_square_limit = IntegerRange.from_dict(d.pop("two_square_limit"))

        settings = cls(
            days_per_move=days_per_move,
            default_days_per_move=default_days_per_move,
            max_plies=max_plies,
            max_plies_without_battle=max_plies_without_battle,
            time_controls=time_controls,
            two_square_limit=two_square_limit,
        )

        settings.additional_properties = d
        return settings

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
