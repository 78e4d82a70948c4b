"""A constraint from any Python predicate over any number of cells.

Exact supports (GAC) come from a depth-first enumeration of the scope in the given order,
pruned by the optional ``prefix`` check (``prefix(*first_values) -> bool``, False when no
completion can satisfy the predicate) and by ``distinct`` (all cells differ). The enumeration
has a node budget; past it the propagator waits for smaller domains (the predicate is always
checked once every cell is fixed, so search stays correct). A scope of three different cells
is tabled instead: the allowed triples are computed once, and each run is a double loop over
two domains with the third as a mask.
"""
from __future__ import annotations

import inspect
import types
from typing import Any, Callable, Sequence

from .. import kernel
from ..bits import digits_of
from ..errors import InvalidConstraint
from ..events import Cost, Event, Status
from ..propagator import Context, Propagator
from .base import Constraint
from ..text import quoted

NODE_BUDGET = 2_000
MEMO_SIZE = 4096   # supports remembered per propagator, keyed by the scope's domains


class _Budget(Exception):
    pass


_BITS: dict[int, list[int]] = {}


def _bits(mask: int) -> list[int]:
    """The digits of a candidate mask (cached per mask)."""
    ds = _BITS.get(mask)
    if ds is None:
        ds = _BITS[mask] = [d for d in range(mask.bit_length()) if mask >> d & 1]
    return ds


def strictly_between(x: int, y: int, v: int) -> bool:
    """``v`` lies strictly between ``x`` and ``y`` (a between line's cell and its ends;
    the SAT encoding knows this predicate, :func:`csp.sat._between`).

    >>> strictly_between(7, 2, 5), strictly_between(2, 7, 7)
    (True, False)
    """
    return min(x, y) < v < max(x, y)


def outside_ends(x: int, y: int, v: int) -> bool:
    """``v`` lies outside ``x`` .. ``y``, both included (a lockout line's cell and its
    ends; the SAT encoding knows this predicate, :func:`csp.sat._lockout`).

    >>> outside_ends(7, 2, 1), outside_ends(2, 7, 7), outside_ends(3, 3, 3)
    (True, False, False)
    """
    return not min(x, y) <= v <= max(x, y)


#: triple tables of plain functions (no closure), by code, defaults, distinct and n: a
#: rule made by a lambda in a loop (each cell of a between line) builds its table once
_TRIPLES: dict[tuple[Any, ...], list[list[int]]] = {}


def triple_table(pred: Callable[..., bool], distinct: bool, n: int) -> list[list[int]]:
    """The allowed triples of a rule over three cells on digits 1..n as a table: per (x, y)
    the mask of the z with ``pred(x, y, z)`` (all three different when ``distinct``). The
    table is shared (read it, never change it): a plain function without a closure is
    remembered by its code, so equal lambdas made in a loop share one.

    >>> ts = [triple_table(lambda x, y, z: x < z < y, False, 4) for _ in range(2)]
    >>> ts[0][1][4] == 0b1100, ts[0] is ts[1]
    (True, True)
    """
    key = None
    if isinstance(pred, types.FunctionType) and pred.__closure__ is None:
        key = (pred.__code__, id(pred.__globals__), pred.__defaults__,
               repr(pred.__kwdefaults__), distinct, n)
        try:
            table = _TRIPLES.get(key)
        except TypeError:              # unhashable defaults: not remembered
            key = table = None
        if table is not None:
            return table
    digits = range(1, n + 1)
    table = [[0] * (n + 1)] + [
        [0] + [sum(1 << z for z in digits
                   if (not distinct or len({x, y, z}) == 3) and pred(x, y, z))
               for y in digits] for x in digits]
    if key is not None:
        _TRIPLES[key] = table
    return table


def table_supports(table: list[list[int]], da: int, db: int,
                   dc: int) -> list[int] | None:
    """The digits of each of the three cells (candidate masks ``da``, ``db``, ``dc``) that
    take part in an allowed triple of ``table`` (:func:`triple_table`); None when none
    does."""
    ys = _bits(db)
    sa = sb = sc = 0
    for x in _bits(da):
        row = table[x]
        for y in ys:
            z = row[y] & dc
            if z:
                sa |= 1 << x
                sb |= 1 << y
                sc |= z
    if not sc:
        return None
    return [sa, sb, sc]


class FunctionPropagator(Propagator):
    cost = Cost.QUADRATIC
    events = Event.DOM

    def __init__(self, cells: Sequence[int], pred: Callable[..., bool], name: str,
                 prefix: Callable[..., bool] | None = None, distinct: bool = False,
                 budget: int = NODE_BUDGET, n: int | None = None) -> None:
        self.cells = tuple(cells)
        self.scope = tuple(sorted(set(cells)))
        self.pred = pred
        self.prefix = prefix
        self.distinct = distinct
        self.budget = budget
        self.name = name
        # the domain-size product at which the enumeration last ran out of budget: until the
        # domains are clearly smaller, the propagator does not try again (a pure speed-up:
        # skipping only skips pruning, and a fixed scope always runs)
        self.too_big = 1 << 62
        self._memo: dict[tuple[int, ...], dict[int, int]] = {}
        # three different cells (a between or lockout line cell and its ends): the allowed
        # triples as a table, per (x, y) the mask of z, built once for digits 1..n
        self.table: list[list[int]] | None = None
        if n is not None and len(self.cells) == 3 and len(set(self.cells)) == 3:
            self.table = triple_table(pred, distinct, n)

    def _propagate_table(self, ctx: Context) -> Status:
        cand = ctx.cand
        a, b, c = self.cells
        da, db, dc = cand[a], cand[b], cand[c]
        sup = table_supports(self.table, da, db, dc)
        if sup is None:
            ctx.fail("no assignment satisfies it", self.cells)
        sa, sb, sc = sup
        reason = (self.name, self.cells)
        if da & ~sa:
            ctx.remove(a, da & ~sa, reason)
        if db & ~sb:
            ctx.remove(b, db & ~sb, reason)
        if dc & ~sc:
            ctx.remove(c, dc & ~sc, reason)
        return Status.FIX

    #: :meth:`_propagate_table`'s failure (the compiled engine loop's, :meth:`kernel_scan`)
    failure = "no assignment satisfies it"

    def kernel_scan(self) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """A cell of a between or lockout line (three cells, a table): its table's
        supports in C (``csp.constraints._linear_kernel.triple_supports``, the loop of
        :func:`table_supports`) for the compiled engine loop, which keeps each cell's
        supported digits as :meth:`_propagate_table` does; None otherwise."""
        from . import sums
        kern = kernel.active(sums._linear_kernel)
        if (kern is None or self.table is None
                or type(self).propagate is not FunctionPropagator.propagate
                or type(self)._propagate_table is not FunctionPropagator._propagate_table):
            return None
        return kern.triple_supports, (self.table,)

    def propagate(self, ctx: Context) -> Status:
        if self.table is not None:
            return self._propagate_table(ctx)
        cand = ctx.cand
        cells = self.cells
        doms = [cand[c] for c in cells]
        size = 1
        for m in doms:
            size *= m.bit_count()
        if size * 4 > self.too_big and size > 1:
            return Status.FIX
        key = tuple(doms)
        known = self._memo.get(key)
        if known is not None:
            return self._apply(ctx, known)
        lists = [digits_of(m) for m in doms]
        k = len(cells)
        sup = [0] * k
        vals = [0] * k
        pred, prefix, distinct = self.pred, self.prefix, self.distinct
        # position of the first occurrence of a repeated cell (cells listed twice must agree)
        first = {}
        same = [-1] * k
        for i, c in enumerate(cells):
            if c in first:
                same[i] = first[c]
            else:
                first[c] = i
        nodes = [0]
        budget = self.budget

        def rec(i: int, used: int) -> bool:
            nodes[0] += 1
            if nodes[0] > budget:
                raise _Budget
            if i == k:
                if pred(*vals):
                    for j in range(k):
                        sup[j] |= 1 << vals[j]
                    return True
                return False
            found = False
            opts = lists[i] if same[i] < 0 else [vals[same[i]]]
            for d in opts:
                if distinct and used >> d & 1:
                    continue
                vals[i] = d
                if prefix is not None and i + 1 < k and not prefix(*vals[:i + 1]):
                    continue
                if rec(i + 1, used | (1 << d)):
                    found = True
            return found

        try:
            rec(0, 0)
        except _Budget:
            self.too_big = size
            return Status.FIX   # too large for now; woken again as domains shrink
        per_cell: dict[int, int] = {}
        for c, s in zip(cells, sup):
            per_cell[c] = per_cell.get(c, -1) & s
        if len(self._memo) >= MEMO_SIZE:
            self._memo.clear()
        self._memo[key] = per_cell
        return self._apply(ctx, per_cell)

    def _apply(self, ctx: Context, per_cell: dict[int, int]) -> Status:
        cand = ctx.cand
        if not any(per_cell.values()):
            ctx.fail("no assignment satisfies it", self.cells)
        for c, s in per_cell.items():
            if cand[c] & ~s:
                ctx.remove(c, cand[c] & ~s, (self.name, self.cells))
        return Status.FIX


#: the plain functions' (code, defaults, digit count) that took their digits: what
#: ``inspect.signature`` answers depends on nothing else, and reading it was most of a
#: between-lines puzzle's reading (a line's rule is a new closure of the same code)
_ARITY_OK: set[tuple[Any, ...]] = set()


def _arity_key(pred: Any, count: int) -> tuple[Any, ...] | None:
    """The cache key of :func:`check_arity` for a plain function (None for anything
    else: a partial, a callable object, a function given a signature of its own)."""
    if type(pred) is not types.FunctionType or "__signature__" in pred.__dict__ \
            or "__wrapped__" in pred.__dict__:
        return None
    key = (pred.__code__, pred.__defaults__, pred.__kwdefaults__ and
           tuple(sorted(pred.__kwdefaults__.items())), count)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def check_arity(pred: Callable[..., bool], count: int, name: str) -> None:
    """Raise :class:`InvalidConstraint` naming the rule when ``pred`` cannot take ``count``
    digits (one per cell of its rule); predicates whose signature Python cannot read pass.

    >>> check_arity(lambda a, b: a < b, 3, "mine")
    Traceback (most recent call last):
    ...
    csp.errors.InvalidConstraint: rule mine: its predicate takes 2 digits, but the rule has 3 cells
    """
    if not callable(pred):
        raise InvalidConstraint(f"rule {name}: the predicate {quoted(pred)} is not callable")
    key = _arity_key(pred, count)
    if key is not None and key in _ARITY_OK:
        return
    try:
        sig = inspect.signature(pred)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*range(count))
        if key is not None:
            if len(_ARITY_OK) >= 512:
                _ARITY_OK.clear()
            _ARITY_OK.add(key)
    except TypeError:
        takes = [p for p in sig.parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        raise InvalidConstraint(f"rule {name}: its predicate takes {len(takes)} digits, but the "
                                f"rule has {count} cells") from None


class FunctionConstraint(Constraint):
    """``pred(*values)`` must hold for the digits of ``cells`` (in that order).

    >>> FunctionConstraint(lambda a, b, c: a + b == c, [0, 1, 2]).check(1, 2, 3)
    True
    """

    kind = "function"
    repeats = True

    def __init__(self, pred: Callable[..., bool], cells: Sequence[int], name: str = "",
                 prefix: Callable[..., bool] | None = None, distinct: bool = False) -> None:
        self.pred = pred
        self.cells = tuple(cells)
        self.prefix = prefix
        self.distinct = distinct
        self.name = name or getattr(pred, "__name__", "function")
        check_arity(pred, len(self.cells), self.name)
        #: per largest digit, the allowed triples of a three-cell rule (:meth:`supports`)
        self._tables: dict[int, list[list[int]]] = {}

    def propagators(self, n: int) -> list[Propagator]:
        return [FunctionPropagator(self.cells, self.pred, self.name, self.prefix,
                                   self.distinct, n=n)]

    def check(self, *values: int) -> bool:
        if self.distinct and len(set(values)) != len(values):
            return False
        return bool(self.pred(*values))

    def supports(self, doms: list[int]) -> list[int] | None:
        """Exact supports of a rule over three different cells (a between or lockout
        line's cell and its ends) from a table of its allowed triples, built once per
        largest digit; any other scope keeps every digit (the propagator's budgeted
        enumeration is not repeated here).

        >>> f = FunctionConstraint(lambda a, b, c: a < c < b, [0, 1, 2])
        >>> [digits_of(m) for m in f.supports([0b10, 0b10000, 0b1111110])]
        [(1,), (4,), (2, 3)]
        """
        if len(self.cells) != 3 or len(set(self.cells)) != 3:
            return list(doms)
        top = max(m.bit_length() for m in doms) - 1
        if top < 1:
            return None
        tables = self._tables
        table = tables.get(top)
        if table is None:
            table = tables[top] = triple_table(self.pred, self.distinct, top)
        return table_supports(table, *doms)
