"""Grids of several sizes solve, each within seconds."""
from __future__ import annotations

import time

import pytest

from csp import Grid, Puzzle


def _blank(n: int) -> Puzzle:
    return Puzzle(Grid(n)).add_grid_houses()


def _holes(n: int, keep_every: int) -> list[int]:
    """Deterministic: keep the digit of cell c when (7 * c + c // n) % keep_every == 0."""
    return [c for c in range(n * n) if (7 * c + c // n) % keep_every == 0]


@pytest.mark.parametrize("n,shape,keep_every", [
    (4, (2, 2), 3), (6, (2, 3), 3), (8, (2, 4), 3), (12, (3, 4), 2), (16, (4, 4), 2)])
def test_size_solves(n, shape, keep_every):
    full = _blank(n)
    assert full.grid.box_shape == shape
    r = full.solve(first=True, time_limit=10)
    assert r.status == "solved"
    sol = r.solution
    assert full.check_solution(sol)
    givens = {c: sol[c] for c in _holes(n, keep_every)}
    assert 0 < len(givens) < n * n
    p = _blank(n).givens(givens)
    t0 = time.process_time()
    r2 = p.solve(time_limit=20)
    elapsed = time.process_time() - t0
    assert r2.status in ("solved", "multiple")
    for s in r2.solutions:
        assert p.check_solution(s)
        assert all(s[c] == d for c, d in givens.items())
    if r2.status == "multiple":
        assert r2.solutions[0] != r2.solutions[1]
    assert elapsed < 10
    # a wrong grid is rejected by check_solution (the check is not vacuous)
    bad = list(sol)
    bad[0], bad[1] = bad[1], bad[0]
    assert not full.check_solution(bad)


def test_size_unique_from_full_grid_minus_one_digit():
    """Removing every copy of one digit from a full 16x16 grid leaves a unique solution."""
    full = _blank(16)
    sol = full.solve(first=True).solution
    p = _blank(16).givens({c: d for c, d in enumerate(sol) if d != 7})
    r = p.solve(time_limit=20)
    assert r.status == "solved" and r.solution == sol


def test_near_empty_25x25():
    g = Grid(25)
    assert g.box_shape == (5, 5)
    p = _blank(25)
    # a few givens on the main diagonal of the first box
    p.givens({i * 25 + i: i + 1 for i in range(5)})
    t0 = time.process_time()
    r = p.solve(first=True, time_limit=20)
    assert time.process_time() - t0 < 20
    assert r.status == "solved"
    assert p.check_solution(r.solution)
    assert all(r.solution[i * 25 + i] == i + 1 for i in range(5))


def test_prime_size_latin_square():
    """A 5x5 grid has no box shape: only rows and columns (a Latin square)."""
    p = _blank(5)
    assert p.grid.box_shape is None
    r = p.solve(first=True)
    assert r.status == "solved" and p.check_solution(r.solution)
    assert p.count_solutions(limit=100) == 100
