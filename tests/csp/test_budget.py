"""csp.budget.Budget: one value for a call's limits, passed down explicitly (issue 24), and
the calls that take one: model building, propagation, search and the SAT encoding stop
when it is spent."""
from __future__ import annotations

import pickle
import threading
import time

import pytest

from csp import Grid, Puzzle
from csp.budget import Budget
from csp.errors import InvalidArgument, NodeLimitExceeded, TimeLimitExceeded
from variants import classic, sandwich
from variants.classic import classic_puzzle


def test_deadline_and_left():
    b = Budget(5)
    assert b.limited and not b.exhausted
    assert 4.5 < b.left() <= 5
    assert Budget(5, spent=4.9).left() < 0.2
    assert Budget(5, spent=6).exhausted
    unlimited = Budget()
    assert unlimited.left() is None and not unlimited.limited and not unlimited.exhausted
    unlimited.check()                  # never raises
    for _ in range(1000):
        unlimited.tick()


def test_absolute_deadline_is_the_closer_one():
    soon = time.perf_counter() + 0.5
    assert Budget(60, deadline=soon).deadline == soon
    assert Budget(0.1, deadline=time.perf_counter() + 60).left() <= 0.1


@pytest.mark.parametrize("bad", [float("nan"), -1, "1", True])
def test_bad_time_limits(bad):
    with pytest.raises(InvalidArgument):
        Budget(bad)


@pytest.mark.parametrize("bad", [-5, 1.5, True])
def test_bad_node_limits(bad):
    with pytest.raises(InvalidArgument):
        Budget(node_limit=bad)


def test_infinity_is_no_limit():
    assert Budget(float("inf")).deadline is None


def test_check_and_tick_raise_once_spent():
    b = Budget(0)
    with pytest.raises(TimeLimitExceeded, match="parsing stopped after 0 s"):
        b.check("parsing")
    # the first tick reads the clock, the next ones only every ``every`` calls
    with pytest.raises(TimeLimitExceeded):
        Budget(0).tick()
    b = Budget(0.05, every=4)
    time.sleep(0.06)
    raised = 0
    for _ in range(8):
        try:
            b.tick()
        except TimeLimitExceeded:
            raised += 1
    assert raised == 2


def test_cpu_cap():
    b = Budget(cpu_limit=0.05)
    assert b.limited and b.deadline is None
    t0 = time.process_time()
    with pytest.raises(TimeLimitExceeded, match="of CPU time"):
        while True:
            b.tick()
    assert time.process_time() - t0 < 1.0
    # sleeping uses no CPU time
    b = Budget(cpu_limit=0.5)
    time.sleep(0.6)
    assert not b.exhausted


def test_narrowed_and_within():
    outer = Budget(100, node_limit=10)
    part = outer.narrowed(0.2)
    assert part.left() <= 0.2 < outer.left() and part.node_limit == 10
    assert part.time_limit == 0.2
    assert outer.narrowed(1000).deadline == outer.deadline      # never later
    assert outer.narrowed(None).deadline == outer.deadline
    assert Budget.within(outer) is outer
    assert Budget.within(outer, node_limit=20).node_limit == 10
    assert Budget.within(outer, node_limit=5).node_limit == 5
    assert Budget.within(None, 3).left() <= 3


def test_picklable():
    b = Budget(5, node_limit=3)
    c = pickle.loads(pickle.dumps(b))
    assert c.deadline == b.deadline and c.node_limit == 3


def test_two_threads_two_budgets():
    """No run state outside the budget: a spent budget in one thread does not stop a
    solve in another."""
    results: dict[str, str] = {}

    def spent() -> None:
        try:
            classic_puzzle("." * 625).solve(budget=Budget(0))
            results["spent"] = "finished"
        except TimeLimitExceeded:
            results["spent"] = "limit"

    def free() -> None:
        p = classic_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5"
                           "..2.....1.4......")
        results["free"] = p.solve(budget=Budget(60)).status

    threads = [threading.Thread(target=spent), threading.Thread(target=free)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"spent": "limit", "free": "solved"}


def test_solve_budget_covers_model_building():
    """A budget spent before the model is built stops the call at once: freezing and
    compiling the puzzle run within it (the puzzle is left open, and solves later)."""
    p = Puzzle(Grid(25)).use(classic(), sandwich(0, 1, 100))
    t0 = time.process_time()
    with pytest.raises(TimeLimitExceeded):
        p.solve(budget=Budget(0))
    with pytest.raises(TimeLimitExceeded):
        p.count_solutions(time_limit=0)
    with pytest.raises(TimeLimitExceeded):
        p.propagate(time_limit=0)
    assert time.process_time() - t0 < 0.5
    assert not p.frozen


@pytest.mark.parametrize("method", ["search", "sat", "auto"])
def test_solve_budget_and_node_limit(method):
    # Counting the solutions of an empty 25x25 grid never ends, on any machine: the
    # budget must stop it (finding two solutions can take less than 0.3 s).
    p = classic_puzzle("." * 625)
    t0 = time.process_time()
    with pytest.raises(TimeLimitExceeded):
        p.count_solutions(limit=10 ** 12, budget=Budget(0.3), method=method)
    assert time.process_time() - t0 < 2.0
    q = classic_puzzle("." * 81)
    with pytest.raises(NodeLimitExceeded):
        q.count_solutions(limit=10 ** 6, budget=Budget(60, node_limit=50), method="search")


def test_propagate_budget_stops_a_long_rule():
    """The first propagation of an outside clue on an empty 25x25 line: its exact scan
    is left for later (too many digit sets), and a budget spent while propagating stops
    the engine."""
    p = Puzzle(Grid(25)).use(classic(), sandwich(0, 1, 100))
    t0 = time.process_time()
    st = p.propagate(budget=Budget(30))
    assert time.process_time() - t0 < 5
    assert st.candidates("r1c1") == tuple(range(1, 26))   # nothing known yet
