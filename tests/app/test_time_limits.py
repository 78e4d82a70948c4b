"""``--time-limit 1`` holds for every command that takes one, on 25x25 grids (issue 14): each
command returns within a few seconds with its documented exit code and output (a finished
answer checked, or the ``limit`` status). The puzzles: an empty 25x25 (no logic step
finishes, counting a thousand solutions is out of reach) and a unique 25x25 from
``tests/data/sizes_25.solutions.csv``."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from sudoku_csp.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "sizes_25.solutions.csv"
EMPTY = "." * 625
#: wall seconds a command with ``--time-limit 1`` may take on an idle machine (start-up, the
#: work left when the clock is read, writing the output); see :func:`_load`
WALL = 6.0


def _load() -> float:
    """How many times over the machine's cores are busy (1.0 when it is not): the wall
    time of the work left after the deadline grows with it, so the wall checks allow
    ``WALL`` times this. A command that ignored its limit still fails them: its run would
    take minutes, not seconds."""
    try:
        busy = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:          # no load average on this platform
        return 1.0
    return max(1.0, busy)


def _puzzle_25() -> tuple[str, str]:
    rows = [r for r in DATA.read_text().splitlines() if r and not r.startswith("#")]
    puzzle, solution = rows[1].split(",")[:2]
    return puzzle, solution


def _digits(line: str) -> list[int]:
    """A 25x25 solution line (1-9, then A = 10 ... P = 25) as digits."""
    return [int(ch, 36) for ch in line]


def _run(argv: list[str], capsys) -> tuple[int, str, str, float]:
    t0 = time.perf_counter()
    rc = main(argv + ["--time-limit", "1"])
    # the wall time as it would be on an idle machine (see _load)
    wall = (time.perf_counter() - t0) / _load()
    out, err = capsys.readouterr()
    return rc, out, err, wall


def test_solve_search(capsys):
    """The search solves it in about half a second of CPU. The limit is on the wall clock,
    so on a machine whose cores are all taken the process may get less than its second of
    CPU before the limit: then "limit" is the honest answer (a search that itself needed
    more than the second would have used it, and fails)."""
    puzzle, solution = _puzzle_25()
    cpu = time.process_time()
    rc, out, err, wall = _run(["solve", puzzle, "--json"], capsys)
    cpu = time.process_time() - cpu
    res = json.loads(out)
    assert wall < WALL
    if rc == 1 and res["status"] == "limit" and cpu < 0.9:
        return                  # starved by other processes, see above
    assert rc == 0 and res["status"] == "solved", (res["status"], cpu)
    assert res["solution"] == solution


@pytest.mark.parametrize("extra", [[], ["--rating", "se"]])
def test_solve_logic(capsys, extra):
    rc, out, err, wall = _run(["solve", EMPTY, "--logic", "--json"] + extra, capsys)
    res = json.loads(out.splitlines()[0])
    assert rc == 1 and res["status"] in ("limit", "stuck") and res["solution"] is None
    assert wall < WALL


def test_solve_logic_unique_puzzle(capsys):
    """A unique 25x25: solved by logic, or stopped at the limit with only true digits."""
    puzzle, solution = _puzzle_25()
    rc, out, err, wall = _run(["solve", puzzle, "--logic", "--json"], capsys)
    res = json.loads(out)
    assert wall < WALL
    assert (rc, res["status"]) in ((0, "solved"), (1, "limit"), (1, "stuck"))
    got = [v for row in res["grid"] for v in row]
    truth = _digits(solution)
    assert all(v in (0, t) for v, t in zip(got, truth))


def test_count(capsys):
    rc, out, err, wall = _run(["count", EMPTY, "--limit", "1000", "--json"], capsys)
    res = json.loads(out)
    assert rc == 1 and res["status"] == "limit" and res["count"] is None
    assert wall < WALL


def test_hint(capsys):
    rc, out, err, wall = _run(["hint", EMPTY, "--json"], capsys)
    res = json.loads(out)
    assert wall < WALL
    # the default techniques find nothing within a second on an empty 25x25 (or, with
    # per-size caps, nothing at all)
    assert rc == 1 and res["status"] in ("limit", "stuck")


def test_hint_finds_step(capsys):
    puzzle, solution = _puzzle_25()
    rc, out, err, wall = _run(["hint", puzzle, "--json", "--level", "2"], capsys)
    res = json.loads(out)
    assert rc == 0 and res["status"] == "hint" and wall < WALL
    truth = _digits(solution)
    assert res["placements"] or res["eliminations"]
    for name in res["placements"]:
        cell, digit = name.split("=")
        r, c = (int(x) for x in cell[1:].split("c"))
        value = int(digit) if digit.isdigit() else int(digit, 36)
        assert truth[(r - 1) * 25 + c - 1] == value


def test_explain(capsys, tmp_path):
    page = tmp_path / "x.html"
    rc, out, err, wall = _run(["explain", EMPTY, "-o", str(page)], capsys)
    assert rc == 1 and "limit" in out and page.exists() and wall < WALL


def test_render_step(capsys, tmp_path):
    pic = tmp_path / "s.svg"
    rc, out, err, wall = _run(["render", EMPTY, "--step", "1", "-o", str(pic)], capsys)
    assert wall < WALL
    assert rc == 1 and "time limit" in err and len(err.strip().splitlines()) == 1
    assert not pic.exists()


def test_generate(capsys):
    rc, out, err, wall = _run(["generate", "--size", "25", "--difficulty", "extreme",
                               "--seed", "1"], capsys)
    assert rc == 1 and out == "" and "time limit" in err and wall < WALL
