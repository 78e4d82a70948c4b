"""Human techniques as higher-order propagators over the candidate link graph.

One module per family registers its techniques in :mod:`techniques.registry`;
:class:`StepSolver` runs them in the human loop. The family modules are imported the first
time the registry is asked a question (a selection, a lookup), and the public names below on
first use, so importing the package alone is cheap.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> step = StepSolver().next_step(p.pencilmarks())
>>> step.explain(2)
'Naked Single: 4 r5c6 => r5c6=4'
"""
from __future__ import annotations

from typing import Any

from . import registry

#: the technique family modules, in the order they are imported (each registers the family
#: of its name, but ``order`` the ``inequality`` family and ``sue_de_coq`` the ``misc`` one)
FAMILIES = ("singles", "rules", "order", "indexing", "intersections", "sets", "sums",
            "exclusion", "subsets", "fish", "single_digit", "wings", "coloring", "chains",
            "als", "uniqueness", "sue_de_coq", "templates", "forcing")


def load_families() -> None:
    """Import every family module (each registers its techniques)."""
    from . import (singles, rules, order, indexing, intersections, sets, sums,  # noqa: F401
                   exclusion, subsets, fish, single_digit, wings, coloring, chains, als,
                   uniqueness, sue_de_coq, templates, forcing)


registry.add_provider(load_families)

#: public name -> the module of this package that defines it
_PUBLIC = {
    "StepSolver": "solver", "LogicResult": "solver", "Rating": "solver",
    "Run": "loop", "UnsoundStep": "loop", "apply_step": "loop",
    "Analysis": "analysis", "analyze": "analysis",
    "TechniquePropagator": "propagators", "propagate": "propagators",
    "SERating": "se_rating", "rate_se": "se_rating",
    "Technique": "registry", "register": "registry", "get": "registry",
    "select": "registry", "all_techniques": "registry",
}

__all__ = sorted(_PUBLIC) + ["registry", "FAMILIES", "load_families"]


def _module(name: str) -> Any:
    if name == "solver":
        from . import solver as m
    elif name == "loop":
        from . import loop as m
    elif name == "analysis":
        from . import analysis as m
    elif name == "propagators":
        from . import propagators as m
    elif name == "se_rating":
        from . import se_rating as m
    else:
        m = registry
    return m


def __getattr__(name: str) -> Any:
    mod = _PUBLIC.get(name)
    if mod is None:
        raise AttributeError(f"module 'techniques' has no attribute {name!r}")
    value = getattr(_module(mod), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
