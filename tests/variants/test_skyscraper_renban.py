"""Skyscraper-Renban on a real state: "Crawfish" (f-puzzles set #81; skyscrapers, renbans,
black dots, even cells)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver

DATA = Path(__file__).resolve().parents[1] / "data" / "fpuzzles_cc_by.jsonl"
FORCING = frozenset((
    "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
    "forcing_net_verity", "forcing_net_nested", "kraken_fish_type_1", "kraken_fish_type_2",
    "template_set", "template_delete"))


def _row(i: int) -> dict:
    with open(DATA, encoding="utf-8") as f:
        for k, line in enumerate(f):
            if k == i:
                return json.loads(line)
    raise AssertionError(f"no puzzle {i}")


def test_skyscraper_renban_crawfish():
    """Column 4 sees 2 from below; renban r6c2-r8c4 has r7c4,r8c4 in the column and
    r6c2,r6c3 in row 6. With r6c4 = 8 none of the renban's cells could be 8 (r6c2,r6c3
    share row 6 with it), so r7c4,r8c4 stay below 8 and the column would see r9c4, the 8
    and the 9: r6c4<>8, nothing else, true to the solution. The clue's and the renban's
    own propagation keep r6c4 = 8, and without this step a forcing net found it."""
    row = _row(81)
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch) for ch in row["solution"]]
    run = StepSolver("default,-skyscraper_renban").start(p, time_limit=30)
    prev = run.state.copy()
    for s in run:
        if s.technique in FORCING:
            break
        prev = run.state.copy()
    else:
        raise AssertionError("no forcing step without skyscraper_renban")
    r6c4 = p.grid.cells(["r6c4"])[0]
    assert p.propagate(prev).cand[r6c4] >> 8 & 1
    steps = StepSolver().find_all(prev, "skyscraper_renban")
    assert steps
    first = {(p.grid.name(c), d) for c, d in steps[0].eliminations}
    assert first == {("r6c4", 8)}, first
    text = steps[0].explain(2)
    assert text.startswith("Skyscraper-Renban: skyscraper 2 at r10c4; renban r6c2"), text
    assert text.endswith("=> r6c4<>8"), text
    # every step found there is true to the solution
    assert all(sol[c] != d for s in steps for c, d in s.eliminations)


@pytest.mark.slow
def test_skyscraper_renban_fewer_forcing_steps():
    """Crawfish is solved, correctly, with fewer forcing steps (3 before the technique)."""
    row = _row(81)
    p = load_fpuzzles(row["fpuzzles_json"])
    r = StepSolver().solve(p, time_limit=30)
    assert r.status == "solved"
    assert "".join(str(r.state.placed[c]) for c in range(81)) == row["solution"]
    assert any(s.technique == "skyscraper_renban" for s in r.steps)
    assert sum(s.technique in FORCING for s in r.steps) <= 2
