"""Outside clues on a row or column: sandwich sums, X-sums, skyscrapers.

A clue sits outside the grid at 1-based (row, col) with row or col 0 or n+1; the line it
reads runs away from it. The line is a row or column, so it holds each digit once: every clue
propagates exactly over the permutations of its line (dynamic programming over the set of
digits placed so far, with a bitmask of partial sums or counts per set), and the two
skyscraper clues of one line share one propagator.

The sets of digits grow as 2 to the number of open cells: a 16x16 line is exact from the
start (65,536 sets, about a second), an empty 25x25 line would hold 33 million. Past
:data:`SCAN_LIMIT` sets (a bound read from the domains first: :func:`scan_size`) a clue
keeps every digit and waits until more of its line is known; a line whose cells are all
placed is always checked, so search stays exact. The scans tick the call's budget
(``ctx.tick``), so a time limit stops them.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(4).use(classic(), skyscraper(0, 1, 4))
>>> [p.propagate().candidates(f"r{r}c1") for r in range(1, 5)]
[(1,), (2,), (3,), (4,)]
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from math import comb
from typing import Any, Callable, Sequence

from csp import Puzzle
from csp.bits import digits_of
from csp.constraints import Automaton, Constraint
from csp.errors import InvalidConstraint
from csp.events import Cost, Event, Status
from csp.kernel import active
from csp.propagator import Context, Propagator
from csp.text import quoted

try:
    from . import _sky_kernel
except ImportError:  # not built (no C compiler): the pure-Python path
    _sky_kernel = None


#: digit sets an exact scan of a line may hold, by :func:`scan_size`'s bound, at most (every
#: 16x16 line fits: 2 ** 16 sets)
SCAN_LIMIT = 70_000


def scan_size(doms: list[int], limit: int = SCAN_LIMIT) -> int:
    """A bound on the digit sets the layers of a scan over cells with candidate masks
    ``doms`` hold in all (reading stops past ``limit``): after ``i`` cells, at most the
    sets before times the digits of cell ``i``, and at most ``C(u, i)`` for the ``u``
    digits the first ``i`` cells can hold.

    >>> full16, full25 = (1 << 17) - 2, (1 << 26) - 2
    >>> scan_size([full16] * 16, 10 ** 9)     # an empty 16x16 line: every subset of 1..16
    65536
    >>> scan_size([full25] * 25) > SCAN_LIMIT  # an empty 25x25 line
    True
    >>> scan_size([1 << d for d in range(1, 21)] + [full25] * 5)   # 20 cells placed
    997
    """
    total = layer = 1
    union = 0
    for i, m in enumerate(doms, 1):
        union |= m
        layer = min(layer * m.bit_count(), comb(union.bit_count(), i))
        total += layer
        if total > limit:
            break
    return total


def line_from_clue(n: int, row: int, col: int) -> list[int]:
    """Cell ids of the row/column read from an outside clue, nearest first."""
    if row in (0, n + 1) and 1 <= col <= n:
        rows = range(n) if row == 0 else range(n - 1, -1, -1)
        return [r * n + col - 1 for r in rows]
    if col in (0, n + 1) and 1 <= row <= n:
        cols = range(n) if col == 0 else range(n - 1, -1, -1)
        return [(row - 1) * n + c for c in cols]
    raise InvalidConstraint(f"outside clue at r{row}c{col} is not next to a row or column "
                            f"of a {n}x{n} grid")


class _ScanRule:
    """A rule read along an outside clue's line (each digit once): ``rule(*digits)`` checks a
    full line; ``init``, ``trans``, ``inv`` and ``accept`` drive :func:`_perm_scan`;
    :meth:`automaton` gives the SAT encoding its automaton."""

    init: int = 1
    accept: int = 1
    #: ``(n, kind, total)`` for the compiled scan (``_sky_kernel.scan_supports``: kind 0
    #: sandwich, 1 X-sum), None for a rule it does not know
    kernel_spec: tuple[int, int, int] | None = None

    def trans(self, i: int, s: int, low: int, d: int, m: int) -> int:  # pragma: no cover
        raise NotImplementedError

    def inv(self, i: int, s: int, low: int, d: int, g: int) -> int:  # pragma: no cover
        raise NotImplementedError

    def automaton(self) -> Automaton:  # pragma: no cover - interface
        raise NotImplementedError

    def __call__(self, *v: int) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


class _Sandwich(_ScanRule):
    """Sandwich rule; as a scan (:func:`_perm_scan`) the value mask holds the partial sums
    between the first crust and the current cell (a dummy 1 outside the crusts)."""

    def __init__(self, total: int, n: int) -> None:
        self.total, self.n = total, n
        self.kernel_spec = (n, 0, total)
        self.ends = 2 | 1 << n
        self.cap = (1 << (total + 1)) - 1
        self.init = 1
        self.accept = 1

    def trans(self, i: int, s: int, low: int, d: int, m: int) -> int:
        ends = self.ends
        e = s & ends
        if low & ends:
            if not e:
                return 1                                  # the first crust
            return m >> self.total & 1                    # the second: the sum is complete
        if e and e != ends:
            return (m << d) & self.cap
        return m

    def inv(self, i: int, s: int, low: int, d: int, g: int) -> int:
        ends = self.ends
        e = s & ends
        if low & ends:
            if not e:
                return -1 if g & 1 else 0
            return 1 << self.total if g & 1 else 0
        if e and e != ends:
            return g >> d
        return g

    def automaton(self) -> Automaton:
        """State (crusts seen, sum since the first crust)."""
        n, total = self.n, self.total

        def step(i: int, s: tuple[int, int], d: int) -> tuple[int, int] | None:
            seen, acc = s
            if d == 1 or d == n:
                if seen == 0:
                    return (1, 0)
                return (2, 0) if seen == 1 and acc == total else None
            if seen == 1:
                return (1, acc + d) if acc + d <= total else None
            return s

        return Automaton((0, 0), step, lambda s: s[0] == 2, True)

    def __call__(self, *v: int) -> bool:
        i, j = v.index(1), v.index(self.n)
        lo, hi = min(i, j), max(i, j)
        return sum(v[lo + 1:hi]) == self.total


class _XSum(_ScanRule):
    """X-sum rule; as a scan (:func:`_perm_scan`) the value mask has one block of bits per
    first digit X (block X, bit s: the first cells add up to s), blocks wide enough that a
    sum past the total never reaches the next block's valid bits."""

    def __init__(self, total: int, n: int = 0) -> None:
        self.total = total
        self.n = n
        self.kernel_spec = (n, 1, total)
        width = self.width = total + n + 1
        ones = (1 << (total + 1)) - 1
        self.valid = sum(ones << (x * width) for x in range(1, n + 1))
        # open[i]: the blocks of the X that still take the digit at position i (X > i)
        self.open = [sum(ones << (x * width) for x in range(i + 1, n + 1))
                     for i in range(n + 1)]
        self.init = 1
        self.accept = sum(1 << (x * width + total) for x in range(1, n + 1))

    def trans(self, i: int, s: int, low: int, d: int, m: int) -> int:
        if not i:
            return 1 << (d * self.width + d) if d <= self.total else 0
        grow = m & self.open[i]
        return (m ^ grow) | ((grow << d) & self.valid)

    def inv(self, i: int, s: int, low: int, d: int, g: int) -> int:
        if not i:
            return -1 if g >> (d * self.width + d) & 1 else 0
        grow = self.open[i]
        return (g & ~grow) | ((g >> d) & grow)

    def automaton(self) -> Automaton:
        """State (X, sum of the first X digits read so far)."""
        total = self.total

        def step(i: int, s: tuple[int, int] | None, d: int) -> tuple[int, int] | None:
            if s is None:
                return (d, d) if d <= total else None
            x, acc = s
            if i >= x:
                return s
            return (x, acc + d) if acc + d <= total else None

        return Automaton(None, step, lambda s: s is not None and s[1] == total, True)

    def __call__(self, *v: int) -> bool:
        return sum(v[:v[0]]) == self.total


class _Skyscraper:
    def __init__(self, seen: int, n: int) -> None:
        self.seen, self.n = seen, n

    def __call__(self, *v: int) -> bool:
        return self._count(v) == self.seen

    @staticmethod
    def _count(v) -> int:
        top = 0
        k = 0
        for x in v:
            if x > top:
                top = x
                k += 1
        return k


def _line_supports(doms: list[int], n: int, left: int, right: int,
                   tick: Callable[[], None] | None = None) -> list[int] | None:
    """Exact supports of a line of ``n`` cells holding 1..n once each, seen from both ends.

    ``left`` / ``right``: how many buildings the clue at the first / last cell sees (0: no
    clue on that side). The tallest digit n splits the line: the left clue counts the
    left-to-right maxima of the cells before it (plus n itself), the right clue the
    right-to-left maxima after it. Prefixes and suffixes are enumerated as (digit set, bitmask
    of counts) layers, so a split is valid when a prefix set and its complementary suffix set
    both reach their count; a second pass keeps the digits on paths to a valid split.
    Returns one mask per cell, or None when no permutation fits; ``doms`` itself (every
    digit kept) when the scan would pass :data:`SCAN_LIMIT` sets. ``tick`` is called as
    the layers grow (a budget's tick: it may raise to stop the scan).

    Lines of at most 12 cells go to the compiled kernel when it is built
    (``variants/_sky_kernel.c``: the same scan, the same masks, in microseconds, so it
    does not tick; 2 ** 12 sets are far below :data:`SCAN_LIMIT`)."""
    k = len(doms)
    kernel = active(_sky_kernel)
    if kernel is not None and k == n <= 12:
        try:
            return kernel.line_supports(list(doms), n, left, right)
        except (ValueError, TypeError, OverflowError):
            pass                        # a line it does not handle: the Python scan
    if scan_size(doms) + scan_size(doms[::-1]) > 2 * SCAN_LIMIT:
        return list(doms)
    top = 1 << n
    rest = ((1 << (n + 1)) - 2) ^ top               # digits 1..n-1
    need_l = 1 << (left - 1) if left else -1         # prefix count bits wanted at the split
    need_r = 1 << (right - 1) if right else -1
    cap_l = (1 << left) - 1 if left else -1          # counts a prefix may still have
    cap_r = (1 << right) - 1 if right else -1
    places = [i for i in range(k) if doms[i] & top]
    if not places:
        return None
    first, last = places[0], places[-1]
    # forward layers: fwd[i] maps the digit set of cells 0..i-1 to its count mask; a prefix
    # only matters up to the last place the tallest can stand
    fwd: list[dict[int, int]] = [{0: 1}]
    for i in range(last):
        fwd.append(_sky_extend(fwd[i], doms[i] & rest, cap_l, tick))
    # backward layers: bwd[j] maps the digit set of cells j..k-1 to its count mask
    bwd: list[dict[int, int]] = [{}] * (k + 1)
    bwd[k] = {0: 1}
    for j in range(k - 1, first, -1):
        bwd[j] = _sky_extend(bwd[j + 1], doms[j] & rest, cap_r, tick)
    sup = [0] * k
    # valid splits: the tallest at p, the prefix set s and the suffix set rest ^ s
    good_f: list[dict[int, int]] = [{} for _ in range(k)]
    good_b: list[dict[int, int]] = [{} for _ in range(k + 1)]
    for p in places:
        after = bwd[p + 1]
        gf, gb = good_f[p], good_b[p + 1]
        for s, cm in fwd[p].items():
            if cm & need_l:
                t = rest ^ s
                cr = after.get(t, 0)
                if cr & need_r:
                    gf[s] = need_l
                    gb[t] = need_r
                    sup[p] |= top
    if not any(sup):
        return None
    # forward goodness: count masks from which a prefix state reaches a valid split
    for i in range(last - 1, -1, -1):
        sup[i] |= _sky_good(fwd[i], doms[i] & rest, good_f[i + 1], good_f[i])
    # backward goodness, from the longest suffixes (next to a split) to the shortest
    for j in range(first + 2, k + 1):
        sup[j - 1] |= _sky_good(bwd[j], doms[j - 1] & rest, good_b[j - 1], good_b[j])
    return sup


def _sky_extend(layer: dict[int, int], m: int, cap: int,
                tick: Callable[[], None] | None = None) -> dict[int, int]:
    """The next layer: each digit set of ``layer`` grows by a digit of ``m`` it lacks; a
    digit above the whole set is one more building seen (count masks shift, kept to
    ``cap``)."""
    nxt: dict[int, int] = {}
    for s, cm in layer.items():
        if tick is not None:
            tick()
        avail = m & ~s
        while avail:
            low = avail & -avail
            avail ^= low
            ncm = (cm << 1) & cap if low > s else cm
            if ncm:
                ns = s | low
                nxt[ns] = nxt.get(ns, 0) | ncm
    return nxt


def _sky_good(layer: dict[int, int], m: int, ahead: dict[int, int],
              good: dict[int, int]) -> int:
    """Marks in ``good`` the counts of the states of ``layer`` from which a digit of ``m``
    leads into a good state of ``ahead``; returns those digits."""
    si = 0
    if not ahead:
        return 0
    for s, cm in layer.items():
        avail = m & ~s
        acc = 0
        while avail:
            low = avail & -avail
            avail ^= low
            g = ahead.get(s | low)
            if g:
                ok = g >> 1 if low > s else g
                if cm & ok:
                    acc |= ok
                    si |= low
        if acc:
            good[s] = good.get(s, 0) | acc
    return si


def _perm_scan(doms: list[int], rule: "_ScanRule",
               tick: Callable[[], None] | None = None) -> list[int] | None:
    """Exact supports of a line holding each digit once (``len(doms)`` cells, digits
    1..len), for a rule read from the first cell on: ``rule.trans(i, s, low, d, m)`` maps
    the value mask ``m`` of a prefix with digit set ``s`` to the mask after digit ``d``
    (``low`` = its bit) at position ``i``; ``rule.inv`` gives, for a mask ``g`` wanted
    after that step, the values before it that lead into ``g``. Start at ``rule.init``, end
    in ``rule.accept``. Layers map digit sets to value masks; a backward pass keeps the
    digits on paths to an accepted end. Returns one mask per cell, or None; ``doms`` itself
    (every digit kept) when the layers would pass :data:`SCAN_LIMIT` sets. ``tick`` is
    called as the layers grow (a budget's tick: it may raise to stop the scan).

    Sandwich and X-sum clues of totals up to 51 on lines of at most 12 cells go to the
    compiled kernel when it is built (``variants/_sky_kernel.c``, ``scan_supports``: the
    same scan, the same masks, without ticks; 2 ** 12 sets are far below
    :data:`SCAN_LIMIT`; "September 13, 2021: Sandwich" of the workbench's unique set: its
    74 scans 12 ms -> well under 1 ms)."""
    k = len(doms)
    spec = rule.kernel_spec
    if spec is not None and k == spec[0] <= 12:
        kernel = active(_sky_kernel)
        if kernel is not None:
            try:
                return kernel.scan_supports(list(doms), *spec)
            except (ValueError, TypeError, OverflowError):
                pass                    # a clue it does not handle: the Python scan
    if scan_size(doms) > SCAN_LIMIT:
        return list(doms)
    trans, inv = rule.trans, rule.inv
    fwd: list[dict[int, int]] = [{0: rule.init}]
    for i in range(k):
        m = doms[i]
        nxt: dict[int, int] = {}
        lows = [(1 << d, d) for d in digits_of(m)]
        for s, cm in fwd[i].items():
            if tick is not None:
                tick()
            for low, d in lows:
                if s & low:
                    continue
                nm = trans(i, s, low, d, cm)
                if nm:
                    ns = s | low
                    nxt[ns] = nxt.get(ns, 0) | nm
        if not nxt:
            return None
        fwd.append(nxt)
    accept = rule.accept
    good = {s: accept for s, cm in fwd[k].items() if cm & accept}
    if not good:
        return None
    sup = [0] * k
    for i in range(k - 1, -1, -1):
        m = doms[i]
        lows = [(1 << d, d) for d in digits_of(m)]
        prev: dict[int, int] = {}
        si = 0
        for s, cm in fwd[i].items():
            acc = 0
            for low, d in lows:
                if s & low:
                    continue
                g = good.get(s | low)
                if g:
                    ok = inv(i, s, low, d, g)
                    if cm & ok:
                        acc |= ok
                        si |= low
            if acc:
                prev[s] = acc
        sup[i] = si
        good = prev
    return sup


_MEMO_SIZE = 4096


class _LinePropagator(Propagator):
    """An outside clue's line, exact: the digits no permutation of the line allows leave
    (``supports(doms)``, one mask per cell or None); results are remembered per tuple of
    domains."""

    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True
    failure = "no arrangement of the line fits"

    def __init__(self, cells: tuple[int, ...], name: str) -> None:
        self.cells = cells
        self.scope = tuple(sorted(cells))
        self.name = name
        self._memo: dict[tuple[int, ...], list[int] | None] = {}

    def supports(self, doms: list[int], tick: Callable[[], None] | None = None
                 ) -> list[int] | None:  # pragma: no cover - interface
        raise NotImplementedError

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        cells = self.cells
        key = tuple([cand[c] for c in cells])
        memo = self._memo
        if key in memo:
            sup = memo[key]
        else:
            sup = self.supports(list(key), ctx.tick if ctx.budget is not None else None)
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[key] = sup
        if sup is None:
            ctx.fail(self.failure, cells)
        for c, m, s in zip(cells, key, sup):
            if m & ~s:
                ctx.restrict(c, s, self.name)
        return Status.FIX


class _ScanPropagator(_LinePropagator):
    """A sandwich or X-sum clue (:func:`_perm_scan`)."""

    history_free = True

    def __init__(self, cells: tuple[int, ...], rule: _ScanRule, name: str) -> None:
        super().__init__(cells, name)
        self.rule = rule

    def supports(self, doms: list[int], tick: Callable[[], None] | None = None
                 ) -> list[int] | None:
        return _perm_scan(doms, self.rule, tick)

    def kernel_scan(self) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """The compiled scan (:meth:`supports` in C) for the compiled engine loop."""
        spec = self.rule.kernel_spec
        kernel = active(_sky_kernel)
        if (kernel is None or spec is None or not len(self.cells) == spec[0] <= 12
                or type(self).propagate is not _LinePropagator.propagate
                or type(self).supports is not _ScanPropagator.supports):
            return None
        return kernel.scan_supports, tuple(spec)


class _VisiblePropagator(_LinePropagator):
    """Skyscraper clues on one line, one or both ends (:func:`_line_supports`)."""

    history_free = True

    def __init__(self, cells: tuple[int, ...], seen: int, back: int, n: int, name: str) -> None:
        super().__init__(cells, name)
        self.seen, self.back, self.n = seen, back, n
        self.failure = f"cannot see {seen}"

    def supports(self, doms: list[int], tick: Callable[[], None] | None = None
                 ) -> list[int] | None:
        return _line_supports(doms, self.n, self.seen, self.back, tick)

    def kernel_scan(self) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """The compiled scan (:meth:`supports` in C) for the compiled engine loop."""
        kernel = active(_sky_kernel)
        if (kernel is None or not len(self.cells) == self.n <= 12
                or type(self).propagate is not _LinePropagator.propagate
                or type(self).supports is not _VisiblePropagator.supports):
            return None
        return kernel.line_supports, (self.n, self.seen, self.back)


def _remembered(con: "_Scan | _Visible", doms: list[int], find) -> list[int] | None:
    """``find(doms)``, remembered on the rule per tuple of domains (at most
    ``_MEMO_SIZE`` entries)."""
    memo = con._support_memo
    key = tuple(doms)
    if key in memo:
        return memo[key]
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    sup = memo[key] = find(list(key))
    return sup


class _Scan(Constraint):
    """An outside clue whose line holds each digit once (the line is a row or column)."""

    kind = "outside-scan"

    def __init__(self, cells: list[int], rule: _ScanRule, name: str) -> None:
        self.cells = tuple(cells)
        self.rule = rule
        self.name = name
        self._support_memo: dict[tuple[int, ...], list[int] | None] = {}

    def propagators(self, n: int) -> list[Propagator]:
        if len(self.cells) != n:
            raise InvalidConstraint(f"{self.name}: the line has {len(self.cells)} cells, "
                                    f"not {n}")
        return [_ScanPropagator(self.cells, self.rule, self.name)]

    def check(self, *values: int) -> bool:
        return len(set(values)) == len(values) and bool(self.rule(*values))

    def supports(self, doms: list[int]) -> list[int] | None:
        """Exact supports of the line (:func:`_perm_scan`), remembered per domain tuple."""
        return _remembered(self, doms, lambda ds: _perm_scan(ds, self.rule))

    def automaton(self) -> Automaton | None:
        return self.rule.automaton()


class _Visible(Constraint):
    """A skyscraper clue over ``cells`` (nearest first). Two clues on the same line share one
    propagator: the first one made gets ``back`` (the other end's count) and the second
    ``joined`` (it only checks)."""

    kind = "skyscraper"

    def __init__(self, cells: list[int], seen: int, name: str) -> None:
        self.cells = tuple(cells)
        self.seen = seen
        self.name = name
        self.back = 0
        self.joined = False
        self._support_memo: dict[tuple[int, ...], list[int] | None] = {}

    def propagators(self, n: int) -> list[Propagator]:
        if self.joined:
            return []
        if len(self.cells) != n:
            raise InvalidConstraint(f"{self.name}: the line has {len(self.cells)} cells, "
                                    f"not {n}")
        name = self.name if not self.back else f"{self.name} and {self.back} opposite"
        return [_VisiblePropagator(self.cells, self.seen, self.back, n, name)]

    def check(self, *values: int) -> bool:
        return len(set(values)) == len(values) and _Skyscraper._count(values) == self.seen

    def supports(self, doms: list[int]) -> list[int] | None:
        """Exact supports of the line (:func:`_line_supports`) with the opposite clue when
        this one carries it (``back``); a clue ``joined`` to the opposite one is read by
        that one, so it keeps every digit here. Remembered per domain tuple."""
        if self.joined:
            return list(doms)
        n = len(self.cells)
        return _remembered(self, doms,
                           lambda ds: _line_supports(ds, n, self.seen, self.back))

    def automaton(self) -> Automaton:
        """State (tallest so far, buildings seen)."""
        seen = self.seen

        def step(i: int, s: tuple[int, int], d: int) -> tuple[int, int] | None:
            top, k = s
            if d <= top:
                return s
            return (d, k + 1) if k < seen else None

        return Automaton((0, 0), step, lambda s: s[1] == seen, True, ("skyscraper", seen))


class _OutsideClue:
    kind = "outside"

    def __init__(self, row: int, col: int, value: int, name: str) -> None:
        self.row, self.col, self.value, self.name = row, col, value, name

    def make(self, n: int):  # pragma: no cover - interface
        raise NotImplementedError

    def apply(self, p: Puzzle) -> None:
        p.grid.require_square(type(self).__name__)
        n = p.grid.n
        cells = line_from_clue(n, self.row, self.col)
        p.add(_Scan(cells, self.make(n), f"{self.name} {self.value} at r{self.row}c{self.col}"))


class sandwich(_OutsideClue):
    """The digits between 1 and n on the line add up to ``value``."""

    def __init__(self, row: int, col: int, value: int) -> None:
        super().__init__(row, col, value, "sandwich")

    def make(self, n: int) -> _Sandwich:
        return _Sandwich(self.value, n)


class x_sum(_OutsideClue):
    """The first X digits of the line add up to ``value``, X being the first digit."""

    def __init__(self, row: int, col: int, value: int) -> None:
        super().__init__(row, col, value, "x-sum")

    def make(self, n: int) -> _XSum:
        return _XSum(self.value, n)


class skyscraper(_OutsideClue):
    """``value`` digits are visible from the clue (a digit hides every smaller one behind it).
    Like the other outside clues, it takes the line to hold each digit once (a row or column
    of a sudoku), with or without the grid's row and column rules."""

    def __init__(self, row: int, col: int, value: int) -> None:
        super().__init__(row, col, value, "skyscraper")

    def make(self, n: int) -> _Skyscraper:
        if not 1 <= self.value <= n:
            raise InvalidConstraint(f"skyscraper clue {self.value} outside 1..{n}")
        return _Skyscraper(self.value, n)

    def apply(self, p: Puzzle) -> None:
        p.grid.require_square("skyscraper")
        n = p.grid.n
        self.make(n)
        cells = line_from_clue(n, self.row, self.col)
        con = _Visible(cells, self.value, f"skyscraper {self.value} at r{self.row}c{self.col}")
        back = tuple(reversed(cells))
        for other in p.constraints:
            if (isinstance(other, _Visible) and other.cells == back and not other.joined
                    and not other.back):
                other.back = self.value      # one propagator reads both ends
                con.joined = True
                break
        p.add(con)


def _clue_line(p: Puzzle, row: int, col: int, rule: str) -> list[int]:
    p.grid.require_square(rule)
    return line_from_clue(p.grid.n, row, col)


def _first_cells(p: Puzzle, row: int, col: int, count: int | None, rule: str) -> list[int]:
    """The ``count`` cells nearest an outside clue (default: a box's width along a row, its
    height along a column)."""
    cells = _clue_line(p, row, col, rule)
    if count is None:
        shape = p.grid.box_shape
        if not shape:
            raise InvalidConstraint(f"{rule} at r{row}c{col}: a grid without boxes needs "
                                    "the number of cells the clue covers (count=)")
        count = shape[1] if col in (0, p.grid.n + 1) else shape[0]
    if not 1 <= count <= len(cells):
        raise InvalidConstraint(f"{rule} at r{row}c{col}: count {count} outside "
                                f"1..{len(cells)}")
    return cells[:count]


class frame_sum:
    """The clue is the sum of the nearest cells of its row or column: as many as a box is
    wide along a row (high along a column), so 3 on a 9x9 grid (``count`` for another
    number).

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), frame_sum(1, 0, 7))
    >>> p.propagate().candidates("r1c1")        # 1+2+4
    (1, 2, 4)
    """

    def __init__(self, row: int, col: int, value: int, count: int | None = None) -> None:
        self.row, self.col, self.value, self.count = row, col, value, count

    def apply(self, p: Puzzle) -> None:
        from csp.constraints import Sum
        cells = _first_cells(p, self.row, self.col, self.count, "frame sum")
        p.add(Sum(cells, self.value, True,
                  f"frame sum {self.value} at r{self.row}c{self.col}"))


def _not_monotonic(a: int, b: int, c: int) -> bool:
    return not (a < b < c or a > b > c)


#: Rossini clue orders, read from the clue into the grid
ROSSINI_ORDERS = ("increasing", "decreasing", "neither")


def _rossini_mark(b: "rossini") -> str:
    """An arrow pointing at the largest digit (into the grid: increasing), or a dot for
    'neither'. A clue's side: row 0 top, column 0 left, else the larger of row and column
    is n + 1 (bottom or right)."""
    if b.order == "neither":
        return "\u25cf"
    inward = ("\u2193" if b.row == 0 else "\u2192" if b.col == 0
              else "\u2191" if b.row > b.col else "\u2190")
    outward = {"\u2193": "\u2191", "\u2191": "\u2193", "\u2192": "\u2190",
               "\u2190": "\u2192"}[inward]
    return inward if b.order == "increasing" else outward


class rossini:
    """The three cells nearest the clue (``count`` for another number) are in order, read
    from the clue into the grid: ``"increasing"`` (an arrow pointing into the grid: the
    digits grow in the arrow's direction), ``"decreasing"`` (an arrow pointing out), or
    ``"neither"`` (neither increasing nor decreasing: the mark some puzzles print where no
    arrow is; :class:`rossini_negative` states it for every unmarked side at once).

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), rossini(0, 1, "decreasing")).givens({"r3c1": 7})
    >>> p.propagate().candidates("r2c1"), p.propagate().candidates("r1c1")
    ((8,), (9,))
    """

    def __init__(self, row: int, col: int, order: str = "increasing",
                 count: int = 3) -> None:
        if order not in ROSSINI_ORDERS:
            raise InvalidConstraint(f"rossini order {quoted(order)}: one of "
                                    f"{', '.join(ROSSINI_ORDERS)}")
        if count < 2:
            raise InvalidConstraint(f"rossini at r{row}c{col}: count {count} below 2")
        self.row, self.col, self.order, self.count = row, col, order, count

    def apply(self, p: Puzzle) -> None:
        from csp import Less
        from csp.constraints import FunctionConstraint
        cells = _first_cells(p, self.row, self.col, self.count, "rossini")
        g = p.grid
        where = f"rossini at r{self.row}c{self.col}"
        if self.order == "neither":
            if len(cells) != 3:
                raise InvalidConstraint(f"{where}: 'neither' reads exactly 3 cells")
            p.add(FunctionConstraint(_not_monotonic, cells, f"{where} (not in order)"))
            return
        if self.order == "decreasing":
            cells = cells[::-1]
        for a, b in zip(cells, cells[1:]):
            p.add(Less(a, b, f"{where} {g.name(a)}<{g.name(b)}"))


class rossini_negative:
    """Every Rossini clue is given: beside each side of a row or column not listed in
    ``arrows`` (the clue positions ``(row, col)`` of the puzzle's arrows), the three nearest
    digits are neither increasing nor decreasing.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), rossini_negative([(0, 1)])).givens("15" + "." * 79)
    >>> p.propagate().candidates("r1c3")      # 1, 5, 6 would need an arrow left of row 1
    (2, 3, 4)
    """

    def __init__(self, arrows: Sequence[tuple[int, int]] = ()) -> None:
        self.arrows = [tuple(m) for m in arrows]

    def apply(self, p: Puzzle) -> None:
        p.grid.require_square("rossini")
        n = p.grid.n
        arrows = set(self.arrows)
        for r, c in arrows:
            line_from_clue(n, r, c)                     # an arrow must be at a clue place
        for i in range(1, n + 1):
            for r, c in ((0, i), (n + 1, i), (i, 0), (i, n + 1)):
                if (r, c) not in arrows:
                    rossini(r, c, "neither").apply(p)


class numbered_room:
    """The clue ``value`` sits in the X-th cell of the row or column, counted from the clue,
    where X is the digit in the cell nearest the clue.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), numbered_room(1, 0, 5)).givens({"r1c1": 3})
    >>> p.propagate().candidates("r1c3")
    (5,)
    """

    def __init__(self, row: int, col: int, value: int) -> None:
        self.row, self.col, self.value = row, col, value

    def apply(self, p: Puzzle) -> None:
        from csp.constraints import Element
        cells = _clue_line(p, self.row, self.col, "numbered room")
        if not 1 <= self.value <= p.grid.n:
            raise InvalidConstraint(f"numbered room clue {self.value} at r{self.row}c{self.col}"
                                    f" outside 1..{p.grid.n}")
        p.add(Element(cells[0], cells, self.value,
                      f"numbered room {self.value} at r{self.row}c{self.col}"))


__all__ = ["frame_sum", "numbered_room", "rossini", "rossini_negative", "sandwich", "skyscraper", "x_sum"]

# -- records: what the application needs about each rule (variants/record.py) -------------
_CLUE = (("row", "int"), ("col", "int"), ("value", "int"))
sandwich.record = RuleRecord(
    FPuzzles("outside", "sandwichsum", value="value"),
    (SudokuPad("sandwich", "outside", aliases=("sandwich-sum",)),),
    Drawing("outside"), args=_CLUE, outside=True,
    logic=("outside_logic",), techniques=("sandwich_crusts",))
x_sum.record = RuleRecord(
    FPuzzles("outside", "xsum", value="value"),
    (SudokuPad("x-sum", "outside", aliases=("xsum",)),),
    Drawing("outside"), args=_CLUE, outside=True,
    logic=("outside_logic",), techniques=("x_sum_length",))
skyscraper.record = RuleRecord(
    FPuzzles("outside", "skyscraper", value="value"),
    (SudokuPad("skyscraper", "outside"),),
    Drawing("outside"), args=_CLUE, outside=True,
    logic=("outside_logic",), techniques=("skyscraper_renban",))
frame_sum.record = RuleRecord(
    FPuzzles("none", reason="it has no frame sum clue"),
    (SudokuPad("frame-sum", "outside", aliases=("frame", "framesum")),),
    Drawing("outside"), args=_CLUE + (("count", "int?"),), outside=True)
numbered_room.record = RuleRecord(
    FPuzzles("none", reason="it has no numbered room clue"),
    (SudokuPad("numbered-room", "outside", aliases=("numbered-rooms", "numberedroom")),),
    Drawing("outside"), args=_CLUE, outside=True)
rossini.record = RuleRecord(
    FPuzzles("none", reason="it has no Rossini arrow"),
    (SudokuPad("rossini", "custom", reason="read from arrows (or arrow glyphs) outside the "
               "grid along a row or column that the rules text calls Rossini arrows",
               drawn="arrow", text=(r"\brossini", r"\barrows? (outside|around) the grid\b"
                                    r"[^.;]{0,80}\b(increas|decreas|ascend|descend|grow)",
                                    r"\b(increas|ascend|grow)\w*[^.;]{0,40}\bdirection of the "
                                    r"arrow")),),
    Drawing("outside", label=_rossini_mark),
    args=(("row", "int"), ("col", "int"), ("order", "str"), ("count", "int")), outside=True)
rossini_negative.record = RuleRecord(
    FPuzzles("none", reason="it has no Rossini arrow"),
    (SudokuPad("rossini-negative", "custom", reason="read with Rossini arrows when the rules "
               "text says every arrow is given"),),
    Drawing("note", label=lambda b: "Rossini: every arrow is given"),
    args=(("arrows", "positions"),))
