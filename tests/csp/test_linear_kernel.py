"""The exact supports of a linear sum in C (csp/constraints/_linear_kernel.c) against the
Python code of csp/constraints/sums.py (``_linear_supports_py``): the same masks on many
random sums (coefficients of either sign and above 1, some cells that must differ, empty
and single-digit domains, totals in and out of reach), None only beyond the kernel's
limits; and the same steps on the setter puzzle whose double arrows ask it most, with the
kernel on and off."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from csp import kernel
from csp.constraints import sums

KERNEL = kernel.active(sums._linear_kernel)
pytestmark = pytest.mark.skipif(KERNEL is None, reason="csp.constraints._linear_kernel is "
                                "not built (or SUDOKU_CSP_PURE=1)")


def _case(rng: random.Random, n: int):
    k = rng.randint(1, 7)
    doms = []
    for _ in range(k):
        r = rng.random()
        if r < 0.04:
            doms.append(0)
        elif r < 0.2:
            doms.append(1 << rng.randint(1, n))
        else:
            doms.append(sum(1 << d for d in range(1, n + 1) if rng.random() < 0.5) or 2)
    coeffs = [rng.choice((1, 1, 1, -1, -1, 2, 10, -3, 0)) for _ in range(k)]
    # a total some filling reaches, or one near it
    total = sum(a * rng.randint(1, n) for a in coeffs) + rng.choice((0, 0, 0, 1, -2, 7))
    differ = [tuple(j for j in range(i) if rng.random() < 0.4) for i in range(k)]
    if rng.random() < 0.3:
        differ = [()] * k
    return doms, coeffs, total, differ


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_kernel_matches_python(n):
    rng = random.Random(n)
    for _ in range(1500 if n < 16 else 300):
        doms, coeffs, total, differ = _case(rng, n)
        want = sums._linear_supports_py(doms, coeffs, total, differ)
        got = KERNEL.linear_supports(doms, coeffs, total, differ)
        assert got == want, (doms, coeffs, total, differ)
        assert sums.linear_supports(tuple(doms), tuple(coeffs), total,
                                    tuple(map(tuple, differ))) == want


@pytest.mark.parametrize("n, cases", [
    (4, 1500), (9, 1500), (16, 40),
    pytest.param(16, 1500, marks=[pytest.mark.slow, pytest.mark.heavy])])
def test_distinct_sum_supports_in_c_are_the_python_ones(n, cases):
    """A killer cage's exact supports (``SumPropagator._enumerate``, distinct: the compiled
    search of a linear sum whose cells all differ, once per total) are those of its Python
    search, with one total and with several, reachable or not. (16 digits: 40 cases in the
    default run, 1,500 in the slow sweep; the Python search of a 16-digit cage takes most of
    the time: cases 43 and 45 of this seed, 17 of 19 s, are left to the sweep.)"""
    rng = random.Random(n)
    for _ in range(cases):
        k = rng.randint(1, min(n, 9))
        if rng.random() < 0.8:
            totals = rng.randint(k, n * k)
        else:
            totals = rng.sample(range(1, n * k + 1), rng.randint(2, 3))
        prop = sums.SumPropagator(range(k), totals, True, n, "cage")
        doms = [sum(1 << d for d in rng.sample(range(1, n + 1), rng.randint(1, n)))
                for _ in range(k)]
        if rng.random() < 0.05:
            doms[rng.randrange(k)] = 0
        assert prop._enumerate(doms) == prop._enumerate_py(doms), (n, totals, doms)


def test_kernel_declines_what_it_does_not_take():
    # a digit above 63, a huge coefficient, a later position in ``differ``, too many cells
    assert KERNEL.linear_supports([1 << 70, 2], [1, 1], 3, [(), ()]) is None
    assert KERNEL.linear_supports([2, 2], [1 << 40, 1], 3, [(), ()]) is None
    assert KERNEL.linear_supports([6, 6], [1, 1], 3, [(1,), ()]) is None
    assert KERNEL.linear_supports([2] * 65, [1] * 65, 65, [()] * 65) is None
    # and the public function still answers through the Python code
    assert sums.linear_supports([1 << 70, 2], [1, 1], 71, [(), ()]) == [1 << 70, 2]


def test_same_steps_with_and_without_kernel(monkeypatch):
    """The first 60 steps of "Modular Nabner DA Coverage" (double arrows: the sum rules
    whose supports the forcing nets and the band searches ask most) are the same."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from techniques import StepSolver
    data = Path(__file__).resolve().parents[1] / "data" / "fpuzzles_cc_by.jsonl"
    row = next(r for r in map(json.loads, data.read_text().splitlines())
               if r["title"] == "Modular Nabner DA Coverage")

    def path(pure: str):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        r = StepSolver("default").solve(load_fpuzzles(row["fpuzzles_json"]), max_steps=60)
        return [(s.technique, s.placements, s.eliminations) for s in r.steps]

    assert path("0") == path("1")


# -- the clause writers of csp/sat.py: `linear_tuples`, `support`, `sum_side` ------------
def _pure(monkeypatch, pure, fn):
    """``fn()`` with the compiled kernels off (``pure``) or on."""
    with monkeypatch.context() as m:
        if pure:
            m.setenv("SUDOKU_CSP_PURE", "1")
        else:
            m.delenv("SUDOKU_CSP_PURE", raising=False)
        return fn()


def _cand(rng: random.Random, n: int, keep: float) -> list[int]:
    return [sum(1 << d for d in range(1, n + 1) if rng.random() < keep)
            or 1 << rng.randint(1, n) for _ in range(n * n)]


def _spy(monkeypatch, name: str) -> list:
    """Wrap the kernel's function ``name`` (as ``csp.constraints.sums`` calls it) so that
    each call appends to the returned list: a test asserts the kernel path really ran."""
    called: list = []
    real = getattr(KERNEL, name)
    monkeypatch.setattr(sums._linear_kernel, name,
                        lambda *a: called.append(1) or real(*a))
    return called


@pytest.mark.parametrize("seed", range(8))
def test_sum_tables_written_in_c_are_the_python_clauses(monkeypatch, seed):
    """A sum's table (``sat._table``: its tuples from ``linear_tuples``, less those giving
    two peer cells one digit, and their support encoding from ``support``) with the kernel
    on and off: the same answer, clauses and new variables; and the tuples themselves
    against the Python listing, peers or not."""
    from csp import sat
    from csp.constraints import Linear
    rng = random.Random(seed)
    calls = {name: _spy(monkeypatch, name) for name in ("linear_tuples", "support")}
    for _ in range(40):
        n = rng.choice((4, 6, 9))
        k = rng.randint(1, 4)
        cells = rng.sample(range(n * n), k)
        cand = _cand(rng, n, rng.choice((0.4, 0.7, 1.0)))
        coeffs = [rng.choice((1, 1, -1, -1, 2, -3)) for _ in range(k)]
        total = sum(a * rng.randint(1, n) for a in coeffs) + rng.choice((0, 0, 0, 1))
        con = Linear(cells, coeffs, total)
        peers = _random_peers(rng, n, cells)

        def run(packed=False):
            enc = sat.Encoding(n, n * n, compact=True, packed=packed)
            enc.top += 13                               # as if other rules came first
            done = sat._table(enc, cand, con, sat.TABLE_BUDGET, peers)
            return done, list(sat.unpacked(enc.clauses)), enc.top
        want = _pure(monkeypatch, True, run)
        assert _pure(monkeypatch, False, run) == want, (cells, cand)
        assert _pure(monkeypatch, False, lambda: run(True)) == want, (cells, cand)
        doms = [sat.digits_of(cand[c]) for c in cells]
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k) if cells[j] in peers[cells[i]]]
        want = [t for t in sat._linear_tuples(doms, coeffs, total)
                if all(t[i] != t[j] for i, j in pairs)]
        assert KERNEL.linear_tuples([cand[c] for c in cells], coeffs, total, pairs) == want
    assert len(calls["linear_tuples"]) > 40 and len(calls["support"]) > 5


def _random_peers(rng: random.Random, n: int, cells: list[int]) -> list[set[int]]:
    """Per cell of an n x n grid, the cells among ``cells`` that see it: each pair a coin
    toss."""
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if rng.random() < 0.5:
                peers[a].add(b)
                peers[b].add(a)
    return peers


@pytest.mark.parametrize("seed", range(6))
def test_plain_sum_tables_written_in_c_are_the_python_clauses(monkeypatch, seed):
    """A sum whose digits may repeat (XV and sum dots: ``sat._sum_table``, the support
    encoding or the forbidden tuples) with the kernel on and off: the same answer,
    clauses and new variables, peers or not, small budgets included."""
    from csp import sat
    from csp.constraints import Sum
    rng = random.Random(100 + seed)
    calls = _spy(monkeypatch, "linear_tuples")
    for _ in range(40):
        n = rng.choice((4, 6, 9))
        k = rng.randint(1, 3)
        cells = rng.sample(range(n * n), k)
        cand = _cand(rng, n, rng.choice((0.3, 0.6, 1.0)))
        con = Sum(cells, rng.randint(k, k * n), False)
        peers = _random_peers(rng, n, cells)
        budget = rng.choice((sat.TABLE_BUDGET, 20))

        def run(packed=False):
            enc = sat.Encoding(n, n * n, compact=True, packed=packed)
            enc.top += 7
            done = sat._table(enc, cand, con, budget, peers)
            return done, list(sat.unpacked(enc.clauses)), enc.top
        want = _pure(monkeypatch, True, run)
        assert _pure(monkeypatch, False, run) == want, (cells, cand)
        assert _pure(monkeypatch, False, lambda: run(True)) == want, (cells, cand)
    assert len(calls) > 20


@pytest.mark.parametrize("seed", range(8))
def test_sum_sides_written_in_c_are_the_python_clauses(monkeypatch, seed):
    """One side of an equality of sums (``sat._sum_side``: its combinations' selectors,
    total literals and the cells' digits), new literals or another side's, with the kernel
    on and off: the same clauses, literals and new variables."""
    from csp import sat
    rng = random.Random(100 + seed)
    called = _spy(monkeypatch, "sum_side")
    for _ in range(30):
        n = rng.choice((4, 6, 9))
        cand = _cand(rng, n, rng.choice((0.5, 0.8, 1.0)))
        k = rng.randint(2, min(4, n))
        cells = rng.sample(range(n * n), k)
        combos = sat._sum_combos(cand, cells, 1000)
        other = None
        if rng.random() < 0.5:                          # another side's total literals
            totals = rng.sample(range(3, k * n), rng.randint(1, min(6, k * n - 3)))
            rng.shuffle(totals)
            other = {v: 500 + i for i, v in enumerate(totals)}

        def run(packed=False):
            enc = sat.Encoding(n, n * n, compact=True, packed=packed)
            enc.top += 600
            lits = sat._sum_side(enc, cand, cells, list(combos),
                                 None if other is None else dict(other))
            return lits, list(sat.unpacked(enc.clauses)), enc.top
        want = _pure(monkeypatch, True, run)
        assert _pure(monkeypatch, False, run) == want, (cells, cand)
        assert _pure(monkeypatch, False, lambda: run(True)) == want, (cells, cand)
    assert len(called) > 20


@pytest.mark.parametrize("seed", range(6))
def test_cages_written_in_c_are_the_python_clauses(monkeypatch, seed):
    """A killer cage (``sat._cage``: a selector per digit combination of its totals, each
    cell's digit needing a combination and each combination's digit a cell) with the
    kernel on and off: the same answer, clauses and new variables."""
    from csp import sat
    rng = random.Random(200 + seed)
    called = _spy(monkeypatch, "cage")
    for _ in range(30):
        n = rng.choice((4, 6, 9))
        cand = _cand(rng, n, rng.choice((0.5, 0.8, 1.0)))
        k = rng.randint(1, min(5, n))
        cells = rng.sample(range(n * n), k)
        totals = [rng.randint(k * (k + 1) // 2, k * n) for _ in range(rng.randint(1, 2))]

        def run(packed=False):
            enc = sat.Encoding(n, n * n, compact=True, packed=packed)
            enc.top += 40
            done = sat._cage(enc, cand, cells, totals, 500)
            return done, list(sat.unpacked(enc.clauses)), enc.top
        want = _pure(monkeypatch, True, run)
        assert _pure(monkeypatch, False, run) == want, (cells, cand)
        assert _pure(monkeypatch, False, lambda: run(True)) == want, (cells, cand)
    assert len(called) > 15


@pytest.mark.parametrize("seed", range(6))
def test_sum_combinations_listed_in_c_are_the_python_ones(monkeypatch, seed):
    """A sum side's digit combinations (``sat._sum_combos``: different digits one per
    cell, each cell holding one of them) with the kernel on and off: the same tuples in
    the same order, and None past the budget (some budgets just below, at and above the
    number of combinations)."""
    from csp import sat
    rng = random.Random(300 + seed)
    called = _spy(monkeypatch, "sum_combos")
    real = sums._linear_kernel.sum_combos
    for _ in range(40):
        n = rng.choice((4, 6, 9, 16))
        cand = _cand(rng, n, rng.choice((0.3, 0.6, 1.0)))
        k = rng.randint(1, min(6, n))
        cells = rng.sample(range(n * n), k)
        full = _pure(monkeypatch, True, lambda: sat._sum_combos(cand, cells, 10 ** 6))
        for budget in {0, 1, 5, 500, len(full or ()) - 1, len(full or ()),
                       len(full or ()) + 1} - {-1}:
            assert (_pure(monkeypatch, False, lambda: sat._sum_combos(cand, cells, budget))
                    == _pure(monkeypatch, True, lambda: sat._sum_combos(cand, cells, budget))
                    ), (cells, cand, budget)
    assert len(called) > 100
    assert real([6, 6], 10) == [(1, 2)] and real([6, 6, 6], 10) == []
    assert real([6, 6], 0) == () and real([1, 6], 10) is None    # digit 0: not taken
    assert real([6] * 17, 10) is None                            # past 16 cells


def test_clause_writers_decline_what_they_do_not_take():
    clauses: list = []
    assert KERNEL.support(clauses, [0, 9], [6, 6], [(1, 2), (3, 1)], 20) is None  # 3 not a candidate
    assert KERNEL.support(clauses, [0], [1 << 70], [], 20) is None                # digit past 62
    assert KERNEL.sum_side(clauses, [0, 9], [6, 6], [(1, 2)], 21, [4], [30]) is None  # no total 3
    assert KERNEL.cage(clauses, [0], [6], [(1, 1)], 21) is None                 # a digit twice
    assert clauses == []                                                          # nothing written
    assert KERNEL.linear_tuples([6] * 17, [1] * 17, 20, []) is None               # past 16 cells
    assert KERNEL.linear_tuples([6, 6], [1, 1], 3, [(1, 0)]) is None              # pair not i < j


def test_triple_supports_is_table_supports():
    """``triple_supports`` in C is ``csp.constraints.function.table_supports`` on random
    tables of triples (the between and lockout predicates', random ones) and masks, empty
    ones and those with no supported triple included."""
    import random
    from csp.constraints.function import (outside_ends, strictly_between, table_supports,
                                          triple_table)
    from csp.constraints.sums import _linear_kernel
    from csp.kernel import active
    kern = active(_linear_kernel)
    if kern is None:
        pytest.skip("csp.constraints._linear_kernel is not built")
    rng = random.Random(3)
    for n in (4, 9, 12):
        full = ((1 << n) - 1) << 1
        tables = [triple_table(strictly_between, False, n), triple_table(outside_ends, False, n),
                  [[rng.randrange(1 << (n + 1)) & full for _ in range(n + 1)]
                   for _ in range(n + 1)]]
        for table in tables:
            for _ in range(200):
                doms = [rng.randrange(1 << (n + 1)) & full & (full if rng.random() < 0.9 else 0)
                        for _ in range(3)]
                assert kern.triple_supports(doms, table) == table_supports(table, *doms)
