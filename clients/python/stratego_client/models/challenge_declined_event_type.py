from enum import Enum


class ChallengeDeclinedEventType(str, Enum):
    CHALLENGE_DECLINED = "challenge_declined"

    def __str__(self) -> str:
        return str(self.value)
