"""Constraint specs. A spec contributes its propagators, its house (cells that must all be
different, if any), its weak links, and a predicate (``check``) used by the python-constraint
export and by tests.

>>> from csp.constraints import Less
>>> c = Less(0, 1)
>>> c.check(1, 2), c.check(2, 2)
(True, False)
>>> sorted(c.weak_links(3))[:3]
[((0, 1), (1, 1)), ((0, 2), (1, 1)), ((0, 2), (1, 2))]
"""
from __future__ import annotations

from typing import Any

from .base import Automaton, Constraint
from .alldiff import AllDifferent, AllDifferentGAC
from .binary import (AbsDiff, AllowedPairs, BinaryTable, Equal, Less, LessEqual, NotAbsDiff,
                     NotEqual, NotRatio, Ratio, Relation, RelationKind)

#: the specs a classic puzzle does not need, imported on first use (start-up):
#: name -> the module of this package that defines it
LAZY = {"Linear": "sums", "Sum": "sums", "SumIn": "sums", "Domain": "unary",
        "FunctionConstraint": "function", "ConsecutiveSet": "run", "Contains": "element",
        "Element": "element", "Regular": "regular"}


def _module(name: str) -> Any:
    if name == "sums":
        from . import sums as m
    elif name == "unary":
        from . import unary as m
    elif name == "function":
        from . import function as m
    elif name == "run":
        from . import run as m
    elif name == "regular":
        from . import regular as m
    else:
        from . import element as m
    return m


def __getattr__(name: str) -> Any:
    mod = LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'csp.constraints' has no attribute {name!r}")
    value = getattr(_module(mod), name)
    globals()[name] = value
    return value

__all__ = [
    "Automaton", "Constraint", "AllDifferent", "AllDifferentGAC", "Relation", "RelationKind", "BinaryTable", "Less",
    "LessEqual", "Equal", "NotEqual", "AbsDiff", "NotAbsDiff", "Ratio", "NotRatio",
    "AllowedPairs", "Sum", "SumIn", "Linear", "Domain", "FunctionConstraint", "ConsecutiveSet",
    "Contains", "Element", "Regular",
]
