from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.unknown_piece_setup_problem_problem import UnknownPieceSetupProblemProblem

T = TypeVar("T", bound="UnknownPieceSetupProblem")


@_attrs_define
class UnknownPieceSetupProblem:
    """The value is not one of the twelve lower-case piece names.

    Attributes:
        piece (str): As sent (at most 32 characters)
        problem (UnknownPieceSetupProblemProblem):
        square (str): As sent (at most 32 characters)
    """

    piece: str
    problem: UnknownPieceSetupProblemProblem
    square: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        piece = self.piece

        problem = self.problem.value

        square = self.square

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "piece": piece,
                "problem": problem,
                "square": square,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        piece = d.pop("piece")

        problem = UnknownPieceSetupProblemProblem(d.pop("problem"))

        square = d.pop("square")

        unknown_piece_setup_problem = cls(
            piece=piece,
            problem=problem,
            square=square,
        )

        unknown_piece_setup_problem.additional_properties = d
        return unknown_piece_setup_problem

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
