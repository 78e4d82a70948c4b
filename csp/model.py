"""The Puzzle model: a grid, constraint specs and givens. Never mutated by solving."""
from __future__ import annotations

import operator
import time
from typing import Any, Callable, Iterable, Iterator, Mapping, NoReturn, Sequence, TypeVar

from .budget import Budget
from .constraints import (AbsDiff, AllDifferent, AllDifferentGAC, AllowedPairs, Constraint,
                          Less, NotAbsDiff, Ratio, Relation, RelationKind)
from .constraints.binary import UNION_MAX_N, _eq, _le, _lt, _ne, _unions
from .constraints.base import WeakLink
from .constraints.element import Element, element_pair_links
from .constraints.order import order_propagators, order_specs
from .engine import Engine
from .errors import (ContradictoryGivens, FrozenPuzzleError, InvalidArgument, InvalidConstraint,
                     InvalidPuzzle, NodeLimitExceeded, ParseError, SudokuCSPError,
                     TimeLimitExceeded)
from .events import Contradiction
from .grid import CellHandle, Grid, House
from .io import parse_line
from .propagator import Propagator, TraceHook
from .search import SolveResult, search
from .state import State
from .status import SolveStatus
from .text import quoted


# ``solve(method="auto")``: depth-first search nodes and seconds before the SAT solver
# takes over (whichever budget runs out first)
AUTO_SEARCH_NODES = 200
AUTO_SEARCH_SECONDS = 0.05
# the same for models made only of all-different houses, whose search is fast: nodes
# before the SAT solver takes over, on grids from AUTO_PURE_MIN_N on (never below)
AUTO_PURE_NODES = 100
AUTO_PURE_MIN_N = 10

T = TypeVar("T")


def _rules_by_cell(puzzle: "Puzzle") -> list[tuple[Constraint, ...]]:
    """Per cell, the rules through it (for :meth:`Puzzle.broken_rule` around cells)."""
    out: list[list[Constraint]] = [[] for _ in range(puzzle.grid.size)]
    for c in puzzle.constraints:
        for cell in dict.fromkeys(c.cells):
            out[cell].append(c)
    return [tuple(x) for x in out]


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
        raise InvalidConstraint(f"compare a cell with another cell, not {quoted(other)}")

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



def _houses(p: "Puzzle") -> tuple[House, ...]:
    """:meth:`Puzzle.houses`, as a tuple (kept with a frozen puzzle by
    :meth:`Puzzle.derived`)."""
    out = []
    kinds: dict[tuple[str, tuple[int, ...]], str] = {}
    for g in p.grid.houses:                    # the first of the grid's houses that match
        kinds.setdefault((g.name, g.cells), g.kind)
    for c in p.constraints:
        h = c.house()
        if h is not None:
            cells = tuple(h)
            out.append(House(c.name, cells, kinds.get((c.name, cells), c.kind)))
    return tuple(out)

class RuleSet:
    """Rules that several puzzles share: a reader that keeps the rules of recent documents
    (``sudoku_csp.formats.fpuzzles``) gives each new puzzle of the same rules the same
    constraint objects and this object as its :attr:`Puzzle.rule_set`. Their engines
    (:meth:`Puzzle.engine`) are kept here and shared when every propagator is declared
    :attr:`~csp.propagator.Propagator.history_free` (its removals depend on the candidates
    it reads alone, so an engine serves any givens the same way as a new one); a puzzle
    whose constraints are no longer exactly these (a rule added) builds its own.

    >>> p = Puzzle(4).add_grid_houses().add_less("r1c1", "r1c2")
    >>> rules = RuleSet(p.constraints)
    >>> q, r, s = Puzzle(4), Puzzle(4), Puzzle(4)
    >>> for x in (q, r, s):
    ...     x.constraints, x.rule_set = list(rules.constraints), rules
    >>> q.engine() is r.engine(), s.add_less("r2c1", "r2c2").engine() is q.engine()
    (True, False)
    """

    __slots__ = ("constraints", "engines")

    def __init__(self, constraints: Iterable[Constraint]) -> None:
        self.constraints: tuple[Constraint, ...] = tuple(constraints)
        #: per ``gac``, the engine of these rules that every puzzle of them takes
        self.engines: dict[bool, Engine] = {}

    def holds(self, constraints: Sequence[Constraint]) -> bool:
        """True when ``constraints`` are exactly these rules (the same objects, in order)."""
        mine = self.constraints
        return len(constraints) == len(mine) and all(map(operator.is_, constraints, mine))


#: the all-different rule of each grid house (:meth:`Puzzle.add_grid_houses`), by the house
#: (name, cells and kind): every puzzle of a grid shape shares its houses' rules; emptied
#: past :data:`_HOUSE_RULES_MAX` houses
_HOUSE_RULES: dict[House, AllDifferent] = {}
_HOUSE_RULES_MAX = 4096


#: :meth:`Puzzle.check_cell_lists`' reading of each ``cell_lists`` met (a bundle class's
#: tuple): per entry its attributes (``"circle+shaft"``: two), None for a ``[]`` entry
_CELL_LIST_PLANS: dict[tuple, tuple[tuple[str, ...] | None, ...]] = {}


def _cell_list_plan(entries: Any) -> tuple[tuple[str, ...] | None, ...]:
    """:data:`_CELL_LIST_PLANS`' entry for ``entries`` (kept when it is a tuple of
    strings; ``()`` when an entry is not a string: every entry then goes through
    :meth:`Puzzle.check_cell_lists`' loop, which says what is wrong)."""
    if not all(type(e) is str for e in entries):
        return ()
    plan = tuple(None if e.endswith("[]") else tuple(e.split("+")) for e in entries)
    if type(entries) is tuple and len(_CELL_LIST_PLANS) < 256:
        _CELL_LIST_PLANS[entries] = plan
    return plan


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
        #: names of the rule bundles being applied (nested ``use`` calls), for messages
        self._using: list[str] = []
        self._frozen = False
        self._engines: dict[bool, Engine] = {}
        self._derived: dict[Callable[[Puzzle], Any], Any] = {}
        #: rules kept with the puzzles that share them (:class:`RuleSet`), or None
        self.rule_set: RuleSet | None = None

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
        grid = self.grid
        size, n = grid.size, grid.n
        append = self.constraints.append
        for c in constraints:
            if type(c) is Relation:
                # the commonest rule (anti-knight and anti-king pairs, dots, inequalities:
                # a setter puzzle adds hundreds), the same checks in fewer steps: its two
                # cells differ (its constructor says so) and any digit count suits it
                cells = c.cells
                a, b = cells
                if not (type(a) is int and type(b) is int and 0 <= a < size
                        and 0 <= b < size):
                    for cell in cells:
                        if not (isinstance(cell, int) and 0 <= cell < size):
                            raise InvalidConstraint(f"{c.name}: cell {quoted(cell)} outside the grid")
                if c.auto_name:
                    c.name_from(grid)
                append(c)
                continue
            if not isinstance(c, Constraint):
                if isinstance(c, Iterable):
                    self.add(*c)
                    continue
                raise InvalidConstraint(f"not a constraint: {quoted(c)}")
            cells = c.cells
            for cell in cells:
                if not (isinstance(cell, int) and 0 <= cell < size):
                    raise InvalidConstraint(f"{c.name}: cell {quoted(cell)} outside the grid")
            c.name_from(grid)
            if not c.repeats and len(set(cells)) != len(cells):
                twice = next(x for i, x in enumerate(cells) if x in cells[:i])
                rule = f"rule {self._using[-1]}: " if self._using else ""
                raise InvalidConstraint(f"{rule}cell {grid.name(twice)} is listed twice"
                                        f" ({c.name or c.kind})")
            c.validate(n)
            append(c)
        return self

    def add_all_different(self, cells: Iterable[Any], name: str = "") -> "Puzzle":
        return self.add(AllDifferent(self.grid.cells(cells), name))

    def add_grid_houses(self, rows: bool = True, cols: bool = True,
                        regions: bool = True) -> "Puzzle":
        """All-different rows, columns and boxes/regions of the grid."""
        self._check_open()
        # the grid's own houses: their cells are in the grid, each once, at most n of
        # them, and they are named: :meth:`add`'s checks would pass on each. Each house's
        # rule is made once and shared by the puzzles of its grid shape (:data:`_HOUSE_RULES`,
        # as the f-puzzles reader's kept rules share theirs: a rule is never changed)
        made = _HOUSE_RULES
        out = []
        for h in self.grid.houses:
            if (h.kind == "row" and rows) or (h.kind == "col" and cols) \
                    or (h.kind not in ("row", "col") and regions):
                con = made.get(h)
                if con is None:
                    if len(made) >= _HOUSE_RULES_MAX:
                        made.clear()
                    con = made[h] = AllDifferent(h.cells, h.name)
                out.append(con)
        self.constraints.extend(out)
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
        or constraint specs.

        A bundle states which of its attributes hold cell lists in ``cell_lists`` (see
        :meth:`check_cell_lists`); they are checked here, before it is applied, so every
        rule refuses a cell outside the grid, an empty list or a cell listed twice the same
        way (:class:`~csp.errors.InvalidConstraint` naming the rule and the cell).

        >>> class line:
        ...     cell_lists = ("cells",)
        ...     def __init__(self, cells): self.cells = cells
        ...     def apply(self, p): pass
        >>> Puzzle(4).use(line(["r1c1", "r2c2", "r1c1"]))
        Traceback (most recent call last):
        ...
        csp.errors.InvalidConstraint: rule line: cell r1c1 is listed twice in cells
        """
        for b in bundles:
            if isinstance(b, Constraint):
                self.add(b)
                continue
            if not hasattr(b, "apply") and not callable(b):
                raise InvalidConstraint(f"cannot use {quoted(b)}: not a rule bundle")
            before = len(self.constraints)
            rule = getattr(b, "__name__", None) or type(b).__name__
            self.check_cell_lists(b)
            self._using.append(rule)
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
                raise InvalidConstraint(f"rule {rule}: cannot be built from its arguments "
                                        f"({type(e).__name__}: {e})") from e
            finally:
                self._using.pop()
            if not self._using:
                self.bundles.append((b, len(self.constraints) - before))
                self.bundle_constraints.append(self.constraints[before:])
        return self

    def check_cell_lists(self, bundle: Any) -> None:
        """Refuse a rule bundle whose cell lists are malformed, naming the rule and the cell
        (:class:`~csp.errors.InvalidConstraint`); called by :meth:`use` before the bundle is
        applied, the one place where every rule's cells are checked.

        ``bundle.cell_lists`` names the attributes that hold cells: each entry is one list,
        ``"cells"``, or several attributes read as one list, ``"circle+shaft"`` (no cell
        twice across them), or ``"marked[]"``, a list of cell lists, each checked on its own.
        Every cell must be in the grid, every list (but the items of a ``[]`` entry's
        list) must have a cell, and no list may hold a cell twice, except that when
        ``bundle.closed_loop`` is True a list of three or more different cells may end on
        its first cell: a closed loop, which that bundle reads as one.

        >>> class loop:
        ...     cell_lists, closed_loop = ("cells",), True
        ...     def __init__(self, cells): self.cells = cells
        >>> Puzzle(4).check_cell_lists(loop(["r1c1", "r1c2", "r2c2", "r1c1"]))
        >>> Puzzle(4).check_cell_lists(loop(["r1c1", "r1c2", "r1c1"]))
        Traceback (most recent call last):
        ...
        csp.errors.InvalidConstraint: rule loop: cell r1c1 is listed twice in cells (only a closed loop of three or more cells may end on its first cell)
        """
        entries = getattr(bundle, "cell_lists", ())
        if not entries:
            return
        # the common case first: lists of cells, each once (what the loop below passes
        # without a word); any other entry goes through the loop, which says what is wrong.
        # Each entry's attributes are split once per ``cell_lists`` (a bundle class's)
        try:
            plan = _CELL_LIST_PLANS.get(entries)
        except TypeError:              # an unhashable entry: the loop says what is wrong
            plan = ()
        if plan is None:
            plan = _cell_list_plan(entries)
        cells_of = self.grid.cells
        rest = []
        for entry, attrs in zip(entries, plan):
            if attrs is not None:
                if len(attrs) == 1:
                    attr = attrs[0]
                    refs = getattr(bundle, attr, None)
                    plain = type(refs) in (list, tuple)
                else:                  # "circle+shaft": read as one list
                    refs = []
                    for attr in attrs:
                        part = getattr(bundle, attr, None)
                        plain = type(part) in (list, tuple)
                        if not plain:
                            break
                        refs += part
                if plain:
                    try:
                        ids = cells_of(refs)
                    except InvalidPuzzle:
                        ids = ()
                    if ids and len(set(ids)) == len(ids):
                        continue
            rest.append(entry)
        if len(plan) < len(entries):
            rest = list(entries)
        if not rest:
            return
        entries = rest
        rule = getattr(bundle, "__name__", None) or type(bundle).__name__
        loop = bool(getattr(bundle, "closed_loop", False))
        for entry in entries:
            each = entry.endswith("[]")
            attrs = entry[:-2].split("+") if each else entry.split("+")
            shown = " + ".join(attrs)
            lists: list[list[Any]] = []
            for attr in attrs:
                refs = getattr(bundle, attr, None)
                if type(refs) not in (list, tuple) and (      # (typing's check is slow)
                        isinstance(refs, (str, bytes)) or not isinstance(refs, Iterable)):
                    raise InvalidConstraint(f"rule {rule}: {attr} must be a list of "
                                            f"{'cell lists' if each else 'cells'}, "
                                            f"got {refs!r:.40}")
                if each:
                    lists.extend(refs)
                elif lists:
                    lists[0].extend(refs)
                else:
                    lists.append(list(refs))
            for refs in lists:
                if type(refs) not in (list, tuple) and (
                        isinstance(refs, (str, bytes)) or not isinstance(refs, Iterable)):
                    raise InvalidConstraint(f"rule {rule}: each item of {shown} must be a "
                                            f"list of cells, got {refs!r:.40}")
                try:
                    ids = self.grid.cells(refs)
                except InvalidPuzzle as e:
                    raise type(e)(f"rule {rule}: {e}") from None
                if not ids:
                    raise InvalidConstraint(f"rule {rule}: {shown} must list at least one "
                                            "cell")
                if len(set(ids)) == len(ids):
                    continue
                if (loop and len(ids) >= 4 and ids[0] == ids[-1]
                        and len(set(ids)) == len(ids) - 1):
                    continue          # a closed loop
                twice = next(x for i, x in enumerate(ids) if x in ids[:i])
                raise InvalidConstraint(
                    f"rule {rule}: cell {self.grid.name(twice)} is listed twice in {shown}"
                    + (" (only a closed loop of three or more cells may end on its first "
                       "cell)" if loop else ""))

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
            raise ParseError(f"given {quoted(digit)} at {self.grid.name(c)} is not a digit 1..{self.grid.n}")
        self.given[c] = digit
        return self

    # -- compiled views ------------------------------------------------------------
    def houses(self) -> list[House]:
        """All-different groups declared by the constraints (rows, columns, boxes,
        diagonals, regions, all-different cages ...); a frozen puzzle's are made once (the
        engine's set-up asks for them per element and sum rule)."""
        if self._frozen:
            return list(self.derived(_houses))
        return list(_houses(self))

    def weak_links(self) -> Iterator[WeakLink]:
        """Weak links contributed by non-house constraints (binary relations, 2-cell sums)."""
        n = self.grid.n
        for c in self.constraints:
            yield from c.weak_links(n)
        elements = [c for c in self.constraints if isinstance(c, Element)]
        if elements:
            yield from element_pair_links(elements, [h.cells for h in self.houses()])

    def freeze(self, budget: Budget | None = None) -> "Puzzle":
        """Check the givens against the rules and compile. Called by the first solve.
        Runs within ``budget`` (:class:`~csp.budget.Budget`; raises
        :class:`~csp.errors.TimeLimitExceeded` once it is spent, leaving the puzzle open)."""
        if self._frozen:
            return self
        given = self.given
        for c in self.constraints:
            if budget is not None:
                budget.tick("model building")
            if type(c) is Relation:
                # the commonest rule (hundreds in a setter puzzle): two cells, no house
                if c.a in given and c.b in given and not c.check(given[c.a], given[c.b]):
                    self._broken(c)
                continue
            for cell in c.cells:           # (a loop, not all(): once per rule)
                if cell not in given:
                    break
            else:
                if not c.check(*(given[cell] for cell in c.cells)):
                    self._broken(c)
            h = c.house() if given else None
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

    def _broken(self, c: Constraint) -> NoReturn:
        """:meth:`freeze`'s error: the givens break the rule ``c``."""
        given = self.given
        raise ContradictoryGivens(f"givens break {c.name}: " + ", ".join(
            f"{self.grid.name(x)}={given[x]}" for x in c.cells))

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

    def engine(self, gac: bool = False, budget: Budget | None = None) -> Engine:
        """The compiled propagation engine (built once per ``gac``, within ``budget``: each
        rule's set-up ticks it, and a spent budget raises
        :class:`~csp.errors.TimeLimitExceeded` with nothing kept)."""
        self.freeze(budget)
        eng = self._engines.get(gac)
        if eng is None:
            shared = self.rule_set
            if shared is not None and not shared.holds(self.constraints):
                shared = None              # rules added since: its own engine
            if shared is not None:
                eng = shared.engines.get(gac)
                if eng is not None:
                    self._engines[gac] = eng
                    return eng
            eng = self._engines[gac] = self._build_engine(gac, budget)
            if shared is not None and eng.history_free():
                shared.engines[gac] = eng
        return eng

    def _build_engine(self, gac: bool, budget: Budget | None) -> Engine:
        """:meth:`engine`'s work."""
        n = self.grid.n
        houses: list[tuple[str, tuple[int, ...]]] = []
        #: the cells of each rule's house (:meth:`houses`' cells, in its order: every rule
        #: with a house goes through add_house), for the ordering bounds
        house_cells: list[tuple[int, ...]] = []
        props: list[Propagator] = []
        has_less = False
        tables: dict = {}                # each relation key's tables, looked up once
        #: plain relations handed to the engine as they are, their tables made when
        #: something reads the engine's propagators (grids with mask tables)
        defer = n <= UNION_MAX_N

        def add_house(name: str, h: tuple[int, ...]) -> None:
            if len(h) > n:
                raise InvalidConstraint(f"{name}: {len(h)} cells cannot all differ "
                                        f"with digits 1..{n}")
            houses.append((name, h))
            house_cells.append(tuple(h))
            if gac:
                props.append(AllDifferentGAC(h, name))

        for c in self.constraints:
            if budget is not None:
                budget.tick("model building")
            if type(c) is Relation:      # no house, nothing compiled: its table
                rel = c.relation
                if rel is RelationKind.NE:
                    houses.append((c.name, c.cells))   # a != b runs in the kernel
                    continue
                if rel is RelationKind.LT:
                    has_less = True
                if defer:                # its table propagator made when read (Engine)
                    if c.key not in tables:  # (as Relation.table_propagator's memo)
                        sa, sb = c.tables(n)
                        tables[c.key] = (sa, sb, _unions(c.key, sa, sb, n))
                    props.append(c)
                else:
                    props.append(c.table_propagator(n, tables))
                continue
            if type(c) is AllDifferent:  # a house: nothing compiled (its check below)
                add_house(c.name, c.cells)
                continue
            if isinstance(c, Relation) and c.relation is RelationKind.LT:
                has_less = True
            h = c.house()
            if h is not None:
                add_house(c.name, h)
            if isinstance(c, Relation) and c.relation is RelationKind.NE:
                houses.append((c.name, c.cells))   # a != b runs in the kernel
                continue
            props.extend(c.propagators(n))
            props.extend(c.compile(self))   # whole-puzzle propagators (linear sums)
        if has_less:   # ordering bounds beyond pairs, from every strict < however made
            if defer:                    # their specs, the propagators made when read
                props.extend(order_specs(self.constraints, house_cells))
            else:
                props.extend(order_propagators(self.constraints, house_cells,
                                               self.grid.name))
        if defer:
            return Engine(n, self.grid.size, houses, props, self._namer(), tables,
                          self.grid.name)
        return Engine(n, self.grid.size, houses, props, self._namer())

    def _namer(self) -> Callable[[int], str] | None:
        """Cell naming for engine messages (None: the engine's row-major default)."""
        g = self.grid
        return None if g.size == g.n * g.n else g.name

    def initial_state(self, budget: Budget | None = None) -> State:
        """Givens placed, nothing propagated (freezing the puzzle within ``budget``)."""
        self.freeze(budget)
        g = self.grid
        cand = [g.all_mask] * g.size
        placed = [0] * g.size
        given = [False] * g.size
        for con in self.constraints:
            if type(con) is Relation:
                continue                     # (no unary mask: the commonest rule)
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
                  trace: TraceHook | None = None, time_limit: float | None = None,
                  budget: Budget | None = None) -> State:
        """Propagate the rules to fixpoint and return a new State (``state`` is not
        changed). ``gac``: matching-based all-different. Raises :class:`Contradiction` when
        unsatisfiable, :class:`~csp.errors.TimeLimitExceeded` past ``time_limit`` seconds
        or once ``budget`` is spent (model building included). (Techniques as
        propagators: :func:`techniques.propagate`.)
        """
        budget = Budget.within(budget, time_limit)
        if budget.limited:
            budget.check("propagation")
        st = self.initial_state(budget) if state is None else state.copy()
        self.engine(gac, budget).propagate(st.cand, None, trace,
                                           budget=budget if budget.limited else None)
        st.version += 1
        return st

    def solve(self, first: bool = False, node_limit: int | None = None,
              time_limit: float | None = None, state: State | None = None,
              method: str = "auto", budget: Budget | None = None) -> SolveResult:
        """Propagation and search. Stops at a second solution (``status == "multiple"``)
        unless ``first``. Limits raise :class:`csp.errors.SearchLimit`: ``time_limit`` in
        seconds, ``node_limit`` (a whole number, 0 or more) in depth-first search nodes or,
        for the SAT solver, in conflicts (``"auto"`` gives the SAT solver what the
        depth-first search left; :func:`csp.sat.sat_search` says how exactly Glucose keeps
        it); 0 allows no search: only what propagation settles is answered.

        ``method``: ``"search"``, depth-first search with propagation at every node
        (:mod:`csp.search`); ``"sat"``, a clause-learning SAT solver (:mod:`csp.sat`);
        ``"auto"`` (default), depth-first search for up to :data:`AUTO_SEARCH_NODES` nodes
        and :data:`AUTO_SEARCH_SECONDS`, then the SAT solver with the time left (models
        made only of all-different houses: :data:`AUTO_PURE_NODES` nodes, and only on grids
        from :data:`AUTO_PURE_MIN_N` on; smaller ones always search). The solutions do not
        depend on the method; ``result.method`` says which one answered.

        ``budget`` (:class:`~csp.budget.Budget`): the caller's limits for the whole call
        (``time_limit`` and ``node_limit``, when given too, tighten it); building the
        model, the first propagation and the SAT encoding run within it, not only the
        search.

        >>> from csp import Puzzle, Grid
        >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1.........2.....")
        >>> r = p.solve(method="sat")
        >>> r.status, r.method
        ('multiple', 'sat')
        """
        t0 = time.perf_counter()
        budget = self._budget(budget, time_limit, node_limit, method)
        cand = (state or self.initial_state(budget)).cand
        sols, nodes, conflicts, used = self._search(cand, 1 if first else 2, budget, method)
        status = (SolveStatus.UNSOLVABLE if not sols else
                  SolveStatus.SOLVED if len(sols) == 1 else SolveStatus.MULTIPLE)
        return SolveResult(status, sols, nodes, (time.perf_counter() - t0) * 1000, used,
                           conflicts)

    def count_solutions(self, limit: int = 2, node_limit: int | None = None,
                        time_limit: float | None = None, method: str = "auto",
                        budget: Budget | None = None, state: State | None = None) -> int:
        """Number of solutions, counting stops at ``limit`` (``method`` and the limits as
        in :meth:`solve`); of ``state`` (its candidates) when given, else of the givens.

        >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1...............")
        >>> p.count_solutions(1000), p.count_solutions(1000, state=p.propagate())
        (72, 72)
        """
        budget = self._budget(budget, time_limit, node_limit, method)
        cand = (state or self.initial_state(budget)).cand
        sols, _, _, _ = self._search(cand, limit, budget, method)
        return len(sols)

    @staticmethod
    def _budget(budget: Budget | None, time_limit: float | None, node_limit: int | None,
                method: str) -> Budget:
        """The call's budget (:meth:`Budget.within`), the arguments checked first."""
        if method not in ("auto", "search", "sat"):
            raise InvalidArgument(f"unknown search method {quoted(method)} (auto, search or sat)")
        return Budget.within(budget, time_limit, node_limit)

    def _search(self, cand: list[int], limit: int, budget: Budget, method: str
                ) -> tuple[list[list[int]], int, int, str]:
        """(solutions, search nodes, SAT conflicts, method used), within ``budget``."""
        node_limit = budget.node_limit
        eng = self.engine(budget=budget)
        if method == "sat" or (method == "auto" and (
                not eng.pure or self.grid.n >= AUTO_PURE_MIN_N)):
            from . import sat   # the SAT engine loads when it may be used
        if method == "sat":      # a node limit is the SAT solver's conflict budget
            sols, conflicts = sat.sat_search(self, cand, limit, conflict_limit=node_limit,
                                             budget=budget)
            return sols, 0, conflicts, "sat"
        pure = eng.pure
        if method == "search" or (pure and self.grid.n < AUTO_PURE_MIN_N) or not sat.available():
            sols, nodes = search(eng, cand, limit, budget=budget)
            return sols, nodes, 0, "search"
        # depth-first search first, on a budget of its own inside the call's
        first = budget.narrowed(None if pure else AUTO_SEARCH_SECONDS)
        cap = AUTO_PURE_NODES if pure else AUTO_SEARCH_NODES
        first.node_limit = cap if node_limit is None else min(node_limit, cap)
        try:
            sols, nodes = search(eng, cand, limit, budget=first)
            return sols, nodes, 0, "search"
        except NodeLimitExceeded as e:
            if first.node_limit == node_limit:
                raise
            nodes = e.nodes
        except TimeLimitExceeded as e:
            if budget.exhausted:
                raise TimeLimitExceeded(f"search stopped after {budget.describe()}") from e
            nodes = e.nodes
        budget.check()
        sols, conflicts = sat.sat_search(
            self, cand, limit,
            conflict_limit=None if node_limit is None else max(1, node_limit - nodes),
            budget=budget)
        return sols, nodes, conflicts, "sat"

    def check_solution(self, values: Sequence[int]) -> bool:
        """True when ``values`` (a digit per cell) satisfies every constraint and given."""
        return self.solution_error(values) is None

    def solution_error(self, values: Sequence[int]) -> str | None:
        """Why ``values`` (a digit per cell) is not a solution (a wrong length, a given
        changed, a digit outside 1..n, or the first rule it breaks, see
        :meth:`broken_rule`); None when it is one.

        >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1...............")
        >>> p.solution_error([1, 2, 3, 4] * 4)
        'r1c1 and r2c1 both hold 1 in col 1'
        """
        if len(values) != self.grid.size:
            return f"{len(values)} values for {self.grid.size} cells"
        name = self.grid.name
        for c, d in self.given.items():
            if values[c] != d:
                return f"the given {name(c)}={d} holds {values[c]}"
        n = self.grid.n
        for c, v in enumerate(values):
            if not (isinstance(v, int) and 1 <= v <= n):
                return f"{name(c)} holds {quoted(v)}, not a digit 1..{n}"
        return self.broken_rule(values)

    def broken_rule(self, values: Sequence[int], around: Iterable[int] | None = None
                    ) -> str | None:
        """The first rule whose cells all hold a digit in ``values`` (a digit per cell, 0 =
        empty) and that these digits break, as text naming the rule and the digits; None
        when no filled rule is broken. ``around``: look only at the rules through these
        cells (the logic loop asks after each placement). A partly filled rule is not
        judged.

        >>> from csp.constraints import Linear
        >>> p = Puzzle(Grid(4)).add(Linear([0, 5], [-1, 1], 0, "arrow r1c1"))
        >>> p.broken_rule([1] + [0] * 4 + [4] + [0] * 10)
        'r1c1=1, r2c2=4 break arrow r1c1'
        >>> p.broken_rule([1] + [0] * 15) is None
        True
        """
        if around is None:
            rules: Iterable[Constraint] = self.constraints
        else:
            by_cell = self.derived(_rules_by_cell)
            seen: dict[int, Constraint] = {}
            for cell in around:
                for c in by_cell[cell]:
                    seen.setdefault(id(c), c)
            rules = seen.values()
        name = self.grid.name
        for c in rules:
            cells = c.cells
            if not cells:
                continue
            vals = [values[x] for x in cells]
            if not all(vals):
                continue
            h = c.house()
            if h is not None:
                hv = vals if h is cells else [values[x] for x in h]
                if len(set(hv)) != len(hv):
                    first: dict[int, int] = {}
                    for x in h:
                        if values[x] in first:
                            return (f"{name(first[values[x]])} and {name(x)} both hold "
                                    f"{values[x]} in {c.name}")
                        first[values[x]] = x
                if type(c) is AllDifferent:
                    continue            # its check is the one just made
            if not c.check(*vals):
                shown = [f"{name(x)}={values[x]}" for x in dict.fromkeys(cells)]
                return f"{', '.join(shown)} break{'s' if len(shown) == 1 else ''} {c.name}"
        return None

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
