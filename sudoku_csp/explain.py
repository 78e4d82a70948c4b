"""A whole logic solve as one self-contained HTML step-through (``sudoku-csp explain``, and
a :class:`~techniques.solver.LogicResult` in Jupyter).

:func:`explain_html` turns a logic result into a page: the puzzle and its rules, the rating,
and every step -- its picture (pattern, eliminations, placements, chain links) on the
candidates before it, and its explanation -- with previous/next buttons, arrow keys, a step
list to jump to, a "show candidates" switch and a hint mode that reveals a step in three
levels (technique, then digits and houses, then the full deduction). Where the solve stops
(several solutions, stuck, over its time limit) the page says so at the top, with the
solve's reason, and at its last position. Everything is inline (CSS, script, SVG):
no network, no external script or font.

To stay small on long solves the picture is one base SVG (grid and rules, drawn by
:mod:`sudoku_csp.render`) plus, per step, only what changes: the step's overlay markup
(:func:`sudoku_csp.render.step_layers`) and the digits it places or removes; the page's
script draws the digits and candidates of each position from those changes.

>>> from variants import classic_puzzle
>>> from techniques import StepSolver
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> res = StepSolver().solve(p)
>>> page = explain_html(res)
>>> page.startswith("<!DOCTYPE html>"), "http" in page.replace("http://www.w3.org/2000/svg", "")
(True, False)
>>> data = explain_data(res)
>>> data["status"], len(data["steps"]) > 0, sorted(data["steps"][0])
('solved', True, ['d', 'k', 'o', 'r', 't'])
"""
from __future__ import annotations

import html
import json
import re
import uuid
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from csp.model import Puzzle
from csp.state import State
from csp.step import Step, digit_symbol
from csp.text import escape_text

from variants.arrow import arrow
from variants.classic import classic
from variants.inequality import less_than
from variants.killer import killer_cage
from variants.parity import even, odd

from . import render

if TYPE_CHECKING:
    from techniques.solver import LogicResult

__all__ = ["explain_html", "explain_data", "states_before", "STATUS_TEXT"]

#: what the page says where the solve ends, by status ({reason}: the run's own reason)
STATUS_TEXT = {
    "solved": "Solved by logic in {n} steps.",
    "multiple": "The solve stops here after {n} steps: the puzzle has {reason}, so logic "
                "alone cannot finish it (several solutions).",
    "stuck": "The solve stops here after {n} steps: none of the selected techniques "
             "applies to this position (stuck).",
    "limit": "The solve stops here: {reason}.",
    "unsolvable": "The solve stops here after {n} steps: the puzzle has no solution "
                  "({reason}).",
}

#: the badge at the top of the page, by status
BADGE = {"solved": "solved", "stuck": "stuck", "limit": "stopped", "multiple":
         "several solutions", "unsolvable": "no solution"}

# a candidate (cell, digit) in the page's data: cell * 64 + digit (digits are at most 35)
_SHIFT = 64


def states_before(start: State, steps: Sequence[Step]) -> Iterator[State]:
    """The state before each step and, last, the state after all of them: ``start`` with
    the steps applied one by one, each state a copy. The finished solve is replayed through
    the human loop itself (:func:`techniques.loop.replay`), so steps are applied exactly as
    the solve applied them."""
    from techniques.loop import replay
    return replay(start, steps)


def _code(cell: int, digit: int) -> int:
    return cell * _SHIFT + digit


def focus_house(grid: Any, step: Step) -> str | None:
    """Where a step that names no house happens, for a level-1 hint: the box (or region,
    or first house) of the cell it places a digit in, else of its first elimination ("Naked
    Single digit 7" becomes "... in box 4", and the hint shades box 4).

    >>> from csp.grid import Grid
    >>> from csp.step import Candidate
    >>> focus_house(Grid(9), Step("naked_single", placements=(Candidate(40, 7),)))
    'box 5'
    """
    cells = [c for c, _ in (*step.placements, *step.eliminations) if 0 <= c < grid.size]
    if not cells:
        return None
    mine = [h for h in grid.houses if cells[0] in h.cells]
    boxes = [h for h in mine if h.kind in ("box", "region")]
    pick = boxes or mine
    return pick[0].name if pick else None


def _box_on_canvas(grid: Any) -> list[int] | None:
    """The (rows, columns) of the grid's boxes when they tile its canvas from the top
    left (classic grids, samurai), so that the page can enlarge the box clicked on."""
    shape = grid.box_shape if grid.region_kind == "box" else None
    if shape and all(r % shape[0] == 0 and c % shape[1] == 0
                     for r, c in getattr(grid, "origins", ())):
        return list(shape)
    return None


def _delta(before: State, after: State) -> tuple[list[int], list[int]]:
    """(placed, removed): the digits a step placed and the candidates it removed from the
    cells still open after it."""
    placed, removed = [], []
    for c in range(before.grid.size):
        if after.placed[c] and not before.placed[c]:
            placed.append(_code(c, after.placed[c]))
        elif not after.placed[c]:
            gone = before.cand[c] & ~after.cand[c]
            d = 0
            while gone:
                if gone & 1:
                    removed.append(_code(c, d))
                gone >>= 1
                d += 1
    return placed, removed


def _text_html(text: str) -> str:
    """Escaped text with ``<wbr>`` at the break points of
    :func:`sudoku_csp.render.break_atoms` (never inside a cell name)."""
    out = []
    for atom, space in render.break_atoms(text):
        if out:
            out.append(" " if space else "<wbr>")
        out.append(html.escape(atom))
    return "".join(out)


#: what a rule means, for rules whose docstring does not say it plainly
_RULE_TEXT: dict[type, str] = {
    classic: "Each row, column and box holds every digit once.",
    arrow: "The digits along an arrow add up to the number in its circle.",
    odd: "Cells with a grey circle hold odd digits.",
    even: "Cells with a grey square hold even digits.",
    less_than: "The sign points at the smaller digit.",
    killer_cage: "Cells in a cage hold different digits adding up to its total.",
}


def _rule_text(rule: Any) -> str:
    """One plain sentence on what a rule means (its table entry, or its docstring's first
    sentence without markup)."""
    text = _RULE_TEXT.get(type(rule))
    if text:
        return text
    doc = getattr(rule, "__doc__", None) or ""
    doc = " ".join(doc.strip().split("\n\n")[0].split())
    doc = re.sub(r":\w+:`~?([^`]*)`", r"\1", doc).replace("``", "")
    m = re.match(r"(.+?[.!?])(\s|$)", doc)
    return m.group(1) if m else doc


def _rules(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The puzzle's rules: each kind once, with how often it occurs and what it means."""
    kinds: dict[str, dict[str, Any]] = {}

    def add(name: str, doc: str) -> None:
        k = kinds.setdefault(name, {"name": name, "count": 0, "doc": ""})
        k["count"] += 1
        if not k["doc"] and doc:
            k["doc"] = doc

    covered: set[int] = set()
    for (b, _n), cons in zip(puzzle.bundles, puzzle.bundle_constraints):
        covered.update(id(c) for c in cons)
        add(render.rule_name(b), _rule_text(b))
    houses = {tuple(sorted(h.cells)) for h in puzzle.grid.houses}
    for con in puzzle.constraints:
        if id(con) in covered or (con.house() is not None
                                  and tuple(sorted(con.house() or ())) in houses):
            continue
        add(render.rule_name(con) if con.kind == "function" else con.kind, "")
    return list(kinds.values())


def explain_data(result: "LogicResult", puzzle: Puzzle | None = None,
                 start: State | None = None, level: int = 2) -> dict[str, Any]:
    """The page's data (JSON-able): the geometry of the base picture, the start position,
    and per step its texts (``t``: levels 0-2 as HTML), overlay markup by layer (``o``),
    the digits it placed (``d``) and candidates it removed (``r``) as ``cell*64+digit``,
    and the candidates its picture involves (``k``, shown when candidates are hidden).
    ``start`` is the state the solve began from (default: the puzzle's pencil marks)."""
    data, _cv = _build(result, puzzle, start, level)
    return data


def _build(result: "LogicResult", puzzle: Puzzle | None, start: State | None,
           level: int) -> tuple[dict[str, Any], Any]:
    if puzzle is None:
        puzzle = result.state.puzzle
    if start is None:
        start = puzzle.pencilmarks()
    cv = render.canvas(puzzle, start.grid, title="")   # the page has its own heading
    render.link_markers(cv)
    cv.under_candidates()
    g = cv.grid
    states = list(states_before(start, result.steps))
    steps = []
    for step, before, after in zip(result.steps, states, states[1:]):
        placed, removed = _delta(before, after)
        involved = sorted({_code(c, d) for c, d in render.step_candidates(step)
                           if 0 <= c < g.size and 1 <= d <= g.n and not before.placed[c]})
        texts = [step.explain(i) for i in range(3)]
        layers = render.step_layers(cv, step, puzzle, before.placed)
        focus = None if step.houses else focus_house(g, step)
        if focus:
            texts[1] += f" in {focus}"
            layers["focus"] = render.house_markup(cv, [focus], puzzle)
        steps.append({
            "t": [_text_html(t) for t in texts],
            "o": layers,
            "d": placed, "r": removed, "k": involved,
        })
    r = result.rating
    data = {
        "n": g.n, "size": g.size, "sym": "".join(digit_symbol(d) for d in range(1, g.n + 1)),
        "geo": {"S": cv.S, "pad": cv.pad, "top": cv.top, "k": cv.k, "cs": cv.cand_scale,
                "ins": round(cv.cand_inset, 3), "tot": sorted(cv.total_cells),
                "tt": round(cv.S * render.TOTAL_TOP, 3),
                "box": _box_on_canvas(g),
                "pos": [x for c in range(g.size) for x in g.rc(c)]},
        "given": [c for c in range(g.size) if start.given[c]],
        "placed": list(start.placed),
        "cand": [0 if start.placed[c] else start.cand[c] for c in range(g.size)],
        "steps": steps,
        "status": result.status,
        "reason": result.reason,
        "end": _text_html(STATUS_TEXT.get(result.status, "The solve ends here ({s}).").format(
            n=len(result.steps), s=result.status, reason=result.reason or result.status)),
        "level": max(0, min(2, level)),
        # a rating only for a finished solve: the steps of an unfinished one rate nothing
        "rating": {"score": r.score, "level": r.level, "basis": r.basis,
                   "hardest": r.hardest and r.hardest.replace("_", " ")}
        if result.status == "solved" else None,
        "time_ms": round(result.time_ms, 1),
    }
    return data, cv


def _info_html(puzzle: Puzzle, data: dict[str, Any], result: "LogicResult") -> str:
    meta = puzzle.meta
    out = []
    if meta.get("author"):
        out.append(f"<p class='scsp-author'>by {html.escape(escape_text(str(meta['author'])))}"
                   "</p>")
    if meta.get("ruleset"):
        text = html.escape(escape_text(str(meta["ruleset"]), keep="\n")).replace("\n", "<br>")
        out.append(f"<div class='scsp-ruleset'>{text}</div>")
    items = []
    for k in _rules(puzzle):
        count = f" &times;{k['count']}" if k["count"] > 1 else ""
        doc = f": {html.escape(k['doc'])}" if k["doc"] else ""
        items.append(f"<li><b>{html.escape(k['name'])}</b>{count}{doc}</li>")
    g = puzzle.grid
    shape = (f"{g.height}x{g.width} canvas, {len(getattr(g, 'origins', ()))} grids of {g.n}x{g.n}"
             if not g.square else f"{g.n}x{g.n}" + (", jigsaw regions"
                                                   if g.region_kind == "region" else ""))
    out.append(f"<p>Grid: {html.escape(shape)}; {len(puzzle.given)} givens.</p>")
    if items:
        out.append("<ul class='scsp-rules'>" + "".join(items) + "</ul>")
    if data["rating"] is not None:        # a finished solve only
        out.append(f"<p class='scsp-scale'>Rating: "
                   f"{html.escape(rating_scale(data['rating'])[1])}</p>")
    counts = sorted(result.rating.counts.items(), key=lambda kv: -kv[1])
    if counts:
        out.append("<p class='scsp-counts'>Techniques used: " + ", ".join(
            f"{html.escape(name.replace('_', ' '))} &times;{n}" for name, n in counts) + "</p>")
    return "".join(out)


def rating_scale(rating: dict[str, Any]) -> tuple[str, str]:
    """(short, long): what a rating's score means on its scale. HoDoKu's (classic 9x9,
    jigsaw, diagonal, samurai) adds every step's score, and its level bands are for 9x9;
    the idea scale (variants, other sizes) adds each technique's score once, so a 16x16
    "medium" of 82 and a 9x9 "medium" of 602 are the same level on two scales.

    >>> rating_scale({"score": 602, "level": "medium", "basis": "steps"})[0]
    'medium (602 on the step scale: medium is up to 1000)'
    >>> rating_scale({"score": 82, "level": "medium", "basis": "ideas"})[0]
    'medium (82 on the idea scale)'
    """
    from techniques.registry import LEVEL_MAX_SCORE, LEVELS
    level, score = rating["level"], rating["score"]
    if rating.get("basis") == "ideas":
        return (f"{level} ({score} on the idea scale)",
                "The level is that of the hardest technique used; the score adds each "
                "technique's score once (the scale of variants and of grids other than "
                "9x9: not comparable with the step scores of classic 9x9 puzzles).")
    bands = ", ".join(f"{lv} up to {LEVEL_MAX_SCORE[lv]}" for lv in LEVELS[:-1])
    top = LEVEL_MAX_SCORE[level]
    where = f"{level} is up to {top}" if level != LEVELS[-1] else \
        f"{level} is past {LEVEL_MAX_SCORE[LEVELS[-2]]}"
    return (f"{level} ({score} on the step scale: {where})",
            f"HoDoKu's rating: the score adds every step's score; the level is the hardest "
            f"step's, raised while the score passes its band ({bands}, {LEVELS[-1]} "
            f"beyond).")


def _summary(data: dict[str, Any]) -> str:
    """The line under the title: the outcome first (a badge; for an unfinished solve its
    reason, e.g. "at least 2 solutions"), the steps, the rating of a finished solve, the
    time."""
    r = data["rating"]
    n = len(data["steps"])
    status = data["status"]
    badge = (f"<span class='scsp-badge scsp-{html.escape(status)}'>"
             f"{html.escape(BADGE.get(status, status))}</span> ")
    if r is None:
        why = f"<b class='scsp-why'>{html.escape(data['reason'] or status)}</b> &middot; "
        what = f"{why}{n} steps, not rated"
    else:
        hardest = f" &middot; hardest: {html.escape(r['hardest'])}" if r["hardest"] else ""
        short, long = rating_scale(r)
        what = (f"{n} steps &middot; <span class='scsp-rating' title='{html.escape(long)}'>"
                f"rating {html.escape(short)}</span>{hardest}")
    return f"{badge}{what} &middot; {_seconds(data['time_ms'] / 1000)}"


def _seconds(t: float) -> str:
    return f"{t:.2f} s" if t < 10 else f"{t:.0f} s"


def explain_html(result: "LogicResult", *, puzzle: Puzzle | None = None,
                 start: State | None = None, level: int = 2, title: str | None = None,
                 fragment: bool = False) -> str:
    """The step-through of a logic result as HTML: a whole page, or with ``fragment`` a
    ``<div>`` with its own style and script for a notebook (keys act when it has focus).
    ``level`` is the explanation detail shown (0-2); ``start`` the state the solve began
    from (default: the puzzle's pencil marks)."""
    data, cv = _build(result, puzzle, start, level)
    puzzle = puzzle or result.state.puzzle
    if title is None:
        g = puzzle.grid
        title = str(puzzle.meta.get("title") or puzzle.name or (
            f"{g.n}x{g.n} puzzle" if g.square else
            f"{len(getattr(g, 'origins', ()))} grids of {g.n}x{g.n}") + ": logic solve")
    title = escape_text(title)    # a lone surrogate or a control character shows escaped
    base = cv.svg(keep_layers=True)
    ident = "scsp-" + (uuid.uuid4().hex[:10] if fragment else "page")
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    body = (
        f"<div class='scsp{' scsp-fragment' if fragment else ' scsp-page'}' id='{ident}' "
        "tabindex='0'>"
        f"<header><h1>{html.escape(title)}</h1><p class='scsp-summary'>{_summary(data)}</p>"
        "</header><div class='scsp-main'>"
        f"<div class='scsp-board'>{base}</div>"
        "<div class='scsp-side'>"
        "<div class='scsp-nav'><button type='button' data-act='first' title='first (Home)'>"
        "&laquo;</button><button type='button' data-act='prev' title='previous (&#x2190;)'>"
        "&#x25C0; Prev</button><span class='scsp-pos'></span><button type='button' "
        "data-act='next' title='next (&#x2192;)'>Next &#x25B6;</button><button type='button' "
        "data-act='last' title='last (End)'>&raquo;</button></div>"
        "<div class='scsp-opts'><label><input type='checkbox' class='scsp-cands' checked> "
        "show candidates</label><label><input type='checkbox' class='scsp-hint'> hint mode"
        "</label></div>"
        "<div class='scsp-text' aria-live='polite'></div>"
        "<button type='button' class='scsp-reveal' data-act='reveal'>Reveal more</button>"
        "<ol class='scsp-list' start='0'></ol>"
        "<span class='scsp-zoomhint'>Click (tap) the picture to enlarge it, or the part you "
        "click on where the candidates are small; keys &#x2190; &#x2192; Home End.</span>"
        f"<details class='scsp-info'{'' if fragment else ' open'}><summary>The puzzle"
        f"{', its rules and rating' if data['rating'] else ' and its rules'}</summary>"
        f"{_info_html(puzzle, data, result)}</details>"
        "</div></div>"
        "<div class='scsp-zoombar' aria-hidden='true'><span class='scsp-zpos'></span> "
        "&middot; tap the picture to close &middot; &#x2190; &#x2192;</div>"
        f"<script type='application/json' class='scsp-data'>{payload}</script>"
        "</div>"
        f"<style>{_CSS.replace('ROOT', '#' + ident)}</style>"
        f"<script>({_JS})(document.getElementById('{ident}'), {json.dumps(not fragment)});"
        "</script>")
    if fragment:
        return body
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)}</title><style>body{{margin:0;background:#f6f6f3;}}"
            f"</style></head><body>{body}</body></html>\n")


_CSS = """
ROOT{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",Arial,sans-serif;
 color:#222;background:#fff;max-width:1400px;margin:0 auto;padding:12px 16px;
 box-sizing:border-box;line-height:1.4;outline:none}
ROOT *{box-sizing:border-box}
ROOT header h1{font-size:1.35em;margin:0 0 2px}
ROOT .scsp-summary{margin:0 0 10px;color:#444}
ROOT .scsp-rating{border-bottom:1px dotted #888;cursor:help}
ROOT .scsp-badge{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;
 font-weight:600;font-size:.9em}
ROOT .scsp-solved{background:#2e8b57}ROOT .scsp-stuck{background:#c0392b}
ROOT .scsp-limit{background:#d35400}ROOT .scsp-multiple{background:#8e44ad}
ROOT .scsp-unsolvable{background:#7f8c8d}
ROOT .scsp-main{display:flex;gap:16px;align-items:flex-start}
ROOT .scsp-board{flex:0 0 auto;min-width:0;max-width:var(--scsp-w);cursor:zoom-in}
ROOT .scsp-board svg{display:block;width:100%;height:auto}
ROOT.scsp-fragment .scsp-board{flex:1 1 auto}
ROOT.scsp-fragment .scsp-board svg{max-height:80vh}
ROOT .scsp-side{flex:1 1 360px;max-width:520px;display:flex;flex-direction:column;gap:8px;
 min-width:300px}
ROOT .scsp-zoomhint{color:#777;font-size:.85em}
ROOT .scsp-nav{display:flex;align-items:center;gap:6px}
ROOT .scsp-nav button{padding:6px 8px;white-space:nowrap}
ROOT button{font:inherit;padding:6px 10px;border:1px solid #999;border-radius:6px;
 background:#f4f4f4;cursor:pointer;min-height:36px}
ROOT button:hover{background:#e8e8e8}ROOT button:disabled{opacity:.45;cursor:default}
ROOT .scsp-pos{flex:1 1 auto;text-align:center;font-weight:600;white-space:nowrap}
ROOT .scsp-opts{display:flex;gap:16px;flex-wrap:wrap}
ROOT .scsp-opts label{cursor:pointer;user-select:none}
ROOT .scsp-text{flex:0 1 auto;min-height:4.5em;max-height:34vh;overflow-y:auto;
 padding:8px 10px;background:#fafafa;border:1px solid #ddd;border-radius:6px;
 overflow-wrap:normal;word-break:normal}
ROOT .scsp-text .scsp-lv{display:block;margin:2px 0}
ROOT .scsp-text .scsp-lv0{font-weight:700}ROOT .scsp-text .scsp-end{font-weight:700}
ROOT .scsp-text.scsp-stop{background:#fdecea;border-color:#e6a49c}
ROOT .scsp-text.scsp-done{background:#eaf6ee;border-color:#9fd3b0}
ROOT .scsp-reveal{display:none;align-self:flex-start}
ROOT.scsp-hinting .scsp-reveal{display:inline-block}
ROOT .scsp-list{margin:0;padding:0;list-style:none;max-height:46vh;overflow-y:auto;
 border:1px solid #ddd;border-radius:6px}
ROOT .scsp-list li{margin:0}
ROOT .scsp-list button{display:block;width:100%;text-align:left;border:0;border-radius:0;
 background:none;padding:3px 8px;min-height:0;font-size:.92em}
ROOT .scsp-list button:hover{background:#eef3fb}
ROOT .scsp-list .scsp-cur button{background:#dbe7fb;font-weight:600}
ROOT .scsp-list .scsp-stopitem button{color:#b03a2e;font-weight:600}
ROOT .scsp-list .scsp-n{display:inline-block;min-width:3.2em;color:#777}
ROOT.scsp-hintmode .scsp-list .scsp-ahead .scsp-nm{visibility:hidden}
ROOT .scsp-info{border-top:1px solid #ddd;padding-top:6px;font-size:.92em}
ROOT .scsp-info summary{cursor:pointer;font-weight:600}
ROOT .scsp-ruleset{white-space:normal;background:#fafafa;padding:6px 8px;border-radius:6px}
ROOT .scsp-rules{padding-left:1.2em}
ROOT .scsp-zoombar{display:none}
ROOT.scsp-zoomed .scsp-board{position:fixed;left:0;top:0;right:0;bottom:0;z-index:1000;
 max-width:none;width:auto !important;margin:0;background:#fff;display:flex;
 align-items:center;justify-content:center;cursor:zoom-out}
ROOT.scsp-zoomed .scsp-board svg{max-height:none}
ROOT.scsp-zoomed .scsp-zoombar{display:block;position:fixed;left:0;right:0;bottom:0;
 z-index:1001;height:32px;line-height:32px;text-align:center;font-size:.9em;color:#333;
 background:rgba(255,255,255,.92);border-top:1px solid #ddd;pointer-events:none}
@media (min-width:761px){
 ROOT.scsp-page{height:100vh;display:flex;flex-direction:column;overflow:hidden;
  padding-bottom:8px}
 ROOT.scsp-page header{flex:none}
 ROOT.scsp-page .scsp-summary{margin-bottom:6px}
 ROOT.scsp-page .scsp-main{flex:1 1 auto;min-height:0;align-items:stretch}
 ROOT.scsp-page .scsp-board{max-width:none;align-self:flex-start}
 ROOT.scsp-page .scsp-side{min-height:0;overflow:hidden}
 ROOT.scsp-page .scsp-list{flex:1 1 6em;min-height:4em;max-height:none}
 ROOT.scsp-page .scsp-info{flex:0 1 auto;min-height:2em;max-height:32%;overflow-y:auto}
}
@media (max-width:760px){
 ROOT{padding:8px}
 ROOT .scsp-main{flex-direction:column;gap:8px}
 ROOT .scsp-board{max-width:none;width:auto;margin:0 -8px;align-self:stretch}
 ROOT .scsp-side{flex:1 1 auto;width:100%;max-width:none;min-width:0}
 ROOT .scsp-text{height:8em;max-height:none}
 ROOT .scsp-list{max-height:40vh}
 ROOT header h1{font-size:1.15em}
}
"""

_JS = r"""function (root, page) {
  "use strict";
  var D = JSON.parse(root.querySelector("script.scsp-data").textContent);
  var svg = root.querySelector(".scsp-board svg"), board = root.querySelector(".scsp-board");
  var W = +svg.getAttribute("width"), H = +svg.getAttribute("height");
  root.style.setProperty("--scsp-w", Math.max(720, 1.5 * W) + "px");
  var layer = {};
  ["houses", "cand_bg", "digits", "overlay", "links"].forEach(function (n) {
    layer[n] = svg.querySelector("g.layer-" + n);
  });
  var G = D.geo, S = G.S, k = G.k, ins = G.ins, N = D.steps.length;
  var tot = {}; G.tot.forEach(function (c) { tot[c] = 1; });
  var given = {}; D.given.forEach(function (c) { given[c] = 1; });
  var fs = S * 0.62, cfs = (S - 2 * ins) / k * G.cs, slot = (S - 2 * ins) / k;
  // candidates are drawn at least MIN_PX px high on the screen where their slot allows
  // (a phone), and an enlarged part of the picture shows them at ZOOM_PX
  var MIN_PX = 11.5, ZOOM_PX = 16, WHOLE_PX = 13;
  var zoom = null;                     // the enlarged part: [x, y, w, h] in SVG units
  var $ = function (s) { return root.querySelector(s); };
  var text = $(".scsp-text"), posEl = $(".scsp-pos"), list = $(".scsp-list");
  var candBox = $(".scsp-cands"), hintBox = $(".scsp-hint"), zpos = $(".scsp-zpos");
  var states = [{placed: D.placed.slice(), cand: D.cand.slice()}];
  var pos = 0, reveal = 0;

  function f(v) { return (Math.round(v * 100) / 100).toString(); }
  function stateAt(i) {            // the position before step i+1 (0: the start)
    while (states.length <= i) {
      var s = states[states.length - 1], st = D.steps[states.length - 1];
      var placed = s.placed.slice(), cand = s.cand.slice();
      st.d.forEach(function (x) { var c = x >> 6; placed[c] = x & 63; cand[c] = 0; });
      st.r.forEach(function (x) { cand[x >> 6] &= ~(1 << (x & 63)); });
      states.push({placed: placed, cand: cand});
    }
    return states[i];
  }
  function pxPerUnit() {           // screen pixels per SVG unit, as shown now
    var vb = zoom || [0, 0, W, H], r = svg.getBoundingClientRect();
    return r.width ? Math.min(r.width / vb[2], r.height / vb[3]) : 0;
  }
  function candFont() {
    var px = pxPerUnit();
    if (!px || cfs * px >= MIN_PX) return cfs;
    return Math.min(MIN_PX / px, 1.2 * slot);
  }
  function candXY(c, d) {
    var r = G.pos[2 * c], col = G.pos[2 * c + 1];
    var i = Math.floor((d - 1) / k), j = (d - 1) % k;
    var top = tot[c] ? G.tt : ins;          // below a cage total's label
    var w = (S - 2 * ins) / k, h = (S - top - ins) / k;
    return [G.pad + col * S + ins + (j + 0.5) * w, G.top + r * S + top + (i + 0.5) * h];
  }
  function drawDigits(st, only) {
    var out = [], cf = candFont();
    for (var c = 0; c < D.size; c++) {
      var p = st.placed[c];
      if (p) {
        var x = G.pad + (G.pos[2 * c + 1] + 0.5) * S, y = G.top + (G.pos[2 * c] + 0.5) * S;
        var g = given[c];
        out.push('<text class="' + (g ? "given" : "placed") + '" x="' + f(x) + '" y="' +
          f(y + 0.35 * fs) + '" font-size="' + f(fs) + '" text-anchor="middle" fill="' +
          (g ? "#000000" : "#1f5fbf") + '">' + D.sym[p - 1] + "</text>");
        continue;
      }
      var m = st.cand[c];
      for (var d = 1; d <= D.n; d++) {
        if (!(m >> d & 1) || (only && !only[c * 64 + d])) continue;
        var xy = candXY(c, d);
        out.push('<text class="cand" x="' + f(xy[0]) + '" y="' + f(xy[1] + 0.35 * cf) +
          '" font-size="' + f(cf) + '" text-anchor="middle" fill="#505050">' +
          D.sym[d - 1] + "</text>");
      }
    }
    layer.digits.innerHTML = out.join("");
  }
  function setOverlay(o, names) {
    ["houses", "cand_bg", "overlay", "links"].forEach(function (n) {
      var m = "";
      if (o && names.indexOf(n) >= 0) m = o[n] || "";
      if (o && n === "houses" && names.indexOf("focus") >= 0) m = o.houses || o.focus || "";
      layer[n].innerHTML = m;
    });
  }
  function lv(html, i) { return '<span class="scsp-lv scsp-lv' + i + '">' + html + "</span>"; }
  function buildList() {
    var items = ['<li data-i="0"><button type="button" data-i="0"><span class="scsp-n">' +
      '</span><span class="scsp-nm">Start</span></button></li>'];
    D.steps.forEach(function (s, i) {
      items.push('<li data-i="' + (i + 1) + '"><button type="button" data-i="' + (i + 1) +
        '"><span class="scsp-n">' + (i + 1) + '.</span><span class="scsp-nm">' + s.t[0] +
        "</span></button></li>");
    });
    var stop = D.status !== "solved";
    items.push('<li data-i="' + (N + 1) + '"' + (stop ? ' class="scsp-stopitem"' : "") +
      '><button type="button" data-i="' + (N + 1) + '"><span class="scsp-n"></span>' +
      '<span class="scsp-nm">' + (stop ? "&#x26A0; Stops here (" + D.status + ")" :
      "End: solved") + "</span></button></li>");
    list.innerHTML = items.join("");
  }
  function show() {
    var hint = hintBox.checked;
    root.classList.toggle("scsp-hintmode", hint);
    root.classList.toggle("scsp-hinting", hint && pos >= 1 && pos <= N);
    var cls = "scsp-text", html;
    if (pos === 0) {
      posEl.textContent = "Start (" + N + " steps)";
      drawDigits(stateAt(0), candBox.checked ? null : {});
      setOverlay(null, []);
      html = lv("The puzzle with its starting candidates.", 0) +
        lv(N ? "Press Next or &#x2192; for the first step." : D.end, 1);
    } else if (pos <= N) {
      var st = D.steps[pos - 1];
      posEl.textContent = "Step " + pos + " / " + N;
      var only = null;
      if (!candBox.checked) { only = {}; st.k.forEach(function (x) { only[x] = 1; }); }
      drawDigits(stateAt(pos - 1), only);
      if (hint) {
        // level 1 shades the step's houses, or the box it happens in when it names none
        setOverlay(st.o, reveal >= 3 ? ["houses", "cand_bg", "overlay", "links"] :
          reveal >= 2 ? ["focus"] : []);
        html = reveal === 0 ? lv("Hint mode: press <b>Reveal more</b> for the technique.", 1)
          : st.t.slice(0, reveal).map(lv).join("");
        $(".scsp-reveal").disabled = reveal >= 3;
      } else {
        setOverlay(st.o, ["houses", "cand_bg", "overlay", "links"]);
        html = lv(st.t[D.level], D.level === 0 ? 0 : 2);
      }
    } else {
      posEl.textContent = (D.status === "solved" ? "Solved" : "Stopped") + " (" + N + " steps)";
      drawDigits(stateAt(N), candBox.checked ? null : {});
      setOverlay(null, []);
      html = '<span class="scsp-lv scsp-end">' + D.end + "</span>";
      cls += D.status === "solved" ? " scsp-done" : " scsp-stop";
    }
    text.className = cls;
    text.innerHTML = html;
    text.scrollTop = 0;
    zpos.textContent = posEl.textContent;
    root.querySelector('[data-act="prev"]').disabled = root.querySelector(
      '[data-act="first"]').disabled = pos === 0;
    root.querySelector('[data-act="next"]').disabled = root.querySelector(
      '[data-act="last"]').disabled = pos === N + 1;
    var items = list.children;
    for (var i = 0; i < items.length; i++) {
      items[i].className = (i === pos ? "scsp-cur " : "") +
        (i > pos || (i === pos && reveal === 0) ? "scsp-ahead" : "") +
        (i === N + 1 && D.status !== "solved" ? " scsp-stopitem" : "");
    }
    var cur = items[pos];
    if (cur) {                     // keep the current step in view inside the list only
      var top = cur.offsetTop - list.offsetTop, h = list.clientHeight;
      if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + h) {
        list.scrollTop = Math.max(0, top - h / 2);
      }
    }
  }
  // the layout: on a wide window the whole page fits it (the picture as large as the space
  // beside the controls allows); on a narrow one the picture fills the width
  function layout() {
    if (zoom) { sizeZoom(); return; }
    board.style.width = "";
    if (!page || window.innerWidth <= 760) return;
    var main = $(".scsp-main"), side = $(".scsp-side");
    var availH = main.clientHeight, availW = main.clientWidth - side.offsetWidth - 16;
    board.style.width = Math.max(160, Math.min(availW, availH * W / H)) + "px";
  }
  function sizeZoom() {
    var vw = window.innerWidth, vh = window.innerHeight - 32;
    var sc = Math.min(vw / zoom[2], vh / zoom[3]);
    svg.style.width = zoom[2] * sc + "px";
    svg.style.height = zoom[3] * sc + "px";
  }
  // enlarge: the whole picture fitted to the window when its candidates are then at least
  // ZOOM_PX high, else the part of it around the box clicked on, at that size
  function enlarge(e) {
    var vw = window.innerWidth, vh = window.innerHeight - 32;
    var upp = Math.max(W / vw, H / vh);          // SVG units per pixel, whole picture
    var x = 0, y = 0, w = W, h = H;
    if (cfs / upp < WHOLE_PX) {
      upp = cfs / ZOOM_PX;
      w = Math.min(W, vw * upp); h = Math.min(H, vh * upp);
      var m = svg.getScreenCTM(), pt = svg.createSVGPoint();
      pt.x = e.clientX; pt.y = e.clientY;
      var p = m ? pt.matrixTransform(m.inverse()) : {x: W / 2, y: H / 2};
      if (G.box) {                 // centre on the box clicked on
        var br = G.box[0] * S, bc = G.box[1] * S;
        p = {x: G.pad + (Math.floor((p.x - G.pad) / bc) + 0.5) * bc,
             y: G.top + (Math.floor((p.y - G.top) / br) + 0.5) * br};
      }
      x = Math.max(0, Math.min(W - w, p.x - w / 2));
      y = Math.max(0, Math.min(H - h, p.y - h / 2));
    }
    zoom = [x, y, w, h];
    svg.setAttribute("viewBox", zoom.map(f).join(" "));
    root.classList.add("scsp-zoomed");
    if (page) document.documentElement.style.overflow = "hidden";
    sizeZoom();
    show();
  }
  function unzoom() {
    zoom = null;
    svg.setAttribute("viewBox", "0 0 " + f(W) + " " + f(H));
    svg.style.width = svg.style.height = "";
    root.classList.remove("scsp-zoomed");
    if (page) document.documentElement.style.overflow = "";
    layout();
    show();
  }
  function go(i) {
    i = Math.max(0, Math.min(N + 1, i));
    if (i !== pos) { pos = i; reveal = 0; }
    show();
  }
  root.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b || !root.contains(b)) return;
    var act = b.getAttribute("data-act");
    if (b.hasAttribute("data-i")) go(+b.getAttribute("data-i"));
    else if (act === "prev") go(pos - 1);
    else if (act === "next") go(pos + 1);
    else if (act === "first") go(0);
    else if (act === "last") go(N + 1);
    else if (act === "reveal") { reveal = Math.min(3, reveal + 1); show(); }
  });
  board.addEventListener("click", function (e) {
    if (zoom) unzoom(); else enlarge(e);
  });
  candBox.addEventListener("change", show);
  hintBox.addEventListener("change", function () { reveal = 0; show(); });
  (page ? document : root).addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target && e.target.tagName;
    if (t === "TEXTAREA" || (t === "INPUT" && e.target.type === "text")) return;
    var k = e.key;
    if (k === "ArrowRight") go(pos + 1);
    else if (k === "ArrowLeft") go(pos - 1);
    else if (k === "Home") go(0);
    else if (k === "End") go(N + 1);
    else if (k === "Escape" && zoom) unzoom();
    else if ((k === " " || k === "Enter") && hintBox.checked && t !== "BUTTON" &&
             t !== "INPUT") {
      reveal = Math.min(3, reveal + 1); show();
    } else return;
    e.preventDefault();           // step, never scroll the page
  });
  var lastW = 0, lastH = 0;
  window.addEventListener("resize", function () {
    if (window.innerWidth === lastW && window.innerHeight === lastH) return;
    lastW = window.innerWidth; lastH = window.innerHeight;
    layout(); show();
  });
  buildList();
  layout();
  show();
}"""
