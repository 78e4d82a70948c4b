"""f-puzzles import: the 136-puzzle CC BY set loads from JSON and from its LZString payload,
and brute force gives each stated solution (every puzzle, in the default run)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from csp.errors import ParseError
from sudoku_csp.formats.fpuzzles import decode_payload, load_fpuzzles
from sudoku_csp.formats.loader import puzzle_from_text

from conftest import DATA

ROWS = [json.loads(x) for x in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")]
IDS = [f"{i}-{r['title'][:30]}" for i, r in enumerate(ROWS)]
# The stated solution of "Executive Function" breaks its own region-sum rule on every one of
# its six lines (e.g. the two-box line r4c6-r5c7 holds 6 and 3), so no correct solver can
# reproduce it; checked below, with the one grid that keeps every rule.
DATA_ERRORS = {"Executive Function"}


def test_set_size():
    assert len(ROWS) == 136


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_loads_and_stated_solution_satisfies_model(row):
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch, 36) for ch in row["solution"]]
    assert p.check_solution(sol) is (row["title"] not in DATA_ERRORS)


def test_executive_function_data_error():
    row = next(r for r in ROWS if r["title"] == "Executive Function")
    lines = row["fpuzzles_json"]["regionsumline"]
    assert ["R4C6", "R5C7"] in [ln["lines"][0] for ln in lines]
    s = row["solution"]
    assert (s[3 * 9 + 5], s[4 * 9 + 6]) == ("6", "3")   # one cell per box: must be equal
    p = load_fpuzzles(row["fpuzzles_json"])
    stated = [int(ch) for ch in s]
    broken = {c.name for c in p.constraints
              if c.cells and not c.check(*(stated[x] for x in c.cells))}
    assert broken and all(name.startswith("region-sum line") for name in broken)
    assert len({name.split()[-1] for name in broken}) >= len(lines)
    res = p.solve(time_limit=60)            # the grid that keeps every rule, and only one
    assert res.status == "solved" and p.check_solution(res.solution)


@pytest.mark.parametrize("i", [0, 17, 50, 100])
def test_payload_equals_json(i):
    row = ROWS[i]
    assert decode_payload(row["fpuzzles_lzstring_base64"]) == row["fpuzzles_json"]
    url = "https://www.f-puzzles.com/?load=" + row["fpuzzles_lzstring_base64"]
    p = puzzle_from_text(url)
    assert p.solve(time_limit=60).solution == [int(ch) for ch in row["solution"]]


def test_unknown_key_is_named():
    obj = dict(ROWS[0]["fpuzzles_json"], frobnicate=[{"cells": ["R1C1"]}])
    with pytest.raises(ParseError, match="frobnicate"):
        load_fpuzzles(obj)


def test_cosmetic_keys_ignored():
    obj = dict(ROWS[1]["fpuzzles_json"], text=[{"cells": ["R1C1"], "value": "hi"}],
               circle=[{"cells": ["R1C1"]}], disabledlogic=["x"])
    assert load_fpuzzles(obj).solve(time_limit=60).status == "solved"


@pytest.mark.parametrize("bad, needle", [
    ("{not json", "JSON"),
    ("N4IgzglgXgpiBcBOANCA", "payload"),
    ('{"size": 9}', "grid"),
    ('{"size": 9, "grid": [], "killercage": [{"cells": ["R1C1"], "value": "x"}]}', "grid"),
])
def test_bad_fpuzzles(bad, needle):
    with pytest.raises(ParseError, match=needle):
        load_fpuzzles(bad)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_brute_force_gives_stated_solution(row):
    if row["title"] in DATA_ERRORS:
        pytest.skip("stated solution violates the puzzle's own rules (see above)")
    p = load_fpuzzles(row["fpuzzles_json"])
    res = p.solve(time_limit=120)
    assert res.status == "solved"
    assert "".join(map(str, res.solution)) == row["solution"]


def test_negative_sum_dots_forbid_the_marked_sums_elsewhere():
    """``negative: ["sum"]``: like XV, no unmarked adjacent pair sums to a marked value."""
    grid = [[{} for _ in range(4)] for _ in range(4)]
    grid[1][0] = {"value": 1, "given": True}
    obj = {"size": 4, "grid": grid, "sum": [{"cells": ["R1C1", "R1C2"], "value": "5"}]}
    plain = load_fpuzzles(json.dumps(obj)).pencilmarks()
    neg = load_fpuzzles(json.dumps({**obj, "negative": ["sum"]})).pencilmarks()
    r2c2 = 5
    assert plain.cand[r2c2] >> 4 & 1          # 1 + 4 = 5 is allowed without the rule
    assert not neg.cand[r2c2] >> 4 & 1        # and forbidden with it


# -- what a run imports: the reader alone, the writer only to write ---------------------------
def _formats_imported(*argv: str) -> set[str]:
    """The ``sudoku_csp.formats`` modules a fresh ``sudoku-csp ARGV`` run imports (read from
    ``python -X importtime``)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "sudoku_csp", *argv],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-800:]
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    return {m for m in names if m.startswith("sudoku_csp.formats")}


#: a 4x4 with one solution (4312 2143 1234 3421) and a thermometer it keeps
LINE4 = ".3.....3.2.....1"
SMALL = {"size": 4, "grid": [[{"value": int(ch), "given": True} if ch != "." else {}
                              for ch in LINE4[r * 4:r * 4 + 4]] for r in range(4)],
         "thermometer": [{"lines": [["R1C3", "R1C4"]]}]}


def test_classic_line_solve_imports_no_fpuzzles_module():
    mods = _formats_imported("solve", LINE4)
    assert "sudoku_csp.formats.loader" in mods           # the probe sees the formats
    assert not {m for m in mods if "fpuzzles" in m}


def test_reading_fpuzzles_imports_the_reader_not_the_writer():
    import lzstring
    url = "https://www.f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(
        json.dumps(SMALL))
    for argv in (("solve", url), ("convert", url, "--to", "spec")):
        mods = _formats_imported(*argv)
        assert "sudoku_csp.formats.fpuzzles.read" in mods
        assert "sudoku_csp.formats.fpuzzles.write" not in mods, argv
    assert "sudoku_csp.formats.fpuzzles.write" in _formats_imported(
        "convert", url, "--to", "fpuzzles")

