from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.move_refusal_code import MoveRefusalCode
from ..models.move_refusal_reason import MoveRefusalReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="MoveRefusal")


@_attrs_define
class MoveRefusal:
    """A refused move or game action. Refusals decided by the rules engine (`illegal_move`, `two_square_rule`,
    `more_squares_rule`, `not_your_turn`, and `wrong_phase` for a finished game or a draw action) carry `reason`;
    `more_squares_rule` also carries `since_ply`.

        Attributes:
            code (MoveRefusalCode):
            detail (str): What went wrong with this request
            status (int): The HTTP status code
            title (str): Short summary of the problem kind
            type_ (str): URI reference naming the problem kind, e.g. `/problems/not-found`
            reason (MoveRefusalReason | Unset): Why the rules engine refused (docs/errors.md); absent on refusals of the
                server's own checks (`version_conflict`, a phase check, `validation_failed`, `idempotency_key_reused`)
            since_ply (int | Unset): With `more_squares_rule` only: the ply at which the position the move would bring back
                stood; absent otherwise
    """

    code: MoveRefusalCode
    detail: str
    status: int
    title: str
    type_: str
    reason: MoveRefusalReason | Unset = UNSET
    since_ply: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        detail = self.detail

        status = self.status

        title = self.title

        type_ = self.type_

        reason: str | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason.value

        since_ply = self.since_ply

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "status": status,
                "title": title,
                "type": type_,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason
        if since_ply is not UNSET:
            field_dict["since_ply"] = since_ply

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = MoveRefusalCode(d.pop("code"))

        detail = d.pop("detail")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        _reason = d.pop("reason", UNSET)
        reason: MoveRefusalReason | Unset
        if isinstance(_reason, Unset):
            reason = UNSET
        else:
            reason = MoveRefusalReason(_reason)

        since_ply = d.pop("since_ply", UNSET)

        move_refusal = cls(
            code=code,
            detail=detail,
            status=status,
            title=title,
            type_=type_,
            reason=reason,
            since_ply=since_ply,
        )

        move_refusal.additional_properties = d
        return move_refusal

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
