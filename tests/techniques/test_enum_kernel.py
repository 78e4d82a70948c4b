"""The ALS kernel's enumeration parts (``techniques._als_kernel``: ``als_table``, a state's
ALS, ``house_als``, the ALS of one house, and ``sdc_pair``, the Sue de Coq patterns of one
pair of houses) against the Python code they stand in for (:func:`techniques.als._als_table`,
:func:`techniques.als._house_als`, :func:`techniques.sue_de_coq._sdc_pair`, the reference with ``SUDOKU_CSP_PURE=1``): the same
results in the same order on states of hard solve paths, random pencil marks on classic
and other grids, with several option settings; and whole solve paths both ways. They skip
when the module is not built.
"""
from __future__ import annotations

import pytest

from csp.kernel import active
from techniques import als, sue_de_coq
from techniques.analysis import Analysis
from techniques.loop import apply_step
from techniques.solver import StepSolver
from variants.classic import classic_puzzle

from conftest import DATA, both_kernel_paths, path_states, random_states, sample_lines

pytestmark = pytest.mark.skipif(active(als._als_kernel) is None,
                                reason="techniques._als_kernel is not built (no C compiler "
                                       "at install, or SUDOKU_CSP_PURE=1)")


def _both(monkeypatch, fn):
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    want = fn()
    monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    return want, fn()


def _compare(monkeypatch, st) -> tuple[int, int]:
    """Every house's ALS (several size limits) and every pair's Sue de Coq steps (several
    option settings) both ways on one state. Returns (ALS, Sue de Coq steps) found."""
    n_als = n_sdc = 0
    an = Analysis(st.copy())
    for h in range(len(an.house_mask)):
        for max_size in (0, 2, 4):
            want, got = _both(monkeypatch, lambda: als._house_als(an, h, max_size))
            assert got == want, (h, max_size)
            n_als += len(want)
    for max_size in (0, 3):
        def table():
            return [(a.cells, a.mask, a.pos, a.house, a.in_full)
                    for a in als._als_table(Analysis(st.copy()), max_size)]
        want, got = _both(monkeypatch, table)
        assert got == want, max_size
    for h1, h2, inter, r1, r2, _ in sue_de_coq._sdc_pairs(an):
        inter &= an.unsolved
        for max_cells, max_inter in ((4, 3), (2, 2), (6, 4)):
            def run():
                return [(key, s.eliminations, s.pattern, s.note, s.houses, s.digits)
                        for key, s in sue_de_coq._sdc_pair(
                            an, h1, h2, inter, r1 & an.unsolved, r2 & an.unsolved,
                            max_cells, max_inter)]
            want, got = _both(monkeypatch, run)
            assert got == want, (h1, h2, max_cells, max_inter)
            n_sdc += len(want)
    return n_als, n_sdc


def test_kernel_equals_python_on_hard_solve_paths(monkeypatch):
    lines = sample_lines("tdoku_magictour_top1465", 3) + sample_lines("forum_hardest_110626", 1)
    n_als = n_sdc = states = 0
    for st in path_states(lines, 60, 10):
        a, s = _compare(monkeypatch, st)
        n_als, n_sdc, states = n_als + a, n_sdc + s, states + 1
    assert states >= 10 and n_als > 1000


def test_kernel_equals_python_on_random_marks(monkeypatch):
    """Random pencil marks (many small patterns) on classic, a diagonal sudoku, a jigsaw, a
    10x10 and 6x6 solve paths."""
    from csp import Puzzle
    from variants.classic import classic
    from variants.regions import diagonal, jigsaw_grid
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0
    puzzles = [Puzzle(9).use(classic()), Puzzle(9).use(classic(), diagonal()),
               Puzzle(jigsaw_grid(reg)).use(classic()), Puzzle(10).use(classic())]
    n_als = n_sdc = 0
    for seed, puzzle in enumerate(puzzles):
        for st in random_states(puzzle, 3, seed, 2, 6):
            a, s = _compare(monkeypatch, st)
            n_als, n_sdc = n_als + a, n_sdc + s
    rows6 = (DATA / "sizes_6.solutions.csv").read_text().split()[:2]
    walker = StepSolver("default", unique=True)
    for row in rows6:
        st = classic_puzzle(row.split(",")[0]).pencilmarks()
        for _ in range(6):
            a, s = _compare(monkeypatch, st)
            n_als, n_sdc = n_als + a, n_sdc + s
            step = walker.next_step(st)
            if step is None:
                break
            apply_step(st, step)
    assert n_als > 1000 and n_sdc > 20


def test_kernel_checks_its_arguments():
    kernel = active(als._als_kernel)
    assert kernel.house_als([], [], 0) == []
    assert kernel.als_table(4, [15], [True], 15, [6, 6, 6, 0], 0) == [   # bivalue cells
        (1 << c, 6, {1: 1 << c, 2: 1 << c}, 0, True) for c in range(3)]
    assert kernel.als_table(4, [15], [True], 15, [6, 6, 0, 0], 0) == [
        (1, 6, {1: 1, 2: 1}, 0, True), (2, 6, {1: 2, 2: 2}, 0, True)]
    assert kernel.als_table(20, [(1 << 17) - 1], [True], (1 << 17) - 1, [6] * 20, 0) is None
    for args, exc in [((4, [15, 3], [True], 15, [6] * 4, 0), ValueError),
                      ((4, [1 << 5], [True], 15, [6] * 4, 0), ValueError),
                      ((4, [15], [True], -1, [6] * 4, 0), ValueError),
                      ((4, [15], [True], 15, [6] * 3, 0), ValueError),
                      ((4, ["x"], [True], 15, [6] * 4, 0), TypeError)]:
        with pytest.raises(exc):
            kernel.als_table(*args)
    assert kernel.house_als(list(range(17)), [6] * 17, 3) is None     # too large: Python
    assert kernel.sdc_pair([0, 1], [6, 10], list(range(40)), [6] * 40, [], [], 4, 3) is None
    for args, exc in [(([0, 1], [6], 2), ValueError), (([200], [6], 1), ValueError),
                      ((["x"], [6], 1), TypeError), (([0], [-2], 1), ValueError),
                      (((0,), [6], 1), TypeError)]:
        with pytest.raises(exc):
            kernel.house_als(*args)
    with pytest.raises(ValueError):
        kernel.sdc_pair([0, 1], [6], [2], [6], [3], [6], 4, 3)
    with pytest.raises(TypeError):
        kernel.sdc_pair([0, 1], [6, 6], [2], [6], [3], [6], "4", 3)


def test_same_step_paths_with_and_without_the_kernel(monkeypatch):
    """Top1465 puzzles whose solve reaches Sue de Coq (and so the ALS techniques before
    it): the same step paths both ways."""
    compared, reached = both_kernel_paths(monkeypatch, sue_de_coq, "_kernel",
                                          sample_lines("tdoku_magictour_top1465", 40, seed=7),
                                          want=8)
    assert compared == reached == 8


@pytest.mark.slow
@pytest.mark.parametrize("part", range(2))
def test_same_step_paths_with_and_without_the_kernel_many(monkeypatch, part):
    lines = sample_lines("tdoku_magictour_top1465", 100, seed=291)[part * 50:(part + 1) * 50]
    compared, reached = both_kernel_paths(monkeypatch, sue_de_coq, "_kernel", lines,
                                          want=10 ** 9)
    assert compared == reached >= 10
