from enum import Enum


class BadSquareSetupProblemProblem(str, Enum):
    BAD_SQUARE = "bad_square"

    def __str__(self) -> str:
        return str(self.value)
