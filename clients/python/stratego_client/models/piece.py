from enum import Enum


class Piece(str, Enum):
    BOMB = "bomb"
    CAPTAIN = "captain"
    COLONEL = "colonel"
    FLAG = "flag"
    GENERAL = "general"
    LIEUTENANT = "lieutenant"
    MAJOR = "major"
    MARSHAL = "marshal"
    MINER = "miner"
    SCOUT = "scout"
    SERGEANT = "sergeant"
    SPY = "spy"

    def __str__(self) -> str:
        return str(self.value)
