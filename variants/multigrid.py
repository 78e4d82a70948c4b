"""Multi-grid (gattai) puzzles: several overlapping grids solved as one model.

A samurai is five 9x9 sudokus on a 21x21 canvas, the centre one sharing a corner box with
each of the others. The model is one :class:`csp.grid.MultiGrid` (369 cells, named by
canvas coordinates ``r1c1`` .. ``r21c21``) with every sub-grid's rows, columns and boxes as
houses, so search, propagation and every technique work on it unchanged.

Line format (the usual one for samurai, read and written here): the sub-grids one after
the other, ``n*n`` characters each (``.`` or ``0`` blank), in the order of the layout's
origins -- for a samurai 5 x 81 = 405 characters: top-left, top-right, centre,
bottom-left, bottom-right. Whitespace between the parts is allowed. A cell shared by two
sub-grids appears in both parts; the two must agree (one may leave it blank).

>>> p = samurai()
>>> p.grid.size, len(p.houses()), p.grid.labels
(369, 131, ['TL', 'TR', 'C', 'BL', 'BR'])
>>> p.grid.cell("r7c7") in p.grid.subgrids[0] and p.grid.cell("r7c7") in p.grid.subgrids[2]
True
>>> q = gattai([(0, 0), (3, 3)], n=6, box=(3, 2))   # two 6x6 grids sharing a corner
>>> q.grid.size, q.count_solutions(2)
(63, 2)
"""
from __future__ import annotations

import re
from typing import Sequence

from csp import Puzzle
from csp.errors import ParseError
from csp.grid import SAMURAI_ORIGINS, MultiGrid
from csp.io import parse_line, write_line

from .classic import classic

SAMURAI_LABELS = ("TL", "TR", "C", "BL", "BR")


def samurai_grid() -> MultiGrid:
    """The samurai layout: five 9x9 grids on a 21x21 canvas."""
    return MultiGrid(9, SAMURAI_ORIGINS, labels=SAMURAI_LABELS)


def gattai(origins: Sequence[tuple[int, int]], givens: str | Sequence[int] | None = None,
           n: int = 9, box: tuple[int, int] | None = None,
           labels: Sequence[str] | None = None) -> Puzzle:
    """A gattai puzzle: n x n sudokus at canvas ``origins`` (0-based top-left cells), with
    classic rules in each. ``givens``: a sub-grid line (see the module docstring), a line
    over the grid's cells in canvas order, or a digit per cell."""
    g = MultiGrid(n, origins, box, labels)
    p = Puzzle(g).use(classic())
    if givens is not None:
        p.givens(parse_subgrids(g, givens) if isinstance(givens, str) else list(givens))
    return p


def samurai(givens: str | Sequence[int] | None = None) -> Puzzle:
    """A samurai puzzle (classic rules in five overlapping 9x9 grids); ``givens`` as for
    :func:`gattai` (405 characters: the five grids TL, TR, C, BL, BR)."""
    return gattai(SAMURAI_ORIGINS, givens, 9, None, SAMURAI_LABELS)


def parse_subgrids(grid: MultiGrid, text: str) -> list[int]:
    """A digit (0 = blank) per cell of ``grid`` from a sub-grid line (``k * n*n``
    characters, whitespace allowed between them) or a line over the grid's own cells.
    Raises :class:`ParseError` when a shared cell gets two different digits."""
    n = grid.n
    s = re.sub(r"\s+", "", text) if not re.search(r"[,]", text) else text
    per = n * n
    if len(s) == grid.size and len(s) != per * len(grid.subgrids):
        return parse_line(s, n, grid.size)[1]
    k = len(grid.subgrids)
    if len(s) != per * k:
        raise ParseError(f"expected {k} x {per} = {k * per} characters (one {n}x{n} grid per "
                         f"part) or {grid.size} (one per cell), got {len(s)}")
    vals = [0] * grid.size
    for i, cells in enumerate(grid.subgrids):
        try:
            _, part = parse_line(s[i * per:(i + 1) * per], n)
        except ParseError as e:
            raise ParseError(f"sub-grid {grid.labels[i]}: {e}") from None
        for c, v in zip(cells, part):
            if v:
                if vals[c] and vals[c] != v:
                    raise ParseError(f"shared cell {grid.name(c)}: {vals[c]} in one sub-grid, "
                                     f"{v} in sub-grid {grid.labels[i]}")
                vals[c] = v
    return vals


def write_subgrids(grid: MultiGrid, values: Sequence[int], blank: str = ".",
                   sep: str = "") -> str:
    """Inverse of :func:`parse_subgrids`: each sub-grid's ``n*n`` characters, joined by
    ``sep``."""
    return sep.join(write_line([values[c] for c in cells], grid.n, blank)
                    for cells in grid.subgrids)


def is_samurai_line(text: str) -> bool:
    """True for a 405-character (5 x 81) line, whitespace between parts allowed: read it
    as a samurai (:func:`samurai` then names a bad character)."""
    return "," not in text and len(re.sub(r"\s+", "", text)) == 405


__all__ = ["samurai", "gattai", "samurai_grid", "parse_subgrids", "write_subgrids",
           "is_samurai_line", "SAMURAI_LABELS"]
