"""Consecutive set (renban): the cells hold different digits forming a run s, s+1, ...

>>> r = ConsecutiveSet((0, 1, 2))
>>> r.check(4, 2, 3), r.check(1, 2, 4), r.check(2, 2, 3)
(True, False, False)
"""
from __future__ import annotations

from typing import Iterator, Sequence

from ..errors import InvalidConstraint
from ..events import Cost, Event, Status
from ..matching import perfect_matching
from ..propagator import Context, Propagator
from .base import Automaton, Constraint, WeakLink


class ConsecutiveSetPropagator(Propagator):
    """Keeps the digits of the windows of k consecutive digits onto which the cells can be
    matched (window-level supports; distinctness itself is the house kernel's job, since the
    cells form a house)."""

    cost = Cost.LINEAR
    events = Event.DOM
    history_free = True

    def __init__(self, cells: Sequence[int], n: int, name: str) -> None:
        self.cells = tuple(cells)
        self.scope = tuple(sorted(self.cells))
        self.n = n
        self.name = name
        self._memo: dict[tuple[int, ...], list[int]] = {}

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        doms = [cand[c] for c in self.cells]
        key = tuple(doms)
        sup = self._memo.get(key)
        if sup is None:
            sup = self._supports(doms)
            if len(self._memo) >= 4096:
                self._memo.clear()
            self._memo[key] = sup
        for i, c in enumerate(self.cells):
            if not sup[i]:
                ctx.fail("no window of consecutive digits fits", self.cells)
            if doms[i] & ~sup[i]:
                ctx.restrict(c, sup[i], self.name)
        # idempotent: the digits kept are exactly those of the windows that fit, and
        # those windows still fit on the kept digits
        return Status.FIX

    def _supports(self, doms: list[int]) -> list[int]:
        """Per cell, the digits of the windows that fit (results are remembered per tuple
        of domains)."""
        sup = [0] * len(doms)
        for w in fitting_runs(doms, self.n):
            for i, m in enumerate(doms):
                sup[i] |= m & w
        return sup


def fitting_runs(doms: Sequence[int], n: int) -> list[int]:
    """The runs of ``len(doms)`` consecutive digits of 1..n (as digit masks) onto which the
    cells (candidate masks ``doms``) can be matched, each cell its own digit of the run.

    >>> [bin(w) for w in fitting_runs([0b110, 0b1111111110, 0b1111111110], 9)]
    ['0b1110', '0b11100']
    """
    k = len(doms)
    out = []
    for s in range(1, n - k + 2):
        w = ((1 << k) - 1) << s
        sub = [m & w for m in doms]
        if 0 in sub:
            continue
        u = 0
        for m in sub:
            u |= m
        if u == w and perfect_matching(sub):
            out.append(w)
    return out


class ConsecutiveSet(Constraint):
    """The cells are all different and their digits form a set of consecutive digits."""

    kind = "consecutive_set"

    def __init__(self, cells: Sequence[int], name: str = "") -> None:
        if len(set(cells)) != len(cells):
            raise InvalidConstraint(f"{name or 'consecutive set'}: a cell is listed twice")
        self.cells = tuple(cells)
        self.name = name or "consecutive set"

    def validate(self, n: int) -> None:
        if len(self.cells) > n:
            raise InvalidConstraint(f"{self.name}: {len(self.cells)} cells cannot hold "
                                    f"different digits of 1..{n}")

    def propagators(self, n: int) -> list[Propagator]:
        return [ConsecutiveSetPropagator(self.cells, n, self.name)]

    def house(self) -> tuple[int, ...] | None:
        return self.cells

    def weak_links(self, n: int) -> Iterator[WeakLink]:
        """Two digits k or more apart never sit together on a run of k cells (a chain walks
        along a renban as it walks along a house).

        >>> sorted(ConsecutiveSet((0, 1)).weak_links(4))[:3]
        [((0, 1), (1, 3)), ((0, 1), (1, 4)), ((0, 2), (1, 4))]
        """
        k = len(self.cells)
        for i, a in enumerate(self.cells):
            for b in self.cells[i + 1:]:
                for x in range(1, n + 1):
                    for y in range(1, n + 1):
                        if abs(x - y) >= k:
                            yield ((a, x), (b, y))

    def check(self, *values: int) -> bool:
        return len(set(values)) == len(values) and max(values) - min(values) == len(values) - 1

    def automaton(self) -> Automaton:
        """State (lowest, highest) so far; with different digits, a span of k - 1 over k
        cells is a run."""
        span = len(self.cells) - 1

        def step(i: int, s: tuple[int, int] | None, d: int) -> tuple[int, int] | None:
            lo, hi = (d, d) if s is None else (min(s[0], d), max(s[1], d))
            return (lo, hi) if hi - lo <= span else None

        return Automaton(None, step, lambda s: s is not None and s[1] - s[0] == span, True)
