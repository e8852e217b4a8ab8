from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SavedSetupChoice")


@_attrs_define
class SavedSetupChoice:
    """One of your saved setups (`/me/setups`) for the game's variant, by name; turned for Blue.

    Example:
        {'saved': 'fortress'}

    Attributes:
        saved (str): The name of one of your saved setups for the game's variant
            (`/me/setups`)
    """

    saved: str

    def to_dict(self) -> dict[str, Any]:
        saved = self.saved

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "saved": saved,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        saved = d.pop("saved")

        saved_setup_choice = cls(
            saved=saved,
        )

        return saved_setup_choice
