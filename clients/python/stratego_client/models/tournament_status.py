from enum import Enum


class TournamentStatus(str, Enum):
    FINISHED = "finished"
    OPEN = "open"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
