"""The set-logic probe of ``benchmarks/set_logic_probe.py`` (Barker's rank logic over cells,
house digits and weak-link cliques; scipy's HiGHS finds the certificates): an X-wing is a
rank-0 certificate of two bases, a rank-1 argument needs one cover more than it has bases,
and nothing it removes along an anti-knight solve is a solution digit. scipy is no
dependency of the library: without it these tests are skipped."""
from __future__ import annotations


import pytest

from csp import Puzzle
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver
from techniques.analysis import Analysis

from conftest import load_benchmark

pytest.importorskip("scipy.optimize")

slp = load_benchmark("set_logic_probe")


def _xwing_state():
    """Classic grid, digit 5 only in columns 2 and 7 of rows 1 and 5 (an X-wing)."""
    p = Puzzle(9).add_grid_houses()
    st = p.pencilmarks()
    for c in range(81):
        r, col = divmod(c, 9)
        if r in (0, 4) and col not in (1, 6):
            st.cand[c] &= ~(1 << 5)
    st.version += 1
    return p, st


def test_x_wing_is_a_rank_0_certificate() -> None:
    p, st = _xwing_state()
    an = Analysis(st)
    sets = slp.candidate_sets(an)
    cands = sets[0]
    target = cands.index((p.grid.cell("r3c2"), 5))
    found = slp.rank_certificate(sets, target, max_bases=4, digit=5)
    assert found is not None
    bases, covers, rank = found
    assert sorted(bases) == ["row 1#5", "row 5#5"] and rank == 0 and len(covers) == 2
    # a candidate outside the columns is not reached by a certificate of two bases
    other = cands.index((p.grid.cell("r3c3"), 5))
    assert slp.rank_certificate(sets, other, max_bases=2, digit=5) is None
    # the relaxation removes both columns' other 5s and keeps r3c3's
    asked = [cands.index((p.grid.cell(name), 5)) for name in ("r3c2", "r9c7", "r3c3")]
    lp = {cands[i] for i in slp.lp_eliminations(sets, asked)}
    assert (p.grid.cell("r3c2"), 5) in lp and (p.grid.cell("r9c7"), 5) in lp
    assert (p.grid.cell("r3c3"), 5) not in lp


@pytest.mark.slow
def test_rank_logic_sound_at_a_forcing_state() -> None:
    """Hanging Vines (an anti-knight coloring book) stuck without the forcing family: the
    single-digit rank logic up to 5 bases removes candidates (rank above 0 among them),
    none of them a solution digit (slow: a minute or more of CPU)."""
    rows = slp.setter_rows()
    row = next(r for r in rows if "Hanging Vines" in r["title"])
    p = load_fpuzzles(row["fpuzzles_json"])
    names = [t.name for t in StepSolver("default").techniques
             if t.name not in slp.FORCING_FAMILY]
    res = StepSolver(names).solve(p, time_limit=60)
    assert res.status == "stuck"
    found = slp.probe_state(Analysis(res.state), "digit", 5)
    assert found and any(rank > 0 for _, _, rank in found)
    for (cell, digit), _, _ in found:
        assert int(row["solution"][cell], 36) != digit, p.grid.name(cell)
