from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TournamentLink")


@_attrs_define
class TournamentLink:
    """The tournament a game is part of.

    Example:
        {'id': '6f1c2a9e-3b7d-4e0a-9c55-2d8f0b4a7e13', 'round': 2}

    Attributes:
        id (UUID): `GET /api/v1/tournaments/{id}`
        round_ (int): The round the game belongs to (from 1)
    """

    id: UUID
    round_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        round_ = self.round_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        round_ = d.pop("round")

        tournament_link = cls(
            id=id,
            round_=round_,
        )

        tournament_link.additional_properties = d
        return tournament_link

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
