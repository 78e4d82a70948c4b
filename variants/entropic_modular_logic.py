"""Named techniques of entropic and modular lines: any three consecutive cells hold digits of
three different groups, so positions equal mod 3 share a group (through
:mod:`variants.line_classes`).

- ``entropic_groups`` / ``modular_groups``: on an entropic (modular) line any three
  consecutive cells hold digits of three different groups (1-3/4-6/7-9; remainders mod 3),
  so the cells whose positions are equal mod 3 share one group and the three classes take
  the three groups: a little sudoku of classes and groups, checked against the houses too,
  and for lines of one kind that share a house, against that house jointly (three lines
  crossing a column must together give each group its three cells).
"""
from __future__ import annotations

from typing import Iterator

from csp.step import Step
from techniques.analysis import Analysis
from techniques.registry import register

from .line_classes import _class_steps
from .line_tables import FAMILY


@register("entropic_groups", "Entropic Groups", FAMILY)
def entropic_groups(an: Analysis, opts: dict) -> Iterator[Step]:
    """On an entropic line the cells three apart share a group (1-3, 4-6, 7-9) and the three
    position classes take the three groups: a class left with one group takes it from the
    others, two classes sharing two groups leave the third to the last class, and an
    assignment that leaves a house unfillable goes."""
    yield from _class_steps(an, "entropic", "entropic_groups", "Entropic Groups")


@register("modular_groups", "Modular Groups", FAMILY)
def modular_groups(an: Analysis, opts: dict) -> Iterator[Step]:
    """On a modular line the cells three apart have the same remainder mod 3 and the three
    position classes take the three remainders ({3,6,9}, {1,4,7}, {2,5,8}); like entropic
    groups."""
    yield from _class_steps(an, "mod", "modular_groups", "Modular Groups")
