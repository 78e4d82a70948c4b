"""Solving state: one candidate bitmask per cell, placed digits, a version counter."""
from __future__ import annotations

from typing import Iterator

from .bits import digits_of, is_single, lowest
from .grid import Grid


class State:
    """Cheap-to-copy solving state.

    ``cand[c]`` is the candidate bitmask of cell ``c`` (bit d = digit d); ``placed[c]`` is
    the digit placed in ``c`` (0 if none). A cell with one candidate but no placement is
    *fixed* but not placed, so a human-style solver still shows the single as a step.
    ``version`` increases on every change made through the State's own methods; techniques
    key caches on ``(id(state), version)``.

    >>> s = State(Grid(4))
    >>> _ = s.remove(0, 3); s.candidates(0), s.version
    ((1, 2, 4), 1)
    >>> s.place(0, 2); s.value(0), s.placed[0]
    (2, 2)
    """

    # __weakref__: a technique may remember hints about the run that owns this state
    # (techniques.forcing's scan order) without keeping it alive
    __slots__ = ("grid", "cand", "placed", "given", "version", "puzzle", "__weakref__")

    def __init__(self, grid: Grid, cand: list[int] | None = None,
                 placed: list[int] | None = None, given: list[bool] | None = None,
                 puzzle=None) -> None:
        self.grid = grid
        self.cand = cand if cand is not None else [grid.all_mask] * grid.size
        self.placed = placed if placed is not None else [0] * grid.size
        self.given = given if given is not None else [False] * grid.size
        self.version = 0
        self.puzzle = puzzle

    def copy(self) -> "State":
        s = State(self.grid, self.cand[:], self.placed[:], self.given, self.puzzle)
        s.version = self.version
        return s

    # -- queries -------------------------------------------------------------------
    def candidates(self, cell: int | str) -> tuple[int, ...]:
        return digits_of(self.cand[self.grid.cell(cell)])

    def has(self, cell: int, digit: int) -> bool:
        return bool(self.cand[cell] >> digit & 1)

    def value(self, cell: int | str) -> int:
        """The cell's digit if placed or fixed (one candidate), else 0."""
        c = self.grid.cell(cell)
        if self.placed[c]:
            return self.placed[c]
        m = self.cand[c]
        return lowest(m) if is_single(m) else 0

    def values(self) -> list[int]:
        return [self.value(c) for c in range(self.grid.size)]

    def is_solved(self) -> bool:
        return all(m and not (m & (m - 1)) for m in self.cand)

    def unplaced(self) -> Iterator[int]:
        return (c for c in range(self.grid.size) if not self.placed[c])

    def count(self) -> int:
        """Total number of candidates left."""
        return sum(m.bit_count() for m in self.cand)

    # -- edits (bump version) -------------------------------------------------------
    def remove(self, cell: int, digit: int) -> bool:
        m = self.cand[cell]
        if not m >> digit & 1:
            return False
        self.cand[cell] = m & ~(1 << digit)
        self.version += 1
        return True

    def place(self, cell: int, digit: int) -> None:
        self.cand[cell] = 1 << digit
        self.placed[cell] = digit
        self.version += 1

    def to_string(self, blank: str = ".") -> str:
        """Line string of placed/fixed digits (see :func:`csp.io.write_line`)."""
        from .io import write_line
        return write_line(self.values(), self.grid.n, blank=blank)

    def __str__(self) -> str:
        from .io import write_pencilmarks
        return write_pencilmarks(self)

    def _repr_svg_(self) -> str | None:
        """SVG picture for Jupyter, drawn by the renderer an upper layer registered
        (:mod:`csp.display`); None (text repr) when none is registered."""
        from .display import repr_svg
        return repr_svg(self)

    def __repr__(self) -> str:
        return f"State({self.grid!r}, {self.count()} candidates, version={self.version})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.cand == other.cand and self.placed == other.placed

    __hash__ = None  # type: ignore[assignment]
