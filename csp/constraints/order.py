"""Ordering bounds beyond pairs, for every strict ``<`` relation of a puzzle.

Pairwise arc consistency alone gives ``r1c2 >= 2`` in ``r1c1 < r1c2 > r1c3``; a cell greater
than k cells that must all differ is greater than the k-th smallest digit of their candidate
union (symmetrically below the k-th largest of k different cells above it), and the cells
below and above a cell are found through chains of ``<`` (signs, thermometers, relations
made with ``p.add(a < b)`` or ``add_less``).

The propagators are not a constraint of their own: :meth:`csp.model.Puzzle.engine` compiles
them from the puzzle's ``<`` relations and houses (:func:`order_propagators`), however the
relations were made.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(9)).add_grid_houses()
>>> _ = p.add(p["r1c1"] < p["r1c2"]).add(p["r1c2"] > p["r1c3"])
>>> p.propagate().candidates("r1c2")
(3, 4, 5, 6, 7, 8, 9)
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ..events import Cost, Event, Status
from ..kernel import active
from ..propagator import Context, Propagator
from .binary import Relation, RelationKind

try:
    from .. import _engine_kernel
except ImportError:                     # pragma: no cover - not built
    _engine_kernel = None

def is_less(c: object) -> bool:
    """True for a strict ``a < b`` relation (whatever made it)."""
    return isinstance(c, Relation) and c.relation is RelationKind.LT


def is_not_equal(c: object) -> bool:
    return isinstance(c, Relation) and c.relation is RelationKind.NE


def kth_smallest(mask: int, k: int) -> int:
    """The k-th smallest digit of a candidate mask, 0 when it has fewer than k digits.

    >>> kth_smallest(0b1010110, 3)
    4
    """
    for _ in range(k - 1):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1 if mask else 0


def kth_largest(mask: int, k: int) -> int:
    """The k-th largest digit of a candidate mask, 0 when it has fewer than k digits.

    >>> kth_largest(0b1010110, 2)
    4
    """
    for _ in range(k - 1):
        if not mask:
            return 0
        mask ^= 1 << (mask.bit_length() - 1)
    return mask.bit_length() - 1 if mask else 0


class _OrderingName:
    """The ``name`` of an :class:`OrderBoundsPropagator` made by :func:`order_propagators`
    (``ordering at`` its cell, by the namer it was given), written on first read and kept
    in the instance (which then shadows this: a non-data descriptor)."""

    def __get__(self, obj: "OrderBoundsPropagator | None", cls: type | None = None) -> str:
        if obj is None:
            return "ordering"
        name = obj.__dict__["name"] = f"ordering at {obj._namer(obj.cell)}"
        return name


class OrderBoundsPropagator(Propagator):
    """Bounds of ``cell`` from the cells known to be smaller / larger, in groups of cells
    that must all differ (``below``: groups all < cell; ``above``: groups all > cell)."""

    name = _OrderingName()      # (an instance made by __init__ has its own)

    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True

    def __init__(self, cell: int, below: Sequence[tuple[int, ...]],
                 above: Sequence[tuple[int, ...]], name: str,
                 scope: tuple[int, ...] | None = None) -> None:
        self.cell = cell
        self.below = below
        self.above = above
        self.scope = (tuple(sorted({cell, *(c for g in (*below, *above) for c in g)}))
                      if scope is None else scope)
        self.name = name

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        m = cand[self.cell]
        keep = m
        for groups, below in ((self.below, True), (self.above, False)):
            for group in groups:
                u = 0
                for c in group:
                    u |= cand[c]
                kth = (kth_smallest if below else kth_largest)(u, len(group))
                if not kth:
                    ctx.fail(f"not enough digits {'below' if below else 'above'}", group)
                # above the k-th smallest below it, under the k-th largest above it
                keep &= ~((1 << (kth + 1)) - 1) if below else (1 << kth) - 1
        if keep != m:
            ctx.remove(self.cell, m & ~keep, (self.name, self.scope))
        return Status.FIX


def order_propagators(constraints: Iterable[object], house_cells: list[tuple[int, ...]],
                      name: Callable[[int], str]) -> list[OrderBoundsPropagator]:
    """One bounds propagator per cell that has, through chains of strict ``<`` relations,
    at least two mutually different cells below or above it (groups of one cell add nothing
    to the relation's own arc consistency). Empty when the constraints hold no ``<``.
    ``house_cells``: the cells of each all-different house; ``name``: cell naming for the
    propagators' names. (:meth:`csp.model.Puzzle.engine` passes its own.)"""
    # made without __init__ (its groups the specs' tuples, its scope given) and named when
    # something reads the name (an explanation, a contradiction): a cold call on a puzzle
    # with many thermometers makes dozens of them and most are never named
    return [ordering_from(spec, name) for spec in order_specs(constraints, house_cells)]


def ordering_from(spec: tuple, name: Callable[[int], str]) -> OrderBoundsPropagator:
    """The propagator of one of :func:`order_specs`' ``(cell, below, above, scope)``
    (made without ``__init__``, named on first read by ``name``)."""
    p = object.__new__(OrderBoundsPropagator)
    p.__dict__ = {"cell": spec[0], "below": spec[1], "above": spec[2], "scope": spec[3],
                  "_namer": name}
    return p


def order_specs(constraints: Iterable[object], house_cells: list[tuple[int, ...]]
                ) -> tuple[tuple, ...]:
    """:func:`order_propagators`' work without the objects: per propagator ``(cell,
    below, above, scope)`` (an engine hands them to its compiled loop as they are)."""
    less: dict[int, set[int]] = {}
    ne: set[tuple[int, int]] = set()
    pairs: list[tuple[int, int]] = []   # the < pairs, (a, b): the relations' own cells
    lt, neq = RelationKind.LT, RelationKind.NE
    for c in constraints:              # (is_less / is_not_equal, one test of the class)
        if type(c) is Relation or isinstance(c, Relation):
            rel = c.relation                            # type: ignore[attr-defined]
            if rel is lt:
                less.setdefault(c.a, set()).add(c.b)   # type: ignore[attr-defined]
                pairs.append(c.cells)                   # type: ignore[attr-defined]
            elif rel is neq:
                a, b = c.a, c.b                         # type: ignore[attr-defined]
                ne.add((a, b) if a < b else (b, a))
    if not less:
        return ()
    key = (frozenset(pairs), frozenset(ne), tuple(map(tuple, house_cells)))
    specs = _SPECS.get(key)
    if specs is None:
        kernel = active(_engine_kernel)
        specs = kernel.order_specs(less, ne, house_cells) if kernel is not None else None
        if specs is None:
            specs = _order_specs(less, ne, house_cells)
        if len(_SPECS) >= _SPECS_SIZE:
            _SPECS.pop(next(iter(_SPECS)))
        _SPECS[key] = specs
    return specs


#: :func:`order_propagators`' work by its inputs (the ``<`` pairs, the other ``!=`` pairs,
#: the houses' cells): a setter's next call brings the same rules with other digits, and
#: the closure and groups were a fifth of a call on puzzles with many thermometers
_SPECS: dict[tuple, tuple] = {}
_SPECS_SIZE = 32


def forget_specs() -> None:
    """Drop the ordering work :func:`order_propagators` keeps between calls (a measurement
    of building from scratch).

    >>> forget_specs(); len(_SPECS)
    0
    """
    _SPECS.clear()


def _closure_acyclic(less: dict[int, set[int]], cells: set[int]
                     ) -> dict[int, set[int]] | None:
    """Per cell the cells reachable from it through ``less`` (the cells known greater),
    built from the greatest cells down (each cell's set the union of its successors' and
    theirs); None when ``less`` has a cycle."""
    indegree = dict.fromkeys(cells, 0)
    for ys in less.values():
        for y in ys:
            indegree[y] += 1
    order = [x for x in cells if not indegree[x]]
    for x in order:                    # (the list grows as it is read: Kahn's order)
        for y in less.get(x, ()):
            indegree[y] -= 1
            if not indegree[y]:
                order.append(y)
    if len(order) != len(cells):
        return None
    above: dict[int, set[int]] = {}
    empty: set[int] = set()
    for x in reversed(order):
        acc: set[int] = set()
        for y in less.get(x, empty):
            acc.add(y)
            acc |= above[y]
        above[x] = acc
    return above


def _order_specs(less: dict[int, set[int]], ne: set[tuple[int, int]],
                 house_cells: list[tuple[int, ...]]
                 ) -> tuple[tuple[int, tuple, tuple, tuple[int, ...]], ...]:
    """Per cell with groups below or above it: ``(cell, below, above, scope)`` (see
    :func:`order_propagators`)."""
    # transitive closure: above[x] = cells known greater than x
    cells = set(less) | {y for ys in less.values() for y in ys}
    above = _closure_acyclic(less, cells)
    if above is None:                  # a cycle (a contradiction): walk from each cell
        above = {}
        for x in sorted(cells):
            seen: set[int] = set()
            stack = list(less.get(x, ()))
            while stack:
                y = stack.pop()
                if y in seen or y == x:
                    continue
                seen.add(y)
                stack.extend(less.get(y, ()))
            above[x] = seen
    below: dict[int, set[int]] = {x: set() for x in cells}
    for x, ys in above.items():
        for y in ys:
            below[y].add(x)
    houses = [set(h) for h in house_cells]
    in_houses: dict[int, set[int]] = {}
    for i, h in enumerate(houses):
        for c in h:
            in_houses.setdefault(c, set()).add(i)
    empty: set[int] = set()
    # per cell, the cells that must differ from it (sharing a house, or a != pair)
    mates: dict[int, set[int]] = {}

    def mates_of(c: int) -> set[int]:
        m = mates.get(c)
        if m is None:
            m = mates[c] = set()
            for i in in_houses.get(c, empty):
                m |= houses[i]
            m.discard(c)
            m.update(ne_of.get(c, ()))
        return m
    ne_of: dict[int, list[int]] = {}
    for a, b in ne:
        ne_of.setdefault(a, []).append(b)
        ne_of.setdefault(b, []).append(a)

    def groups(cs: set[int]) -> list[tuple[int, ...]]:
        """Cells of ``cs`` in one house, each grown by the cells of ``cs`` that differ from
        all of it (a clique across houses, e.g. a row, a column and a diagonal); the
        houses holding a cell of ``cs`` only, in their order (the others add nothing)."""
        out: list[tuple[int, ...]] = []
        if len(cs) < 2:
            return out
        touched: set[int] = set()
        for c in cs:
            touched |= in_houses.get(c, empty)
        for i in sorted(touched):
            h = houses[i]
            grp = cs & h
            if len(grp) < 2:
                continue
            for c in sorted(cs - grp):
                if grp <= mates_of(c):
                    grp = grp | {c}
            t = tuple(sorted(grp))
            if t not in out:
                out.append(t)
        return out

    specs = []
    for x in sorted(cells):
        b = groups(below[x])
        a = groups(above[x])
        if a or b:
            specs.append((x, tuple(b), tuple(a),
                          tuple(sorted({x, *(c for g in b + a for c in g)}))))
    return tuple(specs)
