"""Chess rules: cells a knight's / king's move apart hold different digits.

>>> from csp import Puzzle
>>> p = Puzzle(9).use(anti_knight())
>>> len(p.constraints), sorted(p["r1c1"].puzzle.grid.name(c) for c in p.grid.knight(0))
(224, ['r2c3', 'r3c2'])
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from csp import NotEqual, Puzzle


def _pairs(p: Puzzle, neighbours) -> list[tuple[int, int]]:
    out = []
    for c in range(p.grid.size):
        for o in neighbours(c):
            if o > c:
                out.append((c, o))
    return out


class anti_knight:
    """No two cells a knight's move apart hold the same digit."""

    def apply(self, p: Puzzle) -> None:
        for a, b in _pairs(p, p.grid.knight):
            p.add(NotEqual(a, b, f"anti-knight {p.grid.name(a)}-{p.grid.name(b)}"))


class anti_king:
    """No two cells a king's move apart hold the same digit."""

    def apply(self, p: Puzzle) -> None:
        for a, b in _pairs(p, p.grid.king):
            p.add(NotEqual(a, b, f"anti-king {p.grid.name(a)}-{p.grid.name(b)}"))


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
