from enum import Enum


class AbortReason(str, Enum):
    ABORTED = "aborted"
    SETUP_TIMEOUT = "setup_timeout"

    def __str__(self) -> str:
        return str(self.value)
