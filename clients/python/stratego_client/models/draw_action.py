from enum import Enum


class DrawAction(str, Enum):
    ACCEPT = "accept"
    DECLINE = "decline"
    OFFER = "offer"

    def __str__(self) -> str:
        return str(self.value)
