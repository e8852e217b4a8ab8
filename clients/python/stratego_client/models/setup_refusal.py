from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.setup_refusal_code import SetupRefusalCode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.bad_square_setup_problem import BadSquareSetupProblem
    from ..models.duplicate_square_setup_problem import DuplicateSquareSetupProblem
    from ..models.lake_setup_problem import LakeSetupProblem
    from ..models.outside_zone_setup_problem import OutsideZoneSetupProblem
    from ..models.unknown_piece_setup_problem import UnknownPieceSetupProblem
    from ..models.wrong_count_setup_problem import WrongCountSetupProblem


T = TypeVar("T", bound="SetupRefusal")


@_attrs_define
class SetupRefusal:
    """A refused setup: `invalid_setup` lists every problem found.

    Attributes:
        code (SetupRefusalCode):
        detail (str): What went wrong with this request
        status (int): The HTTP status code
        title (str): Short summary of the problem kind
        type_ (str): URI reference naming the problem kind, e.g. `/problems/not-found`
        problems (list[BadSquareSetupProblem | DuplicateSquareSetupProblem | LakeSetupProblem | OutsideZoneSetupProblem
            | UnknownPieceSetupProblem | WrongCountSetupProblem] | Unset): Entry problems in the order sent, then wrong
            counts in piece order; absent on other codes (`validation_failed`, `idempotency_key_reused`)
    """

    code: SetupRefusalCode
    detail: str
    status: int
    title: str
    type_: str
    problems: (
        list[
            BadSquareSetupProblem
            | DuplicateSquareSetupProblem
            | LakeSetupProblem
            | OutsideZoneSetupProblem
            | UnknownPieceSetupProblem
            | WrongCountSetupProblem
        ]
        | Unset
    ) = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.bad_square_setup_problem import BadSquareSetupProblem
        from ..models.duplicate_square_setup_problem import DuplicateSquareSetupProblem
        from ..models.lake_setup_problem import LakeSetupProblem
        from ..models.outside_zone_setup_problem import OutsideZoneSetupProblem
        from ..models.unknown_piece_setup_problem import UnknownPieceSetupProblem

        code = self.code.value

        detail = self.detail

        status = self.status

        title = self.title

        type_ = self.type_

        problems: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.problems, Unset):
            problems = []
            for problems_item_data in self.problems:
                problems_item: dict[str, Any]
                if isinstance(problems_item_data, UnknownPieceSetupProblem):
                    problems_item = problems_item_data.to_dict()
                elif isinstance(problems_item_data, BadSquareSetupProblem):
                    problems_item = problems_item_data.to_dict()
                elif isinstance(problems_item_data, OutsideZoneSetupProblem):
                    problems_item = problems_item_data.to_dict()
                elif isinstance(problems_item_data, LakeSetupProblem):
                    problems_item = problems_item_data.to_dict()
                elif isinstance(problems_item_data, DuplicateSquareSetupProblem):
                    problems_item = problems_item_data.to_dict()
                else:
                    problems_item = problems_item_data.to_dict()

                problems.append(problems_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "status": status,
                "title": title,
                "type": type_,
            }
        )
        if problems is not UNSET:
            field_dict["problems"] = problems

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bad_square_setup_problem import BadSquareSetupProblem
        from ..models.duplicate_square_setup_problem import DuplicateSquareSetupProblem
        from ..models.lake_setup_problem import LakeSetupProblem
        from ..models.outside_zone_setup_problem import OutsideZoneSetupProblem
        from ..models.unknown_piece_setup_problem import UnknownPieceSetupProblem
        from ..models.wrong_count_setup_problem import WrongCountSetupProblem

        d = dict(src_dict)
        code = SetupRefusalCode(d.pop("code"))

        detail = d.pop("detail")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        _problems = d.pop("problems", UNSET)
        problems: (
            list[
                BadSquareSetupProblem
                | DuplicateSquareSetupProblem
                | LakeSetupProblem
                | OutsideZoneSetupProblem
                | UnknownPieceSetupProblem
                | WrongCountSetupProblem
            ]
            | Unset
        ) = UNSET
        if _problems is not UNSET:
            problems = []
            for problems_item_data in _problems:

                def _parse_problems_item(
                    data: object,
                ) -> (
                    BadSquareSetupProblem
                    | DuplicateSquareSetupProblem
                    | LakeSetupProblem
                    | OutsideZoneSetupProblem
                    | UnknownPieceSetupProblem
                    | WrongCountSetupProblem
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_setup_problem_type_0 = UnknownPieceSetupProblem.from_dict(data)

                        return componentsschemas_setup_problem_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_setup_problem_type_1 = BadSquareSetupProblem.from_dict(data)

                        return componentsschemas_setup_problem_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_setup_problem_type_2 = OutsideZoneSetupProblem.from_dict(data)

                        return componentsschemas_setup_problem_type_2
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_setup_problem_type_3 = LakeSetupProblem.from_dict(data)

                        return componentsschemas_setup_problem_type_3
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_setup_problem_type_4 = DuplicateSquareSetupProblem.from_dict(data)

                        return componentsschemas_setup_problem_type_4
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_setup_problem_type_5 = WrongCountSetupProblem.from_dict(data)

                    return componentsschemas_setup_problem_type_5

                problems_item = _parse_problems_item(problems_item_data)

                problems.append(problems_item)

        setup_refusal = cls(
            code=code,
            detail=detail,
            status=status,
            title=title,
            type_=type_,
            problems=problems,
        )

        setup_refusal.additional_properties = d
        return setup_refusal

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
