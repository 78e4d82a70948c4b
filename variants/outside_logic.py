"""Named techniques of sandwich and X-sum clues, read from the puzzle's clue bundles.

The clues' rule propagation is exact over the permutations of their line, so these steps
come first (before the ``constraint`` step) to name the deductions a human makes:

- ``sandwich_crusts``: the sandwich total needs between kmin and kmax digits between the
  crusts 1 and n (the sums of k different digits of 2..n-1 cover kmin..kmax), so a 1 (or n)
  needs an n (or 1) at such a distance along the line.
- ``x_sum_length``: the first digit X of the line says how many digits add up to the clue;
  X keeps the values whose X digits (X and X-1 others) can make the total.
- ``skyscraper_renban``: a renban line's cells in a skyscraper row or column hold digits of
  one run of the renban, and a digit of that run on a line cell off the renban must go on
  a renban cell off the line that does not see it; the clue's exact line count is taken
  once per choice of runs and a digit that no choice allows goes. The clue's own
  propagation sees the line alone; this step sees the line and its renbans together (the
  smallest group of them that removes something: each alone, every pair, ..., all; it is
  not tried when the puzzle has no skyscraper with a renban across it).

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
from itertools import product
from typing import Iterator

from csp.bits import digits_of
from csp.constraints.sums import subset_sums
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
        #: skyscraper lines crossed by a renban: (cells from the first clue's side,
        #: count seen from that side, from the other side (0: no clue), name, the
        #: renbans as (all their cells, their cells in the line))
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
                elif not e[2] and cells == e[0][::-1]:
                    e[2] = b.value
                    e[3] += f" and {b.value} opposite"
                # (a second clue on the same side, or a third one, adds nothing here)
            elif isinstance(b, renban):
                cells = tuple(dict.fromkeys(g.cells(b.cells)))
                if len(cells) >= 2:
                    rens.append(cells)
        for cells, left, right, name in sky.values():
            on = set(cells)
            across = [(r, tuple(c for c in r if c in on)) for r in rens if on & set(r)]
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
        if total >= x and subset_sums(others, x - 1) >> (total - x) & 1:
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
                       namer=w, houses=(name,), digits=tuple(sorted({d for _, d in elims})),
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
            yield Step("x_sum_length", title="X-Sum Length", namer=w, houses=(name,),
                       eliminations=tuple(Candidate(first, d) for d in digits_of(bad)),
                       note=f"{name}: the first cell is how many digits add up to {total}: "
                            f"{_ranges(digits_of(ok)) if ok else 'none'} can, "
                            f"{'/'.join(map(str, no))} cannot")


#: at most this many choices of runs (one per renban of a group) are tried together; most
#: choices fail at once (a run that leaves some line cell no digit), so even the 1,512
#: choices of four renbans across one line take about 10 ms
SKY_RENBAN_MAX = 5000
#: groups of renbans tried per line at most (smallest groups first)
SKY_RENBAN_GROUPS = 64


def _renban_groups(k: int) -> Iterator[tuple[int, ...]]:
    """The groups of ``k`` renbans across one line to try, smallest first: each alone, then
    every pair, every three, ..., all of them (at most :data:`SKY_RENBAN_GROUPS`, the whole
    set always last)."""
    from itertools import combinations
    out = 0
    for size in range(1, k):
        for ks in combinations(range(k), size):
            if out >= SKY_RENBAN_GROUPS - 1:
                break
            out += 1
            yield ks
    yield tuple(range(k))


def _sky_renban_support(an: Analysis, cells: tuple[int, ...], left: int, right: int,
                        group, runs) -> list[int]:
    """The digits per line cell that some choice of runs (one per renban of ``group``)
    allows: the renbans' cells in the line keep to their run; a digit v of a run held by a
    line cell x off the renban must go on a renban cell off the line that does not see x
    (a renban of k cells holds its whole run), so x keeps v only if such a cell has v."""
    from .outside import _line_supports
    n = an.n
    cand, placed = an.cand, an.state.placed
    peers = an.links.house_peers
    pos = {c: i for i, c in enumerate(cells)}
    base = [cand[c] or 1 << placed[c] for c in cells]
    # per renban: its cells in the line, and per line cell x off the renban, the digits
    # the renban's cells off the line that do not see x can take
    parts = []
    for r, inside in group:
        outside = [c for c in r if c not in pos]
        on = set(inside)
        free = {}
        for x in cells:
            if x not in on:
                m = 0
                for o in outside:
                    if not peers[o] >> x & 1:
                        m |= cand[o] or 1 << placed[o]
                free[pos[x]] = m
        parts.append(([pos[c] for c in inside], free))
    sup = [0] * n
    for combo in product(*runs):
        doms = base[:]
        for (ins, free), run in zip(parts, combo):
            for i in ins:
                doms[i] &= run
            for i, m in free.items():
                doms[i] &= ~(run & ~m)
        if not all(doms):
            continue
        got = _line_supports(doms, n, left, right)
        if got:
            sup = [a | b for a, b in zip(sup, got)]
    return sup


@register("skyscraper_renban", "Skyscraper-Renban", FAMILY)
def skyscraper_renban(an: Analysis, opts: dict) -> Iterator[Step]:
    """A skyscraper row (column) crossed by renban lines: each renban holds one run of
    consecutive digits, its cells in the line hold digits of that run, and a digit of the
    run on a line cell off the renban needs a renban cell off the line that does not see
    it. For every choice of runs of a group of the renbans across the line (each renban
    alone, then every pair, every three, ..., all together: the smallest group that
    removes something is the step) the clue's count is checked exactly over the line's
    permutations; a digit of a line cell that no choice allows goes ("column 4 seen 2 from below, renban r6c2 has r7c4,r8c4 here: r6c4 = 8
    would keep 8 off the renban (r6c2,r6c3 see it), so r7c4,r8c4 stay below 8 and the
    column sees r9c4, 8 and 9")."""
    from .line_tables import _digit_range
    t = clue_tables(an.puzzle)
    if not t.sky_renbans:
        return
    w = an.grid.namer
    cand, placed = an.cand, an.state.placed
    for cells, left, right, name, across in t.sky_renbans:
        if not any(cand[c] for c in cells):
            continue
        # the result reads the candidates of the line's and the renbans' cells only
        scope = sorted({*cells, *(c for r, _ in across for c in r)})
        key = ("skyscraper_renban", cells, left, right,
               tuple(cand[c] or -placed[c] for c in scope))
        found = an.shared_memo(key, lambda: _sky_renban_group(an, cells, left, right, across))
        if found is None:
            continue
        ks, runs, sup = found
        group = [across[k] for k in ks]
        elims = tuple(Candidate(c, d) for c, m in zip(cells, sup)
                      for d in digits_of(cand[c] & ~m))
        desc = "; ".join(
            f"renban {an.name(r[0])} ({'/'.join(_digit_range(x) for x in runs[k])}) "
            f"has {','.join(an.name(c) for c in inside)} here"
            for k, (r, inside) in zip(ks, group))
        yield Step("skyscraper_renban", title="Skyscraper-Renban", namer=w,
                   houses=(name,) + tuple(f"renban {an.name(r[0])}" for r, _ in group),
                   eliminations=elims,
                   pattern=tuple(Candidate(c, d) for r, inside in group for c in inside
                                 for d in digits_of(cand[c])),
                   note=f"{name}; {desc}: no choice of runs lets "
                        f"{', '.join(sorted({an.name(e.cell) for e in elims}))} keep "
                        f"{''.join(sorted({digit_symbol(e.digit) for e in elims}))}")


def _sky_renban_group(an: Analysis, cells: tuple[int, ...], left: int, right: int,
                      across) -> tuple[tuple[int, ...], list[int], list[int]] | None:
    """The smallest group of the renbans across one skyscraper line whose choices of runs
    leave some line digit unsupported: (the group's indexes in ``across``, every renban's
    runs, the supported digits per line cell), or None."""
    from .renban_logic import renban_runs
    n = an.n
    cand, placed = an.cand, an.state.placed

    def val(c: int) -> int:
        return cand[c] or 1 << placed[c]

    runs = [renban_runs([val(c) for c in r], n) for r, _ in across]
    if not all(runs):
        return None                     # a renban with no run: the rules report it
    for ks in _renban_groups(len(across)):
        if an.expired():
            return None
        total = 1
        for k in ks:
            total *= len(runs[k])
        if total > SKY_RENBAN_MAX:
            continue
        group = [across[k] for k in ks]
        sup = _sky_renban_support(an, cells, left, right, group, [runs[k] for k in ks])
        if not any(sup):
            continue                    # nothing fits at all: the rules report it
        if any(cand[c] & ~m for c, m in zip(cells, sup)):
            return ks, runs, sup
    return None
