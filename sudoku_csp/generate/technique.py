"""Puzzles for one technique: HoDoKu's practice mode (issue 26 item 2).

:func:`for_technique` looks for a classic puzzle whose logic solve **needs** the technique
and **nothing harder**:

* the default solver solves the puzzle with the technique on its path and no step of a
  technique with a higher score (the rating's hardest technique is it, or as hard);
* the default solver limited to the techniques no harder than it, without it, gets stuck at
  the very state where the path used it (the state just before its first step,
  :attr:`Practice.state`).

Candidates are the generator's minimal classic candidates
(:func:`~sudoku_csp.generate.make_candidate`) from ``seed``, ``seed + 1``, ...; a seed
reproduces its puzzle. A technique that minimal puzzles rarely need as their hardest idea
takes long to find (about one candidate in 30 has an X-Wing as its hardest step). Techniques off the default path (``enabled`` false in the ladder)
are refused: the default solver never uses them.

>>> pr = for_technique("x_wing", seed=1, time_limit=120)
>>> pr.step.technique, pr.puzzle.count_solutions(2)
('x_wing', 1)
>>> for_technique("x_wing", seed=pr.seed).line() == pr.line()
True
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from csp import Puzzle
from csp.errors import InvalidArgument, SearchLimit
from csp.io import write_line, write_pencilmarks
from csp.state import State
from csp.step import Step
from techniques import StepSolver, registry
from techniques.loop import replay

from .candidates import make_candidate

#: seconds one candidate's two logic solves may take (a candidate past it is dropped)
CANDIDATE_SECONDS = 20.0


class NoPracticePuzzle(InvalidArgument):
    """No puzzle for the technique was found within the time limit."""


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

    def line(self) -> str:
        """The puzzle's givens as a line."""
        return write_line([self.puzzle.given.get(c, 0) for c in range(self.puzzle.grid.size)],
                          self.puzzle.grid.n)

    def marks(self) -> str:
        """The pencil marks of :attr:`state` (the boxed candidate grid HoDoKu prints)."""
        return write_pencilmarks(self.state)

    def to_json(self) -> dict[str, Any]:
        return {"technique": self.technique, "puzzle": self.line(),
                "solution": "".join(map(str, self.solution)), "seed": self.seed,
                "steps_before": self.before, "step": self.step.explain(1),
                "state": _cand_line(self.state)}


def _cand_line(state: State) -> list[str]:
    return ["".join(str(d) for d in range(1, m.bit_length()) if m >> d & 1) for m in state.cand]


def for_technique(name: str, seed: int | None = None, time_limit: float = 60.0,
                  size: int = 9, progress: Callable[[int], Any] | None = None) -> Practice:
    """A classic puzzle that needs technique ``name`` and nothing harder (see the module),
    within ``time_limit`` seconds (wall clock; :class:`NoPracticePuzzle` past it)."""
    tech = registry.get(name)
    if not tech.enabled:
        raise InvalidArgument(f"technique {name!r} is not on the default path (off by "
                              "default): no puzzle needs it")
    pool = [t.name for t in registry.select("default") if t.score <= tech.score]
    without = [t for t in pool if t != tech.name]
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
                state, step, before = found
                return Practice(made[0], made[1], tech.name, state, step, before, s, tries)
        s += 1
    raise NoPracticePuzzle(f"no puzzle needing {name} found in {time_limit:g} s "
                           f"({tries} candidates from seed {seed})")


def _check(p: Puzzle, solution: list[int], name: str, pool: list[str], without: list[str],
           deadline: float) -> tuple[State, Step, int] | None:
    left = min(CANDIDATE_SECONDS, deadline - time.perf_counter())
    if left <= 0:
        return None
    res = StepSolver("default", unique=True).solve(p, time_limit=left)
    if res.status != "solved":
        return None                      # not solved by logic in time
    first = next((i for i, st in enumerate(res.steps) if st.technique == name), None)
    if first is None:
        return None
    score = registry.get(name).score
    if any(registry.get(st.technique).score > score for st in res.steps):
        return None                      # needs something harder too
    left = min(CANDIDATE_SECONDS, deadline - time.perf_counter())
    if left <= 0:
        return None
    res2 = StepSolver(without, unique=True).solve(p, time_limit=left)
    if res2.status != "stuck":
        return None                      # solved another way: the technique is not needed
    states = list(replay(p.initial_state(), res.steps[:first]))
    before = states[-1]
    if list(before.cand) != list(res2.state.cand):
        return None                      # stuck elsewhere: not the state the path used it at
    return before, res.steps[first], first
