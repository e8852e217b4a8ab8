from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.color import Color
from ..models.variant import Variant
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.setup_to_save_placement import SetupToSavePlacement


T = TypeVar("T", bound="SetupToSave")


@_attrs_define
class SetupToSave:
    """A setup to save: its name, variant and placement.

    Example:
        {'name': 'fortress', 'placement': {'a1': 'flag', 'b1': 'bomb', 'c1': 'bomb', 'd1': 'spy', 'e1': 'scout', 'f1':
            'scout', 'g1': 'miner', 'h1': 'miner', 'i1': 'general', 'j1': 'marshal'}, 'variant': 'duel'}

    Attributes:
        name (str): 1-40 characters; unique among your setups of the variant
        placement (SetupToSavePlacement): Your whole army by square, validated exactly like a game setup
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
        color (Color | None | Unset):
    """

    name: str
    placement: SetupToSavePlacement
    variant: Variant
    color: Color | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        placement = self.placement.to_dict()

        variant = self.variant.value

        color: None | str | Unset
        if isinstance(self.color, Unset):
            color = UNSET
        elif isinstance(self.color, Color):
            color = self.color.value
        else:
            color = self.color

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "placement": placement,
                "variant": variant,
            }
        )
        if color is not UNSET:
            field_dict["color"] = color

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.setup_to_save_placement import SetupToSavePlacement

        d = dict(src_dict)
        name = d.pop("name")

        placement = SetupToSavePlacement.from_dict(d.pop("placement"))

        variant = Variant(d.pop("variant"))

        def _parse_color(data: object) -> Color | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                color_type_0 = Color(data)

                return color_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Color | None | Unset, data)

        color = _parse_color(d.pop("color", UNSET))

        setup_to_save = cls(
            name=name,
            placement=placement,
            variant=variant,
            color=color,
        )

        return setup_to_save
