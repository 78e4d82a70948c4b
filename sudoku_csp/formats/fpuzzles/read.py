"""Reading f-puzzles (URL, LZString base64 payload, or decoded JSON -> Puzzle):
:func:`load_fpuzzles`, key by key through :data:`HANDLERS`.

The reading follows f-puzzles' own meaning of every key (``docs/formats.md`` has one row per
key): the global flags combine with the marked pairs as f-puzzles and its solver read them
(``nonconsecutive`` and a ``negative`` ratio leave pairs with a white or black dot to their
dot; a ``negative`` XV leaves X/V-marked pairs alone), cells without a ``region`` take
f-puzzles' default region for the size (rows for a prime size), ``region: null`` puts a cell
in no region, a maximum / minimum cell is compared with its neighbours that are not in the
same list. Cosmetic and solver-interface keys (:data:`IGNORED`: ``line``, ``rectangle``,
``circle``, ``text``, ``cage``, ``disabledlogic``, ``truecandidatesoptions``,
``highlightConflicts``, ...) are ignored; an unknown rule key raises
:class:`csp.errors.ParseError` naming it. Titles, authors, rule texts and stated solutions
go to ``puzzle.meta``.

The readers of the rules whose records (``cls.record``, :mod:`variants.record`) declare
their f-puzzles shape are made from the records; the other keys have readers here
(``_CUSTOM_READERS``). Writing is :mod:`.write`'s.

>>> p = load_fpuzzles({"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}],
...                    [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]],
...                    "thermometer": [{"lines": [["R4C1", "R4C2", "R4C3"]]}]})
>>> sol = p.solve(first=True).solution
>>> sol[12] < sol[13] < sol[14]
True
"""
from __future__ import annotations

import marshal
import math
import re
from typing import Any, Callable, Iterable

from csp import Grid, Puzzle
from csp.budget import Budget, gc_paused
from csp.errors import InvalidPuzzle, ParseError
from csp.grid import default_box_shape
from csp.model import RuleSet
from csp.text import did_you_mean, quoted, quoted_list

from ..payload import decode_payload

from variants import dots, killer, misc, parity, regions
from variants.arrow import arrow as _arrow_rule
from variants.classic import classic
from variants.record import RuleRecord, records, rule_classes

#: keys that carry no rule: metadata, drawings (their meaning, if any, is in the rules
#: text), fog of war, and settings of f-puzzles' or its solver's interface
IGNORED = frozenset({
    "size", "grid", "title", "author", "ruleset", "solution", "successMessage", "metadata",
    "metaData", "line", "rectangle", "circle", "text", "cage", "cellcolor", "fogofwar",
    "foglight", "triggereffect", "disabledlogic", "truecandidatesoptions",
    "highlightConflicts"})

#: the values ``negative`` may hold (f-puzzles: ratio, xv; solver extensions: difference,
#: sum; a fog-of-war userscript: foglight, a display setting)
NEGATIVE_KINDS = ("difference", "ratio", "xv", "sum", "foglight")

_CELL = re.compile(r"\AR(\d{1,3})C(\d{1,3})\Z", re.I | re.A)
_INT_TEXT = re.compile(r"\A\s*[+-]?\d{1,12}\s*\Z", re.A)


def _given_digit(v: Any, r: int, c: int, n: int) -> int:
    """The digit of a given ``value`` at row ``r``, column ``c`` (0-based), or a
    :class:`ParseError` naming the cell."""
    if type(v) is int and 1 <= v <= n:      # the common case: a digit
        return v
    name = f"R{r + 1}C{c + 1}"
    d = to_int(v, f"f-puzzles given at {name}")
    if not 1 <= d <= n:
        raise ParseError(f"f-puzzles given at {name} is {d}, not a digit 1..{n}")
    return d


def to_int(x: Any, what: str) -> int:
    """An integer from f-puzzles JSON: an int, an integral finite float, or a string of
    ASCII digits; anything else raises :class:`ParseError` naming ``what``.

    >>> to_int("12", "value"), to_int(3.0, "value")
    (12, 3)
    >>> to_int(float("nan"), "R1C1 region")
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: R1C1 region must be an integer, got nan
    """
    if isinstance(x, bool):
        raise ParseError(f"{what} must be an integer, got {quoted(x, 40)}")
    if isinstance(x, int):
        if abs(x) > 10 ** 12:
            raise ParseError(f"{what} is out of range: {quoted(x, 40)}")
        return x
    if isinstance(x, float) and math.isfinite(x) and x.is_integer() and abs(x) <= 1e12:
        return int(x)
    if isinstance(x, str) and _INT_TEXT.match(x):
        return int(x)
    raise ParseError(f"{what} must be an integer, got {quoted(x, 40)}")


def _value(x: Any, default: int | None, what: str) -> int | None:
    """A clue's number: ``default`` when missing or empty."""
    if x is None or (isinstance(x, str) and not x.strip()):
        return default
    return to_int(x, what)


def default_regions(n: int) -> list[int]:
    """f-puzzles' default region of each cell for size ``n``: boxes ``h`` rows tall and
    ``n/h`` wide, ``h`` the largest divisor of ``n`` not above its square root (rows for a
    prime ``n``).

    >>> default_regions(4)
    [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    >>> default_regions(3)
    [0, 0, 0, 1, 1, 1, 2, 2, 2]
    """
    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    w = n // h
    return [(r // h) * h + c // w for r in range(n) for c in range(n)]


def region_groups(regs: list[int | None]) -> list[tuple[int, ...]]:
    """The cells of each region, from each cell's region (None: in no region), regions in
    the order of their first cell.

    >>> region_groups([0, 1, None, 1, 0])
    [(0, 4), (1, 3)]
    """
    out: dict[int, list[int]] = {}
    for c, k in enumerate(regs):
        if k is not None:
            out.setdefault(k, []).append(c)
    return [tuple(v) for v in out.values()]


#: per size n, f-puzzles' default regions, their groups and what _Layout reads of them
#: (made once per size: most documents name no region)
_DEFAULT_LAYOUTS: dict[int, tuple] = {}


def _default_layout(n: int) -> tuple:
    """``(regions, groups, full, rows_as_regions)`` of f-puzzles' default regions for size
    ``n`` (:func:`default_regions`), as :class:`_Layout` works them out."""
    hit = _DEFAULT_LAYOUTS.get(n)
    if hit is None:
        regs = tuple(default_regions(n))
        groups = tuple(region_groups(list(regs)))
        full = len(groups) == n and all(len(g) == n for g in groups)
        rows = [tuple(range(r * n, (r + 1) * n)) for r in range(n)]
        hit = _DEFAULT_LAYOUTS[n] = (regs, groups, full, full and sorted(groups) == rows)
    return hit


class _Layout:
    """The grid and region reading of an f-puzzles document."""

    def __init__(self, n: int, regs: list[int | None], explicit: bool) -> None:
        self.n = n
        default = _default_layout(n)
        if not explicit:                 # the default regions (regs is default[0])
            self.groups = list(default[1])
            full, self.rows_as_regions = default[2], default[3]
        else:
            self.groups = region_groups(regs)
            rows = [tuple(range(r * n, (r + 1) * n)) for r in range(n)]
            full = len(self.groups) == n and all(len(g) == n for g in self.groups)
            self.rows_as_regions = full and sorted(self.groups) == rows
        self.partial: list[tuple[int, ...]] = []
        if full and (not explicit or self.groups == list(default[1])) \
                and default_box_shape(n):
            self.grid = Grid(n)
        elif self.rows_as_regions:
            self.grid = Grid(n, box=False)
        elif full:
            self.grid = Grid(n, regions=list(self.groups))
        else:
            for g in self.groups:
                if len(g) > n:
                    raise ParseError(f"f-puzzles region {regs[g[0]]} has {len(g)} cells; a "
                                     f"{n}x{n} grid's regions hold at most {n}")
            self.grid = Grid(n, box=False)
            self.partial = self.groups


def _regions(rows: list, n: int) -> tuple[list[int | None], bool]:
    regs: list[int | None] = list(_default_layout(n)[0])
    explicit = False
    for r, row in enumerate(rows):
        if row.count(_EMPTY) == len(row):
            continue                    # a row of empty cells: no region named
        for c, cell in enumerate(row):
            if "region" in cell:
                explicit = True
                v = cell["region"]
                regs[r * n + c] = None if v is None else to_int(v, f"R{r + 1}C{c + 1} region")
    return regs, explicit


@gc_paused()
def load_fpuzzles(obj: dict | str, budget: Budget | None = None) -> Puzzle:
    """Build a Puzzle from an f-puzzles JSON object (or text accepted by
    :func:`decode_payload`), within ``budget`` (each rule entry ticks it).

    The rules of the last :data:`TEMPLATES_SIZE` documents read are kept by the document
    without its givens (:func:`_rules_key`): a setter's next message (the whole puzzle
    again, often with other digits) gets a new Puzzle of the same rule objects, with its
    own givens read as below, without reading its rules again."""
    if isinstance(obj, str):
        obj = decode_payload(obj, budget)
    if not isinstance(obj, dict):
        raise ParseError("f-puzzles data must be a JSON object")
    key = _rules_key(obj)
    tpl = _TEMPLATES.get(key) if key is not None else None
    if tpl is not None:
        return tpl.puzzle(obj)
    p = _load(obj, budget)
    if key is not None:
        if len(_TEMPLATES) >= TEMPLATES_SIZE:
            _TEMPLATES.pop(next(iter(_TEMPLATES)))
        _TEMPLATES[key] = _Template(p)
        p.rule_set = _TEMPLATES[key].rules
    return p


#: how many documents' rules :func:`load_fpuzzles` keeps (:data:`_TEMPLATES`)
TEMPLATES_SIZE = 16
_TEMPLATES: dict[bytes, "_Template"] = {}


def forget_templates() -> None:
    """Drop the rules :func:`load_fpuzzles` keeps (a measurement of reading from scratch)."""
    _TEMPLATES.clear()


#: the document's keys that its rules do not read (its name and meta are read each time)
_NOT_RULES = IGNORED - {"size"}
_NO_REGION = object()
#: an empty cell of the document (``row.count(_EMPTY)``: a row of them in one C loop)
_EMPTY: dict = {}


def _rules_key(obj: dict) -> bytes | None:
    """The document's rules, as bytes: every key but those :data:`IGNORED` (``size``
    kept), and of the grid's cells what the rules read (a ``region`` entry, given pencil
    marks; a cell that is not an object as it is); None when it is not plain JSON (such a
    document is read afresh each time)."""
    grid_rows = obj.get("grid")
    if not isinstance(grid_rows, list):
        return None
    cells = []
    for r, row in enumerate(grid_rows):
        if not isinstance(row, list):
            return None
        if row.count(_EMPTY) == len(row):
            continue                    # a row of empty cells (most rows): nothing read
        for c, cell in enumerate(row):
            if type(cell) is dict:
                if not cell:
                    continue
                region = cell.get("region", _NO_REGION)
                marks = cell.get("givenPencilMarks")
                if region is _NO_REGION and not marks:
                    continue
                cells.append((r, c, region is not _NO_REGION,
                              None if region is _NO_REGION else region, marks or None))
            else:
                cells.append((r, c, "cell", cell))
    try:
        # marshal's format 2 (no shared references): equal bytes only for equal content of
        # the same types (a str key is not an int key, 1 is not 1.0 nor True), a few times
        # cheaper than JSON text; anything but plain dicts, lists, tuples, strings, numbers,
        # booleans and None is refused (such a document is read afresh each time)
        return marshal.dumps([[(k, v) for k, v in obj.items() if k not in _NOT_RULES],
                              [len(row) for row in grid_rows], cells], 2)
    except (TypeError, ValueError):
        return None


class _Template:
    """The rules of a document read (:func:`load_fpuzzles`): its puzzle without givens;
    its constraints as a :class:`csp.model.RuleSet`, which every puzzle read from it
    shares (and with them the engines that can be shared)."""

    __slots__ = ("grid", "rules", "bundles", "bundle_constraints")

    def __init__(self, p: Puzzle) -> None:
        self.grid = p.grid
        self.rules = RuleSet(p.constraints)
        self.bundles = tuple(p.bundles)
        self.bundle_constraints = tuple(tuple(x) for x in p.bundle_constraints)

    def puzzle(self, obj: dict) -> Puzzle:
        """A new Puzzle of these rules (the same rule objects, new lists) with the name,
        meta and givens of the document ``obj`` read as :func:`_load` reads them."""
        p = _named(self.grid, obj)
        p.constraints = list(self.rules.constraints)
        p.rule_set = self.rules
        p.bundles = list(self.bundles)
        p.bundle_constraints = [list(x) for x in self.bundle_constraints]
        n = self.grid.n
        for r, row in enumerate(obj["grid"]):
            for c, cell in enumerate(row):
                if not cell:
                    continue
                v = cell.get("value")
                if cell.get("given") and v not in (None, ""):
                    p.set_given(r * n + c, _given_digit(v, r, c, n))
        return p


def _named(grid: Grid, obj: dict) -> Puzzle:
    """A new Puzzle on ``grid`` with the document's title as its name and its title,
    author, rules text and stated solution in its meta."""
    title = obj.get("title")
    p = Puzzle(grid, name=title if isinstance(title, str) else "")
    for k in ("title", "author", "ruleset", "solution"):
        if isinstance(obj.get(k), (str, list)):
            p.meta[k] = obj[k]
    return p


_DICT_ONLY = {dict}


def _load(obj: dict, budget: Budget | None) -> Puzzle:
    """:func:`load_fpuzzles` from scratch."""
    unknown = sorted(str(k) for k in obj if k not in IGNORED and k not in HANDLERS
                     and k != "negative")
    if unknown:
        hint = did_you_mean(unknown[0], [*HANDLERS, *IGNORED, "negative"])
        raise ParseError(f"unknown f-puzzles rule key(s): {quoted_list(unknown)}{hint} (an "
                         "f-puzzles extension sudoku-csp does not read)")
    if "size" not in obj:
        raise ParseError("f-puzzles data has no 'size'")
    n = obj["size"]
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 16:
        raise ParseError(f"f-puzzles size must be an int from 1 to 16, got {quoted(n, 40)}")
    grid_rows = obj.get("grid")
    if (not isinstance(grid_rows, list) or len(grid_rows) != n
            or any(not isinstance(r, list) or len(r) != n for r in grid_rows)):
        raise ParseError(f"f-puzzles 'grid' must be {n} rows of {n} cells")
    if any(set(map(type, row)) != _DICT_ONLY for row in grid_rows):   # (a row at a time)
        for r, row in enumerate(grid_rows):
            for c, cell in enumerate(row):
                if not isinstance(cell, dict):
                    raise ParseError(f"f-puzzles grid cell R{r + 1}C{c + 1} is not an object")
    regs, explicit = _regions(grid_rows, n)
    layout = _Layout(n, regs, explicit)
    uses_regions = [k for k in ("regionsumline", "boxindexer", "disjointgroups")
                    if obj.get(k)]
    if layout.rows_as_regions and not layout.grid.regions and \
            any(k != "disjointgroups" for k in uses_regions):
        layout.grid = Grid(n, regions=[tuple(range(r * n, (r + 1) * n)) for r in range(n)])
    if layout.partial and uses_regions:
        raise ParseError(f"f-puzzles {uses_regions[0]} needs every cell in one of {n} regions "
                         f"of {n} cells (this grid has cells with no region or short regions)")
    grid = layout.grid
    p = _named(grid, obj)
    p.use(classic(boxes=bool(grid.regions)))
    for i, g in enumerate(layout.partial):
        if len(g) > 1:
            p.use(regions.extra_region([grid.name(c) for c in g], f"region {i + 1}"))
    for r, row in enumerate(grid_rows):
        if row.count(_EMPTY) == len(row):
            continue                    # a row of empty cells: nothing given
        for c, cell in enumerate(row):
            if not cell:
                continue                # most cells: nothing given ({})
            v = cell.get("value")
            if cell.get("given") and v not in (None, ""):
                p.set_given(r * n + c, _given_digit(v, r, c, n))
            gpm = cell.get("givenPencilMarks")
            if gpm:
                name = f"R{r + 1}C{c + 1}"
                if not isinstance(gpm, list):
                    raise ParseError(f"f-puzzles givenPencilMarks at {name} must be a list")
                ds = sorted({to_int(d, f"f-puzzles givenPencilMarks at {name}") for d in gpm})
                if not all(1 <= d <= n for d in ds):
                    raise ParseError(f"f-puzzles givenPencilMarks at {name}: digits 1..{n} only")
                p.use(parity.digits(r * n + c, ds))
    ctx = _Ctx(p, n, obj, layout, budget)
    for key, handler in HANDLERS.items():
        if key in obj:
            if budget is not None:
                budget.check("parsing")
            _run(key, handler, ctx, obj[key])
    _run("negative", _pair_flags, ctx, obj.get("negative"))
    return p


def _run(key: str, handler: Callable, ctx: "_Ctx", value: Any) -> None:
    try:
        handler(ctx, value)
    except InvalidPuzzle as e:
        msg = str(e)
        raise type(e)(msg if msg.startswith("f-puzzles") else f"f-puzzles {key}: {msg}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError) as e:
        raise ParseError(f"f-puzzles {key}: malformed entry ({type(e).__name__}: {e})") from None


#: per size n, f-puzzles' own cell names (``R1C1`` ...) -> cell id (made once per size: a
#: document names a few hundred cells, each parsed by the regex before)
_FP_CELLS: dict[int, dict[str, int]] = {}


def _fp_cells(n: int) -> dict[str, int]:
    table = _FP_CELLS.get(n)
    if table is None:
        table = _FP_CELLS[n] = {f"R{r + 1}C{c + 1}": r * n + c
                                for r in range(n) for c in range(n)}
    return table


#: per size n, f-puzzles' own cell names (``R1C1`` ...) -> the grid's name of the cell
#: (``r1c1``: :meth:`csp.Grid.name`; a rule's cells go from the document to its bundle in
#: one lookup each)
_FP_NAMES: dict[int, tuple[tuple[str, ...], dict[str, str]]] = {}


def _fp_names(n: int, names: tuple[str, ...]) -> dict[str, str]:
    """f-puzzles' name -> ``names[cell]`` (a grid's :meth:`~csp.Grid.names_table`, the
    same tuple for every grid of size ``n``)."""
    hit = _FP_NAMES.get(n)
    if hit is None or hit[0] is not names:
        hit = _FP_NAMES[n] = (names, {k: names[c] for k, c in _fp_cells(n).items()})
    return hit[1]


class _Ctx:
    def __init__(self, p: Puzzle, n: int, obj: dict, layout: _Layout,
                 budget: Budget | None = None) -> None:
        self.p, self.n, self.obj, self.layout = p, n, obj, layout
        self.budget = budget
        self._ids = _fp_cells(n)
        self._names = p.grid.names_table()
        self._fp_names = _fp_names(n, self._names) if self._names is not None else None

    def cell(self, name: Any) -> int:
        if type(name) is str:          # f-puzzles' own spelling: one lookup
            c = self._ids.get(name)
            if c is not None:
                return c
        m = _CELL.match(name) if isinstance(name, str) else None
        if not m:
            raise ParseError(f"not a cell: {quoted(name, 40)}")
        r, c = int(m.group(1)), int(m.group(2))
        if not (1 <= r <= self.n and 1 <= c <= self.n):
            raise ParseError(f"cell {name} is outside the {self.n}x{self.n} grid")
        return (r - 1) * self.n + c - 1

    def cells(self, names: Any) -> list[int]:
        if self.budget is not None:          # once per rule entry: parsing may stop here
            self.budget.tick("parsing")
        return self._cells(names)

    def cell_names(self, names: Any) -> list[str]:
        """:meth:`names` of :meth:`cells` (the same checks, errors and tick): f-puzzles'
        own spellings in one lookup each."""
        if self.budget is not None:          # once per rule entry: parsing may stop here
            self.budget.tick("parsing")
        table = self._fp_names
        if table is not None and type(names) is list:
            out = [table.get(x) if type(x) is str else None for x in names]
            if None not in out:
                return out
        return self.names(self._cells(names))

    def _cells(self, names: Any) -> list[int]:
        if not isinstance(names, list):
            raise ParseError(f"cells must be a list of cell names, got {quoted(names, 40)}")
        ids = self._ids
        out = [ids.get(x) if type(x) is str else None for x in names]
        if None in out:
            return [self.cell(x) for x in names]
        return out

    def name(self, c: int) -> str:
        return self.p.grid.name(c)

    def names(self, cs: Iterable[int]) -> list[str]:
        names = self._names
        if names is not None:
            return [names[c] for c in cs]
        return [self.p.grid.name(c) for c in cs]

    def outside(self, name: Any) -> tuple[int, int]:
        """1-based (row, col) of a clue cell just outside the grid (row or col 0 or n+1)."""
        m = _CELL.match(name) if isinstance(name, str) else None
        if not m:
            raise ParseError(f"not a clue cell: {quoted(name, 40)}")
        r, c = int(m.group(1)), int(m.group(2))
        n = self.n
        if not (0 <= r <= n + 1 and 0 <= c <= n + 1) or (1 <= r <= n and 1 <= c <= n):
            raise ParseError(f"clue cell {name} is not just outside the {n}x{n} grid")
        return r, c


def _entries(items: Any, key: str) -> list[dict]:
    if not isinstance(items, list):
        raise ParseError(f"f-puzzles {key} must be a list of objects, got {quoted(items, 40)}")
    for i, it in enumerate(items):
        if not isinstance(it, dict):
            raise ParseError(f"f-puzzles {key} entry {i + 1} is not an object")
    return items


def _lines(key: str, make: Callable[[_Ctx, list[str], dict], Any]) -> Callable:
    def h(ctx: _Ctx, items: Any) -> None:
        use = ctx.p.use
        for it in _entries(items, key):
            lns = it.get("lines")
            if not isinstance(lns, list):
                raise ParseError(f"f-puzzles {key}: 'lines' must be a list of cell lists")
            for ln in lns:
                names = ctx.cell_names(ln)
                if names:
                    use(make(ctx, names, it))
    return h


def _flag(bundle_factory: Callable[[], Any]) -> Callable:
    def h(ctx: _Ctx, v: Any) -> None:
        if v:
            ctx.p.use(bundle_factory())
    return h


def _disjoint(ctx: _Ctx, v: Any) -> None:
    if not v:
        return
    if ctx.layout.rows_as_regions:
        return      # the k-th cell of every row: a column, already all different
    ctx.p.use(regions.disjoint_groups())


def _killer(ctx: _Ctx, items: Any) -> None:
    for it in _entries(items, "killercage"):
        names = ctx.cell_names(it.get("cells"))
        if not names:
            raise ParseError("a killer cage with no cells")
        total = _value(it.get("value"), None, "killer cage value")
        ctx.p.use(killer.killer_cage(names, total))


def _little_killer(ctx: _Ctx, items: Any) -> None:
    for it in _entries(items, "littlekillersum"):
        total = _value(it.get("value"), None, "little killer value")
        if total is None or total <= 0:
            continue      # no number: no constraint (as f-puzzles' solver reads it)
        direction = it.get("direction")
        if isinstance(direction, str) and direction.upper() in ("UL", "UR", "DL", "DR") \
                and it.get("cell") is not None:
            r, c = ctx.outside(it["cell"])
            diag = killer.diagonal_from_clue(ctx.n, r, c, direction.upper())
            cells = [r0 * ctx.n + c0 for r0, c0 in diag]
        else:
            cells = ctx.cells(it.get("cells"))
        if not cells:
            raise ParseError("a little killer clue with no cells")
        ctx.p.use(killer.little_killer(ctx.names(cells), total))


def _arrows(ctx: _Ctx, items: Any) -> None:
    for it in _entries(items, "arrow"):
        circle = ctx.cell_names(it.get("cells"))
        if not circle:
            raise ParseError("an arrow with no circle cells")
        lns = it.get("lines", [])
        if not isinstance(lns, list):
            raise ParseError("arrow 'lines' must be a list of cell lists")
        for ln in lns:         # (a cell's name stands for the cell: one name a cell)
            shaft = [c for c in ctx.cell_names(ln) if c not in circle]
            if shaft:
                ctx.p.use(_arrow_rule(list(circle), shaft))


def _cells_rule(key: str, make: Callable) -> Callable:
    def h(ctx: _Ctx, items: Any) -> None:
        cells = [ctx.cell(it.get("cell")) for it in _entries(items, key)]
        if cells:
            ctx.p.use(make(*ctx.names(dict.fromkeys(cells))))
    return h


def _outside(key: str, make: Callable) -> Callable:
    def h(ctx: _Ctx, items: Any) -> None:
        for it in _entries(items, key):
            v = _value(it.get("value"), None, f"{key} value")
            if v is None:
                continue
            r, c = ctx.outside(it.get("cell"))
            if (r in (0, ctx.n + 1)) == (c in (0, ctx.n + 1)):
                raise ParseError(f"clue cell {it.get('cell')} is a corner, not beside a row "
                                 "or column")
            ctx.p.use(make(r, c, v))
    return h


def _quads(ctx: _Ctx, items: Any) -> None:
    for it in _entries(items, "quadruple"):
        vals = it.get("values", [])
        if not isinstance(vals, list):
            raise ParseError("quadruple 'values' must be a list of digits")
        ds = [to_int(v, "quadruple value") for v in vals]
        if not all(1 <= d <= ctx.n for d in ds):
            raise ParseError(f"quadruple values must be digits 1..{ctx.n}, got {ds}")
        ctx.p.use(misc.quadruple(ctx.cell_names(it.get("cells")), ds))


def _clones(ctx: _Ctx, items: Any) -> None:
    for it in _entries(items, "clone"):
        ctx.p.use(misc.clone(ctx.cell_names(it.get("cells")),
                             ctx.cell_names(it.get("cloneCells"))))


def _extra(ctx: _Ctx, items: Any) -> None:
    for i, it in enumerate(_entries(items, "extraregion")):
        cells = ctx.cells(it.get("cells"))
        if len(cells) > ctx.n:
            raise ParseError(f"extra region {i + 1} has {len(cells)} cells, more than {ctx.n} "
                             "different digits")
        ctx.p.use(regions.extra_region(ctx.names(cells), f"extra region {i + 1}"))


def _indexer(kind: str) -> Callable:
    key = f"{kind}indexer"

    def h(ctx: _Ctx, items: Any) -> None:
        for it in _entries(items, key):
            for c in ctx.cells(it.get("cells")):
                ctx.p.use(misc.indexer(ctx.name(c), kind))
    return h


def _diag(main: bool) -> Callable:
    def h(ctx: _Ctx, v: Any) -> None:
        if v:
            ctx.p.use(regions.diagonal(main=main, anti=not main))
    return h


# -- dots and the flags that combine with them --------------------------------------------
def _pair(ctx: _Ctx, it: dict, key: str) -> tuple[int, int]:
    cells = ctx.cells(it.get("cells"))
    if len(cells) != 2:
        raise ParseError(f"a {key} mark joins two cells, got {len(cells)}")
    return cells[0], cells[1]


def _xv_letter(it: dict) -> str | None:
    v = it.get("value")
    if v is None or (isinstance(v, str) and not v.strip()):
        return None     # an XV mark without its letter: no rule (and not a marked pair)
    if not isinstance(v, str) or v.strip().upper() not in ("X", "V"):
        raise ParseError(f"xv value must be X or V, got {quoted(v, 40)}")
    return v.strip().upper()


def _dots(key: str) -> Callable:
    def h(ctx: _Ctx, items: Any) -> None:
        for it in _entries(items, key):
            names = ctx.cell_names(it.get("cells"))
            if len(names) != 2:
                raise ParseError(f"a {key} mark joins two cells, got {len(names)}")
            na, nb = names
            if key == "difference":
                ctx.p.use(dots.white_dot(na, nb, _value(it.get("value"), 1, "difference value")))
            elif key == "ratio":
                ctx.p.use(dots.black_dot(na, nb, _value(it.get("value"), 2, "ratio value")))
            elif key == "xv":
                letter = _xv_letter(it)
                if letter is not None:
                    ctx.p.use(dots.sum_dot(na, nb, 10 if letter == "X" else 5))
            else:
                total = _value(it.get("value"), None, "sum value")
                if total is None:
                    raise ParseError("a sum mark without its value")
                ctx.p.use(dots.sum_dot(na, nb, total))
    return h


def marked_pairs(ctx: _Ctx) -> tuple[list[tuple[str, str]], list[tuple[str, str]],
                                    dict[str, list[int]]]:
    """The kropki-marked pairs (``difference`` and ``ratio``), the sum-marked pairs (``xv``
    with a letter and ``sum``), and the values of each dot kind, in document order."""
    kropki: dict[frozenset, tuple[str, str]] = {}
    summed: dict[frozenset, tuple[str, str]] = {}
    values: dict[str, list[int]] = {"difference": [], "ratio": [], "sum": []}
    for key in ("difference", "ratio", "xv", "sum"):
        for it in ctx.obj.get(key) or []:
            a, b = _pair(ctx, it, key)
            pair = (ctx.name(min(a, b)), ctx.name(max(a, b)))
            if key in ("difference", "ratio"):
                kropki.setdefault(frozenset((a, b)), pair)
                v = _value(it.get("value"), 1 if key == "difference" else 2, f"{key} value")
            elif key == "xv":
                if _xv_letter(it) is None:
                    continue
                summed.setdefault(frozenset((a, b)), pair)
                continue
            else:
                summed.setdefault(frozenset((a, b)), pair)
                v = _value(it.get("value"), None, "sum value")
            if v not in values[key]:
                values[key].append(v)
    return list(kropki.values()), list(summed.values()), values


def _pair_flags(ctx: _Ctx, negative: Any) -> None:
    """``nonconsecutive`` and ``negative``, which say that every qualifying pair is marked:
    each forbids its relation on the orthogonal pairs *not* marked by a dot of its family
    (white/black dots for nonconsecutive, difference and ratio; X/V and sum marks for xv
    and sum)."""
    if negative is None:
        negative = []
    if not isinstance(negative, list) or not all(isinstance(k, str) for k in negative):
        raise ParseError(f"'negative' must be a list of names, got {quoted(negative, 40)}")
    for kind in negative:
        if kind not in NEGATIVE_KINDS:
            raise ParseError(f"unknown negative constraint {quoted(kind)}"
                             f"{did_you_mean(kind, NEGATIVE_KINDS)} (f-puzzles knows "
                             f"{', '.join(NEGATIVE_KINDS)})")
    nonconsecutive = bool(ctx.obj.get("nonconsecutive"))
    if not nonconsecutive and not negative:
        return      # no flag: no bundle (the dots' entries were read, and checked, already)
    for bundle in pair_flag_bundles(ctx, nonconsecutive, set(negative)):
        ctx.p.use(bundle)


def pair_flag_bundles(ctx: _Ctx, nonconsecutive: bool, negative: set[str]) -> list[Any]:
    kropki, summed, values = marked_pairs(ctx)
    out: list[Any] = []
    diffs = ([1] if nonconsecutive else []) + (
        [v for v in values["difference"] if not (nonconsecutive and v == 1)]
        if "difference" in negative else [])
    for v in diffs:
        if v == 1 and not kropki:
            out.append(dots.non_consecutive())
        else:
            out.append(dots.negative("white", kropki, v))
    if "ratio" in negative:
        for v in values["ratio"] or [2]:
            out.append(dots.negative("black", kropki, v))
    if "xv" in negative:
        out += [dots.negative("x", summed), dots.negative("v", summed)]
    if "sum" in negative:
        for v in values["sum"]:
            out.append(dots.negative("sum", summed, v))
    return out


def _record_reader(cls: type, r: RuleRecord) -> Callable | None:
    """The reader of a rule whose record declares its f-puzzles shape (None for ``custom``
    and ``none``: those keys have readers of their own above)."""
    fp = r.fpuzzles
    if fp.shape == "flag":
        return _flag(cls)
    if fp.shape == "cells":
        return _cells_rule(fp.key, cls)
    if fp.shape == "outside":
        return _outside(fp.key, cls)
    if fp.shape != "line":
        return None
    spread = bool(r.args) and r.args[0][0].startswith("*")     # thermo(*cells)

    def make(ctx: _Ctx, c: list[str], it: dict) -> Any:
        args: list[Any] = list(c) if spread else [c]
        if fp.value is not None:
            args.append(_value(it.get("value"), fp.default(ctx.n) if fp.default else None,
                               f"{fp.key} value"))
        return cls(*args)
    return _lines(fp.key, make)


#: the readers of the keys whose shape needs code of its own (records say ``custom``)
_CUSTOM_READERS: dict[str, Callable] = {
    "diagonal+": _diag(False),
    "diagonal-": _diag(True),
    "disjointgroups": _disjoint,
    "nonconsecutive": lambda ctx, v: None,      # read with the dots (_pair_flags)
    "extraregion": _extra,
    "killercage": _killer,
    "littlekillersum": _little_killer,
    "arrow": _arrows,
    "difference": _dots("difference"),
    "ratio": _dots("ratio"),
    "xv": _dots("xv"),
    "sum": _dots("sum"),
    "minimum": _cells_rule("minimum", parity.minimum),
    "maximum": _cells_rule("maximum", parity.maximum),
    "quadruple": _quads,
    "clone": _clones,
    "rowindexer": _indexer("row"),
    "columnindexer": _indexer("column"),
    "boxindexer": _indexer("box"),
}
#: the order keys are read in, so that a document's rules come in one fixed order (that
#: order shows in pictures, own-JSON rule lists and exports); keys not listed (new rules)
#: are read after these, in catalogue order
_READ_ORDER = (
    "diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups", "nonconsecutive",
    "extraregion", "killercage", "littlekillersum", "arrow", "doublearrow", "thermometer",
    "slowthermometer", "palindrome", "renban", "whispers", "regionsumline", "betweenline",
    "entropicline", "modularline", "zipperline", "nabner", "lockout", "difference", "ratio",
    "xv", "sum", "odd", "even", "minimum", "maximum", "quadruple", "clone", "sandwichsum",
    "xsum", "skyscraper", "rowindexer", "columnindexer", "boxindexer")


def _handlers() -> dict[str, Callable]:
    out = dict(_CUSTOM_READERS)
    for name, r in records().items():
        h = _record_reader(rule_classes()[name], r)
        if h is not None:
            out[r.fpuzzles.key] = h
    rank = {k: i for i, k in enumerate(_READ_ORDER)}
    return {k: out[k] for k in sorted(out, key=lambda k: rank.get(k, len(rank)))}


#: f-puzzles key -> its reader: the records' declared shapes and the custom readers
HANDLERS: dict[str, Callable] = _handlers()
