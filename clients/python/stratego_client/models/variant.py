from enum import Enum


class Variant(str, Enum):
    BARRAGE = "barrage"
    CLASSIC = "classic"
    DUEL = "duel"

    def __str__(self) -> str:
        return str(self.value)
