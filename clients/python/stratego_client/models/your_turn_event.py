from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.your_turn_event_type import YourTurnEventType

if TYPE_CHECKING:
    from ..models.move_view import MoveView


T = TypeVar("T", bound="YourTurnEvent")


@_attrs_define
class YourTurnEvent:
    """It is your turn. `opponent_move` is the opponent's last move as you
    may see it (`null` when there is none, e.g. at the start).

        Attributes:
            created_at (datetime.datetime):
            game_id (UUID):
            id (int): Increasing per recipient (1, 2, 3, ...); pass the last one seen as
                `after` (or `Last-Event-ID`) to resume.
            opponent_move (MoveView | None):
            ply (int): Plies played so far
            type_ (YourTurnEventType):
    """

    created_at: datetime.datetime
    game_id: UUID
    id: int
    opponent_move: MoveView | None
    ply: int
    type_: YourTurnEventType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.move_view import MoveView

        created_at = self.created_at.isoformat()

        game_id = str(self.game_id)

        id = self.id

        opponent_move: dict[str, Any] | None
        if isinstance(self.opponent_move, MoveView):
            opponent_move = self.opponent_move.to_dict()
        else:
            opponent_move = self.opponent_move

        ply = self.ply

        type_ = self.type_.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "game_id": game_id,
                "id": id,
                "opponent_move": opponent_move,
                "ply": ply,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.move_view import MoveView

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        game_id = UUID(d.pop("game_id"))

        id = d.pop("id")

        def _parse_opponent_move(data: object) -> MoveView | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                opponent_move_type_0 = MoveView.from_dict(data)

                return opponent_move_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MoveView | None, data)

        opponent_move = _parse_opponent_move(d.pop("opponent_move"))

        ply = d.pop("ply")

        type_ = YourTurnEventType(d.pop("type"))

        your_turn_event = cls(
            created_at=created_at,
            game_id=game_id,
            id=id,
            opponent_move=opponent_move,
            ply=ply,
            type_=type_,
        )

        your_turn_event.additional_properties = d
        return your_turn_event

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
