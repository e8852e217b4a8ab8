from enum import Enum


class RoundStartedEventType(str, Enum):
    ROUND_STARTED = "round_started"

    def __str__(self) -> str:
        return str(self.value)
