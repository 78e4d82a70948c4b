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
rating ran out of time may be kept on a faster machine (killer uniqueness is bounded by a
node count, :data:`KILLER_CANDIDATE_NODES`, the same on every machine).

Time limits are per puzzle (``time_limit`` seconds to find one puzzle in the band): the
deadline is handed to every fill, uniqueness search and logic rating (the step solver's run
and its techniques poll it, so a long forcing net stops there too). When the limit runs out,
:class:`GenerationTimeout` says so and carries the puzzles made so far; since everything
checks the clock as it goes, the limit is overrun by a fraction of a second at most.

The package is split along its ideas: :mod:`.fill` (random full grids), :mod:`.regions`
(jigsaw layouts), :mod:`.dig` (removing givens while unique), :mod:`.killer` (cages and
the killer steering), :mod:`.rating` (the level filter), :mod:`.candidates` (one candidate
from one seed) and this module (the API: arguments, the candidate loop, results).

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
from typing import Any, Callable, Iterator, NamedTuple

from csp import Grid, Puzzle
from csp.errors import InvalidPuzzle, SearchLimit, SoundnessError, SudokuCSPError
from csp.io import write_line
from csp.text import did_you_mean, quoted
from techniques.registry import LEVELS
from techniques.solver import Rating

# the package's public names and the tunables tests and docs name as
# ``sudoku_csp.generate.NAME`` (re-exported from the modules that use them)
from .candidates import (BIG_FLOOR, BIG_N, BIG_RATE_SECONDS, MAX_SIZE, _big_floor, _dig_target,
                         _near, make_candidate)
from .dig import BIG_UNIQUE_NODES, dig, dig_big
from .fill import big_fill, random_fill
from .killer import (KILLER_CAGE_SIZES, KILLER_CANDIDATE_NODES, KILLER_STEERED, STEER_SKIP,
                     random_cages)
from .rating import rate_within
from .regions import random_regions
from .rules import (GIVENS, GLOBAL_RULES, NEGATIVE_FAMILIES, RULE_FAMILIES, make_rules_candidate,
                    parse_families)

VARIANTS = ("classic", "jigsaw", "killer")
#: seconds allowed per puzzle by default (the whole search for one puzzle in the band)
DEFAULT_TIME_LIMIT = 60.0

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
        from ..formats.spec import to_spec
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
# the API
# ---------------------------------------------------------------------------------------
def _check_args(variant: str, level: str, count: int, size: int) -> None:
    families = parse_families(variant) if isinstance(variant, str) else None
    if variant not in VARIANTS and families is None:
        names = VARIANTS + RULE_FAMILIES
        bad = next((x for x in str(variant).split(",") if x.strip() not in names), variant)
        raise GenerateError(f"unknown variant {quoted(bad)}{did_you_mean(bad, names)} "
                            f"(choose from {', '.join(VARIANTS)}, or rule families "
                            f"{', '.join(RULE_FAMILIES)} joined by commas)")
    if level not in LEVELS:
        raise GenerateError(f"unknown level {quoted(level)}{did_you_mean(level, LEVELS)} "
                            f"(choose from {', '.join(LEVELS)})")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GenerateError(f"count must be a positive integer, got {quoted(count)}")
    if not isinstance(size, int) or isinstance(size, bool) or not 4 <= size <= MAX_SIZE:
        raise GenerateError(f"size must be an integer from 4 to {MAX_SIZE}, got {quoted(size)}")
    if families is not None and size > 9:
        raise GenerateError(f"rule families are generated up to 9x9, not {size}x{size}")
    if size > 16 and variant != "classic":
        raise GenerateError(f"a {size}x{size} grid is generated for classic only (jigsaw and "
                            "killer up to 16x16)")
    if variant != "jigsaw" and Grid(size).box_shape is None:
        raise GenerateError(f"a {size}x{size} {variant} grid needs boxes; size {size} has no "
                            "box shape")


def _check_rule_args(variant: str, givens: str | None, negative: bool) -> list[str] | None:
    """The rule families of ``variant`` (None for classic, jigsaw and killer) after checking
    ``givens`` and ``negative`` against them."""
    families = parse_families(variant)
    if families is None:
        if givens is not None or negative:
            raise GenerateError(f"givens and negative apply to the rule families "
                                f"({', '.join(RULE_FAMILIES)}), not to {variant}")
        return None
    if givens is not None and givens not in GIVENS:
        raise GenerateError(f"unknown givens choice {quoted(givens)}{did_you_mean(givens, GIVENS)} "
                            f"(choose from {', '.join(GIVENS)})")
    if negative and not set(families) & set(NEGATIVE_FAMILIES):
        raise GenerateError(f"negative applies to {' and '.join(NEGATIVE_FAMILIES)}, not to "
                            f"{variant}")
    if givens == "none" and all(f in GLOBAL_RULES for f in families):
        raise GenerateError(f"{variant} places no elements: its puzzles need givens "
                            "(givens few or any)")
    return families


def generate_iter(variant: str = "classic", level: str = "easy", count: int = 1,
                  seed: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
                  size: int = 9, symmetric: bool = False,
                  progress: Callable[[Progress], None] | None = None, *,
                  givens: str | None = None, negative: bool = False) -> Iterator[Generated]:
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
    families = _check_rule_args(variant, givens, negative)
    if time_limit is not None and not (isinstance(time_limit, (int, float))
                                       and 0 < time_limit < float("inf")):
        raise GenerateError(f"time limit must be a positive finite number of seconds "
                            f"(or None for no limit), got {quoted(time_limit)}")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    elif not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise GenerateError(f"seed must be a non-negative integer, got {quoted(seed)}")
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
            elements: list | None = None
            try:
                if families is not None:
                    got3 = make_rules_candidate(families, s, size, symmetric, deadline, level,
                                                givens or "any", negative)
                    got = None if got3 is None else got3[:2]
                    elements = None if got3 is None else got3[2]
                else:
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
            pre = getattr(p, "rated", None)
            if pre is not None and pre[:2] == (level, rate_by):
                status, rating = pre[2]     # the steering's rating: the same call, made there
            else:
                status, rating = rate_within(p, level, rate_by)
            if status != "solved" or rating is None or rating.level != level:
                tell(_OUTCOME.get(status, status) if status != "solved" or rating is None
                     else "other level", rating)
                continue
            why = p.solution_error(sol)
            if why is not None:     # the last check before a puzzle and its solution leave
                raise SoundnessError(f"generated {variant} puzzle (seed {s}) with a solution "
                                     f"that is not one: {why}", p, sol)
            extra: dict[str, Any] = {}
            if families is not None:
                # uniqueness proved by the SAT path, never assumed from the dig's searches
                try:
                    proof = p.count_solutions(2, method="sat", time_limit=_left(deadline))
                except SearchLimit:
                    tell("search limit")
                    continue
                if proof != 1:
                    raise SoundnessError(f"generated {variant} puzzle (seed {s}) has "
                                         f"{proof} solutions by SAT", p, sol)
                extra = _rules_extra(families, givens or "any", negative, elements or [])
            tell("kept", rating)
            out = Generated(p, variant, level, rating, sol, s, k,
                            (time.perf_counter() - t0) * 1000, extra)
            made.append(out)
            yield out
            break


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.001, deadline - time.perf_counter())


def _rules_extra(families: list[str], givens: str, negative: bool,
                 elements: list) -> dict[str, Any]:
    """The ``--json`` keys of a rule-family puzzle: its families, the choices it was made
    with, and its placed rule elements (sudoku-csp JSON rules, each with its family)."""
    from ..formats.spec import bundle_to_dict
    return {"families": families, "givens_choice": givens, "negative": negative,
            "elements": [{"family": f, **bundle_to_dict(b)} for f, b in elements]}


def generate(variant: str = "classic", level: str = "easy", count: int = 1,
             seed: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
             size: int = 9, symmetric: bool = False, *, givens: str | None = None,
             negative: bool = False) -> list[Generated]:
    """``count`` puzzles of ``variant`` ("classic", "jigsaw" or "killer", or rule families
    from :data:`RULE_FAMILIES` joined by commas, e.g. "thermo,kropki"), each with one
    solution and a logic rating (``StepSolver`` default techniques) of ``level``.

    Rule families (see :mod:`sudoku_csp.generate.rules`) place their elements from the
    solution grid and remove the ones the level does not need; ``givens`` is "any" (the
    default: dug from the full grid), "few" (added only where needed) or "none";
    ``negative`` makes kropki and xv mark every qualifying pair (the negative constraint).
    Their uniqueness is proved by the SAT path (``count_solutions(2, method="sat")``);
    ``Generated.extra`` holds the placed elements.

    ``seed``: candidates use seeds ``seed, seed + 1, ...`` (random when None);
    ``time_limit``: seconds allowed per puzzle (None: no limit), past it
    :class:`GenerationTimeout` is raised carrying the puzzles made so far; ``size``: grid
    size (4..25; classic and killer need a box shape; jigsaw and killer up to 16; classic
    from 12x12 on is dug to a level-dependent share of givens, see :data:`BIG_FLOOR`);
    ``symmetric``: dig point-symmetric pairs (rule families: their elements too, in
    180-degree pairs, see :func:`~sudoku_csp.generate.rules._groups`). Bad arguments raise
    :class:`GenerateError`.

    >>> [g.level for g in generate("classic", "medium", count=2, seed=11)]
    ['medium', 'medium']
    >>> generate("sudoku", "easy")
    Traceback (most recent call last):
    ...
    sudoku_csp.generate.GenerateError: unknown variant 'sudoku' (choose from classic, jigsaw, killer, or rule families thermo, kropki, xv, parity, anti_knight, anti_king, diagonal, arrow, whispers, renban, between, little_killer, sandwich joined by commas)
    >>> t = generate("thermo", "easy", seed=1, size=6)[0]
    >>> t.puzzle.count_solutions(2, method="sat"), {e["rule"] for e in t.extra["elements"]}
    (1, {'thermo'})
    """
    return list(generate_iter(variant, level, count, seed, time_limit, size, symmetric,
                              givens=givens, negative=negative))


from .technique import (NoPracticePuzzle, Practice, UnknownPractice, for_technique,  # noqa: E402
                        for_technique_iter, practice_method, practice_variant)

__all__ = ["for_technique", "for_technique_iter", "practice_method", "practice_variant", "Practice", "NoPracticePuzzle", "UnknownPractice", "RULE_FAMILIES", "GIVENS", "make_rules_candidate", "VARIANTS", "DEFAULT_TIME_LIMIT", "GenerateError", "GenerationTimeout", "Generated",
           "Progress",
           "generate", "generate_iter", "make_candidate", "rate_within", "random_fill",
           "random_regions", "random_cages", "dig"]
