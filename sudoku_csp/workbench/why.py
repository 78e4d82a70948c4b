"""Why is a candidate false (or true)? ``sudoku-csp why PUZZLE r5c3=7``.

:func:`why` first counts the solutions that hold the candidate (from the puzzle's start, or
from a partly solved grid given as ``state`` or ``marks``), with the SAT search, up to
``cap``. When some do, the candidate is *true* in that many. When none does, it is *false*,
and the human solver looks for a refutation: it assumes the candidate, then applies the
selected techniques until a contradiction shows (a cell left without candidates, a row,
column or box with no place left for a digit, looked at after every step). It searches
twice, with the easy techniques of the selection alone (singles and the plain reading of
the rules) and with the whole selection, and keeps the shorter refutation (the easy one on a
tie). While it searches it prefers, among the steps of the easiest technique that has any,
the one touching the most recent consequences of the assumption, so the chain stays on its
subject. Each refutation is then shortened to the steps the contradiction depends on
(through the cells each step reads and changes), and the shortened chain is checked again
step by step (each step found again by its own technique, the contradiction reached again);
if that check fails, the whole chain is kept. So the answer is short, but not proven the
shortest there is.

The result says how it ended (:class:`Why`): ``status`` "true", "false", "eliminated" (not a
candidate of the start state at all), "unsolvable" (the start state has no solution) or
"limit"; for a false candidate ``refuted`` tells whether the logic showed it, with
``steps`` and ``contradiction``. :meth:`Why.svg` draws the refutation.

>>> from variants import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> w = why(p, "r1c1=5")
>>> w.status, w.refuted, w.contradiction
('false', True, 'r9c4 has no candidate')
>>> [s.technique for s in w.steps]
['naked_single', 'naked_single', 'naked_single', 'naked_single']
>>> w = why(p, "r1c1=4")
>>> w.status, w.count
('true', 1)
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from csp.budget import Budget
from csp.errors import InvalidArgument, SearchLimit
from csp.events import Contradiction
from csp.io import SYMBOLS
from csp.model import Puzzle
from csp.state import State
from csp.status import SolveStatus
from csp.step import Candidate, Step, digit_symbol
from techniques import StepSolver, registry
from techniques.analysis import analyze
from techniques.loop import Run, applied, is_effective, replay

from .. import render
from .elements import check_seconds
from csp.text import quoted

__all__ = ["why", "Why", "parse_candidate", "LOCAL_FAMILIES"]

#: the level of singles and the plain reading of the rules
EASY = "easy"

#: the colour of the cells where a refutation's contradiction shows
CONTRADICTION = "#d00000"

#: technique families whose steps read only their named houses and their own cells (so a
#: refutation can be shortened across them); a step of any other family may have read the
#: whole grid, and every step before it is kept
LOCAL_FAMILIES = frozenset({"singles", "intersections", "subsets", "fish"})

_CANDIDATE = re.compile(r"^\s*[rR](\d+)\s*[cC](\d+)\s*=\s*([0-9A-Za-z]+)\s*$", re.ASCII)


def parse_candidate(puzzle: Puzzle, text: str) -> tuple[int, int]:
    """``(cell, digit)`` of a candidate written ``r5c3=7`` (digits past 9 as numbers or as
    the grid's symbols, ``r1c1=A`` = 10). Raises :class:`csp.errors.InvalidArgument`.

    >>> from variants import classic_puzzle
    >>> p = classic_puzzle("." * 81)
    >>> parse_candidate(p, "r5c3=7"), parse_candidate(p, " R1C1 = 9 ")
    ((38, 7), (0, 9))
    >>> parse_candidate(p, "r5c3")
    Traceback (most recent call last):
    ...
    csp.errors.InvalidArgument: 'r5c3': expected a candidate like r5c3=7
    """
    m = _CANDIDATE.match(text)
    if not m:
        raise InvalidArgument(f"{quoted(text, 40)}: expected a candidate like r5c3=7")
    g = puzzle.grid
    row, col = (x.lstrip("0") or "0" for x in m.group(1, 2))
    try:
        if len(row) > 3 or len(col) > 3:
            raise ValueError
        cell = g.cell(f"r{row}c{col}")
    except Exception:            # noqa: BLE001 - the grid's own message says where
        raise InvalidArgument(f"{quoted(text, 40)}: no cell r{row[:6]}c{col[:6]} in the "
                              f"{g.n}x{g.n} grid") from None
    sym = m.group(3).upper()
    if sym.isdigit():            # (a number of thousands of digits: no digit either)
        digit = int(sym) if len(sym.lstrip("0")) <= 3 else 0
    elif len(sym) == 1 and sym in SYMBOLS:
        digit = SYMBOLS.index(sym) + 1
    else:
        digit = 0
    if not 1 <= digit <= g.n:
        raise InvalidArgument(f"{quoted(text, 40)}: the digit must be 1..{g.n}")
    return cell, digit


@dataclass
class Why:
    """The answer of :func:`why` (see the module docstring)."""

    puzzle: Puzzle
    candidate: tuple[int, int]
    status: str
    #: solutions holding the candidate (counting stops at ``cap``)
    count: int = 0
    cap: int = 0
    #: a false candidate: the logic showed it (``steps`` end in ``contradiction``)
    refuted: bool = False
    #: how the logic search ended for a false candidate: refuted, stuck or limit
    logic: str | None = None
    steps: list[Step] = field(default_factory=list)
    contradiction: str | None = None
    #: the cells where the contradiction shows
    contradiction_cells: tuple[int, ...] = ()
    #: the steps the logic applied before shortening
    searched: int = 0
    start: State | None = field(default=None, repr=False)
    assumed: State | None = field(default=None, repr=False)
    time_ms: float = 0.0

    @property
    def name(self) -> str:
        c, d = self.candidate
        return f"{self.puzzle.grid.name(c)}={digit_symbol(d)}"

    @property
    def at_least(self) -> bool:
        return self.cap > 0 and self.count >= self.cap

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` output.

        >>> from variants import classic_puzzle
        >>> sorted(why(classic_puzzle("1" + "." * 15), "r1c2=1").to_dict())[:6]
        ['at_least', 'candidate', 'cap', 'contradiction', 'count', 'logic']
        """
        return {"candidate": self.name, "status": self.status, "count": self.count,
                "cap": self.cap, "at_least": self.at_least, "refuted": self.refuted,
                "logic": self.logic, "steps": [s.to_dict() for s in self.steps],
                "contradiction": self.contradiction, "searched": self.searched,
                "text": self.text(), "time_ms": round(self.time_ms, 1)}

    def text(self) -> str:
        """The answer in words, the refutation one step a line."""
        name = self.name
        if self.status == "true":
            more = "at least " if self.at_least else ""
            return (f"{name} is true in {more}{self.count} solution"
                    f"{'' if self.count == 1 else 's'}")
        if self.status == "eliminated":
            c, _d = self.candidate
            st = self.start
            held = st.placed[c] if st is not None else 0
            return (f"{name} is not a candidate here: "
                    + (f"{self.puzzle.grid.name(c)} holds {digit_symbol(held)}" if held
                       else "the pencil marks have already removed it"))
        if self.status == "unsolvable":
            return "the start position has no solution: every candidate is false"
        if self.status == "limit":
            return f"{name}: the solutions were not counted in time"
        if not self.refuted:
            why_not = ("the selected techniques get stuck" if self.logic == "stuck"
                       else "the time limit came first")
            return (f"{name} is false (no solution has it), but no refutation was found: "
                    f"{why_not}")
        lines = [f"{name} is false. Assume {name}:"]
        lines.extend(f"  {i}. {s.explain(2)}" for i, s in enumerate(self.steps, 1))
        lines.append(f"  => contradiction: {self.contradiction}")
        return "\n".join(lines)

    def svg(self) -> str:
        """A picture of the start position: the candidate highlighted and, for a
        refutation, every placement and elimination of the chain drawn on it, the cells
        where the contradiction shows outlined in red, and the steps under the grid."""
        st = self.start
        c, d = self.candidate
        cand = Candidate(c, d)
        if st is None or not self.refuted:
            step = Step("why", pattern=(cand,), namer=self.puzzle.grid.namer, title="Why")
            return render.render_svg(state=st, puzzle=self.puzzle, step=step, explain=False,
                                     notes=self.text().split("\n"))
        placements = tuple(x for s in self.steps for x in s.placements)
        eliminations = tuple(x for s in self.steps for x in s.eliminations)
        summary = Step("why", placements=placements, eliminations=eliminations,
                       pattern=(cand,), namer=self.puzzle.grid.namer, title="Why not")
        notes = [f"Assume {self.name}:"] + [f"{i}. {s.explain(2)}"
                                            for i, s in enumerate(self.steps, 1)]
        notes.append(f"=> {self.contradiction}")
        if len(notes) > 8:
            notes = notes[:6] + [f"... {len(notes) - 7} more steps", notes[-1]]
        marks = [render.CellMark(tuple(self.contradiction_cells), CONTRADICTION, "!")]
        return render.render_svg(state=st, puzzle=self.puzzle, step=summary, explain=False,
                                 notes=notes, marks=marks if self.contradiction_cells else ())


def why(puzzle: Puzzle, candidate: str | tuple[int, int], *, state: State | None = None,
        marks: str | None = None, cap: int = 100, techniques: str | Iterable[str] = "default",
        time_limit: float | None = 60.0, shorten: bool = True) -> Why:
    """Why ``candidate`` (``"r5c3=7"`` or ``(cell, digit)``) is false, or in how many
    solutions it is true (see the module docstring). ``state`` or ``marks`` (a pencil-mark
    grid's text, :func:`sudoku_csp.formats.loader.marks_state`) give a partly solved
    position; ``cap`` stops counting; ``techniques`` selects the logic (as for ``solve
    --logic``); ``time_limit`` bounds the whole call (one clock for the counts, the search
    for a refutation and its shortening); ``shorten`` keeps only the steps the
    contradiction needs."""
    t0 = time.perf_counter()
    if not isinstance(cap, int) or cap < 1:
        raise InvalidArgument(f"cap must be a whole number of at least 1, got {quoted(cap)}")
    check_seconds("time_limit", time_limit)
    if state is not None and marks is not None:
        raise InvalidArgument("give a state or marks, not both")
    if marks is not None:
        from ..formats.loader import marks_state
        state = marks_state(marks, puzzle)
    start = puzzle.pencilmarks() if state is None else state.copy()
    cell, digit = (parse_candidate(puzzle, candidate) if isinstance(candidate, str)
                   else _checked(puzzle, candidate))
    w = Why(puzzle, (cell, digit), "limit", cap=cap, start=start)
    done = lambda: setattr(w, "time_ms", (time.perf_counter() - t0) * 1000) or w  # noqa: E731
    if not start.cand[cell] >> digit & 1 or (start.placed[cell] and
                                             start.placed[cell] != digit):
        w.status = "eliminated"
        return done()
    cand = [1 << start.placed[c] if start.placed[c] else m for c, m in enumerate(start.cand)]
    deadline = None if time_limit is None else t0 + time_limit
    try:
        if not _solutions(puzzle, cand, 1, _left(deadline)):
            w.status = "unsolvable"
            return done()
        fixed = list(cand)
        fixed[cell] = 1 << digit
        w.count = len(_solutions(puzzle, fixed, cap, _left(deadline)))
    except SearchLimit:
        return done()
    if w.count:
        w.status = "true"
        return done()
    w.status = "false"
    _refute(w, start, techniques, deadline, shorten)
    return done()


def _left(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (a :func:`time.perf_counter` value; None: no
    limit), never below 0."""
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def _checked(puzzle: Puzzle, cd: tuple[int, int]) -> tuple[int, int]:
    cell, digit = cd
    cell = puzzle.grid.cell(cell)
    if not isinstance(digit, int) or not 1 <= digit <= puzzle.grid.n:
        raise InvalidArgument(f"digit {quoted(digit)} is not 1..{puzzle.grid.n}")
    return cell, digit


def _solutions(puzzle: Puzzle, cand: list[int], limit: int,
               time_limit: float | None) -> list[list[int]]:
    from csp.sat import sat_search
    sols, _ = sat_search(puzzle, cand, limit=limit, time_limit=time_limit)
    return sols


# -- the refutation -------------------------------------------------------------------------
def _cells(step: Step) -> set[int]:
    out = {c for c, _d in (*step.placements, *step.eliminations, *step.pattern)}
    for ln in step.links:
        out.update(c for c, _d in (*ln.a, *ln.b))
    return out


class _Focus:
    """The search strategy. It walks the techniques in the solver's order; the first
    step it meets that touches a cell the assumption has changed (directly or through the
    steps since) is taken, preferring the most recent change among a technique's first 50
    steps; past the easy level it looks no further for such a step once an easier one
    applies elsewhere, and takes that one (the human loop's own choice)."""

    def __init__(self, size: int) -> None:
        self.changed = [-1] * size       # cell -> step index of its last change (-1: none)

    def note(self, before: Sequence[int], after: Sequence[int], index: int) -> None:
        for c, (a, b) in enumerate(zip(before, after)):
            if a != b:
                self.changed[c] = index

    def __call__(self, run: Run, an: Any) -> Step | None:
        run.incomplete = False
        st = run.state
        fallback = None
        for t, finder, opts in run.plan():
            if run.expired():
                return fallback
            if fallback is not None and t.level != EASY:
                return fallback
            if t.requires_unique and not run.unique_ok():
                continue
            best, score, k = None, -2, 0
            for step in finder(an, opts):
                if not is_effective(st, step):
                    continue
                s = max((self.changed[c] for c in _cells(step)), default=-1)
                if s > score:
                    best, score = step, s
                k += 1
                if k >= 50:
                    break
            if best is not None and score >= 0:
                return best
            if fallback is None:
                fallback = best
        run.incomplete = fallback is None and an.timed_out
        return fallback


@dataclass
class _Chain:
    """One search for a refutation: the steps after the assumption (the last one the step
    that failed, when ``failed``), the contradiction and its cells, or how it ended."""

    steps: list[Step]
    failed: bool = False
    contradiction: str | None = None
    cells: tuple[int, ...] = ()
    status: str = "refuted"
    searched: int = 0


def _search(solver: StepSolver, start: State, assumed: State,
            time_limit: float | None) -> _Chain:
    """The human loop from ``assumed`` with :class:`_Focus`, until a step fails, a
    contradiction shows in the position (:func:`_evident`, looked at after each step), or
    nothing applies."""
    focus = _Focus(assumed.grid.size)
    focus.note(start.cand, assumed.cand, 0)
    run = solver.start(assumed, time_limit=time_limit, strategy=focus)
    while True:
        try:
            pick = run.peek()
        except Contradiction as e:       # pragma: no cover - finders do not raise today
            return _Chain(list(run.steps), False, _reason(str(e)), e.cells,
                          searched=len(run.steps))
        if pick is None:
            return _Chain(list(run.steps), status=str(run.status or (
                "limit" if run.expired() or run.incomplete else "stuck")),
                searched=len(run.steps))
        before = list(run.state.cand)
        trial = run.state.copy()
        try:
            next(run)
        except StopIteration:
            if run.status != SolveStatus.UNSOLVABLE:
                return _Chain(list(run.steps), status=str(run.status),
                              searched=len(run.steps))
            if run.contradiction is None:
                # the run ended without applying the pick (out of time, say) and its own
                # search found no solution: the logic did not meet the contradiction
                return _Chain(list(run.steps), status="limit" if run.expired()
                              or run.incomplete else "stuck", searched=len(run.steps))
            step = pick if isinstance(pick, Step) else pick.step
            cells: tuple[int, ...] = ()
            try:                         # which cells: the same step on a copy says
                applied(trial, step)
            except Contradiction as e:
                cells = e.cells
            return _Chain([*run.steps, step], True, _reason(run.reason or ""), cells,
                          searched=len(run.steps) + 1)
        focus.note(before, run.state.cand, len(run.steps) + 1)
        evident = _evident(run.state)
        if evident is not None:
            return _Chain(list(run.steps), False, *evident, searched=len(run.steps))


def _refute(w: Why, start: State, techniques: Any, deadline: float | None,
            shorten: bool) -> None:
    """Look for a refutation with the easy techniques of the selection alone, then with
    the whole selection; keep the shorter (the easy one on a tie), shortened; all before
    ``deadline`` (a :func:`time.perf_counter` value, or None)."""
    cell, digit = w.candidate
    assumed = start.copy()
    assume = Step("assume", placements=(Candidate(cell, digit),),
                  namer=w.puzzle.grid.namer, title="Assume")
    w.assumed = assumed
    try:
        assumed = applied(assumed, assume)
    except Contradiction as e:           # the assumption empties a cell at once
        w.refuted, w.logic = True, "refuted"
        w.contradiction, w.contradiction_cells = _reason(str(e)), e.cells
        return
    w.assumed = assumed.copy()
    evident = _evident(assumed)
    if evident is not None:              # a house left without a place at once
        w.refuted, w.logic = True, "refuted"
        w.contradiction, w.contradiction_cells = evident
        return
    full = StepSolver(techniques)
    easy = StepSolver(techniques)
    easy.techniques = [t for t in full.techniques if t.level == EASY]
    solvers = [easy, full] if 0 < len(easy.techniques) < len(full.techniques) else [full]
    best: _Chain | None = None
    searched = 0
    for solver in solvers:
        left = _left(deadline)
        if left is not None and left <= 0:
            if best is None:
                w.logic = "limit"
            break
        chain = _search(solver, start, w.assumed, left)
        searched += chain.searched
        if chain.contradiction is None:
            if best is None:
                w.logic = chain.status
            continue
        if shorten and len(chain.steps) > 1:
            chain.steps = _shortest(w.assumed, chain, w.puzzle, techniques, deadline)
        if best is None or len(chain.steps) < len(best.steps):
            best = chain
    w.searched = searched
    if best is None:
        return
    w.refuted, w.logic = True, "refuted"
    w.steps, w.contradiction, w.contradiction_cells = best.steps, best.contradiction, best.cells


def _shortest(assumed: State, chain: _Chain, puzzle: Puzzle, techniques: Any,
              deadline: float | None = None) -> list[Step]:
    """The chain's steps that the contradiction depends on, when that shorter chain replays
    (first taking every step at its word, then only the plainly local ones); the whole
    chain otherwise; the whole chain, too, once ``deadline`` (a :func:`time.perf_counter`
    value, or None) has passed."""
    for local in (False, True):
        if _left(deadline) == 0.0:
            break
        short = _shortened(assumed, chain, puzzle, local)
        if short is not None and _replays(assumed, short, techniques, deadline):
            return short
    return chain.steps


def _reason(text: str) -> str:
    """The contradiction without the step's name (the step is shown)."""
    return text.split(": ", 1)[1] if ": " in text else text


def _evident(state: State) -> tuple[str, tuple[int, ...]] | None:
    """A contradiction one can see without any technique, and its cells: a cell without
    candidates, a rule whose cells are all placed and break it, or a house of n cells with
    no place left for a digit."""
    g = state.grid
    for c in range(g.size):
        if not state.placed[c] and not state.cand[c]:
            return f"{g.name(c)} has no candidate", (c,)
    placed = state.placed
    for con in state.puzzle.constraints:
        cells = con.cells
        if cells and all(placed[c] for c in cells) and not con.check(
                *(placed[c] for c in cells)):
            return f"{con.name or con.kind} is broken", tuple(dict.fromkeys(cells))
    from csp.links import link_tables
    for h in link_tables(state.puzzle).houses:
        if len(h.cells) != g.n:
            continue
        for d in range(1, g.n + 1):
            if not any(state.placed[c] == d or (not state.placed[c] and state.cand[c] >> d & 1)
                       for c in h.cells):
                return f"{h.name} has no place for {digit_symbol(d)}", tuple(h.cells)
    return None


def _house_cells(puzzle: Puzzle) -> dict[str, frozenset[int]]:
    """Cells by every name a step may give a house or a rule: the grid's houses, the
    constraints' names and the elements' labels (``thermo r7c1``)."""
    from .elements import elements
    out = {h.name: frozenset(h.cells) for h in puzzle.grid.houses}
    for con in puzzle.constraints:
        if con.name and con.cells:
            out.setdefault(con.name, frozenset(con.cells))
    for e in elements(puzzle):
        for name in e.names:
            out.setdefault(name, frozenset(e.cells))
    return out


def _shortened(assumed: State, chain: _Chain, puzzle: Puzzle,
               local: bool) -> list[Step] | None:
    """The steps of ``chain`` the contradiction depends on (its cells, and the step that
    failed, if one did), through the cells each step reads and changes; None when nothing
    can be left out. A step reads its own cells and those of the houses and rules it names;
    with ``local``, only the steps of :data:`LOCAL_FAMILIES` are taken at their word, and
    any other step is taken to read the whole grid."""
    path = chain.steps
    houses = _house_cells(puzzle)
    every = frozenset(range(puzzle.grid.size))
    reg = registry.load()
    states = list(replay(assumed, path[:-1] if chain.failed else path))

    def reads(step: Step) -> frozenset[int]:
        t = reg.get(step.technique)
        if t is None or (local and t.family not in LOCAL_FAMILIES):
            return every
        out = set(_cells(step))
        for h in step.houses:
            if h not in houses:
                return every
            out |= houses[h]
        return frozenset(out)

    def writes(i: int) -> set[int]:
        a, b = states[i], states[i + 1]
        return {c for c in range(len(a.cand)) if a.cand[c] != b.cand[c]
                or a.placed[c] != b.placed[c]}

    need = set(chain.cells)
    keep: list[int] = []
    last = len(path) - 1
    if chain.failed:
        need |= reads(path[-1])
        keep.append(last)
        last -= 1
    for i in range(last, -1, -1):
        if writes(i) & need:
            keep.append(i)
            need |= reads(path[i])
    if len(keep) == len(path):
        return None
    return [path[i] for i in sorted(keep)]


def _replays(assumed: State, steps: list[Step], techniques: Any,
             deadline: float | None = None) -> bool:
    """Each step is found again by its own technique where it stands, and the last one
    (or the position after it) shows the contradiction; False when ``deadline`` (a
    :func:`time.perf_counter` value, or None) comes first."""
    st = assumed.copy()
    run = StepSolver(techniques).start(st, copy=False)
    plan = {t.name: (finder, opts) for t, finder, opts in run.plan()}
    for i, step in enumerate(steps):
        budget = Budget(deadline=deadline)      # one per step: its own timed_out flag
        if budget.exhausted:
            return False
        if step.technique not in plan:
            return False
        finder, opts = plan[step.technique]
        want = {x for x in step.placements if not st.placed[x.cell]} | {
            x for x in step.eliminations if st.cand[x.cell] >> x.digit & 1}
        try:
            if step.technique == "constraint":     # one rule's own propagation
                if not want <= _rule_removals(st, step.houses):
                    return False
            elif not any(want <= set(s.placements) | set(s.eliminations)
                         for s in finder(analyze(st, budget), opts)):
                return False
            st = applied(st, step)
        except Contradiction:
            return i == len(steps) - 1
        except SearchLimit:
            return False
    return _evident(st) is not None


def _rule_removals(state: State, names: Sequence[str]) -> set[Candidate]:
    """The candidates the rules named ``names`` remove on their own from ``state`` (their
    propagators to fixpoint, the grid's houses left out): what a ``constraint`` step of
    those rules may eliminate."""
    from csp.engine import Engine
    puzzle = state.puzzle
    n = puzzle.grid.n
    props = [pr for con in puzzle.constraints if con.name in names
             for pr in (*con.propagators(n), *con.compile(puzzle))]
    if not props:
        return set()
    cand = [1 << d if d else m for d, m in zip(state.placed, state.cand)]
    try:
        Engine(n, puzzle.grid.size, [], props).propagate(cand, None)
    except Contradiction:
        return {Candidate(c, d) for c in range(len(cand)) for d in range(1, n + 1)}
    return {Candidate(c, d) for c, (a, b) in enumerate(zip(state.cand, cand))
            if not state.placed[c] for d in range(1, n + 1) if a >> d & 1 and not b >> d & 1}
