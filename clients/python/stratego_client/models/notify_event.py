from enum import Enum


class NotifyEvent(str, Enum):
    CHALLENGE_RECEIVED = "challenge_received"
    DEADLINE_SOON = "deadline_soon"
    DRAW_OFFERED = "draw_offered"
    GAME_OVER = "game_over"
    GAME_STARTED = "game_started"
    REMATCH_OFFERED = "rematch_offered"
    ROUND_STARTED = "round_started"
    TOURNAMENT_FINISHED = "tournament_finished"
    TOURNAMENT_STARTED = "tournament_started"
    VACATION_ENDED = "vacation_ended"
    VACATION_STARTED = "vacation_started"
    YOUR_MOVE = "your_move"

    def __str__(self) -> str:
        return str(self.value)
