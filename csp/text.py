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

:func:`quoted` quotes an input into a message, shortened when it is long:

>>> quoted("R1C1" + "x" * 9996, limit=8)
"'R1C1xxxx...' (10,000 characters)"

:func:`close_matches` and :func:`did_you_mean` suggest known names for a misspelt one (a
technique, a rule, a command, an option value):

>>> did_you_mean("X-Wing", ["x_wing", "xy_wing", "swordfish"])
"; did you mean 'x_wing'?"
"""
from __future__ import annotations

import difflib
import re
from typing import Iterable

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


#: the most characters of an input a message quotes whole (:func:`quoted`); a 9x9 line fits
QUOTE_LIMIT = 90


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` to quote an input into a message, kept short: a string longer than
    ``limit`` characters shows its first ``limit``, ``...`` inside the quotes and its length;
    any other value with a longer ``repr`` shows the start of it and its size. It never
    raises (an int too long to print shows its size), so an error about a huge input is one
    short line, not the input again.

    >>> quoted("r1c1")
    "'r1c1'"
    >>> quoted("R1C1" + "x" * 9996, limit=8)
    "'R1C1xxxx...' (10,000 characters)"
    >>> quoted(["r1c1"] * 5000, limit=12)
    "['r1c1', 'r1... (5,000 items)"
    >>> quoted(10 ** 5000)
    'an int of about 5,001 digits'
    """
    if isinstance(value, (str, bytes)):
        if len(value) <= limit:
            return repr(value)
        r = repr(value[:limit])
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{r[:-1]}...{r[-1]} ({len(value):,} {unit})"
    try:
        r = repr(value)
    except ValueError:            # an int past sys.get_int_max_str_digits()
        if isinstance(value, int):
            digits = int(abs(value).bit_length() * 0.30102999566398120) + 1
            return f"an int of about {digits:,} digits"
        return f"<{type(value).__name__}>"
    except Exception:             # a repr that fails: its type still names it
        return f"<{type(value).__name__}>"
    if len(r) <= limit:
        return r
    try:
        size = f"{len(value):,} items"          # type: ignore[arg-type]
    except Exception:
        size = f"{len(r):,} characters"
    return f"{r[:limit]}... ({size})"


def quoted_list(values: Iterable[object], most: int = 5, limit: int = 40) -> str:
    """The first ``most`` of ``values`` by :func:`quoted` (each at most ``limit``
    characters), joined by commas, and how many more there are: a message listing unknown
    keys stays short however many there are.

    >>> quoted_list(["givns"])
    "'givns'"
    >>> quoted_list(["k%d" % i for i in range(8)], most=3)
    "'k0', 'k1', 'k2' and 5 more"
    """
    values = list(values)
    shown = ", ".join(quoted(v, limit) for v in values[:most])
    return shown + (f" and {len(values) - most:,} more" if len(values) > most else "")


def one_line(text: object) -> str:
    """``str(text)`` as one printable line (:func:`escape_text` keeping nothing)."""
    return escape_text(str(text))


def _folded(name: str) -> str:
    """``name`` for comparison: case-folded, without separators (``X-Wing`` ~ ``x_wing``)."""
    return re.sub(r"[\s_\-.]+", "", name.casefold())


def close_matches(word: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` names of ``known`` closest to ``word`` (:func:`difflib.get_close_matches`
    with cutoff 0.6, on names compared without case and separators); a name equal to
    ``word`` but for case and separators (``-``, ``_``, spaces, dots) is the only answer.

    >>> close_matches("slove", ["solve", "count", "explain"])
    ['solve']
    >>> close_matches("XWing", ["x_wing", "xy_wing", "wings"])
    ['x_wing']
    >>> close_matches("xywing", ["x_wing", "xy_wing", "xyz_wing", "wings"])
    ['xy_wing']
    >>> close_matches("swordfsh", ["swordfish", "finned_swordfish", "x_wing"])
    ['swordfish', 'finned_swordfish']
    >>> close_matches("zzz", ["solve"])
    []
    """
    names = sorted({str(k) for k in known})
    word = str(word)
    out = [k for k in names if _folded(k) == _folded(word) and k != word]
    if out:                       # the same name but for case and separators: that one
        return out[:n]
    by_fold: dict[str, str] = {}
    for k in names:
        by_fold.setdefault(_folded(k), k)
    for m in difflib.get_close_matches(_folded(word), list(by_fold), n=n, cutoff=0.6):
        if by_fold[m] not in out and by_fold[m] != word:
            out.append(by_fold[m])
    for m in difflib.get_close_matches(word, names, n=n, cutoff=0.6):
        if m not in out and m != word:
            out.append(m)
    return out[:n]


def did_you_mean(word: str, known: Iterable[str], n: int = 3) -> str:
    """``"; did you mean 'a' or 'b'?"`` for the :func:`close_matches` of ``word``, or ``""``
    when none is close (to append to an error message; the names are shown with
    :func:`one_line`, so the message stays one line)."""
    close = close_matches(word, known, n)
    if not close:
        return ""
    return f"; did you mean {' or '.join(one_line(repr(c)) for c in close)}?"
