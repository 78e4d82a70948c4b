"""The setter's workbench (issue 25, items 1 and 2): true candidates, every solution,
counting with progress and cancellation, and the Monte-Carlo estimate.

The oracle of the true candidates is an independent enumeration: every solution listed by
the depth-first search of :mod:`csp.search` (propagation by the engine, no SAT encoding,
no candidate-count logic), from which the per-candidate counts are tallied by hand.
"""
from __future__ import annotations

import copy
import threading
import time

import pytest

from conftest import DATA, fpuzzle_row
from csp.errors import Cancelled, TimeLimitExceeded
from csp.search import search
from csp.solutions import candidate_counts, count_solutions as lib_count
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from sudoku_csp.workbench import (count_solutions, estimate_count, iter_solutions,
                                  true_candidates)
from variants import classic_puzzle

#: multi-solution variants made from the f-puzzles set: (row, f-puzzles key, index removed;
#: -1 drops a whole-grid rule, "given" a cell's given): 48 puzzles, 2 to 264 solutions,
#: thermo, arrows, cages, lines, dots, quadruples, outside clues, indexers, extra regions,
#: diagonals, anti-king, anti-knight, disjoint groups, parity, fortress ...
VARIANTS = [
    (0, "thermometer", 0), (1, "given", 51), (8, "betweenline", 4), (9, "whispers", 0),
    (10, "arrow", 0), (11, "even", 5), (13, "killercage", 3), (15, "given", 24),
    (16, "given", 2), (17, "given", 3), (18, "palindrome", 0), (19, "difference", 2),
    (20, "diagonal+", -1), (21, "thermometer", 0), (22, "ratio", 2), (24, "xsum", 0),
    (26, "quadruple", 1), (27, "palindrome", 2), (28, "difference", 6), (29, "given", 1),
    (30, "xsum", 1), (31, "renban", 0), (32, "odd", 1), (33, "lockout", 0),
    (35, "maximum", 5), (36, "extraregion", 0), (37, "xv", 3), (38, "quadruple", 2),
    (40, "extraregion", 0), (41, "skyscraper", 0), (42, "maximum", 0), (44, "arrow", 1),
    (46, "quadruple", 0), (48, "sandwichsum", 0), (49, "sandwichsum", 0),
    (50, "disjointgroups", -1), (54, "boxindexer", 0), (62, "killercage", 4),
    (65, "thermometer", 0), (82, "given", 1), (83, "antiking", -1),
    (84, "disjointgroups", -1), (91, "killercage", 3), (92, "given", 2),
    (93, "difference", 0), (109, "diagonal-", -1), (114, "given", 24),
    (115, "littlekillersum", 1),
]
#: lines of multi_solution_1000.txt (43 to 291 solutions)
CLASSIC = [1, 2, 3, 5, 6, 9, 19, 25, 27, 33, 38, 45]
#: the counts cap of the comparison: below it the counts must be exact
CAP = 4


def variant(row: int, key: str, index: int):
    """The f-puzzles puzzle of ``row`` with one given or rule element removed."""
    fj = copy.deepcopy(fpuzzle_row(row)["fpuzzles_json"])
    if key == "given":
        fj["grid"][index // 9][index % 9] = {}
    elif index < 0:
        del fj[key]
    else:
        del fj[key][index]
    return load_fpuzzles(fj)


def classic(line: int):
    with open(DATA / "multi_solution_1000.txt") as f:
        return classic_puzzle(f.read().splitlines()[line])


def enumerated(p) -> tuple[int, list[dict[int, int]]]:
    """(solutions, per cell digit -> solutions holding it), by listing every solution."""
    sols, _ = search(p.engine(), p.initial_state().cand, limit=10**6)
    counts: list[dict[int, int]] = [{} for _ in range(p.grid.size)]
    for s in sols:
        for c, d in enumerate(s):
            counts[c][d] = counts[c].get(d, 0) + 1
    return len(sols), counts


CASES = ([pytest.param(lambda spec=spec: variant(*spec), id=f"{spec[0]}-{spec[1]}-{spec[2]}")
          for spec in VARIANTS]
         + [pytest.param(lambda i=i: classic(i), id=f"classic-{i}") for i in CLASSIC])


def test_cases_are_many_and_varied() -> None:
    assert len(CASES) >= 50
    kinds = {key for _, key, _ in VARIANTS}
    assert len(kinds) >= 25


@pytest.mark.parametrize("make", CASES)
def test_true_candidates_equal_enumeration(make) -> None:
    p = make()
    total, truth = enumerated(p)
    assert total >= 2                       # every case has several solutions
    for cap in (1, CAP):
        res = true_candidates(p, cap=cap)
        assert res.complete and res.status == "multiple"
        assert res.candidates == [tuple(sorted(t)) for t in truth]
        want = [{d: min(k, cap) for d, k in sorted(t.items())} for t in truth]
        assert res.counts == want
        assert [list(c.items()) for c in res.counts] == [list(w.items()) for w in want]
        assert res.count_rows() == [[w.get(d, 0) for d in range(1, p.grid.n + 1)]
                                    for w in want]
        assert res.count_list() == [k for row in res.count_rows() for k in row]
        assert res.solutions_seen <= total
        assert p.check_solution(res.solution)


@pytest.mark.parametrize("make", [CASES[i] for i in (2, 16, 20, 35, 48, 50)])
def test_search_and_sat_agree(make) -> None:
    """The two engines of csp.solutions give the same counts (search only where the tree
    is small)."""
    p = make()
    a = candidate_counts(p, cap=CAP, method="sat")
    b = candidate_counts(p, cap=CAP, method="search")
    cells = range(p.grid.size)
    assert [[a.count(c, d) for d in range(1, 10)] for c in cells] == \
        [[b.count(c, d) for d in range(1, 10)] for c in cells]


@pytest.mark.parametrize("budget", [None, 0])
def test_auto_searches_pure_models_first_then_sat(monkeypatch, budget) -> None:
    """"auto" on a model of houses only searches its bitboards while that stays cheap and
    starts over by SAT past the node budget: the answers are the enumeration's either way.
    (That is the path without the compiled enumerator: see the next test for the kernel.)"""
    import csp.solutions as lib
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    if budget is not None:
        monkeypatch.setattr(lib, "SEARCH_NODES", budget)
        monkeypatch.setattr(lib, "SEARCH_NODES_PER_SOLUTION", 0)
    p = classic(CLASSIC[0])
    total, truth = enumerated(p)
    res = candidate_counts(p, cap=CAP)
    assert res.method == ("search" if budget is None else "sat")
    assert res.complete and res.solutions_seen <= total
    cells = range(p.grid.size)
    assert [[res.count(c, d) for d in range(1, 10)] for c in cells] == \
        [[min(truth[c].get(d, 0), CAP) for d in range(1, 10)] for c in cells]
    assert lib_count(p).count == total
    seen: list[int] = []
    assert lib_count(p, progress=seen.append).count == total


def test_unique_and_unsolvable() -> None:
    row = fpuzzle_row(0)
    p = load_fpuzzles(row["fpuzzles_json"])
    res = true_candidates(p, cap=8)
    assert res.status == "unique" and res.complete and res.solutions_seen == 1
    assert "".join(str(ds[0]) for ds in res.candidates) == row["solution"]
    assert all(len(ds) == 1 for ds in res.candidates)
    assert all(cnt == {ds[0]: 1} for ds, cnt in zip(res.candidates, res.counts))
    bad = true_candidates("12..............", marks=" ".join(["12"] * 2 + ["34"] * 14))
    assert bad.status == "unsolvable" and bad.complete
    assert all(ds == () for ds in bad.candidates)


def test_state_and_marks_narrow_the_question() -> None:
    p = classic(1)
    free = true_candidates(p)
    cell = next(c for c, ds in enumerate(free.candidates) if len(ds) > 1)
    d = free.candidates[cell][0]
    st = p.initial_state()
    st.cand[cell] = 1 << d
    pinned = true_candidates(p, state=st, cap=CAP)
    assert pinned.candidates[cell] == (d,)
    truth = [s for s in search(p.engine(), p.initial_state().cand, limit=10**6)[0]
             if s[cell] == d]
    assert pinned.solutions_seen <= len(truth)
    assert all(set(pinned.candidates[c]) == {s[c] for s in truth} for c in range(81))
    marks = " ".join("".join(map(str, ds)) for ds in pinned.candidates)
    again = true_candidates(p, marks=marks)
    assert again.candidates == pinned.candidates


def test_logical_only_where_logic_is_weaker() -> None:
    p = classic(2)                           # 148 solutions
    weak = true_candidates(p, logical=True, techniques="singles")
    assert weak.logic_status == "stuck"
    assert weak.logical_only                  # singles keep candidates no solution has
    for name in weak.logical_only:
        cell, _, d = name.partition("=")
        assert int(d) not in weak.candidates[p.cell(cell)]
        assert int(d) in weak.logical_candidates[p.cell(cell)]
    flat = weak.solutions_per_candidate()
    assert flat.count(-1) == len(weak.logical_only)
    # a puzzle the default techniques solve: logic and truth agree
    row = fpuzzle_row(0)
    easy = true_candidates(load_fpuzzles(row["fpuzzles_json"]), logical=True)
    assert easy.logic_status == "solved" and easy.logical_only == []
    assert easy.to_dict()["logical_only"] == []
    # a multi-solution puzzle where the logic finds every false candidate: none either
    full = true_candidates(".2.4....3.......", logical=True, techniques="all")
    assert full.status == "multiple" and full.logical_only == []


def test_to_dict_and_flat_list() -> None:
    res = true_candidates(".2.4....3.......", cap=2)
    d = res.to_dict()
    assert d["status"] == "multiple" and d["complete"] and d["solutions_seen"] == 3
    assert d["candidates"][10] == [1, 2, 4] and d["counts"][6] == {"1": 1, "2": 2}
    assert "logical_only" not in d and "undecided" not in d
    flat = res.solutions_per_candidate()
    assert len(flat) == 16 * 4
    assert flat[6 * 4 + 0] == 1 and flat[6 * 4 + 1] == 2 and flat[6 * 4 + 2] == 0


def test_time_limit_gives_a_partial_answer() -> None:
    # an empty 9x9 grid: very many solutions, and cap 10**6 keeps the counting busy (cap 50
    # is done in a quarter of a second by the compiled enumerator)
    t0 = time.process_time()
    res = true_candidates("." * 81, cap=10 ** 6, time_limit=0.3)
    assert time.process_time() - t0 < 5
    assert not res.complete and res.status == "multiple"
    assert res.undecided
    assert res.to_dict()["undecided"] == res.undecided


def test_cancel_from_another_thread() -> None:
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    t0 = time.process_time()
    res = true_candidates("." * 81, cap=10 ** 6, cancel=stop)
    assert time.process_time() - t0 < 5
    assert not res.complete
    with pytest.raises(Cancelled):
        for _ in iter_solutions("." * 81, cancel=lambda: True):
            pass


def test_iter_solutions_lists_each_solution_once() -> None:
    p = classic(25)                          # 43 solutions
    for method in ("search", "sat"):
        sols = list(iter_solutions(p, method=method))
        assert len(sols) == 43 == len({tuple(s) for s in sols})
        assert all(p.check_solution(s) for s in sols)
    assert len(list(iter_solutions(p, limit=5))) == 5
    v = variant(13, "killercage", 3)         # a killer puzzle: the SAT path
    assert sorted(map(tuple, iter_solutions(v))) == \
        sorted(map(tuple, search(v.engine(), v.initial_state().cand, limit=100)[0]))


def test_count_with_progress_and_limits() -> None:
    seen: list[int] = []
    big = "." * 81
    with pytest.raises(TimeLimitExceeded) as e:
        count_solutions(big, time_limit=0.5, progress=seen.append)
    assert e.value.count > 0 and seen and seen == sorted(seen) and seen[-1] <= e.value.count
    r = count_solutions(big, limit=1000)
    assert r.count == 1000 and not r.complete
    p = classic(25)
    assert count_solutions(p).count == 43
    assert lib_count(p, method="sat").count == 43


def test_count_by_sat_stops_on_the_enumeration_solver(monkeypatch) -> None:
    """Past ENUM_SWITCH solutions counting by SAT goes on in csp.sat.ENUM_SOLVER (CaDiCaL,
    which PySAT cannot interrupt: each call gets a conflict budget and the limits are
    checked between calls): a time limit and a cancel still stop it, with the count.
    (The SAT stage itself: the compiled enumerator in front of it is switched off.)"""
    import csp.sat as sat
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    t0 = time.process_time()
    with pytest.raises(TimeLimitExceeded) as e:      # wall clock: room for a loaded machine
        count_solutions("." * 81, time_limit=1.5, method="sat")
    assert e.value.count > sat.ENUM_SWITCH
    assert time.process_time() - t0 < 5
    asked: list[int] = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 400
    with pytest.raises(Cancelled) as e:
        count_solutions("." * 81, cancel=cancel, method="sat")
    assert e.value.count > sat.ENUM_SWITCH


@pytest.mark.parametrize("puzzle", [
    pytest.param(lambda: classic_from_line(48, 0), id="classic-48-less-r1c1"),
    pytest.param(lambda: classic_from_line(0, 11), id="classic-0-less-r2c3"),
    pytest.param(lambda: classic_from_line(132, 11), id="classic-132-less-r2c3"),
    pytest.param(lambda: variant(17, "given", 3), id="variant-17"),
    pytest.param(lambda: variant(63, "thermometer", 0), id="variant-63-general-model"),
])
def test_estimate_interval_covers_the_exact_count(puzzle) -> None:
    p = puzzle()
    exact = lib_count(p).count
    assert exact >= 50
    est = estimate_count(p, samples=500, seed=1, exact_nodes=0)   # probes only
    assert est.samples == 500 and not est.exact
    assert est.low <= exact <= est.high, (exact, est)
    assert est.high - est.low < exact / 2      # an interval that says something
    again = estimate_count(p, samples=500, seed=1, exact_nodes=0)
    assert again.estimate == est.estimate      # seeded: repeatable
    small = estimate_count(p)                  # a tree this small is counted outright
    assert small.exact and small.estimate == small.low == small.high == exact


def classic_from_line(line: int, blank: int):
    with open(DATA / "multi_solution_1000.txt") as f:
        s = f.read().splitlines()[line]
    return classic_puzzle(s[:blank] + "." + s[blank + 1:])


def test_bad_arguments_raise_the_librarys_errors() -> None:
    from csp.errors import InvalidArgument, ParseError
    with pytest.raises(InvalidArgument):
        true_candidates("." * 16, cap=0)
    with pytest.raises(InvalidArgument):
        true_candidates("." * 16, method="guess")
    with pytest.raises(ParseError):
        true_candidates("1234")
    with pytest.raises(InvalidArgument):
        estimate_count("." * 16, samples=0)
    with pytest.raises(InvalidArgument):
        true_candidates("." * 16, state=classic_puzzle("." * 16).initial_state(),
                        marks="1234 " * 16)


@pytest.mark.parametrize("seed", range(8))
def test_sat_encodings_of_runs_and_quadruples_count_as_search(seed) -> None:
    """The clause encodings of renban (a window selector) and quadruples (multisets: k of
    the cells hold a digit given k times) give the solutions the search finds: rules read
    off a random 6x6 grid (so they hold), a few of its digits as givens."""
    import random
    from csp import Puzzle
    from variants import classic, quadruple, renban
    rng = random.Random(seed)
    sol = random_grid(rng)
    p = Puzzle(6).use(classic())
    runs = 0
    for r in rng.sample(range(6), 6):              # a run of consecutive digits in a row
        for k in (4, 3):
            for c in range(6 - k + 1):
                ds = sorted(sol[r * 6 + c + i] for i in range(k))
                if ds == list(range(ds[0], ds[0] + k)) and runs < 2:
                    p.use(renban([p.grid.name(r * 6 + c + i) for i in range(k)]))
                    runs += 1
    for _ in range(2):
        corner = rng.randrange(5) * 6 + rng.randrange(5)
        cells = (corner, corner + 1, corner + 6, corner + 7)
        p.use(quadruple([p.grid.name(x) for x in cells],
                        sorted(rng.sample([sol[x] for x in cells], 3))))
    p.givens({c: sol[c] for c in rng.sample(range(36), 7)})
    a = lib_count(p, limit=20000, method="sat")
    b = lib_count(p, limit=20000, method="search")
    assert a.complete and b.complete and a.count == b.count >= 1


def random_grid(rng) -> list[int]:
    """A random complete 6x6 Sudoku grid."""
    from csp.solutions import iter_solutions as lib_iter
    p = classic_puzzle("." * 36)
    st = p.initial_state()
    for c in rng.sample(range(36), 4):
        ds = [d for d in range(1, 7) if st.cand[c] >> d & 1]
        st.cand[c] = 1 << rng.choice(ds)
        try:
            st = p.propagate(st)
        except Exception:
            return random_grid(rng)
    return next(lib_iter(p, st.cand))


@pytest.mark.parametrize("make", [CASES[i] for i in (3, 8, 16, 25, 33, 40, 48)])
def test_counting_solver_counts_as_glucose_and_enumeration(monkeypatch, make) -> None:
    """Counting by SAT moves from Glucose to csp.sat.ENUM_SOLVER (MiniSat, faster between
    calls) after ENUM_SWITCH solutions, carrying the blocking clauses over: the count is
    the depth-first enumeration's whether it moves after 1 or 3 solutions or never
    (whispers, arrows, palindromes, quadruples, extra regions, disjoint groups, classic)."""
    import csp.sat as sat
    p = make()
    total, _ = enumerated(p)
    assert sat.ENUM_SOLVER != sat.SOLVER
    # CaDiCaL, which PySAT cannot interrupt, gets a conflict budget a call: 1 makes most of
    # its calls stop short and go on where they stopped
    monkeypatch.setitem(sat.UNINTERRUPTIBLE, "cadical195", 1)
    for conflicts in (10 ** 9, -1):      # move whatever it cost, or stay on Glucose
        monkeypatch.setattr(sat, "ENUM_SWITCH_CONFLICTS", conflicts)
        for switch in (1, 3, 10 ** 9):
            monkeypatch.setattr(sat, "ENUM_SWITCH", switch)
            assert lib_count(p, method="sat").count == total
    assert len(list(iter_solutions(p, method="sat"))) == total


@pytest.mark.parametrize("cap", [1, 3])
def test_cut_search_keeps_the_candidates_it_saw(cap) -> None:
    """A search cut after its first node check (64 nodes) on a model of houses only: the
    candidates of the solutions seen are kept (cap 1 reads them off the solutions' digit
    bitboards at the end, cap 3 counts the cells open at the root), all of them true."""
    p = classic(CLASSIC[0])
    total, truth = enumerated(p)
    calls = []
    res = candidate_counts(p, cap=cap, method="search",
                           cancel=lambda: calls.append(1) or len(calls) > 1)
    assert not res.complete and 1 <= res.solutions_seen < total
    listed = [(c, d) for c in range(p.grid.size) for d in res.digits(c)]
    assert len(listed) >= p.grid.size           # a solution's candidates at least
    assert all(d in truth[c] for c, d in listed)
    assert all(1 <= res.count(c, d) <= min(truth[c][d], cap) for c, d in listed)


def test_auto_leaves_a_search_that_needs_many_nodes_a_solution(monkeypatch) -> None:
    """"auto" on houses only: past its second solution the bitboard search may run
    SEARCH_SLACK nodes plus SEARCH_NODES_PER_SOLUTION a solution, then SAT starts over. An
    anti-knight grid with 1,822 solutions needs about 25 nodes a solution: it is handed to
    SAT even with an unbounded first budget; a classic grid (2 nodes a solution) is not.
    Either way the answer is SAT's."""
    import csp.solutions as lib
    monkeypatch.setattr(lib, "SEARCH_NODES", 10 ** 9)
    knight = variant(2, "given", 16)               # "Anti-knight minimal givens 1" less r2c8
    assert knight.engine().pure
    res = candidate_counts(knight, cap=2)
    ref = candidate_counts(knight, cap=2, method="sat")
    assert res.method == "sat" and res.complete
    cells = range(knight.grid.size)
    assert [[res.count(c, d) for d in range(1, 10)] for c in cells] == \
        [[ref.count(c, d) for d in range(1, 10)] for c in cells]
    assert lib_count(knight).count == 1822          # the set builder's count (by SAT)
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")       # the bitboards: without the kernel
    assert candidate_counts(classic(CLASSIC[0]), cap=2).method == "search"


def test_auto_counts_pure_models_by_the_kernel_when_built(monkeypatch) -> None:
    """Where the compiled kernels are built, "auto" true candidates and counts on models
    of houses only walk the bitboards in C (``bb_counts``, the Python walk's twin) within
    their budget, then take the SAT path (the compiled enumerator of csp.cnf_enum in front
    of the solver); listing stays depth-first. The answers are the Python bitboards'
    either way."""
    from csp.cnf_enum import compiled_kernel
    if compiled_kernel() is None:
        pytest.skip("csp._enum_kernel is not built: the Python path runs")
    p = classic(CLASSIC[0])
    total, truth = enumerated(p)
    res = candidate_counts(p, cap=CAP)
    assert res.method == "search" and res.complete
    cells = range(p.grid.size)
    assert [[res.count(c, d) for d in range(1, 10)] for c in cells] == \
        [[min(truth[c].get(d, 0), CAP) for d in range(1, 10)] for c in cells]
    assert lib_count(p).count == total
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    ref = candidate_counts(p, cap=CAP)
    assert ref.method == "search"
    assert [[ref.count(c, d) for d in range(1, 10)] for c in cells] == \
        [[res.count(c, d) for d in range(1, 10)] for c in cells]


def test_per_cell_and_kernel_result_read_the_counts_cell_by_cell():
    """``_per_cell`` and ``csp.solutions._kernel_result`` (one pass over the candidates
    seen) give what reading every cell's digits one by one gives: random counts (zeros,
    counts past the cap, auxiliary entries) on 4x4 to 16x16 grids, caps 1 to 100."""
    import random
    from csp.bits import digits_of
    from csp.solutions import CandidateCounts, _kernel_result
    from sudoku_csp.workbench.candidates import _per_cell

    class En:
        found, first = 3, None

        def __init__(self, counts):
            self._counts = counts

        def counts(self):
            return list(self._counts)
    rng = random.Random(5)
    for _ in range(300):
        n = rng.choice([4, 6, 9, 12, 16])
        size, cap, dense = n * n, rng.choice([1, 2, 8, 100]), rng.random()
        raw = [0] + [rng.randint(1, 3 * cap) if rng.random() < dense else 0
                     for _ in range(size * n)] + [rng.randint(0, 5) for _ in range(n)]
        cand = [rng.randrange(1 << (n + 1)) & ~1 for _ in range(size)]
        want = [{d: min(raw[c * n + d], cap) for d in range(1, n + 1) if raw[c * n + d]}
                for c in range(size)]
        candidates, flat = _per_cell(CandidateCounts(n, size, cap, cand, raw, [0] * size))
        assert flat == [min(k, cap) for k in raw[1:size * n + 1]]
        assert candidates == [tuple(w) for w in want]
        res = CandidateCounts(n, size, cap, cand, [0] * len(raw), [0] * size)
        _kernel_result(En(raw), res, True)
        assert res.counts == raw and res.refuted == [
            m & ~sum(1 << d for d in digits_of(m) if raw[c * n + d])
            for c, m in enumerate(cand)]


@pytest.mark.parametrize("make", [CASES[i] for i in (0, 8, 16, 25, 33, 40, 48, 50)])
def test_steered_sat_questions_keep_the_answers(monkeypatch, make) -> None:
    """The SAT questions with the solver steered towards the candidates below the cap
    (csp.solutions.STEER_CONFLICTS, SatSession.prefer: phases, a hint) from the first
    question, with no compiled walk in front: the counts are the enumeration's, exact
    below the cap, as with no steering at all."""
    import csp.cnf_enum as cnf_enum
    import csp.sat as sat
    import csp.solutions as lib
    p = make()
    total, truth = enumerated(p)
    monkeypatch.setattr(cnf_enum, "enumerator", lambda *a, **k: None)
    hints = []
    prefer = sat.SatSession.prefer
    monkeypatch.setattr(sat.SatSession, "prefer",
                        lambda self, lits: hints.append(len(lits)) or prefer(self, lits))
    cells = range(p.grid.size)
    want = {cap: [[min(truth[c].get(d, 0), cap) for d in range(1, 10)] for c in cells]
            for cap in (1, CAP)}
    for steer, first in ((10 ** 9, 0), (None, 0)):
        monkeypatch.setattr(lib, "STEER_CONFLICTS", steer)
        monkeypatch.setattr(lib, "STEER_FIRST", first)
        for cap in (1, CAP):
            res = candidate_counts(p, cap=cap, method="sat")
            assert res.complete and res.status == "multiple"
            assert [[res.count(c, d) for d in range(1, 10)] for c in cells] == want[cap]
        if steer is not None:
            assert hints                # the steered questions ran
            hints.clear()
    assert not hints                    # None: never steered


def test_empty_16x16_with_a_cap_of_8_in_seconds() -> None:
    """An empty 16x16 (a setter's first question) with a cap of 8: every candidate is in
    at least 8 solutions. Unsteered, the solver handed back a solution next to the last
    one at each question: 7,397 solutions in 5,481 calls, 10 s of CPU (the held-out
    sweep's one call over 5 s on a grid of houses); steered while its calls stay cheap,
    about 1 s."""
    t0 = time.process_time()
    res = true_candidates("." * 256, cap=8, time_limit=30)
    cpu = time.process_time() - t0
    assert res.complete and res.status == "multiple"
    assert res.count_list() == [8] * (256 * 16)
    assert cpu < 4.0, f"{cpu:.2f} s of CPU"
