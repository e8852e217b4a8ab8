from enum import Enum


class MovesInDaysTimeControlType(str, Enum):
    MOVES_IN_DAYS = "moves_in_days"

    def __str__(self) -> str:
        return str(self.value)
