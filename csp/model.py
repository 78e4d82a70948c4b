"""The Puzzle model: a grid, constraint specs and givens. Never mutated by solving."""
from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar

from .constraints import (AbsDiff, AllDifferent, AllDifferentGAC, AllowedPairs, Constraint,
                          Less, NotAbsDiff, Ratio, Relation, RelationKind)
from .constraints.binary import _eq, _le, _lt, _ne
from .constraints.base import WeakLink
from .constraints.element import Element, element_pair_links
from .constraints.order import order_propagators
from .engine import Engine
from .errors import (ContradictoryGivens, FrozenPuzzleError, InvalidArgument, InvalidConstraint,
                     NodeLimitExceeded, ParseError, SudokuCSPError, TimeLimitExceeded)
from .events import Contradiction
from .grid import CellHandle, Grid, House
from .io import parse_line
from .propagator import Propagator, TraceHook
from .search import SolveResult, search
from .state import State
from .status import SolveStatus


# ``solve(method="auto")``: depth-first search nodes and seconds before the SAT solver
# takes over (whichever budget runs out first)
AUTO_SEARCH_NODES = 200
AUTO_SEARCH_SECONDS = 0.05
# the same for models made only of all-different houses, whose search is fast: nodes
# before the SAT solver takes over, on grids from AUTO_PURE_MIN_N on (never below)
AUTO_PURE_NODES = 100
AUTO_PURE_MIN_N = 10

T = TypeVar("T")


class _Comparison(Relation):
    """A relation made with an operator on cell handles; refuses to be used as a bool so
    that a chained ``a < b < c`` raises instead of silently dropping ``a < b``."""

    def __bool__(self) -> bool:
        raise InvalidConstraint(
            "chained comparison (a < b < c) is not supported: add each relation on its own, "
            "e.g. p.add(a < b); p.add(b < c)")


class CellRef(CellHandle):
    """A handle on a cell, for operator syntax: ``p.add(p["r1c1"] < p["r1c2"])``."""

    __slots__ = ("puzzle", "cell")

    def __init__(self, puzzle: "Puzzle", cell: int) -> None:
        self.puzzle = puzzle
        self.cell = cell

    def _other(self, other: Any) -> int:
        if isinstance(other, CellRef):
            return other.cell
        raise InvalidConstraint(f"compare a cell with another cell, not {other!r}")

    def __lt__(self, other: Any) -> _Comparison:
        return _Comparison(self.cell, self._other(other), _lt, "<", None, "", RelationKind.LT)

    def __gt__(self, other: Any) -> _Comparison:
        return _Comparison(self._other(other), self.cell, _lt, "<", None, "", RelationKind.LT)

    def __le__(self, other: Any) -> _Comparison:
        return _Comparison(self.cell, self._other(other), _le, "<=", None, "", RelationKind.LE)

    def __ge__(self, other: Any) -> _Comparison:
        return _Comparison(self._other(other), self.cell, _le, "<=", None, "", RelationKind.LE)

    def __eq__(self, other: Any) -> _Comparison:  # type: ignore[override]
        return _Comparison(self.cell, self._other(other), _eq, "==", None, "", RelationKind.EQ)

    def __ne__(self, other: Any) -> _Comparison:  # type: ignore[override]
        return _Comparison(self.cell, self._other(other), _ne, "!=", None, "", RelationKind.NE)

    def __hash__(self) -> int:
        return hash(self.cell)

    def __repr__(self) -> str:
        return f"<cell {self.puzzle.grid.name(self.cell)}>"


class Puzzle:
    """A puzzle: grid geometry, constraints and givens.

    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> _ = p.add(p["r1c1"] < p["r1c2"]).givens("1...............")
    >>> p.solve().status
    'multiple'
    >>> p.count_solutions(limit=100)
    72
    >>> p.propagate().candidates("r1c2")
    (2, 3, 4)

    Relations take part in whole-puzzle reasoning however they are made: a cell greater
    than two cells of one row is at least 3.

    >>> q = Puzzle(Grid(9)).add_grid_houses()
    >>> _ = q.add(q["r1c1"] < q["r1c2"]).add_less("r1c3", "r1c2")
    >>> q.propagate().candidates("r1c2")
    (3, 4, 5, 6, 7, 8, 9)
    """

    def __init__(self, grid: Grid | int = 9, name: str = "") -> None:
        self.grid = grid if isinstance(grid, Grid) else Grid(grid)
        self.name = name
        self.constraints: list[Constraint] = []
        self.given: dict[int, int] = {}
        #: True when the puzzle is declared to have a unique solution (enables uniqueness
        #: techniques); None when unknown.
        self.unique: bool | None = None
        self.meta: dict[str, Any] = {}
        #: rule bundles applied with :meth:`use` (top level), with the number of constraints
        #: each added, and those constraints (used by exporters such as ``sudoku_csp.formats.spec``)
        self.bundles: list[tuple[Any, int]] = []
        self.bundle_constraints: list[list[Constraint]] = []
        self._use_depth = 0
        self._frozen = False
        self._engines: dict[bool, Engine] = {}
        self._derived: dict[Callable[[Puzzle], Any], Any] = {}

    # -- building ------------------------------------------------------------------
    def _check_open(self) -> None:
        if self._frozen:
            raise FrozenPuzzleError("the puzzle is frozen (it has been solved or propagated); "
                                    "build a new Puzzle to change its rules")

    def __getitem__(self, ref: Any) -> CellRef:
        return CellRef(self, self.grid.cell(ref))

    def cell(self, ref: Any) -> int:
        return self.grid.cell(ref)

    def add(self, *constraints: Constraint) -> "Puzzle":
        """Add constraint specs (from :mod:`csp.constraints` or cell-handle operators)."""
        self._check_open()
        for c in constraints:
            if not isinstance(c, Constraint) and isinstance(c, Iterable):
                self.add(*c)
                continue
            if not isinstance(c, Constraint):
                raise InvalidConstraint(f"not a constraint: {c!r}")
            for cell in c.cells:
                if not (isinstance(cell, int) and 0 <= cell < self.grid.size):
                    raise InvalidConstraint(f"{c.name}: cell {cell!r} outside the grid")
            c.name_from(self.grid)
            c.validate(self.grid.n)
            self.constraints.append(c)
        return self

    def add_all_different(self, cells: Iterable[Any], name: str = "") -> "Puzzle":
        return self.add(AllDifferent(self.grid.cells(cells), name))

    def add_grid_houses(self, rows: bool = True, cols: bool = True,
                        regions: bool = True) -> "Puzzle":
        """All-different rows, columns and boxes/regions of the grid."""
        for h in self.grid.houses:
            if (h.kind == "row" and rows) or (h.kind == "col" and cols) or (
                    h.kind not in ("row", "col") and regions):
                self.add(AllDifferent(h.cells, h.name))
        return self

    def add_less(self, a: Any, b: Any, name: str = "") -> "Puzzle":
        return self.add(Less(self.cell(a), self.cell(b), name))

    def add_abs_diff(self, a: Any, b: Any, d: int = 1, name: str = "") -> "Puzzle":
        return self.add(AbsDiff(self.cell(a), self.cell(b), d, name))

    def add_not_abs_diff(self, a: Any, b: Any, d: int = 1, name: str = "") -> "Puzzle":
        return self.add(NotAbsDiff(self.cell(a), self.cell(b), d, name))

    def add_ratio(self, a: Any, b: Any, r: int = 2, name: str = "") -> "Puzzle":
        return self.add(Ratio(self.cell(a), self.cell(b), r, name))

    def add_allowed_pairs(self, a: Any, b: Any, pairs: Iterable[tuple[int, int]],
                          name: str = "") -> "Puzzle":
        return self.add(AllowedPairs(self.cell(a), self.cell(b), pairs, name))

    def add_sum(self, cells: Iterable[Any], total: int, distinct: bool = False,
                name: str = "") -> "Puzzle":
        from .constraints.sums import Sum
        return self.add(Sum(self.grid.cells(cells), total, distinct, name))

    def add_constraint(self, pred: Callable[..., bool], cells: Sequence[Any],
                       name: str = "") -> "Puzzle":
        """Any Python predicate over the digits of ``cells``. Binary predicates become a
        support table with arc consistency."""
        from .constraints.function import FunctionConstraint, check_arity
        ids = self.grid.cells(cells)
        if len(ids) == 2:
            label = name or getattr(pred, "__name__", "function")
            check_arity(pred, 2, label)
            return self.add(Relation(ids[0], ids[1], pred, "function", None, label))
        return self.add(FunctionConstraint(pred, ids, name))

    def use(self, *bundles: Any) -> "Puzzle":
        """Apply rule bundles: callables taking the puzzle, objects with ``apply(puzzle)``,
        or constraint specs."""
        for b in bundles:
            if isinstance(b, Constraint):
                self.add(b)
                continue
            if not hasattr(b, "apply") and not callable(b):
                raise InvalidConstraint(f"cannot use {b!r}: not a rule bundle")
            before = len(self.constraints)
            self._use_depth += 1
            try:
                if hasattr(b, "apply"):
                    b.apply(self)
                else:
                    b(self)
            except SudokuCSPError:
                raise
            except (TypeError, ValueError, IndexError, KeyError, OverflowError,
                    ZeroDivisionError) as e:
                # a rule built from arguments it cannot use (an empty cell list, a number
                # where cells belong ...): the library's error, naming the rule
                name = getattr(b, "__name__", None) or type(b).__name__
                raise InvalidConstraint(f"rule {name}: cannot be built from its arguments "
                                        f"({type(e).__name__}: {e})") from e
            finally:
                self._use_depth -= 1
            if self._use_depth == 0:
                self.bundles.append((b, len(self.constraints) - before))
                self.bundle_constraints.append(self.constraints[before:])
        return self

    def givens(self, data: str | Mapping[Any, int] | Sequence[int]) -> "Puzzle":
        """Set givens from a line string, a ``{cell: digit}`` mapping or a list of digits
        (0 = empty)."""
        self._check_open()
        n = self.grid.n
        if isinstance(data, str):
            _, vals = parse_line(data, n, self.grid.size)
            items: Iterable[tuple[Any, int]] = enumerate(vals)
        elif isinstance(data, Mapping):
            items = data.items()
        else:
            vals = list(data)
            if len(vals) != self.grid.size:
                raise ParseError(f"expected {self.grid.size} values, got {len(vals)}")
            items = enumerate(vals)
        for ref, d in items:
            if d:
                self.set_given(ref, d)
        return self

    def set_given(self, ref: Any, digit: int) -> "Puzzle":
        self._check_open()
        c = self.grid.cell(ref)
        if not isinstance(digit, int) or not 1 <= digit <= self.grid.n:
            raise ParseError(f"given {digit!r} at {self.grid.name(c)} is not a digit 1..{self.grid.n}")
        self.given[c] = digit
        return self

    # -- compiled views ------------------------------------------------------------
    def houses(self) -> list[House]:
        """All-different groups declared by the constraints (rows, columns, boxes,
        diagonals, regions, all-different cages ...)."""
        out = []
        for c in self.constraints:
            h = c.house()
            if h is not None:
                kind = next((g.kind for g in self.grid.houses
                             if g.name == c.name and g.cells == tuple(h)), c.kind)
                out.append(House(c.name, tuple(h), kind))
        return out

    def weak_links(self) -> Iterator[WeakLink]:
        """Weak links contributed by non-house constraints (binary relations, 2-cell sums)."""
        n = self.grid.n
        for c in self.constraints:
            yield from c.weak_links(n)
        elements = [c for c in self.constraints if isinstance(c, Element)]
        if elements:
            yield from element_pair_links(elements, [h.cells for h in self.houses()])

    def freeze(self) -> "Puzzle":
        """Check the givens against the rules and compile. Called by the first solve."""
        if self._frozen:
            return self
        given = self.given
        for c in self.constraints:
            if all(cell in given for cell in c.cells):
                if not c.check(*(given[cell] for cell in c.cells)):
                    raise ContradictoryGivens(f"givens break {c.name}: " + ", ".join(
                        f"{self.grid.name(x)}={given[x]}" for x in c.cells))
            h = c.house()
            if h is not None:
                seen: dict[int, int] = {}
                for cell in h:
                    d = given.get(cell)
                    if d:
                        if d in seen:
                            raise ContradictoryGivens(
                                f"digit {d} given twice in {c.name}: "
                                f"{self.grid.name(seen[d])} and {self.grid.name(cell)}")
                        seen[d] = cell
        self._frozen = True
        return self

    @property
    def frozen(self) -> bool:
        return self._frozen

    def derived(self, build: Callable[["Puzzle"], T]) -> T:
        """``build(self)``, computed once and kept with the puzzle: the one place where
        other modules keep tables derived from a puzzle (link tables, the rule engine of a
        technique, the difference or cage tables of a variant's logic ...). The value stays
        valid because the puzzle is frozen first and a frozen puzzle never changes. The key
        is ``build`` itself, so two modules cannot collide: pass a module-level function
        or class (a new lambda on each call would never be found again).

        >>> def given_count(p): return len(p.given)
        >>> p = Puzzle(Grid(4)).add_grid_houses().givens("12..............")
        >>> p.derived(given_count), p.frozen, p.derived(given_count) is p.derived(given_count)
        (2, True, True)
        """
        try:
            return self._derived[build]
        except KeyError:
            self.freeze()
            value = self._derived[build] = build(self)
            return value

    def engine(self, gac: bool = False) -> Engine:
        self.freeze()
        eng = self._engines.get(gac)
        if eng is None:
            n = self.grid.n
            houses = []
            props: list[Propagator] = []
            has_less = False
            for c in self.constraints:
                if isinstance(c, Relation) and c.relation is RelationKind.LT:
                    has_less = True
                h = c.house()
                if h is not None:
                    if len(h) > n:
                        raise InvalidConstraint(f"{c.name}: {len(h)} cells cannot all differ "
                                                f"with digits 1..{n}")
                    houses.append((c.name, h))
                    if gac:
                        props.append(AllDifferentGAC(h, c.name))
                if isinstance(c, Relation) and c.relation is RelationKind.NE:
                    houses.append((c.name, c.cells))   # a != b runs in the kernel
                    continue
                props.extend(c.propagators(n))
                props.extend(c.compile(self))   # whole-puzzle propagators (linear sums)
            if has_less:   # ordering bounds beyond pairs, from every strict < however made
                props.extend(order_propagators(self.constraints,
                                               [tuple(h.cells) for h in self.houses()],
                                               self.grid.name))
            eng = self._engines[gac] = Engine(n, self.grid.size, houses, props, self._namer())
        return eng

    def _namer(self) -> Callable[[int], str] | None:
        """Cell naming for engine messages (None: the engine's row-major default)."""
        g = self.grid
        return None if g.size == g.n * g.n else g.name

    def initial_state(self) -> State:
        """Givens placed, nothing propagated."""
        self.freeze()
        g = self.grid
        cand = [g.all_mask] * g.size
        placed = [0] * g.size
        given = [False] * g.size
        for con in self.constraints:
            um = con.unary_mask()
            if um is not None:
                for cell in con.cells:
                    cand[cell] &= um
        for c, d in self.given.items():
            cand[c] = 1 << d
            placed[c] = d
            given[c] = True
        return State(g, cand, placed, given, puzzle=self)

    def pencilmarks(self) -> State:
        """Givens placed and their digits removed from every candidate they see (through
        houses and the constraints' weak links): the usual starting pencil marks of a
        human-style solve."""
        from .links import link_tables
        st = self.initial_state()
        links = link_tables(self)
        cand = st.cand
        placed = st.placed
        if links.uniform:
            # links are the houses' only: a cell loses the givens of its houses
            gm = [0] * len(links.houses)
            for c, d in self.given.items():
                for h in links.cell_houses[c]:
                    gm[h] |= 1 << d
            for c, hs in enumerate(links.cell_houses):
                if not placed[c]:
                    m = 0
                    for h in hs:
                        m |= gm[h]
                    cand[c] &= ~m
        else:
            for c, d in self.given.items():
                for c2, d2 in links.weak_neighbours(c, d):
                    if not placed[c2]:
                        cand[c2] &= ~(1 << d2)
        st.version += 1
        return st

    def state_from(self, masks: Sequence[int], placed: Sequence[int] | None = None) -> State:
        """A State with the given candidate masks (e.g. read from a pencil-mark grid)."""
        st = self.initial_state()
        st.cand = list(masks)
        if placed is not None:
            st.placed = list(placed)
        return st

    # -- solving -------------------------------------------------------------------
    def propagate(self, state: State | None = None, gac: bool = False,
                  trace: TraceHook | None = None) -> State:
        """Propagate the rules to fixpoint and return a new State (``state`` is not
        changed). ``gac``: matching-based all-different. Raises :class:`Contradiction` when
        unsatisfiable. (Techniques as propagators: :func:`techniques.propagate`.)
        """
        st = self.initial_state() if state is None else state.copy()
        self.engine(gac).propagate(st.cand, None, trace)
        st.version += 1
        return st

    def solve(self, first: bool = False, node_limit: int | None = None,
              time_limit: float | None = None, state: State | None = None,
              method: str = "auto") -> SolveResult:
        """Propagation and search. Stops at a second solution (``status == "multiple"``)
        unless ``first``. Limits raise :class:`csp.errors.SearchLimit`: ``time_limit`` in
        seconds, ``node_limit`` in depth-first search nodes or, for the SAT solver, in
        conflicts (``"auto"`` gives the SAT solver what the depth-first search left).

        ``method``: ``"search"``, depth-first search with propagation at every node
        (:mod:`csp.search`); ``"sat"``, a clause-learning SAT solver (:mod:`csp.sat`);
        ``"auto"`` (default), depth-first search for up to :data:`AUTO_SEARCH_NODES` nodes
        and :data:`AUTO_SEARCH_SECONDS`, then the SAT solver with the time left (models
        made only of all-different houses: :data:`AUTO_PURE_NODES` nodes, and only on grids
        from :data:`AUTO_PURE_MIN_N` on; smaller ones always search). The solutions do not
        depend on the method; ``result.method`` says which one answered.

        >>> from csp import Puzzle, Grid
        >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1.........2.....")
        >>> r = p.solve(method="sat")
        >>> r.status, r.method
        ('multiple', 'sat')
        """
        t0 = time.perf_counter()
        cand = (state or self.initial_state()).cand
        sols, nodes, conflicts, used = self._search(cand, 1 if first else 2, node_limit,
                                                    time_limit, method)
        status = (SolveStatus.UNSOLVABLE if not sols else
                  SolveStatus.SOLVED if len(sols) == 1 else SolveStatus.MULTIPLE)
        return SolveResult(status, sols, nodes, (time.perf_counter() - t0) * 1000, used,
                           conflicts)

    def count_solutions(self, limit: int = 2, node_limit: int | None = None,
                        time_limit: float | None = None, method: str = "auto",
                        state: State | None = None) -> int:
        """Number of solutions, counting stops at ``limit`` (``method`` as in :meth:`solve`);
        of ``state`` (its candidates) when given, else of the givens.

        >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1...............")
        >>> p.count_solutions(1000), p.count_solutions(1000, state=p.propagate())
        (72, 72)
        """
        cand = (state or self.initial_state()).cand
        sols, _, _, _ = self._search(cand, limit, node_limit, time_limit, method)
        return len(sols)

    def _search(self, cand: list[int], limit: int, node_limit: int | None,
                time_limit: float | None, method: str
                ) -> tuple[list[list[int]], int, int, str]:
        """(solutions, search nodes, SAT conflicts, method used)."""
        if method not in ("auto", "search", "sat"):
            raise InvalidArgument(f"unknown search method {method!r} (auto, search or sat)")
        if time_limit is not None:
            if time_limit != time_limit or time_limit < 0:
                raise InvalidArgument(f"time limit must be 0 or more seconds, got {time_limit!r}")
            if time_limit == float("inf"):
                time_limit = None
        eng = self.engine()
        if method == "sat" or (method == "auto" and (
                not eng.pure or self.grid.n >= AUTO_PURE_MIN_N)):
            from . import sat   # the SAT engine loads when it may be used
        if method == "sat":      # a node limit is the SAT solver's conflict budget
            sols, conflicts = sat.sat_search(self, cand, limit, time_limit,
                                             conflict_limit=node_limit)
            return sols, 0, conflicts, "sat"
        pure = eng.pure
        if method == "search" or (pure and self.grid.n < AUTO_PURE_MIN_N) or not sat.available():
            sols, nodes = search(eng, cand, limit, node_limit, time_limit)
            return sols, nodes, 0, "search"
        budget = AUTO_PURE_NODES if pure else AUTO_SEARCH_NODES
        nodes_cap = budget if node_limit is None else min(node_limit, budget)
        time_cap = time_limit if pure else (AUTO_SEARCH_SECONDS if time_limit is None
                                            else min(time_limit, AUTO_SEARCH_SECONDS))
        t0 = time.perf_counter()
        try:
            sols, nodes = search(eng, cand, limit, nodes_cap, time_cap)
            return sols, nodes, 0, "search"
        except NodeLimitExceeded as e:
            if nodes_cap == node_limit:
                raise
            nodes = e.nodes
        except TimeLimitExceeded as e:
            if time_cap == time_limit:
                raise
            nodes = e.nodes
        left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            raise TimeLimitExceeded(f"search stopped after {time_limit} s")
        sols, conflicts = sat.sat_search(
            self, cand, limit, left,
            conflict_limit=None if node_limit is None else max(1, node_limit - nodes))
        return sols, nodes, conflicts, "sat"

    def check_solution(self, values: Sequence[int]) -> bool:
        """True when ``values`` (a digit per cell) satisfies every constraint and given."""
        if len(values) != self.grid.size:
            return False
        if any(values[c] != d for c, d in self.given.items()):
            return False
        n = self.grid.n
        if any(not 1 <= v <= n for v in values):
            return False
        for c in self.constraints:
            if c.house() is not None and len({values[x] for x in c.house()}) != len(c.house()):
                return False
            if not c.check(*(values[x] for x in c.cells)):
                return False
        return True

    # -- views ---------------------------------------------------------------------
    def constraint_graph(self):
        from .graphs import constraint_graph
        return constraint_graph(self)

    def cell_graph(self):
        from .graphs import cell_graph
        return cell_graph(self)

    def link_graph(self, state: State | None = None):
        from .graphs import link_graph
        return link_graph(self, state)

    def to_problem(self):
        from .interop import to_problem
        return to_problem(self)

    def _repr_svg_(self) -> str | None:
        """SVG picture for Jupyter, drawn by the renderer an upper layer registered
        (:mod:`csp.display`); None (text repr) when none is registered."""
        from .display import repr_svg
        return repr_svg(self)

    def __repr__(self) -> str:
        return (f"Puzzle({self.grid!r}, {len(self.constraints)} constraints, "
                f"{len(self.given)} givens)")
