"""SudokuPad import (links, ``scl`` / ``ctc`` / ``fpuzzles`` / ``scf`` payloads, puzzle
JSON) and export (:func:`to_sudokupad_url`).

A SudokuPad puzzle is a drawing: givens, regions, cages, lines, arrows and shapes (overlays
and underlays), with the rules in a text. This reader turns the drawing into f-puzzles data
(:mod:`sudoku_csp.formats.fpuzzles` then gives the rules their exact meaning) by the
conventions that say one thing only: the shapes and colours SudokuPad's own f-puzzles
conversion writes (thermometers, arrows, killer cages, kropki dots, XV, quadruples,
odd/even, little killers, sandwich clues, minimum/maximum chevrons, between lines,
palindromes, diagonals) and the colours f-puzzles' solver userscript gives the lines it adds
(renban, whispers, entropic, modular, region-sum, zipper, nabner, lockout, double arrow,
slow thermometer); see ``docs/formats.md``. Anything else (a line of another colour, a
circle without an arrow, a cage without SudokuPad's ``unique`` flag ...) raises
:class:`csp.errors.ParseError` naming the element and how to say what it means: a
``lines`` mapping from colour to meaning (CLI: ``--line '#60C060=renban'``)::

    load_sudokupad(link, lines={"#60C060": "renban", "#FF00D4": "whispers"})

A line or circle none of these explains takes its meaning from the puzzle's rules text
when the text names exactly one rule for its colour (:mod:`.sudokupad_rules`; what was read
is in ``puzzle.meta["inferred"]``); a text naming two, or a rule sudoku-csp cannot model
(parity lines, 10 lines, counting circles), is refused naming them. ``lines`` wins over the
text.

Meanings: the line kinds of :data:`LINE_KINDS` (``whispers:4`` sets a whispers line's
difference, ``lockout:3`` a lockout's), ``ignore`` for a decoration; for a cage colour (or
the key ``cage``) ``killer``, ``extra-region`` or ``ignore``; for a shape colour ``odd``,
``even`` or ``ignore``; the key ``outside`` says what plain numbers outside the grid are
(``sandwich``, ``x-sum``, ``skyscraper``). Short links (``sudokupad.app/<id>``) need a
network fetch, which this package never does (:class:`~.payload.NeedsNetwork`).

>>> d = {"cells": [[{"value": 1}, {}, {}, {}]] + [[{}, {}, {}, {}]] * 3,
...      "regions": [[[0, 0], [0, 1], [1, 0], [1, 1]], [[0, 2], [0, 3], [1, 2], [1, 3]],
...                  [[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]],
...      "lines": [{"wayPoints": [[0.5, 1.5], [0.5, 2.5], [1.5, 2.5]], "color": "#60C060",
...                 "thickness": 9.6}]}
>>> load_sudokupad(d)
Traceback (most recent call last):
...
csp.errors.ParseError: SudokuPad line 1 (colour #60C060, thickness 9.6, through r1c2 r1c3 r2c3): its meaning is only in the rules text; say what it is, e.g. --line '#60C060=renban' (Python: lines={'#60C060': 'renban'})
>>> p = load_sudokupad(d, lines={"#60c060": "renban"})
>>> sorted(type(b).__name__ for b, _ in p.bundles)
['classic', 'renban']
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Mapping

from csp import Puzzle
from csp.budget import Budget
from csp.errors import InvalidPuzzle, ParseError
from csp.text import did_you_mean, quoted
from variants.record import records

from .payload import check_size, decode_sudokupad, is_sudokupad_text, read_sudokupad_json
from .sudokupad_rules import BUILT_AFTER as _BUILT_AFTER, NOT_READ, UNSUPPORTED, Ambiguous, \
    RulesText

#: the order meanings are listed in (help and error texts); meanings of newer rules come
#: after these, in catalogue order
_LISTED = ("thermo", "slow-thermo", "palindrome", "renban", "whispers", "dutch-whispers",
           "between", "entropic", "modular", "region-sum", "zipper", "nabner", "lockout",
           "double-arrow", "killer", "extra-region", "odd", "even", "sandwich", "x-sum",
           "skyscraper")


def _meanings(element: str) -> list[tuple[Any, Any]]:
    """(f-puzzles record, SudokuPad record) of every meaning the rule records give SudokuPad
    elements of kind ``element``, in listing order."""
    found = [(r.fpuzzles, sp) for r in records().values() for sp in r.sudokupad
             if sp.element == element]
    rank = {k: i for i, k in enumerate(_LISTED)}
    return sorted(found, key=lambda x: rank.get(x[1].kind, len(rank)))


#: line meanings: name -> (f-puzzles key, default value as a function of the size or None),
#: from the rule records
LINE_KINDS: dict[str, tuple[str, Any]] = {
    sp.kind: (fp.key, sp.default or fp.default) for fp, sp in _meanings("line")}
#: other names of the meanings (``--line COLOUR=german-whispers``), from the rule records
_ALIASES = {a: sp.kind for e in ("line", "cage", "outside", "shape") for _, sp in _meanings(e)
            for a in sp.aliases}
CAGE_KINDS = tuple(sp.kind for _, sp in _meanings("cage")) + ("ignore",)
SHAPE_KINDS = tuple(sp.kind for _, sp in _meanings("shape")) + ("ignore",)
OUTSIDE_KINDS = tuple(sp.kind for _, sp in _meanings("outside")) + ("ignore",)
#: outside-clue meaning -> its f-puzzles key
_OUTSIDE_KEYS = {sp.kind: fp.key for fp, sp in _meanings("outside") if fp.key}
#: outside-clue meanings f-puzzles has no key for -> their rule class's name (built after the
#: f-puzzles form, from ``(row, col, value)``), from the rule records
_OUTSIDE_AFTER = {sp.kind: name for name, r in records().items() for sp in r.sudokupad
                  if sp.element == "outside" and not r.fpuzzles.key}

#: drawing conventions that mean one thing: (colour, thickness or None for any) -> meaning,
#: from the rule records. The grey ones are SudokuPad's f-puzzles conversion; the coloured
#: ones are the lines f-puzzles' solver userscript adds for its typed line rules (they
#: survive the conversion)
CONVENTIONS: dict[tuple[str, float | None], str] = {
    conv: sp.kind for _, sp in _meanings("line") for conv in sp.conventions}
#: kinds of line whose end cells carry a drawn marker (bulb, circle, diamond) to consume
_END_MARKERS = {sp.kind: sp.ends for _, sp in _meanings("line") if sp.ends}
#: rules the rules text may give an element that f-puzzles has no key for (``_BUILT_AFTER``,
#: (kind, element) pairs from the rule records) are collected by the reader and added after
#: reading the f-puzzles form: kind -> its rule class's name
_AFTER_CLASS = {sp.kind: name for name, r in records().items() for sp in r.sudokupad
                if (sp.kind, sp.drawn) in _BUILT_AFTER}
_INDEXERS = {"fpRowIndexer": "rowindexer", "fpColumnIndexer": "columnindexer",
             "fpBoxIndexer": "boxindexer"}
#: SudokuPad's global rule flags -> their f-puzzles keys, from the rule records
_GLOBAL = {sp.kind: sp.key for _, sp in _meanings("global")}
_META = re.compile(r"^([^:\s]+):\s*(.*)$", re.S)
#: top-level keys that hold no rule
_PLAIN_KEYS = {"id", "cellSize", "cellsize", "settings", "foglight", "foglink", "triggereffect",
               "videos", "duration", "d", "metadata", "global"}
_RULE_KEYS = {"cells", "regions", "cages", "lines", "arrows", "overlays", "underlays"}
_SYMBOL_XSUM, _SYMBOL_SKY = "\u25ef", "\u25af"
#: arrows written as text outside the grid (Rossini): glyph -> (row step, column step)
_ARROW_GLYPHS = {g: (0, 1) for g in ("\u2192", ">", "\u276f", "\u25b6", "\u25b8", "\u27a1")}
_ARROW_GLYPHS |= {g: (0, -1) for g in ("\u2190", "<", "\u276e", "\u25c0", "\u25c2", "\u2b05")}
_ARROW_GLYPHS |= {g: (-1, 0) for g in ("\u2191", "^", "\u02c4", "\u25b2", "\u25b4", "\u2b06")}
_ARROW_GLYPHS |= {g: (1, 0) for g in ("\u2193", "v", "V", "\u02c5", "\u25bc", "\u25be", "\u2b07")}


# -- meanings ----------------------------------------------------------------------------------
def colour(x: Any) -> str | None:
    """A colour as ``#RRGGBB`` (or ``#RRGGBBAA``), upper case; None when not a hex colour.

    >>> colour("#67f067"), colour("#fff"), colour("#ffffff00"), colour("red")
    ('#67F067', '#FFFFFF', '#FFFFFF00', None)
    """
    if not isinstance(x, str):
        return None
    s = x.strip().upper()
    if re.fullmatch(r"#[0-9A-F]{3,4}", s):
        s = "#" + "".join(ch * 2 for ch in s[1:])
    return s if re.fullmatch(r"#[0-9A-F]{6}(?:[0-9A-F]{2})?", s) else None


def _kind(name: str) -> str:
    k = re.sub(r"[\s_]+", "-", name.strip().lower())
    return _ALIASES.get(k, k)


def parse_meanings(lines: Mapping[str, str] | None) -> dict[str, tuple[str, int | None]]:
    """A ``lines`` mapping checked and normalised: keys are colours (``#RRGGBB``, any case,
    ``#RGB`` too) or ``cage`` / ``outside`` / ``bgimage``; values are meaning names with an
    optional ``:number`` (``whispers:4``).

    >>> parse_meanings({"#67f067": "German whispers:4", "cage": "killer"})
    {'#67F067': ('whispers', 4), 'CAGE': ('killer', None)}
    >>> parse_meanings({"#123456": "wiggle"})
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: --line '#123456=wiggle': unknown meaning 'wiggle' (one of thermo, slow-thermo, palindrome, renban, whispers, dutch-whispers, between, entropic, modular, region-sum, zipper, nabner, lockout, double-arrow, killer, extra-region, odd, even, sandwich, x-sum, skyscraper, frame-sum, numbered-room, ignore)
    """
    out: dict[str, tuple[str, int | None]] = {}
    known = list(LINE_KINDS) + [k for k in CAGE_KINDS + SHAPE_KINDS + OUTSIDE_KINDS
                                if k != "ignore"] + ["ignore"]
    known = list(dict.fromkeys(known))
    for key, meaning in (lines or {}).items():
        if not isinstance(key, str) or not isinstance(meaning, str):
            raise ParseError(f"--line {quoted(key)}: colour and meaning must be text")
        where = f"--line '{key}={meaning}'"
        k = colour(key) or key.strip().upper()
        if k not in ("CAGE", "OUTSIDE", "BGIMAGE") and colour(key) is None:
            raise ParseError(f"{where}: {quoted(key)} is not a colour (#rrggbb) nor 'cage', "
                             "'outside' or 'bgimage'")
        name, _, num = meaning.partition(":")
        kind = _kind(name)
        if kind not in known:
            raise ParseError(f"{where}: unknown meaning {quoted(name.strip())}"
                             f"{did_you_mean(name.strip(), known)} (one of "
                             f"{', '.join(known)})")
        value = None
        if num.strip():
            if kind not in ("whispers", "dutch-whispers", "lockout") or \
                    not re.fullmatch(r"[0-9]{1,2}", num.strip()):
                raise ParseError(f"{where}: only whispers and lockout take a number "
                                 "(e.g. whispers:4)")
            value = int(num)
        out[k] = (kind, value)
    return out


def parse_line_option(text: str) -> tuple[str, str]:
    """``COLOUR=MEANING`` of a ``--line`` option (argparse type).

    >>> parse_line_option("#67f067=whispers")
    ('#67f067', 'whispers')
    """
    key, sep, meaning = text.partition("=")
    if not sep or not key.strip() or not meaning.strip():
        raise ParseError(f"--line {quoted(text)}: expected COLOUR=MEANING, e.g. '#67f067=whispers'")
    parse_meanings({key.strip(): meaning.strip()})
    return key.strip(), meaning.strip()


# -- geometry ----------------------------------------------------------------------------------
def _num(x: Any, what: str) -> float:
    """A coordinate or size of the payload as a finite float (an int past a float's range,
    such as 10**400, is refused like a string: it is no position on a grid)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise ParseError(f"SudokuPad {what}: {quoted(x)} is not a number")
    try:
        v = float(x)
    except OverflowError:
        v = math.inf
    if not math.isfinite(v):
        raise ParseError(f"SudokuPad {what}: {quoted(x)} is not a finite number")
    return v


def _point(p: Any, what: str) -> tuple[float, float]:
    if not isinstance(p, (list, tuple)) or len(p) != 2:
        raise ParseError(f"SudokuPad {what}: a point must be [row, col], got {str(p)[:30]}")
    return _num(p[0], what), _num(p[1], what)


def _near_int(x: float, tol: float = 0.08) -> bool:
    return abs(x - round(x)) <= tol


def _near_half(x: float, tol: float = 0.08) -> bool:
    return abs(x - math.floor(x) - 0.5) <= tol


def _rc(r: int, c: int) -> str:
    """f-puzzles name of the 0-based cell (r, c) (outside clues: row/col -1 or n)."""
    return f"R{r + 1}C{c + 1}"


def _name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


class _Element:
    """One drawn element of the puzzle: its list, 1-based index and data."""

    def __init__(self, kind: str, index: int, data: dict) -> None:
        self.kind, self.index, self.d = kind, index, data

    @property
    def label(self) -> str:
        return f"{self.kind} {self.index}"


# -- the reader --------------------------------------------------------------------------------
class _Reader:
    def __init__(self, obj: dict, meanings: dict[str, tuple[str, int | None]]) -> None:
        self.obj, self.m = obj, meanings
        cells = obj.get("cells")
        if not isinstance(cells, list) or not cells or not all(isinstance(r, list) for r in cells):
            raise ParseError("SudokuPad puzzle has no 'cells' grid")
        n = len(cells)
        if any(len(r) != n for r in cells):
            raise ParseError(f"SudokuPad grid is not square ({n} rows of "
                             f"{', '.join(sorted({str(len(r)) for r in cells}))} cells): "
                             "only square grids are read")
        if not 1 <= n <= 16:
            raise ParseError(f"SudokuPad grid is {n}x{n}; sizes 1 to 16 are read")
        self.n = n
        self.fp: dict[str, Any] = {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}
        self.used: set[int] = set()
        self.shapes: list[_Element] = []
        for key in ("overlays", "underlays"):
            for i, d in enumerate(self._list(key), 1):
                self.shapes.append(_Element(key[:-1], i, d))
        self.lines = [_Element("line", i, d) for i, d in enumerate(self._list("lines"), 1)]
        self.arrows = [_Element("arrow", i, d) for i, d in enumerate(self._list("arrows"), 1)]
        self.cages = [_Element("cage", i, d) for i, d in enumerate(self._list("cages"), 1)]
        meta = obj.get("metadata")
        self.meta: dict[str, Any] = dict(meta) if isinstance(meta, dict) else {}
        self._rules_text: RulesText | None = None
        #: meanings read from the rules text: one record per (element, colour, meaning)
        self.inferred: list[dict[str, str]] = []
        #: cells of the circles the rules text calls counting circles (built after f-puzzles)
        self.counting: list[str] = []
        #: lines and outside clues of rules f-puzzles has no key for (built after
        #: f-puzzles): (kind, cells) or (kind, [row, col, value])
        self.after: list[tuple[str, list[Any]]] = []

    def _list(self, key: str) -> list[dict]:
        v = self.obj.get(key)
        if v is None:
            return []
        if not isinstance(v, list):
            raise ParseError(f"SudokuPad '{key}' must be a list")
        for i, d in enumerate(v, 1):
            if not isinstance(d, dict):
                raise ParseError(f"SudokuPad {key[:-1] if key != 'cages' else 'cage'} {i} is not "
                                 "an object")
        return v

    def add(self, key: str, item: Any) -> None:
        self.fp.setdefault(key, []).append(item)

    def use(self, el: _Element) -> None:
        self.used.add(id(el))

    def is_used(self, el: _Element) -> bool:
        return id(el) in self.used

    # -- describing elements for errors -------------------------------------------------
    def describe(self, el: _Element) -> str:
        d = el.d
        parts = []
        if el.kind in ("line", "arrow"):
            c = colour(d.get("color"))
            parts.append(f"colour {c or d.get('color')}")
            if "thickness" in d:
                parts.append(f"thickness {d.get('thickness')}")
            pts = d.get("wayPoints") or []
            cells = []
            for p in pts[:6]:
                try:
                    r, cc = _point(p, el.label)
                    cells.append(_name(math.floor(r), math.floor(cc)))
                except ParseError:
                    pass
            parts.append("through " + " ".join(dict.fromkeys(cells))
                         + (" ..." if len(pts) > 6 else ""))
        elif el.kind == "cage":
            cells = d.get("cells") or []
            names = [_name(*x) for x in cells[:6] if isinstance(x, list) and len(x) == 2]
            parts.append("cells " + " ".join(names) + (" ..." if len(cells) > 6 else ""))
            if d.get("value") not in (None, ""):
                parts.append(f"value {quoted(d.get('value'))}")
            c = colour(d.get("outlineC") or d.get("borderColor"))
            if c:
                parts.append(f"colour {c}")
        else:
            shape = "round" if d.get("rounded") else "square"
            parts.append(f"{shape} {d.get('width', '?')}x{d.get('height', '?')}")
            bg, border = colour(d.get("backgroundColor")), colour(d.get("borderColor"))
            if bg or border:
                parts.append("colour " + "/".join(x for x in (bg, border) if x))
            if str(d.get("text", "")).strip():
                parts.append(f"text {quoted(str(d.get('text')).strip())}")
            try:
                r, c = _point(d.get("center"), el.label)
                parts.append(f"at {self.where(r, c)}")
            except ParseError:
                pass
        return f"SudokuPad {el.label} ({', '.join(parts)})"

    def where(self, r: float, c: float) -> str:
        n = self.n
        if _near_int(r) and _near_int(c):
            return f"the corner of r{round(r)}c{round(c)}"
        if _near_int(r) and 0 < round(r) < n:
            return f"between r{round(r)}c{math.floor(c) + 1} and r{round(r) + 1}c{math.floor(c) + 1}"
        if _near_int(c) and 0 < round(c) < n:
            return f"between r{math.floor(r) + 1}c{round(c)} and r{math.floor(r) + 1}c{round(c) + 1}"
        return _name(math.floor(r), math.floor(c))

    def unknown(self, el: _Element, why: str, example: str) -> ParseError:
        col = self.el_colour(el)
        if el.kind == "cage" and col is None:
            key = "cage"
        elif col is None:
            return ParseError(f"{self.describe(el)}: {why}")
        else:
            key = col
        return ParseError(f"{self.describe(el)}: {why}; say what it is, e.g. --line "
                          f"'{key}={example}' (Python: lines={{'{key}': '{example}'}})")

    def el_colour(self, el: _Element) -> str | None:
        d = el.d
        if el.kind in ("line", "arrow"):
            return colour(d.get("color"))
        if el.kind == "cage":
            return colour(d.get("outlineC") or d.get("borderColor"))
        return colour(d.get("backgroundColor")) or colour(d.get("borderColor"))

    def meaning(self, el: _Element, *cols: str | None) -> tuple[str, int | None] | None:
        for c in cols or (self.el_colour(el),):
            if c is None:
                continue
            for k in (c, c[:7]):
                if k in self.m:
                    return self.m[k]
        return None

    # -- meanings from the rules text ------------------------------------------------------
    def rules_text(self) -> RulesText:
        if self._rules_text is None:
            rules = self.meta.get("rules")
            if isinstance(rules, list):
                rules = "\n".join(str(x) for x in rules)
            self._rules_text = RulesText(rules if isinstance(rules, str) else "")
        return self._rules_text

    def from_text(self, el: _Element, obj: str,
                  exclude: frozenset[str] = frozenset()) -> tuple[str, int | None] | None:
        """The meaning the rules text gives ``el`` (drawn as ``obj``: ``line`` or
        ``circle``), recorded in :attr:`inferred`; None when the text says nothing about
        it; a :class:`ParseError` naming the rule when the text gives it two meanings or
        one the reader cannot build."""
        col = self.el_colour(el)
        got = self.rules_text().meaning(col, obj, exclude)
        if got is None:
            return None
        if isinstance(got, Ambiguous):
            what = f"a {got.colour} {obj}" if got.colour else f"a {obj} of this colour"
            said = " and ".join(f"{f.meaning} ({_quote(f.text)})" for f in got.found)
            count = {2: "two", 3: "three"}.get(len(got.found), str(len(got.found)))
            raise self.unknown(el, f"the rules text gives {what} {count} meanings: "
                               f"{said}", got.found[0].meaning)
        if got.kind in UNSUPPORTED and (got.kind, obj) not in _BUILT_AFTER:
            rule = UNSUPPORTED[got.kind]
            why = "a circle with no arrow; " if obj == "circle" else ""
            if got.kind in NOT_READ:
                cannot = (f"a rule sudoku-csp models ({NOT_READ[got.kind]}) but cannot read "
                          "from a SudokuPad drawing yet: build it in Python or the own JSON")
            else:
                cannot = "a rule sudoku-csp cannot model"
            raise ParseError(f"{self.describe(el)}: {why}the rules text says it is a {rule} "
                             f"({_quote(got.text)}), {cannot}")
        rec = {"element": obj,
               "colour": col or "", "meaning": got.meaning, "text": got.text}
        if rec not in self.inferred:
            self.inferred.append(rec)
        return got.kind, got.value

    # -- reading ---------------------------------------------------------------------------
    def read(self) -> dict:
        for key, v in self.obj.items():
            if key in _RULE_KEYS or key in _PLAIN_KEYS:
                continue
            if isinstance(v, (list, dict)) and v:
                raise ParseError(f"SudokuPad element {quoted(key)} is not read by sudoku-csp")
        self.givens()
        self.regions()
        self.flags()
        self.metadata()
        self.cage_list()
        self.min_max()
        self.line_list()
        self.arrow_list()
        self.shape_list()
        for el in self.lines:
            if not self.is_used(el):
                raise self.unknown(el, "a broad stroke that is no arrow's circle", "ignore")
        for key in ("title", "author"):
            if isinstance(self.meta.get(key), str):
                self.fp[key] = self.meta[key]
        rules = self.meta.get("rules")
        if isinstance(rules, list):
            rules = "\n".join(str(x) for x in rules)
        if isinstance(rules, str):
            self.fp["ruleset"] = rules
        sol = self.meta.get("solution")
        if isinstance(sol, (str, int)) and str(sol).strip():
            self.fp["solution"] = str(sol).strip()
        return self.fp

    def givens(self) -> None:
        n = self.n
        for r, row in enumerate(self.obj["cells"]):
            for c, cell in enumerate(row):
                if not isinstance(cell, dict):
                    raise ParseError(f"SudokuPad cell {_name(r, c)} is not an object")
                v = cell.get("value")
                if v in (None, ""):
                    continue
                text = str(v).strip() if not isinstance(v, bool) else ""
                if not re.fullmatch(r"[0-9]{1,2}", text) or not 1 <= int(text) <= n:
                    raise ParseError(f"SudokuPad given at {_name(r, c)} is {quoted(v)}, not a digit "
                                     f"1..{n}")
                self.fp["grid"][r][c] = {"value": int(text), "given": True}

    def cell(self, x: Any, what: str) -> tuple[int, int]:
        if (not isinstance(x, (list, tuple)) or len(x) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in x)):
            raise ParseError(f"SudokuPad {what}: {str(x)[:30]} is not a cell [row, col]")
        r, c = x
        if not (0 <= r < self.n and 0 <= c < self.n):
            raise ParseError(f"SudokuPad {what}: cell [{r}, {c}] is outside the "
                             f"{self.n}x{self.n} grid")
        return r, c

    def regions(self) -> None:
        regs = self.obj.get("regions")
        n = self.n
        owner: dict[tuple[int, int], int] = {}
        if regs is not None and not isinstance(regs, list):
            raise ParseError("SudokuPad 'regions' must be a list of cell lists")
        for k, reg in enumerate(regs or []):
            if not isinstance(reg, list):
                raise ParseError(f"SudokuPad region {k + 1} is not a list of cells")
            for x in reg:
                rc = self.cell(x, f"region {k + 1}")
                if rc in owner and owner[rc] != k:
                    raise ParseError(f"SudokuPad cell {_name(*rc)} is in regions {owner[rc] + 1} "
                                     f"and {k + 1}")
                owner[rc] = k
        for r in range(n):
            for c in range(n):
                self.fp["grid"][r][c]["region"] = owner.get((r, c))

    def flags(self) -> None:
        g = self.obj.get("global") or []
        if not isinstance(g, list):
            raise ParseError("SudokuPad 'global' must be a list of rule names")
        negative: list[str] = []
        for flag in g:
            if not isinstance(flag, str):
                raise ParseError(f"SudokuPad global rule {quoted(str(flag), 30)} is not a name")
            if flag in _GLOBAL:
                self.fp[_GLOBAL[flag]] = True
            elif isinstance(flag, str) and flag.startswith("anti") and \
                    flag[4:] in ("ratio", "xv", "difference", "sum"):
                negative.append(flag[4:])
                self.fp.setdefault(flag[4:], [])
            elif flag == "antifoglight":
                continue
            else:
                raise ParseError(f"SudokuPad global rule {quoted(flag)} is not read by sudoku-csp")
        if negative:
            self.fp["negative"] = negative
        for key in ("antiknight", "antiking"):
            if self.meta.get(key) is True:
                self.fp[key] = True

    def metadata(self) -> None:
        if self.meta.get("bgimage") and self.m.get("BGIMAGE", ("",))[0] != "ignore":
            raise ParseError("SudokuPad puzzle draws part of itself in a background image "
                             "(metadata bgimage), which sudoku-csp cannot see; if the picture "
                             "holds no rule, say --line 'bgimage=ignore'")
        for el in self.cages:
            v, cells = el.d.get("value"), el.d.get("cells")
            m = _META.match(v) if isinstance(v, str) else None
            if m and (not cells or self._transparent(el.d)):
                key, text = m.group(1).lower(), m.group(2)
                if key in ("rules",) and isinstance(self.meta.get(key), str):
                    self.meta[key] += "\n" + text
                else:
                    self.meta.setdefault(key, text)
                self.use(el)

    @staticmethod
    def _transparent(d: dict) -> bool:
        cols = [colour(d.get(k)) for k in ("outlineC", "fontC", "borderColor", "textColor")
                if d.get(k) is not None]
        return bool(cols) and all(c is not None and len(c) == 9 and c.endswith("00")
                                  for c in cols)

    # -- cages -----------------------------------------------------------------------------
    def cage_list(self) -> None:
        disjoint_flag = self.fp.get("disjointgroups")
        for el in self.cages:
            if self.is_used(el):
                continue
            d = el.d
            cells_raw = d.get("cells")
            if not cells_raw:
                self.use(el)          # a value-only cage that is no metadata: a label
                continue
            if not isinstance(cells_raw, list):
                raise ParseError(f"SudokuPad {el.label}: 'cells' must be a list of cells")
            cells = [_rc(*self.cell(x, el.label)) for x in cells_raw]
            style, unique = d.get("style"), d.get("unique")
            if not isinstance(style, str):
                style = None
            self.use(el)
            if d.get("hidden"):
                if unique is True:
                    self.add("extraregion", {"cells": cells})
                continue
            if style == "extraregion":
                self.add("extraregion", {"cells": cells})
            elif d.get("type") == "disjoint":
                if not disjoint_flag:
                    self.add("extraregion", {"cells": cells})
            elif style in _INDEXERS:
                self.add(_INDEXERS[style], {"cells": cells})
            elif unique is True:
                self.killer(el, cells)
            else:
                mean = self.meaning(el, self.el_colour(el), "CAGE")
                if mean is None:
                    raise self.unknown(el, "a cage without SudokuPad's 'unique' flag (its "
                                       "meaning is only in the rules text)", "killer")
                kind = mean[0]
                if kind == "killer":
                    self.killer(el, cells)
                elif kind == "extra-region":
                    self.add("extraregion", {"cells": cells})
                elif kind != "ignore":
                    raise ParseError(f"{self.describe(el)}: a cage can be killer, extra-region "
                                     f"or ignore, not {kind}")

    def killer(self, el: _Element, cells: list[str]) -> None:
        d = el.d
        total = d.get("sum")
        if not (isinstance(total, int) and not isinstance(total, bool)):
            v = d.get("value")
            if v in (None, ""):
                total = None
            elif isinstance(v, int) and not isinstance(v, bool) or \
                    isinstance(v, str) and re.fullmatch(r"\s*[0-9]{1,4}\s*", v):
                total = int(v)
            else:
                raise ParseError(f"{self.describe(el)}: the cage's value {quoted(v)} is not a sum")
        it: dict[str, Any] = {"cells": cells}
        if total is not None:
            it["value"] = str(total)
        self.add("killercage", it)

    # -- lines -----------------------------------------------------------------------------
    def points(self, el: _Element) -> list[tuple[float, float]]:
        pts = el.d.get("wayPoints")
        if not isinstance(pts, list) or len(pts) < 2:
            raise ParseError(f"SudokuPad {el.label}: needs at least two wayPoints")
        return [_point(p, el.label) for p in pts]

    def path(self, el: _Element, pts: list[tuple[float, float]]) -> list[tuple[int, int]]:
        """The cells a line runs through (its points in cell centres, or inside cells)."""
        n = self.n
        cells: list[tuple[int, int]] = []
        for r, c in pts:
            if not (0 < r < n and 0 < c < n):
                raise ParseError(f"{self.describe(el)}: it leaves the grid")
            if (_near_int(r, 0.02) and not _near_half(r)) or (_near_int(c, 0.02) and
                                                               not _near_half(c)):
                raise ParseError(f"{self.describe(el)}: it runs along the grid lines, not "
                                 "through cells")
            cell = (math.floor(r), math.floor(c))
            if cells and cell == cells[-1]:
                continue
            if cells:
                (r0, c0), (r1, c1) = cells[-1], cell
                dr, dc = r1 - r0, c1 - c0
                steps = max(abs(dr), abs(dc))
                if dr and dc and abs(dr) != abs(dc):
                    raise ParseError(f"{self.describe(el)}: a segment from {_name(r0, c0)} to "
                                     f"{_name(r1, c1)} does not follow rows, columns or "
                                     "diagonals")
                for k in range(1, steps):
                    cells.append((r0 + dr // steps * k, c0 + dc // steps * k))
            cells.append(cell)
        return cells

    def line_list(self) -> None:
        n = self.n
        for el in self.lines:
            if self.is_used(el):
                continue
            pts = self.points(el)
            if el.d.get("thickness") is not None and _num(el.d["thickness"], el.label) >= 30:
                if (self.meaning(el) or ("",))[0] == "ignore":
                    self.use(el)
                continue        # a broad stroke: an arrow's circle (read with the arrows)
            if len(pts) == 2 and all(_near_int(x) for p in pts for x in p):
                (r0, c0), (r1, c1) = sorted((round(p[0]), round(p[1])) for p in pts)
                if (r0, c0, r1, c1) == (0, 0, n, n):
                    self.fp["diagonal-"] = True
                    self.use(el)
                    continue
                if (r0, c0, r1, c1) == (0, n, n, 0):
                    self.fp["diagonal+"] = True
                    self.use(el)
                    continue
            col = self.el_colour(el)
            mean = self.meaning(el)
            if mean is None and col is not None:
                th = el.d.get("thickness")
                kind = CONVENTIONS.get((col[:7], th)) if isinstance(th, (int, float)) else None
                kind = kind or CONVENTIONS.get((col[:7], None))
                if kind is not None:
                    mean = (kind, None)
            cells = self.path(el, pts)
            if mean is None:
                bulbs = self.end_shapes(el, cells, same_colour=True)
                if bulbs[0] and not bulbs[1]:
                    mean = ("thermo", None)
                elif bulbs[1] and not bulbs[0]:
                    mean, cells = ("thermo", None), cells[::-1]
            if mean is None:
                ends = self.end_shapes(el, cells, same_colour=False)
                mean = self.from_text(el, "line", frozenset() if ends[0] or ends[1] else
                                      frozenset({"thermo", "slow-thermo"}))
            if mean is None:
                raise self.unknown(el, "its meaning is only in the rules text", "renban")
            self.use(el)
            kind, value = mean
            if kind == "ignore":
                continue
            if (kind, "line") in _BUILT_AFTER:       # no f-puzzles key: built after it
                self.after.append((kind, [_rc(*x).lower() for x in cells]))
                continue
            if kind not in LINE_KINDS:
                raise ParseError(f"{self.describe(el)}: a line cannot be {kind}")
            if kind in ("thermo", "slow-thermo"):
                first, last = self.end_shapes(el, cells, same_colour=False)
                if last and not first:
                    cells = cells[::-1]
            ends = _END_MARKERS.get(kind)
            if ends:
                first, last = self.end_shapes(el, cells, same_colour=False)
                for s in first + (last if ends == "both" else []):
                    self.use(s)
            key, default = LINE_KINDS[kind]
            item: dict[str, Any] = {"lines": [[_rc(*x) for x in cells]]}
            v = value if value is not None else (default(n) if default else None)
            if v is not None:
                item["value"] = str(v)
            self.add(key, item)

    def end_shapes(self, el: _Element, cells: list[tuple[int, int]],
                   same_colour: bool) -> tuple[list[_Element], list[_Element]]:
        """Text-less shapes centred on the first / last cell of a line (bulbs, end circles,
        diamonds); with ``same_colour``, only filled round ones of the line's colour."""
        col = self.el_colour(el)
        out: tuple[list[_Element], list[_Element]] = ([], [])
        for i, (r, c) in enumerate((cells[0], cells[-1])):
            for s in self.shapes:
                if self.is_used(s) or str(s.d.get("text", "")).strip():
                    continue
                try:
                    sr, sc = _point(s.d.get("center"), s.label)
                except ParseError:
                    continue
                if abs(sr - r - 0.5) > 0.15 or abs(sc - c - 0.5) > 0.15:
                    continue
                w = s.d.get("width", 0)
                if not isinstance(w, (int, float)) or not 0.4 <= w <= 1.0:
                    continue
                if same_colour and not (s.d.get("rounded") and col is not None and
                                        (colour(s.d.get("backgroundColor")) or "")[:7] == col[:7]):
                    continue
                out[i].append(s)
        if len(cells) == 1:
            return out[0], []
        return out

    # -- minimum / maximum -----------------------------------------------------------------
    def min_max(self) -> None:
        shaded: dict[tuple[int, int], _Element] = {}
        for s in self.shapes:
            d = s.d
            if colour(d.get("backgroundColor")) == "#CCCCCC" and not d.get("rounded") and \
                    not str(d.get("text", "")).strip() and d.get("width", 0) == 1 == d.get("height", 0):
                r, c = _point(d.get("center"), s.label)
                shaded[(math.floor(r), math.floor(c))] = s
        chevrons = [el for el in self.lines
                    if colour(el.d.get("color")) == "#000000"
                    and isinstance(el.d.get("thickness"), (int, float)) and el.d["thickness"] <= 1.5
                    and isinstance(el.d.get("wayPoints"), list) and len(el.d["wayPoints"]) == 3]
        if not shaded or not chevrons:
            return
        kind: dict[tuple[int, int], str] = {}
        for el in chevrons:
            (ar, ac), (tr, tc), (br, bc) = self.points(el)
            cell = min(shaded, key=lambda x: (x[0] + 0.5 - tr) ** 2 + (x[1] + 0.5 - tc) ** 2)
            cr, cc = cell[0] + 0.5, cell[1] + 0.5
            tip = math.hypot(tr - cr, tc - cc)
            arms = math.hypot((ar + br) / 2 - cr, (ac + bc) / 2 - cc)
            if tip > 0.7:
                continue
            k = "maximum" if tip > arms else "minimum"
            if kind.setdefault(cell, k) != k:
                raise ParseError(f"SudokuPad chevrons around {_name(*cell)} point both ways")
            self.use(el)
        todo = [c for c in shaded if c not in kind]
        while todo:
            progress = False
            for c in list(todo):
                for o in ((c[0] + 1, c[1]), (c[0] - 1, c[1]), (c[0], c[1] + 1), (c[0], c[1] - 1)):
                    if o in kind:
                        kind[c] = kind[o]
                        todo.remove(c)
                        progress = True
                        break
            if not progress:
                break
        for c in sorted(kind):
            self.add(kind[c], {"cell": _rc(*c)})
            self.use(shaded[c])

    # -- arrows ----------------------------------------------------------------------------
    def arrow_list(self) -> None:
        n = self.n
        groups: dict[int, dict[str, Any]] = {}
        for el in self.arrows:
            pts = self.points(el)
            r0, c0 = pts[0]
            if not (0 < r0 < n and 0 < c0 < n):
                (r1, c1) = pts[-1]
                if (abs(r1 - r0) < 0.05) != (abs(c1 - c0) < 0.05):   # along a row or column
                    self.rossini_arrow(el, (math.floor(r0), math.floor(c0)), r1 - r0, c1 - c0)
                else:
                    self.little_killer(el, pts)
                continue
            start = (math.floor(r0), math.floor(c0))
            circle, owner = self.circle_at(start)
            if circle is None:
                raise self.unknown(el, f"an arrow starting in {_name(*start)} with no circle "
                                   "there", "ignore")
            shaft = [x for x in self.path(el, pts) if x not in circle]
            if not shaft:
                raise ParseError(f"{self.describe(el)}: the arrow has no cells beyond its circle")
            self.use(el)
            for o in owner:
                self.use(o)
            key = id(owner[0])
            g = groups.setdefault(key, {"cells": [_rc(*x) for x in sorted(circle)], "lines": []})
            g["lines"].append([_rc(*start)] + [_rc(*x) for x in shaft])
        for g in groups.values():
            self.add("arrow", g)

    def circle_at(self, cell: tuple[int, int]) -> tuple[list[tuple[int, int]] | None, list]:
        """The cells of the circle (a round shape, or a broad stroke through several cells)
        covering ``cell``, and the elements drawing it."""
        r, c = cell
        for s in self.shapes:
            d = s.d
            if not d.get("rounded") or str(d.get("text", "")).strip():
                continue
            try:
                sr, sc = _point(d.get("center"), s.label)
                w, h = _num(d.get("width", 0), s.label), _num(d.get("height", 0), s.label)
            except ParseError:
                continue
            if min(w, h) < 0.5:
                continue
            rows = [x for x in range(self.n) if abs(x + 0.5 - sr) <= (h - 0.5) / 2 + 0.05]
            cols = [x for x in range(self.n) if abs(x + 0.5 - sc) <= (w - 0.5) / 2 + 0.05]
            if r in rows and c in cols:       # (several arrows may each draw the circle)
                same = [o for o in self.shapes if o.d.get("center") == d.get("center")
                        and o.d.get("width") == d.get("width")
                        and o.d.get("height") == d.get("height") and o.d.get("rounded")
                        and not str(o.d.get("text", "")).strip()]
                return [(x, y) for x in rows for y in cols], same
        strokes = [el for el in self.lines
                   if isinstance(el.d.get("thickness"), (int, float)) and el.d["thickness"] >= 30]
        for el in strokes:
            cells = [(math.floor(p[0]), math.floor(p[1])) for p in self.points(el)]
            if cell in cells:
                same = [o for o in strokes if [(math.floor(p[0]), math.floor(p[1]))
                                               for p in self.points(o)] == cells]
                return list(dict.fromkeys(cells)), same
        return None, []

    def rossini_arrow(self, el: _Element, clue: tuple[int, int], dr: float, dc: float) -> None:
        """An arrow beside a row or column, outside the grid, pointing along it: a Rossini
        clue when the rules text says so (increasing in the arrow's direction)."""
        n = self.n
        r, c = clue
        if not ((r in (-1, n)) != (c in (-1, n))) or not (-1 <= r <= n and -1 <= c <= n):
            raise self.unknown(el, "an arrow outside the grid, not beside a row or column",
                               "ignore")
        across = c in (-1, n)                 # beside a row: the arrow must run along it
        if across != (abs(dc) > abs(dr)):
            raise self.unknown(el, "an arrow outside the grid that points neither along its "
                               "row or column nor along a diagonal", "ignore")
        self.rossini(el, clue, inward=(dc if across else dr) * (1 if -1 in (r, c) else -1) > 0)

    def rossini(self, el: _Element, clue: tuple[int, int], inward: bool) -> None:
        """Record a Rossini clue at ``clue`` (an outside cell) drawn by ``el``; refuse when
        the rules text does not call such arrows Rossini arrows."""
        got = self.from_text(el, "arrow")
        if got is None or got[0] != "rossini":
            raise self.unknown(el, "an arrow outside the grid along its row or column whose "
                               "meaning the rules text does not give (Rossini arrows are read "
                               "when the rules text names them)", "ignore")
        self.use(el)
        order = "increasing" if inward else "decreasing"
        self.after.append(("rossini", [clue[0] + 1, clue[1] + 1, order]))

    def little_killer(self, el: _Element, pts: list[tuple[float, float]]) -> None:
        n = self.n
        (r0, c0), (r1, c1) = pts[0], pts[-1]
        clue = (math.floor(r0), math.floor(c0))
        if not (-1 <= clue[0] <= n and -1 <= clue[1] <= n):
            raise ParseError(f"{self.describe(el)}: it starts far outside the grid")
        dr, dc = r1 - r0, c1 - c0
        if abs(abs(dr) - abs(dc)) > 0.1 * max(abs(dr), abs(dc), 1e-9) or not dr or not dc:
            raise self.unknown(el, "an arrow outside the grid that does not point along a "
                               "diagonal", "ignore")
        direction = ("D" if dr > 0 else "U") + ("R" if dc > 0 else "L")
        texts = self.texts_in(clue)
        if not texts:
            raise ParseError(f"{self.describe(el)}: a little killer arrow with no number at "
                             f"its clue")
        for s in texts:
            self.use(s)
        self.use(el)
        value = "".join(str(s.d.get("text")).strip() for s in texts)
        if value in ("_", "?", ""):
            return
        if not re.fullmatch(r"[0-9]{1,3}", value):
            raise ParseError(f"{self.describe(el)}: little killer clue {quoted(value)} is not a number")
        self.add("littlekillersum", {"cell": _rc(*clue), "direction": direction, "value": value})

    def texts_in(self, cell: tuple[int, int]) -> list[_Element]:
        out = []
        for s in self.shapes:
            if self.is_used(s) or not str(s.d.get("text", "")).strip():
                continue
            try:
                r, c = _point(s.d.get("center"), s.label)
            except ParseError:
                continue
            if (math.floor(r), math.floor(c)) == cell:
                out.append(s)
        return out

    # -- shapes ----------------------------------------------------------------------------
    def shape_list(self) -> None:
        n = self.n
        outside: dict[tuple[int, int], list[_Element]] = {}
        for s in self.shapes:
            if self.is_used(s):
                continue
            d = s.d
            r, c = _point(d.get("center"), s.label)
            text = str(d.get("text", "")).strip() if d.get("text") is not None else ""
            w = d.get("width", 0) if isinstance(d.get("width"), (int, float)) else 0
            h = d.get("height", 0) if isinstance(d.get("height"), (int, float)) else 0
            bg = colour(d.get("backgroundColor"))
            mean = self.meaning(s, bg, colour(d.get("borderColor")))
            if mean is not None:
                self.use(s)
                self.shape_meaning(s, mean[0], r, c)
                continue
            if not (0 < r < n and 0 < c < n):
                if text:
                    outside.setdefault((math.floor(r), math.floor(c)), []).append(s)
                    continue
                raise self.unknown(s, "a shape outside the grid", "ignore")
            edge = self.edge(r, c)
            if edge is not None and text.upper() in ("X", "V"):
                self.use(s)
                self.add("xv", {"cells": [_rc(*edge[0]), _rc(*edge[1])], "value": text.upper()})
                continue
            if edge is not None and d.get("rounded") and max(w, h) <= 0.55 and \
                    (not text or re.fullmatch(r"[0-9]{1,2}", text)):
                key = {"#FFFFFF": "difference", "#000000": "ratio"}.get((bg or "")[:7])
                if key is None:
                    raise self.unknown(s, "a dot that is neither white nor black", "ignore")
                self.use(s)
                item: dict[str, Any] = {"cells": [_rc(*edge[0]), _rc(*edge[1])]}
                if text:
                    item["value"] = text
                self.add(key, item)
                continue
            if _near_int(r) and _near_int(c) and 0 < round(r) < n and 0 < round(c) < n and \
                    d.get("rounded") and text:
                found = re.findall(r"[0-9]+", text)
                digits = [int(x) for x in found] if all(len(x) <= 3 for x in found) else []
                if digits and all(1 <= x <= n for x in digits):
                    R0, C0 = round(r), round(c)
                    self.use(s)
                    self.add("quadruple", {"cells": [_rc(R0 - 1, C0 - 1), _rc(R0 - 1, C0),
                                                     _rc(R0, C0 - 1), _rc(R0, C0)],
                                           "values": digits})
                    continue
            centred = _near_half(r, 0.1) and _near_half(c, 0.1)
            if centred and not text and bg is not None and bg[:7] == "#CFCFCF" and \
                    0.5 <= w <= 0.8 and 0.5 <= h <= 0.8 and not d.get("angle"):
                self.use(s)
                key = "odd" if d.get("rounded") else "even"
                self.add(key, {"cell": _rc(math.floor(r), math.floor(c))})
                continue
            if centred and not text and not d.get("rounded") and w >= 0.9 and h >= 0.9:
                if bg is not None and bg[:7] == "#CFCFCF":
                    raise self.unknown(s, "grey cell (SudokuPad's f-puzzles conversion draws "
                                       "clone cells this way and loses which cells are clones: "
                                       "load the f-puzzles link instead)", "ignore")
                self.use(s)          # a cell colour (f-puzzles' coloured cells): decoration
                continue
            if d.get("rounded") and not text:
                got = self.from_text(s, "circle")     # refuses naming a circle rule it names
                if got is not None and got[0] == "counting-circles" and centred and \
                        0 < r < n and 0 < c < n:
                    self.use(s)                       # built after f-puzzles: no key there
                    self.counting.append(_rc(math.floor(r), math.floor(c)))
                    continue
                raise self.unknown(s, "a circle with no arrow (its meaning is only in the "
                                   "rules text)", "ignore")
            raise self.unknown(s, "a shape whose meaning is only in the rules text", "ignore")
        for cell, shapes in outside.items():
            self.outside_clue(cell, shapes)

    def shape_meaning(self, s: _Element, kind: str, r: float, c: float) -> None:
        if kind == "ignore":
            return
        if kind in ("odd", "even"):
            if not (0 < r < self.n and 0 < c < self.n):
                raise ParseError(f"{self.describe(s)}: odd/even marks sit in a cell")
            self.add(kind, {"cell": _rc(math.floor(r), math.floor(c))})
            return
        raise ParseError(f"{self.describe(s)}: a shape can be odd, even or ignore, not {kind}")

    def edge(self, r: float, c: float) -> tuple[tuple[int, int], tuple[int, int]] | None:
        n = self.n
        if _near_int(r) and _near_half(c) and 0 < round(r) < n:
            R0, C0 = round(r), math.floor(c)
            return (R0 - 1, C0), (R0, C0)
        if _near_int(c) and _near_half(r) and 0 < round(c) < n:
            R0, C0 = math.floor(r), round(c)
            return (R0, C0 - 1), (R0, C0)
        return None

    def outside_clue(self, cell: tuple[int, int], shapes: list[_Element]) -> None:
        n = self.n
        r, c = cell
        if not ((r in (-1, n)) != (c in (-1, n))) or not (-1 <= r <= n and -1 <= c <= n):
            raise self.unknown(shapes[0], "text outside the grid, not beside a row or column",
                               "ignore")
        texts = [str(s.d.get("text")).strip() for s in shapes]
        if len(texts) == 1 and texts[0] in _ARROW_GLYPHS:
            dr, dc = _ARROW_GLYPHS[texts[0]]
            if (dc != 0) != (c in (-1, n)):
                raise self.unknown(shapes[0], "an arrow outside the grid that does not point "
                                   "along its row or column", "ignore")
            self.rossini(shapes[0], cell, inward=(dr + dc) * (1 if -1 in (r, c) else -1) > 0)
            return
        symbols = {t for t in texts if t in (_SYMBOL_XSUM, _SYMBOL_SKY)}
        numbers = [t for t in texts if re.fullmatch(r"[0-9]{1,3}", t)]
        if len(numbers) != 1 or len(symbols) > 1 or len(numbers) + len(symbols) != len(texts):
            raise self.unknown(shapes[0], "text outside the grid that is not one number",
                               "ignore")
        if symbols:
            key = "xsum" if _SYMBOL_XSUM in symbols else "skyscraper"
        else:
            mean = self.m.get("OUTSIDE")
            if mean is not None and mean[0] in _OUTSIDE_AFTER:
                for s in shapes:
                    self.use(s)
                self.after.append((mean[0], [r + 1, c + 1, int(numbers[0])]))
                return
            if mean is not None:
                key = {**_OUTSIDE_KEYS, "ignore": ""}.get(mean[0], "?")
                if key == "?":
                    raise ParseError(f"--line 'outside={mean[0]}': outside numbers can be "
                                     f"{', '.join(OUTSIDE_KINDS[:-1])} or ignore")
            elif all(s.d.get("fontSize") == 32 for s in shapes):
                key = "sandwichsum"      # SudokuPad's f-puzzles conversion of a sandwich sum
            else:
                el = shapes[0]
                raise ParseError(f"{self.describe(el)}: a number outside the grid whose "
                                 "meaning (sandwich, x-sum, skyscraper ...) is only in the "
                                 "rules text; say what it is, e.g. --line 'outside=sandwich' "
                                 "(Python: lines={'outside': 'sandwich'})")
        for s in shapes:
            self.use(s)
        if key:
            self.add(key, {"cell": _rc(r, c), "value": numbers[0]})


def _quote(text: str, most: int = 60) -> str:
    return '"' + (text if len(text) <= most else text[:most - 3].rstrip() + "...") + '"'


# -- public API ---------------------------------------------------------------------------------
def inferred_note(inferred: list[dict[str, str]]) -> str:
    """One line saying what was read from the rules text (``puzzle.meta["inferred"]``).

    >>> inferred_note([{"element": "line", "colour": "#60C060", "meaning": "whispers:5",
    ...                 "text": "Adjacent digits along a green line differ by at least 5"}])
    'read from the rules text: line #60C060 = whispers:5 ("Adjacent digits along a green line differ by at least 5")'
    """
    return "read from the rules text: " + "; ".join(
        f"{r['element']} {r['colour']} = {r['meaning']} ({_quote(r['text'])})"
        for r in inferred)


def sudokupad_to_fpuzzles(obj: dict, lines: Mapping[str, str] | None = None) -> dict:
    """The f-puzzles document a SudokuPad puzzle JSON (decoded, full key names) stands
    for; raises :class:`ParseError` naming the first element whose meaning is not clear."""
    if not isinstance(obj, dict):
        raise ParseError("SudokuPad puzzle JSON must be an object")
    return _Reader(obj, parse_meanings(lines)).read()


def load_sudokupad(data: str | dict, lines: Mapping[str, str] | None = None,
                   budget: Budget | None = None) -> Puzzle:
    """A Puzzle from a SudokuPad link or payload (``scl``, ``ctc``, ``fpuzzles``, ``fpuz``,
    ``scf``), SudokuPad puzzle JSON (text, zipped text or a dict). ``lines`` maps colours
    to meanings (module docstring). The puzzle's stated solution, if any, is in
    ``puzzle.meta["solution"]``. Read within ``budget``."""
    meanings = parse_meanings(lines)
    kind = "scl"
    if isinstance(data, str):
        s = check_size(data, "SudokuPad text").strip()
        if is_sudokupad_text(s):
            kind, obj = decode_sudokupad(s, budget)
        elif s.startswith("{"):
            obj = read_sudokupad_json(s)
        else:
            raise ParseError("not a SudokuPad link, payload or puzzle JSON")
    elif isinstance(data, dict):
        obj = data
    else:
        raise ParseError(f"SudokuPad data must be text or a dict, not {type(data).__name__}")
    from .fpuzzles import load_fpuzzles
    if kind == "fpuzzles":
        p = load_fpuzzles(obj, budget)
        p.meta["source"] = "sudokupad (fpuzzles)"
        return p
    if kind == "scf":
        return _from_scf(obj)
    if budget is not None:
        budget.check("parsing")
    reader = _Reader(obj, meanings)
    fp = reader.read()
    try:
        p = load_fpuzzles(fp, budget)
    except InvalidPuzzle as e:
        raise type(e)(f"SudokuPad puzzle: {e}") from None
    p.meta["source"] = "sudokupad"
    extra: list[Any] = []                # rules f-puzzles has no key for
    from variants.record import rule_classes
    if reader.counting:
        extra.append(rule_classes()[_AFTER_CLASS["counting-circles"]](sorted(set(reader.counting))))
    rossini = [args for kind, args in reader.after if kind == "rossini"]
    all_given = reader.rules_text().all_arrows_given() if rossini else None
    if all_given:
        from variants.outside import rossini_negative
        extra.append(rossini_negative([(r, c) for r, c, _ in rossini]))
        reader.inferred.append({"element": "arrow", "colour": "", "meaning": "rossini-negative",
                                "text": all_given})
    for kind, args in reader.after:
        if kind in _OUTSIDE_AFTER:                     # an outside clue: (row, col, value)
            extra.append(rule_classes()[_OUTSIDE_AFTER[kind]](*args))
        elif kind == "rossini":                        # (row, col, order)
            extra.append(rule_classes()[_AFTER_CLASS[kind]](*args))
        else:                                          # a line: its cells
            extra.append(rule_classes()[_AFTER_CLASS[kind]](args))
    if extra:
        try:
            p.use(*extra)
        except InvalidPuzzle as e:
            raise type(e)(f"SudokuPad puzzle: {e}") from None
    if reader.inferred:
        p.meta["inferred"] = reader.inferred
    return p


def _from_scf(text: str) -> Puzzle:
    """SudokuPad's compact classic format: 81 givens run-length coded in base 62 (each
    character a digit d followed by z blanks: value d + 10*z), then ``*`` and options
    (``w`` windoku, ``x`` both diagonals, ``t<title>``, ``a<author>``, ``**`` for ``*``)."""
    from variants import diagonal, windoku
    from variants.classic import classic_puzzle
    data, star, opts = text.partition("*")
    givens = []
    for ch in data:
        o = ord(ch)
        if "0" <= ch <= "9":
            v = o - 48
        elif "A" <= ch <= "Z":
            v = o - 55
        elif "a" <= ch <= "x":
            v = o - 61
        else:
            raise ParseError(f"scf payload: {quoted(ch)} is not a base-62 character")
        givens.append(str(v % 10) + "0" * (v // 10))
    line = "".join(givens)
    rest = ""
    if not star:
        if len(line) < 81:
            raise ParseError(f"scf payload holds {len(line)} cells, not 81")
        line = line[:81]
    if len(line) != 81:
        raise ParseError(f"scf payload holds {len(line)} cells, not 81")
    p = classic_puzzle(line.replace("0", "."))
    meta: dict[str, str] = {}
    i = 0
    rest = opts
    while i < len(rest):
        ch = rest[i]
        i += 1
        if ch == "w":
            p.use(windoku())
        elif ch == "x":
            p.use(diagonal())
        elif ch in "ta":
            j = i
            val = []
            while j < len(rest):
                if rest[j] == "*" and rest[j + 1:j + 2] == "*":
                    val.append("*")
                    j += 2
                    continue
                if rest[j] == "*":
                    break
                val.append(rest[j])
                j += 1
            meta["title" if ch == "t" else "author"] = "".join(val)
            i = j + 1
        elif ch == "*":
            continue
        else:
            raise ParseError(f"scf payload: unknown option {quoted(ch)}")
    p.meta.update(meta)
    if "title" in meta:
        p.name = meta["title"]
    p.meta["source"] = "sudokupad (scf)"
    return p


def to_sudokupad_url(p: Puzzle) -> str:
    """A SudokuPad link to the puzzle, in its ``fpuzzles`` form (SudokuPad converts it on
    opening; :func:`~.fpuzzles.to_fpuzzles` says what can be written).

    >>> from variants import classic
    >>> url = to_sudokupad_url(Puzzle(4).use(classic()).givens("1" + "." * 15))
    >>> url.startswith("https://sudokupad.app/fpuzzles"), load_sudokupad(url).given
    (True, {0: 1})
    """
    import lzstring

    from .fpuzzles import to_fpuzzles
    text = json.dumps(to_fpuzzles(p), separators=(",", ":"))
    return "https://sudokupad.app/fpuzzles" + lzstring.LZString().compressToBase64(text)


__all__ = ["load_sudokupad", "sudokupad_to_fpuzzles", "to_sudokupad_url", "parse_meanings",
           "parse_line_option", "inferred_note", "LINE_KINDS", "CONVENTIONS", "colour"]
