"""Multi-grid (gattai) puzzles: several overlapping grids solved as one model.

A samurai is five 9x9 sudokus on a 21x21 canvas, the centre one sharing a corner box with
each of the others. The model is one :class:`csp.grid.MultiGrid` (369 cells, named by
canvas coordinates ``r1c1`` .. ``r21c21``) with every sub-grid's rows, columns and boxes as
houses, so search, propagation and every technique work on it unchanged.

Line format (the usual one for samurai, read and written by :func:`csp.io.parse_subgrids`
and :func:`csp.io.write_subgrids`): the sub-grids one after
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

from typing import Sequence

from csp import Puzzle
from csp.grid import SAMURAI_ORIGINS, MultiGrid
from csp.io import parse_subgrids

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


__all__ = ["gattai", "samurai", "samurai_grid"]
