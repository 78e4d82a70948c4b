"""The compiled ALS kernel (``techniques._als_kernel``) against the Python ALS searches.

:func:`techniques.als.als_xz`, :func:`~techniques.als.als_xy_wing` and
:func:`~techniques.als.als_chain` run on the kernel's per-state context (the ALS, the RCC
table built in C, every ALS digit's buddies) when it is built (csp/kernel.py), and in
Python otherwise (``SUDOKU_CSP_PURE=1``: the reference). These tests call both on the same
states and compare the RCC table and every step (eliminations, pattern, note, order) with
each option setting (overlap, ALS size, chain length, node budget, no dedupe), on classic
solve paths and on other grids; and whole solve paths of the default ladder both ways.
They skip when the module is not built.
"""
from __future__ import annotations

import pytest

from csp.kernel import active
from techniques import als
from techniques.analysis import Analysis
from techniques.registry import load

from conftest import DATA, both_kernel_paths, path_states, random_states, sample_lines

pytestmark = pytest.mark.skipif(active(als._als_kernel) is None,
                                reason="techniques._als_kernel is not built (no C compiler "
                                       "at install, or SUDOKU_CSP_PURE=1)")

#: (technique, option overrides): the default ladder's settings first, then the others
SETTINGS = [
    ("als_xz", {}), ("als_xz", {"allow_overlap": True}), ("als_xz", {"max_size": 3}),
    ("als_xz", {"dedupe": False}),
    ("als_xy_wing", {}), ("als_xy_wing", {"allow_overlap": True}),
    ("als_xy_wing", {"dedupe": False, "max_size": 4}),
    ("als_chain", {}), ("als_chain", {"allow_overlap": True}),
    ("als_chain", {"dedupe": False}), ("als_chain", {"min_als": 2, "max_als": 5}),
    ("als_chain", {"max_nodes": 37}), ("als_chain", {"max_nodes": 1500, "max_als": 9}),
    ("als_chain", {"max_size": 2, "min_als": 3}),
]


def _run(monkeypatch, st, name: str, opts: dict, pure: bool) -> list[tuple]:
    if pure:
        monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    else:
        monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    an = Analysis(st.copy())
    return [(s.technique, s.eliminations, s.pattern, s.note, s.digits)
            for s in load()[name].finder(an, opts)]


def _compare(monkeypatch, st, settings=SETTINGS) -> int:
    """Every setting on one state, both implementations; also the RCC tables. Returns the
    steps found."""
    steps = 0
    for name, opts in settings:
        want = _run(monkeypatch, st, name, opts, pure=True)
        got = _run(monkeypatch, st, name, opts, pure=False)
        assert got == want, (name, opts)
        steps += len(want)
    monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    kernel = active(als._als_kernel)
    for allow in (False, True):
        for max_size in (0, 3):
            an = Analysis(st.copy())
            table = als._find_rccs(an, allow, max_size)
            want = [sorted(table[a.index].items()) for a in als.find_als(an, max_size)]
            ctx = als._kernel_ctx(Analysis(st.copy()), allow, max_size)
            assert ctx is not None
            assert kernel.rccs(ctx) == want, (allow, max_size)
    return steps


@pytest.mark.slow
@pytest.mark.heavy
def test_kernel_equals_python_on_hard_solve_paths(monkeypatch):
    """ALS-XZ, ALS-XY-Wing and ALS Chain with every setting, and the RCC table, on states
    of hard solve paths (top1465 and forum-hardest puzzles): the same steps in the same
    order, the same notes and patterns. (The slow sweep: in the default run, hard solve
    paths reach the kernel in ``test_same_step_paths_with_and_without_the_kernel``.)"""
    puzzles = sample_lines("tdoku_magictour_top1465", 3) + sample_lines("forum_hardest_110626", 1)
    steps = states = 0
    for st in path_states(puzzles, 80, 10):
        steps += _compare(monkeypatch, st)
        states += 1
    assert states >= 12 and steps > 500


@pytest.mark.slow
def test_kernel_equals_python_on_many_states(monkeypatch):
    puzzles = (sample_lines("tdoku_magictour_top1465", 8, seed=2)
               + sample_lines("forum_hardest_110626", 4, seed=2)
               + sample_lines("norvig_top95", 4, seed=2))
    steps = states = 0
    for st in path_states(puzzles, 200, 5):
        steps += _compare(monkeypatch, st)
        states += 1
    assert states >= 80 and steps > 5000


@pytest.mark.parametrize("sixes", [
    slice(0, 1),
    # two more 6x6 solve paths (about 11 s of the 16): the slow sweep
    pytest.param(slice(1, 3), marks=pytest.mark.slow)], ids=["sample", "rest"])
def test_kernel_equals_python_on_other_grids(monkeypatch, sixes):
    """6x6 classic along solve paths; random pencil marks on a diagonal sudoku (the
    diagonals as houses), an anti-knight sudoku (variant peers), a jigsaw and a 10x10."""
    from csp import Puzzle
    from variants.chess import anti_knight
    from variants.classic import classic
    from variants.regions import diagonal, jigsaw_grid
    steps = states = 0
    rows6 = (DATA / "sizes_6.solutions.csv").read_text().split()[:3][sixes]
    for st in path_states([r.split(",")[0] for r in rows6], 30, 6):
        steps += _compare(monkeypatch, st)
        states += 1
    if sixes.start:
        assert states >= 10 and steps > 200
        return
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0                   # boxes 1 and 2 trade r1c3 and r1c4
    puzzles = [Puzzle(9).use(classic(), diagonal()), Puzzle(jigsaw_grid(reg)).use(classic()),
               Puzzle(10).use(classic()), Puzzle(9).use(classic(), anti_knight())]
    # (random marks make thousands of small ALS and thousands of steps: fewer settings)
    settings = [("als_xz", {}), ("als_xz", {"allow_overlap": True, "max_size": 3}),
                ("als_xy_wing", {"max_size": 2}), ("als_chain", {}),
                ("als_chain", {"allow_overlap": True, "max_nodes": 2000, "dedupe": False})]
    for seed, puzzle in enumerate(puzzles):
        for st in random_states(puzzle, 1, seed, 3, 5):
            steps += _compare(monkeypatch, st, settings)
            states += 1
    assert states >= 8 and steps > 200          # (one 6x6 path and the four grids)


def test_kernel_checks_its_arguments():
    kernel = active(als._als_kernel)
    peers = [[]] + [[0] * 4 for _ in range(3)]
    ok = (4, 3, False, [3], [6], [6, 6, 8, 8], peers, [0, 3, 15, 12])
    ctx = kernel.prepare(*ok)
    assert kernel.rccs(ctx) == [[]]
    assert kernel.prepare(200, 3, *ok[2:]) is None          # more than 128 cells: Python
    bad = [
        (ok[:3] + ([-1],) + ok[4:], ValueError),            # a negative cell mask
        (ok[:3] + ([1 << 130],) + ok[4:], OverflowError),   # beyond 128 bits
        (ok[:3] + ([16],) + ok[4:], ValueError),            # a cell outside the grid
        (ok[:3] + ([0],) + ok[4:], ValueError),             # an empty ALS
        (ok[:3] + ([3, 5],) + ok[4:], ValueError),          # cells and masks differ
        (ok[:3] + (["x"],) + ok[4:], TypeError),            # no int
        (ok[:4] + ([1 << 9],) + ok[5:], ValueError),        # a digit above n
        (ok[:5] + ([6, 6, 8],) + ok[6:], ValueError),       # candidates of 3 cells, not 4
        (ok[:6] + ([[]] + [[0] * 3] * 3,) + ok[7:], ValueError),   # peer rows too short
        (ok[:7] + ([0, 3],), ValueError),                   # cells_with too short
    ]
    for args, exc in bad:
        with pytest.raises(exc):
            kernel.prepare(*args)
    with pytest.raises(TypeError):
        kernel.prepare(1, 2)
    for call in (lambda: kernel.chain(None, 0, 10, 4, 7), lambda: kernel.xz("ctx", 0, 1),
                 lambda: kernel.xy_wing(5, 0, False, 1), lambda: kernel.rccs(object())):
        with pytest.raises((TypeError, ValueError)):
            call()
    with pytest.raises(ValueError):
        kernel.chain(ctx, 0, 10, 4, 61)                     # max_als above 60


# -- whole solve paths with and without the kernel ---------------------------------------

def test_same_step_paths_with_and_without_the_kernel(monkeypatch):
    """The first 6 puzzles of a top1465 sample whose solve reaches the ALS techniques:
    the same step paths with and without the kernel (200 in the slow sweep below)."""
    compared, reached = both_kernel_paths(monkeypatch, als, "_kernel_ctx",
                                          sample_lines("tdoku_magictour_top1465", 100, seed=29),
                                          want=6)
    assert compared == reached == 6


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_same_step_paths_with_and_without_the_kernel_many(monkeypatch, part):
    """200 top1465 puzzles (in four parts of 50, which ``-n`` shares out): the same step
    paths both ways on every one that reaches the ALS techniques."""
    lines = sample_lines("tdoku_magictour_top1465", 200, seed=290)[part * 50:(part + 1) * 50]
    compared, reached = both_kernel_paths(monkeypatch, als, "_kernel_ctx", lines, want=10 ** 9)
    assert compared == reached >= 10
