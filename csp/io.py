"""Text formats: line strings for any n, sub-grid lines of multi-grids (samurai: 5 x 81
characters), pencil-mark grids, HoDoKu library lines.

>>> n, vals = parse_line("1...2...3...4...".replace("...", "..."))
>>> n, vals[:5]
(4, [1, 0, 0, 0, 2])
>>> write_line(vals, 4)
'1...2...3...4...'
>>> parse_line("A" + "." * 99)[1][0]
10
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .errors import GridSizeError, ParseError
from .text import quoted

if TYPE_CHECKING:
    from .grid import MultiGrid

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_BLANKS = ".0_-*"


def _size_of(count: int) -> int:
    n = math.isqrt(count)
    if n * n != count or n < 1:
        raise ParseError(f"puzzle has {count} cells, which is not a square grid "
                         "(expected 16, 36, 64, 81, 144, 256, ... cells)")
    if n > len(SYMBOLS):
        raise GridSizeError(f"grid size {n} is too large (at most {len(SYMBOLS)})")
    return n


def parse_line(text: str, n: int | None = None,
               count: int | None = None) -> tuple[int, list[int]]:
    """Read a line string: one character per cell ('.' or '0' blank; for n > 9 letters
    A=10, B=11, ...), or whitespace/comma separated numbers (0 blank). Returns
    ``(n, values)`` with 0 for blanks. ``count``: the number of cells when it is not n*n
    (multi-grids; needs ``n``). Raises :class:`ParseError` naming the problem."""
    if not isinstance(text, str):
        raise ParseError(f"puzzle must be a string, got {type(text).__name__}")
    s = text.strip()
    if not s:
        raise ParseError("empty puzzle string")
    if re.search(r"[,\s]", s):
        tokens = [t for t in re.split(r"[,\s]+", s) if t]
        if n is None:
            n = _size_of(len(tokens))
        elif len(tokens) != (count or n * n):
            raise ParseError(f"expected {count or n * n} numbers for {_what(n, count)}, "
                             f"got {len(tokens)}")
        vals = []
        for i, t in enumerate(tokens):
            if t in (".", "0", "_", "-"):
                vals.append(0)
                continue
            if not _is_number(t) or not 1 <= int(t) <= n:
                raise ParseError(f"cell {i + 1}: {quoted(t, 20)} is not a digit 1..{n} or a blank")
            vals.append(int(t))
        return n, vals
    if n is None:
        n = _size_of(len(s))
    elif len(s) != (count or n * n):
        raise ParseError(f"expected {count or n * n} characters for {_what(n, count)}, "
                         f"got {len(s)}")
    vals = []
    for i, ch in enumerate(s):
        if ch in _BLANKS:
            vals.append(0)
            continue
        v = SYMBOLS.find(ch.upper()) + 1
        if v <= 0 or v > n:
            where = f" (r{i // n + 1}c{i % n + 1})" if not count or count == n * n else ""
            raise ParseError(f"cell {i + 1}{where}: unexpected character "
                             f"{quoted(ch)} for {_what(n, count)}")
        vals.append(v)
    return n, vals


def _is_number(t: str) -> bool:
    """ASCII digits only, at most 3 (``str.isdigit`` also takes '⁹', '١' and '１')."""
    return len(t) <= 3 and t.isascii() and t.isdigit()


def _what(n: int, count: int | None) -> str:
    return f"a {n}x{n} grid" if not count or count == n * n else \
        f"a multi-grid of {count} cells with digits 1..{n}"


SYMBOL_STYLES = ("letters", "numbers")


def write_line(values, n: int, blank: str = ".", symbols: str | None = None) -> str:
    """Inverse of :func:`parse_line`. ``symbols="letters"``: one character per cell (1-9,
    then A=10, B=11, ...; ``blank`` for 0); ``"numbers"``: the digits as numbers separated
    by commas (0 for a blank). ``None``: letters when every digit has a character (n <= 35),
    numbers otherwise.

    >>> write_line([1, 0, 10, 16], 16), write_line([1, 0, 10, 16], 16, symbols="numbers")
    ('1.AG', '1,0,10,16')
    """
    if symbols is None:
        symbols = "letters" if n <= len(SYMBOLS) else "numbers"
    if symbols == "numbers":
        return ",".join(str(v) for v in values)
    if symbols != "letters":
        raise ValueError(f"unknown symbols {quoted(symbols)} (letters or numbers)")
    if n > len(SYMBOLS):
        raise GridSizeError(f"a {n}x{n} grid has more digits than letters: use numbers")
    return "".join(SYMBOLS[v - 1] if v else blank for v in values)


def write_pencilmarks(state) -> str:
    """The boxed candidate grid HoDoKu and Sudoku Explainer print (a multi-grid prints its
    whole canvas, blank where no cell is)."""
    grid = state.grid
    n = grid.n
    H, W = grid.height, grid.width
    texts = [[""] * W for _ in range(H)]
    for r in range(H):
        for col in range(W):
            c = grid.at(r, col)
            if c >= 0:
                m = state.cand[c]
                texts[r][col] = "".join(SYMBOLS[d - 1] for d in range(1, n + 1)
                                        if m >> d & 1) or "-"
    width = [max(len(texts[r][col]) for r in range(H)) for col in range(W)]
    bw = grid.box_shape[1] if grid.box_shape else W
    bh = grid.box_shape[0] if grid.box_shape else H

    def sep(left: str, mid: str, right: str) -> str:
        parts = []
        for b in range(0, W, bw):
            seg = sum(width[c] + 1 for c in range(b, min(b + bw, W))) + 1
            parts.append("-" * seg)
        return left + mid.join(parts) + right

    lines = [sep(".", ".", ".")]
    for r in range(H):
        row = "|"
        for b in range(0, W, bw):
            row += " " + " ".join(texts[r][c].ljust(width[c])
                                  for c in range(b, min(b + bw, W))) + " |"
        lines.append(row)
        if (r + 1) % bh == 0 and r + 1 < H:
            lines.append(sep(":", "+", ":"))
    lines.append(sep("'", "'", "'"))
    return "\n".join(lines)


def parse_pencilmarks(text: str, n: int | None = None) -> tuple[int, list[int]]:
    """Read a pencil-mark grid (any layout whose candidate groups are separated by spaces or
    box characters). Returns ``(n, masks)``."""
    tokens = re.findall(r"[1-9A-Z]+", text.upper())
    if n is None:
        n = _size_of(len(tokens))
    if len(tokens) != n * n:
        raise ParseError(f"pencil-mark grid has {len(tokens)} cells, expected {n * n}")
    masks = []
    for i, t in enumerate(tokens):
        m = 0
        for ch in t:
            v = SYMBOLS.find(ch) + 1
            if not 1 <= v <= n:
                raise ParseError(f"cell {i + 1}: candidate {quoted(ch)} out of range 1..{n}")
            m |= 1 << v
        masks.append(m)
    return n, masks


@dataclass
class LibraryLine:
    """One HoDoKu library line (see :func:`parse_library_line`)."""

    line: str
    code: str
    variant: int | None
    must_not_fire: bool
    digits: tuple[int, ...]
    values: list[int]          # 81 digits, 0 empty
    given: list[bool]
    deleted: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    placements: tuple[tuple[int, int], ...]
    extra: str = ""


def _tokens(text: str, what: str, line: str) -> tuple[tuple[int, int], ...]:
    out = []
    for tok in text.split():
        if len(tok) != 3 or not _is_number(tok) or "0" in tok:
            raise ParseError(f"bad {what} token {quoted(tok)} in library line {quoted(line)}")
        d, r, c = int(tok[0]), int(tok[1]), int(tok[2])
        out.append(((r - 1) * 9 + (c - 1), d))
    return tuple(out)


def parse_library_line(line: str) -> LibraryLine:
    """Parse ``:CODE[-V|-x]:DIGITS:GRID:DELETED:ELIMS:PLACES:EXTRA`` (HoDoKu's regression
    library: GRID has 81 cells, ``+d`` a placed non-given digit; candidate tokens are
    digit-row-column triples).

    >>> case = parse_library_line(":0100:5:" + "." * 80 + "+4:512 513::526:")
    >>> case.code, case.digits, case.values[80], case.given[80], case.deleted
    ('0100', (5,), 4, False, ((1, 5), (2, 5)))
    >>> write_library_line(case) == case.line
    True
    """
    raw = line.rstrip("\n")
    parts = raw.split(":")
    if len(parts) < 5 or parts[0] != "":
        raise ParseError(f"not a library line: {quoted(raw, 60)}")
    parts += [""] * (9 - len(parts))
    code_field, digits, grid, deleted, elims, places, extra = parts[1:8]
    variant = None
    must_not_fire = False
    code = code_field
    if "-" in code_field:
        code, opt = code_field.split("-", 1)
        if opt == "x":
            must_not_fire = True
        elif opt.isascii() and opt.isdigit():
            variant = int(opt)
        else:
            raise ParseError(f"bad option {quoted(opt)} in library line {quoted(raw, 60)}")
    values: list[int] = []
    given: list[bool] = []
    i = 0
    while i < len(grid):
        ch = grid[i]
        if ch == "+":
            nxt = grid[i + 1:i + 2]
            if not ("1" <= nxt <= "9"):
                raise ParseError(f"library grid: '+' must be followed by a digit 1-9 "
                                 f"(cell {len(values) + 1}) in {quoted(raw, 60)}")
            values.append(int(nxt))
            given.append(False)
            i += 2
            continue
        if ch not in ".0" and not ("1" <= ch <= "9"):
            raise ParseError(f"library grid: unexpected character {quoted(ch)} (cell "
                             f"{len(values) + 1}) in {quoted(raw, 60)}")
        values.append(0 if ch in ".0" else int(ch))
        given.append(ch not in ".0")
        i += 1
    if len(values) != 81:
        raise ParseError(f"library grid has {len(values)} cells, expected 81: {quoted(raw, 60)}")
    return LibraryLine(raw, code, variant, must_not_fire,
                       tuple(int(ch) for ch in digits if "0" <= ch <= "9"), values, given,
                       _tokens(deleted, "deleted", raw), _tokens(elims, "elimination", raw),
                       _tokens(places, "placement", raw), extra)


def _write_tokens(cands) -> str:
    return " ".join(f"{d}{c // 9 + 1}{c % 9 + 1}" for c, d in cands)


def write_library_line(case: LibraryLine) -> str:
    """Inverse of :func:`parse_library_line` (a trailing empty EXTRA field is kept only if
    the source had it)."""
    code = case.code + ("-x" if case.must_not_fire else
                        f"-{case.variant}" if case.variant is not None else "")
    grid = "".join("." if not v else (str(v) if g else f"+{v}")
                   for v, g in zip(case.values, case.given))
    fields = ["", code, "".join(map(str, case.digits)), grid, _write_tokens(case.deleted),
              _write_tokens(case.eliminations), _write_tokens(case.placements), case.extra]
    text = ":".join(fields)
    n_fields = case.line.count(":") + 1 if case.line else len(fields)
    while text.count(":") + 1 > n_fields and text.endswith(":"):
        text = text[:-1]
    while text.count(":") + 1 < n_fields:
        text += ":"
    return text


# -- multi-grid (gattai, samurai) sub-grid lines -------------------------------------------
def parse_subgrids(grid: "MultiGrid", text: str) -> list[int]:
    """A digit (0 = blank) per cell of ``grid`` from a sub-grid line (``k * n*n``
    characters, whitespace allowed between them) or a line over the grid's own cells.
    Raises :class:`ParseError` when a shared cell gets two different digits."""
    n = grid.n
    s = re.sub(r"\s+", "", text) if not re.search(r"[,]", text) else text
    per = n * n
    if len(s) == grid.size and len(s) != per * len(grid.subgrids):
        return parse_line(s, n, grid.size)[1]
    k = len(grid.subgrids)
    if len(s) != per * k:
        raise ParseError(f"expected {k} x {per} = {k * per} characters (one {n}x{n} grid per "
                         f"part) or {grid.size} (one per cell), got {len(s)}")
    vals = [0] * grid.size
    for i, cells in enumerate(grid.subgrids):
        try:
            _, part = parse_line(s[i * per:(i + 1) * per], n)
        except ParseError as e:
            raise ParseError(f"sub-grid {grid.labels[i]}: {e}") from None
        for c, v in zip(cells, part):
            if v:
                if vals[c] and vals[c] != v:
                    raise ParseError(f"shared cell {grid.name(c)}: {vals[c]} in one sub-grid, "
                                     f"{v} in sub-grid {grid.labels[i]}")
                vals[c] = v
    return vals


def write_subgrids(grid: "MultiGrid", values: Sequence[int], blank: str = ".",
                   sep: str = "") -> str:
    """Inverse of :func:`parse_subgrids`: each sub-grid's ``n*n`` characters, joined by
    ``sep``."""
    return sep.join(write_line([values[c] for c in cells], grid.n, blank)
                    for cells in grid.subgrids)


def is_samurai_line(text: str) -> bool:
    """True for a 405-character (5 x 81) line, whitespace between parts allowed: read it
    as a samurai (:func:`samurai` then names a bad character)."""
    return "," not in text and len(re.sub(r"\s+", "", text)) == 405
