"""Text that stays printable: :func:`one_line` for every message that quotes input (the
library's exceptions print through it, so do the command line's errors and a batch's
``where``), :func:`escape_text` for text drawn or written (titles, rules text).

A newline or a terminal escape in a cell name, a rule name or a file name shows as ``\\n``
or ``\\x1b``, so an error stays one line; a lone surrogate (``"\\ud800"`` in JSON) shows as
its escape, and a byte that was not UTF-8 (read with ``errors="surrogateescape"``) as
``\\xff``, so writing the text cannot fail.

>>> one_line("cell 'R5C1\\n' is not a cell\\x1b[2J")
"cell 'R5C1\\\\n' is not a cell\\\\x1b[2J"
>>> escape_text("a\\ud800b\\nc", keep="\\n")
'a\\\\ud800b\\nc'
>>> escape_text(b"caf\\xe9".decode("utf-8", "surrogateescape"))
'caf\\\\xe9'
"""
from __future__ import annotations

import re

#: characters escaped: C0 and C1 controls, DEL, line and paragraph separators, surrogates
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def _escape(ch: str) -> str:
    if "\udc80" <= ch <= "\udcff":    # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return repr(ch)[1:-1]


def escape_text(text: str, keep: str = "") -> str:
    """``text`` with control characters, line separators and lone surrogates written as
    their Python escapes (``\\n``, ``\\x1b``, ``\\u2028``, ``\\ud800``; a byte that was not
    UTF-8 as ``\\xff``), except the characters of ``keep``."""
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _escape(m.group()), text)


def one_line(text: object) -> str:
    """``str(text)`` as one printable line (:func:`escape_text` keeping nothing)."""
    return escape_text(str(text))
