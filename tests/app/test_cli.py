"""The CLI contract (../shared/ARCHITECTURE.md): commands, JSON fields, exit codes, bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sudoku_csp.cli import main

from conftest import DATA, ROOT

EXAMPLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _valid_sudoku(sol: str, givens: str) -> bool:
    g = [int(ch) for ch in sol]
    rows = all(sorted(g[r * 9:(r + 1) * 9]) == list(range(1, 10)) for r in range(9))
    cols = all(sorted(g[c::9]) == list(range(1, 10)) for c in range(9))
    boxes = all(sorted(g[(br * 3 + i) * 9 + bc * 3 + j] for i in range(3) for j in range(3))
                == list(range(1, 10)) for br in range(3) for bc in range(3))
    keep = all(ch in ".0" or ch == s for ch, s in zip(givens, sol))
    return rows and cols and boxes and keep


def test_solve_json_example(capsys):
    rc, out, err = run(capsys, "solve", EXAMPLE, "--json")
    assert rc == 0 and err == ""
    res = json.loads(out)
    assert res["status"] == "solved"
    assert _valid_sudoku(res["solution"], EXAMPLE)
    assert [v for row in res["grid"] for v in row] == [int(ch) for ch in res["solution"]]
    assert res["time_ms"] >= 0


def test_solve_multiple_and_unsolvable(capsys):
    rc, out, _ = run(capsys, "solve", "." * 81, "--json")
    assert rc == 1 and json.loads(out)["status"] == "multiple"
    # r1c1 can take nothing: row has 1-8, column has 9
    bad = "." + "12345678" + "." * 9 * 8
    bad = bad[:9 * 8] + "9" + bad[9 * 8 + 1:]
    rc, out, _ = run(capsys, "solve", bad, "--json")
    assert rc == 1 and json.loads(out)["status"] == "unsolvable"
    assert json.loads(out)["solution"] is None


def test_solve_first_and_plain_output(capsys):
    rc, out, _ = run(capsys, "solve", "." * 81, "--first")
    assert rc == 0 and out.startswith("solved ")
    assert _valid_sudoku(out.split()[1], "." * 81)


def test_logic_steps_json(capsys):
    rc, out, _ = run(capsys, "solve", EASY, "--logic", "--steps", "--json")
    res = json.loads(out)
    assert rc == 0 and res["status"] == "solved"
    assert res["rating"]["level"] in ("easy", "medium", "hard", "unfair", "extreme")
    steps = res["steps"]
    assert steps and all({"technique", "placements", "eliminations", "text"} <= s.keys()
                         for s in steps)
    # replaying the placements gives the solution
    grid = list(EASY)
    for s in steps:
        for pl in s["placements"]:
            cell, d = pl.split("=")
            r, c = int(cell[1]), int(cell[3])
            grid[(r - 1) * 9 + c - 1] = d
    assert "".join(grid) == res["solution"]


def test_batch_streams_and_reports_bad_lines(tmp_path, capsys):
    f = tmp_path / "batch.txt"
    f.write_text(f"{EASY}\nnot a puzzle\n\n{EXAMPLE}\n")
    rc, out, err = run(capsys, "solve", str(f), "--json")
    lines = [json.loads(x) for x in out.splitlines()]
    assert rc == 1
    assert [x["status"] for x in lines] == ["solved", "error", "solved"]
    assert "batch.txt:2" in err and err.count("\n") == 1


def test_jsonl_fpuzzles(capsys):
    src = DATA / "fpuzzles_sample.jsonl"
    rc, out, _ = run(capsys, "solve", str(src), "--json")
    expected = [json.loads(x)["solution"] for x in src.read_text().splitlines() if x.strip()]
    got = [json.loads(x)["solution"] for x in out.splitlines()]
    assert rc == 0 and got == expected


def test_stdin(monkeypatch, capsys):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(EASY + "\n"))
    rc, out, _ = run(capsys, "solve", "-", "--json")
    assert rc == 0 and json.loads(out)["status"] == "solved"


def test_count(capsys):
    rc, out, _ = run(capsys, "count", EXAMPLE)
    assert rc == 0 and out.strip() == "1"
    rc, out, _ = run(capsys, "count", "." * 16, "--limit", "10", "--json")
    assert json.loads(out)["count"] == 10 and json.loads(out)["at_least"]


def test_techniques_lists_registry(capsys):
    from techniques import registry
    rc, out, _ = run(capsys, "techniques", "--json")
    names = {t["name"] for t in json.loads(out)}
    assert rc == 0 and names == set(registry.load())


def test_reglib_cli(tmp_path, capsys):
    lines = [x for x in (DATA / "reglib-1.3-public.txt").read_text().splitlines()
             if x.startswith(":0002:")][:3]
    f = tmp_path / "lib.txt"
    f.write_text("\n".join(lines) + "\n")
    rc, out, _ = run(capsys, "reglib", str(f))
    assert rc == 0 and out.splitlines()[-1] == "3 passed, 0 failed"
    broken = lines[0].replace(":0002:", ":0003:", 1)
    f.write_text(broken + "\n")
    rc, out, _ = run(capsys, "reglib", str(f))
    assert rc == 1 and out.splitlines()[0] == broken
    assert out.splitlines()[-1] == "0 passed, 1 failed"


@pytest.mark.parametrize("argv, needle", [
    (["solve", "12"], "not a square grid"),
    (["solve", "x" * 81], "character"),
    (["solve", "1" * 49], "no box shape"),
    (["solve", "11" + "." * 79], "given twice"),
    (["solve", "missing_file.txt"], "no such file"),
    (["count", "." * 81, "--limit", "0"], "--limit"),
    (["solve", '{"size": 9, "grid": [], "bogus": 1}'], "bogus"),
    (["solve"], "puzzle"),
    ([], "command"),
])
def test_bad_input_exit_2_one_line(argv, needle, capsys):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert err.count("\n") == 1 and needle in err, err
    assert "Traceback" not in err


def test_empty_file(tmp_path, capsys):
    f = tmp_path / "empty.txt"
    f.write_text("\n\n")
    rc, _, err = run(capsys, "solve", str(f))
    assert rc == 2 and "empty" in err


def test_broken_json_line_in_batch(tmp_path, capsys):
    good = json.loads((DATA / "fpuzzles_sample.jsonl").read_text().splitlines()[0])
    f = tmp_path / "b.jsonl"
    f.write_text(json.dumps(good) + "\n{broken\n" + json.dumps(good) + "\n")
    rc, out, err = run(capsys, "solve", str(f), "--json")
    assert rc == 1
    assert [json.loads(x)["status"] for x in out.splitlines()] == ["solved", "error", "solved"]
    assert "b.jsonl:2" in err and "Traceback" not in err


def test_console_script_no_traceback():
    p = subprocess.run([sys.executable, "-m", "sudoku_csp.cli", "solve", "1" * 49],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_closed_stdout_exits_quietly():
    """A reader that goes away (``| head``) ends the run with code 0 and no message (the
    BrokenPipeError used to be caught as an OSError: "error: Broken pipe", code 2)."""
    import os
    import signal
    root = str(ROOT)
    env = dict(os.environ, PYTHONPATH=root)
    r, w = os.pipe()
    os.close(r)     # nobody will ever read: the first write fails with EPIPE
    # SIGPIPE ignored, as Python does by default, so the write raises BrokenPipeError
    p = subprocess.run([sys.executable, "-m", "sudoku_csp.cli", "techniques"], stdout=w,
                       stderr=subprocess.PIPE, text=True, timeout=60, env=env,
                       preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
    os.close(w)
    assert p.returncode == 0 and p.stderr == "", p.stderr


def test_techniques_comma_separated(capsys):
    """``--techniques a,b`` selects both in solve as in hint."""
    rc, out, err = run(capsys, "solve", EASY, "--logic", "--techniques",
                       "full_house,naked_single,hidden_single")
    assert rc == 0 and out.startswith("solved") and err == ""
    rc, out, err = run(capsys, "solve", EASY, "--logic", "--techniques", "singles,")
    assert rc == 2 and "empty technique name" in err


def test_jsonl_puzzle_key_title(tmp_path, capsys):
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps({"title": "open 4x4", "puzzle": "1" + "." * 15}) + "\n")
    rc, out, err = run(capsys, "solve", str(f), "--json")
    assert json.loads(out)["puzzle"] == "open 4x4"


def test_search_methods(capsys, tmp_path):
    """--method picks the brute-force engine; the answer is the same, the JSON says which
    one gave it; an unknown method is a usage error."""
    row = next(r for r in map(json.loads, open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8"))
               if r["title"] == "Thermal Scanner")
    f = tmp_path / "thermo.json"
    f.write_text(json.dumps(row["fpuzzles_json"]))
    got = {}
    for method in ("auto", "search", "sat"):
        rc, out, err = run(capsys, "solve", str(f), "--json", "--method", method)
        res = json.loads(out)
        assert rc == 0 and err == "" and res["status"] == "solved"
        got[method] = res
    assert got["search"]["method"] == "search" and "conflicts" not in got["search"]
    assert got["sat"]["method"] == "sat" and got["sat"]["conflicts"] >= 0
    assert got["auto"]["solution"] == got["search"]["solution"] == got["sat"]["solution"] \
        == row["solution"]
    rc, out, _ = run(capsys, "count", "1...............", "--method", "sat", "--limit", "5")
    assert rc == 0 and out.strip() == "5+"
    rc, out, err = run(capsys, "solve", EXAMPLE, "--method", "dfs")
    assert rc == 2 and out == "" and "--method" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("argv, option", [
    (["why", "1...............", "r1c2=1", "--cap", "0"], "--cap"),
    (["report", "1...............", "--count-limit", "0"], "--count-limit"),
    (["candidates", "1...............", "--counts", "0"], "--counts"),
    (["count", "1...............", "--limit", "0"], "--limit"),
    (["count", "1...............", "--estimate", "--samples", "0"], "--samples"),
    (["graph", "1...............", "--max-nodes", "0"], "--max-nodes"),
    (["render", "1...............", "--step", "0"], "--step"),
])
def test_a_count_option_below_1_is_refused_by_the_parser(capsys, argv, option):
    rc, out, err = run(capsys, *argv)
    assert (rc, out) == (2, "")
    assert err == f"sudoku-csp: error: argument {option}: '0': expected a whole number 1 or more\n"


def test_no_command_checks_again_what_its_parser_checked():
    """An option of type ``at_least(n)`` is checked by the parser: a command that compares it
    with a bound again (``if args.cap < 1``) keeps a check no input can reach."""
    import importlib
    import inspect
    import re
    from sudoku_csp.cli import build_parser
    from sudoku_csp.commands import COMMANDS
    dead = []
    for name in COMMANDS:
        parser = build_parser(name)
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        checked = {a.dest for a in sub.choices[name]._actions
                   if getattr(a.type, "__name__", "").startswith("whole number ")}
        src = inspect.getsource(importlib.import_module(f"sudoku_csp.commands.{name}"))
        dead += [f"{name}: args.{d}" for d in sorted(checked)
                 if re.search(rf"args\.{d}\s*(<|<=)\s*\d", src)]
    assert dead == []
