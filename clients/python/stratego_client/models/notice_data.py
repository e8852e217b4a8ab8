from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color import Color
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.game_result import GameResult
    from ..models.last_move import LastMove
    from ..models.round_game import RoundGame


T = TypeVar("T", bound="NoticeData")


@_attrs_define
class NoticeData:
    """What a notice says of its game. Never a rank: squares, names, times
    and the result only.

        Attributes:
            by (Color | None | Unset):
            bye (bool | None | Unset): `tournament_started`, `round_started`: whether you sit the round out
            deadline (datetime.datetime | None | Unset): Your deadline, when it is yours to act (or the one `deadline_soon`
                warns of)
            game_id (None | Unset | UUID): The game (every event but `ping`)
            games (list[RoundGame] | None | Unset): `tournament_started`, `round_started`: your games it started (each
                with `game_id`, `round`, your `color` and your `opponent`)
            last_move (LastMove | None | Unset):
            opponent (None | str | Unset): The other player's username (the challenger, for a challenge)
            place (int | None | Unset): `tournament_finished`: your place
            players (int | None | Unset): `tournament_finished`: how many played
            ply (int | None | Unset): `your_move`: plies played so far
            rematch_of (None | Unset | UUID): `rematch_offered`: the finished game
            result (GameResult | None | Unset):
            round_ (int | None | Unset): `round_started`: the round
            tournament (None | str | Unset): A tournament's events: its name
            tournament_id (None | Unset | UUID): A tournament's events: the tournament
            until (datetime.datetime | None | Unset): `vacation_started`: when the opponent's clock runs again at the
                latest
            version (int | None | Unset): The game's version when the notice was written
            webhook_id (None | Unset | UUID): `ping`: the webhook tested
    """

    by: Color | None | Unset = UNSET
    bye: bool | None | Unset = UNSET
    deadline: datetime.datetime | None | Unset = UNSET
    game_id: None | Unset | UUID = UNSET
    games: list[RoundGame] | None | Unset = UNSET
    last_move: LastMove | None | Unset = UNSET
    opponent: None | str | Unset = UNSET
    place: int | None | Unset = UNSET
    players: int | None | Unset = UNSET
    ply: int | None | Unset = UNSET
    rematch_of: None | Unset | UUID = UNSET
    result: GameResult | None | Unset = UNSET
    round_: int | None | Unset = UNSET
    tournament: None | str | Unset = UNSET
    tournament_id: None | Unset | UUID = UNSET
    until: datetime.datetime | None | Unset = UNSET
    version: int | None | Unset = UNSET
    webhook_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.game_result import GameResult
        from ..models.last_move import LastMove

        by: None | str | Unset
        if isinstance(self.by, Unset):
            by = UNSET
        elif isinstance(self.by, Color):
            by = self.by.value
        else:
            by = self.by

        bye: bool | None | Unset
        if isinstance(self.bye, Unset):
            bye = UNSET
        else:
            bye = self.bye

        deadline: None | str | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, datetime.datetime):
            deadline = self.deadline.isoformat()
        else:
            deadline = self.deadline

        game_id: None | str | Unset
        if isinstance(self.game_id, Unset):
            game_id = UNSET
        elif isinstance(self.game_id, UUID):
            game_id = str(self.game_id)
        else:
            game_id = self.game_id

        games: list[dict[str, Any]] | None | Unset
        if isinstance(self.games, Unset):
            games = UNSET
        elif isinstance(self.games, list):
            games = []
            for games_type_0_item_data in self.games:
                games_type_0_item = games_type_0_item_data.to_dict()
                games.append(games_type_0_item)

        else:
            games = self.games

        last_move: dict[str, Any] | None | Unset
        if isinstance(self.last_move, Unset):
            last_move = UNSET
        elif isinstance(self.last_move, LastMove):
            last_move = self.last_move.to_dict()
        else:
            last_move = self.last_move

        opponent: None | str | Unset
        if isinstance(self.opponent, Unset):
            opponent = UNSET
        else:
            opponent = self.opponent

        place: int | None | Unset
        if isinstance(self.place, Unset):
            place = UNSET
        else:
            place = self.place

        players: int | None | Unset
        if isinstance(self.players, Unset):
            players = UNSET
        else:
            players = self.players

        ply: int | None | Unset
        if isinstance(self.ply, Unset):
            ply = UNSET
        else:
            ply = self.ply

        rematch_of: None | str | Unset
        if isinstance(self.rematch_of, Unset):
            rematch_of = UNSET
        elif isinstance(self.rematch_of, UUID):
            rematch_of = str(self.rematch_of)
        else:
            rematch_of = self.rematch_of

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, GameResult):
            result = self.result.to_dict()
        else:
            result = self.result

        round_: int | None | Unset
        if isinstance(self.round_, Unset):
            round_ = UNSET
        else:
            round_ = self.round_

        tournament: None | str | Unset
        if isinstance(self.tournament, Unset):
            tournament = UNSET
        else:
            tournament = self.tournament

        tournament_id: None | str | Unset
        if isinstance(self.tournament_id, Unset):
            tournament_id = UNSET
        elif isinstance(self.tournament_id, UUID):
            tournament_id = str(self.tournament_id)
        else:
            tournament_id = self.tournament_id

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        elif isinstance(self.until, datetime.datetime):
            until = self.until.isoformat()
        else:
            until = self.until

        version: int | None | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version

        webhook_id: None | str | Unset
        if isinstance(self.webhook_id, Unset):
            webhook_id = UNSET
        elif isinstance(self.webhook_id, UUID):
            webhook_id = str(self.webhook_id)
        else:
            webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if by is not UNSET:
            field_dict["by"] = by
        if bye is not UNSET:
            field_dict["bye"] = bye
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if game_id is not UNSET:
            field_dict["game_id"] = game_id
        if games is not UNSET:
            field_dict["games"] = games
        if last_move is not UNSET:
            field_dict["last_move"] = last_move
        if opponent is not UNSET:
            field_dict["opponent"] = opponent
        if place is not UNSET:
            field_dict["place"] = place
        if players is not UNSET:
            field_dict["players"] = players
        if ply is not UNSET:
            field_dict["ply"] = ply
        if rematch_of is not UNSET:
            field_dict["rematch_of"] = rematch_of
        if result is not UNSET:
            field_dict["result"] = result
        if round_ is not UNSET:
            field_dict["round"] = round_
        if tournament is not UNSET:
            field_dict["tournament"] = tournament
        if tournament_id is not UNSET:
            field_dict["tournament_id"] = tournament_id
        if until is not UNSET:
            field_dict["until"] = until
        if version is not UNSET:
            field_dict["version"] = version
        if webhook_id is not UNSET:
            field_dict["webhook_id"] = webhook_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_result import GameResult
        from ..models.last_move import LastMove
        from ..models.round_game import RoundGame

        d = dict(src_dict)

        def _parse_by(data: object) -> Color | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                by_type_0 = Color(data)

                return by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Color | None | Unset, data)

        by = _parse_by(d.pop("by", UNSET))

        def _parse_bye(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        bye = _parse_bye(d.pop("bye", UNSET))

        def _parse_deadline(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deadline = _parse_deadline(d.pop("deadline", UNSET))

        def _parse_game_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                game_id_type_0 = UUID(data)

                return game_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        game_id = _parse_game_id(d.pop("game_id", UNSET))

        def _parse_games(data: object) -> list[RoundGame] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                games_type_0 = []
                _games_type_0 = data
                for games_type_0_item_data in _games_type_0:
                    games_type_0_item = RoundGame.from_dict(games_type_0_item_data)

                    games_type_0.append(games_type_0_item)

                return games_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RoundGame] | None | Unset, data)

        games = _parse_games(d.pop("games", UNSET))

        def _parse_last_move(data: object) -> LastMove | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_move_type_0 = LastMove.from_dict(data)

                return last_move_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LastMove | None | Unset, data)

        last_move = _parse_last_move(d.pop("last_move", UNSET))

        def _parse_opponent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opponent = _parse_opponent(d.pop("opponent", UNSET))

        def _parse_place(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        place = _parse_place(d.pop("place", UNSET))

        def _parse_players(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        players = _parse_players(d.pop("players", UNSET))

        def _parse_ply(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ply = _parse_ply(d.pop("ply", UNSET))

        def _parse_rematch_of(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rematch_of_type_0 = UUID(data)

                return rematch_of_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        rematch_of = _parse_rematch_of(d.pop("rematch_of", UNSET))

        def _parse_result(data: object) -> GameResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = GameResult.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GameResult | None | Unset, data)

        result = _parse_result(d.pop("result", UNSET))

        def _parse_round_(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        round_ = _parse_round_(d.pop("round", UNSET))

        def _parse_tournament(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tournament = _parse_tournament(d.pop("tournament", UNSET))

        def _parse_tournament_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                tournament_id_type_0 = UUID(data)

                return tournament_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        tournament_id = _parse_tournament_id(d.pop("tournament_id", UNSET))

        def _parse_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                until_type_0 = datetime.datetime.fromisoformat(data)

                return until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        until = _parse_until(d.pop("until", UNSET))

        def _parse_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        version = _parse_version(d.pop("version", UNSET))

        def _parse_webhook_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                webhook_id_type_0 = UUID(data)

                return webhook_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        webhook_id = _parse_webhook_id(d.pop("webhook_id", UNSET))

        notice_data = cls(
            by=by,
            bye=bye,
            deadline=deadline,
            game_id=game_id,
            games=games,
            last_move=last_move,
            opponent=opponent,
            place=place,
            players=players,
            ply=ply,
            rematch_of=rematch_of,
            result=result,
            round_=round_,
            tournament=tournament,
            tournament_id=tournament_id,
            until=until,
            version=version,
            webhook_id=webhook_id,
        )

        notice_data.additional_properties = d
        return notice_data

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
