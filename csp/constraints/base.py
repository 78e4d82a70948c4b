"""Base class of constraint specs."""
from __future__ import annotations

from typing import Iterator

from ..propagator import Propagator

WeakLink = tuple[tuple[int, int], tuple[int, int]]


class Constraint:
    """A rule over ``cells``. Subclasses override what they contribute."""

    kind: str = "constraint"
    name: str = ""
    cells: tuple[int, ...] = ()

    def propagators(self, n: int) -> list[Propagator]:
        return []

    def house(self) -> tuple[int, ...] | None:
        """Cells that must hold different digits (an all-different group), or None."""
        return None

    def weak_links(self, n: int) -> Iterator[WeakLink]:
        """Pairs of candidates ``((cell, digit), (cell, digit))`` that cannot both be true,
        beyond those implied by :meth:`house`."""
        return iter(())

    def check(self, *values: int) -> bool:
        """True when the full assignment ``values`` (in ``cells`` order) satisfies the rule."""
        raise NotImplementedError

    def attributes(self) -> dict:
        """Scalar attributes for graph views."""
        return {"kind": self.kind}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"
