"""Classic rules: all-different rows, columns and boxes (or jigsaw regions).

>>> p = classic_puzzle("1...............")
>>> p.grid.n, len(p.houses())
(4, 12)
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any

from csp import Grid, Puzzle
from csp.errors import GridSizeError
from csp.io import parse_line


class classic:
    """Rule bundle: ``p.use(classic())`` adds the grid's rows, columns and boxes/regions."""

    def __init__(self, rows: bool = True, cols: bool = True, boxes: bool = True) -> None:
        self.rows, self.cols, self.boxes = rows, cols, boxes

    def apply(self, puzzle: Puzzle) -> None:
        if self.boxes and not puzzle.grid.regions:
            raise GridSizeError(f"a {puzzle.grid.n}x{puzzle.grid.n} grid has no box shape; "
                                "give jigsaw regions (Grid(n, regions=...))")
        puzzle.add_grid_houses(self.rows, self.cols, self.boxes)


def classic_puzzle(line: str, grid: Grid | None = None, **kw: Any) -> Puzzle:
    """A classic puzzle from a line string (size taken from its length)."""
    n, vals = parse_line(line, grid.n if grid else None)
    g = grid or Grid(n)
    p = Puzzle(g, **kw)
    p.use(classic())
    p.givens(vals)
    return p


__all__ = ["classic", "classic_puzzle"]

# -- records: what the application needs about each rule (variants/record.py) -------------
classic.record = RuleRecord(
    FPuzzles("custom", reason="f-puzzles always has rows, columns and the grid's regions"),
    (SudokuPad("classic", "custom", reason="SudokuPad always has rows, columns and regions"),),
    Drawing("nothing"), args=(("rows", "bool"), ("cols", "bool"), ("boxes", "bool")))
