"""Almost Locked Candidates (``almost_locked_candidates``, techniques/exclusion.py): a
digit set almost locked into a box-line intersection, read with the rules' forced digits.

On "It being a weekend..." (f-puzzles set #66; arrows, disjoint groups) the default solver
took its first two forcing nets where this step is what a human sees."""
from __future__ import annotations

import sys
from pathlib import Path

from csp import Puzzle
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver
from variants.classic import classic, classic_puzzle

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "variants"))
from test_setter_steps import FORCING, _before_forcing, _row  # noqa: E402

TECH = "almost_locked_candidates"


def _names(p, steps) -> set[str]:
    return {f"{p.grid.name(c)}<>{d}" for s in steps for c, d in s.eliminations}


def test_weekend_arrow_pair():
    """Box 9 keeps 8 and 9 to row 9 and r8c9: row 9 outside box 9 holds at most one of
    them. r9c2 = 8 would make r9c1 = 9 (arrow r9c1 = r8c1 + r9c2), both in row 9 outside
    box 9: r9c2<>8. The same in column 1 with box 1 (8 and 9 in column 1 and r1c2):
    r8c1 = 8 would make r9c1 = 9. Exactly these two, true to the solution; the rules'
    own propagation keeps both candidates, and without this step a forcing net took them.
    (The state is taken without ``band_arrangement`` too: its filling search, pruned by the
    rules' supports since, removes the same candidates on its own.)"""
    row = _row(66)
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch) for ch in row["solution"]]
    prev = _before_forcing(p, f"default,-{TECH},-band_arrangement")
    steps = StepSolver().find_all(prev, TECH)
    assert _names(p, steps) == {"r9c2<>8", "r8c1<>8"}
    assert all(sol[c] != d for s in steps for c, d in s.eliminations)
    kept = p.propagate(prev)
    assert 8 in kept.candidates("r9c2") and 8 in kept.candidates("r8c1")
    text = next(s for s in steps if s.houses == ("box 9", "row 9")).explain(2)
    assert text == ("Almost Locked Candidates: box 9 holds 89 only in row 9 and r8c9: row 9 "
                    "outside box 9 holds at most one of them; r9c2=8 would put 2 of them "
                    "there (r9c2=8, r9c1=9) => r9c2<>8"), text


def test_weekend_fewer_forcing_steps():
    """The solve takes the step where it took its first two forcing nets (9 forcing
    steps before, 7 with it), and every step is true to the solution."""
    row = _row(66)
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch) for ch in row["solution"]]
    # about 25 s of CPU; the wall-clock limit is generous, as a loaded 2-core machine has
    # run it past 60 s (the test is about the path, not the time)
    r = StepSolver("default", verify=sol).solve(p, time_limit=300)
    assert r.status == "solved"
    first = next(k for k, s in enumerate(r.steps) if s.technique in FORCING)
    assert any(s.technique == TECH for s in r.steps[:first])
    assert sum(s.technique in FORCING for s in r.steps) <= 7


def _sum_pair_state(free_8_9: tuple[str, ...]):
    """Row 9's r9c1 + r9c2 = 17 (8 and 9); box 9 keeps 8 and 9 to row 9 and the cells
    ``free_8_9``."""
    p = Puzzle(9).use(classic()).add_sum(["r9c1", "r9c2"], 17)
    st = p.initial_state()
    for name in ("r7c7", "r7c8", "r7c9", "r8c7", "r8c8", "r8c9"):
        if name not in free_8_9:
            st.cand[p.cell(name)] &= ~(1 << 8 | 1 << 9)
    return p, st


def test_room_for_both_no_step():
    """With two cells of box 9 off row 9 left for 8 and 9 (r8c8, r8c9), row 9 outside box 9
    may hold both: nothing goes. With one (r8c9), r9c1 and r9c2 lose 8 and 9."""
    p, st = _sum_pair_state(("r8c8", "r8c9"))
    assert StepSolver().find_all(st, TECH) == []
    p, st = _sum_pair_state(("r8c9",))
    assert _names(p, StepSolver().find_all(st, TECH)) == {
        "r9c1<>8", "r9c1<>9", "r9c2<>8", "r9c2<>9"}


def test_houses_only_returns_at_once():
    """A classic grid (no rule beyond the houses): not tried, even where the naked form
    would hold (that is the ALS techniques' business there)."""
    p = classic_puzzle("." * 81)
    st = p.initial_state()
    for name in ("r7c7", "r7c8", "r7c9", "r8c7", "r8c8"):
        st.cand[p.cell(name)] &= ~(1 << 8 | 1 << 9)
    st.cand[p.cell("r9c1")] = 1 << 8 | 1 << 9
    assert StepSolver().find_all(st, TECH) == []
