"""Soundness checking: no technique may eliminate a solution digit or place a wrong one.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> sol = p.solve().solution
>>> check_puzzle(p, sol, ["singles"]) == []
True
>>> r = check_solve(p, sol, "all", time_limit=10)
>>> r.status, r.problem, r.steps == sum(r.counts.values())
('solved', None, True)
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from csp.events import Contradiction
from csp.io import write_pencilmarks
from csp.model import Puzzle
from csp.step import Step

from . import registry
from .analysis import Analysis
from .solver import StepSolver, apply_step, is_effective


def unsound(step: Step, solution: Sequence[int]) -> str | None:
    """Why ``step`` is wrong for ``solution``, or None when it is sound."""
    for c, d in step.placements:
        if solution[c] != d:
            return f"places {d} at cell {c}, solution has {solution[c]}"
    for c, d in step.eliminations:
        if solution[c] == d:
            return f"eliminates solution digit {d} at cell {c}"
    return None


def check_puzzle(puzzle: Puzzle, solution: Sequence[int], techniques: Iterable[str],
                 path: str | Iterable[str] = "all", max_steps: int = 400,
                 options: dict | None = None) -> list[str]:
    """Walk a logic solve path (techniques ``path``) and, at every state on it, run every
    technique in ``techniques`` and check all of its steps. Returns the problems found."""
    techs = registry.select(techniques)
    walker = StepSolver(path, options=options, unique=True)
    st = puzzle.pencilmarks()
    problems: list[str] = []
    for _ in range(max_steps):
        an = Analysis(st)
        for t in techs:
            for step in t.find(an, options or {}):
                if is_effective(st, step):
                    why = unsound(step, solution)
                    if why:
                        problems.append(f"{t.name}: {step.explain(2)}: {why}")
        if problems:
            return problems
        if all(st.placed[c] for c in range(st.grid.size)):
            break
        step = walker.next_step(st)
        if step is None:
            break
        why = unsound(step, solution)
        if why:
            problems.append(f"(path) {step.technique}: {step.explain(2)}: {why}")
            return problems
        apply_step(st, step)
    return problems


@dataclass
class CheckedSolve:
    """The end of a checked logic solve (:func:`check_solve`)."""

    status: str          # "solved" | "stuck" | "limit" | "unsound"
    steps: int           # sound steps applied
    seconds: float       # elapsed (the time limit is on elapsed time)
    cpu_seconds: float   # CPU time of this process
    counts: Counter = field(default_factory=Counter)   # applied steps per technique
    problem: str | None = None   # "unsound": the technique, the step, why, the state before


def check_solve(puzzle: Puzzle, solution: Sequence[int], techniques: str | Iterable[str] = "all",
                time_limit: float | None = None, unique: bool | None = True,
                options: dict | None = None, max_steps: int = 100_000) -> CheckedSolve:
    """Logic-solve ``puzzle`` like :meth:`StepSolver.solve` (same technique order, same
    deadline for the costly searches) and check every step against ``solution`` before it is
    applied. The solve stops at the first unsound step (status ``"unsound"``), which also
    covers a step the state cannot take (a contradiction while applying it); otherwise it
    ends ``"solved"``, ``"stuck"`` or ``"limit"`` (``time_limit`` seconds passed).
    ``unique=True`` (the default) declares the puzzle has one solution."""
    t0, c0 = time.perf_counter(), time.process_time()
    solver = StepSolver(techniques, options=options, unique=unique)
    solver.deadline = deadline = t0 + time_limit if time_limit else None
    st = puzzle.pencilmarks()
    counts: Counter = Counter()
    status, problem = "stuck", None
    for _ in range(max_steps):
        if all(st.placed[c] for c in range(st.grid.size)):
            status = "solved"
            break
        step = solver.next_step(st)
        if step is None:
            break
        why = unsound(step, solution)
        if why is None:
            before = st.copy()
            try:
                apply_step(st, step)
            except Contradiction as e:
                why, st = f"contradiction while applying it: {e}", before
        if why is not None:
            status = "unsound"
            problem = (f"{step.technique}: {step.explain(2)}: {why}\n"
                       f"state before the step:\n{write_pencilmarks(st)}")
            break
        counts[step.technique] += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    if status == "stuck" and ((deadline is not None and time.perf_counter() > deadline)
                              or solver.incomplete):
        status = "limit"     # as StepSolver.solve: a search cut short left no step
    return CheckedSolve(status, sum(counts.values()), time.perf_counter() - t0,
                        time.process_time() - c0, counts, problem)
