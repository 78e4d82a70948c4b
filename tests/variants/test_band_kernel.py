"""The arrangement searches' compiled kernel (variants/_band_kernel.c) against the Python
search of variants/arrangement_logic.py (``_Filler.supports``): on the bands of setter
puzzles whose rules of three cells or more are linear sums (arrows, double arrows,
region-sum and zipper lines), at states along their solve paths, the same supports, the
same fillings found and the same node count, with the technique's budgets and with budgets
small enough to run out (per candidate, per band, and with no band total, where running out
raises TimeoutError); a deadline that has passed stops both; and the same steps with the
kernel on and off."""
from __future__ import annotations

import pytest
from conftest import fpuzzle, path_states

from csp import kernel
from csp.budget import Budget
from techniques.analysis import Analysis
from variants import arrangement_logic as A

KERNEL = kernel.active(A._band_kernel)
pytestmark = pytest.mark.skipif(KERNEL is None, reason="variants._band_kernel is not built "
                                "(or SUDOKU_CSP_PURE=1)")

#: setter puzzles with bands whose long rules are all linear sums
TITLES = ("Modular Nabner DA Coverage", "It being a weekend...", "November 13, 2023: Arrow",
          "Jan. 6, 2024: Region Sum Lines", "Exclusive Singularity")


def _fillers(an: Analysis, budget: int, dead: bool = False):
    """A maker of a fresh :class:`A._Filler` per band of ``an`` (as ``_fill_regions``
    builds them; with ``dead``, the bands without rules get a table of failed states, the
    maker's argument), and with ``dead`` also per house and pair of houses (as
    ``_arrangement`` builds them: no analysis, no rules, failed states)."""
    t = A.arrangement_tables(an.puzzle)
    for houses, _, rules in t.bands:
        if not rules and not dead:
            continue
        inside = t.cells(houses)
        cells = [c for c in A.iter_cells(inside) if an.cand[c]]
        if len(cells) < 2:
            continue
        index = {c: i for i, c in enumerate(cells)}
        groups = [sum(1 << index[c] for c in A.iter_cells(an.house_mask[h] & inside)
                      if c in index) for h in houses]
        doms = [an.cand[c] for c in cells]
        required = A._required(an, houses, inside)

        def make(table=None, cells=cells, doms=doms, groups=groups, required=required,
                 houses=houses, rules=rules):
            return A._Filler(cells, doms, t.removes(houses), groups, budget, rules,
                             an.state.placed, an, required, t.forbid_table(houses, cells),
                             None if rules else table)
        yield make
    if not dead:
        return
    for region in [*t.houses, *t.unions]:
        inside = t.cells(region)
        cells = [c for c in A.iter_cells(inside) if an.cand[c]]
        if len(cells) < 2:
            continue
        index = {c: i for i, c in enumerate(cells)}
        groups = [sum(1 << index[c] for c in A.iter_cells(an.house_mask[h]) if c in index)
                  for h in ((region,) if isinstance(region, int) else region)]

        def make(table=None, cells=cells, groups=groups, region=region):
            return A._Filler(cells, [an.cand[c] for c in cells], t.removes(region), groups,
                             budget, forbid=t.forbid_table(region, cells), dead=table)
        yield make


def _run(filler, total, seed, pure, monkeypatch, guide=None):
    filler.guide = guide
    with monkeypatch.context() as m:
        m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
        try:
            got = filler.supports(total, seed)
        except TimeoutError:
            got = "timeout"
        except A._Expired:
            got = "expired"
    return got, filler.found, filler.nodes


@pytest.mark.parametrize("titles", [
    TITLES[2:],
    # the two longest (about 16 s of the 19 s): the slow sweep
    pytest.param(TITLES[:2], marks=pytest.mark.slow)], ids=["sample", "rest"])
def test_kernel_matches_python_search(monkeypatch, titles):
    searched = timeouts = 0
    for title in titles:
        for state in path_states([fpuzzle(title)[0]], 90, 15):
            an = Analysis(state)
            for budget, total in ((2000, A.BAND_TOTAL), (40, 300), (25, None), (400, None)):
                for make in _fillers(an, budget):
                    probe = make()
                    if probe._kernel_spec() is None:
                        continue
                    seed = None if total is None else [d & -d for d in probe.doms]
                    want = _run(make(), total, seed, True, monkeypatch)
                    got = _run(make(), total, seed, False, monkeypatch)
                    assert got == want, (title, budget, total)
                    searched += 1
                    timeouts += want[0] == "timeout"
    assert searched > 100 and timeouts > 5


#: setter puzzles with house, house-pair and band searches joined by two-cell rules only
PLAIN = ("Anti-XV Coverage", "Modular Nabner DA Coverage", "Anti-Ratio Coverage")


@pytest.mark.parametrize("titles", [
    PLAIN[2:],
    # the other two (about 19 s of 26 s, each enough alone): the slow sweep
    pytest.param(PLAIN[:2], marks=pytest.mark.slow)], ids=["sample", "rest"])
def test_kernel_matches_python_search_with_failed_states_and_guide(monkeypatch, titles):
    """Searches without long rules: the failed states' table (given with earlier states
    in it, and the states each adds) and the guide (the first run's last filling) give
    the same supports, fillings, node counts and tables."""
    searched = guided = replayed = 0
    for title in titles:
        for state in path_states([fpuzzle(title)[0]], 60, 30):
            an = Analysis(state)
            for budget, total in ((2000, A.BAND_TOTAL), (30, 200), (60, None)):
                for make in _fillers(an, budget, dead=True):
                    if make()._kernel_spec() is None:
                        continue
                    table: dict = {}
                    guide = None
                    for _ in range(2):      # the second run: the first's states and filling
                        t_py, t_c = dict(table), dict(table)
                        f_py, f_c = make(t_py), make(t_c)
                        want = _run(f_py, total, None, True, monkeypatch, guide)
                        got = _run(f_c, total, None, False, monkeypatch, guide)
                        assert got == want, (title, budget, total)
                        assert t_c == t_py
                        replayed += len(table) > 0
                        searched += 1
                        guided += guide is not None
                        table = t_py
                        guide = f_py.found[-1] if f_py.found else guide
    assert searched > 100 and guided > 20 and replayed > 20


def test_passed_deadline_stops_both(monkeypatch):
    p = fpuzzle("Modular Nabner DA Coverage")[0]
    an = Analysis(p.pencilmarks(), budget=Budget(0))
    makers = list(_fillers(an, 2000))
    assert makers
    for make in makers:
        assert _run(make(), A.BAND_TOTAL, None, True, monkeypatch)[0] == "expired"
        assert _run(make(), A.BAND_TOTAL, None, False, monkeypatch)[0] == "expired"


def test_same_steps_with_and_without_kernel(monkeypatch):
    """The first 50 steps of "Modular Nabner DA Coverage" (band arrangements with double
    arrows at steps 20 and 23) are the same both ways."""
    from techniques import StepSolver

    def path(pure: str):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        r = StepSolver("default").solve(fpuzzle("Modular Nabner DA Coverage")[0],
                                          max_steps=50)
        return [(s.technique, s.placements, s.eliminations) for s in r.steps]

    steps = path("0")
    assert any(s[0] == "band_arrangement" for s in steps)
    assert steps == path("1")
