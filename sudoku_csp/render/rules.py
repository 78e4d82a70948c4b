"""The drawings of the rules (:mod:`sudoku_csp.render`): :func:`draw_rule` dispatches on the
type of a rule bundle, registered from the rule records (:data:`DRAWERS`: one generic drawer
per drawing style of :data:`variants.record.DRAWING_STYLES`, then the bespoke drawers
records name); constraints added without a bundle go through :func:`draw_constraint`.
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable, Iterable, Sequence

from csp.constraints import AllDifferent, Constraint, Relation, RelationKind, Sum
from csp.errors import SudokuCSPError
from csp.grid import Grid
from csp.model import Puzzle
from csp.step import digit_symbol
from variants.record import Drawing, find_record, records, rule_classes

from .palette import GENERIC, INK
from .svg_canvas import Canvas, cage_outline, element, number

#: rules whose clues sit outside the grid (the picture gets a margin for them): their
#: records say so
OUTSIDE_RULES: tuple[type, ...] = tuple(rule_classes()[name] for name, r in records().items()
                                        if r.outside)


def _cells(grid: Grid, refs: Iterable[Any]) -> list[int]:
    return list(grid.cells(list(refs)))


def rule_name(rule: Any) -> str:
    """A readable name of a rule bundle (``killer cage``) or constraint (its ``name``)."""
    if isinstance(rule, Constraint):
        return rule.name or type(rule).__name__
    if isinstance(rule, type(rule_name)):      # a plain function used as a bundle
        return rule.__name__.replace("_", " ")
    return type(rule).__name__.replace("_", " ")


# -- rule drawers -------------------------------------------------------------------------
@functools.singledispatch
def draw_rule(rule: Any, cv: Canvas, cons: list) -> None:
    """Draw one rule bundle (dispatched on its type; ``cons`` are the constraints it added).
    A rule with no drawer of its own has its constraints drawn one by one, unknown ones as
    generic markers named after the rule."""
    label = rule_name(rule)
    for con in cons:
        draw_constraint(con, cv, label)


def has_drawer(cls: type) -> bool:
    """Whether rule bundles of class ``cls`` have a drawer of their own."""
    return draw_rule.dispatch(cls) is not draw_rule.dispatch(object)


def _draw_cage(cv: Canvas, cells: Sequence[int], total: Any, class_: str = "cage") -> None:
    S = cv.S
    inset = S * 0.08
    cv.cand_inset = max(cv.cand_inset, S * 0.1)
    element(cv.layer["cages"], "path", class_=class_, d=cage_outline(cv, cells, inset), fill="none",
        stroke=INK, stroke_width=max(0.8, S * 0.02), stroke_dasharray=f"{number(S * 0.08)},"
        f"{number(S * 0.06)}")
    if total is not None:
        first = min(cells, key=cv.rc)
        cv.total_cells.add(first)
        r, c = cv.rc(first)
        fs = S * 0.2
        label = str(total)
        x, y = cv.x(c) + inset * 0.5, cv.y(r) + inset * 0.5
        element(cv.layer["cages"], "rect", class_="cage-total-bg", x=x, y=y,
            width=fs * 0.62 * len(label) + fs * 0.2, height=fs * 1.1, fill="#ffffff")
        element(cv.layer["cages"], "text", label, class_="cage-total", x=x + fs * 0.1,
            y=y + fs * 0.9, font_size=fs, fill=INK)


def _generic(cv: Canvas, cells: Sequence[int], label: str) -> None:
    """A rule the picture has no symbol for: a dotted outline of its cells and a numbered
    badge; the number and ``label`` go into the legend under the grid."""
    if not cells:
        return
    S = cv.S
    i = cv.legend_index(label)
    element(cv.layer["cages"], "path", class_="rule-generic", d=cage_outline(cv, cells, S * 0.14),
        fill="none", stroke=GENERIC, stroke_width=max(0.8, S * 0.025),
        stroke_dasharray=f"{number(S * 0.03)},{number(S * 0.05)}", stroke_linecap="round")
    first = min(cells, key=cv.rc)
    cv.total_cells.add(first)                 # candidates move down, clear of the badge
    r, c = cv.rc(first)
    x, y = cv.x(c + 1) - S * 0.15, cv.y(r) + S * 0.13
    g = element(cv.layer["marks"], "g", class_="rule-badge")
    element(g, "circle", cx=x, cy=y, r=S * 0.1, fill=GENERIC)
    element(g, "text", str(i), x=x, y=y + S * 0.05, font_size=S * 0.14, text_anchor="middle",
        fill="#ffffff", font_weight="bold")
    g.set("data-rule", label)


def _arrowhead(cv: Canvas, layer: str, tip: tuple[float, float], frm: tuple[float, float],
               colour: str, width: float, size: float, class_: str) -> None:
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    ln = math.hypot(dx, dy) or 1.0
    ux, uy = dx / ln, dy / ln
    pts = []
    for sgn in (1, -1):
        ang = math.radians(35) * sgn
        bx = -(ux * math.cos(ang) - uy * math.sin(ang)) * size
        by = -(ux * math.sin(ang) + uy * math.cos(ang)) * size
        pts.append((tip[0] + bx, tip[1] + by))
    cv.polyline(layer, [pts[0], tip, pts[1]], colour, width, class_)


def _little_killer_clue(cv: Canvas, cells: list[int]) -> tuple[int, int, int, int]:
    """Outside position (row, col, dr, dc): the clue and the direction it points in."""
    r0, c0 = cv.rc(cells[0])
    if len(cells) >= 2:
        r1, c1 = cv.rc(cells[1])
        dr, dc = r1 - r0, c1 - c0
        return r0 - dr, c0 - dc, dr, dc
    # a one-cell diagonal is a corner: put the clue above or below it, pointing inwards
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = r0 - dr, c0 - dc
        if not cv.has(r, c) and not cv.has(r0 + dr, c0 + dc) and r in (-1, cv.rows):
            return r, c, dr, dc
    return r0 - 1, c0 - 1, 1, 1


def _little_killer(b: Any, cv: Canvas, cons: list) -> None:
    cells = _cells(cv.grid, b.cells)
    r, c, dr, dc = _little_killer_clue(cv, cells)
    x, y = cv.centre_rc(r, c)
    S = cv.S
    cv.text("outside", x - dc * S * 0.08, y - dr * S * 0.08, str(b.total), S * 0.32,
            "little-killer")
    a = (x + dc * S * 0.2, y + dr * S * 0.2)
    t = (x + dc * S * 0.42, y + dr * S * 0.42)
    cv.polyline("outside", [a, t], INK, S * 0.025, "little-killer-arrow")
    _arrowhead(cv, "outside", t, a, INK, S * 0.025, S * 0.09, "little-killer-arrow")


def _outside_clue(b: Any, cv: Canvas, cons: list) -> None:
    r, c = b.row - 1, b.col - 1
    x, y = cv.centre_rc(r, c)
    kind = type(b).__name__
    label = _drawing(b).label
    text = label(b) if label is not None else str(b.value)
    cv.text("outside", x, y, text, cv.S * 0.4, f"outside {kind.replace('_', '-')}")


def _thermo_line(cv: Canvas, b: Any, slow: bool) -> None:
    cells = _cells(cv.grid, b.cells)
    if not cells:
        return
    S = cv.S
    colour = "#c8c8c8" if not slow else "#a9c8e8"
    pts = [cv.centre(c) for c in cells]
    x, y = pts[0]
    element(cv.layer["lines"], "circle", class_="thermo-bulb", cx=x, cy=y, r=S * 0.36, fill=colour)
    if len(pts) > 1:
        cv.polyline("lines", pts, colour, S * 0.24, "thermo")
        if slow:
            cv.polyline("lines", pts, "#ffffff", S * 0.05, "slow-thermo",
                        dash=f"{number(S * 0.12)},{number(S * 0.12)}")


def _thermo(b: Any, cv: Canvas, cons: list) -> None:
    _thermo_line(cv, b, slow=False)


def _slow_thermo(b: Any, cv: Canvas, cons: list) -> None:
    _thermo_line(cv, b, slow=True)


def _arrow(b: Any, cv: Canvas, cons: list) -> None:
    g, S = cv.grid, cv.S
    circ = _cells(g, b.circle)
    shaft = _cells(g, b.shaft)
    if not circ or not shaft:
        return
    colour, w, rad = "#9a9a9a", S * 0.045, S * 0.38
    if len(circ) == 1:
        x, y = cv.centre(circ[0])
        element(cv.layer["lines"], "circle", class_="arrow-circle", cx=x, cy=y, r=rad,
            fill="#ffffff", stroke=colour, stroke_width=w)
    else:
        rows = [cv.rc(c)[0] for c in circ]
        cols = [cv.rc(c)[1] for c in circ]
        x0, y0 = cv.x(min(cols)) + S / 2 - rad, cv.y(min(rows)) + S / 2 - rad
        x1, y1 = cv.x(max(cols)) + S / 2 + rad, cv.y(max(rows)) + S / 2 + rad
        element(cv.layer["lines"], "rect", class_="arrow-circle", x=x0, y=y0, width=x1 - x0,
            height=y1 - y0, rx=rad, ry=rad, fill="#ffffff", stroke=colour, stroke_width=w)
    first = shaft[0]
    near = min(circ, key=lambda c: math.dist(cv.centre(c), cv.centre(first)))
    (cx, cy), (fx, fy) = cv.centre(near), cv.centre(first)
    ln = math.hypot(fx - cx, fy - cy) or 1.0
    start = (cx + (fx - cx) / ln * rad, cy + (fy - cy) / ln * rad)
    pts = [start] + [cv.centre(c) for c in shaft]
    (px, py), (ex, ey) = pts[-2], pts[-1]
    seg = math.hypot(ex - px, ey - py)
    if seg > S * 0.5:                      # stop short of the centre digit
        pts[-1] = (ex - (ex - px) / seg * S * 0.12, ey - (ey - py) / seg * S * 0.12)
    cv.polyline("lines", pts, colour, w, "arrow-shaft")
    _arrowhead(cv, "lines", pts[-1], pts[-2], colour, w, S * 0.22, "arrow-head")


def _line(b: Any, cv: Canvas, cons: list) -> None:
    """A line rule (whispers, renban, ... and the double arrow) in its record's colour,
    width and end markers."""
    kind = type(b)
    cells = _cells(cv.grid, b.cells)
    if not cells:
        return
    S = cv.S
    style = _drawing(b)
    colour = style.colour
    pts = [cv.centre(c) for c in cells]
    if len(pts) > 1:
        cv.polyline("lines", pts, colour, S * style.width,
                    f"line {kind.__name__.replace('_', '-')}")
    if style.ends == "circles":
        for end in (pts[0], pts[-1]):
            element(cv.layer["lines"], "circle", class_="line-end", cx=end[0], cy=end[1],
                r=S * 0.38, fill="#ffffff", stroke="#9a9a9a", stroke_width=S * 0.045)
    elif style.ends == "diamonds":
        for (x, y) in (pts[0], pts[-1]):
            h = S * 0.4
            element(cv.layer["lines"], "polygon", class_="line-end",
                points=f"{number(x)},{number(y - h)} {number(x + h)},{number(y)} "
                       f"{number(x)},{number(y + h)} {number(x - h)},{number(y)}",
                fill="#ffffff", stroke=colour, stroke_width=S * 0.05)


def _dot(cv: Canvas, a: int, b: int, black: bool, label: str | None, class_: str) -> None:
    if not cv.adjacent(a, b):
        return
    x, y = cv.edge_mid(a, b)
    S = cv.S
    element(cv.layer["marks"], "circle", class_=class_, cx=x, cy=y, r=S * 0.1,
        fill=INK if black else "#ffffff", stroke=INK, stroke_width=S * 0.025)
    if label:
        cv.text("marks", x, y, label, S * 0.13, class_ + "-label",
                fill="#ffffff" if black else INK)


def _white_dot(b: Any, cv: Canvas, cons: list) -> None:
    g = cv.grid
    _dot(cv, g.cell(b.a), g.cell(b.b), False, None if b.diff == 1 else str(b.diff), "white-dot")


def _black_dot(b: Any, cv: Canvas, cons: list) -> None:
    g = cv.grid
    _dot(cv, g.cell(b.a), g.cell(b.b), True, None if b.ratio == 2 else str(b.ratio), "black-dot")


def _sum_mark(cv: Canvas, a: int, b: int, total: int) -> None:
    if not cv.adjacent(a, b):
        return
    x, y = cv.edge_mid(a, b)
    S = cv.S
    label = {10: "X", 5: "V"}.get(total)
    if label:
        element(cv.layer["marks"], "rect", class_="xv-bg", x=x - S * 0.11, y=y - S * 0.13,
            width=S * 0.22, height=S * 0.26, fill="#ffffff")
        cv.text("marks", x, y, label, S * 0.3, "xv", bold=True)
    else:
        element(cv.layer["marks"], "circle", class_="sum-dot", cx=x, cy=y, r=S * 0.13,
            fill="#ffffff", stroke=INK, stroke_width=S * 0.02)
        cv.text("marks", x, y, str(total), S * 0.15, "sum-dot-label")


def _sum_dot(b: Any, cv: Canvas, cons: list) -> None:
    g = cv.grid
    _sum_mark(cv, g.cell(b.a), g.cell(b.b), b.total)


def _inequality(cv: Canvas, small: int, big: int, class_: str = "inequality") -> None:
    if not cv.adjacent(small, big):
        return
    (xs, ys), (xb, yb) = cv.centre(small), cv.centre(big)
    x, y = (xs + xb) / 2, (ys + yb) / 2
    S = cv.S
    ux, uy = (xs - xb) / S, (ys - yb) / S          # towards the smaller cell
    px, py = -uy, ux
    tip = (x + ux * S * 0.07, y + uy * S * 0.07)
    arms = [(x - ux * S * 0.07 + px * S * 0.12 * s, y - uy * S * 0.07 + py * S * 0.12 * s)
            for s in (1, -1)]
    element(cv.layer["marks"], "polyline", class_=class_,
        points=" ".join(f"{number(a)},{number(b)}" for a, b in (arms[0], tip, arms[1])),
        fill="none", stroke=INK, stroke_width=S * 0.04, stroke_linecap="round",
        stroke_linejoin="round")


def _less_than(b: Any, cv: Canvas, cons: list) -> None:
    g = cv.grid
    _inequality(cv, g.cell(b.a), g.cell(b.b))


def _shade(b: Any, cv: Canvas, cons: list) -> None:
    """Cells shaded in the record's colour (and its note under the grid, if any)."""
    style = _drawing(b)
    for c in _cells(cv.grid, b.cells):
        cv.cell_rect("shade", c, style.colour, style.css)
    if style.label is not None:
        cv.rule_note(style.label(b))


def _odd(b: Any, cv: Canvas, cons: list) -> None:
    for c in _cells(cv.grid, b.cells):
        x, y = cv.centre(c)
        element(cv.layer["shade"], "circle", class_="odd", cx=x, cy=y, r=cv.S * 0.36,
            fill="#dcdcdc")


def _circles(b: Any, cv: Canvas, cons: list) -> None:
    """Counting circles: a ring in each cell, and the rule in the note under the grid."""
    for c in _cells(cv.grid, b.cells):
        x, y = cv.centre(c)
        element(cv.layer["shade"], "circle", class_="counting-circle", cx=x, cy=y,
            r=cv.S * 0.4, fill="none", stroke="#8a8a8a", stroke_width=cv.S * 0.045)
    cv.rule_note("counting circles: a digit in a circle is in that many circles")


def _even(b: Any, cv: Canvas, cons: list) -> None:
    for c in _cells(cv.grid, b.cells):
        cv.cell_rect("shade", c, "#dcdcdc", "even", inset=cv.S * 0.15)


def _digits(b: Any, cv: Canvas, cons: list) -> None:
    """The allowed digits, small along the bottom of the cell (f-puzzles' given marks)."""
    c = cv.grid.cell(b.cell)
    r, col = cv.rc(c)
    S = cv.S
    cv.text("marks", cv.x(col + 0.5), cv.y(r + 1) - S * 0.12,
            "".join(digit_symbol(d) for d in sorted(b.allowed)), S * 0.15, "allowed-digits",
            fill="#7a7a7a")


def _diagonal(b: Any, cv: Canvas, cons: list) -> None:
    _diagonal_lines(cv, b.main, b.anti)


def _diagonal_lines(cv: Canvas, main: bool, anti: bool) -> None:
    S = cv.S
    h, w = cv.rows, cv.cols
    for on, (x0, y0, x1, y1) in ((main, (0, 0, w, h)), (anti, (w, 0, 0, h))):
        if on:
            element(cv.layer["lines"], "line", class_="diagonal", x1=cv.x(x0), y1=cv.y(y0),
                x2=cv.x(x1), y2=cv.y(y1), stroke="#7f7f7f", stroke_width=S * 0.03)


def _windoku(b: Any, cv: Canvas, cons: list) -> None:
    for con in cons:
        for c in con.cells:
            cv.cell_rect("shade", c, "#d6e9ff", "window")


def _clone(b: Any, cv: Canvas, cons: list) -> None:
    for c in _cells(cv.grid, list(b.cells) + list(b.clone_cells)):
        cv.cell_rect("shade", c, "#ffdcae", "clone")


def _indexer(b: Any, cv: Canvas, cons: list) -> None:
    colour = {"row": "#ffc9c9", "column": "#c9f0c9", "box": "#c9d9ff"}.get(b.kind, "#e0e0e0")
    cv.cell_rect("shade", cv.grid.cell(b.cell), colour, f"indexer {b.kind}")


def _quadruple(b: Any, cv: Canvas, cons: list) -> None:
    cells = _cells(cv.grid, b.cells)
    if not cells:
        return
    rows = [cv.rc(c)[0] for c in cells]
    cols = [cv.rc(c)[1] for c in cells]
    S = cv.S
    x, y = cv.x((min(cols) + max(cols) + 1) / 2), cv.y((min(rows) + max(rows) + 1) / 2)
    element(cv.layer["marks"], "circle", class_="quadruple", cx=x, cy=y, r=S * 0.23,
        fill="#ffffff", stroke=INK, stroke_width=S * 0.02)
    vals = [str(v) for v in b.values]
    fs = S * 0.15
    if len(vals) <= 2:
        cv.text("marks", x, y, " ".join(vals), fs * (1.2 if len(vals) == 1 else 1.0),
                "quadruple-digits")
    else:
        cv.text("marks", x, y - fs * 0.55, " ".join(vals[:2]), fs, "quadruple-digits")
        cv.text("marks", x, y + fs * 0.55, " ".join(vals[2:4]), fs, "quadruple-digits")


def _nothing(b: Any, cv: Canvas, cons: list) -> None:
    """Rows, columns and boxes: the grid itself shows them."""


def _note(b: Any, cv: Canvas, cons: list) -> None:
    """A rule of the whole grid, named in the note under it (no symbol in the cells)."""
    cv.rule_note(_drawing(b).label(b))


def _cage(b: Any, cv: Canvas, cons: list) -> None:
    """A killer-style cage with the record's label (its total) in the corner."""
    _draw_cage(cv, _cells(cv.grid, b.cells), _drawing(b).label(b))


def _drawing(b: Any) -> Drawing:
    return find_record(type(b)).drawing


#: the drawers of the generic styles a rule record may name (variants.record.DRAWING_STYLES),
#: then the bespoke drawers records name
DRAWERS: dict[str, Callable[[Any, Canvas, list], None]] = {
    "line": _line, "cage": _cage, "shade": _shade, "note": _note, "outside": _outside_clue,
    "nothing": _nothing,
    "thermo": _thermo, "slow-thermo": _slow_thermo, "arrow": _arrow,
    "little-killer": _little_killer, "white-dot": _white_dot, "black-dot": _black_dot,
    "sum-dot": _sum_dot, "inequality": _less_than, "odd": _odd, "even": _even,
    "digits": _digits, "diagonal": _diagonal, "windoku": _windoku, "clone": _clone,
    "indexer": _indexer, "quadruple": _quadruple, "circles": _circles,
}
for _name, _record in records().items():
    draw_rule.register(rule_classes()[_name], DRAWERS[_record.drawing.style])


# -- constraints added without a bundle ----------------------------------------------------------
@functools.singledispatch
def draw_constraint(con: Any, cv: Canvas, label: str = "") -> None:
    """Draw one constraint added directly (or by a rule without a drawer), dispatched on its
    type; a kind the picture has no symbol for -- a rule made from a Python predicate -- is
    a generic marker named ``label`` (default: the constraint's name)."""
    cells = [c for c in getattr(con, "cells", ()) if isinstance(c, int)]
    _generic(cv, cells, label or rule_name(con))


@draw_constraint.register
def _relation(con: Relation, cv: Canvas, label: str = "") -> None:
    rel, d = con.relation, con.param
    if rel is RelationKind.LT:
        _inequality(cv, con.a, con.b)
    elif rel is RelationKind.LE:
        _inequality(cv, con.a, con.b, "inequality weak")
    elif rel is RelationKind.ABS_DIFF:
        _dot(cv, con.a, con.b, False, None if d == 1 else str(d), "white-dot")
    elif rel is RelationKind.RATIO:
        _dot(cv, con.a, con.b, True, None if d == 2 else str(d), "black-dot")
    else:
        _generic(cv, [con.a, con.b], label or rule_name(con))


@draw_constraint.register
def _sum(con: Sum, cv: Canvas, label: str = "") -> None:
    if len(con.cells) == 2 and not con.distinct and cv.adjacent(*con.cells):
        _sum_mark(cv, con.cells[0], con.cells[1], con.total)
    else:
        _draw_cage(cv, con.cells, con.total)


@draw_constraint.register
def _all_different(con: AllDifferent, cv: Canvas, label: str = "") -> None:
    cells = tuple(sorted(con.cells))
    g = cv.grid
    if cells in cv.grid_houses():
        return
    if g.square and cells in (tuple(sorted(g.diagonal_main)), tuple(sorted(g.diagonal_anti))):
        main = cells == tuple(sorted(g.diagonal_main))
        _diagonal_lines(cv, main, not main)
    else:
        _draw_cage(cv, con.cells, None, "cage extra-house")


_SKIPPED = (AttributeError, TypeError, ValueError, KeyError, IndexError, SudokuCSPError)


def draw_rules(cv: Canvas, puzzle: Puzzle) -> None:
    """Every rule of the puzzle: the bundles by their drawers, then the constraints added
    without a bundle. A rule whose data cannot be read is skipped, never an error."""
    covered: set[int] = set()
    first: dict[int, tuple[Any, list]] = {}      # a bundle is drawn at its first constraint
    for (b, _count), cons in zip(puzzle.bundles, puzzle.bundle_constraints):
        covered.update(id(c) for c in cons)
        if cons:
            first[id(cons[0])] = (b, list(cons))
        else:
            _draw_safely(draw_rule, b, cv, [])
    for con in puzzle.constraints:
        if id(con) in first:
            _draw_safely(draw_rule, *first[id(con)][:1], cv, first[id(con)][1])
        elif id(con) not in covered:
            _draw_safely(draw_constraint, con, cv)


def _draw_safely(fn: Callable[..., None], *args: Any) -> None:
    try:
        fn(*args)
    except _SKIPPED:
        pass


def has_outside_clues(puzzle: Puzzle | None) -> bool:
    return puzzle is not None and any(isinstance(b, OUTSIDE_RULES) for b, _ in puzzle.bundles)
