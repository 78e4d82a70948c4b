"""Soundness sweep: logic-solve puzzles with known solutions using every registered technique
(``StepSolver("all")``, also the ones disabled by default, uniqueness ones included: every
puzzle here has one solution) and check every applied step against the solution
(:func:`techniques.verify.check_solve`).

An unsound step (a placed digit that is not the solution's, an eliminated solution digit, or
a step the state cannot take) fails the sweep. A solve that ends stuck or at its per-puzzle
time limit is no soundness failure; the counts per set are printed.

Sets (all in ``tests/data``): Sudoku Exchange (SE 1.2-9.1; solutions by brute force),
QQWing expert, magictour top1465 and the forum's hardest (HardestDatabase110626).
The default run sweeps a fixed 200-puzzle subset; the ``slow`` sweep sweeps 2,000 puzzles in
a process pool of ``os.cpu_count()`` workers.
"""
from __future__ import annotations

import csv
import multiprocessing as mp
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Sequence

import pytest

from techniques.verify import CheckedSolve, check_solve
from variants.classic import classic_puzzle

from conftest import DATA, load_solutions

#: sweep set name -> solutions file stem in tests/data (None: solved by brute force)
SETS: dict[str, str | None] = {
    "sudoku_exchange": None,
    "qqwing_expert": "qqwing_expert",
    "top1465": "tdoku_magictour_top1465",
    "forum_hardest": "forum_hardest_110626",
}

STATUSES = ("solved", "stuck", "limit", "unsound")


@dataclass(frozen=True)
class Job:
    set_name: str
    index: int          # 0-based line of the puzzle in its data file (header excluded)
    puzzle: str
    solution: tuple[int, ...]
    time_limit: float


def load_exchange(limit: int | None = None) -> list[tuple[str, list[int]]]:
    """(puzzle, solution) pairs of the Sudoku Exchange sample, solved by brute force; each
    must have exactly one solution (the uniqueness techniques rely on it)."""
    out: list[tuple[str, list[int]]] = []
    with open(DATA / "sudoku_exchange_1000_rated.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            res = classic_puzzle(row["puzzle"]).solve()
            assert res.status == "solved", (row["puzzle"], res.status)
            out.append((row["puzzle"], list(res.solution)))
            if limit is not None and len(out) >= limit:
                break
    return out


def load_set(name: str, limit: int | None = None) -> list[tuple[str, list[int]]]:
    stem = SETS[name]
    return load_exchange(limit) if stem is None else load_solutions(stem, limit)


def spread(size: int, k: int) -> list[int]:
    """``k`` indices spread evenly over ``range(size)`` (all of them when ``k >= size``)."""
    if k >= size:
        return list(range(size))
    return [i * size // k for i in range(k)]


def jobs_for(name: str, indices: Sequence[int], time_limit: float) -> list[Job]:
    pairs = load_set(name, max(indices) + 1)
    return [Job(name, i, pairs[i][0], tuple(pairs[i][1]), time_limit) for i in indices]


def run_job(job: Job) -> tuple[Job, CheckedSolve]:
    return job, check_solve(classic_puzzle(job.puzzle), job.solution, "all",
                            time_limit=job.time_limit, unique=True)


def run_jobs(jobs: Sequence[Job], workers: int) -> list[tuple[Job, CheckedSolve]]:
    """Every job, in a pool of ``workers`` processes (serially for one)."""
    if workers <= 1:
        return [run_job(j) for j in jobs]
    # the long jobs (hard sets, long limits) first: the pool ends with short ones
    order = sorted(range(len(jobs)), key=lambda i: -jobs[i].time_limit)
    # fork where there is one: the workers then need not import this test module by name
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    with ProcessPoolExecutor(workers, mp_context=ctx) as ex:
        done = list(ex.map(run_job, [jobs[i] for i in order], chunksize=1))
    out: list[tuple[Job, CheckedSolve] | None] = [None] * len(jobs)
    for i, r in zip(order, done):
        out[i] = r
    return [r for r in out if r is not None]


def summary(results: Sequence[tuple[Job, CheckedSolve]], wall: float) -> str:
    """Counts per set (solved/stuck/limit/unsound), CPU and elapsed seconds, the slowest
    puzzle, the puzzles that hit their limit (when few), and the steps per technique."""
    lines = [f"soundness sweep: {len(results)} puzzles, every technique, {wall:.1f} s wall"]
    techs: Counter = Counter()
    for name in SETS:
        done = [(j, r) for j, r in results if j.set_name == name]
        if not done:
            continue
        rs = [r for _, r in done]
        c = Counter(r.status for r in rs)
        limit = max(j.time_limit for j, _ in done)
        lines.append(f"  {name:16s} {len(rs):5d} puzzles: "
                     + " ".join(f"{s} {c[s]}" for s in STATUSES)
                     + f"; {sum(r.cpu_seconds for r in rs):.1f} s CPU, "
                     f"{sum(r.seconds for r in rs):.1f} s elapsed, slowest "
                     f"{max(r.seconds for r in rs):.1f} s (limit {limit:g} s), "
                     f"{sum(r.steps for r in rs)} steps")
        out = [j.index for j, r in done if r.status in ("limit", "stuck")]
        if 0 < len(out) <= 10:
            lines.append(f"    not solved (limit or stuck): #{', #'.join(map(str, out))}")
        for r in rs:
            techs.update(r.counts)
    lines.append(f"  {len(techs)} techniques applied steps: "
                 + ", ".join(f"{t} {n}" for t, n in techs.most_common()))
    return "\n".join(lines)


def sweep(plan: dict[str, tuple[Sequence[int], float]], workers: int,
          capsys: pytest.CaptureFixture[str]) -> list[tuple[Job, CheckedSolve]]:
    """Run the sweep ``plan`` (set -> indices, time limit), print the summary past pytest's
    capture (so CI logs show it) and assert no step was unsound."""
    jobs = [j for name, (idx, limit) in plan.items() for j in jobs_for(name, idx, limit)]
    t0 = time.perf_counter()
    results = run_jobs(jobs, workers)
    text = summary(results, time.perf_counter() - t0)
    with capsys.disabled():
        print("\n" + text)
    assert len(results) == len(jobs)
    bad = [f"{j.set_name} #{j.index} {j.puzzle}\n{r.problem}" for j, r in results
           if r.status == "unsound"]
    assert not bad, "\n\n".join(bad)
    assert all(r.status in STATUSES for _, r in results)
    return results


#: top1465 puzzles that every technique solves in well under a second (measured), using
#: chains, ALS, Sue de Coq, finned fish and uniqueness steps on the way
TOP1465_FAST = (24, 48, 268, 317, 341, 415, 634, 683, 708, 805, 854, 879, 927, 976, 1049,
                1123, 1294, 1367)

#: the default run: 200 puzzles, about 20 s serially
DEFAULT_PLAN: dict[str, tuple[Sequence[int], float]] = {
    "sudoku_exchange": (spread(1000, 100), 10.0),
    "qqwing_expert": (spread(1000, 80), 10.0),
    "top1465": (TOP1465_FAST, 10.0),
    "forum_hardest": ((0, 187), 2.0),      # a few first steps of two of the hardest
}

#: the slow run: 2,000 puzzles. On hard states the big finned Franken and Mutant fish take
#: seconds per step (forum hardest: about 10 s a step), so the hard sets get short limits:
#: top1465 solves either within about 1.5 s or not within 30 s
LONG_PLAN: dict[str, tuple[Sequence[int], float]] = {
    "sudoku_exchange": (spread(1000, 1000), 10.0),
    "qqwing_expert": (spread(1000, 500), 10.0),
    "top1465": (spread(1465, 400), 3.0),
    "forum_hardest": (spread(375, 100), 5.0),
}

#: the slow run of CI (``-m slow``): a quarter of the long run, every set represented (the
#: 2,000 took 814 s on two loaded cores: more than CI's time budget allows beside the others)
SLOW_PLAN: dict[str, tuple[Sequence[int], float]] = {
    "sudoku_exchange": (spread(1000, 250), 10.0),
    "qqwing_expert": (spread(1000, 125), 10.0),
    "top1465": (spread(1465, 100), 3.0),
    "forum_hardest": (spread(375, 25), 5.0),
}


def test_plans_have_the_promised_sizes() -> None:
    assert sum(len(idx) for idx, _ in DEFAULT_PLAN.values()) == 200
    assert sum(len(idx) for idx, _ in SLOW_PLAN.values()) == 500
    assert sum(len(idx) for idx, _ in LONG_PLAN.values()) >= 2000
    for plan in (DEFAULT_PLAN, SLOW_PLAN, LONG_PLAN):
        for idx, _ in plan.values():
            assert len(set(idx)) == len(idx)


def test_sweep_catches_an_unsound_step() -> None:
    """The check is not vacuous: against a wrong 'solution' (two digits swapped everywhere)
    the very first placement or elimination is reported, and the solve stops there."""
    puzzle, sol = load_solutions("qqwing_expert", 1)[0]
    wrong = tuple({1: 2, 2: 1}.get(d, d) for d in sol)
    r = check_solve(classic_puzzle(puzzle), wrong, "all", time_limit=10)
    assert r.status == "unsound"
    assert r.problem is not None and "state before the step" in r.problem
    assert ("eliminates solution digit" in r.problem or "places" in r.problem)


def test_soundness_sweep_sample(capsys: pytest.CaptureFixture[str]) -> None:
    results = sweep(DEFAULT_PLAN, 1, capsys)
    # the path is checked to the end, not just its first steps: (nearly) all are solved
    assert sum(r.status == "solved" for _, r in results) >= 190


@pytest.mark.slow
@pytest.mark.heavy
def test_soundness_sweep_500(capsys: pytest.CaptureFixture[str]) -> None:
    sweep(SLOW_PLAN, os.cpu_count() or 1, capsys)


@pytest.mark.long
def test_soundness_sweep_2000(capsys: pytest.CaptureFixture[str]) -> None:
    sweep(LONG_PLAN, os.cpu_count() or 1, capsys)
