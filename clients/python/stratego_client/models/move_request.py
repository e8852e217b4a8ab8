from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rescue_request import RescueRequest


T = TypeVar("T", bound="MoveRequest")


@_attrs_define
class MoveRequest:
    """One move.

    Example:
        {'expected_version': 12, 'from': 'e4', 'to': 'e5'}

    Attributes:
        from_ (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the
            server writes lower case).
        to (str): A square: a file `a`-`j` and a rank `1`-`10`, such as `e4` (upper-case files are read too; the server
            writes lower case).
        expected_version (int | None | Unset): Fail with 409 `version_conflict` unless the game is at this version.
        rescue (None | RescueRequest | Unset):
    """

    from_: str
    to: str
    expected_version: int | None | Unset = UNSET
    rescue: None | RescueRequest | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.rescue_request import RescueRequest

        from_ = self.from_

        to = self.to

        expected_version: int | None | Unset
        if isinstance(self.expected_version, Unset):
            expected_version = UNSET
        else:
            expected_version = self.expected_version

        rescue: dict[str, Any] | None | Unset
        if isinstance(self.rescue, Unset):
            rescue = UNSET
        elif isinstance(self.rescue, RescueRequest):
            rescue = self.rescue.to_dict()
        else:
            rescue = self.rescue

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
            }
        )
        if expected_version is not UNSET:
            field_dict["expected_version"] = expected_version
        if rescue is not UNSET:
            field_dict["rescue"] = rescue

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rescue_request import RescueRequest

        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        def _parse_expected_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expected_version = _parse_expected_version(d.pop("expected_version", UNSET))

        def _parse_rescue(data: object) -> None | RescueRequest | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rescue_type_0 = RescueRequest.from_dict(data)

                return rescue_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RescueRequest | Unset, data)

        rescue = _parse_rescue(d.pop("rescue", UNSET))

        move_request = cls(
            from_=from_,
            to=to,
            expected_version=expected_version,
            rescue=rescue,
        )

        return move_request
