"""Clones, quadruples, indexers and counting circles.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(4).use(classic(), quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [4]), clone(["r1c1"], ["r4c4"]))
>>> p.solve(first=True).status
'solved'
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from collections import Counter
from typing import Any, Iterator, Sequence

from csp import Equal, Puzzle
from csp.constraints import Automaton, Constraint, Contains, Element
from csp.constraints.base import SupportsPropagator
from csp.errors import InvalidConstraint
from csp.events import Cost
from csp.propagator import Propagator
from csp.text import quoted


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
            raise InvalidConstraint(f"unknown indexer kind {quoted(kind)}")
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


# ---------------------------------------------------------------------------------------
# counting circles
# ---------------------------------------------------------------------------------------
def _digit_sets(digits: tuple[int, ...], total: int, i: int = 0) -> Iterator[tuple[int, ...]]:
    """Sets of ``digits[i:]`` (ascending) adding up to ``total``."""
    if total == 0:
        yield ()
        return
    for j in range(i, len(digits)):
        d = digits[j]
        if d > total:
            break
        for rest in _digit_sets(digits, total - d, j + 1):
            yield (d, *rest)


def _place(doms: Sequence[int], digits: tuple[int, ...]) -> list[int] | None:
    """A digit per cell from ``doms`` with each digit of ``digits`` used exactly as many
    times as its value (they add up to the number of cells), by augmenting paths; None
    when there is none."""
    k = len(doms)
    owner: dict[int, list[int]] = {d: [] for d in digits}
    match = [0] * k
    allowed = [[d for d in digits if doms[c] >> d & 1] for c in range(k)]

    def augment(c: int, seen: set[int]) -> bool:
        for d in allowed[c]:
            if d in seen:
                continue
            seen.add(d)
            if len(owner[d]) < d:
                owner[d].append(c)
                match[c] = d
                return True
            for o in owner[d]:
                if augment(o, seen):
                    owner[d].remove(o)
                    owner[d].append(c)
                    match[c] = d
                    return True
        return False

    for c in range(k):
        if not augment(c, set()):
            return None
    return match


def counting_supports(doms: Sequence[int]) -> list[int] | None:
    """Per cell, the digits of ``doms`` (candidate masks of the circles) that some way of
    filling every circle uses, where each digit in a circle appears in exactly that many
    circles (the circles' houses aside); None when there is no way.

    For each set of digits adding up to the number of circles, one filling is found by
    matching cells to the digits' places; a cell may then hold another digit ``d`` of the
    set exactly when, moving from ``d`` to a cell holding ``d`` and on to another digit
    that cell may hold, the cell's own digit is reached (an alternating path).

    >>> counting_supports([0b110, 0b110, 0b110])    # three circles: 1+2 or 3; 3 is out
    [6, 6, 6]
    >>> counting_supports([0b10, 0b10])             # two 1s: a 1 appears in one circle
    """
    k = len(doms)
    union = 0
    for m in doms:
        union |= m
    digits = tuple(d for d in range(1, union.bit_length()) if union >> d & 1)
    out = [0] * k
    found = False
    for S in _digit_sets(digits, k):
        match = _place(doms, S)
        if match is None:
            continue
        found = True
        # digit -> digits reachable by moving one cell holding it to another digit of S
        step = {d: 0 for d in S}
        smask = 0
        for d in S:
            smask |= 1 << d
        for c, d in enumerate(match):
            step[d] |= doms[c] & smask & ~(1 << d)
        reach = {}
        for d in S:
            seen = 1 << d
            todo = step[d]
            while todo & ~seen:
                new = todo & ~seen
                seen |= new
                for e in S:
                    if new >> e & 1:
                        todo |= step[e]
            reach[d] = seen
        for c, e in enumerate(match):
            m = doms[c] & smask
            while m:
                low = m & -m
                m ^= low
                if reach[low.bit_length() - 1] >> e & 1:
                    out[c] |= low
    return out if found else None


class CountingCircles(Constraint):
    """Each digit in one of the ``cells`` appears in exactly that many of them."""

    kind = "counting-circles"

    def __init__(self, cells: Sequence[int], name: str = "counting circles") -> None:
        self.cells = tuple(cells)
        self.name = name

    def propagators(self, n: int) -> list[Propagator]:
        return [SupportsPropagator(self, Cost.QUADRATIC, "no digits can fill the circles")]

    def check(self, *values: int) -> bool:
        return all(count == v for v, count in Counter(values).items())

    def supports(self, doms: list[int]) -> list[int] | None:
        return counting_supports(doms)

    def automaton(self) -> Automaton:
        k = len(self.cells)

        def step(i: int, s: tuple[tuple[int, int], ...], d: int):
            counts = dict(s)
            c = counts.get(d, 0) + 1
            if c > d:
                return None
            counts[d] = c
            # the cells left must complete every digit begun
            if sum(v - n for v, n in counts.items()) > k - i - 1:
                return None
            return tuple(sorted(counts.items()))

        return Automaton((), step, lambda s: all(v == n for v, n in s))

    def attributes(self) -> dict:
        return {"kind": self.kind, "cells": len(self.cells)}


class counting_circles:
    """Each digit in a circle appears in exactly that many circles (a 3 in a circle: three
    circles hold 3). ``cells``: every circle of the puzzle.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(4).use(classic(), counting_circles(["r1c1", "r2c3", "r3c2"]))
    >>> p.propagate().candidates("r1c1")        # 1+2 or 3 fill three circles, never a 4
    (1, 2, 3)
    """

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any]) -> None:
        self.cells = list(cells)

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        if len(set(ids)) != len(ids):
            raise InvalidConstraint("counting circles: a cell is listed twice")
        p.add(CountingCircles(ids, f"counting circles ({len(ids)})"))


__all__ = ["clone", "counting_circles", "indexer", "quadruple"]

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
counting_circles.record = RuleRecord(
    FPuzzles("none", reason="its circles carry no meaning of their own (the rules text "
             "says they count); not read yet"),
    (SudokuPad("counting-circles", "custom", reason="read from circles the rules text calls "
               "counting circles (built after the f-puzzles form, which has no key)",
               drawn="circle", text=(r"\bcounting circle", r"\bhow many circles contain",
                                     r"\bnumber of circles (that )?contain")),),
    Drawing("circles"), args=(("cells", "cells"),))
