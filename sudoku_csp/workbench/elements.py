"""A puzzle's *elements*, the pieces a setter places one at a time, and questions about them.

An element is one given or one rule as a setter draws it: a killer cage, a thermometer, a
dot, an arrow, one odd circle, the anti-knight rule. The grid's own rows, columns and boxes
(the ``classic`` rule) are not elements. :func:`elements` lists them: one per rule bundle the
puzzle was built with (``Puzzle.use``), one per marked cell of the per-cell rules (odd, even,
minimum, maximum: each circle is the setter's own mark), one per rule added without a
bundle, and one per given.

:class:`ElementSat` keeps one SAT solver warm across the setter's questions about the same
puzzle: each element's clauses are guarded by a *selector* literal, so "the puzzle without
element i" is one solve under assumptions (every selector on but i's), not a new encoding.
:func:`uses` reads a logic solve path for the elements each step or propagation names.

>>> from variants import classic_puzzle, killer_cage
>>> p = classic_puzzle("." * 16).use(killer_cage(["r1c1", "r1c2"], 3))
>>> [e.label for e in elements(p)]
['cage 3 at r1c1']
>>> p.givens({"r4c4": 1})
Puzzle(Grid(4, box=2x2), 13 constraints, 1 givens)
>>> [(e.kind, e.label) for e in elements(p)]
[('killer cage', 'cage 3 at r1c1'), ('given', 'given r4c4=1')]
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from csp.bits import digits_of
from csp.constraints import AllDifferent, Constraint
from csp.errors import InvalidArgument, TimeLimitExceeded
from csp.links import link_tables
from csp.model import Puzzle
from csp.state import State
from csp.step import Step, digit_symbol
from techniques import registry
from variants.classic import classic
from variants.parity import even, maximum, minimum, odd

from ..render import rule_name
from csp.text import quoted

__all__ = ["Element", "elements", "without", "ElementSat", "uses", "check_seconds",
           "GENERIC_FAMILIES"]

#: :class:`ElementSat` reads the clock once every this many steps of its encoding (a cell,
#: a house, a rule's step): a 35x35 grid's encoding takes a second or more, and a
#: ``time_limit`` bounds it too
ENCODE_TICKS = 8

#: rules whose bundle marks several cells, each mark a setter's element of its own
PER_CELL = (odd, even, minimum, maximum)

#: technique families that read the grid through houses and weak links only; a step of
#: any other family reads rules, and when it names none, the rules inside its cells are
#: taken as read (see :func:`uses`)
GENERIC_FAMILIES = frozenset({
    "singles", "intersections", "subsets", "fish", "single_digit", "wings", "coloring",
    "chains", "als", "uniqueness", "misc", "templates", "forcing", "exclusion"})


@dataclass(frozen=True, eq=False)
class Element:
    """One given or one rule element of a puzzle (see the module docstring).

    ``index`` is its place in :func:`elements`; ``kind`` "given" or the rule's name
    ("killer cage", "thermo"); ``label`` a readable name, unique in the puzzle ("given
    r1c1=5", "thermo r7c1", "cage 10 at r1c1"); ``cells`` the cells it covers;
    ``constraints`` its constraint specs (none for a given); ``given`` (cell, digit) of a
    given."""

    index: int
    kind: str
    label: str
    cells: tuple[int, ...]
    constraints: tuple[Constraint, ...] = ()
    bundle: Any = None
    given: tuple[int, int] | None = None
    #: the names a step's reason may use for it: its label and its constraints' names
    names: frozenset[str] = field(default_factory=frozenset)

    @property
    def is_given(self) -> bool:
        return self.given is not None

    @property
    def is_global(self) -> bool:
        """A rule over the whole grid (anti-knight, non-consecutive ...) rather than a mark
        on a few cells."""
        return self.bundle is not None and not hasattr(self.bundle, "cells") and len(
            self.constraints) > 1


def _grid_house_ids(puzzle: Puzzle) -> set[int]:
    """ids of the constraints that are the grid's own houses."""
    houses = {frozenset(h.cells) for h in puzzle.grid.houses}
    return {id(c) for c in puzzle.constraints
            if type(c) is AllDifferent and frozenset(c.cells) in houses}


def _split(puzzle: Puzzle, bundle: Any, cons: list[Constraint]) -> list[list[Constraint]]:
    """A per-cell rule's constraints grouped by the marked cell they belong to: the rule
    applied to each cell alone, on a scratch puzzle, names them."""
    try:
        cells = puzzle.grid.cells(bundle.cells)
    except Exception:          # noqa: BLE001 - an unreadable bundle stays one element
        return [cons]
    if len(cells) < 2:
        return [cons]
    by_key: dict[tuple[str, tuple[int, ...]], Constraint] = {
        (c.name, tuple(c.cells)): c for c in cons}
    groups, taken = [], set()
    for cell in cells:
        scratch = Puzzle(puzzle.grid).use(type(bundle)(cell))
        group = [by_key[k] for c in scratch.constraints
                 if (k := (c.name, tuple(c.cells))) in by_key and id(by_key[k]) not in taken]
        taken.update(id(c) for c in group)
        if group:
            groups.append(group)
    rest = [c for c in cons if id(c) not in taken]
    if rest:                       # nothing should be left; never lose a constraint
        groups.append(rest)
    return groups


def _label(puzzle: Puzzle, bundle: Any, cons: Sequence[Constraint]) -> str:
    if len(cons) == 1 and cons[0].name:
        return cons[0].name
    kind = rule_name(bundle) if bundle is not None else rule_name(cons[0])
    cells = getattr(bundle, "cells", None)
    if cells:
        try:
            return f"{kind} {puzzle.grid.name(puzzle.grid.cells(cells)[0])}"
        except Exception:      # noqa: BLE001 - a label is a courtesy
            pass
    return kind


def elements(puzzle: Puzzle) -> list[Element]:
    """The puzzle's rule elements (in the order they were added), then its givens (in
    cell order). Labels are unique: a repeated one gets `` (2)``, `` (3)`` ...

    >>> from variants import classic_puzzle, odd, thermo
    >>> p = classic_puzzle("." * 81).use(odd("r1c1", "r2c2"), thermo("r5c5", "r5c6", "r5c7"))
    >>> [(e.kind, e.label, len(e.constraints)) for e in elements(p)]
    [('odd', 'odd r1c1', 1), ('odd', 'odd r2c2', 1), ('thermo', 'thermo r5c5', 2)]
    """
    grid_houses = _grid_house_ids(puzzle)
    raw: list[tuple[str, Any, list[Constraint]]] = []
    covered: set[int] = set()
    for (b, _k), cons in zip(puzzle.bundles, puzzle.bundle_constraints):
        covered.update(id(c) for c in cons)
        own = [c for c in cons if id(c) not in grid_houses]
        if isinstance(b, classic) or not own:
            continue
        groups = _split(puzzle, b, own) if isinstance(b, PER_CELL) else [own]
        raw.extend((rule_name(b), b, g) for g in groups)
    for c in puzzle.constraints:
        if id(c) not in covered and id(c) not in grid_houses and c.cells:
            raw.append((rule_name(c) if c.kind == "function" else c.kind, None, [c]))
    out: list[Element] = []
    seen: dict[str, int] = {}

    def unique(label: str) -> str:
        seen[label] = seen.get(label, 0) + 1
        return label if seen[label] == 1 else f"{label} ({seen[label]})"

    g = puzzle.grid
    for kind, b, cons in raw:
        label = _label(puzzle, b, cons)
        cells = tuple(sorted({x for c in cons for x in c.cells}))
        names = frozenset({label} | {c.name for c in cons if c.name})
        out.append(Element(len(out), kind, unique(label), cells, tuple(cons), b, None, names))
    for cell, d in sorted(puzzle.given.items()):
        label = f"given {g.name(cell)}={digit_symbol(d)}"
        out.append(Element(len(out), "given", unique(label), (cell,), (), None, (cell, d),
                           frozenset({label})))
    return out


def without(puzzle: Puzzle, drop: Iterable[Element]) -> Puzzle:
    """A new puzzle: ``puzzle`` without the elements ``drop`` (its other bundles applied
    again; a per-cell rule that loses some cells keeps its other constraints as they are).

    >>> from variants import classic_puzzle, killer_cage
    >>> p = classic_puzzle("1" + "." * 15).use(killer_cage(["r1c2", "r1c3"], 7))
    >>> els = elements(p)
    >>> q = without(p, [els[0]])
    >>> len(q.constraints), q.given, len(without(p, els[1:]).given)
    (12, {0: 1}, 0)
    """
    drop = list(drop)
    dropped = {id(c) for e in drop for c in e.constraints}
    gone_givens = {e.given[0] for e in drop if e.given is not None}
    q = Puzzle(puzzle.grid, puzzle.name)
    q.meta = dict(puzzle.meta)
    covered: set[int] = set()
    for (b, _k), cons in zip(puzzle.bundles, puzzle.bundle_constraints):
        covered.update(id(c) for c in cons)
        keep = [c for c in cons if id(c) not in dropped]
        if len(keep) == len(cons):
            q.use(b)
        elif keep:
            q.add(*keep)
    for c in puzzle.constraints:
        if id(c) not in covered and id(c) not in dropped:
            q.add(c)
    q.givens({c: d for c, d in puzzle.given.items() if c not in gone_givens})
    return q


# -- one SAT solver, elements switched by selectors ----------------------------------------------
class ElementSat:
    """One PySAT solver for ``puzzle`` in which each of ``els`` (from :func:`elements`) can be
    switched off: the puzzle is encoded once from full candidate masks (no root propagation,
    which would use every element) with each element's clauses guarded by a selector literal
    (a given is a guarded unit clause), and every question is a solve under assumptions.
    Rules the encoding checks lazily are checked on each model, and a violated one forbids
    that tuple under its own selector, so the answers stay exact.

    ``deadline`` (a ``time.perf_counter()`` value) bounds every call: past it they raise
    :class:`csp.errors.TimeLimitExceeded`.

    >>> from variants import classic_puzzle, killer_cage
    >>> p = classic_puzzle("12..34.." + "." * 8).use(killer_cage(["r3c1", "r3c3"], 3))
    >>> sat = ElementSat(p)
    >>> len(sat.solutions(limit=20)), len(sat.solutions(off=[0], limit=20))
    (1, 12)

    Two rules that cannot hold together show as a core:

    >>> q = classic_puzzle("." * 16).use(killer_cage(["r1c1", "r1c2"], 3),
    ...                                  killer_cage(["r1c1", "r1c2"], 4))
    >>> ElementSat(q).core()
    [0, 1]
    """

    def __init__(self, puzzle: Puzzle, els: Sequence[Element] | None = None,
                 deadline: float | None = None, time_limit: float | None = None) -> None:
        from csp.budget import Budget
        from csp.sat import TIMED_SOLVER, encode, new_solver
        self.puzzle = puzzle
        self.els = list(elements(puzzle) if els is None else els)
        self.deadline = deadline
        self.time_limit = time_limit
        g = puzzle.grid
        self.n, self.size = g.n, g.size
        owner: dict[int, int] = {id(c): e.index for e in self.els for c in e.constraints}
        cand = [g.all_mask] * g.size
        for con in puzzle.constraints:          # unary rules that are no element (rare)
            um = con.unary_mask()
            if um is not None and id(con) not in owner:
                for c in con.cells:
                    cand[c] &= um
        spans: dict[int, tuple[int, int]] = {}
        budget = None                   # the encoding stops at the deadline too (a 35x35
        if deadline is not None:        # grid's takes seconds): TimeLimitExceeded
            budget = Budget(deadline=deadline, every=ENCODE_TICKS)
            budget.time_limit = time_limit                      # for the message
        enc = encode(puzzle, cand, spans=spans, budget=budget)
        self.enc = enc
        self.sel = [enc.new_var() for _ in self.els]
        clauses = enc.clauses
        for e in self.els:
            s = self.sel[e.index]
            for con in e.constraints:
                a, b = spans.get(id(con), (0, 0))
                for k in range(a, b):
                    clauses[k] = [-s] + clauses[k]
                um = con.unary_mask()
                if um is not None:
                    for c in con.cells:
                        clauses.extend([-s, -enc.var(c, d)]
                                       for d in digits_of(cand[c] & ~um))
            if e.given is not None:
                clauses.append([-s, enc.var(*e.given)])
        self.lazy = [(con, owner.get(id(con))) for con in enc.lazy]
        # (csp.sat.TIMED_SOLVER: it sees the deadline's interrupt at once; new_solver hands
        # the clauses to its C code without a Python call each)
        self.solver = new_solver(clauses, TIMED_SOLVER)
        if budget is not None:
            try:
                budget.check("SAT set-up")
            except TimeLimitExceeded:
                self.solver.delete()
                raise
        self.calls = 0
        self._differ: dict[tuple[int, ...], int] = {}

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> "ElementSat":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _on(self, off: Iterable[int]) -> list[int]:
        off = set(off)
        return [-s if i in off else s for i, s in enumerate(self.sel)]

    def _solve(self, assumptions: list[int], deadline: float | None = None
               ) -> list[int] | None:
        """A model's digits per cell under ``assumptions``, lazily checked rules included;
        None when there is none. ``deadline`` (the sooner of it and the solver's own)."""
        from csp.sat import solve_limited
        off = {i for i, s in enumerate(self.sel) if -s in assumptions}
        if deadline is None or (self.deadline is not None and self.deadline < deadline):
            deadline = self.deadline
        while True:
            self.calls += 1
            try:
                ok = solve_limited(self.solver, deadline, self.time_limit,
                                   assumptions=assumptions)
            except TimeLimitExceeded:
                self.solver.clear_interrupt()       # the solver stays usable
                raise
            if not ok:
                return None
            model = self.solver.get_model()
            true = {lit for lit in model if lit > 0}
            var = self.enc.var
            values = [next(d for d in range(1, self.n + 1) if var(c, d) in true)
                      for c in range(self.size)]
            bad = False
            for con, who in self.lazy:
                if who in off:
                    continue
                if not con.check(*(values[c] for c in con.cells)):
                    guard = [] if who is None else [-self.sel[who]]
                    self.solver.add_clause(guard + [-var(c, values[c])
                                                    for c in dict.fromkeys(con.cells)])
                    bad = True
            if not bad:
                return values

    def solutions(self, off: Iterable[int] = (), limit: int = 2,
                  fixed: Iterable[tuple[int, int]] = (),
                  differ: Sequence[int] | None = None,
                  progress: Callable[[int], None] | None = None,
                  deadline: float | None = None, found: list[list[int]] | None = None
                  ) -> list[list[int]]:
        """Up to ``limit`` solutions of the puzzle without the elements ``off`` (indices),
        with the candidates ``fixed`` ((cell, digit) pairs) true, and different from the
        solution ``differ`` when given. The blocking clauses of this call are retired after
        it, so later calls see the whole puzzle again; the "differ from" clause of a
        solution is kept (behind a literal of its own, assumed when asked again), so that
        what the solver learns proving one "without i" question unique serves the next.
        ``progress(found)`` after each; ``deadline`` for this call (raises
        :class:`csp.errors.TimeLimitExceeded`: the solutions found so far are in ``found``
        when a list is passed)."""
        assumptions = self._on(off) + [self.enc.var(c, d) for c, d in fixed]
        act = None
        var = self.enc.var
        if differ is not None:
            key = tuple(differ)
            lit = self._differ.get(key)
            if lit is None:
                lit = self._differ[key] = self.enc.new_var()
                self.solver.add_clause([-lit] + [-var(c, v) for c, v in enumerate(differ)])
            assumptions.append(lit)
        if limit > 1:
            act = self.enc.new_var()
            assumptions.append(act)
        found = [] if found is None else found
        try:
            while len(found) < limit:
                values = self._solve(assumptions, deadline)
                if values is None:
                    break
                found.append(values)
                if progress is not None:
                    progress(len(found))
                if act is not None and len(found) < limit:
                    self.solver.add_clause([-act] + [-var(c, v) for c, v in enumerate(values)])
        finally:
            if act is not None:
                self.solver.add_clause([-act])       # retire this call's clauses
        return found

    def core(self, off: Iterable[int] = ()) -> list[int] | None:
        """When the puzzle without ``off`` has no solution: a set of elements (indices) that
        cannot hold together, shrunk until each one is needed for the conflict (None when it
        has a solution). Empty when the grid's own rules alone conflict."""
        base = set(off)
        if self._solve(self._on(base)) is not None:
            return None
        core = {i for i, s in enumerate(self.sel) if s in set(self.solver.get_core() or ())}
        for i in sorted(core):
            trial = core - {i}
            others = [j for j in range(len(self.sel)) if j not in trial]
            if self._solve(self._on(others)) is None:
                core = trial
        return sorted(core)


# -- which elements a logic path uses ------------------------------------------------------------
class _Owners:
    """Who provides each weak link of the puzzle beyond the grid's own houses: (cell, digit,
    cell, digit) -> element indices; and every element's names for a step's reason."""

    def __init__(self, puzzle: Puzzle, els: Sequence[Element]) -> None:
        g = puzzle.grid
        n = g.n
        self.grid = g
        self.house_of = [set() for _ in range(g.size)]
        for i, h in enumerate(g.houses):
            for c in h.cells:
                self.house_of[c].add(i)
        self.links: dict[tuple[int, int, int, int], set[int]] = {}
        for e in els:
            for con in e.constraints:
                for (a, da), (b, db) in con.weak_links(n):
                    self._add(a, da, b, db, e.index)
                h = con.house()
                if h is not None:
                    cells = sorted(set(h))
                    for i, a in enumerate(cells):
                        for b in cells[i + 1:]:
                            for d in range(1, n + 1):
                                self._add(a, d, b, d, e.index)
        self.by_name: dict[str, set[int]] = {}
        for e in els:
            for name in e.names:
                self.by_name.setdefault(name, set()).add(e.index)
        names = sorted(self.by_name, key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<![\w-])(" + "|".join(re.escape(x) for x in names) + r")(?!\w)"
        ) if names else None
        self.scopes = [(e.index, frozenset(con.cells)) for e in els for con in e.constraints]

    def _add(self, a: int, da: int, b: int, db: int, who: int) -> None:
        if (a, da) > (b, db):
            a, da, b, db = b, db, a, da
        self.links.setdefault((a, da, b, db), set()).add(who)

    def of_link(self, a: int, da: int, b: int, db: int) -> set[int]:
        """The elements behind a weak link, or none when the grid's houses explain it."""
        if a == b or (da == db and self.house_of[a] & self.house_of[b]):
            return set()
        if (a, da) > (b, db):
            a, da, b, db = b, db, a, da
        return self.links.get((a, da, b, db), set())

    def named(self, step: Step) -> set[int]:
        out: set[int] = set()
        for h in step.houses:
            out |= self.by_name.get(h, set())
        if self.pattern is not None:
            for m in self.pattern.finditer(step.explain(2)):
                out |= self.by_name[m.group(1)]
        return out


def uses(puzzle: Puzzle, els: Sequence[Element], steps: Sequence[Step],
         states: Sequence[State]) -> list[int]:
    """How many times each element (by index) takes part in a logic solve path: a count of
    the steps and propagations whose reason names or needs it.

    ``steps`` is the path and ``states`` the state before each step (as
    :func:`sudoku_csp.explain.states_before` gives them); the path starts at the puzzle's
    pencil marks. An element is counted

    * at the start, for each candidate it removes: a given from what it sees, a rule that
      restricts digits (odd, even) from its cells, a rule's weak link from a given's peers;
    * for each step that names it in its houses or its explanation (``Constraint (cage 10
      at r1c1)``, ``thermo r7c1``);
    * for each candidate a step removes through a weak link only it provides: a placement's
      peers, a chain's weak links, a step's eliminations seen from its pattern;
    * for a rule-reading step (not of :data:`GENERIC_FAMILIES`) that names no element, when
      its constraints lie inside the step's cells (inequality bounds along a thermometer).

    >>> from variants import classic_puzzle, killer_cage
    >>> from techniques import StepSolver
    >>> from sudoku_csp.explain import states_before
    >>> p = classic_puzzle("1..." + "." * 12).use(killer_cage(["r4c3", "r4c4"], 3))
    >>> r = StepSolver(unique=False).solve(p)   # several solutions: the logic as far as it goes
    >>> els = elements(p)
    >>> states = list(states_before(p.pencilmarks(), r.steps))
    >>> [e.label for e, k in zip(els, uses(p, els, r.steps, states)) if k]
    ['cage 3 at r4c3', 'given r1c1=1']
    """
    own = _Owners(puzzle, els)
    count = [0] * len(els)
    # the start: unary rules and givens on the bare grid
    st = puzzle.initial_state()
    full = puzzle.grid.all_mask
    links = link_tables(puzzle)
    for e in els:
        for con in e.constraints:
            um = con.unary_mask()
            if um is not None:
                count[e.index] += sum(bin(full & ~um).count("1") for c in con.cells
                                      if c not in puzzle.given)
    given_index = {e.given[0]: e.index for e in els if e.given is not None}
    for c, d in puzzle.given.items():
        for c2, d2 in links.weak_neighbours(c, d):
            if not st.placed[c2] and st.cand[c2] >> d2 & 1:
                if c in given_index:
                    count[given_index[c]] += 1
                for who in own.of_link(c, d, c2, d2):
                    count[who] += 1
    for step, before in zip(steps, states):
        hit = own.named(step)
        for c, d in step.placements:
            for c2, d2 in links.weak_neighbours(c, d):
                if not before.placed[c2] and before.cand[c2] >> d2 & 1:
                    hit |= own.of_link(c, d, c2, d2)
        for ln in step.links:
            if not ln.strong:
                for a in ln.a:
                    for b in ln.b:
                        hit |= own.of_link(a.cell, a.digit, b.cell, b.digit)
        for el in step.eliminations:
            for q in step.pattern:
                hit |= own.of_link(el.cell, el.digit, q.cell, q.digit)
        if not hit:
            t = registry.load().get(step.technique)
            if t is not None and t.family not in GENERIC_FAMILIES:
                cells = {x.cell for x in (*step.pattern, *step.placements, *step.eliminations)}
                hit = {who for who, scope in own.scopes if scope and scope <= cells}
        for who in hit:
            count[who] += 1
    return count


def check_seconds(name: str, value: float | None) -> None:
    """Refuse a time limit that is not None or a finite number of seconds above 0
    (:class:`csp.errors.InvalidArgument` naming ``name``).

    >>> check_seconds("time_limit", 2.5)
    >>> check_seconds("time_limit", -1)
    Traceback (most recent call last):
    ...
    csp.errors.InvalidArgument: time_limit must be a finite number of seconds above 0, got -1
    """
    if value is not None and not (isinstance(value, (int, float)) and not isinstance(
            value, bool) and value > 0 and math.isfinite(value)):
        raise InvalidArgument(f"{name} must be a finite number of seconds above 0, got "
                              f"{quoted(value)}")

