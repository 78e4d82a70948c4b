"""sudoku-csp core: grid geometry, puzzle model, fixpoint engine, search, formats.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(9)).add_grid_houses()
>>> _ = p.givens("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> r = p.solve()
>>> r.status, "".join(map(str, r.solution))[:9]
('solved', '417369825')
"""
from .bits import digits_of, full_mask, iter_bits, mask_of, popcount
from typing import Any

from .constraints import (AbsDiff, AllDifferent, AllowedPairs, Constraint, Equal, Less,
                          LessEqual, NotAbsDiff, NotEqual, NotRatio, Ratio, Relation,
                          RelationKind)
from .engine import Engine
from .errors import (ContradictoryGivens, FrozenPuzzleError, GridSizeError, InvalidArgument,
                     InvalidConstraint, InvalidPuzzle, NodeLimitExceeded, ParseError, SearchLimit, SudokuCSPError,
                     TimeLimitExceeded)
from .events import Contradiction, Cost, Event, Status
from .grid import Grid, House
from .model import CellRef, Puzzle
from .propagator import Context, Propagator
from .search import SolveResult
from .state import State
from .status import SolveStatus

__all__ = [
    "Grid", "House", "Puzzle", "CellRef", "State", "Engine", "SolveResult", "SolveStatus",
    "Propagator",
    "Context", "Event", "Status", "Cost", "Contradiction", "Constraint", "AllDifferent",
    "Relation", "RelationKind", "Less", "LessEqual", "Equal", "NotEqual", "AbsDiff", "NotAbsDiff", "Ratio",
    "NotRatio", "AllowedPairs", "Sum", "FunctionConstraint", "SudokuCSPError",
    "InvalidPuzzle", "ParseError", "GridSizeError", "ContradictoryGivens", "InvalidConstraint",
    "FrozenPuzzleError", "InvalidArgument", "SearchLimit", "NodeLimitExceeded", "TimeLimitExceeded",
    "popcount", "mask_of", "full_mask", "iter_bits", "digits_of",
]


def __getattr__(name: str) -> Any:
    """``Sum`` and ``FunctionConstraint`` load with their modules on first use."""
    if name in ("Sum", "FunctionConstraint"):
        from . import constraints
        value = getattr(constraints, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'csp' has no attribute {name!r}")
