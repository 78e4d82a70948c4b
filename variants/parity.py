"""Odd / even cells, cells restricted to listed digits, and minimum / maximum cells (smaller / larger than every orthogonal
neighbour).

>>> from csp import Puzzle
>>> p = Puzzle(4).use(odd("r1c1"), even("r1c2"))
>>> p.initial_state().candidates("r1c1"), p.initial_state().candidates("r1c2")
((1, 3), (2, 4))
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any

from csp import Less, Puzzle
from csp.constraints import Domain


class _parity:
    """Cells restricted to one parity: digits ``first``, ``first + 2``, ...."""

    cell_lists = ("cells",)
    first = 1
    word = "odd"

    def __init__(self, *cells: Any) -> None:
        self.cells = cells

    def apply(self, p: Puzzle) -> None:
        for c in p.grid.cells(self.cells):
            p.add(Domain(c, range(self.first, p.grid.n + 1, 2), f"{self.word} {p.grid.name(c)}"))


class odd(_parity):
    """Odd cells."""


class even(_parity):
    """Even cells."""

    first = 2
    word = "even"


class digits:
    """The cell may only hold the listed digits (f-puzzles' given pencil marks)."""

    def __init__(self, cell: Any, allowed: Any) -> None:
        self.cell, self.allowed = cell, [int(d) for d in allowed]

    def apply(self, p: Puzzle) -> None:
        c = p.cell(self.cell)
        p.add(Domain(c, self.allowed, f"digits {''.join(map(str, self.allowed))} "
                                      f"in {p.grid.name(c)}"))


class minimum:
    """Each of the cells is smaller than its orthogonal neighbours that are not themselves
    minimum cells (give all minimum cells in one bundle)."""

    cell_lists = ("cells",)

    def __init__(self, *cells: Any) -> None:
        self.cells = cells

    def apply(self, p: Puzzle) -> None:
        cells = p.grid.cells(self.cells)
        for c in cells:
            for o in p.grid.orthogonal(c):
                if o not in cells:
                    p.add(Less(c, o, f"minimum {p.grid.name(c)}<{p.grid.name(o)}"))


class maximum:
    """Each of the cells is larger than its orthogonal neighbours that are not themselves
    maximum cells (f-puzzles' shaded "fortress" cells; give all of them in one bundle)."""

    cell_lists = ("cells",)

    def __init__(self, *cells: Any) -> None:
        self.cells = cells

    def apply(self, p: Puzzle) -> None:
        cells = p.grid.cells(self.cells)
        for c in cells:
            for o in p.grid.orthogonal(c):
                if o not in cells:
                    p.add(Less(o, c, f"maximum {p.grid.name(c)}>{p.grid.name(o)}"))


__all__ = ["digits", "even", "maximum", "minimum", "odd"]

# -- records: what the application needs about each rule (variants/record.py) -------------
_CELLS = (("*cells", "cell"),)
odd.record = RuleRecord(
    FPuzzles("cells", "odd"), (SudokuPad("odd", "shape"),), Drawing("odd"), args=_CELLS,
    logic=("parity_logic",), techniques=("parity_count",))
even.record = RuleRecord(
    FPuzzles("cells", "even"), (SudokuPad("even", "shape"),), Drawing("even"), args=_CELLS,
    logic=("parity_logic",), techniques=("parity_count",))
digits.record = RuleRecord(
    FPuzzles("custom", "givenPencilMarks"),
    (SudokuPad("digits", "custom", reason="read from a cell's given pencil marks"),),
    Drawing("digits"), args=(("cell", "cell"), ("allowed", "cell")))
minimum.record = RuleRecord(
    FPuzzles("custom", "minimum"),
    (SudokuPad("minimum", "custom", reason="read from the chevrons round the cell"),),
    Drawing("shade", "#dbe8ff", label=lambda b: "blue cells: minimum", css="minimum"),
    args=_CELLS)
maximum.record = RuleRecord(
    FPuzzles("custom", "maximum"),
    (SudokuPad("maximum", "custom", reason="read from the chevrons round the cell"),),
    Drawing("shade", "#d9d9d9", label=lambda b: "grey cells: maximum", css="maximum"),
    args=_CELLS)
