from enum import Enum


class DeadlineSoonEventType(str, Enum):
    DEADLINE_SOON = "deadline_soon"

    def __str__(self) -> str:
        return str(self.value)
