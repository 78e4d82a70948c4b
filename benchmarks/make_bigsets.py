"""Make the seeded puzzle sets of the scaling benchmark (``benchmarks/scaling.py``).

    python benchmarks/make_bigsets.py                  # every set into tests/data/
    python benchmarks/make_bigsets.py --sets 25 --count 12 --seed 1
    python benchmarks/make_bigsets.py --verify-only tests/data/sizes_25.solutions.csv

Each puzzle comes from a random full grid: the diagonal boxes filled with random
permutations, the rest completed by this project's search, then a random relabelling of the
digits and a random permutation of bands, rows within bands, stacks and columns within
stacks (and a transposition when the boxes are square). Then, by set:

* ``4``, ``6``, ``9``, ``12``, ``16min``: dug to minimal. Cells are removed in a random
  order, each removal kept only when this project's search still finds one solution, until
  no given can go.
* ``16``: 16x16 dug the same way down to a random target of 38-44 % givens ("typical"
  printed 16x16 puzzles). Removals are tried in batches first: when a batch leaves one
  solution, each of its single removals would have too, so the result is that of removing
  one cell at a time.
* ``25``: 25x25, a random 40-55 % of the cells given, then, while OR-Tools CP-SAT finds a
  solution other than the grid's, one more given where the two differ (digging 25x25 grids
  one cell at a time takes minutes per puzzle); the sets end with 46-56 % givens.

Every finished puzzle is checked again (``--no-verify`` skips it) by this project's search,
CP-SAT (solve, forbid that solution, solve again) and pencilmark's search when installed (up
to 20 million nodes; a few 25x25 puzzles need more, then only the first two check them):
each must find exactly one solution. Output: ``tests/data/sizes_<set>.solutions.csv``, lines
``puzzle,solution,1`` (the format of the other ``*.solutions.csv`` files; digits 1-9 then
A-P, ``.`` blank).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from csp import Grid, Puzzle  # noqa: E402
from csp.io import parse_line, write_line  # noqa: E402
from csp.search import search  # noqa: E402

#: set name -> (n, lowest and highest fraction of givens to dig down to; None = minimal)
SETS: dict[str, tuple[int, tuple[float, float] | None]] = {
    "4": (4, None), "6": (6, None), "9": (9, None), "12": (12, None),
    "16min": (16, None), "16": (16, (0.38, 0.44)), "25": (25, (0.40, 0.55)),
}
COUNTS = {"4": 20, "6": 20, "9": 20, "12": 20, "16min": 20, "16": 20, "25": 12}


def blank(n: int) -> Puzzle:
    return Puzzle(Grid(n)).add_grid_houses()


def random_grid(n: int, rng: random.Random) -> list[int]:
    """A random full n x n grid (see the module docstring)."""
    g = Grid(n)
    bh, bw = g.box_shape
    sol = None
    while sol is None:       # small grids: random diagonal boxes can leave no solution
        givens: dict[int, int] = {}
        for i in range(min(n // bh, n // bw)):   # diagonal boxes share no row, column, box
            ds = list(range(1, n + 1))
            rng.shuffle(ds)
            cells = [(i * bh + a) * n + i * bw + b for a in range(bh) for b in range(bw)]
            givens.update(zip(cells, ds))
        sol = blank(n).givens(givens).solve(first=True, time_limit=60,
                                            method="search").solution
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)

    def lines(size: int, group: int) -> list[int]:
        blocks = list(range(size // group))
        rng.shuffle(blocks)
        out = []
        for b in blocks:
            inner = list(range(group))
            rng.shuffle(inner)
            out += [b * group + i for i in inner]
        return out
    rows, cols = lines(n, bh), lines(n, bw)
    grid = [relabel[sol[rows[r] * n + cols[c]] - 1] for r in range(n) for c in range(n)]
    if bh == bw and rng.random() < 0.5:
        grid = [grid[c * n + r] for r in range(n) for c in range(n)]
    assert blank(n).check_solution(grid)
    return grid


# ---------------------------------------------------------------------------------------
# Uniqueness checkers: the number of solutions, capped at 2
# ---------------------------------------------------------------------------------------
def count_ours(n: int, givens: list[int], time_limit: float | None = None,
               node_limit: int | None = None) -> int:
    eng = blank(n).engine()
    allm = eng.all_mask
    sols, _ = search(eng, [(1 << v) if v else allm for v in givens], 2, node_limit,
                     time_limit)
    return len(sols)


def _houses(n: int) -> list[list[int]]:
    g = Grid(n)
    return [list(h.cells) for h in g.houses]


def count_cpsat(n: int, givens: list[int], time_limit: float | None = None) -> int:
    """CP-SAT on the Boolean model (one literal per cell and digit, exactly one per cell and
    per house and digit); a second solve forbids the first solution."""
    from ortools.sat.python import cp_model
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{c}_{d}") for d in range(n)] for c in range(n * n)]
    for c in range(n * n):
        m.AddExactlyOne(x[c])
        if givens[c]:
            m.Add(x[c][givens[c] - 1] == 1)
    for h in _houses(n):
        for d in range(n):
            m.AddExactlyOne([x[c][d] for c in h])
    found = 0
    while found < 2:
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        if time_limit is not None:
            s.parameters.max_time_in_seconds = time_limit
        st = s.Solve(m)
        if st == cp_model.INFEASIBLE:
            break
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise TimeoutError("CP-SAT did not decide")
        found += 1
        sol = [next(d for d in range(n) if s.Value(x[c][d])) for c in range(n * n)]
        m.AddBoolOr([x[c][sol[c]].Not() for c in range(n * n) if not givens[c]])
    return found


def count_pencilmark(n: int, givens: list[int], node_limit: int = 20_000_000) -> int | None:
    """pencilmark's search (None: not installed, or past ``node_limit``: its depth-first
    search takes minutes on some 25x25 puzzles)."""
    try:
        from pencilmark import cbackend, model
    except ImportError:
        return None
    bh, bw = Grid(n).box_shape
    p = model.standard(n, bh, bw, "")
    p.givens = {c: v for c, v in enumerate(givens) if v}
    sols = cbackend.brute_solve(p, limit=2, node_limit=node_limit)
    return len(sols) if sols.complete else None


def other_solution_cpsat(n: int, givens: list[int], solution: list[int]
                         ) -> list[int] | None:
    """A solution other than ``solution`` found by CP-SAT (one solve), None if there is
    none."""
    from ortools.sat.python import cp_model
    m = cp_model.CpModel()
    x = [[m.NewBoolVar(f"x{c}_{d}") for d in range(n)] for c in range(n * n)]
    for c in range(n * n):
        m.AddExactlyOne(x[c])
        if givens[c]:
            m.Add(x[c][givens[c] - 1] == 1)
    for h in _houses(n):
        for d in range(n):
            m.AddExactlyOne([x[c][d] for c in h])
    m.AddBoolOr([x[c][solution[c] - 1].Not() for c in range(n * n) if not givens[c]])
    s = cp_model.CpSolver()
    s.parameters.num_workers = 1
    st = s.Solve(m)
    if st == cp_model.INFEASIBLE:
        return None
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise TimeoutError("CP-SAT did not decide")
    return [next(d + 1 for d in range(n) if s.Value(x[c][d])) for c in range(n * n)]


def add_until_unique(n: int, solution: list[int], rng: random.Random, start: int
                     ) -> list[int]:
    """``start`` random givens of ``solution``, then, while CP-SAT finds another solution,
    one more given: the solution's digit in a random cell where the two differ."""
    givens = [0] * (n * n)
    order = list(range(n * n))
    rng.shuffle(order)
    for c in order[:start]:
        givens[c] = solution[c]
    while (other := other_solution_cpsat(n, givens, solution)) is not None:
        c = rng.choice([c for c in range(n * n) if other[c] != solution[c]])
        givens[c] = solution[c]
    return givens


# ---------------------------------------------------------------------------------------
# Digging
# ---------------------------------------------------------------------------------------
def dig(n: int, solution: list[int], rng: random.Random, target: int,
        batch: int) -> list[int]:
    """Remove cells in a random order while one solution is left (this project's search),
    until ``target`` givens remain (0: until minimal). Batches of removals first (see the
    module docstring)."""
    givens = list(solution)
    order = list(range(n * n))
    rng.shuffle(order)
    left = n * n
    i = 0

    def unique(gv: list[int]) -> bool:
        return count_ours(n, gv) == 1
    while i < len(order) and left > target:
        k = min(batch, left - target, len(order) - i) if target else min(batch, len(order) - i)
        chunk = order[i:i + k]
        i += k
        for c in chunk:
            givens[c] = 0
        if unique(givens):
            left -= k
            batch = batch * 2 if batch < 64 else batch
            continue
        for c in chunk:
            givens[c] = solution[c]
        if k == 1:
            continue
        batch = max(1, batch // 4)
        for c in chunk:                   # one at a time
            if left <= target:
                break
            givens[c] = 0
            if unique(givens):
                left -= 1
            else:
                givens[c] = solution[c]
    return givens


def verify(n: int, givens: list[int], time_limit: float = 600) -> dict[str, float]:
    """Solution counts by each independent solver: ours (``Puzzle.count_solutions``: search,
    handed to the SAT solver on big grids), CP-SAT and pencilmark when installed (and
    within its node limit); raises SystemExit unless each finds exactly one, or if ours or
    CP-SAT cannot tell. Returns seconds per solver."""
    counts: dict[str, int] = {}
    secs: dict[str, float] = {}
    for name, fn in (("ours", lambda: blank(n).givens(givens).count_solutions(
                         2, time_limit=time_limit)),
                     ("cpsat", lambda: count_cpsat(n, givens, time_limit)),
                     ("pencilmark", lambda: count_pencilmark(n, givens))):
        t0 = time.perf_counter()
        try:
            k = fn()
        except ImportError:
            continue
        if k is not None:
            counts[name] = k
            secs[name] = time.perf_counter() - t0
    if any(v != 1 for v in counts.values()):
        raise SystemExit(f"{write_line(givens, n)}: solution counts {counts}")
    return secs


def make_set(name: str, count: int, seed: int, check_after: bool,
             log: Callable[[str], None], first: int = 0) -> list[tuple[str, str]]:
    n, frac = SETS[name]
    out = []
    for k in range(first, first + count):
        rng = random.Random(f"{name}:{seed}:{k}")
        sol = random_grid(n, rng)
        target = 0 if frac is None else round(rng.uniform(*frac) * n * n)
        t0 = time.perf_counter()
        if n > 16:
            givens = add_until_unique(n, sol, rng, target)
        else:
            givens = dig(n, sol, rng, target, batch=1 if frac is None else 16)
        dt = time.perf_counter() - t0
        kept = sum(1 for v in givens if v)
        note = ""
        if check_after:
            note = " verified by " + ", ".join(verify(n, givens))
        log(f"{name} #{k}: {kept} givens ({kept / (n * n):.0%}), made in {dt:.1f} s{note}")
        out.append((write_line(givens, n), write_line(sol, n)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--count", type=int, default=0, help="puzzles per set (0: the default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--verify-only", type=Path, nargs="*", default=None, metavar="CSV",
                    help="only check the puzzles of these files (one solution each)")
    ap.add_argument("--first", type=int, default=0, help="index of the first puzzle")
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "data")
    args = ap.parse_args(argv)
    if args.verify_only is not None:
        for path in args.verify_only:
            for i, row in enumerate(path.read_text().split()):
                puzzle, solution = row.split(",")[:2]
                n, givens = parse_line(puzzle)
                secs = verify(n, givens)
                if not blank(n).givens(puzzle).check_solution(parse_line(solution)[1]):
                    raise SystemExit(f"{path.name} #{i}: the stored solution is wrong")
                print(f"{path.name} #{i}: one solution by " + ", ".join(
                    f"{k} ({v:.2f} s)" for k, v in secs.items()), flush=True)
        return 0
    for name in args.sets.split(","):
        rows = make_set(name, args.count or COUNTS[name], args.seed,
                        not args.no_verify, lambda s: print(s, flush=True), args.first)
        path = args.out / f"sizes_{name}.solutions.csv"
        path.write_text("".join(f"{p},{s},1\n" for p, s in rows))
        print(f"wrote {path}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
