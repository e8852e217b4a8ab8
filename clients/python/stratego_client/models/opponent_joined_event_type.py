from enum import Enum


class OpponentJoinedEventType(str, Enum):
    OPPONENT_JOINED = "opponent_joined"

    def __str__(self) -> str:
        return str(self.value)
