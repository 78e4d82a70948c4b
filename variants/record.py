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
  (colour and thickness) and end markers, aliases, and the words of a rules text that give
  the meaning to a bare drawing; or ``element="none"`` with a reason.
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
(['whispers', 'dutch-whispers'], 'line', ('whisper_logic', 'pairs_logic', 'arrangement_logic'))
>>> records()["whispers"] is r
True
"""
from __future__ import annotations

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
#: (an integer or null), ``ints`` (a list of integers), ``bool``, ``str``, ``positions`` (a
#: list of ``[row, col]`` places of outside clues: row or column 0 or n + 1)
ARG_TYPES = ("cell", "cells", "cell-lists", "int", "int?", "ints", "bool", "str", "positions")


class _Record:
    """A small read-only record. A plain class with ``__slots__``, not a dataclass: defining
    the four record types as dataclasses costs about 5 ms of CPU at every start-up, these
    well under one."""
    __slots__: tuple[str, ...] = ()
    _defaults: dict[str, Any] = {}

    def __init__(self, *args: Any, **kw: Any) -> None:
        names = self.__slots__
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes at most {len(names)} arguments")
        values = dict(zip(names, args))
        for k, v in kw.items():
            if k not in names or k in values:
                raise TypeError(f"{type(self).__name__}(): unexpected or repeated {k!r}")
            values[k] = v
        for n in names:
            if n not in values and n not in self._defaults:
                raise TypeError(f"{type(self).__name__}(): missing {n!r}")
            object.__setattr__(self, n, values.get(n, self._defaults.get(n)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")


class FPuzzles(_Record):
    """How f-puzzles holds the rule (see the module docstring): ``FPuzzles(shape, key="",
    value=None, default=None, keys=(), reason="")``."""
    __slots__ = ("shape", "key", "value", "default", "keys", "reason")
    _defaults = {"key": "", "value": None, "default": None, "keys": (), "reason": ""}
    shape: str
    key: str
    value: str | None
    default: Callable[[int], int] | None
    keys: tuple[str, ...]
    reason: str

    @property
    def all_keys(self) -> tuple[str, ...]:
        """Every f-puzzles key the rule reads or writes."""
        return ((self.key,) if self.key else ()) + self.keys


class SudokuPad(_Record):
    """One meaning a SudokuPad element may have (see the module docstring):
    ``SudokuPad(kind, element, conventions=(), ends=None, aliases=(), default=None, key="",
    reason="", text=(), drawn="", suppresses=())``. ``default``: the value of a line of this
    meaning (from the grid size) when the f-puzzles record's default is not the one;
    ``key``: a global flag's f-puzzles key. How the rules text names the meaning
    (:mod:`sudoku_csp.formats.sudokupad_rules`): ``text``, regular expressions matched on the
    lower-cased text with hyphens and quotes made spaces, the first naming the rule, the others
    describing it (``{N}``: a number, in digits or words, captured as the rule's value);
    ``drawn``, what the text calls the element (``line``, ``circle``, ``arrow``; default
    the ``element`` itself); ``suppresses``, meanings a statement naming this one does not
    mean (a Dutch whispers text also says "whisper")."""
    __slots__ = ("kind", "element", "conventions", "ends", "aliases", "default", "key",
                 "reason", "text", "drawn", "suppresses")
    _defaults = {"conventions": (), "ends": None, "aliases": (), "default": None, "key": "",
                 "reason": "", "text": (), "drawn": "", "suppresses": ()}
    kind: str
    element: str
    conventions: tuple[tuple[str, float | None], ...]
    ends: str | None
    aliases: tuple[str, ...]
    default: Callable[[int], int] | None
    key: str
    reason: str
    text: tuple[str, ...]
    drawn: str
    suppresses: tuple[str, ...]


class Drawing(_Record):
    """How the renderer draws the rule: ``Drawing(style, colour="", width=0.17, ends="",
    label=None, css="")``: ``style`` (one of :data:`DRAWING_STYLES` or a bespoke drawer's
    name), ``colour``, ``width`` (a line's, as a fraction of the cell), ``ends`` (a line's
    end markers: ``circles`` or ``diamonds``), ``label`` (a note's text or a cage's total,
    from the bundle) and ``css`` (the SVG class)."""
    __slots__ = ("style", "colour", "width", "ends", "label", "css")
    _defaults = {"colour": "", "width": 0.17, "ends": "", "label": None, "css": ""}
    style: str
    colour: str
    width: float
    ends: str
    label: Callable[[Any], Any] | None
    css: str


class RuleRecord(_Record):
    """Everything the application needs about one rule bundle class:
    ``RuleRecord(fpuzzles, sudokupad, drawing, args=(), logic=(), techniques=(),
    outside=False)``."""
    __slots__ = ("fpuzzles", "sudokupad", "drawing", "args", "logic", "techniques", "outside")
    _defaults = {"args": (), "logic": (), "techniques": (), "outside": False}
    fpuzzles: FPuzzles
    sudokupad: tuple[SudokuPad, ...]
    drawing: Drawing
    args: tuple[tuple[str, str], ...]
    logic: tuple[str, ...]
    techniques: tuple[str, ...]
    outside: bool


_classes: dict[str, type] | None = None


def rule_classes() -> dict[str, type]:
    """Every public rule bundle class by name, in catalogue order (the family modules'
    ``__all__``; rule builders that are functions are left out)."""
    global _classes
    if _classes is None:
        import variants
        out: dict[str, type] = {}
        for mod in variants.rule_modules():          # variants.rules() order
            for name in mod.__all__:
                obj = vars(mod)[name]
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
