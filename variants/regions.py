"""Extra houses: diagonals, windoku, extra regions, disjoint groups; jigsaw grids.

>>> from csp import Puzzle
>>> p = Puzzle(9).use(diagonal(), windoku())
>>> [h.name for h in p.houses()]
['main diagonal', 'anti-diagonal', 'window 1', 'window 2', 'window 3', 'window 4']
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any, Sequence

from csp import AllDifferent, Grid, Puzzle
from csp.errors import GridSizeError


class diagonal:
    """Digits differ along the main diagonal (r1c1..rNcN) and/or the anti-diagonal
    (rNc1..r1cN); f-puzzles calls them ``diagonal-`` and ``diagonal+``."""

    def __init__(self, main: bool = True, anti: bool = True) -> None:
        self.main, self.anti = main, anti

    def apply(self, p: Puzzle) -> None:
        if self.main:
            p.add(AllDifferent(p.grid.diagonal_main, "main diagonal"))
        if self.anti:
            p.add(AllDifferent(p.grid.diagonal_anti, "anti-diagonal"))


class extra_region:
    """An extra all-different region (``cells``: names or ids)."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], name: str = "extra region") -> None:
        self.cells, self.name = list(cells), name

    def apply(self, p: Puzzle) -> None:
        p.add(AllDifferent(p.grid.cells(self.cells), self.name))


class windoku:
    """The four windows of a 9x9 windoku (boxes offset by one cell); for other sizes with
    square boxes the same pattern of (k-1)^2 windows."""

    def apply(self, p: Puzzle) -> None:
        g = p.grid
        g.require_square("windoku")
        if not g.box_shape or g.box_shape[0] != g.box_shape[1]:
            raise GridSizeError("windoku needs square boxes")
        b = g.box_shape[0]
        starts = [1 + i * (b + 1) for i in range(b - 1)]
        k = 0
        for r0 in starts:
            for c0 in starts:
                k += 1
                cells = [(r0 + i) * g.n + c0 + j for i in range(b) for j in range(b)]
                p.add(AllDifferent(cells, f"window {k}"))


class disjoint_groups:
    """Cells in the same position of every box form a house; on a jigsaw grid, the k-th
    cell of every region in reading order (as f-puzzles reads disjoint groups)."""

    def apply(self, p: Puzzle) -> None:
        g = p.grid
        if not g.regions or any(len(r) != g.n for r in g.regions):
            raise GridSizeError("disjoint groups need boxes or regions of n cells each")
        for i in range(g.n):
            p.add(AllDifferent([sorted(box)[i] for box in g.regions], f"disjoint group {i + 1}"))


def jigsaw_grid(regions: Sequence[int] | str, n: int | None = None) -> Grid:
    """A grid whose boxes are jigsaw regions: a region index per cell (list, or a string of
    region symbols such as ``"111222333..."``).

    >>> jigsaw_grid("1122" "1122" "3344" "3344").regions[0]
    (0, 1, 4, 5)
    """
    if isinstance(regions, str):
        syms = [ch for ch in regions if not ch.isspace()]
        ids = {s: i for i, s in enumerate(dict.fromkeys(syms))}
        regions = [ids[s] for s in syms]
    if n is None:
        import math
        n = math.isqrt(len(regions))
    return Grid(n, regions=list(regions))


__all__ = ["diagonal", "disjoint_groups", "extra_region", "jigsaw_grid", "windoku"]

# -- records: what the application needs about each rule (variants/record.py) -------------
diagonal.record = RuleRecord(
    FPuzzles("custom", keys=("diagonal+", "diagonal-")),
    (SudokuPad("diagonal", "custom", reason="read from a line corner to corner"),),
    Drawing("diagonal"), args=(("main", "bool"), ("anti", "bool")))
extra_region.record = RuleRecord(
    FPuzzles("custom", "extraregion"),
    (SudokuPad("extra-region", "cage", aliases=("extraregion",)),),
    Drawing("shade", "#e4e4e4", css="extra-region"), args=(("cells", "cells"), ("name", "str")))
windoku.record = RuleRecord(
    FPuzzles("custom", "extraregion"),
    (SudokuPad("windoku", "custom", reason="held as its windows, extra-region cages"),),
    Drawing("windoku"))
disjoint_groups.record = RuleRecord(
    FPuzzles("custom", "disjointgroups"),
    (SudokuPad("disjoint", "global", key="disjointgroups"),),
    Drawing("note", label=lambda b: "disjoint groups"))
