"""SVG (and PNG) pictures of puzzles, pencil-mark states and explained steps.

:func:`render_svg` draws a :class:`~csp.model.Puzzle` (grid, regions, givens and every rule
it holds: killer cages, thermos, arrows, lines, dots, inequality signs, outside clues ...), a
:class:`~csp.state.State` (placed digits and candidates) or a :class:`~csp.step.Step` on the
state before it (houses shaded, pattern candidates highlighted, eliminations struck in red,
placements in green, chain links as arrows: strong solid, weak dashed). Multi-grids
(:class:`csp.grid.MultiGrid`, e.g. samurai) are drawn on their canvas, each cell at its
canvas row and column. The SVG is written by hand with :mod:`xml.etree.ElementTree` (so all
text is escaped); :func:`svg_to_png` converts it with cairosvg (the ``render`` extra).

Rules are drawn by :func:`draw_rule`, a :func:`functools.singledispatch` function on the type
of the rule bundle ``Puzzle.use`` recorded (``puzzle.bundles``): every public rule class of
:mod:`variants` has a drawer (``tests`` check it), and a rule without one (a bundle of your
own, a function) falls back to drawing its constraints one by one with
:func:`draw_constraint`: recognisable kinds as usual (``<`` signs, Kropki and XV relations,
sums as cages, extra all-different groups), anything else -- a rule made from a Python
predicate (``Puzzle.add_constraint``) -- as a generic marker (a dotted outline and a
numbered badge) with the rule's name in the legend under the grid. Importing
:mod:`sudoku_csp` registers :func:`render_svg` as the ``_repr_svg_`` renderer of
:mod:`csp.display`, so Jupyter shows puzzles, states and steps as pictures.

>>> import xml.etree.ElementTree as ET
>>> from csp import Puzzle
>>> from variants import classic, killer_cage
>>> p = Puzzle(4).use(classic(), killer_cage(["r1c1", "r1c2"], 3)).givens("1...............")
>>> root = ET.fromstring(render_svg(p))
>>> len(root.findall(".//*[@class='cell']")), len(root.findall(".//*[@class='cage']"))
(16, 1)
>>> [t.text for t in root.findall(".//*[@class='given']")]
['1']
>>> has_drawer(killer_cage), has_drawer(dict)
(True, False)
"""
from __future__ import annotations

import functools
import math
import os
import re
import xml.etree.ElementTree as ET
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from csp.constraints import AllDifferent, Constraint, Relation, RelationKind, Sum
from csp.errors import SudokuCSPError
from csp.grid import Grid
from csp.model import Puzzle
from csp.state import State
from csp.step import Candidate, Link, Step, digit_symbol
from csp.text import escape_text
from variants.record import Drawing, find_record, records, rule_classes

__all__ = ["RenderError", "render_svg", "CellMark", "svg_to_png", "write_picture", "FORMATS",
           "draw_rule",
           "draw_constraint", "has_drawer", "wrap_text", "break_atoms", "rule_name",
           "cell_size_for"]

#: output formats by file extension
FORMATS = (".svg", ".png")

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

# colours
INK = "#000000"
PLACED = "#1f5fbf"
CAND = "#505050"
HOUSE_FILL = "#fff3b0"
PATTERN_FILL = "#8fd68f"
CHAIN_FILL = "#c5e8c5"
FIN_FILL = "#8cb8ff"
COLOUR_FILLS = ("#8fd68f", "#ffb870", "#8cb8ff", "#f0a0e8")
ELIM_FILL = "#ffb0b0"
ELIM_STROKE = "#d00000"
PLACE_FILL = "#3cb371"
STRONG = "#d62728"
WEAK = "#1f77b4"
IMPLY = "#c26a00"          # a proof's arrows: what follows from what
TRIAL_FILL = "#ffc06a"     # the candidate a proof tries
FORCED_FILL = "#a8cdfa"    # the placements that follow from it
#: where candidates start in a cell with a cage total (a fraction of the cell), clear of the
#: total's label also when a page draws them larger (a phone)
TOTAL_TOP = 0.3
#: opacity of the rule lines (whispers, thermos ...) under candidates, so that a digit on a
#: line stays legible
LINE_OPACITY = 0.55
GENERIC = "#8e44ad"
#: rules whose clues sit outside the grid (the picture gets a margin for them): their
#: records say so
OUTSIDE_RULES: tuple[type, ...] = tuple(rule_classes()[name] for name, r in records().items()
                                        if r.outside)


class RenderError(SudokuCSPError):
    """A picture cannot be written as asked (unknown format, PNG library missing)."""


# -- small helpers ---------------------------------------------------------------------
def _fmt(v: Any) -> str:
    if isinstance(v, float):
        s = f"{v:.2f}".rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s
    return str(v)


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    """A child element; ``stroke_width`` becomes ``stroke-width``, ``class_`` ``class``. Its
    text is drawn with control characters and lone surrogates escaped (a title read from
    input may hold them; XML and UTF-8 cannot)."""
    e = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): _fmt(v)
                                    for k, v in attrs.items() if v is not None})
    if text is not None:
        e.text = escape_text(text, keep="\t\n")
    return e


def _cells(grid: Grid, refs: Iterable[Any]) -> list[int]:
    return list(grid.cells(list(refs)))


def cell_size_for(n: int) -> float:
    """Default cell side in SVG units: 50 up to 9x9, larger for 16x16 (68) and 25x25 (85),
    so that the k x k candidates of a cell stay about 10 units high.

    >>> cell_size_for(9), cell_size_for(16), cell_size_for(25)
    (50.0, 68.0, 85.0)
    """
    k = max(1, math.ceil(math.sqrt(n)))
    return 50.0 if k <= 3 else 17.0 * k


# break opportunities inside a word: after a comma, before a chain link "=(" / "-(" and
# before "=r" (a 2-string kite's "=r6c2"); never inside a cell name such as r5c8
_BREAK = re.compile(r"(?<=,)(?=\S)|(?=[=\-][(r]\w)")


def break_atoms(text: str) -> list[tuple[str, bool]]:
    """The unbreakable pieces of ``text`` with whether a space comes before each.

    >>> break_atoms("Nice Loop: (2)r2c7=(2)r7c7-(7)r7c7 => r2c7<>4")[2:5]
    [('(2)r2c7', True), ('=(2)r7c7', False), ('-(7)r7c7', False)]
    """
    out: list[tuple[str, bool]] = []
    for word in text.split():
        pieces = [p for p in _BREAK.split(word) if p]
        out.extend((p, i == 0 and bool(out)) for i, p in enumerate(pieces))
    return out


def wrap_text(text: str, width: int) -> list[str]:
    """Greedy wrap at ``width`` characters, breaking at spaces and the break points of
    :func:`break_atoms` (a piece longer than a line is cut only when it must be).

    >>> wrap_text("AIC: (1)r1c1=(1)r1c5-(1)r3c4=(1)r3c9 => r1c9<>1", 22)
    ['AIC: (1)r1c1=(1)r1c5', '-(1)r3c4=(1)r3c9 =>', 'r1c9<>1']
    """
    out: list[str] = []
    line = ""
    for atom, space in break_atoms(text):
        while len(atom) > width:
            if line:
                out.append(line)
                line = ""
            out.append(atom[:width])
            atom = atom[width:]
            space = False
        joined = (line + " " + atom) if (line and space) else line + atom
        if not line or len(joined) <= width:
            line = joined
        else:
            out.append(line)
            line = atom
    if line:
        out.append(line)
    return out


def rule_name(rule: Any) -> str:
    """A readable name of a rule bundle (``killer cage``) or constraint (its ``name``)."""
    if isinstance(rule, Constraint):
        return rule.name or type(rule).__name__
    if isinstance(rule, type(rule_name)):      # a plain function used as a bundle
        return rule.__name__.replace("_", " ")
    return type(rule).__name__.replace("_", " ")


# -- the canvas --------------------------------------------------------------------------
class _Canvas:
    """Geometry and layers of one picture: ``grid.height`` x ``grid.width`` canvas cells
    (a multi-grid's cells at their canvas positions, :meth:`csp.grid.Grid.rc`)."""

    LAYERS = ("background", "shade", "houses", "lines", "cand_bg", "cages", "grid", "marks",
              "outside", "digits", "overlay", "links", "caption")

    def __init__(self, grid: Grid, size: float, outside: bool, title: str) -> None:
        self.grid = grid
        self.n = grid.n
        self.rows, self.cols = grid.height, grid.width
        self.S = S = float(size)
        self.pad = S if outside else S * 0.15
        self.top = self.pad + (S * 0.7 if title else 0.0)
        self.k = max(1, math.ceil(math.sqrt(self.n)))   # candidate sub-grid is k x k
        self.cand_inset = S * 0.02        # grows to clear cage outlines (see _draw_cage)
        self.total_cells: set[int] = set()
        self.notes: list[str] = []        # free text under the grid (a step's explanation)
        self.rule_notes: list[str] = []   # rules of the whole grid ("anti-knight")
        self.legend: list[str] = []       # generic markers: badge i+1 is legend[i]
        self._grid_houses: set[tuple[int, ...]] | None = None
        self.width = 2 * self.pad + self.cols * S
        self.root = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg",
                                       "font-family": FONT})
        self.defs = _el(self.root, "defs")
        self.layer: dict[str, ET.Element] = {
            name: _el(self.root, "g", class_=f"layer-{name}") for name in self.LAYERS}
        self.background = _el(self.layer["background"], "rect", x=0, y=0, width=self.width,
                              height=0, fill="#ffffff")
        if title:
            _el(self.layer["caption"], "text", title, class_="title", x=self.width / 2,
                y=S * 0.5, font_size=S * 0.38, text_anchor="middle",
                font_weight="bold", fill=INK)

    # positions
    def x(self, col: float) -> float:
        return self.pad + col * self.S

    def y(self, row: float) -> float:
        return self.top + row * self.S

    def rc(self, cell: int) -> tuple[int, int]:
        return self.grid.rc(cell)

    def has(self, r: int, c: int) -> bool:
        """Whether canvas position (r, c) holds a cell."""
        return self.grid.at(r, c) >= 0

    def centre(self, cell: int) -> tuple[float, float]:
        r, c = self.grid.rc(cell)
        return self.x(c + 0.5), self.y(r + 0.5)

    def centre_rc(self, r: float, c: float) -> tuple[float, float]:
        """Centre of the (0-based, possibly outside) cell at row r, column c."""
        return self.x(c + 0.5), self.y(r + 0.5)

    def cand_xy(self, cell: int, d: int) -> tuple[float, float]:
        """Centre of candidate ``d`` of ``cell``: a k x k sub-grid inside the cell, inset
        from cage outlines, and lowered in cells that carry a cage total."""
        r, c = self.grid.rc(cell)
        i, j = divmod(d - 1, self.k)
        ins = self.cand_inset
        top = self.S * TOTAL_TOP if cell in self.total_cells else ins
        w = (self.S - 2 * ins) / self.k
        h = (self.S - top - ins) / self.k
        return self.x(c) + ins + (j + 0.5) * w, self.y(r) + top + (i + 0.5) * h

    def cand_font(self) -> float:
        return (self.S - 2 * self.cand_inset) / self.k * self.cand_scale

    @property
    def cand_scale(self) -> float:
        """Candidate font size per sub-grid slot (a little larger from 16x16 up)."""
        return 0.62 if self.k <= 3 else 0.7

    def cand_radius(self) -> float:
        """Radius of the disc behind a highlighted candidate."""
        return self.cand_font() * 0.68

    def cell_rect(self, layer: str, cell: int, fill: str, class_: str,
                  inset: float = 0.0, opacity: float | None = None) -> ET.Element:
        r, c = self.grid.rc(cell)
        return _el(self.layer[layer], "rect", class_=class_, x=self.x(c) + inset,
                   y=self.y(r) + inset, width=self.S - 2 * inset, height=self.S - 2 * inset,
                   fill=fill, fill_opacity=opacity)

    def text(self, layer: str, x: float, y: float, s: str, size: float, class_: str,
             fill: str = INK, bold: bool = False, anchor: str = "middle") -> ET.Element:
        """Text centred vertically on y (baseline at y + 0.35 em)."""
        return _el(self.layer[layer], "text", s, class_=class_, x=x, y=y + 0.35 * size,
                   font_size=size, text_anchor=anchor, fill=fill,
                   font_weight="bold" if bold else None)

    def polyline(self, layer: str, pts: Sequence[tuple[float, float]], colour: str,
                 width: float, class_: str, dash: str | None = None,
                 opacity: float | None = None) -> ET.Element:
        return _el(self.layer[layer], "polyline", class_=class_,
                   points=" ".join(f"{_fmt(a)},{_fmt(b)}" for a, b in pts), fill="none",
                   stroke=colour, stroke_width=width, stroke_linecap="round",
                   stroke_linejoin="round", stroke_dasharray=dash, stroke_opacity=opacity)

    def edge_mid(self, a: int, b: int) -> tuple[float, float]:
        (xa, ya), (xb, yb) = self.centre(a), self.centre(b)
        return (xa + xb) / 2, (ya + yb) / 2

    def grid_houses(self) -> set[tuple[int, ...]]:
        """The grid's own houses as sorted cell tuples (kept after the first call)."""
        if self._grid_houses is None:
            self._grid_houses = {tuple(sorted(h.cells)) for h in self.grid.houses}
        return self._grid_houses

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.grid.orthogonal(a)

    def under_candidates(self) -> None:
        """Lighten the rule lines (whispers, thermos, arrows ...): candidates are drawn on
        top of them and must stay legible (the lines stay under every digit)."""
        self.layer["lines"].set("opacity", _fmt(LINE_OPACITY))

    # notes under the grid
    def rule_note(self, label: str) -> None:
        if label not in self.rule_notes:
            self.rule_notes.append(label)

    def legend_index(self, label: str) -> int:
        """1-based badge number of a generic rule's label."""
        if label not in self.legend:
            self.legend.append(label)
        return self.legend.index(label) + 1

    def note_texts(self) -> list[str]:
        texts = list(self.notes)
        if self.rule_notes:
            texts.append("Rules: " + ", ".join(self.rule_notes))
        if self.legend:
            texts.append("Other rules: " + ", ".join(f"({i}) {t}"
                                                    for i, t in enumerate(self.legend, 1)))
        return texts

    def note_lines(self, chars: int | None = None) -> list[str]:
        """The notes wrapped at ``chars`` characters a line (default: the grid's width);
        never cut."""
        chars = chars or max(20, int(self.cols / (0.3 * 0.56)))
        lines: list[str] = []
        for t in self.note_texts():
            lines.extend(wrap_text(t, chars))
        return lines

    #: lines of notes that go under the grid; longer notes go beside it, whole
    NOTE_LINES_UNDER = 8

    def finish(self) -> None:
        """Lay out the notes -- under the grid, or when they are long beside it, in a
        column as wide as it takes to stay about as high as the grid -- and fix the
        picture's size. The text is never cut."""
        S = self.S
        fs, step = S * 0.3, S * 0.4
        grid_w = self.width
        lines = self.note_lines()
        if len(lines) <= self.NOTE_LINES_UNDER:
            x, y = self.pad, self.top + self.rows * S + self.pad * 0.5 + S * 0.35
            note_h = (len(lines) * step + S * 0.2) if lines else 0.0
            self.height = self.top + self.rows * S + self.pad + note_h
        else:
            grid_h = self.rows * S
            col = max(6.0, self.cols * 0.8)             # the column's width in cells
            while True:
                lines = self.note_lines(int(col / (0.3 * 0.62)))
                if len(lines) * step <= grid_h or col >= self.cols * 4:
                    break
                col += self.cols * 0.2
            x, y = grid_w, self.top + S * 0.35
            self.width = grid_w + col * S + self.pad
            self.background.set("width", _fmt(self.width))
            self.height = max(self.top + grid_h + self.pad,
                              self.top + len(lines) * step + self.pad)
        for line in lines:
            _el(self.layer["caption"], "text", line, class_="note", x=x, y=y,
                font_size=fs, fill="#333333")
            y += step
        self.background.set("height", _fmt(self.height))
        self.root.set("width", _fmt(self.width))
        self.root.set("height", _fmt(self.height))
        self.root.set("viewBox", f"0 0 {_fmt(self.width)} {_fmt(self.height)}")

    def svg(self, keep_layers: bool = False) -> str:
        self.finish()
        if not keep_layers:
            for g in list(self.root):
                if g.tag == "g" and len(g) == 0:
                    self.root.remove(g)
            if len(self.defs) == 0:
                self.root.remove(self.defs)
        return ET.tostring(self.root, encoding="unicode")


# -- the grid ---------------------------------------------------------------------------
def _draw_grid(cv: _Canvas) -> None:
    g, S = cv.grid, cv.S
    layer = cv.layer["grid"]
    for cell in range(g.size):
        r, c = g.rc(cell)
        _el(layer, "rect", class_="cell", x=cv.x(c), y=cv.y(r), width=S, height=S,
            fill="none", stroke="#a0a0a0", stroke_width=max(0.8, S * 0.015))
    if g.regions:
        d = []
        reg = g.region_of
        for cell in range(g.size):
            r, c = g.rc(cell)
            right, below = g.at(r, c + 1), g.at(r + 1, c)
            if right >= 0 and reg[cell] != reg[right]:
                d.append(f"M{_fmt(cv.x(c + 1))} {_fmt(cv.y(r))}V{_fmt(cv.y(r + 1))}")
            if below >= 0 and reg[cell] != reg[below]:
                d.append(f"M{_fmt(cv.x(c))} {_fmt(cv.y(r + 1))}H{_fmt(cv.x(c + 1))}")
        if d:
            _el(layer, "path", class_="region-border", d="".join(d), fill="none", stroke=INK,
                stroke_width=S * 0.05, stroke_linecap="square")
    origins = getattr(g, "origins", None)
    if origins is None:
        _el(layer, "rect", class_="border", x=cv.x(0), y=cv.y(0), width=cv.cols * S,
            height=cv.rows * S, fill="none", stroke=INK, stroke_width=S * 0.06)
        return
    for (r0, c0) in origins:                 # a multi-grid: each sub-grid's frame
        _el(layer, "rect", class_="border subgrid-border", x=cv.x(c0), y=cv.y(r0),
            width=cv.n * S, height=cv.n * S, fill="none", stroke=INK,
            stroke_width=S * 0.06)


# -- rule drawers -------------------------------------------------------------------------
@functools.singledispatch
def draw_rule(rule: Any, cv: _Canvas, cons: list) -> None:
    """Draw one rule bundle (dispatched on its type; ``cons`` are the constraints it added).
    A rule with no drawer of its own has its constraints drawn one by one, unknown ones as
    generic markers named after the rule."""
    label = rule_name(rule)
    for con in cons:
        draw_constraint(con, cv, label)


def has_drawer(cls: type) -> bool:
    """Whether rule bundles of class ``cls`` have a drawer of their own."""
    return draw_rule.dispatch(cls) is not draw_rule.dispatch(object)


def _cage_path(cv: _Canvas, cells: Iterable[int], inset: float) -> str:
    """Outline segments of a cell set, inset by ``inset`` (killer cage style)."""
    g = cv.grid
    cs = set(cells)

    def has(r: int, c: int) -> bool:
        x = g.at(r, c)
        return x >= 0 and x in cs

    out = []
    for cell in sorted(cs):
        r, c = g.rc(cell)
        x0, y0, x1, y1 = cv.x(c), cv.y(r), cv.x(c + 1), cv.y(r + 1)
        # each side: (outside neighbour, start/end neighbours along the side, diagonal ones)
        if not has(r - 1, c):      # top, left to right
            a = x0 + inset if not has(r, c - 1) else (x0 - inset if has(r - 1, c - 1) else x0)
            b = x1 - inset if not has(r, c + 1) else (x1 + inset if has(r - 1, c + 1) else x1)
            out.append(f"M{_fmt(a)} {_fmt(y0 + inset)}H{_fmt(b)}")
        if not has(r + 1, c):      # bottom
            a = x0 + inset if not has(r, c - 1) else (x0 - inset if has(r + 1, c - 1) else x0)
            b = x1 - inset if not has(r, c + 1) else (x1 + inset if has(r + 1, c + 1) else x1)
            out.append(f"M{_fmt(a)} {_fmt(y1 - inset)}H{_fmt(b)}")
        if not has(r, c - 1):      # left, top to bottom
            a = y0 + inset if not has(r - 1, c) else (y0 - inset if has(r - 1, c - 1) else y0)
            b = y1 - inset if not has(r + 1, c) else (y1 + inset if has(r + 1, c - 1) else y1)
            out.append(f"M{_fmt(x0 + inset)} {_fmt(a)}V{_fmt(b)}")
        if not has(r, c + 1):      # right
            a = y0 + inset if not has(r - 1, c) else (y0 - inset if has(r - 1, c + 1) else y0)
            b = y1 - inset if not has(r + 1, c) else (y1 + inset if has(r + 1, c + 1) else y1)
            out.append(f"M{_fmt(x1 - inset)} {_fmt(a)}V{_fmt(b)}")
    return "".join(out)


def _draw_cage(cv: _Canvas, cells: Sequence[int], total: Any, class_: str = "cage") -> None:
    S = cv.S
    inset = S * 0.08
    cv.cand_inset = max(cv.cand_inset, S * 0.1)
    _el(cv.layer["cages"], "path", class_=class_, d=_cage_path(cv, cells, inset), fill="none",
        stroke=INK, stroke_width=max(0.8, S * 0.02), stroke_dasharray=f"{_fmt(S * 0.08)},"
        f"{_fmt(S * 0.06)}")
    if total is not None:
        first = min(cells, key=cv.rc)
        cv.total_cells.add(first)
        r, c = cv.rc(first)
        fs = S * 0.2
        label = str(total)
        x, y = cv.x(c) + inset * 0.5, cv.y(r) + inset * 0.5
        _el(cv.layer["cages"], "rect", class_="cage-total-bg", x=x, y=y,
            width=fs * 0.62 * len(label) + fs * 0.2, height=fs * 1.1, fill="#ffffff")
        _el(cv.layer["cages"], "text", label, class_="cage-total", x=x + fs * 0.1,
            y=y + fs * 0.9, font_size=fs, fill=INK)


def _generic(cv: _Canvas, cells: Sequence[int], label: str) -> None:
    """A rule the picture has no symbol for: a dotted outline of its cells and a numbered
    badge; the number and ``label`` go into the legend under the grid."""
    if not cells:
        return
    S = cv.S
    i = cv.legend_index(label)
    _el(cv.layer["cages"], "path", class_="rule-generic", d=_cage_path(cv, cells, S * 0.14),
        fill="none", stroke=GENERIC, stroke_width=max(0.8, S * 0.025),
        stroke_dasharray=f"{_fmt(S * 0.03)},{_fmt(S * 0.05)}", stroke_linecap="round")
    first = min(cells, key=cv.rc)
    cv.total_cells.add(first)                 # candidates move down, clear of the badge
    r, c = cv.rc(first)
    x, y = cv.x(c + 1) - S * 0.15, cv.y(r) + S * 0.13
    g = _el(cv.layer["marks"], "g", class_="rule-badge")
    _el(g, "circle", cx=x, cy=y, r=S * 0.1, fill=GENERIC)
    _el(g, "text", str(i), x=x, y=y + S * 0.05, font_size=S * 0.14, text_anchor="middle",
        fill="#ffffff", font_weight="bold")
    g.set("data-rule", label)


def _arrowhead(cv: _Canvas, layer: str, tip: tuple[float, float], frm: tuple[float, float],
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


def _little_killer_clue(cv: _Canvas, cells: list[int]) -> tuple[int, int, int, int]:
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


def _little_killer(b: Any, cv: _Canvas, cons: list) -> None:
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


def _outside_clue(b: Any, cv: _Canvas, cons: list) -> None:
    r, c = b.row - 1, b.col - 1
    x, y = cv.centre_rc(r, c)
    kind = type(b).__name__
    label = _drawing(b).label
    text = label(b) if label is not None else str(b.value)
    cv.text("outside", x, y, text, cv.S * 0.4, f"outside {kind.replace('_', '-')}")


def _thermo_line(cv: _Canvas, b: Any, slow: bool) -> None:
    cells = _cells(cv.grid, b.cells)
    if not cells:
        return
    S = cv.S
    colour = "#c8c8c8" if not slow else "#a9c8e8"
    pts = [cv.centre(c) for c in cells]
    x, y = pts[0]
    _el(cv.layer["lines"], "circle", class_="thermo-bulb", cx=x, cy=y, r=S * 0.36, fill=colour)
    if len(pts) > 1:
        cv.polyline("lines", pts, colour, S * 0.24, "thermo")
        if slow:
            cv.polyline("lines", pts, "#ffffff", S * 0.05, "slow-thermo",
                        dash=f"{_fmt(S * 0.12)},{_fmt(S * 0.12)}")


def _thermo(b: Any, cv: _Canvas, cons: list) -> None:
    _thermo_line(cv, b, slow=False)


def _slow_thermo(b: Any, cv: _Canvas, cons: list) -> None:
    _thermo_line(cv, b, slow=True)


def _arrow(b: Any, cv: _Canvas, cons: list) -> None:
    g, S = cv.grid, cv.S
    circ = _cells(g, b.circle)
    shaft = _cells(g, b.shaft)
    if not circ or not shaft:
        return
    colour, w, rad = "#9a9a9a", S * 0.045, S * 0.38
    if len(circ) == 1:
        x, y = cv.centre(circ[0])
        _el(cv.layer["lines"], "circle", class_="arrow-circle", cx=x, cy=y, r=rad,
            fill="#ffffff", stroke=colour, stroke_width=w)
    else:
        rows = [cv.rc(c)[0] for c in circ]
        cols = [cv.rc(c)[1] for c in circ]
        x0, y0 = cv.x(min(cols)) + S / 2 - rad, cv.y(min(rows)) + S / 2 - rad
        x1, y1 = cv.x(max(cols)) + S / 2 + rad, cv.y(max(rows)) + S / 2 + rad
        _el(cv.layer["lines"], "rect", class_="arrow-circle", x=x0, y=y0, width=x1 - x0,
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


def _line(b: Any, cv: _Canvas, cons: list) -> None:
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
            _el(cv.layer["lines"], "circle", class_="line-end", cx=end[0], cy=end[1],
                r=S * 0.38, fill="#ffffff", stroke="#9a9a9a", stroke_width=S * 0.045)
    elif style.ends == "diamonds":
        for (x, y) in (pts[0], pts[-1]):
            h = S * 0.4
            _el(cv.layer["lines"], "polygon", class_="line-end",
                points=f"{_fmt(x)},{_fmt(y - h)} {_fmt(x + h)},{_fmt(y)} "
                       f"{_fmt(x)},{_fmt(y + h)} {_fmt(x - h)},{_fmt(y)}",
                fill="#ffffff", stroke=colour, stroke_width=S * 0.05)


def _dot(cv: _Canvas, a: int, b: int, black: bool, label: str | None, class_: str) -> None:
    if not cv.adjacent(a, b):
        return
    x, y = cv.edge_mid(a, b)
    S = cv.S
    _el(cv.layer["marks"], "circle", class_=class_, cx=x, cy=y, r=S * 0.1,
        fill=INK if black else "#ffffff", stroke=INK, stroke_width=S * 0.025)
    if label:
        cv.text("marks", x, y, label, S * 0.13, class_ + "-label",
                fill="#ffffff" if black else INK)


def _white_dot(b: Any, cv: _Canvas, cons: list) -> None:
    g = cv.grid
    _dot(cv, g.cell(b.a), g.cell(b.b), False, None if b.diff == 1 else str(b.diff), "white-dot")


def _black_dot(b: Any, cv: _Canvas, cons: list) -> None:
    g = cv.grid
    _dot(cv, g.cell(b.a), g.cell(b.b), True, None if b.ratio == 2 else str(b.ratio), "black-dot")


def _sum_mark(cv: _Canvas, a: int, b: int, total: int) -> None:
    if not cv.adjacent(a, b):
        return
    x, y = cv.edge_mid(a, b)
    S = cv.S
    label = {10: "X", 5: "V"}.get(total)
    if label:
        _el(cv.layer["marks"], "rect", class_="xv-bg", x=x - S * 0.11, y=y - S * 0.13,
            width=S * 0.22, height=S * 0.26, fill="#ffffff")
        cv.text("marks", x, y, label, S * 0.3, "xv", bold=True)
    else:
        _el(cv.layer["marks"], "circle", class_="sum-dot", cx=x, cy=y, r=S * 0.13,
            fill="#ffffff", stroke=INK, stroke_width=S * 0.02)
        cv.text("marks", x, y, str(total), S * 0.15, "sum-dot-label")


def _sum_dot(b: Any, cv: _Canvas, cons: list) -> None:
    g = cv.grid
    _sum_mark(cv, g.cell(b.a), g.cell(b.b), b.total)


def _inequality(cv: _Canvas, small: int, big: int, class_: str = "inequality") -> None:
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
    _el(cv.layer["marks"], "polyline", class_=class_,
        points=" ".join(f"{_fmt(a)},{_fmt(b)}" for a, b in (arms[0], tip, arms[1])),
        fill="none", stroke=INK, stroke_width=S * 0.04, stroke_linecap="round",
        stroke_linejoin="round")


def _less_than(b: Any, cv: _Canvas, cons: list) -> None:
    g = cv.grid
    _inequality(cv, g.cell(b.a), g.cell(b.b))


def _shade(b: Any, cv: _Canvas, cons: list) -> None:
    """Cells shaded in the record's colour (and its note under the grid, if any)."""
    style = _drawing(b)
    for c in _cells(cv.grid, b.cells):
        cv.cell_rect("shade", c, style.colour, style.css)
    if style.label is not None:
        cv.rule_note(style.label(b))


def _odd(b: Any, cv: _Canvas, cons: list) -> None:
    for c in _cells(cv.grid, b.cells):
        x, y = cv.centre(c)
        _el(cv.layer["shade"], "circle", class_="odd", cx=x, cy=y, r=cv.S * 0.36,
            fill="#dcdcdc")


def _circles(b: Any, cv: _Canvas, cons: list) -> None:
    """Counting circles: a ring in each cell, and the rule in the note under the grid."""
    for c in _cells(cv.grid, b.cells):
        x, y = cv.centre(c)
        _el(cv.layer["shade"], "circle", class_="counting-circle", cx=x, cy=y,
            r=cv.S * 0.4, fill="none", stroke="#8a8a8a", stroke_width=cv.S * 0.045)
    cv.rule_note("counting circles: a digit in a circle is in that many circles")


def _even(b: Any, cv: _Canvas, cons: list) -> None:
    for c in _cells(cv.grid, b.cells):
        cv.cell_rect("shade", c, "#dcdcdc", "even", inset=cv.S * 0.15)


def _digits(b: Any, cv: _Canvas, cons: list) -> None:
    """The allowed digits, small along the bottom of the cell (f-puzzles' given marks)."""
    c = cv.grid.cell(b.cell)
    r, col = cv.rc(c)
    S = cv.S
    cv.text("marks", cv.x(col + 0.5), cv.y(r + 1) - S * 0.12,
            "".join(digit_symbol(d) for d in sorted(b.allowed)), S * 0.15, "allowed-digits",
            fill="#7a7a7a")


def _diagonal(b: Any, cv: _Canvas, cons: list) -> None:
    _diagonal_lines(cv, b.main, b.anti)


def _diagonal_lines(cv: _Canvas, main: bool, anti: bool) -> None:
    S = cv.S
    h, w = cv.rows, cv.cols
    for on, (x0, y0, x1, y1) in ((main, (0, 0, w, h)), (anti, (w, 0, 0, h))):
        if on:
            _el(cv.layer["lines"], "line", class_="diagonal", x1=cv.x(x0), y1=cv.y(y0),
                x2=cv.x(x1), y2=cv.y(y1), stroke="#7f7f7f", stroke_width=S * 0.03)


def _windoku(b: Any, cv: _Canvas, cons: list) -> None:
    for con in cons:
        for c in con.cells:
            cv.cell_rect("shade", c, "#d6e9ff", "window")


def _clone(b: Any, cv: _Canvas, cons: list) -> None:
    for c in _cells(cv.grid, list(b.cells) + list(b.clone_cells)):
        cv.cell_rect("shade", c, "#ffdcae", "clone")


def _indexer(b: Any, cv: _Canvas, cons: list) -> None:
    colour = {"row": "#ffc9c9", "column": "#c9f0c9", "box": "#c9d9ff"}.get(b.kind, "#e0e0e0")
    cv.cell_rect("shade", cv.grid.cell(b.cell), colour, f"indexer {b.kind}")


def _quadruple(b: Any, cv: _Canvas, cons: list) -> None:
    cells = _cells(cv.grid, b.cells)
    if not cells:
        return
    rows = [cv.rc(c)[0] for c in cells]
    cols = [cv.rc(c)[1] for c in cells]
    S = cv.S
    x, y = cv.x((min(cols) + max(cols) + 1) / 2), cv.y((min(rows) + max(rows) + 1) / 2)
    _el(cv.layer["marks"], "circle", class_="quadruple", cx=x, cy=y, r=S * 0.23,
        fill="#ffffff", stroke=INK, stroke_width=S * 0.02)
    vals = [str(v) for v in b.values]
    fs = S * 0.15
    if len(vals) <= 2:
        cv.text("marks", x, y, " ".join(vals), fs * (1.2 if len(vals) == 1 else 1.0),
                "quadruple-digits")
    else:
        cv.text("marks", x, y - fs * 0.55, " ".join(vals[:2]), fs, "quadruple-digits")
        cv.text("marks", x, y + fs * 0.55, " ".join(vals[2:4]), fs, "quadruple-digits")


def _nothing(b: Any, cv: _Canvas, cons: list) -> None:
    """Rows, columns and boxes: the grid itself shows them."""


def _note(b: Any, cv: _Canvas, cons: list) -> None:
    """A rule of the whole grid, named in the note under it (no symbol in the cells)."""
    cv.rule_note(_drawing(b).label(b))


def _cage(b: Any, cv: _Canvas, cons: list) -> None:
    """A killer-style cage with the record's label (its total) in the corner."""
    _draw_cage(cv, _cells(cv.grid, b.cells), _drawing(b).label(b))


def _drawing(b: Any) -> Drawing:
    return find_record(type(b)).drawing


#: the drawers of the generic styles a rule record may name (variants.record.DRAWING_STYLES),
#: then the bespoke drawers records name
DRAWERS: dict[str, Callable[[Any, _Canvas, list], None]] = {
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
def draw_constraint(con: Any, cv: _Canvas, label: str = "") -> None:
    """Draw one constraint added directly (or by a rule without a drawer), dispatched on its
    type; a kind the picture has no symbol for -- a rule made from a Python predicate -- is
    a generic marker named ``label`` (default: the constraint's name)."""
    cells = [c for c in getattr(con, "cells", ()) if isinstance(c, int)]
    _generic(cv, cells, label or rule_name(con))


@draw_constraint.register
def _relation(con: Relation, cv: _Canvas, label: str = "") -> None:
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
def _sum(con: Sum, cv: _Canvas, label: str = "") -> None:
    if len(con.cells) == 2 and not con.distinct and cv.adjacent(*con.cells):
        _sum_mark(cv, con.cells[0], con.cells[1], con.total)
    else:
        _draw_cage(cv, con.cells, con.total)


@draw_constraint.register
def _all_different(con: AllDifferent, cv: _Canvas, label: str = "") -> None:
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


def _draw_rules(cv: _Canvas, puzzle: Puzzle) -> None:
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


def _has_outside(puzzle: Puzzle | None) -> bool:
    return puzzle is not None and any(isinstance(b, OUTSIDE_RULES) for b, _ in puzzle.bundles)


# -- digits and step overlays --------------------------------------------------------------
def _house_cells(grid: Grid, puzzle: Puzzle | None) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {h.name: h.cells for h in grid.houses}
    if puzzle is not None:
        for c in puzzle.constraints:
            if c.name and c.cells:
                out.setdefault(c.name, tuple(c.cells))
    return out


def _shade_houses(cv: _Canvas, names: Sequence[str], puzzle: Puzzle | None) -> None:
    """The cells of the named houses shaded: one path of cell squares (small in a page of
    many steps)."""
    g, S = cv.grid, cv.S
    houses = _house_cells(g, puzzle)
    shaded: dict[int, None] = {}
    for name in names:
        for c in houses.get(name, ()):
            if 0 <= c < g.size:
                shaded[c] = None
    if shaded:
        w = _fmt(S)
        d = "".join(f"M{_fmt(cv.x(c))} {_fmt(cv.y(r))}h{w}v{w}h-{w}z"
                    for r, c in map(g.rc, shaded))
        _el(cv.layer["houses"], "path", class_="house", d=d, fill=HOUSE_FILL)


def house_markup(cv: _Canvas, names: Sequence[str], puzzle: Puzzle | None) -> str:
    """The SVG markup that shades the named houses on ``cv`` (the canvas is left as it
    was): a step-through page's level-1 hint for a step that names no house."""
    g = ET.Element("g")
    saved = cv.layer["houses"]
    cv.layer["houses"] = g
    try:
        _shade_houses(cv, names, puzzle)
    finally:
        cv.layer["houses"] = saved
    return "".join(ET.tostring(e, encoding="unicode") for e in g)


def step_candidates(step: Step) -> list[Candidate]:
    """Every candidate a step's picture shows: placements, eliminations, pattern, chain."""
    out = list(step.placements) + list(step.eliminations) + list(step.pattern)
    for ln in step.links:
        out.extend(ln.a)
        out.extend(ln.b)
    return out


def _draw_digits(cv: _Canvas, puzzle: Puzzle | None, state: State | None, step: Step | None,
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


def _draw_step(cv: _Canvas, step: Step, puzzle: Puzzle | None, placed: Sequence[int]) -> None:
    """The overlay of a step (layers houses, cand_bg, overlay and links) on a grid whose
    placed digits are ``placed`` (candidates of placed cells are not marked)."""
    g, S = cv.grid, cv.S
    size = g.size
    _shade_houses(cv, step.houses, puzzle)
    rad = cv.cand_radius()
    valid = lambda cd: 0 <= cd.cell < size and 1 <= cd.digit <= g.n  # noqa: E731
    seen: set[Candidate] = set()
    # technique-specific groups: colouring classes (cell bitsets of the step's digit, in
    # pairs of opposite colours) and fish fins, each in its own colour
    digit = step.digits[0] if len(step.digits) == 1 else 0
    extra = step.extra if isinstance(step.extra, dict) else {}
    groups: list[tuple[str, str, int]] = []
    colours = extra.get("colours")
    if digit and isinstance(colours, (list, tuple)):
        groups += [(f"colour colour-{i + 1}", COLOUR_FILLS[i % len(COLOUR_FILLS)], m)
                   for i, m in enumerate(colours) if isinstance(m, int)]
    fins = extra.get("fins")
    if digit and isinstance(fins, int):
        groups.append(("fin", FIN_FILL, fins))
    for cls, fill, bits in groups:
        for c in range(size):
            cd = Candidate(c, digit)
            if bits >> c & 1 and valid(cd) and not placed[c] and cd not in seen:
                seen.add(cd)
                x, y = cv.cand_xy(*cd)
                _el(cv.layer["cand_bg"], "circle", class_=cls, cx=x, cy=y, r=rad, fill=fill)
    proof = _proof_picture(step)
    if proof:
        _draw_proof(cv, proof, puzzle, placed, seen)
    for cd in () if proof else step.pattern:
        if valid(cd) and not placed[cd.cell] and cd not in seen:
            seen.add(cd)
            x, y = cv.cand_xy(*cd)
            _el(cv.layer["cand_bg"], "circle", class_="pattern", cx=x, cy=y, r=rad,
                fill=PATTERN_FILL)
    for ln in step.links:
        for cd in (*ln.a, *ln.b):
            if valid(cd) and not placed[cd.cell] and cd not in seen:
                seen.add(cd)
                x, y = cv.cand_xy(*cd)
                _el(cv.layer["cand_bg"], "circle", class_="chain-node", cx=x, cy=y, r=rad,
                    fill=CHAIN_FILL)
    for cd in step.placements:
        if valid(cd) and not placed[cd.cell]:
            # a filled square behind the digit (a ring around a C would read as a (c))
            x, y = cv.cand_xy(*cd)
            cv.cell_rect("cand_bg", cd.cell, "#d4f5d4", "place-cell")
            _el(cv.layer["cand_bg"], "rect", class_="place", x=x - rad, y=y - rad,
                width=2 * rad, height=2 * rad, rx=rad * 0.3, ry=rad * 0.3, fill=PLACE_FILL,
                fill_opacity=0.8)
    for cd in step.eliminations:
        if valid(cd) and not placed[cd.cell]:
            x, y = cv.cand_xy(*cd)
            if cd not in seen:
                _el(cv.layer["cand_bg"], "circle", class_="elim-bg", cx=x, cy=y, r=rad,
                    fill=ELIM_FILL)
            grp = _el(cv.layer["overlay"], "g", class_="elim")
            h = rad * 0.8
            _el(grp, "line", x1=x - h, y1=y + h, x2=x + h, y2=y - h, stroke=ELIM_STROKE,
                stroke_width=S * 0.03, stroke_linecap="round")
    if step.links:
        _draw_links(cv, step.links)


def _proof_picture(step: Step) -> dict | None:
    """What a step's reasons mark in its picture (an arrangement step's
    ``extra["detail"].picture()``: the candidate tried, what follows, what breaks), or
    None."""
    detail = step.extra.get("detail") if isinstance(step.extra, dict) else None
    picture = getattr(detail, "picture", None)
    return picture() if callable(picture) else None


def _draw_proof(cv: _Canvas, proof: dict, puzzle: Puzzle | None, placed: Sequence[int],
                seen: set[Candidate]) -> None:
    """The pictured reason of a step: the candidate tried (orange), the placements that
    follow from it (blue) with an arrow from what each rests on, and the cell, house or
    rule where it ends outlined in red."""
    g, S = cv.grid, cv.S
    rad = cv.cand_radius()
    shown: list[tuple[Candidate, str, str]] = []
    trial = Candidate(*proof["trial"])
    shown.append((trial, "trial", TRIAL_FILL))
    shown += [(Candidate(*cd), "forced", FORCED_FILL) for cd in proof.get("forced", ())]
    for cd, cls, fill in shown:
        if 0 <= cd.cell < g.size and not placed[cd.cell] and cd not in seen:
            seen.add(cd)
            x, y = cv.cand_xy(*cd)
            _el(cv.layer["cand_bg"], "circle", class_=cls, cx=x, cy=y, r=rad, fill=fill)
    arrows = [Link((Candidate(*a),), (Candidate(*b),), True) for a, b in proof.get("arrows", ())]
    if arrows:
        _draw_links(cv, arrows, IMPLY, "implies")
    cells = list(proof.get("broken", ()))
    if proof.get("house"):
        cells += _house_cells(g, puzzle).get(proof["house"], ())
    cells = sorted({c for c in cells if 0 <= c < g.size})
    if cells:
        _el(cv.layer["overlay"], "path", class_="broken", d=_cage_path(cv, cells, S * 0.04),
            fill="none", stroke=ELIM_STROKE, stroke_width=S * 0.05, stroke_linecap="round")


def _link_markers(cv: _Canvas) -> None:
    """The arrowheads of chain links (once per picture)."""
    if cv.root.find("defs/marker") is not None:
        return
    for ident, colour in (("link-strong", STRONG), ("link-weak", WEAK), ("link-implies", IMPLY)):
        m = _el(cv.defs, "marker", id=ident, viewBox="0 0 10 10", refX=10, refY=5,
                markerWidth=4, markerHeight=4, orient="auto", markerUnits="strokeWidth")
        _el(m, "path", d="M0 0L10 5L0 10z", fill=colour)


#: arrowhead length in stroke widths (the marker's markerWidth)
ARROW_LENGTH = 4


def _draw_links(cv: _Canvas, links: Sequence[Link], colour: str | None = None,
                kind: str | None = None) -> None:
    """Chain links as curved arrows from node to node (strong solid, weak dashed; or all
    solid in ``colour``, class ``kind``: a proof's implications). Each arrow leaves and
    ends at the edge of its nodes' discs (or group boxes), so no arrowhead covers a digit;
    nodes close together get a stronger bend, so that the arrowhead has room."""
    S, g = cv.S, cv.grid
    _link_markers(cv)
    rad = cv.cand_radius()
    gap = S * 0.02
    stroke = S * 0.03
    drawn_groups: set[tuple] = set()

    def node(cands: Sequence[Candidate]) -> tuple[float, float, float, float, bool] | None:
        """(x, y, half-width, half-height, is a group) of a chain node."""
        pts = [cv.cand_xy(*cd) for cd in cands if 0 <= cd.cell < g.size and 1 <= cd.digit <= g.n]
        if not pts:
            return None
        if len(pts) == 1:
            return pts[0][0], pts[0][1], rad, rad, False
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        x0, y0, x1, y1 = min(xs) - rad, min(ys) - rad, max(xs) + rad, max(ys) + rad
        key = tuple(sorted(cands))
        if key not in drawn_groups:
            drawn_groups.add(key)
            _el(cv.layer["links"], "rect", class_="group", x=x0, y=y0, width=x1 - x0,
                height=y1 - y0, rx=rad, ry=rad, fill="none", stroke="#8a5a00",
                stroke_width=S * 0.02)
        return (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2, True

    def edge(nd: tuple[float, float, float, float, bool], tx: float, ty: float
             ) -> tuple[float, float]:
        """Where the ray from the node's centre towards (tx, ty) leaves the node."""
        x, y, hw, hh, is_group = nd
        dx, dy = tx - x, ty - y
        ln = math.hypot(dx, dy) or 1.0
        ux, uy = dx / ln, dy / ln
        if is_group:
            t = min(hw / abs(ux) if abs(ux) > 1e-9 else math.inf,
                    hh / abs(uy) if abs(uy) > 1e-9 else math.inf)
        else:
            t = hw
        t += gap
        return x + ux * t, y + uy * t

    for ln in links:
        a, b = node(ln.a), node(ln.b)
        if a is None or b is None:
            continue
        dx, dy = b[0] - a[0], b[1] - a[1]
        dist = math.hypot(dx, dy)
        if dist < 1e-6:
            continue
        ux, uy = dx / dist, dy / dist
        # room needed between the two nodes' edges for a visible shaft and the arrowhead
        need = max(a[2], a[3]) + max(b[2], b[3]) + 2 * gap + 3 * ARROW_LENGTH * stroke
        bend = min(dist * 0.18, S * 0.6)
        if dist < need:
            bend = max(bend, need * 0.75)
        mx, my = (a[0] + b[0]) / 2 - uy * bend, (a[1] + b[1]) / 2 + ux * bend
        x1, y1 = edge(a, mx, my)
        x2, y2 = edge(b, mx, my)
        style = kind or ("strong" if ln.strong else "weak")
        _el(cv.layer["links"], "path", class_=f"link {style}",
            d=f"M{_fmt(x1)} {_fmt(y1)}Q{_fmt(mx)} {_fmt(my)} {_fmt(x2)} {_fmt(y2)}",
            fill="none", stroke=colour or (STRONG if ln.strong else WEAK), stroke_width=stroke,
            stroke_dasharray=None if ln.strong else f"{_fmt(S * 0.1)},{_fmt(S * 0.07)}",
            marker_end=f"url(#link-{style})")


#: the layers a step draws on (see :func:`step_layers`)
STEP_LAYERS = ("houses", "cand_bg", "overlay", "links")


def step_layers(cv: _Canvas, step: Step, puzzle: Puzzle | None,
                placed: Sequence[int]) -> dict[str, str]:
    """The SVG markup a step adds to each of :data:`STEP_LAYERS` of ``cv`` (the canvas is
    left as it was): what a step-through page swaps in per step."""
    saved = {name: cv.layer[name] for name in STEP_LAYERS}
    fresh = {name: ET.Element("g") for name in STEP_LAYERS}
    cv.layer.update(fresh)
    try:
        _draw_step(cv, step, puzzle, placed)
    finally:
        cv.layer.update(saved)
    return {name: "".join(ET.tostring(e, encoding="unicode") for e in g)
            for name, g in fresh.items() if len(g)}


def _grid_of(puzzle: Puzzle | None, state: State | None, step: Step | None) -> Grid:
    if state is not None:
        return state.grid
    if puzzle is not None:
        return puzzle.grid
    assert step is not None
    return step.width if isinstance(step.width, Grid) else Grid(step.width)


def canvas(puzzle: Puzzle | None = None, grid: Grid | None = None, *, title: str | None = None,
           cell_size: float | None = None) -> _Canvas:
    """A canvas with the puzzle's grid and rules drawn (no digits): the base picture a
    step-through page draws digits and step overlays on."""
    if grid is None:
        assert puzzle is not None
        grid = puzzle.grid
    if title is None:
        title = ""
        if puzzle is not None:
            title = str(puzzle.meta.get("title") or puzzle.name or "")
    cv = _Canvas(grid, cell_size or cell_size_for(grid.n), _has_outside(puzzle), title)
    if puzzle is not None:
        _draw_rules(cv, puzzle)
    _draw_grid(cv)
    return cv


# -- public API -------------------------------------------------------------------------------
class CellMark(NamedTuple):
    """Cells to mark on a picture (:func:`render_svg`'s ``marks``): a dashed outline of
    ``colour`` round each cell and, with a ``label``, a badge holding it on the first."""

    cells: tuple[int, ...]
    colour: str
    label: str = ""


def _draw_marks(cv: _Canvas, marks: Sequence[CellMark]) -> None:
    S, size = cv.S, cv.grid.size
    for m in marks:
        cells = [c for c in m.cells if 0 <= c < size]
        for c in cells:
            r, col = cv.rc(c)
            _el(cv.layer["overlay"], "rect", class_="mark", x=cv.x(col) + S * 0.06,
                y=cv.y(r) + S * 0.06, width=S * 0.88, height=S * 0.88, fill="none",
                stroke=m.colour, stroke_width=S * 0.05,
                stroke_dasharray=f"{_fmt(S * 0.12)},{_fmt(S * 0.08)}")
        if cells and m.label:
            r, col = cv.rc(cells[0])
            x, y = cv.x(col) + S * 0.8, cv.y(r) + S * 0.2
            _el(cv.layer["overlay"], "circle", class_="mark-badge", cx=x, cy=y, r=S * 0.17,
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
    _draw_digits(cv, puzzle, state, step, candidates)
    if step is not None:
        placed = state.placed if state is not None else [0] * cv.grid.size
        _draw_step(cv, step, puzzle, placed)
    _draw_marks(cv, marks)
    return cv.svg()


def svg_to_png(svg: str, scale: float = 2.0) -> bytes:
    """PNG bytes of SVG text (needs cairosvg: ``pip install "sudoku-csp[render]"``).

    >>> from variants import classic_puzzle
    >>> svg_to_png(render_svg(classic_puzzle("1..............."))).startswith(b"\\x89PNG")
    True
    """
    try:
        import cairosvg
    except (ImportError, OSError) as e:   # OSError: the cairo C library is missing
        raise RenderError(f"PNG output needs cairosvg and libcairo "
                          f"(pip install \"sudoku-csp[render]\"): {e}") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8", "backslashreplace"), scale=scale)


def write_picture(svg: str, path: str | os.PathLike[str]) -> None:
    """Write SVG text to ``path`` as SVG or PNG, by its extension (see :data:`FORMATS`)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in FORMATS:
        raise RenderError(f"{os.fspath(path)}: unknown picture format {ext or '(none)'!r} "
                          f"(use {' or '.join(FORMATS)})")
    from .output import write_output
    write_output(path, svg_to_png(svg) if ext == ".png" else svg)
