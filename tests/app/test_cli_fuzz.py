"""Fuzzing the command line's edges and the API's entry points (issue 24): every command
with hostile option values (negative, huge, fractional, non-ASCII digits, NaN), technique
selections with unknown names and removals, cell names and titles with control characters
and lone surrogates, batch files holding bytes that are not UTF-8, file names with a
newline, JSON documents with values of the wrong type.

The CLI must answer each with exit 0 or 1, or exit 2 with exactly one line on stderr;
never a traceback or an "internal error"; an output file of a command that exits 2 is left
as it was. The API must return or raise the library's own exception
(:class:`csp.errors.SudokuCSPError`). Seeded and bounded: each case runs under an alarm
and a time limit of a fraction of a second; the default run takes seconds, the ``slow`` one
ten times as many cases.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from csp.errors import SudokuCSPError

from test_fuzz_inputs import alarm, answers_cleanly

UNIQUE4 = "1.....2...3..4.."           # one solution, logic solves it at once
OPEN4 = "1..............."             # many solutions
CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NASTY = ["\n", "\t", "\r", "\x00", "\x1b[2J", "\u2028", "\x85", "\ud800", "\udcff", "\u0663",
         "\uff13", "\u2079", "\u00e9", "\U0001F600", " ", "-", "'", '"', "\\", ",", "=", ":"]
NUMBERS = ["0", "1", "2", "-1", "-5", "3.5", "1e3", "nan", "inf", "-inf", "", " ", "x",
           "\u0663", "\uff11", "1_000", str(2 ** 63), str(10 ** 30), "9" * 5000, "+2", "0x10",
           "1\n", "\u2079"]
SECONDS = ["nan", "inf", "-1", "0", "1e-9", "0.3", "abc", "\u0663", "1e308", "0.2\n"]
SELECTIONS = ["default", "all", "singles", "-all", "all,-all", "default,-bogus", "-bogus",
              "singles,", ",", "-", "all,-default", "default,-singles,-chains", "hiden_single",
              "sing\nles", "\u0663", "default,-\udcff", "fish,-x_wing"]


def _pick(rng: random.Random, hostile: list[str], good: list[str], p: float = 0.35) -> str:
    """A hostile value with probability ``p``, else a good one: most command lines get
    past the parser, so the fuzz reaches the commands too."""
    return rng.choice(hostile) if rng.random() < p else rng.choice(good)


def _nasty(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        chars.insert(rng.randrange(len(chars) + 1), rng.choice(NASTY))
    return "".join(chars)


def _bytes(text: str) -> bytes:
    """``text`` as file bytes: a surrogateescape character is its byte, a lone surrogate
    its (invalid) UTF-8 encoding."""
    return b"".join(bytes([ord(ch) - 0xDC00]) if "\udc80" <= ch <= "\udcff"
                    else ch.encode("utf-8", "surrogatepass") for ch in text)


def _spec(rng: random.Random) -> str:
    cells: list[Any] = ["r1c2", "r1c3"]
    roll = rng.random()
    if roll < 0.2:
        cells[rng.randrange(2)] = _nasty(cells[0], rng)
    elif roll < 0.4:
        cells[rng.randrange(2)] = rng.choice([None, 5, 1.5, [], {}, True, "r\u0661c\u0661",
                                              "R5C1\n", "r" + "9" * 5000 + "c1", -1, 10 ** 30])
    rule: dict[str, Any] = {"rule": rng.choice(["killer_cage", "thermo", "extra_region"]),
                            "cells": cells}
    if rule["rule"] == "killer_cage":
        rule["total"] = rng.choice([5, 5, 5, -5, 10 ** 30, "5", "\u0665", 1.5, None, [], True])
    if rng.random() < 0.3:
        rule["name"] = _nasty("cage", rng)
    doc: dict[str, Any] = {"format": "sudoku-csp", "version": 1, "size": 4, "box": [2, 2],
                           "givens": UNIQUE4, "rules": [{"rule": "classic"}, rule]}
    if rng.random() < 0.3:
        doc["title"] = _nasty("title", rng)
    if rng.random() < 0.1:
        doc[rng.choice(["size", "box", "givens", "rules", "version"])] = \
            rng.choice([None, -4, 10 ** 30, "4", [], {}, "\u0664", [2, "2"], 1.5])
    return json.dumps(doc)


def _sudokupad(rng: random.Random) -> str:
    cells: list[list[dict]] = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": rng.choice(["1", "1", "1", "\u0661", "\uff11", "1\n", 1, 1.0, -1,
                                        10 ** 30, [], {}, None, True, "\ud800", "12"])}
    boxes = [[[r + dr, c + dc] for dr in (0, 1) for dc in (0, 1)] for r in (0, 2) for c in (0, 2)]
    doc: dict[str, Any] = {"cells": cells, "regions": boxes}
    if rng.random() < 0.3:
        doc["cages"] = [{"value": "title: " + _nasty("sp", rng)}]
    return json.dumps(doc)


def _fpuzzles(rng: random.Random) -> str:
    grid: list[list[dict]] = [[{} for _ in range(4)] for _ in range(4)]
    grid[0][0] = {"value": rng.choice([1, 1, 1, "1", "\u0661", 1.5, -1, None, [], "1\n"]),
                  "given": True}
    line = ["R2C1", rng.choice(["R2C2", "R2C2", "R2C2", "R2C2\n", "r2c\u0662", "R9C9", 5,
                                None, "R2C2 "])]
    doc = {"size": 4, "grid": grid, "thermometer": [{"lines": [line]}],
           "title": _nasty("fp", rng)}
    return json.dumps(doc)


def puzzle_arg(rng: random.Random, tmp: Path, batch: bool = True) -> str:
    """One PUZZLE argument: a text form (possibly with nasty characters) or a file (of
    several puzzles when ``batch``)."""
    kind = rng.choice(["line", "line", "spec", "sudokupad", "fpuzzles", "txt", "jsonl", "json",
                       "marks"])
    if kind == "line":
        text = rng.choice([UNIQUE4, OPEN4, CLASSIC])
        return _nasty(text, rng) if rng.random() < 0.25 else text
    if kind == "spec":
        return _spec(rng)
    if kind == "sudokupad":
        return _sudokupad(rng)
    if kind == "fpuzzles":
        return _fpuzzles(rng)
    if kind == "marks":
        return " ".join(rng.choice(["1", "2", "12", "1234", "34", "٣", "0"]) for _ in range(16))
    name = rng.choice(["p", "p\nq", "p q", "p\x1b", "-p"]) + "." + kind
    lines = []
    for _ in range(rng.randint(1, 4) if batch else 1):
        text = rng.choice([UNIQUE4, OPEN4, "123", _spec(rng), _sudokupad(rng)])
        if kind == "txt" and text.startswith("{"):
            text = rng.choice([UNIQUE4, OPEN4])
        if kind == "jsonl" and not text.startswith("{"):
            text = json.dumps({"puzzle": text})
        data = _bytes(text)
        if rng.random() < 0.2:                      # a byte that is not UTF-8
            i = rng.randrange(len(data) + 1)
            data = data[:i] + rng.choice([b"\xff", b"\xe9", b"\xc3", b"\xed\xa0\x80"]) + data[i:]
        lines.append(data)
    path = tmp / name
    path.write_bytes(b"\n".join(lines if kind != "json" else lines[:1]) + b"\n")
    return str(path)


def _options(rng: random.Random, cmd: str) -> list[str]:
    out: list[str] = []
    pick = rng.random
    if cmd in ("solve", "count"):
        if pick() < 0.4:
            out += ["--node-limit", _pick(rng, NUMBERS, ["0", "1", "50", "100000"])]
        if pick() < 0.3:
            out += ["--method", _pick(rng, ["SAT", "dfs", ""], ["auto", "search", "sat"], 0.2)]
    if cmd == "solve":
        if pick() < 0.3:
            out += ["--logic"]
        if pick() < 0.15:
            out += ["--workers", _pick(rng, ["-1", "\u0662", "2.5"], ["0", "2", "1000"])]
        if pick() < 0.15:
            out += ["--chunk-size", _pick(rng, ["0", "-3", "x"], ["1", "7"])]
        if pick() < 0.5:
            out += ["--json"]
    if cmd == "count" and pick() < 0.5:
        out += ["--limit", _pick(rng, NUMBERS, ["1", "2", "100", str(10 ** 30)])]
    if cmd in ("solve", "hint", "explain", "render") and pick() < 0.4:
        out += ["--techniques", rng.choice(SELECTIONS)]
    if cmd == "render" and pick() < 0.3:
        out += ["--step", _pick(rng, NUMBERS, ["1", "2", "5"])]
    if cmd == "graph" and pick() < 0.3:
        out += ["--max-nodes", _pick(rng, NUMBERS, ["10", "5000"])]
    if cmd == "explain" and pick() < 0.4:
        out += ["--title", _nasty("t", rng)]
    if cmd == "hint" and pick() < 0.4:
        out += ["--marks", " ".join(rng.choice(["1", "12", "1234", "34", "", "\u0663", "0"])
                                    for _ in range(16))]
    if pick() < 0.05:
        out += ["--line", rng.choice(["#ff0000=whispers", "#ff\n0000=renban", "x=y", "=",
                                      "#60c060=whispers:\u0663"])]
    seconds = rng.choice(SECONDS) if pick() < 0.2 else "0.3"
    if cmd in ("solve", "count", "hint", "explain", "render"):
        out += ["--time-limit", seconds]
    return out


def cli_case(seed: int, tmp: Path) -> tuple[list[str], Path | None]:
    """One command line (and the output file it may write, made beforehand)."""
    rng = random.Random(seed)
    cmd = rng.choice(["solve", "solve", "count", "hint", "explain", "render", "graph",
                      "convert", "reglib"])
    if cmd == "reglib":
        path = tmp / rng.choice(["lib.txt", "lib\n.txt"])
        line = ":0000:x:" + CLASSIC + ":123 456::"
        data = _bytes(_nasty(line, rng)) if rng.random() < 0.7 else line.encode()
        path.write_bytes(data + b"\n")
        return ["reglib", str(path)], None
    argv = [cmd, puzzle_arg(rng, tmp, batch=cmd == "solve"), *_options(rng, cmd)]
    if cmd == "convert":
        argv += ["--to", rng.choice(["spec", "line", "fpuzzles", "sudokupad-url", "xml"])]
    out = None
    if cmd in ("explain", "render", "graph") and rng.random() < 0.7:
        ext = {"explain": ".html", "render": rng.choice([".svg", ".png"]), "graph": ".dot"}[cmd]
        out = tmp / (rng.choice(["out", "o\nut", "o\x1but"]) + ext)
        out.write_text("the old file\n")
        argv += ["-o", str(out)] + (["--format", "dot"] if cmd == "graph" else [])
    if cmd == "solve" and rng.random() < 0.2:
        out = tmp / "summary.json"
        out.write_text("the old file\n")
        argv += ["--summary-json", str(out)]
    return argv, out


def _check_cli(seed: int, tmp: Path, capsys) -> int:
    argv, out = cli_case(seed, tmp)
    what = f"seed {seed}: {[a[:80] for a in argv]!r}"
    rc, _, _ = answers_cleanly(argv, capsys, what)
    if rc == 2 and out is not None:
        assert out.read_text() == "the old file\n", what
    leftovers = [p for p in os.listdir(tmp) if p.endswith(".tmp")]
    assert leftovers == [], (what, leftovers)
    return rc


def _run_cli(seeds: range, tmp_path: Path, capsys) -> dict[int, int]:
    codes: dict[int, int] = {}
    for seed in seeds:
        tmp = tmp_path / str(seed)
        tmp.mkdir()
        rc = _check_cli(seed, tmp, capsys)
        codes[rc] = codes.get(rc, 0) + 1
    return codes


def test_cli_fuzz_edges(tmp_path, capsys):
    """120 seeded command lines: each exits 0, 1 or 2 with one line; all three occur."""
    codes = _run_cli(range(120), tmp_path, capsys)
    assert codes.get(2, 0) >= 20 and codes.get(0, 0) + codes.get(1, 0) >= 20, codes


@pytest.mark.slow
def test_cli_fuzz_edges_long(tmp_path, capsys):
    _run_cli(range(1000, 2200), tmp_path, capsys)


# -- the API ------------------------------------------------------------------------------
def _api_call(rng: random.Random) -> None:
    from csp import Grid
    from csp.io import parse_library_line, parse_line, parse_pencilmarks
    from sudoku_csp.formats.loader import marks_state, puzzle_from_json, puzzle_from_text
    from techniques.registry import select
    from variants import classic_puzzle
    roll = rng.randrange(8)
    if roll == 0:
        Grid(rng.choice([4, 9])).cell(_nasty(rng.choice(["r1c1", "R2C3"]), rng))
    elif roll == 1:
        select(rng.choice(SELECTIONS))
    elif roll == 2:
        limit: Any = rng.choice([-5, -1, 0, 1, 50, 2 ** 63, 10 ** 30, 1.5, True, "10", None])
        classic_puzzle(rng.choice([UNIQUE4, OPEN4, CLASSIC])).solve(
            node_limit=limit, method=rng.choice(["auto", "search", "sat"]), time_limit=1)
    elif roll == 3:
        text = rng.choice([_spec(rng), _sudokupad(rng), _fpuzzles(rng)])
        puzzle_from_json(json.loads(text))[0].solve(time_limit=1)
    elif roll == 4:
        puzzle_from_text(_nasty(rng.choice([UNIQUE4, CLASSIC, OPEN4]), rng))
    elif roll == 5:
        marks = " ".join(rng.choice(["1", "2", "12", "1234", "34", "٣"]) for _ in range(16))
        marks_state(marks, classic_puzzle(rng.choice(["123........4....", UNIQUE4, OPEN4])))
    elif roll == 6:
        parse_library_line(_nasty(":0000-1:x:" + CLASSIC + ":123 456::", rng))
    else:
        rng.choice([parse_line, parse_pencilmarks])(_nasty(UNIQUE4, rng))


def _run_api(seeds: range) -> dict[str, int]:
    outcomes = {"ok": 0, "error": 0}
    for seed in seeds:
        rng = random.Random(seed)
        with alarm(30):
            try:
                _api_call(rng)
                outcomes["ok"] += 1
            except SudokuCSPError as e:
                assert "\n" not in str(e), (seed, str(e))
                outcomes["error"] += 1
    return outcomes


def test_api_fuzz_edges():
    """Data-shaped hostile input to the API raises the library's own errors, one line."""
    outcomes = _run_api(range(400))
    assert outcomes["ok"] >= 40 and outcomes["error"] >= 100, outcomes


@pytest.mark.slow
def test_api_fuzz_edges_long():
    _run_api(range(5000, 9000))
