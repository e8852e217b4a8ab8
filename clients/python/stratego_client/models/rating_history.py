from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rating_point import RatingPoint


T = TypeVar("T", bound="RatingHistory")


@_attrs_define
class RatingHistory:
    """A page of a player's rating history, oldest first per variant.

    Example:
        {'next_cursor': None, 'points': [{'at': '2026-09-20T10:00:00Z', 'deviation': 290.3, 'game_id':
            '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'number': 1, 'rating': 1662.3, 'variant': 'classic', 'volatility':
            0.06}, {'at': '2026-09-27T16:40:00Z', 'deviation': 254.1, 'game_id': '5d0c3f9a-1b2e-4c7d-8e9f-a0b1c2d3e4f5',
            'number': 2, 'rating': 1601.8, 'variant': 'classic', 'volatility': 0.06}], 'username': 'ann'}

    Attributes:
        next_cursor (None | str): Pass as `cursor` to get the next page; null on the last page.
        points (list[RatingPoint]):
        username (str):
    """

    next_cursor: None | str
    points: list[RatingPoint]
    username: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        next_cursor: None | str
        next_cursor = self.next_cursor

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)

        username = self.username

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "next_cursor": next_cursor,
                "points": points,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rating_point import RatingPoint

        d = dict(src_dict)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        points = []
        _points = d.pop("points")
        for points_item_data in _points:
            points_item = RatingPoint.from_dict(points_item_data)

            points.append(points_item)

        username = d.pop("username")

        rating_history = cls(
            next_cursor=next_cursor,
            points=points,
            username=username,
        )

        rating_history.additional_properties = d
        return rating_history

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
