from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JoinTournament")


@_attrs_define
class JoinTournament:
    """Who joins or leaves: the caller, or (the organiser only) a bot.

    Example:
        {'bot': 'bot-tactician'}

    Attributes:
        bot (None | str | Unset): The organiser may enter (or withdraw) a bot (`GET /bots`) instead
            of themselves
    """

    bot: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bot: None | str | Unset
        if isinstance(self.bot, Unset):
            bot = UNSET
        else:
            bot = self.bot

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if bot is not UNSET:
            field_dict["bot"] = bot

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_bot(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bot = _parse_bot(d.pop("bot", UNSET))

        join_tournament = cls(
            bot=bot,
        )

        return join_tournament
