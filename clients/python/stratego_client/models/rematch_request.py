from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fischer_time_control import FischerTimeControl
    from ..models.moves_in_days_time_control import MovesInDaysTimeControl
    from ..models.per_move_time_control import PerMoveTimeControl


T = TypeVar("T", bound="RematchRequest")


@_attrs_define
class RematchRequest:
    """A rematch's time control: the finished game's unless one is given
    here (the body may be left out).

        Example:
            {'time_control': {'increment_days': 2, 'initial_days': 10, 'max_days': 20, 'type': 'fischer'}}

        Attributes:
            days_per_move (int | None | Unset): Shorthand for `{"type": "per_move", "days": n}` (1-14); not
                together with `time_control`
            time_control (FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset):
    """

    days_per_move: int | None | Unset = UNSET
    time_control: FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        days_per_move: int | None | Unset
        if isinstance(self.days_per_move, Unset):
            days_per_move = UNSET
        else:
            days_per_move = self.days_per_move

        time_control: dict[str, Any] | None | Unset
        if isinstance(self.time_control, Unset):
            time_control = UNSET
        elif isinstance(self.time_control, PerMoveTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, FischerTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, MovesInDaysTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if days_per_move is not UNSET:
            field_dict["days_per_move"] = days_per_move
        if time_control is not UNSET:
            field_dict["time_control"] = time_control

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        d = dict(src_dict)

        def _parse_days_per_move(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        days_per_move = _parse_days_per_move(d.pop("days_per_move", UNSET))

        def _parse_time_control(
            data: object,
        ) -> FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_0 = PerMoveTimeControl.from_dict(data)

                return componentsschemas_time_control_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_1 = FischerTimeControl.from_dict(data)

                return componentsschemas_time_control_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_2 = MovesInDaysTimeControl.from_dict(data)

                return componentsschemas_time_control_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset, data)

        time_control = _parse_time_control(d.pop("time_control", UNSET))

        rematch_request = cls(
            days_per_move=days_per_move,
            time_control=time_control,
        )

        return rematch_request
