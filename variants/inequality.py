"""Greater/less-than signs and thermometers.

Each sign or thermometer segment is a strict ``Less`` relation. Bounds beyond pairs come from
the core (:mod:`csp.constraints.order`, compiled by the puzzle from every ``<``): pairwise arc
consistency alone gives ``r1c2 >= 2`` in ``r1c1 < r1c2 > r1c3``, the ordering bounds know that
r1c1 and r1c3 are in one row (all different), so r1c2 >= 3.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(9).use(classic(), less_than("r1c1", "r1c2"), greater_than("r1c2", "r1c3"))
>>> p.propagate().candidates("r1c2")
(3, 4, 5, 6, 7, 8, 9)
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any

from csp import Less, LessEqual, Puzzle
# the ordering propagator lives in the core; re-exported here for older imports
from csp.constraints.order import OrderBoundsPropagator  # noqa: F401


class less_than:
    """``a < b`` (a greater/less-than sign pointing at a)."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def apply(self, p: Puzzle) -> None:
        p.add(Less(p.cell(self.a), p.cell(self.b)))


def greater_than(a: Any, b: Any) -> less_than:
    """``a > b``."""
    return less_than(b, a)


class thermo:
    """A thermometer: digits strictly increase from the bulb (first cell) along the tube."""

    cell_lists = ("cells",)

    def __init__(self, *cells: Any) -> None:
        self.cells = cells[0] if len(cells) == 1 and not isinstance(cells[0], (str, int)) else cells

    def apply(self, p: Puzzle) -> None:
        g = p.grid
        ids = g.cells(self.cells)
        name = g.names_table()          # one index a cell, not a method call
        if name is None:
            name = [g.name(c) for c in range(g.size)]
        p.add(*[Less(a, b, f"thermo {name[a]}<{name[b]}") for a, b in zip(ids, ids[1:])])


class slow_thermo:
    """A slow thermometer: digits never decrease from the bulb along the tube."""

    cell_lists = ("cells",)

    def __init__(self, *cells: Any) -> None:
        self.cells = cells[0] if len(cells) == 1 and not isinstance(cells[0], (str, int)) else cells

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        for a, b in zip(ids, ids[1:]):
            p.add(LessEqual(a, b, f"slow thermo {p.grid.name(a)}<={p.grid.name(b)}"))


__all__ = ["greater_than", "less_than", "slow_thermo", "thermo"]

# -- records: what the application needs about each rule (variants/record.py) -------------
less_than.record = RuleRecord(
    FPuzzles("custom", "thermometer"),
    (SudokuPad("less-than", "custom", reason="held as a two-cell thermo"),),
    Drawing("inequality"), args=(("a", "cell"), ("b", "cell")),
    logic=("pairs_logic",), techniques=("pair_rules",))
thermo.record = RuleRecord(
    FPuzzles("line", "thermometer"),
    (SudokuPad("thermo", "line", (("#CFCFCF", 21),), ends="first",
               aliases=("thermometer",), text=(r"\bthermo(meter)?s?\b",)),),
    Drawing("thermo"), args=(("*cells", "cell"),),
    logic=("thermo_logic",), techniques=("thermo_length",))
slow_thermo.record = RuleRecord(
    FPuzzles("line", "slowthermometer"),
    (SudokuPad("slow-thermo", "line", (("#6495ED", None),), ends="first",
               aliases=("slowthermo", "slow-thermometer"), text=(r"\bslow thermo",),
               suppresses=("thermo",)),),
    Drawing("slow-thermo"), args=(("*cells", "cell"),))
