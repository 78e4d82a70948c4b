"""Chess rules: cells a knight's / king's move apart hold different digits.

>>> from csp import Puzzle
>>> p = Puzzle(9).use(anti_knight())
>>> len(p.constraints), sorted(p["r1c1"].puzzle.grid.name(c) for c in p.grid.knight(0))
(224, ['r2c3', 'r3c2'])
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from csp import Grid, NotEqual, Puzzle


def _pairs(p: Puzzle, neighbours) -> list[tuple[int, int]]:
    out = []
    for c in range(p.grid.size):
        for o in neighbours(c):
            if o > c:
                out.append((c, o))
    return out


#: (rule, n) -> the pairs of cells of a plain n x n grid and their rules' names, in the
#: order :func:`_pairs` gives them (made once per size: a 9x9 anti-king puzzle has 272
#: pairs, and working them out again took half of its reading)
_SQUARE: dict[tuple[str, int], tuple[tuple[int, int, str], ...]] = {}


def _named_pairs(p: Puzzle, rule: str, neighbours) -> tuple[tuple[int, int, str], ...]:
    """The pairs of :func:`_pairs` with their names ``"{rule} r1c1-r2c3"``."""
    grid = p.grid
    key = (rule, grid.n) if type(grid) is Grid else None
    out = _SQUARE.get(key) if key is not None else None
    if out is None:
        name = grid.name
        out = tuple((a, b, f"{rule} {name(a)}-{name(b)}") for a, b in _pairs(p, neighbours))
        if key is not None:
            _SQUARE[key] = out
    return out


class anti_knight:
    """No two cells a knight's move apart hold the same digit."""

    def apply(self, p: Puzzle) -> None:
        p.add(*[NotEqual(a, b, name) for a, b, name in
                _named_pairs(p, "anti-knight", p.grid.knight)])


class anti_king:
    """No two cells a king's move apart hold the same digit."""

    def apply(self, p: Puzzle) -> None:
        p.add(*[NotEqual(a, b, name) for a, b, name in _named_pairs(p, "anti-king", p.grid.king)])


__all__ = ["anti_king", "anti_knight"]

# -- records: what the application needs about each rule (variants/record.py) -------------
anti_knight.record = RuleRecord(
    FPuzzles("flag", "antiknight"), (SudokuPad("antiknight", "global", key="antiknight"),),
    Drawing("note", label=lambda b: "anti-knight"), logic=("clone_logic",),
    techniques=("equal_digit_colouring",))
anti_king.record = RuleRecord(
    FPuzzles("flag", "antiking"), (SudokuPad("antiking", "global", key="antiking"),),
    Drawing("note", label=lambda b: "anti-king"), logic=("clone_logic",),
    techniques=("equal_digit_colouring",))
