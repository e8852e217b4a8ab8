from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.variant_info import VariantInfo


T = TypeVar("T", bound="VariantList")


@_attrs_define
class VariantList:
    """Every variant the server plays.

    Attributes:
        variants (list[VariantInfo]):
    """

    variants: list[VariantInfo]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        variants = []
        for variants_item_data in self.variants:
            variants_item = variants_item_data.to_dict()
            variants.append(variants_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "variants": variants,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.variant_info import VariantInfo

        d = dict(src_dict)
        variants = []
        _variants = d.pop("variants")
        for variants_item_data in _variants:
            variants_item = VariantInfo.from_dict(variants_item_data)

            variants.append(variants_item)

        variant_list = cls(
            variants=variants,
        )

        variant_list.additional_properties = d
        return variant_list

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
