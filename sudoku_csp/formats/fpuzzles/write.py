"""Writing f-puzzles (Puzzle -> f-puzzles JSON, :func:`to_fpuzzles`, or a link,
:func:`to_fpuzzles_url`).

Each rule bundle is written by the mapping :func:`export_rule` registers for its type: the
rules whose records (``cls.record``, :mod:`variants.record`) declare their f-puzzles shape
get theirs from the records (or a refusal naming why f-puzzles cannot hold them); the
others have mappings here. The dot flags (``nonconsecutive``, ``negative``) are chosen last,
by reading candidate documents back with :func:`.read.load_fpuzzles` until f-puzzles'
reading allows exactly the digit pairs the puzzle's rules allow.
"""
from __future__ import annotations

import functools
import json
from itertools import combinations
from typing import Any, Iterable

from csp import Grid, Puzzle
from csp.errors import InvalidPuzzle
from csp.grid import default_box_shape

from variants import dots, inequality, killer, misc, parity, regions
from variants.arrow import arrow as _arrow_rule
from variants.classic import classic
from variants.record import records, rule_classes

from ..spec import SpecError, to_spec
from .read import default_regions, load_fpuzzles, region_groups


class ExportError(InvalidPuzzle):
    """A puzzle (or one of its rules) that f-puzzles cannot express."""


class _Out:
    """The f-puzzles document being written, and what the rules' mappings leave for the
    end (the rules that f-puzzles expresses as global flags over its dots)."""

    def __init__(self, p: Puzzle) -> None:
        self.p, self.g, self.n = p, p.grid, p.grid.n
        self.rows: list[list[dict]] = [[{} for _ in range(self.n)] for _ in range(self.n)]
        self.doc: dict[str, Any] = {"size": self.n, "grid": self.rows}
        self.pair_rules: list[Any] = []

    def rc(self, cell: Any) -> str:
        r, c = self.g.rc(self.g.cell(cell))
        return f"R{r + 1}C{c + 1}"

    def rcs(self, cells: Iterable[Any]) -> list[str]:
        return [self.rc(x) for x in cells]

    def add(self, key: str, item: Any) -> None:
        self.doc.setdefault(key, []).append(item)


@functools.singledispatch
def export_rule(rule: Any, out: _Out) -> None:
    """Write one rule bundle into the f-puzzles document ``out`` (one mapping per rule
    type; a rule f-puzzles cannot hold has a mapping that raises :class:`ExportError` with
    the reason). Rules without any mapping land here."""
    raise ExportError(f"rule {type(rule).__name__}: no f-puzzles mapping")


def _cannot(cls: type, reason: str) -> None:
    def refuse(rule: Any, out: _Out) -> None:
        raise ExportError(f"rule {cls.__name__}: f-puzzles cannot express it ({reason})")
    export_rule.register(cls)(refuse)


@export_rule.register(classic)
def _(b: classic, out: _Out) -> None:
    if not (b.rows and b.cols):
        raise ExportError("classic without rows or columns: f-puzzles always has both")
    if b.boxes != bool(out.g.regions):
        raise ExportError("classic(boxes=False) on a grid with boxes: f-puzzles always uses "
                          "the grid's boxes")


@export_rule.register(regions.diagonal)
def _(b: regions.diagonal, out: _Out) -> None:
    if b.main:
        out.doc["diagonal-"] = True
    if b.anti:
        out.doc["diagonal+"] = True


def _flag_mapping(cls: type, key: str) -> None:
    def write(b: Any, out: _Out) -> None:
        out.doc[key] = True
    export_rule.register(cls)(write)


_flag_mapping(regions.disjoint_groups, "disjointgroups")


@export_rule.register(regions.windoku)
def _(b: regions.windoku, out: _Out) -> None:
    q = Puzzle(out.g).use(b)       # its windows, written as f-puzzles extra regions
    for con in q.constraints:
        out.add("extraregion", {"cells": out.rcs(con.cells)})


@export_rule.register(dots.non_consecutive)
@export_rule.register(dots.negative)
def _(b: Any, out: _Out) -> None:
    out.pair_rules.append(b)        # f-puzzles flags: settled once all dots are written


@export_rule.register(regions.extra_region)
def _(b: regions.extra_region, out: _Out) -> None:
    out.add("extraregion", {"cells": out.rcs(b.cells)})


@export_rule.register(killer.killer_cage)
def _(b: killer.killer_cage, out: _Out) -> None:
    it: dict[str, Any] = {"cells": out.rcs(b.cells)}
    if b.total is not None:
        it["value"] = str(b.total)
    out.add("killercage", it)


@export_rule.register(killer.little_killer)
def _(b: killer.little_killer, out: _Out) -> None:
    cell, direction = _little_killer_clue(out.g, list(out.g.cells(b.cells)))
    out.add("littlekillersum", {"cell": cell, "cells": out.rcs(b.cells),
                                "direction": direction, "value": str(b.total)})


@export_rule.register(_arrow_rule)
def _(b: Any, out: _Out) -> None:
    circle = out.rcs(b.circle)
    out.add("arrow", {"cells": circle, "lines": [[circle[-1]] + out.rcs(b.shaft)]})


def _line_mapping(cls: type, key: str, value: str | None = None) -> None:
    def write(b: Any, out: _Out) -> None:
        cells = b.cells if isinstance(b.cells, list) else list(b.cells)
        it: dict[str, Any] = {"lines": [out.rcs(cells)]}
        if value is not None:
            it["value"] = str(getattr(b, value))
        out.add(key, it)
    export_rule.register(cls)(write)


@export_rule.register(inequality.less_than)
def _(b: inequality.less_than, out: _Out) -> None:
    out.add("thermometer", {"lines": [[out.rc(b.a), out.rc(b.b)]]})   # a 2-cell thermometer


@export_rule.register(dots.white_dot)
def _(b: dots.white_dot, out: _Out) -> None:
    out.add("difference", {"cells": [out.rc(b.a), out.rc(b.b)], "value": str(b.diff)})


@export_rule.register(dots.black_dot)
def _(b: dots.black_dot, out: _Out) -> None:
    out.add("ratio", {"cells": [out.rc(b.a), out.rc(b.b)], "value": str(b.ratio)})


@export_rule.register(dots.sum_dot)
def _(b: dots.sum_dot, out: _Out) -> None:
    xv = {10: "X", 5: "V"}.get(b.total)
    if xv:
        out.add("xv", {"cells": [out.rc(b.a), out.rc(b.b)], "value": xv})
    else:
        out.add("sum", {"cells": [out.rc(b.a), out.rc(b.b)], "value": str(b.total)})


def _cell_mapping(cls: type, key: str) -> None:
    def write(b: Any, out: _Out) -> None:
        for x in b.cells:
            out.add(key, {"cell": out.rc(x)})
    export_rule.register(cls)(write)


@export_rule.register(parity.minimum)
@export_rule.register(parity.maximum)
def _(b: Any, out: _Out) -> None:
    key = type(b).__name__
    if key in out.doc:
        # f-puzzles compares a maximum cell with the neighbours outside its own list: two
        # bundles are one list there, and cells adjacent across them would stop comparing
        raise ExportError(f"rule {key}: f-puzzles holds one {key} list; give all {key} cells "
                          "in one bundle")
    for x in b.cells:
        out.add(key, {"cell": out.rc(x)})


@export_rule.register(parity.digits)
def _(b: parity.digits, out: _Out) -> None:
    c = out.g.cell(b.cell)
    out.rows[c // out.n][c % out.n]["givenPencilMarks"] = list(b.allowed)


@export_rule.register(misc.quadruple)
def _(b: misc.quadruple, out: _Out) -> None:
    out.add("quadruple", {"cells": out.rcs(b.cells), "values": list(b.values)})


@export_rule.register(misc.clone)
def _(b: misc.clone, out: _Out) -> None:
    out.add("clone", {"cells": out.rcs(b.cells), "cloneCells": out.rcs(b.clone_cells)})


def _outside_mapping(cls: type, key: str) -> None:
    def write(b: Any, out: _Out) -> None:
        out.add(key, {"cell": f"R{b.row}C{b.col}", "value": str(b.value)})
    export_rule.register(cls)(write)


@export_rule.register(misc.indexer)
def _(b: misc.indexer, out: _Out) -> None:
    out.add(f"{b.kind}indexer", {"cells": [out.rc(b.cell)]})


def _record_writers() -> None:
    """The writers of the rules whose records declare their f-puzzles shape (or that
    f-puzzles cannot hold them, and why); ``custom`` ones are registered above."""
    for name, r in records().items():
        cls, fp = rule_classes()[name], r.fpuzzles
        if fp.shape == "none":
            _cannot(cls, fp.reason)
        elif fp.shape == "flag":
            _flag_mapping(cls, fp.key)
        elif fp.shape == "line":
            _line_mapping(cls, fp.key, fp.value)
        elif fp.shape == "cells":
            _cell_mapping(cls, fp.key)
        elif fp.shape == "outside":
            _outside_mapping(cls, fp.key)


_record_writers()


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


#: bundle types whose constraints are relations on orthogonal pairs, compared when the
#: f-puzzles flags are settled
_PAIR_TYPES = (dots.white_dot, dots.black_dot, dots.sum_dot, dots.negative, dots.non_consecutive)


def _pair_tables(p: Puzzle) -> dict[frozenset, frozenset]:
    """For every pair of cells constrained by a dot or a dot flag: the digit pairs (lower
    cell first) that all those constraints allow."""
    n = p.grid.n
    out: dict[frozenset, frozenset] = {}
    for (b, _), cons in zip(p.bundles, p.bundle_constraints):
        if not isinstance(b, _PAIR_TYPES):
            continue
        for con in cons:
            x, y = con.cells
            ok = frozenset((a, b_) if x < y else (b_, a) for a in range(1, n + 1)
                           for b_ in range(1, n + 1) if con.check(a, b_))
            key = frozenset((x, y))
            out[key] = out[key] & ok if key in out else ok
    full = n * n
    return {k: v for k, v in out.items() if len(v) != full}


def _settle_pair_flags(out: _Out) -> None:
    """Choose ``nonconsecutive`` and the ``negative`` list so that f-puzzles' reading of the
    written dots and flags allows exactly the digit pairs the puzzle's rules allow; a
    combination f-puzzles cannot hold raises :class:`ExportError` naming the rule."""
    if not out.pair_rules:
        return
    relevant: list[str] = []
    for b in out.pair_rules:
        kind = getattr(b, "kind", "white")
        keys = {"white": ["nonconsecutive", "difference"], "black": ["ratio"],
                "x": ["xv"], "v": ["xv"], "sum": ["sum"]}[kind]
        relevant += [k for k in keys if k not in relevant]
    target = _pair_tables(out.p)
    for size in range(1, len(relevant) + 1):
        for flags in combinations(relevant, size):
            doc = dict(out.doc)
            negs = [k for k in flags if k != "nonconsecutive"]
            if "nonconsecutive" in flags:
                doc["nonconsecutive"] = True
            if negs:
                doc["negative"] = negs
                for k in negs:
                    doc.setdefault(k, [])
            try:
                q = load_fpuzzles(doc)
            except InvalidPuzzle:
                continue
            if _pair_tables(q) == target:
                out.doc.clear()
                out.doc.update(doc)
                return
    b = out.pair_rules[0]
    what = (f"negative {b.kind} rule" if isinstance(b, dots.negative) else "non_consecutive")
    raise ExportError(f"{what}: f-puzzles cannot express it with these dots (its "
                      "nonconsecutive and negative flags exempt exactly the pairs carrying a "
                      "dot of their family)")


def _write_regions(out: _Out) -> None:
    g, n = out.g, out.n
    if not g.regions:
        if default_box_shape(n) is None:
            return            # f-puzzles' default for a prime size is rows: no region rule
        for row in out.rows:
            for cell in row:
                cell["region"] = None
        return
    if region_groups(g.region_of) == region_groups(default_regions(n)):
        return
    for c in range(g.size):
        out.rows[c // n][c % n]["region"] = g.region_of[c]


def to_fpuzzles(p: Puzzle) -> dict:
    """The puzzle as f-puzzles JSON: each rule bundle is written by the mapping registered
    for its type (:func:`export_rule`); f-puzzles' reading of the result is the puzzle's
    own. A ``less_than`` is written as a two-cell thermometer (f-puzzles has no inequality
    sign), a windoku as its windows (extra regions). Raises :class:`ExportError` naming the
    first rule f-puzzles cannot express (and for constraints added without a bundle,
    multi-grids, grids over 16).

    >>> from variants import classic, killer_cage
    >>> p = Puzzle(4).use(classic(), killer_cage(["r1c1", "r1c2"], total=3)).givens("1" + "." * 15)
    >>> d = to_fpuzzles(p)
    >>> d["killercage"], d["grid"][0][0]
    ([{'cells': ['R1C1', 'R1C2'], 'value': '3'}], {'value': 1, 'given': True})
    >>> to_fpuzzles(load_fpuzzles(d)) == d
    True
    """
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
    out = _Out(p)
    for k in ("title", "author", "ruleset", "solution"):
        if k in p.meta:
            out.doc[k] = p.meta[k]
    _write_regions(out)
    for c, d in sorted(p.given.items()):
        out.rows[c // n][c % n].update({"value": d, "given": True})
    for b, _ in p.bundles:
        if not isinstance(b, (tuple, list)):
            export_rule(b, out)
    _settle_pair_flags(out)
    return out.doc


def to_fpuzzles_url(p: Puzzle) -> str:
    """An f-puzzles link: ``https://www.f-puzzles.com/?load=`` + LZString base64 of the JSON.

    >>> from variants import classic
    >>> from sudoku_csp.formats.payload import decode_payload
    >>> url = to_fpuzzles_url(Puzzle(4).use(classic()).givens("1" + "." * 15))
    >>> url.startswith("https://www.f-puzzles.com/?load=N4Ig"), decode_payload(url)["size"]
    (True, 4)
    """
    import lzstring
    text = json.dumps(to_fpuzzles(p), separators=(",", ":"))
    return "https://www.f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(text)
