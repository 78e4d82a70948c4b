"""Batch runs of `sudoku-csp solve`: process pool and Dask give the serial results in input
order; summary, progress bar, Ctrl-C."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from sudoku_csp.cli import main

from conftest import DATA, ROOT



def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _results(out: str) -> list[dict]:
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        r.pop("time_ms")
    return rows


@pytest.fixture(scope="module")
def slice200(tmp_path_factory) -> Path:
    lines = (DATA / "17clue_5000.txt").read_text().splitlines()[:200]
    f = tmp_path_factory.mktemp("batch") / "slice.txt"
    f.write_text("\n".join(lines) + "\n")
    return f


@pytest.fixture(scope="module")
def serial200(slice200) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "sudoku_csp.cli", "solve", str(slice200), "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0
    return _results(out.stdout)


def test_pool_matches_serial_with_summary(capsys, slice200, serial200, tmp_path):
    sj = tmp_path / "summary.json"
    rc, out, err = run(capsys, "solve", str(slice200), "--json", "--workers", "2",
                       "--chunk-size", "7", "--summary", "--summary-json", str(sj))
    assert rc == 0
    got = _results(out)
    assert got == serial200  # same results, same (input) order
    assert [r["where"] for r in got] == [f"{slice200}:{i}" for i in range(1, 201)]
    summary = json.loads(sj.read_text())
    assert summary["puzzles"] == 200 and summary["backend"] == "pool"
    assert summary["counts"] == {"solved": 200, "stuck": 0, "unsolvable": 0, "multiple": 0,
                                 "limit": 0, "error": 0}
    assert 0 < summary["time_ms"]["median"] <= summary["time_ms"]["max"]
    assert "200 solved, 0 stuck, 0 unsolvable, 0 multiple, 0 limit, 0 errors" in err
    assert "Traceback" not in err


def test_pool_mixed_statuses_in_order(capsys, tmp_path):
    lines = (DATA / "17clue_5000.txt").read_text().splitlines()[:3]
    multi = (DATA / "multi_solution_1000.txt").read_text().splitlines()[0]
    bad = "." + "12345678" + "." * 63 + "9" + "." * 8  # r1c1 has no candidate
    f = tmp_path / "mixed.txt"
    f.write_text("\n".join([lines[0], "not a puzzle", multi, bad, lines[1], lines[2]]) + "\n")
    rc, out, err = run(capsys, "solve", str(f), "--json", "--workers", "2", "--chunk-size", "1",
                       "--summary")
    assert rc == 1
    assert [r["status"] for r in _results(out)] == ["solved", "error", "multiple", "unsolvable",
                                                    "solved", "solved"]
    assert f"error: {f}:2:" in err
    assert "3 solved, 0 stuck, 1 unsolvable, 1 multiple, 0 limit, 1 errors" in err


def test_logic_summary_rating_histogram(capsys, tmp_path):
    lines = (DATA / "17clue_5000.txt").read_text().splitlines()[:12]
    f = tmp_path / "logic.txt"
    f.write_text("\n".join(lines) + "\n")
    sj = tmp_path / "s.json"
    rc, out, err = run(capsys, "solve", str(f), "--logic", "--json", "--workers", "2",
                       "--summary-json", str(sj))
    rows = _results(out)
    summary = json.loads(sj.read_text())
    levels = Counter(r["rating"]["level"] for r in rows)
    assert summary["ratings"] == {lv: levels.get(lv, 0) for lv in
                                  ("easy", "medium", "hard", "unfair", "extreme")}
    assert sum(summary["hardest"].values()) == len(rows) == 12
    assert summary["counts"]["solved"] + summary["counts"]["stuck"] == 12
    assert rc == (0 if summary["counts"]["stuck"] == 0 else 1)
    assert err == ""  # no summary on stderr unless asked for (stderr is not a terminal)


def test_progress_bar_only_when_asked_or_terminal(capsys, slice200):
    rc, _, err = run(capsys, "solve", str(slice200), "--progress", "on")
    assert rc == 0 and "200/200" in err
    rc, _, err = run(capsys, "solve", str(slice200))
    assert rc == 0 and err == ""


@pytest.mark.parametrize("argv, needle", [
    (["--workers", "-1"], "--workers"),
    (["--chunk-size", "0"], "--chunk-size"),
])
def test_bad_batch_options(argv, needle, capsys, slice200):
    rc, out, err = run(capsys, "solve", str(slice200), *argv)
    assert rc == 2 and out == "" and err.count("\n") == 1 and needle in err


def test_ctrl_c_keeps_lines_and_stops_workers(tmp_path):
    sj = tmp_path / "s.json"
    p = subprocess.Popen([sys.executable, "-m", "sudoku_csp.cli", "solve",
                          str(DATA / "17clue_5000.txt"), "--logic", "--json", "--workers", "2",
                          "--chunk-size", "2", "--summary-json", str(sj)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                         start_new_session=True,
                         # a test run started in the background (`.ci/run &`) ignores SIGINT;
                         # the child would inherit that and never see the Ctrl-C
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdout is not None
    first = os.read(p.stdout.fileno(), 1)  # results are coming: the run is under way
    time.sleep(0.5)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    rest, err_b = p.communicate(timeout=60)
    out, err = (first + rest).decode(), err_b.decode()
    assert p.returncode == 130, (p.returncode, err, out.count("\n"))
    assert "Traceback" not in err and err.strip().endswith("sudoku-csp: interrupted")
    rows = [json.loads(line) for line in out.splitlines()]  # every line whole
    assert rows
    summary = json.loads(sj.read_text())
    assert summary["interrupted"] and summary["puzzles"] == len(rows) < 5000
    deadline = time.time() + 10
    while time.time() < deadline:  # workers gone with the parent
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("worker processes outlived the interrupted run")


def test_dask_local_cluster_matches_serial(capsys, slice200, serial200):
    pytest.importorskip("distributed")
    rc, out, err = run(capsys, "solve", str(slice200), "--json", "--dask", "local",
                       "--workers", "2", "--chunk-size", "25", "--summary")
    assert rc == 0
    assert _results(out) == serial200
    assert "(dask, 2 workers)" in err and "200 solved" in err
