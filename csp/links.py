"""Static link tables of a puzzle: which candidates "see" each other.

Two candidates are *weakly linked* when they cannot both be true: two digits of one cell,
one digit twice in a house, or a pair ruled out by a binary constraint (anti-knight,
non-consecutive, a<b ...). Techniques use these tables, so any variant's links feed them.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(4)).add_grid_houses()
>>> _ = p.add_less("r1c1", "r3c3")
>>> t = link_tables(p)
>>> t.sees(0, 2, 1, 2), t.sees(0, 2, 5, 3), t.sees(0, 4, 10, 2), t.sees(0, 1, 10, 2)
(True, False, True, False)
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterator, TypeVar

from .grid import House

T = TypeVar("T")


class LinkTables:
    """Precomputed per-puzzle link tables (cell bitsets are ints with bit c for cell c)."""

    def __init__(self, puzzle) -> None:
        g = puzzle.grid
        self.grid = g
        n = self.n = g.n
        size = self.size = g.size
        self.houses: list[House] = puzzle.houses()
        self.house_mask = [h.mask for h in self.houses]
        #: houses with exactly n cells: every digit appears once (hidden singles, fish bases)
        self.full = [i for i, h in enumerate(self.houses) if len(h.cells) == n]
        ch: list[list[int]] = [[] for _ in range(size)]
        for i, h in enumerate(self.houses):
            for c in h.cells:
                ch[c].append(i)
        self.cell_houses = [tuple(x) for x in ch]
        hp = [0] * size
        for m, h in zip(self.house_mask, self.houses):
            for c in h.cells:
                hp[c] |= m
        self.house_peers = [hp[c] & ~(1 << c) for c in range(size)]
        peers_d = [list(self.house_peers) for _ in range(n + 1)]
        cross: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for (a, da), (b, db) in puzzle.weak_links():
            if a == b:
                continue
            if da == db:
                peers_d[da][a] |= 1 << b
                peers_d[da][b] |= 1 << a
            else:
                cross.setdefault((a, da), set()).add((b, db))
                cross.setdefault((b, db), set()).add((a, da))
        self.peers_d = peers_d
        self.cross = {k: tuple(sorted(v)) for k, v in cross.items()}
        self.uniform = not cross and all(
            peers_d[d] == self.house_peers for d in range(1, n + 1))
        self._derived: dict[Callable[[LinkTables], Any], Any] = {}

    def derived(self, build: Callable[["LinkTables"], T]) -> T:
        """``build(self)``, computed once and kept with the tables: the techniques' static
        tables (house intersections, rectangles, their cross-state caches) live here, so
        puzzles that share these tables (same house layout, no other rule) share them too.
        Keyed by ``build`` itself, like :meth:`csp.Puzzle.derived`.

        >>> from csp import Puzzle, Grid
        >>> t = link_tables(Puzzle(Grid(4)).add_grid_houses())
        >>> def full_houses(t): return len(t.full)
        >>> t.derived(full_houses)
        12
        """
        try:
            return self._derived[build]
        except KeyError:
            value = self._derived[build] = build(self)
            return value

    def __getstate__(self) -> dict:
        # the derived tables are rebuilt on demand: not pickled
        return {**self.__dict__, "_derived": {}}

    def sees(self, c1: int, d1: int, c2: int, d2: int) -> bool:
        """True when candidates (c1, d1) and (c2, d2) cannot both be true."""
        if c1 == c2:
            return d1 != d2
        if d1 == d2:
            return bool(self.peers_d[d1][c1] >> c2 & 1)
        return (c2, d2) in self.cross.get((c1, d1), ())

    def weak_neighbours(self, cell: int, digit: int) -> Iterator[tuple[int, int]]:
        """Candidates in other cells weakly linked to (cell, digit) (any digit)."""
        m = self.peers_d[digit][cell]
        while m:                  # inline, not csp.bits.iter_cells: apply_step's hot path
            low = m & -m
            yield (low.bit_length() - 1, digit)
            m ^= low
        yield from self.cross.get((cell, digit), ())


def link_tables(puzzle) -> LinkTables:
    """Cached :class:`LinkTables` of a (frozen) puzzle. Puzzles made of plain all-different
    houses only (classic, jigsaw, diagonal rule sets) share one table per house layout, so
    the tables and what techniques derive from them are built once."""
    return puzzle.derived(_build_link_tables)


def _build_link_tables(puzzle) -> LinkTables:
    key = _layout_key(puzzle)
    t = _LAYOUTS.get(key) if key is not None else None
    if t is None:
        t = LinkTables(puzzle)
        if key is not None:
            if len(_LAYOUTS) >= 16:
                _LAYOUTS.clear()
            _LAYOUTS[key] = t
    return t


_LAYOUTS: dict[tuple, LinkTables] = {}


def _layout_key(puzzle) -> tuple | None:
    """What the link tables of ``puzzle`` depend on, when every constraint is a plain
    all-different house (no weak links of their own); None otherwise."""
    from .constraints.alldiff import AllDifferent
    cons = puzzle.constraints
    if not all(type(c) is AllDifferent for c in cons):
        return None
    g = puzzle.grid
    return (type(g), g.n, g.size, tuple((h.name, h.cells, h.kind) for h in g.houses),
            tuple((c.name, c.cells) for c in cons))


# a rule's name ends with the cells it joins: "anti-knight r1c1-r2c3", "thermo r3c1<r3c2"
_CELL_PAIR = re.compile(r"\s+r\d+c\d+(?:[-<>=,]+r\d+c\d+)+$")


def rule_kind(name: str) -> str:
    """The kind of rule a constraint's name tells, without the cells it joins at its end
    (a name that does not end with two or more cells is kept whole).

    >>> rule_kind("anti-knight r1c1-r2c3"), rule_kind("thermo r3c1<r3c2")
    ('anti-knight', 'thermo')
    >>> rule_kind("cage 9 at r6c8")
    'cage 9 at r6c8'
    """
    return _CELL_PAIR.sub("", name) or name
