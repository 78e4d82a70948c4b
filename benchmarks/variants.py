"""Variant puzzles: brute force and logic-only solving on the f-puzzles CC BY set.

    python benchmarks/variants.py [--limit SECONDS] [--logic] [--only killercage,irregular]
                                  [--method auto|search|sat] [--compare]

For each of the 136 puzzles of tests/data/fpuzzles_cc_by.jsonl: load (f-puzzles JSON),
brute force (propagation + search, uniqueness checked) and, with ``--logic``, the logic-only
solver (techniques, never guessing). Reports per puzzle and in total: time, search nodes,
whether the stated solution came out; the median over killer and jigsaw puzzles is the issue's
interactivity figure. There is no Python peer for variant brute force; ``--compare`` runs
brute force three ways in one run (``solve(method=...)``: auto, depth-first search alone and
the SAT solver alone) and reports the ratios.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from csp.errors import SearchLimit  # noqa: E402
from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402

DATA = ROOT / "tests" / "data" / "fpuzzles_cc_by.jsonl"


def brute(row: dict, method: str, limit: float) -> tuple[bool, str, int, float, str]:
    """(stated solution found, status, depth-first nodes, seconds, method that answered)."""
    p = load_fpuzzles(row["fpuzzles_json"])
    t0 = time.perf_counter()
    try:
        res = p.solve(time_limit=limit, method=method)
        good = res.status == "solved" and "".join(map(str, res.solution)) == row["solution"]
        status, nodes, used = res.status, res.nodes, res.method
    except SearchLimit:
        good, status, nodes, used = False, "limit", -1, "-"
    return good, status, nodes, time.perf_counter() - t0, used


def compare(rows: list[dict], limit: float) -> int:
    """Brute force with each method, one puzzle at a time (all methods on a puzzle before the
    next, so machine load hits them alike); per-puzzle times and a summary with ratios."""
    methods = ("auto", "search", "sat")
    times: dict[str, list[float]] = {m: [] for m in methods}
    ok = dict.fromkeys(methods, 0)
    for i, r in enumerate(rows):
        cols = []
        for m in methods:
            good, status, _, dt, used = brute(r, m, limit)
            times[m].append(dt if status != "limit" else limit)
            ok[m] += good
            cols.append(f"{m} {dt * 1000:9.1f} ms {used:6s}{'' if good else ' ' + status}")
        print(f"{i:3d} " + " | ".join(cols) + f"  {r['title'][:40]}", flush=True)
    print()
    print("| method | stated solution | median ms | max s | total s | over 1 s | total vs auto |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = sum(times["auto"])
    for m in methods:
        t = times[m]
        print(f"| {m} | {ok[m]}/{len(rows)} | {statistics.median(t) * 1000:.1f} | "
              f"{max(t):.2f} | {sum(t):.1f} | {sum(x > 1 for x in t)} | "
              f"{sum(t) / base:.2f}x |")
    print(f"(a run that hit the {limit:g} s limit counts as {limit:g} s)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per puzzle and solver")
    ap.add_argument("--logic", action="store_true", help="also run the logic-only solver")
    ap.add_argument("--only", default="", help="comma-separated categories to keep")
    ap.add_argument("--method", choices=("auto", "search", "sat"), default="auto",
                    help="brute-force method (Puzzle.solve(method=...))")
    ap.add_argument("--compare", action="store_true",
                    help="brute force with every method side by side (no logic)")
    args = ap.parse_args()
    rows = [json.loads(x) for x in open(DATA, encoding="utf-8")]
    if args.only:
        keep = set(args.only.split(","))
        rows = [r for r in rows if keep & set(r["categories"])]
    if args.compare:
        return compare(rows, args.limit)
    bf_times: list[float] = []
    bf_ok = 0
    kj_bf: list[float] = []
    kj_logic: list[float] = []
    logic_ok = 0
    stuck: list[str] = []
    for i, r in enumerate(rows):
        good, status, nodes, dt, used = brute(r, args.method, args.limit)
        bf_times.append(dt)
        bf_ok += good
        kj = bool({"killercage", "irregular"} & set(r["categories"]))
        if kj:
            kj_bf.append(dt)
        line = (f"{i:3d} bf {dt * 1000:9.1f} ms {nodes:7d} nodes {used:6s} {status:10s} "
                f"{'ok' if good else 'MISMATCH'}")
        if args.logic:
            from techniques import StepSolver
            p2 = load_fpuzzles(r["fpuzzles_json"])
            t1 = time.perf_counter()
            lr = StepSolver("default").solve(p2, time_limit=args.limit)
            dl = time.perf_counter() - t1
            placed = "".join(str(lr.state.placed[c]) for c in range(p2.grid.size))
            lok = lr.status == "solved" and placed == r["solution"]
            logic_ok += lok
            if not lok:
                stuck.append(f"{r['title']} ({', '.join(r['categories'])}): {lr.status}")
            if kj:
                kj_logic.append(dl)
            line += f" | logic {dl * 1000:9.1f} ms {lr.status} {len(lr.steps)} steps"
        print(f"{line}  {r['title'][:40]}", flush=True)
    n = len(rows)
    print()
    print(f"brute force: {bf_ok}/{n} give the stated solution; median "
          f"{statistics.median(bf_times) * 1000:.1f} ms, max {max(bf_times):.2f} s, "
          f"total {sum(bf_times):.1f} s")
    if kj_bf:
        print(f"killer/jigsaw brute force median {statistics.median(kj_bf) * 1000:.1f} ms "
              f"({len(kj_bf)} puzzles)")
    if args.logic:
        print(f"logic only: {logic_ok}/{n} solved ({100 * logic_ok / max(n, 1):.0f}%)")
        if kj_logic:
            print(f"killer/jigsaw logic median {statistics.median(kj_logic) * 1000:.1f} ms")
        for s in stuck:
            print(f"  not solved to the stated solution: {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
