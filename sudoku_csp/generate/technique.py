"""Puzzles for one technique: HoDoKu's practice mode (issue 26 item 2).

:func:`for_technique` looks for a classic puzzle whose logic solve **needs** the technique
and **nothing harder**:

* the default solver solves the puzzle with the technique on its path, and every step of
  that path is of the technique or of one before it in the ladder ("harder" is what the
  solver tries later: it takes the first technique of the ladder that applies);
* without it, the same solver limited to the techniques before it gets stuck at the very
  state where the path used it (the state just before its first step,
  :attr:`Practice.state`): checked, not assumed.

Candidates are the generator's minimal classic candidates
(:func:`~sudoku_csp.generate.make_candidate`) from ``seed``, ``seed + 1``, ...; a seed
reproduces its puzzle. A technique that minimal puzzles rarely need as their hardest idea
takes longer to find (2026-11-29, CPU from seed 1: XY-Wing 1.0 s, ALS-XZ 1.8 s, XY-Chain
2.3 s, Skyscraper 2.7 s, X-Wing 51 s: 509 candidates). Techniques off the default path
(``enabled`` false in the ladder) are refused: the default solver never uses them.

>>> pr = for_technique("xy_wing", seed=1)
>>> pr.step.technique, pr.seed, pr.puzzle.count_solutions(2)
('xy_wing', 11, 1)
>>> for_technique("xy_wing", seed=pr.seed).line() == pr.line()
True
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from csp import Puzzle
from csp.errors import SearchLimit, SudokuCSPError
from csp.io import write_line, write_pencilmarks
from csp.state import State
from csp.step import Step
from techniques import StepSolver, registry

from .candidates import make_candidate

#: seconds one candidate's two logic solves may take (a candidate past it is dropped)
CANDIDATE_SECONDS = 20.0


class UnknownPractice(SudokuCSPError, ValueError):
    """A technique no puzzle can be made for (off the default path)."""


class NoPracticePuzzle(SudokuCSPError):
    """No puzzle for the technique was found within the time limit (``tried`` candidates)."""

    def __init__(self, message: str, tried: int) -> None:
        super().__init__(message)
        self.tried = tried


@dataclass
class Practice:
    """A puzzle for practising ``technique``: ``state`` is the solve's state just before the
    technique's first step (``step``), after ``before`` easier steps; ``solution`` the
    puzzle's one solution; ``seed`` reproduces it."""

    puzzle: Puzzle
    solution: list[int]
    technique: str
    state: State
    step: Step
    before: int
    seed: int
    tries: int
    rating: Any = None

    def line(self) -> str:
        """The puzzle's givens as a line."""
        return write_line([self.puzzle.given.get(c, 0) for c in range(self.puzzle.grid.size)],
                          self.puzzle.grid.n)

    def marks(self) -> str:
        """The pencil marks of :attr:`state` (the boxed candidate grid HoDoKu prints)."""
        return write_pencilmarks(self.state)

    def to_dict(self) -> dict[str, Any]:
        """JSON object of ``sudoku-csp generate --technique ... --json``."""
        g = self.puzzle.grid
        out: dict[str, Any] = {"variant": "classic", "technique": self.technique,
                               "puzzle": self.line(), "solution": write_line(self.solution, g.n),
                               "seed": self.seed, "tried": self.tries}
        if self.rating is not None:
            out.update(level=self.rating.level, rating=self.rating.to_dict(),
                       hardest=self.rating.hardest)
        out["practice"] = {"steps_before": self.before, "step": self.step.explain(1),
                           "state": write_line(list(self.state.placed), g.n),
                           "candidates": _cand_line(self.state)}
        return out


def _cand_line(state: State) -> list[str]:
    return ["".join(str(d) for d in range(1, m.bit_length()) if m >> d & 1) for m in state.cand]


def for_technique(name: str, seed: int | None = None, time_limit: float = 60.0,
                  size: int = 9, progress: Callable[[int], Any] | None = None) -> Practice:
    """A classic puzzle that needs technique ``name`` and nothing harder (see the module),
    within ``time_limit`` seconds (wall clock; :class:`NoPracticePuzzle` past it)."""
    import variants  # noqa: F401  (registers the rule families' techniques: their names)
    from techniques.ladder import CLASSIC_SKIP
    tech = registry.get(name)
    if not tech.enabled:
        raise UnknownPractice(f"technique {name!r} is not on the default path (off by "
                              "default): no puzzle needs it")
    if tech.name in CLASSIC_SKIP or tech.finder.__module__.startswith("variants."):
        raise UnknownPractice(f"technique {name!r} reads variant rules: --technique makes "
                              "classic puzzles only")
    default = [t.name for t in registry.select("default")]       # in ladder order
    pool = default[:default.index(tech.name) + 1]
    without = pool[:-1]
    seed = 0 if seed is None else seed
    deadline = time.perf_counter() + time_limit
    tries = 0
    s = seed
    while time.perf_counter() < deadline:
        tries += 1
        if progress is not None:
            progress(tries)
        try:
            made = make_candidate("classic", s, size, deadline=deadline)
        except SearchLimit:
            break
        if made is not None:
            found = _check(made[0], made[1], tech.name, pool, without, deadline)
            if found is not None:
                state, step, before, rating = found
                return Practice(made[0], made[1], tech.name, state, step, before, s, tries,
                                rating)
        s += 1
    raise NoPracticePuzzle(f"no puzzle needing {name} found in {time_limit:g} s "
                           f"({tries} candidates from seed {seed})", tries)


def _check(p: Puzzle, solution: list[int], name: str, pool: list[str], without: list[str],
           deadline: float) -> tuple[State, Step, int, Any] | None:
    left = min(CANDIDATE_SECONDS, deadline - time.perf_counter())
    if left <= 0:
        return None
    res = StepSolver("default", unique=True).solve(p, time_limit=left)
    if res.status != "solved":
        return None                      # not solved by logic in time
    first = next((i for i, st in enumerate(res.steps) if st.technique == name), None)
    if first is None:
        return None
    allowed = set(pool)
    if any(st.technique not in allowed for st in res.steps):
        return None                      # needs something harder too
    left = min(CANDIDATE_SECONDS, deadline - time.perf_counter())
    if left <= 0:
        return None
    res2 = StepSolver(without, unique=True).solve(p, time_limit=left)
    if res2.status != "stuck":
        return None                      # solved another way: the technique is not needed
    same = [(st.technique, st.placements, st.eliminations) for st in res.steps[:first]]
    if [(st.technique, st.placements, st.eliminations) for st in res2.steps] != same:
        return None                      # stuck elsewhere: not where the path used it
    return res2.state, res.steps[first], first, res.rating
