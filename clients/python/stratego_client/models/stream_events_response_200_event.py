from enum import Enum


class StreamEventsResponse200Event(str, Enum):
    CHALLENGE_DECLINED = "challenge_declined"
    CHALLENGE_RECEIVED = "challenge_received"
    DEADLINE_SOON = "deadline_soon"
    DRAW_OFFERED = "draw_offered"
    GAME_ABORTED = "game_aborted"
    GAME_FINISHED = "game_finished"
    GAME_STARTED = "game_started"
    OPPONENT_JOINED = "opponent_joined"
    REMATCH_OFFERED = "rematch_offered"
    ROUND_STARTED = "round_started"
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_STARTED = "tournament_started"
    VACATION_ENDED = "vacation_ended"
    VACATION_STARTED = "vacation_started"
    YOUR_TURN = "your_turn"

    def __str__(self) -> str:
        return str(self.value)
