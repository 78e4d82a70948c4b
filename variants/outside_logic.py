"""Named techniques of sandwich and X-sum clues, read from the puzzle's clue bundles.

The clues' rule propagation is exact over the permutations of their line, so these steps
come first (before the ``constraint`` step) to name the deductions a human makes:

- ``sandwich_crusts``: the sandwich total needs between kmin and kmax digits between the
  crusts 1 and n (the sums of k different digits of 2..n-1 cover kmin..kmax), so a 1 (or n)
  needs an n (or 1) at such a distance along the line.
- ``x_sum_length``: the first digit X of the line says how many digits add up to the clue;
  X keeps the values whose X digits (X and X-1 others) can make the total.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.outside import sandwich, x_sum
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), x_sum(1, 0, 10))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "x_sum_length")]
['X-Sum Length: x-sum 10 at r1c0: the first cell is how many digits add up to 10: 2-4 can, 1/5/6/7/8/9 cannot => r1c1<>156789']
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import register

FAMILY = "outside"


class ClueTables:
    """Per puzzle: the sandwich and X-sum clues with their lines (nearest cell first)."""

    def __init__(self, puzzle) -> None:
        from .outside import line_from_clue, sandwich, x_sum
        n = puzzle.grid.n
        self.sandwiches: list[tuple[tuple[int, ...], int, str]] = []
        self.xsums: list[tuple[tuple[int, ...], int, str]] = []
        for b, _ in puzzle.bundles:
            if isinstance(b, (sandwich, x_sum)):
                cells = tuple(line_from_clue(n, b.row, b.col))
                name = f"{b.name} {b.value} at r{b.row}c{b.col}"
                (self.sandwiches if isinstance(b, sandwich) else self.xsums).append(
                    (cells, b.value, name))


def clue_tables(puzzle) -> ClueTables:
    """The :class:`ClueTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(ClueTables)


@lru_cache(maxsize=None)
def sandwich_gaps(n: int, total: int) -> tuple[int, ...]:
    """How many cells can lie between the crusts 1 and n for a sandwich ``total``: the k
    whose k different digits of 2..n-1 can add up to it.

    >>> sandwich_gaps(9, 0), sandwich_gaps(9, 20), sandwich_gaps(9, 1)
    ((0,), (3, 4, 5), ())
    """
    out = []
    for k in range(0, n - 1):
        lo = sum(range(2, k + 2))
        hi = sum(range(n - k, n))
        if lo <= total <= hi:
            out.append(k)
    return tuple(out)


@lru_cache(maxsize=None)
def x_sum_firsts(n: int, total: int) -> int:
    """Mask of the first digits X whose first X digits can add up to ``total``.

    >>> digits_of(x_sum_firsts(9, 10)), digits_of(x_sum_firsts(9, 45))
    ((2, 3, 4), (9,))
    """
    out = 0
    for x in range(1, n + 1):
        others = [d for d in range(1, n + 1) if d != x]
        if any(sum(c) == total - x for c in combinations(others, x - 1)):
            out |= 1 << x
    return out


def _ranges(ks) -> str:
    ks = list(ks)
    if len(ks) > 2 and ks[-1] - ks[0] == len(ks) - 1:
        return f"{ks[0]}-{ks[-1]}"
    return "/".join(map(str, ks))


@register("sandwich_crusts", "Sandwich Crusts", FAMILY)
def sandwich_crusts(an: Analysis, opts: dict) -> Iterator[Step]:
    """A sandwich total needs between kmin and kmax digits between the crusts 1 and n: a 1
    (n) without an n (1) at such a distance along the line cannot be a crust there (20 needs
    3-5 cells in between)."""
    t = clue_tables(an.puzzle)
    n, w = an.n, an.grid.namer
    placed = an.state.placed
    for cells, total, name in t.sandwiches:
        gaps = sandwich_gaps(n, total)
        vals = [an.cand[c] or 1 << placed[c] for c in cells]
        elims = []
        for i, c in enumerate(cells):
            for x, y in ((1, n), (n, 1)):
                if not an.cand[c] >> x & 1:
                    continue
                if not any(0 <= j < len(cells) and vals[j] >> y & 1
                           for k in gaps for j in (i - k - 1, i + k + 1)):
                    elims.append(Candidate(c, x))
        if elims:
            yield Step("sandwich_crusts", eliminations=tuple(elims), title="Sandwich Crusts",
                       width=w, houses=(name,), digits=tuple(sorted({d for _, d in elims})),
                       note=f"{name}: {total} needs {_ranges(gaps) if gaps else 'no'} cells "
                            f"between 1 and {digit_symbol(n)}; "
                            f"{','.join(an.name(c) for c, _ in elims)} have no other crust "
                            "at such a distance")


@register("x_sum_length", "X-Sum Length", FAMILY)
def x_sum_length(an: Analysis, opts: dict) -> Iterator[Step]:
    """The first digit X of an X-sum line says how many digits add up to the clue: X keeps
    the values whose first X digits can make the total (10: X is 2, 3 or 4)."""
    t = clue_tables(an.puzzle)
    n, w = an.n, an.grid.namer
    for cells, total, name in t.xsums:
        first = cells[0]
        ok = x_sum_firsts(n, total)
        bad = an.cand[first] & ~ok
        if bad:
            no = [d for d in range(1, n + 1) if not ok >> d & 1]
            yield Step("x_sum_length", title="X-Sum Length", width=w, houses=(name,),
                       eliminations=tuple(Candidate(first, d) for d in digits_of(bad)),
                       note=f"{name}: the first cell is how many digits add up to {total}: "
                            f"{_ranges(digits_of(ok)) if ok else 'none'} can, "
                            f"{'/'.join(map(str, no))} cannot")
