"""StepSolver: the human loop (apply the first step of the easiest technique, restart from
the easiest), logic-only solving and rating.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> r = StepSolver().solve(p)
>>> r.status, r.state.is_solved(), r.rating.level
('solved', True, 'easy')
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from csp.errors import SudokuCSPError
from csp.events import Contradiction
from csp.links import link_tables
from csp.model import Puzzle
from csp.state import State
from csp.step import Step

from . import registry
from .analysis import analyze
from .registry import LEVEL_MAX_SCORE, LEVELS, Technique

if TYPE_CHECKING:
    from .se_rating import SERating


class UnsoundStep(SudokuCSPError):
    """A step contradicted the known solution (raised only when verifying)."""


@dataclass
class Rating:
    """HoDoKu-style rating: the sum of step scores and a level (the hardest step's level,
    raised while the score exceeds the level's maximum).

    For variant puzzles (``basis == "ideas"``, see :func:`rate_steps`) the level is the
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
    status: str            # "solved" | "stuck" | "limit" (time limit reached first)
    state: State
    steps: list[Step]
    rating: Rating
    time_ms: float = 0.0


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


def is_effective(state: State, step: Step) -> bool:
    """True when the step would change the state."""
    return any(not state.placed[c] for c, _ in step.placements) or any(
        state.cand[c] >> d & 1 and not state.placed[c] for c, d in step.eliminations)


def is_variant(puzzle: Puzzle | None) -> bool:
    """True when the puzzle has rules beyond all-different houses (cages, lines, relations,
    outside clues ...): its rating then follows the hardest idea (:func:`rate_steps`).
    Classic, jigsaw, diagonal and other all-different rule sets keep HoDoKu's rating.

    >>> from variants.classic import classic_puzzle
    >>> is_variant(classic_puzzle("." * 81))
    False
    """
    if puzzle is None:
        return False
    from csp.constraints.alldiff import AllDifferent
    return any(type(c) is not AllDifferent for c in puzzle.constraints)


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
    for s in steps:
        t = registry.load().get(s.technique)
        score = t.score if t else 0
        lvl = LEVELS.index(t.level) if t else 0
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


class StepSolver:
    """Human-style solver over a selection of techniques.

    ``techniques``: ``"default"``, ``"all"``, family or technique names (see
    :func:`techniques.registry.select`). ``unique``: True/False declares whether the puzzle
    has one solution (uniqueness techniques need True); None checks it by search when a
    uniqueness technique is selected. ``options`` are passed to every technique.
    ``verify``: a known solution (digits per cell); every step is checked against it and an
    :class:`UnsoundStep` is raised on a wrong elimination or placement.
    """

    def __init__(self, techniques: str | Iterable[str] | None = "default",
                 options: dict[str, Any] | None = None, unique: bool | None = None,
                 verify: Sequence[int] | None = None) -> None:
        self.techniques: list[Technique] = registry.select(techniques)
        self.options = dict(options or {})
        self.unique = unique
        self.verify = list(verify) if verify is not None else None
        self._unique_cache: dict[int, bool] = {}
        # set by solve(time_limit=...): costly techniques stop searching past it
        self.deadline: float | None = None
        # set by next_step when it found nothing but a search gave up on its own budget
        self.incomplete = False
        # per puzzle (by id, checked by identity): the active (technique, finder, options),
        # and whether uniqueness was still undecided (gated uniqueness techniques)
        self._active_cache: tuple[Any, list[tuple[Technique, Any, dict]], bool] | None = None
        # the state solve() is working on, reached from the puzzle by sound steps only
        self._sound_state: State | None = None

    # -- helpers ----------------------------------------------------------------------
    def _is_unique(self, puzzle: Puzzle, state: State | None = None) -> bool:
        """Whether ``puzzle`` has one solution (declared, or checked by a search, cached).

        ``state``: a state of ``puzzle`` reached by sound steps only (no user marks, no
        uniqueness step), so it has the puzzle's solutions; the search then starts from its
        candidates, which is much cheaper than from the givens on a hard puzzle."""
        if self.unique is not None:
            return self.unique
        if puzzle.unique is not None:
            return puzzle.unique
        key = id(puzzle)
        if key not in self._unique_cache:
            limit, cut = 10.0, False
            if self.deadline is not None:
                left = self.deadline - time.perf_counter()
                limit, cut = max(0.01, min(limit, left)), left < limit
            try:
                # solve(): depth-first search, handed to the SAT solver when it grows
                start = state if state is not None and state.puzzle is puzzle else None
                res = puzzle.solve(time_limit=limit, state=start)
                self._unique_cache[key] = res.status == "solved"
            except SudokuCSPError:
                if cut:
                    return False     # stopped by the solve's own time limit: ask again later
                self._unique_cache[key] = False
        return self._unique_cache[key]

    def _decided(self, puzzle: Puzzle) -> bool:
        return (self.unique is not None or puzzle.unique is not None
                or id(puzzle) in self._unique_cache)

    def _active(self, state: State) -> list[Technique]:
        techs = self.techniques
        extra = list(getattr(state.puzzle, "extra_techniques", ()) or ())
        variant = is_variant(state.puzzle)
        if extra or variant:
            techs = sorted(techs + [t for t in extra if isinstance(t, Technique)],
                           key=lambda t: registry.ladder_order(t, variant))
        if any(t.requires_unique for t in techs) and self._decided(state.puzzle) \
                and not self._is_unique(state.puzzle):
            techs = [t for t in techs if not t.requires_unique]
        return techs

    def _plan(self, state: State) -> list[tuple[Technique, Any, dict]]:
        """The active techniques with their finders and merged options, kept per puzzle
        (the options dict is built once instead of once per technique per step)."""
        puzzle = state.puzzle
        key = (puzzle, getattr(puzzle, "unique", None),
               tuple(getattr(puzzle, "extra_techniques", ()) or ()))
        c = self._active_cache
        if c is not None and c[0][0] is puzzle and c[0][1:] == key[1:] and not (
                c[2] and self._decided(puzzle)):
            return c[1]
        plan = []
        gate = None
        if not self._decided(puzzle):
            # uniqueness is decided when the first uniqueness technique is reached: by then
            # the solve's own state (sound steps only) makes the search for a second
            # solution cheap; the plan is rebuilt once it is decided
            def gate(finder):
                def gated(an, opts):
                    st = an.state if an.state is self._sound_state else None
                    if not self._is_unique(puzzle, st):
                        return iter(())
                    return finder(an, opts)
                return gated
        for t in self._active(state):
            opts = dict(t.options)
            opts.update(self.options)
            finder = t.finder
            if gate is not None and t.requires_unique:
                finder = gate(finder)
            plan.append((t, finder, opts))
        self._active_cache = (key, plan, gate is not None)
        return plan

    def _check(self, step: Step) -> None:
        sol = self.verify
        if sol is None:
            return
        for c, d in step.placements:
            if sol[c] != d:
                raise UnsoundStep(f"{step.explain(2)}: places {d} but the solution has {sol[c]}")
        for c, d in step.eliminations:
            if sol[c] == d:
                raise UnsoundStep(f"{step.explain(2)}: eliminates the solution digit {d}")

    # -- API --------------------------------------------------------------------------
    def next_step(self, state: State) -> Step | None:
        """The first effective step of the easiest technique, or None when stuck."""
        an = analyze(state)
        an.deadline = deadline = self.deadline
        self.incomplete = False
        for _t, finder, opts in self._plan(state):
            if deadline is not None and time.perf_counter() > deadline:
                return None     # solve() reports 'limit'
            for step in finder(an, opts):
                if is_effective(state, step):
                    return step
        # a search that gave up on its own budget did not prove that nothing applies
        self.incomplete = an.timed_out
        return None

    def steps(self, state: State, max_steps: int = 100_000) -> Iterator[Step]:
        """Yield steps while applying them to a copy of ``state``."""
        st = state.copy()
        for _ in range(max_steps):
            if all(st.placed[c] for c in range(st.grid.size)):
                return
            step = self.next_step(st)
            if step is None:
                return
            self._check(step)
            apply_step(st, step)
            yield step

    def find_all(self, state: State, technique: str) -> list[Step]:
        """Every effective step one technique finds in ``state``."""
        t = registry.get(technique)
        an = analyze(state)
        return [s for s in t.find(an, self.options) if is_effective(state, s)]

    def solve(self, puzzle_or_state: Puzzle | State, max_steps: int = 100_000,
              time_limit: float | None = None) -> LogicResult:
        """Logic only (never guesses): ``status`` is "solved", "stuck" (no technique applies)
        or "limit" (``time_limit`` seconds passed first, checked between steps, or a costly
        search such as the nested forcing net gave up on its own budget with no step)."""
        t0 = time.perf_counter()
        st = (puzzle_or_state.pencilmarks() if isinstance(puzzle_or_state, Puzzle)
              else puzzle_or_state.copy())
        steps: list[Step] = []
        deadline = t0 + time_limit if time_limit else None
        self.deadline = deadline
        self.incomplete = False
        self._sound_state = st if isinstance(puzzle_or_state, Puzzle) else None
        try:
            for _ in range(max_steps):
                if all(st.placed[c] for c in range(st.grid.size)):
                    break
                step = self.next_step(st)
                if step is None:
                    break
                self._check(step)
                apply_step(st, step)
                steps.append(step)
                if deadline is not None and time.perf_counter() > deadline:
                    break
        finally:
            self.deadline = None
            self._sound_state = None
        solved = all(st.placed[c] for c in range(st.grid.size))
        # a costly technique that gave up at the deadline leaves no step: that is 'limit' too
        out_of_time = (deadline is not None and time.perf_counter() > deadline) or (
            not solved and self.incomplete)
        status = "solved" if solved else ("limit" if out_of_time else "stuck")
        return LogicResult(status, st, steps, rate_steps(steps, by_idea=is_variant(st.puzzle)),
                           (time.perf_counter() - t0) * 1000)

    def rate(self, puzzle_or_state: Puzzle | State) -> Rating:
        return self.solve(puzzle_or_state).rating

    def rate_se(self, puzzle_or_state: Puzzle | State, mode: str = "extended",
                time_limit: float | None = None) -> "SERating":
        """Sudoku Explainer-like rating (ER / EP / ED), see :mod:`techniques.se_rating`.
        It solves with SE's own technique list for ``mode`` ("extended" or "se121"), not
        this solver's selection; this solver's options and uniqueness setting apply.

        >>> from variants.classic import classic_puzzle
        >>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
        >>> StepSolver().rate_se(p, mode="se121").to_dict()["er"]
        1.2
        """
        from .se_rating import SESolver
        return SESolver(mode, self.options, self.unique, solver=self).rate(
            puzzle_or_state, time_limit=time_limit)
