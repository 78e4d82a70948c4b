"""sudoku-csp's own JSON format: every rule bundle round-trips; bad documents are named."""
from __future__ import annotations

import json

import pytest

from csp import Grid, Puzzle
from variants import classic, killer_cage, thermo
from sudoku_csp.cli import main
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from sudoku_csp.formats.spec import RULES, SpecError, from_spec, to_spec

from conftest import DATA

ROWS = [json.loads(x) for x in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")]


def test_every_fpuzzles_puzzle_round_trips():
    used: set[str] = set()
    for row in ROWS:
        p = load_fpuzzles(row["fpuzzles_json"])
        doc = json.loads(json.dumps(to_spec(p)))
        used |= {r["rule"] for r in doc["rules"]}
        q = from_spec(doc)
        assert [repr(c) for c in q.constraints] == [repr(c) for c in p.constraints]
        assert q.given == p.given
        sol = [int(ch) for ch in row["solution"]]
        assert q.check_solution(sol) == p.check_solution(sol)
    assert len(used) >= 30 and used <= set(RULES)


@pytest.mark.parametrize("i", [0, 2, 13, 34, 50])
def test_round_trip_solves_the_same(i):
    p = load_fpuzzles(ROWS[i]["fpuzzles_json"])
    q = from_spec(to_spec(p))
    assert q.solve(time_limit=60).solution == p.solve(time_limit=60).solution


def test_jigsaw_and_box_shapes():
    g = Grid(6, box=(3, 2))
    p = Puzzle(g).use(classic(), thermo("r1c1", "r1c2", "r1c3"))
    doc = to_spec(p)
    assert doc["box"] == [3, 2]
    assert from_spec(doc).grid.box_shape == (3, 2)
    regions = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    j = Puzzle(Grid(4, regions=regions)).use(classic(), killer_cage(["r1c1", "r1c2"], 3))
    doc = to_spec(j)
    back = from_spec(json.loads(json.dumps(doc)))
    assert [h.cells for h in back.houses()] == [h.cells for h in j.houses()]


def test_direct_constraints_are_named():
    p = Puzzle(4).use(classic())
    p.add(p["r1c1"] < p["r1c2"])
    with pytest.raises(SpecError, match="without a rule bundle"):
        to_spec(p)


@pytest.mark.parametrize("doc, needle", [
    ({"format": "sudoku-csp", "version": 3, "size": 9}, "version"),
    ({"format": "sudoku-csp", "version": 1, "size": 9, "rules": [{"rule": "nope"}]}, "nope"),
    ({"format": "sudoku-csp", "version": 1, "size": 9,
      "rules": [{"rule": "killer_cage", "cells": ["r1c1"], "total": 3, "color": 1}]}, "color"),
    ({"format": "sudoku-csp", "version": 1, "size": 9, "rules": [{"rule": "killer_cage"}]},
     "missing argument 'cells'"),
    ({"format": "other"}, "not a sudoku-csp document"),
])
def test_bad_documents(doc, needle):
    with pytest.raises(SpecError, match=needle):
        from_spec(doc)


def test_cli_reads_spec_files(tmp_path, capsys):
    p = load_fpuzzles(ROWS[13]["fpuzzles_json"])
    f = tmp_path / "killer.json"
    f.write_text(json.dumps(to_spec(p)))
    assert main(["solve", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solution"] == ROWS[13]["solution"]


def test_an_unknown_top_level_key_is_an_error_naming_it():
    """A misspelt key was ignored: ``"givns"`` read as a puzzle without givens (and
    ``solve`` said ``multiple``). Now it is an error naming the key and the closest one;
    the keys sudoku-csp writes (``inferred``) and a stated ``solution`` are read."""
    from sudoku_csp.formats.spec import SpecError, from_spec, to_spec
    from variants import classic_puzzle
    doc = {"format": "sudoku-csp", "version": 1, "size": 4, "givns": "1..............."}
    with pytest.raises(SpecError, match=r"unknown key\(s\) 'givns'; did you mean 'givens'"):
        from_spec(doc)
    many = {**doc, **{f"k{i}" * 3000: i for i in range(30)}}
    with pytest.raises(SpecError) as e:
        from_spec(many)
    assert "and 26 more" in str(e.value) and len(str(e.value)) < 600
    good = {**to_spec(classic_puzzle("1...............")), "inferred": [], "solution": "x"}
    assert from_spec(good).given == {0: 1}


@pytest.mark.parametrize("total, shown", [(10 ** 7, "10000000"),
                                          (10 ** 5000, "an int of about 5,001 digits")],
                         ids=["past-cap", "unprintable"])
def test_an_integer_past_the_cap_is_named_as_too_large(total, shown):
    """An integer argument past MAX_NUMBER was refused as if it were no integer ('must be an
    integer or null, got 10000000'), and one too long to print raised ValueError."""
    doc = {"format": "sudoku-csp", "version": 1, "size": 4,
           "rules": [{"rule": "killer_cage", "cells": ["r1c1", "r1c2"], "total": total}]}
    with pytest.raises(SpecError) as e:
        from_spec(doc)
    assert str(e.value) == (f"rule killer_cage: 'total' must be an integer or null of at most "
                            f"1,000,000 in size, got {shown}")
