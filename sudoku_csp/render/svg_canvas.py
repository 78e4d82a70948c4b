"""The canvas of a picture (:mod:`sudoku_csp.render`): the SVG element writer, the geometry
of the grid's cells and candidates (a multi-grid's cells at their canvas positions), the
drawing layers, the notes under the grid, the outline of a cell set (cages, markers, a
proof's broken house) and the grid lines themselves."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any, Iterable, Sequence

from csp.grid import Grid
from csp.text import escape_text

from .palette import FONT, INK
from .wrap import wrap_text

#: where candidates start in a cell with a cage total (a fraction of the cell), clear of the
#: total's label also when a page draws them larger (a phone)
TOTAL_TOP = 0.3
#: opacity of the rule lines (whispers, thermos ...) under candidates, so that a digit on a
#: line stays legible
LINE_OPACITY = 0.55


def number(v: Any) -> str:
    """A number as the SVG is written: floats to 2 decimals without trailing zeros.

    >>> number(12.5), number(1 / 3), number(-0.001), number(7)
    ('12.5', '0.33', '0', '7')
    """
    if isinstance(v, float):
        s = f"{v:.2f}".rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s
    return str(v)


def element(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    """A child element; ``stroke_width`` becomes ``stroke-width``, ``class_`` ``class``. Its
    text is drawn with control characters and lone surrogates escaped (a title read from
    input may hold them; XML and UTF-8 cannot)."""
    e = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): number(v)
                                    for k, v in attrs.items() if v is not None})
    if text is not None:
        e.text = escape_text(text, keep="\t\n")
    return e


def cell_size_for(n: int) -> float:
    """Default cell side in SVG units: 50 up to 9x9, larger for 16x16 (68) and 25x25 (85),
    so that the k x k candidates of a cell stay about 10 units high.

    >>> cell_size_for(9), cell_size_for(16), cell_size_for(25)
    (50.0, 68.0, 85.0)
    """
    k = max(1, math.ceil(math.sqrt(n)))
    return 50.0 if k <= 3 else 17.0 * k


# -- the canvas --------------------------------------------------------------------------
class Canvas:
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
        self.defs = element(self.root, "defs")
        self.layer: dict[str, ET.Element] = {
            name: element(self.root, "g", class_=f"layer-{name}") for name in self.LAYERS}
        self.background = element(self.layer["background"], "rect", x=0, y=0, width=self.width,
                              height=0, fill="#ffffff")
        if title:
            element(self.layer["caption"], "text", title, class_="title", x=self.width / 2,
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
        return element(self.layer[layer], "rect", class_=class_, x=self.x(c) + inset,
                   y=self.y(r) + inset, width=self.S - 2 * inset, height=self.S - 2 * inset,
                   fill=fill, fill_opacity=opacity)

    def text(self, layer: str, x: float, y: float, s: str, size: float, class_: str,
             fill: str = INK, bold: bool = False, anchor: str = "middle") -> ET.Element:
        """Text centred vertically on y (baseline at y + 0.35 em)."""
        return element(self.layer[layer], "text", s, class_=class_, x=x, y=y + 0.35 * size,
                   font_size=size, text_anchor=anchor, fill=fill,
                   font_weight="bold" if bold else None)

    def polyline(self, layer: str, pts: Sequence[tuple[float, float]], colour: str,
                 width: float, class_: str, dash: str | None = None,
                 opacity: float | None = None) -> ET.Element:
        return element(self.layer[layer], "polyline", class_=class_,
                   points=" ".join(f"{number(a)},{number(b)}" for a, b in pts), fill="none",
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
        self.layer["lines"].set("opacity", number(LINE_OPACITY))

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
            self.background.set("width", number(self.width))
            self.height = max(self.top + grid_h + self.pad,
                              self.top + len(lines) * step + self.pad)
        for line in lines:
            element(self.layer["caption"], "text", line, class_="note", x=x, y=y,
                font_size=fs, fill="#333333")
            y += step
        self.background.set("height", number(self.height))
        self.root.set("width", number(self.width))
        self.root.set("height", number(self.height))
        self.root.set("viewBox", f"0 0 {number(self.width)} {number(self.height)}")

    def svg(self, keep_layers: bool = False) -> str:
        self.finish()
        if not keep_layers:
            for g in list(self.root):
                if g.tag == "g" and len(g) == 0:
                    self.root.remove(g)
            if len(self.defs) == 0:
                self.root.remove(self.defs)
        return ET.tostring(self.root, encoding="unicode")


def cage_outline(cv: Canvas, cells: Iterable[int], inset: float) -> str:
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
            out.append(f"M{number(a)} {number(y0 + inset)}H{number(b)}")
        if not has(r + 1, c):      # bottom
            a = x0 + inset if not has(r, c - 1) else (x0 - inset if has(r + 1, c - 1) else x0)
            b = x1 - inset if not has(r, c + 1) else (x1 + inset if has(r + 1, c + 1) else x1)
            out.append(f"M{number(a)} {number(y1 - inset)}H{number(b)}")
        if not has(r, c - 1):      # left, top to bottom
            a = y0 + inset if not has(r - 1, c) else (y0 - inset if has(r - 1, c - 1) else y0)
            b = y1 - inset if not has(r + 1, c) else (y1 + inset if has(r + 1, c - 1) else y1)
            out.append(f"M{number(x0 + inset)} {number(a)}V{number(b)}")
        if not has(r, c + 1):      # right
            a = y0 + inset if not has(r - 1, c) else (y0 - inset if has(r - 1, c + 1) else y0)
            b = y1 - inset if not has(r + 1, c) else (y1 + inset if has(r + 1, c + 1) else y1)
            out.append(f"M{number(x1 - inset)} {number(a)}V{number(b)}")
    return "".join(out)


# -- the grid ---------------------------------------------------------------------------
def draw_grid(cv: Canvas) -> None:
    g, S = cv.grid, cv.S
    layer = cv.layer["grid"]
    for cell in range(g.size):
        r, c = g.rc(cell)
        element(layer, "rect", class_="cell", x=cv.x(c), y=cv.y(r), width=S, height=S,
            fill="none", stroke="#a0a0a0", stroke_width=max(0.8, S * 0.015))
    if g.regions:
        d = []
        reg = g.region_of
        for cell in range(g.size):
            r, c = g.rc(cell)
            right, below = g.at(r, c + 1), g.at(r + 1, c)
            if right >= 0 and reg[cell] != reg[right]:
                d.append(f"M{number(cv.x(c + 1))} {number(cv.y(r))}V{number(cv.y(r + 1))}")
            if below >= 0 and reg[cell] != reg[below]:
                d.append(f"M{number(cv.x(c))} {number(cv.y(r + 1))}H{number(cv.x(c + 1))}")
        if d:
            element(layer, "path", class_="region-border", d="".join(d), fill="none", stroke=INK,
                stroke_width=S * 0.05, stroke_linecap="square")
    origins = getattr(g, "origins", None)
    if origins is None:
        element(layer, "rect", class_="border", x=cv.x(0), y=cv.y(0), width=cv.cols * S,
            height=cv.rows * S, fill="none", stroke=INK, stroke_width=S * 0.06)
        return
    for (r0, c0) in origins:                 # a multi-grid: each sub-grid's frame
        element(layer, "rect", class_="border subgrid-border", x=cv.x(c0), y=cv.y(r0),
            width=cv.n * S, height=cv.n * S, fill="none", stroke=INK,
            stroke_width=S * 0.06)
