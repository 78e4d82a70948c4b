"""Dedicated n-ary propagators against brute force on random small domains: never remove a
supported digit (soundness); Contains and Element are exact (GAC)."""
from __future__ import annotations

import itertools
import random

import pytest

from csp.constraints import ConsecutiveSet, Contains, Element, FunctionConstraint, SumIn
from csp.events import Contradiction
from csp.propagator import Context
from variants.outside import _Skyscraper, _Visible


def brute_supports(con, doms: list[int], n: int) -> list[int] | None:
    cells = con.cells
    uniq = sorted(set(cells))
    sup = {c: 0 for c in uniq}
    any_ok = False
    choices = [[d for d in range(1, n + 1) if doms[c] >> d & 1] for c in uniq]
    for combo in itertools.product(*choices):
        val = dict(zip(uniq, combo))
        if con.check(*(val[c] for c in cells)):
            any_ok = True
            for c in uniq:
                sup[c] |= 1 << val[c]
    if not any_ok:
        return None
    return [sup.get(c, doms[c]) for c in range(len(doms))]


def run_props(con, doms: list[int], n: int) -> list[int] | None:
    cand = doms[:]
    try:
        for _ in range(5):
            for p in con.propagators(n):
                p.propagate(Context(cand, None))
    except Contradiction:
        return None
    return cand


def random_doms(rng: random.Random, k: int, n: int) -> list[int]:
    full = ((1 << n) - 1) << 1
    return [rng.randrange(1, 1 << n) << 1 & full or 2 for _ in range(k)]


CASES = [
    ("renban", lambda rng, n: ConsecutiveSet(tuple(range(rng.randint(2, 4)))), False),
    ("contains", lambda rng, n: Contains(tuple(range(4)),
                                         [rng.randint(1, n) for _ in range(rng.randint(1, 3))]),
     True),
    ("element", lambda rng, n: Element(4, (0, 1, 2, 3), rng.randint(1, n)), True),
    ("element_self", lambda rng, n: Element(1, (0, 1, 2, 3), rng.randint(1, n)), True),
    ("skyscraper", lambda rng, n: _Visible([0, 1, 2, 3, 4], rng.randint(1, 5), "sky"), True),
    ("sum_in", lambda rng, n: SumIn(tuple(range(rng.randint(2, 4))),
                                    rng.sample(range(3, 16), rng.randint(1, 3)),
                                    distinct=rng.random() < 0.5), True),
    # three-cell predicates are tabled (between and lockout line cells)
    ("between", lambda rng, n: FunctionConstraint(lambda x, y, v: min(x, y) < v < max(x, y),
                                                  rng.sample(range(5), 3)), True),
    ("lockout", lambda rng, n: FunctionConstraint(
        lambda x, y, v: not min(x, y) <= v <= max(x, y), (0, 1, 2), distinct=True), True),
]


@pytest.mark.parametrize("name, make, exact", CASES, ids=[c[0] for c in CASES])
def test_against_brute_force(name, make, exact):
    rng = random.Random(name)
    n = 5
    for _ in range(300):
        con = make(rng, n)
        doms = random_doms(rng, 5, n)
        want = brute_supports(con, doms, n)
        got = run_props(con, doms, n)
        if want is None:
            if exact:
                assert got is None, (con, doms)
            continue
        assert got is not None, f"{con} failed on satisfiable domains {doms}"
        for c in con.cells:
            assert want[c] & ~got[c] == 0, f"{con} removed a supported digit at {c}"
            if exact:
                assert got[c] == want[c], (con, doms, c)


def test_renban_window_reasoning():
    # three cells, one of them is 5: the run lies within 3..7 (5 itself goes by the house)
    from csp import Grid, Puzzle
    p = Puzzle(Grid(9)).add(ConsecutiveSet((0, 1, 2), "renban")).givens({0: 5})
    st = p.propagate()
    assert st.candidates(1) == st.candidates(2) == (3, 4, 6, 7)


@pytest.mark.parametrize("n", [5, 6])
def test_skyscraper_both_ends_exact(n):
    """Clues at both ends of a line share one propagator that keeps exactly the digits some
    permutation of the line (with both counts) uses."""
    rng = random.Random(n)
    cells = list(range(n))
    perms = list(itertools.permutations(range(1, n + 1)))
    checked = 0
    for _ in range(150):
        left, right = rng.randint(1, n), rng.randint(0, n)
        con = _Visible(cells, left, "sky")
        con.back = right
        doms = [m | (1 << rng.randint(1, n)) for m in random_doms(rng, n, n)]
        want = [0] * n
        for perm in perms:
            if all(doms[i] >> d & 1 for i, d in enumerate(perm)) \
                    and _Skyscraper._count(perm) == left \
                    and (not right or _Skyscraper._count(perm[::-1]) == right):
                for i, d in enumerate(perm):
                    want[i] |= 1 << d
        got = run_props(con, doms, n)
        if not any(want):
            assert got is None, (left, right, doms)
            continue
        checked += 1
        assert got == want, (left, right, doms)
    assert checked > 20


def test_skyscraper_clues_on_one_line_join():
    from csp import Puzzle
    from variants.classic import classic
    from variants.outside import skyscraper
    p = Puzzle(4).use(classic(), skyscraper(0, 1, 2), skyscraper(5, 1, 2))
    vis = [c for c in p.constraints if isinstance(c, _Visible)]
    assert [(c.back, c.joined) for c in vis] == [(2, False), (0, True)]
    assert sum(len(c.propagators(4)) for c in vis) == 1
    # 2 from the top and 2 from the bottom: the 4 stands in one of the middle cells
    st = p.propagate()
    assert 4 not in st.candidates("r1c1") and 4 not in st.candidates("r4c1")


@pytest.mark.parametrize("kind", ["sandwich", "x_sum"])
@pytest.mark.parametrize("n", [5, 6])
def test_sandwich_and_x_sum_exact(kind, n):
    """Sandwich and X-sum clues keep exactly the digits some permutation of the line uses."""
    from variants.outside import _Sandwich, _Scan, _XSum
    rng = random.Random(kind + str(n))
    perms = list(itertools.permutations(range(1, n + 1)))
    checked = 0
    for _ in range(120):
        if kind == "sandwich":
            rule = _Sandwich(rng.randint(0, n * (n - 1) // 2 - 1), n)
        else:
            rule = _XSum(rng.randint(1, n * (n + 1) // 2), n)
        con = _Scan(list(range(n)), rule, kind)
        doms = [m | (1 << rng.randint(1, n)) for m in random_doms(rng, n, n)]
        want = [0] * n
        for perm in perms:
            if all(doms[i] >> d & 1 for i, d in enumerate(perm)) and rule(*perm):
                for i, d in enumerate(perm):
                    want[i] |= 1 << d
        got = run_props(con, doms, n)
        if not any(want):
            assert got is None, (doms,)
            continue
        checked += 1
        assert got == want, (doms,)
    assert checked > 15


def test_all_different_gac_exact():
    """Matching-based all-different keeps exactly the digits of some all-different
    assignment, also when it starts from a stale matching and with fixed cells (run to its
    own fixpoint, as the engine does on NOFIX)."""
    from csp.constraints import AllDifferentGAC
    from csp.events import Status
    rng = random.Random(7)
    emptied = 0
    for _ in range(1500):
        n = rng.randint(3, 6)
        k = rng.randint(2, n)
        doms = [m | (1 << rng.randint(1, n)) for m in random_doms(rng, k, n)]
        want = [0] * k
        for combo in itertools.product(*[[d for d in range(1, n + 1) if m >> d & 1]
                                         for m in doms]):
            if len(set(combo)) == k:
                for i, d in enumerate(combo):
                    want[i] |= 1 << d
        prop = AllDifferentGAC(list(range(k)))
        if rng.random() < 0.5:
            prop._last = {i: 1 << rng.randint(1, n) for i in range(k)}
        cand = doms[:]
        try:
            for _ in range(k + 1):
                if prop.propagate(Context(cand, None)) is Status.FIX:
                    break
            got = cand
        except Contradiction:
            got = None
        if not any(want):
            emptied += 1
            assert got is None, doms
        else:
            assert got == want, doms
    assert 20 < emptied < 1400            # both outcomes are exercised


# -- rules whose set-up grew past any time limit on big grids (issue 24) -----------------------
def test_sum_subsets_against_itertools():
    """``sum_subsets`` lists exactly the k-subsets adding up to the total, in the order
    itertools gives them, and stops past ``limit``; ``subset_sums`` and
    ``distinct_sum_reachable`` agree with enumeration."""
    from csp.constraints.sums import (distinct_sum_reachable, subset_sums, sum_combinations,
                                      sum_subsets)
    rng = random.Random(24)
    for _ in range(400):
        digits = sorted(rng.sample(range(1, 20), rng.randint(0, 10)))
        k = rng.randint(0, 7)
        total = rng.randint(0, 90)
        want = [sum(1 << d for d in c) for c in itertools.combinations(digits, k)
                if sum(c) == total]
        assert sum_subsets(digits, k, total) == want
        limit = rng.randint(0, 5)
        assert sum_subsets(digits, k, total, limit) == (want if len(want) <= limit else None)
        sums = {sum(c) for c in itertools.combinations(digits, k)}
        assert {s for s in range(200) if subset_sums(digits, k) >> s & 1} == sums
    for n in range(1, 10):
        for k in range(0, n + 1):
            for total in range(0, 50):
                assert distinct_sum_reachable(n, k, total) == bool(
                    sum_combinations(n, k, total))


@pytest.mark.parametrize("rule, make", [
    ("killer_cage", lambda cells: {"total": 156}),
    ("digital_root_cage", lambda cells: {"root": 3}),
    ("multi_sum_cage", lambda cells: {"totals": [156, 157]}),
])
def test_long_cages_on_35x35_build_at_once(rule, make):
    """A 17-cell cage on a 35x35 grid has millions of digit combinations: it is validated
    by arithmetic and its propagator keeps to bounds (no combination list), so building
    and first propagating the model take a fraction of a second; with all but one cell
    of the cage placed, the last one is still found exactly."""
    import time

    import variants
    from csp import Grid, Puzzle
    from variants import classic
    cells = [f"r1c{c}" for c in range(1, 18)]
    t0 = time.process_time()
    p = Puzzle(Grid(35)).use(classic(), getattr(variants, rule)(cells, **make(cells)))
    p.propagate()
    assert time.process_time() - t0 < 5
    # 16 cells placed with 1..16 (sum 136): the last one makes the total
    q = Puzzle(Grid(35)).use(classic(), getattr(variants, rule)(cells, **make(cells)))
    q.givens({f"r1c{c}": c for c in range(1, 17)})
    want = {"killer_cage": [20], "digital_root_cage": [d for d in range(17, 36)
                                                       if (136 + d - 1) % 9 + 1 == 3],
            "multi_sum_cage": [20, 21]}[rule]
    assert list(q.propagate().candidates("r1c17")) == want


@pytest.mark.parametrize("kind", ["sandwich", "x_sum", "skyscraper"])
def test_outside_clue_on_25x25_waits_then_is_exact(kind):
    """An outside clue on an empty 25x25 line does not scan its 33 million digit sets: it
    keeps every digit (sound) and reads the line exactly once few cells are open; the
    clue's value taken from a solution, with all but a few of its line given, leaves only
    the solution's digits there."""
    import time

    from conftest import DATA
    from csp import Grid, Puzzle
    import variants
    from variants import classic
    from variants.outside import SCAN_LIMIT, scan_size
    puzzle, solution = (DATA / "sizes_25.solutions.csv").read_text().split("\n")[0].split(
        ",")[:2]
    sol = [int(ch, 36) for ch in solution]
    row = sol[:25]
    value = {"sandwich": sum(row[min(row.index(1), row.index(25)) + 1:
                                 max(row.index(1), row.index(25))]),
             "x_sum": sum(row[:row[0]]),
             "skyscraper": sum(1 for i, v in enumerate(row) if v > max(row[:i], default=0))}[kind]
    full = (1 << 26) - 2
    assert scan_size([full] * 25) > SCAN_LIMIT
    t0 = time.process_time()
    p = Puzzle(Grid(25)).use(classic(), getattr(variants, kind)(1, 0, value))
    assert p.propagate().candidates("r1c1") == tuple(range(1, 26))
    assert time.process_time() - t0 < 5
    # rows 2..25 given, and row 1 but for its first six cells: the clue is read exactly
    q = Puzzle(Grid(25)).use(classic(), getattr(variants, kind)(1, 0, value))
    q.givens([0] * 6 + row[6:] + sol[25:])
    st = q.propagate()
    assert [st.candidates(c) for c in range(6)] == [(v,) for v in row[:6]]


def test_contains_with_clash_against_brute_force():
    """A quadruple's propagator with clash pairs (positions sharing a house, where a
    repeated digit cannot sit twice) keeps exactly the digits of the assignments that have
    such a placement; the placements are shared between rules of the same shape."""
    from csp.constraints.element import ContainsPropagator, placements
    rng = random.Random("clash")
    n = 5
    for _ in range(300):
        vals = tuple(rng.randint(1, 3) for _ in range(rng.randint(2, 4)))
        pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
        clash = rng.sample(pairs, rng.randint(0, 4))
        doms = random_doms(rng, 4, n)
        prop = ContainsPropagator((0, 1, 2, 3), vals, "q", clash)
        assert prop.maps is placements(4, vals, tuple(sorted(clash)))
        bad = {frozenset(p) for p in clash}

        def fits(a):
            for mp in itertools.permutations(range(4), len(vals)):
                if all(a[mp[j]] == vals[j] for j in range(len(vals))) and not any(
                        vals[x] == vals[y] and frozenset((mp[x], mp[y])) in bad
                        for x in range(len(vals)) for y in range(x + 1, len(vals))):
                    return True
            return False
        want = [0] * 4
        for a in itertools.product(*[[d for d in range(1, n + 1) if m >> d & 1] for m in doms]):
            if fits(a):
                for i, d in enumerate(a):
                    want[i] |= 1 << d
        cand = doms[:]
        try:
            prop.propagate(Context(cand, None))
        except Contradiction:
            assert want == [0] * 4, (vals, clash, doms)
            continue
        assert cand == want, (vals, clash, doms)


def test_arity_check_cached_per_code_and_count():
    """The arity check remembers a plain function's code, defaults and digit count that
    passed: a new closure of the same code passes at once, another count or other
    defaults are checked afresh (and still refused when they do not fit)."""
    from csp.constraints.function import _ARITY_OK, check_arity
    from csp.errors import InvalidConstraint

    def make(k):
        return lambda a, b, c=k: a < b
    check_arity(make(1), 2, "r")
    assert any(key[-1] == 2 and key[0] is make(2).__code__ for key in _ARITY_OK)
    check_arity(make(2), 3, "r")                       # the default takes a third digit
    with pytest.raises(InvalidConstraint, match="takes 3 digits, but the rule has 4"):
        check_arity(make(3), 4, "r")
    with pytest.raises(InvalidConstraint, match="takes 2 digits, but the rule has 3"):
        check_arity(lambda a, b: a < b, 3, "r")
    f = make(1)
    f.__signature__ = __import__("inspect").signature(lambda a: a)   # its own signature
    with pytest.raises(InvalidConstraint):
        check_arity(f, 2, "r")


def test_sum_combinations_table_is_sum_subsets() -> None:
    """Up to 12 digits :func:`csp.constraints.sums.sum_combinations` reads one table per
    digit count: every size and total gives :func:`sum_subsets`' masks in its order, and a
    cage's propagator the combinations it searched for before."""
    from csp.constraints.sums import SumPropagator, sum_combinations, sum_subsets
    for n in range(1, 13):
        for k in range(n + 2):
            for t in range(-1, n * (n + 1) // 2 + 2):
                assert sum_combinations(n, k, t) == tuple(
                    sum_subsets(range(1, n + 1), k, t) or ()), (n, k, t)
    for n, cells, totals in ((9, 4, [20]), (9, 3, [6, 24, 15]), (12, 6, [39, 40]),
                             (9, 1, [9]), (16, 5, [40])):
        want: list[int] = []
        for t in sorted(totals):
            found = sum_subsets(range(1, n + 1), cells, t, 5000 - len(want))
            if found is None:
                want = None
                break
            want.extend(found)
        got = SumPropagator(range(cells), totals, True, n, "cage").combos
        assert got == (None if want is None else tuple(want)), (n, cells, totals)


def test_linear_bounds_keep_the_digits_of_their_range():
    """``LinearPropagator._bounds`` keeps, per cell, the digits ``d`` with ``lo <= a * d <=
    hi`` as one range mask: the same removals as testing each digit, on random sums of
    either sign and coefficients above 1."""
    import random
    from csp.constraints.sums import LinearPropagator

    def by_digit(cells, coeffs, total, doms):
        lo = [min(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1))
              for a, m in zip(coeffs, doms)]
        hi = [max(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1))
              for a, m in zip(coeffs, doms)]
        slo, shi = sum(lo), sum(hi)
        if slo > total or shi < total:
            return None
        out = list(doms)
        for i, a in enumerate(coeffs):
            if a == 0:
                continue
            lo_t, hi_t = total - (shi - hi[i]), total - (slo - lo[i])
            keep = sum(1 << d for d in range(1, 17)
                       if doms[i] >> d & 1 and lo_t <= a * d <= hi_t)
            if not keep:
                return None
            out[i] = keep
        return out

    rng = random.Random(52)
    for _ in range(3000):
        k = rng.randint(1, 6)
        n = rng.choice((4, 9, 16))
        doms = [sum(1 << d for d in range(1, n + 1) if rng.random() < 0.5) or 2
                for _ in range(k)]
        coeffs = [rng.choice((1, 1, -1, -1, 2, -3, 5, 0)) for _ in range(k)]
        total = sum(a * rng.randint(1, n) for a in coeffs) + rng.choice((0, 0, 1, -2, 9))
        cells = list(range(k))
        prop = LinearPropagator(cells, coeffs, total, "t")
        cand = list(doms)
        want = by_digit(cells, coeffs, total, doms)
        try:
            prop._bounds(Context(cand), list(doms))
        except Contradiction:
            assert want is None
            continue
        assert want is not None and cand == want


def test_house_mates_are_the_houses_cells():
    """``sums.house_mates`` (read from the rules' ``house()``) is the union of the cells of
    :meth:`Puzzle.houses` holding each cell."""
    from csp import Grid, Puzzle
    from csp.constraints.sums import house_mates
    p = Puzzle(Grid(6)).add_grid_houses().add_sum(["r1c1", "r2c2", "r3c3"], 9, distinct=True)
    p.add_sum(["r4c4", "r5c5"], 5).add_less("r1c1", "r1c2").freeze()
    want = [0] * p.grid.size
    for h in p.houses():
        for c in h.cells:
            want[c] |= sum(1 << x for x in h.cells)
    assert house_mates(p) == want
