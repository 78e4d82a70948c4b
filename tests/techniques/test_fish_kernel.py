"""The compiled fish kernel (``techniques._fish_kernel``) against the Python fish search.

:func:`techniques.fish.search` and :func:`techniques.fish.search_partition` run in C when the
kernel is built (csp/kernel.py) and in Python otherwise (``search_python`` and
``search_partition_python``, the reference). These tests call both on the same
states and compare everything: the fish, their order, fins and eliminations, what the run
memo keeps (barren base sets), the stop on the deadline; and whole solve paths of the
default ladder with the kernel and with ``SUDOKU_CSP_PURE=1``. They skip when the module is
not built.
"""
from __future__ import annotations

import pytest

from csp.budget import Budget
from csp.kernel import active
from techniques import fish
from techniques.analysis import Analysis
from techniques.loop import apply_step
from techniques.solver import StepSolver
from variants.classic import classic_puzzle

from conftest import DATA, both_kernel_paths, random_states, sample_lines

pytestmark = pytest.mark.skipif(active(fish._fish_kernel) is None,
                                reason="techniques._fish_kernel is not built (no C compiler "
                                       "at install, or SUDOKU_CSP_PURE=1)")

#: (pool kind, sizes, (max_fins, max_endo, need_elims, fin_prune) settings): the default
#: ladder's Franken fish (unfinned: 0 fins; finned: 5 and 2 endo), other fin limits, Mutant
#: fish, and the basic pools through the general search as Kraken fish use it
SETTINGS = [
    ("franken", (2, 3), ((0, 0, True, True), (5, 2, True, True), (1, 0, True, True),
                         (3, 1, True, True))),
    ("mutant", (2,), ((0, 0, True, True), (5, 2, True, True))),
    ("basic", (1, 2, 3, 4), ((0, 0, True, True), (5, 0, True, True), (2, 0, True, False),
                             (2, 0, False, False))),
]


def _kernel():
    return active(fish._fish_kernel)


def _paths(puzzles: list, steps: int, every: int):
    """Pairs of analyses (one per implementation, each with its own run memo kept from
    state to state as in a solve) of states along the default solve paths (puzzles: lines
    of classic puzzles, or Puzzles)."""
    walker = StepSolver("default", unique=True)
    for line in puzzles:
        p = classic_puzzle(line) if isinstance(line, str) else line
        st_py = p.pencilmarks()
        st_c = st_py.copy()
        an_py = an_c = None
        for k in range(steps):
            an_py, an_c = Analysis(st_py, an_py), Analysis(st_c, an_c)
            if k % every == 0:
                yield an_py, an_c
            step = walker.next_step(st_py)
            if step is None:
                break
            apply_step(st_py, step)
            apply_step(st_c, step)


def _other_capsule():
    """A capsule that is no barren table (the datetime module's C API)."""
    import datetime
    return datetime.datetime_CAPI


def _barren(an: Analysis) -> dict:
    """The run memo's barren base sets, as (P, set of keys) under the key without its last
    item (which says whose table it is: the kernel keeps its own, read by barren_keys)."""
    kernel = _kernel()
    return {k[:-1]: (v[0], kernel.barren_keys(v[1]) if k[-1] else set(v[1]))
            for k, v in an.run_memo.items() if k[0] == "fish_barren"}


def _compare(an_py: Analysis, an_c: Analysis, settings=SETTINGS) -> int:
    kernel = _kernel()
    fishes = 0
    digits = range(1, an_py.n + 1)
    for kind, sizes, opts in settings:
        for bp, cp in fish._pools(an_py, kind):
            for d in digits:
                for n in sizes:
                    for max_fins, max_endo, need_elims, fin_prune in opts:
                        args = (d, n, bp, cp, max_fins, max_endo, need_elims, fin_prune)
                        want = fish.search_python(an_py, *args)
                        got = fish.search_compiled(kernel, an_c, *args)
                        assert got == want, (kind, args)
                        fishes += len(want)
    assert _barren(an_c) == _barren(an_py)
    # basic fish on the default path: search_partition (rows against columns and back)
    for bp, cp in fish._pools(an_py, "basic"):
        cover_of = fish._cover_index(an_py, cp)
        if cover_of is None:
            continue
        for d in digits:
            for n in (1, 2, 3, 4):
                for max_fins in (0, 2, 5):
                    args = (d, n, bp, cp, cover_of, max_fins)
                    want = fish.search_partition_python(an_py, *args)
                    assert fish.search_partition_compiled(kernel, an_c, *args) == want, args
                    fishes += len(want)
    return fishes


def test_kernel_search_equals_python_search():
    """Every fish kind, size and fin setting on states of hard solve paths (top1465 and
    forum-hardest puzzles), with the run memo carried from state to state: the same fish
    in the same order, with the same fins and eliminations, and the same barren base sets
    kept."""
    puzzles = sample_lines("tdoku_magictour_top1465", 3) + sample_lines("forum_hardest_110626", 1)
    fishes = states = 0
    for an_py, an_c in _paths(puzzles, 80, 12):
        fishes += _compare(an_py, an_c)
        states += 1
    assert states >= 12 and fishes > 1000


@pytest.mark.slow
def test_kernel_search_equals_python_search_many():
    puzzles = (sample_lines("tdoku_magictour_top1465", 8, seed=2)
               + sample_lines("forum_hardest_110626", 4, seed=2)
               + sample_lines("norvig_top95", 4, seed=2))
    fishes = states = 0
    for an_py, an_c in _paths(puzzles, 200, 6):
        fishes += _compare(an_py, an_c)
        states += 1
    assert states >= 80 and fishes > 10000


def test_kernel_search_equals_python_search_on_other_grids():
    """6x6 classic (rectangular boxes) along solve paths; random pencil marks on a diagonal
    sudoku (Mutant pools with the diagonals), a jigsaw (regions as boxes) and a 10x10."""
    from csp import Puzzle
    from variants.classic import classic
    from variants.regions import diagonal, jigsaw_grid
    fishes = states = 0
    rows6 = (DATA / "sizes_6.solutions.csv").read_text().split()[:4]
    for an_py, an_c in _paths([r.split(",")[0] for r in rows6], 30, 6):
        fishes += _compare(an_py, an_c)
        states += 1
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0                   # boxes 1 and 2 trade r1c3 and r1c4
    settings = [("franken", (2, 3), ((0, 0, True, True), (5, 2, True, True))),
                ("mutant", (2,), ((5, 2, True, True),)),
                ("basic", (2, 3), ((5, 0, True, True), (2, 0, False, False)))]
    for seed, puzzle in enumerate([Puzzle(9).use(classic(), diagonal()),
                                   Puzzle(jigsaw_grid(reg)).use(classic()),
                                   Puzzle(10).use(classic())]):
        for st in random_states(puzzle, 1, seed, 2, 4):
            fishes += _compare(Analysis(st), Analysis(st.copy()), settings)
            states += 1
    assert states >= 10 and fishes > 1000


def test_kernel_search_stops_where_python_stops():
    """With a deadline the search asks ``Analysis.tick(TICK_COST)`` at every
    ``TICK_EVERY``-th complete base set, from the first (the kernel has the same
    constants); a tick that answers True after ``k`` calls stops both implementations at
    the same base set, with the same fish found so far."""
    kernel = _kernel()
    assert (kernel.TICK_EVERY, kernel.TICK_COST) == (fish.TICK_EVERY, fish.TICK_COST)
    line = sample_lines("tdoku_magictour_top1465", 1, seed=3)[0]
    st = classic_puzzle(line).pencilmarks()
    bp, cp = fish._pools(Analysis(st), "franken")[0]
    for stop_after in (0, 1, 2, 5, 40, 10 ** 9):
        results = []
        for impl in ("python", "compiled"):
            an = Analysis(st.copy(), budget=Budget(3600))
            calls = []

            def tick(cost, calls=calls):
                assert cost == fish.TICK_COST
                calls.append(cost)
                return len(calls) > stop_after
            an.tick = tick
            args = (4, 3, bp, cp, 5, 2, True, False)   # fin_prune off: many fish, no memo
            got = (fish.search_python(an, *args) if impl == "python"
                   else fish.search_compiled(kernel, an, *args))
            results.append((got, len(calls)))
        assert results[0] == results[1]
    assert results[0][0], "the unlimited search found no fish"


def test_kernel_checks_its_arguments():
    kernel = _kernel()
    peers = [0] * 81
    ok = (3, 1, [0], [1], [5], [1], peers, 0, 0, True, True, True, None, None)
    assert kernel.search(*ok) == ([], False)
    bad = [
        ((-1,) + ok[1:], ValueError),                       # a negative mask
        ((1 << 130,) + ok[1:], OverflowError),              # beyond 128 cells
        (ok[:1] + (0,) + ok[2:], ValueError),               # fish size 0
        (ok[:3] + ([1, 2],) + ok[4:], ValueError),          # ids and masks differ
        (ok[:3] + (["x"],) + ok[4:], TypeError),            # a mask that is no int
        (ok[:3] + ([8],) + ok[4:], ValueError),             # a base outside the candidates
        (ok[:6] + ([0] * 129,) + ok[7:], ValueError),       # too many cells
        (ok[:12] + ([],) + ok[13:], TypeError),             # barren: not a set
        (ok[:12] + (_other_capsule(),) + ok[13:], TypeError),   # nor a barren table
        (ok[:13] + (5,), TypeError),                        # tick: not callable
    ]
    for args, exc in bad:
        with pytest.raises(exc):
            kernel.search(*args)
    with pytest.raises(TypeError):
        kernel.search(1, 2)
    with pytest.raises(ValueError):
        kernel.barren_keys(_other_capsule())
    # the barren table keeps the Python set's keys: one barren base set (base 0 holds cell
    # 0, which cover 5 takes: no elimination); house ids past 16 bits are not kept, and a
    # kept key is not searched again
    for base_id, want in ((0, {((0,), 1)}), (70000, set())):
        args = list(ok)
        args[2] = [base_id]
        table, keys = kernel.barren_new(), set()
        args[12] = keys
        assert kernel.search(*args) == ([], False)
        args[12] = table
        assert kernel.search(*args) == ([], False)
        assert kernel.barren_keys(table) == (keys if base_id == 0 else set())
        assert keys == ({((base_id,), 1)})
        assert kernel.search(*args) == ([], False)
        assert kernel.barren_keys(table) == want
    # search_partition: two covers (cells 0-1 and 2-3) of a 4-cell grid, the digit in cells
    # 0 and 1, a base holding cell 0: cover 5 takes it, cell 1 goes
    ok = (3, 1, [0], [1], [5, 6], [3, 12], [0, 0, 1, 1], [0] * 4, 0)
    assert kernel.search_partition(*ok) == [((0,), (5,), 1, 0, 0, 2)]
    bad = [
        (ok[:6] + ([0, 1, 1, 1],) + ok[7:], ValueError),   # cover_of against the covers
        (ok[:6] + ([0, 0, 1, 2],) + ok[7:], ValueError),   # a cover index out of range
        (ok[:6] + ([0, 0, 1],) + ok[7:], ValueError),      # cover_of shorter than peers
        (ok[:3] + ([0],) + ok[4:], ValueError),            # an empty base
        (ok[:8] + (-1,), ValueError),                      # a negative fin limit
        (ok[:4] + ([5] * 65,) + ok[5:], ValueError),       # more than 64 covers
    ]
    for args, exc in bad:
        with pytest.raises(exc):
            kernel.search_partition(*args)


# -- whole solve paths with and without the kernel (issue 29's acceptance) --------------

def test_same_step_paths_with_and_without_the_kernel(monkeypatch):
    """The first 6 puzzles of a top1465 sample whose solve reaches the kernel (the Franken
    fish searches of the default ladder): the same step paths with and without it (500
    puzzles in the slow sweep below)."""
    compared, reached = both_kernel_paths(monkeypatch, fish, "search_compiled",
                                          sample_lines("tdoku_magictour_top1465", 100, seed=29),
                                          want=6)
    assert compared == reached == 6


@pytest.mark.slow
@pytest.mark.parametrize("part", range(5))
def test_same_step_paths_with_and_without_the_kernel_500(monkeypatch, part):
    """Issue 29's acceptance: the same step paths on 500 top1465 puzzles, every one solved
    both ways (in five parts of 100, which ``-n`` shares out)."""
    lines = sample_lines("tdoku_magictour_top1465", 500, seed=500)[part * 100:(part + 1) * 100]
    compared, reached = both_kernel_paths(monkeypatch, fish, "search_compiled", lines)
    assert compared == 100 and reached >= 20
