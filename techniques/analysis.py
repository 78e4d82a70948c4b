"""Per-state analysis shared by all techniques, cached on the state version.

Conventions (HoDoKu's): a *placed* cell has no candidates for the techniques; "sees" means
weakly linked (:mod:`csp.links`), so variant links feed every technique. Cell sets are int
bitsets (bit c = cell c).
"""
from __future__ import annotations

from typing import Iterator

from csp.links import LinkTables, link_tables
from csp.state import State


def iter_cells(bits: int) -> Iterator[int]:
    """Cells of a cell bitset, ascending.

    >>> list(iter_cells(0b10110))
    [1, 2, 4]
    """
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class Analysis:
    """Read-only view of a State for techniques.

    Attributes: ``state``, ``puzzle``, ``grid``, ``n``, ``size``, ``cand`` (masks; placed
    cells' masks are 0 here), ``links`` (:class:`csp.links.LinkTables`), ``houses``,
    ``house_mask``, ``full`` (indices of houses with n cells), ``cells_with[d]`` (cell bitset
    of unplaced cells holding d), ``unsolved`` (bitset of unplaced cells).
    """

    def __init__(self, state: State) -> None:
        if state.puzzle is None:
            raise ValueError("the state is not attached to a puzzle")
        self.state = state
        # perf_counter() time after which the costly techniques give up (set by StepSolver)
        self.deadline: float | None = None
        self.puzzle = state.puzzle
        self.grid = state.grid
        self.n = n = state.grid.n
        self.size = size = state.grid.size
        self.links: LinkTables = link_tables(state.puzzle)
        self.houses = self.links.houses
        self.house_mask = self.links.house_mask
        self.full = self.links.full
        placed = state.placed
        self.cand = [0 if placed[c] else state.cand[c] for c in range(size)]
        cw = [0] * (n + 1)
        unsolved = 0
        for c in range(size):
            m = self.cand[c]
            if m:
                unsolved |= 1 << c
                while m:
                    low = m & -m
                    cw[low.bit_length() - 1] |= 1 << c
                    m ^= low
        self.cells_with = cw
        self.unsolved = unsolved
        self._memo: dict = {}

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

    def sees(self, c1: int, d1: int, c2: int, d2: int) -> bool:
        return self.links.sees(c1, d1, c2, d2)

    def bivalue_cells(self) -> list[int]:
        key = "bivalue"
        if key not in self._memo:
            self._memo[key] = [c for c in range(self.size) if self.cand[c].bit_count() == 2]
        return self._memo[key]

    def name(self, cell: int) -> str:
        return self.grid.name(cell)

    def memo(self, key, fn):
        """Cache ``fn()`` under ``key`` for the life of this analysis (shared by techniques)."""
        try:
            return self._memo[key]
        except KeyError:
            v = self._memo[key] = fn()
            return v


_cache: tuple[int, int, int, Analysis] | None = None


def analyze(state: State) -> Analysis:
    """The Analysis of ``state``, reused while the state is unchanged."""
    global _cache
    key = (id(state), state.version, id(state.cand))
    if _cache is not None and _cache[:3] == key and _cache[3].state is state:
        return _cache[3]
    an = Analysis(state)
    _cache = (*key, an)
    return an
