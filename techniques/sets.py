"""Set equivalence theory (SET): two collections of regions whose digits are known compared
cell by cell.

A *region* is a group of cells whose digits we know something about:

- a full house (row, column, box, jigsaw region, diagonal, extra region, an all-different
  cage of n cells): every digit exactly once, sum n(n+1)/2;
- a killer cage (``Sum`` with different digits): a known sum, and each digit at most once
  (exactly once when every combination that still fits holds it);
- an all-different group smaller than a house: each digit at most once;
- a plain sum (``Sum`` with repeats allowed, e.g. a little killer diagonal): a known sum.

Take two collections A and B of regions, each made of disjoint regions. Cell by cell, a cell
counted in A but not in B is in P (``A \\ B``), one in B but not in A is in N (``B \\ A``);
cells in both cancel. Then:

- **digits** (``set_equivalence``; ``law_of_leftovers`` when A and B are full houses only):
  for every digit d, (number of d in P) - (number of d in N) = (d's in A) - (d's in B). With
  as many full houses on both sides, P and N hold the same digits: a digit that cannot be in N
  cannot be in P, and a digit that must be in P (a house can place it only inside P) must be
  in N, so cells seeing all of N's places for it lose it. Cages count with the digits of the
  combinations that still fit (exactly, at least or at most once);
- **sums** (``innies``, ``outies``, ``innies_outies``): sum(P) - sum(N) = sum(A) - sum(B);
  the cells of P and N keep the digits that can satisfy that equation (cells sharing a house
  all different) -- the 45 rule of killer sudoku and its generalisations, with the parity of
  the sum a by-product;
- **cage splitting** (``cage_splitting``): when the equation's cells are a proper part of
  one cage, the cage splits into two parts with known sums, still all different together.

The collections are searched cheaply, as a strong human solver does: A is a run of up to
n-1 consecutive rows or columns, a box or region, two touching regions, or another full
house; B is made of the other regions inside A, or mostly inside it, or all those crossing
it. Steps name the sets: ``rows 1-3 minus box 1, box 2, box 3``.

>>> from csp import Puzzle, Grid, Sum
>>> from techniques import StepSolver
>>> p = Puzzle(Grid(9)).add_grid_houses()
>>> _ = p.add(Sum(p.grid.cells(["r1c1", "r1c2", "r2c1", "r2c2"]), 30, distinct=True, name="cage 30"))
>>> _ = p.add(Sum(p.grid.cells(["r1c3", "r2c3", "r3c3"]), 6, distinct=True, name="cage 6"))
>>> [s.explain(2) for s in StepSolver().find_all(p.pencilmarks(), "innies")][:1]
['Innies: box 1 minus cage 30, cage 6: r3c1+r3c2 = 9 => r3c1<>9, r3c2<>9']
"""
from __future__ import annotations

import re
from itertools import combinations
from typing import Iterator, Sequence

from csp.bits import digits_of
from csp.constraints.alldiff import AllDifferent
from csp.constraints.sums import Sum, SumIn, linear_supports, sum_subsets
from csp.step import Candidate, Step, digit_symbol

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

FAMILY = "sets"

#: the longest run of parallel rows or columns taken as one collection (bounded unions, as
#: strong human solvers use: up to four houses a side)
MAX_RUN = 4
#: the digit version looks at equations with at most this many open cells on both sides
#: (law of leftovers: any size)
MAX_DIGIT_CELLS = 10
#: sums over sets: combinations tried per equation (from the first version; bounds one
#: equation's search, not measured)
MAX_COMBINATIONS = 20_000
_COMBINATIONS = Option(MAX_COMBINATIONS, "combinations tried per equation", int)
#: innies, outies and both
SUM_SET_OPTIONS = Options(max_cells=Option(5, "most open cells of an equation", int),
                          max_combinations=_COMBINATIONS)
#: set sums: the large equations
SET_SUMS_OPTIONS = Options(
    min_cells=Option(6, "fewest open cells of an equation", int),
    max_cells=Option(20, "most open cells of an equation", int),
    max_combinations=Option(2000, "combinations tried per equation", int))
CAGE_SPLITTING_OPTIONS = Options(max_combinations=_COMBINATIONS)
SET_EQUIVALENCE_OPTIONS = Options(max_cells=Option(
    MAX_DIGIT_CELLS, "most open cells on both sides of an equation", int))


# -- regions ------------------------------------------------------------------------------
class Region:
    """Cells with known digit facts (see the module docstring).

    ``kind``: ``row``, ``col``, ``box``, ``region``, ``house`` (other full house), ``cage``
    (different digits, sum ``total`` or one of ``totals``), ``alldiff`` (different digits, no
    sum) or ``sum`` (repeats allowed, sum ``total``)."""

    __slots__ = ("index", "name", "kind", "cells", "mask", "total", "totals", "full",
                 "distinct", "line")

    def __init__(self, index: int, name: str, kind: str, cells: Sequence[int],
                 total: int | None, totals: tuple[int, ...], full: bool, distinct: bool
                 ) -> None:
        self.index = index
        self.name = name
        self.kind = kind
        self.cells = tuple(cells)
        self.mask = sum(1 << c for c in self.cells)
        self.total = total
        self.totals = totals
        self.full = full
        self.distinct = distinct
        #: (direction, span, position) of a row or column, for runs of parallel lines
        self.line: tuple[str, tuple[int, int], int] | None = None

    def __repr__(self) -> str:
        return f"Region({self.name})"


class Equation:
    """``plus`` (A) and ``minus`` (B) region indices; ``P`` / ``N`` the cells counted only in A
    / only in B; ``total`` = sum(A) - sum(B) when every region has a known sum; ``digits``:
    the digit version applies (every region holds each digit at most once)."""

    __slots__ = ("plus", "minus", "P", "N", "total", "digits", "houses_only", "label", "size")

    def __init__(self, plus: tuple[int, ...], minus: tuple[int, ...], P: int, N: int,
                 total: int | None, digits: bool, houses_only: bool, label: str) -> None:
        self.plus, self.minus, self.P, self.N = plus, minus, P, N
        self.total, self.digits, self.houses_only, self.label = total, digits, houses_only, label
        self.size = len(plus) + len(minus)

    def __repr__(self) -> str:
        return f"Equation({self.label})"


class SetTables:
    """Per puzzle: the regions and the equations (pairs of collections) to look at."""

    def __init__(self, puzzle) -> None:
        g = puzzle.grid
        self.n = n = g.n
        self.full_total = n * (n + 1) // 2
        regions: list[Region] = []
        seen: dict[tuple[int, int | None, tuple[int, ...]], int] = {}
        grid_kinds = {(h.name, h.cells): h.kind for h in g.houses}

        def add(name: str, kind: str, cells: Sequence[int], total: int | None,
                totals: tuple[int, ...], full: bool, distinct: bool) -> None:
            mask = sum(1 << c for c in cells)
            key = (mask, total if not full else None, totals if not full else ())
            if key in seen:
                return
            seen[key] = len(regions)
            regions.append(Region(len(regions), name, kind, cells, total, totals, full,
                                  distinct))

        cons = list(puzzle.constraints)
        # full houses first (rows, columns, boxes/regions keep their grid names and kinds)
        for c in cons:
            h = c.house()
            if h is None or len(h) != n:
                continue
            kind = grid_kinds.get((c.name, tuple(h)), "house")
            total = self.full_total
            if isinstance(c, Sum) and c.total != total:
                continue            # cannot happen for n different digits; be safe
            add(c.name, kind, h, total, (total,), True, True)
        for c in cons:
            h = c.house()
            if isinstance(c, Sum):
                if c.distinct and len(c.cells) == n:
                    continue
                add(c.name, "cage" if c.distinct else "sum", c.cells, c.total, (c.total,),
                    False, c.distinct)
            elif isinstance(c, SumIn) and c.distinct and len(c.cells) < n:
                add(c.name, "cage", c.cells, c.totals[0] if len(c.totals) == 1 else None,
                    c.totals, False, True)
            elif type(c) is AllDifferent and h is not None and 1 < len(h) < n:
                add(c.name, "alldiff", h, None, (), False, True)
        self.regions = regions
        for r in regions:
            if r.kind in ("row", "col"):
                idx = [g.row(c) if r.kind == "row" else g.col(c) for c in r.cells]
                other = [g.col(c) if r.kind == "row" else g.row(c) for c in r.cells]
                if len(set(idx)) == 1:
                    r.line = (r.kind, (min(other), max(other)), idx[0])
        self.equations: list[Equation] = []
        self._build()

    # -- static search -----------------------------------------------------------------
    def _bases(self) -> list[tuple[tuple[int, ...], str]]:
        """Collections A: runs of parallel rows / columns, single full houses, pairs of
        touching boxes or regions."""
        out: list[tuple[tuple[int, ...], str]] = []
        full = [r for r in self.regions if r.full]
        n = self.n
        for kind, word in (("row", "rows"), ("col", "cols")):
            groups: dict[tuple, dict[int, Region]] = {}
            for r in full:
                if r.kind == kind and r.line is not None:
                    groups.setdefault(r.line[:2], {})[r.line[2]] = r
            for lines in groups.values():
                for k in range(2, min(n, MAX_RUN + 1)):
                    for start in sorted(lines):
                        run = [lines.get(start + i) for i in range(k)]
                        if any(x is None for x in run):
                            continue
                        m = 0
                        ok = True
                        for x in run:
                            if m & x.mask:
                                ok = False
                                break
                            m |= x.mask
                        if ok:
                            out.append((tuple(x.index for x in run),
                                        f"{word} {start + 1}-{start + k}"))
        for r in full:
            out.append(((r.index,), r.name))
        boxes = [r for r in full if r.kind in ("box", "region")]
        near = self._touching
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                if not a.mask & b.mask and near(a, b):
                    out.append(((a.index, b.index), f"{a.name} + {b.name}"))
        return out

    def _touching(self, a: Region, b: Region) -> bool:
        bm = b.mask
        return any(bm >> o & 1 for c in a.cells for o in self._orth(c))

    def _orth(self, c: int) -> tuple[int, ...]:
        n = self.n
        r, col = divmod(c, n)
        out = []
        if r > 0:
            out.append(c - n)
        if col > 0:
            out.append(c - 1)
        if col < n - 1:
            out.append(c + 1)
        out.append(c + n)
        return tuple(out)

    def _build(self) -> None:
        regions = self.regions
        found: dict[tuple[int, int], Equation] = {}
        for base, base_label in self._bases():
            a_mask = 0
            for i in base:
                a_mask |= regions[i].mask
            base_set = set(base)
            others = [r for r in regions if r.index not in base_set and r.mask & a_mask
                      and r.mask != a_mask]
            # the parallel lines of the base itself never help (rows 1-3 minus row 2)
            kinds = {regions[i].kind for i in base}
            others = [r for r in others if not (r.full and r.kind in kinds
                                                and r.kind in ("row", "col"))]
            n_full = sum(1 for i in base if regions[i].full)
            parts = [r for r in others if not r.full]
            houses = [r for r in others if r.full]
            inside = [r for r in parts if not r.mask & ~a_mask]
            mostly = [r for r in parts if r.mask & ~a_mask and
                      2 * (r.mask & a_mask).bit_count() > len(r.cells)]
            crossing = [r for r in parts if r.mask & ~a_mask]
            covers = [_disjoint(inside), _disjoint(inside + mostly),
                      _disjoint(inside + crossing)]
            # other full houses mostly inside A, as many as A has (the digit version then
            # says that both sides hold the same digits), alone or with the cages left
            h_cover = _disjoint([r for r in houses
                                 if 2 * (r.mask & a_mask).bit_count() > len(r.cells)])
            if h_cover and len(h_cover) == n_full:
                covers.append(h_cover)
                used = 0
                for r in h_cover:
                    used |= r.mask
                rest = a_mask & ~used
                covers.append(h_cover + _disjoint([
                    r for r in parts if not r.mask & used and
                    2 * (r.mask & rest).bit_count() > len(r.cells)]))
            for cover in covers:
                if not cover:
                    continue
                eq = self._equation(base, tuple(r.index for r in cover), base_label)
                if eq is not None and (eq.P, eq.N) not in found:
                    found[(eq.P, eq.N)] = eq
        for eq in self._crossings():
            if (eq.P, eq.N) not in found:
                found[(eq.P, eq.N)] = eq
        self.equations = sorted(found.values(), key=lambda e: (
            e.size, (e.P | e.N).bit_count()))

    def _crossings(self) -> list[Equation]:
        """Grids without boxes: k rows against k columns (k <= 3, any rows and columns),
        each side taking the cages that lie mostly in its leftover cells, kept when the
        cages cancel at least half of the leftovers ("rows 1, 6, 7 against columns 3, 4,
        9": the cells left are the cages' third cells)."""
        regions = self.regions
        if any(r.full and r.kind in ("box", "region") for r in regions):
            return []
        cages = [r for r in regions if not r.full and r.distinct and r.total is not None]
        if not cages:
            return []
        lines = {kind: [r for r in regions if r.full and r.kind == kind and r.line]
                 for kind in ("row", "col")}
        out = []
        cage_masks = [(c, c.mask, len(c.cells)) for c in cages]
        for k in (1, 2, 3):
            for A in combinations(lines["row"], k):
                a = 0
                for r in A:
                    a |= r.mask
                for B in combinations(lines["col"], k):
                    b = 0
                    for r in B:
                        b |= r.mask
                    P, N = a & ~b, b & ~a
                    to_a, to_b = [], []
                    ca = cb = 0
                    for c, m, size in cage_masks:
                        if 2 * (m & P).bit_count() > size and not m & (b | cb):
                            to_b.append(c)
                            cb |= m
                        elif 2 * (m & N).bit_count() > size and not m & (a | ca):
                            to_a.append(c)
                            ca |= m
                    if not to_a and not to_b:
                        continue
                    plus, minus = a | ca, b | cb
                    after = (plus & ~minus).bit_count() + (minus & ~plus).bit_count()
                    before = P.bit_count() + N.bit_count()
                    if 2 * after > before or after > 2 * self.n:
                        continue
                    eq = self._equation(tuple(r.index for r in A) + tuple(c.index for c in to_a),
                                        tuple(r.index for r in B) + tuple(c.index for c in to_b),
                                        "")
                    if eq is not None:
                        out.append(eq)
        return out

    def names(self, eq: Equation) -> tuple[str, ...]:
        """The names of an equation's regions (A's, then B's): the houses a step shows."""
        return tuple(self.regions[i].name for i in eq.plus + eq.minus)

    def _equation(self, plus: tuple[int, ...], minus: tuple[int, ...], base_label: str
                  ) -> Equation | None:
        regions = self.regions
        a = 0
        for i in plus:
            if a & regions[i].mask:
                return None         # each side is made of disjoint regions
            a |= regions[i].mask
        b = 0
        for i in minus:
            if b & regions[i].mask:
                return None
            b |= regions[i].mask
        P, N = a & ~b, b & ~a
        if not P and not N:
            return None
        total: int | None = 0
        for i in plus:
            t = regions[i].total
            total = None if t is None or total is None else total + t
        for i in minus:
            t = regions[i].total
            total = None if t is None or total is None else total - t
        # the digit version: every region holds a digit at most once, and as many full
        # houses on both sides (each side then holds every digit as often); a house minus
        # cages alone is the sum version's and the cage techniques' business
        full_b = sum(1 for i in minus if regions[i].full)
        digits = all(regions[i].distinct for i in plus + minus) and (
            full_b and full_b == sum(1 for i in plus if regions[i].full))
        houses_only = all(regions[i].full for i in plus + minus)
        label = (f"{base_label or describe([regions[i] for i in plus])} minus "
                 f"{describe([regions[i] for i in minus])}")
        return Equation(plus, minus, P, N, total, digits, houses_only, label)


def _disjoint(rs: list[Region]) -> list[Region]:
    """Greedy: the largest regions first, each disjoint from those already taken."""
    out: list[Region] = []
    used = 0
    for r in sorted(rs, key=lambda r: (-len(r.cells), r.index)):
        if not r.mask & used:
            out.append(r)
            used |= r.mask
    return sorted(out, key=lambda r: r.index)


def describe(rs: Sequence[Region]) -> str:
    """Names of regions, rows and columns condensed: ``rows 1-3, cage 12 at r1c1``.

    >>> rs = [Region(i, f"row {i + 1}", "row", [i], 45, (45,), True, True) for i in (0, 1, 2, 5)]
    >>> describe(rs + [Region(4, "box 5", "box", [40], 45, (45,), True, True)])
    'rows 1-3, 6, box 5'
    >>> describe([Region(i, f"cage 12 at r{i}c1", "cage", [i], 12, (12,), False, True)
    ...           for i in (1, 5)])
    'cages 12 at r1c1, r5c1'
    >>> describe([Region(i, f"cage {i} at r{i}c1", "cage", [i], i, (i,), False, True)
    ...           for i in (3, 5)])
    'cages 3 at r3c1, 5 at r5c1'
    """
    parts: list[str] = []
    lines: dict[str, list[int]] = {}
    rest: list[Region] = []
    for r in rs:
        word = r.name.split()
        if r.kind in ("row", "col") and len(word) == 2 and word[1].isdigit():
            lines.setdefault(r.kind, []).append(int(word[1]))
        else:
            rest.append(r)
    for kind, nums in lines.items():
        nums.sort()
        runs: list[str] = []
        i = 0
        while i < len(nums):
            j = i
            while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
                j += 1
            runs.append(f"{nums[i]}-{nums[j]}" if j - i >= 2 else
                        ", ".join(map(str, nums[i:j + 1])))
            i = j + 1
        parts.append(f"{kind}{'s' if len(nums) > 1 else ''} {', '.join(runs)}")
    groups: dict[str, list[str]] = {}
    for r in rest:
        m = _CAGE_NAME.match(r.name)
        if m:
            groups.setdefault(m.group(1), []).append(m.group(2))
        else:
            parts.append(r.name)
    if groups:
        many = sum(len(w) for w in groups.values()) > 1
        parts.append(f"cage{'s' if many else ''} " + ", ".join(
            f"{total} at {', '.join(sorted(where, key=_cell_key))}"
            for total, where in groups.items()))
    return ", ".join(parts)


def _cell_key(name: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", name))


_CAGE_NAME = re.compile(r"^cage (\S+) at (\S+)$")


def set_tables(an: Analysis) -> SetTables:
    return an.links_memo("set_tables", lambda: SetTables(an.puzzle))


# -- cage combinations ----------------------------------------------------------------------
def matchable(doms: Sequence[int], digits: int) -> bool:
    """Can the cells (candidate masks ``doms``) take different digits covering ``digits``
    exactly (``len(doms) == popcount(digits)``)? A bipartite matching by augmenting paths:
    polynomial in the cells, whatever the candidates (a backtracking search was exponential
    on a long cage without a matching).

    >>> matchable([0b110, 0b110, 0b1000], 0b1110), matchable([0b10, 0b10], 0b110)
    (True, False)
    """
    doms = [m & digits for m in doms]
    owner: dict[int, int] = {}          # digit bit -> the cell index holding it

    def augment(i: int, seen: int) -> tuple[bool, int]:
        m = doms[i] & ~seen
        while m:
            low = m & -m
            m ^= low
            seen |= low
            j = owner.get(low)
            if j is None:
                owner[low] = i
                return True, seen
            ok, seen = augment(j, seen)
            if ok:
                owner[low] = i
                return True, seen
        return False, seen

    for i in sorted(range(len(doms)), key=lambda i: doms[i].bit_count()):
        if not augment(i, 0)[0]:
            return False
    return len(owner) == digits.bit_count()


#: at most this many digit sets a cage's logic enumerates per state; a cage with more (17
#: cells of 1..35 adding up to 300 have millions) is left to the rules' own propagation and
#: the other techniques (:func:`cage_combinations` answers None)
COMBINATION_LIMIT = 5000


def cage_combinations(an: Analysis, cells: Sequence[int],
                      totals: Sequence[int]) -> list[int] | None:
    """Digit masks of the combinations (different digits adding up to one of ``totals``)
    that still fit the cells: the placed digits in it, the open cells matchable to the rest;
    in digit order. None when there are more than :data:`COMBINATION_LIMIT` digit sets to
    look at (the work is bounded: only the sets of the open cells' candidates are listed).
    """
    placed = an.state.placed
    placed_mask = placed_sum = n_placed = 0
    open_doms = []
    for c in cells:
        d = placed[c]
        if d:
            placed_mask |= 1 << d
            placed_sum += d
            n_placed += 1
        else:
            open_doms.append(an.cand[c])
    if placed_mask.bit_count() != n_placed:
        return []                       # a digit placed twice: nothing fits
    union = 0
    for m in open_doms:
        union |= m
    digits = digits_of(union & ~placed_mask)
    out = []
    budget = COMBINATION_LIMIT
    for total in totals:
        # in digit order: a combination's placed digits are common to all, so ordering by
        # the rest orders the whole
        rests = sum_subsets(digits, len(open_doms), total - placed_sum, limit=budget)
        if rests is None:
            return None
        budget -= len(rests)
        for rest in rests:
            if any(not m & rest for m in open_doms):
                continue
            if _matchable_cached(open_doms, rest):
                out.append(rest | placed_mask)
    return out


_MATCH: dict = {}


def _matchable_cached(doms: list[int], digits: int) -> bool:
    key = (tuple(sorted(doms)), digits)
    hit = _MATCH.get(key)
    if hit is None:
        if len(_MATCH) > 200_000:
            _MATCH.clear()
        hit = _MATCH[key] = matchable(doms, digits)
    return hit


def region_digits(an: Analysis, r: Region) -> tuple[int, int]:
    """(must, may) digit masks of a region that holds each digit at most once: the digits it
    holds for sure, and those it may hold."""
    full = an.links_memo("full_digit_mask", lambda: ((1 << an.n) - 1) << 1)
    if r.full:
        return full, full
    cache = an.memo("set_region_digits", dict)
    hit = cache.get(r.index)
    if hit is None:
        hit = cache[r.index] = _region_digits(an, r, full)
    return hit


def _region_digits(an: Analysis, r: Region, full: int) -> tuple[int, int]:
    placed = an.state.placed
    combos = cage_combinations(an, r.cells, r.totals) if r.totals else None
    if combos is not None:              # None: too many to list, read as a plain group
        if not combos:
            return 0, 0
        must, may = full, 0
        for m in combos:
            must &= m
            may |= m
        return must, may
    may = 0
    must = 0
    for c in r.cells:
        if placed[c]:
            must |= 1 << placed[c]
            may |= 1 << placed[c]
        else:
            may |= an.cand[c]
    if may.bit_count() == len(r.cells):
        must = may          # k different digits out of k: all of them
    return must, may


# -- digit counts ------------------------------------------------------------------------
def _max_count(an: Analysis, cells: int, d: int, fixed: int) -> int:
    """At most how many cells of the bitset ``cells`` hold ``d``: the ``fixed`` placed ones
    plus a cover of the open ones with d by houses (each holds d at most once)."""
    rest = cells & an.cells_with[d]
    out = fixed
    cell_houses, house_mask = an.links.cell_houses, an.house_mask
    while rest:
        c = (rest & -rest).bit_length() - 1
        best = 1 << c
        for h in cell_houses[c]:
            m = rest & house_mask[h]
            if m.bit_count() > best.bit_count():
                best = m
        rest &= ~best
        out += 1
    return out


def _min_count(an: Analysis, cells: int, d: int, fixed: int) -> int:
    """At least how many cells of ``cells`` hold ``d``: the ``fixed`` placed ones, plus
    the most disjoint full houses of one kind without a placed d whose open places for d
    all lie in ``cells`` (each puts its d there)."""
    if not cells & an.cells_with[d]:
        return fixed
    best = 0
    for kind_houses in an.memo(("set_open_places", d), lambda: _open_places(an, d)):
        used = count = 0
        for hm, pos in kind_houses:
            if pos & ~cells or used & hm:
                continue
            used |= hm
            count += 1
        best = max(best, count)
    return fixed + best


def _open_places(an: Analysis, d: int) -> list[list[tuple[int, int]]]:
    """Per kind of full house: (house mask, open places of d) of the houses without a
    placed d."""
    kinds = an.links_memo("full_house_kinds", lambda: [an.houses[h].kind for h in an.full])
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    cw = an.cells_with[d]
    bit = 1 << d
    out: dict[str, list[tuple[int, int]]] = {}
    for h, kind in zip(an.full, kinds):
        pos = an.house_mask[h] & cw
        if pos and not done[h] & bit:
            out.setdefault(kind, []).append((an.house_mask[h], pos))
    return list(out.values())


def house_placed(an: Analysis) -> dict[int, int]:
    """Digit mask of the placed digits of every full house."""
    placed = an.state.placed
    out = {}
    for h in an.full:
        m = 0
        for c in iter_cells(an.house_mask[h] & ~an.unsolved):
            m |= 1 << placed[c]
        out[h] = m
    return out


# -- the digit version ---------------------------------------------------------------------
def _digit_facts(an: Analysis, t: SetTables, eq: Equation
                 ) -> tuple[int, list[tuple[int, int]], list[tuple[int, int]]]:
    """(full houses in A minus those in B, (must, may) of A's other regions, of B's)."""
    regions = t.regions
    full = 0
    plus: list[tuple[int, int]] = []
    minus: list[tuple[int, int]] = []
    for i in eq.plus:
        r = regions[i]
        if r.full:
            full += 1
        else:
            plus.append(region_digits(an, r))
    for i in eq.minus:
        r = regions[i]
        if r.full:
            full -= 1
        else:
            minus.append(region_digits(an, r))
    return full, plus, minus


def _bounds(facts: tuple[int, list[tuple[int, int]], list[tuple[int, int]]], d: int
            ) -> tuple[int, int]:
    """(lo, hi) of (d's in P) - (d's in N): A's regions add what they must / may hold, B's
    take away what they may / must hold."""
    full, plus, minus = facts
    lo = hi = full
    for must, may in plus:
        lo += must >> d & 1
        hi += may >> d & 1
    for must, may in minus:
        lo -= may >> d & 1
        hi -= must >> d & 1
    return lo, hi


def _digit_steps(an: Analysis, t: SetTables, eq: Equation) -> Iterator[Step]:
    P, N = eq.P, eq.N
    unsolved = an.unsolved
    open_p, open_n = P & unsolved, N & unsolved
    if not open_p and not open_n:
        return
    cand, placed = an.cand, an.state.placed
    u_p = u_n = 0
    for c in iter_cells(open_p):
        u_p |= cand[c]
    for c in iter_cells(open_n):
        u_n |= cand[c]
    # placed digits of each side, counted
    n = an.n
    placed_p = [0] * (n + 1)
    placed_n = [0] * (n + 1)
    for c in iter_cells(P & ~unsolved):
        placed_p[placed[c]] += 1
    for c in iter_cells(N & ~unsolved):
        placed_n[placed[c]] += 1
    facts = _digit_facts(an, t, eq)
    elims: set[Candidate] = set()
    why: list[str] = []
    pattern_digits = 0
    peers_d = an.links.peers_d
    for d in range(1, n + 1):
        in_p, in_n = u_p >> d & 1, u_n >> d & 1
        if not in_p and not in_n:
            continue
        cw = an.cells_with[d]
        lo, hi = _bounds(facts, d)
        # (d's in P) - (d's in N) is in [lo, hi]: P holds at most max(N) + hi of them
        for side, other, u_other, fixed_side, fixed_other, delta in (
                (P, N, in_n, placed_p[d], placed_n[d], hi),
                (N, P, in_p, placed_n[d], placed_p[d], -lo)):
            side_open = side & cw
            if not side_open:
                continue
            # the other side holds d at least fixed_other times, one more if it may
            if fixed_other + u_other + delta > fixed_side:
                continue
            max_other = _max_count(an, other, d, fixed_other) if u_other else fixed_other
            cap = max_other + delta
            if cap > fixed_side:
                continue
            elims.update(Candidate(c, d) for c in iter_cells(side_open))
            pattern_digits |= 1 << d
            if max_other == 0 and cap == 0:
                why.append(f"no {digit_symbol(d)} in {_cells_label(an, other)}, so none "
                           f"in {_cells_label(an, side)}")
            else:
                why.append(f"{_cells_label(an, side)} holds {digit_symbol(d)} at most "
                           f"{cap} times ({max_other} in {_cells_label(an, other)}, "
                           f"{delta:+d} from the regions)")
        # a digit one side must hold more often than it is placed there: its open cells
        # with the digit hold it, so cells seeing all of them lose it
        pd = peers_d[d]
        for side, other, fixed_side, fixed_other, delta in (
                (P, N, placed_p[d], placed_n[d], lo),
                (N, P, placed_n[d], placed_p[d], -hi)):
            places = side & cw
            if not places:
                continue
            targets = cw & ~places
            m = places
            while m and targets:
                low = m & -m
                targets &= pd[low.bit_length() - 1]
                m ^= low
            if not targets:
                continue
            if _min_count(an, other, d, fixed_other) + delta - fixed_side < 1:
                continue
            elims.update(Candidate(c, d) for c in iter_cells(targets))
            pattern_digits |= 1 << d
            why.append(f"{_cells_label(an, side)} must hold {digit_symbol(d)}")
    if not elims:
        return
    yield Step(eq_name(eq), eliminations=tuple(sorted(elims)),
               title="Law of Leftovers" if eq.houses_only else "Set Equivalence",
               namer=an.grid.namer, houses=t.names(eq),
               digits=tuple(d for d in range(1, n + 1) if pattern_digits >> d & 1),
               pattern=tuple(Candidate(c, d) for c in iter_cells(open_p | open_n)
                             for d in range(1, n + 1)
                             if pattern_digits >> d & 1 and cand[c] >> d & 1),
               note=f"{eq.label}: {_cells_label(an, P)} and {_cells_label(an, N)} "
                    f"{_relation(eq)}; {'; '.join(why)}")


def eq_name(eq: Equation) -> str:
    return "law_of_leftovers" if eq.houses_only else "set_equivalence"


def _relation(eq: Equation) -> str:
    if eq.houses_only and len(eq.plus) == len(eq.minus):
        return "hold the same digits"
    return "hold the same digits up to the digits of the regions"


def _cells_label(an: Analysis, cells: int) -> str:
    if not cells:
        return "{}"
    return "{" + ",".join(an.name(c) for c in iter_cells(cells)) + "}"


# -- the sum version -----------------------------------------------------------------------
def solve_equation(an: Analysis, plus: list[int], minus: list[int], total: int,
                   limit: int) -> list[int] | None:
    """Supported digits per cell (plus then minus) of sum(plus) - sum(minus) == total with
    cells sharing a house all different. Exact (a search) when the product of the domain
    sizes is at most ``limit``; otherwise a relaxation that keeps every digit of a solution
    (:func:`relaxed_supports`: different digits within groups of cells sharing a house, any
    digits across groups). Cached per puzzle on the cells' candidates."""
    cells = plus + minus
    doms = [an.cand[c] for c in cells]
    key = ("set_eq", tuple(plus), tuple(minus), tuple(doms), total)

    def run() -> list[int] | None:
        signs = [1] * len(plus) + [-1] * len(minus)
        prod = 1
        for m in doms:
            prod *= m.bit_count()
            if prod > limit:
                return relaxed_supports(an, cells, doms, signs, total)
        return _supports(an, cells, doms, signs, total)

    return an.shared_memo(key, run)


#: largest product of domain sizes enumerated for one group of :func:`relaxed_supports`
GROUP_LIMIT = 1000


def relaxed_supports(an: Analysis, cells: list[int], doms: list[int], signs: list[int],
                     total: int) -> list[int]:
    """Supported digits per cell of sum(sign * digit) == total, relaxed: the cells are split
    into groups that share a house (same sign), each group's sums are enumerated exactly
    (different digits), and the groups combine freely. Every digit of a real solution is
    kept, so the eliminations are sound.

    >>> from variants.classic import classic_puzzle
    >>> an = Analysis(classic_puzzle("." * 81).pencilmarks())
    >>> row, col = [0, 1, 2], [30, 39, 48]          # r1c1-r1c3 minus r4c4-r6c4
    >>> sup = relaxed_supports(an, row + col, [an.cand[c] for c in row + col], [1] * 3 + [-1] * 3, 18)
    >>> [[d for d in range(1, 10) if m >> d & 1] for m in sup][0], [[d for d in range(1, 10) if m >> d & 1] for m in sup][3]
    ([7, 8, 9], [1, 2, 3])
    """
    k = len(cells)
    idx_groups = _groups(an, cells, doms, signs)
    # per group: signed sum -> per-position support masks
    tables: list[dict[int, list[int]]] = []
    for g in idx_groups:
        tables.append(_group_sums(an, [cells[i] for i in g], [doms[i] for i in g], signs[g[0]]))
    if any(not t for t in tables):
        return [0] * k
    lows = [min(t) for t in tables]
    bits = []
    for t, lo in zip(tables, lows):
        b = 0
        for v in t:
            b |= 1 << (v - lo)
        bits.append(b)
    # prefix / suffix convolutions (bitsets with offsets)
    m = len(tables)
    pre: list[tuple[int, int]] = [(1, 0)]
    for i in range(m):
        pre.append(_conv(pre[-1], (bits[i], lows[i])))
    suf: list[tuple[int, int]] = [(1, 0)] * (m + 1)
    for i in range(m - 1, -1, -1):
        suf[i] = _conv(suf[i + 1], (bits[i], lows[i]))
    sup = [0] * k
    for i, g in enumerate(idx_groups):
        ob, off = _conv(pre[i], suf[i + 1])
        for v, masks in tables[i].items():
            need = total - v - off
            if need >= 0 and ob >> need & 1:
                for pos, mask in zip(g, masks):
                    sup[pos] |= mask
    return sup


def _conv(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Sum set of two integer sets given as (bitset, offset)."""
    ab, ao = a
    bb, bo = b
    out = 0
    while bb:
        low = bb & -bb
        out |= ab << (low.bit_length() - 1)
        bb ^= low
    return out, ao + bo


def _groups(an: Analysis, cells: list[int], doms: list[int], signs: list[int]
            ) -> list[list[int]]:
    """Positions of ``cells`` split into groups of one sign that share a house (largest
    first), each small enough to enumerate."""
    hm = an.house_mask
    cell_houses = an.links.cell_houses
    out: list[list[int]] = []
    for sign in (1, -1):
        rest = [i for i in range(len(cells)) if signs[i] == sign]
        while rest:
            best: list[int] = [rest[0]]
            for h in cell_houses[cells[rest[0]]]:
                grp = [i for i in rest if hm[h] >> cells[i] & 1]
                if len(grp) > len(best):
                    best = grp
            # keep the group small enough to enumerate
            prod = 1
            cut = []
            for i in best:
                prod *= doms[i].bit_count()
                if prod > GROUP_LIMIT and cut:
                    break
                cut.append(i)
            out.append(cut)
            rest = [i for i in rest if i not in cut]
    return out


def _group_sums(an: Analysis, cells: list[int], doms: list[int], sign: int
                ) -> dict[int, list[int]]:
    """Signed sums of a group of cells that all differ -> supports per cell."""
    def run() -> dict[int, list[int]]:
        k = len(cells)
        last = k - 1
        out: dict[int, list[int]] = {}
        bits = [0] * k          # the digit of each cell so far, as a bit

        def rec(i: int, s: int, used: int) -> None:
            m = doms[i] & ~used
            if i == last:
                # the last cell's digits complete the assignments: no call per assignment
                while m:
                    low = m & -m
                    m ^= low
                    t = s + sign * (low.bit_length() - 1)
                    sup = out.get(t)
                    if sup is None:
                        sup = out[t] = [0] * k
                    for j in range(last):
                        sup[j] |= bits[j]
                    sup[last] |= low
                return
            while m:
                low = m & -m
                bits[i] = low
                rec(i + 1, s + sign * (low.bit_length() - 1), used | low)
                m ^= low

        rec(0, 0, 0)
        return out

    return an.shared_memo(("set_group", tuple(doms), sign), run)


def _supports(an: Analysis, cells: list[int], doms: list[int], signs: list[int],
              total: int) -> list[int]:
    """Exact supports: cells that share a house all different."""
    hp = an.links.house_peers
    differ = [tuple(j for j in range(i) if hp[cells[i]] >> cells[j] & 1)
              for i in range(len(cells))]
    return linear_supports(doms, signs, total, differ)


_TITLES = {"innies": "Innies", "outies": "Outies", "innies_outies": "Innies-Outies",
           "set_sums": "SET Sums"}


def _sum_kind(eq: Equation) -> str:
    if eq.P and eq.N:
        return "innies_outies"
    return "innies" if eq.P else "outies"


def _sum_steps(an: Analysis, opts: dict, kinds: tuple[str, ...], min_cells: int,
               name: str = "") -> Iterator[Step]:
    """Steps of the sum version for equations of ``kinds`` with ``min_cells`` to
    ``opts["max_cells"]`` open cells; ``name``: the technique (default: the kind)."""
    t = set_tables(an)
    max_cells = SUM_SET_OPTIONS.read(opts, "max_cells")
    limit = SUM_SET_OPTIONS.read(opts, "max_combinations")
    w = an.grid.namer
    placed = an.state.placed
    for eq in t.equations:
        if eq.total is None:
            continue
        kind = _sum_kind(eq)
        if kind not in kinds:
            continue
        open_plus = eq.P & an.unsolved
        open_minus = eq.N & an.unsolved
        count = open_plus.bit_count() + open_minus.bit_count()
        if not count or count < min_cells or count > max_cells:
            continue
        total = eq.total
        for c in iter_cells(eq.P & ~an.unsolved):
            total -= placed[c]
        for c in iter_cells(eq.N & ~an.unsolved):
            total += placed[c]
        plus, minus = list(iter_cells(open_plus)), list(iter_cells(open_minus))
        sup = solve_equation(an, plus, minus, total, limit)
        if sup is None or any(s == 0 for s in sup):
            continue   # too big, or no solution: left to the solver's other checks
        cells = plus + minus
        placements = []
        elims = []
        for c, s in zip(cells, sup):
            if s & (s - 1) == 0 and an.cand[c] != s:
                placements.append(Candidate(c, s.bit_length() - 1))
            elif an.cand[c] & ~s:
                elims.extend(Candidate(c, d) for d in digits_of(an.cand[c] & ~s))
        if not placements and not elims:
            continue
        lhs = "+".join(an.name(c) for c in plus)
        if minus:
            lhs = (lhs or "0") + "-" + "-".join(an.name(c) for c in minus)
        if kind == "outies":
            expr = f"{'+'.join(an.name(c) for c in minus)} = {-total}"
        else:
            expr = f"{lhs} = {total}"
        yield Step(name or kind, placements=tuple(placements), eliminations=tuple(elims),
                   title=_TITLES[name or kind], namer=w, houses=t.names(eq),
                   pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                 if an.cand[c] >> d & 1),
                   note=f"{eq.label}: {expr}")


# -- techniques ----------------------------------------------------------------------------
@register("innies", "Innies", FAMILY,
          options=SUM_SET_OPTIONS)
def innies(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET with sums, only A's side left: the cells of A (full houses) not covered by the
    regions inside it add up to A's total minus those regions' sums (rows 1-3: 135 - cages
    = innies)."""
    yield from _sum_steps(an, opts, ("innies",), 1)


@register("outies", "Outies", FAMILY,
          options=SUM_SET_OPTIONS)
def outies(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET with sums, only B's side left: the cells outside A of the regions that cover it
    add up to those regions' sums minus A's total."""
    yield from _sum_steps(an, opts, ("outies",), 1)


@register("innies_outies", "Innies-Outies", FAMILY,
          options=SUM_SET_OPTIONS)
def innies_outies(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET with sums, both sides left: sum(A \\ B) - sum(B \\ A) is fixed (a cage poking out
    counts its outside cells as outies): e.g. r3c4 - r4c4 = 2."""
    yield from _sum_steps(an, opts, ("innies_outies",), 1)


@register("set_sums", "SET Sums", FAMILY,
          options=SET_SUMS_OPTIONS)
def set_sums(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET with sums over many cells (6 to 20 open cells, after the short innies and
    outies): sum(A \\ B) - sum(B \\ A) = sum(A) - sum(B), the cells keeping the digits that
    can still make it (cells sharing a house all different). The break-in of boxless
    killers: rows 1, 6, 7 and the cages they cut minus columns 3, 4, 9 and the cages they
    cut leave the cages' third cells, nine against nine, 54 apart."""
    yield from _sum_steps(an, opts, ("innies", "outies", "innies_outies"),
                          SET_SUMS_OPTIONS.read(opts, "min_cells"), "set_sums")


@register("cage_splitting", "Cage Splitting", FAMILY,
          options=CAGE_SPLITTING_OPTIONS)
def cage_splitting(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET fixes the sum of part of a cage (its innies or outies): the cage splits into two
    parts with known sums, still all different together (10 over four cells whose outie
    pair is 4 = 13: the other pair is 24, not 15)."""
    t = set_tables(an)
    splits = an.links_memo("set_splits", lambda: _splits(t))
    if not splits:
        return
    limit = CAGE_SPLITTING_OPTIONS.read(opts, "max_combinations")
    w = an.grid.namer
    placed = an.state.placed
    for cage, part, part_total, label in splits:
        cells = cage.cells
        doms = [an.cand[c] or (1 << placed[c]) for c in cells]
        prod = 1
        for m in doms:
            prod *= m.bit_count()
        if prod > limit or not any(an.cand[c] for c in cells):
            continue
        sup = an.shared_memo(("split", cells, part, tuple(doms), part_total),
                             lambda: _split_supports(cells, doms, part, part_total, cage.total))
        if any(x == 0 for x in sup):
            continue
        elims = tuple(Candidate(c, d) for c, m, x in zip(cells, doms, sup)
                      for d in range(1, an.n + 1) if an.cand[c] >> d & 1 and not x >> d & 1)
        if elims:
            rest = cage.mask & ~part
            yield Step("cage_splitting", eliminations=elims, title="Cage Splitting", namer=w,
                       houses=(cage.name,),
                       note=f"{label}: {'+'.join(an.name(c) for c in iter_cells(part))} = "
                            f"{part_total}, so {cage.name} "
                            f"({','.join(an.name(c) for c in cells)}) splits into "
                            f"{part_total} + {cage.total - part_total} "
                            f"({'+'.join(an.name(c) for c in iter_cells(rest))})")


def _splits(t: SetTables) -> list[tuple[Region, int, int, str]]:
    """(cage, part, part total, label) from one-sided sum equations whose cells are a
    proper part of one cage."""
    out = []
    cages = [r for r in t.regions if r.kind == "cage" and r.total is not None]
    for eq in t.equations:
        if eq.total is None or (eq.P and eq.N):
            continue
        part, total = (eq.P, eq.total) if eq.P else (eq.N, -eq.total)
        for cage in cages:
            if part & cage.mask == part and part != cage.mask:
                out.append((cage, part, total, eq.label))
                break
    return out


def _split_supports(cells, doms, part: int, part_total: int, total: int) -> list[int]:
    """Supported digits per cell: all different, the cells of ``part`` add up to
    ``part_total`` and all of them to ``total``."""
    k = len(cells)
    in_part = [bool(part >> c & 1) for c in cells]
    order = sorted(range(k), key=lambda i: doms[i].bit_count())
    sup = [0] * k
    vals = [0] * k

    def rec(j: int, used: int, s_all: int, s_part: int) -> None:
        if j == k:
            if s_all == total and s_part == part_total:
                for i in range(k):
                    sup[i] |= 1 << vals[i]
            return
        i = order[j]
        m = doms[i] & ~used
        while m:
            low = m & -m
            d = low.bit_length() - 1
            m ^= low
            if s_all + d > total or (in_part[i] and s_part + d > part_total):
                continue
            vals[i] = d
            rec(j + 1, used | low, s_all + d, s_part + d if in_part[i] else s_part)

    rec(0, 0, 0, 0)
    return sup


@register("law_of_leftovers", "Law of Leftovers", FAMILY)
def law_of_leftovers(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET with full houses only: k rows (columns) and k jigsaw regions hold every digit k
    times each, so the cells of the rows outside the regions and the cells of the regions
    outside the rows hold the same digits: a digit that cannot be on one side cannot be on
    the other, and a digit that must be on one side must be on the other."""
    t = set_tables(an)
    for eq in t.equations:
        if eq.digits and eq.houses_only:
            yield from _digit_steps(an, t, eq)


@register("set_equivalence", "Set Equivalence", FAMILY,
          options=SET_EQUIVALENCE_OPTIONS)
def set_equivalence(an: Analysis, opts: dict) -> Iterator[Step]:
    """SET with cages: the digits of A \\ B and B \\ A differ by the digits the regions of
    A and B hold (a cage with the digits of its fitting combinations), so a digit that
    neither side's cells can take more often than the other side allows leaves them."""
    t = set_tables(an)
    limit = SET_EQUIVALENCE_OPTIONS.read(opts, "max_cells")
    unsolved = an.unsolved
    for eq in t.equations:
        if eq.digits and not eq.houses_only and \
                ((eq.P | eq.N) & unsolved).bit_count() <= limit:
            yield from _digit_steps(an, t, eq)
