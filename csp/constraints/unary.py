"""Unary restrictions (odd / even cells, digit sets): applied to the initial candidates."""
from __future__ import annotations

from typing import Iterable

from ..errors import InvalidConstraint
from .base import Constraint


class Domain(Constraint):
    """Cell ``cell`` may only hold the digits in ``digits``.

    >>> Domain(0, [1, 3, 5]).check(3), Domain(0, [1, 3, 5]).check(4)
    (True, False)
    """

    kind = "domain"

    def __init__(self, cell: int, digits: Iterable[int], name: str = "") -> None:
        self.cells = (cell,)
        self.digits = frozenset(int(d) for d in digits)
        if not self.digits:
            raise InvalidConstraint(f"{name or 'domain'}: no digit allowed")
        self.mask = 0
        for d in self.digits:
            self.mask |= 1 << d
        self.name = name or "domain"

    def validate(self, n: int) -> None:
        if not any(1 <= d <= n for d in self.digits):
            raise InvalidConstraint(f"{self.name}: no digit of 1..{n} allowed")

    def unary_mask(self) -> int | None:
        return self.mask

    def check(self, v: int) -> bool:
        return v in self.digits

    def attributes(self) -> dict:
        return {"kind": self.kind, "digits": "".join(map(str, sorted(self.digits)))}
