"""Greater/less-than signs and thermometers, with bounds propagated beyond pairs.

Pairwise arc consistency alone gives ``r1c2 >= 2`` in ``r1c1 < r1c2 > r1c3``; the ordering
propagator here knows that r1c1 and r1c3 are in one row (all different), so r1c2 >= 3. In
general a cell greater than k mutually different cells is at least the k-th smallest digit of
their candidate union plus one (and symmetrically), through chains of signs too.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(9).use(classic(), less_than("r1c1", "r1c2"), greater_than("r1c2", "r1c3"))
>>> p.propagate().candidates("r1c2")
(3, 4, 5, 6, 7, 8, 9)
"""
from __future__ import annotations

from typing import Any

from csp import Less, LessEqual, Puzzle
from csp.constraints.base import Constraint
from csp.constraints.binary import Relation, RelationKind
from csp.events import Cost, Event, Status
from csp.propagator import Context, Propagator


class OrderBoundsPropagator(Propagator):
    """Bounds of ``cell`` from the cells known to be smaller / larger, in groups of cells
    that must all differ."""

    cost = Cost.LINEAR
    events = Event.DOM

    def __init__(self, cell: int, below: list[tuple[int, ...]], above: list[tuple[int, ...]],
                 name: str) -> None:
        self.cell = cell
        self.below = below     # groups of mutually different cells, all < cell
        self.above = above     # groups of mutually different cells, all > cell
        self.scope = tuple(sorted({cell, *(c for g in below + above for c in g)}))
        self.name = name

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        m = cand[self.cell]
        keep = m
        for group in self.below:
            u = 0
            for c in group:
                u |= cand[c]
            k = len(group)
            # k-th smallest digit of u
            x = u
            for _ in range(k - 1):
                x &= x - 1
            if not x:
                ctx.fail("not enough digits below", group)
            kth = (x & -x).bit_length() - 1
            keep &= ~((1 << (kth + 1)) - 1)
        for group in self.above:
            u = 0
            for c in group:
                u |= cand[c]
            k = len(group)
            x = u
            for _ in range(k - 1):
                if not x:
                    break
                x ^= 1 << (x.bit_length() - 1)
            if not x:
                ctx.fail("not enough digits above", group)
            kth = x.bit_length() - 1       # k-th largest
            keep &= (1 << kth) - 1
        if keep != m:
            ctx.remove(self.cell, m & ~keep, (self.name, self.scope))
        return Status.FIX


class OrderBounds(Constraint):
    """Added once by the inequality bundles; at compile time it reads every strict ``<``
    relation of the puzzle (signs, thermometers) and adds one bounds propagator per cell."""

    kind = "order_bounds"
    name = "ordering"
    cells = ()

    def check(self) -> bool:
        return True

    def compile(self, puzzle: Puzzle) -> list[Propagator]:
        less: dict[int, set[int]] = {}
        for c in puzzle.constraints:
            if isinstance(c, Relation) and c.relation is RelationKind.LT:
                less.setdefault(c.a, set()).add(c.b)
        # transitive closure: above[x] = cells known greater than x
        above: dict[int, set[int]] = {}

        def up(x: int, seen: set[int]) -> set[int]:
            if x in above:
                return above[x]
            out: set[int] = set()
            for y in less.get(x, ()):
                if y in seen:
                    continue
                out.add(y)
                out |= up(y, seen | {y})
            above[x] = out
            return out

        cells = set(less) | {y for ys in less.values() for y in ys}
        for x in cells:
            up(x, {x})
        below: dict[int, set[int]] = {x: set() for x in cells}
        for x, ys in above.items():
            for y in ys:
                below.setdefault(y, set()).add(x)
        houses = [set(h.cells) for h in puzzle.houses()]
        props: list[Propagator] = []
        g = puzzle.grid

        in_houses: dict[int, set[int]] = {}
        for i, h in enumerate(houses):
            for c in h:
                in_houses.setdefault(c, set()).add(i)
        ne = {(min(c.a, c.b), max(c.a, c.b)) for c in puzzle.constraints
              if isinstance(c, Relation) and c.relation is RelationKind.NE}

        def differ(a: int, b: int) -> bool:
            return bool(in_houses.get(a, set()) & in_houses.get(b, set())) or (
                (min(a, b), max(a, b)) in ne)

        def groups(cs: set[int]) -> list[tuple[int, ...]]:
            """Cells of ``cs`` in one house, each grown by the cells of ``cs`` that differ
            from all of it (a clique across houses, e.g. a row, a column and a diagonal)."""
            out = []
            for h in houses:
                grp = cs & h
                if len(grp) < 2:
                    continue
                for c in sorted(cs - grp):
                    if all(differ(c, x) for x in grp):
                        grp = grp | {c}
                t = tuple(sorted(grp))
                if t not in out:
                    out.append(t)
            return out

        for x in sorted(cells):
            b = groups(below.get(x, set()))
            a = groups(above.get(x, set()))
            if a or b:
                props.append(OrderBoundsPropagator(x, b, a, f"ordering at {g.name(x)}"))
        return props


def _ensure_order(p: Puzzle) -> None:
    if not any(isinstance(c, OrderBounds) for c in p.constraints):
        p.add(OrderBounds())


class less_than:
    """``a < b`` (a greater/less-than sign pointing at a)."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def apply(self, p: Puzzle) -> None:
        p.add(Less(p.cell(self.a), p.cell(self.b)))
        _ensure_order(p)


def greater_than(a: Any, b: Any) -> less_than:
    """``a > b``."""
    return less_than(b, a)


class thermo:
    """A thermometer: digits strictly increase from the bulb (first cell) along the tube."""

    def __init__(self, *cells: Any) -> None:
        self.cells = cells[0] if len(cells) == 1 and not isinstance(cells[0], (str, int)) else cells

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        for a, b in zip(ids, ids[1:]):
            p.add(Less(a, b, f"thermo {p.grid.name(a)}<{p.grid.name(b)}"))
        _ensure_order(p)


class slow_thermo:
    """A slow thermometer: digits never decrease from the bulb along the tube."""

    def __init__(self, *cells: Any) -> None:
        self.cells = cells[0] if len(cells) == 1 and not isinstance(cells[0], (str, int)) else cells

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        for a, b in zip(ids, ids[1:]):
            p.add(LessEqual(a, b, f"slow thermo {p.grid.name(a)}<={p.grid.name(b)}"))


__all__ = ["greater_than", "less_than", "slow_thermo", "thermo"]
