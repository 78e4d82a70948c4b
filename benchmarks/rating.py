"""Calibration of our ratings against published Sudoku Explainer ratings.

    python benchmarks/rating.py [--sets sudoku_exchange,forum_hardest] [--sample N] [--seed S]
                                [--timeout SECONDS] [--modes extended,se121] [--no-hodoku-style]
                                [--show-worst K] [--stratified] [--every K [--offset O]]
                                [--workers N]

Reference ratings: ``sudoku_exchange_1000_rated.tsv`` (column ``se_rating``, SE 1.2-9.1)
and the ``ER`` column of ``forum_hardest_1106_rated.csv`` (the rows that have one), both
in /work/shared/data/classic/. For each puzzle we compute our HoDoKu-style score
(``StepSolver().solve(p).rating.score``) and our SE-like ER in each mode
(:mod:`techniques.se_rating`), and report the Spearman rank correlation of each with the
reference, the mean absolute and the mean signed error of ER, the share of exact ER matches and of matches
within 0.1, 0.2 and 0.5, and the total and median CPU time per puzzle.

A puzzle whose logic solve exceeds ``--timeout`` seconds of CPU time (per rating; CPU, not
wall time, so a loaded machine does not cut runs short) keeps the rating of the steps found
so far -- it is counted, and the number of such puzzles is reported. ``--every K --offset
O`` takes every K-th puzzle in the order of the reference rating from the O-th on (the
fitting and held-out samples of docs/se-rating.md: ``--every 22 --offset 0`` / ``11``,
with ``--sample 12``).
``--workers N`` rates N puzzles at a time in worker processes (each puzzle's CPU is its
worker's; the sums and medians are the same figures, the wall time shorter).
Spearman's rho here is the Pearson correlation of average ranks (ties share their mean
rank), computed in this file (no scipy needed).
"""
from __future__ import annotations

import argparse
import csv
import multiprocessing
import random
import sys
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, Iterator, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from csp.budget import Budget  # noqa: E402
from techniques import StepSolver  # noqa: E402
from techniques.se_rating import SESolver  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402

# the shared data folder next to the checkout (or next to the worktrees' parent)
DATA = next((d for d in (ROOT.parent / "shared" / "data" / "classic",
                         ROOT.parent.parent / "shared" / "data" / "classic") if d.exists()),
            ROOT.parent / "shared" / "data" / "classic")
CLOCK = time.process_time


def _data_file(name: str) -> Path:
    """``name`` in the shared data folder, else the copy in tests/data (a lone clone)."""
    path = DATA / name
    if not path.exists() and (ROOT / "tests" / "data" / name).exists():
        return ROOT / "tests" / "data" / name
    return path


def load_sudoku_exchange() -> list[tuple[str, float]]:
    out = []
    with open(_data_file("sudoku_exchange_1000_rated.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out.append((row["puzzle"], float(row["se_rating"])))
    return out


def load_forum_hardest() -> list[tuple[str, float]]:
    out = []
    with open(DATA / "forum_hardest_1106_rated.csv") as f:
        for row in csv.DictReader(f):
            if row.get("ER"):
                out.append((row["puzzle"], float(row["ER"])))
    return out


SETS = {"sudoku_exchange": load_sudoku_exchange, "forum_hardest": load_forum_hardest}


def ranks(xs: Sequence[float]) -> list[float]:
    """Average ranks (1-based; ties get their mean rank).

    >>> ranks([10, 20, 20, 5])
    [2.0, 3.5, 3.5, 1.0]
    """
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson correlation of average ranks).

    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40]), spearman([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def rate_one(line: str, modes: tuple[str, ...], timeout: float,
             hodoku_style: bool = True) -> dict[str, tuple[float, float, bool]]:
    """One puzzle's ratings: ``{key: (value, CPU seconds, finished)}`` for the HoDoKu-style
    score (key ``hodoku_style``) and each SE mode's ER (an unfinished rating keeps the
    hardest step found so far). Run in the parent or in a ``--workers`` process."""
    p = classic_puzzle(line)
    p.unique = True
    out: dict[str, tuple[float, float, bool]] = {}
    if hodoku_style:
        t0 = CLOCK()
        res = StepSolver(unique=True).solve(p, budget=Budget(cpu_limit=timeout))
        out["hodoku_style"] = (res.rating.score, CLOCK() - t0, res.status == "solved")
    for m in modes:
        t0 = CLOCK()
        r = SESolver(m, unique=True).rate(p, budget=Budget(cpu_limit=timeout))
        er = r.er if r.solved else max((s.value for s in r.steps), default=0) / 10
        out[m] = (er, CLOCK() - t0, r.solved)
    return out


@contextmanager
def _pool(workers: int) -> Iterator[Any]:
    """A process pool of ``workers`` (None for 1: rate in this process)."""
    if workers <= 1:
        yield None
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield pool


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="sudoku_exchange")
    ap.add_argument("--sample", type=int, default=0, help="puzzles per set (0 = all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stratified", action="store_true",
                    help="sample every k-th puzzle by reference rating, not at random")
    ap.add_argument("--every", type=int, default=0,
                    help="every K-th puzzle by reference rating (with --offset)")
    ap.add_argument("--offset", type=int, default=0, help="first puzzle of --every")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="CPU seconds per puzzle and rating")
    ap.add_argument("--modes", default="extended,se121")
    ap.add_argument("--no-hodoku-style", action="store_true",
                    help="skip our HoDoKu-style score")
    ap.add_argument("--workers", type=int, default=1,
                    help="rate in this many worker processes (each puzzle's CPU time is "
                         "measured in its worker; the figures are the same sums)")
    ap.add_argument("--show-worst", type=int, default=0,
                    help="list the K puzzles whose ER differs most from the reference")
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    for name in args.sets.split(","):
        data = SETS[name]()
        total = len(data)
        if args.every:
            data = sorted(data, key=lambda x: x[1])[args.offset::args.every]
            if args.sample:
                data = data[:args.sample]
        elif args.sample and args.sample < len(data) and args.stratified:
            # every k-th puzzle in the order of the reference rating
            data = sorted(data, key=lambda x: x[1])
            data = [data[i * len(data) // args.sample] for i in range(args.sample)]
        elif args.sample and args.sample < len(data):
            data = random.Random(args.seed).sample(data, args.sample)
        ref = [r for _, r in data]
        ours: dict[str, list[float]] = {}
        times: dict[str, float] = {}
        each: dict[str, list[float]] = {}
        timeouts: dict[str, int] = {}
        job = partial(rate_one, modes=tuple(modes), timeout=args.timeout,
                      hodoku_style=not args.no_hodoku_style)
        lines = [line for line, _ in data]
        with _pool(args.workers) as pool:
            results = pool.imap(job, lines) if pool else map(job, lines)
            for k, got in enumerate(results):
                for key, (value, cpu, finished) in got.items():
                    ours.setdefault(key, []).append(value)
                    times[key] = times.get(key, 0) + cpu
                    each.setdefault(key, []).append(cpu)
                    if not finished:
                        timeouts[key] = timeouts.get(key, 0) + 1
                if (k + 1) % 50 == 0:
                    print(f"  {name}: {k + 1}/{len(data)}", file=sys.stderr, flush=True)
        print(f"## {name}: {len(data)} of {total} puzzles (seed {args.seed}), "
              f"timeout {args.timeout:g} s of CPU, {time.strftime('%Y-%m-%d')}")
        print(f"{'rating':<14} {'spearman':>8} {'mae':>5} {'bias':>6} {'exact':>6} {'<=0.1':>6} "
              f"{'<=0.2':>6} {'<=0.5':>6} {'cpu s':>8} {'median':>6} {'unfinished':>10}")
        for key, vals in ours.items():
            rho = spearman(vals, ref)
            if key == "hodoku_style":
                mae, bias, shares, median = "-", "-", ["-"] * 4, "-"
            else:
                mae = f"{sum(abs(a - b) for a, b in zip(vals, ref)) / len(ref):.2f}"
                bias = f"{sum(a - b for a, b in zip(vals, ref)) / len(ref):+.2f}"
                shares = [f"{sum(abs(a - b) <= tol for a, b in zip(vals, ref)) / len(ref):.0%}"
                          for tol in (0.05, 0.15, 0.25, 0.55)]
                median = f"{sorted(each[key])[len(each[key]) // 2]:.2f}"
            print(f"{key:<14} {rho:>8.3f} {mae:>5} {bias:>6} {shares[0]:>6} {shares[1]:>6} "
                  f"{shares[2]:>6} {shares[3]:>6} {times[key]:>8.1f} {median:>6} "
                  f"{timeouts.get(key, 0):>10}")
        if args.show_worst and modes:
            m = modes[0]
            worst = sorted(range(len(data)), key=lambda i: -abs(ours[m][i] - ref[i]))
            for i in worst[:args.show_worst]:
                print(f"  {data[i][0]} ref {ref[i]:.1f} ours({m}) {ours[m][i]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
