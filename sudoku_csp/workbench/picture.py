"""The picture of true candidates: the puzzle and its rules as :mod:`sudoku_csp.render`
draws them, every cell's true candidates coloured by how many solutions hold them, and the
candidates only the logic keeps struck through in red.

>>> from sudoku_csp.workbench import true_candidates
>>> svg = candidates_svg(true_candidates(".2.4....3.......", cap=3))
>>> svg.count('class="cand-one"'), svg.count('class="cand-some"'), svg.count('class="cand-many"')
(9, 6, 0)
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from csp.step import digit_symbol

from ..render import CAND, INK, PLACED, canvas

if TYPE_CHECKING:
    from .candidates import TrueCandidates

__all__ = ["candidates_svg", "ONE", "SOME", "MANY", "LOGICAL_ONLY", "UNDECIDED"]

#: a candidate in exactly one solution
ONE = "#1a7f37"
#: in two or more solutions, below the cap
SOME = "#c25e00"
#: in at least ``cap`` solutions (cap > 1)
MANY = "#7b3fa0"
#: kept by the logic solver, in no solution
LOGICAL_ONLY = "#d00000"
#: not decided (the run was cut short)
UNDECIDED = "#a0a0a0"


def candidates_svg(res: "TrueCandidates", title: str | None = None) -> str:
    """SVG of a :class:`~sudoku_csp.workbench.TrueCandidates` answer. Givens are drawn as
    givens, a cell with one true candidate as a placed digit, the other cells' true
    candidates small: with ``cap`` 1 all in one ink; with a higher cap green in one
    solution, orange in several, purple at the cap or more. Logical-only candidates are red
    and struck through, undecided ones grey; a line under the grid says so."""
    p = res.puzzle
    g = p.grid
    cv = canvas(p, title=title)
    cap = res.cap
    given = p.given
    fs = cv.S * 0.62
    cfs = cv.cand_font()
    logical = res.logical_candidates
    undecided: dict[int, set[int]] = {}
    for name in res.undecided:
        cell_name, _, d = name.partition("=")
        undecided.setdefault(p.cell(cell_name), set()).add(int(d))
    used: set[str] = set()
    rows = res.count_rows()
    for c in range(g.size):
        x, y = cv.centre(c)
        if c in given:
            cv.text("digits", x, y, digit_symbol(given[c]), fs, "given", fill=INK)
            continue
        true = res.candidates[c]
        extra = [d for d in (logical[c] if logical is not None else ()) if d not in true]
        more = sorted(undecided.get(c, ()))
        if len(true) == 1 and not extra and not more and res.complete:
            cv.text("digits", x, y, digit_symbol(true[0]), fs, "placed", fill=PLACED)
            continue
        for d in true:
            k = rows[c][d - 1]
            if cap == 1:
                cls, fill = "cand", CAND
            elif k >= cap:
                cls, fill = "cand-many", MANY
            elif k == 1:
                cls, fill = "cand-one", ONE
            else:
                cls, fill = "cand-some", SOME
            used.add(cls)
            cx, cy = cv.cand_xy(c, d)
            cv.text("digits", cx, cy, digit_symbol(d), cfs, cls, fill=fill, bold=cap > 1)
        for d in extra:
            used.add("logical-only")
            cx, cy = cv.cand_xy(c, d)
            cv.text("digits", cx, cy, digit_symbol(d), cfs, "logical-only", fill=LOGICAL_ONLY)
            w = cfs * 0.45
            ET.SubElement(cv.layer["overlay"], "line", {
                "class": "strike", "x1": f"{cx - w:.2f}", "y1": f"{cy + w:.2f}",
                "x2": f"{cx + w:.2f}", "y2": f"{cy - w:.2f}", "stroke": LOGICAL_ONLY,
                "stroke-width": f"{cfs * 0.12:.2f}"})
        for d in more:
            used.add("undecided")
            cx, cy = cv.cand_xy(c, d)
            cv.text("digits", cx, cy, digit_symbol(d), cfs, "undecided", fill=UNDECIDED)
    cv.notes.append(_caption(res, used))
    return cv.svg()


def _caption(res: "TrueCandidates", used: set[str]) -> str:
    parts = [{"unique": "Unique solution.", "multiple": "Several solutions.",
              "unsolvable": "No solution.", "limit": "Stopped before two solutions."}
             [res.status]]
    if res.cap > 1:
        parts.append(f"Candidates by solutions: green 1, orange 2-{res.cap - 1}, "
                     f"purple {res.cap} or more." if res.cap > 2 else
                     "Candidates by solutions: green 1, purple 2 or more.")
    if "logical-only" in used:
        parts.append("Red, struck: the logic keeps them, no solution has them.")
    if "undecided" in used or not res.complete:
        parts.append("Grey: not decided (stopped early).")
    return " ".join(parts)
