from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RulesView")


@_attrs_define
class RulesView:
    """The complete rules in force in a game (every rule is always sent).

    Example:
        {'aggressor_advantage': False, 'max_plies': None, 'max_plies_without_battle': None, 'more_squares_rule': False,
            'rescue': False, 'scout_strike_after_move': True, 'silent_defense': False, 'two_square_limit': 3}

    Attributes:
        aggressor_advantage (bool): In a battle of equal strengths the attacker wins
        max_plies (int | None): A draw (`move_limit`) after this many plies; `null`: no cap
        max_plies_without_battle (int | None): A draw after this many plies without a battle; `null`: no cap
        more_squares_rule (bool): No endless chase back into a position that already stood during the
            chase (the more-squares rule, docs/more-squares-rule.md)
        rescue (bool): Reaching the opponent's back row may bring back a captured piece
        scout_strike_after_move (bool): A scout may end a line move by attacking
        silent_defense (bool): Only the attacker's rank is revealed in a battle
        two_square_limit (int): How many times in a row a piece may cross the same border back and forth
    """

    aggressor_advantage: bool
    max_plies: int | None
    max_plies_without_battle: int | None
    more_squares_rule: bool
    rescue: bool
    scout_strike_after_move: bool
    silent_defense: bool
    two_square_limit: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        aggressor_advantage = self.aggressor_advantage

        max_plies: int | None
        max_plies = self.max_plies

        max_plies_without_battle: int | None
        max_plies_without_battle = self.max_plies_without_battle

        more_squares_rule = self.more_squares_rule

        rescue = self.rescue

        scout_strike_after_move = self.scout_strike_after_move

        silent_defense = self.silent_defense

        two_square_limit = self.two_square_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "aggressor_advantage": aggressor_advantage,
                "max_plies": max_plies,
                "max_plies_without_battle": max_plies_without_battle,
                "more_squares_rule": more_squares_rule,
                "rescue": rescue,
                "scout_strike_after_move": scout_strike_after_move,
                "silent_defense": silent_defense,
                "two_square_limit": two_square_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        aggressor_advantage = d.pop("aggressor_advantage")

        def _parse_max_plies(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_plies = _parse_max_plies(d.pop("max_plies"))

        def _parse_max_plies_without_battle(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_plies_without_battle = _parse_max_plies_without_battle(d.pop("max_plies_without_battle"))

        more_squares_rule = d.pop("more_squares_rule")

        rescue = d.pop("rescue")

        scout_strike_after_move = d.pop("scout_strike_after_move")

        silent_defense = d.pop("silent_defense")

        two_square_limit = d.pop("two_square_limit")

        rules_view = cls(
            aggressor_advantage=aggressor_advantage,
            max_plies=max_plies,
            max_plies_without_battle=max_plies_without_battle,
            more_squares_rule=more_squares_rule,
            rescue=rescue,
            scout_strike_after_move=scout_strike_after_move,
            silent_defense=silent_defense,
            two_square_limit=two_square_limit,
        )

        rules_view.additional_properties = d
        return rules_view

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
