"""Techniques as TECHNIQUE-cost propagators, so :func:`propagate` and the StepSolver share
one code path.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> p.propagate().is_solved(), propagate(p, "intersections").is_solved()
(False, True)
"""
from __future__ import annotations

from typing import Any, Iterable

from csp.budget import Budget
from csp.events import Cost, Event, Status
from csp.model import Puzzle
from csp.propagator import Context, Propagator, TraceHook
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
        budget = ctx.budget      # the call's budget reaches the costly searches
        an = Analysis(st, budget=budget)
        for step in self.technique.find(an, self.options):
            for c, d in step.placements:
                if ctx.restrict(c, 1 << d, step):
                    changed = True
            for c, d in step.eliminations:
                if not placed[c] and ctx.remove(c, 1 << d, step):
                    changed = True
            if changed:
                return Status.NOFIX
        if an.timed_out and budget is not None:
            budget.check("propagation")       # cut short: stop here, not "fixpoint"
        return Status.FIX


def propagate(puzzle: Puzzle, techniques: str | Propagator | Iterable[Any],
              state: State | None = None, gac: bool = False,
              trace: TraceHook | None = None, time_limit: float | None = None,
              budget: Budget | None = None) -> State:
    """The rules, then ``techniques`` (technique or family names, as for
    :func:`techniques.registry.select`, or propagators) as TECHNIQUE-cost propagators run when
    the rules are quiet, to fixpoint; returns a new State. Uniqueness techniques take part only
    when the puzzle is declared unique (``puzzle.unique``). Raises
    :class:`~csp.events.Contradiction` when unsatisfiable and
    :class:`~csp.errors.TimeLimitExceeded` past ``time_limit`` seconds or once ``budget``
    (the caller's :class:`~csp.budget.Budget`) is spent: building the model, the rules and
    the techniques' costly searches all run within it.

    >>> from csp.errors import TimeLimitExceeded
    >>> from variants.classic import classic_puzzle
    >>> try:
    ...     propagate(classic_puzzle("." * 625), "all", time_limit=0.2)
    ... except TimeLimitExceeded as e:
    ...     print(e)
    propagation stopped after 0.2 s
    """
    budget = Budget.within(budget, time_limit)
    timed = budget if budget.limited else None
    if timed is not None:
        timed.check("propagation")
    items = [techniques] if isinstance(techniques, (str, Propagator)) else list(techniques)
    st = puzzle.initial_state(budget) if state is None else state.copy()
    eng = puzzle.engine(gac, budget).extended(resolve(puzzle, items))
    eng.propagate(st.cand, None, trace, budget=timed)
    st.version += 1
    return st


def resolve(puzzle: Puzzle, spec: Iterable[Any]) -> list[Propagator]:
    """Propagators for ``spec``: propagators as they are, names selected from the registry."""
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
