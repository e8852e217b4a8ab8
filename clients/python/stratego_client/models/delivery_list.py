from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.delivery import Delivery


T = TypeVar("T", bound="DeliveryList")


@_attrs_define
class DeliveryList:
    """Deliveries to one of your webhooks.

    Example:
        {'deliveries': [{'attempts': 1, 'created_at': '2026-12-03T10:00:00Z', 'event': 'your_move', 'finished_at':
            '2026-12-03T10:00:01Z', 'id': 'msg_2b3c4d5e6f7a4b8c9d0e1f2a3b4c5d6e', 'last_error': None, 'last_status': 204,
            'next_attempt_at': None, 'state': 'delivered'}]}

    Attributes:
        deliveries (list[Delivery]):
    """

    deliveries: list[Delivery]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliveries": deliveries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery import Delivery

        d = dict(src_dict)
        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = Delivery.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        delivery_list = cls(
            deliveries=deliveries,
        )

        delivery_list.additional_properties = d
        return delivery_list

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
