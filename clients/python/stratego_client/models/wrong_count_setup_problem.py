from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.piece import Piece
from ..models.wrong_count_setup_problem_problem import WrongCountSetupProblemProblem

T = TypeVar("T", bound="WrongCountSetupProblem")


@_attrs_define
class WrongCountSetupProblem:
    """The army needs `expected` of this piece; the placement has `found`.

    Attributes:
        expected (int):
        found (int):
        piece (Piece): A piece by name.
        problem (WrongCountSetupProblemProblem):
    """

    expected: int
    found: int
    piece: Piece
    problem: WrongCountSetupProblemProblem
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected = self.expected

        found = self.found

        piece = self.piece.value

        problem = self.problem.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected": expected,
                "found": found,
                "piece": piece,
                "problem": problem,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expected = d.pop("expected")

        found = d.pop("found")

        piece = Piece(d.pop("piece"))

        problem = WrongCountSetupProblemProblem(d.pop("problem"))

        wrong_count_setup_problem = cls(
            expected=expected,
            found=found,
            piece=piece,
            problem=problem,
        )

        wrong_count_setup_problem.additional_properties = d
        return wrong_count_setup_problem

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
