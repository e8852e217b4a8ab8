from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tournament_status import TournamentStatus
from ..models.tournament_system import TournamentSystem
from ..models.variant import Variant

if TYPE_CHECKING:
    from ..models.fischer_time_control import FischerTimeControl
    from ..models.moves_in_days_time_control import MovesInDaysTimeControl
    from ..models.per_move_time_control import PerMoveTimeControl


T = TypeVar("T", bound="TournamentSummary")


@_attrs_define
class TournamentSummary:
    """A tournament in a list.

    Attributes:
        created_at (datetime.datetime):
        current_round (int):
        id (UUID):
        max_players (int):
        name (str):
        organiser (str):
        players (int): Players in it (withdrawn ones not counted)
        rated (bool):
        round_count (int | None):
        starts_at (datetime.datetime | None):
        status (TournamentStatus): Where a tournament is in its life.
        system (TournamentSystem): How a tournament pairs its players.
        time_control (FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl): How much time each player has
            (docs/lifecycle.md, "Clocks"); `type`
            says which control. Bounds: `per_move` days 1-14; `fischer`
            initial_days 1-90, increment_days 1-14, max_days 1-180 and at least
            both others; `moves_in_days` moves 1-50, days 1-180 and at least
            moves.
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
    """

    created_at: datetime.datetime
    current_round: int
    id: UUID
    max_players: int
    name: str
    organiser: str
    players: int
    rated: bool
    round_count: int | None
    starts_at: datetime.datetime | None
    status: TournamentStatus
    system: TournamentSystem
    time_control: FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl
    variant: Variant
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        created_at = self.created_at.isoformat()

        current_round = self.current_round

        id = str(self.id)

        max_players = self.max_players

        name = self.name

        organiser = self.organiser

        players = self.players

        rated = self.rated

        round_count: int | None
        round_count = self.round_count

        starts_at: None | str
        if isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        status = self.status.value

        system = self.system.value

        time_control: dict[str, Any]
        if isinstance(self.time_control, PerMoveTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, FischerTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control.to_dict()

        variant = self.variant.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "current_round": current_round,
                "id": id,
                "max_players": max_players,
                "name": name,
                "organiser": organiser,
                "players": players,
                "rated": rated,
                "round_count": round_count,
                "starts_at": starts_at,
                "status": status,
                "system": system,
                "time_control": time_control,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        current_round = d.pop("current_round")

        id = UUID(d.pop("id"))

        max_players = d.pop("max_players")

        name = d.pop("name")

        organiser = d.pop("organiser")

        players = d.pop("players")

        rated = d.pop("rated")

        def _parse_round_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        round_count = _parse_round_count(d.pop("round_count"))

        def _parse_starts_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_at_type_0 = datetime.datetime.fromisoformat(data)

                return starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        starts_at = _parse_starts_at(d.pop("starts_at"))

        status = TournamentStatus(d.pop("status"))

        system = TournamentSystem(d.pop("system"))

        def _parse_time_control(data: object) -> FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl:
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
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_time_control_type_2 = MovesInDaysTimeControl.from_dict(data)

            return componentsschemas_time_control_type_2

        time_control = _parse_time_control(d.pop("time_control"))

        variant = Variant(d.pop("variant"))

        tournament_summary = cls(
            created_at=created_at,
            current_round=current_round,
            id=id,
            max_players=max_players,
            name=name,
            organiser=organiser,
            players=players,
            rated=rated,
            round_count=round_count,
            starts_at=starts_at,
            status=status,
            system=system,
            time_control=time_control,
            variant=variant,
        )

        tournament_summary.additional_properties = d
        return tournament_summary

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
