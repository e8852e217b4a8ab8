from enum import Enum


class TournamentFinishedEventType(str, Enum):
    TOURNAMENT_FINISHED = "tournament_finished"

    def __str__(self) -> str:
        return str(self.value)
