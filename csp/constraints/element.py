"""Element and containment constraints (indexers, quadruples).

>>> e = Element(3, (0, 1, 2), 1)          # cell 3 holds v; cell v-1 holds 1
>>> e.check(2, 3, 1, 2), e.check(3, 1, 2, 3)
(True, False)
>>> q = Contains((0, 1, 2, 3), (4, 4))
>>> q.check(4, 1, 4, 2), q.check(4, 1, 3, 2)
(True, False)
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations
from typing import Iterator, Sequence

from ..errors import InvalidConstraint
from ..events import Cost, Event, Status
from ..propagator import Context, Propagator
from .base import Constraint, WeakLink
from .sums import house_mates


class ElementPropagator(Propagator):
    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True

    def __init__(self, index: int, cells: Sequence[int], target: int, name: str) -> None:
        self.index = index
        self.cells = tuple(cells)
        self.scope = tuple(sorted({index, *cells}))
        self.target = target
        self.name = name

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        t = 1 << self.target
        idx = self.index
        keep = 0
        m = cand[idx]
        while m:
            low = m & -m
            m ^= low
            v = low.bit_length() - 1
            if 1 <= v <= len(self.cells):
                c = self.cells[v - 1]
                if c == idx:
                    if v == self.target:
                        keep |= low
                elif cand[c] & t:
                    keep |= low
        if not keep:
            ctx.fail("no index can point at the target digit", (idx,))
        ctx.restrict(idx, keep, self.name)
        keep = cand[idx]
        if not keep & (keep - 1):
            c = self.cells[keep.bit_length() - 2]
            ctx.restrict(c, t, self.name)
        return Status.NOFIX


class ElementHousePropagator(ElementPropagator):
    """The reverse of an element whose line is a house (holds ``target`` once): the cell at
    position q holds ``target`` only if the index can be q (box indexer r1c7: r1c7 cannot
    be 4, so the 4th cell of box 3 is not 1)."""

    history_free = True

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        t = 1 << self.target
        m = cand[self.index]
        for q, c in enumerate(self.cells, 1):
            if c != self.index and cand[c] & t and not m >> q & 1:
                ctx.remove(c, t, (self.name, (self.index,)))
        return Status.FIX


class Element(Constraint):
    """``cells[v - 1]`` holds ``target``, where v is the digit of ``index``. When the line is
    a house of the puzzle (it holds ``target`` once) the reverse holds too: the cell at
    position q is ``target`` only if the index is q.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> _ = p.add(Element(0, (0, 1, 2, 3), 1))      # r1c1 = v: the v-th cell of row 1 is 1
    >>> st = p.initial_state()
    >>> st.cand[0] &= ~(1 << 3)                      # r1c1 is not 3 ...
    >>> p.propagate(st).candidates("r1c3")           # ... so r1c3 is not 1
    (2, 3, 4)
    """

    kind = "element"
    repeats = True

    def __init__(self, index: int, cells: Sequence[int], target: int, name: str = "") -> None:
        self.index = index
        self.line = tuple(cells)
        self.cells = (index, *self.line)
        self.target = target
        self.name = name or "element"

    def propagators(self, n: int) -> list[Propagator]:
        return [ElementPropagator(self.index, self.line, self.target, self.name)]

    def compile(self, puzzle) -> list[Propagator]:
        """The reverse direction, when the line is one of the puzzle's houses."""
        line = frozenset(self.line)
        if len(line) == len(self.line) and line in puzzle.derived(house_cell_sets):
            return [ElementHousePropagator(self.index, self.line, self.target, self.name)]
        return []

    def weak_links(self, n: int) -> Iterator[WeakLink]:
        """The index is v and the v-th cell holds another digit than the target: never
        both (an indexer's candidates link to its line's cells, so chains and wings can
        walk through it).

        >>> sorted(Element(3, (0, 1, 2), 1).weak_links(3))[:3]
        [((0, 2), (3, 1)), ((0, 3), (3, 1)), ((1, 2), (3, 2))]
        """
        t = self.target
        for v, c in enumerate(self.line[:n], 1):
            if c == self.index:
                continue
            for d in range(1, n + 1):
                if d != t:
                    yield ((c, d), (self.index, v))

    def check(self, v: int, *line: int) -> bool:
        return 1 <= v <= len(line) and line[v - 1] == self.target


def house_cell_sets(puzzle) -> frozenset[frozenset[int]]:
    """The cell sets of the houses of a (frozen) ``puzzle``, made once per puzzle
    (:meth:`csp.Puzzle.derived`) for the elements' :meth:`Element.compile`."""
    return frozenset(frozenset(h.cells) for h in puzzle.houses())


def element_pair_links(elements: Sequence[Element], houses: Sequence[Sequence[int]]
                       ) -> Iterator[WeakLink]:
    """Links between the elements' index choices and the cells that their targets see.

    - One element: its index is v, so the v-th cell of its line holds the target and no
      cell sharing a house with that cell does ("box indexer r3c9 is 1: r1c7 is 9, so r1c1
      is not 9"). Without this link a chain needs two steps and a naked single to walk it.
    - Two elements with the same target digit point at two cells that both hold it: the
      index choices that point at two different cells of one house never go together (the
      1s that the box indexers of one band point at lie in three different rows).

    >>> rows = [(0, 1), (2, 3)]                   # two rows of a 2x2 grid, cells 0..3
    >>> a = Element(0, (0, 2), 1)                 # r1c1 = v: the v-th cell of col 1 is 1
    >>> b = Element(1, (1, 3), 1)                 # r1c2 = v: the v-th cell of col 2 is 1
    >>> sorted(element_pair_links([a], rows))     # r1c1 = 2: r2c1 is 1, so r2c2 is not
    [((0, 2), (3, 1))]
    >>> pairs = set(element_pair_links([a, b], rows)) - set(element_pair_links([a], rows))
    >>> sorted(pairs - set(element_pair_links([b], rows)))   # both 1s in one row: never
    [((0, 1), (1, 1)), ((0, 2), (1, 2))]
    """
    peers: dict[int, set[int]] = {}
    for h in houses:
        for c in h:
            peers.setdefault(c, set()).update(h)
    for e in elements:
        # the index is v: the v-th cell holds the target, so no cell that shares a house
        # with it does (a chain walks from an indexer's candidate to the target's places)
        for v, c in enumerate(e.line, 1):
            if c == e.index:
                continue
            for p in sorted(peers.get(c, ())):
                if p != c and p != e.index:
                    yield ((e.index, v), (p, e.target))
    by_target: dict[int, list[Element]] = {}
    for e in elements:
        by_target.setdefault(e.target, []).append(e)
    for group in by_target.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if a.index == b.index:
                    continue
                for v, ca in enumerate(a.line, 1):
                    near = peers.get(ca, ())
                    for w, cb in enumerate(b.line, 1):
                        if cb != ca and cb in near:
                            yield ((a.index, v), (b.index, w))


def placements(k: int, vals: tuple[int, ...], clash: tuple[tuple[int, int], ...] = ()
               ) -> tuple[tuple[int, ...], ...]:
    """The placements of the digits ``vals`` onto ``k`` cells (``mp[j]``: the position of
    ``vals[j]``), sorted, without those that put a repeated digit on two positions of a pair
    in ``clash`` (positions sharing a house). They depend only on which digits repeat, and
    are kept by that pattern (:func:`_placements`) for the next rule of the same shape (a
    puzzle's quadruples share a few; a setter's next call has the same rules again).

    >>> placements(3, (1, 1), ((0, 1),))
    ((0, 2), (1, 2), (2, 0), (2, 1))
    >>> placements(3, (4, 4), ((0, 1),)) is placements(3, (1, 1), ((0, 1),))
    True
    """
    first: dict[int, int] = {}
    return _placements(k, tuple(first.setdefault(v, j) for j, v in enumerate(vals)), clash)


@lru_cache(maxsize=256)
def _placements(k: int, pattern: tuple[int, ...], clash: tuple[tuple[int, int], ...]
                ) -> tuple[tuple[int, ...], ...]:
    """:func:`placements` by the pattern of the digits (each digit as the position of its
    first occurrence)."""
    maps = set(permutations(range(k), len(pattern)))
    if clash:
        # a repeated digit never sits twice in cells that share a house (a quadruple 112
        # on a 2x2 puts its 1s on a diagonal)
        bad = {frozenset(p) for p in clash}
        maps = {mp for mp in maps
                if not any(pattern[a] == pattern[b] and frozenset((mp[a], mp[b])) in bad
                           for a in range(len(pattern)) for b in range(a + 1, len(pattern)))}
    return tuple(sorted(maps))


@lru_cache(maxsize=256)
def _assignments(k: int, pattern: tuple[int, ...], clash: tuple[tuple[int, int], ...]
                 ) -> tuple[tuple[int, ...], ...]:
    """The distinct assignments of :func:`_placements` (placements that only swap equal
    digits assign the same): per position, the pattern's digit placed there, or -1."""
    rows: dict[tuple[int, ...], None] = {}
    for mp in _placements(k, pattern, clash):
        row = [-1] * k
        for j, i in enumerate(mp):
            row[i] = pattern[j]
        rows[tuple(row)] = None
    return tuple(rows)


@lru_cache(maxsize=512)
def _plan_bits(k: int, vals: tuple[int, ...], clash: tuple[tuple[int, int], ...]
               ) -> tuple[tuple[int, ...], ...]:
    """The distinct assignments of the digits ``vals`` (:func:`_assignments`) as a digit
    bit per position, 0 where the cell is left free (what the compiled engine loop reads,
    csp/_engine_kernel.c)."""
    first: dict[int, int] = {}
    pattern = tuple(first.setdefault(v, j) for j, v in enumerate(vals))
    bit = [1 << v for v in vals] + [0]          # (index -1: a free cell, no digit)
    return tuple(tuple([bit[x] for x in row]) for row in _assignments(k, pattern, clash))


@lru_cache(maxsize=512)
def _plans(rows: tuple[tuple[int, ...], ...]
           ) -> tuple[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], ...]:
    """Each assignment of :func:`_plan_bits` as the (position, digit bit) pairs it needs
    and the positions it leaves free (what :meth:`ContainsPropagator.propagate` reads)."""
    return tuple((tuple([(i, b) for i, b in enumerate(row) if b]),
                  tuple([i for i, b in enumerate(row) if not b])) for row in rows)


class ContainsPropagator(Propagator):
    """Exact supports: every injective placement of the required digits onto the cells that
    the candidates allow; a cell left free keeps all its candidates."""

    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True

    def __init__(self, cells: Sequence[int], values: Sequence[int], name: str,
                 clash: Sequence[tuple[int, int]] = ()) -> None:
        self.cells = tuple(cells)
        self.scope = tuple(sorted(self.cells))
        self.values = tuple(values)
        self.name = name
        self.clash = tuple(sorted((min(p), max(p)) for p in clash))
        #: the distinct assignments of the digits, a digit bit per cell (0: left free)
        self.plan_bits = _plan_bits(len(self.cells), self.values, self.clash)

    @property
    def maps(self) -> tuple[tuple[int, ...], ...]:
        """The placements (:func:`placements`)."""
        return placements(len(self.cells), self.values, self.clash)

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        doms = [cand[c] for c in self.cells]
        sup = [0] * len(doms)
        for need, free in _plans(self.plan_bits):
            for i, b in need:
                if not doms[i] & b:
                    break
            else:
                for i, b in need:
                    sup[i] |= b
                for i in free:           # a cell left free keeps all its candidates
                    sup[i] = doms[i]
        for i, c in enumerate(self.cells):
            if not sup[i]:
                ctx.fail("the required digits do not fit", self.cells)
            ctx.restrict(c, sup[i], self.name)
        return Status.FIX


class Contains(Constraint):
    """The cells contain every digit of ``values`` (a multiset: repeats need repeats)."""

    kind = "contains"

    def __init__(self, cells: Sequence[int], values: Sequence[int], name: str = "") -> None:
        if len(values) > len(cells):
            raise InvalidConstraint(f"{name or 'contains'}: more digits than cells")
        if len(cells) > 8:
            raise InvalidConstraint(f"{name or 'contains'}: at most 8 cells")
        self.cells = tuple(cells)
        self.values = tuple(int(v) for v in values)
        self.name = name or "contains"

    def validate(self, n: int) -> None:
        bad = [v for v in self.values if not 1 <= v <= n]
        if bad:
            raise InvalidConstraint(f"{self.name}: digit {bad[0]} is not in 1..{n}")

    def propagators(self, n: int) -> list[Propagator]:
        return [ContainsPropagator(self.cells, self.values, self.name)]

    def compile(self, puzzle) -> list[Propagator]:
        """With a repeated digit: the placements that keep the repeats out of shared
        houses (cells of one row, column or box cannot both hold it).

        >>> from csp import Puzzle, Grid
        >>> p = Puzzle(Grid(4)).add_grid_houses()
        >>> _ = p.add(Contains((1, 2, 5, 6), (1, 1)))   # two 1s in r1c2, r1c3, r2c2, r2c3
        >>> st = p.initial_state()
        >>> st.cand[1] &= ~(1 << 1)                    # r1c2 is not 1 ...
        >>> p.propagate(st).candidates("r2c3")         # ... so the 1s are r1c3 and r2c2
        (2, 3, 4)
        """
        if len(set(self.values)) == len(self.values):
            return []
        mates = puzzle.derived(house_mates)       # per cell, its houses' cells as bits
        cells = self.cells
        clash = [(i, j) for i in range(len(cells)) for j in range(i + 1, len(cells))
                 if cells[i] == cells[j] or mates[cells[i]] >> cells[j] & 1]
        return [ContainsPropagator(cells, self.values, self.name, clash)] if clash else []

    def check(self, *values: int) -> bool:
        have = Counter(values)
        return all(have[d] >= k for d, k in Counter(self.values).items())
