from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.tournament_summary import TournamentSummary


T = TypeVar("T", bound="TournamentList")


@_attrs_define
class TournamentList:
    """
    Example:
        {'tournaments': [{'created_at': '2026-11-20T09:00:00Z', 'current_round': 2, 'id':
            '6f1c2a9e-3b7d-4e0a-9c55-2d8f0b4a7e13', 'max_players': 32, 'name': 'Winter Swiss', 'organiser': 'cy', 'players':
            3, 'rated': True, 'round_count': 2, 'starts_at': None, 'status': 'running', 'system': 'swiss', 'time_control':
            {'days': 3, 'type': 'per_move'}, 'variant': 'duel'}]}

    Attributes:
        tournaments (list[TournamentSummary]):
    """

    tournaments: list[TournamentSummary]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tournaments = []
        for tournaments_item_data in self.tournaments:
            tournaments_item = tournaments_item_data.to_dict()
            tournaments.append(tournaments_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tournaments": tournaments,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tournament_summary import TournamentSummary

        d = dict(src_dict)
        tournaments = []
        _tournaments = d.pop("tournaments")
        for tournaments_item_data in _tournaments:
            tournaments_item = TournamentSummary.from_dict(tournaments_item_data)

            tournaments.append(tournaments_item)

        tournament_list = cls(
            tournaments=tournaments,
        )

        tournament_list.additional_properties = d
        return tournament_list

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
