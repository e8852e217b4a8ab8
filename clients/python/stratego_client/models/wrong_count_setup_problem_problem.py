from enum import Enum


class WrongCountSetupProblemProblem(str, Enum):
    WRONG_COUNT = "wrong_count"

    def __str__(self) -> str:
        return str(self.value)
