"""CPU of the default logic solve on the puzzles of a saved step-path file that the singles
alone solve ("easy"), or on the others ("mid").

    python benchmarks/step_paths.py --save /tmp/paths.json --sets 17clue,sudoku_exchange --sample 200
    python benchmarks/singles_only.py /tmp/paths.json [--which easy|mid] [--repeat 3]

Times ``StepSolver("default").solve(classic_puzzle(line))`` (puzzle building included, as
benchmarks/logic.py does) in CPU time of this process, after one untimed warm-up solve, and
prints the puzzles, the total and the mean per puzzle.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from techniques import StepSolver  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402

SINGLES = {"full_house", "naked_single", "hidden_single"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", type=Path, help="a file of benchmarks/step_paths.py --save")
    ap.add_argument("--which", choices=("easy", "mid"), default="easy")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    try:
        paths = json.loads(args.paths.read_text())["paths"]
    except (OSError, ValueError, KeyError) as e:
        ap.error(f"cannot read {args.paths}: {e}")
    easy = args.which == "easy"
    lines = [line for line, p in paths.items() if p["status"] == "solved"
             and all(s[0] in SINGLES for s in p["steps"]) == easy]
    if not lines:
        ap.error(f"no {args.which} puzzle in {args.paths}")
    solver = StepSolver("default")
    solver.solve(classic_puzzle(lines[0]))
    t0 = time.process_time()
    for _ in range(args.repeat):
        for line in lines:
            solver.solve(classic_puzzle(line))
    dt = time.process_time() - t0
    print(f"{args.which}: {len(lines)} puzzles x {args.repeat}, {dt:.3f} s CPU, "
          f"{dt / len(lines) / args.repeat * 1e3:.3f} ms a puzzle")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
