"""Skyscraper-Renban on a real state: "Crawfish" (f-puzzles set #81; skyscrapers, renbans,
black dots, even cells)."""
from __future__ import annotations

import json
from pathlib import Path

from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver

DATA = Path(__file__).resolve().parents[1] / "data" / "fpuzzles_cc_by.jsonl"


def _row(i: int) -> dict:
    with open(DATA, encoding="utf-8") as f:
        for k, line in enumerate(f):
            if k == i:
                return json.loads(line)
    raise AssertionError(f"no puzzle {i}")


def test_skyscraper_renban_crawfish():
    """Row 6 sees 3 from the left; renban r6c2 has r6c2,r6c3 in the row and renban r5c6 has
    r6c7-r6c9 in it. With r6c3 = 8 no choice of the two renbans' runs lets the row see 3,
    though the clue alone (its exact propagation over the row) and each renban alone allow
    it: r6c3<>8, and nothing else, and true to the solution."""
    row = _row(81)
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch) for ch in row["solution"]]
    run = StepSolver("default").start(p, time_limit=30)
    prev = run.state.copy()
    for s in run:
        if s.technique == "skyscraper_renban":
            break
        prev = run.state.copy()
    else:
        raise AssertionError("no skyscraper_renban step")
    r6c1 = p.grid.cells(["r6c1"])[0]
    # the rules' own propagation (each clue and each renban alone) keeps r6c1 = 2
    assert p.propagate(prev).cand[r6c1] >> 2 & 1
    steps = StepSolver().find_all(prev, "skyscraper_renban")
    got = {(p.grid.name(c), d) for s in steps for c, d in s.eliminations}
    assert got == {("r6c1", 2)}, got
    assert all(sol[c] != d for s in steps for c, d in s.eliminations)
    text = steps[0].explain(2)
    assert text.startswith("Skyscraper-Renban: skyscraper 3 at r6c0; renban r6c2"), text
    assert text.endswith("=> r6c1<>2"), text
