"""The compiled loop of ``Engine.propagate`` (``csp._engine_kernel``) against its Python
reference: the same candidates, the same propagator calls in the same order and the same
contradiction (type, message, rule, cells); the binary tables and ordering bounds the
kernel runs itself included on random models with givens and on every
workbench model beyond houses, from the root and from changed cells, with ``houses_last``
both ways and with a cost limit."""
from __future__ import annotations

import random

import pytest

import csp.engine
from csp import Contradiction
from csp.constraints import ConsecutiveSet, Contains, Element
from conftest import workbench_sets
from csp.kernel import active
from csp.propagator import Context
from variants.classic import classic_puzzle

KERNEL = active(csp.engine._engine_kernel)
pytestmark = pytest.mark.skipif(KERNEL is None, reason="csp._engine_kernel is not built")


def _run(eng, cand, compiled, monkeypatch, **kw):
    """(candidates, contradiction or None, the Python propagators' calls in order, with
    the candidates each saw; those the kernel runs itself are compared through these)."""
    calls = []
    originals = {}
    for i, p in enumerate(eng.props):
        if csp.engine._native_spec(KERNEL, p, eng.n) is not None:
            continue                   # the kernel runs it itself: not called in Python
        f = p.propagate

        def spy(ctx, f=f, i=i):
            calls.append((i, tuple(ctx.cand)))
            return f(ctx)
        originals[i] = p
        p.propagate = spy
    monkeypatch.setattr(csp.engine, "_engine_kernel", KERNEL if compiled else None)
    cand = list(cand)
    try:
        eng.propagate(cand, **kw)
        out = (cand, None)
    except Contradiction as e:
        out = (cand, (str(e), e.constraint, tuple(e.cells)))
    finally:
        for p in originals.values():
            del p.propagate
    return out + (calls,)


def _both(eng, cand, monkeypatch, **kw):
    py = _run(eng, cand, False, monkeypatch, **kw)
    c = _run(eng, cand, True, monkeypatch, **kw)
    assert c == py
    return py


def _random_model(rng):
    n = rng.choice([4, 6, 9])
    p = classic_puzzle("." * (n * n))
    size = n * n
    for _ in range(rng.randint(1, 10)):
        a, b = rng.sample(range(size), 2)
        p.add_less(p.grid.name(a), p.grid.name(b))
    for _ in range(rng.randint(0, 4)):
        a, b = rng.sample(range(size), 2)
        k = rng.randint(3, 2 * n - 1)
        p.add_constraint(lambda x, y, k=k: x + y != k, [p.grid.name(a), p.grid.name(b)],
                         name=f"not {k}")
    for j in range(rng.randint(0, 2)):          # renbans
        p.add(ConsecutiveSet(rng.sample(range(size), rng.randint(2, min(5, n))),
                             name=f"renban {j}"))
    for j in range(rng.randint(0, 3)):          # indexers: a row (a house) or a few cells
        r = rng.randrange(n)
        line = (list(range(r * n, r * n + n)) if rng.random() < 0.7
                else rng.sample(range(size), rng.randint(2, n)))
        p.add(Element(rng.randrange(size), line, rng.randint(1, n), name=f"indexer {j}"))
    for j in range(rng.randint(0, 2)):          # quadruples, repeated digits too
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        cells = (r * n + c, r * n + c + 1, r * n + n + c, r * n + n + c + 1)
        p.add(Contains(cells, [rng.randint(1, n) for _ in range(rng.randint(1, 4))],
                       name=f"quad {j}"))
    return p


@pytest.mark.parametrize("seed", range(60))
def test_compiled_loop_equals_python_on_random_models(seed, monkeypatch):
    rng = random.Random(seed)
    p = _random_model(rng)
    eng = p.engine()
    n, size = p.grid.n, p.grid.size
    st = p.initial_state()
    cand = list(st.cand)
    for c in rng.sample(range(size), rng.randint(0, size // 2)):
        cand[c] = 1 << rng.randint(1, n) if rng.random() < 0.6 else \
            cand[c] & ~(1 << rng.randint(1, n)) or 2
    if rng.random() < 0.1:
        cand[rng.randrange(size)] = 0
    for houses_last in (False, True):
        _both(eng, cand, monkeypatch, changed=None, houses_last=houses_last)
    _both(eng, cand, monkeypatch, changed=None, max_cost=0)
    # from a fixpoint, a few cells changed (as the depth-first search calls it)
    fix, err, _ = _run(eng, st.cand, False, monkeypatch, changed=None)
    if err is None:
        for _ in range(5):
            c = rng.choice([x for x in range(size) if fix[x] & (fix[x] - 1)] or [0])
            nxt = list(fix)
            nxt[c] = 1 << rng.choice([d for d in range(1, n + 1) if fix[c] >> d & 1])
            _both(eng, nxt, monkeypatch, changed=(c,))


def _workbench_models():
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    sets = workbench_sets()
    for name in ("unique", "variants"):
        for item in sets[name]:
            p = load_fpuzzles(item["doc"])
            if not p.engine().pure:
                yield item["id"], p


def test_compiled_loop_equals_python_on_workbench_models(monkeypatch):
    """Every workbench model beyond houses, from its givens (both orders of the houses'
    scans) and then a step of a depth-first search below its root."""
    rng = random.Random(5)
    seen = 0
    for pid, p in _workbench_models():
        eng = p.engine()
        cand = p.initial_state().cand
        for houses_last in (False, True):
            fix, err, _ = _both(eng, cand, monkeypatch, changed=None, houses_last=houses_last)
        if err is None:
            open_cells = [c for c in range(len(fix)) if fix[c] & (fix[c] - 1)]
            for c in rng.sample(open_cells, min(3, len(open_cells))):
                for d in range(1, p.grid.n + 1):
                    if fix[c] >> d & 1:
                        nxt = list(fix)
                        nxt[c] = 1 << d
                        _both(eng, nxt, monkeypatch, changed=(c,))
        seen += 1
    assert seen > 100


def test_compiled_loop_passes_a_propagators_exception_and_the_budget(monkeypatch):
    """An exception raised by a propagator or by the budget's tick goes through; the
    budget is ticked once per propagator run, as in Python."""
    from csp.budget import Budget
    from csp.errors import TimeLimitExceeded
    p = classic_puzzle("." * 16)
    p.add_less("r1c1", "r1c2").add_less("r1c2", "r1c3").add_less("r1c3", "r1c4")
    eng = p.engine()

    class Counting(Budget):
        def __init__(self, stop):
            super().__init__()
            self.ticks, self.stop = 0, stop

        def tick(self, what="work"):
            self.ticks += 1
            if self.ticks == self.stop:
                raise TimeLimitExceeded("stop")
    for compiled in (False, True):
        monkeypatch.setattr(csp.engine, "_engine_kernel", KERNEL if compiled else None)
        b = Counting(10 ** 9)
        cand = p.initial_state().cand
        eng.propagate(cand, None, budget=b)
        if not compiled:
            want = (b.ticks, cand)
        else:
            assert (b.ticks, cand) == want
        with pytest.raises(TimeLimitExceeded):
            eng.propagate(p.initial_state().cand, None, budget=Counting(2))

    def boom(ctx: Context):
        raise KeyError("boom")
    q = classic_puzzle("." * 16)
    q.add_constraint(lambda x, y, z: x + y != z, ["r1c1", "r2c2", "r3c3"], name="sum")
    eng = q.engine()
    # (a three-cell table the kernel scans itself, kernel_scan: its own propagate, set
    # below, makes the kernel call it)
    prop = next(p for p in eng.props if p.name == "sum")
    prop.propagate = boom
    assert csp.engine._native_spec(KERNEL, prop, 4) is None
    try:
        for compiled in (False, True):
            monkeypatch.setattr(csp.engine, "_engine_kernel", KERNEL if compiled else None)
            with pytest.raises(KeyError):
                eng.propagate(q.initial_state().cand, None)
    finally:
        del prop.propagate


def test_search_finds_the_same_solutions_and_nodes_on_both_loops(monkeypatch):
    """The general depth-first search (Engine.propagate at every node) finds the same
    solutions in the same order with the same node count either way."""
    from csp.search import search
    rng = random.Random(11)
    seen = 0
    for _ in range(12):
        p = _random_model(rng)
        if p.grid.n > 6:
            continue
        got = []
        for compiled in (False, True):
            monkeypatch.setattr(csp.engine, "_engine_kernel", KERNEL if compiled else None)
            got.append(search(p.engine(), p.initial_state().cand, limit=300))
        assert got[0] == got[1]
        seen += 1
    assert seen >= 3


def test_compiled_loop_gives_each_contradiction_as_python(monkeypatch):
    """Each kind of contradiction, the kernel's own and its propagators': an empty cell, a
    fixed cell emptying a peer, a digit with no place, a cell the only place for two
    digits, a binary table emptying a cell, an ordering group with too few digits, a
    renban with no window, an indexer with no position, an indexer emptying its cell, a
    quadruple whose digits do not fit."""
    def less():
        p = classic_puzzle("." * 16)
        p.add_less("r1c1", "r2c4").add_less("r1c2", "r2c4").add_less("r1c3", "r2c4")
        return p.add_less("r3c1", "r4c2")

    def renban():
        return classic_puzzle("." * 16).add(ConsecutiveSet((4, 5, 10), name="renban"))

    def quad():
        return classic_puzzle("." * 16).add(Contains((0, 1, 4, 5), (1, 1, 2), name="quad"))

    def indexer():                     # r4c4 = v: the v-th cell of row 4 is 1
        return classic_puzzle("." * 16).add(Element(15, (12, 13, 14, 15), 1, name="ix"))
    b = [1 << d for d in range(5)]
    cases = [
        (less, {0: 0}),
        (less, {0: b[1], 1: b[1]}),
        (less, {c: b[1] | b[2] | b[3] for c in range(4)}),
        (less, {0: b[3] | b[4], 1: b[1] | b[2], 2: b[1] | b[2], 3: b[1] | b[2]}),
        (less, {8: b[4], 13: b[1]}),
        (less, {0: b[1] | b[2], 1: b[1] | b[2], 2: b[1] | b[2]}),
        (renban, {4: b[1], 5: b[4]}),
        (indexer, {15: b[1] | b[2], 12: b[3], 13: b[4]}),
        (indexer, {15: b[2], 13: b[3] | b[4], 12: b[2] | b[3]}),
        (quad, {0: b[1], 5: b[3] | b[4], 1: b[2] | b[3]}),
    ]
    seen = set()
    for make, cells in cases:
        p = make()
        eng = p.engine()
        cand = list(p.initial_state().cand)
        for c, m in cells.items():
            cand[c] = m
        for houses_last in (False, True):
            _, err, _ = _both(eng, cand, monkeypatch, changed=None, houses_last=houses_last)
            assert err is not None, (make.__name__, cells)
            seen.add(err[0])
    want = {"r1c1 has no candidate", "r1c1 has no candidate left (digit 1 in r1c2)",
            "box 1: no place for digit 4", "row 1: r1c4 is the only place for two digits",
            "r3c1<r4c2: no candidate left", "ordering at r2c4: not enough digits below",
            "renban: no window of consecutive digits fits",
            "ix: no index can point at the target digit", "ix: no candidate left",
            "quad: the required digits do not fit"}
    assert want <= seen, want - seen


@pytest.mark.parametrize("seed", range(30))
def test_compiled_loop_runs_the_outside_clues_scans_as_python(seed, monkeypatch):
    """Sandwich, X-sum and skyscraper clues (their lines' compiled scans, which the loop
    calls itself) on random 4x4 and 6x6 grids with random candidates: the same candidates
    and contradictions (a line with no arrangement among them)."""
    from variants.outside import sandwich, skyscraper, x_sum
    rng = random.Random(seed)
    n = rng.choice([4, 6])
    p = classic_puzzle("." * (n * n))
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(1, n)
        rule = rng.choice([skyscraper(0, i, rng.randint(1, n)),
                           skyscraper(i, n + 1, rng.randint(1, n)),
                           sandwich(n + 1, i, rng.randint(0, n * (n + 1) // 2 - 1 - n)),
                           x_sum(i, 0, rng.randint(1, n * (n + 1) // 2))])
        p.use(rule)
    eng = p.engine()
    assert any(csp.engine._native_spec(KERNEL, q, n) is not None
               and csp.engine._native_spec(KERNEL, q, n)[0] == 4 for q in eng.props)
    full = p.initial_state().cand
    for _ in range(4):
        cand = list(full)
        for c in rng.sample(range(n * n), rng.randint(0, n * 2)):
            cand[c] = 1 << rng.randint(1, n)
        for houses_last in (False, True):
            _both(eng, cand, monkeypatch, changed=None, houses_last=houses_last)


@pytest.mark.parametrize("seed", range(40))
def test_compiled_loop_runs_the_sums_scans_as_python(seed, monkeypatch):
    """Plain and distinct sums of one total and linear sums (arrows, coefficients of
    either sign, cells listed twice) on random 4x4, 6x6 and 9x9 grids with random
    candidates: the compiled loop runs their exact supports itself (``kernel_scan``,
    ``_linear_kernel.linear_scan``) while the product of the domain sizes is at most
    ``ENUM_LIMIT`` and their ``propagate`` past it; the same candidates and
    contradictions as the Python loop."""
    from csp.constraints import Linear, Sum
    rng = random.Random(seed)
    n = rng.choice([4, 6, 9])
    size = n * n
    p = classic_puzzle("." * size)
    for j in range(rng.randint(1, 6)):
        k = rng.randint(1, 5)
        cells = rng.sample(range(size), k)
        if rng.random() < 0.5:
            distinct = rng.random() < 0.5 and k <= n
            lo, hi = (k * (k + 1) // 2, k * (2 * n - k + 1) // 2) if distinct else (k, k * n)
            p.add(Sum(cells, rng.randint(lo, hi), distinct, name=f"sum {j}"))
        else:
            coeffs = [rng.choice([1, 1, -1, 2, -3]) for _ in cells]
            if rng.random() < 0.2:
                cells.append(cells[0])
                coeffs.append(1)
            p.add(Linear(cells, coeffs, rng.randint(-n, 2 * n), name=f"linear {j}"))
    eng = p.engine()
    full = p.initial_state().cand
    for _ in range(4):
        cand = list(full)
        for c in rng.sample(range(size), rng.randint(0, n // 2)):
            cand[c] = 1 << rng.randint(1, n)
        for c in rng.sample(range(size), rng.randint(0, n * 2)):
            cand[c] &= ~(1 << rng.randint(1, n)) or cand[c]
        for houses_last in (False, True):
            _both(eng, cand, monkeypatch, changed=None, houses_last=houses_last)


def test_sums_kernel_scan_is_their_exact_branch():
    """A sum's and a linear sum's ``kernel_scan`` function gives the supports of their
    ``propagate``'s exact branch on random candidates, and declines (ValueError) past
    ``ENUM_LIMIT`` tuples; a sum of several totals, or a cell listed twice, has none."""
    from csp.constraints import sums
    rng = random.Random(5)
    for _ in range(400):
        n = rng.choice([4, 9, 16])
        k = rng.randint(1, 4)
        doms = [rng.randrange(2, 1 << (n + 1)) & ~1 or 2 for _ in range(k)]
        distinct = rng.random() < 0.5
        sp = sums.SumPropagator(range(k), rng.randint(1, k * n), distinct, n, "s")
        coeffs = [rng.choice([1, -1, 2, -2, 3]) for _ in range(k)]
        lp = sums.LinearPropagator(range(k), coeffs, rng.randint(-n, 2 * n), "l",
                                   [list(range(i)) if distinct else [] for i in range(k)])
        for prop, want in ((sp, lambda: sp._enumerate(list(doms))),
                           (lp, lambda: list(lp._supports(list(doms)).values()))):
            fn, args = prop.kernel_scan()
            if sums._enumerable(doms):
                assert fn(list(doms), *args) == want()
            else:
                with pytest.raises(ValueError):
                    fn(list(doms), *args)
    assert sums.SumPropagator((0, 1), (3, 5), False, 9, "s").kernel_scan() is None
    assert sums.LinearPropagator((0, 1, 0), (1, 1, -1), 0, "l").kernel_scan() is None


def test_native_specs_are_each_propagators_spec():
    """``_native_specs`` (binary tables and ordering bounds in one loop, each relation
    kind's tables looked up once) gives each propagator's ``_native_spec`` on every
    workbench model, and on a model with a propagator whose ``propagate`` is its own."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.formats.fpuzzles.read import forget_templates
    seen = 0
    for rows in workbench_sets().values():
        for it in rows:
            forget_templates()
            eng = load_fpuzzles(it["doc"]).engine()
            assert csp.engine._native_specs(KERNEL, eng.props, eng.n) == [
                csp.engine._native_spec(KERNEL, p, eng.n) for p in eng.props], it["id"]
            seen += bool(eng.props)
    assert seen > 100
    p = classic_puzzle("." * 16).add_less("r1c1", "r1c2").add_less("r1c2", "r2c2")
    eng = p.engine()
    eng.props[0].propagate = eng.props[0].propagate        # an instance's own: Python's
    specs = csp.engine._native_specs(KERNEL, eng.props, eng.n)
    assert specs[0] is None and specs == [csp.engine._native_spec(KERNEL, q, eng.n)
                                          for q in eng.props]


def test_watch_lists_in_c_are_the_python_ones():
    """``watch`` (``Engine``'s watch lists and costs in C) gives ``_watch``'s lists and
    the costs as ints on every workbench model and on random models; a scope cell outside
    the grid or a cost that is not an int declines (None: the Python loop runs)."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.formats.fpuzzles.read import forget_templates
    seen = 0
    models = []
    for rows in workbench_sets().values():
        for it in rows:
            forget_templates()
            models.append(load_fpuzzles(it["doc"]))
    rng = random.Random(3)
    models += [_random_model(rng) for _ in range(30)]
    for p in models:
        eng = p.engine()
        if not eng.props:
            continue
        got = KERNEL.watch(eng.size, eng.props)
        assert got is not None
        watch, costs = got
        assert watch == csp.engine._watch(eng.size, eng.props) == eng.watch
        assert costs == [int(q.cost) for q in eng.props] == eng.prop_cost
        assert all(type(x) is int for x in costs)
        assert all(type(e) is int for w in watch for _, e in w)
        seen += 1
    assert seen > 100

    class Odd:
        def __init__(self, scope, events=1, cost=1):
            self.scope, self.events, self.cost = scope, events, cost
    assert KERNEL.watch(4, [Odd((0, 4))]) is None
    assert KERNEL.watch(4, [Odd((-1,))]) is None
    assert KERNEL.watch(4, [Odd((0,), cost=1.5)]) is None
    assert KERNEL.watch(4, [Odd((1, 1, 2)), Odd([2])]) == (
        [(), ((0, 1), (0, 1)), ((0, 1), (1, 1)), ()], [1, 1])


@pytest.mark.parametrize("seed", range(5))
def test_per_cell_in_c_is_the_python_pass(seed, monkeypatch):
    """``per_cell`` (per cell the digits counted: masks, digit tuples, capped counts as
    dicts, or with ``flat`` as one flat list) gives what ``_per_cell`` and ``seen_masks``
    give in Python, dicts in ascending order, on random count lists (big counts and caps
    too); None past 62 digits or on a short list."""
    from sudoku_csp.workbench import candidates
    import csp.solutions
    from csp.solutions import CandidateCounts, seen_masks
    rng = random.Random(seed)
    for _ in range(300):
        n = rng.choice([1, 2, 4, 6, 9, 16, 62])
        size = rng.randint(0, 40)
        counts = [rng.choice([0, 0, 0, 1, 2, 7, 8, 9, 2 ** 70]) for _ in range(size * n + n + 1)]
        cap = rng.choice([1, 2, 8, 2 ** 80])
        cc = CandidateCounts(n, size, cap, [0] * size, counts, [0] * size)
        seen, digits, capped = KERNEL.per_cell(counts, n, size, cap)
        seen_f, digits_f, flat = KERNEL.per_cell(counts, n, size, cap, True)
        want = [{d: min(counts[c * n + d], cap) for d in range(1, n + 1) if counts[c * n + d]}
                for c in range(size)]
        assert capped == want and digits == [tuple(w) for w in want]
        assert [list(d.items()) for d in capped] == [list(d.items()) for d in want]
        assert (seen_f, digits_f) == (seen, digits)
        assert flat == [min(k, cap) for k in counts[1:size * n + 1]]
        assert (digits, flat) == candidates._per_cell(cc)      # through the kernel
        assert seen == seen_masks(counts, n, size)
        with monkeypatch.context() as m:
            m.setattr(candidates, "_engine_kernel", None)
            m.setattr(csp.solutions, "_engine_kernel", None)
            ref = candidates._per_cell(cc)
            ref_seen = seen_masks(counts, n, size)
        assert (digits, flat) == ref
        assert seen == ref_seen == KERNEL.per_cell(counts, n, size, None)
    assert KERNEL.per_cell([0] * 700, 63, 10, 1) is None
    assert KERNEL.per_cell([0] * 10, 9, 2, 1) is None


@pytest.mark.parametrize("seed", range(30))
def test_compiled_loop_runs_the_line_cells_tables_as_python(seed, monkeypatch):
    """Between and lockout line cells (three cells and a table of triples, which the loop
    scans itself: ``FunctionPropagator.kernel_scan``) on random 4x4, 6x6 and 9x9 grids
    with random candidates: the same candidates, calls and contradictions."""
    from csp.constraints import FunctionConstraint
    from csp.constraints.function import outside_ends, strictly_between
    rng = random.Random(seed)
    n = rng.choice([4, 6, 9])
    p = classic_puzzle("." * (n * n))
    for j in range(rng.randint(1, 3)):
        pred = rng.choice([strictly_between, outside_ends])
        a, b, *mids = rng.sample(range(n * n), 2 + rng.randint(1, 3))
        for c in mids:
            p.add(FunctionConstraint(pred, (a, b, c), f"line {j}"))
    eng = p.engine()
    assert any((csp.engine._native_spec(KERNEL, q, n) or (0,))[0] == 4 for q in eng.props)
    full = p.initial_state().cand
    for _ in range(6):
        cand = list(full)
        for c in rng.sample(range(n * n), rng.randint(0, n * 2)):
            cand[c] = 1 << rng.randint(1, n) if rng.random() < 0.7 else \
                full[c] & ~(1 << rng.randint(1, n))
        for houses_last in (False, True):
            _both(eng, cand, monkeypatch, changed=None, houses_last=houses_last)


def test_deferred_relations_are_their_tables():
    """An engine built by ``Puzzle.engine`` hands its plain relations and its ordering
    bounds' specs to the compiled loop as they are (their ``BinaryTable`` and
    ``OrderBoundsPropagator`` made when ``props`` is read, named as before): on every
    workbench model the deferred entries give the same watch lists, costs and kernel
    specs as the propagators ``props`` then makes, the same root candidates, and after
    ``props`` is read the compiled loop runs those objects; pickling keeps the
    propagators."""
    import pickle
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.formats.fpuzzles.read import forget_templates
    from csp.constraints.binary import BinaryTable, Relation
    from csp.constraints.order import OrderBoundsPropagator, order_propagators
    seen = seen_orders = 0
    for rows in workbench_sets().values():
        for it in rows:
            forget_templates()
            p = load_fpuzzles(it["doc"])
            eng = p.engine()
            raw, tables = list(eng._raw), eng._tables
            deferred = [i for i, q in enumerate(raw) if type(q) is Relation]
            orders = [i for i, q in enumerate(raw) if type(q) is tuple]
            if not deferred and not orders:
                continue
            seen += 1
            seen_orders += bool(orders)
            assert tables is not None
            cand = p.initial_state().cand
            root = list(cand)
            try:
                eng.propagate(root)
            except Contradiction as e:
                root = str(e)
            specs = csp.engine._native_specs(KERNEL, raw, eng.n, tables)
            props = eng.props                       # made here
            assert eng._raw is props and eng._tables is None and eng._ktables is None
            assert all(type(props[i]) is BinaryTable and props[i].name == raw[i].name
                       for i in deferred), it["id"]
            made = order_propagators(p.constraints, [tuple(h.cells) for h in p.houses()],
                                     p.grid.name)
            assert [props[i] for i in orders] and len(made) == len(orders) or not orders
            for i, q in zip(orders, made):
                assert type(props[i]) is OrderBoundsPropagator, it["id"]
                assert (props[i].cell, props[i].below, props[i].above, props[i].scope,
                        props[i].name) == (q.cell, q.below, q.above, q.scope, q.name)
            assert specs == csp.engine._native_specs(KERNEL, props, eng.n), it["id"]
            plain = csp.engine.Engine(eng.n, eng.size, list(zip(eng.house_names, eng.house_cells)),
                           props, eng.namer)
            assert (plain.watch, plain.prop_cost) == (eng.watch, eng.prop_cost), it["id"]
            again = list(cand)
            try:
                eng.propagate(again)
            except Contradiction as e:
                again = str(e)
            assert again == root, it["id"]
            back = pickle.loads(pickle.dumps(eng))
            assert [type(q) for q in back.props] == [type(q) for q in props]
    assert seen > 20 and seen_orders > 5


def test_deferred_relation_out_of_the_kernels_range_runs_its_propagator(monkeypatch):
    """A deferred relation whose tables the kernel declines: the engine makes its
    propagators and the compiled loop calls that one's ``propagate`` (the same root)."""
    from csp.constraints.binary import BinaryTable
    p = classic_puzzle("." * 81).add_less("r1c1", "r1c2").add_less("r1c2", "r1c3")
    want = p.propagate().cand
    q = classic_puzzle("." * 81).add_less("r1c1", "r1c2").add_less("r1c2", "r1c3")
    eng = q.engine()
    assert eng._tables is not None
    monkeypatch.setattr(csp.engine, "_table_cap", lambda *a: False)
    cand = q.initial_state().cand
    eng.propagate(cand)
    assert cand == want and eng._tables is None
    assert [type(x) for x in eng._raw[:2]] == [BinaryTable, BinaryTable]


def test_deferred_relation_past_its_table_raises_as_its_propagator():
    """A candidate mask past a deferred relation's table (a caller's invalid candidates)
    sends the compiled loop to the relation's Python propagator: the engine then makes its
    propagators and raises what they raise (the table's IndexError), never an
    AttributeError of the relation standing for it."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.formats.fpuzzles.read import forget_templates
    from csp.constraints.binary import Relation
    for rows in workbench_sets().values():
        for it in rows:
            forget_templates()
            p = load_fpuzzles(it["doc"])
            eng = p.engine()
            deferred = [q for q in eng._raw if type(q) is Relation]
            if not deferred:
                continue
            cand = list(p.initial_state().cand)
            cand[deferred[0].a] |= 1 << (eng.n + 3)     # a digit past the grid's
            with pytest.raises(IndexError):
                eng.propagate(cand, changed=[deferred[0].a], houses_last=True)
            assert eng._tables is None                  # the propagators were made
            return
    pytest.skip("no workbench model with a deferred relation")
