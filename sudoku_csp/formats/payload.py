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


def decode_payload(text: str) -> dict:
    """An f-puzzles URL (``...?load=PAYLOAD``), a bare LZString base64 payload, or JSON text."""
    s = text.strip()
    if s.startswith("{"):
        try:
            return json.loads(s)
        except json.JSONDecodeError as e:
            raise ParseError(f"f-puzzles JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
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
    try:
        return json.loads(data)
    except json.JSONDecodeError:
        raise ParseError("f-puzzles payload does not decode to JSON") from None


def is_fpuzzles_text(text: str) -> bool:
    s = text.strip()
    return "f-puzzles.com" in s or "load=" in s or (len(s) > 100 and s.startswith("N4Ig"))
