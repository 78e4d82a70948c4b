"""The compiled chain kernel (``techniques._chain_kernel``) against the Python chain code.

:mod:`techniques.chains` builds its node graph (candidates, bivalue and house strong links,
group nodes) in C when the kernel is built (csp/kernel.py) and runs its searches there: the
single-start breadth-first search and the path read back from it, and the all-starts closure
(self loops, loop candidates, loop ends) and the continuous loops' paths from one start.
The Python code (``SUDOKU_CSP_PURE=1``) is the
reference. These tests build both graphs on the same states and compare them link for link,
compare every search, path and closure, every chain technique's steps (eliminations, links,
notes, order) with several option settings, on classic solve paths and other grids (6x6,
jigsaw, diagonal, anti-knight, 10x10, 16x16), and whole solve paths both ways. They skip
when the module is not built.
"""
from __future__ import annotations

import pytest

from csp.kernel import active
from techniques import chains
from techniques.analysis import Analysis
from techniques.registry import load

from conftest import DATA, both_kernel_paths, path_states, random_states, sample_lines

pytestmark = pytest.mark.skipif(active(chains._chain_kernel) is None,
                                reason="techniques._chain_kernel is not built (no C compiler "
                                       "at install, or SUDOKU_CSP_PURE=1)")

#: build_graph settings: the default graph, XY-Chain's, an X-Chain digit's, the grouped ones
GRAPHS = [
    {}, {"house": False, "cell_weak": False, "cross": False},
    {"digits": (3,), "bivalue": False, "cell_weak": False, "cross": False},
    {"digits": (2, 5), "cross": False},
    {"groups": True}, {"groups": True, "house": False}, {"groups": True, "bivalue": False},
    {"groups": True, "als": 5, "als_cells": False},      # ALS nodes: built in Python
]

#: (technique, option overrides): the default ladder's settings first, then the others
SETTINGS = [
    ("x_chain", {}), ("xy_chain", {}), ("continuous_nice_loop", {}),
    ("discontinuous_nice_loop", {}), ("aic", {}), ("grouped_continuous_nice_loop", {}),
    ("grouped_discontinuous_nice_loop", {}), ("grouped_aic", {}),
    ("continuous_nice_loop", {"both_ways": True}), ("aic", {"types": "1"}),
    ("discontinuous_nice_loop", {"types": "2", "max_length": 6}),
    ("grouped_continuous_nice_loop", {"als": 5}), ("grouped_aic", {"types": "2", "als": 5}),
    ("grouped_discontinuous_nice_loop", {"types": "1", "als": 5}), ("x_chain", {"max_length": 5}),
]


def _env(monkeypatch, pure: bool) -> None:
    if pure:
        monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    else:
        monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)


def _graph(monkeypatch, st, pure: bool, kw: dict):
    _env(monkeypatch, pure)
    return chains.build_graph(Analysis(st.copy()), **kw)


def _compare_graphs(monkeypatch, st, every: int = 4) -> int:
    """Each graph setting built both ways: the same nodes and links; then the searches on
    the kernel's graph against the Python searches on the Python graph (from every
    ``every``-th start). Returns the searches compared."""
    searches = 0
    for kw in GRAPHS:
        want = _graph(monkeypatch, st, True, kw)
        got = _graph(monkeypatch, st, False, kw)
        assert want._kernel is None
        assert chains._kernel_graph(got), kw    # the kernel searches this graph
        assert (got.nodes, got.strong, got.weak, got.cands, got.extra, got.als) == \
            (want.nodes, want.strong, want.weak, want.cands, want.extra, want.als), kw
        assert got.hubs() == want.hubs()
        searches += _compare_searches(monkeypatch, got, want, every)
    return searches


def _compare_searches(monkeypatch, got, want, every: int) -> int:
    """Closure sets, loop paths, searches and paths: the kernel's (on ``got``) and Python's (on
    ``want``, the same graph built in Python)."""
    n = 0
    hubs = want.hubs()
    sources = want.cands & hubs
    for ml in (3, 7, 20):
        _env(monkeypatch, False)
        k = (chains._self_loops(got, sources, ml), chains._loop_cands(got, sources, ml),
             chains._loop_ends(got, sources, ml))
        _env(monkeypatch, True)
        p = (chains._self_loops(want, sources, ml), chains._loop_cands(want, sources, ml),
             chains._loop_ends(want, sources, ml))
        assert k == p, ml
        starts = [s for s in range(len(want.strong)) if sources >> s & 1][ml % every::every]
        _env(monkeypatch, True)
        loops = [(s, paths) for s in starts
                 if (paths := list(chains._loop_paths(want, s, False, ml)))]
        _env(monkeypatch, False)
        kernel = active(chains._chain_kernel)
        assert kernel.loop_paths(got._kernel, sum(1 << s for s in starts), ml) == loops, ml
        for s in starts:
            for start_true in (False, True):
                _env(monkeypatch, False)
                klev, kreach = chains._search(got, s, start_true, ml)
                _env(monkeypatch, True)
                plev, preach = chains._search(want, s, start_true, ml)
                assert not isinstance(klev, list) and isinstance(plev, list)
                assert kreach == preach, (s, start_true, ml)
                for t in [t for t in range(len(want.strong)) if preach >> t & 1][:6]:
                    assert (chains._path(got, klev, t, not start_true)
                            == chains._path(want, plev, t, not start_true))
                n += 1
    return n


def _run(monkeypatch, st, name: str, opts: dict, pure: bool) -> list[tuple]:
    _env(monkeypatch, pure)
    an = Analysis(st.copy())
    return [(s.technique, s.eliminations, s.links, s.note, s.digits)
            for s in load()[name].finder(an, opts)]


def _compare_steps(monkeypatch, st, settings=SETTINGS, solution=None) -> int:
    """Every chain technique setting on one state, both ways; with ``solution`` (a cell ->
    digit list), also that no step eliminates a true digit."""
    steps = 0
    for name, opts in settings:
        want = _run(monkeypatch, st, name, opts, pure=True)
        got = _run(monkeypatch, st, name, opts, pure=False)
        assert got == want, (name, opts)
        steps += len(want)
        if solution is not None:
            for _, elims, *_ in got:
                assert all(solution[c.cell] != c.digit for c in elims), (name, opts)
    return steps


# -- classic solve paths -------------------------------------------------------------------

def test_graphs_and_searches_equal_python_on_hard_solve_paths(monkeypatch):
    """The node graph of every setting and every search, path and closure on it, on states
    of hard solve paths (top1465 and forum-hardest puzzles)."""
    puzzles = sample_lines("tdoku_magictour_top1465", 2) + sample_lines("forum_hardest_110626", 1)
    searches = states = 0
    for st in path_states(puzzles, 60, 15):
        searches += _compare_graphs(monkeypatch, st)
        states += 1
    assert states >= 8 and searches > 1000


def test_steps_equal_python_on_hard_solve_paths(monkeypatch):
    """Every chain technique with several settings: the same steps in the same order, the
    same links and notes; and none eliminates a true digit."""
    import random

    from conftest import load_solutions
    rows = random.Random(3).sample(load_solutions("tdoku_magictour_top1465"), 3)[:2]
    steps = states = 0
    for line, sol in rows:
        solution = [int(ch) for ch in sol]
        for st in path_states([line], 60, 12):
            steps += _compare_steps(monkeypatch, st, solution=solution)
            states += 1
    assert states >= 10 and steps > 100


@pytest.mark.slow
def test_steps_and_graphs_equal_python_on_many_states(monkeypatch):
    puzzles = (sample_lines("tdoku_magictour_top1465", 6, seed=4)
               + sample_lines("forum_hardest_110626", 3, seed=4)
               + sample_lines("norvig_top95", 3, seed=4))
    steps = states = 0
    for st in path_states(puzzles, 150, 10):
        steps += _compare_steps(monkeypatch, st)
        _compare_graphs(monkeypatch, st)
        states += 1
    assert states >= 60 and steps > 1000


# -- other grids -----------------------------------------------------------------------------

def test_kernel_equals_python_on_other_grids(monkeypatch):
    """6x6 classic along solve paths; random pencil marks on a diagonal sudoku, a jigsaw,
    a 10x10 and an anti-knight sudoku (variant peers); a 16x16 (built in Python past 128
    cells, searched by the kernel)."""
    from csp import Puzzle
    from variants.chess import anti_knight
    from variants.classic import classic
    from variants.regions import diagonal, jigsaw_grid
    steps = states = 0
    rows6 = (DATA / "sizes_6.solutions.csv").read_text().split()[:3]
    for st in path_states([r.split(",")[0] for r in rows6], 30, 6):
        steps += _compare_steps(monkeypatch, st)
        _compare_graphs(monkeypatch, st, 8)
        states += 1
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0                   # boxes 1 and 2 trade r1c3 and r1c4
    puzzles = [Puzzle(9).use(classic(), diagonal()), Puzzle(jigsaw_grid(reg)).use(classic()),
               Puzzle(10).use(classic()), Puzzle(9).use(classic(), anti_knight())]
    settings = SETTINGS[:8]
    for seed, puzzle in enumerate(puzzles):
        for st in random_states(puzzle, 1, seed, 2, 4):
            steps += _compare_steps(monkeypatch, st, settings)
            _compare_graphs(monkeypatch, st, 20)
            states += 1
    for st in random_states(Puzzle(16).use(classic()), 1, 7, 2, 3):
        steps += _compare_steps(monkeypatch, st, [("xy_chain", {}), ("x_chain", {}),
                                                  ("continuous_nice_loop", {})])
        _env(monkeypatch, False)
        g = chains.build_graph(Analysis(st.copy()))
        assert chains._kernel_graph(g)      # 4,096 nodes: built in Python, searched in C
        states += 1
    assert states >= 10 and steps > 50


def test_kernel_checks_its_arguments():
    kernel = active(chains._chain_kernel)
    g = kernel.graph([2, 1, 0], [4, 0, 1], 3, 7)
    levels, reached = kernel.search(g, 0, False, 5)
    assert reached == 2 and kernel.path(g, levels, 1, True) == [(0, False), (1, True)]
    assert kernel.closure(g, 3, 5) == (0, 0, 0)
    assert kernel.graph([0] * 9000, [0] * 9000, 0, 0) is None     # past MAXNODES: Python
    bad = [
        (lambda: kernel.graph([1], [0, 0], 0, 0), ValueError),     # lengths differ
        (lambda: kernel.graph([-1], [0], 0, 0), ValueError),       # a negative bitset
        (lambda: kernel.graph(["x"], [0], 0, 0), TypeError),
        (lambda: kernel.graph([1 << 200], [0], 0, 0), OverflowError),
        (lambda: kernel.search(g, 3, False, 5), ValueError),       # no such node
        (lambda: kernel.search("g", 0, False, 5), TypeError),
        (lambda: kernel.path(g, g, 1, True), TypeError),           # not levels
        (lambda: kernel.path(g, levels, 2, True), ValueError),     # not reached
        (lambda: kernel.closure(g, 4, 5), ValueError),             # a source not a hub
        (lambda: kernel.layout(9, 3, [[0] * 9] * 3, [], []), ValueError),   # n + 1 rows
        (lambda: kernel.layout(9, 3, [[0] * 9] * 4, [], [(1, 2)]), TypeError),
        (lambda: kernel.build(g, 2, [0] * 9, [0] * 4, 0, 1, 1, 1, 1), TypeError),
    ]
    for call, exc in bad:
        with pytest.raises(exc):
            call()
    g2 = kernel.graph([2, 1, 0], [4, 0, 1], 3, 7)
    lv2, _ = kernel.search(g2, 0, False, 5)
    big = kernel.graph([0] * 100, [0] * 100, 0, 0)
    with pytest.raises(ValueError):
        kernel.path(big, lv2, 1, True)                            # levels of another graph
    assert kernel.layout(200, 3, [], [], []) is None               # past 128 cells: Python
    lay = kernel.layout(4, 2, [[0] * 4] * 3, [3, 12], [])
    with pytest.raises(ValueError):
        kernel.build(lay, 6, [0] * 3, [0] * 3, 0, 1, 1, 1, 1)      # cand of 3 cells, not 4


# -- whole solve paths with and without the kernel ---------------------------------------

def test_same_step_paths_with_and_without_the_kernel(monkeypatch):
    """8 top1465 puzzles: the same step paths with and without the kernel."""
    compared, reached = both_kernel_paths(monkeypatch, chains, "_kernel_graph",
                                          sample_lines("tdoku_magictour_top1465", 100, seed=31),
                                          want=8)
    assert compared == reached == 8


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_same_step_paths_with_and_without_the_kernel_many(monkeypatch, part):
    """200 top1465 puzzles (in four parts of 50, which ``-n`` shares out): the same step
    paths both ways on every one that reaches the chain techniques."""
    lines = sample_lines("tdoku_magictour_top1465", 200, seed=310)[part * 50:(part + 1) * 50]
    compared, reached = both_kernel_paths(monkeypatch, chains, "_kernel_graph", lines,
                                          want=10 ** 9)
    assert compared == reached >= 10
