from enum import Enum


class TournamentStartedEventType(str, Enum):
    TOURNAMENT_STARTED = "tournament_started"

    def __str__(self) -> str:
        return str(self.value)
