from enum import Enum


class Status(str, Enum):
    ABORTED = "aborted"
    FINISHED = "finished"
    PLAYING = "playing"
    SETUP = "setup"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
