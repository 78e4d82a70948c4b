"""The setter's report: what to check before publishing a puzzle (``sudoku-csp report``).

:func:`report` answers, for one puzzle:

* **solutions**: unique, how many, or at least how many (counting stops at ``count_limit``);
  with no solution, the smallest set of elements that cannot hold together;
* **clue suggestions** when it is not unique: the givens, and the simple marks (a white or
  black dot, an X or a V, a less-than sign between two neighbours) that make it unique or
  cut the count most, read from the solutions' per-candidate counts;
* **the logic verdict**: solved or stuck (and where), the level and the hardest idea, with the
  techniques of the selection (``techniques``);
* **the break-in**: the first step beyond the easy level (singles and the plain reading of
  the rules), with every other step available at that point, easiest first;
* **bottlenecks**: the points where a step of the hardest level was needed and only one
  such deduction was there to find;
* **every element** (:mod:`sudoku_csp.workbench.elements`: each given, cage, line, dot ...):
  whether the puzzle needs it for uniqueness (removing it alone leaves several solutions),
  whether the logic path uses it (a step or propagation whose reason names it), and for each
  one the puzzle does not need, how the logic fares without it. An element that is not
  needed is *redundant* when the logic uses it and *decorative* when nothing does.

The uniqueness and necessity questions share one SAT solver kept warm across them
(:class:`~sudoku_csp.workbench.elements.ElementSat`): "without element i" is a solve under
assumptions, not a new encoding. Each phase runs against one deadline (``time_limit``);
what a phase could not finish is said in ``notes`` and ``complete`` is False.

>>> from variants import classic_puzzle, killer_cage
>>> p = classic_puzzle("12..34.." + "." * 8).use(killer_cage(["r3c1", "r3c3"], 3),
...                                             killer_cage(["r3c1", "r3c3"], 3))
>>> r = report(p)
>>> r.status, r.count, r.logic["status"]
('unique', 1, 'solved')
>>> [(e.label, e.needed, e.verdict) for e in r.elements][:2]
[('cage 3 at r3c1', False, 'redundant'), ('cage 3 at r3c1 (2)', False, 'redundant')]
>>> r.to_dict()["redundant"][:2]
['cage 3 at r3c1', 'cage 3 at r3c1 (2)']
"""
from __future__ import annotations

import html
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from csp.errors import InvalidArgument, SudokuCSPError, TimeLimitExceeded
from csp.events import Contradiction
from csp.io import write_line, write_pencilmarks
from csp.model import Puzzle
from csp.state import State
from csp.step import Step, digit_symbol
from techniques import StepSolver, registry
from techniques.loop import first_step, is_effective, rated_by_idea
from techniques.solver import LogicResult, rate_steps

from csp.files import write_atomic

from .. import render
from .candidates import true_candidates
from .elements import Element, ElementSat, check_seconds, elements, uses, without
from csp.text import quoted

__all__ = ["report", "Report", "ElementReport", "Suggestion", "Progress", "EASY"]

#: ``progress(phase, done, total)``: called as each phase goes (total None when unknown)
Progress = Callable[[str, int, "int | None"], None]

#: the level whose steps are singles and the plain reading of the rules
EASY = "easy"

#: how many suggestions of each kind (givens, marks) a report keeps
SUGGESTIONS = 8

#: the colours of the report's picture and page, by verdict
FLAG_COLOURS = {"redundant": "#1c7ed6", "decorative": "#d9480f"}

#: seconds each necessity question gets in the first pass (doubled in each later pass)
NECESSITY_FIRST = 0.25

#: seconds the logic solve of a puzzle without one solution may take (it can only get
#: stuck; where it does tells the setter where a clue is missing)
MULTIPLE_LOGIC_SECONDS = 5.0

#: seconds one technique may search when a report lists the steps available at a point
TECHNIQUE_SECONDS = 1.0

#: wall-clock seconds of each phase beyond the count and the logic solve (each also within
#: the report's own time limit): the necessity questions before the logic solve (at most a
#: third of the limit) and those still open after everything else, listing the steps at
#: the break-in, looking for bottlenecks, and the logic solves without each element the
#: puzzle does not need. Most puzzles need a fraction of them; they bound the rare hard
#: ones, so that a report on a 9x9 setter puzzle stays within half a minute unless its
#: own count or logic solve is long (:data:`EXTRA_SECONDS` bounds them together)
NECESSITY_SECONDS = 10.0
FINAL_NECESSITY_SECONDS = 10.0
BREAK_IN_SECONDS = 4.0
BOTTLENECK_SECONDS = 4.0
WITHOUT_SECONDS = 8.0
#: wall-clock seconds those phases take in all: the last necessity pass gets only what the
#: others left of it (their own bounds add up to 36 s: "Solver needs SET", whose
#: necessity proofs are hard, took 31 s on a quiet machine before this bound)
EXTRA_SECONDS = 24.0


def _marks() -> list[tuple[str, Callable[[str, str], Any]]]:
    """The marks a report suggests between two orthogonal neighbours: (kind, bundle
    maker)."""
    from variants import black_dot, less_than, sum_dot, white_dot
    return [("white dot", white_dot), ("black dot", black_dot),
            ("X", lambda a, b: sum_dot(a, b, 10)), ("V", lambda a, b: sum_dot(a, b, 5)),
            ("less than", less_than)]


@dataclass
class ElementReport:
    """One element's line of the report (see the module docstring for the verdicts)."""

    index: int
    label: str
    kind: str
    cells: tuple[int, ...]
    #: removing it alone leaves several solutions (None: not asked or not decided)
    needed: bool | None = None
    #: steps and propagations of the logic path that name or need it
    uses: int = 0
    #: the logic solve without it (only for elements the puzzle does not need)
    logic_without: dict[str, Any] | None = None
    element: Element | None = field(default=None, repr=False)

    @property
    def used(self) -> bool:
        return self.uses > 0

    @property
    def verdict(self) -> str:
        """``needed``, ``redundant`` (not needed, used by the logic), ``decorative`` (not
        needed, not used) or ``unknown`` (necessity not decided)."""
        if self.needed is None:
            return "unknown"
        if self.needed:
            return "needed"
        return "redundant" if self.used else "decorative"

    def to_dict(self, grid: Any) -> dict[str, Any]:
        return {"label": self.label, "kind": self.kind,
                "cells": [grid.name(c) for c in self.cells], "needed": self.needed,
                "used": self.used, "uses": self.uses, "verdict": self.verdict,
                "logic_without": self.logic_without}


@dataclass
class Suggestion:
    """A clue that would cut the solution count: a given (``r1c1=5``) or a mark between two
    cells (``white dot r1c1-r1c2``), and how many solutions it leaves (at least ``count``
    when ``at_least``). A mark's solutions are those of the puzzle that keep it: adding it
    cannot bring new ones, as it only adds a rule."""

    clue: str
    kind: str
    count: int
    at_least: bool = False
    #: the mark's rule bundle, ready for ``Puzzle.use`` (None for a given)
    rule: Any = field(default=None, repr=False, compare=False)

    @property
    def unique(self) -> bool:
        return self.count == 1 and not self.at_least

    def to_dict(self) -> dict[str, Any]:
        return {"clue": self.clue, "kind": self.kind, "count": self.count,
                "at_least": self.at_least, "unique": self.unique}


@dataclass
class Report:
    """What :func:`report` found; :meth:`to_dict` is the ``--json`` output, :meth:`text`
    the terminal's, :meth:`html` the page."""

    puzzle: Puzzle
    status: str
    count: int
    count_limit: int
    solution: list[int] | None = None
    conflict: list[str] | None = None
    suggestions: list[Suggestion] = field(default_factory=list)
    logic: dict[str, Any] = field(default_factory=dict)
    break_in: dict[str, Any] | None = None
    bottlenecks: list[dict[str, Any]] = field(default_factory=list)
    #: the points of the path, at the hardest level, checked for being bottlenecks
    bottlenecks_checked: int = 0
    #: elements shown not needed by a logic solve without them (the SAT questions having
    #: run out of time)
    proved_by_logic: int = 0
    elements: list[ElementReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    time_ms: float = 0.0
    result: LogicResult | None = field(default=None, repr=False)

    @property
    def at_least(self) -> bool:
        """The count stopped at its limit (or at the deadline): at least that many."""
        return self.status == "limit" or self.count >= self.count_limit

    @property
    def complete(self) -> bool:
        return not self.notes

    def verdicts(self, verdict: str) -> list[str]:
        return [e.label for e in self.elements if e.verdict == verdict]

    def to_dict(self) -> dict[str, Any]:
        g = self.puzzle.grid
        return {
            "status": self.status, "count": self.count, "count_limit": self.count_limit,
            "at_least": self.at_least,
            "solution": None if self.solution is None else _line(self.puzzle, self.solution),
            "conflict": self.conflict,
            "suggestions": [s.to_dict() for s in self.suggestions],
            "logic": self.logic, "break_in": self.break_in, "bottlenecks": self.bottlenecks,
            "bottlenecks_checked": self.bottlenecks_checked,
            "elements": [e.to_dict(g) for e in self.elements],
            "redundant": self.verdicts("redundant"), "decorative": self.verdicts("decorative"),
            "complete": self.complete, "notes": list(self.notes),
            "time_ms": round(self.time_ms, 1),
        }

    # -- text ----------------------------------------------------------------------------
    def text(self) -> str:
        """The report as plain text, a few lines per section."""
        p = self.puzzle
        g = p.grid
        n_giv = sum(e.kind == "given" for e in self.elements)
        title = str(p.meta.get("title") or p.name or (
            f"{g.n}x{g.n} puzzle" if g.square else
            f"{len(getattr(g, 'origins', ()))} grids of {g.n}x{g.n}"))
        out = [f"{title}: {len(self.elements)} elements ({len(self.elements) - n_giv} rule "
               f"elements, {n_giv} givens)"]
        if self.status == "unique":
            out.append("Solutions: unique")
        elif self.status == "unsolvable":
            out.append("Solutions: none" + (
                f"; these cannot hold together: {', '.join(self.conflict)}"
                if self.conflict else ""))
        else:
            out.append(f"Solutions: {'at least ' if self.at_least else ''}{self.count}")
        if self.suggestions:
            out.append("Clues that help most (solutions left):")
            for s in self.suggestions:
                left = f"{'>=' if s.at_least else ''}{s.count}"
                out.append(f"  {s.clue:<28} {left}{'  (unique)' if s.unique else ''}")
        lg = self.logic
        if lg:
            head = {"solved": f"solved in {lg['steps']} steps",
                    "stuck": f"stuck after {lg['steps']} steps with {lg['open']} cells open",
                    "limit": f"stopped by the time limit after {lg['steps']} steps",
                    "unsolvable": "contradiction"}.get(lg["status"], lg["status"])
            hardest = f", hardest idea {lg['hardest_title']}" if lg.get("hardest") else ""
            out.append(f"Logic: {head}, level {lg['level']} (score {lg['score']}){hardest}")
        if self.break_in:
            b = self.break_in
            out.append(f"Break-in (step {b['index'] + 1}): {b['step']['text']}")
            alts = b["alternatives"]
            if len(alts) > 1:
                cut = (f" (searches cut at {TECHNIQUE_SECONDS:g} s: "
                       f"{', '.join(x.replace('_', ' ') for x in b['cut'])})"
                       if b.get("cut") else "")
                out.append(f"  {len(alts)} steps available there, easiest first{cut}:")
                out.extend(f"    [{a['level']}] {a['text']}" for a in alts[:10])
                if len(alts) > 10:
                    out.append(f"    ... and {len(alts) - 10} more")
        elif lg and lg.get("status") == "solved":
            out.append("Break-in: none needed (singles and the plain reading of the rules "
                       "solve it)")
        if self.bottlenecks:
            out.append("Bottlenecks (only one step of the hardest level there):")
            out.extend(f"  step {b['index'] + 1}: {b['text']}" for b in self.bottlenecks)
        elif self.bottlenecks_checked:
            out.append(f"Bottlenecks: none (checked at {self.bottlenecks_checked} points that "
                       "needed the hardest level)")
        flagged = [e for e in self.elements if e.verdict in ("redundant", "decorative")]
        counts = Counter(e.verdict for e in self.elements)
        if self.status == "unique":
            out.append("Elements: " + ", ".join(f"{k} {counts[k]}" for k in (
                "needed", "redundant", "decorative", "unknown") if counts[k]))
        elif self.elements:
            out.append(f"Elements: {len(self.elements)} (whether each is needed is asked "
                       "only of a puzzle with one solution)")
        for e in flagged:
            extra = f"used {e.uses}x" if e.used else "never used"
            if e.logic_without:
                lw = e.logic_without
                extra += f"; logic without it: {lw['status']}" + (
                    f", {lw['level']}" if lw.get("level") else "")
                if lw.get("same_steps") is not None and self.result is not None:
                    n = len(self.result.steps)
                    extra += (", the same path" if lw["same_steps"] >= n else
                              f", the same path for {lw['same_steps']} of {n} steps")
            out.append(f"  {e.verdict:<10} {e.label} ({extra})")
        for note in self.notes:
            out.append(f"Note: {note}")
        return "\n".join(out)

    # -- HTML ----------------------------------------------------------------------------
    def svg(self) -> str:
        """The puzzle with the redundant (blue) and decorative (orange) elements marked:
        dashed outlines and a badge with the element's number in the report's table (rules
        over the whole grid, such as anti-knight, are listed but not outlined)."""
        p = self.puzzle
        marks = [render.CellMark(e.cells, FLAG_COLOURS[e.verdict], str(k))
                 for k, e in enumerate(self._flagged(), 1)
                 if e.cells and len(e.cells) <= p.grid.size // 2]
        return render.render_svg(p, title="", marks=marks)

    def _flagged(self) -> list[ElementReport]:
        return [e for e in self.elements if e.verdict in ("redundant", "decorative")]

    def html(self, explain_href: str | None = None) -> str:
        """A self-contained page: the marked picture, the verdicts and a table of every
        element; ``explain_href`` links the step-through page of the logic solve
        (``sudoku-csp explain``), written next to it by :meth:`write_html`."""
        p = self.puzzle
        esc = html.escape
        title = str(p.meta.get("title") or p.name or "Puzzle")
        lines = self.text().split("\n")
        flagged = {id(e): k for k, e in enumerate(self._flagged(), 1)}
        rows = []
        for e in self.elements:
            lw = e.logic_without
            lw_text = "" if not lw else esc(lw["status"] + (f", {lw['level']}"
                                                             if lw.get("level") else ""))
            badge = f"<b>{flagged[id(e)]}</b> " if id(e) in flagged else ""
            needed = {True: "yes", False: "no", None: "?"}[e.needed]
            rows.append(f"<tr class='v-{e.verdict}'><td>{badge}{esc(e.label)}</td>"
                        f"<td>{esc(e.kind)}</td><td>{needed}</td><td>{e.uses}</td>"
                        f"<td>{esc(e.verdict)}</td><td>{lw_text}</td></tr>")
        link = (f"<p><a href='{esc(explain_href)}'>Step through the logic solve</a></p>"
                if explain_href else "")
        summary = "".join(f"<p>{esc(x)}</p>" for x in lines[1:]
                          if not x.startswith(" "))
        return (
            "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{esc(title)}: setter's report</title><style>{_CSS}</style></head><body>"
            f"<h1>{esc(title)}: setter's report</h1>"
            f"<div class='wrap'><div class='board'>{self.svg()}</div>"
            f"<div class='side'>{summary}{link}"
            "<p class='legend'><span class='k redundant'></span> redundant (unique without "
            "it, used by the logic) <span class='k decorative'></span> decorative (unique "
            "without it, never used)</p></div></div>"
            f"<pre>{esc(self.text())}</pre>"
            "<table><thead><tr><th>element</th><th>kind</th><th>needed</th><th>uses</th>"
            "<th>verdict</th><th>logic without it</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></body></html>")

    def write_html(self, path: str | os.PathLike[str], explain: bool = True) -> str | None:
        """Write :meth:`html` to ``path`` (atomically: a failure leaves an existing file as it
        was) and, with ``explain`` (and a logic result), the
        step-through page next to it (``NAME.explain.html``), linked from the report;
        returns that page's path (None when none was written)."""
        path = os.fspath(path)
        href = None
        other = None
        if explain and self.result is not None:
            from ..explain import explain_html
            root, _ext = os.path.splitext(path)
            other = root + ".explain.html"
            write_atomic(other, explain_html(self.result, puzzle=self.puzzle))
            href = os.path.basename(other)
        write_atomic(path, self.html(href))
        return other


_CSS = ("body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}"
        ".wrap{display:flex;flex-wrap:wrap;gap:1.5em}.board svg{max-width:min(92vw,560px);"
        "height:auto}.side{max-width:40em}pre{background:#f6f6f6;padding:.8em;"
        "white-space:pre-wrap}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:.2em .5em;text-align:left}.v-redundant td{background:#e7f1fb}"
        ".v-decorative td{background:#fdeee6}.k{display:inline-block;width:1em;height:1em;"
        "border:2px dashed;vertical-align:middle}.k.redundant{border-color:#1c7ed6}"
        ".k.decorative{border-color:#d9480f}")


def _line(puzzle: Puzzle, values: Sequence[int]) -> str:
    n = puzzle.grid.n
    if n <= 9 and puzzle.grid.square:
        return write_line(values, n)
    return " ".join(map(str, values))


# -- the phases ------------------------------------------------------------------------------
def _step_info(step: Step, index: int | None = None) -> dict[str, Any]:
    """A step's JSON (:meth:`csp.step.Step.to_dict`) with its level and score, and its
    index in the solve path when it is one of the path's."""
    t = registry.load().get(step.technique)
    out = step.to_dict()
    out.update(level=t.level if t else None, score=t.score if t else None)
    if index is not None:
        out["index"] = index
    return out


def _level(step: Step) -> str:
    t = registry.load().get(step.technique)
    return t.level if t else EASY


def _effects(step: Step) -> frozenset:
    return frozenset(("p", c, d) for c, d in step.placements) | frozenset(
        ("e", c, d) for c, d in step.eliminations)


def _available(solver: StepSolver, state: State, keep: Callable[[Any], bool],
               deadline: float | None, per_technique: int = 40, enough: int | None = None,
               ) -> tuple[list[tuple[Any, Step]], list[str], bool]:
    """Every effective step, one per effect, of the techniques of ``solver``'s plan for
    ``state`` that ``keep`` accepts, at most ``per_technique`` of each technique:
    ``([(technique, step)], cut, complete)``. ``cut`` names the techniques whose search
    :data:`TECHNIQUE_SECONDS` cut short; complete is False when ``deadline`` stopped the
    listing. With ``enough``, the listing stops (complete) once that many are found."""
    run = solver.start(state, deadline=deadline)
    st = run.state
    an = run.analysis()
    found: list[tuple[Any, Step]] = []
    seen: set[frozenset] = set()
    cut: list[str] = []
    for t, finder, opts in run.plan():
        if not keep(t):
            continue
        now = time.perf_counter()
        if deadline is not None and now > deadline:
            return found, cut, False
        if t.requires_unique and not run.unique_ok():
            continue
        # one costly technique (a nested forcing net) must not take the whole phase
        tan = an.under(run.budget.narrowed(TECHNIQUE_SECONDS))
        k = 0
        try:
            for step in finder(tan, opts):
                if not is_effective(st, step):
                    continue
                eff = _effects(step)
                if eff in seen:
                    continue
                seen.add(eff)
                found.append((t, step))
                if enough is not None and len(found) >= enough:
                    return found, cut, True
                k += 1
                if k >= per_technique:
                    break
        except Contradiction:
            continue
        if tan.timed_out:
            if deadline is not None and time.perf_counter() > deadline:
                return found, cut, False
            cut.append(t.name)
    return found, cut, True


def _phase(deadline: float | None, seconds: float | None) -> float | None:
    """The deadline of a phase that may take ``seconds`` (None: no bound of its own),
    within the report's."""
    if seconds is None:
        return deadline
    end = time.perf_counter() + seconds
    return end if deadline is None else min(end, deadline)


def _rank(found: Iterable[tuple[Any, Step]]) -> list[tuple[Any, Step]]:
    from techniques.registry import LEVELS
    return sorted(found, key=lambda ts: (LEVELS.index(ts[0].level), ts[0].score,
                                         ts[0].order))


def report(puzzle: Puzzle, *, techniques: str | Iterable[str] = "default",
           count_limit: int = 1000, time_limit: float | None = 120.0,
           logic_limit: float | None = None, without_logic: bool = True,
           progress: Progress | None = None) -> Report:
    """The setter's report on ``puzzle`` (see the module docstring).

    ``techniques``: the logic solver's selection (as for ``solve --logic``); ``count_limit``:
    where counting solutions stops; ``time_limit``: seconds for the whole report (each phase
    runs against it; the logic solve gets at most ``logic_limit``, default half of it);
    ``without_logic``: solve again without each element the puzzle does not need;
    ``progress(phase, done, total)`` as each phase goes.

    >>> from variants import classic_puzzle
    >>> r = report(classic_puzzle("1234" + "34.." + "." * 8))
    >>> r.status, r.count, r.suggestions[0].clue, r.suggestions[0].unique
    ('multiple', 6, 'r3c3=1', True)
    """
    if not isinstance(count_limit, int) or count_limit < 1:
        raise InvalidArgument(f"count_limit must be a whole number of at least 1, got "
                              f"{quoted(count_limit)}")
    check_seconds("time_limit", time_limit)
    check_seconds("logic_limit", logic_limit)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    say = progress or (lambda phase, done, total: None)
    els = elements(puzzle)
    rep = Report(puzzle, "limit", 0, count_limit,
                 elements=[ElementReport(e.index, e.label, e.kind, e.cells, element=e)
                           for e in els])

    # 1. solutions, with one warm solver
    found: list[list[int]] = []
    try:
        sat = ElementSat(puzzle, els, deadline=deadline, time_limit=time_limit)
    except TimeLimitExceeded:           # the encoding of a big grid ran past the limit
        rep.notes.append("the time limit ran out while the puzzle was being encoded")
        rep.time_ms = (time.perf_counter() - t0) * 1000
        return rep
    unbounded = 0.0             # seconds of the phases EXTRA_SECONDS does not bound
    try:
        try:
            sat.solutions(limit=count_limit, found=found,
                          progress=lambda k: say("counting solutions", k, None))
            rep.count = len(found)
            rep.status = ("unsolvable" if not found else "unique" if len(found) == 1
                          else "multiple")
        except TimeLimitExceeded:
            rep.count = len(found)
            rep.notes.append(f"counting stopped by the time limit at {len(found)} solutions")
        unbounded = time.perf_counter() - t0
        undecided: list[int] = []
        budget = NECESSITY_FIRST
        if rep.status == "unique":
            rep.solution = found[0]
            # a bounded time at first: the logic verdict matters more than the last hard
            # necessity proof (the undecided ones get another go at the end)
            share = NECESSITY_SECONDS if time_limit is None else min(
                NECESSITY_SECONDS, time_limit / 3)
            undecided, budget = _necessity(rep, sat, found[0], list(range(len(els))),
                                           _phase(deadline, share), say)
        elif rep.status == "unsolvable":
            try:
                core = sat.core()
                rep.conflict = [els[i].label for i in core or ()]
            except TimeLimitExceeded:
                rep.notes.append("the conflicting elements were not found in time")
        if rep.status == "multiple" or (rep.status == "limit" and found):
            _suggest(rep, found, deadline, say)
        if rep.status != "unsolvable":
            _logic(rep, puzzle, els, techniques, time_limit, logic_limit, deadline, say)
        # the logic without each element the puzzle does not need (or may not: a logic
        # solve without it can prove that)
        if without_logic and rep.status == "unique" and rep.result is not None:
            _logic_without(rep, techniques, rep.result, deadline, say)
        undecided = [i for i in undecided if rep.elements[i].needed is None]
        if undecided:
            unbounded += rep.logic.get("time_ms", 0.0) / 1000
            spent = time.perf_counter() - t0 - unbounded
            undecided, _ = _necessity(rep, sat, found[0], undecided,
                                      _phase(deadline, max(0.0, min(
                                          FINAL_NECESSITY_SECONDS, EXTRA_SECONDS - spent))),
                                      say, budget)
            if undecided:
                rep.notes.append(f"necessity not decided in time for {len(undecided)} "
                                 "elements")
    finally:
        sat.close()
    rep.time_ms = (time.perf_counter() - t0) * 1000
    return rep


def _logic(rep: Report, puzzle: Puzzle, els: list[Element], techniques: Any,
           time_limit: float | None, logic_limit: float | None, deadline: float | None,
           say: Progress) -> None:
    """The logic solve, which elements its path uses, the break-in and the bottlenecks."""
    def left() -> float | None:
        return None if deadline is None else deadline - time.perf_counter()

    # 2. the logic solve
    solver = StepSolver(techniques, unique=True if rep.status == "unique" else None)
    budget = left()
    cap = logic_limit if logic_limit is not None else (
        None if time_limit is None else time_limit / 2)
    if budget is not None:
        cap = budget if cap is None else min(cap, budget)
    if rep.status != "unique":    # it cannot solve: only where it gets stuck is news
        cap = MULTIPLE_LOGIC_SECONDS if cap is None else min(cap, MULTIPLE_LOGIC_SECONDS)
    say("logic solve", 0, None)
    try:
        res = solver.solve(puzzle, time_limit=max(cap, 0.01) if cap is not None else None)
    except Contradiction as e:
        rep.notes.append(f"the logic solve hit a contradiction: {e}")
        return
    rep.result = res
    states = _states(puzzle, res.steps)
    hardest = registry.load().get(res.rating.hardest or "")
    open_cells = sum(1 for c in range(puzzle.grid.size) if not res.state.placed[c])
    rep.logic = {"status": str(res.status), "steps": len(res.steps),
                 "level": res.rating.level, "score": res.rating.score,
                 "hardest": res.rating.hardest,
                 "hardest_title": hardest.title if hardest else None,
                 "hardest_level": hardest.level if hardest else None,
                 "open": open_cells, "time_ms": round(res.time_ms, 1),
                 "stuck_at": None if res.status == "solved" else write_pencilmarks(res.state)}
    if res.status == "limit":
        rep.notes.append("the logic solve stopped at its time limit" + (
            "" if rep.status == "unique" else
            f" ({MULTIPLE_LOGIC_SECONDS:g} s for a puzzle without one solution)"))

    # 3. which elements the path uses
    say("reading the logic path", 0, None)
    for e, k in zip(rep.elements, uses(puzzle, els, res.steps, states)):
        e.uses = k

    # 4. the break-in and the bottlenecks
    _break_in(rep, solver, res.steps, states, deadline, say)
    _bottlenecks(rep, solver, res.steps, states, hardest, deadline, say)


def _states(puzzle: Puzzle, steps: Sequence[Step]) -> list[State]:
    from ..explain import states_before
    return list(states_before(puzzle.pencilmarks(), steps))


def _necessity(rep: Report, sat: ElementSat, solution: list[int], todo: list[int],
               end: float | None, say: Progress, budget: float = NECESSITY_FIRST
               ) -> tuple[list[int], float]:
    """For each element of ``todo``: does the puzzle without it have a second solution?
    In passes until ``end``: each question gets ``budget`` seconds at first and twice as
    long in each later pass, so that the quick answers (most are: a second solution is
    found at once) all come first and the hard proofs of uniqueness then get the time one
    by one. Returns the elements left undecided and the budget a next pass would give."""
    done = 0
    total = len(todo)
    while todo:
        undecided: list[int] = []
        for k, i in enumerate(todo):
            say("needed for uniqueness", done, total)
            now = time.perf_counter()
            if end is not None and now >= end:     # the untried ones first next time
                return todo[k:] + undecided, budget
            share = now + budget if end is None else min(end, now + budget)
            try:
                other = sat.solutions(off=[i], limit=1, differ=solution, deadline=share)
                rep.elements[i].needed = bool(other)
                done += 1
            except TimeLimitExceeded:
                undecided.append(i)
        todo = undecided
        budget *= 2
    say("needed for uniqueness", done, total)
    return todo, budget


def _suggest(rep: Report, found: list[list[int]], deadline: float | None,
             say: Progress) -> None:
    """The clues that cut the count most: a given r c=d leaves the solutions with d there;
    a mark between neighbours leaves those that satisfy it. Exact from the listed solutions
    when they are all of them; from the per-candidate counts of
    :func:`sudoku_csp.workbench.true_candidates` (capped) when counting stopped."""
    p = rep.puzzle
    g = p.grid
    complete = rep.status == "multiple" and len(found) < rep.count_limit
    say("clue suggestions", 0, None)
    givens: list[Suggestion] = []
    if complete:
        for c in range(g.size):
            if c in p.given:
                continue
            for d, k in sorted(Counter(s[c] for s in found).items()):
                if k < len(found):
                    givens.append(Suggestion(f"{g.name(c)}={digit_symbol(d)}", "given", k))
    else:
        left = None if deadline is None else max(0.01, deadline - time.perf_counter())
        cap = rep.count_limit
        tc = true_candidates(p, cap=cap, time_limit=left)
        for c, counts in enumerate(tc.counts):
            if c in p.given or len(counts) < 2:
                continue
            for d, k in sorted(counts.items()):
                if k:
                    givens.append(Suggestion(f"{g.name(c)}={digit_symbol(d)}", "given",
                                             k, at_least=k >= cap))
        if not tc.complete:
            rep.notes.append("clue suggestions come from incomplete per-candidate counts")
    givens.sort(key=lambda s: (s.count, s.clue))
    marks: list[Suggestion] = []
    if complete:
        marks = _mark_suggestions(p, found)
    used = {e.kind for e in rep.elements}
    marks.sort(key=lambda s: (s.count, s.kind not in used, s.clue))
    rep.suggestions = givens[:SUGGESTIONS] + marks[:SUGGESTIONS]


def _mark_suggestions(p: Puzzle, found: list[list[int]]) -> list[Suggestion]:
    """Each simple mark between two orthogonal neighbours, and how many of the solutions
    keep it (the mark's own rule checked on each pair of digits the solutions put there)."""
    g = p.grid
    out = []
    makers = _marks()
    for a in range(g.size):
        for b in g.orthogonal(a):
            if b < a:
                continue
            pairs = Counter((s[a], s[b]) for s in found)
            for kind, make in makers:
                for x, y in ((a, b), (b, a)) if kind == "less than" else ((a, b),):
                    rule = make(g.name(x), g.name(y))
                    try:
                        cons = Puzzle(g).use(rule).constraints
                    except SudokuCSPError:        # an X on a 4x4 grid
                        continue
                    k = sum(m for (va, vb), m in pairs.items()
                            if all(con.check(*({a: va, b: vb}[c] for c in con.cells))
                                   for con in cons))
                    if 0 < k < len(found):
                        label = cons[0].name if len(cons) == 1 and cons[0].name else (
                            f"{kind} {g.name(x)}-{g.name(y)}")
                        out.append(Suggestion(label, kind, k, rule=rule))
    return out


def _break_in(rep: Report, solver: StepSolver, steps: Sequence[Step],
              states: Sequence[State], deadline: float | None, say: Progress) -> None:
    first = next((i for i, s in enumerate(steps) if _level(s) != EASY), None)
    if first is None:
        return
    say("break-in", 0, None)
    found, cut, complete = _available(solver, states[first], lambda t: True,
                                      _phase(deadline, BREAK_IN_SECONDS))
    run = [_step_info(s, i) for i, s in enumerate(steps[first:first + 6], first)]
    nxt = next((k for k, s in enumerate(run) if s["level"] == EASY), len(run))
    # a step's text is worked out when first asked, and some (an arrangement's "why")
    # take seconds: the report's deadline bounds them too, between the steps and, for a
    # detail that takes one (its ``deadline``), within its search
    alternatives = []
    for _t, s in _rank(found):
        if deadline is not None and time.perf_counter() > deadline:
            complete = False
            break
        detail = s.extra.get("detail")
        if deadline is not None and hasattr(detail, "deadline"):
            detail.deadline = deadline
        alternatives.append(_step_info(s))
    rep.break_in = {"index": first, "step": _step_info(steps[first], first),
                    "steps": run[:max(1, nxt)], "alternatives": alternatives,
                    "cut": cut, "complete": complete}
    if not complete:
        rep.notes.append("the steps available at the break-in were not all listed in time")


def _bottlenecks(rep: Report, solver: StepSolver, steps: Sequence[Step],
                 states: Sequence[State], hardest: Any, deadline: float | None,
                 say: Progress) -> None:
    """The states where the path needed a step of the hardest level (easier ones having
    none, as the solver tries them first) and only one such deduction was there."""
    if hardest is None or hardest.level == EASY:
        return
    level = hardest.level
    at = [i for i, s in enumerate(steps) if _level(s) == level]
    budget = _phase(deadline, BOTTLENECK_SECONDS)
    assert budget is not None
    checked = 0
    for k, i in enumerate(at):
        say("bottlenecks", k, len(at))
        if time.perf_counter() > budget:
            break
        found, cut, complete = _available(solver, states[i], lambda t: t.level == level,
                                          budget, enough=2)
        if len(found) <= 1 and (cut or not complete):
            break                  # a search was cut short: cannot tell
        checked += 1
        if len(found) == 1:
            rep.bottlenecks.append(_step_info(steps[i], i))
    say("bottlenecks", checked, len(at))
    rep.bottlenecks_checked = checked
    if checked < len(at):
        rep.notes.append(f"bottlenecks checked at {checked} of the {len(at)} "
                         f"{level} steps (time limit)")


def _logic_without(rep: Report, techniques: Any, res: LogicResult,
                   deadline: float | None, say: Progress) -> None:
    """Solve again without each element the puzzle does not need (decorative ones first),
    replaying the original path while it holds. An element whose necessity the SAT
    questions left undecided is tried too, with no technique that assumes a unique
    solution: a logic solve that places every digit then proves the puzzle unique without
    it, so it is not needed."""
    todo = sorted((e for e in rep.elements if e.needed is not True),
                  key=lambda e: (e.needed is None, e.uses, e.index))
    end = _phase(deadline, WITHOUT_SECONDS)
    assert end is not None
    proved = 0
    for k, e in enumerate(todo):
        say("logic without each redundant element", k, len(todo))
        left = end - time.perf_counter()
        if left <= 0.05:
            rep.notes.append(f"the logic without each redundant element was tried for "
                             f"{k} of {len(todo)}")
            break
        assert e.element is not None
        q = without(rep.puzzle, [e.element])
        cap = min(left, max(1.0, 2 * res.time_ms / 1000))   # twice the full solve's
        replay = _Replay(res.steps)
        # unique=False: no uniqueness technique, when that is the question
        solver = StepSolver(techniques, unique=False if e.needed is None else True)
        run = solver.start(q, time_limit=cap, strategy=replay)
        try:
            for _ in run:
                pass
        except SudokuCSPError as err:        # pragma: no cover - a bad rule set
            e.logic_without = {"status": "error", "level": None, "reason": str(err)}
            continue
        rating = rate_steps(run.steps, by_idea=rated_by_idea(q))
        e.logic_without = {"status": str(run.status), "level": rating.level,
                           "steps": len(run.steps), "hardest": rating.hardest,
                           "same_steps": replay.kept}
        if e.needed is None and run.status == "solved":
            e.needed = False
            proved += 1
    say("logic without each redundant element", len(todo), len(todo))
    rep.proved_by_logic = proved


class _Replay:
    """A strategy for the logic solve without an element: the original path's steps as
    long as each is found again by its own technique where it stands (so the solve only
    searches from where the element made a difference), then the human loop's own
    choice (:func:`techniques.loop.first_step`). ``kept`` counts the steps replayed."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = list(steps)
        self.kept = 0
        self.replaying = True
        self.plan: dict[str, tuple[Any, dict]] | None = None

    def __call__(self, run: Any, an: Any) -> Step | None:
        if self.replaying and self.kept < len(self.steps):
            if self.plan is None:
                self.plan = {t.name: (f, o) for t, f, o in run.plan()}
            step = self.steps[self.kept]
            st = run.state
            want = {x for x in step.placements if not st.placed[x.cell]} | {
                x for x in step.eliminations if st.cand[x.cell] >> x.digit & 1}
            found = self.plan.get(step.technique)
            if want and found is not None and any(
                    want <= set(s.placements) | set(s.eliminations)
                    for s in found[0](an, found[1])):
                self.kept += 1
                return step
            self.replaying = False
        return first_step(run, an)
