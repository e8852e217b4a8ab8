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
    from ..models.round_view import RoundView
    from ..models.rules_view import RulesView
    from ..models.standing_view import StandingView
    from ..models.tournament_player import TournamentPlayer


T = TypeVar("T", bound="TournamentView")


@_attrs_define
class TournamentView:
    """A tournament, whole.

    Example:
        {'bye_points': 1.0, 'created_at': '2026-11-20T09:00:00Z', 'current_round': 2, 'double': False, 'finished_at':
            None, 'id': '6f1c2a9e-3b7d-4e0a-9c55-2d8f0b4a7e13', 'max_players': 32, 'name': 'Winter Swiss', 'organiser':
            'cy', 'players': [{'rating': 1612, 'username': 'ann', 'withdrawn': False}, {'rating': 1545, 'username': 'bo',
            'withdrawn': False}, {'rating': 1500, 'username': 'cy', 'withdrawn': False}], 'rated': True, 'round_count': 2,
            'rounds': [{'byes': ['cy'], 'games': [{'blue': 'bo', 'game_id': '5d0c3f9a-1b2e-4c7d-8e9f-a0b1c2d3e4f5', 'red':
            'ann', 'result': '1-0'}], 'number': 1}, {'byes': ['bo'], 'games': [{'blue': 'ann', 'game_id':
            '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'red': 'cy', 'result': None}], 'number': 2}], 'rules':
            {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
            'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}, 'standings':
            [{'games': 1, 'points': 1.0, 'rank': 1, 'tiebreaks': {'buchholz': 1.0, 'buchholz_cut_1': 0.0,
            'sonneborn_berger': 1.0}, 'username': 'ann', 'wins': 1, 'withdrawn': False}, {'games': 1, 'points': 1.0, 'rank':
            2, 'tiebreaks': {'buchholz': 1.0, 'buchholz_cut_1': 0.0, 'sonneborn_berger': 0.0}, 'username': 'bo', 'wins': 0,
            'withdrawn': False}, {'games': 0, 'points': 1.0, 'rank': 3, 'tiebreaks': {'buchholz': 0.0, 'buchholz_cut_1':
            0.0, 'sonneborn_berger': 0.0}, 'username': 'cy', 'wins': 0, 'withdrawn': False}], 'started_at':
            '2026-11-22T09:00:00Z', 'starts_at': None, 'status': 'running', 'system': 'swiss', 'time_control': {'days': 3,
            'type': 'per_move'}, 'variant': 'duel'}

    Attributes:
        bye_points (float): What a Swiss bye is worth
        created_at (datetime.datetime):
        current_round (int): The last round paired (0 while open)
        double (bool): Round robin: each pair plays twice
        finished_at (datetime.datetime | None):
        id (UUID):
        max_players (int):
        name (str):
        organiser (str): The organiser's username
        players (list[TournamentPlayer]): In the order they joined (their seats)
        rated (bool):
        round_count (int | None): How many rounds it has: a Swiss tournament's as asked; a round
            robin's once it starts (`null` before)
        rounds (list[RoundView]): The rounds paired so far
        rules (RulesView): The complete rules in force in a game (every rule is always sent). Example:
            {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
            'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}.
        standings (list[StandingView]): Ordered by rank (empty while open)
        started_at (datetime.datetime | None):
        starts_at (datetime.datetime | None): When it starts by itself, if set
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

    bye_points: float
    created_at: datetime.datetime
    current_round: int
    double: bool
    finished_at: datetime.datetime | None
    id: UUID
    max_players: int
    name: str
    organiser: str
    players: list[TournamentPlayer]
    rated: bool
    round_count: int | None
    rounds: list[RoundView]
    rules: RulesView
    standings: list[StandingView]
    started_at: datetime.datetime | None
    starts_at: datetime.datetime | None
    status: TournamentStatus
    system: TournamentSystem
    time_control: FischerTimeControl | MovesInDaysTimeControl | PerMoveTimeControl
    variant: Variant
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        bye_points = self.bye_points

        created_at = self.created_at.isoformat()

        current_round = self.current_round

        double = self.double

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = str(self.id)

        max_players = self.max_players

        name = self.name

        organiser = self.organiser

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        rated = self.rated

        round_count: int | None
        round_count = self.round_count

        rounds = []
        for rounds_item_data in self.rounds:
            rounds_item = rounds_item_data.to_dict()
            rounds.append(rounds_item)

        rules = self.rules.to_dict()

        standings = []
        for standings_item_data in self.standings:
            standings_item = standings_item_data.to_dict()
            standings.append(standings_item)

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

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
                "bye_points": bye_points,
                "created_at": created_at,
                "current_round": current_round,
                "double": double,
                "finished_at": finished_at,
                "id": id,
                "max_players": max_players,
                "name": name,
                "organiser": organiser,
                "players": players,
                "rated": rated,
                "round_count": round_count,
                "rounds": rounds,
                "rules": rules,
                "standings": standings,
                "started_at": started_at,
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
        from ..models.round_view import RoundView
        from ..models.rules_view import RulesView
        from ..models.standing_view import StandingView
        from ..models.tournament_player import TournamentPlayer

        d = dict(src_dict)
        bye_points = d.pop("bye_points")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        current_round = d.pop("current_round")

        double = d.pop("double")

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        id = UUID(d.pop("id"))

        max_players = d.pop("max_players")

        name = d.pop("name")

        organiser = d.pop("organiser")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = TournamentPlayer.from_dict(players_item_data)

            players.append(players_item)

        rated = d.pop("rated")

        def _parse_round_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        round_count = _parse_round_count(d.pop("round_count"))

        rounds = []
        _rounds = d.pop("rounds")
        for rounds_item_data in _rounds:
            rounds_item = RoundView.from_dict(rounds_item_data)

            rounds.append(rounds_item)

        rules = RulesView.from_dict(d.pop("rules"))

        standings = []
        _standings = d.pop("standings")
        for standings_item_data in _standings:
            standings_item = StandingView.from_dict(standings_item_data)

            standings.append(standings_item)

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

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

        tournament_view = cls(
            bye_points=bye_points,
            created_at=created_at,
            current_round=current_round,
            double=double,
            finished_at=finished_at,
            id=id,
            max_players=max_players,
            name=name,
            organiser=organiser,
            players=players,
            rated=rated,
            round_count=round_count,
            rounds=rounds,
            rules=rules,
            standings=standings,
            started_at=started_at,
            starts_at=starts_at,
            status=status,
            system=system,
            time_control=time_control,
            variant=variant,
        )

        tournament_view.additional_properties = d
        return tournament_view

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
