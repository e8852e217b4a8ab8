from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="EmailInput")


@_attrs_define
class EmailInput:
    """An address to send mail to.

    Example:
        {'address': 'ann@example.org'}

    Attributes:
        address (str): The address (at most 254 characters; its domain has a dot)
    """

    address: str

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "address": address,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        email_input = cls(
            address=address,
        )

        return email_input
