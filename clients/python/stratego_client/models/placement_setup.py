from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.placement_setup_placement import PlacementSetupPlacement


T = TypeVar("T", bound="PlacementSetup")


@_attrs_define
class PlacementSetup:
    """Your whole army by square, inside your own setup zone.

    Example:
        {'placement': {'a1': 'flag', 'b1': 'bomb'}}

    Attributes:
        placement (PlacementSetupPlacement): Square name to piece name, e.g. `{"a1": "flag", "b1": "bomb", ...}`:
            every piece of the variant's army, inside your own setup zone.
    """

    placement: PlacementSetupPlacement

    def to_dict(self) -> dict[str, Any]:
        placement = self.placement.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "placement": placement,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placement_setup_placement import PlacementSetupPlacement

        d = dict(src_dict)
        placement = PlacementSetupPlacement.from_dict(d.pop("placement"))

        placement_setup = cls(
            placement=placement,
        )

        return placement_setup
