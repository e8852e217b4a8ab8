from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.variant import Variant

if TYPE_CHECKING:
    from ..models.army_piece import ArmyPiece
    from ..models.rules_view import RulesView
    from ..models.settings import Settings
    from ..models.setup_zones import SetupZones


T = TypeVar("T", bound="VariantInfo")


@_attrs_define
class VariantInfo:
    """One variant: its army, setup zones, default rules and settings.

    Attributes:
        army (list[ArmyPiece]): Each kind of piece in the army, in piece order
        army_size (int): Pieces per player
        default_rules (RulesView): The complete rules in force in a game (every rule is always sent). Example:
            {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
            'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}.
        settings (Settings): The range of every setting of `POST /games` (the boolean rules take
            `true` or `false`).
        setup_zones (SetupZones): The squares each color places its army on, in index order.
        variant (Variant): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
    """

    army: list[ArmyPiece]
    army_size: int
    default_rules: RulesView
    settings: Settings
    setup_zones: SetupZones
    variant: Variant
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        army = []
        for army_item_data in self.army:
            army_item = army_item_data.to_dict()
            army.append(army_item)

        army_size = self.army_size

        default_rules = self.default_rules.to_dict()

        settings = self.settings.to_dict()

        setup_zones = self.setup_zones.to_dict()

        variant = self.variant.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "army": army,
                "army_size": army_size,
                "default_rules": default_rules,
                "settings": settings,
                "setup_zones": setup_zones,
                "variant": variant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.army_piece import ArmyPiece
        from ..models.rules_view import RulesView
        from ..models.settings import Settings
        from ..models.setup_zones import SetupZones

        d = dict(src_dict)
        army = []
        _army = d.pop("army")
        for army_item_data in _army:
            army_item = ArmyPiece.from_dict(army_item_data)

            army.append(army_item)

        army_size = d.pop("army_size")

        default_rules = RulesView.from_dict(d.pop("default_rules"))

        settings = Settings.from_dict(d.pop("settings"))

        setup_zones = SetupZones.from_dict(d.pop("setup_zones"))

        variant = Variant(d.pop("variant"))

        variant_info = cls(
            army=army,
            army_size=army_size,
            default_rules=default_rules,
            settings=settings,
            setup_zones=setup_zones,
            variant=variant,
        )

        variant_info.additional_properties = d
        return variant_info

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
