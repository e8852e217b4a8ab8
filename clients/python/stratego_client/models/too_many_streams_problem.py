from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.too_many_streams_problem_code import TooManyStreamsProblemCode

T = TypeVar("T", bound="TooManyStreamsProblem")


@_attrs_define
class TooManyStreamsProblem:
    """Too many open streams (`too_many_streams`).

    Attributes:
        code (TooManyStreamsProblemCode):
        detail (str): What went wrong with this request
        max_streams (int): The per-user limit of open streams (MAX_STREAMS_PER_USER)
        retry_after (int): Whole seconds (as `Retry-After`) within which a stream the caller closed frees its slot: the
            keep-alive interval (SSE_KEEPALIVE_SECONDS)
        status (int): The HTTP status code
        title (str): Short summary of the problem kind
        type_ (str): URI reference naming the problem kind, e.g. `/problems/not-found`
    """

    code: TooManyStreamsProblemCode
    detail: str
    max_streams: int
    retry_after: int
    status: int
    title: str
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        detail = self.detail

        max_streams = self.max_streams

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
                "max_streams": max_streams,
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
        code = TooManyStreamsProblemCode(d.pop("code"))

        detail = d.pop("detail")

        max_streams = d.pop("max_streams")

        retry_after = d.pop("retry_after")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        too_many_streams_problem = cls(
            code=code,
            detail=detail,
            max_streams=max_streams,
            retry_after=retry_after,
            status=status,
            title=title,
            type_=type_,
        )

        too_many_streams_problem.additional_properties = d
        return too_many_streams_problem

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
