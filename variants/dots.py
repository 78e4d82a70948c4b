"""Dots between adjacent cells: Kropki white (difference) and black (ratio) dots, XV sums,
non-consecutive, and the negative constraints (every pair that qualifies is marked).

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(4).use(classic(), white_dot("r1c1", "r1c2"), black_dot("r2c1", "r2c2"))
>>> p.propagate().candidates("r2c1")
(1, 2, 4)
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any, Iterable, Sequence

from csp import AbsDiff, NotAbsDiff, NotRatio, Puzzle, Ratio
from csp.constraints import Relation, Sum
from csp.errors import InvalidConstraint
from csp.text import quoted


def _pair(p: Puzzle, a: Any, b: Any) -> tuple[int, int]:
    x, y = p.cell(a), p.cell(b)
    if y not in p.grid.orthogonal(x):
        raise InvalidConstraint(f"dot between {p.grid.name(x)} and {p.grid.name(y)}: "
                                "cells are not adjacent")
    return x, y


def orthogonal_pairs(p: Puzzle) -> list[tuple[int, int]]:
    g = p.grid
    return [(c, o) for c in range(g.size) for o in g.orthogonal(c) if o > c]


class white_dot:
    """The two cells differ by ``diff`` (1: consecutive)."""

    def __init__(self, a: Any, b: Any, diff: int = 1) -> None:
        self.a, self.b, self.diff = a, b, diff

    def apply(self, p: Puzzle) -> None:
        x, y = _pair(p, self.a, self.b)
        g = p.grid
        p.add(AbsDiff(x, y, self.diff, f"white dot {g.name(x)}-{g.name(y)}"))


class black_dot:
    """One cell is ``ratio`` times the other (2: a Kropki black dot)."""

    def __init__(self, a: Any, b: Any, ratio: int = 2) -> None:
        self.a, self.b, self.ratio = a, b, ratio

    def apply(self, p: Puzzle) -> None:
        x, y = _pair(p, self.a, self.b)
        g = p.grid
        p.add(Ratio(x, y, self.ratio, f"black dot {g.name(x)}-{g.name(y)}"))


class sum_dot:
    """The two cells add up to ``total`` (X = 10, V = 5)."""

    def __init__(self, a: Any, b: Any, total: int) -> None:
        self.a, self.b, self.total = a, b, total

    def apply(self, p: Puzzle) -> None:
        x, y = _pair(p, self.a, self.b)
        g = p.grid
        label = {10: "X", 5: "V"}.get(self.total, f"sum {self.total}")
        p.add(Sum((x, y), self.total, False, f"{label} {g.name(x)}-{g.name(y)}"))


def x_dot(a: Any, b: Any) -> sum_dot:
    return sum_dot(a, b, 10)


def v_dot(a: Any, b: Any) -> sum_dot:
    return sum_dot(a, b, 5)


class non_consecutive:
    """No two orthogonally adjacent cells hold consecutive digits."""

    def apply(self, p: Puzzle) -> None:
        g = p.grid
        for x, y in orthogonal_pairs(p):
            p.add(NotAbsDiff(x, y, 1, f"non-consecutive {g.name(x)}-{g.name(y)}"))


class diagonal_non_consecutive:
    """No two diagonally adjacent cells hold consecutive digits.

    >>> from csp import Puzzle
    >>> p = Puzzle(4).use(diagonal_non_consecutive()).givens({"r2c2": 2})
    >>> p.propagate().candidates("r1c1"), p.propagate().candidates("r1c2")
    ((2, 4), (1, 2, 3, 4))
    """

    def apply(self, p: Puzzle) -> None:
        _non_consecutive_pairs(p, p.grid.diagonal_neighbours, "diagonal non-consecutive")


class knight_non_consecutive:
    """No two cells a knight's move apart hold consecutive digits."""

    def apply(self, p: Puzzle) -> None:
        _non_consecutive_pairs(p, p.grid.knight, "knight non-consecutive")


def _non_consecutive_pairs(p: Puzzle, neighbours, label: str) -> None:
    g = p.grid
    for x in range(g.size):
        for y in neighbours(x):
            if y > x:
                p.add(NotAbsDiff(x, y, 1, f"{label} {g.name(x)}-{g.name(y)}"))


class negative:
    """The negative constraint for marked pairs: every adjacent pair *not* in ``marked``
    breaks the rule of the given ``kind``: ``"white"`` (not differing by ``value``, default
    1), ``"black"`` (not in ratio ``value``, default 2), ``"x"`` / ``"v"`` (not summing to
    10 / 5), or ``"sum"`` (not summing to ``value``)."""

    cell_lists = ("marked[]",)

    def __init__(self, kind: str, marked: Iterable[Sequence[Any]] = (), value: int | None = None):
        if kind not in ("white", "black", "x", "v", "sum"):
            raise InvalidConstraint(f"unknown negative constraint kind {quoted(kind)}")
        self.kind, self.marked, self.value = kind, [tuple(m) for m in marked], value

    def apply(self, p: Puzzle) -> None:
        g = p.grid
        marked = {frozenset(p.grid.cells(m)) for m in self.marked}
        for x, y in orthogonal_pairs(p):
            if frozenset((x, y)) in marked:
                continue
            name = f"negative {self.kind} {g.name(x)}-{g.name(y)}"
            if self.kind == "white":
                p.add(NotAbsDiff(x, y, self.value or 1, name))
            elif self.kind == "black":
                p.add(NotRatio(x, y, self.value or 2, name))
            else:
                total = {"x": 10, "v": 5}.get(self.kind, self.value)
                if total is None:
                    raise InvalidConstraint("negative sum constraint needs a value")
                p.add(Relation(x, y, _NotSum(total), f"sum!={total}", ("notsum", total), name))


class _NotSum:
    __slots__ = ("t",)

    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self, a: int, b: int) -> bool:
        return a + b != self.t


__all__ = ["black_dot", "diagonal_non_consecutive", "knight_non_consecutive", "negative", "non_consecutive", "sum_dot", "v_dot", "white_dot", "x_dot"]

# -- records: what the application needs about each rule (variants/record.py) -------------
_CONSECUTIVE = ("consecutive_pair_cell", "consecutive_gap_cell", "consecutive_triple_cell",
                "consecutive_neighbours", "consecutive_locked_pair", "consecutive_locked_nearby",
                "consecutive_locked_triple", "consecutive_check_pattern", "consecutive_chain")
_PAIRS = ("pair_rules", "pair_mandatory", "dot_chain", "neighbour_pinch", "house_arrangement")
_PAIRS_LOGIC = ("pairs_logic", "arrangement_logic")
_NO_FLAG = "SudokuPad reads the f-puzzles flags, and f-puzzles has none for it"
white_dot.record = RuleRecord(
    FPuzzles("custom", "difference", value="diff"),
    (SudokuPad("white-dot", "custom", reason="read from SudokuPad's white dots"),),
    Drawing("white-dot"), args=(("a", "cell"), ("b", "cell"), ("diff", "int")),
    logic=("consecutive_logic", *_PAIRS_LOGIC), techniques=_CONSECUTIVE + _PAIRS)
black_dot.record = RuleRecord(
    FPuzzles("custom", "ratio", value="ratio"),
    (SudokuPad("black-dot", "custom", reason="read from SudokuPad's black dots"),),
    Drawing("black-dot"), args=(("a", "cell"), ("b", "cell"), ("ratio", "int")),
    logic=_PAIRS_LOGIC, techniques=_PAIRS)
sum_dot.record = RuleRecord(
    FPuzzles("custom", "sum", value="total", keys=("xv",)),
    (SudokuPad("sum-dot", "custom", reason="read from SudokuPad's X, V and sum marks"),),
    Drawing("sum-dot"), args=(("a", "cell"), ("b", "cell"), ("total", "int")),
    logic=_PAIRS_LOGIC, techniques=_PAIRS)
non_consecutive.record = RuleRecord(
    FPuzzles("custom", "nonconsecutive"),
    (SudokuPad("nonconsecutive", "global", key="nonconsecutive"),),
    Drawing("note", label=lambda b: "non-consecutive"),
    logic=("consecutive_logic", *_PAIRS_LOGIC), techniques=_CONSECUTIVE + _PAIRS)
diagonal_non_consecutive.record = RuleRecord(
    FPuzzles("none", reason="it has no diagonal non-consecutive rule"),
    (SudokuPad("diagonal-nonconsecutive", "none", reason=_NO_FLAG),),
    Drawing("note", label=lambda b: "diagonal non-consecutive"),
    logic=("consecutive_logic",), techniques=_CONSECUTIVE)
knight_non_consecutive.record = RuleRecord(
    FPuzzles("none", reason="it has no knight non-consecutive rule"),
    (SudokuPad("knight-nonconsecutive", "none", reason=_NO_FLAG),),
    Drawing("note", label=lambda b: "knight non-consecutive"),
    logic=("consecutive_logic",), techniques=_CONSECUTIVE)
negative.record = RuleRecord(
    FPuzzles("custom", "negative"),
    (SudokuPad("negative", "custom", reason="read from SudokuPad's negative flags"),),
    Drawing("note", label=lambda b: f"negative constraint ({b.kind})"),
    args=(("kind", "str"), ("marked", "cell-lists"), ("value", "int?")),
    logic=("consecutive_logic", *_PAIRS_LOGIC), techniques=_CONSECUTIVE + _PAIRS)
