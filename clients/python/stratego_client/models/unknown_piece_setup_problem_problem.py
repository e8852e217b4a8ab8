from enum import Enum


class UnknownPieceSetupProblemProblem(str, Enum):
    UNKNOWN_PIECE = "unknown_piece"

    def __str__(self) -> str:
        return str(self.value)
