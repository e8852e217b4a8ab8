from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.outcome import Outcome
from ..models.piece import Piece

T = TypeVar("T", bound="Battle")


@_attrs_define
class Battle:
    """A battle as the viewer sees it (a rank the viewer may not know is null).

    Attributes:
        attacker (None | Piece):
        defender (None | Piece):
        outcome (Outcome): Outcome of a battle.
    """

    attacker: None | Piece
    defender: None | Piece
    outcome: Outcome
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attacker: None | str
        if isinstance(self.attacker, Piece):
            attacker = self.attacker.value
        else:
            attacker = self.attacker

        defender: None | str
        if isinstance(self.defender, Piece):
            defender = self.defender.value
        else:
            defender = self.defender

        outcome = self.outcome.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attacker": attacker,
                "defender": defender,
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_attacker(data: object) -> None | Piece:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                attacker_type_0 = Piece(data)

                return attacker_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Piece, data)

        attacker = _parse_attacker(d.pop("attacker"))

        def _parse_defender(data: object) -> None | Piece:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                defender_type_0 = Piece(data)

                return defender_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Piece, data)

        defender = _parse_defender(d.pop("defender"))

        outcome = Outcome(d.pop("outcome"))

        battle = cls(
            attacker=attacker,
            defender=defender,
            outcome=outcome,
        )

        battle.additional_properties = d
        return battle

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
