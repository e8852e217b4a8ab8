from enum import Enum


class YourTurnEventType(str, Enum):
    YOUR_TURN = "your_turn"

    def __str__(self) -> str:
        return str(self.value)
