"""SudokuPad's "zipped" puzzle JSON: the compact text its links carry (short property names,
unquoted keys and words, run-length lists), read back into plain JSON values.
"""
from __future__ import annotations

import json
import re
from typing import Any

from csp.errors import ParseError
from csp.text import quoted

#: deepest JSON nesting read (f-puzzles and SudokuPad documents nest a few levels; the
#: payload readers share it)
MAX_JSON_DEPTH = 64

#: SudokuPad's short property names (zipped form) -> full names
ZIP_KEYS = {"c": "color", "ca": "cages", "ct": "center", "c1": "borderColor",
            "c2": "backgroundColor", "ce": "cells", "cs": "cellSize", "a": "arrows",
            "o": "overlays", "u": "underlays", "w": "width", "h": "height", "v": "value",
            "vd": "videos", "l": "lines", "r": "rounded", "re": "regions", "fs": "fontSize",
            "th": "thickness", "hl": "headLength", "wp": "wayPoints", "t": "title",
            "te": "text", "d": "duration", "d2": "d"}
_HEX6 = re.compile(r"[0-9a-fA-F]{6}")
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z0-9_#$]+")


class _Zipped:
    """A reader for SudokuPad's zipped JSON (its own parser, written from the format's
    rules): bare keys, strings in single quotes (``\\'`` for a quote) unless the text holds
    a double quote, elided array elements standing for ``{}``, ``t``/``f`` for booleans,
    ``#0``/``#F`` and bare ``rrggbb`` for colours after a colon."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.q = '"' if '"' in text else "'"

    def fail(self, msg: str) -> ParseError:
        return ParseError(f"broken SudokuPad payload: {msg} at character {self.i}")

    def peek(self) -> str:
        s, i = self.s, self.i
        while i < len(s) and s[i] in " \t\r\n":
            i += 1
        self.i = i
        return s[i] if i < len(s) else ""

    def value(self, depth: int, after_colon: bool) -> Any:
        if depth > MAX_JSON_DEPTH:
            raise ParseError(f"SudokuPad payload nests deeper than {MAX_JSON_DEPTH} levels")
        ch = self.peek()
        if ch == "{":
            return self.obj(depth)
        if ch == "[":
            return self.arr(depth)
        if ch in ("'", '"'):
            return self.string()
        m = _NUMBER.match(self.s, self.i)
        w = _WORD.match(self.s, self.i)
        if w and (after_colon and (w.group() in ("t", "f", "#0", "#F")
                                   or _HEX6.fullmatch(w.group()))
                  or w.group() in ("true", "false", "null")):
            word = w.group()
            self.i = w.end()
            return {"t": True, "true": True, "f": False, "false": False, "null": None,
                    "#0": "#000000", "#F": "#FFFFFF"}.get(word, "#" + word)
        if m:
            self.i = m.end()
            text = m.group()
            try:
                v = float(text) if any(c in text for c in ".eE") else int(text)
            except ValueError:
                raise self.fail(f"bad number {quoted(text, 20)}") from None
            if isinstance(v, float) and v != v or v in (float("inf"), float("-inf")):
                raise self.fail(f"number out of range {quoted(text, 20)}")
            return v
        raise self.fail(f"unexpected {quoted(ch)}" if ch else "unexpected end")

    def string(self) -> str:
        s, q = self.s, self.s[self.i]
        j = self.i + 1
        out: list[str] = []
        while True:
            if j >= len(s):
                raise self.fail("unterminated string")
            ch = s[j]
            if ch == q:
                break
            if ch == "\\":
                nxt = s[j + 1:j + 2]
                if nxt in ("'", '"'):
                    out.append(nxt)
                    j += 2
                    continue
                if nxt == "u":
                    out.append(s[j:j + 6])
                    j += 6
                    continue
                out.append(s[j:j + 2])
                j += 2
                continue
            out.append('\\"' if ch == '"' else ch)
            j += 1
        self.i = j + 1
        try:
            return json.loads('"' + "".join(out) + '"')
        except ValueError:
            raise self.fail("bad string escape") from None

    def key(self) -> str:
        ch = self.peek()
        if ch in ("'", '"'):
            return self.string()
        w = _WORD.match(self.s, self.i)
        if not w:
            raise self.fail("expected a key")
        self.i = w.end()
        return w.group()

    def obj(self, depth: int) -> dict:
        self.i += 1
        out: dict[str, Any] = {}
        if self.peek() == "}":
            self.i += 1
            return out
        while True:
            k = self.key()
            if self.peek() != ":":
                raise self.fail("expected ':'")
            self.i += 1
            out[k] = self.value(depth + 1, True)
            ch = self.peek()
            self.i += 1
            if ch == "}":
                return out
            if ch != ",":
                raise self.fail("expected ',' or '}'")

    def arr(self, depth: int) -> list:
        self.i += 1
        out: list[Any] = []
        while True:
            ch = self.peek()
            if ch in (",", "]"):       # an elided element: SudokuPad's zip dropped a {}
                out.append({})
            else:
                out.append(self.value(depth + 1, False))
                ch = self.peek()
            self.i += 1
            if ch == "]":
                return out
            if ch != ",":
                raise self.fail("expected ',' or ']'")


def _rename(v: Any) -> Any:
    if isinstance(v, list):
        return [_rename(x) for x in v]
    if isinstance(v, dict):
        out: dict[str, Any] = {}
        for k, x in v.items():
            out[ZIP_KEYS.get(k, k)] = _rename(x)
        return out
    if isinstance(v, str) and _HEX6.fullmatch(v):
        return "#" + v
    return v


def unzip(text: str) -> dict | list:
    """SudokuPad's zipped puzzle JSON read back (keys renamed to their full names).

    >>> unzip("{ce:[[,{v:3}]],l:[{wp:[[0.5,0.5],[0.5,1.5]],c:67F067,th:6}],r:t}")
    {'cells': [[{}, {'value': 3}]], 'lines': [{'wayPoints': [[0.5, 0.5], [0.5, 1.5]], 'color': '#67F067', 'thickness': 6}], 'rounded': True}
    """
    r = _Zipped(text.strip())
    if r.peek() not in ("{", "["):
        raise r.fail("expected '{'")
    out = r.value(0, False)
    if r.peek():
        raise r.fail("text after the end")
    return _rename(out)
