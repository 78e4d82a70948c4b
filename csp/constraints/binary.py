"""Binary relations as support tables with arc consistency (two passes reach the fixpoint)."""
from __future__ import annotations

from enum import Enum
from typing import Callable, Hashable, Iterable, Iterator

from ..bits import union_of
from ..errors import InvalidConstraint
from ..events import Cost, Event, Status
from ..propagator import Context, Propagator
from .base import Constraint, WeakLink


class BinaryTable(Propagator):
    """Arc consistency for a binary relation given by support masks:
    ``sup_a[v]`` = digits of b compatible with a=v, ``sup_b[w]`` likewise.

    Returns ``Status.SUBSUMED`` once the relation is entailed (every digit left in a goes
    with every digit left in b: one side fixed, or ``max(a) < min(b)`` for a ``Less``).

    >>> from csp.propagator import Context
    >>> t = Less(0, 1).propagators(9)[0]
    >>> cand = [0b0000001110, 0b0011100000]   # a in {1, 2, 3}, b in {5, 6, 7}
    >>> t.propagate(Context(cand))
    <Status.SUBSUMED: 'subsumed'>
    >>> cand = [0b0000111110, 0b0000011110]   # a in 1..5, b in 1..4: a loses 4 and 5
    >>> t.propagate(Context(cand)), bin(cand[0]), bin(cand[1])
    (<Status.FIX: 'fix'>, '0b1110', '0b11100')
    """

    cost = Cost.BINARY
    events = Event.DOM
    history_free = True

    __slots__ = ("a", "b", "sup_a", "sup_b", "name", "scope", "uni_a", "uni_b", "both_a")

    def __init__(self, a: int, b: int, sup_a: tuple[int, ...], sup_b: tuple[int, ...],
                 name: str, tables: "_MaskTables | None" = None,
                 scope: tuple[int, int] | None = None) -> None:
        self.a, self.b = a, b
        self.sup_a, self.sup_b = sup_a, sup_b
        self.name = name
        # ``scope``: the cells ascending when the caller has that tuple (a relation's own
        # cells: one tuple fewer per relation for the collector to count and walk)
        self.scope = scope if scope is not None else (a, b) if a < b else (b, a)
        #: supports of a whole candidate mask (small grids): one lookup per side;
        #: ``both_a[mask]``: digits of b compatible with every digit of ``mask`` in a
        if tables is None:
            self.uni_a = self.uni_b = self.both_a = None
        else:
            self.uni_a, self.uni_b, self.both_a = tables

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        a, b = self.a, self.b
        ma, mb = cand[a], cand[b]
        uni = self.uni_a
        if uni is not None:
            drop = mb & ~uni[ma]
            if drop:
                ctx.remove(b, drop, (self.name, (a,)))
                mb = cand[b]
            drop = ma & ~self.uni_b[mb]
            if drop:
                ctx.remove(a, drop, (self.name, (b,)))
                ma = cand[a]
            if mb & ~self.both_a[ma]:
                return Status.FIX
            return Status.SUBSUMED
        # grids past UNION_MAX_N: the union of the supports, digit by digit
        s = union_of(self.sup_a, ma)
        if mb & ~s:
            ctx.remove(b, mb & ~s, (self.name, (a,)))
            mb = cand[b]
        s = union_of(self.sup_b, mb)
        if ma & ~s:
            ctx.remove(a, ma & ~s, (self.name, (b,)))
            ma = cand[a]
        if ma & (ma - 1) and mb & (mb - 1):
            return Status.FIX
        return Status.SUBSUMED             # one side fixed: its supports hold the other


_TABLES: dict = {}
_UNIONS: dict = {}
#: grids up to this size get mask-indexed support tables (2**(n+1) entries per side)
UNION_MAX_N = 10

#: (union of the supports in b of a mask of a, the same from b, intersection from a)
_MaskTables = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _unions(pred_key, sup_a: tuple[int, ...], sup_b: tuple[int, ...], n: int
            ) -> _MaskTables | None:
    """``uni[mask]`` = the union of the supports of the digits in ``mask`` (each side), and
    ``both[mask]`` = their intersection (side a)."""
    if n > UNION_MAX_N:
        return None
    hit = _UNIONS.get((pred_key, n))
    if hit is None:
        # built by doubling: the masks holding bit b are those below 1 << b with it added
        # (a list comprehension a bit: a new relation's first call built these 3 * 2**(n+1)
        # entries one at a time, 0.5-1.5 ms on a 9x9 puzzle, a fifth of its call)
        out = []
        for sup in (sup_a, sup_b):
            u = [0]
            for b in range(n + 1):
                s = sup[b]
                u += [x | s for x in u]
            out.append(tuple(u))
        both = [((1 << n) - 1) << 1]
        for b in range(n + 1):
            s = sup_a[b]
            both += [x & s for x in both]
        hit = _UNIONS[(pred_key, n)] = (out[0], out[1], tuple(both))
    return hit


def _tables(pred_key, pred: Callable[[int, int], bool], n: int):
    hit = _TABLES.get((pred_key, n))
    if hit is not None:
        return hit
    sup_a = [0] * (n + 2)
    sup_b = [0] * (n + 2)
    for v in range(1, n + 1):
        for w in range(1, n + 1):
            if pred(v, w):
                sup_a[v] |= 1 << w
                sup_b[w] |= 1 << v
    _TABLES[(pred_key, n)] = out = (tuple(sup_a), tuple(sup_b))
    return out


class RelationKind(Enum):
    """What a :class:`Relation` states between its cells ``a`` and ``b``. The number that
    goes with it (the difference, the ratio) or the pair set is the relation's ``param``.

    >>> r = AbsDiff(0, 1, 2)
    >>> r.relation, r.param, r.relation is RelationKind.ABS_DIFF
    (<RelationKind.ABS_DIFF: 'absdiff'>, 2, True)
    """

    LT = "lt"                       # a < b
    LE = "le"                       # a <= b
    EQ = "eq"                       # a == b
    NE = "ne"                       # a != b
    ABS_DIFF = "absdiff"            # |a - b| == param
    NOT_ABS_DIFF = "notabsdiff"     # |a - b| != param
    RATIO = "ratio"                 # a == param * b or b == param * a
    NOT_RATIO = "notratio"          # neither
    PAIRS = "pairs"                 # (a, b) in param (a frozenset of pairs)
    CUSTOM = "custom"               # any other predicate

    # a member is equal only to itself, so the identity hash serves; Enum's own hashes the
    # member's name in a Python call, and every relation's key (``(kind, param)``) is
    # hashed two or three times as a cold engine build looks up its tables
    __hash__ = object.__hash__


#: ``(kind, None)``, the key of a relation of each kind without a param (shared)
_PLAIN_KEYS = {kind: (kind, None) for kind in RelationKind}


class Relation(Constraint):
    """``pred(value_a, value_b)`` must hold between cells ``a`` and ``b``.

    ``relation`` (a :class:`RelationKind`) and ``param`` say what the relation is, for
    code that reads a puzzle's rules (ordering bounds, difference logic, drawing);
    ``label`` is the operator shown in names (``<``, ``|-|=1`` ...). ``key`` identifies the
    predicate for table caching only (relations with equal keys share support tables): it
    defaults to ``(relation, param)`` for the kinds above and to the predicate itself for a
    custom one, whose maker may give a hashable key of its own (e.g. ``("apart", 2)``).
    """

    kind = "relation"
    #: the digit count and tables of the last :meth:`tables` (0: none yet; two attributes,
    #: not a pair: no tuple a relation that a cold call counts and walks); class defaults
    #: until the first :meth:`tables` (two stores fewer per relation made)
    _tables_for = 0
    _tables_got: tuple | None = None
    #: a class default, stored on a relation only when it is True (most relations are made
    #: with their names: one store fewer a relation)
    auto_name = False

    def __init__(self, a: int, b: int, pred: Callable[[int, int], bool], label: str = "rel",
                 key: Hashable = None, name: str = "",
                 relation: RelationKind = RelationKind.CUSTOM, param: Hashable = None) -> None:
        if a == b:
            raise InvalidConstraint(f"a relation needs two different cells, got cell {a} twice")
        self.a, self.b = a, b
        self.cells = (a, b)
        self.pred = pred
        self.label = label
        self.relation = relation
        self.param = param
        if key is None:
            if relation is RelationKind.CUSTOM:
                key = ("pred", pred)
            elif param is None:        # one shared key a kind (no tuple a relation made)
                key = _PLAIN_KEYS[relation]
            else:
                key = (relation, param)
        self.key = key
        if name:
            self.name = name
        else:
            self.auto_name = True
            self.name = f"{label}@{a},{b}"

    def digit_symmetric(self) -> bool:
        """Equal and not-equal relations (palindromes, clones, anti-knight pairs) read only
        whether the two digits are equal.

        >>> from csp.constraints import AbsDiff
        >>> NotEqual(0, 1).digit_symmetric(), AbsDiff(0, 1, 1).digit_symmetric()
        (True, False)
        """
        return self.relation is RelationKind.EQ or self.relation is RelationKind.NE

    def name_from(self, grid) -> None:
        if self.auto_name:
            self.name = f"{grid.name(self.a)}{self.label}{grid.name(self.b)}"
            self.auto_name = False

    def tables(self, n: int):
        if self._tables_for == n:
            return self._tables_got
        out = _tables(self.key, self.pred, n)
        self._tables_got = out          # (a relation's key may hash slowly: an enum)
        self._tables_for = n
        return out

    def propagators(self, n: int) -> list[Propagator]:
        sa, sb = self.tables(n)
        return [BinaryTable(self.a, self.b, sa, sb, self.name, _unions(self.key, sa, sb, n),
                            self.cells if self.a < self.b else None)]

    def table_propagator(self, n: int, memo: dict) -> "BinaryTable":
        """``propagators(n)[0]`` (the same tables), for a caller that builds many:
        ``memo`` keeps each relation key's tables between its calls (one engine's build,
        the same ``n``)."""
        key = self.key
        hit = memo.get(key)
        if hit is None:
            sa, sb = self.tables(n)
            hit = memo[key] = (sa, sb, _unions(key, sa, sb, n))
        return BinaryTable(self.a, self.b, hit[0], hit[1], self.name, hit[2],
                           self.cells if self.a < self.b else None)

    def weak_links(self, n: int) -> Iterator[WeakLink]:
        sa, _ = self.tables(n)
        full = ((1 << n) - 1) << 1
        for v in range(1, n + 1):
            bad = full & ~sa[v]
            for w in range(1, n + 1):
                if bad >> w & 1:
                    yield ((self.a, v), (self.b, w))

    def check(self, va: int, vb: int) -> bool:
        return bool(self.pred(va, vb))

    def attributes(self) -> dict:
        return {"kind": self.kind, "label": self.label}


def _lt(x: int, y: int) -> bool:
    return x < y


def _le(x: int, y: int) -> bool:
    return x <= y


def _eq(x: int, y: int) -> bool:
    return x == y


def _ne(x: int, y: int) -> bool:
    return x != y


class _Diff:
    __slots__ = ("d", "neg")

    def __init__(self, d: int, neg: bool) -> None:
        self.d, self.neg = d, neg

    def __call__(self, x: int, y: int) -> bool:
        return (abs(x - y) == self.d) != self.neg


class _Ratio:
    __slots__ = ("r", "neg")

    def __init__(self, r: int, neg: bool) -> None:
        self.r, self.neg = r, neg

    def __call__(self, x: int, y: int) -> bool:
        return (x == self.r * y or y == self.r * x) != self.neg


_new = object.__new__


def named_relation(a: int, b: int, pred: Callable[[int, int], bool], label: str,
                    key: Hashable, name: str,
                    relation: RelationKind = RelationKind.CUSTOM,
                    param: Hashable = None) -> Relation:
    """``Relation(a, b, pred, label, key, name, relation, param)`` for a maker whose cells
    differ, whose ``name`` is not empty and whose ``key`` is given (what the constructor
    would make of it): the same attributes stored in the same order, without the
    constructor's call and checks (a setter puzzle's rules make hundreds of relations).
    Any other arguments go to the constructor (its checks and errors).

    >>> vars(NotEqual(3, 4, "x")) == vars(Relation(3, 4, _ne, "!=", None, "x", RelationKind.NE))
    True
    >>> vars(AbsDiff(3, 4, 2, "d"))["key"] == Relation(3, 4, _ne, "", None, "d",
    ...                                                RelationKind.ABS_DIFF, 2).key
    True
    >>> NotEqual(4, 4, "x")
    Traceback (most recent call last):
    ...
    csp.errors.InvalidConstraint: a relation needs two different cells, got cell 4 twice
    """
    if a == b or not name or key is None:
        return Relation(a, b, pred, label, key, name, relation, param)
    r = _new(Relation)
    r.a = a
    r.b = b
    r.cells = (a, b)
    r.pred = pred
    r.label = label
    r.relation = relation
    r.param = param
    r.key = key
    r.name = name
    return r


_LT, _LE, _EQ, _NE = RelationKind.LT, RelationKind.LE, RelationKind.EQ, RelationKind.NE
_LT_KEY, _LE_KEY, _EQ_KEY, _NE_KEY = (_PLAIN_KEYS[k] for k in (_LT, _LE, _EQ, _NE))


def Less(a: int, b: int, name: str = "") -> Relation:
    """a < b."""
    return named_relation(a, b, _lt, "<", _LT_KEY, name, _LT)


def LessEqual(a: int, b: int, name: str = "") -> Relation:
    return named_relation(a, b, _le, "<=", _LE_KEY, name, _LE)


def Equal(a: int, b: int, name: str = "") -> Relation:
    return named_relation(a, b, _eq, "==", _EQ_KEY, name, _EQ)


def NotEqual(a: int, b: int, name: str = "") -> Relation:
    return named_relation(a, b, _ne, "!=", _NE_KEY, name, _NE)


def AbsDiff(a: int, b: int, d: int = 1, name: str = "") -> Relation:
    """|a - b| == d (a white Kropki dot when d = 1)."""
    return named_relation(a, b, _Diff(d, False), f"|-|={d}", (RelationKind.ABS_DIFF, d), name,
                           RelationKind.ABS_DIFF, d)


def NotAbsDiff(a: int, b: int, d: int = 1, name: str = "") -> Relation:
    """|a - b| != d (non-consecutive when d = 1)."""
    return Relation(a, b, _Diff(d, True), f"|-|!={d}", None, name, RelationKind.NOT_ABS_DIFF, d)


def Ratio(a: int, b: int, r: int = 2, name: str = "") -> Relation:
    """a == r*b or b == r*a (a black Kropki dot when r = 2)."""
    return named_relation(a, b, _Ratio(r, False), f"ratio={r}", (RelationKind.RATIO, r), name,
                           RelationKind.RATIO, r)


def NotRatio(a: int, b: int, r: int = 2, name: str = "") -> Relation:
    return Relation(a, b, _Ratio(r, True), f"ratio!={r}", None, name, RelationKind.NOT_RATIO, r)


def AllowedPairs(a: int, b: int, pairs: Iterable[tuple[int, int]], name: str = "") -> Relation:
    """(value_a, value_b) must be one of ``pairs``."""
    allowed = frozenset((int(x), int(y)) for x, y in pairs)
    return Relation(a, b, lambda x, y: (x, y) in allowed, "pairs", None, name,
                    RelationKind.PAIRS, allowed)
