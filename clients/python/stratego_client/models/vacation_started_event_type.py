from enum import Enum


class VacationStartedEventType(str, Enum):
    VACATION_STARTED = "vacation_started"

    def __str__(self) -> str:
        return str(self.value)
