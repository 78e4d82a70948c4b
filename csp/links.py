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
from .step import Step, cell_name, digit_symbol

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
        # the rules, to name the rule behind a link when an explanation asks (:meth:`rule_of`)
        self._constraints = () if self.uniform else tuple(puzzle.constraints)
        self._rule_names: dict[tuple[int, int, int, int], str] | None = None

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

    def rule_of(self, c1: int, d1: int, c2: int, d2: int) -> str | None:
        """The name of the rule whose weak link makes (c1, d1) and (c2, d2) exclude each
        other ("anti-knight r5c7-r4c5"), or None when a cell or a house does (or nothing
        does, or only an indexer's derived links). The names are gathered from the rules'
        own weak links the first time an explanation asks.

        >>> from csp import Puzzle, Grid
        >>> p = Puzzle(Grid(4)).add_grid_houses()
        >>> _ = p.add_less("r1c1", "r3c3")
        >>> t = link_tables(p)
        >>> t.rule_of(0, 4, 10, 2), t.rule_of(0, 2, 1, 2), t.rule_of(0, 2, 10, 3)
        ('r1c1<r3c3', None, None)
        """
        if c1 == c2 or (d1 == d2 and self.house_peers[c1] >> c2 & 1):
            return None
        if self._rule_names is None:
            names: dict[tuple[int, int, int, int], str] = {}
            for con in self._constraints:
                for (a, da), (b, db) in con.weak_links(self.n):
                    if a != b:
                        names.setdefault((a, da, b, db), con.name)
                        names.setdefault((b, db, a, da), con.name)
            self._rule_names = names
        return self._rule_names.get((c1, d1, c2, d2))

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


def _rule_phrase(name: str) -> str:
    kind = rule_kind(name)
    return f"the {kind} rule" if kind != name else name


def rule_citations(step: Step, tables: LinkTables, limit: int = 6) -> str:
    """Where a step rests on a rule's links rather than a cell or a house: each
    elimination that sees a candidate of the step's pattern, chain or placements (the same
    digit) only through a rule ("r5c7 sees r4c5 by the anti-knight rule"), and each weak
    link of its chain that a rule makes (one between two different digits: "r1c8=4
    excludes r2c7=1 by the whispers rule"). An elimination of another digit than its
    premise's is a rule's own reading (a whisper, a dot, an inequality): the technique that
    makes it says how in its own text, so it is not repeated here; rules the step's text
    already names are left out too. Empty when no rule is involved; at most ``limit``
    sentences, then how many more.

    >>> from csp import Puzzle, Grid
    >>> from csp.step import Candidate
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> _ = p.add_less("r1c1", "r3c3")
    >>> _ = p.add_constraint(lambda a, b: a != b, ["r1c2", "r4c4"], name="apart")
    >>> s = Step("x", eliminations=(Candidate(15, 2),), pattern=(Candidate(1, 2),), namer=4)
    >>> rule_citations(s, link_tables(p))
    'r4c4 sees r1c2 by apart'
    >>> s = Step("x", eliminations=(Candidate(10, 2),), pattern=(Candidate(0, 4),), namer=4)
    >>> rule_citations(s, link_tables(p))     # another digit: the technique's own reading
    ''
    """
    if tables.uniform:
        return ""
    w = step.namer
    told = f"{step.title} {step.note} {' '.join(step.houses)}"
    premises: dict[tuple[int, int], None] = dict.fromkeys(
        (*step.pattern, *step.placements, *(c for ln in step.links for c in (*ln.a, *ln.b))))
    by: dict[tuple[str, bool, str], list[str]] = {}
    done: set[frozenset] = set()

    def cite(e: tuple[int, int], found: list[tuple[tuple[int, int], str]]) -> None:
        found = [(p, r) for p, r in found if frozenset((tuple(e), tuple(p))) not in done]
        done.update(frozenset((tuple(e), tuple(p))) for p, _ in found)
        for rule in sorted({r for _, r in found}):
            kind = rule_kind(rule)
            if kind in told:
                continue
            ps = tuple(p for p, r in found if r == rule)
            same = all(p[1] == e[1] for p in ps)
            if same:
                what = ",".join(cell_name(p[0], w) for p in ps)
                who = cell_name(e[0], w)
            else:
                what = ",".join(f"{cell_name(p[0], w)}={digit_symbol(p[1])}" for p in ps)
                who = f"{cell_name(e[0], w)}={digit_symbol(e[1])}"
            by.setdefault((_rule_phrase(rule), same, what), []).append(who)

    for e in step.eliminations:
        found = [(p, r) for p in premises
                 if (r := tables.rule_of(e[0], e[1], p[0], p[1])) is not None]
        cite(e, [(p, r) for p, r in found if p[1] == e[1]])
    for ln in step.links:
        if not ln.strong and len(ln.a) == 1 and len(ln.b) == 1:
            (a,), (b,) = ln.a, ln.b
            rule = tables.rule_of(a[0], a[1], b[0], b[1])
            if rule is not None:
                cite(a, [(b, rule)])
    out = []
    for (rule, same, what), who in by.items():
        who = list(dict.fromkeys(who))
        many = len(who) > 1
        verb = ("see" if many else "sees") if same else ("exclude" if many else "excludes")
        out.append(f"{', '.join(who)} {verb} {what} by {rule}")
    if len(out) > limit:
        out = out[:limit] + [f"{len(out) - limit} more by the rules' links"]
    return "; ".join(out)
