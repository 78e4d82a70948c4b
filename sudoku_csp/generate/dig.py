"""Digging givens from a full grid while the puzzle keeps one solution: :func:`dig` (minimal,
optionally under a ``keep_if`` test such as a level cap) and :func:`dig_big` (batches with a
node budget, for big grids)."""
from __future__ import annotations

import random
import time
from typing import Any, Callable, Sequence

from csp import Puzzle
from csp.errors import NodeLimitExceeded, TimeLimitExceeded
from csp.search import search

#: depth-first nodes one uniqueness check of a big grid may use before the removal is undone
BIG_UNIQUE_NODES = 300
#: SAT conflicts one uniqueness check of a dig (:class:`_SatUnique`) may use; a removal
#: whose check runs out is undone, as one that leaves two solutions. A count, not a time:
#: the same seed digs the same puzzle on any machine. Proving a little killer with 6
#: givens unique took Glucose 47 s; the checks of other rule families' digs stay far below.
DIG_CONFLICTS = 2000


def _unique(eng: Any, cand: list[int], deadline: float | None) -> bool:
    """Exactly one solution from these candidates (raises SearchLimit past the deadline)."""
    left = None if deadline is None else max(0.001, deadline - time.perf_counter())
    sols, _ = search(eng, cand, 2, None, left)
    return len(sols) == 1


class _SatUnique:
    """Uniqueness checks of digs from one full ``solution`` of ``puzzle`` in one warm SAT
    session (:class:`csp.sat.SatSession`): the solution is forbidden once, so a dug puzzle
    is unique exactly when the solver finds no model under its givens as assumptions. One
    solver call a check, and what it learns serves the next. A check that needs more than
    :data:`DIG_CONFLICTS` conflicts answers "not unique" (the removal is undone): with few
    givens, rules that propagate weakly (a little killer's long sums) make a proof of
    uniqueness cost seconds to minutes, by search as by SAT. Every other answer is exact."""

    def __init__(self, puzzle: Puzzle, solution: Sequence[int]) -> None:
        from csp.sat import SOLVER, SatSession
        # Glucose 4.2, as the seeds of every generated puzzle were found with: refutes()
        # answers within a conflict budget, and another solver would answer other givens
        self.session = SatSession(puzzle, solver=SOLVER)
        self.solution = list(solution)
        self.session.block(self.solution)

    def __call__(self, givens: Sequence[int], deadline: float | None) -> bool:
        s = self.session
        if s.cand is None:      # pragma: no cover - the rules alone have no solution
            return False
        n = s.n
        lits = [c * n + v for c, v in enumerate(givens) if v and s.cand[c] & (s.cand[c] - 1)]
        if deadline is not None:
            if time.perf_counter() > deadline:
                raise TimeLimitExceeded("time limit reached while digging")
            s.start(deadline)
        try:
            return bool(s.refutes(lits, DIG_CONFLICTS))
        finally:
            s.stop()

    def close(self) -> None:
        self.session.close()


def _sat_unique(puzzle: Puzzle, solution: Sequence[int]) -> "_SatUnique | None":
    """A :class:`_SatUnique` for digs of a puzzle with rules beyond houses (on models of
    houses only the bitboard search is as fast), None otherwise or without PySAT."""
    from csp import sat
    if puzzle.engine().pure or not sat.available():
        return None
    return _SatUnique(puzzle, solution)


def unique_within(eng: Any, cand: list[int], deadline: float | None,
                  node_limit: int | None) -> bool:
    """:func:`_unique` within ``node_limit`` depth-first nodes (None: no cap): a search
    past them counts as not unique (a count, not a time: the same answer on any machine).
    Raises SearchLimit past the deadline."""
    if node_limit is None:
        return _unique(eng, cand, deadline)
    left = None if deadline is None else max(0.001, deadline - time.perf_counter())
    try:
        sols, _ = search(eng, cand, 2, node_limit, left)
    except NodeLimitExceeded:
        return False
    return len(sols) == 1


def few_givens(eng: Any, solution: Sequence[int], rng: random.Random,
               deadline: float | None = None, symmetric: bool = False,
               node_limit: int | None = None) -> list[int]:
    """Givens (0 = blank) from ``solution`` added only where needed: while the rules of the
    engine ``eng`` plus the givens leave two solutions, a random cell where they differ
    (with its point-symmetric partner, ``symmetric``) becomes a given; then, in a random
    order, every given that later ones made unnecessary goes again. Raises
    :class:`csp.errors.SearchLimit` past ``deadline``, or once its searches together have
    used ``node_limit`` nodes (a count, not a time: the same seed gives the same answer on
    any machine).

    >>> from variants.classic import classic
    >>> from sudoku_csp.generate.fill import random_fill
    >>> p = Puzzle(4).use(classic())
    >>> sol = random_fill(p, random.Random(5))
    >>> gv = few_givens(p.engine(), sol, random.Random(5))
    >>> Puzzle(4).use(classic()).givens(gv).count_solutions(2, method="sat")
    1
    """
    size = len(solution)
    allm = sum(1 << d for d in set(solution))
    givens = [0] * size
    added: list[int] = []
    used = 0

    def two(cand: list[int]) -> list[list[int]]:
        """Up to two solutions, within what is left of the deadline and the node budget."""
        nonlocal used
        left = None if deadline is None else max(0.001, deadline - time.perf_counter())
        nodes = None
        if node_limit is not None:
            nodes = node_limit - used
            if nodes <= 0:
                raise NodeLimitExceeded(f"search stopped after {node_limit} nodes")
        sols, n = search(eng, cand, 2, nodes, left)
        used += n
        return sols

    while True:
        cand = [(1 << v) if v else allm for v in givens]
        sols = two(cand)
        if len(sols) < 2:
            break
        diff = [c for c in range(size) if sols[0][c] != sols[1][c]]
        c = rng.choice(diff)
        for x in sorted({c, size - 1 - c} if symmetric else {c}):
            if not givens[x]:
                givens[x] = solution[x]
                added.append(x)
    rng.shuffle(added)      # drop the givens that later ones made unnecessary
    done: set[int] = set()
    for c in added:
        if c in done:
            continue
        group = {c, size - 1 - c} if symmetric else {c}
        done |= group
        for x in group:
            givens[x] = 0
        if len(two([(1 << v) if v else allm for v in givens])) != 1:
            for x in group:
                givens[x] = solution[x]
    return givens

def dig(puzzle: Puzzle, solution: Sequence[int], rng: random.Random, symmetric: bool = False,
        keep: Sequence[int] = (), deadline: float | None = None,
        keep_if: Callable[[list[int]], bool] | None = None) -> list[int]:
    """Remove givens from the full ``solution`` in a random order (point-symmetric pairs
    with ``symmetric``), each removal kept only when the puzzle's rules plus the remaining
    givens still leave one solution (and ``keep_if(givens)`` holds, when given: e.g. the
    rating stays within a level). ``puzzle`` supplies the rules (its own givens are
    ignored); ``keep`` lists cells never removed. Returns the givens (0 = blank); the
    result is minimal: no single given (pair) can go without breaking uniqueness (or
    ``keep_if``).

    >>> from variants.classic import classic
    >>> from sudoku_csp.generate.fill import random_fill
    >>> p = Puzzle(4).use(classic())
    >>> sol = random_fill(p, random.Random(5))
    >>> givens = dig(p, sol, random.Random(5))
    >>> q = Puzzle(4).use(classic()).givens(givens)
    >>> q.count_solutions(2), 0 < sum(1 for g in givens if g) < 16
    (1, True)
    """
    return _dig(puzzle, solution, rng, symmetric, keep, deadline, keep_if)[0]


def _dig(puzzle: Puzzle, solution: Sequence[int], rng: random.Random, symmetric: bool,
         keep: Sequence[int], deadline: float | None,
         keep_if: Callable[[list[int]], bool] | None,
         node_limit: int | None = None) -> tuple[list[int], list[list[int]]]:
    """:func:`dig`: the givens and the removals it kept, in order (see :func:`dig_order`).
    On a model with rules beyond houses each check is one call of a warm SAT session
    within :data:`DIG_CONFLICTS` conflicts (:class:`_SatUnique`); on one of houses only
    (or without PySAT) a depth-first search, with ``node_limit`` of that many nodes
    (:func:`unique_within`). A check that runs out of its budget undoes the removal."""
    g = puzzle.grid
    size = g.size
    eng = puzzle.engine()
    allm = g.all_mask
    givens = list(solution)
    keep_set = set(keep)
    order = list(range(size))
    rng.shuffle(order)
    done: set[int] = set()
    kept: list[list[int]] = []
    by_sat = _sat_unique(puzzle, solution)
    try:
        for c in order:
            if c in done or c in keep_set:
                continue
            group = sorted({c, size - 1 - c}) if symmetric else [c]
            done.update(group)
            if keep_set.intersection(group):
                continue
            for x in group:
                givens[x] = 0
            if by_sat is not None:
                unique = by_sat(givens, deadline)
            else:
                cand = [(1 << v) if v else allm for v in givens]
                unique = unique_within(eng, cand, deadline, node_limit)
            if unique and (keep_if is None or keep_if(givens)):
                kept.append(group)
            else:
                for x in group:
                    givens[x] = solution[x]
    finally:
        if by_sat is not None:
            by_sat.close()
    return givens, kept


def dig_order(puzzle: Puzzle, solution: Sequence[int], rng: random.Random,
              symmetric: bool = False, deadline: float | None = None,
              node_limit: int | None = None) -> list[list[int]]:
    """The removals of a minimal :func:`dig` (no ``keep_if``), in the order they were kept:
    each a cell (a point-symmetric pair with ``symmetric``). Taking away any first k of
    them from the full ``solution`` leaves one solution (more givens than the minimal
    puzzle), so a caller may rate those prefixes and bisect without another search.
    A removal whose uniqueness check runs out of its budget is not kept (SAT conflicts,
    :data:`DIG_CONFLICTS`, on models with rules beyond houses; else ``node_limit``
    depth-first nodes, :func:`unique_within`): the puzzle is minimal within that budget,
    and the prefixes still leave one solution.

    >>> from variants.classic import classic
    >>> from sudoku_csp.generate.fill import random_fill
    >>> p = Puzzle(4).use(classic())
    >>> sol = random_fill(p, random.Random(5))
    >>> order = dig_order(p, sol, random.Random(5))
    >>> gv = list(sol)
    >>> for grp in order[:3]:
    ...     for c in grp:
    ...         gv[c] = 0
    >>> Puzzle(4).use(classic()).givens(gv).count_solutions(2), len(order) > 3
    (1, True)
    """
    return _dig(puzzle, solution, rng, symmetric, (), deadline, None, node_limit)[1]


def _unique_big(eng: Any, cand: list[int], deadline: float | None) -> bool:
    """One solution, decided by depth-first search within :data:`BIG_UNIQUE_NODES` nodes;
    a check that runs out of nodes counts as not unique (the removal is undone)."""
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeLimitExceeded("time limit reached while digging")
    return unique_within(eng, cand, deadline, BIG_UNIQUE_NODES)


def dig_big(puzzle: Puzzle, solution: Sequence[int], rng: random.Random,
            symmetric: bool = False, floor: int = 0, deadline: float | None = None,
            progress: Callable[[int], None] | None = None) -> list[int]:
    """:func:`dig` for big grids: cells (point-symmetric pairs with ``symmetric``) are
    removed in random order in batches, a batch that breaks uniqueness is retried cell by
    cell, and digging stops once ``floor`` givens are left (a pair may end one below).
    Uniqueness checks have a node budget (:func:`_unique_big`), so the result has one
    solution but need not be minimal. ``progress(givens left)`` is called after each batch.

    >>> from variants.classic import classic
    >>> from sudoku_csp.generate.fill import big_fill
    >>> p = Puzzle(16).use(classic())
    >>> sol = big_fill(p, random.Random(2))
    >>> givens = dig_big(p, sol, random.Random(2), symmetric=True, floor=120)
    >>> q = Puzzle(16).use(classic()).givens(givens)
    >>> q.count_solutions(2), 119 <= sum(1 for g in givens if g) < 140
    (1, True)
    >>> all(bool(givens[c]) == bool(givens[255 - c]) for c in range(256))
    True
    """
    g = puzzle.grid
    size = g.size
    eng = puzzle.engine()
    allm = g.all_mask
    givens = list(solution)
    left = size
    order = list(range(size))
    rng.shuffle(order)
    groups: list[list[int]] = []
    seen: set[int] = set()
    for c in order:
        if c in seen:
            continue
        grp = sorted({c, size - 1 - c}) if symmetric else [c]
        seen.update(grp)
        groups.append(grp)

    def cand() -> list[int]:
        return [(1 << v) if v else allm for v in givens]

    batch = max(1, g.n // 2)
    i = 0
    while i < len(groups) and left > floor:
        chunk: list[list[int]] = []
        room = left - floor
        while i < len(groups) and room > 0 and len(chunk) < batch:
            chunk.append(groups[i])
            room -= len(groups[i])
            i += 1
        cells = [x for grp in chunk for x in grp]
        for x in cells:
            givens[x] = 0
        if _unique_big(eng, cand(), deadline):
            left -= len(cells)
        else:
            for x in cells:
                givens[x] = solution[x]
            for grp in chunk:
                if left <= floor:
                    break
                for x in grp:
                    givens[x] = 0
                if _unique_big(eng, cand(), deadline):
                    left -= len(grp)
                else:
                    for x in grp:
                        givens[x] = solution[x]
            batch = max(1, batch // 2)
        if progress is not None:
            progress(left)
    return givens
