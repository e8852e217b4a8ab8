from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="EmailState")


@_attrs_define
class EmailState:
    """Your e-mail address, as you see it.

    Example:
        {'address': 'ann@example.org', 'code_expires_at': '2026-12-04T11:00:00Z', 'verified': False}

    Attributes:
        verified (bool): Whether you confirmed it with the code sent to it; mail goes only
            to a verified address
        address (None | str | Unset): The address, or null when you gave none
        code_expires_at (datetime.datetime | None | Unset): Until when the code last sent may be used (null when none is
            pending)
    """

    verified: bool
    address: None | str | Unset = UNSET
    code_expires_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        verified = self.verified

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        code_expires_at: None | str | Unset
        if isinstance(self.code_expires_at, Unset):
            code_expires_at = UNSET
        elif isinstance(self.code_expires_at, datetime.datetime):
            code_expires_at = self.code_expires_at.isoformat()
        else:
            code_expires_at = self.code_expires_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "verified": verified,
            }
        )
        if address is not UNSET:
            field_dict["address"] = address
        if code_expires_at is not UNSET:
            field_dict["code_expires_at"] = code_expires_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        verified = d.pop("verified")

        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))

        def _parse_code_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                code_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return code_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        code_expires_at = _parse_code_expires_at(d.pop("code_expires_at", UNSET))

        email_state = cls(
            verified=verified,
            address=address,
            code_expires_at=code_expires_at,
        )

        email_state.additional_properties = d
        return email_state

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
