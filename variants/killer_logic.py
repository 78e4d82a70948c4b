"""Named killer techniques and the law of leftovers, generic over the puzzle's own cages
(``Sum`` constraints with distinct digits) and full houses.

- ``killer_combinations``: a cage keeps only the digits of the digit combinations that still
  fit its cells (each cell needs a digit of the combination, the placed digits are in it, and
  the open cells can take the rest all different).
- ``mandatory_inclusion``: a digit in every fitting combination must be in the cage; like a
  house digit it is removed from the cells that see all of the cage's cells holding it.
- ``cage_house_overlap``: a digit that a house can only place inside a cage is in the cage;
  the combinations without it go.
- ``innies`` / ``outies`` / ``innies_outies``: the 45 rule. A union of k disjoint full houses
  adds up to k * n(n+1)/2; take away the cages inside it (innies: the cells left over), or
  add the cages that poke out of it (outies: the cells outside), or mix both (innie - outie
  difference). The cells of the equation keep the digits that can satisfy it.
- ``cage_splitting``: when the 45 rule fixes the sum of a proper part of one cage, the cage
  splits into two parts with known sums that are still all different together.
- ``law_of_leftovers``: k rows (columns) and k regions of a jigsaw: the cells of the rows
  outside the regions hold the same digits as the cells of the regions outside the rows.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.killer import killer_cage
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), killer_cage(["r1c1", "r1c2"], 4))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "killer_combinations")]
['Killer Combinations: cage 4 at r1c1 (r1c1,r1c2): 13 => r1c1<>2456789, r1c2<>2456789']
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator, Sequence

from csp.bits import digits_of
from csp.constraints.sums import Sum, sum_combinations
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis, iter_cells
from techniques.registry import register

FAMILY = "killer"


# -- static tables -----------------------------------------------------------------------
class Cage:
    __slots__ = ("cells", "mask", "total", "name")

    def __init__(self, cells: Sequence[int], total: int, name: str) -> None:
        self.cells = tuple(cells)
        self.mask = sum(1 << c for c in self.cells)
        self.total = total
        self.name = name


class Equation:
    """sum(plus cells) - sum(minus cells) == total, from ``label``."""

    __slots__ = ("kind", "plus", "minus", "total", "label")

    def __init__(self, kind: str, plus: int, minus: int, total: int, label: str) -> None:
        self.kind, self.plus, self.minus, self.total, self.label = kind, plus, minus, total, label


class KillerTables:
    """Per-puzzle: the cages (non-overlapping distinct-digit sums), unions of full houses
    with their innie/outie equations, and the jigsaw leftover pairs."""

    def __init__(self, puzzle) -> None:
        g = puzzle.grid
        n = self.n = g.n
        self.cages: list[Cage] = []
        used = 0
        sums = [c for c in puzzle.constraints if isinstance(c, Sum) and c.distinct]
        for c in sorted(sums, key=lambda c: -len(c.cells)):
            m = sum(1 << x for x in c.cells)
            if m & used:
                continue
            used |= m
            self.cages.append(Cage(c.cells, c.total, c.name))
        self.cages.sort(key=lambda c: min(c.cells))
        houses = [h for h in puzzle.houses() if len(h.cells) == n]
        self.equations: list[Equation] = []
        if self.cages:
            self.equations = self._equations(self._unions(g, houses))
        self.leftovers = self._leftovers(g, houses)
        #: cage splits: (cage, part, part total, label) from one-sided equations whose cells
        #: are a proper part of one cage
        self.splits: list[tuple[Cage, int, int, str]] = []
        for eq in self.equations:
            if eq.plus and eq.minus:
                continue
            part, t = (eq.plus, eq.total) if eq.plus else (eq.minus, -eq.total)
            for cage in self.cages:
                if part & cage.mask == part and part != cage.mask:
                    self.splits.append((cage, part, t, eq.label))
                    break
        #: equation results by (plus, minus, candidate masks, total)
        self.memo: dict = {}

    def remember(self, key, value) -> None:
        if len(self.memo) > 100_000:
            self.memo.clear()
        self.memo[key] = value

    # unions of disjoint full houses: (mask, k, label)
    def _unions(self, g, houses) -> list[tuple[int, int, str]]:
        out: dict[int, tuple[int, int, str]] = {}

        def add(mask: int, k: int, label: str) -> None:
            if mask not in out:
                out[mask] = (mask, k, label)

        for h in houses:
            add(h.mask, 1, h.name)
        for kind, word in (("row", "rows"), ("col", "cols")):
            lines = sorted((h for h in houses if h.kind == kind), key=lambda h: min(h.cells))
            idx = {g.row(min(h.cells)) if kind == "row" else g.col(min(h.cells)): h
                   for h in lines}
            for k in range(2, g.n):
                for start in range(0, g.n - k + 1):
                    if all(i in idx for i in range(start, start + k)):
                        m = 0
                        for i in range(start, start + k):
                            if m & idx[i].mask:   # overlapping lines (multi-grids)
                                break
                            m |= idx[i].mask
                        else:
                            add(m, k, f"{word} {start + 1}-{start + k}")
        regions = [h for h in houses if h.kind in ("box", "region")]
        for a, b in combinations(regions, 2):
            if a.mask & b.mask:
                continue
            if any(o in b.cells for c in a.cells for o in g.orthogonal(c)):
                add(a.mask | b.mask, 2, f"{a.name} + {b.name}")
        return list(out.values())

    def _equations(self, unions) -> list[Equation]:
        n = self.n
        out: dict[tuple[int, int], Equation] = {}
        for mask, k, label in unions:
            total = k * n * (n + 1) // 2
            inside = [c for c in self.cages if not c.mask & ~mask]
            crossing = [c for c in self.cages if c.mask & mask and c.mask & ~mask]
            in_mask = 0
            in_sum = 0
            for c in inside:
                in_mask |= c.mask
                in_sum += c.total
            innies = mask & ~in_mask
            cand: list[tuple[str, int, int, int]] = []
            if inside:
                cand.append(("innies", innies, 0, total - in_sum))
            if crossing:
                all_mask, all_sum = in_mask, in_sum
                for c in crossing:
                    all_mask |= c.mask
                    all_sum += c.total
                cand.append(("outies" if not mask & ~all_mask else "innies_outies",
                             mask & ~all_mask, all_mask & ~mask, total - all_sum))
                # mixed: each crossing cage on its smaller side
                m_mask, m_sum = in_mask, in_sum
                for c in crossing:
                    if (c.mask & ~mask).bit_count() < (c.mask & mask).bit_count():
                        m_mask |= c.mask
                        m_sum += c.total
                cand.append(("innies_outies", mask & ~m_mask, m_mask & ~mask, total - m_sum))
            for kind, plus, minus, t in cand:
                if not plus and not minus:
                    continue
                if kind == "innies_outies" and not (plus and minus):
                    kind = "innies" if plus else "outies"
                if plus.bit_count() + minus.bit_count() > n:
                    continue
                # sum(plus) - sum(minus) == t  (outies: sum(minus) == -t)
                key = (plus, minus)
                if key not in out:
                    out[key] = Equation(kind, plus, minus, t, label)
        return list(out.values())

    def _leftovers(self, g, houses) -> list[tuple[int, int, str]]:
        regions = [h for h in houses if h.kind == "region"]
        if not regions:
            return []
        out: dict[tuple[int, int], tuple[int, int, str]] = {}
        for kind, word in (("row", "rows"), ("col", "cols")):
            idx = {}
            for h in houses:
                if h.kind == kind:
                    idx[g.row(min(h.cells)) if kind == "row" else g.col(min(h.cells))] = h
            for k in range(1, g.n):
                for start in range(0, g.n - k + 1):
                    if not all(i in idx for i in range(start, start + k)):
                        continue
                    a = 0
                    for i in range(start, start + k):
                        a |= idx[i].mask
                    ranked = sorted(regions, key=lambda r: -(r.mask & a).bit_count())
                    b = 0
                    names = []
                    for r in ranked:
                        if len(names) == k:
                            break
                        if not r.mask & b:
                            b |= r.mask
                            names.append(r.name)
                    if len(names) < k:
                        continue
                    l1, l2 = a & ~b, b & ~a
                    if l1 and (l1, l2) not in out:
                        label = (f"{word} {start + 1}-{start + k}" if k > 1 else
                                 f"{word[:-1]} {start + 1}") + " / " + ", ".join(names)
                        out[(l1, l2)] = (l1, l2, label)
        return sorted(out.values(), key=lambda x: x[0].bit_count())


def killer_tables(puzzle) -> KillerTables:
    """The :class:`KillerTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(KillerTables)


# -- helpers -----------------------------------------------------------------------------
def _ds(mask: int) -> str:
    return "".join(digit_symbol(d) for d in digits_of(mask))


def _names(an: Analysis, bits: int, sep: str = ",") -> str:
    return sep.join(an.name(c) for c in iter_cells(bits))


def _matchable(doms: list[int], digits: int) -> bool:
    """Can the cells (candidate masks ``doms``) take distinct digits covering ``digits``
    exactly (len(doms) == popcount(digits))?"""
    doms = sorted((m & digits for m in doms), key=int.bit_count)

    def rec(i: int, free: int) -> bool:
        if i == len(doms):
            return True
        m = doms[i] & free
        while m:
            low = m & -m
            if rec(i + 1, free & ~low):
                return True
            m ^= low
        return False

    return rec(0, digits)


def cage_combinations(an: Analysis, cage: Cage) -> list[int]:
    """The digit combinations (masks) that still fit the cage in this state."""
    placed_mask = 0
    open_doms = []
    st = an.state
    for c in cage.cells:
        if st.placed[c]:
            placed_mask |= 1 << st.placed[c]
        else:
            open_doms.append(an.cand[c])
    union = 0
    for m in open_doms:
        union |= m
    out = []
    for combo in sum_combinations(an.n, len(cage.cells), cage.total):
        if combo & placed_mask != placed_mask:
            continue
        rest = combo & ~placed_mask
        if rest & ~union:
            continue
        if any(not m & rest for m in open_doms):
            continue
        if _matchable(open_doms, rest):
            out.append(combo)
    return out


def _cage_info(an: Analysis) -> list[tuple[Cage, list[int]]]:
    def build():
        t = killer_tables(an.puzzle)
        return [(c, cage_combinations(an, c)) for c in t.cages]
    return an.memo("killer_cage_combos", build)


def _cage_label(an: Analysis, cage: Cage) -> str:
    return f"{cage.name} ({_names(an, cage.mask)})"


# -- techniques --------------------------------------------------------------------------
@register("killer_combinations", "Killer Combinations", FAMILY)
def killer_combinations(an: Analysis, opts: dict) -> Iterator[Step]:
    """Digits of no fitting combination leave the cage."""
    w = an.grid.namer
    for cage, combos in _cage_info(an):
        if not combos:
            continue
        union = 0
        for m in combos:
            union |= m
        elims = tuple(Candidate(c, d) for c in cage.cells
                      for d in digits_of(an.cand[c] & ~union))
        if elims:
            yield Step("killer_combinations", eliminations=elims, title="Killer Combinations",
                       houses=(cage.name,), width=w,
                       note=f"{_cage_label(an, cage)}: {'/'.join(_ds(m) for m in combos)}")


@register("mandatory_inclusion", "Mandatory Inclusion", FAMILY)
def mandatory_inclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit of every fitting combination is in the cage: cells seeing all of the cage's
    cells with that digit lose it (pointing with a cage as the house)."""
    w = an.grid.namer
    for cage, combos in _cage_info(an):
        if not combos:
            continue
        must = -1
        for m in combos:
            must &= m
        for c in cage.cells:
            if an.state.placed[c]:
                must &= ~(1 << an.state.placed[c])
        for d in range(1, an.n + 1):
            if not must >> d & 1:
                continue
            s = cage.mask & an.cells_with[d]
            if not s:
                continue
            targets = an.common_peers(d, s) & an.cells_with[d] & ~cage.mask
            if targets:
                yield Step("mandatory_inclusion", digits=(d,), houses=(cage.name,), width=w,
                           title="Mandatory Inclusion",
                           eliminations=tuple(Candidate(c, d) for c in iter_cells(targets)),
                           pattern=tuple(Candidate(c, d) for c in iter_cells(s)),
                           note=f"{digit_symbol(d)} in every combination of "
                                f"{_cage_label(an, cage)} ({'/'.join(_ds(m) for m in combos)}), "
                                f"only in {_names(an, s)}")


@register("cage_house_overlap", "Cage-House Overlap", FAMILY)
def cage_house_overlap(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit that a full house can only place inside a cage is in the cage: combinations
    without it go, and the cage loses the digits of no remaining combination."""
    w = an.grid.namer
    for cage, combos in _cage_info(an):
        if len(combos) < 2:
            continue
        forced = 0
        why = []
        for h in an.full:
            hm = an.house_mask[h]
            if hm == cage.mask or not hm & cage.mask:
                continue
            done = 0
            for c in iter_cells(hm & ~an.unsolved):
                done |= 1 << an.state.placed[c]
            for d in range(1, an.n + 1):
                if (forced | done) >> d & 1:
                    continue
                pos = hm & an.cells_with[d]
                if pos and not pos & ~cage.mask:
                    forced |= 1 << d
                    why.append(f"{digit_symbol(d)} of {an.houses[h].name} only in "
                               f"{_names(an, pos)}")
        if not forced:
            continue
        keep = [m for m in combos if m & forced == forced]
        if not keep or len(keep) == len(combos):
            continue
        union = 0
        for m in keep:
            union |= m
        elims = tuple(Candidate(c, d) for c in cage.cells
                      for d in digits_of(an.cand[c] & ~union))
        if elims:
            yield Step("cage_house_overlap", eliminations=elims, title="Cage-House Overlap",
                       houses=(cage.name,), width=w,
                       digits=digits_of(forced),
                       note=f"{'; '.join(why)}: {_cage_label(an, cage)} is "
                            f"{'/'.join(_ds(m) for m in keep)}")


def _solve_equation(an: Analysis, plus: list[int], minus: list[int], total: int,
                    limit: int) -> list[int] | None:
    """Supported digits per cell (plus then minus) of sum(plus) - sum(minus) == total with
    cells sharing a house all different; None when the search is too big. Results are
    cached per puzzle on the cells' candidates."""
    cells = plus + minus
    doms = [an.cand[c] for c in cells]
    tables = killer_tables(an.puzzle)
    key = (tuple(plus), tuple(minus), tuple(doms), total)
    hit = tables.memo.get(key)
    if hit is not None:
        return hit or None
    prod = 1
    for m in doms:
        prod *= m.bit_count()
    if prod > limit:
        tables.remember(key, [])
        return None
    signs = [1] * len(plus) + [-1] * len(minus)
    k = len(cells)
    lists = [digits_of(m) for m in doms]
    lo = [min(s * d for d in l) if l else 0 for s, l in zip(signs, lists)]
    hi = [max(s * d for d in l) if l else 0 for s, l in zip(signs, lists)]
    rest_lo = [0] * (k + 1)
    rest_hi = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        rest_lo[i] = rest_lo[i + 1] + lo[i]
        rest_hi[i] = rest_hi[i + 1] + hi[i]
    hp = an.links.house_peers
    differ = [tuple(j for j in range(i) if hp[cells[i]] >> cells[j] & 1) for i in range(k)]
    sup = [0] * k
    vals = [0] * k

    def rec(i: int, s: int) -> None:
        if i == k:
            if s == total:
                for j in range(k):
                    sup[j] |= 1 << vals[j]
            return
        forbidden = 0
        for j in differ[i]:
            forbidden |= 1 << vals[j]
        sign = signs[i]
        lo_i, hi_i = total - rest_hi[i + 1], total - rest_lo[i + 1]
        for d in lists[i]:
            if forbidden >> d & 1:
                continue
            t = s + sign * d
            if lo_i <= t <= hi_i:
                vals[i] = d
                rec(i + 1, t)

    rec(0, 0)
    tables.remember(key, sup)
    return sup


_TITLES = {"innies": "Innies", "outies": "Outies", "innies_outies": "Innies-Outies"}


def _equation_steps(an: Analysis, opts: dict, kind: str) -> Iterator[Step]:
    t = killer_tables(an.puzzle)
    if not t.equations:
        return
    max_cells = opts.get("max_cells", 4)
    limit = opts.get("max_combinations", 20000)
    w = an.grid.namer
    placed = an.state.placed
    for eq in t.equations:
        if eq.kind != kind:
            continue
        open_plus = eq.plus & an.unsolved
        open_minus = eq.minus & an.unsolved
        count = open_plus.bit_count() + open_minus.bit_count()
        if not count or count > max_cells:
            continue
        total = eq.total
        for c in iter_cells(eq.plus & ~an.unsolved):
            total -= placed[c]
        for c in iter_cells(eq.minus & ~an.unsolved):
            total += placed[c]
        plus, minus = list(iter_cells(open_plus)), list(iter_cells(open_minus))
        sup = _solve_equation(an, plus, minus, total, limit)
        if sup is None:
            continue
        cells = plus + minus
        if any(s == 0 for s in sup):
            continue   # no solution: left to the solver's other checks
        placements = []
        elims = []
        for c, s in zip(cells, sup):
            if s & (s - 1) == 0 and an.cand[c] != s:
                placements.append(Candidate(c, s.bit_length() - 1))
            else:
                elims.extend(Candidate(c, d) for d in range(1, an.n + 1)
                             if an.cand[c] >> d & 1 and not s >> d & 1)
        if not placements and not elims:
            continue
        lhs = "+".join(an.name(c) for c in plus)
        if minus:
            lhs = (lhs or "0") + "-" + "-".join(an.name(c) for c in minus)
        if kind == "outies":
            expr = f"{'+'.join(an.name(c) for c in minus)} = {-total}"
        else:
            expr = f"{lhs} = {total}"
        yield Step(kind, placements=tuple(placements), eliminations=tuple(elims),
                   title=_TITLES[kind], width=w, houses=(eq.label,),
                   pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                 if an.cand[c] >> d & 1),
                   note=f"{eq.label}: {expr}")


@register("innies", "Innies", FAMILY,
          options={"max_cells": 4, "max_combinations": 20000})
def innies(an: Analysis, opts: dict) -> Iterator[Step]:
    """The cells of a union of full houses not covered by the cages inside it add up to the
    houses' total minus those cages' sums (rows 1-3: 135 - cages = innies)."""
    yield from _equation_steps(an, opts, "innies")


@register("outies", "Outies", FAMILY,
          options={"max_cells": 4, "max_combinations": 20000})
def outies(an: Analysis, opts: dict) -> Iterator[Step]:
    """The cells outside a union of full houses belonging to the cages that cover it add up
    to those cages' sums minus the houses' total."""
    yield from _equation_steps(an, opts, "outies")


@register("innies_outies", "Innies-Outies", FAMILY,
          options={"max_cells": 4, "max_combinations": 20000})
def innies_outies(an: Analysis, opts: dict) -> Iterator[Step]:
    """Innies minus outies of a union of full houses is fixed (a cage poking out counts
    its outside cells as outies): e.g. r3c4 - r4c4 = 2."""
    yield from _equation_steps(an, opts, "innies_outies")


@register("cage_splitting", "Cage Splitting", FAMILY,
          options={"max_combinations": 20000})
def cage_splitting(an: Analysis, opts: dict) -> Iterator[Step]:
    """The 45 rule fixes the sum of part of a cage (its innies or outies): the cage splits
    into two parts with known sums, still all different together (10 over four cells whose
    outie pair is 4 = 13: the other pair is 24, not 15)."""
    t = killer_tables(an.puzzle)
    if not t.splits:
        return
    limit = opts.get("max_combinations", 20000)
    w = an.grid.namer
    placed = an.state.placed
    for cage, part, part_total, label in t.splits:
        cells = cage.cells
        doms = [an.cand[c] or (1 << placed[c]) for c in cells]
        prod = 1
        for m in doms:
            prod *= m.bit_count()
        if prod > limit or not any(an.cand[c] for c in cells):
            continue
        key = ("split", cells, part, tuple(doms), part_total)
        sup = t.memo.get(key)
        if sup is None:
            sup = _split_supports(cells, doms, part, part_total, cage.total)
            t.remember(key, sup)
        if any(x == 0 for x in sup):
            continue
        elims = tuple(Candidate(c, d) for c, x in zip(cells, sup)
                      for d in digits_of(an.cand[c] & ~x))
        if elims:
            rest = cage.mask & ~part
            yield Step("cage_splitting", eliminations=elims, title="Cage Splitting", width=w,
                       houses=(cage.name, label),
                       note=f"{label}: {_names(an, part, '+')} = {part_total}, so "
                            f"{_cage_label(an, cage)} splits into {part_total} + "
                            f"{cage.total - part_total} ({_names(an, rest, '+')})")


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


@register("law_of_leftovers", "Law of Leftovers", "jigsaw", options={"max_cells": 5})
def law_of_leftovers(an: Analysis, opts: dict) -> Iterator[Step]:
    """k rows (columns) and k jigsaw regions hold every digit k times each, so the cells of
    the rows outside the regions and the cells of the regions outside the rows hold the same
    digits: a digit that cannot be on one side cannot be on the other."""
    t = killer_tables(an.puzzle)
    if not t.leftovers:
        return
    max_cells = opts.get("max_cells", 5)
    w = an.grid.namer
    placed = an.state.placed
    for l1, l2, label in t.leftovers:
        if l1.bit_count() > max_cells:
            continue
        sides = []
        for side in (l1, l2):
            m = 0
            for c in iter_cells(side):
                m |= an.cand[c] if an.cand[c] else 1 << placed[c]
            sides.append(m)
        elims = []
        for side, other in ((l1, sides[1]), (l2, sides[0])):
            for c in iter_cells(side & an.unsolved):
                bad = an.cand[c] & ~other
                elims.extend(Candidate(c, d) for d in digits_of(bad))
        if elims:
            yield Step("law_of_leftovers", eliminations=tuple(elims), title="Law of Leftovers",
                       width=w, houses=(label,),
                       note=f"{label}: {_names(an, l1)} = {_names(an, l2)} as digit sets "
                            f"({_ds(sides[0])} / {_ds(sides[1])})")
