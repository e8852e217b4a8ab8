from enum import Enum


class PerMoveTimeControlType(str, Enum):
    PER_MOVE = "per_move"

    def __str__(self) -> str:
        return str(self.value)
