from enum import Enum


class ExportGameFormat(str, Enum):
    GRAVON = "gravon"
    JSON = "json"

    def __str__(self) -> str:
        return str(self.value)
