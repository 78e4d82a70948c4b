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
from .base import Automaton, Constraint
from .alldiff import AllDifferent, AllDifferentGAC
from .binary import (AbsDiff, AllowedPairs, BinaryTable, Equal, Less, LessEqual, NotAbsDiff,
                     NotEqual, NotRatio, Ratio, Relation, RelationKind)
from .sums import Linear, Sum, SumIn
from .unary import Domain
from .function import FunctionConstraint
from .run import ConsecutiveSet
from .element import Contains, Element

__all__ = [
    "Automaton", "Constraint", "AllDifferent", "AllDifferentGAC", "Relation", "RelationKind", "BinaryTable", "Less",
    "LessEqual", "Equal", "NotEqual", "AbsDiff", "NotAbsDiff", "Ratio", "NotRatio",
    "AllowedPairs", "Sum", "SumIn", "Linear", "Domain", "FunctionConstraint", "ConsecutiveSet",
    "Contains", "Element",
]
