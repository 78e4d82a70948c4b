"""Logic solves of big grids (issue 14): a 16x16 and a 25x25 puzzle of the scaling sets
solved by techniques alone, every step checked against the stored solution (correctness
only: how long they take is measured by ``benchmarks/scaling.py``)."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from csp import Grid, Puzzle
from csp.io import parse_line
from techniques import StepSolver
from techniques.ladder import sized_options

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
    for s in r.steps:
        for c in s.placements:
            assert sol[c.cell] == c.digit, (s.technique, c)
        for c in s.eliminations:
            assert sol[c.cell] != c.digit, (s.technique, c)
    assert list(r.state.values()) == sol


def test_sized_options_change_only_big_grids() -> None:
    assert sized_options("aic", {"max_length": 20}, 9) == {"max_length": 20}
    assert sized_options("aic", {"max_length": 20}, 16)["max_length"] < 20
    assert sized_options("forcing_chain_verity", {}, 16)["max_n"] < 16
