"""Search by a CDCL SAT solver: the puzzle as CNF, solved with PySAT's Glucose or MiniSat.

Depth-first search (:mod:`csp.search`) learns nothing from its failures. Most puzzles do
not need it to, but a few variant puzzles with no givens and weak local rules do: "Solver
needs SET" (a boxless Latin square with 3-cell cages) is unique only through reasoning over
unions of rows and columns, and depth-first search with propagation did not prove its
uniqueness in hours. A conflict-driven clause-learning solver does it in seconds, so
``Puzzle.solve(method="auto")`` hands a search that outgrows a small node budget to this
module. Clause learning is what a SAT library does well, so it is not written here.

The encoding is generic over constraint specs:

* one variable per candidate ``(cell, digit)`` left after root propagation; exactly one
  digit per cell;
* each house (``Constraint.house()``): at most one cell per digit, and on a house of ``n``
  cells at least one (every digit appears);
* a binary :class:`~csp.constraints.Relation`: a clause per forbidden pair of digits;
* :class:`~csp.constraints.Element` (indexers): an implication per index digit;
* a killer cage (a :class:`~csp.constraints.Sum` or :class:`~csp.constraints.SumIn` of
  different digits): one selector per digit combination that fits (exactly one holds; a
  cell's digit needs a selected combination holding it; a selected combination's digits
  all appear), which the solver propagates better than a table of the cage's tuples;
* every other rule: a table of its scope's allowed tuples, enumerated with ``check`` when
  the scope's domains hold few enough tuples (``table_budget``); past that, the rule's
  :class:`~csp.constraints.Automaton` (sums and linear rules: partial sums; renban;
  sandwich, X-sum and skyscraper clues) as layers of reachable states, keeping only states
  from which the rule can still be satisfied. A rule with neither is checked *lazily*: each
  model the solver returns is checked against every rule, and a violated rule forbids
  exactly that tuple of its scope before the solver goes on. All of these are exact, so the
  solutions are those of the model.

"At most one" of a few literals is a clause per pair; of more than :data:`AMO_PAIRWISE`
(a cell or a house of a 16x16 grid and up) it is Chen's product encoding (the literals on
a grid of two smaller "at most one" groups: about ``2k + 4 sqrt(k)`` clauses instead of
``k (k - 1) / 2``; unit propagation infers the same). An empty 35x35 grid takes 0.5
million clauses instead of 2.9 million (150 MB instead of 610 MB, in a third of the time).

:func:`sat_search` runs within its :class:`~csp.budget.Budget`: the encoding is built in
steps that tick the budget and hands its clauses to the solver in batches as it goes, so
a time limit holds during the encoding too and the clauses are never all held in Python
lists at once.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(4)).add_grid_houses().givens("1.........2.....")
>>> _ = p.add_sum(["r1c2", "r1c3"], 5)
>>> sols, conflicts = sat_search(p, p.initial_state().cand, limit=10)
>>> len(sols), len(sols) == p.count_solutions(limit=10, method="search")
(3, True)
"""
from __future__ import annotations

import array
import collections
import itertools
import math
import operator
import threading
import time
import types
from typing import Any, Callable, Iterable, Sequence

from .bits import digits_of
from .budget import Budget
from .constraints import (AllDifferent, Automaton, ConsecutiveSet, Contains, Element,
                          FunctionConstraint, Linear, Relation, Sum, SumIn)
from .constraints.binary import _eq, _ne
from .constraints.function import outside_ends, strictly_between, triple_table
from .constraints import sums as _sums
from .constraints.sums import sum_combinations, sum_subsets
from .errors import NodeLimitExceeded, SudokuCSPError, TimeLimitExceeded
from .events import Contradiction
from .kernel import active
from .search import propagate_pure
# (csp.cnf_enum imports nothing of this module: imported here, not in each session)
from .cnf_enum import relation_supports

try:
    from . import _auto_kernel
except ImportError:  # not built (no C compiler): the pure-Python path
    _auto_kernel = None

__all__ = ["Encoding", "encode", "unpacked", "house_rules", "sat_search", "solve_limited", "SatUnavailable",
           "available", "SatSession", "cancel_check", "new_solver"]

#: the solver of a search without a time limit: Glucose 4.2
SOLVER = "glucose42"
#: the solver of every call that a deadline or a cancel may interrupt (:func:`sat_search`
#: with a time limit, :class:`SatSession`, the report's element checks): MiniSat 2.2 reads
#: an interrupt (and a conflict budget) at every decision. Glucose 4.1 and 4.2 read them only
#: when they restart, and they block restarts while the trail is long: on an empty 25x25
#: with a 17-cell cage both ran 100,000 conflicts (20-60 s) past an interrupt at 1 s, where
#: MiniSat finds a solution in 0.03 s; an empty 35x35 with a 17-cell cage, interrupted at
#: 0.5 s, stopped at 3.3 s. On the 136 setter puzzles MiniSat is within 5 % of Glucose
#: 4.2 (true candidates, counts, element checks)
TIMED_SOLVER = "minisat22"
#: the solver :class:`SatSession` sessions that list every solution (one call and one
#: blocking clause a solution) move to past :data:`ENUM_SWITCH` solutions: CaDiCaL 1.9.5
#: goes back less far between calls than Glucose and MiniSat, which start again from the
#: root (a sixth of MiniSat's propagations a solution; counting the 4,402 / 3,799 / 915 solutions of three variant puzzles: 0.35 / 0.47 /
#: 0.13 s against MiniSat 2.2's 0.43 / 0.53 / 0.17 s, Glucose's about 1.3 times MiniSat's);
#: PySAT cannot interrupt it, so its calls are budgeted (:data:`UNINTERRUPTIBLE`). Glucose
#: stays first: it proves the last "no more" of a hard setter puzzle faster
ENUM_SOLVER = "cadical195"
#: solutions listed on Glucose before :meth:`SatSession.switch` to :data:`ENUM_SOLVER`
#: (a new solver costs a few ms on a setter puzzle and saves 0.02-0.05 ms a call)
ENUM_SWITCH = 50
#: ... but only when Glucose needed at most this many conflicts a call for those: a puzzle
#: whose every next solution is a search of its own (Rapid Fire Crossbow without one rule
#: element: 64 conflicts a call, 59 solutions) goes on faster where Glucose has learnt
#: (its last 9 calls took 60 ms on MiniSat, which starts without those clauses); the
#: workbench's variants with hundreds to thousands of solutions take 2 to 15
ENUM_SWITCH_CONFLICTS = 20
#: PySAT's name -> (the attribute of its wrapper holding the C solver, the C module's
#: clause function), for :func:`new_solver`
_RAW = {"glucose42": ("glucose", "glucose421_add_cl"),
        "glucose4": ("glucose", "glucose41_add_cl"),
        "minisat22": ("minisat", "minisat22_add_cl"),
        "cadical195": ("cadical", "cadical195_add_cl")}
#: PySAT's name -> the prefix of its C module's functions (``<prefix>_solve_lim``,
#: ``<prefix>_model``), which :class:`SatSession` calls directly
_PREFIX = {"glucose42": "glucose421", "glucose4": "glucose41", "minisat22": "minisat22",
           "cadical195": "cadical195"}
#: solvers PySAT cannot interrupt: :class:`SatSession` gives each call this many conflicts
#: and checks its deadline and cancel between (a call past it goes on where it stopped,
#: its learnt clauses kept)
UNINTERRUPTIBLE = {"cadical195": 2000}
#: "at most one" of up to this many literals is a clause per pair; above, the product encoding
AMO_PAIRWISE = 12
#: clauses held before :func:`sat_search` hands them to the solver (bounds the memory of
#: a batch; not measured)
FLUSH_CLAUSES = 20_000
#: :meth:`Encoding.expanded` calls its ``check`` every this many "at most one" groups
#: written out as pairs (and between packed blocks)
EXPAND_CHECK = 256
#: tuples a rule's scope may hold to be encoded as a table (past it: the rule's automaton
#: or lazy check; from the first SAT version, not measured)
TABLE_BUDGET = 20_000
#: states an automaton encoding may have (past it: a lazy check; from the first SAT
#: version, not measured)
STATE_BUDGET = 50_000
#: the most cells a derived sum (:func:`derived_sums`) may have: a short one propagates
#: ("Deflation": one cell, 47 -> 12 ms, the kernel then finishes it), the house's other 5
#: to 8 cells of a killer puzzle mostly add clauses (up to twice the time without them)
DERIVED_CELLS = 4
#: the largest conflict budget PySAT takes (a C long); a larger limit is the same as none
MAX_BUDGET = 2 ** 63 - 1


class SatUnavailable(SudokuCSPError):
    """PySAT (the ``python-sat`` package) is not installed."""


def available() -> bool:
    """True when PySAT can be imported."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


class Encoding:
    """A CNF over candidate variables ``var(cell, digit) = cell * n + digit``; auxiliary
    variables follow ``size * n + n``. ``lazy`` lists the rules checked on each model.

    ``sink`` (a callable taking a list of clauses, e.g. a solver's ``append_formula``):
    :meth:`step` hands it the clauses made so far and empties :attr:`clauses` whenever
    more than :data:`FLUSH_CLAUSES` are held; without one every clause stays in
    :attr:`clauses`. ``budget``: :meth:`step` ticks it. ``packed`` (a compact encoding
    for the compiled enumerator): see :attr:`packed`."""

    def __init__(self, n: int, size: int, sink: Callable[[list[list[int]]], Any] | None = None,
                 budget: Budget | None = None, compact: bool = False,
                 packed: bool = False) -> None:
        self.n = n
        self.size = size
        self.top = size * n + n
        self.clauses: list[list[int]] = []
        self.lazy: list[Any] = []
        #: the candidate masks encoded: a candidate outside them has no clause, so
        #: :meth:`decode` reads only these
        self.cand: list[int] = []
        self.sink = sink
        self.budget = budget
        #: clauses made in all (those handed to the sink included)
        self.count = 0
        #: "at most one" of up to :data:`AMO_PAIRWISE` literals is kept as one tuple of
        #: those literals in :attr:`clauses` (the compiled enumerator of
        #: :mod:`csp.cnf_enum` reads it so; :meth:`expanded` writes the pairs out for a
        #: SAT solver, in the same place): a setter puzzle's houses and cells are over half
        #: of its encoding's time, almost all of it spent making the pairs' lists
        self.compact = compact
        #: the compiled clause writers (``csp._auto_kernel``, ``_linear_kernel``) append
        #: their clauses to :attr:`clauses` and :attr:`extra` as *packed blocks*: a
        #: ``bytearray`` of native ints, per clause a header (its length << 1, | 1 for an
        #: "at most one" group) and its literals (csp/_packed.h), which the compiled
        #: enumerator reads as it stands, where the lists cost a Python object a clause and
        #: a literal, made, read and freed ("Crawfish": 12,551 clauses a call). Consecutive
        #: writes share the block at the end (:meth:`out`); what Python writes stays lists
        #: and tuples between blocks, in order. :func:`unpacked` reads them back, the same
        #: lists and tuples in the same order as the encoding without ``packed``;
        #: :meth:`expanded` writes them out for a SAT solver. Only with ``compact``
        #: (without a sink or spans: the clauses are counted by the Python lists there)
        self.packed = packed and compact
        #: the packed blocks :meth:`out` / :meth:`xout` must not append to any more (the
        #: last ones when a rule's clauses were deferred, :meth:`seal`)
        self._sealed: tuple[Any, Any] = (None, None)
        #: clauses that follow from :attr:`clauses` (every model of those, restricted to
        #: the candidate variables, extends to a model of these) and help unit propagation:
        #: a compact encoding's automata list their supports here, which the compiled
        #: enumerator and :class:`SatSession`'s solver add (Glucose proves a setter puzzle
        #: with sum automata unique in about half the time: "Modular Nabner DA Coverage"
        #: 187 -> 100 ms, "Executive Function" 31 -> 18 ms)
        self.extra: list[list[int]] = []
        #: what the encodings of several rules share, by a key naming it: the sum
        #: literals of a group of different digits (:func:`_equal_sums`), the direction
        #: and order literals of a between line's ends (:func:`_between`)
        self.shared: dict[tuple[Any, ...], Any] = {}
        #: a compact encoding's rules the compiled enumerator propagates itself instead of
        #: by their clauses: ``(kind, seen, first, last, cells)`` for a skyscraper clue
        #: (kind 0, ``Automaton.native``) whose automaton's state variables are
        #: ``first..last``, or a renban (kind 1, seen 0) whose window selectors are
        #: (the enumerator leaves out every clause holding one of them)
        self.natives: list[tuple[int, int, int, int, tuple[int, ...]]] = []
        #: the clauses of such rules not written yet (a compact encoding without a sink:
        #: the compiled enumerator leaves them out anyway), each with where it goes in
        #: :attr:`clauses` and its variables (reserved): :meth:`materialize` writes them
        self.deferred: list[tuple[Any, ...]] = []
        #: extra clauses put in front of :attr:`extra` since (where the deferred go)
        self.extra_front = 0

    def var(self, cell: int, digit: int) -> int:
        return cell * self.n + digit

    def out(self) -> Any:
        """Where a compiled clause writer appends: with :attr:`packed`, the packed block at
        the end of :attr:`clauses` (a new one when the last clause is not one, or is a
        sealed block: :meth:`seal`); else :attr:`clauses` itself."""
        return self._writer(self.clauses, self._sealed[0])

    def xout(self) -> Any:
        """:meth:`out` for :attr:`extra`."""
        return self._writer(self.extra, self._sealed[1])

    def _writer(self, items: list[Any], sealed: Any) -> Any:
        if not self.packed:
            return items
        if items and type(items[-1]) is bytearray and items[-1] is not sealed:
            return items[-1]
        block = bytearray()
        items.append(block)
        return block

    def seal(self) -> None:
        """Close the packed blocks at the ends of :attr:`clauses` and :attr:`extra`: the
        compiled writers go on in new ones. A rule whose clauses are deferred calls it, so
        that the clauses written after it stay after the place :meth:`materialize` writes
        them (a place is an index of :attr:`clauses`, a block one item)."""
        self._sealed = (self.clauses[-1] if self.clauses else None,
                        self.extra[-1] if self.extra else None)

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def step(self, cost: int = 1) -> None:
        """A point where the encoding may stop (the budget is ticked, ``cost`` units of
        work since the last step: see :meth:`csp.budget.Budget.tick`) and hand its
        clauses to the sink."""
        if self.budget is not None:
            self.budget.tick("SAT encoding", cost)
        if self.sink is not None and len(self.clauses) >= FLUSH_CLAUSES:
            self.flush()

    def flush(self) -> None:
        """Hand the clauses held to the sink (nothing without one)."""
        if self.sink is not None and self.clauses:
            self.count += len(self.clauses)
            self.sink(self.clauses)
            self.clauses.clear()

    def at_most_one(self, lits: Sequence[int]) -> None:
        """At most one of ``lits`` is true: a clause per pair up to :data:`AMO_PAIRWISE`
        literals, else the product encoding (see the module docstring).

        >>> enc = Encoding(9, 81)
        >>> enc.at_most_one([1, 2, 3]); enc.clauses
        [[-1, -2], [-1, -3], [-2, -3]]
        >>> enc.clauses.clear(); enc.at_most_one(list(range(1, 36))); len(enc.clauses) < 595 // 4
        True
        """
        k = len(lits)
        if k <= AMO_PAIRWISE:
            if not self.compact:
                self.clauses.extend(map(list, itertools.combinations([-x for x in lits], 2)))
            elif k > 1:
                self.clauses.append(tuple(lits))
            return
        p = math.isqrt(k - 1) + 1          # rows: ceil(sqrt(k))
        q = -(-k // p)                     # columns
        kernel = active(_auto_kernel)
        if kernel is not None and type(lits) is list:
            # the pairs below in C (csp/_auto_kernel.c `product`: the same clauses in the
            # same order, a packed block in a packed encoding)
            first = self.top + 1
            self.top = kernel.product(self.out(), lits, self.top)
            self.at_most_one(list(range(first, first + p)))
            self.at_most_one(list(range(first + p, first + p + q)))
            return
        rows = [self.new_var() for _ in range(p)]
        cols = [self.new_var() for _ in range(q)]
        clauses = self.clauses
        for i, x in enumerate(lits):
            r, c = divmod(i, q)
            clauses.append([-x, rows[r]])
            clauses.append([-x, cols[c]])
        self.at_most_one(rows)
        self.at_most_one(cols)

    def materialize(self) -> list[Any]:
        """Write the clauses :attr:`deferred` left out, each where it would have stood
        (the same clauses, in the same order, with the same variables as written at once),
        and return :attr:`clauses`."""
        if self.deferred:
            kernel = _auto_kernel          # the one that deferred them (not switched off)
            clauses = self.clauses
            for item in reversed(self.deferred):
                if item[0] == "auto":      # a skyscraper's automaton (_automaton)
                    _, at, nc, at_x, nx, args, last = item
                    at_x += self.extra_front
                    part, part_x = [], []
                    top = kernel.layers(part, part_x, *args)
                    assert top == last, "a deferred automaton's states moved"
                    clauses[at:at + nc] = part              # around those written at once
                    self.extra[at_x:at_x + nx] = part_x
                    continue
                _, at, masks, bases, first, last, placed = item     # a renban
                part = []
                top = kernel.consecutive(part, masks, bases, self.n, first - 1)
                assert top == last and part[len(part) - placed:] == clauses[at:at + placed], \
                    "a deferred renban's clauses differ"
                clauses[at:at] = part[:len(part) - placed]   # before those written at once
            self.deferred = []
        return self.clauses

    def expanded(self, check: Callable[[], Any] | None = None) -> list[list[int]]:
        """The clauses, each "at most one" group of a compact encoding written out as a
        clause per pair where it stood (what a SAT solver takes); from then on the
        encoding is not compact. ``check`` (a caller's deadline or cancel: it raises to
        stop) is called between packed blocks and every :data:`EXPAND_CHECK` groups: on a
        big grid the pairs are millions of clauses (a 35x35 killer: 0.8 s), and a stop
        leaves the encoding as it was.

        >>> enc = Encoding(9, 81, compact=True)
        >>> enc.at_most_one([1, 2, 3]); enc.clauses.append([4, 5]); enc.clauses
        [(1, 2, 3), [4, 5]]
        >>> enc.expanded()
        [[-1, -2], [-1, -3], [-2, -3], [4, 5]]
        """
        self.materialize()
        if self.compact:
            out: list[list[int]] = []
            comb = itertools.combinations
            left = EXPAND_CHECK
            for c in self.clauses:
                if type(c) is tuple:
                    out.extend(map(list, comb([-x for x in c], 2)))
                    if check is not None:
                        left -= 1
                        if not left:
                            check()
                            left = EXPAND_CHECK
                elif type(c) is bytearray:         # a packed block, its groups as pairs
                    if check is not None:
                        check()
                    out.extend(_unpack_block(c, True))
                else:
                    out.append(c)
            self.clauses = out
            self.compact = self.packed = False
        return self.clauses

    def decode(self, model: Sequence[int]) -> list[int]:
        """Digits per cell from a model of the solver (a list of signed literals)."""
        true = {lit for lit in model if lit > 0}
        n = self.n
        return [next(d for d in digits_of(m) if c * n + d in true)
                for c, m in enumerate(self.cand)]


def unpacked(clauses: Iterable[Any]) -> Iterable[Any]:
    """The clauses of ``clauses`` with each packed block (:attr:`Encoding.packed`) read
    back into its lists and tuples ("at most one" groups), in order: what the writers
    append to a list.

    >>> block = bytearray(array.array("i", [4, 1, -2, 7, 3, 4, 5]).tobytes())
    >>> list(unpacked([[7], block, (8, 9)]))
    [[7], [1, -2], (3, 4, 5), (8, 9)]
    """
    for c in clauses:
        if type(c) is not bytearray:
            yield c
        else:
            yield from _unpack_block(c)


def _unpack_block(block: bytearray, pairs: bool = False) -> list[Any]:
    """A packed block's clauses as lists and tuples, in order; with ``pairs``, each group
    as its pairwise clauses (:meth:`Encoding.expanded`). Read by the compiled
    ``csp._auto_kernel.unpack`` where it is built (the SAT path's set-up of a setter
    puzzle unpacks tens of thousands of clauses), this loop its reference and fallback."""
    kernel = active(_auto_kernel)
    if kernel is not None:
        return kernel.unpack(block, pairs)
    a = array.array("i")
    a.frombytes(block)
    vals = a.tolist()
    out: list[Any] = []
    i, end = 0, len(vals)
    while i < end:
        h = vals[i]
        j = i + 1 + (h >> 1)
        if not h & 1:
            out.append(vals[i + 1:j])
        elif pairs:
            out.extend(map(list, itertools.combinations([-x for x in vals[i + 1:j]], 2)))
        else:
            out.append(tuple(vals[i + 1:j]))
        i = j
    return out


def _cells_and_houses(enc: Encoding, cand: list[int]) -> None:
    """Exactly one candidate per cell. Variables of removed candidates get no clause at all
    (no rule mentions them either, and :meth:`Encoding.decode` ignores them): on a 25x25
    grid that saves half the clauses."""
    enc.cand = list(cand)
    clauses, n = enc.clauses, enc.n
    if enc.compact and n <= AMO_PAIRWISE:      # every group a tuple: no call a cell
        kernel = active(_auto_kernel)
        if kernel is not None:                 # the same clauses, written in C
            kernel.cells(enc.out(), enc.cand, n)
            enc.step()
            return
        add = clauses.append
        for base, m in zip(range(0, len(cand) * n, n), cand):
            lits = [base + d for d in digits_of(m)]
            add(lits)
            if len(lits) > 1:
                add(tuple(lits))
        enc.step()
        return
    amo = enc.at_most_one
    for c, m in enumerate(cand):
        lits = [c * n + d for d in digits_of(m)]
        clauses.append(lits)
        amo(lits)
        enc.step()


def _house(enc: Encoding, cand: list[int], cells: Sequence[int]) -> None:
    clauses, n = enc.clauses, enc.n
    if enc.compact and n <= AMO_PAIRWISE and type(cand) is list:
        kernel = active(_auto_kernel)
        if kernel is not None:                 # the loop below, in C (csp/_auto_kernel.c)
            kernel.house(enc.out(), cand, cells, n)
            enc.step()
            return
    cells = sorted(set(cells))
    full = len(cells) == n
    amo = enc.at_most_one
    if enc.compact and n <= AMO_PAIRWISE:      # the same clauses, fewer steps: each
        add = clauses.append                   # cell's digits once (root propagation
        lists: list[list[int]] = [[] for _ in range(n + 1)]   # left few), not n passes
        for c in cells:
            base = c * n
            for d in digits_of(cand[c]):
                lists[d].append(base + d)
        for has in lists[1:]:
            if len(has) > 1:
                add(tuple(has))
            if full:
                add(has)
        enc.step()
        return
    if enc.compact:                            # the same clauses, fewer calls
        add = clauses.append
        masks = [(c * n, cand[c]) for c in cells]
        for d in range(1, n + 1):
            bit = 1 << d
            has = [base + d for base, m in masks if m & bit]
            if len(has) > AMO_PAIRWISE:
                amo(has)
            elif len(has) > 1:
                add(tuple(has))
            if full:
                add(has)
        enc.step()
        return
    for d in range(1, n + 1):
        has = [c * n + d for c in cells if cand[c] >> d & 1]
        amo(has)
        if full:
            clauses.append(has)
        enc.step()


def _relation(enc: Encoding, cand: list[int], con: Relation) -> None:
    a, b, pred = con.a, con.b, con.pred
    if pred is not _eq and type(enc.clauses) is list and type(cand) is list and enc.n <= 62:
        kernel = active(_auto_kernel)
        if kernel is not None:         # the same clauses, written in C
            kernel.forbidden(enc.out(), a, b, con.tables(enc.n)[0], cand, enc.n)
            return
    na, nb = a * enc.n, b * enc.n
    if pred is _ne:                    # different digits: only the shared ones clash
        enc.clauses.extend([-(na + v), -(nb + v)] for v in digits_of(cand[a] & cand[b]))
        return
    if pred is _eq:
        # one digit (palindromes, a region-sum line's one-cell segments): a digit of one
        # cell is the other's, two implications a digit (what its supports say), where the
        # forbidden pairs were n (n - 1) clauses that the supports and the cells' "one
        # digit" made unit propagation infer anyway (the workbench's palindrome puzzles:
        # true candidates about 0.5 ms less a call)
        ma, mb = cand[a], cand[b]
        both = ma & mb
        enc.clauses.extend([-(na + v), nb + v] for v in digits_of(both))
        enc.clauses.extend([na + v, -(nb + v)] for v in digits_of(both))
        enc.clauses.extend([-(na + v)] for v in digits_of(ma & ~both))
        enc.clauses.extend([-(nb + v)] for v in digits_of(mb & ~both))
        return
    sup_a = con.tables(enc.n)[0]       # per digit of a, the digits of b it goes with
    mb = cand[b]
    enc.clauses.extend([-(na + v), -(nb + w)] for v in digits_of(cand[a])
                       for w in digits_of(mb & ~sup_a[v]))


def _automaton(enc: Encoding, cand: list[int], cells: Sequence[int], auto: Automaton,
               budget: int) -> bool:
    """Encode an automaton read along ``cells``: layer ``i`` has a variable per state after
    ``i`` cells that some digits reach and from which an accepted end is still reachable;
    a digit that leads elsewhere is forbidden from that state. The first layer is the start
    (true). False (nothing added) when the layers hold more than ``budget`` states."""
    doms = [digits_of(cand[c]) for c in cells]
    k = len(cells)
    kernel = active(_auto_kernel)
    if auto.native is not None and kernel is not None and enc.n <= 62 and k:
        # the layers stepped in C (csp/_auto_kernel.c `forward`: the same states, numbered
        # the same, without a call of `step` a transition: "Crawfish", six skyscraper
        # clues, 2.4 -> 0.7 ms), up to AUTO_KERNEL_STATES states (no tick in between)
        layers = kernel.forward(auto.native, doms, min(budget, AUTO_KERNEL_STATES))
        if layers is None and budget <= AUTO_KERNEL_STATES:
            return False                      # more states than the budget
        if layers is not None:
            enc.step()
            if not layers[1]:
                enc.clauses.append([])        # no digits satisfy the rule
                return True
            if auto.distinct:
                _house(enc, cand, cells)
            n = enc.n
            first = enc.top + 1
            args = (doms, layers[0], None, [c * n for c in cells], [cand[c] for c in cells],
                    n, enc.top, enc.compact, enc.compact and auto.distinct and k > 1,
                    PROJECTION_WORK)
            native = (enc.compact and auto.distinct and auto.native[0] == "skyscraper"
                      and 1 <= auto.native[1] <= 15 and k <= n and len(set(cells)) == k)
            if native and SKY_DEFER and enc.sink is None:
                # the compiled enumerator propagates it itself (csp.cnf_enum.NATIVES): only
                # its clauses without a state are written now, the rest where they stand
                # once something reads every clause (Encoding.materialize); they go to
                # the clause lists as lists, also when packed, so that their places are
                # the lists' indices
                at, at_x = len(enc.clauses), len(enc.extra)
                enc.top = kernel.layers(enc.clauses, enc.extra, *args, enc.top)
                enc.seal()
                enc.deferred.append(("auto", at, len(enc.clauses) - at,
                                     at_x - enc.extra_front, len(enc.extra) - at_x,
                                     args, enc.top))
            else:
                enc.top = kernel.layers(enc.out(), enc.xout(), *args)
            if native:
                enc.natives.append((0, auto.native[1], first, enc.top, tuple(cells)))
            enc.step()
            return True
    step = auto.step
    # the states after each cell are numbered in the order first reached (the start is
    # 0): the passes below hash small integers, not the automaton's states
    states: list[Any] = [auto.start]
    # per layer, per state: the state after each of the cell's digits, in the digits'
    # order (None: the rule fails); each step is asked once (the passes below read these)
    trans: list[list[list[int | None]]] = []
    count = 0
    for i in range(k):
        di = doms[i]
        ids: dict[Any, int] = {}
        setdefault = ids.setdefault
        ti = []
        for s in states:
            ti.append([None if t is None else setdefault(t, len(ids))
                       for t in [step(i, s, d) for d in di]])
        count += len(ids)
        if count > budget:
            return False
        trans.append(ti)
        enc.step(len(states) * len(di))      # the layer's transitions (a read per layer)
        states = list(ids)
    live: list[set[Any]] = [set() for _ in range(k + 1)]
    accept = auto.accept
    live[k] = {j for j, s in enumerate(states) if accept(s)}
    for i in range(k - 1, -1, -1):
        after = live[i + 1]                   # None is never in it
        live[i] = {s for s, ts in enumerate(trans[i]) if not after.isdisjoint(ts)}
        enc.step(len(trans[i]))
    clauses = enc.clauses
    if 0 not in live[0]:
        clauses.append([])                 # no digits satisfy the rule
        return True
    if auto.distinct:
        _house(enc, cand, cells)
    if not k:
        return True
    # a compact encoding (the compiled enumerator's) also gets the supports of each layer
    # (Encoding.extra): unit propagation then goes backwards along the automaton too
    sup, extra = enc.compact, enc.extra
    n = enc.n
    append = clauses.append
    top = enc.top                             # the new variables (enc.new_var, inlined)
    #: per layer, the states' variables, for the projection clauses (:func:`_projections`)
    project: list[dict[Any, int]] | None = [] if sup and auto.distinct and k > 1 else None
    if kernel is not None and n <= 62 and count <= AUTO_KERNEL_STATES:
        # the loops below and the projections in C (csp/_auto_kernel.c): the same clauses,
        # extra clauses and variables in the same order, a sixth of the time ("Crawfish",
        # six skyscraper clues); without a tick, so only up to AUTO_KERNEL_STATES states
        enc.top = kernel.layers(enc.out(), enc.xout(), doms, trans, live, [c * n for c in cells],
                                [cand[c] for c in cells], n, enc.top, sup,
                                project is not None, PROJECTION_WORK)
        enc.step()
        return True
    # the first cell, from the start (true): a digit into a dead state is forbidden, any
    # other leads to its state's variable (the later layers' loop below, with the start's
    # literal left out of each clause; the same clauses in the same order as one loop)
    base = cells[0] * n
    after = live[1]
    nxt: dict[int, int] = {}
    into: dict[int, int] = {}                 # state -> the digits leading to it
    dead: list[int] = []
    for d, t in zip(doms[0], trans[0][0]):
        x = base + d
        if t not in after:
            append([-x])
            dead.append(x)
            continue
        if k == 1:
            continue
        tv = nxt.get(t)
        if tv is None:
            top += 1
            tv = nxt[t] = top
            into[t] = 1 << d
        else:
            into[t] |= 1 << d
        append([-x, tv])
    enc.top = top
    enc.step()
    if sup:
        for t, tv in nxt.items():             # a state needs a digit before it
            extra.append([-tv] + [base + d for d in digits_of(into[t])])
        if nxt:                               # some state holds after each cell
            extra.append(list(nxt.values()))
        extra.extend([[-x] for x in dead])    # a digit needs a state it goes on from
        if project is not None:
            project.append(nxt)
    layer = nxt
    last = k - 1
    for i in range(1, k):
        nxt = {}
        base = cells[i] * n
        after = live[i + 1]
        ti = trans[i]
        di = doms[i]
        get = nxt.get
        end = i == last
        if not sup:         # the loop below without its supports' bookkeeping (the hot case)
            for s, sv in layer.items():
                nsv = -sv
                for d, t in zip(di, ti[s]):
                    x = base + d
                    if t not in after:
                        append([nsv, -x])
                        continue
                    if end:
                        continue
                    tv = get(t)
                    if tv is None:
                        top += 1
                        tv = nxt[t] = top
                    append([nsv, -x, tv])
            enc.top = top
            enc.step(len(layer) * len(di))
            layer = nxt
            continue
        preds: dict[int, list[int]] = {}      # state -> [-its variable, the states into it]
        into = {}
        from_ = [[-(base + d)] for d in range(n + 1)]   # digit -> [-it, states it leaves]
        for s, sv in layer.items():
            nsv = -sv
            ok = [nsv]                        # a state needs a digit that goes on from it
            for d, t in zip(di, ti[s]):
                x = base + d
                if t not in after:
                    append([nsv, -x])
                    continue
                ok.append(x)
                from_[d].append(sv)
                if end:
                    continue
                tv = get(t)
                if tv is None:
                    top += 1
                    tv = nxt[t] = top
                    preds[t] = [-tv, sv]
                    into[t] = 1 << d
                else:
                    ps = preds[t]
                    if ps[-1] != sv:         # a state's digits into t come one after another
                        ps.append(sv)
                    into[t] |= 1 << d
                append([nsv, -x, tv])
            extra.append(ok)
        enc.top = top
        enc.step(len(layer) * len(di))
        # a state needs a state and a digit before it (the layer's variables rise in its
        # order, so each state's list of states before it is sorted already)
        for t, tv in nxt.items():
            extra.append(preds[t])
            extra.append([-tv] + [base + d for d in digits_of(into[t])])
        if nxt:                               # some state holds after each cell
            extra.append(list(nxt.values()))
        for d in di:                          # a digit needs a state it goes on from
            extra.append(from_[d])
        if project is not None:
            project.append(nxt)
        layer = nxt
    if project is not None and sum(len(project[i - 1]) * (k - i)
                                   for i in range(1, k)) <= PROJECTION_WORK:
        _projections(enc, cand, cells, doms, trans, live, project)
    return True


#: the automata of at most this many states have their clauses written by the compiled
#: kernel (``csp/_auto_kernel.c``, which reads no deadline: a few milliseconds at most)
AUTO_KERNEL_STATES = 20_000


#: the projection clauses of one automaton are written only while its states times the
#: cells after them stay at most this many: they only help propagation (the solutions are
#: the same), their writing is not interrupted by a deadline, and on a big grid they cost
#: more than they save ("Trollscraper", 9x9: 566 at most; an X-sum clue on a 25x25:
#: 235,131, 0.7 s of CPU that a time limit of 1 s could not stop)
PROJECTION_WORK = 20_000


def _projections(enc: Encoding, cand: list[int], cells: Sequence[int],
                 doms: list[tuple[int, ...]], trans: list[list[list[int | None]]],
                 live: list[set[int]], layers: list[dict[int, int]]) -> None:
    """The projection clauses of an automaton of different digits (skyscraper, sandwich
    and X-sum clues), into ``enc.extra``: a state after ``i`` cells allows in each later
    cell only the digits of some path from it to an accepted end, a binary clause for
    every other candidate. A solution's own path satisfies them, so the solutions are
    the same; unit propagation then reads what a state says about the rest of the line,
    which the layer supports leave to the search ("Trollscraper", 24 skyscraper clues:
    true candidates 177 -> 141 ms, its count 198 -> 153 ms; the digits before a state as
    well, three times the clauses, did no better). ``layers[i]``: state -> variable after
    ``i + 1`` cells; ``trans[i][s]``: the states after each digit of ``doms[i]``. The
    paths' digits are one integer per state, ``n + 1`` bits a cell."""
    n, k = enc.n, len(cells)
    w = n + 1
    # every later cell's candidates at once, ``w`` bits a cell as the paths; a bit's
    # position -> its candidate's variable
    every = 0
    lit = [0] * (k * w)
    for j, c in enumerate(cells):
        every |= cand[c] << (j * w)
        for d in range(1, w):
            lit[j * w + d] = c * n + d
    suf: dict[Any, int] = {t: 0 for t in live[k]}  # state -> the digits after it
    append = enc.extra.append
    for i in range(k - 1, 0, -1):
        cur: dict[Any, int] = {}
        shift = i * w
        ti = trans[i]
        bits = [1 << (shift + d) for d in doms[i]]
        get = suf.get
        layer = layers[i - 1]
        for s in layer:
            m = 0
            for b, t in zip(bits, ti[s]):
                after = get(t)                # None: a dead state (or none)
                if after is not None:
                    m |= after | b
            cur[s] = m
        suf = cur
        later = every >> shift << shift
        for t, tv in layer.items():
            out = later & ~suf[t]         # in the cells' order, each cell's digits rising
            ntv = -tv
            while out:
                low = out & -out
                append([ntv, -lit[low.bit_length() - 1]])
                out ^= low


def _cage(enc: Encoding, cand: list[int], cells: Sequence[int], totals: Sequence[int],
          budget: int) -> bool:
    """A cage of different digits adding up to one of ``totals`` (its house is encoded
    apart): exactly one digit set (combination) is chosen, each cell's digit belongs to it
    and each of its digits appears. False (nothing added) past ``budget`` combinations."""
    union = 0
    for c in cells:
        union |= cand[c]
    digits = digits_of(union)
    combos: list[tuple[int, ...]] = []
    n = enc.n
    # up to 12 digits, the combinations of 1..n of a total are a shared table
    # (sum_combinations): those of the cage's digits in the same order as sum_subsets
    table = n <= 12 and not union & ~(((1 << n) - 1) << 1)
    for t in sorted(set(totals)):
        if table:
            limit = budget - len(combos)
            found = [m for m in sum_combinations(n, len(cells), t) if not m & ~union]
            if found and len(found) > limit:
                return False
        else:
            found = sum_subsets(digits, len(cells), t, budget - len(combos))
            if found is None:
                return False
        combos.extend(digits_of(m) for m in found)
    var, clauses = enc.var, enc.clauses
    sel = list(range(enc.top + 1, enc.top + 1 + len(combos)))     # new variables
    enc.top += len(combos)
    clauses.append(sel)
    enc.at_most_one(sel)
    kernel = active(_sums._linear_kernel)
    if kernel is not None and sel and type(clauses) is list and kernel.cage(
            enc.out(), [c * enc.n for c in cells], [cand[c] for c in cells], combos,
            sel[0]) is not None:
        return True                    # the loops below in C: the same clauses, in order
    for c in cells:
        for d in digits_of(cand[c]):
            clauses.append([-var(c, d)] + [s for s, combo in zip(sel, combos) if d in combo])
    for s, combo in zip(sel, combos):
        for d in combo:
            clauses.append([-s] + [var(c, d) for c in cells if cand[c] >> d & 1])
    return True


def _sum_sides(con: Any) -> tuple[list[int], list[int]] | None:
    """The cells of coefficient +1 and of -1 of a :class:`Linear` with only those
    coefficients, total 0 and no cell twice (``sum(A) == sum(B)``), else None."""
    if type(con) is not Linear or con.total != 0 or len(set(con.cells)) != len(con.cells):
        return None
    sides: tuple[list[int], list[int]] = ([], [])
    for c, a in zip(con.cells, con.coeffs):
        if a == 1:
            sides[0].append(c)
        elif a == -1:
            sides[1].append(c)
        else:
            return None
    return sides if sides[0] and sides[1] else None


def _equal_sums(enc: Encoding, cand: list[int], con: Any, peers: Any, budget: int,
                table_budget: int = TABLE_BUDGET) -> bool:
    """``sum(A) == sum(B)`` (a :class:`Linear` of coefficients +1 on ``A`` and -1 on
    ``B``, total 0: the segments of a region-sum line), where each side's cells must hold
    different digits (``peers``): each side's sum is one of a set of literals, one per
    total it can reach, which both sides share, so a line of many segments has one sum
    every segment reads (:attr:`Encoding.shared`). A side of one cell is its digit; a
    side of more cells chooses one digit combination (a selector each, exactly one: a
    cell's digit needs a chosen combination holding it, a chosen combination needs each
    of its digits in some cell and each cell on one of its digits) whose total is the
    sum's. Taken when a side is also a side of another such rule (a region-sum line of
    three segments or more, whose segments were tables or automata of partial sums per
    pair of neighbouring segments, which unit propagation reads pair by pair) or when the
    scope holds more than ``table_budget`` tuples (an automaton otherwise); a rule alone
    (an arrow) stays a table, which also knows the peers across its sides. False
    (nothing added) when the rule is not of that form, is not taken or a side has more
    than ``budget`` combinations."""
    if type(con) is not Linear:
        return False
    shared = enc.shared
    groups = shared.get(("sum-groups",))
    if groups is None:                 # how many such rules each group is a side of
        groups = {}
        # (each such rule's sides and their groups, read once here)
        got: dict[int, tuple[Any, tuple[tuple[int, ...], ...]]] = {}
        for other in peers.puzzle.constraints:
            if type(other) is Linear and (both := _sum_sides(other)) is not None:
                keys = (tuple(sorted(both[0])), tuple(sorted(both[1])))
                got[id(other)] = (both, keys)
                for key in keys:
                    groups[key] = groups.get(key, 0) + 1
        shared[("sum-groups",)] = groups
        shared[("sum-sides",)] = got
    hit = shared[("sum-sides",)].get(id(con))
    if hit is not None:
        sides, side_keys = hit
    else:
        sides = _sum_sides(con)
        if sides is None:
            return False
        side_keys = (tuple(sorted(sides[0])), tuple(sorted(sides[1])))
    if groups.get(side_keys[0], 0) < 2 and groups.get(side_keys[1], 0) < 2:
        total = 1
        for c in con.cells:
            total *= len(digits_of(cand[c]))
        if total <= table_budget:
            return False
    # each side's combinations and their totals, or False (cells that may repeat a digit,
    # or past ``budget``): kept by the side's cells for the encoding's other rules (a
    # region-sum line's middle segment is a side of two); the same whatever the cells'
    # order (a combination is a set of digits, each cell with a candidate in it)
    per: list[tuple[list[tuple[int, ...]], list[int]]] = []
    for cells, key in zip(sides, side_keys):
        mk = ("sum-combos", key, budget)
        side = shared.get(mk)
        if side is None:
            side = False
            for i, c in enumerate(cells):
                mates = peers[c]
                if any(d not in mates for d in cells[i + 1:]):
                    break
            else:
                cs = _sum_combos(cand, cells, budget)
                if cs is not None:
                    side = (cs, list(map(sum, cs)))
            shared[mk] = side
        if side is False:
            return False
        per.append(side)
    memo = enc.shared
    keys = [("sum",) + key for key in side_keys]
    have = [memo.get(keys[0]), memo.get(keys[1])]
    if have[0] is None and have[1] is None:
        # only the totals both sides reach: a combination of the first side whose total
        # the other never reaches is in no solution (its selector and sum literal were
        # made, then set false at the root: 12 of the 28 pairs of an arrow on a circle
        # that other arrows share, "Sistine Hippos")
        reach = [set(digits_of(cand[cells[0]])) if len(cells) == 1 else set(sums)
                 for cells, (_, sums) in zip(sides, per)]
        common = reach[0] & reach[1]
        cs, sums = per[0]
        keep = [v in common for v in sums]
        have[0] = memo[keys[0]] = _sum_side(enc, cand, sides[0],
                                            list(itertools.compress(cs, keep)), None,
                                            list(itertools.compress(sums, keep)))
    if have[0] is None or have[1] is None:
        i = 0 if have[0] is None else 1
        memo[keys[i]] = _sum_side(enc, cand, sides[i], per[i][0], have[1 - i], per[i][1])
        return True
    la, lb = have                      # both sums known already: equal, total by total
    clauses = enc.clauses
    for v in sorted(set(la) | set(lb)):
        x, y = la.get(v), lb.get(v)
        if x is None or y is None:
            clauses.append([-(x or y)])
        elif x != y:
            clauses.append([-x, y])
            clauses.append([x, -y])
    return True


def _sum_combos(cand: list[int], cells: Sequence[int],
                budget: int) -> list[tuple[int, ...]] | None:
    """The sets of different digits one per cell of ``cells`` may hold (each cell with a
    candidate in it), or None past ``budget`` of them (one cell: None, its digit is the
    sum)."""
    if len(cells) == 1:
        return []
    union = 0
    for c in cells:
        union |= cand[c]
    digits = digits_of(union)
    if math.comb(len(digits), len(cells)) > 20 * budget:
        return None                    # (a long segment of a big grid: not enumerated)
    masks = [cand[c] for c in cells]
    kernel = active(_sums._linear_kernel)
    if kernel is not None:             # the loop below in C: the same tuples in order
        found = kernel.sum_combos(masks, budget)
        if found is not None:
            return found if found != () else None
    out = []
    k = len(cells)
    # the combinations of the digits and of their bits side by side (the same order)
    for combo, bits in zip(itertools.combinations(digits, k),
                           itertools.combinations([1 << d for d in digits], k)):
        m = sum(bits)
        if all(map(m.__and__, masks)):
            out.append(combo)
            if len(out) > budget:
                return None
    return out


def _sum_side(enc: Encoding, cand: list[int], cells: Sequence[int],
              combos: list[tuple[int, ...]], lits: dict[int, int] | None,
              totals: list[int] | None = None) -> dict[int, int]:
    """Encode one side of :func:`_equal_sums` (``combos``: :func:`_sum_combos`, and
    ``totals`` their totals when known) onto the sum literals ``lits`` (total -> literal;
    None: new ones, "at most one" of them), and return the side's sum literals."""
    clauses, n = enc.clauses, enc.n
    if len(cells) == 1:
        c = cells[0]
        base = c * n
        own = {v: base + v for v in digits_of(cand[c])}
        if lits is None:
            return own
        for v in sorted(set(own) | set(lits)):
            x, y = own.get(v), lits.get(v)
            if x is None or y is None:
                clauses.append([-(x or y)])
            else:
                clauses.append([-x, y])
                clauses.append([x, -y])
        return lits
    if totals is None:
        totals = list(map(sum, combos))
    if lits is not None:
        keep = list(map(lits.__contains__, totals))
        if not all(keep):
            combos = list(itertools.compress(combos, keep))
    else:
        lits = dict.fromkeys(totals, 0)     # the totals in the order first reached
        for v in sorted(lits):
            lits[v] = enc.new_var()
        if len(lits) > 1:
            enc.at_most_one(list(lits.values()))
    sel = list(range(enc.top + 1, enc.top + 1 + len(combos)))     # new variables
    enc.top += len(combos)
    clauses.append(sel)
    enc.at_most_one(sel)
    add = clauses.append
    masks = [cand[c] for c in cells]
    bases = [c * n for c in cells]
    kernel = active(_sums._linear_kernel)
    if kernel is not None and sel and type(clauses) is list:
        # the loops below in C (csp/constraints/_linear_kernel.c `sum_side`: the same
        # clauses in the same order; a region-sum line's three cells and 84 combinations
        # were 0.3 ms)
        order = list(lits)
        if kernel.sum_side(enc.out(), bases, masks, combos, sel[0], order,
                           [lits[v] for v in order]) is not None:
            return lits
    has: dict[int, list[int]] = {}     # digit -> the cells' literals holding it
    per_sum: dict[int, list[int]] = {v: [] for v in lits}
    per_digit: dict[int, list[int]] = {}
    for s, t in zip(sel, combos):
        v = sum(t)
        per_sum[v].append(s)
        add([-s, lits[v]])
        m = 0
        for d in t:
            m |= 1 << d
            per_digit.setdefault(d, []).append(s)
            h = has.get(d)
            if h is None:
                h = has[d] = [b + d for b, x in zip(bases, masks) if x >> d & 1]
            add([-s] + h)
        for b, x in zip(bases, masks):  # each cell on a digit of the combination (implied)
            add([-s] + [b + d for d in digits_of(x & m)])
    for v, ss in per_sum.items():
        add([-lits[v]] + ss)
    for b, x in zip(bases, masks):
        for d in digits_of(x):
            add([-(b + d)] + per_digit.get(d, []))
    return lits


def _order_lits(enc: Encoding, cand: list[int], cell: int) -> list[Any]:
    """Order literals of ``cell``'s digit: ``ge[v]`` (v = 0 .. n + 2) is true when the
    digit is at least ``v``: True up to its lowest candidate, False above its highest, a
    new variable in between, tied to the candidate variables (each candidate sets them
    all by unit propagation, and they leave the candidates they rule out)."""
    n, m = enc.n, cand[cell]
    kernel = active(_auto_kernel)
    if kernel is not None and n <= 62 and m > 1 and not m & 1:
        # the same literals and clauses in C (csp/_auto_kernel.c `order`; a packed block
        # in a packed encoding)
        ge, enc.top = kernel.order(enc.out(), m, cell * n, n, enc.top)
        return ge
    lo, hi = (m & -m).bit_length() - 1, m.bit_length() - 1
    ge: list[Any] = [True] * (lo + 1) + [False] * (n + 2 - lo)
    for v in range(lo + 1, hi + 1):
        ge[v] = enc.new_var()
    clauses, base = enc.clauses, cell * n
    for v in range(lo + 1, hi + 1):
        x = ge[v]
        if v - 1 > lo:
            clauses.append([-x, ge[v - 1]])          # at least v: at least v - 1
        nxt = ge[v + 1]
        clause = [-x]
        if m >> v & 1:
            clause.append(base + v)
        if nxt is not False:
            clause.append(nxt)
        clauses.append(clause)                       # at least v: v, or at least v + 1
    for d in digits_of(m):
        if d > lo:
            clauses.append([-(base + d), ge[d]])
        if ge[d + 1] is not False:
            clauses.append([-(base + d), -ge[d + 1]])
    return ge


def _or3(add: Callable[[list[int]], Any], a: int, y: Any, z: Any) -> None:
    """``add`` the clause ``a or y or z``, where ``y`` and ``z`` may be the constants
    True / False of :func:`_order_lits` (none when one is True, a False one left out)."""
    if y is True or z is True:
        return
    if y is False:
        add([a] if z is False else [a, z])
    elif z is False:
        add([a, y])
    else:
        add([a, y, z])


def _neg(x: Any) -> Any:
    return (not x) if type(x) is bool else -x


def _line_group(peers: Any, mids: list[int], c: int) -> list[int]:
    """The middle cell ``c`` of a between or lockout line and the line's middle cells
    written before it that see ``c`` and each other (all must differ); records ``c``
    among the written ones."""
    group = [c]
    for m in mids:
        if all(m in peers[o] for o in group):
            group.append(m)
    mids.append(c)
    return group


def _between(enc: Encoding, cand: list[int], con: Any, peers: Any) -> bool:
    """A cell of a between line (:func:`csp.constraints.function.strictly_between` of the
    ends ``a``, ``b`` and the cell ``c``): a direction literal per line (``a < b``) and
    order literals of the two ends (:func:`_order_lits`), shared by the line's cells; the
    cell's digit ``v`` needs ``a < v < b`` in one direction and ``b < v < a`` in the
    other. The ends also lie at least ``g + 1`` apart, ``g`` the most cells of the line
    seen so far that must all differ (``peers``) with ``c`` among them: those need ``g``
    digits strictly between. A table of forbidden triples per cell propagated a cell
    only once both ends were decided. False when ``con`` is not such a cell."""
    if type(con) is not FunctionConstraint or con.pred is not strictly_between \
            or con.distinct or len(set(con.cells)) != 3:
        return False
    a, b, c = con.cells
    key = ("between", a, b)
    ends = enc.shared.get(key)
    if ends is None:
        up = enc.new_var()
        ga, gb = _order_lits(enc, cand, a), _order_lits(enc, cand, b)
        ends = enc.shared[key] = (up, ga, gb, [_neg(x) for x in ga], [_neg(x) for x in gb],
                                  [])
    up, ga, gb, nga, ngb, mids = ends
    n = enc.n
    base = c * n
    group = _line_group(peers, mids, c)
    g = len(group)
    kernel = active(_auto_kernel)
    if kernel is not None and n <= 62:
        # the loops below in C (csp/_auto_kernel.c `line`: the same clauses in the same
        # order, a packed block in a packed encoding)
        kernel.line(enc.out(), 0, cand[c], base, n, ga, gb, up, g)
        return True
    add = enc.clauses.append
    for v in digits_of(cand[c]):
        x = -(base + v)
        _or3(add, x, -up, nga[v])
        _or3(add, x, -up, gb[v + 1])
        _or3(add, x, up, ngb[v])
        _or3(add, x, up, ga[v + 1])
    for v in range(1, n + 1):
        w = min(v + g + 1, n + 1)
        _or3(add, -up, nga[v], gb[w])
        _or3(add, up, ngb[v], ga[w])
    return True


def _lockout(enc: Encoding, cand: list[int], con: Any, peers: Any) -> bool:
    """A cell of a lockout line (:func:`csp.constraints.function.outside_ends` of the ends
    ``a``, ``b`` and the cell ``c``) on the order literals of the two ends
    (:func:`_order_lits`), shared by the line's cells: the cell's digit ``v`` needs ``a >
    v`` or ``b < v`` (not ``a <= v <= b``) and ``b > v`` or ``a < v`` (not ``b <= v <=
    a``), and differs from both ends (unless a house says so already). The ends also lie
    at most ``n - 1 - g`` apart, ``g`` the most cells of the line seen so far that must
    all differ (``peers``) with ``c`` among them: those need ``g`` digits outside the
    ends. Unit propagation prunes a cell once the ends' ranges lie apart (ISS's lockout
    handler does that too) and bounds an end once the cell and the other end are placed;
    a table of forbidden triples per cell acted only on two of the three placed. False
    when ``con`` is not such a cell."""
    if type(con) is not FunctionConstraint or con.pred is not outside_ends \
            or con.distinct or len(set(con.cells)) != 3:
        return False
    a, b, c = con.cells
    n = enc.n
    add = enc.clauses.append
    key = ("lockout", a, b)
    ends = enc.shared.get(key)
    if ends is None:
        ga, gb = _order_lits(enc, cand, a), _order_lits(enc, cand, b)
        ends = enc.shared[key] = (ga, gb, [_neg(x) for x in ga], [_neg(x) for x in gb], [])
    ga, gb, nga, ngb, mids = ends
    base, mc = c * n, cand[c]
    group = _line_group(peers, mids, c)
    kernel = active(_auto_kernel)
    if kernel is not None and n <= 62:
        # the loops below in C (csp/_auto_kernel.c `line`: the same clauses in the same
        # order, a packed block in a packed encoding)
        kernel.line(enc.out(), 1, mc, base, n, ga, gb, 0, len(group),
                    a * n, 0 if c in peers[a] else mc & cand[a],
                    b * n, 0 if c in peers[b] else mc & cand[b])
        return True
    for v in digits_of(mc):
        x = -(base + v)
        _or3(add, x, ga[v + 1], ngb[v])
        _or3(add, x, gb[v + 1], nga[v])
    for e in (a, b):                   # not an end's digit
        if c not in peers[e]:
            for v in digits_of(mc & cand[e]):
                add([-(base + v), -(e * n + v)])
    span = n - 1 - len(group)          # the ends lie at most this far apart
    if span < 0:
        add([])
        return True
    for v in range(span + 2, n + 1):   # b >= v: a >= v - span; a >= v: b >= v - span
        for x, y in ((ngb[v], ga[v - span]), (nga[v], gb[v - span])):
            if x is not True and y is not True:
                add([z for z in (x, y) if z is not False])
    return True


def _element(enc: Encoding, cand: list[int], con: Element) -> None:
    """``line[v - 1] == target`` where v is the digit of ``index``."""
    for v in digits_of(cand[con.index]):
        lits = [-enc.var(con.index, v)]
        if v <= len(con.line) and cand[con.line[v - 1]] >> con.target & 1:
            lits.append(enc.var(con.line[v - 1], con.target))
        enc.clauses.append(lits)


#: a compact encoding lists each renban in :attr:`Encoding.natives` (kind 1, its window
#: selectors' range): the compiled enumerator propagates it itself (csp.cnf_enum.NATIVES)
RENBAN_NATIVE = True
#: a compact encoding (without a sink) writes a skyscraper clue's automaton, which the
#: compiled enumerator propagates itself, only when something reads every clause
#: (:meth:`Encoding.materialize`): its clauses without a state variable at once
SKY_DEFER = True


def _consecutive(enc: Encoding, cand: list[int], cells: Sequence[int]) -> None:
    """Different digits forming a run of consecutive digits (renban; the cells' house is
    encoded apart): exactly one window of ``len(cells)`` consecutive digits is chosen, a
    cell's digit needs a chosen window holding it, and each digit of the chosen window
    appears. Propagates like the cage encoding (:func:`_cage`), where a table or an
    automaton of the run leaves the solver guessing.

    Two more kinds of clauses follow from those and let unit propagation go from the
    cells back to the windows: a chosen window needs each cell on one of its digits (a
    cell whose digits leave a window rules that window out, and with it the digits only
    that window held in the other cells: two digits ``k`` or more apart never share a
    line of ``k`` cells), and the digits every window holds are placed. The workbench's
    renban puzzles need fewer decisions and failed-literal probes with them ("Endless
    Knight", 26 lines of 5: 155,088 -> 126,338 propagated literals; "Run-On Renbans",
    21 lines of 3, its 827 solutions: 5,460 -> 1,953 decisions). A clause per digit
    that is not in every window (the digit, or a window without it) made fewer still
    (89,767; 1,669), but the true-candidate walks of "Effluence" without a cage and of
    "Renban Whispers" then ran past their budgets (csp.cnf_enum) and went on by SAT
    (18 -> 46 and 64 -> 80 ms)."""
    n, k = enc.n, len(cells)
    masks = [cand[c] for c in cells]
    bases = [c * n for c in cells]
    kernel = active(_auto_kernel)
    if kernel is not None and 1 <= k <= n <= 62:
        # the loops below in C (csp/_auto_kernel.c): the same clauses in the same order
        # ("Endless Knight", 26 lines of 5: 1.1 -> 0.2 ms)
        first = enc.top + 1
        if enc.compact and RENBAN_NATIVE and enc.sink is None:
            # the compiled enumerator propagates it itself (csp.cnf_enum.NATIVES): its
            # clauses are written only if something else reads them (Encoding.materialize),
            # its selectors (a window of consecutive digits all in the cells' candidates)
            # reserved now ("Endless Knight", 26 lines of 5: 0.6 ms a call)
            union = 0
            for m in masks:
                union |= m
            run = (1 << k) - 1
            starts = [st for st in range(1, n - k + 2) if union >> st & run == run]
            if starts:
                enc.top += len(starts)
                at = len(enc.clauses)
                # its last clauses, the digits of every window placed, now (they hold no
                # selector: the enumerator reads them, and its probing is the better for
                # them, "Endless Knight" 583 -> 364 probes)
                enc.clauses.extend([b + d for b, m in zip(bases, masks) if m >> d & 1]
                                   for d in range(starts[-1], starts[0] + k))
                enc.seal()
                enc.deferred.append(("renban", at, masks, bases, first, enc.top,
                                     max(0, starts[0] + k - starts[-1])))   # how many
                enc.natives.append((1, 0, first, enc.top, tuple(cells)))
                return
        enc.top = kernel.consecutive(enc.out(), masks, bases, n, enc.top)
        if enc.compact and RENBAN_NATIVE:
            enc.natives.append((1, 0, first, enc.top, tuple(cells)))
        return
    union = 0
    for m in masks:
        union |= m
    clauses = enc.clauses
    add = clauses.append
    run = (1 << k) - 1
    starts = [s for s in range(1, n - k + 2) if union >> s & run == run]
    first = enc.top + 1                # a selector per window (enc.new_var, in order)
    enc.top += len(starts)
    sel = list(range(first, enc.top + 1))
    add(sel[:])
    clauses.extend([-a, -b] for a, b in itertools.combinations(sel, 2))
    # per digit: the cells' literals holding it, the windows holding it (those starting
    # from d - k + 1 to d: a slice of the starts, which rise)
    has: dict[int, list[int]] = {}
    wins: dict[int, list[int]] = {}
    j = 0                              # the first window that may hold d
    for d in digits_of(union):
        has[d] = [b + d for b, m in zip(bases, masks) if m >> d & 1]
        while j < len(starts) and starts[j] + k <= d:
            j += 1
        e = j
        while e < len(starts) and starts[e] <= d:
            e += 1
        wins[d] = sel[j:e]
    for b, m in zip(bases, masks):
        for d in digits_of(m):
            add([-(b + d)] + wins[d])
    for s, v in zip(starts, sel):
        for d in range(s, s + k):
            add([-v] + has[d])
        w = run << s                   # the window's digits
        for b, m in zip(bases, masks):
            add([-v] + [b + d for d in digits_of(m & w)])
    lo, hi = starts[-1] if starts else 1, starts[0] + k - 1 if starts else 0
    for d in range(lo, hi + 1):        # the digits of every window: placed
        add(has[d][:])


def _contains(enc: Encoding, cand: list[int], con: Contains) -> bool:
    """Cells holding every digit of ``con.values``, a digit given k times in k of them:
    per digit, every choice of all but k - 1 of the cells that may hold it has one that
    does (a single clause for a digit given once). False (nothing added) when a cell is
    listed twice, which the table encodes."""
    if len(set(con.cells)) != len(con.cells):
        return False
    var = enc.var
    for d in sorted(set(con.values)):
        k = con.values.count(d)
        lits = [var(c, d) for c in con.cells if cand[c] >> d & 1]
        if len(lits) < k:
            enc.clauses.append([])     # too few cells may hold it: no solution
        else:
            enc.clauses.extend(map(list, itertools.combinations(lits, len(lits) - k + 1)))
    return True


def distinct_product(doms: Sequence[Sequence[int]],
                     pairs: Sequence[tuple[int, int]]) -> Iterable[tuple[int, ...]]:
    """The tuples of ``itertools.product(*doms)`` (in its order) whose positions ``i, j``
    hold different digits for each ``(i, j)`` of ``pairs`` (``i < j``), made by a
    depth-first walk that drops a prefix as soon as it breaks a pair: a sandwich or
    skyscraper clue over a row of 9 cells has products of thousands of tuples and tens of
    different ones (u050 of the workbench less a third of its givens: 46,000 tuples and
    checks for 670 that count; see :func:`_table`).

    >>> list(distinct_product([[1, 2], [1, 2], [3]], [(0, 1)]))
    [(1, 2, 3), (2, 1, 3)]
    """
    if not pairs:
        return itertools.product(*doms)
    kernel = active(_auto_kernel)
    if kernel is not None and type(doms) is list and type(pairs) is list:
        try:                           # the walk below, in C (csp/_auto_kernel.c)
            return kernel.distinct(doms, pairs)
        except (TypeError, ValueError):
            pass
    k = len(doms)
    out: list[tuple[int, ...]] = []
    tup = [0] * k
    last = k - 1
    before: list[list[int]] = [[] for _ in range(k)]
    for i, j in pairs:
        before[j].append(i)

    def walk(p: int) -> None:
        taken = 0
        for b in before[p]:
            taken |= 1 << tup[b]
        if p == last:
            for d in doms[p]:
                if not taken >> d & 1:
                    tup[p] = d
                    out.append(tuple(tup))
            return
        for d in doms[p]:
            if not taken >> d & 1:
                tup[p] = d
                walk(p + 1)
    if k:
        walk(0)
    return out


def _table(enc: Encoding, cand: list[int], con: Any, budget: int,
           peers: Sequence[Sequence[int]] | None = None) -> bool:
    """Encode ``con.check`` over its scope as forbidden tuples (or, when most tuples are
    forbidden, as a choice among the allowed ones). False when the scope's domains hold more
    than ``budget`` tuples.

    ``peers`` (per cell, the cells it must differ from: the puzzle engine's, whose houses
    and "different" pairs the encoding holds as clauses of their own): a tuple giving two
    such cells of the scope the same digit is in no solution, so it is left out of both
    lists. The solutions are the same, and the support encoding propagates what the two
    rules give together (an arrow in a box: its three cells of different digits add up to
    at least 6): on the sum puzzles of the workbench's unique set the search needs fewer
    decisions."""
    kind = type(con)
    if kind is Linear or (kind is Sum and not con.distinct):
        got = _sum_table(enc, cand, con, budget, peers)
        if got is not None:
            return got
    scope = list(dict.fromkeys(con.cells))
    k = len(scope)
    total = 1
    for c in scope:
        total *= cand[c].bit_count()
    if total > budget:                 # (before anything else: a skyscraper clue or a long
        return False                   # line comes here first, then to its automaton)
    pairs = ([(i, j) for i in range(k) for j in range(i + 1, k) if scope[j] in peers[scope[i]]]
             if peers is not None and k > 1 else [])

    def differ(tups: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        for i, j in pairs:             # a pass a pair: the same tuples in the same order
            tups = [t for t in tups if t[i] != t[j]]
        return tups
    pos = [scope.index(c) for c in con.cells]
    doms = [digits_of(cand[c]) for c in scope]
    check = con.check
    if k == 3 and len(pos) == 3:
        table = _shared_triples(con, enc.n)
        if table is not None:
            return _triples(enc, scope, doms, table, pairs)
    allowed, forbidden = [], []
    keep, drop = allowed.append, forbidden.append
    terms = _linear_terms(con) if len(pos) == len(scope) else None
    if terms is not None:
        # a sum: its tuples straight from the bounds, when few enough that the support
        # encoding (of the allowed tuples alone) is the one chosen below (listed in C
        # where csp.constraints._linear_kernel is built: the same tuples in the same order)
        kernel = active(_sums._linear_kernel)
        allowed = None if kernel is None else kernel.linear_tuples(
            [cand[c] for c in scope], terms[0], terms[1], pairs)
        if allowed is None:
            allowed = differ(_linear_tuples(doms, *terms))
        if total - len(allowed) > len(allowed) * (len(scope) + 1):
            return _support(enc, scope, doms, allowed)
        # the forbidden tuples: the others of the product (no cell twice here) that give
        # the cells of each of ``pairs`` different digits (``check`` is the sum's: the
        # same lists in the same order)
        got = set(allowed)
        forbidden = [t for t in distinct_product(doms, pairs) if t not in got]
    elif pos == list(range(len(scope))):     # no cell twice: the tuple as it is
        for tup in distinct_product(doms, pairs):
            (keep if check(*tup) else drop)(tup)
    else:
        for tup in distinct_product(doms, pairs):
            (keep if check(*[tup[i] for i in pos]) else drop)(tup)
    if len(forbidden) <= len(allowed) * (len(scope) + 1):
        n = enc.n
        bases = [c * n for c in scope]
        enc.clauses.extend([-(b + d) for b, d in zip(bases, tup)] for tup in forbidden)
        return True
    return _support(enc, scope, doms, allowed)


def _sum_table(enc: Encoding, cand: list[int], con: Any, budget: int,
               peers: Any) -> bool | None:
    """:func:`_table` of a weighted sum over different cells (a :class:`Linear`, a
    :class:`Sum` whose digits may repeat) from the candidate masks: its tuples listed in C
    (``csp.constraints._linear_kernel.linear_tuples``), then the support encoding (its
    ``support``) or the forbidden tuples, as :func:`_table` chooses: the same tuples,
    clauses and new variables, without its scope, positions and digit lists (an arrow or
    a sum dot was 7-15 us of Python around 1-2 us of C). False past ``budget`` tuples, as
    :func:`_table`; None where the compiled tuples are not there (:func:`_table` goes on:
    its Python lists)."""
    kernel = active(_sums._linear_kernel)
    clauses = enc.clauses
    cells = con.cells
    k = len(cells)
    if kernel is None or type(clauses) is not list or len(set(cells)) != k:
        return None
    masks = [cand[c] for c in cells]
    total = 1
    for m in masks:
        total *= m.bit_count()
    if total > budget:
        return False
    pairs = ([(i, j) for i in range(k) for j in range(i + 1, k) if cells[j] in peers[cells[i]]]
             if peers is not None and k > 1 else [])
    allowed = kernel.linear_tuples(masks, con.coeffs if type(con) is Linear else (1,) * k,
                                   con.total, pairs)
    if allowed is None:
        return None
    n = enc.n
    if total - len(allowed) > len(allowed) * (k + 1):
        last = kernel.support(enc.out(), [c * n for c in cells], masks, allowed, enc.top)
        if last is not None:
            enc.top = last
            return True
        return _support(enc, list(cells), [digits_of(m) for m in masks], allowed)
    # the forbidden tuples, as _table lists them (the product's others, those giving two
    # cells of ``pairs`` the same digit left out)
    doms = [digits_of(m) for m in masks]
    got = set(allowed)
    forbidden = [t for t in itertools.product(*doms) if t not in got]
    for i, j in pairs:
        forbidden = [t for t in forbidden if t[i] != t[j]]
    if len(forbidden) <= len(allowed) * (k + 1):
        bases = [c * n for c in cells]
        clauses.extend([-(b + d) for b, d in zip(bases, tup)] for tup in forbidden)
        return True
    return _support(enc, list(cells), doms, allowed)


def _shared_triples(con: Any, n: int) -> list[list[int]] | None:
    """The shared table of allowed triples (:func:`csp.constraints.function.triple_table`)
    of a :class:`~csp.constraints.FunctionConstraint` over three different cells whose
    predicate is a plain function (no closure: the table is built once per code, so the
    cells of a between or lockout line share it), else None."""
    if type(con) is not FunctionConstraint:
        return None
    pred = con.pred
    if not isinstance(pred, types.FunctionType) or pred.__closure__ is not None:
        return None
    return triple_table(pred, con.distinct, n)


def _triples(enc: Encoding, scope: list[int], doms: list[tuple[int, ...]],
             table: list[list[int]], pairs: list[tuple[int, int]]) -> bool:
    """:func:`_table` of a three-cell rule from its shared table of allowed triples (per
    first and second digit, the mask of the third): the same tuples in the same order,
    so the same clauses, without a predicate call per tuple."""
    ab, ac, bc = (0, 1) in pairs, (0, 2) in pairs, (1, 2) in pairs
    ca, cb, cc = scope
    dc = 0
    for d in doms[2]:
        dc |= 1 << d
    bits = digits_of
    n_allowed = 0
    rows: list[tuple[int, int, int, int]] = []     # (x, y, allowed z mask, forbidden z mask)
    for x in doms[0]:
        row = table[x]
        for y in doms[1]:
            if ab and x == y:
                continue
            zs = dc
            if ac:
                zs &= ~(1 << x)
            if bc:
                zs &= ~(1 << y)
            ok = row[y] & zs
            n_allowed += len(bits(ok))
            rows.append((x, y, ok, zs & ~ok))
    n_forbidden = sum(len(bits(no)) for _, _, _, no in rows)
    if n_forbidden <= n_allowed * 4:
        n = enc.n
        ba, bb, bc_ = ca * n, cb * n, cc * n
        enc.clauses.extend([-(ba + x), -(bb + y), -(bc_ + z)]
                           for x, y, _, no in rows for z in bits(no))
        return True
    allowed = [(x, y, z) for x, y, ok, _ in rows for z in bits(ok)]
    return _support(enc, scope, doms, allowed)


def _support(enc: Encoding, scope: list[int], doms: list[tuple[int, ...]],
             allowed: list[tuple[int, ...]]) -> bool:
    """The support encoding of a table: one selector per allowed tuple; a candidate
    needs a selector using it. (``scope`` holds each cell once. Written a position at a
    time, with the selectors numbered as :meth:`Encoding.new_var` does: the arrows of a
    setter puzzle spent most of their encoding here.)"""
    n = enc.n
    top = enc.top
    clauses = enc.clauses
    kernel = active(_sums._linear_kernel)
    if kernel is not None and type(clauses) is list:
        masks = []
        for ds in doms:
            m = 0
            for d in ds:
                m |= 1 << d
            masks.append(m)
        # the clauses below written in C (csp/constraints/_linear_kernel.c `support`: the
        # same clauses in the same order; the arrows of a setter puzzle spent half their
        # encoding on them)
        last = kernel.support(enc.out(), [c * n for c in scope], masks, allowed, top)
        if last is not None:
            enc.top = last
            return True
    sel = list(range(top + 1, top + 1 + len(allowed)))
    enc.top = top + len(allowed)
    clauses.append(sel)
    bases = [c * n for c in scope]
    clauses.extend([[-s, b + d] for s, tup in zip(sel, allowed) for b, d in zip(bases, tup)])
    for i, (b, ds) in enumerate(zip(bases, doms)):
        support: dict[int, list[int]] = {d: [-(b + d)] for d in ds}
        for s, tup in zip(sel, allowed):
            per = support.get(tup[i])
            if per is not None:
                per.append(s)
        clauses.extend(support[d] for d in ds)
    return True


def _linear_terms(con: Any) -> tuple[list[int], int] | None:
    """``(coefficients, total)`` of a rule that is a plain weighted sum of its cells'
    digits (a :class:`Linear`, or a :class:`Sum` whose digits may repeat), else None."""
    if type(con) is Linear:
        return list(con.coeffs), con.total
    if type(con) is Sum and not con.distinct:
        return [1] * len(con.cells), con.total
    return None


def _linear_tuples(doms: list[tuple[int, ...]], coeffs: list[int],
                   total: int) -> list[tuple[int, ...]]:
    """The tuples of ``doms`` (in ``itertools.product`` order) whose weighted sum is
    ``total``, walking the digits position by position and cutting a prefix the remaining
    positions cannot complete.

    >>> _linear_tuples([(1, 2, 3), (1, 2, 3), (4, 5)], [1, 1, -1], 0)
    [(1, 3, 4), (2, 2, 4), (2, 3, 5), (3, 1, 4), (3, 2, 5)]
    """
    k = len(doms)
    terms = [[a * d for d in ds] for a, ds in zip(coeffs, doms)]
    lo, hi = [0] * (k + 1), [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        lo[i] = lo[i + 1] + min(terms[i])
        hi[i] = hi[i + 1] + max(terms[i])
    out: list[tuple[int, ...]] = []
    tup = [0] * k
    if k < 2 or not coeffs[-1]:
        def walk(i: int, s: int) -> None:
            if i == k:
                if s == total:
                    out.append(tuple(tup))
                return
            low, high = total - hi[i + 1], total - lo[i + 1]
            for d, t in zip(doms[i], terms[i]):
                if low <= s + t <= high:
                    tup[i] = d
                    walk(i + 1, s + t)

        walk(0, 0)
        return out
    # the digits before the last fix it: a look-up, not a loop (the same tuples in the
    # same order; an arrow's cells were a call each, most of its encoding)
    last = {t: d for d, t in zip(doms[-1], terms[-1])}.get
    if k == 2:
        return [(x, z) for x, tx in zip(doms[0], terms[0]) if (z := last(total - tx)) is not None]
    if k == 3:
        return [(x, y, z) for x, tx in zip(doms[0], terms[0])
                for y, ty in zip(doms[1], terms[1])
                if (z := last(total - tx - ty)) is not None]
    k2 = k - 2

    def walk2(i: int, s: int) -> None:
        if i == k2:                    # the last two: a loop and a look-up
            for d, t in zip(doms[i], terms[i]):
                z = last(total - s - t)
                if z is not None:
                    tup[i] = d
                    tup[-1] = z
                    out.append(tuple(tup))
            return
        low, high = total - hi[i + 1], total - lo[i + 1]
        for d, t in zip(doms[i], terms[i]):
            if low <= s + t <= high:
                tup[i] = d
                walk2(i + 1, s + t)

    walk2(0, 0)
    return out


def encode(puzzle, cand: list[int], table_budget: int = TABLE_BUDGET,
           state_budget: int = STATE_BUDGET,
           sink: Callable[[list[list[int]]], Any] | None = None,
           budget: Budget | None = None,
           spans: dict[int, tuple[int, int]] | None = None,
           compact: bool = False, packed: bool = False) -> Encoding:
    """The CNF of ``puzzle`` restricted to the candidates ``cand`` (one mask per cell).
    With a ``sink`` the clauses go to it in batches (see :class:`Encoding`); the encoding
    ticks ``budget`` as it goes. ``spans`` (without a ``sink``: the clauses must stay in
    ``enc.clauses``), when given, receives for each rule (keyed by ``id``) the ``(start,
    end)`` range of its clauses in ``enc.clauses``, so a caller can guard one rule's
    clauses with a selector literal (the setter's workbench asks "without this rule?" that
    way); a rule checked lazily has an empty range and is listed in ``enc.lazy``. A rule
    whose ``unary_mask`` restricts ``cand`` adds no clause. ``compact`` (without a ``sink``
    or ``spans``): small "at most one" groups stay tuples (see :class:`Encoding`);
    ``packed`` (with ``compact``): the compiled writers' clauses in packed blocks
    (:attr:`Encoding.packed`, read back by :func:`unpacked`).

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> enc = encode(p, p.initial_state().cand)
    >>> enc.top, len(enc.lazy)
    (68, 0)
    """
    if spans is not None and sink is not None:
        raise ValueError("spans need the clauses kept in enc.clauses (no sink)")
    if compact and (spans is not None or sink is not None):
        raise ValueError("a compact encoding has no sink and no spans")
    g = puzzle.grid
    if packed and not compact:
        raise ValueError("a packed encoding is compact")
    enc = Encoding(g.n, g.size, sink, budget, compact, packed)
    _cells_and_houses(enc, cand)
    # tables leave out the tuples that houses forbid (see _table); not when a caller guards
    # each rule's clauses apart (spans): a house left out must take its effect with it
    peers = None if spans is not None else _Peers(puzzle)
    mates: list[int] | None = None    # per cell, the cells a house shares with it (bits)
    # the C writers of _relation and _house, asked for once (the same conditions as theirs:
    # a setter puzzle has dozens of relations and houses, each a call of these)
    n, clauses, out = g.n, enc.clauses, enc.out
    kernel = active(_auto_kernel)
    forbidden = houses = forbidden_run = None
    if kernel is not None and type(cand) is list and n <= 62:
        forbidden = kernel.forbidden
        if spans is None:
            forbidden_run = kernel.forbidden_run
        if compact and n <= AMO_PAIRWISE:
            houses = kernel.houses
    # a run of all-different rules' cells (compact, in C): written in one call before the
    # next rule that is not one (the same clauses in the same order; a puzzle's rows,
    # columns and boxes were 27 calls); likewise a run of plain relations' forbidden pairs
    # (``rels``: (a, b, sup_a) each; not with spans, which need each rule's clauses apart)
    run: list[Any] = []
    rels: list[tuple[int, int, Any]] = []
    stepping = enc.budget is not None or enc.sink is not None    # (else step does nothing)
    for con in puzzle.constraints:
        if stepping:
            enc.step()
        if not con.cells:
            continue                  # whole-puzzle helpers (ordering bounds) add nothing
        kind = type(con)
        if run and kind is not AllDifferent:
            houses(out(), cand, run, n)
            run = []
        if rels and kind is not Relation:
            forbidden_run(out(), rels, cand, n)
            rels = []
        start = len(clauses)
        if kind is Relation:          # the two most common rules straight to their clauses
            pred = con.pred
            if pred is _ne and spans is None:
                # a != b inside a house (anti-knight and anti-king pairs in a box): the
                # house's clauses say it already (not with spans: a rule left out must
                # not take another's effect with it)
                if mates is None:
                    mates = _house_mates(puzzle)
                if mates[con.a] >> con.b & 1:
                    continue
            if forbidden_run is not None and pred is not _eq:
                # con.tables(n)[0], as the engine's build left it (no call a relation)
                rels.append((con.a, con.b, con._tables_got[0] if con._tables_for == n
                             else con.tables(n)[0]))
            elif forbidden is not None and pred is not _eq:
                forbidden(out(), con.a, con.b, con.tables(n)[0], cand, n)
            else:
                if rels:
                    forbidden_run(out(), rels, cand, n)
                    rels = []
                _relation(enc, cand, con)
        elif kind is AllDifferent:
            if len(set(con.cells)) > 1:
                if houses is not None:
                    run.append(con.cells)
                    enc.step()
                else:
                    _house(enc, cand, con.cells)
        elif kind is Linear or (kind is Sum and not con.distinct):
            # _encode_rule's steps for a plain sum (no house, no unary mask, neither a
            # between nor a lockout line): an equality of sums, else its table (arrows and
            # sum dots, a setter puzzle's dozens); anything else (over its table budget,
            # no compiled tuples) goes through _encode_rule after all, the same steps again
            if not ((kind is Linear and peers is not None
                     and _equal_sums(enc, cand, con, peers, table_budget // 10, table_budget))
                    or _sum_table(enc, cand, con, table_budget, peers)):
                _encode_rule(enc, cand, con, table_budget, state_budget, peers)
        elif kind is FunctionConstraint and peers is not None:
            # a between or lockout line's cell straight to its clauses (_encode_rule's
            # steps for it: no house, no unary mask, none of its other kinds), anything
            # else through _encode_rule
            if not (_between(enc, cand, con, peers) or _lockout(enc, cand, con, peers)):
                _encode_rule(enc, cand, con, table_budget, state_budget, peers)
        else:
            _encode_rule(enc, cand, con, table_budget, state_budget, peers)
        if spans is not None:
            spans[id(con)] = (start, len(clauses))
    if rels:
        forbidden_run(out(), rels, cand, n)
    if run:
        houses(out(), cand, run, n)
    if spans is None:                 # sums the rules imply together (see derived_sums)
        for cells, total in derived_sums(puzzle):
            _cage(enc, cand, cells, (total,), table_budget // 10)
            enc.step()
    enc.flush()
    return enc


def house_rules(puzzle: Any) -> list[Sequence[int]] | None:
    """The cells of each rule, in the puzzle's order, when every rule is all-different
    (classic, jigsaw, diagonal, extra regions ...) and the grid has at most
    :data:`AMO_PAIRWISE` digits, else None. Such a model's compact encoding (:func:`encode`
    with ``compact``) is only the cells' and the houses' clauses, which the compiled
    enumerator of :mod:`csp.cnf_enum` writes itself from these cells and the candidate
    masks (clause for clause the same, unit clauses of :class:`SatSession` included), so a
    deferred session leaves its encoding until something reads it.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> len(house_rules(p)), house_rules(p.add_sum(["r1c1", "r1c2"], 3)) is None
    (12, True)
    """
    if puzzle.grid.n > AMO_PAIRWISE:
        return None
    out: list[Sequence[int]] = []
    for con in puzzle.constraints:
        if type(con) is not AllDifferent:
            if con.cells:
                return None
            continue                   # whole-puzzle helpers add no clause (encode)
        out.append(con.cells)
    return out


def derived_sums(puzzle: Any) -> list[tuple[tuple[int, ...], int]]:
    """Sums the rules imply together: in a full house (``n`` cells of different digits,
    so all of 1..n, adding up to ``n (n + 1) / 2``), the cells that no sum rule inside the
    house covers add up to the rest of the house's total ("innies": two cages covering
    eight cells of a box give the ninth its digit). The sum rules taken are those of unit
    coefficients and one total (killer cages, sum lines) with every cell inside the house,
    without overlaps (the largest first). Each is ``(cells, total)``, cells sorted, none
    the cells of a sum rule already. The encoding adds them as cages (:func:`encode`, not
    with ``spans``): the solutions are the same, and unit propagation sees what a solver
    that reasons about the house's total sees (the workbench's "Deflation", whose centre
    box holds a 10 and a 26 cage).

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> _ = p.add_sum(["r1c1", "r1c2"], 3, distinct=True)
    >>> derived_sums(p)
    [((2, 3), 7), ((4, 5), 7)]
    """
    sums: list[tuple[int, int, int, tuple[int, ...]]] = []   # (cells as bits, how many,
    #                                                           total, cells)
    for con in puzzle.constraints:
        kind = type(con)
        if kind is Sum or (kind is Linear and all(a == 1 for a in con.coeffs)):
            cells = con.cells
            if cells and len(set(cells)) == len(cells):
                bits = 0               # the cells as a bit mask (each once)
                for c in cells:
                    bits |= 1 << c
                sums.append((bits, len(cells), con.total, cells))
    if not sums:
        return []
    n = puzzle.grid.n
    whole = n * (n + 1) // 2
    known = {x[0] for x in sums}
    geo = puzzle.engine().geometry
    cell_full = geo.cell_full
    # the sums inside each full house (the houses all of a sum's cells are in: those of
    # its first cell that hold every other), in the rules' order; the houses are read in
    # their order, those holding no sum giving nothing
    inside_of: dict[int, list[tuple[int, int, int, tuple[int, ...]]]] = {}
    for x in sums:
        cells = x[3]
        for k in cell_full[cells[0]]:
            for c in cells:
                if k not in cell_full[c]:
                    break
            else:
                inside_of.setdefault(k, []).append(x)
    out: dict[tuple[int, ...], int] = {}
    full_cells = geo.full_cells
    for k in sorted(inside_of):
        # the sums inside the house, the largest first (a stable sort: in the rules'
        # order within a size)
        inside = sorted(inside_of[k], key=lambda x: -x[1])
        used = total = 0
        for bits, _, t, _ in inside:
            if not used & bits:
                used |= bits
                total += t
        house = full_cells[k]
        if not 0 < len(house) - used.bit_count() <= DERIVED_CELLS:
            continue                   # (the cells left: none, or too many)
        hs = 0
        for c in house:
            hs |= 1 << c
        rest = hs & ~used
        if rest not in known:
            out.setdefault(tuple(c for c in house if rest >> c & 1), whole - total)
    return list(out.items())


def _house_mates(puzzle: Any) -> list[int]:
    """Per cell, the bitset of the other cells some rule's :meth:`house` (as encoded by
    :func:`_house`: at most one cell per digit) holds with it."""
    mates = [0] * puzzle.grid.size
    for con in puzzle.constraints:
        h = con.house()
        if h is not None and len(h) > 1:
            bits = 0
            for c in h:
                bits |= 1 << c
            for c in h:
                mates[c] |= bits
    return [m & ~(1 << c) for c, m in enumerate(mates)]


class _Peers:
    """Per cell, the set of cells its digit must differ from (the puzzle engine's peers:
    its houses and "different" pairs, each encoded as clauses of its own), made when a
    table first asks."""

    __slots__ = ("puzzle", "sets")

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle
        self.sets: list[frozenset[int]] | None = None

    def __getitem__(self, cell: int) -> frozenset[int]:
        if self.sets is None:          # kept with the engine's houses (csp.engine._Geometry)
            geo = self.puzzle.engine().geometry
            if geo.peer_sets is None:
                geo.peer_sets = [frozenset(p) for p in geo.peers]
            self.sets = geo.peer_sets
        return self.sets[cell]


def _encode_rule(enc: Encoding, cand: list[int], con: Any, table_budget: int,
                 state_budget: int, peers: Any = None) -> None:
    """Add one rule's clauses (or list it in ``enc.lazy``); ``peers``: see :func:`_table`."""
    h = con.house()
    if h is not None and len(set(h)) > 1:
        _house(enc, cand, h)
    if isinstance(con, AllDifferent) or con.unary_mask() is not None:
        return                        # the house, or already in the candidates
    if isinstance(con, Relation):
        _relation(enc, cand, con)
    elif isinstance(con, Element):
        _element(enc, cand, con)
    elif isinstance(con, Contains) and _contains(enc, cand, con):
        pass
    elif isinstance(con, ConsecutiveSet):
        _consecutive(enc, cand, con.cells)
    elif isinstance(con, (Sum, SumIn)) and con.distinct and len(set(con.cells)) == len(
            con.cells) and _cage(enc, cand, con.cells, (con.total,) if isinstance(
            con, Sum) else con.totals, table_budget // 10):
        pass
    elif peers is not None and _equal_sums(enc, cand, con, peers, table_budget // 10,
                                           table_budget):
        pass
    elif peers is not None and _between(enc, cand, con, peers):
        pass
    elif peers is not None and _lockout(enc, cand, con, peers):
        pass
    elif _table(enc, cand, con, table_budget, peers):
        pass
    elif (auto := con.automaton()) is not None and _automaton(enc, cand, con.cells, auto,
                                                               state_budget):
        pass
    else:
        enc.lazy.append(con)


def sat_search(puzzle, cand: list[int], limit: int = 2, time_limit: float | None = None,
               propagated: bool = False, table_budget: int = TABLE_BUDGET,
               state_budget: int = STATE_BUDGET,
               conflict_limit: int | None = None,
               budget: Budget | None = None) -> tuple[list[list[int]], int]:
    """Up to ``limit`` solutions from the candidates ``cand``; returns ``(solutions,
    conflicts)``. Raises :class:`TimeLimitExceeded` past ``time_limit`` seconds (or once
    ``budget``, a :class:`~csp.budget.Budget`, is spent: the root propagation and the
    encoding run within it too), :class:`NodeLimitExceeded` past ``conflict_limit``
    conflicts (the SAT solver's counterpart of a node limit) and :class:`SatUnavailable`
    without PySAT. ``cand`` is not changed. The budgets are :func:`encode`'s (0 and 0
    check every rule but houses and relations lazily).

    ``conflict_limit`` 0 allows no search at all, as a node limit of 0 does in
    :func:`csp.search.search`: only what root propagation settles is answered. Glucose
    checks a positive budget between its restarts, so a search may run some hundred
    conflicts past it before it stops (the message says how many it used)."""
    try:
        from pysat.solvers import Solver
    except ImportError as e:       # pragma: no cover - python-sat is a dependency
        raise SatUnavailable("SAT search needs the python-sat package "
                             "(pip install python-sat)") from e
    budget = Budget.within(budget, time_limit)
    cand = cand[:]
    if not propagated:
        eng = puzzle.engine(budget=budget)
        if eng.pure:            # bitboards: faster, and locked candidates on big grids
            root = propagate_pure(eng, cand, budget)
            if root is None:
                return [], 0
            cand = root
        else:
            try:
                eng.propagate(cand, None, budget=budget)
            except Contradiction:
                return [], 0
    if conflict_limit is not None and conflict_limit <= 0 and any(m & (m - 1) for m in cand):
        raise NodeLimitExceeded("SAT search stopped: a limit of 0 allows no search, and "
                                "propagation alone does not settle the puzzle")
    rules = [con for con in puzzle.constraints if con.cells]
    solutions: list[list[int]] = []
    conflicts = 0
    with Solver(name=TIMED_SOLVER if budget.limited else SOLVER) as solver:
        enc = encode(puzzle, cand, table_budget, state_budget, solver.append_formula, budget)
        while len(solutions) < limit:
            if conflict_limit is not None:
                if conflicts >= conflict_limit > 0:
                    raise NodeLimitExceeded(f"SAT search stopped after {conflicts} conflicts "
                                            f"(limit {conflict_limit})")
                solver.conf_budget(min(max(1, conflict_limit - conflicts), MAX_BUDGET))
            ok = _solve(solver, budget, conflict_limit is not None)
            conflicts = solver.accum_stats().get("conflicts", 0)
            if ok is None:
                raise NodeLimitExceeded(f"SAT search stopped after {conflicts} conflicts "
                                        f"(limit {conflict_limit})")
            if not ok:
                break
            values = enc.decode(solver.get_model())
            # every rule is checked, not only the lazy ones: the encodings are exact, and
            # this keeps the answer exact even if one were not
            bad = [con for con in rules if not con.check(*(values[c] for c in con.cells))]
            if bad:               # forbid the tuple each violated rule has here
                for con in bad:
                    solver.add_clause([-enc.var(c, values[c]) for c in dict.fromkeys(con.cells)])
                continue
            solutions.append(values)
            solver.add_clause([-enc.var(c, values[c]) for c in range(enc.size)
                               if cand[c] & (cand[c] - 1)])
            if not any(cand[c] & (cand[c] - 1) for c in range(enc.size)):
                break
    return solutions, conflicts


def _solve(solver, budget: Budget, budgeted: bool = False,
           assumptions: Sequence[int] = ()) -> bool | None:
    """True / False: satisfiable or not (under ``assumptions``, literals taken as true for
    this call only); None: the conflict budget ran out first. A timer interrupts the solver
    when the budget's time is up (with a CPU cap, CPU time runs no faster than the wall
    clock, so the timer is set again while some is left)."""
    assumptions = list(assumptions)
    left = budget.left()
    if left is None:
        return (solver.solve_limited(assumptions=assumptions) if budgeted
                else bool(solver.solve(assumptions=assumptions)))
    while True:
        if left <= 0:
            raise TimeLimitExceeded(f"search stopped after {budget.describe()}")
        fired: list[bool] = []

        def stop() -> None:
            fired.append(True)
            solver.interrupt()

        timer = threading.Timer(left, stop)
        timer.start()
        try:
            res = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
        solver.clear_interrupt()
        if res is not None:
            return bool(res)
        if budget.exhausted:
            raise TimeLimitExceeded(f"search stopped after {budget.describe()}")
        if not fired:
            return None           # the conflict budget ran out
        left = budget.left()


def solve_limited(solver, deadline: float | None, time_limit: float | None,
                  budgeted: bool = False, assumptions: Sequence[int] = ()) -> bool | None:
    """One call of a PySAT ``solver`` under ``assumptions`` (literals taken as true for
    this call only), stopped at ``deadline`` (a ``time.perf_counter()`` value; raises
    :class:`TimeLimitExceeded`; ``time_limit``, the seconds the caller allowed, is
    accepted for the callers that name it). True / False: satisfiable or not; None: the
    conflict budget (``budgeted``) ran out first."""
    budget = Budget(deadline=deadline)
    budget.time_limit = None if time_limit is None else float(time_limit)   # for messages
    return _solve(solver, budget, budgeted, assumptions)


# ---------------------------------------------------------------------------------------
# One solver kept warm: incremental questions about the same puzzle
# ---------------------------------------------------------------------------------------
def new_solver(clauses: Iterable[Sequence[int]], name: str = SOLVER) -> Any:
    """A PySAT solver (``name``: Glucose 4.2 by default, or :data:`ENUM_SOLVER`) holding
    ``clauses``. The clauses go straight to the C solver, not one Python method call each
    (PySAT's ``bootstrap_with``): that loop was a tenth of a setter puzzle's whole
    true-candidates call.

    >>> s = new_solver([[1, 2], [-1], [-2, 3]])
    >>> s.solve(), s.get_model()
    (True, [-1, 2, 3])
    >>> s.delete()
    """
    from pysat.solvers import Solver
    solver = Solver(name=name)
    attr, fn = _RAW.get(name, ("", ""))
    raw = getattr(getattr(solver, "solver", None), attr, None) if attr else None
    try:
        import pysolvers               # PySAT's C module
        add = getattr(pysolvers, fn)
    except (ImportError, AttributeError):  # pragma: no cover - another PySAT layout
        raw = None
    if raw is None:                    # pragma: no cover
        solver.append_formula(clauses)
    else:
        collections.deque(map(add, itertools.repeat(raw), clauses), maxlen=0)
    return solver


def cancel_check(cancel: Any) -> Any:
    """A no-argument callable true once ``cancel`` (a ``threading.Event`` or a callable)
    asks to stop; None for None.

    >>> import threading
    >>> stop = threading.Event()
    >>> check = cancel_check(stop)
    >>> check(), stop.set(), check()
    (False, None, True)
    """
    if cancel is None:
        return None
    if isinstance(cancel, threading.Event):
        return cancel.is_set
    if callable(cancel):
        return cancel
    raise TypeError(f"cancel must be a threading.Event or a callable, not {type(cancel).__name__}")


class SatSession:
    """A puzzle's CNF in one SAT solver, kept warm for many questions about the same
    puzzle: a solution under assumptions (:meth:`solve`), then clauses that forbid a found
    solution (:meth:`block`) or a candidate (:meth:`exclude`) for good. What the solver
    learns from one question serves the next, which is what makes true candidates and
    solution lists cheap (see :mod:`csp.solutions`).

    ``cand`` (one mask per cell; default the puzzle's initial state) is propagated by the
    rules first unless ``propagated``; :attr:`cand` holds the masks encoded, None when that
    propagation already found a contradiction (then every :meth:`solve` answers None).
    Candidate literals are :meth:`var` ``(cell, digit)`` (``cell * n + digit``); negative
    literals exclude. ``solver``: PySAT's name of the solver (MiniSat 2.2,
    :data:`TIMED_SOLVER`, by default: it sees an interrupt at once, where Glucose sees it
    only at its next restart, up to a minute later on a big grid; :data:`ENUM_SOLVER` for
    sessions that list every solution).

    Time limits and cancellation hold *during* a solver call: between :meth:`start` and
    :meth:`stop` a watcher thread interrupts the solver when ``deadline``
    (``time.perf_counter()`` seconds) passes or ``cancel`` (a ``threading.Event`` or a
    callable) says stop, and :meth:`solve` then raises :class:`TimeLimitExceeded` or
    :class:`~csp.errors.Cancelled`. The solver releases the GIL while it searches, so other
    threads (a server's event loop) keep running.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("1.........2.....")
    >>> with SatSession(p) as s:
    ...     first = s.solve()
    ...     s.block(first)
    ...     second = s.solve()
    ...     none = s.solve([s.var(1, 2), s.var(1, 3)])    # r1c2 cannot be 2 and 3
    >>> first != second, none
    (True, None)
    """

    def __init__(self, puzzle: Any, cand: list[int] | None = None, *, propagated: bool = False,
                 table_budget: int = TABLE_BUDGET, state_budget: int = STATE_BUDGET,
                 solver: str = TIMED_SOLVER, defer: bool = False,
                 budget: Budget | None = None) -> None:
        try:
            import pysat.solvers  # noqa: F401
        except ImportError as e:       # pragma: no cover - python-sat is a dependency
            raise SatUnavailable("SAT search needs the python-sat package "
                                 "(pip install python-sat)") from e
        g = puzzle.grid
        self.puzzle = puzzle
        self.n = g.n
        self.size = g.size
        #: solver calls made (:meth:`solve`, lazy re-checks included)
        self.calls = 0
        cand = list(puzzle.initial_state().cand if cand is None else cand)
        self.cand: list[int] | None = (cand if propagated
                                       else _root_propagate(puzzle.engine(), cand, budget))
        #: :attr:`cand` is the fixpoint of the puzzle's own engine (not a caller's
        #: ``propagated`` candidates): every plain binary relation's support table has
        #: been enforced on it (:class:`csp.cnf_enum.Decided` reads no relation again)
        self.root_fixpoint = not propagated
        self._deadline: float | None = None
        self._cancelled: Any = None
        self._time_limit: float | None = None
        self._watch: threading.Thread | None = None
        #: the watcher's stop signal (made by :meth:`start` with the watcher: most
        #: sessions never start one)
        self._stop: threading.Event | None = None
        self._solver: Any = None
        self._raw: Any = None
        self._kind = solver
        self._units: list[list[int]] = []
        self.supported = False
        #: a deferred session's model made only of all-different rules: the cells of each
        #: (:func:`house_rules`), from which the compiled enumerator of csp.cnf_enum
        #: writes their encoding itself; else None
        self.houses = house_rules(puzzle) if defer else None
        if self.cand is None:
            return
        n = self.n
        #: cells with two or more candidates (the others are decided at the root)
        self.free = [c for c, m in enumerate(self.cand) if m & (m - 1)]
        # reads a solution from the solver's model (:meth:`_picker`, made on the first
        # :meth:`solve_lits`: a call the compiled enumerator answers never reads one)
        self._pick: Callable[[Any], tuple[int, ...]] | None = None
        self._nfree = len(self.free)
        self._last = self.size * n + n     # literals above are auxiliary
        self._defer = defer
        self._budgets = (table_budget, state_budget)
        #: the caller's deadline, ticked while the encoding is built (a rule given
        #: thousands of times over makes an encoding that takes minutes)
        self._budget = budget
        if defer and (not self.free or self.houses is not None):
            # decided at the root: the caller may answer from :attr:`cand` alone (the
            # compiled enumerator of csp.cnf_enum checks the rules on it); all-different
            # rules only: that enumerator encodes them (a classic grid's encoding was a
            # third of a true-candidates call). The encoding waits until something reads
            # it (:meth:`__getattr__`)
            del self._units, self.supported
            return
        self._encode()
        if not defer:
            self.open()

    def _picker(self) -> Callable[[Any], tuple[int, ...]]:
        """The model entries of the free cells' candidates (``model[v - 1]`` is ``+-v``):
        one C-level pick and sort reads a solution, the positive literals sorting last."""
        n = self.n
        idx = [c * n + d - 1 for c in self.free for d in digits_of(self.cand[c])]
        self._pick = (operator.itemgetter(*idx) if len(idx) > 1 else
                      (lambda m, i=idx[0]: (m[i],)) if idx else (lambda m: ()))
        return self._pick

    def _encode(self) -> None:
        """Build :attr:`enc` (and :attr:`lazy`, the unit clauses, :attr:`supported`)."""
        puzzle, n = self.puzzle, self.n
        # a deferred session's encoding is for the compiled enumerator first: compact, and
        # the compiled writers' clauses packed (Encoding.packed; the solver, if it comes
        # to one, takes them unpacked)
        enc = self.enc = encode(puzzle, self.cand, *self._budgets, budget=self._budget,
                                compact=self._defer, packed=self._defer)
        self.lazy = enc.lazy
        #: a deferred session's extra clauses start with the support clauses of its
        #: binary relations (:func:`csp.cnf_enum.relation_supports`): they follow from the
        #: encoding, and both the compiled enumerator and the solver propagate better with
        #: them (true candidates of the workbench's hardest unique and variant puzzles,
        #: those the enumerator gives up on: 7 % less in all, "Modular Nabner DA Coverage"
        #: 115 -> 90 ms; their counts 14 % less)
        self.supported = self._defer
        if self._defer:
            supports = relation_supports(puzzle, self.cand, n, packed=True)
            enc.extra[:0] = supports
            enc.extra_front += len(supports)
        # the variables no clause mentions (the candidates removed at the root, and the n
        # numbers between the candidates and the auxiliary variables) are set false once:
        # the solver would otherwise decide each of them again on every call (ten times
        # the decisions; counting 4,402 solutions took a fifth longer)
        kernel = active(_auto_kernel)
        if kernel is not None and n <= 62 and type(self.cand) is list:
            # the same clauses, in C (a packed block in a deferred session)
            self._units = ([kernel.units(self.cand, n, True)] if self._defer
                           else kernel.units(self.cand, n))
        else:
            full = ((1 << n) - 1) << 1
            self._units = [[-(base + d)] for base, m in zip(range(0, self.size * n, n),
                                                            self.cand)
                           for d in digits_of(full & ~m)]
            self._units.extend([-v] for v in range(self.size * n + 1, self.size * n + n + 1))
        self._top = enc.top                # the last variable in use (:meth:`new_var`)

    #: what :meth:`_encode` makes (a deferred session decided at the root makes it when
    #: one of these is first read)
    _ENCODED = frozenset(("enc", "lazy", "supported", "_units", "_top"))

    def __getattr__(self, name: str) -> Any:
        if name in SatSession._ENCODED and "_budgets" in self.__dict__ \
                and "enc" not in self.__dict__:
            self._encode()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- the life of a session -----------------------------------------------------------
    def open(self, check: Callable[[], Any] | None = None) -> None:
        """Build the solver (``defer=True`` leaves that to this call: a caller that may
        answer from :attr:`enc` alone, as :mod:`csp.enumerate` does, saves its set-up).
        ``check`` (the caller's deadline or cancel, raising to stop) is called while the
        compact encoding is written out (:meth:`Encoding.expanded`) and before the solver
        is built."""
        if self._solver is None and self.cand is not None:
            clauses = self.enc.expanded(check)
            if check is not None:
                check()
            self._solver = new_solver(itertools.chain(clauses,
                                                      unpacked(self.enc.extra),
                                                      unpacked(self._units)), self._kind)
            self._bind(self._kind)

    def clauses(self) -> list[Any]:
        """Every clause the solver is (or would be) given: the encoding's and the unit
        clauses setting the variables no clause mentions false; a session built with
        ``defer=True`` keeps each small "at most one" group as one tuple until the solver
        is set up (:meth:`Encoding.expanded`), and holds the compiled writers' clauses in
        packed blocks (:attr:`Encoding.packed`, :func:`unpacked`)."""
        return self.enc.materialize() + self._units if self.cand is not None else [[]]

    def __enter__(self) -> "SatSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop the watcher and free the solver."""
        self.stop()
        if self._solver is not None:
            self._solver.delete()
            self._solver = None

    def start(self, deadline: float | None = None, cancel: Any = None,
              time_limit: float | None = None) -> None:
        """Watch ``deadline`` and ``cancel`` until :meth:`stop` (``time_limit``, the
        seconds the deadline stands for, only words the error)."""
        self.stop()
        self._deadline = deadline
        self._cancelled = cancel_check(cancel)
        self._time_limit = time_limit
        if (self._solver is None or (deadline is None and cancel is None)
                or self._kind in UNINTERRUPTIBLE):    # checked between its budgeted calls
            return
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watcher, name="sat-watch", daemon=True)
        self._watch.start()

    def stop(self) -> None:
        if self._watch is not None:
            self._stop.set()
            self._watch.join()
            self._watch = None
        self._deadline = self._cancelled = None

    def _watcher(self) -> None:
        while not self._stop.wait(0.01):
            if self._expired():
                self._solver.interrupt()
                return

    def _expired(self) -> bool:
        return ((self._cancelled is not None and self._cancelled())
                or (self._deadline is not None and time.perf_counter() > self._deadline))

    def check(self) -> None:
        """Raise :class:`~csp.errors.Cancelled` or :class:`TimeLimitExceeded` when the
        watched cancel or deadline says stop (cheap: call it between solver calls)."""
        if self._cancelled is not None and self._cancelled():
            from .errors import Cancelled
            raise Cancelled("search cancelled")
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise TimeLimitExceeded(f"search stopped after {self._time_limit} s")

    def switch(self, solver: str, clauses: Iterable[Sequence[int]] = ()) -> None:
        """Go on in a new solver of kind ``solver`` holding the encoding and ``clauses``
        (the caller's blocking clauses: those added since, lazy checks' included, are not
        carried over; a lazy rule forbids its tuples again as models break it)."""
        if self._solver is None:
            return
        from pysat.solvers import NoSuchSolverError
        try:
            new = new_solver(itertools.chain(self.enc.expanded(), unpacked(self.enc.extra),
                                             unpacked(self._units), clauses), solver)
        except NoSuchSolverError:          # pragma: no cover - an older PySAT: stay
            return
        if solver in UNINTERRUPTIBLE and self._watch is not None:
            self._stop.set()               # the deadline and cancel are checked between calls
            self._watch.join()
            self._watch = None
        old, self._solver = self._solver, new
        old.delete()
        self._bind(solver)

    def _bind(self, name: str) -> None:
        """The C functions that solve and read a model of the current solver, called
        without PySAT's Python layers (a tenth of a count's time per solution); None for
        another kind of solver (then its wrapper's methods)."""
        self._raw: Any = None
        self._kind = name
        prefix = _PREFIX.get(name)
        attr = _RAW.get(name, ("", ""))[0]
        solver = self._solver
        handle = getattr(getattr(solver, 'solver', None), attr, None)
        if prefix is None or handle is None:
            return
        names = [prefix + "_solve_lim", prefix + "_model"]
        if name in UNINTERRUPTIBLE:        # a conflict budget for each call
            names.append(prefix + "_cbudget")
        try:
            import pysolvers               # PySAT's C module
            fns = [getattr(pysolvers, fn) for fn in names]
        except (ImportError, AttributeError):  # pragma: no cover - another PySAT layout
            return
        self._raw = (handle, *fns) + ((UNINTERRUPTIBLE[name],) if name in UNINTERRUPTIBLE
                                      else ())

    def prefer(self, lits: Sequence[int]) -> None:
        """Hint the solver's next decisions: each variable of ``lits`` is first tried with
        that literal's sign (its *phase*). A hint only: every answer stays what it would
        be (a solution is still a solution, a "none" still none); a solver without phases
        ignores it."""
        solver = self._solver
        if solver is None:
            return
        try:
            solver.set_phases(lits)
        except (AttributeError, NotImplementedError):   # pragma: no cover
            pass

    def conflicts(self) -> int:
        """Conflicts the current solver has met so far (all its calls)."""
        if self._solver is None:
            return 0
        try:
            return int(self._solver.accum_stats().get("conflicts", 0))
        except (AttributeError, TypeError):   # pragma: no cover - a solver without stats
            return 0

    # -- questions -----------------------------------------------------------------------
    def var(self, cell: int, digit: int) -> int:
        """The literal of candidate ``(cell, digit)``."""
        return cell * self.n + digit

    def solve(self, assumptions: Sequence[int] = ()) -> list[int] | None:
        """A solution (a digit per cell) in which every literal of ``assumptions`` holds,
        None when there is none. Rules the encoding checks lazily are checked here: a
        model breaking one forbids that tuple and the solver goes on."""
        lits = self.solve_lits(assumptions)
        return None if lits is None else self.values(lits)

    def solve_lits(self, assumptions: Sequence[int] = ()) -> list[int] | None:
        """:meth:`solve`, answering with the candidate literals (``cell * n + digit``) of
        the solution in the :attr:`free` cells (the others hold their one candidate of
        :attr:`cand`): the cheap form for counting."""
        solver = self._solver
        if solver is None:
            return None
        watched = self._watch is not None
        pick, k = self._pick or self._picker(), self._nfree
        raw = self._raw
        main = int(threading.current_thread() is threading.main_thread())
        while True:
            self.check()
            self.calls += 1
            if raw is not None and len(raw) > 3:   # no interrupt: budgeted calls, checks
                while True:
                    raw[3](raw[0], raw[4])
                    st = raw[1](raw[0], assumptions, main)     # 1, -1, or 0: budget out
                    if st:
                        break
                    self.check()
                res = solver.status = st > 0
            elif raw is not None:      # PySAT's own calls, without its Python layers
                res = raw[1](raw[0], assumptions, main, int(watched))
                solver.status = res
            elif watched:
                res = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            else:
                res = solver.solve(assumptions=assumptions)
            if res is None:
                solver.clear_interrupt()
                self.check()
                raise TimeLimitExceeded("SAT solver interrupted")  # pragma: no cover
            if not res:
                return None
            model = raw[2](raw[0]) if raw is not None else solver.get_model()
            lits = sorted(pick(model))[-k:] if k else []
            if self.lazy:
                values = self.values(lits)
                bad = [con for con in self.lazy
                       if not con.check(*(values[c] for c in con.cells))]
                if bad:
                    for con in bad:
                        solver.add_clause([-self.var(c, values[c])
                                           for c in dict.fromkeys(con.cells)])
                    continue
            return lits

    def values(self, lits: Sequence[int]) -> list[int]:
        """Digits per cell of a solution's candidate literals (cells without one hold
        their only candidate)."""
        values = [m.bit_length() - 1 for m in self.cand] if self.cand else [0] * self.size
        n = self.n
        for lit in lits:
            c = (lit - 1) // n
            values[c] = lit - c * n
        return values

    def decode(self, model: Sequence[int]) -> list[int]:
        """Digits per cell of a model of the solver (a list of signed literals)."""
        return self.values([lit for lit in model[:self._last] if lit > 0])

    def fixed_lits(self) -> list[int]:
        """The literals of the cells decided at the root (one candidate in :attr:`cand`)."""
        n = self.n
        return [c * n + m.bit_length() - 1 for c, m in enumerate(self.cand or ())
                if not m & (m - 1)]

    def block(self, values: Sequence[int]) -> None:
        """Forbid the solution ``values`` (digits per cell) from now on."""
        if self._solver is not None:
            n = self.n
            self._solver.add_clause([-(c * n + values[c]) for c in self.free])

    def block_lits(self, lits: Sequence[int]) -> None:
        """Forbid the solution of :meth:`solve_lits` from now on."""
        if self._solver is not None:
            self._solver.add_clause([-lit for lit in lits])

    def new_var(self) -> int:
        """A variable no clause uses yet (for the caller's own clauses: a literal that
        switches a clause on when assumed, say)."""
        self._top += 1
        return self._top

    def exclude(self, cell: int, digit: int) -> None:
        """Forbid the candidate ``(cell, digit)`` from now on (it is in no solution)."""
        if self._solver is not None:
            self._solver.add_clause([-(cell * self.n + digit)])

    def add_clause(self, lits: Sequence[int]) -> None:
        """Add any clause over candidate literals."""
        if self._solver is not None:
            self._solver.add_clause(list(lits))

    def refutes(self, assumptions: Sequence[int], conflicts: int) -> bool | None:
        """True when no solution holds every literal of ``assumptions``, False when one
        does, None when the solver used ``conflicts`` conflicts first (a count, so the
        answer is the same on any machine; the watched deadline and cancel hold too).

        >>> from csp import Puzzle, Grid
        >>> p = Puzzle(Grid(4)).add_grid_houses()
        >>> with SatSession(p) as s:
        ...     s.refutes([s.var(0, 1), s.var(1, 1)], 100), s.refutes([s.var(0, 1)], 100)
        (True, False)
        """
        solver = self._solver
        if solver is None:
            return True
        assumptions = list(assumptions)
        try:
            while True:
                self.check()
                self.calls += 1
                solver.conf_budget(conflicts)
                res = solver.solve_limited(assumptions=assumptions,
                                           expect_interrupt=self._watch is not None)
                if res is None:
                    solver.clear_interrupt()
                    self.check()
                    return None
                if not res:
                    return True
                if not self.lazy:
                    return False
                values = self.decode(solver.get_model())
                bad = [con for con in self.lazy
                       if not con.check(*(values[c] for c in con.cells))]
                if not bad:
                    return False
                for con in bad:
                    solver.add_clause([-self.var(c, values[c]) for c in dict.fromkeys(con.cells)])
        finally:
            solver.conf_budget(-1)


def _root_propagate(eng: Any, cand: list[int],
                    budget: Budget | None = None) -> list[int] | None:
    """The propagation of ``cand`` by the engine ``eng`` of a puzzle (the bitboard one for
    models made only of houses), None on a contradiction. ``cand`` is not changed. The
    houses' hidden singles wait for the other rules (``houses_last``: the same candidates,
    a third less time; on the workbench's cheap variant calls this was a third of the
    call). ``budget``: ticked by the general engine (a rule given thousands of times over
    is thousands of propagator runs)."""
    if eng.pure:
        return propagate_pure(eng, cand)
    cand = cand[:]
    try:
        eng.propagate(cand, None, houses_last=True, budget=budget)
    except Contradiction:
        return None
    return cand
