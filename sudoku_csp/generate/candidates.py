"""One candidate puzzle from one seed (:func:`make_candidate`): fill, regions, dig and
cages composed per variant and size, before the level filter."""
from __future__ import annotations

import random
from typing import Any, Callable

from csp import Grid, Puzzle
from csp.errors import TimeLimitExceeded

from variants.classic import classic

from .dig import dig, dig_big, few_givens
from .fill import big_fill, random_fill
from .killer import KILLER_CANDIDATE_NODES, KILLER_STEERED, _killer, _steered_killer, random_cages
from .rating import rate_within
from .regions import random_regions

#: largest grid the generator makes
MAX_SIZE = 25
#: grids from this size on are "big": filled by search from random diagonal boxes, dug in
#: batches down to a floor of givens (:data:`BIG_FLOOR`), uniqueness decided by a search
#: with a node budget (:data:`BIG_UNIQUE_NODES`; a removal whose check runs out is undone)
BIG_N = 12
#: share of the cells kept as givens when digging a big grid, per size and level. Big grids
#: are rated by their hardest idea (techniques.loop.rated_by_idea: HoDoKu's score bands are
#: made for 9x9), so a medium 25x25 must be dug until a medium technique is needed (at 56 %
#: of the cells given singles still do it all), and minimal big puzzles are far beyond what
#: the logic solver finishes in seconds (a minimal 16x16 keeps some 90 givens of 256);
#: measured on a few seeds each
BIG_FLOOR = {
    12: {"easy": 0.55, "medium": 0.42, "hard": 0.40, "unfair": 0.38, "extreme": 0.36},
    16: {"easy": 0.52, "medium": 0.49, "hard": 0.44, "unfair": 0.42, "extreme": 0.40},
    25: {"easy": 0.75, "medium": 0.52, "hard": 0.50, "unfair": 0.50, "extreme": 0.46},
}
#: seconds the logic rating of one big candidate may take before the next seed is tried
BIG_RATE_SECONDS = {12: 5.0, 16: 10.0, 25: 30.0}


def _base(variant: str, n: int, rng: random.Random) -> Puzzle:
    if variant == "jigsaw":
        return Puzzle(Grid(n, regions=random_regions(n, rng))).use(classic())
    return Puzzle(n).use(classic())


def make_candidate(variant: str = "classic", seed: int = 0, size: int = 9,
                   symmetric: bool = False, deadline: float | None = None,
                   cage_sizes: tuple[int, int] = (2, 5), target: str | None = None,
                   floor: float = 0.0, progress: Callable[[int], None] | None = None,
                   cage_share: float = 1.0) -> tuple[Puzzle, list[int]] | None:
    """One random puzzle with a unique solution (not yet rated) from ``seed``, and its
    solution; None when this seed gives no puzzle (a jigsaw layout that cannot be filled).
    ``cage_sizes``: smallest and largest killer cage. ``target``: a level the digging must
    not leave (each removal is rated, see :func:`rate_within`), so the puzzle is rated at
    most ``target``; without it the puzzle is minimal (a killer: givens only where the
    cages leave several solutions). A killer with a ``target`` keeps ``cage_share`` of its
    cages and is steered towards the level (:func:`_steered_killer`). Raises
    :class:`csp.errors.SearchLimit` past ``deadline``.

    >>> p, sol = make_candidate("jigsaw", seed=1, size=6)
    >>> p.count_solutions(2), p.check_solution(sol), p.grid.region_kind
    (1, True, 'region')
    """
    rng = random.Random(seed)
    n = size
    if variant == "classic" and n >= BIG_N:
        big = Puzzle(n).use(classic())
        sol = big_fill(big, rng, deadline)
        if sol is None:
            return None
        givens = dig_big(big, sol, rng, symmetric, int(floor * big.grid.size + 0.5), deadline,
                         progress)
        out = Puzzle(n).use(classic()).givens(givens)
        out.unique = True
        return out, sol
    base = None
    solution = None
    for _ in range(20):
        base = _base(variant, n, rng)
        solution = random_fill(base, rng, deadline=deadline)
        if solution is not None:
            break
    if base is None or solution is None:
        return None
    if variant != "killer":
        keep_if = None if target is None else _within_level(base, target, deadline)
        givens = dig(base, solution, rng, symmetric, deadline=deadline, keep_if=keep_if)
        p = _base_like(base)
        p.givens(givens)
        p.unique = True
        return p, solution
    cages = random_cages(solution, n, rng, *cage_sizes)
    if target is not None:
        return _steered_killer(base.grid, solution, cages, rng, target, cage_share, symmetric,
                               deadline)
    p = _killer(base.grid, cages, solution)
    eng = p.engine()
    givens = few_givens(eng, solution, rng, deadline, node_limit=KILLER_CANDIDATE_NODES)
    q = Puzzle(p.grid).use(*[b for b, _ in p.bundles])
    q.givens(givens)
    q.unique = True
    return q, solution


def _dig_target(variant: str, level: str) -> str | None:
    """Random minimal jigsaw puzzles are nearly all extreme (they keep some 14-19 givens), so
    jigsaw digging below extreme is steered by the rating, and so are hard, unfair and extreme
    killers
    (:data:`KILLER_STEERED`); classic puzzles are dug to minimal and filtered (every level
    comes up often enough)."""
    if variant == "killer":
        return level if level in KILLER_STEERED else None
    return level if variant == "jigsaw" and level != "extreme" else None


def _within_level(base: Puzzle, level: str,
                  deadline: float | None) -> Callable[[list[int]], bool]:
    """``keep_if`` for :func:`dig`: the givens leave a puzzle rated at most ``level``."""
    def keep_if(givens: list[int]) -> bool:
        q = _base_like(base).givens(givens)
        q.unique = True
        status, _ = rate_within(q, level, deadline)
        if status == "timeout":
            raise TimeLimitExceeded("time limit reached while digging")
        return status == "solved"
    return keep_if


def _base_like(p: Puzzle) -> Puzzle:
    return Puzzle(p.grid).use(classic())


def _near(table: dict[int, Any], n: int) -> Any:
    """The entry of ``table`` (keyed by grid size) for the nearest size at most ``n`` (the
    smallest one below all)."""
    keys = sorted(table)
    return table[max((k for k in keys if k <= n), default=keys[0])]


def _big_floor(n: int, level: str) -> float:
    """Share of cells kept as givens for a big ``n`` x ``n`` grid at ``level``."""
    return _near(BIG_FLOOR, n)[level]
