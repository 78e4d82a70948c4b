"""Variant puzzles: brute force and logic-only solving on the f-puzzles CC BY set.

    python benchmarks/variants.py [--limit SECONDS] [--logic] [--only killercage,irregular]
                                  [--markdown]

For each of the 136 puzzles of tests/data/fpuzzles_cc_by.jsonl: load (f-puzzles JSON),
brute force (propagation + search, uniqueness checked) and, with ``--logic``, the logic-only
solver (techniques, never guessing). Reports per puzzle and in total: time, search nodes,
whether the stated solution came out; the median over killer and jigsaw puzzles is the issue's
interactivity figure. There is no Python peer for variant brute force, so no ratio is given.
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
from variants.fpuzzles import load_fpuzzles  # noqa: E402

DATA = ROOT / "tests" / "data" / "fpuzzles_cc_by.jsonl"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per puzzle and solver")
    ap.add_argument("--logic", action="store_true", help="also run the logic-only solver")
    ap.add_argument("--only", default="", help="comma-separated categories to keep")
    ap.add_argument("--markdown", action="store_true", help="print a markdown summary")
    args = ap.parse_args()
    rows = [json.loads(x) for x in open(DATA, encoding="utf-8")]
    if args.only:
        keep = set(args.only.split(","))
        rows = [r for r in rows if keep & set(r["categories"])]
    bf_times: list[float] = []
    bf_ok = 0
    kj_bf: list[float] = []
    kj_logic: list[float] = []
    logic_ok = 0
    stuck: list[str] = []
    for i, r in enumerate(rows):
        p = load_fpuzzles(r["fpuzzles_json"])
        t0 = time.perf_counter()
        try:
            res = p.solve(time_limit=args.limit)
            good = res.status == "solved" and "".join(map(str, res.solution)) == r["solution"]
            status = res.status
            nodes = res.nodes
        except SearchLimit:
            good, status, nodes = False, "limit", -1
        dt = time.perf_counter() - t0
        bf_times.append(dt)
        bf_ok += good
        kj = bool({"killercage", "irregular"} & set(r["categories"]))
        if kj:
            kj_bf.append(dt)
        line = f"{i:3d} bf {dt * 1000:9.1f} ms {nodes:7d} nodes {status:10s} {'ok' if good else 'MISMATCH'}"
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
                stuck.append(f"{r['title']} ({', '.join(r['categories'])})")
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
            print(f"  stuck: {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
