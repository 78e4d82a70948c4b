"""Soundness sweep over the variant puzzles: every puzzle of the f-puzzles set with a stated
solution that keeps its own rules, logic-solved with every registered technique
(``StepSolver("all")``: the variant families, set equivalence, the sums and exclusions, and
every classic technique, also those off by default) through
:func:`techniques.verify.check_solve`, which checks each step against the solution before
applying it. An unsound step fails the sweep; a solve that ends stuck or at its time limit
is counted, not failed.

The default run sweeps a sample of quick puzzles; the ``slow`` run sweeps all of them in a
process pool of ``os.cpu_count()`` workers and prints the summary.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import pytest

from techniques.verify import CheckedSolve, check_solve

from conftest import DATA

STATUSES = ("solved", "stuck", "limit", "unsound")


@dataclass(frozen=True)
class Job:
    title: str
    fpuzzles: str          # the f-puzzles JSON text (picklable)
    solution: tuple[int, ...]
    time_limit: float


def jobs(time_limit: float, titles: set[str] | None = None) -> list[Job]:
    """One job per distinct puzzle whose stated solution keeps its rules."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    out: list[Job] = []
    seen: set[str] = set()
    for line in (DATA / "fpuzzles_cc_by.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["title"] in seen or (titles is not None and rec["title"] not in titles):
            continue
        seen.add(rec["title"])
        sol = tuple(int(ch) for ch in rec["solution"])
        if not load_fpuzzles(rec["fpuzzles_json"]).check_solution(sol):
            continue        # a stated solution that breaks its own rules ('Executive Function')
        out.append(Job(rec["title"], json.dumps(rec["fpuzzles_json"]), sol, time_limit))
    return out


def run_job(job: Job) -> tuple[Job, CheckedSolve]:
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    p = load_fpuzzles(json.loads(job.fpuzzles))
    return job, check_solve(p, job.solution, "all", time_limit=job.time_limit, unique=True)


def run_jobs(todo: list[Job], workers: int) -> list[tuple[Job, CheckedSolve]]:
    if workers <= 1:
        return [run_job(j) for j in todo]
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    with ProcessPoolExecutor(workers, mp_context=ctx) as ex:
        return list(ex.map(run_job, todo, chunksize=1))


def sweep(todo: list[Job], workers: int, capsys: pytest.CaptureFixture[str]
          ) -> list[tuple[Job, CheckedSolve]]:
    t0 = time.perf_counter()
    results = run_jobs(todo, workers)
    c = Counter(r.status for _, r in results)
    techs: Counter = Counter()
    for _, r in results:
        techs.update(r.counts)
    text = (f"variant soundness sweep: {len(results)} puzzles, every technique, "
            f"{time.perf_counter() - t0:.1f} s wall, "
            f"{sum(r.cpu_seconds for _, r in results):.1f} s CPU: "
            + " ".join(f"{s} {c[s]}" for s in STATUSES)
            + f", {sum(r.steps for _, r in results)} steps checked\n  "
            + ", ".join(f"{t} {n}" for t, n in techs.most_common()))
    with capsys.disabled():
        print("\n" + text)
    bad = [f"{j.title}\n{r.problem}" for j, r in results if r.status == "unsound"]
    assert not bad, "\n\n".join(bad)
    return results


#: quick puzzles that between them reach the set, sum, exclusion, indexing and order
#: techniques (each solves in well under a second with every technique)
SAMPLE = {"Solver needs SET", "October 10, 2023: Killer", "Mar 20, 2022: XV Arrow",
          "5/31/23: Consec Pairs Quads", "Aug 9, 2022: Irregular Sudoku", "The Initials",
          "Column Indexing Test", "Jan. 6, 2024: Region Sum Lines"}


def test_variant_soundness_sweep_sample(capsys: pytest.CaptureFixture[str]) -> None:
    todo = jobs(20.0, SAMPLE)
    assert len(todo) == len(SAMPLE)
    results = sweep(todo, 1, capsys)
    assert sum(r.status == "solved" for _, r in results) == len(SAMPLE)


@pytest.mark.slow
@pytest.mark.heavy
def test_variant_soundness_sweep_all(capsys: pytest.CaptureFixture[str]) -> None:
    todo = jobs(30.0)
    assert len(todo) >= 100
    sweep(todo, os.cpu_count() or 1, capsys)
