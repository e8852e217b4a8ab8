from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ChannelSwitches")


@_attrs_define
class ChannelSwitches:
    """Per channel, whether an event is sent there.

    Attributes:
        email (bool):
        push (bool):
        webhook (bool):
    """

    email: bool
    push: bool
    webhook: bool

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        push = self.push

        webhook = self.webhook

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "push": push,
                "webhook": webhook,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        push = d.pop("push")

        webhook = d.pop("webhook")

        channel_switches = cls(
            email=email,
            push=push,
            webhook=webhook,
        )

        return channel_switches
