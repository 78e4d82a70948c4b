"""The rule catalogue: one module per rule family, each a set of rule bundles used with
``Puzzle.use(...)``, and the families' own named techniques (``*_logic`` modules).

A rule lives in its family module and is listed in that module's ``__all__``; nothing else
in this package names it. Rule names are loaded on first use (``from variants import
killer_cage`` imports the family modules, not the technique code), and the families'
techniques are registered with the technique registry the first time a technique selection
is made, so building a classic puzzle loads neither.

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

#: the rule family modules: each lists its public rules in its ``__all__``
FAMILIES = ("arrow", "chess", "classic", "dots", "inequality", "killer", "lines", "misc",
            "multigrid", "outside", "parity", "regions")

#: the modules holding the rule families' own techniques
LOGIC_MODULES = ("arrangement_logic", "between_lockout_logic", "clone_logic", "consecutive_logic",
                 "entropic_modular_logic", "killer_logic", "outside_logic", "pairs_logic",
                 "parity_logic", "region_sum_logic", "renban_logic", "thermo_logic",
                 "whisper_logic")

_rules: dict[str, str] | None = None


def rules() -> dict[str, str]:
    """Every public rule name -> the family module that defines it (the union of the family
    modules' ``__all__``; imports them all).

    >>> rules()["killer_cage"], rules()["thermo"]
    ('killer', 'inequality')
    """
    global _rules
    if _rules is None:
        table: dict[str, str] = {}
        for mod in rule_modules():
            for name in mod.__all__:
                if name in table:
                    raise ImportError(f"rule {name!r} is defined by variants.{table[name]} "
                                      f"and {mod.__name__}")
                table[name] = mod.__name__.rsplit(".", 1)[1]
        _rules = table
    return _rules


def load_logic() -> None:
    """Import the rule families' technique modules (each registers its techniques).
    Called by the technique registry before it answers a selection."""
    for name in LOGIC_MODULES:
        importlib.import_module(f"{__name__}.{name}")


def rule_modules() -> list[Any]:
    """Every rule family module, imported (for tools that list every rule)."""
    return [importlib.import_module(f"{__name__}.{m}") for m in FAMILIES]


def __getattr__(name: str) -> Any:
    if name == "RULES":
        return rules()
    if name == "__all__":    # from variants import *
        return sorted(rules()) + ["FAMILIES", "load_logic", "rule_modules", "rules"]
    mod = rules().get(name) if not name.startswith("_") else None
    if mod is None:
        raise AttributeError(f"module 'variants' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(rules()))


add_provider(load_logic)
