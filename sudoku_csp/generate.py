"""Puzzle generation: classic, jigsaw and killer puzzles with one solution whose logic-only
rating (:meth:`techniques.StepSolver.rate`, default techniques, never guessing) falls in a
HoDoKu level: easy, medium, hard, unfair or extreme.

How a candidate is made (all randomness comes from one integer seed, so a seed reproduces
its candidate exactly):

* **classic**: a random full grid (depth-first search with propagation, fewest-candidate
  cell first, digits tried in a random order), then holes dug in a random cell order
  (point-symmetric pairs with ``symmetric=True``), each removal kept only while the puzzle
  still has one solution: the result is minimal (no given can go).
* **jigsaw**: first a random layout of n connected regions of n cells (random region growing
  from n seeds, the smallest region grows first; a dead end restarts), then the same fill
  and dig (a layout whose grid cannot be filled is dropped).
* **killer**: a random full classic grid cut into random connected cages of 2-5 cells with
  distinct digits (a leftover single cell joins a neighbouring cage), sums read off the
  solution; no givens unless the cages leave several solutions, then givens from the
  solution where two solutions differ, until one is left, and every given that is not
  needed is removed again. Hard, unfair and extreme killers are steered by their hardest idea
  instead (:data:`KILLER_STEERED`): half the cages are kept, givens are dug from the full
  grid while the rating stays within the level, then cages are removed while it is below
  (the steering's ratings leave out the costliest search, :data:`STEER_SKIP`; the kept
  puzzle is rated in full like every other).

The candidate is then rated by logic and kept when its level is the one asked for; the
rating stops early as soon as it is certain to land above the level (a step of a harder
technique, or a score past the level's maximum), so easy puzzles are cheap to look for. A
puzzle the logic solver cannot finish is rated no level and is never kept.

Candidate seeds are ``seed, seed + 1, seed + 2, ...``; each result records its own seed, and
``generate(variant, level, seed=that_seed)`` (same size and symmetry) makes that same puzzle
first. Only the time limits depend on the machine: a candidate dropped because a search or
rating ran out of time (killer uniqueness gets :data:`KILLER_CANDIDATE_SECONDS`) may be kept
on a faster machine.

Time limits are per puzzle (``time_limit`` seconds to find one puzzle in the band); on the
main thread an interval timer interrupts a long technique search (a forcing net can run for
many seconds) at the deadline. When the limit runs out, :class:`GenerationTimeout` says so
and carries the puzzles made so far; the searches check the clock as they go, so the limit
is overrun by a fraction of a second at most.

>>> out = generate("classic", "easy", count=1, seed=7)
>>> g = out[0]
>>> g.level, g.rating.level, g.puzzle.count_solutions(2)
('easy', 'easy', 1)
>>> generate("classic", "easy", seed=g.seed)[0].line() == g.line()
True
>>> k = generate("killer", "easy", seed=3)[0]
>>> k.to_spec()["rules"][1]["rule"], k.puzzle.count_solutions(2)
('killer_cage', 1)
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterator, NamedTuple, Sequence

from csp import Grid, Puzzle
from csp.bits import digits_of
from csp.errors import (InvalidPuzzle, NodeLimitExceeded, SearchLimit, SoundnessError,
                        SudokuCSPError, TimeLimitExceeded)
from csp.events import Contradiction
from csp.io import write_line
from csp.text import did_you_mean
from csp.search import search
from techniques import StepSolver, registry
from techniques.loop import first_step
from techniques.registry import LEVEL_MAX_SCORE, LEVELS
from techniques.loop import rated_by_idea
from techniques.solver import Rating, rate_steps

from variants.classic import classic
from variants.killer import killer_cage

VARIANTS = ("classic", "jigsaw", "killer")

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

#: seconds one killer candidate may spend proving uniqueness before it is dropped
KILLER_CANDIDATE_SECONDS = 5.0

#: seconds allowed per puzzle by default (the whole search for one puzzle in the band)
DEFAULT_TIME_LIMIT = 60.0

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
#: depth-first nodes one uniqueness check of a big grid may use before the removal is undone
BIG_UNIQUE_NODES = 300


class GenerateError(InvalidPuzzle):
    """Bad generation arguments (unknown variant or level, count below 1, bad size)."""


class GenerationTimeout(SudokuCSPError):
    """The time limit ran out before ``count`` puzzles were found; ``puzzles`` holds the
    ones that were (in order), ``tried`` the number of candidates rated."""

    def __init__(self, message: str, puzzles: list["Generated"], tried: int) -> None:
        super().__init__(message)
        self.puzzles = puzzles
        self.tried = tried


#: what a rating status means for a candidate (:class:`Progress` ``outcome``)
_OUTCOME = {"above": "above the level", "stuck": "logic stuck", "timeout": "rating timeout"}


class Progress(NamedTuple):
    """What became of one candidate (see ``progress`` of :func:`generate_iter`):
    ``outcome`` is "kept", "other level" (rated, at ``level``), "above the level",
    "logic stuck", "rating timeout", "no puzzle" (no unique puzzle from that seed) or
    "search limit";
    ``seconds`` the candidate's time, ``total`` the time so far for this puzzle."""

    puzzle: int          # which puzzle is being made (1-based)
    count: int           # how many are asked for
    candidate: int       # candidates tried for this puzzle, this one included
    seed: int
    outcome: str
    level: str | None
    seconds: float
    total: float

    def line(self) -> str:
        """One line for stderr.

        >>> Progress(1, 2, 3, 40, "other level", "hard", 1.25, 4.5).line()
        'generate: puzzle 1/2, candidate 3 (seed 40): other level (hard), 1.2 s (4.5 s)'
        """
        what = self.outcome + (f" ({self.level})" if self.level else "")
        return (f"generate: puzzle {self.puzzle}/{self.count}, candidate {self.candidate} "
                f"(seed {self.seed}): {what}, {self.seconds:.1f} s ({self.total:.1f} s)")


@dataclass
class Generated:
    """One generated puzzle: the :class:`csp.Puzzle` (givens and rules; ``unique`` is
    True), its solution, its logic rating and the seed that reproduces it."""

    puzzle: Puzzle
    variant: str
    level: str
    rating: Rating
    solution: list[int]
    seed: int
    candidates: int = 1          # candidates tried before this one was kept
    time_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def givens(self) -> int:
        """Number of given digits."""
        return len(self.puzzle.given)

    def line(self) -> str:
        """The givens as a line string (row-major, '.' for blanks)."""
        g = self.puzzle.grid
        return write_line([self.puzzle.given.get(c, 0) for c in range(g.size)], g.n)

    def to_spec(self) -> dict:
        """The puzzle as sudoku-csp JSON (:func:`sudoku_csp.formats.spec.to_spec`)."""
        from .formats.spec import to_spec
        return to_spec(self.puzzle)

    def text(self) -> str:
        """What the CLI prints: the line string for classic, the JSON spec otherwise."""
        if self.variant == "classic":
            return self.line()
        import json
        return json.dumps(self.to_spec())

    def to_dict(self) -> dict:
        """JSON object of the CLI's ``--json`` output."""
        out: dict[str, Any] = {"variant": self.variant, "level": self.level,
                               "seed": self.seed, "givens": self.givens,
                               "rating": self.rating.to_dict()}
        if self.variant == "classic":
            out["puzzle"] = self.line()
        else:
            out["puzzle"] = self.to_spec()
        g = self.puzzle.grid
        out["solution"] = write_line(self.solution, g.n)
        out["candidates"] = self.candidates
        out["time_ms"] = round(self.time_ms, 3)
        out.update(self.extra)
        return out


# ---------------------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------------------
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


def random_regions(n: int, rng: random.Random, swaps: int | None = None) -> list[int]:
    """A random jigsaw layout: a region index per cell, n orthogonally connected regions of
    n cells each.

    Starts from the boxes (rows when n has no box shape) and makes ``swaps`` (default
    ``30 * n * n``) random exchanges of two neighbouring cells of different regions, each
    kept only when both regions stay connected, so every layout on the way is valid.

    >>> regs = random_regions(6, random.Random(2))
    >>> sorted(regs.count(i) for i in range(6))
    [6, 6, 6, 6, 6, 6]
    >>> regs != list(Grid(6).region_of)
    True
    """
    g = Grid(n)
    size = g.size
    region = list(g.region_of) if g.regions else [c // n for c in range(size)]
    nbrs = [g.orthogonal(c) for c in range(size)]
    members = [set() for _ in range(n)]
    for c in range(size):
        members[region[c]].add(c)

    def connected(cells: set[int]) -> bool:
        start = next(iter(cells))
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            for x in nbrs[c]:
                if x in cells and x not in seen:
                    seen.add(x)
                    todo.append(x)
        return len(seen) == len(cells)

    edges = [(a, b) for a in range(size) for b in nbrs[a] if a < b]
    for _ in range(30 * size if swaps is None else swaps):
        a, b = rng.choice(edges)
        ra, rb = region[a], region[b]
        if ra == rb:
            continue
        # a moves to b's region and some other cell x of b's region (next to a's region)
        # moves to a's: swapping a and b themselves would change nothing in the shape
        xs = [x for x in members[rb] if x != b and any(region[y] == ra and y != a
                                                       for y in nbrs[x])]
        if not xs:
            continue
        x = rng.choice(sorted(xs))
        A = members[ra] - {a} | {x}
        B = members[rb] - {x} | {a}
        if connected(A) and connected(B):
            members[ra], members[rb] = A, B
            region[a], region[x] = rb, ra
    return region


def _unique(eng: Any, cand: list[int], deadline: float | None) -> bool:
    """Exactly one solution from these candidates (raises SearchLimit past the deadline)."""
    left = None if deadline is None else max(0.001, deadline - time.perf_counter())
    sols, _ = search(eng, cand, 2, None, left)
    return len(sols) == 1


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

    >>> p = Puzzle(4).use(classic())
    >>> sol = random_fill(p, random.Random(5))
    >>> givens = dig(p, sol, random.Random(5))
    >>> q = Puzzle(4).use(classic()).givens(givens)
    >>> q.count_solutions(2), 0 < sum(1 for g in givens if g) < 16
    (1, True)
    """
    g = puzzle.grid
    size = g.size
    eng = puzzle.engine()
    allm = g.all_mask
    givens = list(solution)
    keep_set = set(keep)
    order = list(range(size))
    rng.shuffle(order)
    done: set[int] = set()
    for c in order:
        if c in done or c in keep_set:
            continue
        group = {c, size - 1 - c} if symmetric else {c}
        done |= group
        if group & keep_set:
            continue
        saved = {x: givens[x] for x in group}
        for x in group:
            givens[x] = 0
        cand = [(1 << v) if v else allm for v in givens]
        if not _unique(eng, cand, deadline) or (keep_if is not None and not keep_if(givens)):
            for x, v in saved.items():
                givens[x] = v
    return givens


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


def _unique_big(eng: Any, cand: list[int], deadline: float | None) -> bool:
    """One solution, decided by depth-first search within :data:`BIG_UNIQUE_NODES` nodes;
    a check that runs out of nodes counts as not unique (the removal is undone)."""
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeLimitExceeded("time limit reached while digging")
    left = None if deadline is None else max(0.001, deadline - time.perf_counter())
    try:
        sols, _ = search(eng, cand, 2, BIG_UNIQUE_NODES, left)
    except NodeLimitExceeded:
        return False
    return len(sols) == 1


def dig_big(puzzle: Puzzle, solution: Sequence[int], rng: random.Random,
            symmetric: bool = False, floor: int = 0, deadline: float | None = None,
            progress: Callable[[int], None] | None = None) -> list[int]:
    """:func:`dig` for big grids: cells (point-symmetric pairs with ``symmetric``) are
    removed in random order in batches, a batch that breaks uniqueness is retried cell by
    cell, and digging stops once ``floor`` givens are left (a pair may end one below).
    Uniqueness checks have a node budget (:func:`_unique_big`), so the result has one
    solution but need not be minimal. ``progress(givens left)`` is called after each batch.

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


def random_cages(solution: Sequence[int], n: int, rng: random.Random, min_size: int = 2,
                 max_size: int = 5, tries: int = 200) -> list[list[int]]:
    """Cut a solved n x n grid into orthogonally connected cages of ``min_size`` to
    ``max_size`` cells (a leftover cell may make one cage ``max_size + 1``) whose digits
    differ. Cages are seeded from the cell with the fewest free neighbours.

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


# ---------------------------------------------------------------------------------------
# rating with an early stop
# ---------------------------------------------------------------------------------------
def rate_within(puzzle: Puzzle, level: str | None = None,
                deadline: float | None = None) -> tuple[str, Rating | None]:
    """Rate ``puzzle`` by logic exactly as ``StepSolver("default", unique=True)`` would,
    but stop as soon as the rating is certain to be above ``level``.

    Returns ``(status, rating)``: ``"solved"`` with the rating, ``"stuck"`` (the logic
    solver cannot finish: no level), ``"above"`` (harder than ``level``) or ``"timeout"``
    (past ``deadline``, a ``time.perf_counter()`` value); the rating is None unless solved.

    >>> from variants.classic import classic_puzzle
    >>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    >>> status, r = rate_within(p, "hard")
    >>> status, r.level
    ('solved', 'easy')
    """
    return _rate(puzzle, level, deadline)


def _rate(puzzle: Puzzle, level: str | None, deadline: float | None,
          skip: Collection[str] | None = None) -> tuple[str, Rating | None]:
    """:func:`rate_within`; with ``skip`` (technique names) a stricter and cheaper test
    for steering: the techniques of ``skip`` are left out of the plan, so "solved" means
    solved within ``level`` without them, and a run that gets stuck is "above". The
    rating proper may take a skipped technique where it comes first (it is within the
    level, so the puzzle stays within it); the generator rates every candidate it keeps
    with :func:`rate_within` itself.

    >>> from variants.classic import classic_puzzle
    >>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    >>> singles = {"hidden_single", "naked_single"}
    >>> _rate(p, "easy", None, singles)[0], _rate(p, "easy", None, set())[0]
    ('above', 'solved')
    """
    within: list = []
    run = StepSolver("default", unique=True).start(
        puzzle, deadline=deadline, strategy=lambda r, an: first_step(r, an, within))
    plan = run.plan()
    cap = LEVELS.index(level) if level is not None else len(LEVELS) - 1
    # variants and grids other than 9x9 are rated by their hardest idea: no score cap
    # (see techniques.loop.rated_by_idea)
    by_idea = rated_by_idea(puzzle)
    max_score = LEVEL_MAX_SCORE[LEVELS[cap]] if not by_idea else None
    # past the last technique within the level only harder ones are left: when every
    # technique up to it fails, the puzzle is "above" without trying them
    last_ok = max((i for i, (t, _, _) in enumerate(plan) if LEVELS.index(t.level) <= cap),
                  default=-1)
    within[:] = plan[:last_ok + 1]
    if skip is not None:
        within[:] = [x for x in within if x[0].name not in skip]
        last_ok = -1        # a stuck run is "above"
    score = 0
    for step in run:
        t = registry.get(step.technique)
        if LEVELS.index(t.level) > cap:
            return "above", None
        score += t.score
        if max_score is not None and score > max_score:
            return "above", None
    if run.status == "solved":
        return "solved", rate_steps(run.steps, by_idea=by_idea)
    if run.status == "limit" and run.expired():
        return "timeout", None
    # stuck, a contradiction (impossible on a unique puzzle with sound techniques), or a
    # search that gave up on its own budget
    return ("above" if last_ok < len(plan) - 1 else "stuck"), None


# ---------------------------------------------------------------------------------------
# candidates
# ---------------------------------------------------------------------------------------
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
    allm = p.grid.all_mask
    givens = [0] * p.grid.size
    cap = time.perf_counter() + KILLER_CANDIDATE_SECONDS
    deadline = cap if deadline is None else min(deadline, cap)
    added: list[int] = []
    while True:
        cand = [(1 << v) if v else allm for v in givens]
        left = None if deadline is None else max(0.001, deadline - time.perf_counter())
        sols, _ = search(eng, cand, 2, None, left)
        if len(sols) < 2:
            break
        diff = [c for c in range(p.grid.size) if sols[0][c] != sols[1][c]]
        c = rng.choice(diff)
        givens[c] = solution[c]
        added.append(c)
    if added:   # drop the givens that later ones made unnecessary
        rng.shuffle(added)
        for c in added:
            givens[c] = 0
            cand = [(1 << v) if v else allm for v in givens]
            if not _unique(eng, cand, deadline):
                givens[c] = solution[c]
    q = Puzzle(p.grid).use(*[b for b, _ in p.bundles])
    q.givens(givens)
    q.unique = True
    return q, solution


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


# ---------------------------------------------------------------------------------------
# the API
# ---------------------------------------------------------------------------------------
def _check_args(variant: str, level: str, count: int, size: int) -> None:
    if variant not in VARIANTS:
        raise GenerateError(f"unknown variant {variant!r}{did_you_mean(variant, VARIANTS)} "
                            f"(choose from {', '.join(VARIANTS)})")
    if level not in LEVELS:
        raise GenerateError(f"unknown level {level!r}{did_you_mean(level, LEVELS)} "
                            f"(choose from {', '.join(LEVELS)})")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GenerateError(f"count must be a positive integer, got {count!r}")
    if not isinstance(size, int) or isinstance(size, bool) or not 4 <= size <= MAX_SIZE:
        raise GenerateError(f"size must be an integer from 4 to {MAX_SIZE}, got {size!r}")
    if size > 16 and variant != "classic":
        raise GenerateError(f"a {size}x{size} grid is generated for classic only (jigsaw and "
                            "killer up to 16x16)")
    if variant != "jigsaw" and Grid(size).box_shape is None:
        raise GenerateError(f"a {size}x{size} {variant} grid needs boxes; size {size} has no "
                            "box shape")


def generate_iter(variant: str = "classic", level: str = "easy", count: int = 1,
                  seed: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
                  size: int = 9, symmetric: bool = False,
                  progress: Callable[[Progress], None] | None = None) -> Iterator[Generated]:
    """Yield ``count`` puzzles as they are found (see :func:`generate`). Raises
    :class:`GenerationTimeout` when one puzzle takes longer than ``time_limit`` seconds
    (its ``puzzles`` are the ones yielded so far). ``progress`` is called once per candidate
    with a :class:`Progress` (what became of it), e.g. to report long big-grid runs.

    >>> seen = []
    >>> _ = list(generate_iter("classic", "easy", seed=3, progress=seen.append))
    >>> [(p.candidate, p.seed, p.outcome) for p in seen]
    [(1, 3, 'above the level'), (2, 4, 'kept')]
    """
    _check_args(variant, level, count, size)
    if time_limit is not None and not (isinstance(time_limit, (int, float))
                                       and 0 < time_limit < float("inf")):
        raise GenerateError(f"time limit must be a positive finite number of seconds "
                            f"(or None for no limit), got {time_limit!r}")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    elif not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise GenerateError(f"seed must be a non-negative integer, got {seed!r}")
    made: list[Generated] = []
    tried = 0
    nxt = seed
    for _ in range(count):
        t0 = time.perf_counter()
        deadline = t0 + time_limit if time_limit is not None else None
        k = 0
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                raise GenerationTimeout(
                    f"time limit: no {level} {variant} puzzle found in {time_limit:g} s "
                    f"({k} candidates rated; made {len(made)} of {count})", made, tried)
            s = nxt
            nxt += 1
            k += 1
            tried += 1
            big = variant == "classic" and size >= BIG_N
            tc = time.perf_counter()

            def tell(outcome: str, rating: Any = None) -> None:
                if progress is not None:
                    progress(Progress(len(made) + 1, count, k, s, outcome,
                                      getattr(rating, "level", None),
                                      time.perf_counter() - tc, time.perf_counter() - t0))
            try:
                got = make_candidate(variant, s, size, symmetric, deadline,
                                     KILLER_CAGE_SIZES[level], _dig_target(variant, level),
                                     _big_floor(size, level) if big else 0.0,
                                     cage_share=KILLER_STEERED.get(level, 1.0))
            except SearchLimit:
                tell("search limit")
                continue
            if got is None:
                tell("no puzzle")
                continue
            p, sol = got
            rate_by = deadline
            if big:     # one slow rating must not eat the whole limit
                cap = time.perf_counter() + _near(BIG_RATE_SECONDS, size)
                rate_by = cap if deadline is None else min(deadline, cap)
            status, rating = rate_within(p, level, rate_by)
            if status != "solved" or rating is None or rating.level != level:
                tell(_OUTCOME.get(status, status) if status != "solved" or rating is None
                     else "other level", rating)
                continue
            why = p.solution_error(sol)
            if why is not None:     # the last check before a puzzle and its solution leave
                raise SoundnessError(f"generated {variant} puzzle (seed {s}) with a solution "
                                     f"that is not one: {why}", p, sol)
            tell("kept", rating)
            out = Generated(p, variant, level, rating, sol, s, k,
                            (time.perf_counter() - t0) * 1000)
            made.append(out)
            yield out
            break


def generate(variant: str = "classic", level: str = "easy", count: int = 1,
             seed: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
             size: int = 9, symmetric: bool = False) -> list[Generated]:
    """``count`` puzzles of ``variant`` ("classic", "jigsaw" or "killer"), each with one
    solution and a logic rating (``StepSolver`` default techniques) of ``level``.

    ``seed``: candidates use seeds ``seed, seed + 1, ...`` (random when None);
    ``time_limit``: seconds allowed per puzzle (None: no limit), past it
    :class:`GenerationTimeout` is raised carrying the puzzles made so far; ``size``: grid
    size (4..25; classic and killer need a box shape; jigsaw and killer up to 16; classic
    from 12x12 on is dug to a level-dependent share of givens, see :data:`BIG_FLOOR`);
    ``symmetric``: dig point-symmetric pairs. Bad arguments raise :class:`GenerateError`.

    >>> [g.level for g in generate("classic", "medium", count=2, seed=11)]
    ['medium', 'medium']
    >>> generate("sudoku", "easy")
    Traceback (most recent call last):
    ...
    sudoku_csp.generate.GenerateError: unknown variant 'sudoku' (choose from classic, jigsaw, killer)
    """
    return list(generate_iter(variant, level, count, seed, time_limit, size, symmetric))


__all__ = ["VARIANTS", "DEFAULT_TIME_LIMIT", "GenerateError", "GenerationTimeout", "Generated",
           "Progress",
           "generate", "generate_iter", "make_candidate", "rate_within", "random_fill",
           "random_regions", "random_cages", "dig"]
