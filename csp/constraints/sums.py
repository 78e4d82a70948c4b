"""Sum of cells (with or without all-different): exact supports on small scopes, otherwise
combination filtering (distinct) and bounds reasoning."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence

from .. import kernel
from ..bits import digits_of
from ..errors import InvalidConstraint
from ..events import Cost, Event, Status
from ..propagator import Context, Propagator
from .base import Automaton, Constraint, WeakLink

try:        # the compiled exact supports of a linear sum (optional; csp/kernel.py)
    from . import _linear_kernel
except ImportError:                                         # pragma: no cover - not built
    _linear_kernel = None

ENUM_LIMIT = 4096  # exact support enumeration when the product of domain sizes is at most this
MEMO_SIZE = 4096   # exact supports remembered per propagator, keyed by the scope's domains
#: digit combinations a distinct sum's propagator filters by at most; past this (a long
#: cage on a big grid: 17 cells of 1..35 have millions) it reasons on bounds only
COMBO_LIMIT = 5000
#: cells of a sum whose propagator the compiled engine loop may run itself (its
#: ``kernel_scan``: its exact supports in C while they are enumerated)
SCAN_CELLS = 12



def _enumerable(doms: Sequence[int]) -> bool:
    """Whether the product of the domain sizes of ``doms`` (candidate masks) is at most
    ``ENUM_LIMIT``, so that exact support enumeration is cheap enough.

    >>> _enumerable([0b1110] * 7), _enumerable([0b1110] * 8)
    (True, False)
    """
    prod = 1
    for m in doms:
        prod *= m.bit_count()
        if prod > ENUM_LIMIT:
            return False
    return True

def subset_sums(digits: Sequence[int], k: int) -> int:
    """Bit mask of the sums of ``k`` different digits of ``digits`` (bit s: some k of them
    add up to s); a few big-int shifts per digit, however many subsets there are.

    >>> bin(subset_sums([1, 2, 4], 2))     # 3, 5, 6
    '0b1101000'
    >>> subset_sums(range(1, 36), 17) >> 300 & 1, subset_sums([1, 2], 3)
    (1, 0)
    """
    digits = list(digits)
    if k < 0 or k > len(digits):
        return 0
    reach = [1] + [0] * k          # reach[j]: sums of j digits among those seen so far
    for i, d in enumerate(digits):
        for j in range(min(k, i + 1), 0, -1):
            reach[j] |= reach[j - 1] << d
    return reach[k]


def sum_subsets(digits: Sequence[int], k: int, total: int,
                limit: int | None = None) -> list[int] | None:
    """Masks of the ``k``-subsets of the different ``digits`` adding up to ``total``, in
    increasing order of their digits; None when there are more than ``limit``. The search
    only enters branches that can still reach ``total`` (:func:`subset_sums`), so it costs
    about ``k`` steps per subset found, and stops at ``limit + 1``.

    >>> [digits_of(m) for m in sum_subsets(range(1, 10), 3, 7)]
    [(1, 2, 4)]
    >>> sum_subsets(range(1, 36), 17, 300, limit=5000) is None
    True
    """
    ds = sorted(set(digits))
    m = len(ds)
    if k < 0 or k > m:
        return []
    # tail[i][j]: sums reachable with j digits of ds[i:]
    tail = [[0] * (k + 1) for _ in range(m + 1)]
    tail[m][0] = 1
    for i in range(m - 1, -1, -1):
        row, nxt, d = tail[i], tail[i + 1], ds[i]
        row[0] = 1
        for j in range(1, min(k, m - i) + 1):
            row[j] = nxt[j] | (nxt[j - 1] << d)
    if total < 0 or not tail[0][k] >> total & 1:
        return []
    out: list[int] = []
    stack = [(0, k, total, 0)]
    while stack:
        i, j, need, mask = stack.pop()
        if j == 0:
            out.append(mask)
            if limit is not None and len(out) > limit:
                return None
            continue
        # skip ds[i] (pushed first: taken branches come out first, in digit order)
        if i + 1 <= m - j and tail[i + 1][j] >> need & 1:
            stack.append((i + 1, j, need, mask))
        d = ds[i]
        if need >= d and tail[i + 1][j - 1] >> (need - d) & 1:
            stack.append((i + 1, j - 1, need - d, mask | 1 << d))
    return out


@lru_cache(maxsize=None)
def sum_combinations(n: int, k: int, total: int) -> tuple[int, ...]:
    """Masks of the k-subsets of 1..n summing to ``total``, in :func:`sum_subsets`' order
    (every one: callers on big grids bound the count first with :func:`sum_subsets` and a
    ``limit``). Up to :data:`TABLE_DIGITS` digits they come from one table per digit count
    (:func:`_combination_table`: every subset of 1..n, made once), not from a table of the
    totals some puzzle asked for.

    >>> [sorted(d for d in range(10) if m >> d & 1) for m in sum_combinations(9, 2, 4)]
    [[1, 3]]
    """
    if n <= TABLE_DIGITS:
        return _combination_table(n).get((k, total), ())
    return tuple(sum_subsets(range(1, n + 1), k, total) or ())


#: digit counts whose combinations by size and total are one table (4,096 subsets at 12)
TABLE_DIGITS = 12


@lru_cache(maxsize=None)
def _combination_table(n: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Per ``(k, total)`` the masks of the k-subsets of 1..n adding up to ``total``, in
    increasing order of their digits (``itertools.combinations``' order, which is
    :func:`sum_subsets`')."""
    from itertools import combinations
    out: dict[tuple[int, int], list[int]] = {}
    for k in range(n + 1):
        for combo in combinations(range(1, n + 1), k):
            m = 0
            for d in combo:
                m |= 1 << d
            out.setdefault((k, sum(combo)), []).append(m)
    return {key: tuple(v) for key, v in out.items()}


def distinct_sum_reachable(n: int, k: int, total: int) -> bool:
    """Whether ``k`` different digits of 1..n can add up to ``total``: the sums of k
    different digits of 1..n are every number from ``1 + ... + k`` to
    ``(n - k + 1) + ... + n``.

    >>> distinct_sum_reachable(9, 2, 17), distinct_sum_reachable(9, 2, 18)
    (True, False)
    """
    return 0 <= k <= n and k * (k + 1) // 2 <= total <= k * (2 * n - k + 1) // 2


def _sum_cells(cells: Sequence[int]) -> tuple[int, ...]:
    out = tuple(cells)
    if not out:
        raise InvalidConstraint("a sum needs at least one cell")
    if len(set(out)) != len(out):
        raise InvalidConstraint("a sum lists a cell twice")
    return out


def _validate_totals(name: str, k: int, n: int, totals: Sequence[int], distinct: bool) -> None:
    """InvalidConstraint unless ``k`` cells (different when ``distinct``) of 1..n can add
    up to one of ``totals``."""
    shown = ", ".join(map(str, totals))
    if distinct:
        if k > n:
            raise InvalidConstraint(f"{name}: {k} distinct cells cannot hold digits 1..{n}")
        if not any(distinct_sum_reachable(n, k, t) for t in totals):
            raise InvalidConstraint(f"{name}: no {k} different digits from 1..{n} add up to "
                                    + (shown if len(totals) == 1 else f"any of {shown}"))
    elif not any(k <= t <= k * n for t in totals):
        raise InvalidConstraint(f"{name}: {k} cells of 1..{n} cannot add up to "
                                + (shown if len(totals) == 1 else f"any of {shown}"))


def plain_sum_supports(doms: Sequence[int], totals: Iterable[int]) -> list[int]:
    """Per cell, the digits of its candidate mask in ``doms`` that some choice of one digit
    per cell (repeats allowed) adding up to one of ``totals`` uses: exact supports by
    reachable partial sums as bit masks (forward: the sums of the cells before it; backward:
    the sums the cells before it may still need), about ``2 * len(doms) * n`` big-int
    shifts however many assignments there are.

    >>> [digits_of(m) for m in plain_sum_supports([0b1110, 0b1110, 0b1111110], [11])]
    [(2, 3), (2, 3), (5, 6)]
    >>> plain_sum_supports([0b110, 0b110], [9])
    [0, 0]
    """
    k = len(doms)
    reach = [1] * (k + 1)           # reach[i]: sums of the cells before i
    for i, m in enumerate(doms):
        acc, r = 0, reach[i]
        while m:
            low = m & -m
            acc |= r << (low.bit_length() - 1)
            m ^= low
        reach[i + 1] = acc
    need = 0                        # sums the cells before i + 1 may add up to
    for t in totals:
        if t >= 0:
            need |= 1 << t
    out = [0] * k
    for i in range(k - 1, -1, -1):
        m, r, acc, sup = doms[i], reach[i], 0, 0
        while m:
            low = m & -m
            d = low.bit_length() - 1
            m ^= low
            if (r << d) & need:
                sup |= low
                acc |= need >> d
        out[i] = sup
        need = acc
    return out


class SumPropagator(Propagator):
    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True

    def __init__(self, cells: Sequence[int], total: int | Sequence[int], distinct: bool, n: int,
                 name: str):
        self.cells = tuple(cells)
        self.scope = tuple(sorted(self.cells))
        #: the allowed totals (one for a plain sum; several for a multi-sum cage)
        self.totals = frozenset([total] if isinstance(total, int) else total)
        self.lo_t, self.hi_t = min(self.totals), max(self.totals)
        self.total = self.lo_t
        self.distinct = distinct
        self.n = n
        self.name = name
        self.combos: tuple[int, ...] | None = None
        if distinct and len(cells) <= n:
            # the digit sets that fit, when few enough to filter by (else bounds only);
            # up to 12 digits from the table of every combination of 1..n by size and
            # total (sum_combinations, which the SAT encoding's cages read: the same masks
            # in the same order; a killer puzzle's cages searched them again per call)
            combos: list[int] = []
            k = len(cells)
            for t in sorted(self.totals):
                left = COMBO_LIMIT - len(combos)
                if n <= TABLE_DIGITS:
                    found: Sequence[int] | None = sum_combinations(n, k, t)
                    if len(found) > left:
                        break
                else:
                    found = sum_subsets(range(1, n + 1), k, t, left)
                    if found is None:
                        break
                combos.extend(found)
            else:
                self.combos = tuple(combos)
        self._memo: dict[tuple[int, ...], list[int]] = {}

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        cells = self.cells
        doms = [cand[c] for c in cells]
        if _enumerable(doms):
            key = tuple(doms)
            sup = self._memo.get(key)
            if sup is None:
                if len(self._memo) >= MEMO_SIZE:
                    self._memo.clear()
                sup = self._memo[key] = self._enumerate(doms)
            for c, m, s in zip(cells, doms, sup):
                if m & ~s:
                    ctx.remove(c, m & ~s, (self.name, cells))
            return Status.FIX
        changed = False
        if self.combos is not None:
            union_by_cell = [0] * len(cells)
            for combo in self.combos:
                u = 0
                ok = True
                for m in doms:
                    x = m & combo
                    if not x:
                        ok = False
                        break
                    u |= x
                if ok and u == combo:
                    for i, m in enumerate(doms):
                        union_by_cell[i] |= m & combo
            for i, c in enumerate(cells):
                if doms[i] & ~union_by_cell[i]:
                    ctx.remove(c, doms[i] & ~union_by_cell[i], (self.name, cells))
                    doms[i] = cand[c]
                    changed = True
        lo = [(m & -m).bit_length() - 1 for m in doms]
        hi = [m.bit_length() - 1 for m in doms]
        slo, shi = sum(lo), sum(hi)
        lo_t, hi_t = self.lo_t, self.hi_t
        if slo > hi_t or shi < lo_t:
            ctx.fail(f"sum {self._label()} out of reach", cells)
        for i, c in enumerate(cells):
            low_i = lo_t - (shi - hi[i])
            high_i = hi_t - (slo - lo[i])
            keep = doms[i]
            if low_i > lo[i]:
                keep &= ~((1 << low_i) - 1)
            if high_i < hi[i]:
                keep &= (1 << (high_i + 1)) - 1
            if keep != doms[i]:
                ctx.remove(c, doms[i] & ~keep, (self.name, cells))
                changed = True
        return Status.NOFIX if changed else Status.FIX

    def _label(self) -> str:
        return "/".join(map(str, sorted(self.totals)))

    def kernel_scan(self) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """One total over different cells: :meth:`propagate`'s exact branch in C
        (``csp.constraints._linear_kernel.linear_scan``: :func:`linear_supports` of unit
        coefficients, every earlier position a ``differ`` one when ``distinct``) for the
        compiled engine loop, which declines past :data:`ENUM_LIMIT` tuples (then
        :meth:`propagate` runs: its bounds); None otherwise (a setter puzzle's XV and sum
        dots ran here at 10-15 us a call)."""
        kern = kernel.active(_linear_kernel)
        k = len(self.cells)
        if (kern is None or len(self.totals) != 1 or not 1 <= k <= SCAN_CELLS
                or len(set(self.cells)) != k
                or type(self).propagate is not SumPropagator.propagate
                or type(self)._enumerate is not SumPropagator._enumerate):
            return None
        differ = _distinct_args(k)[1] if self.distinct else ((),) * k
        return kern.linear_scan, ((1,) * k, self.total, differ, ENUM_LIMIT)

    def _enumerate(self, doms: list[int]) -> list[int]:
        """Per cell, the digits of its domain in ``doms`` that some assignment of the
        scope adding up to one of the totals uses (different digits when ``distinct``)."""
        if not self.distinct:
            return plain_sum_supports(doms, self.totals)
        k = len(doms)
        kern = kernel.active(_linear_kernel)
        if kern is not None:
            # the compiled search of a linear sum whose cells all differ (the same
            # supports: the union of the fillings' digits, per total)
            ones, differ = _distinct_args(k)
            out = [0] * k
            for t in self.totals:
                got = kern.linear_supports(doms, ones, t, differ)
                if got is None:
                    break
                out = [a | b for a, b in zip(out, got)]
            else:
                return out
        return self._enumerate_py(doms)

    def _enumerate_py(self, doms: list[int]) -> list[int]:
        """:meth:`_enumerate` of a distinct sum in Python (the reference and the
        fallback of the compiled search)."""
        k = len(doms)
        order = sorted(range(k), key=lambda i: doms[i].bit_count())
        sd = [doms[i] for i in order]
        mins = [(m & -m).bit_length() - 1 for m in sd]
        maxs = [m.bit_length() - 1 for m in sd]
        rest_min = [0] * (k + 1)
        rest_max = [0] * (k + 1)
        for i in range(k - 1, -1, -1):
            rest_min[i] = rest_min[i + 1] + mins[i]
            rest_max[i] = rest_max[i + 1] + maxs[i]
        sup = [0] * k
        vals = [0] * k
        totals, lo_t, hi_t = self.totals, self.lo_t, self.hi_t
        distinct = self.distinct

        def rec(i: int, s: int, used: int) -> bool:
            if i == k:
                if s in totals:
                    for j in range(k):
                        sup[j] |= 1 << vals[j]
                    return True
                return False
            need_lo = lo_t - s - rest_max[i + 1]
            need_hi = hi_t - s - rest_min[i + 1]
            m = sd[i] & ~used if distinct else sd[i]
            found = False
            while m:
                low = m & -m
                d = low.bit_length() - 1
                m ^= low
                if d < need_lo:
                    continue
                if d > need_hi:
                    break
                vals[i] = d
                if rec(i + 1, s + d, used | low):
                    found = True
            return found

        rec(0, 0, 0)
        out = [0] * k
        for pos, i in enumerate(order):
            out[i] = sup[pos]
        return out


@lru_cache(maxsize=None)
def _distinct_args(k: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The coefficients and the ``differ`` rows of :func:`linear_supports` for a plain sum
    of ``k`` cells that all differ (by length alone: no puzzle's content)."""
    return (1,) * k, tuple(tuple(range(i)) for i in range(k))


def _sum_automaton(coeffs: Sequence[int], totals: Sequence[int],
                   distinct: bool = False) -> Automaton:
    """Partial sums ``sum(coeffs[j] * digit_j for j <= i)``; accepted when in ``totals``."""
    allowed = frozenset(totals)
    return Automaton(0, lambda i, s, d: s + coeffs[i] * d, allowed.__contains__, distinct)


class Sum(Constraint):
    """The digits of ``cells`` add up to ``total``; ``distinct`` also makes them a house
    (a killer cage)."""

    kind = "sum"

    def __init__(self, cells: Sequence[int], total: int, distinct: bool = False,
                 name: str = "") -> None:
        self.cells = _sum_cells(cells)
        self.total = int(total)
        self.distinct = distinct
        self.name = name or f"sum {total}"

    def validate(self, n: int) -> None:
        _validate_totals(self.name, len(self.cells), n, (self.total,), self.distinct)

    def propagators(self, n: int) -> list[Propagator]:
        return [SumPropagator(self.cells, self.total, self.distinct, n, self.name)]

    def house(self) -> tuple[int, ...] | None:
        return self.cells if self.distinct else None

    def weak_links(self, n: int) -> Iterator[WeakLink]:
        if len(self.cells) == 2:
            a, b = self.cells
            for v in range(1, n + 1):
                for w in range(1, n + 1):
                    if v + w != self.total:
                        yield ((a, v), (b, w))

    def check(self, *values: int) -> bool:
        if self.distinct and len(set(values)) != len(values):
            return False
        return sum(values) == self.total

    def automaton(self) -> Automaton:
        return _sum_automaton([1] * len(self.cells), (self.total,), self.distinct)

    def attributes(self) -> dict:
        return {"kind": self.kind, "total": self.total, "distinct": self.distinct}


class SumIn(Constraint):
    """The digits of ``cells`` add up to one of ``totals`` (a multi-sum or digital-root
    cage); ``distinct`` also makes them a house.

    >>> SumIn([0, 1], [3, 5], distinct=True).check(1, 4)
    True
    """

    kind = "sum_in"

    def __init__(self, cells: Sequence[int], totals: Sequence[int], distinct: bool = True,
                 name: str = "") -> None:
        self.cells = _sum_cells(cells)
        self.totals = tuple(sorted({int(t) for t in totals}))
        if not self.totals:
            raise InvalidConstraint("a multi-sum needs at least one total")
        self.distinct = distinct
        self.name = name or f"sum in {'/'.join(map(str, self.totals))}"

    def validate(self, n: int) -> None:
        _validate_totals(self.name, len(self.cells), n, self.totals, self.distinct)

    def propagators(self, n: int) -> list[Propagator]:
        return [SumPropagator(self.cells, self.totals, self.distinct, n, self.name)]

    def house(self) -> tuple[int, ...] | None:
        return self.cells if self.distinct else None

    def check(self, *values: int) -> bool:
        if self.distinct and len(set(values)) != len(values):
            return False
        return sum(values) in self.totals

    def automaton(self) -> Automaton:
        return _sum_automaton([1] * len(self.cells), self.totals, self.distinct)


def linear_supports(doms: Sequence[int], coeffs: Sequence[int], total: int,
                    differ: Sequence[Sequence[int]]) -> list[int]:
    """Supported digits per position of ``sum(coeffs[i] * digit_i) == total`` over the
    candidate masks ``doms``, position i holding a digit other than those of the earlier
    positions ``differ[i]`` (cells that share a house). Exact (a search with sum bounds).
    In the compiled ``csp.constraints._linear_kernel`` where it is built and takes the
    arguments (:func:`_linear_supports_py` otherwise: the same supports, since they are
    the union of the fillings' digits however these are found).

    >>> [digits_of(m) for m in linear_supports([0b1110, 0b1110, 0b1110], [1, 1, -1], 3,
    ...                                        [(), (0,), ()])]      # a + b - c = 3, a != b
    [(1, 2, 3), (1, 2, 3), (1, 2)]
    """
    kern = kernel.active(_linear_kernel)
    if kern is not None:
        got = kern.linear_supports(doms, coeffs, total, differ)
        if got is not None:
            return got
    return _linear_supports_py(doms, coeffs, total, differ)


def _linear_supports_py(doms: Sequence[int], coeffs: Sequence[int], total: int,
                        differ: Sequence[Sequence[int]]) -> list[int]:
    """:func:`linear_supports` in Python (the compiled kernel's reference and fallback).

    >>> [digits_of(m) for m in _linear_supports_py([0b1110, 0b1110, 0b1110], [1, 1, -1], 3,
    ...                                            [(), (0,), ()])]
    [(1, 2, 3), (1, 2, 3), (1, 2)]
    """
    k = len(doms)
    lists = [digits_of(m) for m in doms]
    free = _free_linear_supports(lists, coeffs, total)
    if not any(differ):
        return free
    # a digit without a filling of the sum alone has none where cells differ either:
    # the search runs on the sum's own supports (the same fillings, fewer dead ends)
    if not all(free):
        return [0] * k
    lists = [digits_of(m) for m in free]
    lo = [min(a * d for d in l) if l else 0 for a, l in zip(coeffs, lists)]
    hi = [max(a * d for d in l) if l else 0 for a, l in zip(coeffs, lists)]
    rest_lo = [0] * (k + 1)
    rest_hi = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        rest_lo[i] = rest_lo[i + 1] + lo[i]
        rest_hi[i] = rest_hi[i + 1] + hi[i]
    sup = [0] * k
    vals = [0] * k
    #: want[i]: 1 while some position >= i has a digit without a filling found yet
    want = [1] * k + [0]
    doms = [sum(1 << d for d in l) for l in lists]

    def rec(i: int, s: int, fresh: bool) -> None:
        # ``fresh``: some digit placed before position i is not yet supported. A branch
        # that has none and whose later positions are all supported already can only
        # find fillings whose digits are supported: it is passed over (the same supports)
        if i == k:
            if s == total:
                for j in range(k):
                    sup[j] |= 1 << vals[j]
                w = 0
                for j in range(k - 1, -1, -1):
                    if doms[j] & ~sup[j]:
                        w = 1
                    want[j] = w
                if not w:
                    raise _AllSupported
            return
        if not fresh and not want[i]:
            return
        a = coeffs[i]
        forb = 0                     # digits of the earlier cells this one must differ from
        for j in differ[i]:
            forb |= 1 << vals[j]
        for d in lists[i]:
            if forb >> d & 1:
                continue
            t = s + a * d
            if t + rest_lo[i + 1] <= total <= t + rest_hi[i + 1]:
                vals[i] = d
                rec(i + 1, t, fresh or not sup[i] >> d & 1)

    try:
        rec(0, 0, False)
    except _AllSupported:
        pass
    return sup


def _free_linear_supports(lists: list[tuple[int, ...]], coeffs: Sequence[int],
                          total: int) -> list[int]:
    """:func:`linear_supports` when no two positions must differ: the partial sums reachable
    after each position (forward) and those from which ``total`` is still reachable
    (backward), as bit sets (bit ``s + off`` for the sum ``s``); a digit is supported when
    it joins the two. The same supports as the search, in k big-int shifts per digit.

    >>> [digits_of(m) for m in _free_linear_supports([(1, 2, 3), (1, 2, 3), (1, 2, 3)],
    ...                                              [1, 1, -1], 3)]
    [(1, 2, 3), (1, 2, 3), (1, 2, 3)]
    """
    k = len(lists)
    # every partial sum is at least -off: bit indices stay non-negative
    off = sum(max(0, -min(a * d for d in l)) for a, l in zip(coeffs, lists) if l)
    if total + off < 0:
        return [0] * k
    fwd = [1 << off]
    for a, l in zip(coeffs, lists):
        f, nxt = fwd[-1], 0
        for d in l:
            x = a * d
            nxt |= f << x if x >= 0 else f >> -x
        fwd.append(nxt)
    goal = 1 << (total + off)
    if not fwd[k] & goal:
        return [0] * k
    sup = [0] * k
    for i in range(k - 1, -1, -1):
        a, f, prev = coeffs[i], fwd[i], 0
        for d in lists[i]:
            x = a * d
            back = goal >> x if x >= 0 else goal << -x
            if f & back:
                sup[i] |= 1 << d
                prev |= back
        goal = prev
    return sup


class _AllSupported(Exception):
    """Every digit of :func:`linear_supports`' domains has a filling: nothing left to find."""


def _bound_supports(doms: Sequence[int], coeffs: Sequence[int],
                    total: int) -> list[int] | None:
    """The digits of each position within the bounds of ``sum(coeffs[i] * digit_i) ==
    total`` (one pass), or None when the total is out of reach.

    >>> [digits_of(m) for m in _bound_supports([0b1110, 0b1110, 0b1111111110], [1, 1, -1], 0)]
    [(1, 2, 3), (1, 2, 3), (2, 3, 4, 5, 6)]
    """
    lo = [min(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1))
          for a, m in zip(coeffs, doms)]
    hi = [max(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1))
          for a, m in zip(coeffs, doms)]
    slo, shi = sum(lo), sum(hi)
    if not all(doms) or slo > total or shi < total:
        return None
    out = []
    for a, m, l, h in zip(coeffs, doms, lo, hi):
        lo_t, hi_t = total - (shi - h), total - (slo - l)
        keep = 0
        for d in digits_of(m):
            if lo_t <= a * d <= hi_t:
                keep |= 1 << d
        if not keep:
            return None
        out.append(keep)
    return out


class LinearPropagator(Propagator):
    """sum(coef_i * v_i) == total: exact supports when small, bounds otherwise."""

    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True

    def __init__(self, cells: Sequence[int], coeffs: Sequence[int], total: int, name: str,
                 differ: Sequence[Sequence[int]] = ()):
        self.cells = tuple(cells)
        self.coeffs = tuple(coeffs)
        #: differ[i]: earlier positions j < i whose cell must hold a different digit
        self.differ = tuple(tuple(x) for x in differ) or tuple(() for _ in self.cells)
        self.scope = tuple(sorted(set(self.cells)))
        self.total = total
        self.name = name
        self._memo: dict[tuple[int, ...], dict[int, int]] = {}

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        cells = self.cells
        doms = [cand[c] for c in cells]
        if _enumerable(doms):
            key = tuple(doms)
            per_cell = self._memo.get(key)
            if per_cell is None:
                if len(self._memo) >= MEMO_SIZE:
                    self._memo.clear()
                per_cell = self._memo[key] = self._supports(doms)
            for c, s in per_cell.items():
                if cand[c] & ~s:
                    ctx.remove(c, cand[c] & ~s, (self.name, cells))
            return Status.FIX
        return self._bounds(ctx, doms)

    def kernel_scan(self) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """Different cells: :meth:`propagate`'s exact branch in C
        (``csp.constraints._linear_kernel.linear_scan``, :func:`linear_supports`) for the
        compiled engine loop, which declines past :data:`ENUM_LIMIT` tuples (then
        :meth:`propagate` runs: its bounds); None otherwise."""
        kern = kernel.active(_linear_kernel)
        k = len(self.cells)
        if (kern is None or not 1 <= k <= SCAN_CELLS or len(set(self.cells)) != k
                or type(self).propagate is not LinearPropagator.propagate
                or type(self)._supports is not LinearPropagator._supports):
            return None
        return kern.linear_scan, (self.coeffs, self.total, self.differ, ENUM_LIMIT)

    def _supports(self, doms: list[int]) -> dict[int, int]:
        sup = linear_supports(doms, self.coeffs, self.total, self.differ)
        # a cell listed twice must take one value: keep supports per position, intersect
        per_cell: dict[int, int] = {}
        for c, x in zip(self.cells, sup):
            per_cell[c] = per_cell.get(c, -1) & x
        return per_cell

    def _bounds(self, ctx: Context, doms: list[int]) -> Status:
        cand = ctx.cand
        cells, coeffs, total = self.cells, self.coeffs, self.total
        changed = False
        lo = [min(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1)) for a, m in zip(coeffs, doms)]
        hi = [max(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1)) for a, m in zip(coeffs, doms)]
        slo, shi = sum(lo), sum(hi)
        if slo > total or shi < total:
            ctx.fail(f"total {total} out of reach", cells)
        for i, c in enumerate(cells):
            a = coeffs[i]
            if a == 0:
                continue
            # a*v must lie in [total - (shi - hi_i), total - (slo - lo_i)]
            lo_t = total - (shi - hi[i])
            hi_t = total - (slo - lo[i])
            # the digits d with lo_t <= a * d <= hi_t: a range of digits, one mask
            if a > 0:
                dlo, dhi = -(-lo_t // a), hi_t // a
            else:
                dlo, dhi = -(hi_t // -a), lo_t // a
            m = cand[c]
            keep = m & ((1 << (dhi + 1)) - (1 << dlo)) if dhi >= dlo >= 0 else \
                m & ((1 << (dhi + 1)) - 1) if dhi >= 0 > dlo else 0
            if keep != m:
                ctx.remove(c, m & ~keep, (self.name, cells))
                changed = True
        return Status.NOFIX if changed else Status.FIX


def house_mates(puzzle) -> list[int]:
    """Per cell of a (frozen) ``puzzle``, the bitset of the cells some house of the puzzle
    holds with it (itself included), made once per puzzle (:meth:`csp.Puzzle.derived`)
    for the sums' :meth:`Linear.compile`."""
    mates = [0] * puzzle.grid.size
    # the rules' houses read straight (the cells of :meth:`csp.Puzzle.houses`, without its
    # named House objects: a cold call made them for this alone, 21 of u052's 42 us)
    for con in puzzle.constraints:
        h = con.house()
        if h is None:
            continue
        bits = 0
        for c in h:
            bits |= 1 << c
        for c in h:
            mates[c] |= bits
    return mates


class Linear(Constraint):
    """``sum(coeffs[i] * digit(cells[i])) == total`` (arrows: shaft minus circle == 0).

    >>> Linear([0, 1, 2], [1, 1, -1], 0).check(2, 3, 5)
    True
    """

    kind = "linear"
    repeats = True

    def __init__(self, cells: Sequence[int], coeffs: Sequence[int], total: int = 0,
                 name: str = "") -> None:
        if len(cells) != len(coeffs) or not cells:
            raise InvalidConstraint("linear constraint: one coefficient per cell needed")
        self.cells = tuple(cells)
        self.coeffs = tuple(int(a) for a in coeffs)
        self.total = int(total)
        self.name = name or "linear"
        self._support_memo: dict[tuple[int, ...], list[int] | None] = {}

    def compile(self, puzzle) -> list[Propagator]:
        """The propagator also knows which of its cells must differ (shared houses)."""
        mates = puzzle.derived(house_mates)
        cells = self.cells
        differ = []
        for i, c in enumerate(cells):
            m = mates[c]
            differ.append([j for j in range(i) if cells[j] != c and m >> cells[j] & 1])
        return [LinearPropagator(self.cells, self.coeffs, self.total, self.name, differ)]

    def check(self, *values: int) -> bool:
        return sum(a * v for a, v in zip(self.coeffs, values)) == self.total

    def supports(self, doms: list[int]) -> list[int] | None:
        """Supports per position of the sum alone (cells may repeat digits here): exact
        (:func:`linear_supports`) while the product of the domain sizes is at most
        ``ENUM_LIMIT``, the sum's bounds otherwise; remembered per domain tuple.

        >>> [digits_of(m) for m in Linear([0, 1, 2], [1, 1, -1], 0).supports([0b110, 0b110, 0b1110])]
        [(1, 2), (1, 2), (2, 3)]
        """
        key = tuple(doms)
        memo = self._support_memo
        if key in memo:
            return memo[key]
        if _enumerable(doms):
            sup: list[int] | None = linear_supports(doms, self.coeffs, self.total,
                                                    [()] * len(doms))
            if not all(sup):
                sup = None
        else:
            sup = _bound_supports(doms, self.coeffs, self.total)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = sup
        return sup

    def automaton(self) -> Automaton:
        return _sum_automaton(self.coeffs, (self.total,))

    def attributes(self) -> dict:
        return {"kind": self.kind, "total": self.total,
                "coeffs": ",".join(map(str, self.coeffs))}
