"""Base class of constraint specs."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, NamedTuple

from ..events import Cost, Event, Status
from ..propagator import Context, Propagator

if TYPE_CHECKING:  # pragma: no cover
    from ..grid import Grid

WeakLink = tuple[tuple[int, int], tuple[int, int]]


class Automaton(NamedTuple):
    """A rule read along its ``cells`` in order, as a finite automaton: from ``start``,
    ``step(i, state, digit)`` gives the state after the digit of ``cells[i]`` (``None``: no
    completion can satisfy the rule), and the rule holds when ``accept(final_state)``.
    ``distinct``: the rule also needs its cells to hold different digits. The SAT encoding
    (:mod:`csp.sat`) turns it into clauses over the reachable states, which stays small where
    a table of the scope's tuples would not (a 9-cell sum, a skyscraper clue). ``native``:
    the same automaton as the compiled kernel ``csp._auto_kernel`` steps it itself (its
    ``forward``; ``("skyscraper", seen)`` only), which then builds the layers without calling
    ``step``: the same states, numbered the same (tests/csp/test_auto_kernel.py).

    >>> a = Automaton(0, lambda i, s, d: s + d, lambda s: s == 10)
    >>> s = a.start
    >>> for i, d in enumerate((3, 3, 4)):
    ...     s = a.step(i, s, d)
    >>> a.accept(s)
    True
    """

    start: Hashable
    step: Callable[[int, Any, int], Any]
    accept: Callable[[Any], bool]
    distinct: bool = False
    native: tuple[Any, ...] | None = None


class Constraint:
    """A rule over ``cells``. Subclasses override what they contribute; every hook the
    model, the SAT encoding, the exports and the graph views call is declared here with a
    default that adds nothing, so a rule defines only what it has.

    >>> c = Constraint()
    >>> c.propagators(9), c.house(), list(c.weak_links(9)), c.unary_mask(), c.automaton()
    ([], None, [], None, None)
    >>> c.compile(None), c.validate(9), c.attributes()
    ([], None, {'kind': 'constraint'})
    """

    kind: str = "constraint"
    name: str = ""
    cells: tuple[int, ...] = ()
    #: whether the rule reads a cell listed twice in ``cells`` exactly (each position reads
    #: the cell's one digit: :class:`~csp.constraints.Linear`, where the coefficients of the
    #: cell add up, :class:`~csp.constraints.FunctionConstraint`, and
    #: :class:`~csp.constraints.Element`, whose index cell may lie on its own line). Any
    #: other rule listing a cell twice is refused by :meth:`csp.Puzzle.add`.
    repeats: bool = False

    def validate(self, n: int) -> None:
        """Raise :class:`~csp.errors.InvalidConstraint` when the rule cannot be used on a
        grid of digits 1..n (called by :meth:`csp.Puzzle.add`). Default: accept."""

    def name_from(self, grid: "Grid") -> None:
        """Give the rule a display name from the grid's cell names when it was made without
        one (called by :meth:`csp.Puzzle.add`; :class:`~csp.constraints.Relation` names
        itself ``r1c1<r1c2``). Default: keep the name."""

    def propagators(self, n: int) -> list[Propagator]:
        """Propagators of the rule alone, for digits 1..n."""
        return []

    def compile(self, puzzle: Any) -> list[Propagator]:
        """Propagators that need the whole (frozen) puzzle, e.g. which cells share a house
        or every ordering sign (called once per engine, after :meth:`propagators`)."""
        return []

    def house(self) -> tuple[int, ...] | None:
        """Cells that must hold different digits (an all-different group), or None."""
        return None

    def unary_mask(self) -> int | None:
        """Digit mask every cell of the rule is restricted to (odd / even cells, digit
        sets), applied to the initial candidates and the domains of the exports; None when
        the rule is not a plain restriction of its cells' digits."""
        return None

    def digit_symmetric(self) -> bool:
        """True when any permutation of the digits maps every assignment that satisfies
        the rule to one that does (the rule reads only which of its cells hold equal
        digits: all-different, equal, not equal). True candidates and counts read it
        (:func:`csp.solutions.digit_classes`): on a puzzle of such rules alone, a solution
        with its digits swapped is another. Default False, which is always safe; a subclass
        of a rule that says True and adds a condition on the digits must say False.

        >>> Constraint().digit_symmetric()
        False
        """
        return False

    def weak_links(self, n: int) -> Iterator[WeakLink]:
        """Pairs of candidates ``((cell, digit), (cell, digit))`` that cannot both be true,
        beyond those implied by :meth:`house`."""
        return iter(())

    def check(self, *values: int) -> bool:
        """True when the full assignment ``values`` (in ``cells`` order) satisfies the rule."""
        raise NotImplementedError

    def automaton(self) -> Automaton | None:
        """The rule as an :class:`Automaton` over ``cells``, for the SAT encoding of long
        scopes; None when the rule offers none (a table of its tuples is used instead)."""
        return None

    def supports(self, doms: list[int]) -> list[int] | None:
        """The digits of each cell (in ``cells`` order) that take part in some assignment
        of the rule's cells from the candidate masks ``doms`` satisfying the rule; None
        when no assignment does. Exact searches that fill a region cell by cell (the
        arrangement techniques) call it at each node to prune with a rule over a long
        scope. The default keeps every digit (it adds nothing): a rule offers it when it
        has a support function of its own (the outside clues' lines, ``Linear`` sums such
        as arrows, three-cell ``FunctionConstraint`` rules). It must never drop a digit
        that some satisfying assignment from ``doms`` uses (it may keep more).

        >>> class Any2(Constraint):
        ...     cells = (0, 1)
        >>> Any2().supports([0b110, 0b1000])
        [6, 8]
        """
        return list(doms)

    def attributes(self) -> dict:
        """Scalar attributes for graph views."""
        return {"kind": self.kind}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"


class SupportsPropagator(Propagator):
    """Propagates a rule by its own :meth:`Constraint.supports`: each cell keeps the digits
    some satisfying assignment uses (a cell listed twice, what every one of its places
    allows); no assignment is a contradiction named ``failure``. Supports are remembered
    per tuple of candidate masks (up to :data:`SUPPORTS_MEMO` of them): the rule is read
    again only on domains it has not seen."""

    events = Event.DOM

    def __init__(self, con: Constraint, cost: Cost = Cost.LINEAR,
                 failure: str = "no assignment satisfies it") -> None:
        self.con = con
        self.cells = con.cells
        self.scope = tuple(sorted(set(con.cells)))
        self.name = con.name
        self.cost = cost
        self.failure = failure
        self._memo: dict[tuple[int, ...], list[int] | None] = {}

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        doms = tuple(cand[c] for c in self.cells)
        sup = self._memo.get(doms, False)
        if sup is False:
            sup = self.con.supports(list(doms))
            if len(self._memo) < SUPPORTS_MEMO:
                self._memo[doms] = sup
        if sup is None:
            ctx.fail(self.failure, self.cells)
        reason = (self.name, self.cells)
        keep: dict[int, int] = {}
        for c, m in zip(self.cells, sup):
            keep[c] = keep.get(c, m) & m
        for c, m in keep.items():
            if cand[c] & ~m:
                ctx.remove(c, cand[c] & ~m, reason)
        return Status.FIX


#: domain tuples a :class:`SupportsPropagator` remembers the supports of (not measured: it
#: bounds the memory of one rule's memo)
SUPPORTS_MEMO = 4096
