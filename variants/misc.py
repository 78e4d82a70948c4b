"""Clones, quadruples and indexers.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(4).use(classic(), quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [4]), clone(["r1c1"], ["r4c4"]))
>>> p.solve(first=True).status
'solved'
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any, Sequence

from csp import Equal, Puzzle
from csp.constraints import Contains, Element
from csp.errors import InvalidConstraint


class clone:
    """Cells of two same-shaped regions hold the same digits, position by position."""

    cell_lists = ("cells", "clone_cells")

    def __init__(self, cells: Sequence[Any], clone_cells: Sequence[Any]) -> None:
        self.cells, self.clone_cells = list(cells), list(clone_cells)

    def apply(self, p: Puzzle) -> None:
        a, b = p.grid.cells(self.cells), p.grid.cells(self.clone_cells)
        if len(a) != len(b):
            raise InvalidConstraint("clone regions must have the same number of cells")
        for x, y in zip(a, b):
            if x != y:
                p.add(Equal(x, y, f"clone {p.grid.name(x)}={p.grid.name(y)}"))


class quadruple:
    """The digits in the circle (``values``, repeats allowed) all appear in the 2x2 cells."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], values: Sequence[int]) -> None:
        self.cells, self.values = list(cells), [int(v) for v in values]

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        if len(self.values) > len(ids):
            raise InvalidConstraint("a quadruple lists more digits than it has cells")
        p.add(Contains(ids, self.values,
                       f"quadruple {''.join(map(str, self.values))} at "
                       f"{p.grid.name(min(ids))}"))


class indexer:
    """An indexing cell: its digit v points at the v-th cell of its row (``"column"``
    indexer: the digit says in which column ...), see :func:`row_indexer` etc."""

    def __init__(self, cell: Any, kind: str) -> None:
        if kind not in ("row", "column", "box"):
            raise InvalidConstraint(f"unknown indexer kind {kind!r}")
        self.cell, self.kind = cell, kind

    def apply(self, p: Puzzle) -> None:
        g = p.grid
        g.require_square("indexer")
        c = p.cell(self.cell)
        r, col = divmod(c, g.n)
        if self.kind == "row":
            # digit v in (r, col): the digit r+1 sits in row v of column col
            line = [rr * g.n + col for rr in range(g.n)]
            target = r + 1
        elif self.kind == "column":
            # digit v in (r, col): the digit col+1 sits in column v of row r
            line = [r * g.n + cc for cc in range(g.n)]
            target = col + 1
        else:
            if not g.regions:
                raise InvalidConstraint("a box indexer needs boxes")
            box = g.regions[g.region_of[c]]
            line = list(box)
            target = box.index(c) + 1
        p.add(Element(c, line, target, f"{self.kind} indexer {g.name(c)}"))


__all__ = ["clone", "indexer", "quadruple"]

# -- records: what the application needs about each rule (variants/record.py) -------------
clone.record = RuleRecord(
    FPuzzles("custom", "clone"),
    (SudokuPad("clone", "none", reason="SudokuPad draws clones as shading: which cells are "
               "clones of which is lost"),),
    Drawing("clone"), args=(("cells", "cells"), ("clone_cells", "cells")),
    logic=("clone_logic",), techniques=("clone_pointing", "equal_digit_colouring"))
quadruple.record = RuleRecord(
    FPuzzles("custom", "quadruple"),
    (SudokuPad("quadruple", "custom", reason="read from a circle on a corner with digits"),),
    Drawing("quadruple"), args=(("cells", "cells"), ("values", "ints")))
indexer.record = RuleRecord(
    FPuzzles("custom", keys=("rowindexer", "columnindexer", "boxindexer")),
    (SudokuPad("indexer", "custom", reason="read from the fpRowIndexer / fpColumnIndexer / "
               "fpBoxIndexer cell styles"),),
    Drawing("indexer"), args=(("cell", "cell"), ("kind", "str")))
