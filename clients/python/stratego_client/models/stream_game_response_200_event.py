from enum import Enum


class StreamGameResponse200Event(str, Enum):
    GAME = "game"

    def __str__(self) -> str:
        return str(self.value)
