"""Fixpoint engine.

All-different constraints are compiled into a fast kernel over int bitmasks (value
elimination through per-cell peer tables, and hidden singles / pigeonhole on full houses);
every other constraint is a :class:`~csp.propagator.Propagator` woken through watch lists and
run cheapest first. Expensive stages (GAC all-different, techniques) only run when the cheap
ones are quiet. A propagator that returns ``Status.FIX`` is not woken by its own removals;
one that returns ``Status.SUBSUMED`` (entailed) is not woken again for the rest of that
:meth:`Engine.propagate` call.
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .budget import Budget
from .events import Contradiction, Cost, Event, Status
from .kernel import active
from .propagator import Context, Propagator, TraceHook

try:                                   # the loop of :meth:`Engine.propagate` in C (optional)
    from . import _engine_kernel
except ImportError:                    # pragma: no cover - not built
    _engine_kernel = None

_DOM, _BOUNDS, _FIXED = int(Event.DOM), int(Event.BOUNDS), int(Event.FIXED)
_SUBSUMED = Status.SUBSUMED
_NOFIX = Status.NOFIX
assert (_DOM, _BOUNDS, _FIXED) == (1, 2, 4)     # as csp/_engine_kernel.c reads them


class Engine:
    """Compiled propagation for one frozen puzzle.

    ``houses`` is a list of ``(name, cells)`` all-different groups; ``props`` the other
    propagators. :meth:`propagate` works in place on a candidate list.
    """

    def __init__(self, n: int, size: int, houses: Sequence[tuple[str, Sequence[int]]],
                 props: Sequence[Propagator],
                 namer: Callable[[int], str] | None = None,
                 tables: dict | None = None,
                 order_namer: Callable[[int], str] | None = None) -> None:
        """``tables`` (:meth:`csp.model.Puzzle.engine`'s build): ``props`` may then hold
        plain relations (:class:`~csp.constraints.binary.Relation`, exactly that class),
        each standing for its :class:`~csp.constraints.binary.BinaryTable` with mask tables,
        made when something reads :attr:`props` (``Relation.table_propagator(n,
        tables)``: the same object as the build made before); the compiled loop runs them
        from the relation's cells and ``tables`` alone (a setter's puzzle has dozens to
        hundreds, and a workbench call reads none of their objects). Likewise an
        ordering bound's spec, a tuple ``(cell, below, above, scope)`` of
        :func:`~csp.constraints.order.order_specs`, stands for its
        :class:`~csp.constraints.order.OrderBoundsPropagator` (named by ``order_namer``)."""
        self.n = n
        self.namer = namer
        self.size = size
        self.all_mask = ((1 << n) - 1) << 1
        self.house_names = [h[0] for h in houses]
        geo = _geometry(n, size, tuple(tuple(h[1]) for h in houses))
        self.geometry = geo
        self.house_cells = geo.house_cells
        self.peers = geo.peers
        # Full houses (n cells): every digit must appear -> hidden singles and pigeonhole.
        self.full = geo.full
        self.full_cells = geo.full_cells
        self.cell_full = geo.cell_full
        raw = self._raw = list(props)
        #: the deferred relations' tables by key (None: every entry is a propagator)
        self._tables = tables
        self._order_namer = order_namer
        self._props: list[Propagator] | None = None if tables is not None else raw
        kernel = active(_engine_kernel) if raw else None
        made = None
        if kernel is not None:         # the loop of _watch in C (the same lists and costs)
            made = (kernel.watch(size, raw) if tables is None else
                    kernel.watch(size, raw, _relation_class(), _BT_COST, _DOM, _OB_COST))
        if made is not None:
            self.watch, self.prop_cost = made
        else:
            props = self.props
            self.prop_cost = [int(p.cost) for p in props]
            self.watch = _watch(size, props) if props else geo.no_watch
        self.levels = sorted(set(self.prop_cost)) or [0]
        #: the compiled loop's propagator tables (made on the first untraced run; False:
        #: out of the kernel's range)
        self._ktables: object = None

    def __getstate__(self) -> dict:
        # the compiled loop's tables are made again on demand: not pickled; the deferred
        # relations pickled as their propagators
        props = self.props
        return {**self.__dict__, "_ktables": None, "_raw": props, "_props": props,
                "_tables": None, "_order_namer": None}

    @property
    def props(self) -> list[Propagator]:
        """The propagators, in their order (the deferred relations' tables made on the
        first read)."""
        made = self._props
        if made is None:
            tables, n = self._tables, self.n
            rel = _relation_class()
            name = self._order_namer
            made = self._props = [
                p.table_propagator(n, tables) if type(p) is rel else
                _NATIVE[7](p, name) if type(p) is tuple else p for p in self._raw]
            # from now on the compiled loop runs these objects (their tables made again
            # from them: a caller may give one a ``propagate`` of its own)
            self._raw = made
            self._tables = self._order_namer = None
            self._ktables = None
        return made

    @props.setter
    def props(self, value: Sequence[Propagator]) -> None:
        self._raw = self._props = list(value)
        self._tables = self._order_namer = None
        self._ktables = None

    def history_free(self) -> bool:
        """True when every propagator is declared ``history_free`` (the engine can be
        shared by the puzzles of the same rules); the deferred relations' tables are."""
        rel = _relation_class()
        return all(kind is rel or kind is tuple or kind.__dict__.get("history_free")
                   for kind in {type(p) for p in self._raw})

    def extended(self, props: Sequence[Propagator]) -> "Engine":
        """A new engine with the same houses and propagators plus ``props`` (e.g. techniques
        run as propagators)."""
        return Engine(self.n, self.size, list(zip(self.house_names, self.house_cells)),
                      self.props + list(props), self.namer)

    @property
    def pure(self) -> bool:
        """True when the model is all-different houses only (no other propagator): search
        then runs the bitboard fast path (:mod:`csp.search`)."""
        return not self._raw

    def bitboards(self, budget: Budget | None = None) -> "BitboardTables":
        """Per-grid tables of the bitboard fast path (built once, within ``budget``, then
        cached)."""
        geo = self.geometry
        if geo.bitboards is None:
            geo.bitboards = BitboardTables(self, budget)
        return geo.bitboards

    # ------------------------------------------------------------------------------
    def propagate(self, cand: list[int], changed: Iterable[int] | None = None,
                  trace: TraceHook | None = None, max_cost: int = 99,
                  budget: Budget | None = None, houses_last: bool = False) -> None:
        """Run to fixpoint in place. ``changed``: cells changed since the last fixpoint
        (``None``: everything). Raises :class:`Contradiction` when a domain empties or a
        rule is violated. Propagators with ``cost > max_cost`` are not run. ``budget``
        (:class:`~csp.budget.Budget`): ticked before each propagator run and handed to the
        propagators as ``ctx.budget`` for their own long loops; raises
        :class:`~csp.errors.TimeLimitExceeded` once spent (``cand`` is then partly
        propagated: every removal made is sound).

        ``houses_last``: the hidden singles and pigeonhole checks of the full houses wait
        until the other propagators are quiet (naked singles still come first), instead of
        running after each propagator that removed something: the houses a run of
        propagators touched are scanned once, not once per propagator. The same fixpoint
        (the rules' propagators narrow monotonically, so the order does not change where
        they meet; the 116 models beyond houses of the workbench's unique and variant sets
        all agree), reached sooner: a third less root propagation on those models. Not for
        traced runs, where the order of the steps is the explanation (the logic solver
        keeps the default).

        Untraced, the loop runs in the compiled ``csp._engine_kernel`` where it is built
        (:meth:`_propagate_compiled`): the same steps in the same order, the propagators
        still called in Python; this method's loop is its reference and fallback."""
        if trace is None and type(cand) is list and type(max_cost) is int:
            kernel = active(_engine_kernel)
            if kernel is not None and self._propagate_compiled(
                    kernel, cand, changed, max_cost, budget, houses_last):
                return
        peers = self.peers
        watch = self.watch
        cell_full = self.cell_full
        full_cells = self.full_cells
        props = self.props
        prop_cost = self.prop_cost
        all_mask = self.all_mask
        nprops = len(props)
        queued = [False] * nprops
        queues: dict[int, list[int]] = {lvl: [] for lvl in self.levels}
        dirty_flag = [False] * len(full_cells)
        dirty: list[int] = []
        stack: list[int] = []

        if changed is None:
            cells: Iterable[int] = range(self.size)
            dirty = list(range(len(full_cells)))
            dirty_flag = [True] * len(full_cells)
            for i in range(nprops):
                if prop_cost[i] <= max_cost:
                    queued[i] = True
                    queues[prop_cost[i]].append(i)
        else:
            cells = changed
        for c in cells:
            m = cand[c]
            if not m:
                raise Contradiction(f"{self._cell_name(c)} has no candidate", "", (c,))
            if not m & (m - 1):
                stack.append(c)
            for k in cell_full[c]:
                if not dirty_flag[k]:
                    dirty_flag[k] = True
                    dirty.append(k)
            for i, ev in watch[c]:
                if not queued[i] and prop_cost[i] <= max_cost:
                    queued[i] = True
                    queues[prop_cost[i]].append(i)

        ctx = Context(cand, trace, budget)
        levels = self.levels
        while True:
            # 1. value elimination from fixed cells (all-different kernel)
            while stack:
                c = stack.pop()
                m = cand[c]
                for p in peers[c]:
                    pm = cand[p]
                    if pm & m:
                        pm ^= m
                        if not pm:
                            raise Contradiction(
                                f"{self._cell_name(p)} has no candidate left "
                                f"(digit {m.bit_length() - 1} in {self._cell_name(c)})",
                                self._house_of(c, p), (c, p))
                        cand[p] = pm
                        if trace is not None:
                            trace(p, m, (self._house_of(c, p), (c,)))
                        if not pm & (pm - 1):
                            stack.append(p)
                        for k in cell_full[p]:
                            if not dirty_flag[k]:
                                dirty_flag[k] = True
                                dirty.append(k)
                        w = watch[p]
                        if w:
                            ev = _DOM
                            if m > pm or m < (pm & -pm):
                                ev |= _BOUNDS
                            if not pm & (pm - 1):
                                ev |= _FIXED
                            for i, sub in w:
                                if sub & ev and not queued[i] and prop_cost[i] <= max_cost:
                                    queued[i] = True
                                    queues[prop_cost[i]].append(i)
            # 2. hidden singles and pigeonhole on dirty full houses (houses_last: once no
            # other propagator is queued)
            if dirty and not (houses_last and any(map(queues.__getitem__, levels))):
                while dirty:
                    k = dirty.pop()
                    dirty_flag[k] = False
                    once = 0
                    twice = 0
                    for c in full_cells[k]:
                        m = cand[c]
                        twice |= once & m
                        once |= m
                    if once != all_mask:
                        missing = (all_mask & ~once).bit_length() - 1
                        name = self.house_names[self.full[k]]
                        raise Contradiction(f"{name}: no place for digit {missing}", name,
                                            full_cells[k])
                    single = once & ~twice
                    if single:
                        for c in full_cells[k]:
                            m = cand[c]
                            h = m & single
                            if h and m != h:
                                if h & (h - 1):
                                    name = self.house_names[self.full[k]]
                                    raise Contradiction(
                                        f"{name}: {self._cell_name(c)} is the only place "
                                        "for two digits", name, (c,))
                                cand[c] = h
                                if trace is not None:
                                    trace(c, m & ~h, (self.house_names[self.full[k]], ()))
                                stack.append(c)
                                for k2 in cell_full[c]:
                                    if not dirty_flag[k2]:
                                        dirty_flag[k2] = True
                                        dirty.append(k2)
                                for i, sub in watch[c]:
                                    if not queued[i] and prop_cost[i] <= max_cost:
                                        queued[i] = True
                                        queues[prop_cost[i]].append(i)
                    if stack:
                        break
                if stack:
                    continue
            # 3. other propagators, cheapest first
            i = -1
            for lvl in levels:
                q = queues[lvl]
                if q:
                    i = q.pop()
                    break
            if i < 0:
                return
            prop = props[i]
            ctx.source = prop.name
            if budget is not None:
                budget.tick("propagation")
            status = prop.propagate(ctx)
            # entailed: left marked as queued, so nothing wakes it again in this call
            queued[i] = status is _SUBSUMED
            if ctx.changes:
                changes = ctx.changes
                ctx.changes = []
                quiet = status is not Status.NOFIX
                for c, old in changes:
                    pm = cand[c]
                    if not pm & (pm - 1):
                        stack.append(c)
                    for k in cell_full[c]:
                        if not dirty_flag[k]:
                            dirty_flag[k] = True
                            dirty.append(k)
                    ev = _DOM
                    if (pm & -pm) != (old & -old) or pm.bit_length() != old.bit_length():
                        ev |= _BOUNDS
                    if not pm & (pm - 1):
                        ev |= _FIXED
                    for j, sub in watch[c]:
                        if sub & ev and not queued[j] and prop_cost[j] <= max_cost:
                            if j == i and quiet:
                                continue
                            queued[j] = True
                            queues[prop_cost[j]].append(j)

    def _propagate_compiled(self, kernel, cand: list[int], changed: Iterable[int] | None,
                            max_cost: int, budget: Budget | None, houses_last: bool) -> bool:
        """:meth:`propagate`'s loop in ``kernel`` (``csp._engine_kernel``); False when the
        engine is out of its range (the caller runs the Python loop). Raises the Python
        loop's :class:`Contradiction` from the kernel's answer."""
        tables = self._ktables
        if tables is None:
            tables = self._ktables = _kernel_tables(kernel, self)
        if tables is False:
            return False
        if not -(1 << 62) < max_cost < 1 << 62:
            return False
        try:
            res = kernel.propagate(tables[0], tables[1], cand, changed, self._raw,
                                   Context(cand, None, budget), max_cost, houses_last,
                                   budget, _SUBSUMED, _NOFIX)
        except AttributeError:
            if self._props is not None:
                raise
            # a deferred relation handed to its Python propagator (a mask past its table:
            # a caller's invalid candidates): the propagators made, the loop run again on
            # them, which raises as it did before the relations were deferred
            self.props
            return self._propagate_compiled(kernel, cand, changed, max_cost, budget,
                                            houses_last)
        if res is None:
            return True
        kind = res[0]
        if kind == 0:
            c = res[1]
            raise Contradiction(f"{self._cell_name(c)} has no candidate", "", (c,))
        if kind == 1:
            _, c, p, m = res
            raise Contradiction(
                f"{self._cell_name(p)} has no candidate left "
                f"(digit {m.bit_length() - 1} in {self._cell_name(c)})",
                self._house_of(c, p), (c, p))
        if kind == 4:                  # a propagator the kernel ran emptied a cell
            name = self.props[res[1]].name
            raise Contradiction(f"{name}: no candidate left", name, (res[2],))
        if kind == 5:                  # an ordering propagator the kernel ran
            prop = self.props[res[1]]
            below = bool(res[2])
            group = (prop.below if below else prop.above)[res[3]]
            raise Contradiction(f"{prop.name}: not enough digits "
                                f"{'below' if below else 'above'}", prop.name, group)
        if kind == 7:                  # a line scan the kernel ran found no arrangement
            prop = self.props[res[1]]
            raise Contradiction(f"{prop.name}: {prop.failure}", prop.name, prop.cells)
        if kind == 9:                  # a quadruple the kernel ran
            prop = self.props[res[1]]
            raise Contradiction(f"{prop.name}: the required digits do not fit", prop.name,
                                prop.cells)
        if kind == 8:                  # an indexer the kernel ran
            prop = self.props[res[1]]
            raise Contradiction(f"{prop.name}: no index can point at the target digit",
                                prop.name, (prop.index,))
        if kind == 6:                  # a renban the kernel ran
            prop = self.props[res[1]]
            raise Contradiction(f"{prop.name}: no window of consecutive digits fits",
                                prop.name, prop.cells)
        name = self.house_names[self.full[res[1]]]
        if kind == 2:
            raise Contradiction(f"{name}: no place for digit {res[2]}", name,
                                self.full_cells[res[1]])
        raise Contradiction(f"{name}: {self._cell_name(res[2])} is the only place "
                            "for two digits", name, (res[2],))

    # -- naming helpers (only used on failures and when tracing) ----------------------------
    def _cell_name(self, c: int) -> str:
        if self.namer is not None:
            return self.namer(c)
        n = self.n
        return f"r{c // n + 1}c{c % n + 1}"

    def _house_of(self, a: int, b: int) -> str:
        for name, cells in zip(self.house_names, self.house_cells):
            if a in cells and b in cells:
                return name
        return "all-different"


def _watch(size: int, props: Sequence[Propagator]) -> list[tuple[tuple[int, int], ...]]:
    """Per cell the ``(index, int(events))`` of each propagator whose scope holds it, in
    the propagators' order (``csp._engine_kernel.watch`` makes the same in C)."""
    watch: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for i, p in enumerate(props):
        ev = int(p.events)
        for c in p.scope:
            watch[c].append((i, ev))
    return [tuple(w) for w in watch]


def _kernel_tables(kernel, eng: Engine) -> tuple[object, object] | bool:
    """The compiled loop's tables of ``eng``: its houses' (kept with its geometry, shared
    by the engines of the same houses) and its propagators'; False past the kernel's range
    (more than 62 digits)."""
    geo = eng.geometry
    if geo.ktables is None:
        try:
            geo.ktables = kernel.geo(eng.size, eng.n, geo.peers, geo.cell_full,
                                     geo.full_cells)
        except (ValueError, OverflowError, TypeError):
            geo.ktables = False
    if geo.ktables is False:
        return False
    index = {lvl: i for i, lvl in enumerate(eng.levels)}
    declined: list[int] = []
    native = _native_specs(kernel, eng._raw, eng.n, eng._tables, declined)
    if declined:       # a deferred relation's tables out of the kernel's range: the loop
        eng.props      # calls its propagator (made now, with the others: the same specs)
    try:
        props = kernel.props(eng.size, eng.watch, list(map(index.__getitem__, eng.prop_cost)),
                             eng.prop_cost, len(eng.levels), native)
    except (ValueError, OverflowError, TypeError):
        return False
    return geo.ktables, props


def _native_specs(kernel, props: Sequence[Propagator], n: int,
                  tables: dict | None = None,
                  declined: list[int] | None = None) -> list[tuple | None]:
    """:func:`_native_spec` of each of ``props``; the binary tables and ordering bounds
    (most of a setter puzzle's propagators, a few kinds of relation) in one loop, each
    relation kind's C tables looked up once. With ``tables`` (an engine's deferred
    relations, :class:`Engine`), a plain relation in ``props`` gives its table
    propagator's spec, ``(1, a, b, tables)`` from its key's mask tables (None: out of the
    kernel's range, its index appended to ``declined``: the caller makes its propagator),
    and an ordering bound's spec tuple ``(2, cell, below, above)``."""
    if not _NATIVE:
        _native_classes()
    bt, ob, rel = _NATIVE[0], _NATIVE[1], _NATIVE[6]
    out: list[tuple | None] = []
    caps: dict[int, tuple] = {}
    bykey: dict = {}
    for p in props:
        kind = type(p)
        if kind is ob and "propagate" not in p.__dict__:     # ordering bounds
            out.append((2, p.cell, p.below, p.above))
            continue
        if kind is tuple and tables is not None:    # a deferred ordering bound's spec
            out.append((2, p[0], p[1], p[2]))
            continue
        if kind is rel and tables is not None:      # a deferred relation's table
            key = p.key
            got = bykey.get(key)
            if got is None:
                uni = tables[key][2]
                got = bykey[key] = (_table_cap(kernel, uni[0], uni[1], uni[2], n)
                                    if uni is not None else False)
            if got is False:
                if declined is not None:
                    declined.append(len(out))
                out.append(None)
            else:
                out.append((1, p.a, p.b, got))
            continue
        if kind is bt and p.uni_a is not None and "propagate" not in p.__dict__:
            got = caps.get(id(p.uni_a))
            if got is not None and got[0] is p.uni_b and got[1] is p.both_a:
                out.append((1, p.a, p.b, got[2]))
                continue
            spec = _native_spec(kernel, p, n)
            if spec is not None:
                caps[id(p.uni_a)] = (p.uni_b, p.both_a, spec[3])
            out.append(spec)
        else:
            out.append(_native_spec(kernel, p, n))
    return out


def _native_spec(kernel, p: Propagator, n: int) -> tuple | None:
    """What the compiled loop needs to run ``p`` itself (the same removals, status and
    contradiction as its ``propagate``), or None (it calls ``p.propagate``): a
    :class:`~csp.constraints.binary.BinaryTable` with mask tables (``(1, a, b, tables)``),
    an :class:`~csp.constraints.order.OrderBoundsPropagator` (``(2, cell, below,
    above)``) and a renban's :class:`~csp.constraints.run.ConsecutiveSetPropagator`
    (``(3, cells, n, None)``: its windows that fit, by the same matching test, without its
    memo), an indexer's :class:`~csp.constraints.element.ElementPropagator` and
    :class:`~csp.constraints.element.ElementHousePropagator` (``(5 or 6, index, line,
    target)``), a quadruple's :class:`~csp.constraints.element.ContainsPropagator`
    (``(7, cells, plan_bits, None)``: its placements as a digit bit per cell), each of exactly that class with its own ``propagate`` (read when the
    engine's tables are made, on its first untraced run); and a propagator whose ``kernel_scan()``
    gives ``(fn, args)``: its ``propagate`` keeps in each cell of ``p.cells`` the digits
    of ``fn(doms, *args)`` (their candidate masks, in order; a mask per cell, or None: it
    fails with ``p.failure``; ValueError, TypeError or OverflowError: ``fn`` declines,
    the propagator's ``propagate`` runs) and returns FIX (``(4, cells, fn, args)``: the
    outside clues' compiled line scans, variants/outside.py)."""
    if not _NATIVE:
        _native_classes()
    kind = type(p)
    if "propagate" in p.__dict__:      # (a propagator's instances have a __dict__)
        return None
    if kind not in _NATIVE or kind is _NATIVE[6]:     # (a Relation is no propagator)
        if kind.kernel_scan is not Propagator.kernel_scan:
            got = p.kernel_scan()
            if got is not None:
                return (4, tuple(p.cells), got[0], tuple(got[1]))
        return None
    if kind is _NATIVE[1]:
        return (2, p.cell, p.below, p.above)
    if kind is _NATIVE[2]:
        return (3, p.cells, p.n, None) if 1 <= p.n <= 62 else None
    if kind is _NATIVE[3] or kind is _NATIVE[4]:
        if not 1 <= p.target <= 62 or len(p.cells) > 62:
            return None
        return (5 if kind is _NATIVE[3] else 6, p.index, p.cells, p.target)
    if kind is _NATIVE[5]:
        if len(p.cells) > 62 or len(p.plan_bits) > 5040:
            return None
        return (7, p.cells, p.plan_bits, None)
    if p.uni_a is None:
        return None
    cap = _table_cap(kernel, p.uni_a, p.uni_b, p.both_a, n)
    return None if cap is False else (1, p.a, p.b, cap)


def _table_cap(kernel, uni_a: tuple, uni_b: tuple, both_a: tuple, n: int) -> object:
    """A binary relation's mask tables in C (``kernel.table``, kept in :data:`_KTABLES`),
    or False past the kernel's range."""
    key = id(uni_a)
    hit = _KTABLES.get(key)
    if hit is None or hit[0] is not uni_a or hit[1] is not uni_b or hit[2] is not both_a:
        try:
            cap = kernel.table(uni_a, uni_b, both_a, n)
        except (ValueError, OverflowError, TypeError):
            return False
        if len(_KTABLES) >= 256:
            _KTABLES.pop(next(iter(_KTABLES)))
        hit = _KTABLES[key] = (uni_a, uni_b, both_a, cap)
    return hit[3]


def _native_classes() -> None:
    """Fill :data:`_NATIVE` (on first use: csp.constraints imports after this module)."""
    from .constraints.binary import BinaryTable
    from .constraints.order import OrderBoundsPropagator
    from .constraints.element import (ContainsPropagator, ElementHousePropagator,
                                      ElementPropagator)
    from .constraints.run import ConsecutiveSetPropagator
    from .constraints.binary import Relation
    from .constraints.order import ordering_from
    _NATIVE.extend((BinaryTable, OrderBoundsPropagator, ConsecutiveSetPropagator,
                    ElementPropagator, ElementHousePropagator, ContainsPropagator,
                    Relation, ordering_from))


def _relation_class() -> type:
    """:class:`~csp.constraints.binary.Relation` (an engine's deferred entries' class)."""
    if not _NATIVE:
        _native_classes()
    return _NATIVE[6]


#: a binary table's cost (``Cost.BINARY``, as an int: the deferred relations' level)
_BT_COST = int(Cost.BINARY)
#: an ordering bound's (``Cost.LINEAR``: the deferred specs' level)
_OB_COST = int(Cost.LINEAR)


#: the classes :func:`_native_spec` knows, BinaryTable, OrderBoundsPropagator,
#: ConsecutiveSetPropagator, ElementPropagator, ElementHousePropagator and
#: ContainsPropagator, then Relation and order.ordering_from (an engine's deferred
#: entries; filled on its first call: csp.constraints imports after this module)
_NATIVE: list = []

#: a binary relation's mask tables in C (``kernel.table``), by the id of its ``uni_a``
#: (kept alive here with the tables, so the id stays theirs): the relations of one kind
#: share their tables (csp/constraints/binary.py ``_unions``)
_KTABLES: dict[int, tuple] = {}


class _Geometry:
    """The tables of an engine that depend only on its houses (shared between engines of
    puzzles with the same houses, e.g. every classic 9x9 puzzle)."""

    __slots__ = ("house_cells", "peers", "full", "full_cells", "cell_full", "no_watch",
                 "bitboards", "ktables", "peer_sets")

    def __init__(self, n: int, size: int, houses: tuple[tuple[int, ...], ...]) -> None:
        # (a two-cell "different" pair, in order, as it stands: an anti-knight grid has
        # some 270 of them next to its 27 houses, and this set-up took 0.7 ms of a new
        # puzzle's first call; the same tables)
        self.house_cells = [h if len(h) == 2 and h[0] < h[1] else tuple(sorted(set(h)))
                            for h in houses]
        peers: list[set[int]] = [set() for _ in range(size)]
        for cells in self.house_cells:
            if len(cells) == 2:
                a, b = cells
                peers[a].add(b)
                peers[b].add(a)
                continue
            for c in cells:
                peers[c].update(cells)
        for c in range(size):
            peers[c].discard(c)
        self.peers: list[tuple[int, ...]] = [tuple(sorted(p)) for p in peers]
        self.full = [i for i, cells in enumerate(self.house_cells) if len(cells) == n]
        self.full_cells = [self.house_cells[i] for i in self.full]
        fh: list[list[int]] = [[] for _ in range(size)]
        for k, cells in enumerate(self.full_cells):
            for c in cells:
                fh[c].append(k)
        self.cell_full = [tuple(x) for x in fh]
        self.no_watch: list[tuple[tuple[int, int], ...]] = [()] * size
        self.bitboards: BitboardTables | None = None
        #: the compiled loop's house tables (csp._engine_kernel; False: out of its range)
        self.ktables: object = None
        #: the peers as frozensets (csp.sat's tables read them), made when first asked
        self.peer_sets: list[frozenset[int]] | None = None

    def __getstate__(self) -> tuple:
        # the compiled loop's tables are made again on demand: not pickled
        return (self.house_cells, self.peers, self.full, self.full_cells, self.cell_full,
                self.no_watch, self.bitboards)

    def __setstate__(self, state: tuple) -> None:
        (self.house_cells, self.peers, self.full, self.full_cells, self.cell_full,
         self.no_watch, self.bitboards) = state
        self.ktables = None
        self.peer_sets = None


_GEOMETRIES: dict[tuple, _Geometry] = {}


def _geometry(n: int, size: int, houses: tuple[tuple[int, ...], ...]) -> _Geometry:
    """Cached :class:`_Geometry` (a small cache: grids seldom vary within one run)."""
    key = (n, size, houses)
    geo = _GEOMETRIES.get(key)
    if geo is None:
        if len(_GEOMETRIES) >= 32:
            _GEOMETRIES.pop(next(iter(_GEOMETRIES)))
        geo = _GEOMETRIES[key] = _Geometry(n, size, houses)
    return geo


class BitboardTables:
    """Cell-bitset tables for search on pure all-different models.

    The fast path keeps, next to the candidate mask of each cell, one cell bitset per digit
    (bit c set: the digit is still possible in cell c): placing a digit clears it from all
    peers in one operation, and a hidden single is a full house whose bitset for a digit has
    one bit left.

    ``peers[c]``: cell bitset of the peers of c; ``home[c]``: bitsets of the full houses
    holding c; ``other[c][p]``: bitsets of the full houses holding p but not c (where p losing
    the digit placed in c can leave a single place); ``houses``: bitsets of all full houses;
    ``full``: every cell. ``other`` and ``pairs`` serve the Python search only (the
    compiled kernel makes its own from the others): they are built when first read
    (:meth:`python_tables`), a third of the tables' building otherwise paid on a new
    house layout's first call (a jigsaw or extra-regions puzzle's, about 1 ms).
    """

    __slots__ = ("n", "size", "full", "peers", "home", "houses", "packed", "_other",
                 "_pairs", "_peer_cells")

    def __init__(self, engine: Engine, budget: Budget | None = None) -> None:
        #: the tables packed for the compiled search (``csp.search``): None until asked,
        #: False past the kernel's sizes
        self.packed = None
        self.n = engine.n
        self.size = size = engine.size
        self.full = (1 << size) - 1
        # (built on a puzzle's first call when its houses are new: sums over mapped bits
        # and list filters rather than generators, the same tables in half the time)
        bit = [1 << c for c in range(size)]
        pick = bit.__getitem__
        self.peers = [sum(map(pick, engine.peers[c])) for c in range(size)]
        self.houses = [sum(map(pick, cells)) for cells in engine.full_cells]
        cell_houses: list[list[int]] = [[] for _ in range(size)]
        for cells, h in zip(engine.full_cells, self.houses):
            for c in cells:
                cell_houses[c].append(h)
        self.home = [tuple(hs) for hs in cell_houses]
        self._peer_cells = engine.peers
        self._other: list[list[tuple[int, ...]]] | None = None
        self._pairs: list[tuple[int, int, int]] | None = None

    def python_tables(self, budget: Budget | None = None) -> None:
        """Build ``other`` and ``pairs`` (once; the Python search's), within ``budget``."""
        if self._other is not None:
            return
        size, home = self.size, self.home
        other = []
        for c in range(size):
            if budget is not None:
                budget.tick("model building")
            row: list[tuple[int, ...]] = [()] * size
            bc = 1 << c
            for p in self._peer_cells[c]:
                row[p] = tuple([h for h in home[p] if not h & bc])
            other.append(row)
        pairs: list[tuple[int, int, int]] = []
        for i, a in enumerate(self.houses):
            for b in self.houses[i + 1:]:
                x = a & b
                if x & (x - 1):
                    pairs.append((x, a & ~x, b & ~x))
        self._pairs = pairs
        self._other = other

    @property
    def other(self) -> list[list[tuple[int, ...]]]:
        if self._other is None:
            self.python_tables()
        assert self._other is not None
        return self._other

    @property
    def pairs(self) -> list[tuple[int, int, int]]:
        if self._pairs is None:
            self.python_tables()
        assert self._pairs is not None
        return self._pairs
