from enum import Enum


class GameAbortedEventType(str, Enum):
    GAME_ABORTED = "game_aborted"

    def __str__(self) -> str:
        return str(self.value)
