"""Setter puzzles of the f-puzzles set (tests/data/fpuzzles_cc_by.jsonl) where a forcing
net used to do a human's one-line deduction: the state just before that net (solving
without the new idea), the new idea's exact eliminations there, checked against the known
solution, and the whole logic solve now free of forcing steps."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver

DATA = Path(__file__).resolve().parents[1] / "data"
FORCING = frozenset((
    "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
    "forcing_net_verity", "forcing_net_nested", "kraken_fish_type_1", "kraken_fish_type_2",
    "template_set", "template_delete"))


def _row(i: int) -> dict:
    with open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8") as f:
        for k, line in enumerate(f):
            if k == i:
                return json.loads(line)
    raise AssertionError(f"no puzzle {i}")


def _before_forcing(p, techniques: str):
    """The state where a solve with ``techniques`` first takes a forcing step."""
    run = StepSolver(techniques).start(p, time_limit=30)
    prev = run.state.copy()
    for s in run:
        if s.technique in FORCING:
            return prev
        prev = run.state.copy()
    raise AssertionError("no forcing step without the technique")


def _names(p, steps) -> set[str]:
    return {f"{p.grid.name(c)}<>{d}" for s in steps for c, d in s.eliminations}


def test_disjoint_cages_sistine_hippos():
    """Cage 11 (r7c2 r7c3: 29/56) and cage 8 (r8c3 r9c3: 26/35) share box 7: 26 meets both
    combinations of cage 11, so cage 8 is 35 (a forcing chain did this before)."""
    row = _row(62)
    p = load_fpuzzles(row["fpuzzles_json"])
    # (house_arrangement, newer, gets past it too: box 7 with its two-cell cages filled whole)
    st = _before_forcing(p, "default,-disjoint_cages,-house_arrangement,-house_pair_arrangement")
    steps = StepSolver().find_all(st, "disjoint_cages")
    sol = [int(ch) for ch in row["solution"]]
    got = _names(p, steps)
    assert {"r8c3<>2", "r8c3<>6", "r9c3<>2", "r9c3<>6"} <= got
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    text = [s.explain(2) for s in steps]
    assert any("cage 8 at r8c3" in t and "so cage 8 at r8c3 is 35" in t for t in text), text


def test_renban_house_split_candy_cane():
    """Renban r2c3-r1c1 (r2c3 is 4 or 7): its row-1 cells hold 235, 356 or 568. 235 leaves
    both 6 and 8 to r1c6 alone, 568 leaves r1c6 no digit: they are 356, and r1c6 is not 6
    (a forcing net found r1c6<>6 before)."""
    row = _row(78)
    p = load_fpuzzles(row["fpuzzles_json"])
    # (house_arrangement, newer, finds r1c6<>6 too: row 1 filled whole with the renban)
    st = _before_forcing(p, "default,-renban_house_split,-house_arrangement,"
                            "-house_pair_arrangement")
    steps = [s for s in StepSolver().find_all(st, "renban_house_split")
             if "renban r2c3" in s.note and "row 1" in s.note]
    assert steps
    sol = [int(ch) for ch in row["solution"]]
    got = _names(p, steps)
    assert {"r1c6<>6", "r1c1<>8", "r1c2<>8"} <= got, got
    for s in StepSolver().find_all(st, "renban_house_split"):
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    assert "r1c3,r1c2,r1c1 hold 356, not 235/568" in steps[0].explain(2)


@pytest.mark.parametrize("i", [46, 53, 62, 78])
def test_no_forcing_needed(i):
    """Quadruples (repeated digits kept out of shared houses), Column Indexing Test (the
    indexers' links feed the chains), Sistine Hippos (disjoint cages) and Candy Cane
    (renban-house split): solved by logic, correctly, without a forcing step."""
    row = _row(i)
    p = load_fpuzzles(row["fpuzzles_json"])
    r = StepSolver().solve(p, time_limit=30)
    assert r.status == "solved"
    assert "".join(str(r.state.placed[c]) for c in range(81)) == row["solution"]
    assert not [s.technique for s in r.steps if s.technique in FORCING]
