from enum import Enum


class DuplicateSquareSetupProblemProblem(str, Enum):
    DUPLICATE_SQUARE = "duplicate_square"

    def __str__(self) -> str:
        return str(self.value)
