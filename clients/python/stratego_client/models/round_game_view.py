from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RoundGameView")


@_attrs_define
class RoundGameView:
    """
    Attributes:
        blue (str): Username
        game_id (UUID):
        red (str): Username
        result (None | str): `1-0` (red won), `0-1`, `1/2-1/2`, or `0-0` (both forfeited);
            `null` while it is played
    """

    blue: str
    game_id: UUID
    red: str
    result: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blue = self.blue

        game_id = str(self.game_id)

        red = self.red

        result: None | str
        result = self.result

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blue": blue,
                "game_id": game_id,
                "red": red,
                "result": result,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        blue = d.pop("blue")

        game_id = UUID(d.pop("game_id"))

        red = d.pop("red")

        def _parse_result(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result = _parse_result(d.pop("result"))

        round_game_view = cls(
            blue=blue,
            game_id=game_id,
            red=red,
            result=result,
        )

        round_game_view.additional_properties = d
        return round_game_view

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
