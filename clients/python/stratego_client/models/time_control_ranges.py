from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fischer_ranges import FischerRanges
    from ..models.moves_in_days_ranges import MovesInDaysRanges
    from ..models.per_move_ranges import PerMoveRanges


T = TypeVar("T", bound="TimeControlRanges")


@_attrs_define
class TimeControlRanges:
    """The range of every field of each time control; also `fischer`'s
    `max_days` is at least its other two, and `moves_in_days`' `days` at
    least its `moves`.

        Attributes:
            fischer (FischerRanges):
            moves_in_days (MovesInDaysRanges):
            per_move (PerMoveRanges):
    """

    fischer: FischerRanges
    moves_in_days: MovesInDaysRanges
    per_move: PerMoveRanges
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fischer = self.fischer.to_dict()

        moves_in_days = self.moves_in_days.to_dict()

        per_move = self.per_move.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fischer": fischer,
                "moves_in_days": moves_in_days,
                "per_move": per_move,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fischer_ranges import FischerRanges
        from ..models.moves_in_days_ranges import MovesInDaysRanges
        from ..models.per_move_ranges import PerMoveRanges

        d = dict(src_dict)
        fischer = FischerRanges.from_dict(d.pop("fischer"))

        moves_in_days = MovesInDaysRanges.from_dict(d.pop("moves_in_days"))

        per_move = PerMoveRanges.from_dict(d.pop("per_move"))

        time_control_ranges = cls(
            fischer=fischer,
            moves_in_days=moves_in_days,
            per_move=per_move,
        )

        time_control_ranges.additional_properties = d
        return time_control_ranges

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
