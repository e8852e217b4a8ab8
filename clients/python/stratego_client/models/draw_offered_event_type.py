from enum import Enum


class DrawOfferedEventType(str, Enum):
    DRAW_OFFERED = "draw_offered"

    def __str__(self) -> str:
        return str(self.value)
