"""Questions about the whole set of a puzzle's solutions: every solution in turn
(:func:`iter_solutions`), how many there are (:func:`count_solutions`, with progress and
cancellation), in how many solutions each candidate appears (:func:`candidate_counts`: the
*true candidates* a setter asks for), and an estimate with a 95 % interval when there are
too many to count (:func:`estimate_count`).

Two engines answer, picked by ``method``:

* ``"search"``: depth-first search with propagation at every node. Models made only of
  all-different houses (classic, jigsaw, diagonal, anti-knight ...: ``Engine.pure``) run on
  the bitboards of :mod:`csp.search`; other models on :meth:`Engine.propagate`.
* ``"sat"``: one SAT solver kept warm (:class:`csp.sat.SatSession`): each solution found
  is blocked by a clause, and true candidates ask one question per candidate not seen yet,
  as an *assumption*, so what the solver learnt answering one question serves the next.
  True candidates ask Glucose; counting, a call per solution, moves to CaDiCaL
  (:data:`csp.sat.ENUM_SOLVER`), which is faster between calls, once it has seen
  :data:`csp.sat.ENUM_SWITCH` solutions cheaply (:data:`csp.sat.ENUM_SWITCH_CONFLICTS`).
  In front of the solver, the compiled kernel of :mod:`csp.cnf_enum` walks the same
  CNF's whole search tree in one call (no learning, no blocking clauses) within a node
  budget; the solver is set up only when the kernel is not built or gives up.

``"auto"`` (default) lists solutions depth-first on pure models up to 9x9 (their
bitboards are fast) and by SAT otherwise. Counts and true candidates take the SAT path
(the compiled kernel first) where that kernel is built, except on those pure models, where
they walk the bitboards in the compiled kernel first (``bb_counts``,
:func:`_counts_compiled` and :func:`_count_compiled`: the Python walk's twin, node for
node; counts only without a ``limit``) within the budget below, at
:data:`SEARCH_NODES_PER_SOLUTION_COMPILED` a solution; without the kernel, on
those pure models, both search the bitboards first, but only while the search
stays cheap (:data:`SEARCH_NODES` nodes plus :data:`SEARCH_NODES_PER_SOLUTION` a solution
found; past the second solution :data:`SEARCH_SLACK` nodes plus as many a solution), then
start over by SAT: a classic grid
with many solutions takes about two nodes a solution, but an anti-knight grid with a few
thousand takes twenty-five, and seconds where the SAT questions take a tenth.

True candidates by search enumerate solutions but skip every subtree in which each
candidate left has already been seen ``cap`` times (the pruning the Interactive Sudoku
Solver uses; on the bitboards a child is skipped before its propagation when its parent's
candidates, less the cell's other digits, are all seen); by SAT, they ask for a solution
holding each candidate still below ``cap`` (a found solution counts for all its candidates
at once; none left means the candidate is false, and that becomes a clause too; after
:data:`REFUTE_RUN` such "none" in a row, one question for all the candidates left, whose
"none" settles them all; when the compiled kernel gave up, the questions start from the
solutions it found). Either way, a count below ``cap`` is exact once
the run is complete.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(4)).add_grid_houses().givens(".2.4....3.......")
>>> res = candidate_counts(p, cap=2)
>>> res.status, res.solutions_seen, res.complete, res.digits(10), res.count(6, 2)
('multiple', 3, True, (1, 2, 4), 2)
>>> candidate_counts(p, cap=2, method="sat").digits(10)
(1, 2, 4)
>>> count_solutions(p).count, sum(1 for _ in iter_solutions(p))
(3, 3)
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, Callable, Iterator, Sequence

from .bits import digits_of
from .budget import gc_paused
from .errors import Cancelled, InvalidArgument, TimeLimitExceeded
from .events import Contradiction
from .kernel import active
from .engine import _engine_kernel
from .search import _choose, _enum_kernel, _locked, _packed, _root, _settle
from .text import quoted

__all__ = ["CandidateCounts", "candidate_counts", "iter_solutions", "count_solutions",
           "SolutionCount", "Estimate", "estimate_count", "METHODS", "digit_classes",
           "swap_reduced"]

#: the engines (see the module's text)
METHODS = ("auto", "search", "sat")

#: progress callbacks are called at most this often (seconds)
PROGRESS_EVERY = 0.2

#: ``"auto"`` on a pure model searches its bitboards first, up to this many nodes plus
#: :data:`SEARCH_NODES_PER_SOLUTION` per solution found, then starts over by SAT: a classic
#: grid with many solutions takes about two nodes a solution, where a SAT call a solution
#: costs ten times more; an anti-knight grid with thousands takes twenty, and SAT wins
SEARCH_NODES = 1000
SEARCH_NODES_PER_SOLUTION = 8
#: ... and once it has found two solutions, up to this many nodes plus
#: :data:`SEARCH_NODES_PER_SOLUTION` per solution: the first budget serves the search for
#: the first two (a hard unique puzzle may need hundreds of nodes), after which a classic
#: grid never ran more than 8 nodes a solution past its second (the workbench sets' 67
#: puzzles of houses only, counts and true candidates), where an anti-knight grid with
#: thousands of solutions gains 17 a solution and used to spend about 100 ms on the
#: search before SAT started over
SEARCH_SLACK = 200
#: :data:`SEARCH_NODES_PER_SOLUTION` for the same walk in the compiled kernel
#: (``bb_counts``: :func:`_counts_compiled`, :func:`_count_compiled`), the first budget and
#: :data:`SEARCH_SLACK` unchanged. A node there costs about 0.5 µs against 25-30 in Python,
#: and what follows it when it gives up is the CNF walk of :mod:`csp.cnf_enum`, a decision
#: of which costs 2-9 µs and which goes on at :data:`csp.cnf_enum.NODES_PER_SOLUTION_CAPPED`
#: (24) decisions a solution, 50 to 200 µs, after the walk so far and the encoding: a
#: bitboard walk still finding a solution every 100 nodes (50 µs) is no dearer a solution
#: than the walk it would hand over to at its cheapest. Measured on every houses-only model
#: of the workbench's sets and the derived set (true candidates with caps 1 and 8, counts,
#: best of 3, one process): 8 (the Python walk's) -> 48 (session of 2026-12-02): the derived
#: u030b tc8 (941 solutions seen, 29 to 36 nodes a solution as it goes) 77 -> 15 ms, v02's
#: count 96-112 -> 38-40 ms. 48 -> 100 (24, 32, 48, 80, 100, 128, 160 tried): the walks that
#: end between 48 and 100 nodes a solution end instead of giving up: v02 and v03 tc8 102 and
#: 86 -> 32 ms, v03's count 95 -> 40, the derived u085a tc8 (a classic grid of 14 givens,
#: 1,270 solutions seen; 1.9x ISS in a held-out run) 54 -> 27, u035b and u021b tc1 8 -> 2.4
#: and 15 -> 9; the walks that give up all the same do so later: u003b and u004b tc8 (over
#: 300,000 nodes to their end) 164 -> 213 and 191 -> 222 ms, the tc1 walks that give up 1-6
#: ms each. Totals over the 107 models and three calls 2,153 -> 2,087 ms; with a cap of 1,
#: :data:`SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1`
SEARCH_NODES_PER_SOLUTION_COMPILED = 100
#: ... and with a cap of 1: there a solution found after the first few shows one or two
#: candidates not seen before, where each steered question of the SAT loop that follows a
#: walk given up shows several, so a walk's solution is worth less than with a cap of 8 or
#: counting. Over the same 107 models (caps of 1 only, best of 3): 8 to 48 all within 1 %
#: (350-353 ms in all; lower rates give up sooner, u030b 13.9 -> 12.2 ms at 8, higher ones
#: see more walks to their end, u033b, u037b, u085b 5-7 -> 1.2-2.7 ms at 24-48); 100: 376 ms
#: (v02, v03, u003b, u004b 6-7 ms more each; u030b 16.7 ms, 2.5x ISS in a held-out run)
SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1 = 48
#: the walk of true candidates on houses-only models (the compiled ``bb_counts`` and its
#: Python twin :func:`_counts_pure`) propagates locked candidates (pointing and claiming,
#: any two houses meeting in two cells or more: :func:`csp.search._locked`) at its root
#: and every node, after the singles. With a cap of 1 a subtree stays open while it holds
#: a candidate not seen yet, false or not: a false one that singles cannot remove keeps
#: whole subtrees in the walk. The derived u030b (cap 1): 72,153 nodes -> 1,921 (ISS,
#: which propagates box-line intersections at every node too, searches 2,260); u085a
#: 73,086 -> 3,158. A node costs 0.5-0.9 µs instead of 0.5 (``bb_locked`` looks at a
#: digit's pairs of houses only where its places changed). Measured on the 107
#: houses-only models of the workbench's sets and the derived set (best of 3, one
#: process; session of 2026-12-03): cap 1 427 -> 388 ms in all (u030b 15.3 -> 1.9,
#: u085a 15.8 -> 2.4, u021b 15.4 -> 5.2, u035b 8.7 -> 1.6); cap 8 1,138 -> 1,092-1,147
#: (u085a 28 -> 3.7, u017b 119 -> 40, u030b 14.2 -> 3.2; walks with no dead ends to cut
#: pay the dearer node: v02, v03 33 -> 42-46, u005b 164 -> 214). The count walk
#: (:func:`_count_compiled`) keeps singles only: there every solution is a leaf, locked
#: candidates cut 1-3 % of its nodes for 25-45 % more a node (u017b's 115,050 solutions
#: 193 -> 273 ms). The budgets a solution above, swept again with it: a cap of 1 at 16,
#: 24, 48, 100: 385, 369, 372, 401 ms; caps above 1 at 24, 48, 100, 200: 1,006, 1,147,
#: 1,092, 1,432 ms (below 100 v02, v03 and u017b give their walks up, at twice the time)
WALK_LOCKED = True


#: :mod:`csp.cnf_enum` and :mod:`csp.sat`, imported on the first count or SAT search (kept
#: out of this module's import) and read from here after (:func:`_late`): ``from . import
#: cnf_enum`` in a function runs importlib's Python (``_handle_fromlist``) on every call
_LATE: tuple[Any, Any] | None = None


def _late() -> tuple[Any, Any]:
    """``(csp.cnf_enum, csp.sat)``, imported on the first call."""
    global _LATE
    if _LATE is None:
        from . import cnf_enum, sat
        _LATE = (cnf_enum, sat)
    return _LATE


_INF = float("inf")


class _Limits:
    """A run's deadline and cancel check, asked cheaply between steps (:meth:`check`)."""

    __slots__ = ("deadline", "time_limit", "cancelled")

    def __init__(self, time_limit: float | None, cancel: Any) -> None:
        if time_limit is not None and (time_limit != time_limit or time_limit < 0):
            raise InvalidArgument(f"time limit must be 0 or more seconds, got {quoted(time_limit)}")
        if time_limit == _INF:
            time_limit = None
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        if cancel is None:             # (most calls: no import on their path)
            self.cancelled = None
        else:
            from .sat import cancel_check
            self.cancelled = cancel_check(cancel)

    @property
    def active(self) -> bool:
        return self.deadline is not None or self.cancelled is not None

    def budget(self) -> Any:
        """A :class:`csp.budget.Budget` of the deadline, for the SAT encoding and the root
        propagation to tick (None without a deadline or a cancel); with a cancel, a
        :class:`csp.budget.CancelBudget`, so that a cancel stops them too (a rule given
        thousands of times over takes minutes to encode)."""
        if self.cancelled is not None:
            from .budget import CancelBudget
            return CancelBudget(self.cancelled, deadline=self.deadline)
        if self.deadline is None:
            return None
        from .budget import Budget
        return Budget(deadline=self.deadline)

    def check(self) -> None:
        if self.cancelled is not None and self.cancelled():
            raise Cancelled("search cancelled")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeLimitExceeded(f"search stopped after {self.time_limit} s")


def _pick(puzzle: Any, method: str) -> str:
    if method not in METHODS:
        raise InvalidArgument(f"unknown method {quoted(method)} ({', '.join(METHODS)})")
    if method != "auto":
        return method
    eng = puzzle.engine()
    return "search" if eng.pure and puzzle.grid.n <= 9 else "sat"


def _pick_counting(puzzle: Any, method: str) -> str:
    """:func:`_pick` for counts and true candidates: where the compiled enumerator of
    :mod:`csp.cnf_enum` is built, ``"auto"`` takes the SAT path on pure models too (the
    kernel walks the tree in front of the solver, ahead of the Python bitboards)."""
    how = _pick(puzzle, method)
    if how == "search" and method == "auto":
        from .cnf_enum import compiled_kernel
        if compiled_kernel() is not None:
            return "sat"
    return how


def _start(puzzle: Any, cand: Sequence[int] | None) -> list[int]:
    return list(puzzle.initial_state().cand if cand is None else cand)


# ---------------------------------------------------------------------------------------
# depth-first search, as generators of solutions (candidate masks, one bit per cell)
# ---------------------------------------------------------------------------------------
class _OverBudget(Exception):
    """A depth-first count passed its node budget (see :func:`_subtree_count`)."""


def _dfs_pure(engine: Any, cand: list[int], limits: _Limits,
              seen: list[int] | None = None, budget: int | None = None,
              per_solution: int = 0, locked: bool = False) -> Iterator[list[int]]:
    """Every solution of a pure model as masks (``C``, one bit per cell), by the bitboard
    search of :mod:`csp.search` (:func:`_dfs_pure_from` its root; ``locked`` as there)."""
    root = _root(engine, cand, locked=locked)
    if root is not None:
        yield from _dfs_pure_from(root, limits, seen, budget, per_solution, locked=locked)


def _dfs_pure_from(root: tuple[Any, list[int], list[int], int], limits: _Limits | None,
                   seen: list[int] | None = None, budget: int | None = None,
                   per_solution: int = 0, boards: bool = False,
                   locked: bool = False) -> Iterator[list[int]]:
    """Every solution below a bitboard node ``(tables, P, C, placed)``: its candidate masks
    ``C``, or with ``boards`` its digit bitboards ``P`` (``P[d]``: the cells holding d).
    With ``seen`` (per digit, the cells where that digit is no longer interesting; the
    caller updates it between solutions), a subtree is skipped once every candidate left in
    it is seen (after two solutions: a subtree may still hold the second solution that
    tells unique from multiple). Raises :class:`_OverBudget` past ``budget`` nodes plus
    ``per_solution`` per solution found (a search that keeps finding solutions cheaply goes
    on), and with ``per_solution`` from the second solution on past :data:`SEARCH_SLACK`
    plus ``per_solution`` per solution. With ``locked`` every node propagates locked
    candidates too (:func:`csp.search._locked`, after its singles; the root should have
    had them: ``_root(..., locked=True)``), as the walk of true candidates does
    (:data:`WALK_LOCKED`)."""
    T, P, C, solved = root
    full = T.full
    weight = [0] * len(C)
    peers = T.peers
    cell = _choose(P, C, solved, full, peers, weight)
    if cell < 0:
        yield P if boards else C
        return
    settle, choose = _settle, _choose
    check = limits.check if limits is not None and limits.active else None
    digits = range(1, T.n + 1)
    found = 0
    nodes = 0
    slack = budget if budget is None or not per_solution else min(budget, SEARCH_SLACK)
    stack: list[tuple[list[int], list[int], int, int, int]] = [(P, C, solved, cell, C[cell])]
    while stack:
        pp, pc, psolved, cell, rest = stack[-1]
        low = rest & -rest
        rest ^= low
        if rest:
            stack[-1] = (pp, pc, psolved, cell, rest)
        else:
            stack.pop()
        nodes += 1
        if check is not None and not nodes & 63:
            check()
        if budget is not None and nodes > (budget if found < 2 else slack) + per_solution * found:
            raise _OverBudget
        digit = low.bit_length() - 1
        if seen is not None and found >= 2:
            # the child's subtree holds at most the parent's candidates less the cell's
            # other digits: skip it unseen (without its propagation) when those are seen
            other = ~(1 << cell)
            for d in digits:
                if pp[d] & ~seen[d] & (other if d != digit else -1):
                    break
            else:
                continue
        P = pp[:]
        C = pc[:]
        s = settle(T, P, C, psolved, [(cell, digit)])
        if s >= 0 and locked and s != full:
            s = _locked(T, P, C, s)
        if s < 0:
            weight[cell] += 1
            continue
        if seen is not None and found >= 2:
            for d in digits:
                if P[d] & ~seen[d]:
                    break
            else:
                continue            # nothing new below
        nxt = choose(P, C, s, full, peers, weight)
        if nxt < 0:
            found += 1
            yield P if boards else C
            continue
        stack.append((P, C, s, nxt, C[nxt]))


def _dfs_general(engine: Any, cand: list[int], limits: _Limits,
                 seen: list[int] | None = None) -> Iterator[list[int]]:
    """:func:`_dfs_pure` for any model, with :meth:`Engine.propagate` at each node and
    dom/wdeg branching; ``seen`` holds per *cell* the digits no longer interesting."""
    from .sat import _root_propagate
    root = _root_propagate(engine, cand)
    if root is not None:
        yield from _dfs_general_from(engine, root, limits, seen)


def _dfs_general_from(engine: Any, cand: list[int], limits: _Limits | None,
                      seen: list[int] | None = None,
                      budget: int | None = None) -> Iterator[list[int]]:
    """:func:`_dfs_pure_from` for any model, below the propagated candidates ``cand``."""
    propagate = engine.propagate
    size = len(cand)
    cells = range(size)
    weight = [1] * size
    check = limits.check if limits is not None and limits.active else None

    def choose(c_: list[int]) -> int:
        best, bk, bw = -1, 99, 1
        for c in cells:
            k = c_[c].bit_count()
            if k > 1 and k * bw < bk * weight[c]:
                bk, bw, best = k, weight[c], c
        return best

    best = choose(cand)
    if best < 0:
        yield cand
        return
    found = 0
    nodes = 0
    stack: list[tuple[list[int], int, int]] = [(cand, best, cand[best])]
    while stack:
        parent, cell, rest = stack[-1]
        low = rest & -rest
        rest ^= low
        if rest:
            stack[-1] = (parent, cell, rest)
        else:
            stack.pop()
        nodes += 1
        if check is not None and not nodes & 15:
            check()
        if budget is not None and nodes > budget:
            raise _OverBudget
        child = parent[:]
        child[cell] = low
        try:
            propagate(child, (cell,))
        except Contradiction as e:
            weight[cell] += 1
            for c in e.cells:
                weight[c] += 1
            continue
        if seen is not None and found >= 2:
            for c in cells:
                if child[c] & ~seen[c]:
                    break
            else:
                continue
        nxt = choose(child)
        if nxt < 0:
            found += 1
            yield child
            continue
        stack.append((child, nxt, child[nxt]))


def _masks_to_digits(C: list[int]) -> list[int]:
    return [m.bit_length() - 1 for m in C]


# ---------------------------------------------------------------------------------------
# every solution, and counting
# ---------------------------------------------------------------------------------------
def iter_solutions(puzzle: Any, cand: Sequence[int] | None = None, *,
                   time_limit: float | None = None, cancel: Any = None,
                   method: str = "auto") -> Iterator[list[int]]:
    """Every solution of ``puzzle`` (a digit per cell) from the candidates ``cand``
    (default: the initial state), one at a time: stop iterating whenever you like. Raises
    :class:`~csp.errors.TimeLimitExceeded` past ``time_limit`` seconds and
    :class:`~csp.errors.Cancelled` when ``cancel`` (a ``threading.Event`` or a callable)
    says stop; the solutions yielded before stand.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens(".2.4....3.......")
    >>> sorted("".join(map(str, s)) for s in iter_solutions(p))
    ['1234431234212143', '1234432131422413', '1234432134122143']
    """
    limits = _Limits(time_limit, cancel)
    how = _pick(puzzle, method)
    start = _start(puzzle, cand)
    if how == "search":
        eng = puzzle.engine()
        gen = _dfs_pure(eng, start, limits) if eng.pure else _dfs_general(eng, start, limits)
        for C in gen:
            yield _masks_to_digits(C)
        return
    from . import cnf_enum
    from .sat import SatSession
    with SatSession(puzzle, start, defer=True, budget=limits.budget()) as s:
        en = cnf_enum.enumerator(s, keep=True)
        if en is not None:             # the compiled enumeration first (csp.cnf_enum)
            listed: list[bytes] = []   # what was yielded, compact, should it give up
            check = limits.check if limits.active else None
            while True:
                code = cnf_enum.run(en, check, en.found + 1)
                for values in en.take():
                    listed.append(bytes(values))
                    yield values
                if code is None:       # gave up: the SAT solver goes on past those listed
                    break
                if code == cnf_enum.DONE:
                    return
                if check is not None:
                    check()
            s.open(check)
            for packed in listed:
                s.block(list(packed))
            del listed
        else:
            s.open(limits.check if limits.active else None)
        s.start(limits.deadline, cancel, limits.time_limit)
        while True:
            values = s.solve()
            if values is None:
                return
            s.block(values)
            yield values


def _sat_lits(puzzle: Any, start: list[int], limits: _Limits, stop_at: int = 0,
              progress: Callable[[int], Any] | None = None) -> Iterator[list[int] | int]:
    """Every solution as the SAT session's literals (no decoding: what counting needs): on
    Glucose, then past :data:`csp.sat.ENUM_SWITCH` solutions on the solver that restarts
    faster between calls (:data:`csp.sat.ENUM_SOLVER`), unless finding those took Glucose
    more than :data:`csp.sat.ENUM_SWITCH_CONFLICTS` conflicts a call. The compiled
    enumeration (:mod:`csp.cnf_enum`) goes first: when it answers, it yields the number
    of its solutions, once (the count is all it keeps; it stops at ``stop_at`` solutions
    when that is not 0; ``progress(count)`` between its slices), and the solver is never
    set up. A first walk that finds solutions rarely is tried against the other branching
    at :data:`csp.cnf_enum.TRIAL_NODES` decisions (:func:`csp.cnf_enum.trial`); a walk
    that gives up walks again once on the other branching
    (:data:`csp.cnf_enum.COUNT_RETRY`) before the solver is set up."""
    cnf_enum, sat = _LATE or _late()
    stop_at = min(stop_at, 1 << 62)    # the kernel's (a limit past it is never reached)
    with sat.SatSession(puzzle, start, defer=True, budget=limits.budget()) as s:
        en = cnf_enum.enumerator(s)
        retry = cnf_enum.COUNT_RETRY
        budget = None                  # the first walk's: cnf_enum.NODES
        # the first walk on the cells' clauses may be traded for the other (cnf_enum.trial)
        trial = (cnf_enum.TRIAL_NODES if cnf_enum.BRANCH_COUNT == 1 and
                 not isinstance(en, cnf_enum.Decided) else None)
        most = [0]                     # the most solutions a walk has found (the trial's two)
        while en is not None:
            on_slice = None
            if progress is not None:
                nxt = [time.perf_counter() + PROGRESS_EVERY]

                def on_slice() -> None:
                    if time.perf_counter() > nxt[0]:
                        most[0] = max(most[0], en.found)
                        progress(most[0])
                        nxt[0] = time.perf_counter() + PROGRESS_EVERY
            check = limits.check if limits.active else None
            try:
                code = cnf_enum.run(en, check, stop_at, on_slice, nodes=budget, upto=trial)
                if code == cnf_enum.PAUSED:            # at the trial
                    first = en
                    most[0] = max(most[0], en.found)
                    code, en = cnf_enum.trial(s, en, check, stop_at, on_slice)
                    if en is not first:                # on the other branching now
                        retry = None
                    if code == cnf_enum.PAUSED:
                        code = cnf_enum.run(en, check, stop_at, on_slice, nodes=budget)
            except (TimeLimitExceeded, Cancelled):
                yield max(most[0], en.found)   # the count so far stands, then the limit
                raise
            if code is not None:
                yield en.found
                return
            trial = None
            if retry is None or retry == cnf_enum.BRANCH_COUNT:
                break
            # nothing was yielded: again, from the first walk's probed root
            en = cnf_enum.enumerator(s, branch=retry, root=en.root())
            retry, budget = None, cnf_enum.COUNT_RETRY_NODES
        s.open(limits.check if limits.active else None)
        s.start(limits.deadline, limits.cancelled, limits.time_limit)
        if s.cand is not None and not s.free:      # decided at the root: one solution
            if s.solve_lits() is not None:
                yield []
            return
        blocked: list[list[int]] | None = []
        while True:
            lits = s.solve_lits()
            if lits is None:
                return
            block = [-lit for lit in lits]
            s.add_clause(block)
            if blocked is not None:
                blocked.append(block)
                if len(blocked) >= sat.ENUM_SWITCH:
                    if s.conflicts() <= sat.ENUM_SWITCH_CONFLICTS * len(blocked):
                        s.switch(sat.ENUM_SOLVER, blocked)
                    blocked = None
            yield lits


@dataclass
class SolutionCount:
    """What :func:`count_solutions` found: ``count`` solutions; ``complete`` when that is
    all of them (False when counting stopped at ``limit``: there are at least ``count``)."""

    count: int
    complete: bool
    time_ms: float = 0.0


@gc_paused()
def count_solutions(puzzle: Any, cand: Sequence[int] | None = None, limit: int | None = None,
                    *, time_limit: float | None = None, cancel: Any = None,
                    progress: Callable[[int], Any] | None = None,
                    method: str = "auto") -> SolutionCount:
    """Count the solutions (up to ``limit`` when given). ``progress(count)`` is called
    every :data:`PROGRESS_EVERY` seconds while counting. Limits and cancellation raise as
    in :func:`iter_solutions`, the exception carrying the count so far as ``e.count``.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> r = count_solutions(p, limit=10)
    >>> count_solutions(p).count, r.count, r.complete
    (288, 10, False)
    """
    if limit is not None and limit < 1:
        raise InvalidArgument(f"limit must be at least 1, got {limit}")
    t0 = time.perf_counter()
    count = 0
    weight = 1
    nxt = t0 + PROGRESS_EVERY
    try:
        limits = _Limits(time_limit, cancel)
        how = _pick_counting(puzzle, method)
        start = _start(puzzle, cand)
        # digits that every solution may swap: one solution of each swap's orbit is
        # counted, times the orbit's size (swap_reduced)
        start, weight = swap_reduced(puzzle, start)
        asked = limit
        if weight > 1:
            if limit is not None:
                limit = -(-limit // weight)
            if progress is not None:
                outer = progress

                def progress(k: int) -> Any:
                    return outer(k * weight)
        gens: list[Iterator[Any]] = []
        if how == "search":
            eng = puzzle.engine()
            if eng.pure and method == "auto":
                # bitboards while they find solutions cheaply, else SAT (see the module)
                gens.append(_dfs_pure(eng, start, limits, budget=SEARCH_NODES,
                                      per_solution=SEARCH_NODES_PER_SOLUTION))
                gens.append(_sat_lits(puzzle, start, limits, limit or 0, progress))
            else:
                gens.append(_dfs_pure(eng, start, limits) if eng.pure
                            else _dfs_general(eng, start, limits))
        else:
            if method == "auto" and limit is None and \
                    _compiled_tables(puzzle.engine()) is not None:
                # the compiled bitboard walk while it finds solutions cheaply, as the
                # Python one without the kernel (_count_compiled), then SAT
                gens.append(_count_compiled(puzzle.engine(), start, limits, progress))
            gens.append(_sat_lits(puzzle, start, limits, limit or 0, progress))
        for gen in gens:
            count = 0
            try:
                for item in gen:       # a solution, or a number of them (csp.cnf_enum)
                    count += item if type(item) is int else 1
                    if limit is not None and count >= limit:
                        return SolutionCount(min(count * weight, asked or 0) if weight > 1
                                             else count, False,
                                             (time.perf_counter() - t0) * 1000)
                    if progress is not None and time.perf_counter() > nxt:
                        progress(count)
                        nxt = time.perf_counter() + PROGRESS_EVERY
            except _OverBudget:
                continue
            break
    except (TimeLimitExceeded, Cancelled) as e:
        e.count = count * weight     # type: ignore[attr-defined]
        raise
    return SolutionCount(count * weight, True, (time.perf_counter() - t0) * 1000)


# ---------------------------------------------------------------------------------------
# true candidates
# ---------------------------------------------------------------------------------------
@dataclass
class CandidateCounts:
    """In how many solutions each candidate appears, counted up to ``cap``.

    ``cand``: the candidate masks asked about (one per cell, after the rules' propagation
    at the root: a candidate outside them is in no solution); ``counts[cell * n + digit]``:
    solutions seen holding it (exact below ``cap`` once ``complete``; a candidate may be
    seen more than ``cap`` times, :meth:`count` caps it); ``refuted``: per cell the digits
    proved to be in no solution. ``complete`` is False when a time limit or cancellation cut
    the run: then a candidate neither seen nor refuted is *undecided*
    (:meth:`undecided`). ``status``: ``"unique"``, ``"multiple"``, ``"unsolvable"``, or
    ``"limit"`` (cut before two solutions were seen). ``solution``: one solution, the first
    found (None if none).
    """

    n: int
    size: int
    cap: int
    cand: list[int]
    counts: list[int]
    refuted: list[int]
    solutions_seen: int = 0
    complete: bool = False
    solution: list[int] | None = None
    method: str = ""
    time_ms: float = 0.0
    #: set by the compiled enumeration's answer (:func:`_kernel_result`): ``(counts,
    #: digits, flat)``, its per-cell pass (``csp._engine_kernel.per_cell`` with ``flat``)
    #: over :attr:`counts` then, which :func:`sudoku_csp.workbench.candidates._per_cell`
    #: takes (and drops) instead of passing over them again
    _cells: Any = field(default=None, init=False, repr=False, compare=False)

    def _keep_cells(self, cells: tuple[Any, Any, Any]) -> None:
        self._cells = cells

    def _take_cells(self) -> tuple[Any, Any, Any] | None:
        """:attr:`_cells`, dropped from here."""
        cells, self._cells = self._cells, None
        return cells

    @property
    def status(self) -> str:
        if self.solutions_seen >= 2:
            return "multiple"
        if not self.complete:
            return "limit"
        return "unique" if self.solutions_seen == 1 else "unsolvable"

    def count(self, cell: int, digit: int) -> int:
        """Solutions holding ``(cell, digit)``, capped at ``cap``."""
        return min(self.counts[cell * self.n + digit], self.cap)

    def mask(self, cell: int) -> int:
        """The digits of ``cell`` seen in at least one solution, as a mask."""
        m = 0
        base = cell * self.n
        counts = self.counts
        for d in range(1, self.n + 1):
            if counts[base + d]:
                m |= 1 << d
        return m

    def digits(self, cell: int) -> tuple[int, ...]:
        """The true candidates of ``cell``: digits in at least one solution seen."""
        base = cell * self.n
        return tuple(d for d in range(1, self.n + 1) if self.counts[base + d])

    def undecided(self, cell: int) -> tuple[int, ...]:
        """Digits of ``cell`` neither seen in a solution nor refuted (only when cut short)."""
        if self.complete:
            return ()
        base = cell * self.n
        m = self.cand[cell] & ~self.refuted[cell]
        return tuple(d for d in range(1, self.n + 1)
                     if m >> d & 1 and not self.counts[base + d])


#: the largest per-candidate count :func:`candidate_counts` tells: a larger cap is this one
#: (2**31 - 1 solutions holding one candidate are days of counting)
MAX_CAP = 2 ** 31 - 1


@gc_paused()
def candidate_counts(puzzle: Any, cand: Sequence[int] | None = None, cap: int = 1, *,
                     time_limit: float | None = None, cancel: Any = None,
                     progress: Callable[[int, int, int], Any] | None = None,
                     method: str = "auto") -> CandidateCounts:
    """True candidates of ``puzzle`` from the candidates ``cand`` (default: its initial
    state), with per-candidate solution counts up to ``cap`` (at most :data:`MAX_CAP`).
    Never raises on a time limit
    or cancellation: the result then says ``complete=False`` and holds what was decided.
    ``progress(solutions_seen, decided, total)`` is called every :data:`PROGRESS_EVERY`
    seconds (``decided`` of ``total`` candidates; the search decides all at its end).

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens(".2.4....3.......")
    >>> res = candidate_counts(p, cap=3)         # r2c3 is 1 in one solution, 2 in two
    >>> res.status, res.solutions_seen, res.digits(6), res.count(6, 1), res.count(6, 2)
    ('multiple', 3, (1, 2), 1, 2)
    """
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise InvalidArgument(f"cap must be a whole number of at least 1, got {quoted(cap)}")
    cap = min(cap, MAX_CAP)            # (the compiled enumerator counts in a C int)
    t0 = time.perf_counter()
    limits = _Limits(time_limit, cancel)
    how = _pick_counting(puzzle, method)
    start = _start(puzzle, cand)
    g = puzzle.grid
    n, size = g.n, g.size

    def fresh(how: str) -> CandidateCounts:
        return CandidateCounts(n, size, cap, start, [0] * (size * n + n + 1), [0] * size,
                               method=how)

    if how == "sat" and method == "auto" and _compiled_tables(puzzle.engine()) is not None:
        how = "search"               # the compiled bitboard walk first (_counts_compiled)
    res = fresh(how)
    try:
        limits.check()               # cancelled (or out of time) before it starts
        if how == "search":
            try:   # "auto": the bitboards within a budget, else SAT (see SEARCH_NODES)
                _counts_by_search(puzzle, res, limits, progress,
                                  SEARCH_NODES if method == "auto" else None)
            except _OverBudget:
                res = fresh("sat")
                _counts_by_sat(puzzle, res, limits, progress)
        else:
            _counts_by_sat(puzzle, res, limits, progress)
        res.complete = True
    except (TimeLimitExceeded, Cancelled):
        pass
    res.time_ms = (time.perf_counter() - t0) * 1000
    return res


def _record(res: CandidateCounts, lits: Sequence[int], s: Any) -> None:
    counts = res.counts
    for lit in lits:
        counts[lit] += 1
    res.solutions_seen += 1
    if res.solution is None:
        res.solution = s.values(lits)


def _counts_by_search(puzzle: Any, res: CandidateCounts, limits: _Limits,
                      progress: Callable[[int, int, int], Any] | None,
                      budget: int | None = None) -> None:
    """Candidate counts by depth-first search; on a pure model within ``budget`` nodes
    plus :data:`SEARCH_NODES_PER_SOLUTION` per solution (raises :class:`_OverBudget`)."""
    eng = puzzle.engine()
    n, size, cap = res.n, res.size, res.cap
    counts = res.counts
    nxt = time.perf_counter() + PROGRESS_EVERY
    if eng.pure:
        if not _counts_compiled(eng, res, limits, progress, budget):
            root = _root(eng, res.cand, locked=WALK_LOCKED)
            if root is not None:
                _counts_pure(root, res, limits, progress, budget)
    else:
        seen_c = [0] * size            # per cell: digits seen cap times
        for C in _dfs_general(eng, res.cand, limits, seen_c):
            base = 0
            for c, m in enumerate(C):
                d = m.bit_length() - 1
                k = counts[base + d] + 1
                counts[base + d] = k
                if k == cap:
                    seen_c[c] |= m
                base += n
            res.solutions_seen += 1
            if res.solution is None:
                res.solution = _masks_to_digits(C)
            if progress is not None and time.perf_counter() > nxt:
                progress(res.solutions_seen, 0, 0)
                nxt = time.perf_counter() + PROGRESS_EVERY
    for c in range(size):            # complete: what was never seen is in no solution
        res.refuted[c] = res.cand[c] & ~res.mask(c)


def _compiled_tables(eng: Any) -> Any:
    """The packed bitboard tables of a pure model up to 9 digits for the compiled kernel
    (``csp._enum_kernel``), or None: not pure, not built (``SUDOKU_CSP_PURE``), or a grid
    it does not take."""
    kernel = active(_enum_kernel)
    if kernel is None or not eng.pure or eng.n > 9:
        return None
    packed = _packed(kernel, eng.bitboards())
    return None if packed is False else (kernel, packed)


def _counts_compiled(eng: Any, res: CandidateCounts, limits: _Limits,
                     progress: Callable[[int, int, int], Any] | None,
                     budget: int | None, locked: bool | None = None) -> bool:
    """:func:`_counts_pure` from the root of ``res.cand`` in the compiled kernel
    (``csp._enum_kernel.bb_counts``: the same walk, node for node, the same skips, budget
    and checks every 64 nodes, so the same counts, solutions seen, first solution and
    stops; ``tests/csp/test_bb_kernel.py`` compares them), but for its budget a solution,
    :data:`SEARCH_NODES_PER_SOLUTION_COMPILED` (a node costs 50 times less;
    :data:`SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1` with a cap of 1). A classic true-candidates call
    walked the CNF in the compiled enumerator of :mod:`csp.cnf_enum` before: about 4,000
    propagated literals and 0.3 ms with its set-up, where these bitboards place a digit
    in a few word operations. True when it answered (``res`` filled; raises
    :class:`_OverBudget`, or the limits' exception with the counts so far, as the Python
    walk does); False when the kernel is not there or does not take the grid. ``locked``
    (default :data:`WALK_LOCKED`): locked candidates at every node."""
    tables = _compiled_tables(eng)
    if tables is None or res.cap > _NO_CAP:
        return False
    kernel, packed = tables
    tick = None
    if limits.active or progress is not None:
        nxt = [time.perf_counter() + PROGRESS_EVERY]

        def tick(found: int) -> None:
            if limits.active:
                limits.check()
            if progress is not None and time.perf_counter() > nxt[0]:
                progress(found, 0, 0)
                nxt[0] = time.perf_counter() + PROGRESS_EVERY
    per = SEARCH_NODES_PER_SOLUTION_COMPILED if res.cap > 1 else \
        SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1
    slack = -1 if budget is None else min(budget, SEARCH_SLACK) if per else budget
    code, counts, found, first, _, error = kernel.bb_counts(
        packed, res.cand, res.cap, -1 if budget is None else budget, per, slack, tick,
        WALK_LOCKED if locked is None else locked)
    if code == 4:                      # not taken: the Python walk
        return False
    if code == 1:
        raise _OverBudget
    if code != 3:                      # 3: the root contradicts (nothing counted)
        res.counts, res.solutions_seen, res.solution = counts, found, first
    if code == 2:
        raise error
    return True


#: the cap :func:`_count_compiled` counts with: above any count (no candidate is ever
#: seen that often, so no subtree is skipped: the walk of ``_dfs_pure`` without ``seen``)
_NO_CAP = 2 ** 31 - 1


def _count_compiled(eng: Any, start: list[int], limits: _Limits,
                    progress: Callable[[int], Any] | None) -> Iterator[int]:
    """:func:`_dfs_pure` within :data:`SEARCH_NODES` as :func:`count_solutions` runs it,
    in the compiled kernel (``bb_counts`` with a cap no count reaches: the same walk node
    for node, at :data:`SEARCH_NODES_PER_SOLUTION_COMPILED` a solution): yields the number
    of solutions once (then the limits' exception when they
    stopped it, as :func:`_sat_lits` does), or raises :class:`_OverBudget`. A classic
    count walked the CNF in the compiled enumerator of :mod:`csp.cnf_enum`: 12,000
    propagated literals and 0.65 ms a call on the workbench's classic set."""
    res = CandidateCounts(eng.n, eng.size, _NO_CAP, start, [], [])
    err: list[BaseException] = []

    def tell(found: int, *_: Any) -> None:
        if progress is not None:
            progress(found)
    try:
        done = _counts_compiled(eng, res, limits, tell if progress is not None else None,
                                SEARCH_NODES, locked=False)
    except (TimeLimitExceeded, Cancelled) as e:
        err.append(e)
        done = True
    if not done:                       # not taken after all (a table overflow): Python
        yield from _dfs_pure(eng, start, limits, budget=SEARCH_NODES,
                             per_solution=SEARCH_NODES_PER_SOLUTION)
        return
    yield res.solutions_seen
    if err:
        raise err[0]


def _counts_pure(root: tuple[Any, list[int], list[int], int], res: CandidateCounts,
                 limits: _Limits, progress: Callable[[int, int, int], Any] | None,
                 budget: int | None) -> None:
    """:func:`_counts_by_search` on a pure model from its bitboard ``root``. A solution
    counts for its candidates in the cells open at the root only (a cell decided there
    holds the same digit in every solution: its count is the number of solutions, filled
    in at the end); with ``cap`` 1 a solution just adds its digit bitboards to the cells
    seen (``seen[d] |= P[d]``), and the counts are read from those at the end."""
    T, P0, C0, solved0 = root
    n, cap, counts = res.n, res.cap, res.counts
    digits = range(1, n + 1)
    seen = [0] * (n + 1)               # per digit: cells seen cap times
    fixed = [P0[d] & solved0 for d in range(n + 1)]   # per digit: cells decided at the root
    nxt = time.perf_counter() + PROGRESS_EVERY
    try:
        if cap == 1:
            for P in _dfs_pure_from(root, limits, seen, budget, SEARCH_NODES_PER_SOLUTION,
                                    boards=True, locked=WALK_LOCKED):
                for d in digits:
                    seen[d] |= P[d]
                res.solutions_seen += 1
                if res.solution is None:
                    res.solution = [0] * res.size
                    for d in digits:
                        x = P[d]
                        while x:
                            low = x & -x
                            x ^= low
                            res.solution[low.bit_length() - 1] = d
                if progress is not None and time.perf_counter() > nxt:
                    progress(res.solutions_seen, 0, 0)
                    nxt = time.perf_counter() + PROGRESS_EVERY
            return
        free = [(c, c * n) for c in range(res.size) if not solved0 >> c & 1]
        for C in _dfs_pure_from(root, limits, seen, budget, SEARCH_NODES_PER_SOLUTION,
                                locked=WALK_LOCKED):
            for c, base in free:
                d = C[c].bit_length() - 1
                k = counts[base + d] + 1
                counts[base + d] = k
                if k == cap:
                    seen[d] |= 1 << c
            res.solutions_seen += 1
            if res.solutions_seen == cap:  # the decided cells are seen cap times too
                for d in digits:
                    seen[d] |= fixed[d]
            if res.solution is None:
                res.solution = _masks_to_digits(C)
            if progress is not None and time.perf_counter() > nxt:
                progress(res.solutions_seen, 0, 0)
                nxt = time.perf_counter() + PROGRESS_EVERY
    finally:                           # the counts the shortcuts left out, even when cut
        if cap == 1:
            for d in digits:
                x = seen[d]
                while x:
                    low = x & -x
                    x ^= low
                    counts[(low.bit_length() - 1) * n + d] = 1
        elif res.solutions_seen:
            k = res.solutions_seen
            for d in digits:
                x = fixed[d]
                while x:
                    low = x & -x
                    x ^= low
                    counts[(low.bit_length() - 1) * n + d] = k


def _counts_by_sat(puzzle: Any, res: CandidateCounts, limits: _Limits,
                   progress: Callable[[int, int, int], Any] | None) -> None:
    with (_LATE or _late())[1].SatSession(puzzle, res.cand, defer=True,
                                          budget=limits.budget()) as s:
        if s.cand is None:             # the root propagation failed: no solution
            res.refuted = list(res.cand)
            return
        # the candidates the root propagation removed are refuted, unless the compiled
        # enumeration answers (then every candidate it never saw is: _kernel_result)
        try:
            seed = _counts_by_kernel(s, res, limits, progress)
        except BaseException:          # cut (the limits): what it saw, the root's refuted
            res.refuted = [c & ~r for c, r in zip(res.cand, s.cand)]
            raise
        if seed is True:
            return
        res.refuted = [c & ~r for c, r in zip(res.cand, s.cand)]
        s.open(limits.check if limits.active else None)
        try:
            _sat_loop(s, res, limits, progress, seed)
        finally:                       # the root-decided cells are in every solution seen
            for lit in s.fixed_lits():
                res.counts[lit] = res.solutions_seen


def _counts_by_kernel(s: Any, res: CandidateCounts, limits: _Limits,
                      progress: Callable[[int, int, int], Any] | None) -> Any:
    """The counts of :func:`_counts_by_sat` by the compiled enumeration of the session's
    encoding (:mod:`csp.cnf_enum`): True when it answered (or was cut by the limits, which
    then raise with what it saw in ``res``); None when it is not there; when it gave up
    (after a second walk on the other branching where it found next to no solution,
    :data:`csp.cnf_enum.CAPPED_RETRY`), the
    enumerator of the walk that found more (``res`` untouched), whose solutions the SAT
    loop starts from (with a cap above 1 the kernel buffers them, to be blocked)."""
    cnf_enum = (_LATE or _late())[0]
    en = cnf_enum.enumerator(s, cap=res.cap, keep=res.cap > 1, listing=False)
    if en is None:
        return None
    retry = cnf_enum.CAPPED_RETRY
    if retry == cnf_enum.BRANCH_CAPPED:
        retry = None
    budget = None                      # the first walk's: cnf_enum.NODES_CAPPED
    seed = None
    while True:
        on_slice = None
        if progress is not None:
            nxt = [time.perf_counter() + PROGRESS_EVERY]

            def on_slice() -> None:
                if time.perf_counter() > nxt[0]:
                    progress(en.found, 0, 0)
                    nxt[0] = time.perf_counter() + PROGRESS_EVERY
        try:
            code = cnf_enum.run(en, limits.check if limits.active else None, 0, on_slice,
                                True, nodes=budget)
        except (TimeLimitExceeded, Cancelled):
            _kernel_result(en, res, False)
            raise
        if code is not None:
            _kernel_result(en, res, True)
            return True
        # gave up: the SAT loop starts from the walk that found more
        if seed is None or en.found > seed.found:
            seed = en
        if retry is None or en.found >= cnf_enum.CAPPED_RETRY_FOUND:
            return seed
        # walk again on the other branching (cnf_enum.CAPPED_RETRY), nothing told yet
        en = cnf_enum.enumerator(s, cap=res.cap, keep=res.cap > 1, listing=False,
                                 branch=retry, root=en.root())
        retry, budget = None, cnf_enum.CAPPED_RETRY_NODES


def _kernel_result(en: Any, res: CandidateCounts, complete: bool) -> None:
    """Copy a kernel enumerator's counts into ``res`` (complete: every candidate never
    seen is refuted)."""
    res.counts = en.counts()
    res.solutions_seen = en.found
    res.solution = en.first
    if complete:
        kernel = active(_engine_kernel)
        got = (kernel.per_cell(res.counts, res.n, res.size, res.cap, True)
               if kernel is not None and type(res.counts) is list else None)
        if got is not None:            # the masks, and the answer's per-cell pass with them
            seen = got[0]
            res._keep_cells((res.counts, got[1], got[2]))
        else:
            seen = seen_masks(res.counts, res.n, res.size)
        res.refuted[:res.size] = [m & ~s for m, s in zip(res.cand, seen)]


def seen_masks(counts: list[int], n: int, size: int) -> list[int]:
    """Per cell the mask of the digits whose entry of ``counts`` (``cell * n + digit``)
    is true (``csp._engine_kernel.per_cell`` in C; this pass its reference).

    >>> seen_masks([0, 1, 0, 0, 2, 3, 3], 2, 3)   # cell 0 digit 1, cell 1 digit 2, ...
    [2, 4, 6]
    """
    kernel = active(_engine_kernel)
    if kernel is not None and type(counts) is list:
        got = kernel.per_cell(counts, n, size, None)
        if got is not None:
            return got
    seen = [0] * size
    # the candidates seen (count > 0), picked in C: a pass over those alone
    for i in compress(range(1, size * n + 1), counts[1:size * n + 1]):
        c, d = divmod(i - 1, n)
        seen[c] |= 2 << d
    return seen


def digit_classes(puzzle: Any, cand: Sequence[int], n: int) -> list[int]:
    """The sets of digits (masks of two digits or more) that the solutions of ``puzzle``
    from the candidates ``cand`` may swap among themselves: every rule is
    digit-symmetric (:meth:`csp.constraints.Constraint.digit_symmetric`: houses, equal
    and not-equal pairs) and each cell's candidates hold all of a set or none of it (a
    given parts its digit from the others). Then any permutation of a set's digits maps a
    solution to a solution. Empty when a rule is not digit-symmetric.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1...............")
    >>> [bin(m) for m in digit_classes(p, p.initial_state().cand, 4)]
    ['0b11100']
    >>> q = Puzzle(Grid(4)).add_grid_houses().add_less("r2c1", "r2c2")
    >>> digit_classes(q, q.initial_state().cand, 4)
    []
    """
    singles = 0                        # a digit decided in some cell is a class of its own
    for m in cand:
        if not m & (m - 1):
            singles |= m
    if singles | 1 == (2 << n) - 1:    # every digit: a classic puzzle's givens
        return []
    for c in puzzle.constraints:
        if not c.digit_symmetric():
            return []
    groups: dict[int, int] = {}
    for d in range(1, n + 1):
        bit = 1 << d
        sig = 0                        # the cells that may hold d
        for i, m in enumerate(cand):
            if m & bit:
                sig |= 1 << i
        groups[sig] = groups.get(sig, 0) | bit
    return [m for m in groups.values() if m & (m - 1)]


def swap_reduced(puzzle: Any, cand: list[int]) -> tuple[list[int], int]:
    """``(cand', weight)``: the solutions from ``cand`` number ``weight`` times those from
    ``cand'``. For each set of digits that the solutions may swap (:func:`digit_classes`)
    with a house of all ``n`` digits in which exactly as many cells as the set has digits
    may hold them (an empty grid: a row), those cells hold the set's digits in every
    solution, each once; swapping them gives ``k!`` distinct solutions (``k`` digits)
    and exactly one of them has them in increasing order along the house: ``cand'`` fixes
    that order, ``weight`` is the product of the ``k!``. ``(cand, 1)`` otherwise.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1...............")
    >>> cand, weight = swap_reduced(p, p.initial_state().cand)
    >>> weight, [bin(m) for m in cand[:4]]
    (6, ['0b10', '0b100', '0b1000', '0b10000'])
    """
    n = puzzle.grid.n
    classes = digit_classes(puzzle, cand, n)
    if not classes:
        return cand, 1
    houses = [h for h in (c.house() for c in puzzle.constraints)
              if h is not None and len(h) == n]
    cand = list(cand)
    weight = 1
    for m in classes:
        k = bin(m).count("1")
        for h in houses:
            cells = [c for c in h if cand[c] & m]
            if len(cells) == k:        # they hold the k digits, one each
                for c, d in zip(cells, digits_of(m)):
                    cand[c] = 1 << d
                weight *= math.factorial(k)
                break
    return cand, weight


def _spread(res: CandidateCounts, values: Sequence[int], classes: list[int]) -> None:
    """Count the solutions that the solution ``values`` gives by swapping the digits of
    each of ``classes`` (:func:`digit_classes`): where a class has ``m`` digits, ``k`` of
    them in the solution, each of its digits ``d`` at a cell holding one of them is there in
    ``perm(m - 1, k - 1)`` distinct solutions (the other ``k - 1`` digits sent anywhere
    else in the class). A class whose number is below the cap adds nothing (those counts
    stay the solutions seen, exact), else its candidates are at the cap."""
    n, cap, counts = res.n, res.cap, res.counts
    used = 0
    for v in values:
        used |= 1 << v
    for m in classes:
        k = bin(used & m).count("1")
        if not k or math.perm(bin(m).count("1") - 1, k - 1) < cap:
            continue
        ds = digits_of(m)
        for c, v in enumerate(values):
            if m >> v & 1:
                base = c * n
                for d in ds:
                    if counts[base + d] < cap:
                        counts[base + d] = cap


def _sat_loop(s: Any, res: CandidateCounts, limits: _Limits,
              progress: Callable[[int, int, int], Any] | None, seed: Any = None) -> None:
    """The SAT path of :func:`_counts_by_sat`: a first and a second solution (unique or
    not), then a question per candidate seen fewer than ``cap`` times. ``seed``: a kernel
    enumerator that gave up (:func:`_counts_by_kernel`); its solutions count already (they
    are distinct models of the same CNF: with a cap above 1 each is blocked, so the solver
    finds others), and the questions start from its counts."""
    s.start(limits.deadline, limits.cancelled, limits.time_limit)
    n, cap = res.n, res.cap
    # digits that every solution may swap (an empty grid of houses and anti-knight pairs):
    # each solution found counts its swapped twins too (_spread), which no question then
    # asks about (an empty boxless anti-knight grid with palindromes, 362,880 solutions:
    # 23 questions, one of 3 s, -> 2)
    classes = digit_classes(s.puzzle, res.cand, n)
    if seed is not None and seed.found:
        res.counts = seed.counts()
        res.solutions_seen = seed.found
        res.solution = seed.first
        if cap > 1:
            kept = seed.take()
            assert len(kept) == seed.found    # a restart empties the buffer with the counts
            for values in kept:
                s.block(values)
                if classes:
                    _spread(res, values, classes)
        else:
            if seed.found == 1:
                s.block(res.solution)
            if classes:
                _spread(res, res.solution, classes)
    counts = res.counts
    if res.solutions_seen == 0:
        first = s.solve_lits()
        if first is None:
            res.refuted = list(res.cand)
            return
        _record(res, first, s)
        if classes:
            _spread(res, s.values(first), classes)
        s.block_lits(first)
    if res.solutions_seen == 1:
        second = s.solve_lits()
        if second is None:             # unique: every other candidate is false
            for c, m in enumerate(s.cand):
                res.refuted[c] |= m & ~(1 << res.solution[c])
            return
        _record(res, second, s)
        if classes:
            _spread(res, s.values(second), classes)
        if cap > 1:
            s.block_lits(second)
    todo = [c * n + d for c in s.free for d in range(1, n + 1) if s.cand[c] >> d & 1]
    # a question per candidate below the cap (a solution holding it, assumed for that call
    # only): an answer counts for all its candidates, a "none" refutes that one. After
    # REFUTE_RUN "none" in a row, one question for all the candidates left (a solution
    # holding any of them: their clause, switched on by a fresh literal assumed for that
    # call): its "none" refutes them all in one call (a puzzle with few solutions has
    # hundreds of false candidates: v29 of the workbench's variants, 3 solutions, 442
    # calls -> 10); an answer goes back to a question each
    total = len(todo)
    nxt = time.perf_counter() + PROGRESS_EVERY
    misses = 0
    # a "none" that took a long proof (REFUTE_COSTLY): every later question is for all the
    # candidates left at once
    costly = False
    i = 0
    # steering (STEER_CONFLICTS): decided after STEER_FIRST calls, again every STEER_EVERY
    steer = False
    check_at = s.calls + STEER_FIRST if STEER_CONFLICTS is not None else -1
    while i < len(todo):
        v = todo[i]
        if counts[v] >= cap:
            i += 1
            continue
        if s.calls >= check_at >= 0:
            steer = s.conflicts() <= STEER_CONFLICTS * s.calls
            check_at = s.calls + STEER_EVERY
        if steer:                      # towards the candidates still below the cap
            s.prefer([w if counts[w] < cap else -w for w in todo])
        if misses >= REFUTE_RUN or costly:
            rest = [w for w in todo[i:] if counts[w] < cap]
            act = s.new_var()
            s.add_clause([-act] + rest)
            lits = s.solve_lits([act])
            s.add_clause([-act])       # that clause is off for good
            if lits is None:           # no solution left holds any of them: counts exact
                for w in rest:
                    if not counts[w]:
                        c = (w - 1) // n
                        res.refuted[c] |= 1 << (w - c * n)
                return
            misses = 0
        else:
            before = s.conflicts()
            lits = s.solve_lits([v])
            if lits is None:           # no solution left holds it (one found may)
                c = (v - 1) // n
                s.exclude(c, v - c * n)
                if not counts[v]:
                    res.refuted[c] |= 1 << (v - c * n)
                misses += 1
                costly = s.conflicts() - before >= REFUTE_COSTLY
                i += 1
                continue
        _record(res, lits, s)
        if classes:
            _spread(res, s.values(lits), classes)
        if cap > 1:
            s.block_lits(lits)
        if progress is not None and time.perf_counter() > nxt:
            progress(res.solutions_seen, i, total)
            nxt = time.perf_counter() + PROGRESS_EVERY


#: "none" answers in a row after which :func:`_sat_loop` asks about all the candidates
#: left at once
REFUTE_RUN = 3
#: ... and a "none" that took at least this many conflicts (a proof of its own) makes
#: every later question one about all the candidates left: where a candidate's "none" is
#: that dear, one proof for all of them is cheaper than one each (a derived "Solver needs
#: SET", 4 solutions: "none" of 10,000-40,000 conflicts, 0.2-0.9 s each; its true
#: candidates took 14 questions and 4.8-5.4 s, now 6 and 2.1-2.4 s, the count of it 2 s).
#: A "none" is always exact, so this changes the calls, never an answer
REFUTE_COSTLY = 2000

#: :func:`_sat_loop` steers the solver while its calls are cheap (at most this many
#: conflicts a call, all calls so far): before each question, every candidate still below
#: the cap is preferred true and every other false (:meth:`csp.sat.SatSession.prefer`, the
#: solver's phases: a hint, never a change to an answer), so that a solution found holds
#: many of those at once. Without it the solver's saved phases hand back a solution next to
#: the last one, and the others pile up counts past the cap: an empty 16x16 with a cap of
#: 8 saw 7,397 solutions in 5,481 calls (10 s), steered 2,108 in about 200 (0.85 s).
#: Where each call is a search of its own (an empty non-consecutive 9x9: 1,100 conflicts a
#: call), the hints cost more than they save (5.7 -> 9.7 s): no steering there. None: never
STEER_CONFLICTS: int | None = 20
#: ... decided after this many calls of the session, then again every STEER_EVERY calls
STEER_FIRST = 4
STEER_EVERY = 16


# ---------------------------------------------------------------------------------------
# estimates
# ---------------------------------------------------------------------------------------
@dataclass
class Estimate:
    """A Monte-Carlo estimate of the number of solutions: ``estimate`` (the mean of
    ``samples`` probes), its standard error ``stderr`` and the 95 % interval ``low`` ..
    ``high`` (mean +- 1.96 standard errors, never below the ``found`` distinct solutions
    the probes met). ``exact``: the search tree was small enough to count outright (then
    ``estimate == low == high`` is the count and ``samples`` is 0)."""

    estimate: float
    stderr: float
    samples: int
    low: float
    high: float
    found: int = 0
    exact: bool = False
    time_ms: float = 0.0
    #: the probes' values (kept for tests and for combining runs)
    values: list[float] = field(default_factory=list, repr=False)

    @property
    def rel_err(self) -> float:
        """Half the interval's width relative to the estimate, in percent."""
        return 100.0 * 1.96 * self.stderr / self.estimate if self.estimate else 0.0


def _summary(values: list[float], found: int) -> tuple[float, float, float, float]:
    k = len(values)
    if not k:
        return 0.0, math.inf, float(found), math.inf
    mean = sum(values) / k
    if k > 1:
        var = sum((x - mean) ** 2 for x in values) / (k - 1)
        se = math.sqrt(var / k)
    else:
        se = math.inf
    low = max(mean - 1.96 * se, float(found))
    high = mean + 1.96 * se
    return mean, se, low, high


#: :func:`estimate_count`'s first exact count: search nodes on models made only of houses,
#: and on others (their propagation costs more a node); they bound that try (not measured)
EXACT_NODES_PURE = 20_000
EXACT_NODES = 2_000


def estimate_count(puzzle: Any, cand: Sequence[int] | None = None, *, samples: int = 1000,
                   seed: int | None = 0, time_limit: float | None = None, cancel: Any = None,
                   progress: Callable[[Estimate], Any] | None = None,
                   exact_nodes: int | None = None) -> Estimate:
    """Estimate the number of solutions by Knuth's random probes of the search tree
    (D. E. Knuth, "Estimating the efficiency of backtrack programs", 1975).

    Each probe walks from the root to a leaf: at each node it propagates, picks the
    branching cell as the search does, tries each of its digits and keeps those that
    propagation does not refute (``k`` of them), follows one of them at random and
    multiplies its weight by ``k``. A probe that ends on a solution is worth its weight, one
    that ends on a contradiction 0. The expected value of a probe is exactly the number of
    solutions (every solution leaf is reached with probability 1 / its weight), so the mean
    of many probes is an unbiased estimate; the interval is the normal one, mean +- 1.96
    standard errors, which assumes enough probes for the mean to be near-normal: on a tree
    whose solutions sit in a few rare branches the probes may all miss them and the
    interval is then too narrow (more ``samples`` help). On models with rules beyond
    all-different houses a child is kept only when the SAT solver finds a solution in it
    (one solver kept warm, the probe's path as assumptions), so no probe ends in a dead end;
    near the leaves (few cells open) a probe counts the subtree below it exactly. Before
    probing, a search of up to ``exact_nodes`` nodes (default 20,000 on models made only of
    houses, 2,000 otherwise; 0 never) tries to count outright: a small tree gets its exact
    count (``exact``). ``seed`` makes a run repeatable (None: random). Stops after ``samples`` probes, at ``time_limit`` or on ``cancel``
    (without raising: the estimate then rests on the probes made). ``progress(estimate)``
    is called every :data:`PROGRESS_EVERY` seconds.

    >>> from csp import Puzzle, Grid
    >>> est = estimate_count(Puzzle(Grid(4)).add_grid_houses(), samples=200, exact_nodes=0)
    >>> est.low <= 288 <= est.high
    True
    """
    if samples < 1:
        raise InvalidArgument(f"samples must be at least 1, got {samples}")
    t0 = time.perf_counter()
    limits = _Limits(time_limit, cancel)
    rng = random.Random(seed)
    start = _start(puzzle, cand)
    eng = puzzle.engine()
    setup = _probe_setup(eng, start)
    if exact_nodes is None:
        exact_nodes = EXACT_NODES_PURE if eng.pure else EXACT_NODES
    if exact_nodes > 0:
        try:
            k: int | None = 0 if setup is None else _subtree_count(
                _dfs_pure_from(setup, limits, budget=exact_nodes) if eng.pure
                else _dfs_general_from(eng, setup, limits, budget=exact_nodes))
        except (TimeLimitExceeded, Cancelled):     # cut before any probe: nothing known
            return Estimate(0.0, math.inf, 0, 0.0, math.inf,
                            time_ms=(time.perf_counter() - t0) * 1000)
        if k is not None:
            return Estimate(float(k), 0.0, 0, float(k), float(k), k, exact=True,
                            time_ms=(time.perf_counter() - t0) * 1000)
    if eng.pure:
        probe: Callable[[random.Random], tuple[float, list[int] | None]] = (
            lambda r: _probe_pure(eng, setup, r))
        session = None
    else:
        from .sat import SatSession
        try:                           # the encoding within the deadline too
            session = SatSession(puzzle, setup, propagated=True,
                                 budget=limits.budget()) if setup is not None else None
        except (TimeLimitExceeded, Cancelled):
            return Estimate(0.0, math.inf, 0, 0.0, math.inf,
                            time_ms=(time.perf_counter() - t0) * 1000)
        probe = lambda r: _probe_general(eng, setup, r, session)  # noqa: E731
    values: list[float] = []
    found: set[tuple[int, ...]] = set()
    try:
        if session is not None:
            session.start(limits.deadline, limits.cancelled, limits.time_limit)
        _probes(probe, rng, samples, limits, values, found, progress, t0)
    finally:
        if session is not None:
            session.close()
    mean, se, low, high = _summary(values, len(found))
    return Estimate(mean, se, len(values), low, high, len(found),
                    time_ms=(time.perf_counter() - t0) * 1000, values=values)


def _probes(probe: Callable[[random.Random], tuple[float, list[int] | None]],
            rng: random.Random, samples: int, limits: _Limits, values: list[float],
            found: set[tuple[int, ...]], progress: Callable[[Estimate], Any] | None,
            t0: float) -> None:
    nxt = t0 + PROGRESS_EVERY
    while len(values) < samples:
        try:
            limits.check()
        except (TimeLimitExceeded, Cancelled):
            break
        try:
            w, sol = probe(rng)
        except (TimeLimitExceeded, Cancelled):
            break
        values.append(w)
        if sol is not None and len(found) < 10_000:
            found.add(tuple(sol))
        if progress is not None and time.perf_counter() > nxt:
            mean, se, low, high = _summary(values, len(found))
            progress(Estimate(mean, se, len(values), low, high, len(found)))
            nxt = time.perf_counter() + PROGRESS_EVERY


def _probe_setup(eng: Any, cand: list[int]) -> Any:
    """The root of the probes: the bitboard node of a pure model, else the propagated
    candidates (None on a contradiction)."""
    if eng.pure:
        return _root(eng, cand)
    from .sat import _root_propagate
    return _root_propagate(eng, cand)


#: a probe counts the subtree below it exactly once this few cells are open (a share of
#: the grid) and the count takes at most :data:`SUBTREE_NODES` nodes
SUBTREE_SHARE = 0.35
SUBTREE_NODES = 64


def _subtree_count(gen: Iterator[Any]) -> int | None:
    """The solutions a depth-first generator with a node budget yields, None past it."""
    try:
        return sum(1 for _ in gen)
    except _OverBudget:
        return None


def _probe_pure(eng: Any, root: Any, rng: random.Random) -> tuple[float, list[int] | None]:
    if root is None:
        return 0.0, None
    T, P, C, solved = root
    weight = [0] * len(C)
    small = int(len(C) * SUBTREE_SHARE)
    w = 1.0
    while True:
        cell = _choose(P, C, solved, T.full, T.peers, weight)
        if cell < 0:
            return w, _masks_to_digits(C)
        if (T.full & ~solved).bit_count() <= small:
            k = _subtree_count(_dfs_pure_from((T, P, C, solved), None,
                                              budget=SUBTREE_NODES))
            if k is not None:
                return w * k, None
        kids = []
        m = C[cell]
        while m:
            low = m & -m
            m ^= low
            P2, C2 = P[:], C[:]
            s = _settle(T, P2, C2, solved, [(cell, low.bit_length() - 1)])
            if s >= 0:
                kids.append((P2, C2, s))
        if not kids:
            return 0.0, None
        w *= len(kids)
        P, C, solved = kids[rng.randrange(len(kids))]


def _choose_general(cand: list[int]) -> int:
    best, bk = -1, 99
    for c, m in enumerate(cand):
        k = m.bit_count()
        if 1 < k < bk:
            best, bk = c, k
    return best


def _probe_general(eng: Any, root: Any, rng: random.Random, session: Any
                   ) -> tuple[float, list[int] | None]:
    """One probe of a general model: propagation prunes each child, the SAT solver keeps
    only the children holding a solution (the solution met on the way answers for its own
    child without a call)."""
    if root is None or session is None:
        return 0.0, None
    cand = root
    small = int(len(cand) * SUBTREE_SHARE)
    n = session.n
    path: list[int] = []
    known = session.solve()
    if known is None:
        return 0.0, None
    w = 1.0
    while True:
        best = _choose_general(cand)
        if best < 0:
            return w, _masks_to_digits(cand)
        if sum(1 for m in cand if m & (m - 1)) <= small:
            k = _subtree_count(_dfs_general_from(eng, cand, None, budget=SUBTREE_NODES))
            if k is not None:
                return w * k, None
        kids = []
        m = cand[best]
        while m:
            low = m & -m
            m ^= low
            d = low.bit_length() - 1
            child = cand[:]
            child[best] = low
            try:
                eng.propagate(child, (best,))
            except Contradiction:
                continue
            lit = best * n + d
            sol = known if known[best] == d else session.solve(path + [lit])
            if sol is not None:
                kids.append((child, lit, sol))
        if not kids:                   # pragma: no cover - a kept child holds a solution
            return 0.0, None
        w *= len(kids)
        cand, lit, known = kids[rng.randrange(len(kids))]
        path.append(lit)
