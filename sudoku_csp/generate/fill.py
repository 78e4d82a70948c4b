"""Random full grids: :func:`random_fill` (depth-first search with propagation, random digit
order) for every rule set, :func:`big_fill` for big classic grids (random diagonal boxes,
completed by the search)."""
from __future__ import annotations

import random
import time

from csp import Puzzle
from csp.bits import digits_of
from csp.errors import TimeLimitExceeded
from csp.events import Contradiction

from variants.classic import classic


def random_fill(puzzle: Puzzle, rng: random.Random, node_limit: int = 5000,
                deadline: float | None = None) -> list[int] | None:
    """A random solution of ``puzzle`` (its rules and givens): depth-first search with
    propagation, the cell with the fewest candidates first, digits in random order. None
    when there is none within ``node_limit`` nodes; raises
    :class:`csp.errors.TimeLimitExceeded` past ``deadline`` (a ``perf_counter`` value).

    >>> p = Puzzle(4).use(classic())
    >>> sol = random_fill(p, random.Random(1))
    >>> p.check_solution(sol)
    True
    """
    eng = puzzle.engine()
    size = puzzle.grid.size
    cand = puzzle.initial_state().cand
    try:
        eng.propagate(cand, None)
    except Contradiction:
        return None
    nodes = 0

    def pick(c_: list[int]) -> int:
        best, bk = -1, 99
        for c in range(size):
            k = c_[c].bit_count()
            if 1 < k < bk:
                best, bk = c, k
        return best

    # explicit stack: (candidates, cell, digits left to try in order)
    first = pick(cand)
    if first < 0:
        return [m.bit_length() - 1 for m in cand]
    stack: list[tuple[list[int], int, list[int]]] = []

    def push(c_: list[int], cell: int) -> None:
        ds = list(digits_of(c_[cell]))   # a copy: shuffled
        rng.shuffle(ds)
        stack.append((c_, cell, ds))

    push(cand, first)
    while stack:
        parent, cell, ds = stack[-1]
        if not ds:
            stack.pop()
            continue
        d = ds.pop()
        nodes += 1
        if nodes > node_limit:
            return None
        if deadline is not None and not nodes & 63 and time.perf_counter() > deadline:
            raise TimeLimitExceeded("time limit reached while filling the grid")
        child = parent[:]
        child[cell] = 1 << d
        try:
            eng.propagate(child, (cell,))
        except Contradiction:
            continue
        nxt = pick(child)
        if nxt < 0:
            return [m.bit_length() - 1 for m in child]
        push(child, nxt)
    return None


def big_fill(puzzle: Puzzle, rng: random.Random,
             deadline: float | None = None) -> list[int] | None:
    """A random full grid for a big classic ``puzzle`` (n x n with boxes): the boxes on the
    diagonal are independent, so each gets a random permutation of the digits; the search
    (:meth:`csp.Puzzle.solve`, depth-first with the SAT hand-over) completes the rest, and
    the digits are relabelled at random. None when the search fails (it cannot, a grid with
    only diagonal boxes filled always completes) ; raises
    :class:`csp.errors.TimeLimitExceeded` past ``deadline``.

    >>> p = Puzzle(16).use(classic())
    >>> sol = big_fill(p, random.Random(1))
    >>> p.check_solution(sol)
    True
    """
    g = puzzle.grid
    n = g.n
    shape = g.box_shape
    if shape is None:
        return None
    bh, bw = shape
    givens = [0] * g.size
    r0 = c0 = 0
    while r0 < n and c0 < n:
        ds = list(range(1, n + 1))
        rng.shuffle(ds)
        for i in range(bh):
            for j in range(bw):
                if r0 + i < n and c0 + j < n:
                    givens[(r0 + i) * n + c0 + j] = ds[i * bw + j]
        r0 += bh
        c0 += bw
    q = Puzzle(g).use(classic()).givens(givens)
    left = None if deadline is None else max(0.001, deadline - time.perf_counter())
    res = q.solve(first=True, time_limit=left)
    if res.solution is None:
        return None
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    return [relabel[v - 1] for v in res.solution]
