"""Puzzle links and compressed payloads: recognising and decoding them before a format
module reads the JSON inside. Cheap to import (the loader asks it about every argument):
LZString is imported only when a payload is decompressed.

f-puzzles: ``https://f-puzzles.com/?load=PAYLOAD``, a bare payload, or the JSON itself.
SudokuPad: ``https://sudokupad.app/<id>`` (also ``app.crackingthecryptic.com/sudoku/<id>``,
``sudokupad://puzzle/<id>``, ``?puzzleid=<id>``) where the id is a payload with a format
prefix: ``scl`` / ``ctc`` (SudokuPad's puzzle JSON, LZString-compressed, usually "zipped":
:func:`unzip`), ``fpuzzles`` / ``fpuz`` (an f-puzzles payload) or ``scf`` (9x9 classic
compact format); an id without a prefix is a short link stored on SudokuPad's server.

>>> is_fpuzzles_text("https://www.f-puzzles.com/?load=N4IgzglgXg...")
True
>>> decode_payload('{"size": 4}')
{'size': 4}
>>> sudokupad_id("https://sudokupad.app/scl123?setting-nogrid=1"), sudokupad_id("1...")
('scl123', None)
>>> decode_sudokupad("https://sudokupad.app/abcdef1234")
Traceback (most recent call last):
...
sudoku_csp.formats.payload.NeedsNetwork: sudokupad.app/abcdef1234 is a short link: the puzzle is on SudokuPad's server and reading it needs a network fetch, which sudoku-csp does not do; fetch https://sudokupad.app/api/puzzle/abcdef1234 yourself and pass the text it returns (or the puzzle's long link)
"""
from __future__ import annotations

import json
import re
import time
from typing import Any

from csp.errors import ParseError

# deepest JSON nesting read (f-puzzles and SudokuPad documents nest a few levels)
from .zipped import MAX_JSON_DEPTH


class NeedsNetwork(ParseError):
    """A link whose puzzle is stored on a server (a SudokuPad short link, a TinyURL
    f-puzzles alias): reading it needs a network fetch, which this package never does."""


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
    depth = 0
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


# -- LZString ---------------------------------------------------------------------------------
_BASE64 = re.compile(r"[A-Za-z0-9+/=\-$_]+")


def _url_decoded(s: str) -> str:
    """``s`` URL-decoded when that shortens it (payloads pasted from a link often carry
    ``%2B`` / ``%2F`` / ``%3D``), with spaces read as the ``+`` a form decoder made of them."""
    if "%" in s:
        from urllib.parse import unquote
        dec = unquote(s)
        if len(dec) < len(s):
            s = dec
    return s.replace(" ", "+")


def _lz(payload: str) -> str | None:
    try:
        import lzstring
        out = lzstring.LZString().decompressFromBase64(payload)
    except Exception:      # the port fails in many ways on garbage (IndexError, KeyError...)
        return None
    return out if isinstance(out, str) and out else None


def _lz_json(payload: str) -> str | None:
    """Decompressed text of ``payload`` if it looks like JSON (starts with ``{``)."""
    out = _lz(payload)
    return out if out is not None and out.lstrip().startswith("{") else None


def decompress(payload: str, what: str = "payload", budget_s: float = 1.0) -> str:
    """The text inside an LZString base64 payload (f-puzzles and SudokuPad both use
    ``compressToBase64``). A payload whose ``//`` a URL normaliser collapsed to ``/`` is
    repaired by doubling its single slashes, for at most ``budget_s`` seconds.

    >>> import lzstring
    >>> decompress(lzstring.LZString().compressToBase64('{"a": 1}'))
    '{"a": 1}'
    >>> decompress("AAAA", "SudokuPad payload")
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: SudokuPad payload could not be decompressed (broken or truncated?)
    """
    s = _url_decoded(payload.strip())
    if not _BASE64.fullmatch(s):
        bad = next(ch for ch in s if not _BASE64.fullmatch(ch)) if s else ""
        raise ParseError(f"{what} is not LZString base64 text"
                         + (f" (character {bad!r})" if bad else " (empty)"))
    out = _lz_json(s)
    if out is None and "/" in s:
        singles = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", s)]
        deadline = time.monotonic() + budget_s
        tries = [singles] + [[i] for i in singles]
        for idx in tries:
            if time.monotonic() > deadline:
                break
            fixed = "".join(ch + "/" if i in set(idx) else ch for i, ch in enumerate(s))
            out = _lz_json(fixed)
            if out is not None:
                break
    if out is None:
        raise ParseError(f"{what} could not be decompressed (broken or truncated?)")
    return out


# -- f-puzzles --------------------------------------------------------------------------------
def decode_payload(text: str) -> dict:
    """An f-puzzles URL (``...?load=PAYLOAD``), a bare LZString base64 payload, or JSON text."""
    s = text.strip()
    if s.startswith("{"):
        return _object(load_json(s, "f-puzzles JSON"), "f-puzzles JSON")
    if re.search(r"f-puzzles\.com/?\?(?:.*&)?id=", s) and "load=" not in s:
        alias = re.search(r"[?&]id=([^&#\s]*)", s)
        raise NeedsNetwork(f"f-puzzles ?id={alias.group(1) if alias else ''} is a TinyURL "
                           "alias: reading it needs a network fetch, which sudoku-csp does not "
                           "do; open it and pass the ?load= link it leads to")
    m = re.search(r"[?&]load=([^&#\s]+)", s)
    payload = m.group(1) if m else s
    data = decompress(payload, "f-puzzles payload")
    return _object(load_json(data, "f-puzzles payload JSON"), "f-puzzles payload")


def _object(obj: object, what: str) -> dict:
    if not isinstance(obj, dict):
        raise ParseError(f"{what} must be a JSON object, not {type(obj).__name__}")
    return obj


def is_fpuzzles_text(text: str) -> bool:
    s = text.strip()
    return "f-puzzles.com" in s or "load=" in s or (len(s) > 100 and s.startswith("N4Ig"))


# -- SudokuPad links --------------------------------------------------------------------------
_SP_LINK = re.compile(
    r"^(?:https?://)?(?:[\w-]+\.)*(?:sudokupad\.app|app\.crackingthecryptic\.com)"
    r"(?:/sudoku(?:\.html)?)?/*(?:\?puzzleid=)?(?P<id>[^?#\s]*)", re.I)
_SP_SCHEME = re.compile(r"^sudokupad://puzzle/(?P<id>[^?#\s]*)", re.I)
#: payload prefixes SudokuPad reads, longest first (``ctc`` is an alias of ``scl``, ``fpuz``
#: of ``fpuzzles``); ``classic`` is another 9x9 codec, not read here
PREFIXES = ("fpuzzles", "fpuz", "scl", "ctc", "scf")
_PREFIXED = re.compile(r"^(fpuzzles|fpuz|scl|ctc|scf)(?=[A-Za-z0-9+/=%{\-_$*])")


def sudokupad_id(text: str) -> str | None:
    """The puzzle id of a SudokuPad link, or of a bare prefixed payload; None when ``text``
    is neither. (Settings after ``?`` are not part of the id.)"""
    s = text.strip()
    m = _SP_LINK.match(s) or _SP_SCHEME.match(s)
    if m:
        return m.group("id")
    if _PREFIXED.match(s) and len(s) >= 8 and not re.search(r"\s", s):
        return s
    return None


def is_sudokupad_text(text: str) -> bool:
    """True for a SudokuPad link or a prefixed SudokuPad payload.

    >>> is_sudokupad_text("sclN4IgzglgXgpiBcA"), is_sudokupad_text("4.....8.5")
    (True, False)
    """
    return sudokupad_id(text) is not None


def decode_sudokupad(text: str) -> tuple[str, Any]:
    """``(kind, data)`` of a SudokuPad link or payload: ``("scl", puzzle JSON dict)`` for
    ``scl`` / ``ctc``, ``("fpuzzles", f-puzzles dict)`` for ``fpuzzles`` / ``fpuz``,
    ``("scf", text)`` for the classic compact format. A short link (no prefix) raises
    :class:`NeedsNetwork`."""
    pid = sudokupad_id(text)
    if pid is None:
        raise ParseError("not a SudokuPad link or payload")
    m = _PREFIXED.match(pid)
    if not m:
        from urllib.parse import unquote
        if not pid:
            raise ParseError("SudokuPad link without a puzzle id")
        short = unquote(pid)
        if not re.fullmatch(r"[\w\-./~]{1,200}", short):
            raise ParseError(f"SudokuPad link: {short[:40]!r} is neither a payload with a "
                             f"format prefix ({', '.join(PREFIXES)}) nor a short id")
        raise NeedsNetwork(
            f"sudokupad.app/{short} is a short link: the puzzle is on SudokuPad's server and "
            "reading it needs a network fetch, which sudoku-csp does not do; fetch "
            f"https://sudokupad.app/api/puzzle/{short} yourself and pass the text it returns "
            "(or the puzzle's long link)")
    prefix, rest = m.group(1), pid[m.end():]
    if prefix == "scf":
        from urllib.parse import unquote
        return "scf", unquote(rest)
    kind = "fpuzzles" if prefix.startswith("fpuz") else "scl"
    what = "f-puzzles payload" if kind == "fpuzzles" else "SudokuPad payload"
    if prefix.startswith("fpuz") and 0 < len(rest) < 20 and re.fullmatch(r"\w+", rest):
        raise NeedsNetwork(f"{prefix}{rest} is an f-puzzles short id: reading it needs a "
                           "network fetch, which sudoku-csp does not do")
    body = _url_decoded(rest).strip()
    text_ = body if body.startswith("{") else decompress(body, what)
    if kind == "fpuzzles":
        return kind, _object(load_json(text_, "f-puzzles payload JSON"), "f-puzzles payload")
    return kind, read_sudokupad_json(text_)


def read_sudokupad_json(text: str) -> dict:
    """SudokuPad puzzle JSON from plain JSON text or SudokuPad's "zipped" form
    (:func:`sudoku_csp.formats.zipped.unzip`)."""
    try:
        obj = load_json(text, "SudokuPad JSON")
    except ParseError as e:
        if "nests deeper" in str(e):
            raise
        from .zipped import unzip
        obj = unzip(text)
    return _object(obj, "SudokuPad puzzle JSON")
