"""Renban techniques that read another rule, on real states where a forcing net was used
before: Skyscraper-Renban on "Crawfish" (f-puzzles set #81; skyscrapers, renbans, black
dots, even cells), Renban-Cage Exclusion on "Effluence" (#64; killer cages, palindromes,
renbans, odd cells)."""
from __future__ import annotations

import pytest

from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver

from test_setter_steps import FORCING, _before_forcing, _row


def _steps_before_net(i: int, tech: str, cell: str, digit: int):
    """Puzzle ``i`` solved without ``tech`` up to its first forcing step: the puzzle, the
    solution, and the steps ``tech`` finds there; the rules' own propagation keeps
    ``cell`` = ``digit`` in that state."""
    row = _row(i)
    p = load_fpuzzles(row["fpuzzles_json"])
    prev = _before_forcing(p, f"default,-{tech}")
    assert p.propagate(prev).cand[p.grid.cells([cell])[0]] >> digit & 1
    return p, [int(ch) for ch in row["solution"]], StepSolver().find_all(prev, tech)


def test_skyscraper_renban_crawfish():
    """Column 4 sees 2 from below; renban r6c2-r8c4 has r7c4,r8c4 in the column and
    r6c2,r6c3 in row 6. With r6c4 = 8 none of the renban's cells could be 8 (r6c2,r6c3
    share row 6 with it), so r7c4,r8c4 stay below 8 and the column would see r9c4, the 8
    and the 9: r6c4<>8, nothing else, true to the solution. The clue's and the renban's
    own propagation keep r6c4 = 8, and without this step a forcing net found it."""
    p, sol, steps = _steps_before_net(81, "skyscraper_renban", "r6c4", 8)
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


def test_renban_cage_exclusion_effluence():
    """Cage 11 r8c8,r8c9 (29 or 38) sees every cell of the 6-cell renban r8c4-r7c9 (row 8
    and box 9), so they share no digit. Every run of six (1-6 ... 4-9) holds 3 or 8: the
    cage is 29, and then only 3-8 misses 2 and 9. Without this step a forcing net took
    r8c8<>3 here; the rules' own propagation keeps it."""
    p, sol, steps = _steps_before_net(64, "renban_cage_exclusion", "r8c8", 3)
    assert len(steps) == 1
    got = {(p.grid.name(c), d) for c, d in steps[0].eliminations}
    line = ["r7c7", "r7c8", "r7c9", "r8c4", "r8c5", "r8c6"]
    want = ({(c, d) for c in line for d in (1, 2, 9)}
            | {(c, d) for c in ("r8c8", "r8c9") for d in (3, 8)})
    assert got == want, got
    assert all(sol[c] != d for c, d in steps[0].eliminations)
    text = steps[0].explain(2)
    assert "cage 11 at r8c8 (r8c8,r8c9: 29/38) sees all of renban r8c4" in text, text
    assert "38 meets every run" in text, text
