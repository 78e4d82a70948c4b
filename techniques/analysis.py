"""Per-state analysis shared by all techniques, owned by the run (or call) that made it.

Conventions (HoDoKu's): a *placed* cell has no candidates for the techniques; "sees" means
weakly linked (:mod:`csp.links`), so variant links feed every technique. Cell sets are int
bitsets (bit c = cell c).

An Analysis is a value of one call: a run (:class:`techniques.loop.Run`) makes one per
state it reaches (each derived from its previous one) under its own
:class:`~csp.budget.Budget`; ``StepSolver.find_all`` and the other one-off readers make a
fresh one. There is no module-level cache: two runs (two threads) never share one, and a
deadline or a cut-short search of one call is not seen by the next.
"""
from __future__ import annotations

import copy
from typing import Iterator

from csp.bits import digits_of, iter_cells
from csp.budget import Budget
from csp.links import LinkTables, link_tables
from csp.state import State
from csp.step import digit_symbol

__all__ = ["Analysis", "analyze", "digits_of", "iter_cells"]   # bit helpers: csp.bits


class Analysis:
    """Read-only view of a State for techniques.

    Attributes: ``state``, ``puzzle``, ``grid``, ``n``, ``size``, ``cand`` (masks; placed
    cells' masks are 0 here), ``links`` (:class:`csp.links.LinkTables`), ``houses``,
    ``house_mask``, ``full`` (indices of houses with n cells), ``cells_with[d]`` (cell bitset
    of unplaced cells holding d), ``unsolved`` (bitset of unplaced cells), ``budget`` (the
    limits its searches run under: see :meth:`tick`), ``run_memo`` (what a run keeps from
    state to state: shared with ``prev``).

    ``prev``: the previous Analysis of the same working state (the run's): the digit
    bitsets are derived from it (only changed cells) and its ``run_memo`` is kept.
    ``budget``: the caller's :class:`~csp.budget.Budget` (None: no limit); the analysis
    searches under its own part of it (:meth:`csp.budget.Budget.narrowed`), so whether
    its searches were cut short (:attr:`timed_out`) is its own.
    """

    def __init__(self, state: State, prev: "Analysis | None" = None,
                 budget: Budget | None = None, changed: list[int] | None = None) -> None:
        if state.puzzle is None:
            raise ValueError("the state is not attached to a puzzle")
        self.state = state
        #: the limits of this analysis's searches: a part of the run's (or call's) budget
        self.budget: Budget = Budget() if budget is None else budget.narrowed()
        self.run_memo: dict = (prev.run_memo if prev is not None and prev.state is state
                               else {})
        self.puzzle = state.puzzle
        self.grid = state.grid
        self.n = n = state.grid.n
        self.size = size = state.grid.size
        self.links: LinkTables = link_tables(state.puzzle)
        # the cross-state cache (shared_memo, digit_memo, links_memo), looked up once
        self._shared: dict = self.links.derived(_shared)
        self.houses = self.links.houses
        self.house_mask = self.links.house_mask
        self.full = self.links.full
        placed = state.placed
        if changed is not None and prev is not None and prev.state is state \
                and prev.links is self.links:
            # ``changed``: every cell changed since ``prev`` was made (the run's last step)
            new = prev.cand[:]
            sc = state.cand
            for c in changed:
                new[c] = 0 if placed[c] else sc[c]
            self.cand = new
        else:
            self.cand = new = [0 if placed[c] else state.cand[c] for c in range(size)]
            changed = None
        if prev is not None and prev.size == size and prev.links is self.links:
            # derive the digit bitsets from the previous analysis: only changed cells
            cw = prev.cells_with[:]
            unsolved = prev.unsolved
            old = prev.cand
            for c in ([c for c in range(size) if new[c] != old[c]] if changed is None
                      else [c for c in dict.fromkeys(changed) if new[c] != old[c]]):
                bit = 1 << c
                for d in digits_of(old[c] & ~new[c]):
                    cw[d] &= ~bit
                for d in digits_of(new[c] & ~old[c]):
                    cw[d] |= bit
                if new[c]:
                    unsolved |= bit
                else:
                    unsolved &= ~bit
        else:
            cw = [0] * (n + 1)
            unsolved = 0
            for c, m in enumerate(self.cand):
                if m:
                    bit = 1 << c
                    unsolved |= bit
                    for d in digits_of(m):
                        cw[d] |= bit
        self.cells_with = cw
        self.unsolved = unsolved
        self._memo: dict = {}

    # -- the budget -------------------------------------------------------------------
    def expired(self) -> bool:
        """True once the budget is spent (read now); it then also marks the analysis
        :attr:`timed_out`. A costly search asks it before each costly round (or
        :meth:`tick` in a tight loop) and stops when it answers True: what it found so far
        is sound but incomplete, so the solver reports "limit" rather than "stuck", and
        :meth:`shared_memo` does not keep it.

        >>> from variants.classic import classic_puzzle
        >>> an = Analysis(classic_puzzle("." * 81).pencilmarks())
        >>> an.expired(), an.timed_out
        (False, False)
        >>> spent = Analysis(an.state, budget=Budget(0))
        >>> spent.expired(), spent.timed_out, an.timed_out
        (True, True, False)
        """
        return self.budget.stop()

    def tick(self, cost: int = 1) -> bool:
        """:meth:`expired`, throttled (:meth:`csp.budget.Budget.poll`): the clocks are
        read once ``cost`` units add up to the budget's ``every`` (256): a loop calls it
        every round, with a ``cost`` that says how heavy its rounds are (a round worth 16
        cheap ones: ``tick(16)``). Never reads a clock without a time limit.

        >>> from variants.classic import classic_puzzle
        >>> an = Analysis(classic_puzzle("." * 81).pencilmarks(), budget=Budget(0))
        >>> an.tick(), an.timed_out            # the first tick reads the clocks
        (True, True)
        """
        return self.budget.poll(cost)

    @property
    def timed_out(self) -> bool:
        """True once a search on this analysis was cut short (its budget spent, or a
        search's own budget: it sets this): its partial result is not cached, and a run
        that finds no step reports "limit"."""
        return self.budget.stopped

    @timed_out.setter
    def timed_out(self, value: bool) -> None:
        self.budget.stopped = value

    def under(self, budget: Budget | None) -> "Analysis":
        """This analysis (the same state, tables and memos) searched under another
        budget, with its own :attr:`timed_out`: one technique given its own share of a
        call, say.

        >>> from variants.classic import classic_puzzle
        >>> an = Analysis(classic_puzzle("." * 81).pencilmarks())
        >>> part = an.under(Budget(0))
        >>> part.expired(), an.expired(), part.cand is an.cand
        (True, False, True)
        """
        out = copy.copy(self)
        out.budget = Budget() if budget is None else budget.narrowed()
        return out

    # -- convenience ------------------------------------------------------------------
    def pos(self, house: int, digit: int) -> int:
        """Cells of ``house`` where ``digit`` is a candidate (bitset)."""
        return self.house_mask[house] & self.cells_with[digit]

    def peers(self, cell: int, digit: int) -> int:
        """Cells whose candidate ``digit`` is weakly linked with (cell, digit)."""
        return self.links.peers_d[digit][cell]

    def common_peers(self, digit: int, cells: int) -> int:
        """Cells that see every cell of the bitset ``cells`` for ``digit``."""
        out = -1
        pd = self.links.peers_d[digit]
        while cells:
            low = cells & -cells
            out &= pd[low.bit_length() - 1]
            cells ^= low
        return out if out != -1 else 0

    def group_pointing(self, group: int, must: int) -> Iterator[tuple[int, int, int]]:
        """Pointing with a group of cells as the house: for each digit of the mask ``must``
        that the group (a bitset) is known to hold, (digit, the group's cells holding it,
        the cells outside that see all of those and lose it). Shared by the rules whose
        cells must hold known digits (killer cages, renban lines)."""
        for d in digits_of(must):
            s = group & self.cells_with[d]
            if s:
                targets = self.common_peers(d, s) & self.cells_with[d] & ~group
                if targets:
                    yield d, s, targets

    def house_forced_digits(self, group: int) -> tuple[int, list[str]]:
        """Digits that some full house crossing the group (a bitset of cells) can only place
        inside it (a mask), with the reasons ("7 of row 1 only in r1c2,r1c3"). Shared by
        the rules that choose among digit sets (cage combinations, renban runs)."""
        forced = 0
        why = []
        for h in self.full:
            hm = self.house_mask[h]
            if not hm & group or not hm & ~group:
                continue
            done = 0
            for c in iter_cells(hm & ~self.unsolved):
                done |= 1 << self.state.placed[c]
            for d in range(1, self.n + 1):
                if (forced | done) >> d & 1:
                    continue
                pos = hm & self.cells_with[d]
                if pos and not pos & ~group:
                    forced |= 1 << d
                    why.append(f"{digit_symbol(d)} of {self.houses[h].name} only in "
                               f"{','.join(self.name(c) for c in iter_cells(pos))}")
        return forced, why

    def sees(self, c1: int, d1: int, c2: int, d2: int) -> bool:
        return self.links.sees(c1, d1, c2, d2)

    def house_key(self, h: int) -> tuple[int, ...]:
        """The candidates of the cells of house ``h`` (a hashable key for results that
        depend on nothing else: see :meth:`shared_memo`)."""
        try:
            keys = self._house_keys
        except AttributeError:
            cand = self.cand
            keys = self._house_keys = [tuple([cand[c] for c in cells])
                                       for cells in self.links_memo("house_cells", self._cells)]
        return keys[h]

    def _cells(self) -> list[tuple[int, ...]]:
        return [tuple(iter_cells(m)) for m in self.house_mask]

    def small_cells(self, k: int) -> int:
        """Bitset of the unplaced cells with at most ``k`` candidates (memoised)."""
        key = ("small", k)
        try:
            return self._memo[key]
        except KeyError:
            out = 0
            for c, m in enumerate(self.cand):      # placed cells have no candidates here
                if m and m.bit_count() <= k:
                    out |= 1 << c
            self._memo[key] = out
            return out

    def bivalue_cells(self) -> list[int]:
        key = "bivalue"
        if key not in self._memo:
            self._memo[key] = [c for c in range(self.size) if self.cand[c].bit_count() == 2]
        return self._memo[key]

    def name(self, cell: int) -> str:
        return self.grid.name(cell)

    def digit_memo(self, key, digit: int, fn):
        """Cache ``fn()`` across states of this puzzle, keyed on ``key`` and the cells that
        hold ``digit`` (``cells_with[digit]``).

        For results that depend on nothing but the puzzle (houses, links) and where one
        digit is still a candidate (single-digit patterns such as fish): a step that leaves
        the digit's candidates alone leaves the result valid, so after a step only the
        digits it touched are searched again. The cache lives on the puzzle's link tables
        and is bounded.

        >>> from variants.classic import classic_puzzle
        >>> an = Analysis(classic_puzzle("." * 81).pencilmarks())
        >>> calls = []
        >>> an.digit_memo("demo", 5, lambda: calls.append(1) or 42)
        42
        >>> Analysis(an.state.copy()).digit_memo("demo", 5, lambda: calls.append(1) or 0), len(calls)
        (42, 1)
        """
        k = (key, digit, self.cells_with[digit])
        try:
            return self._shared[k]
        except KeyError:
            return self.shared_memo(k, fn)

    def shared_memo(self, key, fn):
        """Cache ``fn()`` across states of this puzzle under ``key``, which must hold
        everything the result depends on besides the puzzle (for instance the candidates
        of the cells a technique reads). Bounded like :meth:`digit_memo`; a result cut
        short by the deadline is not kept."""
        cache = self._shared
        try:
            return cache[key]
        except KeyError:
            if len(cache) >= _SHARED_MAX:
                cache.clear()
            v = fn()
            if not self.timed_out:
                cache[key] = v
            return v

    def links_memo(self, key, fn):
        """Cache ``fn()`` for the life of the puzzle (tables that depend on its houses and
        links only)."""
        cache = self._shared
        try:
            return cache[key]
        except KeyError:
            v = cache[key] = fn()
            return v

    def memo(self, key, fn):
        """Cache ``fn()`` under ``key`` for the life of this analysis (shared by techniques)."""
        try:
            return self._memo[key]
        except KeyError:
            v = self._memo[key] = fn()
            return v

    def release(self) -> None:
        """Drop what :meth:`memo` keeps (its run has moved on to another state). A cache
        only: a later :meth:`memo` makes it again. Some of it refers back to the analysis
        (the forcing tables keep ``an``), so without this the state's caches (the forcing
        scans' propagations: thousands of dicts) wait for the cyclic garbage collector,
        whose full passes then walk them again and again: the SE rating spent about a fifth
        of its CPU there (docs/performance.md)."""
        self._memo.clear()


#: entries of the shared-sight cache before it is cleared (bounds its memory; not measured)
_SHARED_MAX = 50_000


def _shared(links: LinkTables) -> dict:
    """The cross-state cache of a puzzle (kept with its link tables: ``links.derived``)."""
    return {}


def analyze(state: State, budget: Budget | None = None) -> Analysis:
    """A new :class:`Analysis` of ``state`` under ``budget`` (None: no limit), for a
    one-off reader. Nothing is cached here: a run keeps its own analyses
    (:class:`techniques.loop.Run`), so a call never inherits another's deadline."""
    return Analysis(state, budget=budget)
