"""Soundness checking: no technique may eliminate a solution digit or place a wrong one.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> sol = p.solve().solution
>>> check_puzzle(p, sol, ["singles"]) == []
True
"""
from __future__ import annotations

from typing import Iterable, Sequence

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
