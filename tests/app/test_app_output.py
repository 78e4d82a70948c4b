"""Output and limits of the application layer: printed symbols for big grids, link-graph
size refusal, SAT conflict budgets, batches that stream from the first puzzle."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from csp.errors import NodeLimitExceeded
from csp.graphs import link_graph, link_graph_size
from csp.io import parse_line, write_line
from sudoku_csp.batch import ramp
from sudoku_csp.cli import main
from sudoku_csp.formats.loader import puzzle_from_json
from variants import classic_puzzle, killer_cage, non_consecutive
from csp import Puzzle

from conftest import DATA

EXAMPLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _grid16() -> str:
    """A 16x16 puzzle: a solved grid with its first row blanked (one solution)."""
    p = classic_puzzle("1" + "." * 255)
    sol = p.solve(first=True).solution
    return "." * 16 + write_line(sol[16:], 16)


@pytest.mark.parametrize("symbols", [None, "letters", "numbers"])
def test_symbols_round_trip(capsys, symbols):
    line = _grid16()
    args = ["solve", line] + (["--symbols", symbols] if symbols else [])
    rc, out, err = run(capsys, *args)
    assert rc == 0 and err == ""
    status, text = out.split()
    assert status == "solved"
    n, values = parse_line(text)
    assert n == 16 and all(values)
    assert classic_puzzle(text).check_solution(values)
    assert ("," in text) == (symbols == "numbers")
    assert write_line(values, 16, symbols=symbols) == text


def test_symbols_json_keeps_the_contract(capsys):
    line = _grid16()
    rc, out, _ = run(capsys, "solve", line, "--json", "--symbols", "numbers")
    res = json.loads(out)
    assert rc == 0 and res["solution"] == write_line(
        [v for row in res["grid"] for v in row], 16, symbols="letters")
    assert len(res["grid"]) == 16 and all(len(r) == 16 for r in res["grid"])


def test_write_line_refuses_letters_past_35():
    with pytest.raises(Exception) as e:
        write_line([36], 36, symbols="letters")
    assert "numbers" in str(e.value)
    assert write_line([36, 0], 36) == "36,0"


@pytest.mark.parametrize("make", [
    lambda: classic_puzzle(EXAMPLE),
    lambda: Puzzle(9).use(classic_puzzle("." * 81).bundles[0][0], non_consecutive(),
                          killer_cage(["r1c1", "r1c2"], total=3)),
    lambda: classic_puzzle("1" + "." * 15),
])
def test_link_graph_size_bounds_the_graph(make):
    p = make()
    st = p.propagate()
    nodes, edges = link_graph_size(p, st)
    G = link_graph(p, st)
    assert nodes == G.number_of_nodes()
    assert G.number_of_edges() <= edges <= 3 * G.number_of_edges()


def test_graph_links_refuses_an_oversized_graph(capsys, tmp_path):
    out_file = tmp_path / "g.graphml"
    t0 = time.process_time()
    rc, out, err = run(capsys, "graph", "." * 625, "--kind", "links", "-o", str(out_file))
    assert rc == 2 and out == ""
    assert time.process_time() - t0 < 20
    assert err.count("\n") == 1 and "15,625 candidate nodes" in err and "--max-nodes" in err
    assert not out_file.exists()
    rc, _, _ = run(capsys, "graph", EXAMPLE, "--kind", "links", "-o", str(out_file),
                   "--max-nodes", "300")
    assert rc == 0 and out_file.stat().st_size > 1000
    rc, _, err = run(capsys, "graph", EXAMPLE, "--kind", "links", "--max-nodes", "10")
    assert rc == 2 and "over --max-nodes 10" in err


def _solver_needs_set():
    with open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8") as f:
        for line in f:
            obj = json.loads(line)
            if obj["title"].startswith("Solver needs SET"):
                return puzzle_from_json(obj)[0]
    raise AssertionError("tests/data/fpuzzles_cc_by.jsonl has no 'Solver needs SET'")


def test_node_limit_is_a_conflict_budget_for_sat():
    p = _solver_needs_set()
    with pytest.raises(NodeLimitExceeded, match=r"conflicts \(limit 50\)"):
        p.solve(method="sat", node_limit=50)
    r = p.solve(method="sat", node_limit=10**7)
    assert r.status == "solved" and r.method == "sat" and r.conflicts > 50


def test_cli_node_limit_with_sat(capsys):
    p = _solver_needs_set()
    from sudoku_csp.formats.spec import to_spec
    spec = json.dumps(to_spec(p))
    rc, out, _ = run(capsys, "solve", spec, "--method", "sat", "--node-limit", "20", "--json")
    res = json.loads(out)
    assert rc == 1 and res["status"] == "limit" and "conflicts" in res["reason"]


@pytest.mark.parametrize("bad", [-5, -1, 1.5, True, "10"])
def test_api_node_limit_is_a_whole_number(bad):
    from csp.errors import InvalidArgument
    for method in ("search", "sat", "auto"):
        with pytest.raises(InvalidArgument, match="node limit"):
            classic_puzzle(EXAMPLE).solve(node_limit=bad, method=method)


@pytest.mark.parametrize("limit", [2 ** 63 - 1, 2 ** 63, 10 ** 30])
def test_api_huge_node_limit_is_no_limit_for_sat(limit):
    r = classic_puzzle(EXAMPLE).solve(method="sat", node_limit=limit)
    assert r.status == "solved" and r.method == "sat"


@pytest.mark.parametrize("method", ["search", "sat", "auto"])
def test_node_limit_0_allows_no_search_with_every_method(method):
    """0: what propagation settles is answered (a grid with 11 blanks in the last rows,
    solved by singles; a contradiction), anything that needs a guess is a limit."""
    sol = classic_puzzle(EXAMPLE).solve().solution
    settled = "".join(map(str, sol[:70])) + "." * 11
    r = classic_puzzle(settled).solve(method=method, node_limit=0)
    assert r.status == "solved" and r.solution == sol
    with pytest.raises(NodeLimitExceeded):
        classic_puzzle(EXAMPLE).solve(method=method, node_limit=0)
    with pytest.raises(NodeLimitExceeded):
        classic_puzzle(EXAMPLE).count_solutions(method=method, node_limit=0)


def test_ramp_covers_every_item_in_order():
    for n in (0, 1, 5, 100, 1001):
        for chunk in (1, 3, 100):
            parts = ramp(list(range(n)), chunk)
            assert [x for part in parts for x in part] == list(range(n))
            assert all(len(part) <= chunk for part in parts)
            if parts:
                assert len(parts[0]) == 1


def test_pool_batch_writes_its_first_line_early(tmp_path):
    """A --workers 2 batch prints the first result while later puzzles still run (with
    fixed chunks of 40 // (2 * 8) = 2 puzzles, the first line waited for the second puzzle,
    which runs to its 30 s limit)."""
    f = tmp_path / "batch.txt"
    lines = [EXAMPLE] + ["." * 625] * 39      # empty 25x25 grids: logic runs to its limit
    f.write_text("\n".join(lines) + "\n")
    env = dict(os.environ, PYTHONPATH=str(DATA.parent.parent))
    proc = subprocess.Popen([sys.executable, "-m", "sudoku_csp", "solve", str(f), "--logic",
                             "--workers", "2", "--time-limit", "30", "--progress", "off"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env, cwd=DATA.parent.parent, start_new_session=True)
    try:
        t0 = time.perf_counter()
        first = proc.stdout.readline()
        waited = time.perf_counter() - t0
        assert first.split(": ", 1)[1].startswith("solved")
        assert proc.poll() is None, "the batch finished before its first line was read"
        assert waited < 10
    finally:       # the pool's workers too: they are in the batch's process group
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# -- issue 24: output files are written whole or not at all ---------------------------------
UNIQUE4 = "1.....2...3..4.."   # one solution, solved by singles in no time
LONE = json.dumps({"puzzle": UNIQUE4, "title": "a\ud800b\u0007c"})


@pytest.mark.parametrize("argv, name", [
    (["render", LONE], "out.svg"),
    (["render", LONE], "out.png"),
    (["explain", LONE], "out.html"),
    (["explain", UNIQUE4, "--title", "caf\udce9"], "out.html"),  # argv byte 0xe9
    (["graph", LONE], "out.graphml"),
])
def test_titles_that_utf8_cannot_hold_are_drawn_escaped(capsys, tmp_path, argv, name):
    out = tmp_path / name
    out.write_text("the old file\n")
    rc = main([*argv, "-o", str(out)])
    _, err = capsys.readouterr()
    assert rc in (0, 1) and err == f"sudoku-csp: wrote {out}\n", err    # nothing else
    data = out.read_bytes()
    if name.endswith(".png"):
        assert data.startswith(b"\x89PNG")
        return
    data.decode("utf-8")                 # valid UTF-8 through and through
    if not name.endswith(".graphml"):    # graphs carry no title
        want = "caf\\xe9" if "--title" in argv else "a\\ud800b\\x07c"
        assert want.encode() in data


def test_svg_of_a_lone_surrogate_title_goes_to_stdout(capsys):
    assert main(["render", LONE]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "a\\ud800b\\x07c" in out


@pytest.mark.parametrize("argv, name", [
    (["render", EXAMPLE], "out.svg"),
    (["explain", EXAMPLE], "out.html"),
    (["graph", EXAMPLE], "out.dot"),
    (["solve", EXAMPLE, "--summary-json"], "summary.json"),
])
def test_a_failed_write_leaves_the_old_file(capsys, tmp_path, monkeypatch, argv, name):
    import errno
    import csp.files

    def full_disk(src, dst):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), src)

    monkeypatch.setattr(csp.files.os, "replace", full_disk)
    out = tmp_path / name
    out.write_text("the old file\n")
    extra = ["--format", "dot"] if argv[0] == "graph" else []
    flag = [] if argv[-1] == "--summary-json" else ["-o"]
    rc = main([*argv, *flag, str(out), *extra])
    _, err = capsys.readouterr()
    assert rc == 2 and err == f"sudoku-csp: error: No space left on device: {out}\n"
    assert out.read_text() == "the old file\n"
    assert os.listdir(tmp_path) == [name]        # no temporary file left behind


def test_a_command_that_fails_leaves_the_old_file(capsys, tmp_path):
    out = tmp_path / "out.svg"
    out.write_text("the old file\n")
    assert main(["render", UNIQUE4, "--step", "99", "-o", str(out)]) == 2
    assert main(["render", "11" + "." * 14, "-o", str(out)]) == 2
    capsys.readouterr()
    assert out.read_text() == "the old file\n"


def test_write_atomic_keeps_mode_and_links(tmp_path):
    from csp.files import write_atomic
    target = tmp_path / "real.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(link, "new \ud800")
    assert link.is_symlink() and target.read_bytes() == b"new \\ud800"
    assert os.stat(target).st_mode & 0o777 == 0o640
    write_atomic(os.devnull, b"nothing")     # not a regular file: written, not replaced
    assert sorted(os.listdir(tmp_path)) == ["link.txt", "real.txt"]
    with pytest.raises(OSError) as e:
        write_atomic(tmp_path / "no" / "such" / "dir.txt", "x")
    assert e.value.filename == str(tmp_path / "no" / "such" / "dir.txt")


K4 = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "examples", "k4.json")


@pytest.mark.parametrize("argv, opt, name, same_stdout", [
    (["render", K4], "-o", "p.svg", False),
    (["candidates", K4], "-o", "c.svg", True),
    (["graph", K4], "-o", "g.graphml", False),
    (["explain", K4], "-o", "e.html", False),
    (["why", K4, "r1c1=4"], "-o", "w.svg", True),
    (["report", K4, "--progress", "off"], "-o", "r.html", True),
    (["solve", K4], "--summary-json", "s.json", True),
    (["generate", "--technique", "naked_single", "--practice", "--seed", "1"], "--picture",
     "g.svg", True),
])
def test_every_file_written_is_said_on_stderr(capsys, tmp_path, argv, opt, name, same_stdout):
    """Each command that writes a file says ``sudoku-csp: wrote FILE`` on stderr, once, the
    one shared way; stdout (the answer) is what it is without the file."""
    rc0, out0, err0 = run(capsys, *argv)
    path = str(tmp_path / name)
    rc, out, err = run(capsys, *argv, opt, path)
    assert rc == rc0 and os.path.isfile(path)
    said = [line for line in err.splitlines() if "wrote" in line]
    also = f" and {path[:-len('.html')]}.explain.html" if argv[0] == "report" else ""
    assert said == [f"sudoku-csp: wrote {path}{also}"], err
    assert [line for line in err.splitlines() if line not in said] == err0.splitlines()
    if same_stdout:
        assert out == out0
    elif argv[0] != "explain":               # the picture or graph is what stdout held
        assert out == "" and open(path).read().strip() == out0.strip()


@pytest.mark.parametrize("argv", [["render", K4, "-o", "-"], ["graph", K4, "-o", "-"],
                                  ["explain", K4, "-o", "-"],
                                  ["solve", K4, "--summary-json", "-"]])
def test_output_to_stdout_says_nothing(capsys, argv):
    """``-o -`` is stdout: no file is named on stderr."""
    rc, out, err = run(capsys, *argv)
    assert rc == 0 and out and "wrote" not in err
