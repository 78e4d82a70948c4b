"""Arrows: the digits on the shaft add up to the number in the circle (a pill of several
cells reads as a multi-digit number, most significant first).

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(9).use(classic(), arrow(["r1c1"], ["r2c2", "r3c3"]))
>>> p.propagate().candidates("r1c1")
(3, 4, 5, 6, 7, 8, 9)
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any, Sequence

from csp import Puzzle
from csp.constraints import Linear
from csp.errors import InvalidConstraint


class arrow:
    cell_lists = ("circle+shaft",)

    def __init__(self, circle: Sequence[Any], shaft: Sequence[Any], name: str = "") -> None:
        self.circle, self.shaft, self.name = list(circle), list(shaft), name

    def apply(self, p: Puzzle) -> None:
        circ = p.grid.cells(self.circle)
        shaft = p.grid.cells(self.shaft)
        if not circ or not shaft:
            raise InvalidConstraint("an arrow needs a circle and a shaft")
        base = 10 if p.grid.n <= 9 else p.grid.n + 1
        k = len(circ)
        coeffs = [-(base ** (k - 1 - i)) for i in range(k)] + [1] * len(shaft)
        p.add(Linear(circ + shaft, coeffs, 0,
                     self.name or f"arrow {p.grid.name(circ[0])}"))


class double_arrow:
    """The two end circles of the line add up to the sum of the digits between them."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], name: str = "") -> None:
        self.cells, self.name = list(cells), name

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        if len(ids) < 3:
            raise InvalidConstraint("a double arrow needs two ends and a shaft")
        ends, shaft = [ids[0], ids[-1]], list(ids[1:-1])
        p.add(Linear(ends + shaft, [-1, -1] + [1] * len(shaft), 0,
                     self.name or f"double arrow {p.grid.name(ids[0])}"))


__all__ = ["arrow", "double_arrow"]

# -- records: what the application needs about each rule (variants/record.py) -------------
arrow.record = RuleRecord(
    FPuzzles("custom", "arrow"),
    (SudokuPad("arrow", "custom", reason="read from SudokuPad's arrows (circle and shaft)"),),
    Drawing("arrow"),
    args=(("circle", "cells"), ("shaft", "cells"), ("name", "str")))
double_arrow.record = RuleRecord(
    FPuzzles("line", "doublearrow"),
    (SudokuPad("double-arrow", "line", (("#C54B8B", None),), ends="both",
               aliases=("double-arrow-line", "doublearrow"), text=(r"\bdouble arrow",)),),
    Drawing("line", "#b0b0b0", width=0.06, ends="circles"),
    args=(("cells", "cells"), ("name", "str")))
