from enum import Enum


class GameStartedEventType(str, Enum):
    GAME_STARTED = "game_started"

    def __str__(self) -> str:
        return str(self.value)
