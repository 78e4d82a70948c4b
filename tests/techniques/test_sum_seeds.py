"""Substituted sums' fallback search (issue 29): ``joint_supports`` answers each equation
made for the question on its own (two equations on the same cells never share a memo
entry), and a search seeded with solutions found already gives the supports of the
search without them."""
from __future__ import annotations

import random

from csp import Puzzle
from techniques import sums as S
from techniques.analysis import Analysis
from variants.classic import classic


#: a valid grid, kept in every random state so each has a solution
SOLUTION = ("123456789456789123789123456214365897365897214"
            "897214365531642978642978531978531642")


def _state():
    p = Puzzle(9).use(classic())
    return p, p.initial_state()


def test_two_equations_on_the_same_cells_do_not_share_an_answer() -> None:
    """r1c1+r5c5 = 3 and r1c1+2*r5c5 = 5 (both index -1, as substituted sums makes them):
    the second keeps r5c5 in {1, 2}, r1c1 odd, not the first one's answer."""
    p, st = _state()
    an = Analysis(st)
    cells = [p.cell("r1c1"), p.cell("r5c5")]
    a = S.Rule(-1, "row 1", cells, [1, 1], frozenset((3,)), False)
    b = S.Rule(-1, "row 1", cells, [1, 2], frozenset((5,)), False)
    assert S.joint_supports(an, cells, [a], 1000) == [0b110, 0b110]
    assert S.joint_supports(an, cells, [b], 1000) == [0b1010, 0b110]


def test_a_seeded_search_gives_the_same_supports() -> None:
    """Random linear equations on random cells of a random grid state, searched with and
    without some of their solutions as a seed: the same supports (or the same None when
    the seed is empty)."""
    rng = random.Random(7)
    p, st0 = _state()
    grid = [int(ch) for ch in SOLUTION]
    checked = 0
    for _ in range(60):
        st = st0.copy()
        for c in range(81):
            keep = st.cand[c] & sum(1 << d for d in range(1, 10) if rng.random() < 0.6)
            st.cand[c] = keep | 1 << grid[c]        # the grid stays a solution
        an = Analysis(st)
        cells = rng.sample(range(81), rng.randint(2, 5))
        coeffs = [rng.choice((1, 1, 2, -1)) for _ in cells]
        total = rng.randint(0, 20)
        rule = S.Rule(-1, "eq", cells, coeffs, frozenset((total,)), False)
        doms = [st.cand[c] for c in cells]
        plain = S._search(an, cells, doms, [rule], 10 ** 6)
        found: list = []
        S._search(an, cells, doms, [rule], 10 ** 6, found=found)
        seed = found[: rng.randint(0, len(found))]
        seeded = S._search(an, cells, doms, [rule], 10 ** 6, seed=seed)
        assert seeded == plain
        checked += bool(seed)
    assert checked > 5
