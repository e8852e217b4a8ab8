from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rate_limited_problem_code import RateLimitedProblemCode

T = TypeVar("T", bound="RateLimitedProblem")


@_attrs_define
class RateLimitedProblem:
    """Too many attempts (`rate_limited`).

    Attributes:
        code (RateLimitedProblemCode):
        detail (str): What went wrong with this request
        retry_after (int): Whole seconds until the window reopens (as `Retry-After`)
        status (int): The HTTP status code
        title (str): Short summary of the problem kind
        type_ (str): URI reference naming the problem kind, e.g. `/problems/not-found`
    """

    code: RateLimitedProblemCode
    detail: str
    retry_after: int
    status: int
    title: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        detail = self.detail

        retry_after = self.retry_after

        status = self.status

        title = self.title

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "retry_after": retry_after,
                "status": status,
                "title": title,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = RateLimitedProblemCode(d.pop("code"))

        detail = d.pop("detail")

        retry_after = d.pop("retry_after")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        rate_limited_problem = cls(
            code=code,
            detail=detail,
            retry_after=retry_after,
            status=status,
            title=title,
            type_=type_,
        )

        rate_limited_problem.additional_properties = d
        return rate_limited_problem

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
