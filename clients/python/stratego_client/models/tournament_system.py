from enum import Enum


class TournamentSystem(str, Enum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"

    def __str__(self) -> str:
        return str(self.value)
