"""f-puzzles import (URL, LZString base64 payload, or decoded JSON -> Puzzle) and export
(:func:`to_fpuzzles`, :func:`to_fpuzzles_url`).

Cosmetic keys (``line``, ``rectangle``, ``circle``, ``text``, ``cage``) and solver-specific
ones (``disabledlogic``, ``truecandidatesoptions``) are ignored; an unknown rule key raises
:class:`csp.errors.ParseError` naming it. Titles, authors and rule texts go to
``puzzle.meta``.

>>> p = load_fpuzzles({"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}],
...                    [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]],
...                    "thermometer": [{"lines": [["R4C1", "R4C2", "R4C3"]]}]})
>>> sol = p.solve(first=True).solution
>>> sol[12] < sol[13] < sol[14]
True
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable

from csp import Grid, Puzzle
from csp.errors import InvalidPuzzle, ParseError

from .payload import decode_payload, is_fpuzzles_text  # noqa: F401  (part of this module's API)

from variants import chess, dots, inequality, killer, lines, misc, outside, parity, regions
from variants.arrow import arrow as _arrow_rule
from variants.arrow import double_arrow as _double_arrow
from variants.classic import classic

COSMETIC = {"line", "rectangle", "circle", "text", "cage", "disabledlogic",
            "truecandidatesoptions", "successMessage", "title", "author", "ruleset",
            "solution", "size", "grid", "fogofwar", "foglight"}

_CELL = re.compile(r"^R(\d+)C(\d+)$", re.I)


def load_fpuzzles(obj: dict | str) -> Puzzle:
    """Build a Puzzle from an f-puzzles JSON object (or text accepted by
    :func:`decode_payload`)."""
    if isinstance(obj, str):
        obj = decode_payload(obj)
    if not isinstance(obj, dict):
        raise ParseError("f-puzzles data must be a JSON object")
    unknown = sorted(k for k in obj if k not in COSMETIC and k not in HANDLERS)
    if unknown:
        raise ParseError(f"unknown f-puzzles rule key(s): {', '.join(unknown)}")
    if "size" not in obj:
        raise ParseError("f-puzzles data has no 'size'")
    n = obj["size"]
    if not isinstance(n, int) or not 1 <= n <= 16:
        raise ParseError(f"f-puzzles size must be an int from 1 to 16, got {n!r}")
    grid_rows = obj.get("grid")
    if (not isinstance(grid_rows, list) or len(grid_rows) != n
            or any(not isinstance(r, list) or len(r) != n for r in grid_rows)):
        raise ParseError(f"f-puzzles 'grid' must be {n} rows of {n} cells")
    regions = _regions(grid_rows, n)
    grid = Grid(n, regions=regions) if regions else Grid(n)
    p = Puzzle(grid, name=str(obj.get("title", "")))
    p.meta.update({k: obj[k] for k in ("title", "author", "ruleset", "solution") if k in obj})
    if grid.regions:
        p.use(classic())
    else:
        p.use(classic(boxes=False))
    ctx = _Ctx(p, n)
    for r, row in enumerate(grid_rows):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise ParseError(f"f-puzzles grid cell R{r + 1}C{c + 1} is not an object")
            v = cell.get("value")
            if v and cell.get("given"):
                p.set_given(r * n + c, int(v))
            gpm = cell.get("givenPencilMarks")
            if gpm:
                p.use(parity.digits(r * n + c, [int(d) for d in gpm]))
    negative = obj.get("negative") or []
    if not isinstance(negative, list):
        raise ParseError("f-puzzles 'negative' must be a list")
    for kind in negative:
        if kind not in ("difference", "ratio", "xv", "sum"):
            raise ParseError(f"unknown negative constraint {kind!r}")
    for key, handler in HANDLERS.items():
        if key in negative and key not in obj:
            obj = {**obj, key: []}    # a negative rule with no mark at all still applies
        if key in obj and key != "negative":
            try:
                handler(ctx, obj[key], negative)
            except InvalidPuzzle as e:
                raise type(e)(f"f-puzzles {key}: {e}") from None
            except (KeyError, TypeError, ValueError, IndexError) as e:
                raise ParseError(f"f-puzzles {key}: malformed entry ({type(e).__name__}: {e})") from None
    return p


def _regions(rows: list, n: int) -> list[int] | None:
    if not any(isinstance(cell, dict) and "region" in cell for row in rows for cell in row):
        return None
    g = Grid(n)
    out = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            reg = cell.get("region") if isinstance(cell, dict) else None
            out.append(int(reg) if reg is not None else (g.region_of[r * n + c] if g.regions else 0))
    return out


class _Ctx:
    def __init__(self, p: Puzzle, n: int) -> None:
        self.p, self.n = p, n

    def cell(self, name: Any) -> int:
        m = _CELL.match(str(name))
        if not m:
            raise ParseError(f"not a cell: {name!r}")
        r, c = int(m.group(1)), int(m.group(2))
        if not (1 <= r <= self.n and 1 <= c <= self.n):
            raise ParseError(f"cell {name} is outside the {self.n}x{self.n} grid")
        return (r - 1) * self.n + c - 1

    def cells(self, names) -> list[int]:
        return [self.cell(x) for x in names]

    def outside(self, name: Any) -> tuple[int, int]:
        m = _CELL.match(str(name))
        if not m:
            raise ParseError(f"not a clue cell: {name!r}")
        return int(m.group(1)), int(m.group(2))


def _val(x: Any, default: int | None = None) -> int:
    if x in (None, ""):
        if default is None:
            raise ParseError("missing value")
        return default
    return int(x)


def _lines(ctx: _Ctx, items, make: Callable) -> None:
    for item in items:
        for ln in item["lines"]:
            ctx.p.use(make(ctx.cells(ln), item))


def _flag(bundle_factory):
    def h(ctx: _Ctx, v, neg) -> None:
        if v:
            ctx.p.use(bundle_factory())
    return h


def _killer(ctx, items, neg):
    for it in items:
        cells = ctx.cells(it["cells"])
        total = it.get("value")
        ctx.p.use(killer.killer_cage(cells, _val(total) if total not in (None, "") else None))


def _little_killer(ctx, items, neg):
    for it in items:
        if it.get("value") in (None, ""):
            continue
        ctx.p.use(killer.little_killer(ctx.cells(it["cells"]), _val(it["value"])))


def _arrows(ctx, items, neg):
    for it in items:
        circle = ctx.cells(it["cells"])
        for ln in it["lines"]:
            cells = ctx.cells(ln)
            shaft = [c for c in cells if c not in circle]
            if shaft:
                ctx.p.use(_arrow_rule(circle, shaft))


def _pairs(kind: str):
    def h(ctx, items, neg):
        marked = []
        values: set[int] = set()
        for it in items:
            a, b = ctx.cells(it["cells"])
            marked.append((a, b))
            if kind == "difference":
                ctx.p.use(dots.white_dot(a, b, _val(it.get("value"), 1)))
            elif kind == "ratio":
                ctx.p.use(dots.black_dot(a, b, _val(it.get("value"), 2)))
            elif kind == "xv":
                v = str(it.get("value", "")).upper()
                if v not in ("X", "V"):
                    raise ParseError(f"xv value must be X or V, got {it.get('value')!r}")
                ctx.p.use(dots.sum_dot(a, b, 10 if v == "X" else 5))
            else:
                values.add(_val(it.get("value")))
                ctx.p.use(dots.sum_dot(a, b, _val(it.get("value"))))
        if kind in neg:
            if kind == "difference":
                ctx.p.use(dots.negative("white", marked))
            elif kind == "ratio":
                ctx.p.use(dots.negative("black", marked))
            elif kind == "xv":
                ctx.p.use(dots.negative("x", marked), dots.negative("v", marked))
            else:
                # as for XV: an unmarked pair sums to none of the marked dots' values
                for v in sorted(values):
                    ctx.p.use(dots.negative("sum", marked, v))
    return h


def _negative_only(ctx, v, neg):
    """Negative constraints whose element list is empty or absent (no dot at all)."""
    for kind in neg:
        if kind not in ("difference", "ratio", "xv", "sum"):
            raise ParseError(f"unknown negative constraint {kind!r}")


def _cells_rule(make):
    def h(ctx, items, neg):
        ctx.p.use(make(*[ctx.cell(it["cell"]) for it in items]))
    return h


def _outside(make):
    def h(ctx, items, neg):
        for it in items:
            if it.get("value") in (None, ""):
                continue
            r, c = ctx.outside(it["cell"])
            ctx.p.use(make(r, c, _val(it["value"])))
    return h


def _quads(ctx, items, neg):
    for it in items:
        ctx.p.use(misc.quadruple(ctx.cells(it["cells"]), it.get("values", [])))


def _clones(ctx, items, neg):
    for it in items:
        ctx.p.use(misc.clone(ctx.cells(it["cells"]), ctx.cells(it["cloneCells"])))


def _extra(ctx, items, neg):
    for i, it in enumerate(items):
        ctx.p.use(regions.extra_region(ctx.cells(it["cells"]), f"extra region {i + 1}"))


def _indexer(kind):
    def h(ctx, items, neg):
        for it in items:
            for c in ctx.cells(it["cells"]):
                ctx.p.use(misc.indexer(c, kind))
    return h


def _diag(main: bool):
    def h(ctx, v, neg):
        if v:
            ctx.p.use(regions.diagonal(main=main, anti=not main))
    return h


HANDLERS: dict[str, Callable] = {
    "diagonal+": _diag(False),
    "diagonal-": _diag(True),
    "antiknight": _flag(chess.anti_knight),
    "antiking": _flag(chess.anti_king),
    "disjointgroups": _flag(regions.disjoint_groups),
    "nonconsecutive": _flag(dots.non_consecutive),
    "negative": _negative_only,
    "extraregion": _extra,
    "killercage": _killer,
    "littlekillersum": _little_killer,
    "arrow": _arrows,
    "doublearrow": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: _double_arrow(c)),
    "thermometer": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: inequality.thermo(c)),
    "slowthermometer": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: inequality.slow_thermo(c)),
    "palindrome": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.palindrome(c)),
    "renban": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.renban(c)),
    "whispers": lambda ctx, items, neg: _lines(
        ctx, items, lambda c, it: lines.whispers(c, _val(it.get("value"), 5))),
    "regionsumline": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.region_sum_line(c)),
    "betweenline": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.between_line(c)),
    "entropicline": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.entropic_line(c)),
    "modularline": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.modular_line(c)),
    "zipperline": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.zipper_line(c)),
    "nabner": lambda ctx, items, neg: _lines(ctx, items, lambda c, it: lines.nabner(c)),
    "lockout": lambda ctx, items, neg: _lines(
        ctx, items, lambda c, it: lines.lockout(c, _val(it.get("value"), 4))),
    "difference": _pairs("difference"),
    "ratio": _pairs("ratio"),
    "xv": _pairs("xv"),
    "sum": _pairs("sum"),
    "odd": _cells_rule(parity.odd),
    "even": _cells_rule(parity.even),
    "minimum": _cells_rule(parity.minimum),
    "maximum": _cells_rule(parity.maximum),
    "quadruple": _quads,
    "clone": _clones,
    "sandwichsum": _outside(outside.sandwich),
    "xsum": _outside(outside.x_sum),
    "skyscraper": _outside(outside.skyscraper),
    "rowindexer": _indexer("row"),
    "columnindexer": _indexer("column"),
    "boxindexer": _indexer("box"),
}


# -- export ---------------------------------------------------------------------------------
class ExportError(InvalidPuzzle):
    """A puzzle (or one of its rules) that f-puzzles cannot express."""


def _rc(g: Grid, cell: Any) -> str:
    r, c = g.rc(g.cell(cell))
    return f"R{r + 1}C{c + 1}"


def _little_killer_clue(g: Grid, ids: list[int]) -> tuple[str, str]:
    """An outside clue cell and direction whose diagonal is exactly ``ids``."""
    n = g.n
    cells = [g.rc(c) for c in ids]
    steps = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    if len(cells) > 1:
        steps = [(cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])]
    for dr, dc in steps:
        r0, c0 = cells[0][0] - dr, cells[0][1] - dc
        if 0 <= r0 < n and 0 <= c0 < n:
            continue      # the clue must sit outside the grid
        walk = []
        r, c = r0 + dr, c0 + dc
        while 0 <= r < n and 0 <= c < n:
            walk.append((r, c))
            r, c = r + dr, c + dc
        if walk == cells:
            name = ("D" if dr > 0 else "U") + ("R" if dc > 0 else "L")
            return f"R{r0 + 1}C{c0 + 1}", name
    raise ExportError("little_killer: its cells are not a whole diagonal from an outside clue")


_LINE_KEYS = {"thermo": "thermometer", "slow_thermo": "slowthermometer",
              "palindrome": "palindrome", "renban": "renban", "whispers": "whispers",
              "region_sum_line": "regionsumline", "between_line": "betweenline",
              "entropic_line": "entropicline", "modular_line": "modularline",
              "zipper_line": "zipperline", "nabner": "nabner", "lockout": "lockout",
              "double_arrow": "doublearrow"}
_FLAG_KEYS = {"anti_knight": "antiknight", "anti_king": "antiking",
              "disjoint_groups": "disjointgroups", "non_consecutive": "nonconsecutive"}
_CELL_KEYS = {"odd": "odd", "even": "even", "minimum": "minimum", "maximum": "maximum"}
_OUTSIDE_KEYS = {"sandwich": "sandwichsum", "x_sum": "xsum", "skyscraper": "skyscraper"}
_NEG = {"white": "difference", "black": "ratio", "x": "xv", "v": "xv"}


def to_fpuzzles(p: Puzzle) -> dict:
    """The puzzle as f-puzzles JSON: the inverse of :func:`load_fpuzzles` for every rule
    it imports (read from the rule bundles ``Puzzle.use`` records). A ``less_than`` is
    written as a two-cell thermometer (f-puzzles has no inequality sign). Raises
    :class:`ExportError` naming the first rule f-puzzles cannot express (and for
    constraints added without a bundle, multi-grids, grids over 16).

    >>> from variants import classic, killer_cage
    >>> p = Puzzle(4).use(classic(), killer_cage(["r1c1", "r1c2"], total=3)).givens("1" + "." * 15)
    >>> d = to_fpuzzles(p)
    >>> d["killercage"], d["grid"][0][0]
    ([{'cells': ['R1C1', 'R1C2'], 'value': '3'}], {'value': 1, 'given': True})
    >>> to_fpuzzles(load_fpuzzles(d)) == d
    True
    """
    from .spec import SpecError, to_spec
    g = p.grid
    n = g.n
    if not g.square:
        raise ExportError("f-puzzles cannot express a multi-grid (gattai / samurai)")
    if n > 16:
        raise ExportError(f"f-puzzles grids go up to 16x16, not {n}x{n}")
    try:
        to_spec(p)   # the same coverage rule: every constraint comes from a known bundle
    except SpecError as e:
        raise ExportError(f"f-puzzles export: {e}") from None
    rows: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]
    out: dict[str, Any] = {"size": n, "grid": rows}
    for k in ("title", "author", "ruleset", "solution"):
        if k in p.meta:
            out[k] = p.meta[k]
    if g.region_kind == "region":
        for c in range(g.size):
            rows[c // n][c % n]["region"] = g.region_of[c]
    for c, d in sorted(p.given.items()):
        rows[c // n][c % n].update({"value": d, "given": True})
    rc = lambda x: _rc(g, x)  # noqa: E731
    items = [b for b, _ in p.bundles if not isinstance(b, (tuple, list))]
    negs = {b.kind: b for b in items if type(b).__name__ == "negative"}
    xv_marked = {frozenset(g.cells(m)) for k in ("x", "v") if k in negs
                 for m in negs[k].marked}

    def add(key: str, item: Any) -> None:
        out.setdefault(key, []).append(item)

    for b in items:
        name = type(b).__name__
        if name == "classic":
            if not (b.rows and b.cols):
                raise ExportError("classic without rows or columns: f-puzzles always has both")
            if b.boxes != bool(g.regions):
                raise ExportError("classic(boxes=False) on a grid with boxes: f-puzzles "
                                  "always uses the grid's boxes")
        elif name == "diagonal":
            if b.main:
                out["diagonal-"] = True
            if b.anti:
                out["diagonal+"] = True
        elif name in _FLAG_KEYS:
            out[_FLAG_KEYS[name]] = True
        elif name == "extra_region":
            add("extraregion", {"cells": [rc(x) for x in b.cells]})
        elif name == "killer_cage":
            it = {"cells": [rc(x) for x in b.cells]}
            if b.total is not None:
                it["value"] = str(b.total)
            add("killercage", it)
        elif name == "little_killer":
            cell, direction = _little_killer_clue(g, list(g.cells(b.cells)))
            add("littlekillersum", {"cell": cell, "cells": [rc(x) for x in b.cells],
                                    "direction": direction, "value": str(b.total)})
        elif name == "arrow":
            circle = [rc(x) for x in b.circle]
            add("arrow", {"cells": circle, "lines": [[circle[-1]] + [rc(x) for x in b.shaft]]})
        elif name in _LINE_KEYS:
            it = {"lines": [[rc(x) for x in b.cells]]}
            if name == "whispers":
                it["value"] = str(b.diff)
            elif name == "lockout":
                it["value"] = str(b.diff)
            add(_LINE_KEYS[name], it)
        elif name == "less_than":
            add("thermometer", {"lines": [[rc(b.a), rc(b.b)]]})
        elif name == "white_dot":
            add("difference", {"cells": [rc(b.a), rc(b.b)], "value": str(b.diff)})
        elif name == "black_dot":
            add("ratio", {"cells": [rc(b.a), rc(b.b)], "value": str(b.ratio)})
        elif name == "sum_dot":
            pair = frozenset((g.cell(b.a), g.cell(b.b)))
            xv = {10: "X", 5: "V"}.get(b.total)
            if xv and (not xv_marked and not negs.keys() & {"x", "v"} or pair in xv_marked):
                add("xv", {"cells": [rc(b.a), rc(b.b)], "value": xv})
            else:
                add("sum", {"cells": [rc(b.a), rc(b.b)], "value": str(b.total)})
        elif name == "negative":
            key = _NEG.get(b.kind)
            if key is None or b.value not in (None, {"white": 1, "black": 2}.get(b.kind)):
                raise ExportError(f"negative {b.kind} rule: f-puzzles cannot express it")
            out.setdefault(key, [])
            if key not in out.setdefault("negative", []):
                out["negative"].append(key)
        elif name in _CELL_KEYS:
            for x in b.cells:
                add(_CELL_KEYS[name], {"cell": rc(x)})
        elif name == "digits":
            c = g.cell(b.cell)
            rows[c // n][c % n]["givenPencilMarks"] = list(b.allowed)
        elif name == "quadruple":
            add("quadruple", {"cells": [rc(x) for x in b.cells], "values": list(b.values)})
        elif name == "clone":
            add("clone", {"cells": [rc(x) for x in b.cells],
                          "cloneCells": [rc(x) for x in b.clone_cells]})
        elif name in _OUTSIDE_KEYS:
            add(_OUTSIDE_KEYS[name], {"cell": f"R{b.row}C{b.col}", "value": str(b.value)})
        elif name == "indexer":
            key = {"row": "rowindexer", "column": "columnindexer", "box": "boxindexer"}[b.kind]
            add(key, {"cells": [rc(b.cell)]})
        else:
            raise ExportError(f"rule {name}: f-puzzles cannot express it")
    _check_negative_marks(out, negs, g)
    return out


def _check_negative_marks(out: dict, negs: dict, g: Grid) -> None:
    """A negative rule exempts exactly the marked pairs; in f-puzzles those are the dots of
    its kind, so the two must agree."""
    for kind, b in negs.items():
        key = _NEG[kind]
        dots = {frozenset(it["cells"]) for it in out.get(key, [])}
        marked = {frozenset(_rc(g, x) for x in m) for m in b.marked}
        if marked != dots:
            raise ExportError(f"negative {kind} rule: its exempt pairs are not exactly the "
                              f"puzzle's {key} marks, which f-puzzles requires")


def to_fpuzzles_url(p: Puzzle) -> str:
    """An f-puzzles link: ``https://www.f-puzzles.com/?load=`` + LZString base64 of the JSON.

    >>> from variants import classic
    >>> url = to_fpuzzles_url(Puzzle(4).use(classic()).givens("1" + "." * 15))
    >>> url.startswith("https://www.f-puzzles.com/?load=N4Ig"), decode_payload(url)["size"]
    (True, 4)
    """
    import lzstring
    text = json.dumps(to_fpuzzles(p), separators=(",", ":"))
    return "https://www.f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(text)
