"""StepSolver: the configuration of a human-style solve (which techniques, their options,
whether the puzzle is unique, a solution to verify against), logic-only solving and the
HoDoKu-style rating. The loop itself (apply the first step of the easiest technique,
restart from the easiest) is :class:`techniques.loop.Run`; a StepSolver holds no run state,
so one solver can run any number of solves, interleaved or not.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> r = StepSolver().solve(p)
>>> r.status, r.state.is_solved(), r.rating.level
('solved', True, 'easy')
"""
from __future__ import annotations

import gc
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from csp.budget import Budget, gc_paused
from csp.model import Puzzle
from csp.state import State
from csp.status import SolveStatus
from csp.step import Step

from . import registry
from .analysis import Analysis
from .loop import MAX_STEPS, Run, Strategy, cite_rules, is_effective, rated_by_idea
from .registry import LEVEL_MAX_SCORE, LEVELS, Technique

if TYPE_CHECKING:
    from .se_rating import SERating


@dataclass
class Rating:
    """HoDoKu-style rating: the sum of step scores and a level (the hardest step's level,
    raised while the score exceeds the level's maximum).

    For variant puzzles and grids other than 9x9 (``basis == "ideas"``, see :func:`rate_steps`
    and :func:`techniques.loop.rated_by_idea`) the level is the
    hardest technique's level and the score adds each technique's score once: a rating
    follows the hardest idea needed, not the number of steps."""

    score: int = 0
    level: str = "easy"
    hardest: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    basis: str = "steps"

    def to_dict(self) -> dict:
        return {"score": self.score, "level": self.level, "hardest": self.hardest,
                "counts": dict(self.counts), "basis": self.basis}


@dataclass
class LogicResult:
    """The end of a logic solve. ``status``: "solved", "multiple" (the puzzle has several
    solutions: a logic solve cannot finish it), "stuck" (no selected technique applies),
    "limit" (time limit reached first, or a costly search gave up on its own budget) or
    "unsolvable" (the puzzle has no solution). ``reason`` says why in one line whenever
    the status is not "solved" ("at least 2 solutions", "no selected technique applies
    after 28 steps", "Naked Single: r9c4 has no candidate" ...).

    ``rating`` rates the steps applied: it is the puzzle's rating only when the status is
    "solved". ``solutions``: what the uniqueness check found (0, 1, a count, None when
    not checked or not known), ``solutions_exact`` False when the count means "at least".
    """

    status: SolveStatus
    state: State
    steps: list[Step]
    rating: Rating
    time_ms: float = 0.0
    reason: str | None = None
    solutions: int | None = None
    solutions_exact: bool = False

    def _repr_html_(self) -> str | None:
        """Jupyter's view: the whole solve as a step-through (previous/next, step list,
        candidates, hint mode), drawn by the renderer an upper layer registered
        (:mod:`csp.display`; ``import sudoku_csp``); None (text repr) when none is."""
        from csp.display import repr_html
        return repr_html(self)


def rate_steps(steps: Sequence[Step], by_idea: bool = False) -> Rating:
    """The rating of a solve path. HoDoKu's (``by_idea`` False): the sum of the step scores,
    the level of the hardest step raised while the score passes the level's maximum
    (:data:`~techniques.registry.LEVEL_MAX_SCORE`). By idea (variants): the level of the
    hardest technique, and the scores of the techniques used, each counted once.

    >>> from csp.step import Step
    >>> import variants  # registers the killer techniques
    >>> path = [Step("killer_combinations")] * 100 + [Step("innies"), Step("hidden_single")]
    >>> rate_steps(path).level, rate_steps(path, by_idea=True).level
    ('hard', 'medium')
    >>> rate_steps(path, by_idea=True).score
    64
    """
    r = Rating(basis="ideas" if by_idea else "steps")
    level_idx = 0
    best_score = -1
    known: dict[str, tuple[int, int]] = {}      # technique -> (score, level index)
    techs = registry.load() if steps else {}
    for s in steps:
        sl = known.get(s.technique)
        if sl is None:
            t = techs.get(s.technique)
            sl = known[s.technique] = ((t.score, LEVELS.index(t.level)) if t else (0, 0))
        score, lvl = sl
        first = s.technique not in r.counts
        if not by_idea or first:
            r.score += score
        r.counts[s.technique] = r.counts.get(s.technique, 0) + 1
        if by_idea:
            if (lvl, score) > (level_idx, best_score):
                r.hardest, best_score = s.technique, score
            level_idx = max(level_idx, lvl)
            continue
        if lvl > level_idx or r.hardest is None:
            if lvl >= level_idx:
                r.hardest = s.technique
            level_idx = max(level_idx, lvl)
    if not by_idea:
        while level_idx < len(LEVELS) - 1 and r.score > LEVEL_MAX_SCORE[LEVELS[level_idx]]:
            level_idx += 1
    r.level = LEVELS[level_idx]
    return r




#: net new objects tracked by the garbage collector after which :meth:`StepSolver.finish`
#: collects the youngest generation while it has the collector paused (a bound on what a
#: long run can leave in cycles; a top1465 solve stays far below it)
GC_YOUNG_LIMIT = 200_000


class StepSolver:
    """Human-style solver over a selection of techniques: configuration only (each solve
    is a :class:`~techniques.loop.Run` of its own), so one solver is re-entrant.

    ``techniques``: ``"default"``, ``"all"``, family or technique names (see
    :func:`techniques.registry.select`). ``unique``: None (default) counts the puzzle's
    solutions by search before the first step, so a puzzle with several ends "multiple"
    at once (and uniqueness techniques run once it is known unique); True declares one
    solution (nothing checked, uniqueness techniques on); False declares it may have
    several (nothing checked, uniqueness techniques off: the logic goes as far as it
    can). ``options`` are passed to every technique.
    ``verify``: a known solution (digits per cell); every step is checked against it and an
    :class:`~techniques.loop.UnsoundStep` is raised on a wrong elimination or placement.
    """

    def __init__(self, techniques: str | Iterable[str] | None = "default",
                 options: dict[str, Any] | None = None, unique: bool | None = None,
                 verify: Sequence[int] | None = None) -> None:
        spec = techniques if techniques is None or isinstance(techniques, str) \
            else tuple(techniques)
        self._spec: str | tuple[str, ...] | None = spec
        self._techniques: list[Technique] = registry.select(spec)
        self._known = len(registry.REGISTRY)
        #: techniques asked for by name: kept where the ladder leaves them out
        self.named = registry.named(spec)
        self.options = registry.check_options(options)
        self.unique = unique
        self.verify = list(verify) if verify is not None else None

    @property
    def techniques(self) -> list[Technique]:
        """The selected techniques, in registry order. A rule family's techniques are
        registered when its module is imported (``variants``): a solver made before that
        selects again from its ``techniques`` argument once the registry has grown, so
        it plans with them as a solver made afterwards does. A list assigned here is kept
        as it is.

        >>> from techniques import registry
        >>> solver = StepSolver("singles")
        >>> [t.name for t in solver.techniques]
        ['full_house', 'naked_single', 'hidden_single']
        >>> registry.register_technique(registry.Technique(
        ...     "doc_single", "Doc Single", "singles", lambda an, opts: iter(())))
        ... # doctest: +ELLIPSIS
        Technique(...)
        >>> [t.name for t in solver.techniques][-1]
        'doc_single'
        >>> _ = registry.REGISTRY.pop("doc_single")
        """
        if self._spec is not None and len(registry.load()) != self._known:
            self._techniques = registry.select(self._spec)
            self._known = len(registry.REGISTRY)
        return self._techniques

    @techniques.setter
    def techniques(self, value: Iterable[Technique]) -> None:
        self._techniques = list(value)
        self._spec = None

    # -- the loop -----------------------------------------------------------------------
    def start(self, puzzle_or_state: Puzzle | State, *, time_limit: float | None = None,
              deadline: float | None = None, max_steps: int = MAX_STEPS,
              strategy: Strategy | None = None, copy: bool = True,
              budget: Budget | None = None) -> Run:
        """A new :class:`~techniques.loop.Run` with this solver's configuration: iterate it
        to apply the steps one by one, then read its ``status``, ``state`` and ``steps``.
        ``time_limit`` (seconds), ``deadline`` (a ``time.perf_counter()`` value) or
        ``budget`` (the caller's :class:`~csp.budget.Budget`) bound it; ``strategy``
        replaces :func:`~techniques.loop.first_step`.

        >>> from variants.classic import classic_puzzle
        >>> run = StepSolver("singles").start(classic_puzzle("." * 81), time_limit=5)
        >>> list(run), run.status          # checked first: an empty grid has many solutions
        ([], 'multiple')
        >>> run = StepSolver("singles", unique=False).start(classic_puzzle("." * 81))
        >>> list(run), run.status, run.reason
        ([], 'stuck', 'no selected technique applies')
        """
        return Run(puzzle_or_state, techniques=self.techniques, named=self.named,
                   options=self.options,
                   unique=self.unique, verify=self.verify, deadline=deadline,
                   time_limit=time_limit, max_steps=max_steps, strategy=strategy, copy=copy,
                   budget=budget)

    def iter_steps(self, puzzle_or_state: Puzzle | State, *, time_limit: float | None = None,
                   deadline: float | None = None, max_steps: int = MAX_STEPS,
                   strategy: Strategy | None = None) -> Iterator[Step]:
        """The steps of a logic solve, each applied before it is yielded (to a copy of a
        given state): ``iter(self.start(...))`` for when the run's end does not matter."""
        return iter(self.start(puzzle_or_state, time_limit=time_limit, deadline=deadline,
                               max_steps=max_steps, strategy=strategy))

    # -- API --------------------------------------------------------------------------
    def next_step(self, state: State) -> Step | None:
        """The first effective step of the easiest technique, or None when stuck or when
        the puzzle has several solutions (the state is not changed). To walk many steps, iterate a run (:meth:`start`): it keeps
        the uniqueness verdict and the plan from step to step."""
        run = self.start(state, copy=False)
        run.check_due()          # the verdict before any step, singles included
        return run.peek()

    def steps(self, state: State | Puzzle, max_steps: int = MAX_STEPS) -> Iterator[Step]:
        """Yield steps while applying them to a copy of ``state``."""
        return self.iter_steps(state, max_steps=max_steps)

    def find_all(self, state: State, technique: str,
                 budget: Budget | None = None) -> list[Step]:
        """Every effective step one technique finds in ``state`` (within ``budget``, a
        :class:`~csp.budget.Budget`: None, no limit; a search it cuts short gives what it
        found). Each call reads ``state`` afresh: no earlier run or call changes what it
        finds."""
        t = registry.get(technique)
        an = Analysis(state, budget=budget)
        found = [s for s in t.find(an, self.options) if is_effective(state, s)]
        for s in found:
            cite_rules(s, an.links)
        return found

    def solve(self, puzzle_or_state: Puzzle | State, max_steps: int = MAX_STEPS,
              time_limit: float | None = None, budget: Budget | None = None) -> LogicResult:
        """Logic only (never guesses): ``status`` is "solved", "multiple" (the puzzle has
        several solutions: checked by search before the first step unless the solver's
        ``unique`` says otherwise, see :class:`~techniques.loop.Run`), "stuck" (no
        technique applies), "limit" (``time_limit`` seconds passed first, or ``budget`` was
        spent, or a costly search such as the nested forcing net gave up on its own budget
        with no step) or "unsolvable" (a step showed a contradiction: the puzzle has no
        solution); ``reason`` says why.

        >>> from variants.classic import classic_puzzle
        >>> r = StepSolver().solve(classic_puzzle("5.3.2.6..9..3.5..1..18.64....81.29..7"
        ...                                       ".......8..67.82....26.95..8..2.3..9..5.1.3.."))
        >>> r.status, r.reason
        ('unsolvable', 'Naked Single: r9c4 has no candidate')
        """
        return self.finish(self.start(puzzle_or_state, time_limit=time_limit,
                                      max_steps=max_steps, budget=budget))

    def finish(self, run: Run) -> LogicResult:
        """Iterate ``run`` (from :meth:`start`) to its end and return its
        :class:`LogicResult`: :meth:`solve` is ``finish(start(...))``; a caller that
        watches the run meanwhile (a progress display reads ``run.steps`` and
        ``run.current``) starts it itself.

        >>> from variants.classic import classic_puzzle
        >>> solver = StepSolver()
        >>> run = solver.start(classic_puzzle("1" + "." * 15))
        >>> r = solver.finish(run)
        >>> r.status, r.reason, r.solutions, r.solutions_exact
        ('multiple', '72 solutions', 72, True)
        """
        # no cyclic garbage collection while the run goes (as in the SE rating): a solve
        # makes many short-lived tuples, lists and Steps but almost no cycles (the run
        # releases each state's analysis, ``Analysis.release``; at most about a hundred
        # objects a top1465 solve), and the collector's passes over the live tables were
        # about a twentieth of a hard solve's CPU; switched back on at the end as it was.
        # A long run (variant rules can leave cycles: thousands a second) still collects
        # its young objects once GC_YOUNG_LIMIT of them have piled up.
        collect = gc.isenabled()
        with gc_paused():
            for _ in run:
                if collect and gc.get_count()[0] > GC_YOUNG_LIMIT:
                    gc.collect(0)
        rating = rate_steps(run.steps, by_idea=rated_by_idea(run.puzzle))
        return LogicResult(run.status or SolveStatus.STUCK, run.state, run.steps, rating,
                           run.seconds * 1000, run.reason, run.solutions,
                           run.solutions_exact)

    def rate(self, puzzle_or_state: Puzzle | State) -> Rating:
        return self.solve(puzzle_or_state).rating

    def rate_se(self, puzzle_or_state: Puzzle | State, mode: str = "extended",
                time_limit: float | None = None,
                budget: Budget | None = None) -> "SERating":
        """Sudoku Explainer-like rating (ER / EP / ED), see :mod:`techniques.se_rating`.
        It solves with SE's own technique list for ``mode`` ("extended" or "se121"), not
        this solver's selection; this solver's options and uniqueness setting apply.

        >>> from variants.classic import classic_puzzle
        >>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
        >>> StepSolver().rate_se(p, mode="se121").to_dict()["er"]
        1.2
        """
        from .se_rating import SESolver
        return SESolver(mode, self.options, self.unique).rate(puzzle_or_state,
                                                              time_limit=time_limit,
                                                              budget=budget)
