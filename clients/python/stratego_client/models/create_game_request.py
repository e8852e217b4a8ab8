from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.color_choice import ColorChoice
from ..models.variant import Variant
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fischer_time_control import FischerTimeControl
    from ..models.moves_in_days_time_control import MovesInDaysTimeControl
    from ..models.per_move_time_control import PerMoveTimeControl
    from ..models.rules import Rules


T = TypeVar("T", bound="CreateGameRequest")


@_attrs_define
class CreateGameRequest:
    """A new game: an open seat (`opponent` null) or a challenge to a user.

    Example:
        {'color': 'random', 'days_per_move': 3, 'opponent': None, 'rated': True, 'rules': {'two_square_limit': 3},
            'variant': 'classic'}

    Attributes:
        color (ColorChoice | Unset): Which color the creator plays.
        days_per_move (int | None | Unset): Shorthand for `{"type": "per_move", "days": n}` (1-14, default
            3); not together with `time_control`.
        opponent (None | str | Unset): Username of the user challenged (a bot such as `bot-tactician` accepts
            at once: `GET /bots`); null for an open seat anyone may take.
        rated (bool | None | Unset): Whether the game counts for both players' ratings (default `true`;
            docs/ratings.md).
        rules (Rules | Unset): The rules of a game; every field optional on creation (docs/rules.md
            defaults), always complete in a view. Example: {'aggressor_advantage': False, 'max_plies': None,
            'max_plies_without_battle': None, 'more_squares_rule': False, 'rescue': False, 'scout_strike_after_move': True,
            'silent_defense': False, 'two_square_limit': 3}.
        time_control (FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset):
        variant (Variant | Unset): A game variant (docs/rules.md: armies of 40, 8 or 10 pieces).
    """

    color: ColorChoice | Unset = UNSET
    days_per_move: int | None | Unset = UNSET
    opponent: None | str | Unset = UNSET
    rated: bool | None | Unset = UNSET
    rules: Rules | Unset = UNSET
    time_control: FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset = UNSET
    variant: Variant | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl

        color: str | Unset = UNSET
        if not isinstance(self.color, Unset):
            color = self.color.value

        days_per_move: int | None | Unset
        if isinstance(self.days_per_move, Unset):
            days_per_move = UNSET
        else:
            days_per_move = self.days_per_move

        opponent: None | str | Unset
        if isinstance(self.opponent, Unset):
            opponent = UNSET
        else:
            opponent = self.opponent

        rated: bool | None | Unset
        if isinstance(self.rated, Unset):
            rated = UNSET
        else:
            rated = self.rated

        rules: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rules, Unset):
            rules = self.rules.to_dict()

        time_control: dict[str, Any] | None | Unset
        if isinstance(self.time_control, Unset):
            time_control = UNSET
        elif isinstance(self.time_control, PerMoveTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, FischerTimeControl):
            time_control = self.time_control.to_dict()
        elif isinstance(self.time_control, MovesInDaysTimeControl):
            time_control = self.time_control.to_dict()
        else:
            time_control = self.time_control

        variant: str | Unset = UNSET
        if not isinstance(self.variant, Unset):
            variant = self.variant.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if color is not UNSET:
            field_dict["color"] = color
        if days_per_move is not UNSET:
            field_dict["days_per_move"] = days_per_move
        if opponent is not UNSET:
            field_dict["opponent"] = opponent
        if rated is not UNSET:
            field_dict["rated"] = rated
        if rules is not UNSET:
            field_dict["rules"] = rules
        if time_control is not UNSET:
            field_dict["time_control"] = time_control
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fischer_time_control import FischerTimeControl
        from ..models.moves_in_days_time_control import MovesInDaysTimeControl
        from ..models.per_move_time_control import PerMoveTimeControl
        from ..models.rules import Rules

        d = dict(src_dict)
        _color = d.pop("color", UNSET)
        color: ColorChoice | Unset
        if isinstance(_color, Unset):
            color = UNSET
        else:
            color = ColorChoice(_color)

        def _parse_days_per_move(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        days_per_move = _parse_days_per_move(d.pop("days_per_move", UNSET))

        def _parse_opponent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opponent = _parse_opponent(d.pop("opponent", UNSET))

        def _parse_rated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        rated = _parse_rated(d.pop("rated", UNSET))

        _rules = d.pop("rules", UNSET)
        rules: Rules | Unset
        if isinstance(_rules, Unset):
            rules = UNSET
        else:
            rules = Rules.from_dict(_rules)

        def _parse_time_control(
            data: object,
        ) -> FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_0 = PerMoveTimeControl.from_dict(data)

                return componentsschemas_time_control_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_1 = FischerTimeControl.from_dict(data)

                return componentsschemas_time_control_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_time_control_type_2 = MovesInDaysTimeControl.from_dict(data)

                return componentsschemas_time_control_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FischerTimeControl | MovesInDaysTimeControl | None | PerMoveTimeControl | Unset, data)

        time_control = _parse_time_control(d.pop("time_control", UNSET))

        _variant = d.pop("variant", UNSET)
        variant: Variant | Unset
        if isinstance(_variant, Unset):
            variant = UNSET
        else:
            variant = Variant(_variant)

        create_game_request = cls(
            color=color,
            days_per_move=days_per_move,
            opponent=opponent,
            rated=rated,
            rules=rules,
            time_control=time_control,
            variant=variant,
        )

        return create_game_request
