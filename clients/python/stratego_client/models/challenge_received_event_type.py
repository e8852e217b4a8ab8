from enum import Enum


class ChallengeReceivedEventType(str, Enum):
    CHALLENGE_RECEIVED = "challenge_received"

    def __str__(self) -> str:
        return str(self.value)
