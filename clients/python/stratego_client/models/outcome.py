from enum import Enum


class Outcome(str, Enum):
    ATTACKER_WINS = "attacker_wins"
    BOTH_LOSE = "both_lose"
    DEFENDER_WINS = "defender_wins"

    def __str__(self) -> str:
        return str(self.value)
