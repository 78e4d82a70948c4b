"""Human techniques as higher-order propagators over the candidate link graph.

One module per family registers its techniques in :mod:`techniques.registry`;
:class:`StepSolver` runs them in the human loop.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> step = StepSolver().next_step(p.pencilmarks())
>>> step.explain(2)
'Naked Single: 4 r5c6 => r5c6=4'
"""
from csp import model as _model

from . import registry
from . import (singles, rules, intersections, subsets, fish, single_digit, wings,  # noqa: F401
               coloring, chains, als, uniqueness, misc, templates, forcing)
from .analysis import Analysis, analyze
from .propagators import TechniquePropagator, resolve
from .registry import Technique, all_techniques, get, register, select
from .solver import LogicResult, Rating, StepSolver, UnsoundStep, apply_step
from .se_rating import SERating, rate_se

_model.set_technique_resolver(resolve)

__all__ = ["StepSolver", "LogicResult", "Rating", "UnsoundStep", "apply_step", "Analysis",
           "analyze", "Technique", "register", "registry", "get", "select", "all_techniques",
           "TechniquePropagator", "SERating", "rate_se"]
