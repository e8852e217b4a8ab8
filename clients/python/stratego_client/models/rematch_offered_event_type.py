from enum import Enum


class RematchOfferedEventType(str, Enum):
    REMATCH_OFFERED = "rematch_offered"

    def __str__(self) -> str:
        return str(self.value)
