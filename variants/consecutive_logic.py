"""Named techniques of the consecutive family (white dots, non-consecutive, the negative
white-dot rule, knight / diagonal non-consecutive ...).

Every technique reads the puzzle's own difference relations (``AbsDiff(d)``: the two cells
differ by exactly ``d``, a white Kropki dot when d = 1; ``NotAbsDiff(d)``: they never differ
by ``d``, non-consecutive when d = 1), so it works for any difference and any geometry.
"Adjacent" below means joined by such a relation; a *buddy* is a cell that sees the other
one for the digit in question (same house, or any other weak link).

- ``consecutive_pair_cell``: a cell {X, X+d} removes X and X+d from adjacent buddies.
- ``consecutive_gap_cell``: a cell {X-d, X+d} removes X from every adjacent cell.
- ``consecutive_triple_cell``: a cell {X-d, X, X+d} removes X from adjacent buddies.
- ``consecutive_neighbours``: across a white dot, a cell keeps only the digits that differ
  by d from a candidate of the other cell.
- ``consecutive_locked_pair`` / ``_locked_triple`` / ``_locked_nearby`` /
  ``_check_pattern``: digit X of a house (or a mandatory digit of a killer cage) is locked
  in 2-3 cells; X-d and X+d go from every
  cell that is one of them or adjacent to each of them (the locked cells themselves when
  they are adjacent, the cell between two cells one apart, the cells touching both corners
  of a diagonal pair, the middle of three, the cell in the middle of a V-shaped check
  pattern).
- ``consecutive_chain``: in a chain a-b-c of two white dots where a and c must differ, b
  cannot take a digit v that leaves a and c only one common digit (1 and n when d = 1).

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.dots import non_consecutive
>>> from techniques import StepSolver
>>> p = Puzzle(4).use(classic(), non_consecutive())
>>> st = p.initial_state()
>>> st.cand[5] = 0b11000   # r2c2 = {3, 4}
>>> [s.explain(2) for s in StepSolver().find_all(st, "consecutive_pair_cell")][:1]
['Consecutive Pair Cell: 3/4 r2c2, adjacent buddies r1c2,r2c1,r2c3,r3c2 => r1c2<>34, r2c1<>34, r2c3<>34, r3c2<>34']
"""
from __future__ import annotations

from typing import Iterator

from csp.constraints.binary import Relation, RelationKind
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis, iter_cells
from techniques.registry import register

FAMILY = "consecutive"


class DiffTables:
    """Adjacency of a puzzle's difference relations: ``neg[d][c]`` / ``pos[d][c]`` are cell
    bitsets of the cells joined to ``c`` by ``NotAbsDiff(d)`` / ``AbsDiff(d)``; ``names``
    maps a cell pair to the relation's name."""

    def __init__(self, puzzle) -> None:
        size = puzzle.grid.size
        self.neg: dict[int, list[int]] = {}
        self.pos: dict[int, list[int]] = {}
        self.names: dict[tuple[int, int], str] = {}
        for c in puzzle.constraints:
            if not isinstance(c, Relation):
                continue
            if c.relation is RelationKind.NOT_ABS_DIFF:
                table = self.neg
            elif c.relation is RelationKind.ABS_DIFF:
                table = self.pos
            else:
                continue
            d = c.param
            adj = table.setdefault(d, [0] * size)
            adj[c.a] |= 1 << c.b
            adj[c.b] |= 1 << c.a
            self.names[(min(c.a, c.b), max(c.a, c.b))] = c.name

    def __bool__(self) -> bool:
        return bool(self.neg or self.pos)


def diff_tables(puzzle) -> DiffTables:
    """Cached :class:`DiffTables` of a puzzle."""
    return puzzle.derived(DiffTables)


def _ds(*digits: int) -> str:
    return "/".join(digit_symbol(d) for d in sorted(set(digits)))


def _cells(an: Analysis, bits: int) -> str:
    return ",".join(an.name(c) for c in iter_cells(bits))


def _rule(d: int) -> str:
    return "" if d == 1 else f" (difference {d})"


def _value_mask(an: Analysis, c: int) -> int:
    """Candidates of c, or the placed digit's bit."""
    return an.cand[c] or (1 << an.state.placed[c] if an.state.placed[c] else 0)


def _cell_steps(an: Analysis, name: str, title: str, shape, buddies_only: bool) -> Iterator[Step]:
    """Cells whose candidates are exactly ``shape(X, d)``; eliminate X-targets from adjacent
    cells (buddies for the digit when ``buddies_only``)."""
    t = diff_tables(an.puzzle)
    if not t.neg:
        return
    n, w = an.n, an.grid.namer
    for d, adj in t.neg.items():
        for a in iter_cells(an.unsolved):
            m = an.cand[a]
            hit = shape(m, d, n)
            if hit is None:
                continue
            remove_digits = hit
            elims = []
            targets = 0
            for x in remove_digits:
                cells = adj[a] & an.cells_with[x]
                if buddies_only:
                    cells &= an.peers(a, x)
                for b in iter_cells(cells):
                    elims.append(Candidate(b, x))
                    targets |= 1 << b
            if not elims:
                continue
            elims.sort()
            digits = tuple(d2 for d2 in range(1, n + 1) if m >> d2 & 1)
            kind = "adjacent buddies" if buddies_only else "adjacent cells"
            yield Step(name, eliminations=tuple(elims), title=title, digits=digits,
                       pattern=tuple(Candidate(a, x) for x in digits), namer=w,
                       note=f"{_ds(*digits)} {an.name(a)}{_rule(d)}, {kind} "
                            f"{_cells(an, targets)}")


def _shape_pair(m: int, d: int, n: int):
    if m.bit_count() != 2:
        return None
    lo = (m & -m).bit_length() - 1
    hi = m.bit_length() - 1
    return (lo, hi) if hi - lo == d else None


def _shape_gap(m: int, d: int, n: int):
    if m.bit_count() != 2:
        return None
    lo = (m & -m).bit_length() - 1
    hi = m.bit_length() - 1
    return (lo + d,) if hi - lo == 2 * d else None


def _shape_triple(m: int, d: int, n: int):
    if m.bit_count() != 3:
        return None
    lo = (m & -m).bit_length() - 1
    hi = m.bit_length() - 1
    mid = lo + d
    return (mid,) if hi - lo == 2 * d and m >> mid & 1 else None


@register("consecutive_pair_cell", "Consecutive Pair Cell", FAMILY)
def consecutive_pair_cell(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell {X, X+1} next to a non-consecutive buddy: the buddy can be neither X nor X+1
    (one is taken by the house, the other by the rule)."""
    yield from _cell_steps(an, "consecutive_pair_cell", "Consecutive Pair Cell", _shape_pair,
                           True)


@register("consecutive_gap_cell", "Consecutive Gap Cell", FAMILY)
def consecutive_gap_cell(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell {X-1, X+1}: every non-consecutive neighbour loses X (both digits touch X)."""
    yield from _cell_steps(an, "consecutive_gap_cell", "Consecutive Gap Cell", _shape_gap,
                           False)


@register("consecutive_triple_cell", "Consecutive Triple Cell", FAMILY)
def consecutive_triple_cell(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell {X-1, X, X+1}: non-consecutive buddies lose X."""
    yield from _cell_steps(an, "consecutive_triple_cell", "Consecutive Triple Cell",
                           _shape_triple, True)


@register("consecutive_neighbours", "Consecutive Neighbours", FAMILY)
def consecutive_neighbours(an: Analysis, opts: dict) -> Iterator[Step]:
    """Across a white dot (difference d) a cell keeps only the digits d away from a
    candidate of the other cell: {4,5} -> {3,5} | {4,6} = {3,4,5,6}."""
    t = diff_tables(an.puzzle)
    if not t.pos:
        return
    full, w = an.grid.all_mask, an.grid.namer
    for d, adj in t.pos.items():
        for b in iter_cells(an.unsolved):
            for a in iter_cells(adj[b]):
                ma = _value_mask(an, a)
                allowed = ((ma << d) | (ma >> d)) & full
                bad = an.cand[b] & ~allowed
                if not bad:
                    continue
                elims = tuple(Candidate(b, x) for x in range(1, an.n + 1) if bad >> x & 1)
                da = tuple(x for x in range(1, an.n + 1) if ma >> x & 1)
                name = t.names.get((min(a, b), max(a, b)), "white dot")
                yield Step("consecutive_neighbours", eliminations=elims,
                           title="Consecutive Neighbours", digits=da, namer=w, houses=(name,),
                           pattern=tuple(Candidate(a, x) for x in da),
                           note=f"{_ds(*da)} {an.name(a)} ({name}{_rule(d)}): "
                                f"{an.name(b)} in {_ds(*(x for x in range(1, an.n + 1) if allowed >> x & 1))}")


_LOCKED = {
    # (locked cells, target is one of them) -> technique
    (2, True): ("consecutive_locked_pair", "Consecutive Locked Pair"),
    (2, False): ("consecutive_locked_nearby", "Consecutive Locked Nearby"),
    (3, True): ("consecutive_locked_triple", "Consecutive Locked Triple"),
    (3, False): ("consecutive_check_pattern", "Consecutive Check Pattern"),
}


def _must_contain(an: Analysis) -> list[tuple[str, int, int]]:
    """(name, cells, digits) of groups that must contain those digits: every full house
    with all digits, and killer cages with the digits of all their fitting combinations
    (mandatory inclusions)."""
    placed = an.state.placed

    def placed_in(mask: int) -> int:
        out = 0
        for c in iter_cells(mask & ~an.unsolved):
            out |= 1 << placed[c]
        return out

    def build():
        full = an.grid.all_mask
        out = [(an.houses[h].name, an.house_mask[h], full & ~placed_in(an.house_mask[h]))
               for h in an.full]
        from .killer_logic import _cage_info
        for cage, combos in _cage_info(an):
            if not combos or len(cage.cells) == an.n:
                continue
            must = -1
            for m in combos:
                must &= m
            must &= ~placed_in(cage.mask)
            if must:
                out.append((cage.name, cage.mask, must))
        return out
    return an.memo("consecutive_must_contain", build)


def _locked_steps(an: Analysis, size: int, inside: bool) -> Iterator[Step]:
    t = diff_tables(an.puzzle)
    if not t.neg:
        return
    name, title = _LOCKED[(size, inside)]
    n, w = an.n, an.grid.namer
    seen: set = set()
    for hname, hm, must in _must_contain(an):
        for x in range(1, n + 1):
            if not must >> x & 1:
                continue
            s = hm & an.cells_with[x]
            if s.bit_count() != size:
                continue
            for d, adj in t.neg.items():
                common = -1
                for c in iter_cells(s):
                    common &= adj[c] | (1 << c)
                common &= an.unsolved
                common = common & s if inside else common & ~s
                if not common:
                    continue
                key = (s, x, d)
                if key in seen:
                    continue
                seen.add(key)
                elims = []
                for y in (x - d, x + d):
                    if 1 <= y <= n:
                        elims.extend(Candidate(c, y) for c in iter_cells(common & an.cells_with[y]))
                if not elims:
                    continue
                elims.sort()
                if not inside:
                    where = f"{_cells(an, common)} adjacent to all"
                elif size == 2:
                    where = "adjacent to each other"
                else:
                    where = f"{_cells(an, common)} adjacent to the other two"
                yield Step(name, eliminations=tuple(elims), title=title, digits=(x,), namer=w,
                           houses=(hname,),
                           pattern=tuple(Candidate(c, x) for c in iter_cells(s)),
                           note=f"{digit_symbol(x)} of {hname} locked in "
                                f"{_cells(an, s)}{_rule(d)}, {where}")


@register("consecutive_locked_pair", "Consecutive Locked Pair", FAMILY)
def consecutive_locked_pair(an: Analysis, opts: dict) -> Iterator[Step]:
    """X of a house only in two non-consecutive neighbours: one of them is X, so neither can
    be X-1 or X+1 (5 of r5 in r5c45 -> r5c45<>46)."""
    yield from _locked_steps(an, 2, True)


@register("consecutive_locked_nearby", "Consecutive Locked Nearby", FAMILY)
def consecutive_locked_nearby(an: Analysis, opts: dict) -> Iterator[Step]:
    """X of a house only in two cells that are not neighbours: cells adjacent to both lose
    X-1 and X+1 (5 of c5 in r24c5 -> r3c5<>46; 5 of box 5 in r4c4,r5c5 -> r4c5,r5c4<>46)."""
    yield from _locked_steps(an, 2, False)


@register("consecutive_locked_triple", "Consecutive Locked Triple", FAMILY)
def consecutive_locked_triple(an: Analysis, opts: dict) -> Iterator[Step]:
    """X of a house only in three cells, one adjacent to the other two: that middle cell
    loses X-1 and X+1 (5 of r5 in r5c345 -> r5c4<>46)."""
    yield from _locked_steps(an, 3, True)


@register("consecutive_check_pattern", "Consecutive Check Pattern", FAMILY)
def consecutive_check_pattern(an: Analysis, opts: dict) -> Iterator[Step]:
    """X of a house only in three cells of a V-shaped check pattern: a cell adjacent to all
    three loses X-1 and X+1 (5 of box 5 in r4c46,r5c5 -> r4c5<>46)."""
    yield from _locked_steps(an, 3, False)


@register("consecutive_chain", "Consecutive Chain", FAMILY)
def consecutive_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """a-b-c joined by two white dots, a and c must differ: b = v needs a and c in
    {v-d, v+d}; when only one such digit is left for both (v = 1 or n for d = 1) b <> v."""
    t = diff_tables(an.puzzle)
    if not t.pos:
        return
    n, w = an.n, an.grid.namer
    for d, adj in t.pos.items():
        for b in iter_cells(an.unsolved):
            nb = adj[b]
            if nb.bit_count() < 2:
                continue
            ends = list(iter_cells(nb))
            for i, a in enumerate(ends):
                ma = _value_mask(an, a)
                for c in ends[i + 1:]:
                    mc = _value_mask(an, c)
                    elims = []
                    forced = []
                    for v in range(1, n + 1):
                        if not an.cand[b] >> v & 1:
                            continue
                        near = 0
                        for y in (v - d, v + d):
                            if 1 <= y <= n:
                                near |= 1 << y
                        pa, pc = ma & near, mc & near
                        if pa and pa == pc and not pa & (pa - 1):
                            y = pa.bit_length() - 1
                            if an.sees(a, y, c, y):
                                elims.append(Candidate(b, v))
                                forced.append((v, y))
                    if elims:
                        why = "; ".join(f"{an.name(b)}={digit_symbol(v)} needs "
                                        f"{an.name(a)}={an.name(c)}={digit_symbol(y)}"
                                        for v, y in forced)
                        yield Step("consecutive_chain", eliminations=tuple(elims),
                                   title="Consecutive Chain", namer=w,
                                   digits=tuple(v for v, _ in forced),
                                   pattern=tuple(Candidate(x, y) for x in (a, b, c)
                                                 for y in range(1, n + 1)
                                                 if _value_mask(an, x) >> y & 1),
                                   note=f"{an.name(a)}-{an.name(b)}-{an.name(c)}{_rule(d)}, "
                                        f"{why}")
