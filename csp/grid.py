"""Grid geometry: size, box shape or regions, cell ids and names, houses and neighbours.

Cells are ints in row-major order (the numbering of ``networkx.sudoku_graph``).

>>> g = Grid(9)
>>> g.box_shape, g.name(0), g.name(80), g.cell("r5c8")
((3, 3), 'r1c1', 'r9c9', 43)
>>> Grid(6).box_shape, Grid(12).box_shape
((2, 3), (3, 4))
>>> [h.name for h in Grid(4).houses][:5]
['row 1', 'row 2', 'row 3', 'row 4', 'col 1']
>>> sorted(g.name(c) for c in g.knight(0))
['r2c3', 'r3c2']
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .errors import GridSizeError, InvalidConstraint
from .text import quoted

#: a cell name: ``r1c1``, spaces allowed around the parts; ASCII digits only (not ``r١c١``),
#: and nothing after the name (``\Z``: ``$`` would take ``"r5c1\n"``)
_CELL_RE = re.compile(r"\A *[rR]([0-9]{1,6}) *[cC]([0-9]{1,6}) *\Z")


class CellHandle:
    """Anything that stands for one cell of a grid and is accepted where a cell is asked
    for (:meth:`Grid.cell`): ``cell`` is the cell id. :class:`csp.model.CellRef` (from
    ``puzzle["r1c1"]``) is one."""

    __slots__ = ()
    cell: int


@dataclass(frozen=True, slots=True)
class House:
    """A set of cells that must hold different digits; ``kind`` is row/col/box/region/extra."""

    name: str
    cells: tuple[int, ...]
    kind: str = "extra"

    @property
    def mask(self) -> int:
        m = 0
        for c in self.cells:
            m |= 1 << c
        return m


def default_box_shape(n: int) -> tuple[int, int] | None:
    """The usual box shape for size ``n``: square when possible, else the r x c (r < c)
    with r*c == n and r closest to sqrt(n); ``None`` when only 1 x n exists (primes)."""
    r = math.isqrt(n)
    while r > 1:
        if n % r == 0:
            return (r, n // r)
        r -= 1
    return None


#: per size n, the names of the cells of an n x n grid (``r1c1`` ...) and name -> cell
_NAMES: dict[int, tuple[tuple[str, ...], dict[str, int]]] = {}


def _name_table(n: int) -> tuple[tuple[str, ...], dict[str, int]]:
    """The cell names of an n x n grid in row-major order, and each name's cell (made once
    per size: reading a setter puzzle names and parses a few thousand cells)."""
    table = _NAMES.get(n)
    if table is None:
        names = tuple(f"r{r + 1}c{c + 1}" for r in range(n) for c in range(n))
        table = _NAMES[n] = (names, {x: i for i, x in enumerate(names)})
    return table


#: a cell's orthogonal steps, and per size n every cell's orthogonal neighbours of an
#: n x n grid (:meth:`Grid.orthogonal`)
_ORTHO_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
_ORTHOGONAL: dict[int, tuple[tuple[int, ...], ...]] = {}


#: the tables of the grids built with the default box shape, no box or no box shape (n,
#: box) -> the attributes (a Grid's tables depend on nothing else: built once per shape)
_SHAPES: dict[tuple, dict] = {}
#: the attributes that are lists: each grid gets copies (kept as tuples in _SHAPES)
_OWN_LISTS = ("rows", "cols", "regions", "region_of", "houses", "subgrids")


class Grid:
    """An n x n grid with digits 1..n.

    ``box`` is a (rows, cols) box shape, ``None`` for the default shape, or ``False`` for
    no boxes. ``regions`` (a region index per cell, or a list of cell lists) replaces the
    boxes, as in jigsaw puzzles.
    """

    def __init__(
        self,
        n: int = 9,
        box: tuple[int, int] | None | bool = None,
        regions: Sequence[int] | Sequence[Sequence[int]] | None = None,
    ) -> None:
        if not isinstance(n, int) or n < 1 or n > 35:
            raise GridSizeError(f"grid size must be an int from 1 to 35, got {quoted(n)}")
        key = (n, box) if regions is None and (box is None or type(box) is bool) else None
        shape = _SHAPES.get(key) if key is not None else None
        if shape is not None:
            # the tables of this shape, built before: tuples and Houses shared (immutable),
            # lists copied (each grid owns its own)
            self.__dict__.update(shape)
            self.rows, self.cols = list(self.rows), list(self.cols)
            self.regions, self.region_of = list(self.regions), list(self.region_of)
            self.houses, self.subgrids = list(self.houses), list(self.subgrids)
            return
        self.n = n
        self.size = n * n
        self._names, self._cell_of = _name_table(n)
        #: canvas height and width (the grid's own side for a square grid)
        self.height = self.width = n
        self.digits = tuple(range(1, n + 1))
        self.all_mask = ((1 << n) - 1) << 1
        self.rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        self.cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
        self.box_shape: tuple[int, int] | None = None
        self.regions: list[tuple[int, ...]] = []
        if regions is not None:
            self.regions = self._parse_regions(regions)
            self.region_kind = "region"
        elif box is False:
            self.region_kind = ""
        else:
            shape = default_box_shape(n) if box is None or box is True else tuple(box)
            if shape is None:
                if box is True:
                    raise GridSizeError(f"size {n} has no valid box shape; give regions")
                self.region_kind = ""
            else:
                br, bc = shape
                if br * bc != n:
                    raise GridSizeError(f"box shape {br}x{bc} does not tile a {n}x{n} grid")
                self.box_shape = (br, bc)
                self.region_kind = "box"
                self.regions = [
                    tuple(
                        (R * br + i) * n + (C * bc + j) for i in range(br) for j in range(bc)
                    )
                    for R in range(n // br)
                    for C in range(n // bc)
                ]
        self.region_of = [-1] * self.size
        for i, reg in enumerate(self.regions):
            for c in reg:
                self.region_of[c] = i
        self.houses: list[House] = (
            [House(f"row {i + 1}", r, "row") for i, r in enumerate(self.rows)]
            + [House(f"col {i + 1}", c, "col") for i, c in enumerate(self.cols)]
            + [
                House(f"{self.region_kind} {i + 1}", reg, self.region_kind)
                for i, reg in enumerate(self.regions)
            ]
        )
        #: cells of each sub-grid, row-major (:class:`MultiGrid`; none for a single grid)
        self.subgrids: list[tuple[int, ...]] = []
        # Used by other modules for naming and for the main diagonals.
        self.diagonal_main = tuple(i * n + i for i in range(n))
        self.diagonal_anti = tuple(i * n + (n - 1 - i) for i in range(n))
        if key is not None and type(self) is Grid:
            _SHAPES[key] = {k: (tuple(v) if k in _OWN_LISTS else v)
                            for k, v in self.__dict__.items()}

    def _parse_regions(self, regions) -> list[tuple[int, ...]]:
        n = self.n
        regions = list(regions)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in regions) and \
                not all(isinstance(x, (list, tuple, set, frozenset)) for x in regions):
            raise GridSizeError("regions: give a region number per cell, or a list of cells per "
                                "region")
        if regions and all(isinstance(x, int) for x in regions):
            if len(regions) != self.size:
                raise GridSizeError(f"regions: expected {self.size} region ids, got {len(regions)}")
            ids = sorted(set(regions))
            groups = [tuple(c for c in range(self.size) if regions[c] == i) for i in ids]
        else:
            groups = [tuple(sorted(self.cell(x) for x in reg)) for reg in regions]
            seen = [c for g in groups for c in g]
            if len(seen) != len(set(seen)) or len(seen) != self.size:
                raise GridSizeError("regions must cover every cell exactly once")
        for g in groups:
            if len(g) != n:
                raise GridSizeError(f"each region of a {n}x{n} grid needs {n} cells, got {len(g)}")
        return groups

    # -- cells -----------------------------------------------------------------------
    def cell(self, ref) -> int:
        """Cell id from an int, ``"r1c1"`` name, or 0-based ``(row, col)``."""
        # the two common cases first: an id in the grid, a name as :meth:`name` writes it
        # (the rules' cell lists are read through here, name by name)
        kind = type(ref)
        if kind is int:
            if 0 <= ref < self.size:
                return ref
        elif kind is str:
            c = self._cell_of.get(ref)
            if c is not None:
                return c
        n = self.n
        rc = self._cell_ref(ref, f"the {n}x{n} grid")
        if isinstance(rc, int):
            return rc
        r, c = rc
        if not (0 <= r < n and 0 <= c < n):
            raise InvalidConstraint(f"cell {quoted(ref)} outside the {n}x{n} grid")
        return r * n + c

    def _cell_ref(self, ref, where: str) -> "int | tuple":
        """A cell id for an int or handle ``ref``, else its 0-based ``(row, col)``.

        ``where`` names the grid in the error for an id outside it; the
        caller checks the row and column against its own shape.
        """
        if isinstance(ref, bool):
            raise InvalidConstraint(f"not a cell: {quoted(ref)}")
        if isinstance(ref, int):
            if 0 <= ref < self.size:
                return ref
            raise InvalidConstraint(f"cell {quoted(ref)} outside {where}")
        if isinstance(ref, str):
            m = _CELL_RE.match(ref)
            if not m:
                raise InvalidConstraint(f"not a cell name: {quoted(ref)} (expected like 'r1c1')")
            return int(m.group(1)) - 1, int(m.group(2)) - 1
        if isinstance(ref, tuple) and len(ref) == 2:
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in ref):
                raise InvalidConstraint(f"not a cell: {quoted(ref)} (a (row, col) pair is two "
                                        f"ints, 0-based)")
            return ref
        if isinstance(ref, CellHandle):
            return self.cell(ref.cell)
        raise InvalidConstraint(f"not a cell: {quoted(ref)}")

    def at(self, row: int, col: int) -> int:
        """The cell at 0-based canvas ``(row, col)``, or -1 when there is none there."""
        n = self.n
        return row * n + col if 0 <= row < n and 0 <= col < n else -1

    @property
    def square(self) -> bool:
        """True for a single n x n grid (cell ids ``row * n + col``); False for multi-grids."""
        return True

    def require_square(self, rule: str) -> None:
        """Raise :class:`GridSizeError` when a rule that only makes sense on a single n x n
        grid (outside clues, indexers, windows) is used on a multi-grid."""
        if not self.square:
            raise GridSizeError(f"{rule} needs a single n x n grid, not a multi-grid")

    @property
    def namer(self) -> "int | Grid":
        """What :class:`csp.step.Step` takes as ``width`` to name cells: the row length of
        a square grid (a plain int, so steps stay plain data)."""
        return self.n

    def cells(self, refs: Iterable) -> tuple[int, ...]:
        if type(self) is Grid and type(refs) in (list, tuple):
            # the common case, names as :meth:`name` writes them: one lookup each
            try:
                out = tuple(map(self._cell_of.get, refs))
            except TypeError:          # an unhashable reference: :meth:`cell` says why
                out = (None,)
            if None not in out:
                return out
        return tuple(self.cell(x) for x in refs)

    def name(self, cell: int) -> str:
        if type(cell) is int and 0 <= cell < self.size:
            return self._names[cell]
        return f"r{cell // self.n + 1}c{cell % self.n + 1}"

    def names_table(self) -> tuple[str, ...] | None:
        """:meth:`name` of every cell, by id (a square grid; None for a multi-grid): for
        code that names many cells.

        >>> Grid(4).names_table()[5]
        'r2c2'
        """
        return self._names

    def row(self, cell: int) -> int:
        return cell // self.n

    def col(self, cell: int) -> int:
        return cell % self.n

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.n)

    # -- neighbourhoods ----------------------------------------------------------------
    def _offsets(self, cell: int, offsets) -> tuple[int, ...]:
        n = self.n
        r, c = divmod(cell, n)
        out = []
        for dr, dc in offsets:
            rr, cc = r + dr, c + dc
            if 0 <= rr < n and 0 <= cc < n:
                out.append(rr * n + cc)
        return tuple(sorted(out))

    def orthogonal(self, cell: int) -> tuple[int, ...]:
        if type(self) is Grid and type(cell) is int and 0 <= cell < self.size:
            # every cell's, made once per size (a dot's reader asks for each dot's cells)
            table = _ORTHOGONAL.get(self.n)
            if table is None:
                table = _ORTHOGONAL[self.n] = tuple(
                    self._offsets(x, _ORTHO_STEPS) for x in range(self.size))
            return table[cell]
        return self._offsets(cell, _ORTHO_STEPS)

    def diagonal_neighbours(self, cell: int) -> tuple[int, ...]:
        return self._offsets(cell, ((-1, -1), (-1, 1), (1, -1), (1, 1)))

    def king(self, cell: int) -> tuple[int, ...]:
        return tuple(sorted(self.orthogonal(cell) + self.diagonal_neighbours(cell)))

    def knight(self, cell: int) -> tuple[int, ...]:
        return self._offsets(
            cell, ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
        )

    def __repr__(self) -> str:
        shape = f"box={self.box_shape[0]}x{self.box_shape[1]}" if self.box_shape else (
            "regions" if self.regions else "no boxes")
        return f"Grid({self.n}, {shape})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.n == other.n and self.regions == other.regions

    def __hash__(self) -> int:
        return hash((self.n, tuple(self.regions)))


#: the largest canvas of a :class:`MultiGrid` (height x width cells, a 100 x 100 canvas;
#: a samurai's is 21 x 21) and the most sub-grids it may have
MAX_CANVAS_CELLS = 10_000
MAX_SUBGRIDS = 100


class MultiGrid(Grid):
    """Several overlapping n x n grids on one canvas (gattai puzzles, e.g. samurai).

    ``origins`` are the 0-based canvas ``(row, col)`` of each sub-grid's top-left cell. Only
    cells covered by some sub-grid exist: cell ids number them in canvas row-major order and
    names are canvas coordinates (``r7c13``). The houses are every sub-grid's rows, columns
    and boxes (a box shared by two sub-grids is one house). ``rows``/``cols`` are whole
    canvas lines (not houses); ``subgrids[k]`` lists sub-grid k's cells row-major.

    >>> g = MultiGrid(4, [(0, 0), (2, 2)])      # two 4x4 grids sharing one 2x2 box
    >>> g.size, (g.height, g.width), g.name(g.size - 1)
    (28, (6, 6), 'r6c6')
    >>> g.cell("r3c3") == g.subgrids[0][10] == g.subgrids[1][0]
    True
    >>> len(g.houses), g.at(0, 5)
    (23, -1)

    The shapes, types and bounds are checked before anything is built: at most
    :data:`MAX_SUBGRIDS` sub-grids on a canvas of at most :data:`MAX_CANVAS_CELLS` cells.

    >>> MultiGrid(9, [(0, 0), (5000, 5000)])
    Traceback (most recent call last):
    ...
    csp.errors.GridSizeError: a multi-grid canvas of 5,009 x 5,009 = 25,090,081 cells is over the cap of 10,000 cells
    """

    def __init__(self, n: int, origins: Sequence[tuple[int, int]],
                 box: tuple[int, int] | None = None,
                 labels: Sequence[str] | None = None) -> None:
        origins, labels = _check_layout(n, origins, labels)
        super().__init__(n, box)
        if not self.box_shape:
            raise GridSizeError(f"a multi-grid needs boxes; size {n} has no box shape")
        self.origins: list[tuple[int, int]] = origins
        self.labels = labels
        self.height = max(r for r, _ in origins) + n
        self.width = max(c for _, c in origins) + n
        h, w = self.height, self.width
        active = sorted({(r0 + i) * w + (c0 + j) for r0, c0 in origins
                         for i in range(n) for j in range(n)})
        self._pos = [divmod(x, w) for x in active]
        self._id = [-1] * (h * w)
        for i, x in enumerate(active):
            self._id[x] = i
        self.size = len(active)
        at = self.at
        self.subgrids = [tuple(at(r0 + i, c0 + j) for i in range(n) for j in range(n))
                         for r0, c0 in origins]
        self.rows = [t for t in (tuple(c for c in (at(r, j) for j in range(w)) if c >= 0)
                                 for r in range(h)) if t]
        self.cols = [t for t in (tuple(c for c in (at(i, col) for i in range(h)) if c >= 0)
                                 for col in range(w)) if t]
        br, bc = self.box_shape
        boxes: dict[tuple[int, ...], None] = {}
        houses: list[House] = []
        for k, (sub, (r0, c0)) in enumerate(zip(self.subgrids, origins)):
            lab = self.labels[k]
            houses += [House(f"{lab} row {r0 + i + 1}", sub[i * n:(i + 1) * n], "row")
                       for i in range(n)]
            houses += [House(f"{lab} col {c0 + j + 1}", sub[j::n], "col") for j in range(n)]
            for R in range(0, n, br):
                for C in range(0, n, bc):
                    boxes.setdefault(tuple(sorted(sub[(R + i) * n + C + j] for i in range(br)
                                                  for j in range(bc))))
        self.regions = sorted(boxes, key=lambda b: b[0])
        self.region_of = [-1] * self.size
        for i, reg in enumerate(self.regions):
            for c in reg:
                self.region_of[c] = i
        houses += [House(f"box {i + 1}", reg, "box") for i, reg in enumerate(self.regions)]
        self.houses = houses
        self.diagonal_main = tuple(c for c in (at(i, i) for i in range(min(h, w))) if c >= 0)
        self.diagonal_anti = tuple(c for c in (at(i, w - 1 - i) for i in range(min(h, w)))
                                   if c >= 0)

    def at(self, row: int, col: int) -> int:
        if 0 <= row < self.height and 0 <= col < self.width:
            return self._id[row * self.width + col]
        return -1

    @property
    def square(self) -> bool:
        return False

    @property
    def namer(self) -> "Grid":
        """Cells are named through the grid's own table (see :meth:`name`)."""
        return self

    def cell(self, ref) -> int:
        rc = self._cell_ref(ref, f"the multi-grid ({self.size} cells)")
        if isinstance(rc, int):
            return rc
        r, c = rc
        x = self.at(r, c) if isinstance(r, int) and isinstance(c, int) else -1
        if x < 0:
            raise InvalidConstraint(f"cell {quoted(ref)} is not in the multi-grid")
        return x

    def name(self, cell: int) -> str:
        r, c = self._pos[cell]
        return f"r{r + 1}c{c + 1}"

    def names_table(self) -> None:
        return None

    def row(self, cell: int) -> int:
        return self._pos[cell][0]

    def col(self, cell: int) -> int:
        return self._pos[cell][1]

    def rc(self, cell: int) -> tuple[int, int]:
        return self._pos[cell]

    def _offsets(self, cell: int, offsets) -> tuple[int, ...]:
        r, c = self._pos[cell]
        out = [self.at(r + dr, c + dc) for dr, dc in offsets]
        return tuple(sorted(x for x in out if x >= 0))

    def __repr__(self) -> str:
        return f"MultiGrid({self.n}, {self.origins})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, MultiGrid) and self.n == other.n
                and self.origins == other.origins and self.box_shape == other.box_shape)

    def __hash__(self) -> int:
        return hash((self.n, tuple(self.origins), self.box_shape))


def _count(x: int) -> str:
    """A count for a message: ``25,090,081``, ``9e+30`` past a trillion, ``about 10^400``
    past what a float holds (it never raises).

    >>> _count(25_090_081), _count(9 * 10 ** 30), _count(10 ** 400)
    ('25,090,081', '9e+30', 'about 10^400')
    """
    if x < 10 ** 12:
        return f"{x:,}"
    if x.bit_length() < 1000:
        return f"{x:.3g}"
    return f"about 10^{int(math.log10(x))}"


def _check_layout(n: object, origins: object, labels: object
                  ) -> tuple[list[tuple[int, int]], list[str]]:
    """The origins and labels of a :class:`MultiGrid`, checked (shapes, types, bounds,
    the canvas against :data:`MAX_CANVAS_CELLS`) before anything is built; raises
    :class:`GridSizeError` naming the problem."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 35:
        raise GridSizeError(f"grid size must be an int from 1 to 35, got {quoted(n)}")
    if isinstance(origins, (str, bytes)) or not isinstance(origins, Sequence):
        raise GridSizeError("multi-grid origins must be a list of (row, col) pairs")
    if not origins:
        raise GridSizeError("a multi-grid needs at least one sub-grid origin")
    if len(origins) > MAX_SUBGRIDS:
        raise GridSizeError(f"a multi-grid of {len(origins)} sub-grids is over the cap of "
                            f"{MAX_SUBGRIDS}")
    out: list[tuple[int, int]] = []
    for o in origins:
        if (isinstance(o, (str, bytes)) or not isinstance(o, Sequence) or len(o) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                           for x in o)):
            raise GridSizeError("multi-grid origins must be (row, col) pairs of non-negative "
                                f"integers, got {quoted(o, 40)}")
        out.append((o[0], o[1]))
    if len(set(out)) != len(out):
        raise GridSizeError("two sub-grids of a multi-grid have the same origin")
    h = max(r for r, _ in out) + n
    w = max(c for _, c in out) + n
    if h * w > MAX_CANVAS_CELLS:
        raise GridSizeError(f"a multi-grid canvas of {_count(h)} x {_count(w)} = "
                            f"{_count(h * w)} cells is over the cap of {MAX_CANVAS_CELLS:,} cells")
    if labels is None:
        names = [str(i + 1) for i in range(len(out))]
    elif (isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence)
          or not all(isinstance(x, str) for x in labels)):
        raise GridSizeError("multi-grid labels must be a list of strings, one per sub-grid")
    else:
        names = list(labels)
    if len(names) != len(out):
        raise GridSizeError(f"one label per sub-grid expected: {len(out)} sub-grids, "
                            f"{len(names)} labels")
    return out, names


#: sub-grid origins of a samurai (five 9x9 grids, the centre one sharing a corner box with
#: each of the others), in the usual order: top-left, top-right, centre, bottom-left,
#: bottom-right
SAMURAI_ORIGINS = ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12))
