"""Batch runs of `sudoku-csp solve`: process pool and Dask give the serial results in input
order; summary, progress bar, Ctrl-C."""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from sudoku_csp.cli import main
from sudoku_csp.commands.solve import solve_one as _real_solve_one

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
    # no summary on stderr unless asked for (stderr is not a terminal): the file named alone
    assert err == f"sudoku-csp: wrote {sj}\n"


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
    # the workers inherit this process's sys.path: with the benchmarks' folder in front, its
    # variants.py shadows the package and they cannot unpickle a task (conftest.load_benchmark)
    assert str(ROOT / "benchmarks") not in sys.path, "a test left benchmarks/ on sys.path"
    rc, out, err = run(capsys, "solve", str(slice200), "--json", "--dask", "local",
                       "--workers", "2", "--chunk-size", "25", "--summary")
    assert rc == 0
    assert _results(out) == serial200
    assert "(dask, 2 workers)" in err and "200 solved" in err


# -- issue 24: a batch never loses a line ---------------------------------------------------
MULTIGRID = ('{"format":"sudoku-csp","version":2,"size":9,'
             '"multigrid":{"origins":[[0,0],[6,6]],"labels":5}}')
GOOD = "1" + "." * 14 + "2"     # a 4x4 with many solutions: --first solves it


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error: ")]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_line_whose_reading_fails_does_not_stop_the_batch(capsys, tmp_path, workers):
    f = tmp_path / "mixed.jsonl"
    good = json.dumps({"puzzle": GOOD})
    f.write_text("\n".join([good, MULTIGRID, good]) + "\n")
    rc, out, err = run(capsys, "solve", str(f), "--json", "--first", "--workers", workers)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and [r["status"] for r in rows] == ["solved", "error", "solved"]
    assert [r["where"] for r in rows] == [f"{f}:{i}" for i in (1, 2, 3)]
    assert _error_lines(err) == [f"error: {f}:2: {rows[1]['error']}"]
    assert "Traceback" not in err and err.count("\n") == 1


def _flaky_solve_one(item, args):   # module level: the pool pickles it by name
    if item.where.endswith(":2"):
        raise RuntimeError("boom\nsecond line")
    return _real_solve_one(item, args)


def _unpicklable_solve_one(item, args):
    res = _real_solve_one(item, args)
    if item.where.endswith(":2"):
        res["oops"] = lambda: None      # this result cannot travel back from the worker
    return res


def test_a_result_that_cannot_come_back_from_a_worker_is_its_lines_error(
        capsys, tmp_path, monkeypatch):
    import sudoku_csp.commands.solve as solve_cmd
    monkeypatch.setattr(solve_cmd, "solve_one", _unpicklable_solve_one)
    f = tmp_path / "three.txt"
    f.write_text(f"{GOOD}\n{GOOD}\n{GOOD}\n")
    rc, out, err = run(capsys, "solve", str(f), "--json", "--first", "--workers", "2",
                       "--chunk-size", "1")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and [r["status"] for r in rows] == ["solved", "error", "solved"]
    assert rows[1]["error"].startswith("internal error: ") and "Traceback" not in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_any_exception_of_one_line_is_that_lines_error(capsys, tmp_path, monkeypatch, workers):
    """A bug that surfaces on one puzzle (here a solve_one that raises for the second
    line) is that line's error, serial and in worker processes; the batch goes on."""
    import sudoku_csp.commands.solve as solve_cmd
    monkeypatch.setattr(solve_cmd, "solve_one", _flaky_solve_one)
    f = tmp_path / "three.txt"
    f.write_text(f"{GOOD}\n{GOOD}\n{GOOD}\n")
    rc, out, err = run(capsys, "solve", str(f), "--json", "--first", "--workers", workers)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and [r["status"] for r in rows] == ["solved", "error", "solved"]
    assert rows[1]["error"] == "internal error: RuntimeError: boom\\nsecond line"
    assert err.count("\n") == 1 and f"{f}:2" in err and "Traceback" not in err


@pytest.mark.parametrize("ext", ["txt", "jsonl"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_byte_that_is_not_utf8_is_one_lines_error(capsys, tmp_path, ext, workers):
    good = GOOD if ext == "txt" else json.dumps({"puzzle": GOOD})
    bad = GOOD[:3] + "\xff" + GOOD[4:] if ext == "txt" else '{"puzzle": "1..\xff"}'
    f = tmp_path / f"latin1.{ext}"
    f.write_bytes("\n".join([good, bad, good]).encode("latin-1") + b"\n")
    rc, out, err = run(capsys, "solve", str(f), "--first", "--workers", workers)
    assert rc == 1
    assert out.splitlines() == [f"{f}:1: solved {_first(GOOD)}", f"{f}:3: solved {_first(GOOD)}"]
    column = bad.index("\xff") + 1
    assert _error_lines(err) == [f"error: {f}:2: not UTF-8 text: byte 0xff at column {column}"]


def _first(line: str) -> str:
    from variants import classic_puzzle
    return "".join(map(str, classic_puzzle(line).solve(first=True).solution))


def test_stdin_bytes_are_read_per_line_whatever_the_locale(tmp_path):
    """stdin is read as bytes: a strict UTF-8 stdin (PYTHONIOENCODING) still reports the
    bad line and answers the others."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    data = f"{GOOD}\n1..\xff{GOOD[4:]}\n{GOOD}\n".encode("latin-1")
    p = subprocess.run([sys.executable, "-m", "sudoku_csp.cli", "solve", "-", "--first"],
                       input=data, capture_output=True, cwd=ROOT, env=env, timeout=60)
    out, err = p.stdout.decode(), p.stderr.decode()
    assert p.returncode == 1 and out.count("solved") == 2, (out, err)
    assert err == "error: stdin:2: not UTF-8 text: byte 0xff at column 4\n"


def test_workers_never_outnumber_puzzles_or_cpus(capsys, tmp_path):
    from sudoku_csp.batch import worker_count
    f = tmp_path / "two.txt"
    f.write_text(f"{GOOD}\n{GOOD}\n")
    sj = tmp_path / "s.json"
    t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc, out, err = run(capsys, "solve", str(f), "--first", "--workers", "1000",
                       "--summary-json", str(sj))
    t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = json.loads(sj.read_text())
    assert rc == 0 and out.count("solved") == 2
    assert summary["workers"] == min(2, os.cpu_count() or 1)
    assert (t1.ru_utime + t1.ru_stime) - (t0.ru_utime + t0.ru_stime) < 5   # 1,000 took 5-8 s
    assert worker_count(1000, 2, cpus=64) == 2 and worker_count(1000, 10**6, cpus=4) == 4
    assert worker_count(0, 10**6, cpus=3) == 3 and worker_count(7, 1, cpus=8) == 1


def test_summary_json_is_kept_when_the_command_exits_2(capsys, tmp_path):
    sj = tmp_path / "s.json"
    sj.write_text("the last run's summary\n")
    for argv in (["11" + "." * 14],                        # contradictory givens: exit 2
                 [GOOD, "--techniques", "default,-bogus", "--logic"],
                 [GOOD, "--node-limit", "-5"]):
        rc, out, err = run(capsys, "solve", *argv, "--summary-json", str(sj))
        assert rc == 2 and err.count("\n") == 1 and "internal error" not in err
        assert sj.read_text() == "the last run's summary\n"
    rc, _, _ = run(capsys, "solve", GOOD, "--first", "--summary-json", str(sj))
    assert rc == 0 and json.loads(sj.read_text())["counts"]["solved"] == 1
    assert sorted(os.listdir(tmp_path)) == ["s.json"]    # no temporary file left


# -- a Dask run never hangs on a cluster without workers --------------------------------------
class _Never:
    """A future that never finishes (its workers are gone)."""

    def result(self, timeout=None):
        raise TimeoutError


class _Client:
    def __init__(self, workers_seen):
        self.workers_seen = list(workers_seen)   # workers counted at each poll, then 0

    def scheduler_info(self):
        n = self.workers_seen.pop(0) if self.workers_seen else 0
        return {"workers": {f"w{i}": {} for i in range(n)}}


def test_dask_result_gives_up_when_the_cluster_has_no_workers():
    from sudoku_csp.batch import DaskClusterError, _dask_result
    ticks = iter(range(0, 10_000, 10))          # every poll: 10 s later
    with pytest.raises(DaskClusterError, match="no workers for 60 s"):
        _dask_result(_Client([]), _Never(), 60, poll_s=0, clock=lambda: next(ticks))


def test_dask_result_waits_while_workers_are_there():
    from sudoku_csp.batch import DaskClusterError, _dask_result
    polls = []

    def clock():
        polls.append(1)
        return 10.0 * len(polls)
    # 20 polls with workers (200 s of a long chunk: no error), then none: error 60 s later
    with pytest.raises(DaskClusterError):
        _dask_result(_Client([2] * 20), _Never(), 60, poll_s=0, clock=clock)
    assert len(polls) == 7      # clock read only while there were no workers: 0, 10, ..., 60

    class Done:
        def result(self, timeout=None):
            return [{"status": "solved"}]
    assert _dask_result(_Client([]), Done(), 60, poll_s=0) == [{"status": "solved"}]


def test_cli_reports_a_dask_cluster_without_workers_in_one_line(capsys, monkeypatch, tmp_path):
    pytest.importorskip("distributed")
    import sudoku_csp.batch as batch
    from sudoku_csp.batch import DaskClusterError

    def no_workers(client, fut, stall_s, **kw):
        raise DaskClusterError(f"the Dask cluster has had no workers for {stall_s:g} s; "
                               "stopping (the results so far were written)")
    monkeypatch.setattr(batch, "_dask_result", no_workers)
    f = tmp_path / "two.txt"
    f.write_text(GOOD + "\n" + GOOD + "\n")
    rc, out, err = run(capsys, "solve", str(f), "--json", "--first", "--dask", "local",
                       "--workers", "1")
    assert rc == 2 and "Traceback" not in err
    assert err.strip().splitlines()[-1].endswith(
        "the Dask cluster has had no workers for 60 s; stopping (the results so far were written)")
