"""The SAT search (csp.sat): exact encodings, the hand-over from depth-first search, limits.

The generated puzzles of ``test_variants_pc.py`` also check the SAT encoding against
python-constraint (tables, automata and lazy checks); here: the rules those generators do
not draw (renban, indexers, sums over long lines, predicates), each automaton against its
rule's ``check``, and the f-puzzles puzzle only clause learning proves unique.
"""
from __future__ import annotations

import itertools
import json
import random

import pytest

from csp import Grid, Puzzle
from csp.constraints import ConsecutiveSet, Linear, Sum, SumIn
from csp.errors import NodeLimitExceeded, TimeLimitExceeded
from csp.sat import encode, sat_search
from csp.search import search
from variants import classic, indexer, renban, sandwich, skyscraper, x_sum
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from variants.outside import line_from_clue

from conftest import DATA, counted_calls

FPUZZLES = DATA / "fpuzzles_cc_by.jsonl"
BUDGETS = ((20_000, 50_000), (0, 50_000), (0, 0))   # tables, automata, lazy checks


def _row(title: str) -> dict:
    return next(r for r in map(json.loads, FPUZZLES.open(encoding="utf-8"))
                if r["title"] == title)


def _all_by_search(p: Puzzle) -> list[list[int]]:
    return sorted(search(p.engine(), p.initial_state().cand, limit=10 ** 6)[0])


def _assert_sat_agrees(p: Puzzle) -> list[list[int]]:
    want = _all_by_search(p)
    cand = p.initial_state().cand
    for budgets in BUDGETS:
        assert sorted(sat_search(p, cand, 10 ** 6, None, False, *budgets)[0]) == want
    return want


def _renban_indexer_puzzle(n: int, seed: int) -> Puzzle:
    """Two random renbans and a row and a column indexer; givens from one of the rules'
    solutions."""
    rng = random.Random(3000 + seed)
    g = Grid(n)
    rules = []
    for _ in range(2):
        path = [rng.randrange(g.size)]
        while len(path) < rng.randint(2, n - 1):
            nxt = [o for o in g.orthogonal(path[-1]) if o not in path]
            if not nxt:
                break
            path.append(rng.choice(nxt))
        rules.append(renban([g.name(c) for c in path]))
    rules += [indexer(g.name(rng.randrange(g.size)), "row"),
              indexer(g.name(rng.randrange(g.size)), "column")]
    free = Puzzle(g).use(classic(), *rules)
    sols = search(free.engine(), free.initial_state().cand, limit=200)[0]
    p = Puzzle(g).use(classic(), *rules)
    if sols:
        hidden = rng.choice(sols)
        for c in rng.sample(range(g.size), n + 1):
            p.set_given(c, hidden[c])
    return p


@pytest.mark.parametrize("n, seed", [(4, s) for s in range(10)] + [(6, s) for s in range(6)])
def test_renban_and_indexers_agree_with_search(n, seed):
    _assert_sat_agrees(_renban_indexer_puzzle(n, seed))


def test_long_sums_and_predicates():
    """A 6-cell sum, a multi-sum, a linear rule with a cell twice and a 5-cell predicate on
    an empty 6x6: too big for tables with a zero budget, so automata and lazy checks."""
    p = Puzzle(Grid(6)).use(classic())
    p.add(Sum(list(range(6)), 21))
    p.add(SumIn([6, 7, 14], [6, 15]))
    p.add(Linear([12, 13, 12], [1, -1, 1], 3))
    p.add_constraint(lambda *v: v[0] + v[4] == v[2] + 3, [24, 25, 26, 27, 28])
    p.givens({0: 1, 3: 3, 7: 2, 21: 4, 35: 6})
    sols = _assert_sat_agrees(p)
    assert 1 < len(sols) < 10 ** 6


@pytest.mark.parametrize("make", [
    lambda n: Sum(range(n), 2 * n),
    lambda n: SumIn(range(n), [n, 3 * n]),
    lambda n: Linear(range(n), [1, -2] + [1] * (n - 2), 1),
    lambda n: ConsecutiveSet(range(n)),
])
def test_csp_automata_match_check(make):
    _automaton_matches_check(make(4), 6, distinct_only=False)


@pytest.mark.parametrize("rule", [
    sandwich(0, 1, 5), x_sum(3, 0, 9), skyscraper(7, 2, 3), skyscraper(0, 4, 1)])
def test_outside_automata_match_check(rule):
    p = Puzzle(Grid(6)).use(classic(), rule)
    con = p.constraints[-1]
    assert tuple(con.cells) == tuple(line_from_clue(6, rule.row, rule.col))
    _automaton_matches_check(con, 6, distinct_only=True)


def _automaton_matches_check(con, n: int, distinct_only: bool) -> None:
    auto = con.automaton()
    k = len(con.cells)
    tuples = (itertools.permutations(range(1, n + 1), k) if distinct_only
              else itertools.product(range(1, n + 1), repeat=k))
    accepted = 0
    for tup in tuples:
        s = auto.start
        for i, d in enumerate(tup):
            s = auto.step(i, s, d)
            if s is None:
                break
        ok = s is not None and auto.accept(s)
        if auto.distinct and len(set(tup)) != len(tup):
            ok = False
        assert ok == con.check(*tup), tup
        accepted += ok
    assert accepted > 0


def test_solver_needs_set_by_clause_learning():
    """Depth-first search did not prove this puzzle unique in hours; the automatic hand-over
    to the SAT solver does it in seconds, to the stated solution."""
    row = _row("Solver needs SET")
    p = load_fpuzzles(row["fpuzzles_json"])
    res = p.solve(time_limit=120)
    assert res.status == "solved" and res.method == "sat" and res.conflicts > 0
    assert "".join(map(str, res.solution)) == row["solution"]
    assert p.check_solution(res.solution)


def test_limits():
    p = load_fpuzzles(_row("Solver needs SET")["fpuzzles_json"])
    with pytest.raises(TimeLimitExceeded):
        p.solve(method="sat", time_limit=0.1)
    with pytest.raises(TimeLimitExceeded):
        p.solve(time_limit=0.1)                 # auto: the search's share, then SAT's
    with pytest.raises(NodeLimitExceeded):
        p.solve(node_limit=50)                  # a node limit below the hand-over is the user's
    with pytest.raises(ValueError, match="method"):
        p.solve(method="dfs")


def test_statuses_and_counts():
    p = Puzzle(Grid(4)).use(classic()).givens("1.........2.....")
    p.add(Sum([1, 2], 5))
    assert p.count_solutions(limit=100, method="sat") == p.count_solutions(limit=100,
                                                                           method="search") == 3
    assert p.solve(method="sat").status == "multiple"
    q = Puzzle(Grid(4)).use(classic()).givens("12..............")
    q.add(Sum([2, 3], 8))                       # 3 + 4 = 7 at most: nothing satisfies it
    assert q.solve(method="sat").status == "unsolvable"
    assert q.solve(method="search").status == "unsolvable"
    # a rule no digits satisfy once the givens are propagated: the encoding's empty clause
    r = Puzzle(Grid(4)).use(classic()).givens("1...............")
    r.add(Linear([0, 1, 2], [1, 1, -1], 6))   # r1c2 - r1c3 = 5
    assert sat_search(r, r.initial_state().cand, 5, None, True, 0)[0] == []
    assert encode(r, r.initial_state().cand, 0).clauses.count([]) == 1


def test_pure_models_stay_on_search():
    p = Puzzle(Grid(9)).use(classic()).givens(
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    res = p.solve()
    assert res.method == "search" and res.status == "solved"
    assert p.solve(method="sat").solution == res.solution


@pytest.mark.parametrize("k", [2, 12, 13, 17, 25, 35, 36])
def test_at_most_one_is_exact(k):
    """The "at most one" encoding (pairwise up to 12 literals, the product encoding above):
    any one literal may be true, no two may, and unit propagation alone rules out the
    others once one is set (what makes it as strong as the pairwise clauses)."""
    from pysat.solvers import Solver

    from csp.sat import AMO_PAIRWISE, Encoding
    enc = Encoding(k, 1)
    lits = list(range(1, k + 1))
    enc.at_most_one(lits)
    if k > AMO_PAIRWISE:
        assert len(enc.clauses) < k * (k - 1) // 2
    with Solver(name="glucose42", bootstrap_with=enc.clauses) as s:
        assert s.solve(assumptions=[-x for x in lits])
        for a in lits:
            assert s.solve(assumptions=[a])
            ok, implied = s.propagate(assumptions=[a])
            assert ok and all(-b in implied for b in lits if b != a)
            for b in lits[a:]:
                assert not s.solve(assumptions=[a, b])


def test_big_grids_sat_agrees():
    """16x16 and 25x25 puzzles (product encodings of their cells and houses) solved by the
    SAT solver give the known solutions; a 16x16 with a few givens removed is counted alike
    by search and SAT."""
    for name in ("sizes_16", "sizes_25"):
        puzzle, solution = (DATA / f"{name}.solutions.csv").read_text().split("\n")[0].split(
            ",")[:2]
        p = Puzzle(Grid(int(len(puzzle) ** 0.5))).use(classic()).givens(puzzle)
        res = p.solve(method="sat")
        assert res.status == "solved"
        assert "".join("123456789ABCDEFGHIJKLMNOP"[v - 1] for v in res.solution) == solution
        if name == "sizes_16":
            loose = list(puzzle)
            for i in [i for i, ch in enumerate(loose) if ch != "."][:12]:
                loose[i] = "."
            q = Puzzle(Grid(16)).use(classic()).givens("".join(loose))
            assert q.count_solutions(50, method="sat") == q.count_solutions(50,
                                                                            method="search")


def test_encoding_streams_to_a_sink():
    """With a sink the clauses go out in batches (never all held at once) and are the same
    clauses as without one."""
    from csp.sat import FLUSH_CLAUSES
    p = Puzzle(Grid(25)).use(classic())
    cand = p.initial_state().cand
    whole = encode(p, cand).clauses
    batches: list[int] = []
    got: list[list[int]] = []

    def sink(clauses):
        batches.append(len(clauses))
        got.extend(list(c) for c in clauses)

    enc = encode(p, cand, sink=sink)
    assert got == whole and enc.clauses == [] and enc.count == len(whole)
    assert len(batches) > 1 and max(batches) < FLUSH_CLAUSES + 2000


def test_encoding_stops_at_the_budget():
    from csp.budget import Budget
    p = Puzzle(Grid(35)).use(classic())
    with pytest.raises(TimeLimitExceeded, match="SAT encoding"):
        encode(p, p.initial_state().cand, budget=Budget(0))


def test_a_big_automaton_encoding_stops_at_the_budget():
    """An X-sum clue on a 25x25 is an automaton of about 40,000 states, encoded in Python
    (past the compiled kernel's size) in 1-2 s of CPU, in a few dozen steps: each step
    ticks the budget by its layer's transitions, so a 0.2 s limit stops it within a layer
    or two (its clock was read every 256 steps: the whole encoding ran past the limit)."""
    import time

    from csp.budget import Budget
    p = Puzzle(Grid(25)).use(classic(), x_sum(0, 1, 100))
    cand = p.initial_state().cand
    t0 = time.process_time()
    with pytest.raises(TimeLimitExceeded, match="SAT encoding"):
        encode(p, cand, budget=Budget(0.2), compact=True, packed=True)   # as a session's
    assert time.process_time() - t0 < 0.7


def test_sum_tables_from_bounds_match_the_full_enumeration(monkeypatch) -> None:
    """A sum rule's table is read from the bounds (only the allowed tuples), not checked
    tuple by tuple: the clauses are the very ones of the full enumeration."""
    import csp.sat as sat
    from csp.kernel import active
    rng = random.Random(7)
    used = counted_calls(monkeypatch, sat, "_linear_tuples")
    if active(sat._sums._linear_kernel) is not None:     # listed in C where it is built
        used = counted_calls(monkeypatch, sat._sums._linear_kernel, "linear_tuples")
    for _ in range(12):
        p = Puzzle(Grid(6)).add_grid_houses()
        cells = rng.sample(range(36), 4)
        p.add(Linear(cells[:3], [1, 1, -1], 0, "arrow"))
        p.add(Sum(cells[1:], rng.randint(6, 16), name="line sum"))
        p.add(Linear([cells[0], cells[3]], [2, -1], rng.randint(-3, 3), "weighted"))
        cand = p.initial_state().cand
        fast = encode(p, cand).clauses
        with monkeypatch.context() as m:
            m.setattr(sat, "_linear_terms", lambda con: None)
            slow = encode(p, cand).clauses
        assert fast == slow
    assert len(used) >= 12


def test_three_cell_predicates_from_shared_tables_match_the_enumeration(monkeypatch) -> None:
    """A three-cell rule of a plain function (between and lockout lines) is encoded from
    its shared triple table, not a predicate call per tuple: the same clauses as the
    tuple-by-tuple enumeration, with the houses' pairs left out (tables of forbidden
    tuples and support encodings both), and the same solutions."""
    import csp.sat as sat
    from csp.constraints import FunctionConstraint
    rng = random.Random(11)
    used = counted_calls(monkeypatch, sat, "_triples")
    for i in range(16):
        p = Puzzle(Grid(6)).add_grid_houses()
        for _ in range(3):
            a, b, c = rng.sample(range(36), 3)
            pred = ((lambda x, y, v: min(x, y) < v < max(x, y)) if i % 2 else
                    (lambda x, y, v: not (min(x, y) <= v <= max(x, y))))
            p.add(FunctionConstraint(pred, (a, b, c), "line", distinct=i % 4 == 3))
        cand = p.initial_state().cand
        for compact in (False, True):
            fast = encode(p, cand, compact=compact)
            with monkeypatch.context() as m:
                m.setattr(sat, "_shared_triples", lambda con, n: None)
                slow = encode(p, cand, compact=compact)
            assert fast.clauses == slow.clauses and fast.top == slow.top
        if i < 4:
            assert (p.count_solutions(limit=50, method="sat")
                    == p.count_solutions(limit=50, method="search"))
    assert len(used) >= 48


def test_session_sets_unused_variables_false() -> None:
    """SatSession sets false, once, every variable no clause mentions (the candidates root
    propagation removed, the numbers below the auxiliary variables), so the solver never
    decides them; its answers stay those of the model: a removed candidate is in no
    solution, the others are, and blocking every solution counts them all."""
    from csp.sat import SatSession
    p = Puzzle(Grid(4)).add_grid_houses().givens(".2.4....3.......")
    sols = {tuple(s) for s in _all_by_search(p)}
    with SatSession(p) as s:
        assert s.cand is not None
        for c in range(16):
            for d in range(1, 5):
                got = s.solve([s.var(c, d)])
                assert (got is not None) == any(sol[c] == d for sol in sols), (c, d)
                assert got is None or tuple(got) in sols
        seen = set()
        while (got := s.solve()) is not None:
            seen.add(tuple(got))
            s.block(got)
        assert seen == sols


def _old_table_listing(doms, con, pairs):
    """The allowed and forbidden tuples as ``sat._table`` listed them by the rule's
    ``check`` over the product (the reference of the sums' listing from their tuples)."""
    allowed, forbidden = [], []
    for tup in itertools.product(*doms):
        (allowed if con.check(*tup) else forbidden).append(tup)
    for i, j in pairs:
        allowed = [t for t in allowed if t[i] != t[j]]
        forbidden = [t for t in forbidden if t[i] != t[j]]
    return allowed, forbidden


@pytest.mark.parametrize("seed", range(3))
def test_a_sums_forbidden_tuples_are_those_its_check_forbids(seed):
    """``sat._table`` on a plain sum (a ``Linear``, a ``Sum`` with repeats) lists its
    forbidden tuples as the product's tuples outside its allowed ones: the same clauses,
    in the same order, as from the rule's ``check`` over the product."""
    from csp import sat
    from csp.bits import digits_of
    rng = random.Random(seed)
    n, tried = 9, 0
    for _ in range(1500):
        k = rng.randint(2, 4)
        cells = rng.sample(range(81), k)
        if rng.random() < 0.5:
            coeffs = [1] * (k - 1) + [-1]
            con = Linear(cells, coeffs, 0)
        else:
            con = Sum(cells, rng.randint(k, 9 * k))
        cand = [0] * 81
        for c in cells:
            cand[c] = sum(1 << d for d in rng.sample(range(1, 10), rng.randint(1, 6)))
        peers = [set() for _ in range(81)]
        for i in range(k):
            for j in range(i + 1, k):
                if rng.random() < 0.4:
                    peers[cells[i]].add(cells[j])
                    peers[cells[j]].add(cells[i])
        enc = sat.Encoding(n, 81)
        assert sat._table(enc, cand, con, 10 ** 6, peers)
        scope = list(cells)
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if scope[j] in peers[scope[i]]]
        doms = [digits_of(cand[c]) for c in scope]
        allowed, forbidden = _old_table_listing(doms, con, pairs)
        if len(forbidden) <= len(allowed) * (k + 1) and \
                len(list(itertools.product(*doms))) - len(allowed) <= len(allowed) * (k + 1):
            tried += 1
            assert enc.clauses == [[-(c * n + d) for c, d in zip(scope, t)] for t in forbidden]
    assert tried >= 10


def test_open_stops_at_its_check_while_writing_the_pairs_out():
    """A deferred session's ``open(check)`` calls ``check`` while the compact encoding's
    "at most one" groups are written out as pairs (millions of clauses on a 35x35 grid:
    a ``--time-limit`` ran 0.8 s past its deadline there): a check that raises stops it,
    with the encoding left as it was and no solver; a check that does not gives the
    solver of the session opened without one."""
    from csp import sat
    from csp.sat import SatSession
    p = Puzzle(Grid(16)).add_grid_houses()
    with SatSession(p, defer=True) as ref:
        ref.open()
        want = ref.solve()
    calls = []

    def stop_at_third() -> None:
        calls.append(1)
        if len(calls) >= 3:
            raise TimeLimitExceeded("search stopped after 1 s")

    with SatSession(p, defer=True) as s:
        before = list(sat.unpacked(s.enc.clauses))
        with pytest.raises(TimeLimitExceeded):
            s.open(stop_at_third)
        assert len(calls) == 3
        assert s._solver is None and s.enc.compact
        assert list(sat.unpacked(s.enc.clauses)) == before
        s.open(lambda: None)
        assert s.solve() == want
