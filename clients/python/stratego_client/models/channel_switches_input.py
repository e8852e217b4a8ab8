from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ChannelSwitchesInput")


@_attrs_define
class ChannelSwitchesInput:
    """Part of the switches of one event, as a `PUT` may give them: a channel
    left out keeps its default.

        Attributes:
            email (bool | None | Unset):
            push (bool | None | Unset):
            webhook (bool | None | Unset):
    """

    email: bool | None | Unset = UNSET
    push: bool | None | Unset = UNSET
    webhook: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email: bool | None | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        push: bool | None | Unset
        if isinstance(self.push, Unset):
            push = UNSET
        else:
            push = self.push

        webhook: bool | None | Unset
        if isinstance(self.webhook, Unset):
            webhook = UNSET
        else:
            webhook = self.webhook

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email
        if push is not UNSET:
            field_dict["push"] = push
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_email(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        email = _parse_email(d.pop("email", UNSET))

        def _parse_push(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        push = _parse_push(d.pop("push", UNSET))

        def _parse_webhook(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        webhook = _parse_webhook(d.pop("webhook", UNSET))

        channel_switches_input = cls(
            email=email,
            push=push,
            webhook=webhook,
        )

        return channel_switches_input
