from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.variant import Variant

if TYPE_CHECKING:
    from ..models.saved_setup_placement import SavedSetupPlacement


T = TypeVar("T", bound="SavedSetup")


@_attrs_define
class SavedSetup:
    """A saved setup as its owner sees it.

    Example:
        {'created_at': '2026-11-30T10:00:00Z', 'id': '0b8e4c1a-3f6d-4e7a-9c2b-5d1e8f7a6b40', 'name': 'fortress',
            'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1': 'scout', 'f1': 'scout', 'g1':
            'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'}, 'updated_at': '2026-11-30T10:00:00Z', 'variant':
            'duel'}

    Attributes:
        created_at (datetime.datetime):
        id (UUID):
        name (str):
        placement (SavedSetupPlacement): The army by square, as written for Red (turned for Blue when used)
        updated_at (datetime.datetime):
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
    """

    created_at: datetime.datetime
    id: UUID
    name: str
    placement: SavedSetupPlacement
    updated_at: datetime.datetime
    variant: Variant
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = str(self.id)

        name = self.name

        placement = self.placement.to_dict()

        updated_at = self.updated_at.isoformat()

        variant = self.variant.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "name": name,
                "placement": placement,
                "updated_at": updated_at,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.saved_setup_placement import SavedSetupPlacement

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = UUID(d.pop("id"))

        name = d.pop("name")

        placement = SavedSetupPlacement.from_dict(d.pop("placement"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        variant = Variant(d.pop("variant"))

        saved_setup = cls(
            created_at=created_at,
            id=id,
            name=name,
            placement=placement,
            updated_at=updated_at,
            variant=variant,
        )

        saved_setup.additional_properties = d
        return saved_setup

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
