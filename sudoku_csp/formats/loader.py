"""Turn command-line puzzle arguments into Puzzles.

A PUZZLE argument is one of: a line string for an NxN grid (or a 405-character samurai line,
:mod:`variants.multigrid`), an f-puzzles URL or payload, a SudokuPad link or payload
(:mod:`sudoku_csp.formats.sudokupad`), a JSON object (f-puzzles, SudokuPad, or sudoku-csp's
own format, :mod:`sudoku_csp.formats.spec`), ``-`` for stdin, or a file (``.txt``: one line
puzzle per line; ``.json``: one JSON object; ``.jsonl``: one JSON object per line, an
``fpuzzles_json`` or ``puzzle`` key accepted). Each source yields :class:`Item` records; a
bad entry of a batch is an Item carrying its error (so a batch goes on), a bad single
argument raises.

``lines`` (every function here takes it) maps colours of SudokuPad drawings to their
meanings (the CLI's ``--line COLOUR=MEANING``): see :mod:`sudoku_csp.formats.sudokupad`.

``budget`` (a :class:`csp.budget.Budget`, made by the command before it reads anything)
bounds the parsing: decoding payloads and building the model tick it, so a time limit
holds while a puzzle is read. One puzzle's text is at most
:data:`~sudoku_csp.formats.payload.MAX_PUZZLE_CHARS` characters (an argument, a JSON
document, one line of a batch); a command that takes one puzzle stops reading a file at
its second puzzle.

>>> [it.label for it in load_arg("1...............")]
['1...............']
>>> it = next(load_arg("12"))
Traceback (most recent call last):
...
csp.errors.ParseError: puzzle has 2 cells, which is not a square grid (expected 16, 36, 64, 81, 144, 256, ... cells)
"""
from __future__ import annotations

import io
import math
import os
import re
import sys
import time
from dataclasses import dataclass
from typing import IO, Any, Iterable, Iterator

from csp import Puzzle
from csp.budget import Budget
from csp.errors import InvalidPuzzle, ParseError, SearchLimit
from csp.events import Contradiction
from csp.io import is_samurai_line, parse_library_line, parse_line, parse_pencilmarks
from csp.state import State
from csp.text import one_line, quoted

from variants.classic import classic_puzzle

from .payload import (MAX_PUZZLE_CHARS, check_size, decode_payload, is_fpuzzles_text,
                      is_sudokupad_text, load_json)


@dataclass
class Item:
    """One puzzle of a source: ``label`` (the line or a title), ``where`` ("file:line" for
    batch entries), and either ``puzzle`` or ``error``. ``solution`` is a stated solution if
    the source carries one. ``parse_s``: seconds its parsing took (a solve of it then has
    that much less of its time limit)."""  # noqa: D400

    label: str
    where: str = ""
    puzzle: Puzzle | None = None
    error: InvalidPuzzle | None = None
    solution: str | None = None
    raw: str | None = None
    kind: str = ""
    lines: dict[str, str] | None = None
    parse_s: float = 0.0
    #: the budget its solve runs within (set by :func:`sudoku_csp.batch.work`)
    budget: Budget | None = None

    def parsed(self, budget: Budget | None = None) -> "Item":
        """This item with its puzzle built within ``budget`` (batch entries read with
        ``parse=False`` carry only their ``raw`` line, so worker processes can parse them);
        a bad entry comes back with ``error`` set. A spent budget raises
        :class:`~csp.errors.TimeLimitExceeded`."""
        if self.puzzle is not None or self.error is not None or self.raw is None:
            return self
        if budget is not None:
            budget.check("parsing")
        return _entry(self.raw, self.where, self.kind, self.lines, budget)


def puzzle_from_text(text: str, lines: dict[str, str] | None = None,
                     budget: Budget | None = None) -> Puzzle:
    """A Puzzle from one line of text: f-puzzles or SudokuPad URL / payload / JSON, or a
    line string (at most :data:`~sudoku_csp.formats.payload.MAX_PUZZLE_CHARS`
    characters), read within ``budget``."""
    s = check_size(text).strip()
    if not s:
        raise ParseError("empty puzzle")
    if s.startswith("{"):
        return puzzle_from_json(load_json(s), lines, budget)[0]
    if is_sudokupad_text(s):
        from .sudokupad import load_sudokupad
        return load_sudokupad(s, lines, budget)
    if is_fpuzzles_text(s):
        from .fpuzzles import load_fpuzzles
        return load_fpuzzles(decode_payload(s, budget), budget)
    if is_samurai_line(s):
        from variants.multigrid import samurai
        return samurai(s)
    return classic_puzzle(s)


def is_sudokupad_json(obj: Any) -> bool:
    """True for a SudokuPad puzzle JSON object (a ``cells`` grid, no f-puzzles ``grid``)."""
    return isinstance(obj, dict) and isinstance(obj.get("cells"), list) and "grid" not in obj \
        and "format" not in obj


def puzzle_from_json(obj: Any, lines: dict[str, str] | None = None,
                     budget: Budget | None = None, _nested: bool = False
                     ) -> tuple[Puzzle, str | None]:
    """A Puzzle (and stated solution, if any) from a decoded JSON value, read within
    ``budget``. An object holding the puzzle under ``puzzle`` (a line, or a JSON object of
    its own, one level deep: what ``generate --json`` prints) is read from there."""
    if not isinstance(obj, dict):
        raise ParseError("a puzzle JSON value must be an object")
    from .spec import from_spec, is_spec
    sol = obj.get("solution") if isinstance(obj.get("solution"), str) else None
    if is_spec(obj):
        return from_spec(obj, budget), sol
    if is_sudokupad_json(obj):
        from .sudokupad import load_sudokupad
        p = load_sudokupad(obj, lines, budget)
        return p, sol or p.meta.get("solution")
    from .fpuzzles import load_fpuzzles       # not needed for our own JSON
    if "fpuzzles_json" in obj:
        fp = obj["fpuzzles_json"]
        p = load_fpuzzles(decode_payload(fp, budget) if isinstance(fp, str) else fp, budget)
        if "title" in obj:
            p.meta.setdefault("title", obj["title"])
        return p, sol
    if "grid" in obj and "size" in obj:
        return load_fpuzzles(obj, budget), sol
    for key in ("puzzle", "line"):
        if isinstance(obj.get(key), str):
            p = puzzle_from_text(obj[key], lines, budget)
            if isinstance(obj.get("title"), str):
                p.meta.setdefault("title", obj["title"])
            return p, sol
    if isinstance(obj.get("puzzle"), dict) and not _nested:
        p, inner = puzzle_from_json(obj["puzzle"], lines, budget, True)
        if isinstance(obj.get("title"), str):
            p.meta.setdefault("title", obj["title"])
        return p, sol or inner
    if "size" in obj:                  # f-puzzles data written by hand, short of its grid
        raise ParseError("f-puzzles data has 'size' but no 'grid' (its rows of cells, as "
                         "f-puzzles writes them: [[{}, ...], ...])")
    raise ParseError("JSON object is neither f-puzzles data nor has a 'fpuzzles_json' or "
                     "'puzzle' key")


def _label(p: Puzzle, fallback: str) -> str:
    return str(p.meta.get("title") or fallback)


def _short(line: str) -> str:
    return line if len(line) <= 200 else line[:197] + "..."


def _entry(line: str, where: str, kind: str, lines: dict[str, str] | None = None,
           budget: Budget | None = None) -> Item:
    short = _short(line)
    t0 = time.perf_counter()
    try:
        if kind == "jsonl":
            p, sol = puzzle_from_json(load_json(line, "JSON line"), lines, budget)
            return Item(_label(p, short), where, p, solution=sol,
                        parse_s=time.perf_counter() - t0)
        p = puzzle_from_text(line, lines, budget)
        return Item(short, where, p, solution=_stated(p), parse_s=time.perf_counter() - t0)
    except InvalidPuzzle as e:
        return Item(short, where, error=e)


def _stated(p: Puzzle) -> str | None:
    sol = p.meta.get("solution")
    return sol if isinstance(sol, str) and sol.strip() else None


#: a byte that is not UTF-8, as read with ``errors="surrogateescape"`` (U+DC80..U+DCFF)
_BAD_BYTE = re.compile("[\udc80-\udcff]")


def bad_utf8(line: str) -> ParseError | None:
    """The error of a line holding a byte that is not UTF-8 (text read with
    ``errors="surrogateescape"``), naming the first such byte and its column; None when the
    line is clean.

    >>> str(bad_utf8(b"1..\\xff.".decode("utf-8", "surrogateescape")))
    'not UTF-8 text: byte 0xff at column 4'
    """
    m = _BAD_BYTE.search(line)
    if m is None:
        return None
    return ParseError(f"not UTF-8 text: byte 0x{ord(m.group()) - 0xDC00:02x} at column "
                      f"{m.start() + 1}")


def _require_utf8(text: str, name: str) -> None:
    """Refuse a whole document (one puzzle over several lines) holding a byte that is not
    UTF-8, naming ``name:line``."""
    for no, line in enumerate(text.splitlines(), 1):
        error = bad_utf8(line)
        if error is not None:
            raise ParseError(f"{name}:{no}: {error}")


def _batch(lines: Iterable[str], name: str, kind: str, parse: bool = True,
           meanings: dict[str, str] | None = None,
           budget: Budget | None = None) -> Iterator[Item]:
    """The items of a batch's lines (a file's or stdin's, read with
    ``errors="surrogateescape"``): a line that is not UTF-8, or not a puzzle, is an item
    carrying its error, so the other lines still get their answers."""
    seen = False
    name = one_line(name)
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        seen = True
        where = f"{name}:{no}"
        error = bad_utf8(line)
        if error is not None:
            yield Item(_short(one_line(line)), where, error=error)
        elif parse:
            yield _entry(line, where, kind, meanings, budget)
        else:
            yield Item(_short(line), where, raw=line, kind=kind, lines=meanings)
    if not seen:
        raise ParseError(f"{name}: no puzzle in it (empty file)")


def load_arg(arg: str, stdin: IO[str] | None = None, parse: bool = True,
             lines: dict[str, str] | None = None,
             budget: Budget | None = None) -> Iterator[Item]:
    """Items of one command-line PUZZLE argument (see the module docstring).

    ``parse=False`` leaves the entries of a batch (file lines, stdin lines) unparsed: each
    Item carries its ``raw`` line and is built later by :meth:`Item.parsed` (in a worker
    process). A single puzzle argument is always parsed (within ``budget``), so a bad one
    raises at once.

    >>> [it.puzzle is None for it in load_arg("-", io.StringIO("1" + "." * 15 + "\\n"), False)]
    [True]
    """
    if arg == "-":
        text = _read_stdin(stdin)
        if not text.strip():
            raise ParseError("stdin: no puzzle in it (empty input)")
        kind = "jsonl" if text.lstrip().startswith("{") and "\n" in text.strip() else "txt"
        if kind == "jsonl":
            try:        # one JSON object over several lines, rather than JSON lines
                obj = load_json(text, "stdin JSON")
            except ParseError:
                obj = None
            if isinstance(obj, dict):
                _require_utf8(text, "stdin")
                yield _single(text, "stdin", "stdin", "jsonl", lines, budget)
                return
        if kind == "txt" and text.lstrip().startswith("{"):
            _require_utf8(text, "stdin")
            yield _single(text, "stdin", "stdin", "txt", lines, budget)
            return
        yield from _batch(text.splitlines(), "stdin", kind, parse, lines, budget)
        return
    if os.path.isfile(arg):
        ext = os.path.splitext(arg)[1].lower()
        if ext == ".json":
            what = f"{one_line(arg)}: JSON"
            text = check_size(read_text_file(arg, MAX_PUZZLE_CHARS + 1), what)
            if not text.strip():
                raise ParseError(f"{one_line(arg)}: empty file")
            yield _single(text, arg, one_line(arg), "jsonl", lines, budget, what)
            return
        kind = "jsonl" if ext == ".jsonl" else "txt"
        with open(arg, encoding="utf-8", errors="surrogateescape") as f:
            yield from _batch(f, arg, kind, parse, lines, budget)
        return
    if os.path.isdir(arg):
        raise ParseError(f"{arg}: is a directory, not a puzzle file")
    if _looks_like_path(arg):
        raise ParseError(f"{arg}: no such file")
    error = bad_utf8(arg)
    if error is not None:
        raise ParseError(f"PUZZLE argument: {error}")
    yield _single(arg, _short(arg), "", "txt", lines, budget)


def _single(text: str, label: str, where: str, kind: str, lines: dict[str, str] | None,
            budget: Budget | None, what: str = "JSON") -> Item:
    """A single puzzle argument, parsed at once within ``budget`` (a bad one raises). When
    the budget runs out while it is read, the Item comes back unparsed, with the time its
    reading took as ``parse_s``: its solve then reports the limit."""
    t0 = time.perf_counter()
    try:
        if kind == "jsonl":
            p, sol = puzzle_from_json(load_json(text, what), lines, budget)
        else:
            p = puzzle_from_text(text, lines, budget)
            sol = _stated(p)
    except SearchLimit:
        return Item(label, where, raw=text, kind=kind, lines=lines,
                    parse_s=time.perf_counter() - t0)
    note_inferred(p)
    return Item(_label(p, label), where, p, solution=sol, parse_s=time.perf_counter() - t0)


def note_inferred(p: Puzzle | None) -> None:
    """Say on stderr, in one line, what a single puzzle's reading took from its rules text
    (``puzzle.meta["inferred"]``, :mod:`sudoku_csp.formats.sudokupad_rules`); nothing when
    it took nothing."""
    if p is not None and p.meta.get("inferred"):
        from .sudokupad import inferred_note
        print(f"sudoku-csp: note: {one_line(inferred_note(p.meta['inferred']))}",
              file=sys.stderr, flush=True)


def load_one(arg: str, stdin: IO[str] | None = None,
             lines: dict[str, str] | None = None, budget: Budget | None = None) -> Item:
    """The one puzzle of a PUZZLE argument (commands that take a single puzzle), read
    within ``budget``; a file or stream holding several (refused at the second, without
    reading on), or a bad entry, raises :class:`~csp.errors.InvalidPuzzle`.

    >>> load_one("1" + "." * 15).puzzle.grid.n
    4
    """
    items: list[Item] = []
    for it in load_arg(arg, stdin, parse=False, lines=lines, budget=budget):
        items.append(it)
        if len(items) > 1:
            raise InvalidPuzzle(f"expected one puzzle, {quoted(arg)} holds more than one "
                                f"(a second at {it.where or 'its second entry'})")
    item = items[0].parsed(budget)
    if item.error is not None:
        raise item.error
    if items[0].puzzle is None:          # read here (stdin), not by _single: say it here
        note_inferred(item.puzzle)
    return item


# -- partly solved grids (for hints) -------------------------------------------------------
#: the longest pencil-mark text read (a 35x35 grid with every candidate shown, boxed, is
#: under 100,000 characters)
MAX_MARKS_CHARS = 200_000
_MARK_TEXT = re.compile(r"[0-9A-Za-z\s.|:'+\-=*]+")


def is_pencilmark_text(text: str) -> bool:
    """True when ``text`` looks like a pencil-mark grid (candidate groups separated by spaces
    or box characters, as HoDoKu or Simple Sudoku print them) rather than a line string.

    >>> is_pencilmark_text(" ".join(["123"] * 81)), is_pencilmark_text("1" + "." * 80)
    (True, False)
    """
    s = text.strip()
    if not s or s[0] in "{:" or not re.search(r"\s", s) or not _MARK_TEXT.fullmatch(s):
        return False
    tokens = re.findall(r"[1-9A-Z]+", s.upper())
    n = math.isqrt(len(tokens))
    if n < 2 or n * n != len(tokens):
        return False
    if not (any(len(t) > 1 for t in tokens) or "|" in s):
        return False
    try:  # a grid of separated numbers reads as a line string first
        parse_line(s)
        return False
    except InvalidPuzzle:
        return True


def _place(st: State, cell: int, digit: int) -> None:
    """Place ``digit`` and remove every candidate it sees (houses and weak links)."""
    if not st.cand[cell] >> digit & 1:
        raise Contradiction(f"{st.grid.name(cell)}={digit} is not among its candidates",
                            "pencil marks", (cell,))
    st.place(cell, digit)
    from csp.links import link_tables
    for c2, d2 in link_tables(st.puzzle).weak_neighbours(cell, digit):
        if not st.placed[c2] and st.cand[c2] >> d2 & 1:
            st.remove(c2, d2)
            if not st.cand[c2]:
                raise Contradiction(f"{st.grid.name(c2)} has no candidate left", "pencil marks",
                                    (c2,))


def marks_state(text: str, puzzle: Puzzle | None = None) -> State:
    """The solving state a partly solved grid describes, on ``puzzle``'s rules (classic rules
    of the grid's size when None). ``text`` is either

    * a pencil-mark grid (:func:`csp.io.parse_pencilmarks`): a cell showing one digit is taken
      as solved (placed, its digit removed from every cell it sees), as HoDoKu prints solved
      cells; other cells keep the candidates shown (intersected with the puzzle's own
      starting pencil marks), or
    * a HoDoKu library line ``:0000:x:GRID:DELETED:...`` (9x9): digits of GRID are givens,
      ``+d`` placed digits, DELETED the candidates already removed.

    Raises :class:`ParseError` on a malformed text and :class:`Contradiction` when the marks
    leave a cell without candidates or drop a given.

    >>> st = marks_state(":0000:x:" + "1" + "." * 79 + "+2:312::")
    >>> st.placed[0], st.placed[80], st.candidates("r1c2"), st.candidates("r2c1")
    (1, 2, (2, 4, 5, 6, 7, 8, 9), (2, 3, 4, 5, 6, 7, 8, 9))
    """
    s = text.strip()
    if s.startswith(":"):
        case = parse_library_line(s.splitlines()[0])
        if puzzle is None:
            puzzle = classic_puzzle("".join(str(v) if g else "."
                                            for v, g in zip(case.values, case.given)))
        elif puzzle.grid.size != 81:
            raise ParseError("a HoDoKu library line describes a 9x9 grid")
        st = puzzle.pencilmarks()
        for c, v in enumerate(case.values):
            if v and st.placed[c] != v:
                _place(st, c, v)
        for c, d in case.deleted:
            if not st.placed[c] and st.remove(c, d) and not st.cand[c]:
                raise Contradiction(f"{st.grid.name(c)} has no candidate left", "pencil marks",
                                    (c,))
        return st
    n, masks = parse_pencilmarks(s, puzzle.grid.n if puzzle is not None else None)
    if puzzle is None:
        puzzle = classic_puzzle("." * (n * n))
    st = puzzle.pencilmarks()
    for c, m in enumerate(masks):
        d = st.placed[c]
        if d:
            if not m >> d & 1:
                raise Contradiction(f"the pencil marks of {st.grid.name(c)} drop its given {d}",
                                    "pencil marks", (c,))
        elif st.cand[c] & ~m:
            st.cand[c] &= m
            st.version += 1
            if not st.cand[c]:
                raise Contradiction(f"{st.grid.name(c)} has no candidate left", "pencil marks",
                                    (c,))
    for c in range(st.grid.size):
        m = st.cand[c]
        if st.placed[c]:
            continue
        if not m:   # the puzzle's own pencil marks already leave it none
            raise Contradiction(f"{st.grid.name(c)} has no candidate left", "pencil marks",
                                (c,))
        if m & (m - 1) == 0:
            _place(st, c, m.bit_length() - 1)
    return st


def _read_stdin(stdin: IO[str] | None) -> str:
    """All of stdin (or of ``stdin``) as text; the process's stdin is read as bytes and
    decoded with ``errors="surrogateescape"``, whatever the locale, so a byte that is not
    UTF-8 is reported where it is (:func:`bad_utf8`) rather than refusing the whole input."""
    if stdin is not None:
        return stdin.read()
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.read()
    return buffer.read().decode("utf-8", "surrogateescape")


def read_text_file(path: str, cap: int | None = None) -> str:
    """A whole file that must be one UTF-8 text (a ``.json`` puzzle, pencil marks): a byte
    that is not UTF-8 is a :class:`ParseError` naming the file, the line and the byte.
    ``cap``: read at most this many bytes (a file that fills them is over a cap: the
    caller's size check says so, a multi-byte character cut at the end is replaced)."""
    with open(path, "rb") as f:
        data = f.read() if cap is None else f.read(cap)
    if cap is not None and len(data) >= cap:
        return data.decode("utf-8", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise ParseError(f"{one_line(path)}:{line}: not UTF-8 text: byte 0x{data[e.start]:02x} "
                         f"at column {column}") from None


def _looks_like_path(arg: str) -> bool:
    """Whether an argument that names no file was meant as one (a puzzle or pencil-mark
    file's extension, short): "no such file" says more than a parse error of its text.

    >>> _looks_like_path("puzzles/hard.txt"), _looks_like_path("1234 ..." + "5" * 9)
    (True, False)
    """
    return arg.endswith((".txt", ".json", ".jsonl", ".sdk")) and len(arg) < 100


def _read(arg: str, stdin: IO[str] | None, cap: int | None = None) -> str | None:
    """The text of a file argument or of stdin (``-``); None for other arguments. ``cap``:
    a look at the first ``cap`` bytes of a file only (bytes that are not UTF-8 read as
    U+FFFD there: the look decides what the file is, a reader then reads it)."""
    if arg == "-":
        text = _read_stdin(stdin)
        _require_utf8(text, "stdin")
        return text
    if os.path.isfile(arg):
        if cap is not None:
            with open(arg, "rb") as fb:
                return fb.read(cap).decode("utf-8", errors="replace")
        return read_text_file(arg)
    return None


def load_state(arg: str, marks: str | None = None, stdin: IO[str] | None = None,
               lines: dict[str, str] | None = None, budget: Budget | None = None) -> State:
    """The state of one PUZZLE argument for a hint: a puzzle (anything :func:`load_arg`
    reads, holding one puzzle) at its starting pencil marks, or a partly solved grid
    (:func:`marks_state`). ``marks`` (text or a file) narrows a puzzle's candidates, so a
    variant puzzle can be given mid-solve: its rules from PUZZLE, its progress from marks.

    >>> load_state("1" + "." * 15).candidates("r1c2")
    (2, 3, 4)
    >>> load_state("." * 16, marks=" ".join(["1234"] * 15 + ["4"])).placed[15]
    4
    """
    text = _read(arg, stdin, MAX_MARKS_CHARS + 1)   # a longer file is no pencil-mark grid
    src = arg if text is None else text
    if len(src) <= MAX_MARKS_CHARS and "\ufffd" not in src and (
            is_pencilmark_text(src) or src.lstrip().startswith(":")):
        if marks is not None:
            raise ParseError("PUZZLE is already a partly solved grid; --marks is for a puzzle")
        return marks_state(src)
    if arg == "-":
        if text is None or not text.strip():
            raise ParseError("stdin: no puzzle in it (empty input)")
        puzzle = load_one("-", io.StringIO(text), lines, budget).puzzle
    else:
        puzzle = load_one(arg, lines=lines, budget=budget).puzzle
    assert puzzle is not None
    if marks is None:
        return puzzle.pencilmarks()
    mtext = _read(marks, stdin, MAX_MARKS_CHARS + 1)
    if mtext is None and _looks_like_path(marks):
        raise ParseError(f"--marks {one_line(marks)}: no such file")
    return marks_state(check_size(mtext if mtext is not None else marks, "--marks text",
                                  MAX_MARKS_CHARS), puzzle)
