"""Logic solves of big grids (issue 14): a 16x16 and a 25x25 puzzle of the scaling sets
solved by techniques alone, every step checked against the stored solution (correctness
only: how long they take is measured by ``benchmarks/scaling.py``)."""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from csp import Grid, Puzzle
from csp.io import parse_line
from techniques import StepSolver, apply_step, registry
from techniques.analysis import Analysis
from techniques.ladder import sized_options

from conftest import load_solutions

DATA = Path(__file__).resolve().parents[1] / "data"


def _row(name: str, i: int) -> tuple[Puzzle, list[int]]:
    rows = (DATA / f"sizes_{name}.solutions.csv").read_text().split()
    puzzle, solution = rows[i].split(",")[:2]
    n = math.isqrt(len(puzzle))
    return Puzzle(Grid(n)).add_grid_houses().givens(puzzle), list(parse_line(solution)[1])


@pytest.mark.parametrize("name,i", [("16", 0), ("25", 0)])
def test_big_logic_solve_is_sound(name: str, i: int) -> None:
    p, sol = _row(name, i)
    r = StepSolver().solve(p, time_limit=120)
    assert r.status == "solved"
    _sound(r.steps, sol)
    assert list(r.state.values()) == sol


def test_sized_options_change_only_big_grids() -> None:
    assert sized_options("aic", {"max_length": 20}, 9) == {"max_length": 20}
    assert sized_options("aic", {"max_length": 20}, 16)["max_length"] < 20
    assert sized_options("forcing_chain_verity", {}, 16)["max_n"] < 16


def _sound(steps, sol: list[int]) -> None:
    for s in steps:
        for c in s.placements:
            assert sol[c.cell] == c.digit, (s.technique, c)
        for c in s.eliminations:
            assert sol[c.cell] != c.digit, (s.technique, c)


def test_net_intersections_find_more_and_stay_sound() -> None:
    """Locked candidates inside forcing nets (option ``intersections``, on from 25x25 by
    SIZED): on a 25x25 after singles and intersections, every net contradiction found without
    them is found with them, some more are, and all of them are true."""
    p, sol = _row("25", 2)
    st = StepSolver(["singles", "intersections"]).solve(p).state
    found = {}
    for inter in (False, True):
        steps = StepSolver(options={"intersections": inter}).find_all(
            st, "forcing_net_contradiction")
        _sound(steps, sol)
        found[inter] = {(c.cell, c.digit, bool(s.placements)) for s in steps
                        for c in s.eliminations + s.placements}
    assert found[False] < found[True]
    assert sized_options("forcing_net_contradiction", {"intersections": False}, 25)[
        "intersections"] is True
    assert sized_options("forcing_net_contradiction", {"intersections": False}, 9)[
        "intersections"] is False


def test_nested_net_bivalue_inner_is_sound() -> None:
    """The 25x25 form of the nested net (inner assumptions on bivalue cells only, locked
    candidates in the propagation) on a classic that needs depth-2 trial and error."""
    line, sol = load_solutions("forum_hardest_110626", 1)[0]
    p = Puzzle(Grid(9)).add_grid_houses().givens(line)
    st = p.pencilmarks()
    solver = StepSolver(["singles", "forcing_net_contradiction", "forcing_net_verity"])
    while (s := solver.next_step(st)) is not None:
        apply_step(st, s)
    opts = {"inner_max": 2, "intersections": True}
    steps = list(itertools.islice(registry.get("forcing_net_nested").find(Analysis(st), opts), 2))
    assert steps
    _sound(steps, sol)
    assert all(s.extra["depth"] == 2 for s in steps)


def test_kept_net_assumptions_with_intersections_are_quiet(monkeypatch) -> None:
    """The nets with locked candidates (25x25) skip assumptions whose kept propagation is
    still a quiet fixpoint: every one skipped on the way really is quiet (a fresh
    propagation finds no contradiction). Without the locked-candidate part of the check,
    26 of the skipped ones would break by the 120th step of this solve."""
    from techniques import forcing as F
    real = F._Kept.still_quiet
    skipped = 0

    def audited(self, st, f, inter=False):
        nonlocal skipped
        assert inter
        ok = real(self, st, f, inter)
        if ok:
            skipped += 1
            assert F._assume(st, f, True, True).contra is None, F.fact_text(f, st.namer)
        return ok

    monkeypatch.setattr(F._Kept, "still_quiet", audited)
    p, sol = _row("25", 2)
    r = StepSolver(["singles", "intersections", "forcing_net_contradiction"],
                   options={"intersections": True}, verify=sol).solve(p, max_steps=120)
    assert len(r.steps) == 120 and skipped > 10_000
