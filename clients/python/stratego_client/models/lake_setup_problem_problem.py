from enum import Enum


class LakeSetupProblemProblem(str, Enum):
    LAKE = "lake"

    def __str__(self) -> str:
        return str(self.value)
