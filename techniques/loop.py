"""The human loop, written once: find a step, apply it, repeat.

A :class:`Run` is one pass of that loop over one working state: it holds everything that
belongs to the pass (the state, the applied steps, the deadline, whether a search gave up,
the uniqueness verdict, the technique plan) and ends with a ``status``. Which step comes
next is the run's *strategy*, a function ``strategy(run, analysis)`` that returns the step
to apply (or an object carrying it in a ``step`` attribute, such as the SE rating's valued
step) or None when it finds nothing. The default strategy, :func:`first_step`, takes the
first effective step of the first technique of the run's plan (HoDoKu's order); the
Sudoku Explainer-like rating passes its producers instead (:mod:`techniques.se_rating`).

Every "solve step by step" user goes through :meth:`Run.__next__`, the only place where a
step is applied: :meth:`techniques.StepSolver.solve` and ``steps``, the SE rating, the
soundness checks (:mod:`techniques.verify`), rendering a step and the generator's rating.

>>> from variants.classic import classic_puzzle
>>> from techniques import StepSolver
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> run = StepSolver().start(p)
>>> run.peek().explain(2)                 # the next step, not applied yet
'Naked Single: 4 r5c6 => r5c6=4'
>>> [s.technique for s in run][:3]        # iterating applies the steps
['naked_single', 'naked_single', 'naked_single']
>>> run.status, len(run.steps), run.state.is_solved()
('solved', 49, True)
"""
from __future__ import annotations

import time
from typing import Any, Callable, Collection, Iterator, Sequence

from csp.constraints.alldiff import AllDifferent
from csp.errors import SudokuCSPError
from csp.events import Contradiction
from csp.links import LinkTables, link_tables, rule_citations
from csp.model import Puzzle
from csp.state import State
from csp.status import SolveStatus
from csp.step import Step

from .analysis import Analysis, analyze
from . import registry
from .ladder import CLASSIC_SKIP
from .registry import Finder, Technique, runs_on

#: ``strategy(run, analysis)``: the next step of ``run`` (a Step, or an object whose
#: ``step`` attribute is the Step to apply), or None when it finds nothing
Strategy = Callable[["Run", Analysis], Any]

#: seconds a uniqueness check may search when no deadline is closer
UNIQUE_SECONDS = 10.0


class UnsoundStep(SudokuCSPError):
    """A step contradicted the known solution (raised only when verifying).

    ``step`` is the step, ``why`` the reason (:func:`unsound`), ``state`` the state
    before the step."""

    def __init__(self, step: Step, why: str, state: State | None = None) -> None:
        super().__init__(f"{step.explain(2)}: {why}")
        self.step = step
        self.why = why
        self.state = state


def apply_step(state: State, step: Step) -> None:
    """Apply a step in place: placements place the digit and remove every candidate weakly
    linked to it; eliminations remove candidates. Raises Contradiction on a wipe-out."""
    links = link_tables(state.puzzle)
    for cell, digit in step.placements:
        if not state.cand[cell] >> digit & 1:
            raise Contradiction(f"{step.name}: {state.grid.name(cell)}={digit} is not a candidate",
                                step.technique, (cell,))
        state.place(cell, digit)
        for c2, d2 in links.weak_neighbours(cell, digit):
            if state.cand[c2] >> d2 & 1 and not state.placed[c2]:
                state.remove(c2, d2)
                if not state.cand[c2]:
                    raise Contradiction(f"{step.name}: {state.grid.name(c2)} has no candidate",
                                        step.technique, (c2,))
    for cell, digit in step.eliminations:
        if state.cand[cell] >> digit & 1:
            if state.placed[cell]:
                raise Contradiction(f"{step.name}: eliminates the placed digit of "
                                    f"{state.grid.name(cell)}", step.technique, (cell,))
            state.remove(cell, digit)
            if not state.cand[cell]:
                raise Contradiction(f"{step.name}: {state.grid.name(cell)} has no candidate",
                                    step.technique, (cell,))


def cite_rules(step: Step, links: LinkTables) -> None:
    """Record in ``step.extra["via"]`` the rules whose links the step rests on
    (:func:`csp.links.rule_citations`), once: the step's text then names them ("r5c7 sees
    r4c5 by the anti-knight rule"), whatever technique made it. Every step the loop picks
    and :meth:`techniques.StepSolver.find_all` returns goes through here; nothing happens on
    a grid whose links are all cells and houses."""
    if links.uniform or "via" in step.extra:
        return
    via = rule_citations(step, links)
    # a fresh dict: a technique may share one ``extra`` between steps
    object.__setattr__(step, "extra", {**step.extra, "via": via})


def is_variant(puzzle: Puzzle | None) -> bool:
    """True when the puzzle has rules beyond all-different houses (cages, lines, relations,
    outside clues ...): its rating then follows the hardest idea
    (:func:`techniques.solver.rate_steps`) and its ladder moves a few costly techniques
    (:data:`techniques.ladder.VARIANT_ORDER`).
    Classic, jigsaw, diagonal and other all-different rule sets keep HoDoKu's rating.

    >>> from variants.classic import classic_puzzle
    >>> is_variant(classic_puzzle("." * 81))
    False
    """
    if puzzle is None:
        return False
    return any(type(c) is not AllDifferent for c in puzzle.constraints)


def is_classic_grid(puzzle: Puzzle | None) -> bool:
    """True when the puzzle's only rules are its grid's rows, columns and regular boxes
    (any size): the classic ladder then leaves out the rule-reading techniques of
    :data:`techniques.ladder.CLASSIC_SKIP`. Jigsaw, diagonal, extra regions and every other
    rule make it False.

    >>> from variants.classic import classic_puzzle
    >>> is_classic_grid(classic_puzzle("." * 81)), is_classic_grid(None)
    (True, False)
    """
    if puzzle is None or puzzle.grid.region_kind != "box" or is_variant(puzzle):
        return False
    own = {frozenset(h.cells) for h in puzzle.grid.houses}
    return all(frozenset(c.house() or ()) in own for c in puzzle.constraints)


def rated_by_idea(puzzle: Puzzle | None) -> bool:
    """True when the puzzle's rating follows its hardest idea
    (:func:`techniques.solver.rate_steps` with ``by_idea``): variants (:func:`is_variant`)
    and grids other than 9x9, since HoDoKu's score bands are made for 9x9 (a 25x25 is past
    the easy band on its singles alone). Classic 9x9, jigsaw, diagonal and samurai keep
    HoDoKu's rating.

    >>> from variants.classic import classic_puzzle
    >>> rated_by_idea(classic_puzzle("." * 81)), rated_by_idea(classic_puzzle("." * 256))
    (False, True)
    """
    if puzzle is None:
        return False
    return puzzle.grid.n != 9 or is_variant(puzzle)


def is_effective(state: State, step: Step) -> bool:
    """True when the step would change the state."""
    return any(not state.placed[c] for c, _ in step.placements) or any(
        state.cand[c] >> d & 1 and not state.placed[c] for c, d in step.eliminations)


def unsound(step: Step, solution: Sequence[int]) -> str | None:
    """Why ``step`` is wrong for ``solution`` (digits per cell), or None when it is sound.

    >>> from csp.step import Candidate
    >>> unsound(Step("x", eliminations=(Candidate(4, 7),)), [7] * 81)
    'eliminates solution digit 7 at cell 4'
    """
    for c, d in step.placements:
        if solution[c] != d:
            return f"places {d} at cell {c}, solution has {solution[c]}"
    for c, d in step.eliminations:
        if solution[c] == d:
            return f"eliminates solution digit {d} at cell {c}"
    return None


def first_step(run: "Run", an: Analysis,
               plan: Sequence[tuple[Technique, Finder, dict]] | None = None) -> Step | None:
    """The default strategy: the first effective step of the first technique of ``plan``
    (the run's whole plan unless given) that has one. No technique starts past the run's
    deadline; when nothing is found but a search gave up on its own budget, the run is
    marked ``incomplete`` (it ends "limit", not "stuck")."""
    run.incomplete = False
    deadline = run.deadline
    state = run.state
    for t, finder, opts in run.plan() if plan is None else plan:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        if t.requires_unique and not run.unique_ok():
            continue
        for step in finder(an, opts):
            if is_effective(state, step):
                return step
    run.incomplete = an.timed_out
    return None


class Run:
    """One pass of the human loop over a working state (see the module docstring).

    ``start``: a Puzzle (the run starts from its pencil marks, and that state is known to
    keep the puzzle's solutions, which makes the uniqueness check cheap) or a State (copied
    unless ``copy=False``, when the run works on it in place). ``techniques``, ``options``
    (merged over each technique's own) and ``unique`` (True/False declares it, None checks
    it by search when a technique needs it) make the plan of :func:`first_step`.
    ``verify``: a known solution; a step that contradicts it raises :class:`UnsoundStep`.
    ``deadline`` (a ``time.perf_counter()`` value) or ``time_limit`` (seconds from now):
    no step is searched past it, and the costly techniques see it as ``an.deadline``.

    Iterating applies the steps one by one and yields what the strategy picked; at the end
    ``status`` is "solved", "stuck" (nothing applies), "limit" (the deadline passed, or a
    search gave up on its own budget with no step) or "unsolvable" (a contradiction:
    ``reason`` says which). ``max_steps`` caps the steps (the run then ends as if stuck).
    """

    def __init__(self, start: Puzzle | State, *, techniques: Sequence[Technique] = (),
                 named: Collection[str] = (),
                 options: dict[str, Any] | None = None, unique: bool | None = None,
                 verify: Sequence[int] | None = None, deadline: float | None = None,
                 time_limit: float | None = None, max_steps: int = 100_000,
                 strategy: Strategy | None = None, copy: bool = True) -> None:
        self.t0 = time.perf_counter()
        if isinstance(start, Puzzle):
            self.state = start.pencilmarks()
            self.sound = True       # reached from the puzzle by sound steps only
        else:
            self.state = start.copy() if copy else start
            self.sound = False
        self.puzzle: Puzzle = self.state.puzzle
        if time_limit:
            end = self.t0 + time_limit
            deadline = end if deadline is None else min(deadline, end)
        self.deadline = deadline
        self.techniques = list(techniques)
        self.named = frozenset(named)
        self.options = dict(options or {})
        self.verify = list(verify) if verify is not None else None
        self.max_steps = max_steps
        self.strategy: Strategy = strategy or first_step
        self.steps: list[Step] = []
        self.status: SolveStatus | None = None
        self.reason: str | None = None
        # set by a strategy that found nothing while a search gave up on its own budget
        self.incomplete = False
        self._unique = unique if unique is not None else self.puzzle.unique
        self._plan: list[tuple[Technique, Finder, dict]] | None = None
        self._peeked: tuple[tuple[int, int], Any] | None = None

    # -- limits ---------------------------------------------------------------------
    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.deadline is not None and time.perf_counter() > self.deadline

    def time_left(self) -> float | None:
        """Seconds until the deadline (None without one)."""
        return None if self.deadline is None else self.deadline - time.perf_counter()

    @property
    def seconds(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.t0

    # -- what the strategies use -----------------------------------------------------
    def unique_ok(self) -> bool:
        """Whether the puzzle has one solution: declared, or checked once by a search (from
        the run's state when it is sound, much cheaper than from the givens on a hard
        puzzle). A search cut short by the deadline answers False and is asked again."""
        if self._unique is not None:
            return self._unique
        limit, cut = UNIQUE_SECONDS, False
        left = self.time_left()
        if left is not None:
            limit, cut = max(0.01, min(limit, left)), left < limit
        try:
            # solve(): depth-first search, handed to the SAT solver when it grows
            res = self.puzzle.solve(time_limit=limit, state=self.state if self.sound else None)
            self._unique = res.status == "solved"
        except SudokuCSPError:
            if cut:
                return False     # stopped by the deadline: ask again later
            self._unique = False
        return self._unique

    def plan(self) -> list[tuple[Technique, Finder, dict]]:
        """The run's techniques with their finders and options (sized for the grid, the
        run's options over them: :meth:`Technique.options_at`), in order (built once: the
        options dict is not rebuilt per technique per step); techniques that need a unique
        solution are left out once the puzzle is known not to have one, and techniques
        whose ``max_n`` option is below the grid's n are left out."""
        if self._plan is None or (self._unique is False and any(
                t.requires_unique for t, _, _ in self._plan)):
            plan = []
            n = self.puzzle.grid.n
            techs = self.techniques
            if is_variant(self.puzzle):     # the variant ladder (techniques.ladder)
                jigsaw = self.puzzle.grid.region_kind == "region"
                techs = sorted(techs, key=lambda t: registry.ladder_order(t, True, jigsaw))
            elif is_classic_grid(self.puzzle):  # the classic ladder leaves a few out
                techs = [t for t in techs
                         if t.name not in CLASSIC_SKIP or t.name in self.named]
            for t in techs:
                if t.requires_unique and self._unique is False:
                    continue
                opts = t.options_at(n, self.options)
                if runs_on(opts, n):
                    plan.append((t, t.finder, opts))
            self._plan = plan
        return self._plan

    # -- the loop ---------------------------------------------------------------------
    def peek(self) -> Any:
        """What the strategy picks next in the current state, not applied (None when the
        state is solved or nothing applies). Iterating applies this pick without searching
        again."""
        st = self.state
        if all(st.placed):
            return None
        key = (st.version, id(st.cand))
        if self._peeked is not None and self._peeked[0] == key:
            return self._peeked[1]
        an = analyze(st)
        an.deadline = self.deadline
        pick = self.strategy(self, an)
        if pick is not None:
            cite_rules(pick if isinstance(pick, Step) else pick.step, an.links)
        self._peeked = (key, pick)
        return pick

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        """Find the next step, apply it and return the pick; StopIteration (and a
        ``status``) when the run is over."""
        if self.status is not None:
            raise StopIteration
        st = self.state
        if all(st.placed) or len(self.steps) >= self.max_steps or self.expired():
            self._end()
        try:
            pick = self.peek()
        except Contradiction as e:
            self._end(SolveStatus.UNSOLVABLE, str(e))
        if pick is None:
            self._end()
        self._peeked = None
        step: Step = pick if isinstance(pick, Step) else pick.step
        before = None
        if self.verify is not None:
            why = unsound(step, self.verify)
            if why is not None:
                raise UnsoundStep(step, why, st.copy())
            before = st.copy()
        try:
            apply_step(st, step)
        except Contradiction as e:
            if before is not None:
                raise UnsoundStep(step, f"contradiction while applying it: {e}", before) from None
            self._end(SolveStatus.UNSOLVABLE, str(e))
        self.steps.append(step)
        return pick

    def _end(self, status: SolveStatus | None = None, reason: str | None = None) -> None:
        """End the run: ``status`` given, or solved / limit / stuck from the state."""
        if status is None:
            if all(self.state.placed):
                status = SolveStatus.SOLVED
            elif self.incomplete or self.expired():
                status = SolveStatus.LIMIT
            else:
                status = SolveStatus.STUCK
        self.status = status
        self.reason = reason
        raise StopIteration
