from enum import Enum


class GameFinishedEventType(str, Enum):
    GAME_FINISHED = "game_finished"

    def __str__(self) -> str:
        return str(self.value)
