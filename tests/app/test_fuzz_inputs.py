"""Fuzzing the readers: seeded mutations of valid puzzles in every input format (truncated,
garbled, unicode, every JSON value of f-puzzles, SudokuPad and sudoku-csp documents replaced
by a hostile one: wrong types, huge numbers, NaN, deep nesting), fed to the CLI and the API.

The CLI must answer each with exit 0 or 1 and no error, or exit 2 with one line on stderr;
never a traceback or an "internal error". The API must return a puzzle or raise the
library's own exception (:class:`csp.errors.SudokuCSPError`). Each case runs under an alarm,
so a hang fails the test. Bounded and seeded: the same cases every run.
"""
from __future__ import annotations

import json
import random
import signal
from contextlib import contextmanager
from typing import Any, Iterator

import lzstring
import pytest

from csp.errors import SudokuCSPError
from sudoku_csp.cli import main
from sudoku_csp.formats.loader import puzzle_from_json, puzzle_from_text

from conftest import DATA

LZ = lzstring.LZString()
CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
FP = json.loads((DATA / "fpuzzles_sample.jsonl").read_text(encoding="utf-8").splitlines()[1])
FPJ = FP["fpuzzles_json"]
SP_ROW = json.loads((DATA / "sudokupad_cc_by.jsonl").read_text(encoding="utf-8").splitlines()[6])
SPEC = {"format": "sudoku-csp", "version": 1, "size": 4, "box": [2, 2], "givens": "1.......2.......",
        "rules": [{"rule": "classic"}, {"rule": "killer_cage", "cells": ["r1c2", "r1c3"], "total": 5},
                  {"rule": "thermo", "cells": ["r3c1", "r3c2", "r3c3"]},
                  {"rule": "white_dot", "a": "r4c1", "b": "r4c2", "diff": 1},
                  {"rule": "negative", "kind": "black", "marked": [["r2c1", "r2c2"]], "value": 2}]}

HOSTILE: list[Any] = [None, True, False, 0, -1, 10 ** 30, 1.5, float("nan"), float("inf"), "",
                      "abc", "R99C99", "\u0661", "\uff11", "\u2079", "9" * 400, [], {}, [None],
                      [[]], {"a": {}}, ["R1C1", 5], [[0, 0], [99, 99]], [-1, 2], "x" * 3000]


def _deep(depth: int) -> Any:
    v: Any = 1
    for _ in range(depth):
        v = [v]
    return v


def _paths(v: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, prefix + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v[:6]):
            yield from _paths(x, prefix + (i,))


def _replace(v: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(v, dict):
        return {**v, head: _replace(v[head], rest, new)}
    out = list(v)
    out[head] = _replace(v[head], rest, new)
    return out


def _json_mutation(doc: Any, rng: random.Random) -> Any:
    paths = list(_paths(doc))
    out = doc
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        deep = [p for p in paths if len(p) >= 2]
        path = rng.choice(deep if deep and rng.random() < 0.8 else paths)
        roll = rng.random()
        if roll < 0.75:
            new = rng.choice(HOSTILE + [_deep(rng.randint(30, 90))])
        elif roll < 0.9 and path:
            new = None
        else:
            new = {"frobnicate": 1} if rng.random() < 0.5 else [rng.random()]
        try:
            out = _replace(out, path, new)
        except (KeyError, IndexError, TypeError):
            pass
        paths = list(_paths(out))
    if isinstance(out, dict) and rng.random() < 0.15:
        out = {**out, rng.choice(["frobnicate", "negative", "global", "regions", "lines"]):
               rng.choice(HOSTILE)}
    return out


def _dumps(v: Any) -> str:
    return json.dumps(v, allow_nan=True)


GARBAGE = "{}[]\",:'\\ \n\t.0123456789abcXVRCrc#%+/=\u0661\uff11\u2079\u00e9\u2019\U0001F600\x00"


def _text_mutation(text: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        return text[:rng.randrange(len(text) + 1)]
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(chars) + 1)
        if rng.random() < 0.5 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice(GARBAGE)
        else:
            chars.insert(i, rng.choice(GARBAGE))
    return "".join(chars)


def _sp_doc() -> dict:
    from sudoku_csp.formats.payload import decode_sudokupad
    return decode_sudokupad(SP_ROW["scl"])[1]


def case(seed: int) -> str:
    """One hostile PUZZLE argument."""
    rng = random.Random(seed)
    kind = rng.choice(["line", "fpjson", "fpurl", "spec", "spjson", "scl", "sclzip", "library",
                       "numbers"])
    if kind == "line":
        return _text_mutation(rng.choice([CLASSIC, "1" + "." * 15]), rng)
    if kind == "numbers":
        return _text_mutation(",".join(["1", "2", "3", "4"] * 4), rng)
    if kind == "library":
        return _text_mutation(":0000:x:" + CLASSIC + ":123 456::", rng)
    if kind == "fpjson":
        return _dumps(_json_mutation(FPJ, rng))
    if kind == "spec":
        return _dumps(_json_mutation(SPEC, rng))
    if kind == "spjson":
        return _dumps(_json_mutation(_sp_doc(), rng))
    if kind == "fpurl":
        doc = _json_mutation(FPJ, rng)
        url = "https://www.f-puzzles.com/?load=" + LZ.compressToBase64(_dumps(doc))
        return _text_mutation(url, rng) if rng.random() < 0.3 else url
    if kind == "scl":
        doc = _json_mutation(_sp_doc(), rng)
        link = "https://sudokupad.app/scl" + LZ.compressToBase64(_dumps(doc))
        return _text_mutation(link, rng) if rng.random() < 0.3 else link
    return _text_mutation(SP_ROW["scl"], rng)


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    def boom(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no answer within {seconds} s")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def answers_cleanly(argv: list[str], capsys: Any, what: str) -> tuple[int, str, str]:
    """Run the CLI on ``argv`` under an alarm; assert the contract for hostile input (exit
    0, 1 or 2; on 2 one line on stderr; never a traceback or an internal error)."""
    with alarm(30):
        rc = main(argv)
    out, err = capsys.readouterr()
    assert rc in (0, 1, 2), what
    assert "internal error" not in err and "Traceback" not in err, (what, err)
    if rc == 2:
        assert err.count("\n") == 1 and err.startswith("sudoku-csp: error: "), (what, err)
    return rc, out, err


COMMANDS = [["solve", "--json", "--time-limit", "2"], ["count", "--time-limit", "2"],
            ["convert", "--to", "spec"], ["convert", "--to", "fpuzzles"],
            ["convert", "--to", "sudokupad-url"], ["graph", "--kind", "cells"], ["render"],
            ["hint"]]


@pytest.mark.parametrize("block", range(6))
def test_cli_answers_hostile_input_cleanly(block, capsys):
    for seed in range(block * 25, block * 25 + 25):
        arg = case(seed)
        cmd = COMMANDS[seed % len(COMMANDS)]
        argv = [cmd[0], arg, *cmd[1:]]
        answers_cleanly(argv, capsys, f"seed {seed}: {argv[0]} {arg[:120]!r}")


def test_fuzz_reaches_the_readers(capsys):
    """The cases are not all stopped at the door: some load and solve, many fail inside the
    readers with their own messages."""
    outcomes = {"ok": 0, "error": 0}
    messages = set()
    for seed in range(150):
        arg = case(seed)
        try:
            with alarm(30):
                puzzle_from_text(arg)
            outcomes["ok"] += 1
        except SudokuCSPError as e:
            outcomes["error"] += 1
            messages.add(str(e).split(":")[0][:30])
    assert outcomes["ok"] >= 1 and outcomes["error"] >= 100
    assert len(messages) >= 30


@pytest.mark.parametrize("block", range(2))
def test_api_raises_library_errors(block):
    for seed in range(1000 + block * 100, 1000 + block * 100 + 100):
        arg = case(seed)
        with alarm(30):
            try:
                if arg.lstrip().startswith("{"):
                    try:
                        obj = json.loads(arg)
                    except (ValueError, RecursionError):
                        obj = None
                    p = puzzle_from_json(obj)[0] if isinstance(obj, dict) else \
                        puzzle_from_text(arg)
                else:
                    p = puzzle_from_text(arg)
                p.solve(time_limit=1)
            except SudokuCSPError:
                pass
