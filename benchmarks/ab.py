"""Before and after a change: the same work in two checkouts, side by side in one run.

    git worktree add /tmp/base main               # the checkout to compare against
    python benchmarks/ab.py --base /tmp/base [--work classic,variants,brute,big] [--sample N]

A refactor must keep every benchmark ratio (issue 28: "no slower anywhere"). Timing the
peers' benchmarks twice on a shared, noisy machine compares two noisy runs; this runs the
work of those benchmarks in two worker processes at once -- one importing the packages of
``--base``, one those of this checkout -- taking turns call by call, each timing the call
alone in CPU time of its own process, and checks that both give the same answer (the logic
solver's status and step count, brute force's solution; an answer of ``limit`` on either side
is not compared: time limits and the searches' own time budgets read the shared clock).

Work (``--work``):

* ``classic`` -- the logic solver (default techniques) on top1465 and Sudoku Exchange
  puzzles (as ``benchmarks/logic.py``);
* ``variants`` -- the logic solver on the f-puzzles CC BY set (as ``variants.py --setter``),
  10 s a puzzle;
* ``brute`` -- brute force (``Puzzle.solve``) on the same variant set and on 17-clue puzzles
  (as ``bruteforce.py``);
* ``big`` -- brute force on 16x16 and 25x25 puzzles (as ``scaling.py``).

Reported per work: calls, total and median CPU of each side, after / before, and answers
that differ (which make the run exit 1).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "data"

WORKER = r"""
import json, sys, time
sys.setrecursionlimit(10000)
from techniques import StepSolver
from variants.classic import classic_puzzle
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from sudoku_csp.formats.loader import puzzle_from_text

def build(kind, data):
    if kind == "fpuzzles":
        return load_fpuzzles(data)
    if kind == "line":
        return classic_puzzle(data) if len(data) == 81 else puzzle_from_text(data)
    raise ValueError(kind)

for line in sys.stdin:
    job = json.loads(line)
    p = build(job["kind"], job["data"])
    t0 = time.process_time()
    if job["mode"] == "logic":
        r = StepSolver().solve(p, time_limit=job["limit"])
        answer = [r.status, len(r.steps)]
    else:
        r = p.solve(time_limit=job["limit"])
        answer = [r.status, "".join(map(str, r.solution)) if r.solution else None]
    dt = time.process_time() - t0
    print(json.dumps({"cpu": dt, "answer": answer}), flush=True)
"""


def _lines(path: Path, k: int, rng: random.Random, col: int = 0) -> list[str]:
    rows = [ln.strip() for ln in path.read_text().splitlines() if ln.strip()
            and not ln.startswith("#")]
    rows = [r.replace(",", "\t").split("\t")[col] for r in rows]
    rows = [r for r in rows if len(r) >= 81 and set(r) <= set("0123456789.")]
    return rng.sample(rows, min(k, len(rows))) if k else rows


def jobs(work: str, sample: int, rng: random.Random) -> list[dict]:
    out: list[dict] = []
    if work == "classic":
        for name in ("tdoku_magictour_top1465.solutions.csv", "sudoku_exchange_1000_rated.tsv"):
            path = DATA / name
            if path.exists():
                out += [{"kind": "line", "data": x, "mode": "logic", "limit": 20}
                        for x in _lines(path, sample, rng)]
    elif work in ("variants", "brute"):
        rows = [json.loads(x) for x in (DATA / "fpuzzles_cc_by.jsonl").read_text().splitlines()]
        rows = rng.sample(rows, min(sample, len(rows))) if sample else rows
        mode = "logic" if work == "variants" else "search"
        out += [{"kind": "fpuzzles", "data": r["fpuzzles_json"], "mode": mode,
                 "limit": 10 if mode == "logic" else 30} for r in rows]
        if work == "brute":
            out += [{"kind": "line", "data": x, "mode": "search", "limit": 30}
                    for x in _lines(DATA / "17clue_5000.txt", sample, rng)]
    elif work == "big":
        for name in ("sizes_16.solutions.csv", "sizes_25.solutions.csv"):
            path = DATA / name
            rows = [ln.split(",")[0] for ln in path.read_text().splitlines() if ln.strip()
                    and not ln.startswith("puzzle")]
            out += [{"kind": "line", "data": x, "mode": "search", "limit": 60}
                    for x in rows[:max(1, sample // 10)]]
    return out


class Worker:
    def __init__(self, root: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], cwd=str(root), env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, job: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("a worker stopped")
        return json.loads(line)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the checkout to compare against")
    ap.add_argument("--work", default="classic,variants,brute,big")
    ap.add_argument("--sample", type=int, default=40, help="puzzles per set (0: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=0,
                    help="list the K calls of each work with the largest after - before CPU")
    a = ap.parse_args(argv)
    sides = {"before": Worker(Path(a.base).resolve()), "after": Worker(ROOT)}
    rng = random.Random(a.seed)
    bad = 0
    print(f"before: {Path(a.base).resolve()}  after: {ROOT}")
    print("| work | calls | before total s | after total s | after / before (total) "
          "| before median ms | after median ms | different answers |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for work in a.work.split(","):
        todo = jobs(work, a.sample, rng)
        warm = todo[0]
        for w in sides.values():
            w.ask(warm)
        cpu: dict[str, list[float]] = {"before": [], "after": []}
        differ = 0
        for i, job in enumerate(todo):
            order = ["before", "after"] if i % 2 == 0 else ["after", "before"]
            got = {s: sides[s].ask(job) for s in order}
            for s in order:
                cpu[s].append(got[s]["cpu"])
            limited = "limit" in (got["before"]["answer"][0], got["after"]["answer"][0])
            if got["before"]["answer"] != got["after"]["answer"] and not limited:
                differ += 1
                print(f"  {work} #{i}: before {got['before']['answer']}, after "
                      f"{got['after']['answer']}", file=sys.stderr)
            print(f"\r{work} {i + 1}/{len(todo)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        bt, at = sum(cpu["before"]), sum(cpu["after"])
        if a.show:
            worst = sorted(range(len(todo)), key=lambda i: cpu["before"][i] - cpu["after"][i])
            for i in worst[:a.show]:
                print(f"  {work} #{i}: before {cpu['before'][i]:.3f} s, after "
                      f"{cpu['after'][i]:.3f} s: {str(todo[i]['data'])[:90]}", file=sys.stderr)
        print(f"| {work} | {len(todo)} | {bt:.2f} | {at:.2f} | {at / bt if bt else 0:.3f} | "
              f"{statistics.median(cpu['before']) * 1e3:.1f} | "
              f"{statistics.median(cpu['after']) * 1e3:.1f} | {differ} |", flush=True)
        bad += differ
    return 1 if bad else 0


if __name__ == "__main__":
    t0 = time.time()
    rc = main()
    print(f"({time.time() - t0:.0f} s wall)", file=sys.stderr)
    sys.exit(rc)
