from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.saved_setup import SavedSetup


T = TypeVar("T", bound="SetupList")


@_attrs_define
class SetupList:
    """Your saved setups.

    Example:
        {'setups': [{'created_at': '2026-11-30T10:00:00Z', 'id': '0b8e4c1a-3f6d-4e7a-9c2b-5d1e8f7a6b40', 'name':
            'fortress', 'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1': 'scout', 'f1': 'scout',
            'g1': 'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'}, 'updated_at': '2026-11-30T10:00:00Z',
            'variant': 'duel'}]}

    Attributes:
        setups (list[SavedSetup]):
    """

    setups: list[SavedSetup]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        setups = []
        for setups_item_data in self.setups:
            setups_item = setups_item_data.to_dict()
            setups.append(setups_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "setups": setups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.saved_setup import SavedSetup

        d = dict(src_dict)
        setups = []
        _setups = d.pop("setups")
        for setups_item_data in _setups:
            setups_item = SavedSetup.from_dict(setups_item_data)

            setups.append(setups_item)

        setup_list = cls(
            setups=setups,
        )

        setup_list.additional_properties = d
        return setup_list

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
