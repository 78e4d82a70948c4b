"""f-puzzles: reading (:mod:`.read`: URL, LZString base64 payload or decoded JSON -> Puzzle)
and writing (:mod:`.write`: Puzzle -> f-puzzles JSON or link). Both take each rule's
f-puzzles shape from its record (``cls.record``, :mod:`variants.record`).

The public names of both are here. The writer's are imported on first use, so that reading
a puzzle does not import the writer.

>>> from sudoku_csp.formats.fpuzzles import load_fpuzzles, to_fpuzzles
>>> to_fpuzzles(load_fpuzzles({"size": 1, "grid": [[{"value": 1, "given": True}]]}))
{'size': 1, 'grid': [[{'value': 1, 'given': True}]]}
"""
from __future__ import annotations

from typing import Any

from ..payload import decode_payload, is_fpuzzles_text
from .read import HANDLERS, IGNORED, NEGATIVE_KINDS, default_regions, load_fpuzzles, to_int

#: the writer's public names (:mod:`.write`), imported when first asked for
_WRITER = ("ExportError", "export_rule", "to_fpuzzles", "to_fpuzzles_url")

__all__ = ["HANDLERS", "IGNORED", "NEGATIVE_KINDS", "decode_payload", "default_regions",
           "is_fpuzzles_text", "load_fpuzzles", "to_int", *_WRITER]


def __getattr__(name: str) -> Any:
    if name not in _WRITER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import write
    value = getattr(write, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WRITER))
