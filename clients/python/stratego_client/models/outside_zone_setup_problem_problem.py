from enum import Enum


class OutsideZoneSetupProblemProblem(str, Enum):
    OUTSIDE_ZONE = "outside_zone"

    def __str__(self) -> str:
        return str(self.value)
