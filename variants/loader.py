"""Turn command-line puzzle arguments into Puzzles.

A PUZZLE argument is one of: a line string for an NxN grid (or a 405-character samurai line,
:mod:`variants.multigrid`), an f-puzzles URL or payload, a
JSON object (f-puzzles, or sudoku-csp's own format, :mod:`variants.spec`), ``-`` for stdin, or a file (``.txt``: one line puzzle per line;
``.json``: one JSON object; ``.jsonl``: one JSON object per line, an ``fpuzzles_json`` or
``puzzle`` key accepted). Each source yields :class:`Item` records; a bad entry of a batch is
an Item carrying its error (so a batch goes on), a bad single argument raises.

>>> [it.label for it in load_arg("1...............")]
['1...............']
>>> it = next(load_arg("12"))
Traceback (most recent call last):
...
csp.errors.ParseError: puzzle has 2 cells, which is not a square grid (expected 16, 36, 64, 81, 144, 256, ... cells)
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Any, Iterator

from csp import Puzzle
from csp.errors import InvalidPuzzle, ParseError

from .classic import classic_puzzle
from .fpuzzles import decode_payload, is_fpuzzles_text, load_fpuzzles
from .multigrid import is_samurai_line, samurai
from .spec import from_spec, is_spec


@dataclass
class Item:
    """One puzzle of a source: ``label`` (the line or a title), ``where`` ("file:line" for
    batch entries), and either ``puzzle`` or ``error``. ``solution`` is a stated solution if
    the source carries one."""

    label: str
    where: str = ""
    puzzle: Puzzle | None = None
    error: InvalidPuzzle | None = None
    solution: str | None = None


def puzzle_from_text(text: str) -> Puzzle:
    """A Puzzle from one line of text: f-puzzles URL / payload / JSON, or a line string."""
    s = text.strip()
    if not s:
        raise ParseError("empty puzzle")
    if s.startswith("{"):
        try:
            obj = json.loads(s)
        except json.JSONDecodeError as e:
            raise ParseError(f"broken JSON: {e.msg} at column {e.colno}") from None
        return puzzle_from_json(obj)[0]
    if is_fpuzzles_text(s):
        return load_fpuzzles(decode_payload(s))
    if is_samurai_line(s):
        return samurai(s)
    return classic_puzzle(s)


def puzzle_from_json(obj: Any) -> tuple[Puzzle, str | None]:
    """A Puzzle (and stated solution, if any) from a decoded JSON value."""
    if not isinstance(obj, dict):
        raise ParseError("a puzzle JSON value must be an object")
    sol = obj.get("solution") if isinstance(obj.get("solution"), str) else None
    if is_spec(obj):
        return from_spec(obj), sol
    if "fpuzzles_json" in obj:
        fp = obj["fpuzzles_json"]
        p = load_fpuzzles(decode_payload(fp) if isinstance(fp, str) else fp)
        if "title" in obj:
            p.meta.setdefault("title", obj["title"])
        return p, sol
    if "grid" in obj and "size" in obj:
        return load_fpuzzles(obj), sol
    for key in ("puzzle", "line"):
        if isinstance(obj.get(key), str):
            return puzzle_from_text(obj[key]), sol
    raise ParseError("JSON object is neither f-puzzles data nor has a 'fpuzzles_json' or "
                     "'puzzle' key")


def _label(p: Puzzle, fallback: str) -> str:
    return str(p.meta.get("title") or fallback)


def _batch(lines: Iterator[str], name: str, kind: str) -> Iterator[Item]:
    seen = False
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        seen = True
        where = f"{name}:{no}"
        short = line if len(line) <= 200 else line[:197] + "..."
        try:
            if kind == "jsonl":
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ParseError(f"broken JSON line: {e.msg} at column {e.colno}") from None
                p, sol = puzzle_from_json(obj)
                yield Item(_label(p, short), where, p, solution=sol)
            else:
                p = puzzle_from_text(line)
                yield Item(short, where, p)
        except InvalidPuzzle as e:
            yield Item(short, where, error=e)
    if not seen:
        raise ParseError(f"{name}: no puzzle in it (empty file)")


def load_arg(arg: str, stdin=None) -> Iterator[Item]:
    """Items of one command-line PUZZLE argument (see the module docstring)."""
    if arg == "-":
        stream = stdin if stdin is not None else sys.stdin
        text = stream.read()
        if not text.strip():
            raise ParseError("stdin: no puzzle in it (empty input)")
        kind = "jsonl" if text.lstrip().startswith("{") and "\n" in text.strip() else "txt"
        if kind == "txt" and text.lstrip().startswith("{"):
            p = puzzle_from_text(text)
            yield Item(_label(p, "stdin"), "stdin", p)
            return
        yield from _batch(iter(text.splitlines()), "stdin", kind)
        return
    if os.path.isfile(arg):
        ext = os.path.splitext(arg)[1].lower()
        try:
            with open(arg, encoding="utf-8") as f:
                if ext == ".json":
                    text = f.read()
                    if not text.strip():
                        raise ParseError(f"{arg}: empty file")
                    try:
                        obj = json.loads(text)
                    except json.JSONDecodeError as e:
                        raise ParseError(f"{arg}: broken JSON: {e.msg} at line {e.lineno}") from None
                    p, sol = puzzle_from_json(obj)
                    yield Item(_label(p, arg), arg, p, solution=sol)
                    return
                kind = "jsonl" if ext == ".jsonl" else "txt"
                yield from _batch(f, arg, kind)
        except UnicodeDecodeError:
            raise ParseError(f"{arg}: not a UTF-8 text file") from None
        return
    if os.path.isdir(arg):
        raise ParseError(f"{arg}: is a directory, not a puzzle file")
    looks_like_path = arg.endswith((".txt", ".json", ".jsonl", ".sdk")) and len(arg) < 100
    if looks_like_path:
        raise ParseError(f"{arg}: no such file")
    p = puzzle_from_text(arg)
    yield Item(_label(p, arg if len(arg) <= 200 else arg[:197] + "..."), "", p)
