"""Techniques as TECHNIQUE-cost propagators, so ``Puzzle.propagate(techniques=...)`` and the
StepSolver share one code path."""
from __future__ import annotations

from typing import Any, Iterable

from csp.events import Cost, Event, Status
from csp.propagator import Context, Propagator
from csp.state import State

from . import registry
from .analysis import Analysis
from .registry import Technique


class TechniquePropagator(Propagator):
    cost = Cost.TECHNIQUE
    events = Event.DOM

    def __init__(self, technique: Technique, puzzle, options: dict | None = None) -> None:
        self.technique = technique
        self.puzzle = puzzle
        self.options = options or {}
        self.name = technique.name
        self.scope = tuple(range(puzzle.grid.size))

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        # fixed cells count as placed: the rule kernel already removed their digit from peers
        placed = [m.bit_length() - 1 if m and not m & (m - 1) else 0 for m in cand]
        st = State(self.puzzle.grid, list(cand), placed, None, self.puzzle)
        changed = False
        for step in self.technique.find(Analysis(st), self.options):
            for c, d in step.placements:
                if ctx.restrict(c, 1 << d, step):
                    changed = True
            for c, d in step.eliminations:
                if not placed[c] and ctx.remove(c, 1 << d, step):
                    changed = True
            if changed:
                return Status.NOFIX
        return Status.FIX


def resolve(puzzle, spec: Iterable[Any]) -> list[Propagator]:
    out: list[Propagator] = []
    names: list[str] = []
    for item in spec:
        if isinstance(item, Propagator):
            out.append(item)
        else:
            names.append(item)
    if names:
        for t in registry.select(names):
            if t.requires_unique and not puzzle.unique:
                continue
            out.append(TechniquePropagator(t, puzzle))
    return out
