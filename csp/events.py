"""Events a propagator subscribes to, propagation status, cost levels, and Contradiction."""
from __future__ import annotations

from enum import Enum, IntEnum, IntFlag
from typing import Sequence

from .errors import SudokuCSPError


class Event(IntFlag):
    """DOM: any removal; BOUNDS: min or max changed; FIXED: one candidate left."""

    DOM = 1
    BOUNDS = 2
    FIXED = 4
    ANY = 7


class Status(Enum):
    FIX = "fix"          # running again at once would change nothing
    NOFIX = "nofix"      # unsure: may be run again
    SUBSUMED = "subsumed"  # entailed by the current domains


class Cost(IntEnum):
    UNARY = 0
    BINARY = 1
    LINEAR = 2
    QUADRATIC = 3
    TECHNIQUE = 4


class Contradiction(SudokuCSPError):
    """A propagator found that no solution extends the current state.

    ``constraint`` names the rule that failed and ``cells`` the cells involved.
    """

    def __init__(self, message: str, constraint: str = "", cells: Sequence[int] = ()) -> None:
        super().__init__(message)
        self.constraint = constraint
        self.cells = tuple(cells)
