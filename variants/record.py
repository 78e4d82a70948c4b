"""One record per rule: everything the application needs to know about a rule bundle class,
declared as plain data beside the class (its ``record`` class attribute).

The application (:mod:`sudoku_csp`: the renderer, the f-puzzles, SudokuPad and own-JSON
formats, ``sudoku-csp rules``) reads these records instead of keeping tables of its own, so
a new rule is its class with its record, its logic module and its test.

- :class:`FPuzzles`: the f-puzzles key and the shape of its entries (``line``: a list of
  ``lines``; ``cells``: one ``cell`` per entry; ``outside``: a clue ``cell`` outside the
  grid and a ``value``; ``flag``: a global ``true``; ``custom``: read and written by code of
  the format named after the key), the bundle attribute written as ``value`` and the value
  read when an entry has none; or ``shape="none"`` with the reason f-puzzles cannot hold it.
- :class:`SudokuPad`: the meaning name(s) SudokuPad elements may carry (``--line
  COLOUR=MEANING``, the rules text), the element it is drawn as, its drawing conventions
  (colour and thickness) and end markers, aliases; or ``element="none"`` with a reason.
- :class:`Drawing`: a drawing style the renderer has one generic drawer for (``line``,
  ``cage``, ``shade``, ``note``, ``outside``, ``nothing``) with its parameters, or the name
  of a bespoke drawer (``thermo``, ``arrow`` ...).
- :class:`RuleRecord`: the above, the own-JSON argument types (``(name, type)``, a
  ``*name`` for the constructor's ``*args``; types of :data:`ARG_TYPES`), the ``*_logic``
  module(s) serving the rule, the named techniques they bring, and whether its clues sit
  outside the grid.

Records are cheap to build (no work at import time beyond the frozen dataclasses).

>>> from variants.lines import whispers
>>> r = whispers.record
>>> r.fpuzzles.key, r.fpuzzles.value, r.fpuzzles.default(9)
('whispers', 'diff', 5)
>>> [k.kind for k in r.sudokupad], r.drawing.style, r.logic
(['whispers', 'dutch-whispers'], 'line', ('lines_logic', 'pairs_logic'))
>>> records()["whispers"] is r
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["FPuzzles", "SudokuPad", "Drawing", "RuleRecord", "records", "record_of",
           "rule_classes", "find_record",
           "FPUZZLES_SHAPES", "SUDOKUPAD_ELEMENTS", "DRAWING_STYLES", "ARG_TYPES"]

#: how a rule sits in an f-puzzles document
FPUZZLES_SHAPES = ("line", "cells", "outside", "flag", "custom", "none")
#: what a rule is drawn as in SudokuPad
SUDOKUPAD_ELEMENTS = ("line", "cage", "shape", "outside", "global", "custom", "none")
#: the renderer's generic drawing styles (any other style names a bespoke drawer)
DRAWING_STYLES = ("line", "cage", "shade", "note", "outside", "nothing")
#: own-JSON argument types: ``cell`` (a cell name, id or [row, col], or a list of them),
#: ``cells`` (a list of cells), ``cell-lists`` (a list of cell lists), ``int``, ``int?``
#: (an integer or null), ``ints`` (a list of integers), ``bool``, ``str``
ARG_TYPES = ("cell", "cells", "cell-lists", "int", "int?", "ints", "bool", "str")


@dataclass(frozen=True)
class FPuzzles:
    """How f-puzzles holds the rule (see the module docstring)."""
    shape: str
    key: str = ""
    value: str | None = None
    default: Callable[[int], int] | None = None
    keys: tuple[str, ...] = ()
    reason: str = ""

    @property
    def all_keys(self) -> tuple[str, ...]:
        """Every f-puzzles key the rule reads or writes."""
        return ((self.key,) if self.key else ()) + self.keys


@dataclass(frozen=True)
class SudokuPad:
    """One meaning a SudokuPad element may have (see the module docstring). ``default``:
    the value of a line of this meaning (from the grid size) when the f-puzzles record's
    default is not the one."""
    kind: str
    element: str
    conventions: tuple[tuple[str, float | None], ...] = ()
    ends: str | None = None
    aliases: tuple[str, ...] = ()
    default: Callable[[int], int] | None = None
    key: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Drawing:
    """How the renderer draws the rule: ``style`` (one of :data:`DRAWING_STYLES` or a
    bespoke drawer's name), ``colour``, ``width`` (a line's, as a fraction of the cell),
    ``ends`` (a line's end markers: ``circles`` or ``diamonds``), ``label`` (a note's text
    or a cage's total, from the bundle) and ``css`` (the SVG class)."""
    style: str
    colour: str = ""
    width: float = 0.17
    ends: str = ""
    label: Callable[[Any], str] | None = None
    css: str = ""


@dataclass(frozen=True)
class RuleRecord:
    """Everything the application needs about one rule bundle class."""
    fpuzzles: FPuzzles
    sudokupad: tuple[SudokuPad, ...]
    drawing: Drawing
    args: tuple[tuple[str, str], ...] = ()
    logic: tuple[str, ...] = ()
    techniques: tuple[str, ...] = ()
    outside: bool = False


_classes: dict[str, type] | None = None


def rule_classes() -> dict[str, type]:
    """Every public rule bundle class by name, in catalogue order (the family modules'
    ``__all__``; rule builders that are functions are left out)."""
    global _classes
    if _classes is None:
        import variants
        out: dict[str, type] = {}
        for name in variants.rules():
            obj = getattr(variants, name)
            if isinstance(obj, type):
                out[name] = obj
        _classes = out
    return _classes


def records() -> dict[str, RuleRecord]:
    """Every public rule bundle class's name -> its record, in catalogue order. A public
    rule class without a record of its own is an error."""
    out = {}
    for name, cls in rule_classes().items():
        r = record_of(cls)
        if r is None:
            raise TypeError(f"rule class {cls.__module__}.{name} has no record")
        out[name] = r
    return out


def find_record(cls: type) -> RuleRecord | None:
    """The record of ``cls`` or of the nearest base class that has one (a subclass of a rule
    is drawn and written as that rule)."""
    for k in cls.__mro__:
        r = record_of(k)
        if r is not None:
            return r
    return None


def record_of(cls: type) -> RuleRecord | None:
    """The record a rule class declares itself (not one inherited), or None."""
    r = cls.__dict__.get("record")
    return r if isinstance(r, RuleRecord) else None
