"""Search by a CDCL SAT solver: the puzzle as CNF, solved with PySAT's Glucose.

Depth-first search (:mod:`csp.search`) learns nothing from its failures. Most puzzles do
not need it to, but a few variant puzzles with no givens and weak local rules do: "Solver
needs SET" (a boxless Latin square with 3-cell cages) is unique only through reasoning over
unions of rows and columns, and depth-first search with propagation did not prove its
uniqueness in hours. A conflict-driven clause-learning solver does it in seconds, so
``Puzzle.solve(method="auto")`` hands a search that outgrows a small node budget to this
module. Clause learning is what a SAT library does well, so it is not written here.

The encoding is generic over constraint specs:

* one variable per candidate ``(cell, digit)`` left after root propagation; exactly one
  digit per cell;
* each house (``Constraint.house()``): at most one cell per digit, and on a house of ``n``
  cells at least one (every digit appears);
* a binary :class:`~csp.constraints.Relation`: a clause per forbidden pair of digits;
* :class:`~csp.constraints.Element` (indexers): an implication per index digit;
* a killer cage (a :class:`~csp.constraints.Sum` or :class:`~csp.constraints.SumIn` of
  different digits): one selector per digit combination that fits (exactly one holds; a
  cell's digit needs a selected combination holding it; a selected combination's digits
  all appear), which the solver propagates better than a table of the cage's tuples;
* every other rule: a table of its scope's allowed tuples, enumerated with ``check`` when
  the scope's domains hold few enough tuples (``table_budget``); past that, the rule's
  :class:`~csp.constraints.Automaton` (sums and linear rules: partial sums; renban;
  sandwich, X-sum and skyscraper clues) as layers of reachable states, keeping only states
  from which the rule can still be satisfied. A rule with neither is checked *lazily*: each
  model the solver returns is checked against every rule, and a violated rule forbids
  exactly that tuple of its scope before the solver goes on. All of these are exact, so the
  solutions are those of the model.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(4)).add_grid_houses().givens("1.........2.....")
>>> _ = p.add_sum(["r1c2", "r1c3"], 5)
>>> sols, conflicts = sat_search(p, p.initial_state().cand, limit=10)
>>> len(sols), len(sols) == p.count_solutions(limit=10, method="search")
(3, True)
"""
from __future__ import annotations

import itertools
import threading
import time
from typing import Any, Iterable, Sequence

from .bits import digits_of
from .constraints import AllDifferent, Automaton, Element, Relation, Sum, SumIn
from .errors import NodeLimitExceeded, SudokuCSPError, TimeLimitExceeded
from .events import Contradiction
from .search import propagate_pure

__all__ = ["Encoding", "encode", "sat_search", "solve_limited", "SatUnavailable", "available"]

SOLVER = "glucose42"   # Glucose 4.2: supports interrupts (CaDiCaL and Kissat in PySAT do not)


class SatUnavailable(SudokuCSPError):
    """PySAT (the ``python-sat`` package) is not installed."""


def available() -> bool:
    """True when PySAT can be imported."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


class Encoding:
    """A CNF over candidate variables ``var(cell, digit) = cell * n + digit``; auxiliary
    variables follow ``size * n + n``. ``lazy`` lists the rules checked on each model."""

    def __init__(self, n: int, size: int) -> None:
        self.n = n
        self.size = size
        self.top = size * n + n
        self.clauses: list[list[int]] = []
        self.lazy: list[Any] = []
        #: the candidate masks encoded: a candidate outside them has no clause, so
        #: :meth:`decode` reads only these
        self.cand: list[int] = []

    def var(self, cell: int, digit: int) -> int:
        return cell * self.n + digit

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def decode(self, model: Sequence[int]) -> list[int]:
        """Digits per cell from a model of the solver (a list of signed literals)."""
        true = {lit for lit in model if lit > 0}
        n = self.n
        return [next(d for d in digits_of(m) if c * n + d in true)
                for c, m in enumerate(self.cand)]


def _cells_and_houses(enc: Encoding, cand: list[int]) -> None:
    """Exactly one candidate per cell. Variables of removed candidates get no clause at all
    (no rule mentions them either, and :meth:`Encoding.decode` ignores them): on a 25x25
    grid that saves half the clauses."""
    enc.cand = list(cand)
    clauses, n = enc.clauses, enc.n
    comb = itertools.combinations
    for c, m in enumerate(cand):
        lits = [c * n + d for d in digits_of(m)]
        clauses.append(lits)
        clauses.extend([-a, -b] for a, b in comb(lits, 2))


def _house(enc: Encoding, cand: list[int], cells: Sequence[int]) -> None:
    clauses, n = enc.clauses, enc.n
    cells = sorted(set(cells))
    full = len(cells) == n
    comb = itertools.combinations
    for d in range(1, n + 1):
        has = [c * n + d for c in cells if cand[c] >> d & 1]
        clauses.extend([-a, -b] for a, b in comb(has, 2))
        if full:
            clauses.append(has)


def _relation(enc: Encoding, cand: list[int], con: Relation) -> None:
    a, b = con.a, con.b
    for v in digits_of(cand[a]):
        for w in digits_of(cand[b]):
            if not con.pred(v, w):
                enc.clauses.append([-enc.var(a, v), -enc.var(b, w)])


def _automaton(enc: Encoding, cand: list[int], cells: Sequence[int], auto: Automaton,
               budget: int) -> bool:
    """Encode an automaton read along ``cells``: layer ``i`` has a variable per state after
    ``i`` cells that some digits reach and from which an accepted end is still reachable;
    a digit that leads elsewhere is forbidden from that state. The first layer is the start
    (true). False (nothing added) when the layers hold more than ``budget`` states."""
    doms = [digits_of(cand[c]) for c in cells]
    k = len(cells)
    step = auto.step
    fwd: list[set[Any]] = [{auto.start}]
    count = 0
    for i in range(k):
        nxt = {t for s in fwd[i] for d in doms[i] if (t := step(i, s, d)) is not None}
        count += len(nxt)
        if count > budget:
            return False
        fwd.append(nxt)
    live: list[set[Any]] = [set() for _ in range(k + 1)]
    live[k] = {s for s in fwd[k] if auto.accept(s)}
    for i in range(k - 1, -1, -1):
        live[i] = {s for s in fwd[i]
                   if any((t := step(i, s, d)) is not None and t in live[i + 1]
                          for d in doms[i])}
    clauses, var = enc.clauses, enc.var
    if auto.start not in live[0]:
        clauses.append([])                 # no digits satisfy the rule
        return True
    if auto.distinct:
        _house(enc, cand, cells)
    layer: dict[Any, int | None] = {auto.start: None}   # state -> variable (None: true)
    for i, c in enumerate(cells):
        nxt: dict[Any, int | None] = {}
        for s, sv in layer.items():
            for d in doms[i]:
                t = step(i, s, d)
                lits = [-var(c, d)] if sv is None else [-sv, -var(c, d)]
                if t is None or t not in live[i + 1]:
                    clauses.append(lits)
                    continue
                if i == k - 1:
                    continue
                tv = nxt.get(t)
                if tv is None:
                    tv = nxt[t] = enc.new_var()
                clauses.append(lits + [tv])
        layer = nxt
    return True


def _cage(enc: Encoding, cand: list[int], cells: Sequence[int], totals: Sequence[int],
          budget: int) -> bool:
    """A cage of different digits adding up to one of ``totals`` (its house is encoded
    apart): exactly one digit set (combination) is chosen, each cell's digit belongs to it
    and each of its digits appears. False (nothing added) past ``budget`` combinations."""
    union = 0
    for c in cells:
        union |= cand[c]
    allowed = set(totals)
    combos = []
    for combo in itertools.combinations(digits_of(union), len(cells)):
        if sum(combo) in allowed:
            combos.append(combo)
            if len(combos) > budget:
                return False
    var, clauses = enc.var, enc.clauses
    sel = [enc.new_var() for _ in combos]
    clauses.append(sel)
    clauses.extend([-a, -b] for a, b in itertools.combinations(sel, 2))
    for c in cells:
        for d in digits_of(cand[c]):
            clauses.append([-var(c, d)] + [s for s, combo in zip(sel, combos) if d in combo])
    for s, combo in zip(sel, combos):
        for d in combo:
            clauses.append([-s] + [var(c, d) for c in cells if cand[c] >> d & 1])
    return True


def _element(enc: Encoding, cand: list[int], con: Element) -> None:
    """``line[v - 1] == target`` where v is the digit of ``index``."""
    for v in digits_of(cand[con.index]):
        lits = [-enc.var(con.index, v)]
        if v <= len(con.line) and cand[con.line[v - 1]] >> con.target & 1:
            lits.append(enc.var(con.line[v - 1], con.target))
        enc.clauses.append(lits)


def _table(enc: Encoding, cand: list[int], con: Any, budget: int) -> bool:
    """Encode ``con.check`` over its scope as forbidden tuples (or, when most tuples are
    forbidden, as a choice among the allowed ones). False when the scope's domains hold more
    than ``budget`` tuples."""
    scope = list(dict.fromkeys(con.cells))
    pos = [scope.index(c) for c in con.cells]
    doms = [digits_of(cand[c]) for c in scope]
    total = 1
    for ds in doms:
        total *= len(ds)
    if total > budget:
        return False
    check = con.check
    allowed, forbidden = [], []
    for tup in itertools.product(*doms):
        (allowed if check(*(tup[i] for i in pos)) else forbidden).append(tup)
    var = enc.var
    if len(forbidden) <= len(allowed) * (len(scope) + 1):
        enc.clauses.extend([-var(c, d) for c, d in zip(scope, tup)] for tup in forbidden)
        return True
    # support encoding: one selector per allowed tuple; a candidate needs a selector using it
    sel = [enc.new_var() for _ in allowed]
    enc.clauses.append(sel)
    support: dict[tuple[int, int], list[int]] = {}
    for s, tup in zip(sel, allowed):
        for c, d in zip(scope, tup):
            enc.clauses.append([-s, var(c, d)])
            support.setdefault((c, d), []).append(s)
    for c, ds in zip(scope, doms):
        for d in ds:
            enc.clauses.append([-var(c, d)] + support.get((c, d), []))
    return True


def encode(puzzle, cand: list[int], table_budget: int = 20_000,
           state_budget: int = 50_000,
           spans: dict[int, tuple[int, int]] | None = None) -> Encoding:
    """The CNF of ``puzzle`` restricted to the candidates ``cand`` (one mask per cell).
    ``spans``, when given, receives for each rule (keyed by ``id``) the ``(start, end)``
    range of its clauses in ``enc.clauses``, so a caller can guard one rule's clauses with
    a selector literal (the setter's workbench asks "without this rule?" that way); a rule
    checked lazily has an empty range and is listed in ``enc.lazy``. A rule whose
    ``unary_mask`` restricts ``cand`` adds no clause.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> enc = encode(p, p.initial_state().cand)
    >>> enc.top, len(enc.lazy)
    (68, 0)
    """
    g = puzzle.grid
    enc = Encoding(g.n, g.size)
    _cells_and_houses(enc, cand)
    for con in puzzle.constraints:
        if not con.cells:
            continue                  # whole-puzzle helpers (ordering bounds) add nothing
        start = len(enc.clauses)
        _encode_rule(enc, cand, con, table_budget, state_budget)
        if spans is not None:
            spans[id(con)] = (start, len(enc.clauses))
    return enc


def _encode_rule(enc: Encoding, cand: list[int], con: Any, table_budget: int,
                 state_budget: int) -> None:
    """Add one rule's clauses (or list it in ``enc.lazy``)."""
    h = con.house()
    if h is not None and len(set(h)) > 1:
        _house(enc, cand, h)
    if isinstance(con, AllDifferent) or con.unary_mask() is not None:
        return                        # the house, or already in the candidates
    if isinstance(con, Relation):
        _relation(enc, cand, con)
    elif isinstance(con, Element):
        _element(enc, cand, con)
    elif isinstance(con, (Sum, SumIn)) and con.distinct and len(set(con.cells)) == len(
            con.cells) and _cage(enc, cand, con.cells, (con.total,) if isinstance(
            con, Sum) else con.totals, table_budget // 10):
        pass
    elif _table(enc, cand, con, table_budget):
        pass
    elif (auto := con.automaton()) is not None and _automaton(enc, cand, con.cells, auto,
                                                               state_budget):
        pass
    else:
        enc.lazy.append(con)


def sat_search(puzzle, cand: list[int], limit: int = 2, time_limit: float | None = None,
               propagated: bool = False, table_budget: int = 20_000,
               state_budget: int = 50_000,
               conflict_limit: int | None = None) -> tuple[list[list[int]], int]:
    """Up to ``limit`` solutions from the candidates ``cand``; returns ``(solutions,
    conflicts)``. Raises :class:`TimeLimitExceeded` past ``time_limit`` seconds,
    :class:`NodeLimitExceeded` past ``conflict_limit`` conflicts (the SAT solver's counterpart
    of a node limit) and :class:`SatUnavailable` without PySAT. ``cand`` is not changed. The
    budgets are :func:`encode`'s (0 and 0 check every rule but houses and relations
    lazily)."""
    try:
        from pysat.solvers import Solver
    except ImportError as e:       # pragma: no cover - python-sat is a dependency
        raise SatUnavailable("SAT search needs the python-sat package "
                             "(pip install python-sat)") from e
    deadline = time.perf_counter() + time_limit if time_limit is not None else None
    cand = cand[:]
    if not propagated:
        eng = puzzle.engine()
        if eng.pure:            # bitboards: faster, and locked candidates on big grids
            root = propagate_pure(eng, cand)
            if root is None:
                return [], 0
            cand = root
        else:
            try:
                eng.propagate(cand, None)
            except Contradiction:
                return [], 0
    enc = encode(puzzle, cand, table_budget, state_budget)
    rules = [con for con in puzzle.constraints if con.cells]
    solutions: list[list[int]] = []
    conflicts = 0
    with Solver(name=SOLVER, bootstrap_with=enc.clauses) as solver:
        while len(solutions) < limit:
            if conflict_limit is not None:
                solver.conf_budget(max(1, conflict_limit - conflicts))
            ok = solve_limited(solver, deadline, time_limit, conflict_limit is not None)
            conflicts = solver.accum_stats().get("conflicts", 0)
            if ok is None:
                raise NodeLimitExceeded(f"SAT search stopped after {conflict_limit} conflicts")
            if not ok:
                break
            values = enc.decode(solver.get_model())
            # every rule is checked, not only the lazy ones: the encodings are exact, and
            # this keeps the answer exact even if one were not
            bad = [con for con in rules if not con.check(*(values[c] for c in con.cells))]
            if bad:               # forbid the tuple each violated rule has here
                for con in bad:
                    solver.add_clause([-enc.var(c, values[c]) for c in dict.fromkeys(con.cells)])
                continue
            solutions.append(values)
            solver.add_clause([-enc.var(c, values[c]) for c in range(enc.size)
                               if cand[c] & (cand[c] - 1)])
            if not any(cand[c] & (cand[c] - 1) for c in range(enc.size)):
                break
    return solutions, conflicts


def solve_limited(solver, deadline: float | None, time_limit: float | None,
                  budgeted: bool = False, assumptions: Sequence[int] = ()) -> bool | None:
    """One call of a PySAT ``solver`` under ``assumptions`` (literals taken as true for
    this call only), stopped at ``deadline`` (a ``time.perf_counter()`` value; raises
    :class:`TimeLimitExceeded` naming ``time_limit``). True / False: satisfiable or not;
    None: the conflict budget (``budgeted``) ran out first."""
    assumptions = list(assumptions)
    if deadline is None:
        return (solver.solve_limited(assumptions=assumptions) if budgeted
                else bool(solver.solve(assumptions=assumptions)))
    left = deadline - time.perf_counter()
    if left <= 0:
        raise TimeLimitExceeded(f"search stopped after {time_limit} s")
    timer = threading.Timer(left, solver.interrupt)
    timer.start()
    try:
        res = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    if res is None:
        if budgeted and time.perf_counter() < deadline:
            return None
        raise TimeLimitExceeded(f"search stopped after {time_limit} s")
    solver.clear_interrupt()
    return bool(res)
