"""Rating a candidate by logic with an early stop (:func:`rate_within`): the generator's
filter and the steering's test."""
from __future__ import annotations

from typing import Collection

from csp import Puzzle
from techniques import StepSolver, registry
from techniques.loop import first_step, rated_by_idea
from techniques.registry import LEVEL_MAX_SCORE, LEVELS
from techniques.solver import Rating, rate_steps


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
