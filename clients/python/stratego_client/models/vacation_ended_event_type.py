from enum import Enum


class VacationEndedEventType(str, Enum):
    VACATION_ENDED = "vacation_ended"

    def __str__(self) -> str:
        return str(self.value)
