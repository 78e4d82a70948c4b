"""The singles fast path of the run (:meth:`techniques.loop.Run.peek`) and its compiled
kernel (``techniques._singles_kernel``).

:func:`techniques.singles.first_single` finds the first full house, naked or hidden single
straight from a state: in C when the kernel is built (csp/kernel.py), else in Python
(:func:`techniques.singles._first_single`, ``SUDOKU_CSP_PURE=1``: the reference). These
tests check

* the kernel against the Python function on many states (classic solve paths, random
  pencil marks with wiped-out and placed cells, 6x6, 16x16, 25x25, jigsaw, samurai), with
  every order of the three stages, and its argument checks (skipped when not built);
* :func:`~techniques.singles.first_single` and :func:`~techniques.singles.single_step`
  against the three finders run on an :class:`~techniques.analysis.Analysis` (the same
  step: cell, digit, house, text), both ways;
* whole runs: the fast path against :func:`~techniques.loop.first_step` over the whole
  plan on an analysis of every state (the same steps, texts, status and state), on classic,
  other sizes, jigsaw, samurai and variants (killer cages, anti-knight: the general
  :func:`~techniques.loop.apply_step`); and default solve paths with and without the kernel.
"""
from __future__ import annotations

import itertools
import random

import pytest

from csp.kernel import active
from csp.links import link_tables
from techniques import StepSolver, singles
from techniques.analysis import Analysis
from techniques.loop import first_step

from conftest import DATA, both_kernel_paths, path_states, random_states, sample_lines

needs_kernel = pytest.mark.skipif(active(singles._singles_kernel) is None,
                                  reason="techniques._singles_kernel is not built (no C "
                                         "compiler at install, or SUDOKU_CSP_PURE=1)")

FINDERS = {0: singles.full_house, 1: singles.naked_single, 2: singles.hidden_single}
SINGLES = {"full_house", "naked_single", "hidden_single"}
#: every non-empty order of the three stages
ORDERS = [bytes(p) for k in (1, 2, 3) for p in itertools.permutations((0, 1, 2), k)]


def _lines(name: str, k: int, seed: int = 1) -> list[str]:
    rows = (DATA / f"{name}.solutions.csv").read_text().split()
    return [r.split(",")[0] for r in random.Random(seed).sample(rows, min(k, len(rows)))]


def _puzzles():
    """Classic 9x9, 6x6, 16x16, 25x25, a jigsaw and a samurai."""
    from csp import Puzzle
    from variants.classic import classic, classic_puzzle
    from variants.multigrid import samurai
    from variants.regions import jigsaw_grid
    out = [classic_puzzle(line) for line in _lines("sizes_6", 2) + _lines("sizes_16", 2)
           + _lines("sizes_25", 1)]
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0                   # boxes 1 and 2 trade r1c3 and r1c4
    out.append(Puzzle(jigsaw_grid(reg)).use(classic()))
    line = next(ln.split()[0] for ln in open(DATA / "samurai.txt") if not ln.startswith("#"))
    out.append(samurai(line))
    return out


def _states():
    """States along classic solve paths, random pencil marks (some cells wiped out, some
    placed) on every puzzle of :func:`_puzzles`, and those puzzles' pencil marks."""
    yield from path_states(sample_lines("norvig_top95", 4) + _lines("sizes_9", 4), 70, 3)
    rng = random.Random(5)
    for seed, p in enumerate(_puzzles()):
        yield p.pencilmarks()
        for st in random_states(p, 12, seed, 0, 3):
            for c in rng.sample(range(p.grid.size), p.grid.size // 4):
                if st.cand[c] and not st.cand[c] & (st.cand[c] - 1):
                    st.placed[c] = st.cand[c].bit_length() - 1
            yield st


# -- the kernel against its Python twin ----------------------------------------------------

@needs_kernel
def test_kernel_equals_python_on_many_states():
    found = states = 0
    for st in _states():
        links = link_tables(st.puzzle)
        table = links.derived(singles._Table)
        for stages in ORDERS:
            want = singles._first_single(st.cand, st.placed, table.cells, stages)
            got = singles._singles_kernel.first_single(st.cand, st.placed, table.packed,
                                                       links.n, stages)
            assert got == want, (stages, st.cand, st.placed)
            found += want is not None
        states += 1
    assert states >= 200 and found > 1000


@needs_kernel
def test_kernel_refuses_bad_arguments():
    k = singles._singles_kernel
    table = bytes(2 * 4 * 3)                # three houses of cell 0 four times
    good = ([6] * 16, [0] * 16, table, 4, b"\x00\x01\x02")
    assert k.first_single(*good) is None    # cells hold 1 and 2; no single
    assert k.first_single([2] + [6] * 15, *good[1:]) == (1, 0, 1, -1)
    bad = [(([2] * 16, [0] * 15) + good[2:], ValueError),
           (([2] * 16, [0] * 16, table[:-1], 4, b"\x00"), ValueError),
           (([2] * 16, [0] * 16, table, 0, b"\x00"), ValueError),
           (([2] * 16, [0] * 16, table, 63, b"\x00"), ValueError),
           (([2] * 16, [0] * 16, table, 4, b"\x03"), ValueError),
           (([2] * 16, [0] * 16, table, 4, b"\x00\x01\x02\x00"), ValueError),
           (([2] * 16, [0] * 16, bytes([200, 0] * 12), 4, b"\x00"), ValueError),
           ((["x"] * 16, [0] * 16, table, 4, b"\x01"), TypeError),
           (([-1] * 16, [0] * 16, table, 4, b"\x01"), OverflowError),
           (([1 << 70] * 16, [0] * 16, table, 4, b"\x01"), OverflowError),
           (((2,) * 16, [0] * 16, table, 4, b"\x01"), TypeError),
           (([2] * 16, [0] * 16, "table", 4, b"\x01"), TypeError),
           (([2] * 5000, [0] * 5000, table, 4, b"\x01"), ValueError)]
    for args, error in bad:
        with pytest.raises(error):
            k.first_single(*args)


# -- first_single against the finders -------------------------------------------------------

@pytest.mark.parametrize("pure", [False, True])
def test_first_single_is_the_finders_first_step(monkeypatch, pure):
    """The answer and its Step are those of the finders run one after the other on an
    Analysis of the state (each searched in full before the next), in every order."""
    if pure:
        monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    else:
        monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    found = 0
    for st in itertools.islice(_states(), 0, None, 2):
        an = Analysis(st)
        links = link_tables(st.puzzle)
        for stages in ORDERS:
            want = next((s for code in stages for s in FINDERS[code](an, {})), None)
            got = singles.first_single(st, links, stages)
            if want is None:
                assert got is None
                continue
            step = singles.single_step(got, links, st.grid.namer)
            assert step == want and step.explain(2) == want.explain(2), stages
            assert step.technique == FINDERS[got[0]].__name__
            found += 1
    assert found > 500


# -- whole runs ---------------------------------------------------------------------------

def _general(run, an):
    """first_step over the whole plan on an analysis of each state (no fast path)."""
    return first_step(run, an)


def _both_runs(p, techniques="default", unique=True):
    """The steps (with texts), status, reason and final state of a run with the fast path
    and of one with :func:`_general` as its strategy."""
    solver = StepSolver(techniques, unique=unique)
    out = []
    for strategy in (None, _general):
        run = solver.start(p, strategy=strategy)
        run._peek_checks = False    # first_step asks for the uniqueness checks itself
        steps = [(s, s.explain(2)) for s in run]
        out.append((steps, run.status, run.reason, run.state.cand, run.state.placed))
    assert out[0] == out[1]
    return out[0]


def test_fast_path_equals_the_general_loop_on_classic():
    from variants.classic import classic_puzzle
    lines = (sample_lines("norvig_top95", 3) + _lines("sizes_9", 6)
             + (DATA / "easy50.txt").read_text().split()[:6])
    singles_only = 0
    for line in lines:
        steps, status, *_ = _both_runs(classic_puzzle(line))
        singles_only += status == "solved" and all(s.technique in SINGLES
                                                   for s, _ in steps)
    for line in lines[:4]:          # a plan without full houses, and one of singles only
        _both_runs(classic_puzzle(line), "naked_single,hidden_single,intersections")
        _both_runs(classic_puzzle(line), "singles", unique=False)
    assert singles_only >= 3


def test_fast_path_equals_the_general_loop_on_other_grids():
    """6x6, 16x16, 25x25, jigsaw, samurai: the default ladder on the small ones, the
    singles, intersections and pairs on the big ones (the rest takes minutes there)."""
    steps = 0
    for p in _puzzles():
        if p.grid.size <= 81:
            steps += len(_both_runs(p, unique=None)[0])
        else:
            steps += len(_both_runs(p, "singles,intersections,naked_pair,hidden_pair",
                                    unique=False)[0])
    assert steps > 200


def test_fast_path_equals_the_general_loop_on_variants():
    """Killer cages and anti-knight (links beyond houses: the general apply_step), from
    givens consistent with a classic solution (they may meet a contradiction or stick:
    both runs must end alike)."""
    from csp import Puzzle
    from variants.chess import anti_knight
    from variants.classic import classic
    from variants.killer import killer_cage
    rows = (DATA / "sizes_9.solutions.csv").read_text().split()[1:7]
    for k, row in enumerate(rows):
        line, sol = row.split(",")[:2]
        rng = random.Random(k)
        p = Puzzle(9).use(classic())
        for r in range(0, 9, 2):            # two-cell cages along the rows, their sums true
            c = rng.randrange(8)
            a, b = 9 * r + c, 9 * r + c + 1
            p.use(killer_cage([a, b], int(sol[a]) + int(sol[b])))
        p.givens("".join(ch if i % 3 else "." for i, ch in enumerate(line)))
        _both_runs(p, unique=None)
        keep = ["."] * 81               # the givens that no earlier one sees by a knight's move
        for c, ch in enumerate(line):
            r0, c0 = divmod(c, 9)
            if ch != "." and not any(
                    keep[9 * (r0 + dr) + c0 + dc] == ch
                    for dr, dc in ((-1, -2), (-1, 2), (-2, -1), (-2, 1))
                    if 0 <= r0 + dr and 0 <= c0 + dc < 9):
                keep[c] = ch
        _both_runs(Puzzle(9).use(classic(), anti_knight()).givens("".join(keep)), unique=False)


def test_default_solve_paths_equal_with_and_without_the_kernel(monkeypatch):
    if active(singles._singles_kernel) is None:
        pytest.skip("techniques._singles_kernel is not built")
    lines = sample_lines("norvig_top95", 3) + _lines("sizes_9", 5)
    compared, reached = both_kernel_paths(monkeypatch, singles._singles_kernel, "first_single",
                                          lines)
    assert compared == reached == len(lines)


def test_single_steps_made_field_by_field_are_the_dataclass_steps():
    """The singles' Steps (made field by field, singles._single) hold what Step(...) gives:
    every field, a fresh ``extra`` each, equal and hashed alike."""
    from csp.step import Candidate, Step
    from techniques import singles
    assert singles._FAST_STEP
    cd = (Candidate(40, 7),)
    pairs = [(singles._full_house_step(40, 7, "row 5", 9),
              Step("full_house", placements=cd, digits=(7,), houses=("row 5",),
                   title="Full House", namer=9)),
             (singles._naked_single_step(40, 7, 9),
              Step("naked_single", placements=cd, digits=(7,), pattern=cd,
                   title="Naked Single", namer=9)),
             (singles._hidden_single_step(40, 7, "box 5", 9),
              Step("hidden_single", placements=cd, digits=(7,), houses=("box 5",),
                   title="Hidden Single", namer=9))]
    for fast, ref in pairs:
        assert fast == ref and hash(fast) == hash(ref) and repr(fast) == repr(ref)
        assert fast.extra == {} and fast.extra is not ref.extra
        assert fast.explain(2) == ref.explain(2) and fast.to_dict() == ref.to_dict()
    a, b = singles._naked_single_step(1, 2, 9), singles._naked_single_step(1, 2, 9)
    assert a.extra is not b.extra
