from enum import Enum


class FischerTimeControlType(str, Enum):
    FISCHER = "fischer"

    def __str__(self) -> str:
        return str(self.value)
