from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.registered_token_type import RegisteredTokenType

if TYPE_CHECKING:
    from ..models.user_view import UserView


T = TypeVar("T", bound="Registered")


@_attrs_define
class Registered:
    """The new account and its first tokens.

    Example:
        {'access_token': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl', 'expires_in': 900,
            'refresh_expires_in': 2592000, 'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs', 'token_type':
            'Bearer', 'user': {'created_at': '2026-11-29T19:00:00Z', 'id': '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11',
            'username': 'ann'}}

    Attributes:
        access_token (str):
        expires_in (int):
        refresh_expires_in (int):
        refresh_token (str):
        token_type (RegisteredTokenType):  Example: Bearer.
        user (UserView): A user account as others may see it. Example: {'created_at': '2026-11-29T19:00:00Z', 'id':
            '6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11', 'username': 'ann'}.
    """

    access_token: str
    expires_in: int
    refresh_expires_in: int
    refresh_token: str
    token_type: RegisteredTokenType
    user: UserView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        expires_in = self.expires_in

        refresh_expires_in = self.refresh_expires_in

        refresh_token = self.refresh_token

        token_type = self.token_type.value

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_token": access_token,
                "expires_in": expires_in,
                "refresh_expires_in": refresh_expires_in,
                "refresh_token": refresh_token,
                "token_type": token_type,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.user_view import UserView

        d = dict(src_dict)
        access_token = d.pop("access_token")

        expires_in = d.pop("expires_in")

        refresh_expires_in = d.pop("refresh_expires_in")

        refresh_token = d.pop("refresh_token")

        token_type = RegisteredTokenType(d.pop("token_type"))

        user = UserView.from_dict(d.pop("user"))

        registered = cls(
            access_token=access_token,
            expires_in=expires_in,
            refresh_expires_in=refresh_expires_in,
            refresh_token=refresh_token,
            token_type=token_type,
            user=user,
        )

        registered.additional_properties = d
        return registered

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
