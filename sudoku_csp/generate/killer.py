"""Killer candidates: random cage partitions of a solved grid (:func:`random_cages`) and the
steering of hard, unfair and extreme killers by their hardest idea (:func:`_steered_killer`)."""
from __future__ import annotations

import random
from typing import Sequence

from csp import Grid, Puzzle
from csp.errors import SudokuCSPError, TimeLimitExceeded
from techniques.registry import LEVELS
from techniques.solver import Rating

from variants.classic import classic
from variants.killer import killer_cage

from .dig import _unique, dig
from .rating import _rate

#: killer cage sizes (smallest, largest) per level. Killers are rated by their hardest idea
#: (techniques.loop.rated_by_idea): random killers whose cages cover the grid need a medium
#: technique (cage combinations, innies, locked sets) and nothing harder, or else a forcing
#: net; 2-cell cages give easy and medium ones (measured on 20 candidates of 2-3 cells: 18
#: medium, 2 easy; 2-4 cells: 13 of 15 medium, 1 extreme). Hard and unfair: see
#: :data:`KILLER_STEERED`
KILLER_CAGE_SIZES = {"easy": (2, 2), "medium": (2, 2), "hard": (2, 4), "unfair": (2, 3),
                     "extreme": (2, 4)}

#: killer levels made by steering (see :func:`_steered_killer`): the share of the random
#: cages kept (the other cells are left uncaged), givens dug from the full solution while the
#: rating stays within the level, then cages removed while it is below the level. Cages over
#: the whole grid leave killers that stay medium down to their last given (every further
#: removal breaks uniqueness). Measured on 16 candidates (seeds 100-115) per setting: target
#: hard, 2-4 cells, half kept: 6 hard, 10 medium, 1.4 s a candidate (2-3 cells: 4 hard);
#: target unfair, 2-3 cells, half kept: 10 unfair, 1 hard, 5 medium, 2.2 s a candidate
#: (2-4 cells: 4 of 16; 2-3 cells, 60 % kept: 6 of 16). With every cage kept and cages
#: removed afterwards, 4 in 8 came out hard but at 5 s a candidate (the uniqueness search of
#: a nearly given-free killer). Extreme, 2-4 cells, half kept: 3 of 4 extreme, but each removal
#: of the dig may be rated up to a forcing net (5-27 s CPU a puzzle on seeds 1-5; unsteered,
#: 1 of 5 in 60 s). Since the band arrangement (issue 26) the steering's ratings skip it
#: (:data:`STEER_SKIP`): measured 2026-11-29 on seeds 1-8, CPU per puzzle, hard 2.5-14.8 s
#: (median 6.6), unfair 2.4-16.1 s (median 6.2; seed 2 took 45 s before the skip)
KILLER_STEERED = {"hard": 0.5, "unfair": 0.5, "extreme": 0.5}

#: techniques the killer steering's ratings leave out (see :func:`_rate`): a band
#: arrangement (an exact search over a band's fillings, unfair) costs about 2 s each time it
#: is tried and fails, and it is tried on every state that nothing easier moves
STEER_SKIP = frozenset({"band_arrangement"})

#: search nodes one killer candidate may spend proving uniqueness (adding the givens it
#: needs) before it is dropped: a count, not a time, so a seed makes the same puzzle on a
#: busy machine (about 5 s of CPU; 2-3-cell cages over a 9x9 grid need 20-600)
KILLER_CANDIDATE_NODES = 5_000


def random_cages(solution: Sequence[int], n: int, rng: random.Random, min_size: int = 2,
                 max_size: int = 5, tries: int = 200) -> list[list[int]]:
    """Cut a solved n x n grid into orthogonally connected cages of ``min_size`` to
    ``max_size`` cells (a leftover cell may make one cage ``max_size + 1``) whose digits
    differ. Cages are seeded from the cell with the fewest free neighbours.

    >>> from sudoku_csp.generate.fill import random_fill
    >>> sol = random_fill(Puzzle(4).use(classic()), random.Random(3))
    >>> cages = random_cages(sol, 4, random.Random(3))
    >>> sorted(c for cage in cages for c in cage) == list(range(16))
    True
    >>> all(len({sol[c] for c in cage}) == len(cage) >= 2 for cage in cages)
    True
    """
    g = Grid(n, box=False)
    size = g.size
    nbrs = [g.orthogonal(c) for c in range(size)]
    for _ in range(tries):
        cage_of = [-1] * size
        cages: list[list[int]] = []
        free = set(range(size))
        while free:
            # seed: a free cell with the fewest free neighbours (random among equals)
            counts = {c: sum(1 for x in nbrs[c] if x in free) for c in free}
            low = min(counts.values())
            seed = rng.choice(sorted(c for c, k in counts.items() if k == low))
            target = rng.randint(min_size, max_size)
            cage = [seed]
            digits = {solution[seed]}
            free.discard(seed)
            while len(cage) < target:
                front = sorted({x for c in cage for x in nbrs[c]
                                if x in free and solution[x] not in digits})
                if not front:
                    break
                x = rng.choice(front)
                cage.append(x)
                digits.add(solution[x])
                free.discard(x)
            for c in cage:
                cage_of[c] = len(cages)
            cages.append(cage)
        # small cages join a neighbouring cage when the digits stay distinct
        ok = True
        for i, cage in enumerate(cages):
            if not cage or len(cage) >= min_size:
                continue
            options = sorted({cage_of[x] for c in cage for x in nbrs[c]} - {i})
            rng.shuffle(options)
            for j in options:
                other = cages[j]
                if (len(other) + len(cage) <= max_size + 1
                        and not {solution[c] for c in cage} & {solution[c] for c in other}):
                    other.extend(cage)
                    for c in cage:
                        cage_of[c] = j
                    cages[i] = []
                    break
            else:
                ok = False
                break
        if ok:
            return [sorted(c) for c in cages if c]
    raise SudokuCSPError(f"no cage partition found in {tries} tries")


def _killer(grid: Grid, cages: Sequence[Sequence[int]], solution: Sequence[int],
            givens: Sequence[int] | None = None) -> Puzzle:
    """Classic rules, one killer cage per entry of ``cages`` (its sum read off ``solution``)
    and ``givens`` (0 = blank)."""
    p = Puzzle(grid).use(classic())
    for cage in cages:
        p.use(killer_cage([grid.name(c) for c in cage], sum(solution[c] for c in cage)))
    if givens is not None:
        p.givens(list(givens))
    p.unique = True
    return p


def _steered_killer(grid: Grid, solution: list[int], cages: list[list[int]],
                    rng: random.Random, level: str, share: float, symmetric: bool,
                    deadline: float | None) -> tuple[Puzzle, list[int]]:
    """A killer steered towards ``level`` by its hardest idea: ``share`` of ``cages`` (in a
    random order) are kept, every cell starts as a given and givens are dug while the
    puzzle keeps one solution and a rating within ``level`` (:func:`dig` with
    :func:`rate_within`); when it is then rated below ``level``, cages are removed one by one
    (random order, each kept out only while the puzzle stays unique and within the level)
    until a technique of the level is needed. The result has one solution and is rated at
    most ``level`` (often below it: the caller filters).

    >>> from sudoku_csp.generate.fill import random_fill
    >>> from sudoku_csp.generate.rating import rate_within
    >>> p = Puzzle(6).use(classic())
    >>> sol = random_fill(p, random.Random(4))
    >>> cages = random_cages(sol, 6, random.Random(4), 2, 3)
    >>> q, _ = _steered_killer(p.grid, sol, cages, random.Random(4), "medium", 0.5, False, None)
    >>> q.count_solutions(2), rate_within(q, "medium")[0]
    (1, 'solved')
    >>> 0 < sum(1 for b, _ in q.bundles if isinstance(b, killer_cage)) < len(cages)
    True
    """
    cages = cages[:]
    rng.shuffle(cages)
    cages = cages[:max(1, int(len(cages) * share + 0.5))]
    rated: list[Rating | None] = [None]

    def within(givens: list[int], cages_: Sequence[Sequence[int]]) -> bool:
        status, r = _rate(_killer(grid, cages_, solution, givens), level, deadline,
                          STEER_SKIP)
        if status == "timeout":
            raise TimeLimitExceeded("time limit reached while digging")
        if status == "solved":
            rated[0] = r
        return status == "solved"

    givens = dig(_killer(grid, cages, solution), solution, rng, symmetric, deadline=deadline,
                 keep_if=lambda gv: within(gv, cages))
    # the dig's last rating may be of a removal it undid: rate what it kept
    within(givens, cages)
    r = rated[0]
    cap = LEVELS.index(level)
    if r is not None and LEVELS.index(r.level) < cap:
        order = list(range(len(cages)))
        rng.shuffle(order)
        dropped: set[int] = set()
        for i in order:
            rest = [c for k, c in enumerate(cages) if k != i and k not in dropped]
            q = _killer(grid, rest, solution, givens)
            cand = q.initial_state().cand
            if not _unique(q.engine(), cand, deadline) or not within(givens, rest):
                continue
            dropped.add(i)
            if LEVELS.index(rated[0].level) >= cap:
                break
        cages = [c for k, c in enumerate(cages) if k not in dropped]
    return _killer(grid, cages, solution, givens), solution
