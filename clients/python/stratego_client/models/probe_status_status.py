from enum import Enum


class ProbeStatusStatus(str, Enum):
    OK = "ok"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
