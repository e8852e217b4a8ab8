from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.tournament_system import TournamentSystem
from ..models.variant import Variant
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fischer_time_control import FischerTimeControl
    from ..models.moves_in_days_time_control import MovesInDaysTimeControl
    from ..models.per_move_time_control import PerMoveTimeControl
    from ..models.rules import Rules


T = TypeVar("T", bound="CreateTournament")


@_attrs_define
class CreateTournament:
    """A new tournament. The caller organises it, and plays only if they
    join it too.

        Example:
            {'max_players': 32, 'name': 'Winter Swiss', 'rated': True, 'rounds': 5, 'system': 'swiss', 'time_control':
                {'increment_days': 1, 'initial_days': 10, 'max_days': 20, 'type': 'fischer'}, 'variant': 'classic'}

        Attributes:
            name (str): 1-80 characters
            system (TournamentSystem): How a tournament pairs its players.
            bye_points (float | None | Unset): Swiss only: what a bye is worth, 0, 0.5 or 1 (default 1)
            days_per_move (int | None | Unset): Shorthand for `{"type": "per_move", "days": n}` (1-14); not
                together with `time_control`
            double (bool | None | Unset): Round robin only: each pair plays twice, once with each color
                (default `false`)
            max_players (int | None | Unset): The most players it takes (3-30 for a round robin, 3-256 for a
                Swiss; default that bound)
            rated (bool | None | Unset): Whether its games count for ratings (default `true`)
            rounds (int | None | Unset): Swiss only, and required there: how many rounds (1-20; fewer than
                the players when it starts)
            rules (Rules | Unset): The rules of a game; every field optional on creation (docs/rules.md
                defaults), always complete in a view. Example: {'aggressor_advantage': False, 'max_plies': None,
                'max_plies_without_battle': None, 'more_squares_rule': False, 'rescue': False, 'scout_strike_after_move': True,
                'silent_defense': False, 'two_square_limit': 3}.
            starts_at (datetime.datetime | None | Unset): When it starts by itself (with at least 3 players), within a year;
                without it, when its organiser starts it
            time_control (FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset):
            variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
    """

    name: str
    system: TournamentSystem
    bye_points: float | None | Unset = UNSET
    days_per_move: int | None | Unset = UNSET
    double: bool | None | Unset = UNSET
    max_players: int | None | Unset = UNSET
    rated: bool | None | Unset = UNSET
    rounds: int | None | Unset = UNSET
    rules: Rules | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET
    time_control: FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset = UNSET
    variant: Variant | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        name = self.name

        system = self.system.value

        bye_points: float | None | Unset
        if isinstance(self.bye_points, Unset):
            bye_points = UNSET
        else:
            bye_points = self.bye_points

        days_per_move: int | None | Unset
        if isinstance(self.days_per_move, Unset):
            days_per_move = UNSET
        else:
            days_per_move = self.days_per_move

        double: bool | None | Unset
        if isinstance(self.double, Unset):
            double = UNSET
        else:
            double = self.double

        max_players: int | None | Unset
        if isinstance(self.max_players, Unset):
            max_players = UNSET
        else:
            max_players = self.max_players

        rated: bool | None | Unset
        if isinstance(self.rated, Unset):
            rated = UNSET
        else:
            rated = self.rated

        rounds: int | None | Unset
        if isinstance(self.rounds, Unset):
            rounds = UNSET
        else:
            rounds = self.rounds

        rules: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rules, Unset):
            rules = self.rules.to_dict()

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

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

        variant: str | Unset = UNSET
        if not isinstance(self.variant, Unset):
            variant = self.variant.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "system": system,
            }
        )
        if bye_points is not UNSET:
            field_dict["bye_points"] = bye_points
        if days_per_move is not UNSET:
            field_dict["days_per_move"] = days_per_move
        if double is not UNSET:
            field_dict["double"] = double
        if max_players is not UNSET:
            field_dict["max_players"] = max_players
        if rated is not UNSET:
            field_dict["rated"] = rated
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if rules is not UNSET:
            field_dict["rules"] = rules
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if time_control is not UNSET:
            field_dict["time_control"] = time_control
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl
        from ..models.rules import Rules

        d = dict(src_dict)
        name = d.pop("name")

        system = TournamentSystem(d.pop("system"))

        def _parse_bye_points(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        bye_points = _parse_bye_points(d.pop("bye_points", UNSET))

        def _parse_days_per_move(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        days_per_move = _parse_days_per_move(d.pop("days_per_move", UNSET))

        def _parse_double(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        double = _parse_double(d.pop("double", UNSET))

        def _parse_max_players(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_players = _parse_max_players(d.pop("max_players", UNSET))

        def _parse_rated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        rated = _parse_rated(d.pop("rated", UNSET))

        def _parse_rounds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rounds = _parse_rounds(d.pop("rounds", UNSET))

        _rules = d.pop("rules", UNSET)
        rules: Rules | Unset
        if isinstance(_rules, Unset):
            rules = UNSET
        else:
            rules = Rules.from_dict(_rules)

        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_at_type_0 = datetime.datetime.fromisoformat(data)

                return starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))

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

        _variant = d.pop("variant", UNSET)
        variant: Variant | Unset
        if isinstance(_variant, Unset):
            variant = UNSET
        else:
            variant = Variant(_variant)

        create_tournament = cls(
            name=name,
            system=system,
            bye_points=bye_points,
            days_per_move=days_per_move,
            double=double,
            max_players=max_players,
            rated=rated,
            rounds=rounds,
            rules=rules,
            starts_at=starts_at,
            time_control=time_control,
            variant=variant,
        )

        return create_tournament
