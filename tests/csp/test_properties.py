"""Property tests (hypothesis).

(a) Each binary propagator, and sums / linear / function constraints on 2-3 cells, reaches
    exactly brute-force (generalised) arc consistency on random small domains.
(b) Random small puzzles with random extra constraints: every solution python-constraint
    finds survives ``propagate()``, and both solvers find the same solutions.
"""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp import (AbsDiff, AllDifferent, AllowedPairs, Contradiction, Equal, Grid, Less,
                 LessEqual, NotAbsDiff, NotEqual, NotRatio, Puzzle, Ratio, Relation, Status, Sum)
from csp.constraints import Domain, FunctionConstraint, Linear
from csp.engine import Engine
from csp.errors import ContradictoryGivens
from csp.interop import problem_solutions, to_problem
from csp.propagator import Context
from csp.search import search

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _mask(ds) -> int:
    m = 0
    for d in ds:
        m |= 1 << d
    return m


def _digits(m: int) -> set[int]:
    return {d for d in range(m.bit_length()) if m >> d & 1}


@st.composite
def domains(draw, k: int, nmin: int = 2, nmax: int = 9):
    n = draw(st.integers(nmin, nmax))
    doms = [draw(st.sets(st.integers(1, n), min_size=1, max_size=n)) for _ in range(k)]
    return n, doms


def _brute_gac(doms: list[set[int]], pred) -> list[set[int]] | None:
    """Projection of the satisfying tuples (GAC of a single constraint); None if none."""
    sup: list[set[int]] = [set() for _ in doms]
    for t in product(*[sorted(d) for d in doms]):
        if pred(*t):
            for i, v in enumerate(t):
                sup[i].add(v)
    return None if not sup[0] else sup


def _run_fixpoint(n: int, doms: list[set[int]], props, houses=()) -> list[set[int]] | None:
    cand = [_mask(d) for d in doms]
    eng = Engine(n, len(doms), list(houses), props)
    try:
        eng.propagate(cand, None)
    except Contradiction:
        return None
    return [_digits(m) for m in cand]


def _check_fix_contract(n: int, doms: list[set[int]], props, pred=None) -> None:
    """A propagator that returns FIX must be idempotent: a second run changes nothing. One
    that returns SUBSUMED must be idempotent too, and entailed: every assignment left in its
    cells' domains satisfies ``pred`` (over cells 0..k-1, when given)."""
    cand = [_mask(d) for d in doms]
    for p in props:
        ctx = Context(cand)
        try:
            status = p.propagate(ctx)
        except Contradiction:
            return
        if status in (Status.FIX, Status.SUBSUMED):
            before = cand[:]
            ctx2 = Context(cand)
            try:
                p.propagate(ctx2)
            except Contradiction:   # pragma: no cover - would be a contract breach
                pytest.fail(f"{p.name}: {status.name} then contradiction on rerun")
            assert cand == before, f"{p.name} returned {status.name} but was not at its fixpoint"
        if status is Status.SUBSUMED and pred is not None:
            for combo in product(*(_digits(m) for m in cand)):
                assert pred(*combo), f"{p.name} returned SUBSUMED but {combo} breaks it"


RELATIONS = {
    "less": lambda a, b, x: Less(a, b),
    "less_equal": lambda a, b, x: LessEqual(a, b),
    "equal": lambda a, b, x: Equal(a, b),
    "not_equal": lambda a, b, x: NotEqual(a, b),
    "abs_diff": lambda a, b, x: AbsDiff(a, b, x),
    "not_abs_diff": lambda a, b, x: NotAbsDiff(a, b, x),
    "ratio": lambda a, b, x: Ratio(a, b, x + 1),
    "not_ratio": lambda a, b, x: NotRatio(a, b, x + 1),
    "function": lambda a, b, x: Relation(a, b, lambda v, w: (v * w + x) % 3 == 0, "f",
                                         ("test-f", x)),
}


@pytest.mark.parametrize("kind", sorted(RELATIONS))
@SETTINGS
@given(data=domains(2), x=st.integers(1, 4), swap=st.booleans())
def test_binary_relation_is_arc_consistent(kind, data, x, swap):
    n, doms = data
    a, b = (1, 0) if swap else (0, 1)
    rel = RELATIONS[kind](a, b, x)
    props = rel.propagators(n)

    def pred(v0: int, v1: int) -> bool:   # values of cell 0, cell 1
        vals = (v0, v1)
        return rel.check(vals[a], vals[b])

    assert _run_fixpoint(n, doms, props) == _brute_gac(doms, pred)
    _check_fix_contract(n, doms, props, pred)


@SETTINGS
@given(data=domains(2))
def test_not_equal_kernel_is_arc_consistent(data):
    """``a != b`` compiles into the all-different kernel (a two-cell house)."""
    n, doms = data
    expected = _brute_gac(doms, lambda v, w: v != w)
    assert _run_fixpoint(n, doms, [], houses=[("ne", (0, 1))]) == expected
    p = Puzzle(Grid(n, box=False))
    p.add(NotEqual(0, 1))
    eng = p.engine()
    cand = [p.grid.all_mask] * p.grid.size
    cand[0], cand[1] = _mask(doms[0]), _mask(doms[1])
    try:
        eng.propagate(cand, None)
        got = [_digits(cand[0]), _digits(cand[1])]
    except Contradiction:
        got = None
    assert got == expected


@SETTINGS
@given(data=domains(2), pairs=st.sets(st.tuples(st.integers(1, 9), st.integers(1, 9)),
                                      max_size=30))
def test_allowed_pairs_is_arc_consistent(data, pairs):
    n, doms = data
    rel = AllowedPairs(0, 1, pairs)
    props = rel.propagators(n)
    assert _run_fixpoint(n, doms, props) == _brute_gac(doms, lambda v, w: (v, w) in pairs)
    _check_fix_contract(n, doms, props, lambda v, w: (v, w) in pairs)


@SETTINGS
@given(data=st.integers(2, 3).flatmap(lambda k: domains(k)), total=st.integers(2, 27),
       distinct=st.booleans())
def test_sum_is_generalised_arc_consistent(data, total, distinct):
    n, doms = data
    k = len(doms)
    props = Sum(tuple(range(k)), total, distinct).propagators(n)

    def pred(*v: int) -> bool:
        return sum(v) == total and (not distinct or len(set(v)) == len(v))

    assert _run_fixpoint(n, doms, props) == _brute_gac(doms, pred)
    _check_fix_contract(n, doms, props)


@SETTINGS
@given(data=st.integers(2, 3).flatmap(lambda k: domains(k)),
       coeffs=st.lists(st.sampled_from([-3, -2, -1, 1, 2, 3]), min_size=3, max_size=3),
       total=st.integers(-10, 20))
def test_linear_is_generalised_arc_consistent(data, coeffs, total):
    n, doms = data
    k = len(doms)
    lin = Linear(tuple(range(k)), coeffs[:k], total)
    props = lin.compile(Puzzle(Grid(n, box=False)))   # no houses declared: plain linear
    assert _run_fixpoint(n, doms, props) == _brute_gac(doms, lin.check)
    _check_fix_contract(n, doms, props)


@SETTINGS
@given(data=domains(3, nmax=6), x=st.integers(0, 5), rep=st.booleans())
def test_function_constraint_is_generalised_arc_consistent(data, x, rep):
    n, doms = data

    def f(a: int, b: int, c: int) -> bool:
        return (a + 2 * b + x) % (c + 1) == 0

    cells = [0, 1, 0] if rep else [0, 1, 2]
    props = FunctionConstraint(f, cells).propagators(n)
    if rep:
        expected = _brute_gac(doms[:2], lambda a, b: f(a, b, a))
        expected = None if expected is None else expected + [doms[2]]
    else:
        expected = _brute_gac(doms, f)
    assert _run_fixpoint(n, doms, props) == expected


# -- (b) random small puzzles against python-constraint -------------------------------------
GRID4_SOLUTIONS: list[list[int]] = []


def _grid4_solutions() -> list[list[int]]:
    if not GRID4_SOLUTIONS:
        p = Puzzle(Grid(4)).add_grid_houses()
        GRID4_SOLUTIONS.extend(problem_solutions(p))
        assert len(GRID4_SOLUTIONS) == 288
    return GRID4_SOLUTIONS


KINDS = ["less", "less_equal", "equal", "not_equal", "abs_diff", "not_abs_diff", "ratio",
         "not_ratio", "pairs", "sum", "sum_distinct", "linear", "function", "function_rep",
         "domain", "binary_function", "all_different"]


@st.composite
def extra_constraint(draw, n: int):
    kind = draw(st.sampled_from(KINDS))
    cells = draw(st.lists(st.integers(0, n * n - 1), min_size=4, max_size=4, unique=True))
    a, b, c = cells[:3]
    x = draw(st.integers(1, 3))
    if kind == "less":
        return Less(a, b)
    if kind == "less_equal":
        return LessEqual(a, b)
    if kind == "equal":
        return Equal(a, b)
    if kind == "not_equal":
        return NotEqual(a, b)
    if kind == "abs_diff":
        return AbsDiff(a, b, x)
    if kind == "not_abs_diff":
        return NotAbsDiff(a, b, x)
    if kind == "ratio":
        return Ratio(a, b, x + 1)
    if kind == "not_ratio":
        return NotRatio(a, b, x + 1)
    if kind == "pairs":
        pairs = draw(st.sets(st.tuples(st.integers(1, n), st.integers(1, n)), min_size=1,
                             max_size=8))
        return AllowedPairs(a, b, pairs)
    if kind == "sum":
        k = draw(st.integers(2, 3))
        return Sum(cells[:k], draw(st.integers(k, k * n)))
    if kind == "sum_distinct":
        k = draw(st.integers(2, 3))
        lo, hi = k * (k + 1) // 2, sum(range(n - k + 1, n + 1))
        return Sum(cells[:k], draw(st.integers(lo, hi)), distinct=True)
    if kind == "linear":
        k = draw(st.integers(2, 3))
        coeffs = draw(st.lists(st.sampled_from([-2, -1, 1, 2]), min_size=k, max_size=k))
        return Linear(cells[:k], coeffs, draw(st.integers(-4, 8)))
    if kind == "function":
        return FunctionConstraint(lambda p, q, r, x=x: (p + q + x) % 3 != r % 3, [a, b, c],
                                  name=f"f{x}")
    if kind == "function_rep":
        return FunctionConstraint(lambda p, q, r, x=x: p * q != r + x, [a, b, a],
                                  name=f"frep{x}")
    if kind == "domain":
        return Domain(a, draw(st.sets(st.integers(1, n), min_size=1, max_size=n - 1)))
    if kind == "binary_function":
        return Relation(a, b, lambda v, w, x=x: (v + w) % (x + 1) != 0, "bf", ("bf", x))
    k = draw(st.integers(2, n))
    return AllDifferent(cells[:k], name="cage")


@st.composite
def small_puzzles(draw):
    boxes = draw(st.booleans())
    n = 4
    if boxes:
        sol = draw(st.sampled_from(_grid4_solutions()))
    else:   # a 4x4 Latin square (no boxes): cyclic shifts of a permutation of the digits
        perm = draw(st.permutations([1, 2, 3, 4]))
        rows = draw(st.permutations([0, 1, 2, 3]))
        sol = [perm[(r + c) % 4] for r in rows for c in range(4)]
    cells = draw(st.sets(st.integers(0, 15), max_size=7))
    extras = draw(st.lists(extra_constraint(n), min_size=1, max_size=5))
    grid = Grid(4) if boxes else Grid(4, box=False)
    p = Puzzle(grid).add_grid_houses()
    p.add(*extras)
    p.givens({c: sol[c] for c in sorted(cells)})
    return p


def _pc_solutions(p: Puzzle) -> list[list[int]]:
    return problem_solutions(p)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(p=small_puzzles())
def test_random_small_puzzles_agree_with_python_constraint(p):
    oracle = _pc_solutions(p)
    for s in oracle:
        assert p.check_solution(s)
    try:
        p.freeze()
    except ContradictoryGivens:
        assert oracle == []
        return
    for gac in (False, True):
        try:
            st_ = p.propagate(gac=gac)
        except Contradiction:
            assert oracle == [], "propagate() failed on a puzzle with solutions"
            continue
        for s in oracle:
            lost = [(c, s[c]) for c in range(16) if not st_.cand[c] >> s[c] & 1]
            assert not lost, f"propagate(gac={gac}) removed solution digits {lost}"
    ours, _ = search(p.engine(), p.initial_state().cand, limit=10_000)
    assert sorted(ours) == oracle
    assert p.count_solutions(limit=10_000) == len(oracle)
    status = p.solve().status
    assert status == {0: "unsolvable", 1: "solved"}.get(len(oracle), "multiple")


# -- to_problem covers every constraint kind -------------------------------------------------
def test_to_problem_all_kinds_hand_built():
    known = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    p = Puzzle(Grid(4)).add_grid_houses()
    p.add(Less(0, 1), LessEqual(2, 3), Equal(4, 13), NotEqual(5, 15), AbsDiff(6, 7, 1),
          NotAbsDiff(8, 9, 2), Ratio(12, 14, 2), NotRatio(14, 11, 3),
          AllowedPairs(0, 15, [(1, 1), (2, 4), (3, 3)]),
          Sum((1, 2), 5), Sum((4, 5, 6), 8, distinct=True), Linear([9, 10, 9], [1, 1, -1], 4),
          FunctionConstraint(lambda a, b, c: a != b + c, [11, 12, 13]), Domain(14, [2, 4]))
    p.givens({0: 1})
    assert p.check_solution(known)
    oracle = problem_solutions(p)
    assert known in oracle
    ours, _ = search(p.engine(), p.initial_state().cand, limit=10_000)
    assert sorted(ours) == oracle
    for s in oracle:
        assert p.check_solution(s)
        assert s[14] in (2, 4) and s[0] == 1 and s[1] + s[2] == 5 and s[10] == 4
        assert abs(s[6] - s[7]) == 1 and (s[12] == 2 * s[14] or s[14] == 2 * s[12])
    # the extra rules do restrict the oracle: without them more grids remain
    q = Puzzle(Grid(4)).add_grid_houses().givens({0: 1})
    assert len(problem_solutions(q)) > len(oracle)


def test_to_problem_does_not_freeze_and_skips_cellless_rules():
    from csp.constraints.base import Constraint

    class Helper(Constraint):
        kind = "helper"
        name = "helper"
        cells = ()

        def check(self) -> bool:
            return True

    p = Puzzle(Grid(4)).add_grid_houses()
    p.add(Helper())
    prob = to_problem(p)
    assert not p.frozen
    assert len(prob.getSolutions()) == 288
    p.add(Less(0, 1))   # still open
    assert len(problem_solutions(p)) == 144


@pytest.mark.parametrize("seed", range(60))
def test_to_problem_on_variant_bundles_matches_brute_force(seed):
    """python-constraint, fed by ``to_problem``, finds exactly the brute-force solutions of
    4x4 puzzles built from the variant rule bundles (every kind of spec they emit)."""
    import random

    import os
    import sys
    # test_variants lives in tests/variants, on the path only when pytest collects there
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "variants"))
    from test_variants import oracle, random_bundle   # brute-force over the 288 grids

    from csp.errors import InvalidConstraint
    from variants.chess import anti_king
    from variants.classic import classic
    from variants.regions import diagonal

    rng = random.Random(1000 + seed)
    p = Puzzle(Grid(4)).use(classic())
    if seed % 7 == 0:
        p.use(diagonal())
    if seed % 11 == 0:
        p.use(anti_king())
    for _ in range(rng.randrange(1, 5)):
        try:
            p.use(random_bundle(rng))
        except InvalidConstraint:
            pass
    for _ in range(rng.randrange(0, 3)):
        p.set_given(rng.randrange(16), rng.randrange(1, 5))
    want = sorted(list(g) for g in oracle(p))
    assert problem_solutions(p) == want
