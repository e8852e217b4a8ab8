from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.challenge_declined_event import ChallengeDeclinedEvent
    from ..models.challenge_received_event import ChallengeReceivedEvent
    from ..models.deadline_soon_event import DeadlineSoonEvent
    from ..models.draw_offered_event import DrawOfferedEvent
    from ..models.game_aborted_event import GameAbortedEvent
    from ..models.game_finished_event import GameFinishedEvent
    from ..models.game_started_event import GameStartedEvent
    from ..models.opponent_joined_event import OpponentJoinedEvent
    from ..models.rematch_offered_event import RematchOfferedEvent
    from ..models.round_started_event import RoundStartedEvent
    from ..models.tournament_finished_event import TournamentFinishedEvent
    from ..models.tournament_started_event import TournamentStartedEvent
    from ..models.vacation_ended_event import VacationEndedEvent
    from ..models.vacation_started_event import VacationStartedEvent
    from ..models.your_turn_event import YourTurnEvent


T = TypeVar("T", bound="EventPage")


@_attrs_define
class EventPage:
    """A page of the caller's events.

    Example:
        {'events': [{'created_at': '2026-12-01T09:30:00Z', 'game_id': '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'id': 41,
            'type': 'game_started'}, {'created_at': '2026-12-01T10:00:00Z', 'game_id':
            '0b5e5e1e-6a47-4a53-9a3c-9d1c0c7f2a10', 'id': 42, 'opponent_move': {'battle': None, 'color': 'blue', 'from':
            'i8', 'piece': None, 'ply': 6, 'rescue': None, 'to': 'i7'}, 'ply': 6, 'type': 'your_turn'}], 'last_id': 42}

    Attributes:
        events (list[ChallengeDeclinedEvent | ChallengeReceivedEvent | DeadlineSoonEvent | DrawOfferedEvent |
            GameAbortedEvent | GameFinishedEvent | GameStartedEvent | OpponentJoinedEvent | RematchOfferedEvent |
            RoundStartedEvent | TournamentFinishedEvent | TournamentStartedEvent | VacationEndedEvent | VacationStartedEvent
            | YourTurnEvent]): Oldest first.
        last_id (int): The id to pass as `after` next time: the last event's id, or `after`
            itself when there is none.
    """

    events: list[
        ChallengeDeclinedEvent
        | ChallengeReceivedEvent
        | DeadlineSoonEvent
        | DrawOfferedEvent
        | GameAbortedEvent
        | GameFinishedEvent
        | GameStartedEvent
        | OpponentJoinedEvent
        | RematchOfferedEvent
        | RoundStartedEvent
        | TournamentFinishedEvent
        | TournamentStartedEvent
        | VacationEndedEvent
        | VacationStartedEvent
        | YourTurnEvent
    ]
    last_id: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.challenge_declined_event import ChallengeDeclinedEvent
        from ..models.challenge_received_event import ChallengeReceivedEvent
        from ..models.deadline_soon_event import DeadlineSoonEvent
        from ..models.draw_offered_event import DrawOfferedEvent
        from ..models.game_aborted_event import GameAbortedEvent
        from ..models.game_finished_event import GameFinishedEvent
        from ..models.game_started_event import GameStartedEvent
        from ..models.opponent_joined_event import OpponentJoinedEvent
        from ..models.rematch_offered_event import RematchOfferedEvent
        from ..models.round_started_event import RoundStartedEvent
        from ..models.tournament_started_event import TournamentStartedEvent
        from ..models.vacation_ended_event import VacationEndedEvent
        from ..models.vacation_started_event import VacationStartedEvent
        from ..models.your_turn_event import YourTurnEvent

        events = []
        for events_item_data in self.events:
            events_item: dict[str, Any]
            if isinstance(events_item_data, ChallengeReceivedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, RematchOfferedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ChallengeDeclinedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, OpponentJoinedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, GameAbortedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, GameStartedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, YourTurnEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DrawOfferedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, GameFinishedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, DeadlineSoonEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, VacationStartedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, VacationEndedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, TournamentStartedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, RoundStartedEvent):
                events_item = events_item_data.to_dict()
            else:
                events_item = events_item_data.to_dict()

            events.append(events_item)

        last_id = self.last_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "events": events,
                "last_id": last_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.challenge_declined_event import ChallengeDeclinedEvent
        from ..models.challenge_received_event import ChallengeReceivedEvent
        from ..models.deadline_soon_event import DeadlineSoonEvent
        from ..models.draw_offered_event import DrawOfferedEvent
        from ..models.game_aborted_event import GameAbortedEvent
        from ..models.game_finished_event import GameFinishedEvent
        from ..models.game_started_event import GameStartedEvent
        from ..models.opponent_joined_event import OpponentJoinedEvent
        from ..models.rematch_offered_event import RematchOfferedEvent
        from ..models.round_started_event import RoundStartedEvent
        from ..models.tournament_finished_event import TournamentFinishedEvent
        from ..models.tournament_started_event import TournamentStartedEvent
        from ..models.vacation_ended_event import VacationEndedEvent
        from ..models.vacation_started_event import VacationStartedEvent
        from ..models.your_turn_event import YourTurnEvent

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(
                data: object,
            ) -> (
                ChallengeDeclinedEvent
                | ChallengeReceivedEvent
                | DeadlineSoonEvent
                | DrawOfferedEvent
                | GameAbortedEvent
                | GameFinishedEvent
                | GameStartedEvent
                | OpponentJoinedEvent
                | RematchOfferedEvent
                | RoundStartedEvent
                | TournamentFinishedEvent
                | TournamentStartedEvent
                | VacationEndedEvent
                | VacationStartedEvent
                | YourTurnEvent
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_0 = ChallengeReceivedEvent.from_dict(data)

                    return componentsschemas_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_1 = RematchOfferedEvent.from_dict(data)

                    return componentsschemas_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_2 = ChallengeDeclinedEvent.from_dict(data)

                    return componentsschemas_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_3 = OpponentJoinedEvent.from_dict(data)

                    return componentsschemas_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_4 = GameAbortedEvent.from_dict(data)

                    return componentsschemas_event_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_5 = GameStartedEvent.from_dict(data)

                    return componentsschemas_event_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_6 = YourTurnEvent.from_dict(data)

                    return componentsschemas_event_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_7 = DrawOfferedEvent.from_dict(data)

                    return componentsschemas_event_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_8 = GameFinishedEvent.from_dict(data)

                    return componentsschemas_event_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_9 = DeadlineSoonEvent.from_dict(data)

                    return componentsschemas_event_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_10 = VacationStartedEvent.from_dict(data)

                    return componentsschemas_event_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_11 = VacationEndedEvent.from_dict(data)

                    return componentsschemas_event_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_12 = TournamentStartedEvent.from_dict(data)

                    return componentsschemas_event_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_event_type_13 = RoundStartedEvent.from_dict(data)

                    return componentsschemas_event_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_type_14 = TournamentFinishedEvent.from_dict(data)

                return componentsschemas_event_type_14

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        last_id = d.pop("last_id")

        event_page = cls(
            events=events,
            last_id=last_id,
        )

        event_page.additional_properties = d
        return event_page

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
