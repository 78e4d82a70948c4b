"""Generate samurai puzzles with a unique solution (how tests/data/samurai.txt was made).

    python benchmarks/make_samurai.py [--seed S] [--mode minimal|singles]

1. A random full samurai grid: a random first row in each corner grid, then the first
   solution the search finds (checked with ``Puzzle.check_solution``).
2. Digging: the cells in random order; a given is removed when the puzzle keeps exactly one
   solution (``--mode minimal``: ``count_solutions(2) == 1``, so the result is minimal), or
   when propagation alone (naked and hidden singles) still solves it (``--mode singles``,
   an easy puzzle a human solves with singles).

Prints ``PUZZLE SOLUTION`` (each 405 characters: the grids TL, TR, C, BL, BR).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from csp.events import Contradiction  # noqa: E402
from csp.io import write_subgrids  # noqa: E402
from variants.multigrid import samurai  # noqa: E402


def full_grid(rng: random.Random) -> list[int]:
    g = samurai().grid
    while True:
        p = samurai()
        for k in (0, 1, 3, 4):             # the corner grids share no cell with each other
            for c, d in zip(g.subgrids[k][:9], rng.sample(range(1, 10), 9)):
                p.set_given(c, d)
        sol = p.solve(first=True, node_limit=200_000).solution
        if sol and samurai(sol).check_solution(sol):
            return sol


def singles_solve(values: list[int]) -> bool:
    try:
        return samurai(values).propagate().is_solved()
    except Contradiction:
        return False


def dig(sol: list[int], rng: random.Random, mode: str) -> list[int]:
    given = dict(enumerate(sol))
    cells = list(given)
    rng.shuffle(cells)
    for c in cells:
        d = given.pop(c)
        vals = [given.get(x, 0) for x in range(len(sol))]
        ok = singles_solve(vals) if mode == "singles" else samurai(vals).count_solutions(2) == 1
        if not ok:
            given[c] = d
    return [given.get(x, 0) for x in range(len(sol))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--mode", choices=("minimal", "singles"), default="minimal")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sol = full_grid(rng)
    puzzle = dig(sol, rng, args.mode)
    g = samurai().grid
    assert samurai(puzzle).count_solutions(2) == 1
    print(write_subgrids(g, puzzle), write_subgrids(g, sol))


if __name__ == "__main__":
    main()
