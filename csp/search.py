"""Depth-first search with propagation at every node (most constrained cell first,
copy-on-branch), solution counting, node and time limits.

Models made of all-different houses only (``Engine.pure``: classic, jigsaw, diagonal ...)
take a fast path on per-digit cell bitsets (:func:`_search_bitboards`); every other model
searches with :meth:`Engine.propagate` at each node. Both find the same solutions.
Depth-first search has a heavy tail on big grids (a few 25x25 puzzles take it hours, where
a clause-learning solver needs a second): ``Puzzle.solve(method="auto")`` hands such
searches to :mod:`csp.sat` after a node budget.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .budget import Budget
from .engine import BitboardTables, Engine
from .errors import NodeLimitExceeded, TimeLimitExceeded
from .events import Contradiction
from .kernel import active
from .status import SolveStatus

try:                                   # the compiled search, where the install built it
    from . import _enum_kernel
except ImportError:                    # pragma: no cover - no C compiler at install time
    _enum_kernel = None


@dataclass
class SolveResult:
    """Outcome of :meth:`csp.Puzzle.solve`.

    ``status`` (a :class:`~csp.status.SolveStatus`, a ``str``) is ``"solved"`` (exactly one
    solution, or the first one with ``first=True``), ``"multiple"`` (a second solution
    exists; ``solutions`` holds two) or ``"unsolvable"``.
    ``method`` is ``"search"`` (depth-first, ``nodes`` counted) or ``"sat"`` (the SAT solver
    answered, after ``nodes`` depth-first nodes in ``method="auto"``; ``conflicts`` counted).
    """

    status: SolveStatus
    solutions: list[list[int]] = field(default_factory=list)
    nodes: int = 0
    time_ms: float = 0.0
    method: str = "search"
    conflicts: int = 0

    @property
    def solution(self) -> list[int] | None:
        return self.solutions[0] if self.solutions else None


def _stopped(e: NodeLimitExceeded | TimeLimitExceeded, nodes: int
             ) -> NodeLimitExceeded | TimeLimitExceeded:
    """The limit exception, carrying the nodes searched (``e.nodes``)."""
    e.nodes = nodes
    return e


def search(engine: Engine, cand: list[int], limit: int = 2, node_limit: int | None = None,
           time_limit: float | None = None, propagated: bool = False,
           budget: Budget | None = None) -> tuple[list[list[int]], int]:
    """Find up to ``limit`` solutions from ``cand``; returns ``(solutions, nodes)``.

    Solutions are lists of digits. Raises NodeLimitExceeded / TimeLimitExceeded.
    ``cand`` is not changed. ``budget`` (:class:`~csp.budget.Budget`): the caller's limits,
    tightened by ``node_limit`` / ``time_limit`` when those are given too; the root
    propagation runs within it as well.

    >>> from csp import Grid, Puzzle
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("12..............")
    >>> sols, nodes = search(p.engine(), p.initial_state().cand, limit=100)
    >>> len(sols), sols[0][:4]
    (24, [1, 2, 3, 4])
    """
    size = engine.size
    solutions: list[list[int]] = []
    nodes = 0
    budget = Budget.within(budget, time_limit, node_limit)
    node_limit = budget.node_limit
    if engine.pure:
        return _search_bitboards(engine, cand, limit, budget)
    cand = cand[:]
    if not propagated:
        try:
            engine.propagate(cand, None, budget=budget)
        except Contradiction:
            return solutions, 1
    timed = budget.limited

    def propagate(c_: list[int], changed: tuple[int, ...]) -> None:
        engine.propagate(c_, changed, budget=budget if timed else None)
    cells = range(size)
    # explicit stack of (candidates, cell, remaining digits mask)
    stack: list[tuple[list[int], int, int]] = []

    # dom/wdeg branching: the fewest candidates per unit of conflict weight; a cell's weight
    # grows each time a contradiction involves it, so search focuses on the hard part of a
    # variant puzzle (plain MRV when nothing has failed yet)
    weight = [1] * size

    def choose(c_: list[int]) -> int:
        best = -1
        bk = 99
        bw = 1
        for c in cells:
            k = c_[c].bit_count()
            if k > 1 and k * bw < bk * weight[c]:
                bk = k
                bw = weight[c]
                best = c
        return best

    best = choose(cand)
    if best < 0:
        return [[m.bit_length() - 1 for m in cand]], 1
    stack.append((cand, best, cand[best]))
    while stack:
        parent, cell, rest = stack[-1]
        if not rest:
            stack.pop()
            continue
        low = rest & -rest
        rest ^= low
        if rest:
            stack[-1] = (parent, cell, rest)
        else:
            stack.pop()
        nodes += 1
        if node_limit is not None and nodes > node_limit:
            raise _stopped(NodeLimitExceeded(f"search stopped after {node_limit} nodes"), nodes)
        if timed and not nodes & 15 and budget.exhausted:
            raise _stopped(TimeLimitExceeded(f"search stopped after {budget.describe()}"),
                           nodes)
        child = parent[:]
        child[cell] = low
        try:
            propagate(child, (cell,))
        except Contradiction as e:
            weight[cell] += 1
            for c in e.cells:
                weight[c] += 1
            continue
        nxt = choose(child)
        if nxt < 0:
            solutions.append([m.bit_length() - 1 for m in child])
            if len(solutions) >= limit:
                return solutions, nodes
            continue
        stack.append((child, nxt, child[nxt]))
    return solutions, nodes


# ---------------------------------------------------------------------------------------
# Fast path: models made of all-different houses only
# ---------------------------------------------------------------------------------------
def _settle(T: BitboardTables, P: list[int], C: list[int], solved: int,
            todo: list[tuple[int, int]]) -> int:
    """Place the ``(cell, digit)`` pairs of ``todo`` and propagate naked and hidden singles to
    fixpoint. ``P[d]`` is the cell bitset of digit d, ``C[c]`` the candidate mask of cell c
    (both changed in place), ``solved`` the bitset of placed cells. Returns the new bitset of
    placed cells, or -1 on a contradiction."""
    home = T.home
    peers = T.peers
    other = T.other
    push = todo.append
    pop = todo.pop
    queued = solved                  # placed cells and cells with a placement queued
    while todo:
        c, d = pop()
        bit = 1 << c
        dbit = 1 << d
        m = C[c]
        if not m & dbit:
            return -1                # the digit left this cell meanwhile
        if solved & bit:
            continue
        solved |= bit
        if m != dbit:                # the other digits leave the cell
            C[c] = dbit
            m ^= dbit
            hc = home[c]
            while m:
                low = m & -m
                m ^= low
                e = low.bit_length() - 1
                pe = P[e] ^ bit
                P[e] = pe
                for h in hc:
                    x = pe & h
                    if not x & (x - 1):
                        if not x:
                            return -1
                        if not x & queued:
                            queued |= x
                            push((x.bit_length() - 1, e))
        pd = P[d]
        rem = pd & peers[c]
        if rem:                      # the digit leaves the peers
            pd ^= rem
            P[d] = pd
            oc = other[c]
            while rem:
                low = rem & -rem
                rem ^= low
                p = low.bit_length() - 1
                mp = C[p] ^ dbit
                if not mp & (mp - 1):
                    if not mp:
                        return -1
                    if not queued & low:
                        queued |= low
                        push((p, mp.bit_length() - 1))
                C[p] = mp
                for h in oc[p]:
                    x = pd & h
                    if not x & (x - 1):
                        if not x:
                            return -1
                        if not x & queued:
                            queued |= x
                            push((x.bit_length() - 1, d))
    return solved


def _locked(T: BitboardTables, P: list[int], C: list[int], solved: int,
            budget: Budget | None = None) -> int:
    """Locked candidates to fixpoint, with naked and hidden singles after each round: when
    the places of a digit in full house A all lie where A meets full house B, the digit
    leaves the rest of B (pointing and claiming, and the same for jigsaw regions). Returns
    the new bitset of placed cells, or -1 on a contradiction. One pass costs about as much
    as a few search nodes on a 16x16 grid: search runs it once, at the root, from 10x10 on
    (it cuts the tree of minimal 16x16 puzzles by about 30 %). The walk of true candidates
    runs it at every node (``csp.solutions.WALK_LOCKED``; in C ``bb_locked``, which
    reaches the same fixpoint looking only at the pairs of houses a digit's places
    changed in)."""
    pairs = T.pairs
    houses = T.houses
    while True:
        todo: list[tuple[int, int]] = []
        changed = False
        for d in range(1, T.n + 1):
            if budget is not None:
                budget.tick()
            pd = P[d]
            gone = 0
            for inter, a_rest, b_rest in pairs:
                if pd & inter:
                    if not pd & a_rest:
                        e = pd & b_rest
                    elif not pd & b_rest:
                        e = pd & a_rest
                    else:
                        continue
                    if e:
                        pd ^= e
                        gone |= e
            if not gone:
                continue
            changed = True
            P[d] = pd
            dbit = 1 << d
            while gone:
                low = gone & -gone
                gone ^= low
                p = low.bit_length() - 1
                m = C[p] ^ dbit
                if not m:
                    return -1
                C[p] = m
                if not m & (m - 1):
                    todo.append((p, m.bit_length() - 1))
            for h in houses:
                x = pd & h
                if not x & (x - 1):
                    if not x:
                        return -1
                    if not x & solved:
                        todo.append((x.bit_length() - 1, d))
        if not changed:
            return solved
        solved = _settle(T, P, C, solved, todo)
        if solved < 0:
            return -1


def _choose(P: list[int], C: list[int], solved: int, full: int, peers: list[int],
            weight: list[int]) -> int:
    """The open cell to branch on, -1 if none: fewest candidates; among those, the cell
    whose digits failed most often so far in this search (``weight``: a dom/wdeg-style
    count of contradictions right after branching on the cell), then the largest number of
    open peers plus bivalue peers, then the lowest cell id. On hard puzzles the peer
    tie-break cuts the search tree by about 45 % against the lowest id alone, and the
    failure count by 6 % more on 9x9, about half on minimal 16x16 puzzles."""
    t1 = t2 = t3 = t4 = 0
    for b in P:
        t4 |= t3 & b
        t3 |= t2 & b
        t2 |= t1 & b
        t1 |= b
    x = t2 & ~t3
    if not x:
        x = t3 & ~t4
        if not x:
            x = full & ~solved
            if not x:
                return -1
            k = min(C[c].bit_count() for c in range(len(C)) if x >> c & 1)
            x = sum(1 << c for c in range(len(C)) if x >> c & 1 and C[c].bit_count() == k)
    open_ = full & ~solved
    two = t2 & ~t3
    best, bs = -1, -1
    while x:
        low = x & -x
        x ^= low
        c = low.bit_length() - 1
        pc = peers[c]
        k = (weight[c] << 10) + (pc & open_).bit_count() + (pc & two).bit_count()
        if k > bs:
            bs, best = k, c
    return best


def _root(engine: Engine, cand: list[int], budget: Budget | None = None,
          locked: bool = False) -> tuple[BitboardTables, list[int], list[int], int] | None:
    """The bitboard state of ``cand`` after naked and hidden singles (and, from 10x10 on
    or with ``locked``, locked candidates) to fixpoint: ``(tables, P, C, placed cells)``,
    None on a contradiction. ``cand`` is not changed. Building the tables (once per grid
    layout) and the locked candidates run within ``budget``."""
    T = engine.bitboards(budget)
    T.python_tables(budget)
    n = T.n
    C = list(cand)
    P = [0] * (n + 1)
    todo: list[tuple[int, int]] = []
    every = engine.all_mask
    open_ = 0                        # cells with every digit still possible
    for c, m in enumerate(C):
        if m == every:
            open_ |= 1 << c
            continue
        if not m:
            return None
        if not m & (m - 1):
            todo.append((c, m.bit_length() - 1))
        bit = 1 << c
        while m:
            low = m & -m
            m ^= low
            P[low.bit_length() - 1] |= bit
    if open_:
        for d in range(1, n + 1):
            P[d] |= open_
    for d in range(1, n + 1):
        pd = P[d]
        for h in T.houses:
            x = pd & h
            if not x & (x - 1):
                if not x:
                    return None
                todo.append((x.bit_length() - 1, d))
    solved = _settle(T, P, C, 0, todo)
    if solved >= 0 and (n > 9 or locked):
        solved = _locked(T, P, C, solved, budget)
    if solved < 0:
        return None
    return T, P, C, solved


def _packed(kernel: Any, T: BitboardTables) -> Any:
    """``T`` packed for the compiled kernel (``bb_tables``, once per grid layout), False
    when the kernel does not take the grid (over 128 cells, 62 digits, 8 houses a cell)."""
    packed = T.packed
    if packed is None:
        packed = T.packed = kernel.bb_tables(T.n, T.size, T.full, T.peers, T.houses,
                                             T.home) or False
    return packed


def propagate_pure(engine: Engine, cand: list[int],
                   budget: Budget | None = None) -> list[int] | None:
    """Root propagation of a model made only of all-different houses (``engine.pure``):
    naked and hidden singles, and from 10x10 on locked candidates, to fixpoint. Returns
    the new candidate masks (``cand`` is not changed), None when the candidates
    contradict. The SAT search encodes what is left. Runs within ``budget`` (raises
    :class:`~csp.errors.TimeLimitExceeded` once it is spent).

    >>> from csp import Grid, Puzzle
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("123.............")
    >>> propagate_pure(p.engine(), p.initial_state().cand)[3]   # only 4 is left: bit 4
    16

    Up to 9 digits (no locked candidates) it runs in the compiled kernel where built
    (``csp._enum_kernel.bb_root``: the root of ``bb_search``, the same masks; a classic
    true-candidates call spent a tenth of its time here).
    """
    kernel = active(_enum_kernel)
    if kernel is not None:
        T = engine.bitboards(budget)
        if T.n <= 9:
            packed = _packed(kernel, T)
            if packed is not False:
                out = kernel.bb_root(packed, cand if type(cand) is list else list(cand))
                if out is not False:
                    return out
    root = _root(engine, cand, budget)
    return None if root is None else root[2]


def _search_bitboards(engine: Engine, cand: list[int], limit: int, budget: Budget
                      ) -> tuple[list[list[int]], int]:
    """:func:`search` for pure all-different models, on candidate masks plus per-digit cell
    bitsets.

    Same propagation strength as :meth:`Engine.propagate` on such models (naked and hidden
    singles to fixpoint; from 10x10 on also locked candidates once at the root, see
    :func:`_locked`) and the same answers; the branching cell is picked among the ones
    with fewest candidates by failure count and open peers (see :func:`_choose`), so with
    ``limit=1`` on a puzzle with several solutions it may return another one than the
    general search would. Runs in the compiled kernel (``csp._enum_kernel.bb_search``, the
    same walk) where it is built and the grid fits it."""
    kernel = active(_enum_kernel)
    if kernel is not None:
        done = _search_compiled(kernel, engine, cand, limit, budget)
        if done is not None:
            return done
    root = _root(engine, cand, budget)
    if root is None:
        return [], 1
    T, P, C, solved = root
    full = T.full
    node_limit = budget.node_limit
    timed = budget.limited
    solutions: list[list[int]] = []
    weight = [0] * len(C)
    cell = _choose(P, C, solved, full, T.peers, weight)
    if cell < 0:
        return [[m.bit_length() - 1 for m in C]], 1
    nodes = 0
    settle = _settle
    peers = T.peers
    choose = _choose
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
        if node_limit is not None and nodes > node_limit:
            raise _stopped(NodeLimitExceeded(f"search stopped after {node_limit} nodes"), nodes)
        if timed and not nodes & 255 and budget.exhausted:
            raise _stopped(TimeLimitExceeded(f"search stopped after {budget.describe()}"),
                           nodes)
        P = pp[:]
        C = pc[:]
        s = settle(T, P, C, psolved, [(cell, low.bit_length() - 1)])
        if s < 0:
            weight[cell] += 1
            continue
        nxt = choose(P, C, s, full, peers, weight)
        if nxt < 0:
            solutions.append([m.bit_length() - 1 for m in C])
            if len(solutions) >= limit:
                return solutions, nodes
            continue
        stack.append((P, C, s, nxt, C[nxt]))
    return solutions, nodes


def _search_compiled(kernel, engine: Engine, cand: list[int], limit: int, budget: Budget
                     ) -> tuple[list[list[int]], int] | None:
    """:func:`_search_bitboards` in ``csp._enum_kernel.bb_search``: the same root, branching
    cells, node count and limits (the same exceptions at the same node), so the same
    answers; None when the kernel does not take the grid (over 128 cells, over 62 digits,
    over 8 houses a cell) or gave up (then the Python search runs)."""
    T = engine.bitboards(budget)
    packed = _packed(kernel, T)
    if packed is False:
        return None
    node_limit = budget.node_limit
    if T.n > 9:                     # locked candidates at the root: in Python
        root = _root(engine, cand, budget)
        if root is None:
            return [], 1
        _, P, C, solved = root
    else:
        P, C, solved = None, cand if type(cand) is list else list(cand), 0
    code, sols, nodes = kernel.bb_search(packed, C, P, solved, min(limit, 2**31 - 1),
                                         # (a limit no search reaches: as none; below
                                         # 0: the first node passes it, as 0)
                                         -1 if node_limit is None
                                         else max(0, min(node_limit, 2**62)),
                                         budget if budget.limited else None)
    if code == 0:
        return sols, nodes
    if code == 3:
        return [], 1
    if code == 1:
        raise _stopped(NodeLimitExceeded(f"search stopped after {node_limit} nodes"), nodes)
    if code == 2:
        raise _stopped(TimeLimitExceeded(f"search stopped after {budget.describe()}"), nodes)
    return None
