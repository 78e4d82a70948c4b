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

from csp.io import write_pencilmarks
from csp.model import Puzzle

from . import registry
from .analysis import Analysis
from .loop import MAX_STEPS, UnsoundStep, is_effective, unsound
from .solver import StepSolver


def check_puzzle(puzzle: Puzzle, solution: Sequence[int], techniques: Iterable[str],
                 path: str | Iterable[str] = "all", max_steps: int = 400,
                 options: dict | None = None) -> list[str]:
    """Walk a logic solve path (techniques ``path``) and, at every state on it, run every
    technique in ``techniques`` and check all of its steps. Returns the problems found."""
    techs = registry.select(techniques)
    walker = StepSolver(path, options=options, unique=True, verify=solution)
    run = walker.start(puzzle, max_steps=max_steps)
    problems: list[str] = []

    def check() -> bool:
        st = run.state
        an = Analysis(st)
        for t in techs:
            for step in t.find(an, options or {}):
                if is_effective(st, step):
                    why = unsound(step, solution)
                    if why:
                        problems.append(f"{t.name}: {step.explain(2)}: {why}")
        return not problems

    if not check():
        return problems
    try:
        for _ in run:
            if not check():
                break
    except UnsoundStep as e:
        problems.append(f"(path) {e.step.technique}: {e.step.explain(2)}: {e.why}")
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
                options: dict | None = None, max_steps: int = MAX_STEPS) -> CheckedSolve:
    """Logic-solve ``puzzle`` like :meth:`StepSolver.solve` (same technique order, same
    deadline for the costly searches) and check every step against ``solution`` before it is
    applied. The solve stops at the first unsound step (status ``"unsound"``), which also
    covers a step the state cannot take (a contradiction while applying it); otherwise it
    ends ``"solved"``, ``"stuck"`` or ``"limit"`` (``time_limit`` seconds passed).
    ``unique=True`` (the default) declares the puzzle has one solution."""
    t0, c0 = time.perf_counter(), time.process_time()
    solver = StepSolver(techniques, options=options, unique=unique, verify=solution)
    run = solver.start(puzzle, time_limit=time_limit, max_steps=max_steps)
    counts: Counter = Counter()
    problem = None
    try:
        for step in run:
            counts[step.technique] += 1
        status = run.status or "stuck"
    except UnsoundStep as e:
        status = "unsound"
        problem = (f"{e.step.technique}: {e.step.explain(2)}: {e.why}\n"
                   f"state before the step:\n{write_pencilmarks(e.state)}")
    return CheckedSolve(status, sum(counts.values()), time.perf_counter() - t0,
                        time.process_time() - c0, counts, problem)
