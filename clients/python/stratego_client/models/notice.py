from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.notice_data import NoticeData


T = TypeVar("T", bound="Notice")


@_attrs_define
class Notice:
    """A notice sent outside the app: to webhooks as the request body, to Web
    Push as the encrypted payload.

        Example:
            {'data': {'deadline': '2026-12-06T10:00:00Z', 'game_id': '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'last_move':
                {'from': 'e7', 'to': 'e6'}, 'opponent': 'blue_player', 'ply': 16, 'version': 17}, 'timestamp':
                '2026-12-03T10:00:00Z', 'type': 'your_move'}

        Attributes:
            data (NoticeData): What a notice says of its game. Never a rank: squares, names, times
                and the result only.
            timestamp (datetime.datetime): When the event happened
            type_ (str): The event (`ping` for a webhook's test) Example: your_move.
    """

    data: NoticeData
    timestamp: datetime.datetime
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        timestamp = self.timestamp.isoformat()

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "timestamp": timestamp,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.notice_data import NoticeData

        d = dict(src_dict)
        data = NoticeData.from_dict(d.pop("data"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        type_ = d.pop("type")

        notice = cls(
            data=data,
            timestamp=timestamp,
            type_=type_,
        )

        notice.additional_properties = d
        return notice

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
