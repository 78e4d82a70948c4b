"""Named technique of thermometers, read from the puzzle's thermo bundles.

- ``thermo_length``: a cell with k cells below it on a thermometer (a chain of bulb-ward
  cells, each smaller than the next) is at least k + 1, and with k cells above it at most
  n - k; on branching thermometers the longest chain counts. The rule propagation finds the
  same bounds pair by pair; this step names them, before it.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.inequality import thermo
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), thermo(["r1c1", "r1c2", "r1c3", "r1c4"]))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "thermo_length")][:2]
['Thermo Length: r1c1 has 3 cells above it on thermo r1c1: 1-6 => r1c1<>789', 'Thermo Length: r1c2 has 1 cell below, 2 above it on thermo r1c1: 2-7 => r1c2<>189']
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step
from techniques.analysis import Analysis
from techniques.registry import register

FAMILY = "thermo"


class ThermoTables:
    """Per puzzle: for each cell on a thermometer, the longest chains below and above it
    (``below[c]``, ``above[c]``) and the name of a thermometer through it."""

    def __init__(self, puzzle) -> None:
        from .inequality import thermo
        g = puzzle.grid
        up: dict[int, set[int]] = {}
        down: dict[int, set[int]] = {}
        self.names: dict[int, str] = {}
        for b, _ in puzzle.bundles:
            if not isinstance(b, thermo):
                continue
            cells = g.cells(b.cells)
            for a, c in zip(cells, cells[1:]):
                up.setdefault(a, set()).add(c)
                down.setdefault(c, set()).add(a)
            for c in cells:
                self.names.setdefault(c, f"thermo {g.name(cells[0])}")
        self.below = {c: _longest(c, down, {}, set()) for c in self.names}
        self.above = {c: _longest(c, up, {}, set()) for c in self.names}


def _longest(c: int, nxt: dict[int, set[int]], memo: dict[int, int], path: set[int]) -> int:
    """Cells on the longest chain from ``c`` along ``nxt`` (a cycle, impossible on a valid
    puzzle, is cut)."""
    if c in memo:
        return memo[c]
    path.add(c)
    best = 0
    for d in nxt.get(c, ()):
        if d not in path:
            best = max(best, 1 + _longest(d, nxt, memo, path))
    path.discard(c)
    memo[c] = best
    return best


def thermo_tables(puzzle) -> ThermoTables:
    """The :class:`ThermoTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(ThermoTables)


def _count(k: int, what: str) -> str:
    return f"{k} cell{'s' if k != 1 else ''} {what}"


@register("thermo_length", "Thermo Length", FAMILY)
def thermo_length(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell with k cells below it on a thermometer is at least k + 1, with k cells above
    it at most n - k (the third cell of a thermo is 3 or more)."""
    t = thermo_tables(an.puzzle)
    n, w = an.n, an.grid.namer
    for c, name in t.names.items():
        m = an.cand[c]
        if not m:
            continue
        lo, hi = 1 + t.below[c], n - t.above[c]
        keep = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1) if lo <= hi else 0
        bad = m & ~keep
        if not bad or not keep:
            continue
        below, above = t.below[c], t.above[c]
        if below and above:
            where = f"{_count(below, 'below')}, {above} above"
        else:
            where = _count(below, "below") if below else _count(above, "above")
        yield Step("thermo_length", title="Thermo Length", namer=w, houses=(name,),
                   eliminations=tuple(Candidate(c, d) for d in digits_of(bad)),
                   note=f"{an.name(c)} has {where} it on {name}: {lo}-{hi}")
