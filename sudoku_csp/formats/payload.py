"""Puzzle links and compressed payloads: recognising and decoding them before a format
module reads the JSON inside. Cheap to import (the loader asks it about every argument).

>>> is_fpuzzles_text("https://www.f-puzzles.com/?load=N4IgzglgXg...")
True
>>> decode_payload('{"size": 4}')
{'size': 4}
"""
from __future__ import annotations

import json
import re

from csp.errors import ParseError


#: deepest JSON nesting read (f-puzzles and SudokuPad documents nest a few levels)
MAX_JSON_DEPTH = 64


def load_json(text: str, what: str = "JSON") -> object:
    """``json.loads`` for untrusted input: every failure is a :class:`ParseError` naming
    ``what`` (broken text, nesting deeper than :data:`MAX_JSON_DEPTH`, numbers out of
    range), never a RecursionError or ValueError.

    >>> load_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> load_json("[" * 5000 + "]" * 5000, "puzzle JSON")
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: puzzle JSON nests deeper than 64 levels
    """
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:          # a cheap scan first: json recurses once per level
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ParseError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ParseError(f"broken {what}: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (RecursionError, ValueError) as e:
        raise ParseError(f"unreadable {what}: {e}") from None


def decode_payload(text: str) -> dict:
    """An f-puzzles URL (``...?load=PAYLOAD``), a bare LZString base64 payload, or JSON text."""
    s = text.strip()
    if s.startswith("{"):
        return _object(load_json(s, "f-puzzles JSON"), "f-puzzles JSON")
    m = re.search(r"[?&]load=([^&#\s]+)", s)
    payload = m.group(1) if m else s
    from urllib.parse import unquote
    payload = unquote(payload).replace(" ", "+")
    if not re.fullmatch(r"[A-Za-z0-9+/=\-$]+", payload):
        raise ParseError("not an f-puzzles URL, payload or JSON object")
    try:
        import lzstring  # well-kept LZString port; f-puzzles uses compressToBase64
        data = lzstring.LZString().decompressFromBase64(payload)
    except Exception:
        data = None
    if not data:
        raise ParseError("f-puzzles payload could not be decompressed (broken or truncated?)")
    return _object(load_json(data, "f-puzzles payload JSON"), "f-puzzles payload")


def _object(obj: object, what: str) -> dict:
    if not isinstance(obj, dict):
        raise ParseError(f"{what} must be a JSON object, not {type(obj).__name__}")
    return obj


def is_fpuzzles_text(text: str) -> bool:
    s = text.strip()
    return "f-puzzles.com" in s or "load=" in s or (len(s) > 100 and s.startswith("N4Ig"))
