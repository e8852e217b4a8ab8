from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Rules")


@_attrs_define
class Rules:
    """The rules of a game; every field optional on creation (docs/rules.md
    defaults), always complete in a view.

        Example:
            {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
                'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}

        Attributes:
            aggressor_advantage (bool | Unset): default false
            max_plies (int | None | Unset): a draw (`move_limit`) after this many plies; null = no cap
            max_plies_without_battle (int | None | Unset): a draw after this many plies without a battle; null = no cap
            more_squares_rule (bool | Unset): default false; tournament play turns it on: no endless chase back into
                a position that already stood during the chase (docs/more-squares-rule.md)
            rescue (bool | Unset): default false
            scout_strike_after_move (bool | Unset): default true
            silent_defense (bool | Unset): default false
            two_square_limit (int | Unset): 2-10, default 3
    """

    aggressor_advantage: bool | Unset = UNSET
    max_plies: int | None | Unset = UNSET
    max_plies_without_battle: int | None | Unset = UNSET
    more_squares_rule: bool | Unset = UNSET
    rescue: bool | Unset = UNSET
    scout_strike_after_move: bool | Unset = UNSET
    silent_defense: bool | Unset = UNSET
    two_square_limit: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aggressor_advantage = self.aggressor_advantage

        max_plies: int | None | Unset
        if isinstance(self.max_plies, Unset):
            max_plies = UNSET
        else:
            max_plies = self.max_plies

        max_plies_without_battle: int | None | Unset
        if isinstance(self.max_plies_without_battle, Unset):
            max_plies_without_battle = UNSET
        else:
            max_plies_without_battle = self.max_plies_without_battle

        more_squares_rule = self.more_squares_rule

        rescue = self.rescue

        scout_strike_after_move = self.scout_strike_after_move

        silent_defense = self.silent_defense

        two_square_limit = self.two_square_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if aggressor_advantage is not UNSET:
            field_dict["aggressor_advantage"] = aggressor_advantage
        if max_plies is not UNSET:
            field_dict["max_plies"] = max_plies
        if max_plies_without_battle is not UNSET:
            field_dict["max_plies_without_battle"] = max_plies_without_battle
        if more_squares_rule is not UNSET:
            field_dict["more_squares_rule"] = more_squares_rule
        if rescue is not UNSET:
            field_dict["rescue"] = rescue
        if scout_strike_after_move is not UNSET:
            field_dict["scout_strike_after_move"] = scout_strike_after_move
        if silent_defense is not UNSET:
            field_dict["silent_defense"] = silent_defense
        if two_square_limit is not UNSET:
            field_dict["two_square_limit"] = two_square_limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        aggressor_advantage = d.pop("aggressor_advantage", UNSET)

        def _parse_max_plies(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_plies = _parse_max_plies(d.pop("max_plies", UNSET))

        def _parse_max_plies_without_battle(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_plies_without_battle = _parse_max_plies_without_battle(d.pop("max_plies_without_battle", UNSET))

        more_squares_rule = d.pop("more_squares_rule", UNSET)

        rescue = d.pop("rescue", UNSET)

        scout_strike_after_move = d.pop("scout_strike_after_move", UNSET)

        silent_defense = d.pop("silent_defense", UNSET)

        two_square_limit = d.pop("two_square_limit", UNSET)

        rules = cls(
            aggressor_advantage=aggressor_advantage,
            max_plies=max_plies,
            max_plies_without_battle=max_plies_without_battle,
            more_squares_rule=more_squares_rule,
            rescue=rescue,
            scout_strike_after_move=scout_strike_after_move,
            silent_defense=silent_defense,
            two_square_limit=two_square_limit,
        )

        rules.additional_properties = d
        return rules

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
