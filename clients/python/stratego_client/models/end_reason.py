from enum import Enum


class EndReason(str, Enum):
    BOTH_IMMOBILE = "both_immobile"
    DRAW_AGREED = "draw_agreed"
    FLAG_CAPTURED = "flag_captured"
    MOVE_LIMIT = "move_limit"
    NO_MOVES = "no_moves"
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)
