"""The overlays of explained steps (:mod:`sudoku_csp.render`): the houses a step names shaded,
its pattern, colouring classes and fins highlighted, eliminations struck in red, placements
in green, chain links as arrows (strong solid, weak dashed) and a proof's trial, what
follows from it and where it breaks; also each step's markup by layer for a step-through
page (:func:`step_layers`)."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Sequence

from csp.grid import Grid
from csp.model import Puzzle
from csp.step import Candidate, Link, Step

from .palette import (CHAIN_FILL, COLOUR_FILLS, ELIM_FILL, ELIM_STROKE, FIN_FILL, FORCED_FILL,
                      HOUSE_FILL, IMPLY, PATTERN_FILL, PLACE_FILL, STRONG, TRIAL_FILL, WEAK)
from .rules import rule_name
from .svg_canvas import Canvas, cage_outline, element, number

# -- step overlays --------------------------------------------------------------------
def _house_cells(grid: Grid, puzzle: Puzzle | None) -> dict[str, tuple[int, ...]]:
    """The cells of every name a step may give a house or a rule: the grid's houses, then
    the puzzle's rule names (:func:`_rule_cells`)."""
    out: dict[str, tuple[int, ...]] = {h.name: h.cells for h in grid.houses}
    if puzzle is not None:
        named = puzzle.derived(_rule_cells) if puzzle.frozen else _rule_cells(puzzle)
        for name, cells in named.items():
            out.setdefault(name, cells)
    return out


def _rule_cells(puzzle: Puzzle) -> dict[str, tuple[int, ...]]:
    """The cells of every name a step may give a rule, from the rule objects: the
    constraints' names, a rule bundle's label, its kind and first cell (``thermo r4c8``, as
    the thermometer techniques name theirs), the line techniques' names of their lines
    (``whispers (difference 4) r1c1``), and the names of the propagators of a solved
    (frozen) puzzle, which the ``constraint`` steps carry (``skyscraper 2 at r10c8 and 3
    opposite``: two clues of a line share one propagator); a name several propagators share
    has the cells of all of them. Kept with a frozen puzzle (:meth:`Puzzle.derived`)."""
    grid = puzzle.grid
    frozen = puzzle.frozen
    out: dict[str, tuple[int, ...]] = {}
    for c in puzzle.constraints:
        if c.name and c.cells:
            out.setdefault(c.name, tuple(c.cells))
    for bundle, _n in puzzle.bundles:
        cells = getattr(bundle, "cells", None)
        if not cells:
            continue
        try:
            ids = tuple(dict.fromkeys(grid.cells(cells)))
        except Exception:      # noqa: BLE001 - a bundle whose cells are not a cell list
            continue
        if ids:
            out.setdefault(f"{rule_name(bundle)} {grid.name(ids[0])}", ids)
    if any(getattr(b, "cells", None) for b, _n in puzzle.bundles):
        from variants.line_tables import line_tables
        for line in line_tables(puzzle).lines:   # 'whispers (difference 4) r1c1', ...
            out.setdefault(line.name, line.cells)
    if frozen:
        by_prop: dict[str, dict[int, None]] = {}
        for prop in puzzle.engine().props:
            if prop.name and prop.scope:
                by_prop.setdefault(prop.name, {}).update(dict.fromkeys(prop.scope))
        for name, scope in by_prop.items():
            out.setdefault(name, tuple(scope))
    return out


def _shade_houses(cv: Canvas, names: Sequence[str], puzzle: Puzzle | None) -> None:
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
        w = number(S)
        d = "".join(f"M{number(cv.x(c))} {number(cv.y(r))}h{w}v{w}h-{w}z"
                    for r, c in map(g.rc, shaded))
        element(cv.layer["houses"], "path", class_="house", d=d, fill=HOUSE_FILL)


def house_markup(cv: Canvas, names: Sequence[str], puzzle: Puzzle | None) -> str:
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


def draw_step(cv: Canvas, step: Step, puzzle: Puzzle | None, placed: Sequence[int]) -> None:
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

    def mark(cd: Candidate, cls: str, fill: str) -> None:
        """A disc behind candidate ``cd`` (once per candidate: the first group wins)."""
        if valid(cd) and not placed[cd.cell] and cd not in seen:
            seen.add(cd)
            x, y = cv.cand_xy(*cd)
            element(cv.layer["cand_bg"], "circle", class_=cls, cx=x, cy=y, r=rad, fill=fill)

    for cls, fill, bits in groups:
        for c in range(size):
            if bits >> c & 1:
                mark(Candidate(c, digit), cls, fill)
    proof = _proof_picture(step)
    if proof:
        _draw_proof(cv, proof, puzzle, placed, seen)
    for cd in () if proof else step.pattern:
        mark(cd, "pattern", PATTERN_FILL)
    for ln in step.links:
        for cd in (*ln.a, *ln.b):
            mark(cd, "chain-node", CHAIN_FILL)
    for cd in step.placements:
        if valid(cd) and not placed[cd.cell]:
            # a filled square behind the digit (a ring around a C would read as a (c))
            x, y = cv.cand_xy(*cd)
            cv.cell_rect("cand_bg", cd.cell, "#d4f5d4", "place-cell")
            element(cv.layer["cand_bg"], "rect", class_="place", x=x - rad, y=y - rad,
                width=2 * rad, height=2 * rad, rx=rad * 0.3, ry=rad * 0.3, fill=PLACE_FILL,
                fill_opacity=0.8)
    for cd in step.eliminations:
        if valid(cd) and not placed[cd.cell]:
            x, y = cv.cand_xy(*cd)
            if cd not in seen:
                element(cv.layer["cand_bg"], "circle", class_="elim-bg", cx=x, cy=y, r=rad,
                    fill=ELIM_FILL)
            grp = element(cv.layer["overlay"], "g", class_="elim")
            h = rad * 0.8
            element(grp, "line", x1=x - h, y1=y + h, x2=x + h, y2=y - h, stroke=ELIM_STROKE,
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


def _draw_proof(cv: Canvas, proof: dict, puzzle: Puzzle | None, placed: Sequence[int],
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
            element(cv.layer["cand_bg"], "circle", class_=cls, cx=x, cy=y, r=rad, fill=fill)
    arrows = [Link((Candidate(*a),), (Candidate(*b),), True) for a, b in proof.get("arrows", ())]
    if arrows:
        _draw_links(cv, arrows, IMPLY, "implies")
    cells = list(proof.get("broken", ()))
    if proof.get("house"):
        cells += _house_cells(g, puzzle).get(proof["house"], ())
    cells = sorted({c for c in cells if 0 <= c < g.size})
    if cells:
        element(cv.layer["overlay"], "path", class_="broken", d=cage_outline(cv, cells, S * 0.04),
            fill="none", stroke=ELIM_STROKE, stroke_width=S * 0.05, stroke_linecap="round")


def link_markers(cv: Canvas) -> None:
    """The arrowheads of chain links (once per picture)."""
    if cv.root.find("defs/marker") is not None:
        return
    for ident, colour in (("link-strong", STRONG), ("link-weak", WEAK), ("link-implies", IMPLY)):
        m = element(cv.defs, "marker", id=ident, viewBox="0 0 10 10", refX=10, refY=5,
                markerWidth=4, markerHeight=4, orient="auto", markerUnits="strokeWidth")
        element(m, "path", d="M0 0L10 5L0 10z", fill=colour)


#: arrowhead length in stroke widths (the marker's markerWidth)
ARROW_LENGTH = 4


def _draw_links(cv: Canvas, links: Sequence[Link], colour: str | None = None,
                kind: str | None = None) -> None:
    """Chain links as curved arrows from node to node (strong solid, weak dashed; or all
    solid in ``colour``, class ``kind``: a proof's implications). Each arrow leaves and
    ends at the edge of its nodes' discs (or group boxes), so no arrowhead covers a digit;
    nodes close together get a stronger bend, so that the arrowhead has room."""
    S, g = cv.S, cv.grid
    link_markers(cv)
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
            element(cv.layer["links"], "rect", class_="group", x=x0, y=y0, width=x1 - x0,
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
        element(cv.layer["links"], "path", class_=f"link {style}",
            d=f"M{number(x1)} {number(y1)}Q{number(mx)} {number(my)} {number(x2)} {number(y2)}",
            fill="none", stroke=colour or (STRONG if ln.strong else WEAK), stroke_width=stroke,
            stroke_dasharray=None if ln.strong else f"{number(S * 0.1)},{number(S * 0.07)}",
            marker_end=f"url(#link-{style})")


#: the layers a step draws on (see :func:`step_layers`)
STEP_LAYERS = ("houses", "cand_bg", "overlay", "links")


def step_layers(cv: Canvas, step: Step, puzzle: Puzzle | None,
                placed: Sequence[int]) -> dict[str, str]:
    """The SVG markup a step adds to each of :data:`STEP_LAYERS` of ``cv`` (the canvas is
    left as it was): what a step-through page swaps in per step."""
    saved = {name: cv.layer[name] for name in STEP_LAYERS}
    fresh = {name: ET.Element("g") for name in STEP_LAYERS}
    cv.layer.update(fresh)
    try:
        draw_step(cv, step, puzzle, placed)
    finally:
        cv.layer.update(saved)
    return {name: "".join(ET.tostring(e, encoding="unicode") for e in g)
            for name, g in fresh.items() if len(g)}
