from enum import Enum


class ColorChoice(str, Enum):
    BLUE = "blue"
    RANDOM = "random"
    RED = "red"

    def __str__(self) -> str:
        return str(self.value)
