from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RandomSetup")


@_attrs_define
class RandomSetup:
    """A valid random setup placed by the server; `seed` makes it reproducible.

    Example:
        {'random': True, 'seed': 7}

    Attributes:
        random (bool): `true`: let the server place a valid random setup.
        seed (int | None | Unset): Seed of the random setup (only with `random`).
    """

    random: bool
    seed: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        random = self.random

        seed: int | None | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "random": random,
            }
        )
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        random = d.pop("random")

        def _parse_seed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        random_setup = cls(
            random=random,
            seed=seed,
        )

        return random_setup
