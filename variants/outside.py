"""Outside clues on a row or column: sandwich sums, X-sums, skyscrapers.

A clue sits outside the grid at 1-based (row, col) with row or col 0 or n+1; the line it
reads runs away from it.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(4).use(classic(), skyscraper(0, 1, 4))
>>> [p.propagate().candidates(f"r{r}c1") for r in range(1, 5)]
[(1,), (2,), (3,), (4,)]
"""
from __future__ import annotations

from typing import Any

from csp import Puzzle
from csp.constraints import Constraint, FunctionConstraint
from csp.errors import InvalidConstraint
from csp.events import Cost, Event, Status
from csp.propagator import Context, Propagator


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


class _Sandwich:
    def __init__(self, total: int, n: int) -> None:
        self.total, self.n = total, n

    def __call__(self, *v: int) -> bool:
        i, j = v.index(1), v.index(self.n)
        lo, hi = min(i, j), max(i, j)
        return sum(v[lo + 1:hi]) == self.total

    def prefix(self, *v: int) -> bool:
        n, total = self.n, self.total
        ends = [i for i, x in enumerate(v) if x == 1 or x == n]
        if len(ends) == 2:
            return sum(v[ends[0] + 1:ends[1]]) == total
        if len(ends) == 1:
            return sum(v[ends[0] + 1:]) <= total
        return True


class _XSum:
    def __init__(self, total: int) -> None:
        self.total = total

    def __call__(self, *v: int) -> bool:
        return sum(v[:v[0]]) == self.total

    def prefix(self, *v: int) -> bool:
        x = v[0]
        if len(v) >= x:
            return sum(v[:x]) == self.total
        return sum(v) < self.total


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

    def prefix(self, *v: int) -> bool:
        k = self._count(v)
        if k > self.seen:
            return False
        if max(v) == self.n:
            return k == self.seen
        # at most one more building per remaining cell, and the n still to come adds one
        return k + (self.n - len(v)) >= self.seen and k + 1 <= self.seen


_DIGITS: dict[int, list[int]] = {}


class _VisiblePropagator(Propagator):
    """Skyscraper clue by dynamic programming over (tallest so far, buildings seen), counts
    kept as bitmasks per tallest digit: a digit stays when some left part reaching it and some
    right part leaving it give exactly the clue. Distinctness is left to the line's house,
    which keeps the tables small."""

    cost = Cost.LINEAR
    events = Event.DOM

    def __init__(self, cells: list[int], seen: int, name: str) -> None:
        self.cells = tuple(cells)
        self.scope = tuple(sorted(cells))
        self.seen = seen
        self.name = name

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        doms = [cand[c] for c in self.cells]
        k = len(doms)
        seen = self.seen
        cap = (1 << (seen + 1)) - 1
        table = _DIGITS
        digits = []
        for m in doms:
            ds = table.get(m)
            if ds is None:
                ds = table[m] = [d for d in range(1, m.bit_length()) if m >> d & 1]
            digits.append(ds)
        top_n = max(m.bit_length() for m in doms)
        # fwd[i][top]: bitmask of the counts of buildings seen before cell i, tallest = top
        fwd = [[0] * (top_n + 1) for _ in range(k + 1)]
        fwd[0][0] = 1
        for i in range(k):
            cur, nxt = fwd[i], fwd[i + 1]
            for top in range(top_n + 1):
                cm = cur[top]
                if not cm:
                    continue
                for d in digits[i]:
                    if d > top:
                        nxt[d] |= (cm << 1) & cap
                    else:
                        nxt[top] |= cm
        # bwd[top]: counts before the current cell from which the rest sees exactly `seen`
        bwd = [1 << seen] * (top_n + 1)
        for i in range(k - 1, -1, -1):
            cur = fwd[i]
            sup = 0
            prev = [0] * (top_n + 1)
            for top in range(top_n + 1):
                cm = cur[top]
                acc = 0
                for d in digits[i]:
                    ok = (bwd[d] >> 1) if d > top else bwd[top]
                    acc |= ok
                    if cm & ok:
                        sup |= 1 << d
                prev[top] = acc
            if not sup:
                ctx.fail(f"cannot see {seen}", self.cells)
            ctx.restrict(self.cells[i], sup, self.name)
            bwd = prev
        return Status.FIX


class _Visible(Constraint):
    kind = "skyscraper"

    def __init__(self, cells: list[int], seen: int, name: str) -> None:
        self.cells = tuple(cells)
        self.seen = seen
        self.name = name

    def propagators(self, n: int) -> list[Propagator]:
        return [_VisiblePropagator(list(self.cells), self.seen, self.name)]

    def check(self, *values: int) -> bool:
        return _Skyscraper._count(values) == self.seen


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
        fn = self.make(n)
        p.add(FunctionConstraint(fn, cells, f"{self.name} {self.value} at r{self.row}c{self.col}",
                                 prefix=fn.prefix, distinct=True))


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
        return _XSum(self.value)


class skyscraper(_OutsideClue):
    """``value`` digits are visible from the clue (a digit hides every smaller one behind it)."""

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
        p.add(_Visible(cells, self.value, f"skyscraper {self.value} at r{self.row}c{self.col}"))
