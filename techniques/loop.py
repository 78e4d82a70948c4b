"""The human loop, written once: find a step, apply it, repeat.

A :class:`Run` is one pass of that loop over one working state: it holds everything that
belongs to the pass (the state, the applied steps, its :class:`~csp.budget.Budget`, its
:class:`~techniques.analysis.Analysis` of the current state, whether a search gave up, the
uniqueness verdict, the technique plan) and ends with a ``status``. Nothing of a run lives
outside it: two runs (in two threads, or one after the other on the same state) never see
each other's deadline. Which step comes next is the run's *strategy*, a function ``strategy(run, analysis)`` that returns the step
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

from csp.bits import iter_cells, popcount
from csp.budget import Budget
from csp.constraints.alldiff import AllDifferent
from csp.errors import NodeLimitExceeded, SoundnessError, SudokuCSPError
from csp.events import Contradiction
from csp.links import LinkTables, link_tables, rule_citations
from csp.model import Puzzle
from csp.state import State
from csp.status import SolveStatus
from csp.step import Step

from .analysis import Analysis
from . import registry, singles
from .ladder import CLASSIC_SKIP
from .registry import Finder, Technique, runs_on

#: ``strategy(run, analysis)``: the next step of ``run`` (a Step, or an object whose
#: ``step`` attribute is the Step to apply), or None when it finds nothing
Strategy = Callable[["Run", Analysis], Any]

#: steps a run applies at most (a guard against a run that never ends; not measured)
MAX_STEPS = 100_000
#: the uniqueness checks run on node budgets (depth-first search nodes, then SAT solver
#: conflicts), not on the clock: whether a check answers, and so a run's path, does not
#: depend on the machine's load. Budget of a check a uniqueness technique asks for (about
#: 10 s of CPU on a classic 9x9; none needs more than a few thousand)
UNIQUE_NODES = 200_000
#: budget of a run's first uniqueness check, before its first step (about 0.25 s of CPU
#: on a classic 9x9, which needs at most a few hundred); a check cut short is tried again
#: later with twice the budget (see :meth:`Run.check_due`)
FIRST_CHECK_NODES = 5_000
#: depth-first search nodes of the first check (about 0.05 s of CPU on a classic 9x9)
#: before the SAT solver takes the rest
FIRST_SEARCH_NODES = 1_000
#: a check cut short comes again once the logic has made this many technique searches
#: (a step of a strategy other than :func:`first_step` counts as its plan's length),
#: doubled with each check's budget: counted, not timed, so the schedule is the same on
#: every run
CHECK_GAP = 64
#: open candidates of a classic 9x9 grid: a check by depth-first search alone (past
#: :data:`SAT_CANDIDATES`) gets its node budgets divided by the position's open candidates
#: over this (a node costs about that much more)
NODES_AT = 729
#: a check asks the SAT solver only while the position has at most this many open
#: candidates (its encoding cannot be interrupted); past it, depth-first search alone
SAT_CANDIDATES = 3000
#: once a puzzle is known to have several solutions, they are counted up to this many ...
COUNT_CAP = 1000
#: ... within this many search nodes (SAT conflicts), so the answer does not depend on the
#: machine's load (a classic 9x9 needs at most about 2,000) ...
COUNT_NODES = 10_000
#: ... and this many seconds of CPU time (not of the wall clock: a count cut by a busy
#: machine said "at least 2" where an idle one said "311 solutions"); else the run says
#: "at least 2 solutions"
COUNT_SECONDS = 1.0


class UnsoundStep(SudokuCSPError):
    """A step contradicted the known solution (raised only when verifying).

    ``step`` is the step, ``why`` the reason (:func:`unsound`), ``state`` the state
    before the step."""

    def __init__(self, step: Step, why: str, state: State | None = None) -> None:
        super().__init__(f"{step.explain(2)}: {why}")
        self.step = step
        self.why = why
        self.state = state


def apply_step(state: State, step: Step, links: LinkTables | None = None) -> list[int]:
    """Apply a step in place: placements place the digit and remove every candidate weakly
    linked to it; eliminations remove candidates. Raises Contradiction on a wipe-out, and
    when the placements fill every cell of a rule with digits that break it (a rule with no
    weak links, such as an arrow's sum, is seen by no placement before that: without this,
    a puzzle with no solution could end "solved" with the rule broken). Returns the cells
    it changed (a cell may come twice), which the run uses to derive its next analysis.
    ``links``: the puzzle's link tables when the caller has them."""
    if links is None:
        links = link_tables(state.puzzle)
    changed: list[int] = []
    cand = state.cand
    placed_digits = state.placed
    # only house links (classic, jigsaw, diagonal ...): a placed digit leaves the cell's
    # house peers, in the order of weak_neighbours, as State.remove would remove it
    peers = links.derived(_peer_cells) if links.uniform else None
    for cell, digit in step.placements:
        if not cand[cell] >> digit & 1:
            raise Contradiction(f"{step.name}: {state.grid.name(cell)}={digit} is not a candidate",
                                step.technique, (cell,))
        state.place(cell, digit)
        changed.append(cell)
        if peers is not None:
            bit = 1 << digit
            removed = 0
            for c2 in peers[cell]:
                m = cand[c2]
                if m & bit and not placed_digits[c2]:
                    cand[c2] = m ^ bit
                    removed += 1
                    changed.append(c2)
                    if m == bit:
                        state.version += removed
                        raise Contradiction(f"{step.name}: {state.grid.name(c2)} has no "
                                            f"candidate", step.technique, (c2,))
            state.version += removed
            continue
        for c2, d2 in links.weak_neighbours(cell, digit):
            if state.cand[c2] >> d2 & 1 and not state.placed[c2]:
                state.remove(c2, d2)
                changed.append(c2)
                if not state.cand[c2]:
                    raise Contradiction(f"{step.name}: {state.grid.name(c2)} has no candidate",
                                        step.technique, (c2,))
    if step.placements and state.puzzle.derived(_beyond_houses):
        placed = [cell for cell, _ in step.placements]
        broken = state.puzzle.broken_rule(state.placed, placed)
        if broken is not None:
            raise Contradiction(f"{step.name}: {broken}", step.technique, tuple(placed))
    for cell, digit in step.eliminations:
        if state.cand[cell] >> digit & 1:
            if state.placed[cell]:
                raise Contradiction(f"{step.name}: eliminates the placed digit of "
                                    f"{state.grid.name(cell)}", step.technique, (cell,))
            state.remove(cell, digit)
            changed.append(cell)
            if not state.cand[cell]:
                raise Contradiction(f"{step.name}: {state.grid.name(cell)} has no candidate",
                                    step.technique, (cell,))
    return changed


def _peer_cells(links: LinkTables) -> list[tuple[int, ...]]:
    """The house peers of each cell as a tuple, ascending (``links.derived``)."""
    return [tuple(iter_cells(m)) for m in links.house_peers]


def _beyond_houses(puzzle: Puzzle) -> bool:
    """True when the puzzle has a rule other than an all-different house: only such a rule
    can be broken by placements that passed :func:`apply_step`'s checks (a placement takes
    its digit out of every cell of its houses, so a second one in a house is no candidate)."""
    return is_variant(puzzle)


def _ladder_kind(puzzle: Puzzle) -> str:
    """Which ladder a run on ``puzzle`` follows: "variant" / "variant jigsaw"
    (:func:`is_variant`: the variant ladder), "classic" (:func:`is_classic_grid`: the
    classic ladder without :data:`CLASSIC_SKIP`) or "houses" (other all-different grids:
    the classic ladder)."""
    if is_variant(puzzle):
        return "variant jigsaw" if puzzle.grid.region_kind == "region" else "variant"
    return "classic" if is_classic_grid(puzzle) else "houses"


#: plans shared between runs (:meth:`Run.plan`): key -> (the techniques, the plan)
_PLANS: dict[tuple, tuple[tuple[Technique, ...], list[tuple[Technique, Finder, dict]]]] = {}


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
    cells = {h.cells for h in puzzle.grid.houses}
    own = None
    for c in puzzle.constraints:
        h = c.house() or ()
        if type(h) is tuple and h in cells:     # a house's own cells, in its order
            continue
        if own is None:
            own = {frozenset(x) for x in cells}
        if frozenset(h) not in own:
            return False
    return True


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
    marked ``incomplete`` (it ends "limit", not "stuck") and ``gave_up`` names the first
    technique that gave up. Before each technique beyond the singles a due uniqueness
    check runs (:meth:`Run.check_due`): a puzzle with several solutions stops there."""
    run.incomplete = False
    run.gave_up = None
    state = run.state
    budget = an.budget
    clock, cpu_clock = time.perf_counter, time.process_time
    for t, finder, opts in run.plan() if plan is None else plan:
        # an.expired() (which also marks the budget stopped), its clocks read inline first
        dl, cdl = budget.deadline, budget.cpu_deadline
        if ((dl is not None and clock() > dl)
                or (cdl is not None and cpu_clock() > cdl)) and an.expired():
            return None
        if t.family != "singles":
            run.work += 1
            if run.work >= run.next_check and run.check_due():
                return None         # several solutions: the run ends "multiple"
        if t.requires_unique and not run.unique_ok():
            continue
        run.current = t.name
        for step in finder(an, opts):
            if is_effective(state, step):
                return step
        if budget.stopped and run.gave_up is None:     # (an.timed_out)
            run.gave_up = t.name
    run.incomplete = an.timed_out
    return None


def replay(start: State, steps: Sequence[Step]) -> Iterator[State]:
    """The state before each of ``steps`` and, last, the state after all of them: ``start``
    (not changed) with the steps applied one by one, each yielded state a copy. The steps
    go through the human loop itself (a :class:`Run` whose strategy hands out the given
    steps), so they are applied exactly as a solve applies them; a step that meets a
    contradiction raises it (:class:`~csp.events.Contradiction`, with its ``cells``) after
    the states before it. A replay checks nothing else (no uniqueness check, no search).

    >>> from variants.classic import classic_puzzle
    >>> from techniques import StepSolver
    >>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8"
    ...                    "..2.3..9..5.1.3..")
    >>> steps = StepSolver("singles").solve(p).steps
    >>> states = list(replay(p.pencilmarks(), steps))
    >>> len(states) == len(steps) + 1, all(states[-1].placed)
    (True, True)
    """
    recorded = iter(steps)
    run = Run(start, unique=False, max_steps=len(steps),
              strategy=lambda run, an: next(recorded, None))
    yield run.state.copy()
    for _ in run:
        yield run.state.copy()
    if run.contradiction is not None:
        raise run.contradiction
    if run.status == SolveStatus.UNSOLVABLE:     # a step's placements break a rule
        raise Contradiction(run.reason or "contradiction")


def applied(state: State, step: Step) -> State:
    """A copy of ``state`` with ``step`` applied (:func:`replay` of one step); raises the
    :class:`~csp.events.Contradiction` the step meets."""
    *_, after = replay(state, (step,))
    return after


class Run:
    """One pass of the human loop over a working state (see the module docstring).

    ``start``: a Puzzle (the run starts from its pencil marks, and that state is known to
    keep the puzzle's solutions, which makes the uniqueness check cheap) or a State (copied
    unless ``copy=False``, when the run works on it in place). ``techniques``, ``options``
    (merged over each technique's own) and ``unique`` make the plan of :func:`first_step`.
    ``verify``: a known solution; a step that contradicts it raises :class:`UnsoundStep`.
    ``deadline`` (a ``time.perf_counter()`` value) or ``time_limit`` (seconds from now):
    no step is searched past it. ``budget``: the caller's :class:`~csp.budget.Budget` (a
    command's, made before it read the puzzle); the run's deadline is its deadline
    (brought closer by ``deadline`` / ``time_limit`` when those are given too) and
    :attr:`budget` is the run's one clock: the run's analysis of each state searches
    under a part of it (``an.budget``, see :meth:`techniques.analysis.Analysis.tick`).

    ``unique``: True declares that the puzzle has one solution (uniqueness techniques on,
    nothing checked), False that it may not (uniqueness techniques off, nothing checked:
    the logic goes as far as it can). None (the default, unless the puzzle declares
    ``Puzzle.unique``) counts the puzzle's solutions by search (:meth:`check_due`; the
    model's own search and SAT solver, a few milliseconds on a classic 9x9) before the
    first technique beyond the singles (full house, naked and hidden single: a solve they
    finish needs no check, and the check after them is cheaper; another strategy than
    :func:`first_step` gets it before its first step): a puzzle with several solutions
    ends the run "multiple" there, instead of a long logic solve that cannot finish. A
    check cut short by its budget (big or hard grids) lets the logic go on and is tried
    again later with twice the budget; the verdict is kept with the puzzle
    (``solutions``, ``solutions_exact``). Call :meth:`check_due` before :meth:`peek` to
    have the verdict before any step (a hint does).

    Iterating applies the steps one by one and yields what the strategy picked; at the end
    ``status`` is "solved", "multiple" (the puzzle has several solutions), "stuck"
    (nothing applies), "limit" (the deadline passed, or a search gave up on its own budget
    with no step) or "unsolvable" (a contradiction, or a search finds no solution), and
    ``reason`` says why in one line (None when solved). ``max_steps`` caps the steps (the
    run then ends as if stuck).

    >>> from variants.classic import classic_puzzle
    >>> run = Run(classic_puzzle("1" + "." * 15))
    >>> list(run), run.status, run.reason
    ([], 'multiple', '72 solutions')
    >>> run = Run(classic_puzzle("1" + "." * 15), unique=False)   # logic as far as it goes
    >>> len(list(run)), run.status, run.reason
    (0, 'stuck', 'no selected technique applies')
    """

    def __init__(self, start: Puzzle | State, *, techniques: Sequence[Technique] = (),
                 named: Collection[str] = (),
                 options: dict[str, Any] | None = None, unique: bool | None = None,
                 verify: Sequence[int] | None = None, deadline: float | None = None,
                 time_limit: float | None = None, max_steps: int = MAX_STEPS,
                 strategy: Strategy | None = None, copy: bool = True,
                 budget: Budget | None = None) -> None:
        self.t0 = time.perf_counter()
        if budget is None:
            budget = Budget(time_limit or None, deadline=deadline)
        elif time_limit or deadline is not None:
            budget = budget.narrowed(time_limit or None)
            if deadline is not None and (budget.deadline is None or deadline < budget.deadline):
                budget.deadline = deadline
        #: the run's one clock: each analysis the run makes searches under a part of it
        self.budget = budget
        if isinstance(start, Puzzle):
            self.state = start.pencilmarks()
            self.sound = True       # reached from the puzzle by sound steps only
        else:
            self.state = start.copy() if copy else start
            self.sound = False
        self.puzzle: Puzzle = self.state.puzzle
        self.techniques = list(techniques)
        self.named = frozenset(named)
        self.options = registry.check_options(options)
        self.verify = list(verify) if verify is not None else None
        self.max_steps = max_steps
        self.strategy: Strategy = strategy or first_step
        self.steps: list[Step] = []
        self.status: SolveStatus | None = None
        self.reason: str | None = None
        # set by a strategy that found nothing while a search gave up on its own budget
        self.incomplete = False
        #: the contradiction that ended the run "unsolvable" (its ``cells``), else None
        self.contradiction: Contradiction | None = None
        #: the technique whose search gave up on its own budget (with ``incomplete``)
        self.gave_up: str | None = None
        #: the technique the strategy is searching now (read by progress displays)
        self.current: str | None = None
        self.time_limit = time_limit
        #: the uniqueness the caller (or the puzzle) declared: True, False or None
        self.declared = unique if unique is not None else self.puzzle.unique
        self._unique = self.declared
        #: solutions the uniqueness check found: 0, 1, a count, or None (not known);
        #: ``solutions_exact`` False means "at least"
        self.solutions: int | None = None
        self.solutions_exact = False
        #: seconds spent in uniqueness checks
        self.check_seconds = 0.0
        self._attempts = 0
        #: technique searches made so far (beyond the singles; a step of another strategy
        #: counts its plan's length): the clock of the check schedule
        self.work = 0
        #: when the next scheduled uniqueness check is due (a :attr:`work` count), and
        #: its node budget; never once the verdict is known or declared
        self.next_check: float = 0 if self._unique is None else float("inf")
        self._check_budget = FIRST_CHECK_NODES
        # the default strategy asks for the check itself, past the singles; others get it
        # before each step
        self._peek_checks = self.strategy is not first_step
        self._plan: list[tuple[Technique, Finder, dict]] | None = None
        self._peeked: tuple[tuple[int, int], Any] | None = None
        # the run's analysis of its state, and the state's (version, cand) it was made at
        self._an: Analysis | None = None
        self._an_key: tuple[int, int] | None = None
        # the last step's changes: (key before, key after, cells changed), so the next
        # analysis is derived from the previous one by those cells alone
        self._delta: tuple[tuple[int, int], tuple[int, int], list[int]] | None = None
        # the plan the singles fast path read, the stage codes of its leading singles and
        # the search (singles.searcher: the kernel is asked for once per run)
        self._singles: tuple[list, bytes, Callable, LinkTables] | None = None
        # a state handed in may already fill a rule with digits that break it (the givens
        # of a puzzle were checked when it froze)
        self._broken = None if self.sound else self.puzzle.broken_rule(self.state.placed)

    # -- limits ---------------------------------------------------------------------
    @property
    def deadline(self) -> float | None:
        """The run's deadline (a ``time.perf_counter()`` value, None without one)."""
        return self.budget.deadline

    def analysis(self) -> Analysis:
        """The run's :class:`~techniques.analysis.Analysis` of its state as it is now
        (made once per state, derived from the previous one, under the run's budget)."""
        st = self.state
        key = (st.version, id(st.cand))
        if self._an is None or self._an_key != key:
            delta = self._delta
            changed = (delta[2] if delta is not None and delta[0] == self._an_key
                       and delta[1] == key else None)
            prev = self._an
            self._an = Analysis(st, prev, self.budget, changed=changed)
            self._an_key = key
            if prev is not None:
                prev.release()      # (its caches freed now, not by the cyclic collector)
        return self._an

    def expired(self) -> bool:
        """True once the run's budget is spent (its deadline has passed)."""
        return self.budget.exhausted

    def time_left(self) -> float | None:
        """Seconds until the deadline (None without one)."""
        return self.budget.left()

    @property
    def seconds(self) -> float:
        """Seconds since the run started."""
        return time.perf_counter() - self.t0

    # -- what the strategies use -----------------------------------------------------
    def unique_ok(self) -> bool:
        """Whether the puzzle has one solution: declared, or checked by a search of the
        run's state (much cheaper after some steps than from the givens on a hard puzzle)
        of up to :data:`UNIQUE_NODES` nodes. A search cut short by the run's deadline
        answers False and is asked again; one that used its whole node budget answers
        False for good."""
        if self._unique is not None:
            return self._unique
        if self._check(UNIQUE_NODES) is False:
            self._unique = False    # no verdict in the whole budget: no uniqueness technique
            self.next_check = float("inf")
        return bool(self._unique)

    def check_due(self) -> bool:
        """Run the scheduled uniqueness check if it is due, and say whether the run must
        stop: True when the puzzle is known to have several solutions. The first check
        is due at once, with :data:`FIRST_CHECK_NODES`; while checks are cut short, the
        next one gets twice the node budget (at most :data:`UNIQUE_NODES`) and comes once
        the logic has made :data:`CHECK_GAP` times as many more technique searches
        (:attr:`work`, doubled with the budget). Nodes and searches are counted, not
        timed: the same run takes the same path on a busy machine. A check also stops at
        half the time left before the run's deadline. :func:`first_step` calls it before
        each technique beyond the singles; :meth:`peek` before each step of another
        strategy."""
        if self._unique is None and self.work >= self.next_check:
            nodes = self._check_budget
            if not self._check(nodes, half_left=True):
                if self._unique is None:
                    self._check_budget = min(2 * nodes, UNIQUE_NODES)
                    self.next_check = self.work + CHECK_GAP * (
                        self._check_budget // FIRST_CHECK_NODES)
        return self.solutions is not None and self.solutions >= 2

    def _check(self, nodes: int, half_left: bool = False) -> bool | None:
        """Count the solutions of the run's state up to 2 within ``nodes`` (``Puzzle.solve``:
        the model's depth-first search, then its SAT solver, see :meth:`_count`) and the
        run's deadline (with ``half_left``, half the time left before it); several are
        counted on up to :data:`COUNT_CAP` within :data:`COUNT_NODES` and
        :data:`COUNT_SECONDS`. True when it answered: then ``solutions`` is set; False
        when it used its node budget, None when the clock stopped it. The steps of a run
        keep its state's solutions, so the verdict holds for the whole run; a run that
        started from the puzzle keeps it with the puzzle for later runs (a run from a
        State, such as a pencil-mark grid, counts that position's own solutions)."""
        known = self.puzzle.derived(_Solutions) if self.sound else _Solutions(self.puzzle)
        if known.count is None:
            left = self.time_left()
            if left is not None and half_left:
                left /= 2
            if left is not None and left <= 0.001:
                return None
            budget = self.budget.narrowed(left)
            budget.node_limit = nodes
            before, self.current = self.current, "uniqueness check"
            t = time.perf_counter()
            try:
                known.count, known.exact = self._count(budget)
            except NodeLimitExceeded:
                return False
            except SudokuCSPError:
                return None
            finally:
                self.check_seconds += time.perf_counter() - t
                self.current = before
        self.solutions, self.solutions_exact = known.count, known.exact
        self._unique = known.count == 1
        self.next_check = float("inf")
        return True

    def _count(self, budget: Budget) -> tuple[int, bool]:
        """(solutions, exact) of the run's state within ``budget``: its ``node_limit``
        counts depth-first search nodes and SAT solver conflicts (raises
        NodeLimitExceeded past it; TimeLimitExceeded past its deadline, the run's). The
        first check gives :data:`FIRST_SEARCH_NODES` of it to depth-first search (a
        classic 9x9 takes a few hundred), the rest and every later check to the SAT
        solver, which does not get lost where depth-first search does (one classic 9x9
        with no solution takes depth-first search 15 s, the SAT solver 0.05 s). A
        position with more than :data:`SAT_CANDIDATES` open candidates is checked by
        depth-first search alone (``method="search"``; the SAT encoding cannot be
        interrupted), its budget divided by its open candidates over :data:`NODES_AT`."""
        from csp import sat
        st = self.state
        # the SAT encoding is not interruptible: past SAT_CANDIDATES open candidates (an
        # empty 25x25 has 15,625: 1.7 s of encoding) only depth-first search checks
        open_ = sum(popcount(m) for m, d in zip(st.cand, st.placed) if not d)
        use_sat = sat.available() and open_ <= SAT_CANDIDATES
        first, self._attempts = not self._attempts, self._attempts + 1
        nodes = budget.node_limit or 0
        res, method = None, "search"
        if not use_sat:
            budget.node_limit = max(1, nodes * NODES_AT // max(open_, NODES_AT))
            res = self.puzzle.solve(state=st, method="search", budget=budget)
        elif first:
            part = budget.narrowed()
            part.node_limit = min(FIRST_SEARCH_NODES, nodes)
            try:
                res = self.puzzle.solve(state=st, method="search", budget=part)
            except NodeLimitExceeded as e:
                budget.node_limit = max(1, nodes - max(e.nodes, part.node_limit))
        if res is None:
            method = "sat"
            res = self.puzzle.solve(state=st, method="sat", budget=budget)
        count, exact = len(res.solutions), len(res.solutions) < 2
        if count >= 2:
            # counted within COUNT_NODES and COUNT_SECONDS of CPU time (the run's deadline
            # still holds): the same count on a busy machine as on an idle one
            more = self.budget.narrowed(cpu_seconds=COUNT_SECONDS)
            more.node_limit = COUNT_NODES
            try:
                count = self.puzzle.count_solutions(COUNT_CAP, budget=more, method=method,
                                                    state=self.state)
                exact = count < COUNT_CAP
            except SudokuCSPError:
                pass                    # too many to count here: "at least 2"
        return count, exact

    def plan(self) -> list[tuple[Technique, Finder, dict]]:
        """The run's techniques with their finders and options (sized for the grid, the
        run's options over them: :meth:`Technique.options_at`), in order (built once: the
        options dict is not rebuilt per technique per step); techniques that need a unique
        solution are left out once the puzzle is known not to have one, and techniques
        whose ``max_n`` option is below the grid's n are left out."""
        if self._plan is None or (self._unique is False and any(
                t.requires_unique for t, _, _ in self._plan)):
            n = self.puzzle.grid.n
            kind = self.puzzle.derived(_ladder_kind)
            # runs with the same techniques, options and grid share one plan (the
            # techniques are kept in the value, so their ids stay theirs while cached)
            key = None if self.options else (
                tuple(map(id, self.techniques)), self.named, n, kind, self._unique is False)
            cached = _PLANS.get(key) if key is not None else None
            if cached is not None:
                self._plan = cached[1]
                return self._plan
            plan = []
            techs = self.techniques
            if kind in ("variant", "variant jigsaw"):     # the variant ladder
                jigsaw = kind == "variant jigsaw"
                techs = sorted(techs, key=lambda t: registry.ladder_order(t, True, jigsaw))
            elif kind == "classic":             # the classic ladder leaves a few out
                techs = [t for t in techs
                         if t.name not in CLASSIC_SKIP or t.name in self.named]
            for t in techs:
                if t.requires_unique and self._unique is False:
                    continue
                opts = t.options_at(n, self.options)
                if runs_on(opts, n):
                    plan.append((t, t.finder, opts))
            self._plan = plan
            if key is not None:
                if len(_PLANS) >= 64:
                    _PLANS.clear()
                _PLANS[key] = (tuple(self.techniques), plan)
        return self._plan

    # -- the loop ---------------------------------------------------------------------
    def peek(self) -> Any:
        """What the strategy picks next in the current state, not applied (None when the
        state is solved, nothing applies or the puzzle has several solutions: iterating
        then ends the run and its ``status`` says which). Iterating applies this pick
        without searching again."""
        st = self.state
        if all(st.placed) or self.status is not None:
            return None
        if self._peek_checks:
            self.work += len(self.plan())
        if (self.solutions or 0) >= 2 or (self._peek_checks and self.check_due()):
            return None                 # several solutions: the run ends "multiple"
        key = (st.version, id(st.cand))
        if self._peeked is not None and self._peeked[0] == key:
            return self._peeked[1]
        if self.strategy is first_step:
            pick, links = self._first_step()
        else:
            an = self.analysis()
            pick, links = self.strategy(self, an), an.links
        if pick is not None:
            cite_rules(pick if isinstance(pick, Step) else pick.step, links)
        self._peeked = (key, pick)
        return pick

    def _first_step(self) -> tuple[Step | None, LinkTables]:
        """:func:`first_step` of the current state, with its singles fast path: the plan's
        leading singles (full house, naked and hidden single) are searched straight on the
        state (:func:`techniques.singles.first_single`, compiled where built), with no
        :class:`~techniques.analysis.Analysis`; only when they find nothing is the
        analysis made (derived from the last one through every change since) and the rest
        of the plan searched. The same step as :func:`first_step` over the whole plan."""
        plan = self.plan()
        if self._singles is None or self._singles[0] is not plan:
            links = link_tables(self.puzzle)
            stages = bytearray()
            for t, finder, _ in plan:
                code = singles.STAGES.get(finder)
                if code is None:
                    break
                stages.append(code)
            self._singles = (plan, bytes(stages), singles.searcher(links), links)
        _, stages, search, links = self._singles
        rest = None
        if stages and not self.budget.exhausted:    # (spent: first_step says so)
            found = search(self.state, stages)
            if found is not None:
                self.incomplete = False
                self.gave_up = None
                self.current = plan[stages.index(found[0])][0].name
                return singles.single_step(found, links, self.state.grid.namer), links
            rest = plan[len(stages):]
        an = self.analysis()
        return first_step(self, an, rest), an.links

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        """Find the next step, apply it and return the pick; StopIteration (and a
        ``status``) when the run is over."""
        if self.status is not None:
            raise StopIteration
        if self._broken is not None:
            self._end(SolveStatus.UNSOLVABLE, f"the grid already breaks a rule: {self._broken}")
        st = self.state
        if all(st.placed) or len(self.steps) >= self.max_steps or self.expired():
            self._end()
        try:
            pick = self.peek()
        except Contradiction as e:
            self.contradiction = e
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
            key = (st.version, id(st.cand))
            changed = apply_step(st, step, self._singles[3] if self._singles else None)
            delta = self._delta
            if delta is not None and delta[1] == key and delta[0] == self._an_key != key:
                # no analysis was made since the last step (the singles fast path): the
                # next one is derived through the changes of both
                delta[2].extend(changed)
                self._delta = (delta[0], (st.version, id(st.cand)), delta[2])
            else:
                self._delta = (key, (st.version, id(st.cand)), changed)
        except Contradiction as e:
            if before is not None:
                raise UnsoundStep(step, f"contradiction while applying it: {e}", before) from None
            self.contradiction = e
            self._end(SolveStatus.UNSOLVABLE, str(e))
        self.steps.append(step)
        return pick

    def _end(self, status: SolveStatus | None = None, reason: str | None = None) -> None:
        """End the run: ``status`` given, or solved / limit / stuck from the state."""
        if status is None:
            if all(self.state.placed):
                self._certify()
                status = SolveStatus.SOLVED
            else:
                status, reason = self._stop()
        self.status = status
        self.reason = reason
        raise StopIteration

    def _certify(self) -> None:
        """The one gate every "solved" of a logic run passes: the full grid must be a
        solution (:meth:`csp.Puzzle.check_solution`). Placements are checked against the
        rules as they are made, so a grid that fails here is a bug; it is raised as
        :class:`csp.errors.SoundnessError` with the puzzle, never returned as an answer."""
        grid = self.state.placed
        why = self.puzzle.solution_error(grid)
        if why is not None:
            raise SoundnessError(f"the logic solve filled a grid that is not a solution: {why}",
                                 self.puzzle, grid)

    def _stop(self) -> tuple[SolveStatus, str]:
        """Why a run ends unsolved: several solutions, none (a search finds none although
        the logic met no contradiction), the time limit or a search's own budget, or
        stuck; with the reason in one line. A verdict still unknown gets one more check
        (the scheduled budget) from the final state while time is left."""
        n = len(self.steps)
        after = f" after {n} step{'s' if n != 1 else ''}" if n else ""
        if self._unique is None and not self.expired():
            self.next_check = 0.0
        if self.check_due():
            return SolveStatus.MULTIPLE, self.solutions_text()
        if self.solutions == 0:
            return SolveStatus.UNSOLVABLE, (f"a search finds no solution; the logic "
                                            f"stopped{after or ' at once'} before meeting "
                                            f"the contradiction")
        if self.expired():
            limit = (f"time limit of {self.time_limit:g} s" if self.time_limit
                     else "deadline")
            status, why = SolveStatus.LIMIT, f"{limit} reached{after}"
        elif self.incomplete:
            status = SolveStatus.LIMIT
            why = (f"{(self.gave_up or 'a search').replace('_', ' ')} gave up on its own "
                   f"search budget{after}")
        else:
            status = SolveStatus.STUCK
            why = f"no selected technique applies{after}"
        if self.solutions is None and self.declared is None:
            why += (f"; uniqueness not known: checks stopped after {self.check_seconds:.2g} s"
                    if self.check_seconds else "; uniqueness not checked")
        return status, why

    def solutions_text(self) -> str:
        """The uniqueness verdict in words: "72 solutions", "at least 2 solutions",
        "one solution", "no solution" or "not known"."""
        k = self.solutions
        if k is None:
            return "not known"
        if k < 2:
            return "no solution" if k == 0 else "one solution"
        return f"{k} solutions" if self.solutions_exact else f"at least {k} solutions"


class _Solutions:
    """What a run's uniqueness check found about a frozen puzzle (kept with it through
    :meth:`csp.model.Puzzle.derived`, so later runs on the same puzzle do not search
    again): ``count`` (None until a check answers) and ``exact`` (False: "at least")."""

    def __init__(self, puzzle: Puzzle) -> None:
        self.count: int | None = None
        self.exact = False
