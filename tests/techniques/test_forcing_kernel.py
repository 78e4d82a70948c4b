"""The compiled propagation of forcing chains and nets (``techniques._forcing_kernel``)
against :func:`techniques.forcing.engine._propagate` in Python (the reference, with
``SUDOKU_CSP_PURE=1``): for every assumption of many states (hard solve paths, random
pencil marks, other house-only grids, variant puzzles with cross-digit links, binary
relations and other rules), as a chain, a net and a net with locked candidates, the same
derivation (every fact with its premises, in order), candidates, true cells, the rules'
last candidates and contradiction; also propagations that go on from a derived state (as
the nested nets do); and whole solve paths and SE ratings both ways. They skip when the
module is not built.
"""
from __future__ import annotations

import pytest

from csp.kernel import active
from techniques.analysis import Analysis
from techniques.forcing import engine
from variants.classic import classic_puzzle

from conftest import (DATA, both_kernel_paths, fpuzzle, kernel_path, path_states, random_states,
                      sample_lines)

pytestmark = pytest.mark.skipif(active(engine._forcing_kernel) is None,
                                reason="techniques._forcing_kernel is not built (no C "
                                       "compiler at install, or SUDOKU_CSP_PURE=1)")

MODES = ((False, False), (True, False), (True, True))     # (net, inter)
LOCKED = [0]


def _snap(ps) -> tuple:
    return (list(ps.parents.items()), ps.cand, ps.cw, ps.on, ps.contra, ps.ruled)


def _compare(monkeypatch, state, follow: int = 0) -> tuple[int, int]:
    """Every assumption of ``state`` in each mode, both ways; with ``follow``, also that
    many assumptions on top of the first ones' results. Returns (propagations,
    contradictions); counts in ``LOCKED`` the propagations with a locked candidates
    removal."""
    props = contras = 0
    an = Analysis(state.copy())
    st = engine._static(an)
    facts = [engine._fact(c, d, on) for c in range(an.size) for d in range(1, an.n + 1)
             if an.cand[c] >> d & 1 for on in (True, False)]
    for net, inter in MODES:
        for f in facts:
            monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
            assert st.kernel() is None
            want = engine._assume(st, f, net, inter)
            monkeypatch.delenv("SUDOKU_CSP_PURE")
            assert st.kernel() is not None
            got = engine._assume(st, f, net, inter)
            assert _snap(got) == _snap(want), (f, net, inter)
            props += 1
            contras += want.contra is not None
            LOCKED[0] += any(type(v) is tuple and v[:1] == (engine._LOCKED,)
                             for v in want.parents.values())
            if follow and want.contra is None and net:
                for g in facts[:follow]:
                    if not want.cand[engine._cell(g)] >> engine._digit(g) & 1:
                        continue
                    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
                    w2 = engine._propagate(st, want.copy(), [(g, "nested")], net, inter)
                    monkeypatch.delenv("SUDOKU_CSP_PURE")
                    g2 = engine._propagate(st, want.copy(), [(g, "nested")], net, inter)
                    assert _snap(g2) == _snap(w2), (f, g, net, inter)
                    props += 1
    return props, contras


def test_kernel_equals_python_on_hard_solve_paths(monkeypatch):
    lines = sample_lines("tdoku_magictour_top1465", 2) + sample_lines("forum_hardest_110626", 1)
    props = contras = 0
    LOCKED[0] = 0
    for state in path_states(lines, 60, 15):
        a, b = _compare(monkeypatch, state, follow=3)
        props, contras = props + a, contras + b
    assert props > 3000 and contras > 100 and LOCKED[0] > 50


@pytest.mark.slow
def test_kernel_equals_python_on_many_states(monkeypatch):
    lines = (sample_lines("tdoku_magictour_top1465", 6, seed=3)
             + sample_lines("forum_hardest_110626", 3, seed=3))
    props = 0
    for state in path_states(lines, 150, 8):
        props += _compare(monkeypatch, state, follow=6)[0]
    assert props > 30000


def test_kernel_equals_python_on_other_grids(monkeypatch):
    """Random pencil marks on classic 9x9, a diagonal sudoku, a jigsaw, a 10x10 and an
    anti-knight sudoku (its knight links are peers: the kernel takes it); 6x6 solve
    paths."""
    from csp import Puzzle
    from variants.chess import anti_knight
    from variants.classic import classic
    from variants.regions import diagonal, jigsaw_grid
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0
    puzzles = [Puzzle(9).use(classic()), Puzzle(9).use(classic(), diagonal()),
               Puzzle(jigsaw_grid(reg)).use(classic()), Puzzle(10).use(classic()),
               Puzzle(9).use(classic(), anti_knight())]
    props = contras = 0
    for seed, puzzle in enumerate(puzzles):
        for state in random_states(puzzle, 2, seed, 3, 7):
            a, b = _compare(monkeypatch, state, follow=2)
            props, contras = props + a, contras + b
    rows6 = (DATA / "sizes_6.solutions.csv").read_text().split()[:2]
    for state in path_states([r.split(",")[0] for r in rows6], 8, 2):
        props += _compare(monkeypatch, state)[0]
    assert props > 2000 and contras > 100


#: f-puzzles setter puzzles whose nets read rules besides the houses: negative XV (cross-digit
#: links, binary relations, XV sums), modular and nabner lines with double arrows (binary
#: relations, linear sums), box indexers (element rules), negative ratio, arrows with
#: killer cages and quadruples
VARIANTS = ("Anti-XV Coverage", "Modular Nabner DA Coverage", "Box Indexing Test",
            "Anti-Ratio Coverage", "Deflation")


@pytest.mark.parametrize("titles", [
    VARIANTS[2:4],
    # the other three (about three quarters of the time): the slow sweep
    pytest.param(VARIANTS[:2] + VARIANTS[4:], marks=pytest.mark.slow)], ids=["sample", "rest"])
def test_kernel_equals_python_on_variant_grids(monkeypatch, titles):
    """The kernel takes the links' cross-digit weak links and a net's binary relations,
    and a net's other rules run in Python between its calls: the same derivations as
    the Python propagation on states along the setter puzzles' solve paths."""
    props = contras = 0
    for title in titles:
        for state in path_states([fpuzzle(title)[0]], 60, 30):
            an = Analysis(state.copy())
            assert engine._static(an).cross_k is not None or engine._static(an).rule_engine
            a, b = _compare(monkeypatch, state, follow=3)
            props, contras = props + a, contras + b
    assert props > 20000 and contras > 500


@pytest.mark.slow
def test_same_variant_step_paths_with_and_without_the_kernel(monkeypatch):
    """A setter puzzle whose solve takes forcing chains and nets: the same steps both
    ways."""
    from techniques import StepSolver
    out = []
    for pure in (False, True):
        kernel_path(monkeypatch, pure)
        puzzle = fpuzzle("Anti-Ratio Coverage")[0]     # (loads the rule families first)
        r = StepSolver("default").solve(puzzle)
        # (the steps and their texts: an arrangement step's extra holds an object)
        out.append((r.status, [(s, s.note) for s in r.steps]))
    assert out[0] == out[1]
    assert any(s.technique.startswith("forcing_") for s, _ in out[0][1])


def test_grids_the_kernel_leaves_to_python(monkeypatch):
    """A grid of more than 128 cells: no kernel tables, the Python propagation."""
    from csp import Puzzle
    from variants.classic import classic
    monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    big = Analysis(Puzzle(16).use(classic()).pencilmarks())
    assert engine._static(big).kernel() is None
    nine = Analysis(Puzzle(9).use(classic()).pencilmarks())
    assert engine._static(nine).kernel() is not None


def test_kernel_checks_its_arguments(monkeypatch):
    monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    kernel = engine._forcing_kernel
    an = Analysis(classic_puzzle("." * 81).pencilmarks())
    st = engine._static(an)
    ks = st.kernel()
    ps = engine._base(st)
    with pytest.raises(ValueError):        # a digit outside 1..n
        kernel.propagate(ks, ps.cand, ps.cw, 0, {}, [(0, ())], True, False)
    with pytest.raises(ValueError):        # a fact past the grid
        kernel.propagate(ks, ps.cand, ps.cw, 0, {}, [(200 << 6 | 2, ())], True, False)
    with pytest.raises(ValueError):        # candidates of 80 cells
        kernel.propagate(ks, ps.cand[:80], ps.cw, 0, {}, [], True, False)
    with pytest.raises(TypeError):
        kernel.propagate(ks, ps.cand, ps.cw, 0, {}, [5], True, False)
    with pytest.raises((TypeError, ValueError)):
        kernel.propagate("static", ps.cand, ps.cw, 0, {}, [], True, False)
    with pytest.raises(ValueError):        # a cell bitset past the grid
        kernel.propagate(ks, ps.cand, ps.cw, 1 << 90, {}, [], True, False)
    assert kernel.links(200, 9, [], [], [], [], engine._LOCKED) is None        # more than 128 cells
    with pytest.raises(ValueError):
        kernel.links(4, 2, [[0] * 4] * 2, [], [()] * 4, [], engine._LOCKED)


def test_same_step_paths_with_and_without_the_kernel(monkeypatch):
    """Top1465 puzzles whose solve reaches the forcing techniques: the same step paths (an
    assumption from the state's grid goes through the kernel's ``assume``)."""
    compared, reached = both_kernel_paths(monkeypatch, engine, "_assume_compiled",
                                          sample_lines("tdoku_magictour_top1465", 60, seed=5),
                                          want=4)
    assert compared == reached == 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(2))
def test_same_step_paths_with_and_without_the_kernel_many(monkeypatch, part):
    lines = sample_lines("tdoku_magictour_top1465", 100, seed=292)[part * 50:(part + 1) * 50]
    compared, reached = both_kernel_paths(monkeypatch, engine, "_assume_compiled", lines,
                                          want=10 ** 9)
    assert compared == reached >= 5


@pytest.mark.slow
def test_same_se_ratings_with_and_without_the_kernel(monkeypatch):
    """SE ratings (se121, the forcing nets with locked candidates: SE's level 1) of hard
    puzzles both ways: the same rating and the same steps."""
    from techniques.se_rating import SESolver
    for line in sample_lines("forum_hardest_110626", 2, seed=4):
        out = []
        for pure in (False, True):
            kernel_path(monkeypatch, pure)
            p = classic_puzzle(line)
            p.unique = True
            r = SESolver("se121", unique=True).rate(p)
            out.append((r.er, r.solved, [(s.step, s.value, s.producer, s.step.note)
                                         for s in r.steps]))
        assert out[0] == out[1], line
