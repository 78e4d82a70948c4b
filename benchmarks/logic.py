"""Logic-only solving, side by side with hodoku-py (a pure-Python HoDoKu port; GPL, so it
is only installed and run here as an outside peer, never imported by the package).

    pip install hodoku-py
    python benchmarks/logic.py [--sample N] [--seed S] [--sets top95,qqwing_expert,sudoku_exchange]
                               [--techniques default] [--timeout SECONDS]

Both solvers run in this one process on the same puzzles, alternating puzzle by puzzle so
machine noise hits both alike. Reported per set: logic-solve rate (solved without guessing;
HoDoKu's BRUTE_FORCE steps count as not solved), per-puzzle median and total time, and the
ratio ours / hodoku-py. Each of our solutions is checked against a search solution.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from techniques import StepSolver  # noqa: E402

# process CPU time: the machine is shared, and both solvers run in this process
CLOCK = time.process_time
from variants.classic import classic_puzzle  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "classic"
SETS = {
    "top95": ("top95.txt", 0),
    "qqwing_expert": ("qqwing_expert.txt", 0),
    "sudoku_exchange": ("sudoku_exchange_1000_rated.tsv", 0),
}


def load(name: str) -> list[str]:
    fn, col = SETS[name]
    path = DATA / fn
    if not path.exists():
        path = ROOT / "tests" / "data" / fn
    out = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line.split()[col])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=0, help="puzzles per set (0 = all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sets", default="top95,qqwing_expert,sudoku_exchange")
    ap.add_argument("--techniques", default="default")
    ap.add_argument("--no-hodoku", action="store_true", help="only time this project")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per puzzle (ours)")
    args = ap.parse_args()
    hodoku = None
    if not args.no_hodoku:
        try:
            from hodoku import Solver as HSolver  # type: ignore
            hodoku = HSolver()
        except ImportError:
            print("hodoku-py not installed (pip install hodoku-py); timing this project only")
    ours = StepSolver(args.techniques)
    rows = []
    for name in args.sets.split(","):
        puzzles = load(name)
        if args.sample and args.sample < len(puzzles):
            puzzles = random.Random(args.seed).sample(puzzles, args.sample)
        t_ours, t_h = [], []
        ok_ours = ok_h = 0
        for i, line in enumerate(puzzles):
            p = classic_puzzle(line)
            t0 = CLOCK()
            r = ours.solve(p, time_limit=args.timeout)
            t_ours.append(CLOCK() - t0)
            if r.status == "solved":
                if r.state.values() != p.solve().solution:
                    raise SystemExit(f"wrong logic solution for {line}")
                ok_ours += 1
            if hodoku is not None:
                t0 = CLOCK()
                hr = hodoku.solve(line)
                t_h.append(CLOCK() - t0)
                if hr.solved and not any(s.type.name == "BRUTE_FORCE" for s in hr.steps):
                    ok_h += 1
            print(f"\r{name}: {i + 1}/{len(puzzles)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        rows.append((name, len(puzzles), ok_ours, t_ours, ok_h, t_h))
    print(f"{'set':16} {'n':>5} {'solved':>7} {'median ms':>10} {'total s':>8} | "
          f"{'hodoku solved':>13} {'median ms':>10} {'total s':>8} | {'ratio median':>12} {'ratio total':>11}")
    for name, n, ok, t, okh, th in rows:
        med, tot = statistics.median(t) * 1000, sum(t)
        line = f"{name:16} {n:5d} {ok:7d} {med:10.1f} {tot:8.2f} | "
        if th:
            medh, toth = statistics.median(th) * 1000, sum(th)
            line += f"{okh:13d} {medh:10.1f} {toth:8.2f} | {med / medh:12.2f} {tot / toth:11.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
