from enum import Enum


class Color(str, Enum):
    BLUE = "blue"
    RED = "red"

    def __str__(self) -> str:
        return str(self.value)
