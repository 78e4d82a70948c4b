"""Puzzle links and compressed payloads: recognising and decoding them before a format
module reads the JSON inside. Cheap to import (the loader asks it about every argument).

Input caps: one puzzle's text (a PUZZLE argument, a JSON document, a payload, a line of a
batch) is at most :data:`MAX_PUZZLE_CHARS` characters and a payload decompresses to at
most :data:`MAX_DECODED_CHARS`; above either, reading stops with a :class:`ParseError`
naming the cap and the size given (real puzzles are a few kilobytes: the largest of the
f-puzzles test set is 15 KB). Decoding runs within the caller's
:class:`~csp.budget.Budget`: LZString is decompressed here, ticking it (the ``lzstring``
package is used only to compress).

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

import functools
import json
import re
from typing import Any, Callable

from csp.budget import Budget
from csp.errors import ParseError

# deepest JSON nesting read (f-puzzles and SudokuPad documents nest a few levels)
from .zipped import MAX_JSON_DEPTH
from csp.text import quoted


#: the most characters one puzzle's text may have (1 MB of ASCII)
MAX_PUZZLE_CHARS = 1_000_000
#: the most characters a compressed payload may decompress to
MAX_DECODED_CHARS = 4_000_000


def check_size(text: str, what: str = "puzzle text", cap: int = MAX_PUZZLE_CHARS) -> str:
    """``text`` itself, or a :class:`ParseError` when it is longer than ``cap`` characters.

    >>> check_size("1" * 81)[:3]
    '111'
    >>> check_size("x" * 2_000_000, "SudokuPad payload")
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: SudokuPad payload of 2,000,000 characters is over the input cap of 1,000,000 characters
    """
    if len(text) > cap:
        raise ParseError(f"{what} of {len(text):,} characters is over the input cap of "
                         f"{cap:,} characters")
    return text


class NeedsNetwork(ParseError):
    """A link whose puzzle is stored on a server (a SudokuPad short link, a TinyURL
    f-puzzles alias): reading it needs a network fetch, which this package never does."""


def load_json(text: str, what: str = "JSON") -> object:
    """``json.loads`` for untrusted input: every failure is a :class:`ParseError` naming
    ``what`` (broken text, nesting deeper than :data:`MAX_JSON_DEPTH`, numbers out of
    range, text over :data:`MAX_PUZZLE_CHARS` characters), never a RecursionError or
    ValueError.

    >>> load_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> load_json("[" * 5000 + "]" * 5000, "puzzle JSON")
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: puzzle JSON nests deeper than 64 levels
    """
    check_size(text, what, MAX_DECODED_CHARS)
    depth = 0
    # a scan first (json recurses once per level): strings skipped whole, brackets counted
    for m in _JSON_SCAN.finditer(text):
        ch = m.group()
        if ch[0] == '"':
            continue
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ParseError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
        else:
            depth -= 1
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ParseError(f"broken {what}: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (RecursionError, ValueError) as e:
        raise ParseError(f"unreadable {what}: {e}") from None


#: what the nesting scan of :func:`load_json` looks at: whole strings and brackets
_JSON_SCAN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


# -- LZString ---------------------------------------------------------------------------------
_BASE64 = re.compile(r"[A-Za-z0-9+/=\-$_]+")
_B64_VALUE = {ch: i for i, ch in enumerate(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")}


class _Bits:
    """LZString's bit reader over base64 values: ``read(k)`` gives the next ``k`` bits,
    the first one lowest; it fetches the next value as soon as one is used up (as
    ``lzstring`` does), so it raises IndexError past the end or on a character outside
    the alphabet (value -1) when it is fetched."""

    __slots__ = ("vals", "val", "position", "index")

    def __init__(self, vals: list[int]) -> None:
        self.vals = vals
        self.val = vals[0]
        if self.val < 0:
            raise IndexError("not a base64 character")
        self.position = 32
        self.index = 1

    def read(self, k: int) -> int:
        bits = 0
        power = 1
        val, position = self.val, self.position
        for _ in range(k):
            if val & position:
                bits |= power
            power <<= 1
            position >>= 1
            if not position:
                position = 32
                val = self.vals[self.index]
                self.index += 1
                if val < 0:
                    raise IndexError("not a base64 character")
        self.val, self.position = val, position
        return bits


def lz_decompress_base64(payload: str, tick: Callable[[], None] | None = None,
                         max_chars: int = MAX_DECODED_CHARS) -> str | None:
    """LZString's ``decompressFromBase64``, with the same answers as the ``lzstring``
    package (None, or an empty string, for a payload that does not decompress), calling
    ``tick`` (a budget's: it may raise) as it goes; a :class:`ParseError` once the text
    passes ``max_chars`` characters.

    >>> import lzstring
    >>> lz_decompress_base64(lzstring.LZString().compressToBase64('{"size": 9}'))
    '{"size": 9}'
    >>> lz_decompress_base64("A" * 400, max_chars=100)
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: payload decompresses to more than 100 characters (the cap)
    """
    if not payload:
        return None
    get = _B64_VALUE.get
    vals = [get(ch, -1) for ch in payload]
    length = len(vals)
    try:
        bits = _Bits(vals)
        read = bits.read
        first = read(2)
        if first == 2:
            return ""
        if first > 2:
            return None
        c = chr(read(8 if first == 0 else 16))
        dictionary: list[Any] = [0, 1, 2, c]
        w = c
        result = [c]
        size = 1
        enlarge_in, num_bits = 4, 3
        while True:
            if tick is not None:
                tick()
            if bits.index > length:
                return ""
            code = read(num_bits)
            if code < 2:
                dictionary.append(chr(read(8 if code == 0 else 16)))
                code = len(dictionary) - 1
                enlarge_in -= 1
            elif code == 2:
                return "".join(result)
            if enlarge_in == 0:
                enlarge_in = 1 << num_bits
                num_bits += 1
            if code < len(dictionary):
                entry = dictionary[code]
            elif code == len(dictionary):
                entry = w + w[0]
            else:
                return None
            result.append(entry)
            size += len(entry)
            if size > max_chars:
                raise ParseError(f"payload decompresses to more than {max_chars:,} characters "
                                 "(the cap)")
            dictionary.append(w + entry[0])
            enlarge_in -= 1
            w = entry
            if enlarge_in == 0:
                enlarge_in = 1 << num_bits
                num_bits += 1
    except IndexError:           # the bits ran out before the end marker
        return None


def _url_decoded(s: str) -> str:
    """``s`` URL-decoded when that shortens it (payloads pasted from a link often carry
    ``%2B`` / ``%2F`` / ``%3D``), with spaces read as the ``+`` a form decoder made of them."""
    if "%" in s:
        from urllib.parse import unquote
        dec = unquote(s)
        if len(dec) < len(s):
            s = dec
    return s.replace(" ", "+")


def _lz(payload: str, budget: Budget | None = None) -> str | None:
    tick = None if budget is None else functools.partial(budget.tick, "parsing")
    out = lz_decompress_base64(payload, tick)
    return out or None


def _lz_json(payload: str, budget: Budget | None = None) -> str | None:
    """Decompressed text of ``payload`` if it looks like JSON (starts with ``{``)."""
    out = _lz(payload, budget)
    return out if out is not None and out.lstrip().startswith("{") else None


def decompress(payload: str, what: str = "payload", budget_s: float = 1.0,
               budget: Budget | None = None) -> str:
    """The text inside an LZString base64 payload (f-puzzles and SudokuPad both use
    ``compressToBase64``). A payload whose ``//`` a URL normaliser collapsed to ``/`` is
    repaired by doubling its single slashes, for at most ``budget_s`` seconds. Runs within
    ``budget`` (:class:`~csp.errors.TimeLimitExceeded` once it is spent); a payload over
    :data:`MAX_PUZZLE_CHARS` characters is refused first.

    >>> import lzstring
    >>> decompress(lzstring.LZString().compressToBase64('{"a": 1}'))
    '{"a": 1}'
    >>> decompress("AAAA", "SudokuPad payload")
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: SudokuPad payload could not be decompressed (broken or truncated?)
    """
    check_size(payload, what)
    s = _url_decoded(payload.strip())
    if not _BASE64.fullmatch(s):
        bad = next(ch for ch in s if not _BASE64.fullmatch(ch)) if s else ""
        raise ParseError(f"{what} is not LZString base64 text"
                         + (f" (character {quoted(bad)})" if bad else " (empty)"))
    out = _lz_json(s, budget)
    if out is None and "/" in s:
        # repairs, each a whole decompression: all single slashes doubled, then each alone,
        # while the repair's own time lasts (the call's budget still holds)
        repair = Budget(budget_s) if budget is None else budget.narrowed(budget_s)
        singles = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", s)]
        tries = [singles] + [[i] for i in singles]
        from csp.errors import TimeLimitExceeded
        for idx in tries:
            if repair.exhausted:
                break
            fixed = _doubled(s, idx)
            try:
                out = _lz_json(fixed, repair)
            except TimeLimitExceeded:
                if budget is not None:
                    budget.check("parsing")
                break
            if out is not None:
                break
    if out is None:
        raise ParseError(f"{what} could not be decompressed (broken or truncated?)")
    return out


def _doubled(s: str, at: list[int]) -> str:
    """``s`` with the characters at the sorted positions ``at`` (slashes) doubled.

    >>> _doubled("a/b/c", [1, 3])
    'a//b//c'
    """
    parts = []
    prev = 0
    for i in at:
        parts.append(s[prev:i + 1])
        parts.append(s[i])
        prev = i + 1
    parts.append(s[prev:])
    return "".join(parts)


# -- f-puzzles --------------------------------------------------------------------------------
def decode_payload(text: str, budget: Budget | None = None) -> dict:
    """An f-puzzles URL (``...?load=PAYLOAD``), a bare LZString base64 payload, or JSON text
    (decoded within ``budget``)."""
    s = check_size(text).strip()
    if s.startswith("{"):
        return _object(load_json(s, "f-puzzles JSON"), "f-puzzles JSON")
    if re.search(r"f-puzzles\.com/?\?(?:.*&)?id=", s) and "load=" not in s:
        alias = re.search(r"[?&]id=([^&#\s]*)", s)
        raise NeedsNetwork(f"f-puzzles ?id={alias.group(1) if alias else ''} is a TinyURL "
                           "alias: reading it needs a network fetch, which sudoku-csp does not "
                           "do; open it and pass the ?load= link it leads to")
    m = re.search(r"[?&]load=([^&#\s]+)", s)
    payload = m.group(1) if m else s
    data = decompress(payload, "f-puzzles payload", budget=budget)
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


def decode_sudokupad(text: str, budget: Budget | None = None) -> tuple[str, Any]:
    """``(kind, data)`` of a SudokuPad link or payload: ``("scl", puzzle JSON dict)`` for
    ``scl`` / ``ctc``, ``("fpuzzles", f-puzzles dict)`` for ``fpuzzles`` / ``fpuz``,
    ``("scf", text)`` for the classic compact format. A short link (no prefix) raises
    :class:`NeedsNetwork`. Decoded within ``budget``."""
    pid = sudokupad_id(check_size(text, "SudokuPad link"))
    if pid is None:
        raise ParseError("not a SudokuPad link or payload")
    m = _PREFIXED.match(pid)
    if not m:
        from urllib.parse import unquote
        if not pid:
            raise ParseError("SudokuPad link without a puzzle id")
        short = unquote(pid)
        if not re.fullmatch(r"[\w\-./~]{1,200}", short):
            raise ParseError(f"SudokuPad link: {quoted(short, 40)} is neither a payload with a "
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
    text_ = body if body.startswith("{") else decompress(body, what, budget=budget)
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
