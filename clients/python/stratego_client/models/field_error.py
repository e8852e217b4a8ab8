from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.field_error_field import FieldErrorField
from ..types import UNSET, Unset

T = TypeVar("T", bound="FieldError")


@_attrs_define
class FieldError:
    """One broken rule of a registration, a new password, a webhook or a push subscription.

    Attributes:
        field (FieldErrorField):
        message (str): What the value must be
        reason (str | Unset): A stable short code (webhooks and push subscriptions): `not_https`, `private_address`,
            `internal_name`, `credentials_in_url`, `unresolvable`, `invalid_url`, `too_long`, `not_on_curve`,
            `wrong_length`, `not_base64url`, `expired`, ...
    """

    field: FieldErrorField
    message: str
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field = self.field.value

        message = self.message

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "field": field,
                "message": message,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field = FieldErrorField(d.pop("field"))

        message = d.pop("message")

        reason = d.pop("reason", UNSET)

        field_error = cls(
            field=field,
            message=message,
            reason=reason,
        )

        field_error.additional_properties = d
        return field_error

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
