"""``sudoku-csp candidates`` and ``sudoku-csp count --list / --estimate / progress``: the
JSON fields issue 25 names, exit codes, pictures and bad input."""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import DATA, ROOT, fpuzzle_row, run_cli
from csp.search import search
from sudoku_csp.cli import main
from variants import classic_puzzle

SMALL = ".2.4....3......."          # three solutions
UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def multi(line: int = 25) -> str:
    with open(DATA / "multi_solution_1000.txt") as f:
        return f.read().splitlines()[line]


def test_candidates_json_fields(capsys) -> None:
    line = multi()
    rc, out, err = run(capsys, "candidates", line, "--json", "--counts", "3", "--logical",
                       "--techniques", "singles")
    assert rc == 1 and err == ""
    d = json.loads(out)
    assert {"status", "candidates", "counts", "logical_only", "solutions_seen",
            "complete"} <= set(d)
    assert d["status"] == "multiple" and d["complete"] is True
    p = classic_puzzle(line)
    sols = search(p.engine(), p.initial_state().cand, limit=1000)[0]
    assert d["candidates"] == [sorted({s[c] for s in sols}) for c in range(81)]
    for c in range(81):
        assert d["counts"][c] == {str(v): min(3, sum(s[c] == v for s in sols))
                                  for v in d["candidates"][c]}
    assert d["logical_only"] and all(x.count("=") == 1 for x in d["logical_only"])


def test_candidates_unique_exit_0_and_text(capsys) -> None:
    rc, out, err = run(capsys, "candidates", UNIQUE)
    assert rc == 0 and out.startswith("unique: 1 solution seen (complete)")
    rc, out, _ = run(capsys, "candidates", UNIQUE, "--json")
    d = json.loads(out)
    assert d["status"] == "unique" and all(len(ds) == 1 for ds in d["candidates"])
    assert "counts" not in d and "logical_only" not in d


def test_candidates_unsolvable(capsys) -> None:
    bad = "." + "12345678" + "." * 63 + "9" + "." * 8
    rc, out, _ = run(capsys, "candidates", bad, "--json")
    assert rc == 1 and json.loads(out)["status"] == "unsolvable"


def test_candidates_marks(capsys) -> None:
    marks = " ".join(["1"] + ["1234"] * 15)
    rc, out, _ = run(capsys, "candidates", "." * 16, "--marks", marks, "--json")
    d = json.loads(out)
    assert rc == 1 and d["candidates"][0] == [1] and d["candidates"][1] == [2, 3, 4]


def test_candidates_time_limit_partial(capsys) -> None:
    # an empty grid with counts up to 10**6: not done in 0.3 s (up to 50 it is, by the kernel)
    rc, out, err = run(capsys, "candidates", "." * 81, "--counts", "1000000", "--json",
                       "--time-limit", "0.3")
    d = json.loads(out)
    assert rc == 1 and d["complete"] is False and d["undecided"]


def test_candidates_picture(capsys, tmp_path) -> None:
    row = fpuzzle_row(0)
    fj = dict(row["fpuzzles_json"])
    fj["even"] = fj["even"][1:]                # 15 solutions
    src = tmp_path / "p.json"
    src.write_text(json.dumps(fj))
    svg = tmp_path / "c.svg"
    rc, out, _ = run(capsys, "candidates", str(src), "--counts", "8", "--logical",
                     "--techniques", "singles", "-o", str(svg))
    assert rc == 1
    root = ET.fromstring(svg.read_text())
    classes = {el.get("class") for el in root.iter()}
    assert {"cand-one", "cand-some", "cand-many", "logical-only", "strike"} <= classes
    logical = out.split("logical only: ")[1].split(" (")[0].split()
    assert len(root.findall(".//*[@class='logical-only']")) == len(logical)


def test_candidates_png(capsys, tmp_path) -> None:
    pytest.importorskip("cairosvg")
    png = tmp_path / "c.png"
    rc, _, _ = run(capsys, "candidates", SMALL, "--counts", "2", "-o", str(png))
    assert rc == 1 and png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("argv, words", [
    (["candidates", SMALL, "--counts", "0"], "--counts"),
    (["candidates", SMALL, "-o", "x.gif"], "x.gif"),
    (["candidates", "12"], "not a square"),
    (["count", SMALL, "--estimate", "--list"], "--estimate"),
    (["count", SMALL, "--estimate", "--samples", "0"], "--samples"),
    (["count", SMALL, "--list", "--node-limit", "5"], "--node-limit"),
])
def test_bad_input_exit_2_one_line(capsys, argv, words) -> None:
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sudoku-csp: error:") and words in err


def test_count_list_lines_and_json(capsys) -> None:
    rc, out, _ = run(capsys, "count", SMALL, "--list")
    lines = out.split()
    assert rc == 0 and lines[-1] == "3" and len(set(lines[:-1])) == 3
    p = classic_puzzle(SMALL)
    assert all(p.check_solution([int(ch) for ch in s]) for s in lines[:-1])
    rc, out, _ = run(capsys, "count", multi(), "--list", "--limit", "5", "--json")
    d = json.loads(out)
    assert rc == 0 and d["count"] == 5 and d["at_least"] and len(d["solutions"]) == 5
    rc, out, _ = run(capsys, "count", multi(), "--json")      # the plain count as before
    assert json.loads(out)["count"] == 2


def test_count_progress_on_stderr(capsys) -> None:
    # a full first row: no digits to swap, the walk counts every solution
    rc, out, err = run(capsys, "count", "123456789" + "." * 72, "--limit", "10000000",
                       "--progress", "on", "--time-limit", "1")
    assert rc == 1 and "solutions so far" in err and "time limit" not in out
    rc, out, err = run(capsys, "count", multi(), "--limit", "100")
    assert rc == 0 and err == "" and out.strip() == "43"


def test_count_counts_swapped_digits_once() -> None:
    """The CLI count is the workbench's: an empty 6x6 (28,200,960 solutions, the
    published count) is counted one solution per swap of its digits, in well under a
    second of CPU; with a limit it stops there (``K+``). The same with ``--method search``,
    and without digit swaps (``--node-limit``: the search of ``solve``) the same numbers on
    a 4x4."""
    child = run_cli(["count", "." * 36, "--limit", "100000000"])
    assert child.rc == 0 and child.out.strip() == "28200960", child
    assert child.cpu < 5, child.cpu
    child = run_cli(["count", "." * 36, "--limit", "1000", "--method", "search"])
    assert child.rc == 0 and child.out.strip() == "1000+", child
    for extra in ([], ["--node-limit", "100000"], ["--method", "sat"]):
        child = run_cli(["count", "." * 16, "--limit", "1000", *extra])
        assert child.rc == 0 and child.out.strip() == "288", (extra, child)


def test_count_no_progress_when_piped() -> None:
    r = subprocess.run([sys.executable, "-m", "sudoku_csp", "count", "." * 81, "--limit",
                        "3000"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "3000+" and r.stderr == ""


def test_count_estimate(capsys) -> None:
    rc, out, _ = run(capsys, "count", "." * 81, "--estimate", "--samples", "300", "--json")
    d = json.loads(out)
    assert rc == 0 and d["samples"] == 300 and d["method"] == "knuth" and not d["exact"]
    assert d["low"] <= 6670903752021072936960 <= d["high"]     # every 9x9 Sudoku grid
    rc, out, _ = run(capsys, "count", "." * 81, "--estimate", "--samples", "100")
    assert out.startswith("~") and "95 % interval" in out
    rc, out, _ = run(capsys, "count", "." * 16, "--estimate", "--json")
    d = json.loads(out)
    assert d["exact"] and d["estimate"] == d["low"] == d["high"] == 288


def test_count_estimate_of_one_solution_says_solution(capsys) -> None:
    """A tree small enough to count exactly, with one solution: "1 solution", not "1
    solutions" (the plural for every other count)."""
    rc, out, _ = run(capsys, "count", UNIQUE, "--estimate")
    assert rc == 0 and out.startswith("1 solution (counted exactly")
    rc, out, _ = run(capsys, "count", SMALL, "--estimate")
    assert rc == 0 and out.startswith("3 solutions (counted exactly")


@pytest.mark.parametrize("command", [["candidates"], ["why", "r1c1=4"]])
def test_marks_file_that_does_not_exist(capsys, tmp_path, command) -> None:
    """``--marks`` names a file that is not there: "no such file", as for PUZZLE, not a
    parse error of the file's name read as a pencil-mark grid."""
    missing = str(tmp_path / "marks.txt")
    rc, out, err = run(capsys, command[0], UNIQUE, *command[1:], "--marks", missing)
    assert rc == 2 and out == ""
    assert err.strip().endswith(f"--marks {missing}: no such file")
    assert len(err.strip().splitlines()) == 1
