"""f-puzzles JSON -> the constraint text of the Interactive Sudoku Solver ("ISS", by sigh).

Written for ``benchmarks/workbench.py`` from the facts of ISS's format (its
``js/sudoku_constraint.js`` and ``js/solver/sudoku_builder.js``, MIT; nothing copied): a
puzzle is a string of ``.Type~arg~arg`` items; a given or a candidate list is
``.~R1C1_5`` / ``.~R1C1_2_4_6``; cells are ``RrCc``; ``.Shape~6x6`` sets a 6x6 grid (boxes
2 rows by 3 columns); ``.NoBoxes`` drops the boxes and ``.Jigsaw~LAYOUT`` gives regions (one
base-(N+1) character per cell). A custom relation between two cells is ``.Pair~KEY~A~B``
(several pairs in one item, separated by an empty argument), ``.PairX~KEY~cells`` holds
between every two of the cells; KEY packs the truth table f(i, j), i and j = 1..N,
row-major, six bits per character of the URL-safe base-64 alphabet, low bit first,
trailing zero characters dropped.

The meaning of every f-puzzles key is the one ``sudoku_csp.formats.fpuzzles`` reads (see
``docs/formats.md``); each maps to the ISS item with the same meaning (a white dot with a
difference other than 1 becomes a Pair, a multi-cell arrow circle a weighted ``Sum``, the
``negative`` / ``nonconsecutive`` flags a Pair on every unmarked orthogonal pair, or ISS's
own ``AntiConsecutive`` / ``StrictKropki`` / ``StrictXV`` where they mean exactly the same).
What ISS cannot state raises :class:`Unsupported` with the reason (a box indexer, the
3x3-only entropic line on another size, ...).

>>> to_iss({"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}], [{}, {}, {}, {}],
...         [{}, {}, {}, {}], [{}, {}, {}, {}]],
...         "thermometer": [{"lines": [["R4C1", "R4C2", "R4C3"]]}]})
'.Shape~4x4.~R1C1_1.Thermo~R4C1~R4C2~R4C3'
>>> pair_key(lambda a, b: a == b, 4)
'hQI'
"""
from __future__ import annotations

import math
import re
from typing import Any, Callable, Iterable

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_CELL = re.compile(r"^R(\d+)C(\d+)$", re.I)

#: keys with no rule (metadata, drawings, solver-interface settings), as our reader
IGNORED = frozenset({
    "size", "grid", "title", "author", "ruleset", "solution", "successMessage", "metadata",
    "metaData", "line", "rectangle", "circle", "text", "cage", "cellcolor", "fogofwar",
    "foglight", "triggereffect", "disabledlogic", "truecandidatesoptions",
    "highlightConflicts"})


class Unsupported(ValueError):
    """The puzzle has a rule ISS's constraint text cannot state."""


def pair_key(fn: Callable[[int, int], bool], n: int) -> str:
    """ISS's key for the relation ``fn(a, b)`` on digits 1..n."""
    out: list[int] = []
    v = bit = 0
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            v |= bool(fn(i, j)) << bit
            bit += 1
            if bit == 6:
                out.append(v)
                v = bit = 0
    out.append(v)
    while out and not out[-1]:
        out.pop()
    return "".join(B64[x] for x in out)


def _default_regions(n: int) -> list[int]:
    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    w = n // h
    return [(r // h) * h + c // w for r in range(n) for c in range(n)]


def _groups(regs: list[Any]) -> list[tuple[int, ...]]:
    out: dict[Any, list[int]] = {}
    for c, k in enumerate(regs):
        if k is not None:
            out.setdefault(k, []).append(c)
    return [tuple(v) for v in out.values()]


def _int(x: Any) -> int | None:
    if x is None or (isinstance(x, str) and not x.strip()):
        return None
    return int(x)


class _Doc:
    def __init__(self, obj: dict) -> None:
        self.obj = obj
        self.n = obj["size"]
        self.items: list[str] = []

    def rc(self, cell: int) -> str:
        return f"R{cell // self.n + 1}C{cell % self.n + 1}"

    def cell(self, name: str) -> int:
        m = _CELL.match(name)
        if not m:
            raise Unsupported(f"not a cell: {name!r}")
        r, c = int(m.group(1)), int(m.group(2))
        return (r - 1) * self.n + c - 1

    def add(self, typ: str, *args: Any) -> None:
        self.items.append("." + "~".join([typ, *map(str, args)]))

    def pairs(self, key: str, pairs: Iterable[tuple[int, int]], typ: str = "Pair") -> None:
        args: list[str] = []
        for a, b in pairs:
            if args:
                args.append("")
            args += [self.rc(a), self.rc(b)]
        if args:
            self.add(typ, key, *args)

    def key(self, fn: Callable[[int, int], bool]) -> str:
        return pair_key(fn, self.n)


def to_iss(obj: dict) -> str:
    """The ISS constraint text of the f-puzzles document ``obj`` (raises
    :class:`Unsupported`)."""
    d = _Doc(obj)
    n = d.n
    unknown = sorted(k for k in obj if k not in IGNORED and k not in _HANDLERS
                     and k not in ("negative", "nonconsecutive"))
    if unknown:
        raise Unsupported(f"no ISS item for {', '.join(unknown)}")
    if n != 9:
        d.add("Shape", f"{n}x{n}")
    _layout(d)
    for r, row in enumerate(obj["grid"]):
        for c, cell in enumerate(row):
            cid = d.rc(r * n + c)
            v = cell.get("value")
            if cell.get("given") and v not in (None, ""):
                d.add("", f"{cid}_{int(v)}")
            gpm = cell.get("givenPencilMarks")
            if gpm:
                d.add("", "_".join([cid, *map(str, sorted({int(x) for x in gpm}))]))
    for key, handler in _HANDLERS.items():
        if obj.get(key):
            handler(d, obj[key])
    _pair_flags(d)
    return "".join(d.items)


def _layout(d: _Doc) -> None:
    """Boxes, jigsaw regions, or (cells outside any full region) no boxes and
    all-different groups, read as f-puzzles does."""
    n, obj = d.n, d.obj
    regs: list[Any] = list(_default_regions(n))
    explicit = False
    for r, row in enumerate(obj["grid"]):
        for c, cell in enumerate(row):
            if "region" in cell:
                explicit = True
                regs[r * n + c] = cell["region"]
    groups = _groups(regs)
    d.region_groups = []
    full = len(groups) == n and all(len(g) == n for g in groups)
    default = _groups(_default_regions(n))
    if full and (not explicit or groups == default) and default != _groups(
            [r for r in range(n) for _ in range(n)]):
        d.region_groups = default
        d.default_boxes = True
        return
    d.default_boxes = False
    d.add("NoBoxes")
    if not full:
        for g in groups:
            if len(g) > 1:
                d.add("AllDifferent", *(d.rc(c) for c in g))
        d.partial = True
        return
    d.partial = False
    d.region_groups = groups
    if sorted(groups) == [tuple(range(r * n, (r + 1) * n)) for r in range(n)]:
        return          # rows as regions: the rows are already all different
    index = {c: i for i, g in enumerate(sorted(groups)) for c in g}
    d.add("Jigsaw", "".join(_base(index[c], n + 1) for c in range(n * n)))


def _base(i: int, b: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[i] if i < b else "?"


def _lines(typ: str, *fixed: Any, value: Callable[[_Doc, dict], Any] | None = None
           ) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, items: Any) -> None:
        for it in items:
            for ln in it.get("lines", []):
                if not ln:
                    continue
                args = list(fixed) + ([value(d, it)] if value else [])
                d.add(typ, *args, *ln)
    return h


def _flag(typ: str, *args: Any) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, v: Any) -> None:
        if v:
            d.add(typ, *args)
    return h


def _killer(d: _Doc, items: Any) -> None:
    for it in items:
        cells = it["cells"]
        total = _int(it.get("value"))
        if total is None:
            d.add("AllDifferent", *cells)
        elif len(cells) == 1:
            d.add("", f"{cells[0]}_{total}")
        else:
            d.add("Cage", total, *cells)


def _diagonal(n: int, r: int, c: int, direction: str) -> list[int]:
    """The cells of the little-killer diagonal from outside clue (r, c), 1-based."""
    dr = 1 if direction[0] == "D" else -1
    dc = 1 if direction[1] == "R" else -1
    out = []
    r, c = r + dr, c + dc
    while 1 <= r <= n and 1 <= c <= n:
        out.append((r - 1) * n + c - 1)
        r, c = r + dr, c + dc
    return out


def _little_killer(d: _Doc, items: Any) -> None:
    for it in items:
        total = _int(it.get("value"))
        if total is None or total <= 0:
            continue
        direction = str(it.get("direction", "")).upper()
        if direction in ("UL", "UR", "DL", "DR") and it.get("cell"):
            m = _CELL.match(it["cell"])
            cells = _diagonal(d.n, int(m.group(1)), int(m.group(2)), direction)
        else:
            cells = [d.cell(x) for x in it["cells"]]
        d.add("Sum", total, *(d.rc(c) for c in cells))   # ISS's LittleKiller is this Sum


def _arrows(d: _Doc, items: Any) -> None:
    for it in items:
        circle = it["cells"]
        for ln in it.get("lines", []):
            shaft = [c for c in ln if c not in circle]
            if not shaft:
                continue
            if len(circle) == 1:
                d.add("Arrow", circle[0], *shaft)
            else:       # a pill: the circle reads as a number, most significant first
                k = len(circle)
                coeffs = [-(10 ** (k - 1 - i)) for i in range(k)] + [1] * len(shaft)
                d.add("Sum", "0_=_" + "_".join(map(str, coeffs)), *circle, *shaft)


def _cells_list(d: _Doc, items: Any) -> list[int]:
    return list(dict.fromkeys(d.cell(it["cell"]) for it in items))


def _parity(odd: bool) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, items: Any) -> None:
        ds = [x for x in range(1, d.n + 1) if x % 2 == (1 if odd else 0)]
        for c in _cells_list(d, items):
            d.add("", "_".join([d.rc(c), *map(str, ds)]))
    return h


def _extreme(maximum: bool) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, items: Any) -> None:
        cells = _cells_list(d, items)
        inside = set(cells)
        n = d.n
        for c in cells:
            r, col = divmod(c, n)
            for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
                if 0 <= rr < n and 0 <= cc < n and rr * n + cc not in inside:
                    o = rr * n + cc
                    big, small = (c, o) if maximum else (o, c)
                    d.add("GreaterThan", d.rc(big), d.rc(small))
    return h


def _quads(d: _Doc, items: Any) -> None:
    for it in items:
        cells = sorted(d.cell(x) for x in it["cells"])
        vals = [int(v) for v in it.get("values", [])]
        if vals:
            d.add("Quad", d.rc(cells[0]), *vals)


def _clones(d: _Doc, items: Any) -> None:
    eq = d.key(lambda a, b: a == b)
    pairs = [(d.cell(a), d.cell(b)) for it in items
             for a, b in zip(it["cells"], it["cloneCells"]) if a != b]
    d.pairs(eq, pairs)


def _extra(d: _Doc, items: Any) -> None:
    for it in items:
        if len(it["cells"]) > 1:
            d.add("AllDifferent", *it["cells"])


def _indexer(kind: str) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, items: Any) -> None:
        if kind == "B":
            raise Unsupported("box indexer (ISS indexes rows and columns only)")
        cells = [c for it in items for c in it["cells"]]
        if cells:
            d.add("Indexing", kind, *cells)
    return h


def _disjoint(d: _Doc, v: Any) -> None:
    if not v:
        return
    if d.default_boxes:
        d.add("DisjointSets")
        return
    if d.partial:
        raise Unsupported("disjoint groups on a grid with cells outside any region")
    groups = d.region_groups
    if sorted(groups) == [tuple(range(r * d.n, (r + 1) * d.n)) for r in range(d.n)]:
        return          # the k-th cell of every row: a column
    for k in range(d.n):
        d.add("AllDifferent", *(d.rc(sorted(g)[k]) for g in groups))


def _outside(typ: str) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, items: Any) -> None:
        n = d.n
        for it in items:
            v = _int(it.get("value"))
            if v is None:
                continue
            m = _CELL.match(it["cell"])
            r, c = int(m.group(1)), int(m.group(2))
            if r in (0, n + 1):
                line, forward = f"C{c}", r == 0
            else:
                line, forward = f"R{r}", c == 0
            if typ == "Sandwich":
                d.add("Sandwich", v, line)
            else:
                d.add(typ, line, v if forward else "", "" if forward else v)
    return h


#: the kropki dots: f-puzzles key -> (default value, ISS item for it, relation for value k)
_KROPKI: dict[str, tuple[int, str, Callable[[int], Callable[[int, int], bool]]]] = {
    "difference": (1, "WhiteDot", lambda k: lambda x, y: abs(x - y) == k),
    "ratio": (2, "BlackDot", lambda k: lambda x, y: x == k * y or y == k * x),
}


def _dots(key: str) -> Callable[[_Doc, Any], None]:
    def h(d: _Doc, items: Any) -> None:
        for it in items:
            a, b = it["cells"]
            pair = [(d.cell(a), d.cell(b))]
            if key in _KROPKI:
                default, native, relation = _KROPKI[key]
                k = _int(it.get("value"))
                if k is None or k == default:
                    d.add(native, a, b)
                else:
                    d.pairs(d.key(relation(k)), pair)
            elif key == "xv":
                letter = str(it.get("value") or "").strip().upper()
                if letter in ("X", "V"):
                    d.add(letter, a, b)
            else:
                total = int(it["value"])
                d.pairs(d.key(lambda x, y, t=total: x + y == t), pair)
    return h


def _orthogonal_pairs(n: int) -> list[tuple[int, int]]:
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append((r * n + c, r * n + c + 1))
            if r + 1 < n:
                out.append((r * n + c, (r + 1) * n + c))
    return out


def _pair_flags(d: _Doc) -> None:
    """``nonconsecutive`` and ``negative``: the relation is forbidden on every orthogonal
    pair not marked by a dot of its family (white/black dots; X/V and sum marks)."""
    obj = d.obj
    negative = set(obj.get("negative") or []) - {"foglight"}
    nonconsecutive = bool(obj.get("nonconsecutive"))
    if not negative and not nonconsecutive:
        return
    kropki: set[frozenset] = set()
    summed: set[frozenset] = set()
    white: list[int] = []
    black: list[int] = []
    sums: list[int] = []
    for key in ("difference", "ratio", "xv", "sum"):
        for it in obj.get(key) or []:
            pair = frozenset(d.cell(x) for x in it["cells"])
            if key == "difference":
                kropki.add(pair)
                white.append(_int(it.get("value")) or 1)
            elif key == "ratio":
                kropki.add(pair)
                black.append(_int(it.get("value")) or 2)
            elif key == "xv":
                if str(it.get("value") or "").strip():
                    summed.add(pair)
            else:
                summed.add(pair)
                sums.append(int(it["value"]))
    diffs = set([1] if nonconsecutive else []) | (set(white) if "difference" in negative
                                                    else set())
    ratios = (set(black) or {2}) if "ratio" in negative else set()
    banned_sums = ({5, 10} if "xv" in negative else set()) | (
        set(sums) if "sum" in negative else set())
    # ISS's own flags where they mean exactly the same
    if diffs == {1} and not ratios and not kropki:
        d.add("AntiConsecutive")
        diffs = set()
    elif diffs == {1} and ratios == {2} and set(white) <= {1} and set(black) <= {2}:
        d.add("StrictKropki")
        diffs, ratios = set(), set()
    if banned_sums == {5, 10} and not sums:
        d.add("StrictXV")
        banned_sums = set()

    def bad_k(x: int, y: int) -> bool:
        return abs(x - y) in diffs or any(x == k * y or y == k * x for k in ratios)

    def bad_s(x: int, y: int) -> bool:
        return x + y in banned_sums

    by_key: dict[str, list[tuple[int, int]]] = {}
    for a, b in _orthogonal_pairs(d.n):
        p = frozenset((a, b))
        k_on = (diffs or ratios) and p not in kropki
        s_on = banned_sums and p not in summed
        if not (k_on or s_on):
            continue
        key = d.key(lambda x, y, k=k_on, s=s_on: not ((k and bad_k(x, y)) or
                                                       (s and bad_s(x, y))))
        by_key.setdefault(key, []).append((a, b))
    for key, pairs in by_key.items():
        d.pairs(key, pairs)


def _nabner(d: _Doc, items: Any) -> None:
    key = d.key(lambda a, b: abs(a - b) > 1)
    for it in items:
        for ln in it.get("lines", []):
            if len(ln) > 1:
                d.add("PairX", key, *ln)


def _entropic(d: _Doc, items: Any) -> None:
    if d.n != 9:
        raise Unsupported("entropic line on a grid other than 9x9")
    _lines("Entropic")(d, items)


_HANDLERS: dict[str, Callable[[_Doc, Any], None]] = {
    "diagonal+": _flag("Diagonal", 1),
    "diagonal-": _flag("Diagonal", -1),
    "antiknight": _flag("AntiKnight"),
    "antiking": _flag("AntiKing"),
    "disjointgroups": _disjoint,
    "extraregion": _extra,
    "killercage": _killer,
    "littlekillersum": _little_killer,
    "arrow": _arrows,
    "doublearrow": _lines("DoubleArrow"),
    "thermometer": _lines("Thermo"),
    "palindrome": _lines("Palindrome"),
    "renban": _lines("Renban"),
    "whispers": _lines("Whisper", value=lambda d, it: _int(it.get("value")) or (d.n + 1) // 2),
    "regionsumline": _lines("RegionSumLine"),
    "betweenline": _lines("Between"),
    "entropicline": _entropic,
    "modularline": _lines("Modular", 3),
    "zipperline": _lines("Zipper"),
    "nabner": _nabner,
    "lockout": _lines("Lockout", value=lambda d, it: _int(it.get("value")) or d.n // 2),
    "difference": _dots("difference"),
    "ratio": _dots("ratio"),
    "xv": _dots("xv"),
    "sum": _dots("sum"),
    "odd": _parity(True),
    "even": _parity(False),
    "minimum": _extreme(False),
    "maximum": _extreme(True),
    "quadruple": _quads,
    "clone": _clones,
    "sandwichsum": _outside("Sandwich"),
    "xsum": _outside("XSum"),
    "skyscraper": _outside("Skyscraper"),
    "rowindexer": _indexer("R"),
    "columnindexer": _indexer("C"),
    "boxindexer": _indexer("B"),
}
