"""Step-path comparison: are the logic solver's steps the same before and after a change?

    python benchmarks/step_paths.py --save /tmp/before.json [--sets top1465] [--sample 200]
    ... change the code ...
    python benchmarks/step_paths.py --compare /tmp/before.json
    python benchmarks/step_paths.py --save /tmp/se.json --sets sudoku_exchange --hardest 20

Solves each puzzle with ``StepSolver(techniques)`` and records, per puzzle, the status and
every step as (technique, placements, eliminations) and its text (``explain(2)``: the
pattern, houses, note and cited rules). ``--compare`` solves the saved puzzles again and
lists every puzzle whose path differs (the first differing step, both versions); it exits 1
when any differs (texts are compared when the saved file has them). Also prints the total CPU of both runs (the saved run's and
this one's), so a speed change can be read off the same command.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from logic import DATA, SETS, load  # noqa: E402

from techniques import StepSolver  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402


def hardest(name: str, k: int) -> list[str]:
    """The ``k`` puzzles of set ``name`` with the highest rating (its second column)."""
    fn, col, skip = SETS[name]
    path = DATA / fn if (DATA / fn).exists() else ROOT / "tests" / "data" / fn
    rated = []
    for i, line in enumerate(path.read_text().splitlines()):
        parts = line.split()
        if i >= skip and len(parts) > col + 1:
            try:
                rated.append((float(parts[col + 1]), parts[col]))
            except ValueError:
                continue
    if not rated:
        raise SystemExit(f"step_paths.py: error: set {name} has no rating column")
    return [line for _, line in sorted(rated, key=lambda r: -r[0])[:k]]


def path(solver: StepSolver, line: str, timeout: float) -> tuple[dict, float]:
    """The status and steps of one solve, and its CPU seconds."""
    t0 = time.process_time()
    r = solver.solve(classic_puzzle(line), time_limit=timeout)
    dt = time.process_time() - t0
    steps = [[s.technique, sorted(map(list, s.placements)), sorted(map(list, s.eliminations))]
             for s in r.steps]
    return {"status": r.status, "steps": steps, "texts": [s.explain(2) for s in r.steps]}, dt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--save", type=Path, help="record the paths into this JSON file")
    ap.add_argument("--compare", type=Path, help="compare with the paths saved there")
    ap.add_argument("--sets", default="top1465")
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hardest", type=int, default=0,
                    help="instead of a sample, the K puzzles of each set rated highest "
                         "(sets with a rating column: sudoku_exchange)")
    ap.add_argument("--techniques", default="default")
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args(argv)
    if bool(args.save) == bool(args.compare):
        ap.error("give one of --save and --compare")
    solver = StepSolver(args.techniques)
    if args.save:
        puzzles = []
        for name in args.sets.split(","):
            ps = load(name)
            if args.hardest:
                ps = hardest(name, args.hardest)
            elif args.sample and args.sample < len(ps):
                ps = random.Random(args.seed).sample(ps, args.sample)
            puzzles += ps
        out, total = {}, 0.0
        for i, line in enumerate(puzzles):
            out[line], dt = path(solver, line, args.timeout)
            out[line]["cpu"] = dt
            total += dt
            print(f"\r{i + 1}/{len(puzzles)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        args.save.write_text(json.dumps({"techniques": args.techniques, "paths": out}))
        print(f"{len(puzzles)} puzzles, {total:.2f} s CPU")
        return 0
    saved = json.loads(args.compare.read_text())
    before_total = after_total = 0.0
    differ = 0
    for i, (line, old) in enumerate(saved["paths"].items()):
        new, dt = path(solver, line, args.timeout)
        before_total += old["cpu"]
        after_total += dt
        key = "texts" if "texts" in old else "steps"
        if (new["status"], new["steps"], new[key]) != (old["status"], old["steps"], old[key]):
            differ += 1
            k = next((j for j, (a, b) in enumerate(zip(old[key], new[key])) if a != b),
                     min(len(old[key]), len(new[key])))
            print(f"{line}: differs at step {k} ({old['status']} -> {new['status']}):\n"
                  f"  before {old[key][k] if k < len(old[key]) else None}\n"
                  f"  after  {new[key][k] if k < len(new[key]) else None}")
        print(f"\r{i + 1}/{len(saved['paths'])}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    n = len(saved["paths"])
    print(f"{n} puzzles, {differ} with a different path; CPU before {before_total:.2f} s, "
          f"after {after_total:.2f} s ({after_total / max(before_total, 1e-9):.2f}x)")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
