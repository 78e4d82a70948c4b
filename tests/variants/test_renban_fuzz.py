"""Soundness of the renban techniques that read another rule too (``skyscraper_renban``,
``renban_cage_exclusion``): random 6x6 puzzles built around a known solution (renbans,
skyscraper clues, killer cages that see a whole renban), random candidate states holding
that solution; every elimination of both techniques is proved by brute force."""
from __future__ import annotations

import random

import pytest

from csp import Grid, Puzzle
from variants.classic import classic
from variants.killer import killer_cage
from variants.lines import renban
from variants.outside import line_from_clue, skyscraper

from test_line_logic import _paths, _random_state, _shuffled, prove_steps

TECHS = ("skyscraper_renban", "renban_cage_exclusion")


def _seen(v: list[int]) -> int:
    top = k = 0
    for x in v:
        if x > top:
            top, k = x, k + 1
    return k


def _puzzle(sol: list[int], n: int, rng: random.Random) -> Puzzle:
    g = Grid(n)
    p = Puzzle(n).use(classic())
    houses = [set(h.cells) for h in p.houses()]
    peers = [set().union(*(h for h in houses if c in h)) - {c} for c in range(g.size)]
    made = tries = 0
    while made < 4 and tries < 2000:
        tries += 1
        cells = _paths(g, rng, rng.randint(2, 5), diagonal=True)
        v = [sol[c] for c in cells]
        if len(cells) < 2 or len(set(v)) != len(v) or max(v) - min(v) != len(v) - 1:
            continue
        p.use(renban([g.name(c) for c in cells]))
        made += 1
        blind = [c for c in range(g.size) if c not in cells
                 and all(b in peers[c] for b in cells)]
        for h in houses:
            group = [c for c in blind if c in h]
            if len(group) >= 2 and rng.random() < 0.7:
                cage = rng.sample(group, rng.randint(2, min(3, len(group))))
                p.use(killer_cage([g.name(c) for c in cage], sum(sol[c] for c in cage)))
                break
    for _ in range(2):
        line = rng.randrange(n)
        for row, col in ((line + 1, 0), (0, line + 1), (line + 1, n + 1), (n + 1, line + 1)):
            if rng.random() < 0.6:
                cells = line_from_clue(n, row, col)
                p.use(skyscraper(row, col, _seen([sol[c] for c in cells])))
    assert p.check_solution(sol)
    return p


def _fuzz(seed: int, puzzles: int) -> dict[str, int]:
    """How often each technique fired; every elimination proved by brute force."""
    rng = random.Random(seed)
    n = 6
    fired = dict.fromkeys(TECHS, 0)
    for _ in range(puzzles):
        sol = list(Puzzle(n).use(classic()).solve(first=True,
                                                   state=_shuffled(n, rng)).solution)
        p = _puzzle(sol, n, rng)
        for _ in range(6):
            prove_steps(p, sol, _random_state(p, sol, rng), TECHS, fired)
    return fired


def test_random_6x6_renban_with_skyscrapers_and_cages() -> None:
    """40 puzzles; both techniques fire (and every elimination holds)."""
    fired = _fuzz(5, 40)
    assert all(v >= 5 for v in fired.values()), fired


@pytest.mark.slow
def test_random_6x6_renban_with_skyscrapers_and_cages_big() -> None:
    _fuzz(6, 600)
