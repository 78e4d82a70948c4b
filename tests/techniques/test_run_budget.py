"""Run state belongs to the run: its budget and its analysis are values it owns, so a past
deadline (or a search cut short) in one call changes nothing for a later call, and two
solves in two threads give the steps they give one after the other (issue 28, item 2)."""
from __future__ import annotations

import sys
import threading
import time

import pytest

from csp.budget import Budget
from techniques import StepSolver, loop, registry
from techniques.analysis import Analysis
from techniques.loop import replay
from variants.classic import classic_puzzle

from conftest import DATA

TOP95 = [line.split()[0] for line in open(DATA / "top95.txt") if line.strip()]
#: techniques that find several steps in the state below (aic 9, als_xz 20,
#: forcing_chain_contradiction 42 on its first run)
COSTLY = ("aic", "als_xz", "forcing_chain_contradiction")


def _state():
    """TOP95 #1 after its first three steps: the costly techniques all find steps here."""
    p = classic_puzzle(TOP95[0])
    steps = StepSolver().solve(p, max_steps=3).steps
    *_, st = replay(p.pencilmarks(), steps)
    return st


def _found(state) -> dict[str, list[str]]:
    solver = StepSolver()
    return {t: [s.explain(2) for s in solver.find_all(state, t)] for t in COSTLY}


def test_a_peek_past_its_deadline_changes_nothing_for_a_later_find_all():
    st = _state()
    fresh = _found(st.copy())
    assert all(fresh.values()), fresh         # the set-up: every technique finds steps
    run = StepSolver().start(st, copy=False, deadline=time.perf_counter() - 1)
    assert run.peek() is None                 # nothing is searched past the deadline
    assert _found(st) == fresh


def test_a_step_past_its_deadline_changes_nothing_for_a_later_find_all():
    st = _state()
    fresh = _found(st.copy())
    run = StepSolver().start(st, copy=False, time_limit=1e-9)
    assert next(run, None) is None and run.status == "limit"
    assert _found(st) == fresh


def test_a_search_cut_short_is_marked_on_its_own_analysis_only():
    """A technique run with a spent budget finds nothing and says it was cut short; the
    same state with a new budget (or none) finds everything and is not marked."""
    st = _state()
    t = registry.get("forcing_chain_contradiction")
    spent = Analysis(st, budget=Budget(0))
    assert list(t.find(spent, {})) == [] and spent.timed_out
    again = Analysis(st)
    assert len(list(t.find(again, {}))) == len(_found(st)["forcing_chain_contradiction"])
    assert not again.timed_out


def _in_threads(jobs) -> list:
    """Run each job in its own thread, switching threads often; their results in order."""
    out: list = [None] * len(jobs)
    errors: list = []

    def work(i, job):
        try:
            out[i] = job()
        except BaseException as e:          # reported below, in the test's thread
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=work, args=(i, j)) for i, j in enumerate(jobs)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    if errors:
        raise errors[0]
    return out


def _solve(line: str):
    r = StepSolver().solve(classic_puzzle(line))
    return r.status, [s.explain(2) for s in r.steps]


@pytest.mark.parametrize("pair", [(11, 13), (13, 13)], ids=["two-puzzles", "same-puzzle"])
def test_two_solves_in_two_threads_give_the_serial_steps(pair):
    lines = [TOP95[i] for i in pair]
    serial = [_solve(line) for line in lines]
    assert all(status == "solved" for status, _ in serial)
    threaded = _in_threads([lambda line=line: _solve(line) for line in lines])
    assert threaded == serial


def test_a_position_read_in_two_threads_under_two_budgets():
    """One thread peeks at a position with a spent deadline again and again while another
    asks ``find_all`` on the same position (the same State object, read only): the second
    finds what it finds alone."""
    st = _state()
    fresh = _found(st.copy())

    def spent():
        for _ in range(30):
            StepSolver().start(st, copy=False, deadline=time.perf_counter() - 1).peek()

    def full():
        return [_found(st) for _ in range(3)]

    assert _in_threads([spent, full])[1] == [fresh] * 3


#: a Sudoku Exchange puzzle whose logic path holds a Uniqueness Test 1 (19 ms)
UNIQUE_STEP = ".8.926..45.9..8...........3..6.1.....7.4.9.8.....8.1..6...........2..6.19..361.7."


def _path(line: str) -> tuple[str, list[tuple[str, tuple, tuple]]]:
    r = StepSolver().solve(classic_puzzle(line))
    return r.status, [(s.technique, s.placements, s.eliminations) for s in r.steps]


def test_the_uniqueness_check_counts_nodes_not_seconds(monkeypatch):
    """The uniqueness check a logic path waits for runs on a node budget: with clocks that
    jump 100 s at every reading (a machine under any load) the path is the same, its
    uniqueness step included; before, a check on a 10 s wall-clock budget gave up and the
    uniqueness techniques were skipped."""
    want = _path(UNIQUE_STEP)
    assert want[0] == "solved" and "uniqueness_test_1" in [t for t, *_ in want[1]]
    budgets: list[tuple[int | None, float | None, float | None]] = []
    real = loop.Run._count

    def count(run, budget):
        budgets.append((budget.node_limit, budget.deadline, budget.cpu_deadline))
        return real(run, budget)
    monkeypatch.setattr(loop.Run, "_count", count)
    clock = [0.0]

    def jump() -> float:
        clock[0] += 100.0
        return clock[0]
    monkeypatch.setattr(time, "perf_counter", jump)
    monkeypatch.setattr(time, "process_time", jump)
    got = _path(UNIQUE_STEP)
    monkeypatch.undo()
    assert got == want
    # one check, before the first technique beyond the singles: a count of nodes, no clock
    assert budgets == [(loop.FIRST_CHECK_NODES, None, None)]
