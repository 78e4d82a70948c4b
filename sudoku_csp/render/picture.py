"""Whole pictures (:mod:`sudoku_csp.render`): :func:`canvas` (the grid with its rules, no
digits: the base a step-through page draws on) and :func:`render_svg` (a puzzle, a state
with its pencil marks, or a step on the state before it, with marked cells)."""
from __future__ import annotations

from typing import NamedTuple, Sequence

from csp.grid import Grid
from csp.model import Puzzle
from csp.state import State
from csp.step import Step, digit_symbol

from .palette import CAND, INK, PLACED
from .rules import draw_rules, has_outside_clues
from .steps import draw_step, step_candidates
from .svg_canvas import Canvas, cell_size_for, draw_grid, element, number

def draw_digits(cv: Canvas, puzzle: Puzzle | None, state: State | None, step: Step | None,
                 candidates: bool) -> None:
    g, S = cv.grid, cv.S
    size = g.size
    placed = [0] * size
    given = [False] * size
    cand = [0] * size
    if state is not None:
        placed = list(state.placed)
        given = list(state.given)
        if candidates:
            cand = [0 if state.placed[c] else state.cand[c] for c in range(size)]
    elif puzzle is not None:
        for c, d in puzzle.given.items():
            placed[c], given[c] = d, True
    if step is not None:
        for cd in step_candidates(step):
            if 0 <= cd.cell < size and not placed[cd.cell] and 1 <= cd.digit <= g.n:
                cand[cd.cell] |= 1 << cd.digit
    fs = S * 0.62
    cfs = cv.cand_font()
    for c in range(size):
        x, y = cv.centre(c)
        if placed[c]:
            cv.text("digits", x, y, digit_symbol(placed[c]), fs,
                    "given" if given[c] else "placed", fill=INK if given[c] else PLACED)
            continue
        m = cand[c]
        for d in range(1, g.n + 1):
            if m >> d & 1:
                cx, cy = cv.cand_xy(c, d)
                cv.text("digits", cx, cy, digit_symbol(d), cfs, "cand", fill=CAND)


def _grid_of(puzzle: Puzzle | None, state: State | None, step: Step | None) -> Grid:
    if state is not None:
        return state.grid
    if puzzle is not None:
        return puzzle.grid
    assert step is not None
    return step.width if isinstance(step.width, Grid) else Grid(step.width)


def canvas(puzzle: Puzzle | None = None, grid: Grid | None = None, *, title: str | None = None,
           cell_size: float | None = None) -> Canvas:
    """A canvas with the puzzle's grid and rules drawn (no digits): the base picture a
    step-through page draws digits and step overlays on."""
    if grid is None:
        assert puzzle is not None
        grid = puzzle.grid
    if title is None:
        title = ""
        if puzzle is not None:
            title = str(puzzle.meta.get("title") or puzzle.name or "")
    cv = Canvas(grid, cell_size or cell_size_for(grid.n), has_outside_clues(puzzle), title)
    if puzzle is not None:
        draw_rules(cv, puzzle)
    draw_grid(cv)
    return cv


class CellMark(NamedTuple):
    """Cells to mark on a picture (:func:`render_svg`'s ``marks``): a dashed outline of
    ``colour`` round each cell and, with a ``label``, a badge holding it on the first."""

    cells: tuple[int, ...]
    colour: str
    label: str = ""


def _draw_marks(cv: Canvas, marks: Sequence[CellMark]) -> None:
    S, size = cv.S, cv.grid.size
    for m in marks:
        cells = [c for c in m.cells if 0 <= c < size]
        for c in cells:
            r, col = cv.rc(c)
            element(cv.layer["overlay"], "rect", class_="mark", x=cv.x(col) + S * 0.06,
                y=cv.y(r) + S * 0.06, width=S * 0.88, height=S * 0.88, fill="none",
                stroke=m.colour, stroke_width=S * 0.05,
                stroke_dasharray=f"{number(S * 0.12)},{number(S * 0.08)}")
        if cells and m.label:
            r, col = cv.rc(cells[0])
            x, y = cv.x(col) + S * 0.8, cv.y(r) + S * 0.2
            element(cv.layer["overlay"], "circle", class_="mark-badge", cx=x, cy=y, r=S * 0.17,
                fill=m.colour)
            cv.text("overlay", x, y, m.label, S * 0.2, "mark-label", fill="#ffffff",
                    bold=True)


def render_svg(obj: Puzzle | State | Step | None = None, *, puzzle: Puzzle | None = None,
               state: State | None = None, step: Step | None = None,
               candidates: bool | None = None, title: str | None = None,
               cell_size: float | None = None, explain: bool = True,
               notes: Sequence[str] = (), marks: Sequence[CellMark] = ()) -> str:
    """SVG text of a puzzle, a state or a step.

    ``obj`` is a Puzzle, State or Step (or give ``puzzle=``, ``state=``, ``step=``). A step is
    drawn on ``state`` (the state before it) when given, else on an empty grid showing only
    the step's candidates. ``candidates`` (default: on when there is a state) draws the
    pencil marks; ``title`` (default: the puzzle's title) goes above the grid; ``explain``
    writes the step's explanation under it, ``notes`` more lines after it. ``marks``
    outlines cells (:class:`CellMark`: the setter's report marks redundant rules so).
    ``cell_size`` (SVG units) defaults to :func:`cell_size_for` the grid size.

    >>> from variants import classic_puzzle
    >>> p = classic_puzzle("1...............")
    >>> st = p.propagate()
    >>> svg = render_svg(st)
    >>> svg.startswith("<svg"), svg.count('class="cand"') == st.count() - 1
    (True, True)
    """
    if isinstance(obj, Step):
        step = obj
    elif isinstance(obj, State):
        state = obj
    elif isinstance(obj, Puzzle):
        puzzle = obj
    elif obj is not None:
        raise TypeError(f"cannot render {type(obj).__name__}: give a Puzzle, State or Step")
    if puzzle is None and state is not None:
        puzzle = state.puzzle
    if state is None and puzzle is None and step is None:
        raise TypeError("render_svg needs a Puzzle, a State or a Step")
    if candidates is None:
        candidates = state is not None
    cv = canvas(puzzle, _grid_of(puzzle, state, step), title=title, cell_size=cell_size)
    if step is not None and explain:
        cv.notes.append(step.explain(2))
    cv.notes.extend(notes)
    if candidates or step is not None:
        cv.under_candidates()
    draw_digits(cv, puzzle, state, step, candidates)
    if step is not None:
        placed = state.placed if state is not None else [0] * cv.grid.size
        draw_step(cv, step, puzzle, placed)
    _draw_marks(cv, marks)
    return cv.svg()
