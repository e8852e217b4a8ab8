from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.draw_action import DrawAction

T = TypeVar("T", bound="DrawRequest")


@_attrs_define
class DrawRequest:
    """Offer a draw, or answer the opponent's offer.

    Example:
        {'action': 'offer'}

    Attributes:
        action (DrawAction):
    """

    action: DrawAction

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "action": action,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = DrawAction(d.pop("action"))

        draw_request = cls(
            action=action,
        )

        return draw_request
