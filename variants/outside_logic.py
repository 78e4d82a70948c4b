"""Named techniques of sandwich and X-sum clues, read from the puzzle's clue bundles.

The clues' rule propagation is exact over the permutations of their line, so these steps
come first (before the ``constraint`` step) to name the deductions a human makes:

- ``sandwich_crusts``: the sandwich total needs between kmin and kmax digits between the
  crusts 1 and n (the sums of k different digits of 2..n-1 cover kmin..kmax), so a 1 (or n)
  needs an n (or 1) at such a distance along the line.
- ``x_sum_length``: the first digit X of the line says how many digits add up to the clue;
  X keeps the values whose X digits (X and X-1 others) can make the total.
- ``skyscraper_renban``: a renban line's cells in a skyscraper row or column hold digits of
  one run of the renban; the clue's exact line count is taken once per choice of runs (with
  the line's renban cells kept to the run) and a digit that no choice allows goes. The
  clue's own propagation sees the line alone; this step sees the line and its renbans
  together (it is not tried when the puzzle has no skyscraper with a renban across it).

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
from itertools import combinations, product
from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import register

FAMILY = "outside"


class ClueTables:
    """Per puzzle: the sandwich and X-sum clues with their lines (nearest cell first)."""

    def __init__(self, puzzle) -> None:
        from .lines import renban
        from .outside import line_from_clue, sandwich, skyscraper, x_sum
        g = puzzle.grid
        n = g.n
        self.sandwiches: list[tuple[tuple[int, ...], int, str]] = []
        self.xsums: list[tuple[tuple[int, ...], int, str]] = []
        #: skyscraper lines with two or more cells of a renban: (cells from the first
        #: clue's side, count seen from that side, from the other side (0: no clue), name,
        #: the renbans as (all their cells, their cells in the line))
        self.sky_renbans: list[tuple[tuple[int, ...], int, int, str,
                                     list[tuple[tuple[int, ...], tuple[int, ...]]]]] = []
        sky: dict[tuple[int, ...], list] = {}
        rens: list[tuple[int, ...]] = []
        for b, _ in puzzle.bundles:
            if isinstance(b, (sandwich, x_sum)):
                cells = tuple(line_from_clue(n, b.row, b.col))
                name = f"{b.name} {b.value} at r{b.row}c{b.col}"
                (self.sandwiches if isinstance(b, sandwich) else self.xsums).append(
                    (cells, b.value, name))
            elif isinstance(b, skyscraper):
                cells = tuple(line_from_clue(n, b.row, b.col))
                name = f"skyscraper {b.value} at r{b.row}c{b.col}"
                e = sky.get(tuple(sorted(cells)))
                if e is None:
                    sky[tuple(sorted(cells))] = [cells, b.value, 0, name]
                elif not e[2]:
                    e[2] = b.value
                    e[3] += f" and {b.value} opposite"
            elif isinstance(b, renban):
                cells = tuple(dict.fromkeys(g.cells(b.cells)))
                if len(cells) >= 2:
                    rens.append(cells)
        for cells, left, right, name in sky.values():
            on = set(cells)
            # a renban with one cell here adds nothing: that cell already keeps to its runs
            across = [(r, tuple(c for c in r if c in on)) for r in rens
                      if len(on & set(r)) >= 2]
            if across:
                self.sky_renbans.append((cells, left, right, name, across))


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


#: at most this many choices of runs (one per renban across the line) are tried
SKY_RENBAN_MAX = 400


@register("skyscraper_renban", "Skyscraper-Renban", FAMILY)
def skyscraper_renban(an: Analysis, opts: dict) -> Iterator[Step]:
    """A skyscraper row (column) crossed by renban lines: each renban holds one run of
    consecutive digits, so its cells in the line hold digits of that run. For every choice
    of the renbans' fitting runs the clue's count is checked exactly over the line's
    permutations with those cells kept to their run; a digit of a line cell that no choice
    allows goes ("row 6 seen 3 from the left, renbans r6c2-r6c3 in 4-7/5-8 ...: r6c1 can
    be 2 under no choice")."""
    from .lines_logic import _digit_range, renban_runs
    from .outside import _line_supports
    t = clue_tables(an.puzzle)
    if not t.sky_renbans:
        return
    n, w = an.n, an.grid.namer
    cand, placed = an.cand, an.state.placed

    def val(c: int) -> int:
        return cand[c] or 1 << placed[c]

    for cells, left, right, name, across in t.sky_renbans:
        if not any(cand[c] for c in cells):
            continue
        runs = [renban_runs([val(c) for c in r], n) for r, _ in across]
        if not all(runs):
            continue                    # a renban with no run: the rules report it
        if all(len(rs) == 1 for rs in runs) and all(
                val(c) & ~rs[0] == 0 for (_, inside), rs in zip(across, runs)
                for c in inside):
            continue                    # the runs say nothing the line does not know
        total = 1
        for rs in runs:
            total *= len(rs)
        if total > SKY_RENBAN_MAX:
            continue
        pos = {c: i for i, c in enumerate(cells)}
        base = [val(c) for c in cells]
        sup = [0] * n
        for combo in product(*runs):
            doms = base[:]
            for (_, inside), run in zip(across, combo):
                for c in inside:
                    doms[pos[c]] &= run
            if not all(doms):
                continue
            got = _line_supports(doms, n, left, right)
            if got:
                sup = [a | b for a, b in zip(sup, got)]
        elims = tuple(Candidate(c, d) for c, m in zip(cells, sup)
                      for d in digits_of(cand[c] & ~m))
        if not elims or not any(sup):
            continue                    # nothing fits at all: the rules report it
        desc = "; ".join(f"renban {an.name(r[0])} ({'/'.join(_digit_range(x) for x in rs)})"
                         f" has {','.join(an.name(c) for c in inside)} here"
                         for (r, inside), rs in zip(across, runs))
        yield Step("skyscraper_renban", title="Skyscraper-Renban", width=w,
                   houses=(name,) + tuple(f"renban {an.name(r[0])}" for r, _ in across),
                   eliminations=elims,
                   pattern=tuple(Candidate(c, d) for r, inside in across for c in inside
                                 for d in digits_of(cand[c])),
                   note=f"{name}; {desc}: no choice of runs lets "
                        f"{', '.join(sorted({an.name(e.cell) for e in elims}))} keep "
                        f"{''.join(sorted({digit_symbol(e.digit) for e in elims}))}")
