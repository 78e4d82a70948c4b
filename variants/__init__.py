"""The rule catalogue: one module per rule family, each a set of rule bundles used with
``Puzzle.use(...)``, and the families' own named techniques (``*_logic`` modules).

Names are loaded on first use (``from variants import killer_cage`` imports
:mod:`variants.killer` only), and the families' techniques are registered with the
technique registry the first time a technique selection is made, so building a classic
puzzle loads no technique code.

>>> from csp import Puzzle
>>> from variants import classic, diagonal, killer_cage
>>> p = Puzzle(9).use(classic(), diagonal(), killer_cage(["r1c1", "r1c2"], total=3))
>>> p.propagate().candidates("r1c1")
(1, 2)
"""
from __future__ import annotations

import importlib
from typing import Any

from techniques.registry import add_provider

# names that are also module names: bound eagerly, so that the function, not the module,
# is ``variants.classic`` / ``variants.arrow``
from .arrow import arrow, double_arrow  # noqa: E402
from .classic import classic, classic_puzzle  # noqa: E402

#: public name -> the family module that defines it
RULES: dict[str, str] = {
    "arrow": "arrow", "double_arrow": "arrow",
    "anti_king": "chess", "anti_knight": "chess",
    "classic": "classic", "classic_puzzle": "classic",
    "black_dot": "dots", "diagonal_non_consecutive": "dots", "knight_non_consecutive": "dots",
    "negative": "dots", "non_consecutive": "dots", "sum_dot": "dots", "v_dot": "dots",
    "white_dot": "dots", "x_dot": "dots",
    "greater_than": "inequality", "less_than": "inequality", "slow_thermo": "inequality",
    "thermo": "inequality",
    "digital_root_cage": "killer", "killer_cage": "killer", "little_killer": "killer",
    "multi_sum_cage": "killer",
    "between_line": "lines", "entropic_line": "lines", "lockout": "lines",
    "modular_line": "lines", "nabner": "lines", "palindrome": "lines",
    "region_sum_line": "lines", "renban": "lines", "whispers": "lines", "zipper_line": "lines",
    "clone": "misc", "indexer": "misc", "quadruple": "misc",
    "gattai": "multigrid", "samurai": "multigrid",
    "sandwich": "outside", "skyscraper": "outside", "x_sum": "outside",
    "digits": "parity", "even": "parity", "maximum": "parity", "minimum": "parity",
    "odd": "parity",
    "diagonal": "regions", "disjoint_groups": "regions", "extra_region": "regions",
    "jigsaw_grid": "regions", "windoku": "regions",
}

#: the modules holding the rule families' own techniques
LOGIC_MODULES = ("consecutive_logic", "killer_logic")

__all__ = sorted(RULES) + ["load_logic", "rule_modules"]


def load_logic() -> None:
    """Import the rule families' technique modules (each registers its techniques).
    Called by the technique registry before it answers a selection."""
    for name in LOGIC_MODULES:
        importlib.import_module(f"{__name__}.{name}")


def rule_modules() -> list[Any]:
    """Every rule family module, imported (for tools that list every rule)."""
    return [importlib.import_module(f"{__name__}.{m}") for m in sorted(set(RULES.values()))]


def __getattr__(name: str) -> Any:
    mod = RULES.get(name)
    if mod is None:
        raise AttributeError(f"module 'variants' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(RULES))


add_provider(load_logic)
