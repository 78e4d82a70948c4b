"""Classic puzzle sets: solution counts, multi-solution puzzles, and (slow) full sweeps."""
from __future__ import annotations

import pytest

from conftest import DATA
from csp import Grid, Puzzle
from csp.errors import ContradictoryGivens


def _lines(name: str) -> list[str]:
    with open(DATA / name) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def _puzzle(line: str) -> Puzzle:
    return Puzzle(Grid(9)).add_grid_houses().givens(line)


def _count(line: str, limit: int = 2) -> int:
    try:
        return _puzzle(line).count_solutions(limit=limit)
    except ContradictoryGivens:
        return 0


COUNTS = [ln.split(":") for ln in _lines("solution_counts_43.txt")]


def test_solution_counts_file_shape():
    assert len(COUNTS) == 43
    kinds = {min(int(c[1]), 2) for c in COUNTS}
    assert kinds == {0, 1, 2}


@pytest.mark.parametrize("case", COUNTS, ids=[f"{i}-{c[1]}" for i, c in enumerate(COUNTS)])
def test_solution_counts_43(case):
    line, expected = case[0], int(case[1])
    if expected >= 2:
        assert _count(line) == 2
        if expected <= 200:   # small counts are counted exactly
            assert _count(line, limit=expected + 1) == expected
        return
    assert _count(line) == expected
    if expected == 0:
        p = _puzzle(line)
        try:
            assert p.solve().status == "unsolvable"
        except ContradictoryGivens:
            pass
        return
    p = _puzzle(line)
    r = p.solve()
    assert r.status == "solved" and p.check_solution(r.solution)
    if len(case) > 2:
        assert "".join(map(str, r.solution)) == case[2]


MULTI = _lines("multi_solution_1000.txt")


def _check_multiple(lines: list[str]) -> None:
    bad = []
    for i, line in enumerate(lines):
        p = _puzzle(line)
        r = p.solve()
        if r.status != "multiple" or len(r.solutions) != 2 or r.solutions[0] == r.solutions[1] \
                or not all(p.check_solution(s) for s in r.solutions):
            bad.append((i, r.status))
    assert not bad, bad[:10]


def test_multi_solution_1000_all_multiple():
    assert len(MULTI) == 1000
    _check_multiple(MULTI)


def _sweep(name: str, step: int = 1) -> None:
    """Solve every ``step``-th puzzle of the 5,000 of ``name`` and check each solution."""
    lines = _lines(name)
    assert len(lines) == 5000
    bad = []
    for i, line in list(enumerate(lines))[step // 2::step]:
        p = _puzzle(line)
        r = p.solve()
        if r.status != "solved" or not p.check_solution(r.solution):
            bad.append((i, r.status))
    assert not bad, bad[:10]


@pytest.mark.slow
def test_all_17clue_5000_solve():
    _sweep("17clue_5000.txt")


@pytest.mark.slow
def test_forum_11plus_every_fifth_solves():
    """1,000 of the 5,000 (the whole set took 310 s on a loaded machine: ``pytest -m long``)."""
    _sweep("forum_11plus_5000.txt", step=5)


@pytest.mark.long
def test_all_forum_11plus_5000_solve():
    _sweep("forum_11plus_5000.txt")


def test_17clue_and_forum_samples_solve():
    """A fixed sample of each set in the default run (the full sets are slow-marked)."""
    for name in ("17clue_5000.txt", "forum_11plus_5000.txt"):
        for line in _lines(name)[::250]:
            p = _puzzle(line)
            r = p.solve()
            assert r.status == "solved" and p.check_solution(r.solution), line
