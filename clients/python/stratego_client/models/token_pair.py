from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_pair_token_type import TokenPairTokenType

T = TypeVar("T", bound="TokenPair")


@_attrs_define
class TokenPair:
    """A fresh access token and refresh token.

    Example:
        {'access_token': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl', 'expires_in': 900,
            'refresh_expires_in': 2592000, 'refresh_token': '3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs', 'token_type':
            'Bearer'}

    Attributes:
        access_token (str): JWT for `Authorization: Bearer`
        expires_in (int): Seconds until the access token expires
        refresh_expires_in (int): Seconds until the refresh token expires
        refresh_token (str): Single-use token for `/auth/refresh`; store it safely
        token_type (TokenPairTokenType): Always `Bearer` Example: Bearer.
    """

    access_token: str
    expires_in: int
    refresh_expires_in: int
    refresh_token: str
    token_type: TokenPairTokenType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        expires_in = self.expires_in

        refresh_expires_in = self.refresh_expires_in

        refresh_token = self.refresh_token

        token_type = self.token_type.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access_token": access_token,
                "expires_in": expires_in,
                "refresh_expires_in": refresh_expires_in,
                "refresh_token": refresh_token,
                "token_type": token_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        access_token = d.pop("access_token")

        expires_in = d.pop("expires_in")

        refresh_expires_in = d.pop("refresh_expires_in")

        refresh_token = d.pop("refresh_token")

        token_type = TokenPairTokenType(d.pop("token_type"))

        token_pair = cls(
            access_token=access_token,
            expires_in=expires_in,
            refresh_expires_in=refresh_expires_in,
            refresh_token=refresh_token,
            token_type=token_type,
        )

        token_pair.additional_properties = d
        return token_pair

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
