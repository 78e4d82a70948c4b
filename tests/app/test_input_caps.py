"""Reading input is bounded (issue 24): documented caps on one puzzle's text, on what a
payload decompresses to and on a multi-grid's canvas, each refused with exit code 2 and one
line naming the cap and the size given; parsing runs within the command's time limit; a
command that takes one puzzle stops reading a file at its second; and own-JSON multi-grids
are validated before anything is built. CPU times are those of the child process."""
from __future__ import annotations

import json
import random
import re

import pytest

from conftest import DATA, run_cli
from csp.grid import MAX_CANVAS_CELLS, MAX_SUBGRIDS
from sudoku_csp.formats.payload import MAX_PUZZLE_CHARS, lz_decompress_base64

CPU_BOUND = 3.0


def _one_line_error(child, *words: str) -> None:
    assert child.rc == 2, (child.rc, child.out, child.err)
    lines = child.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudoku-csp: error: "), child.err
    assert "internal error" not in child.err and "Traceback" not in child.err
    for w in words:
        assert w in lines[0], (w, lines[0])


# -- LZString ------------------------------------------------------------------------------
def test_lz_decoder_matches_lzstring():
    """The package's own LZString decoder (it ticks the budget and stops at the output
    cap) answers exactly as the ``lzstring`` package on real payloads, round trips and
    garbage (the same text, the same empty string, the same None)."""
    import lzstring
    ref = lzstring.LZString()

    def theirs(s: str):
        try:
            return ref.decompressFromBase64(s)
        except Exception:          # lzstring fails on garbage in many ways
            return None

    payloads = []
    for line in (DATA / "fpuzzles_cc_by.jsonl").read_text(encoding="utf-8").splitlines()[:40]:
        payloads.append(json.loads(line)["fpuzzles_json"])
    rng = random.Random(24)
    for _ in range(300):
        text = "".join(rng.choice('{}[]":,ab1 é漢') for _ in range(rng.randint(0, 200)))
        payloads.append(ref.compressToBase64(text))
        payloads.append("".join(rng.choice("AB/+=-$_Qg") for _ in range(rng.randint(1, 80))))
    for s in payloads:
        assert lz_decompress_base64(s) == theirs(s), s[:60]


# -- caps ------------------------------------------------------------------------------------
def test_payload_cap_refused_at_once():
    """A 10 MB SudokuPad payload of garbage took about a minute and 466 MB; it is refused
    at once, naming the cap and the size."""
    text = "scl" + "A" * 10_000_000
    child = run_cli(["count", "-", "--time-limit", "1"], stdin=text)
    _one_line_error(child, "10,000,003 characters", f"{MAX_PUZZLE_CHARS:,}")
    assert child.cpu < CPU_BOUND
    # in a batch (solve reads stdin as lines), the line gets its error and the run goes on
    child = run_cli(["solve", "-", "--json"], stdin=text + "\n" + "1" + "." * 15 + "\n")
    lines = [json.loads(x) for x in child.out.splitlines()]
    assert child.rc == 1 and [x["status"] for x in lines] == ["error", "multiple"]
    assert "over the input cap" in lines[0]["error"] and child.cpu < CPU_BOUND


def test_decoded_cap():
    """A payload that decompresses past the cap stops there (a few hundred kilobytes of
    payload can expand much further)."""
    child = run_cli(["count", "-", "--time-limit", "60"], stdin="scl" + "A" * 900_000)
    assert child.cpu < 10
    assert child.rc == 2 and "internal error" not in child.err
    assert len(child.err.splitlines()) == 1


def test_fpuzzles_slashes_bounded():
    """An f-puzzles link of 'a/' * 20000 (40 KB) ran a quadratic repair loop (8-17 s; 400 KB:
    over a minute). The repairs now cost one decompression each and stop at their own
    second."""
    link = "https://f-puzzles.com/?load=" + "a/" * 20_000
    child = run_cli(["solve", link, "--time-limit", "1"])
    _one_line_error(child, "could not be decompressed")
    assert child.cpu < CPU_BOUND, child.cpu
    # 400 KB: too long for an argument, through stdin
    child = run_cli(["count", "-", "--time-limit", "1"],
                    stdin="https://f-puzzles.com/?load=" + "a/" * 200_000)
    _one_line_error(child, "could not be decompressed")
    assert child.cpu < CPU_BOUND, child.cpu


@pytest.mark.parametrize("command", [["count"], ["convert", "--to", "line"], ["hint"],
                                     ["graph", "--kind", "cells", "--format", "json"]])
def test_one_puzzle_commands_stop_at_the_second(tmp_path, command):
    """``count`` / ``convert`` / ``hint`` / ``graph`` on a big batch file read on until
    the whole file was parsed (a 10 MB file: 22-56 s and 1.9 GB) before refusing; they
    refuse at the second puzzle. The file here holds a byte that is not UTF-8 far below
    its second puzzle: a reader that went on would fail on it instead."""
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
    path = tmp_path / "many.txt"
    with open(path, "wb") as f:
        f.write((line * 2).encode())
        f.write(("# padding\n" * 20_000).encode())
        f.write(b"\xff\n")
        f.write(line.encode() * 100_000)
    child = run_cli([command[0], str(path), *command[1:]])
    _one_line_error(child, "expected one puzzle", "holds more than one", "many.txt:2")
    assert child.cpu < CPU_BOUND


def test_json_file_cap(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"format": "sudoku-csp", "version": 1, "size": 9,
                                "title": "x" * (MAX_PUZZLE_CHARS + 10)}))
    child = run_cli(["count", str(path)])
    _one_line_error(child, "big.json", "over the input cap")


# -- own JSON multi-grids ----------------------------------------------------------------
def _doc(multigrid: object, **extra: object) -> str:
    return json.dumps({"format": "sudoku-csp", "version": 2, "size": 9,
                       "multigrid": multigrid, **extra})


BAD_MULTIGRIDS = [
    ({"origins": [[0, 0], [6, 6]], "labels": 5}, "labels"),
    ({"origins": [[0, 0], [6, 6]], "labels": [1, 2]}, "labels"),
    ({"origins": [[0, 0], [6, 6]], "labels": "ab"}, "labels"),
    ({"origins": [[0, 0], [6, 6]], "labels": ["a"]}, "one label per sub-grid"),
    ({"origins": [[0, 0], [1099511627776, 0]]}, "cap of 10,000 cells"),
    ({"origins": [[0, 0], [10 ** 30, 0]]}, "cap of 10,000 cells"),
    ({"origins": [[0, 0], [5000, 5000]]}, "5,009 x 5,009 = 25,090,081 cells"),
    ({"origins": [[0, 0], [15000, 15000]]}, "15,009 x 15,009 = 225,270,081 cells"),
    ({"origins": [[0, 0], [-6, 6]]}, "non-negative"),
    ({"origins": [[0, 0], [True, 6]]}, "integers"),
    ({"origins": [[0, 0], [0.5, 6]]}, "integers"),
    ({"origins": [[0, 0], [6, 6, 6]]}, "[row, col] pairs"),
    ({"origins": []}, "at least one"),
    ({"origins": [[0, 0], [0, 0]]}, "same origin"),
    ({"origins": [[0, i] for i in range(MAX_SUBGRIDS + 1)]}, f"cap of {MAX_SUBGRIDS}"),
    ({"origins": [[0, 0]], "sizes": [9]}, "unknown key"),
    ([[0, 0]], "'origins' list"),
]


@pytest.mark.parametrize("mg, words", BAD_MULTIGRIDS, ids=[w for _, w in BAD_MULTIGRIDS])
def test_multigrid_validated_before_building(mg, words):
    """Bad shapes, types and bounds of ``multigrid`` end with exit 2 and one line (they
    raised MemoryError / OverflowError, or built for minutes and gigabytes), at once."""
    child = run_cli(["solve", _doc(mg), "--time-limit", "1"])
    _one_line_error(child, words)
    assert child.cpu < CPU_BOUND


def test_multigrid_canvas_cap_in_the_api():
    from csp.errors import GridSizeError
    from csp.grid import MultiGrid
    side = int(MAX_CANVAS_CELLS ** 0.5)
    assert MultiGrid(9, [(0, 0), (side - 9, side - 9)]).height == side   # at the cap: fine
    with pytest.raises(GridSizeError, match=re.escape(f"{side + 1} x {side + 1}")):
        MultiGrid(9, [(0, 0), (side - 8, side - 8)])
    with pytest.raises(GridSizeError, match="labels"):
        MultiGrid(9, [(0, 0)], labels=[3])


def test_bad_multigrid_line_in_a_batch(tmp_path):
    """The line of issue 24 that aborted a whole batch as an internal error is that line's
    error; the next line is answered."""
    path = tmp_path / "b.jsonl"
    path.write_text(_doc({"origins": [[0, 0], [6, 6]], "labels": 5}) + "\n"
                    + json.dumps({"puzzle": "1" + "." * 15}) + "\n")
    child = run_cli(["solve", str(path), "--json"])
    res = [json.loads(x) for x in child.out.splitlines()]
    assert [r["status"] for r in res] == ["error", "multiple"]
    assert "labels" in res[0]["error"] and "internal error" not in child.err


def test_good_multigrid_still_reads():
    child = run_cli(["count", _doc({"origins": [[0, 0], [6, 6]], "labels": ["A", "B"]}),
                     "--limit", "3"])
    assert child.rc == 0 and child.out.strip() == "3+"
