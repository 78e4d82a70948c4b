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
    col4 = [s for s in steps if s.houses[0] == "skyscraper 2 at r10c4"]
    assert len(col4) == 1
    got = {(p.grid.name(c), d) for c, d in col4[0].eliminations}
    assert got == {("r6c4", 8)}, got
    text = col4[0].explain(2)
    assert text.startswith("Skyscraper-Renban: skyscraper 2 at r10c4; renban r6c2"), text
    assert text.endswith("=> r6c4<>8"), text
    # every step found there is true to the solution
    assert all(sol[c] != d for s in steps for c, d in s.eliminations)


def test_skyscraper_renban_two_renbans_together():
    """Row 6 sees 3 from the left and four renbans cross it (1,512 choices of runs: more
    than the old cap of 400 for all of them together, and each renban alone allows
    everything). Renbans r6c2 (r6c2,r6c3 in the row) and r5c6 (r6c7,r6c8,r6c9) together
    do it: with r6c4 = 4 neither renban can hold a 4 (every cell of each sees r6c4), so
    both take runs from 5-8/6-9 and the row's five renban cells hold 5-9 (two runs of 5-9
    cannot share the row without repeating or breaking a run, and r6c2,r6c3 cannot be 9);
    with r6c1 = 2 the row cannot see exactly 3. The pair is the smallest group that
    removes something, so it is the step: r6c1<>2, r6c4<>4, true to the solution (a
    forcing net took r6c4<>4 here before)."""
    p, sol, steps = _steps_before_net(81, "skyscraper_renban", "r6c4", 4)
    row6 = [s for s in steps if s.houses[0] == "skyscraper 3 at r6c0"]
    assert len(row6) == 1
    got = {(p.grid.name(c), d) for c, d in row6[0].eliminations}
    assert got == {("r6c1", 2), ("r6c4", 4)}, got
    assert row6[0].houses[1:] == ("renban r6c2", "renban r5c6")
    assert all(sol[c] != d for c, d in row6[0].eliminations)
    # each renban alone allows r6c4 = 4: the pair is needed
    from techniques.analysis import analyze
    from variants.renban_logic import renban_runs
    from variants.outside_logic import _sky_renban_support, clue_tables
    prev = _before_forcing(p, "default,-skyscraper_renban")
    an = analyze(prev)
    cells, left, right, _, across = next(x for x in clue_tables(p).sky_renbans
                                         if x[3] == "skyscraper 3 at r6c0")
    r6c4 = cells.index(p.grid.cells(["r6c4"])[0])
    for one in across:
        runs = renban_runs([an.cand[c] or 1 << prev.placed[c] for c in one[0]], 9)
        assert _sky_renban_support(an, cells, left, right, [one], [runs])[r6c4] >> 4 & 1


@pytest.mark.slow
def test_skyscraper_renban_fewer_forcing_steps():
    """Crawfish is solved, correctly, with no forcing step (3 before the technique, 2 while
    it tried each renban alone or all of them within 400 choices of runs)."""
    row = _row(81)
    p = load_fpuzzles(row["fpuzzles_json"])
    r = StepSolver().solve(p, time_limit=30)
    assert r.status == "solved"
    assert "".join(str(r.state.placed[c]) for c in range(81)) == row["solution"]
    assert any(s.technique == "skyscraper_renban" for s in r.steps)
    assert sum(s.technique in FORCING for s in r.steps) == 0


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
