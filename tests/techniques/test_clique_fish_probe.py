"""The clique-cover fish probe of ``benchmarks/forcing_free.py`` (single-digit set logic with
any same-digit clique as a cover): a knight-pair cover at work on a hand-made anti-knight
state, and no elimination of a solution digit along a real anti-knight solve path."""
from __future__ import annotations


import pytest

from csp import Puzzle
from csp.bits import iter_cells
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver
from techniques.analysis import Analysis
from techniques.loop import replay
from variants.chess import anti_knight

from conftest import load_benchmark

ff = load_benchmark("forcing_free")


def _names(p: Puzzle, mask: int) -> list[str]:
    return [p.grid.name(c) for c in iter_cells(mask)]


def test_knight_pairs_cover_two_rows() -> None:
    """Row 1's 5 is r1c3 or r1c6, row 2's is r2c5 or r2c8; r1c3-r2c5 and r1c6-r2c8 are knight
    pairs, so the two 5s are one of each pair. r3c4 is a knight's move from r1c3 and in box
    2 with r2c5: the clique {r1c3, r2c5, r3c4} covers a base 5, so r3c4 is not 5."""
    p = Puzzle(9).add_grid_houses().use(anti_knight())
    st = p.pencilmarks()
    keep = {0: {2, 5}, 1: {4, 7}}                 # row -> columns keeping the 5
    for c in range(81):
        r, col = divmod(c, 9)
        if r in keep and col not in keep[r]:
            st.cand[c] &= ~(1 << 5)
    st.version += 1
    an = Analysis(st)
    found = ff.clique_fish(an, 5, max_k=2)
    elims = set()
    for body, fins, el in found:
        assert fins == 0
        elims |= set(_names(p, el))
    assert "r3c4" in elims
    # the pairs are no house: the fish covers rows 1 and 2 with two knight cliques
    assert any(set(_names(p, body)) == {"r1c3", "r1c6", "r2c5", "r2c8"} for body, _, _ in found)


@pytest.mark.slow
def test_clique_fish_sound_along_an_anti_knight_solve() -> None:
    """Every elimination of the probe (up to 3 bases, 1 fin) on every fifth state of the
    default solve of an anti-knight coloring book keeps the stated solution's digits (slow:
    about 20 s of CPU)."""
    rows = ff.setter_rows()
    row = next(r for r in rows if r["title"].startswith("Almost Boxless Antiknight"))
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = row["solution"]
    steps = StepSolver("default").solve(p, time_limit=60).steps
    checked = 0
    for k, st in enumerate(replay(p.pencilmarks(), steps)):
        if k % 5:
            continue
        an = Analysis(st)
        for d in range(1, 10):
            for _, _, el in ff.clique_fish(an, d, max_k=3, max_fins=1):
                for c in iter_cells(el):
                    assert int(sol[c]) != d, (k, d, p.grid.name(c))
                    checked += 1
    assert checked > 0
