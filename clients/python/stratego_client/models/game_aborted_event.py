from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.abort_reason import AbortReason
from ..models.game_aborted_event_type import GameAbortedEventType

T = TypeVar("T", bound="GameAbortedEvent")


@_attrs_define
class GameAbortedEvent:
    """The game ended before play started: a player aborted it (a challenge
    withdrawn by its creator included), or a setup did not come in time
    (sent to every seated or challenged user except the one who aborted;
    on a setup timeout, to both players).

        Attributes:
            by (None | str): The username of the player who aborted; null on a setup timeout
            created_at (datetime.datetime):
            game_id (UUID):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            reason (AbortReason): Why a game was aborted before play started.
            type_ (GameAbortedEventType):
    """

    by: None | str
    created_at: datetime.datetime
    game_id: UUID
    id: int
    reason: AbortReason
    type_: GameAbortedEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by: None | str
        by = self.by

        created_at = self.created_at.isoformat()

        game_id = str(self.game_id)

        id = self.id

        reason = self.reason.value

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by": by,
                "created_at": created_at,
                "game_id": game_id,
                "id": id,
                "reason": reason,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        by = _parse_by(d.pop("by"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        game_id = UUID(d.pop("game_id"))

        id = d.pop("id")

        reason = AbortReason(d.pop("reason"))

        type_ = GameAbortedEventType(d.pop("type"))

        game_aborted_event = cls(
            by=by,
            created_at=created_at,
            game_id=game_id,
            id=id,
            reason=reason,
            type_=type_,
        )

        game_aborted_event.additional_properties = d
        return game_aborted_event

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
