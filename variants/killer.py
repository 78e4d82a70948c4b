"""Killer cages (with or without a sum, multi-sum and digital-root cages) and little killer
diagonals.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(9).use(classic(), killer_cage(["r1c1", "r1c2"], 3))
>>> p.propagate().candidates("r1c1")
(1, 2)
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any, Sequence

from csp import AllDifferent, Puzzle, Sum
from csp.constraints import SumIn
from csp.errors import InvalidConstraint


def _cage_cells(p: Puzzle, cells: Sequence[Any]) -> tuple[int, ...]:
    ids = p.grid.cells(cells)
    if not ids:
        raise InvalidConstraint("a cage needs at least one cell")
    return ids


class killer_cage:
    """Cells hold different digits adding up to ``total`` (no sum when ``total`` is None)."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], total: int | None = None, name: str = "") -> None:
        self.cells, self.total, self.name = list(cells), total, name

    def apply(self, p: Puzzle) -> None:
        ids = _cage_cells(p, self.cells)
        if len(ids) > p.grid.n:
            raise InvalidConstraint(f"cage of {len(ids)} cells cannot hold different digits "
                                    f"1..{p.grid.n}")
        name = self.name or (f"cage {self.total} at {p.grid.name(min(ids))}"
                             if self.total is not None else f"cage at {p.grid.name(min(ids))}")
        if self.total is None:
            p.add(AllDifferent(ids, name))
        else:
            p.add(Sum(ids, self.total, distinct=True, name=name))


class multi_sum_cage:
    """Cells hold different digits adding up to one of ``totals``.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), multi_sum_cage(["r1c1", "r1c2"], [3, 17]))
    >>> p.propagate().candidates("r1c1")
    (1, 2, 8, 9)
    """

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], totals: Sequence[int], name: str = "") -> None:
        self.cells, self.totals, self.name = list(cells), [int(t) for t in totals], name

    def apply(self, p: Puzzle) -> None:
        ids = _cage_cells(p, self.cells)
        label = "/".join(map(str, sorted(set(self.totals))))
        p.add(SumIn(ids, self.totals, distinct=True,
                    name=self.name or f"cage {label} at {p.grid.name(min(ids))}"))


class digital_root_cage:
    """Cells hold different digits whose sum has digital root ``root`` (1..9): the sum is
    ``root``, ``root + 9``, ``root + 18``, ...

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), digital_root_cage(["r1c1", "r1c2"], 1))
    >>> p.propagate().candidates("r1c1")   # 1 + 9 = 10 or 2 + 8, ... (sum 10)
    (1, 2, 3, 4, 6, 7, 8, 9)
    """

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], root: int, name: str = "") -> None:
        self.cells, self.root, self.name = list(cells), int(root), name

    def apply(self, p: Puzzle) -> None:
        if not 1 <= self.root <= 9:
            raise InvalidConstraint(f"digital root {self.root} outside 1..9")
        ids = _cage_cells(p, self.cells)
        top = len(ids) * p.grid.n
        totals = list(range(self.root, top + 1, 9))
        p.add(SumIn(ids, totals, distinct=True,
                    name=self.name or f"cage root {self.root} at {p.grid.name(min(ids))}"))


class little_killer:
    """The digits along a diagonal (``cells``; repeats allowed) add up to ``total``."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], total: int, name: str = "") -> None:
        self.cells, self.total, self.name = list(cells), total, name

    def apply(self, p: Puzzle) -> None:
        ids = _cage_cells(p, self.cells)
        p.add(Sum(ids, self.total, distinct=False,
                  name=self.name or f"little killer {self.total} from {p.grid.name(ids[0])}"))


def diagonal_from_clue(n: int, row: int, col: int, direction: str) -> list[tuple[int, int]]:
    """Cells (0-based row, col) of the diagonal starting next to an outside clue at 1-based
    (row, col) (row or col is 0 or n+1) going ``direction`` in UL/UR/DL/DR.

    >>> diagonal_from_clue(4, 0, 1, "DR")
    [(0, 1), (1, 2), (2, 3)]
    """
    dr = {"U": -1, "D": 1}[direction[0]]
    dc = {"L": -1, "R": 1}[direction[1]]
    r, c = row - 1 + dr, col - 1 + dc
    out = []
    while 0 <= r < n and 0 <= c < n:
        out.append((r, c))
        r += dr
        c += dc
    if not out:
        raise InvalidConstraint(f"little killer clue at r{row}c{col} {direction} misses the grid")
    return out


__all__ = ["digital_root_cage", "killer_cage", "little_killer", "multi_sum_cage"]

# -- records: what the application needs about each rule (variants/record.py) -------------
_CAGE_LOGIC = ("killer_logic", "pairs_logic")
_CAGE_STEPS = ("killer_combinations", "mandatory_inclusion", "cage_house_overlap",
               "disjoint_cages", "cage_rules")
_ONE_TOTAL = "a killer cage has one total"
killer_cage.record = RuleRecord(
    FPuzzles("custom", "killercage", value="total"),
    (SudokuPad("killer", "cage", aliases=("killer-cage",)),),
    Drawing("cage", label=lambda b: b.total),
    args=(("cells", "cells"), ("total", "int?"), ("name", "str")),
    logic=_CAGE_LOGIC, techniques=_CAGE_STEPS)
multi_sum_cage.record = RuleRecord(
    FPuzzles("none", reason=_ONE_TOTAL),
    (SudokuPad("multi-sum-cage", "none", reason=_ONE_TOTAL),),
    Drawing("cage", label=lambda b: "/".join(map(str, sorted(set(b.totals))))),
    args=(("cells", "cells"), ("totals", "ints"), ("name", "str")),
    logic=_CAGE_LOGIC, techniques=_CAGE_STEPS)
digital_root_cage.record = RuleRecord(
    FPuzzles("none", reason=_ONE_TOTAL),
    (SudokuPad("digital-root-cage", "none", reason=_ONE_TOTAL),),
    Drawing("cage", label=lambda b: f"dr {b.root}"),
    args=(("cells", "cells"), ("root", "int"), ("name", "str")))
little_killer.record = RuleRecord(
    FPuzzles("custom", "littlekillersum", value="total"),
    (SudokuPad("little-killer", "custom", reason="read from a number and a diagonal arrow"),),
    Drawing("little-killer"), args=(("cells", "cells"), ("total", "int"), ("name", "str")),
    outside=True)
