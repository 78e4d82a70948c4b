"""Logic-only solving of classic puzzles, side by side with outside peers.

    pip install larsdoku pencilmark hodoku-py        # the peers (any subset)
    python benchmarks/logic.py [--sample N] [--seed S] [--sets top1465,17clue,sudoku_exchange,forum_hardest]
                               [--peers larsdoku,pencilmark,hodoku] [--techniques default]
                               [--timeout SECONDS] [--slowest K]

Peers (outside programs, installed only here, never imported by the package):

* ``larsdoku`` -- ``larsdoku.solve(line)`` in its default mode (numba bitboards; its
  zone / rule oracles are off by default); "solved" when it reports success with no
  ``ORACLE_ONLY`` step.
* ``pencilmark`` -- pencilmark's logical pass (``cbackend.solve(model.standard(9, 3, 3,
  line), _params("human"))``, C++, no guessing; model building included), its grid read
  back from the placements of its steps.
* ``hodoku`` -- hodoku-py (a pure-Python HoDoKu port; GPL); ``BRUTE_FORCE`` steps count as
  not solved.

Each solver runs in its own worker process and first solves one warm-up puzzle untimed
(imports, numba compilation, cached tables). The workers take turns puzzle by puzzle, so
slow drifts of the shared machine hit them alike. A worker times only the solve call, in
CPU time of its own process. Every "solved" answer is checked against the solution (this
project's search, in the parent process); a wrong one stops the run.

Reported per set: logic-solve rate per solver, median and total CPU, and the ratios
ours / peer of the totals and of the medians; ``--slowest K`` lists our K slowest puzzles.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: the shared reference data (/work/shared/data, next to the main checkout or a worktree's parent)
DATA = next((p / "shared" / "data" / "classic" for p in (ROOT.parent, ROOT.parent.parent)
             if (p / "shared" / "data" / "classic").is_dir()), ROOT.parent / "shared" / "data" / "classic")
#: set name -> (file, column of the puzzle, header lines to skip)
SETS = {
    "top1465": ("top1465.txt", 0, 0),
    "17clue": ("17clue_5000.txt", 0, 0),
    "sudoku_exchange": ("sudoku_exchange_1000_rated.tsv", 0, 1),
    "forum_hardest": ("forum_hardest_1106.txt", 0, 0),
    "top95": ("top95.txt", 0, 0),
    "qqwing_expert": ("qqwing_expert.txt", 0, 0),
}
WARMUP = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

#: a solver answers a puzzle line with (status, grid): status "solved" (grid = 81 digits),
#: "stuck" (its logic ran out) or "limit" (ours past --timeout)
Answer = tuple[str, str]


def load(name: str) -> list[str]:
    fn, col, skip = SETS[name]
    path = DATA / fn
    if not path.exists():
        path = ROOT / "tests" / "data" / fn
    out = []
    with open(path) as f:
        for i, line in enumerate(f):
            line = line.strip()
            if i < skip or not line or line.startswith("#"):
                continue
            out.append(line.split()[col].split(",")[0])
    return out


def make_ours(techniques: str, timeout: float) -> Callable[[str], Answer]:
    from techniques import StepSolver
    from variants.classic import classic_puzzle
    solver = StepSolver(techniques)

    def solve(line: str) -> Answer:
        r = solver.solve(classic_puzzle(line), time_limit=timeout)
        if r.status == "solved":
            return "solved", "".join(map(str, r.state.values()))
        return ("limit" if r.status == "limit" else "stuck"), ""
    return solve


def make_larsdoku() -> Callable[[str], Answer]:
    import larsdoku  # type: ignore

    def solve(line: str) -> Answer:
        r = larsdoku.solve(line)
        if r.get("success") and "ORACLE_ONLY" not in (r.get("technique_counts") or {}):
            return "solved", str(r["board"])
        return "stuck", ""
    return solve


def make_pencilmark() -> Callable[[str], Answer]:
    from pencilmark import cbackend, model  # type: ignore
    from pencilmark.api import _params  # type: ignore
    params = _params("human")

    def solve(line: str) -> Answer:
        steps, solved = cbackend.solve(model.standard(9, 3, 3, line), params)
        if not solved:
            return "stuck", ""
        grid = [c if c.isdigit() and c != "0" else "0" for c in line]
        for s in steps:
            if s.move.place is not None:
                cell, digit = s.move.place
                grid[cell] = str(digit)
        return "solved", "".join(grid)
    return solve


def make_hodoku() -> Callable[[str], Answer]:
    from hodoku import Solver as HSolver  # type: ignore
    h = HSolver()

    def solve(line: str) -> Answer:
        hr = h.solve(line)
        if hr.solved and not any(s.type.name == "BRUTE_FORCE" for s in hr.steps):
            sol = getattr(hr, "solution", None)
            return "solved", ("".join(map(str, sol)) if sol is not None else "")
        return "stuck", ""
    return solve


MAKERS: dict[str, Callable[..., Callable[[str], Answer]]] = {
    "larsdoku": make_larsdoku, "pencilmark": make_pencilmark, "hodoku": make_hodoku}


def worker(name: str, conn, techniques: str, timeout: float) -> None:
    """One solver in its own process: set up, warm up untimed, then answer puzzle lines
    with (CPU seconds of the solve call, status, grid) until it receives None."""
    try:
        solve = make_ours(techniques, timeout) if name == "ours" else MAKERS[name]()
        solve(WARMUP)
    except Exception as e:  # not installed / broken: the parent drops this peer
        conn.send(("error", f"{type(e).__name__}: {e}"))
        return
    conn.send(("ready", ""))
    clock = time.process_time
    while True:
        line = conn.recv()
        if line is None:
            return
        t0 = clock()
        status, grid = solve(line)
        conn.send((clock() - t0, status, grid))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=0, help="puzzles per set (0 = all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sets", default="top1465,17clue,sudoku_exchange,forum_hardest")
    ap.add_argument("--peers", default="larsdoku,pencilmark,hodoku",
                    help="comma-separated peers; empty for this project only")
    ap.add_argument("--techniques", default="default")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per puzzle (ours)")
    ap.add_argument("--slowest", type=int, default=0, help="list our K slowest puzzles per set")
    args = ap.parse_args(argv)

    ctx = mp.get_context("spawn")
    names = ["ours"] + [p for p in args.peers.split(",") if p]
    workers: dict[str, tuple] = {}
    for name in names:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=worker, args=(name, child, args.techniques, args.timeout),
                           daemon=True)
        proc.start()
        workers[name] = (proc, parent)
    for name in list(workers):
        proc, conn = workers[name]
        kind, msg = conn.recv()
        if kind == "error":
            print(f"{name}: not available ({msg}); skipped", file=sys.stderr)
            proc.join()
            del workers[name]

    from variants.classic import classic_puzzle
    rows = []
    for set_name in args.sets.split(","):
        puzzles = load(set_name)
        if args.sample and args.sample < len(puzzles):
            puzzles = random.Random(args.seed).sample(puzzles, args.sample)
        times: dict[str, list[float]] = {n: [] for n in workers}
        solved: dict[str, int] = {n: 0 for n in workers}
        limits = 0
        for i, line in enumerate(puzzles):
            solution = "".join(map(str, classic_puzzle(line).solve().solution))
            for name, (_proc, conn) in workers.items():
                conn.send(line)
                dt, status, grid = conn.recv()
                times[name].append(dt)
                if status == "solved":
                    if grid and grid != solution:
                        raise SystemExit(f"{name}: wrong logic solution for {line}")
                    solved[name] += 1
                elif status == "limit":
                    limits += 1
            print(f"\r{set_name}: {i + 1}/{len(puzzles)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        rows.append((set_name, puzzles, times, solved, limits))

    for _name, (proc, conn) in workers.items():
        conn.send(None)
        proc.join()
    report(rows, list(workers), args.slowest)
    return 0


def report(rows: list, names: list[str], slowest: int) -> None:
    """Markdown tables: per set and solver, the solve rate, median and total CPU, and the
    ratios ours / peer."""
    peers = [n for n in names if n != "ours"]
    head = "| set | n | solver | solved | median ms | total s | max s | ours/peer total | ours/peer median |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for set_name, puzzles, times, solved, limits in rows:
        ours = times["ours"]
        for name in names:
            t = times[name]
            med, tot = statistics.median(t), sum(t)
            ratio = ""
            if name != "ours":
                ratio = f"{sum(ours) / tot:.2f} | {statistics.median(ours) / med:.2f}"
            else:
                ratio = " | "
            extra = f" ({limits} past the limit)" if name == "ours" and limits else ""
            print(f"| {set_name} | {len(puzzles)} | {name} | {solved[name]}{extra} | "
                  f"{med * 1000:.1f} | {tot:.2f} | {max(t):.2f} | {ratio} |")
    if slowest:
        for set_name, puzzles, times, _solved, _limits in rows:
            order = sorted(range(len(puzzles)), key=lambda i: -times["ours"][i])[:slowest]
            print(f"\nslowest of ours on {set_name}:")
            for i in order:
                line = puzzles[i]
                print(f"  {times['ours'][i]:7.3f} s  "
                      + "  ".join(f"{n} {times[n][i]:.3f}" for n in peers) + f"  {line}")


if __name__ == "__main__":
    raise SystemExit(main())
