"""The compiled clause writing of the automaton encoding (csp/_auto_kernel.c) against the
Python loops of csp/sat.py's ``_automaton`` and ``_projections``: the same clauses, extra
clauses and new variables, in the same order, for the automata of the rules that have one
(skyscraper, sandwich, X-sum, sums, renban, a ten-line's segments, a parity pattern) on
random candidates, compact (supports and projections) and plain, lines of one cell to a
whole row, candidates that leave no reading, one or many."""
from __future__ import annotations

import itertools
import random

import pytest

from csp import Grid, Puzzle, kernel, sat
from csp.constraints import ConsecutiveSet, Linear, Regular, Sum
from csp.constraints.base import Automaton
from variants.outside import sandwich, skyscraper, x_sum

KERNEL = kernel.active(sat._auto_kernel)
pytestmark = pytest.mark.skipif(KERNEL is None, reason="csp._auto_kernel is not built "
                                "(or SUDOKU_CSP_PURE=1)")


def _rules(rng: random.Random, n: int) -> list[tuple[list[int], Automaton]]:
    """(cells, automaton) of a random rule of each kind on an n x n grid."""
    out = []
    i = rng.randint(1, n)
    for rule in (skyscraper(0, i, rng.randint(1, n)), skyscraper(i, n + 1, rng.randint(1, n)),
                 sandwich(n + 1, i, rng.randint(0, n * (n + 1) // 2 - 1 - n)),
                 x_sum(i, 0, rng.randint(1, n * (n + 1) // 2))):
        p = Puzzle(Grid(n)).use(rule)
        con = p.constraints[-1]
        out.append((list(con.cells), con.automaton()))
    k = rng.randint(1, n)
    cells = rng.sample(range(n * n), k)
    out.append((cells, Sum(cells, rng.randint(k, n * k)).automaton()))
    out.append((cells, Linear(cells, [rng.choice((1, -1, 2)) for _ in cells],
                              rng.randint(-n, n)).automaton()))
    out.append((cells, ConsecutiveSet(cells).automaton()))
    par = Automaton(None, lambda i, s, d: d & 1 if s is None or s != d & 1 else None,
                    lambda s: True)                     # odd and even digits alternate
    out.append((cells, Regular(cells, par).automaton()))
    return out


def _encode(monkeypatch, cand, cells, auto, n, compact, pure, packed=False):
    with monkeypatch.context() as m:
        if pure:
            m.setenv("SUDOKU_CSP_PURE", "1")
        else:
            m.delenv("SUDOKU_CSP_PURE", raising=False)
        enc = sat.Encoding(n, n * n, compact=compact, packed=packed)
        enc.top += 17                                   # as if other rules came first
        done = sat._automaton(enc, cand, cells, auto, sat.STATE_BUDGET)
        return (done, list(sat.unpacked(enc.materialize())), list(sat.unpacked(enc.extra)),
                enc.top)                                # a native's are deferred


@pytest.mark.parametrize("seed", range(12))
def test_kernel_writes_the_python_clauses(monkeypatch, seed):
    rng = random.Random(seed)
    calls = []
    real = KERNEL.layers
    monkeypatch.setattr(sat._auto_kernel, "layers", lambda *a: calls.append(1) or real(*a))
    compared = 0
    for _ in range(3):
        n = rng.choice((4, 6, 9))
        for cells, auto in _rules(rng, n):
            keep = rng.choice((0.35, 0.6, 0.9, 1.0))
            cand = []
            for _ in range(n * n):
                m = sum(1 << d for d in range(1, n + 1) if rng.random() < keep)
                cand.append(m or 1 << rng.randint(1, n))
            for compact in (True, False):
                want = _encode(monkeypatch, cand, cells, auto, n, compact, pure=True)
                got = _encode(monkeypatch, cand, cells, auto, n, compact, pure=False)
                assert got == want, (cells, cand, compact)
                if compact:                   # the kernel's clauses in packed blocks
                    got = _encode(monkeypatch, cand, cells, auto, n, compact, False, True)
                    assert got == want, (cells, cand, "packed")
                compared += 1
    assert compared == 3 * 8 * 2
    assert len(calls) > compared // 4         # (a rule no reading fits writes [] in Python)


def test_kernel_on_a_skyscraper_puzzle_gives_the_same_encoding(monkeypatch):
    """A whole puzzle's compact encoding (four skyscraper clues, two on one line) from its
    propagated candidates, kernel on and off."""
    from variants.classic import classic
    p = Puzzle(6).use(classic(), skyscraper(0, 1, 3), skyscraper(7, 1, 2),
                      skyscraper(3, 0, 1), skyscraper(5, 7, 4))
    cand = p.propagate().cand
    out = []
    for pure in (True, False):
        with monkeypatch.context() as m:
            m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
            enc = sat.encode(p, cand, table_budget=0, compact=True)
            deferred = bool(enc.deferred)
            out.append((enc.materialize(), enc.extra, enc.top))
    assert out[0] == out[1] and out[0][1] and deferred      # written where they stood


def test_kernel_refuses_what_does_not_fit():
    """Malformed layers raise before anything is written."""
    clauses: list = []
    extra: list = []
    with pytest.raises(ValueError):         # a state the next layer does not list
        KERNEL.layers(clauses, extra, [(1, 2), (1, 2)], [[[0, 5]], [[0, None]]],
                      [{0}, {0}, {0}], [0, 2], [6, 6], 2, 10, True, False, 100)
    with pytest.raises(ValueError):         # a live state beyond its layer
        KERNEL.layers(clauses, extra, [(1, 2)], [[[0, None]]], [{0}, {3}], [0], [6], 2, 10,
                      True, False, 100)
    with pytest.raises(ValueError):         # digits not rising
        KERNEL.layers(clauses, extra, [(2, 1)], [[[0, 0]]], [{0}, {0}], [0], [6], 2, 10,
                      True, False, 100)
    with pytest.raises(TypeError):
        KERNEL.layers(clauses, extra, [[1, 2]], [[[0, 0]]], [{0}, {0}], [0], [6], 2, 10,
                      True, False, 100)
    with pytest.raises(ValueError):         # n past 62
        KERNEL.layers(clauses, extra, [(1,)], [[[0]]], [{0}, {0}], [0], [2], 63, 10,
                      True, False, 100)
    assert clauses == [] and extra == []


def _python_layers(auto, doms, budget):
    """The states `_automaton` builds from `step`: per layer, per state, the next state's
    id by digit (None: no state), numbered as first reached; the live ids; or None past
    ``budget`` states."""
    states, trans, count = [auto.start], [], 0
    for i, di in enumerate(doms):
        ids: dict = {}
        trans.append([[None if t is None else ids.setdefault(t, len(ids))
                       for t in (auto.step(i, s, d) for d in di)] for s in states])
        count += len(ids)
        if count > budget:
            return None
        states = list(ids)
    live = [set() for _ in range(len(doms) + 1)]
    live[-1] = {j for j, s in enumerate(states) if auto.accept(s)}
    for i in range(len(doms) - 1, -1, -1):
        live[i] = {s for s, ts in enumerate(trans[i]) if not live[i + 1].isdisjoint(ts)}
    return trans, live


@pytest.mark.parametrize("seed", range(8))
def test_forward_steps_a_skyscraper_as_its_step_does(seed):
    """The kernel's own layers of a skyscraper clue (``forward``, Automaton.native) are the
    layers `step` gives, state for state: written out by ``layers`` with trans and live
    from Python and with the capsule, the same clauses; the same budget cut."""
    rng = random.Random(seed)
    for n in (4, 6, 9):
        for _ in range(6):
            seen = rng.randint(1, n)
            p = Puzzle(Grid(n)).use(skyscraper(0, rng.randint(1, n), seen))
            auto = p.constraints[-1].automaton()
            assert auto.native == ("skyscraper", seen)
            k = rng.randint(1, n)
            keep = rng.choice((0.3, 0.6, 1.0))
            doms = [tuple(d for d in range(1, n + 1) if rng.random() < keep) or (rng.randint(1, n),)
                    for _ in range(k)]
            budget = rng.choice((5, 40, sat.STATE_BUDGET))
            want = _python_layers(auto, doms, budget)
            got = KERNEL.forward(auto.native, doms, budget)
            assert (got is None) == (want is None), (seen, doms, budget)
            if want is None:
                continue
            trans, live = want
            assert got[1] == (0 in live[0])
            bases = [c * n for c in range(k)]
            masks = [sum(1 << d for d in di) for di in doms]
            for sup, project in ((True, True), (True, False), (False, False)):
                out = []
                for tr, lv in ((trans, live), (got[0], None)):
                    clauses: list = []
                    extra: list = []
                    top = KERNEL.layers(clauses, extra, doms, tr, lv, bases, masks, n, 100,
                                        sup, project, 10 ** 6)
                    out.append((clauses, extra, top))
                assert out[0] == out[1], (seen, doms)


def test_forward_refuses_what_it_does_not_know():
    with pytest.raises(ValueError):
        KERNEL.forward(("sandwich", 3), [(1, 2)], 100)
    with pytest.raises(ValueError):         # digits not rising
        KERNEL.forward(("skyscraper", 2), [(2, 1)], 100)
    with pytest.raises(TypeError):
        KERNEL.forward(("skyscraper", 2), [[1, 2]], 100)
    layers, live = KERNEL.forward(("skyscraper", 1), [(1, 2), (1, 2)], 100)
    assert live
    with pytest.raises(ValueError):         # layers of another line
        KERNEL.layers([], [], [(1, 2)], layers, None, [0], [6], 2, 10, True, False, 100)
    with pytest.raises(TypeError):          # live must be None with the capsule
        KERNEL.layers([], [], [(1, 2), (1, 2)], layers, [], [0, 2], [6, 6], 2, 10, True,
                      False, 100)


@pytest.mark.parametrize("seed", range(6))
def test_kernel_writes_the_renban_clauses(monkeypatch, seed):
    """A renban's clauses (``_consecutive``) in C and in Python: the same lists in the same
    order and the same selectors, for lines of one cell to n, candidates that leave no
    window, one or several."""
    rng = random.Random(seed)
    for n in (4, 6, 9, 12):
        for _ in range(8):
            k = rng.randint(1, n)
            cells = rng.sample(range(n * n), k)
            keep = rng.choice((0.2, 0.5, 0.8, 1.0))
            cand = [sum(1 << d for d in range(1, n + 1) if rng.random() < keep)
                    or 1 << rng.randint(1, n) for _ in range(n * n)]
            out = []
            for pure, packed in ((True, False), (False, False), (False, True)):
                with monkeypatch.context() as m:
                    m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
                    enc = sat.Encoding(n, n * n, compact=True, packed=packed)
                    enc.top += 5                        # as if other rules came first
                    sat._consecutive(enc, cand, cells)
                    out.append((list(sat.unpacked(enc.materialize())), enc.top))
            assert out[0] == out[1] == out[2], (n, cells, [cand[c] for c in cells])


@pytest.mark.parametrize("seed", range(6))
def test_kernel_writes_the_cells_and_houses_clauses(monkeypatch, seed):
    """The compact cells' and houses' clauses (``_cells_and_houses``, ``_house``) in C and
    in Python: the same lists and tuples in the same order, for full houses, short ones,
    cells listed unsorted or twice, cells with one candidate or none."""
    rng = random.Random(seed)
    for n in (4, 6, 9, 12):
        cand = [sum(1 << d for d in range(1, n + 1) if rng.random() < rng.choice((0.2, 0.6, 1)))
                for _ in range(n * n)]
        houses = [rng.sample(range(n * n), n), rng.sample(range(n * n), rng.randint(1, n))]
        houses.append(houses[0][::-1] + houses[0][:2])          # unsorted, cells twice
        out = []
        for pure, packed in ((True, False), (False, False), (False, True)):
            with monkeypatch.context() as m:
                m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
                enc = sat.Encoding(n, n * n, compact=True, packed=packed)
                sat._cells_and_houses(enc, cand)
                for h in houses:
                    sat._house(enc, cand, h)
                assert any(type(c) is bytearray for c in enc.clauses) == packed
                out.append((list(sat.unpacked(enc.clauses)), enc.cand))
        assert out[0] == out[1] == out[2]
        assert any(type(c) is tuple for c in out[0][0])


@pytest.mark.parametrize("seed", range(4))
def test_kernel_gives_a_session_the_same_clauses(monkeypatch, seed):
    """A deferred SAT session's clauses (the cells', houses', relations' and units') and
    extra clauses, kernel on and off, on random 6x6 and 9x9 puzzles with a few ``<``
    relations and givens; with the kernel on, the session's clauses come in packed blocks
    (``Encoding.packed``), read back by ``sat.unpacked``."""
    from variants.classic import classic
    rng = random.Random(seed)
    checked = 0
    for n in (6, 9):
        p = Puzzle(n).use(classic())
        for _ in range(6):
            a, b = rng.sample(range(n * n), 2)
            p.add(p[a] < p[b])
        givens = {c: rng.randint(1, n) for c in rng.sample(range(n * n), 3)}
        try:
            p.givens(givens).freeze()
        except Exception:                   # givens that break a rule: another draw
            continue
        out = []
        for pure in (True, False):
            with monkeypatch.context() as m:
                m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
                with sat.SatSession(p, defer=True) as s:
                    if s.cand is None:
                        out.append(None)
                        continue
                    blocks = [c for c in s.clauses() + s.enc.extra if type(c) is bytearray]
                    assert bool(blocks) == (not pure)
                    out.append((list(sat.unpacked(s.clauses())),
                                list(sat.unpacked(s.enc.extra))))
        assert out[0] == out[1]
        checked += out[0] is not None and any(len(c) == 1 for c in out[0][0])
    assert checked


@pytest.mark.parametrize("seed", range(8))
def test_kernel_writes_the_relations_support_clauses(monkeypatch, seed):
    """``cnf_enum.relation_supports`` in C: the same clauses in the same order as its
    Python loop, on random relations (differences, ratios, sums, inequalities, custom
    pairs) and random candidates, empty cells and decided ones included."""
    from csp import cnf_enum
    from variants.classic import classic_puzzle
    rng = random.Random(seed)
    n = rng.choice([4, 6, 9])
    p = classic_puzzle("." * (n * n))
    size = n * n
    for _ in range(rng.randint(0, 25)):
        a, b = rng.sample(range(size), 2)
        k = rng.randint(1, n - 1)
        name_a, name_b = p.grid.name(a), p.grid.name(b)
        pick = rng.randrange(5)
        if pick == 0:
            p.add_less(name_a, name_b)
        elif pick == 1:
            p.add_constraint(lambda x, y, k=k: abs(x - y) == k, [name_a, name_b])
        elif pick == 2:
            p.add_constraint(lambda x, y, k=k: x + y != k + 2, [name_a, name_b])
        elif pick == 3:
            p.add_constraint(lambda x, y: x == 2 * y or y == 2 * x, [name_a, name_b])
        else:
            p.add_constraint(lambda x, y: x != y, [name_a, name_b])
    full = ((1 << n) - 1) << 1
    cand = [rng.randrange(1 << (n + 1)) & full for _ in range(size)]
    for c in rng.sample(range(size), size // 4):
        cand[c] = 1 << rng.randint(1, n)
    got = {}
    for pure in (True, False):
        with monkeypatch.context() as m:
            if pure:
                m.setenv("SUDOKU_CSP_PURE", "1")
            else:
                m.delenv("SUDOKU_CSP_PURE", raising=False)
            enc = sat.Encoding(n, size)
            for con in p.constraints:
                if type(con).__name__ == "Relation":
                    sat._relation(enc, cand, con)
            got[pure] = (cnf_enum.relation_supports(p, cand, n), enc.clauses)
            packed = sat.Encoding(n, size, compact=True, packed=True)
            for con in p.constraints:
                if type(con).__name__ == "Relation":
                    sat._relation(packed, cand, con)
            assert list(sat.unpacked(cnf_enum.relation_supports(p, cand, n, packed=True))) \
                == got[pure][0]
            assert list(sat.unpacked(packed.clauses)) == enc.clauses
    assert got[False] == got[True]


def test_kernel_gives_every_workbench_model_the_same_encoding(monkeypatch):
    """The compact encoding (clauses and extra clauses) of every workbench model from its
    root candidates, kernel on and off: the same, clause for clause (once the deferred
    natives' clauses are written, :meth:`csp.sat.Encoding.materialize`); and so is the
    packed encoding (the kernel's clauses in packed blocks, ``Encoding.packed``) read back
    by ``sat.unpacked``, and its ``expanded()`` the compact one's."""
    from conftest import workbench_sets
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    sets = workbench_sets()
    seen = 0
    for name in ("unique", "variants"):
        for item in sets[name]:
            p = load_fpuzzles(item["doc"])
            cand = sat._root_propagate(p.engine(), list(p.initial_state().cand))
            if cand is None:
                continue
            out = []
            for pure in (True, False):
                with monkeypatch.context() as m:
                    m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
                    enc = sat.encode(p, cand, compact=True)
                    # (the natives' clauses the kernel's enumerator does without, written)
                    out.append((enc.materialize(), enc.extra, enc.top))
                    packed = sat.encode(p, cand, compact=True, packed=True)
                    assert (list(sat.unpacked(packed.materialize())),
                            list(sat.unpacked(packed.extra)), packed.top) == out[-1], item["id"]
                    assert packed.expanded() == sat.encode(p, cand, compact=True).expanded()
            assert out[0] == out[1], item["id"]
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("seed", range(4))
def test_packed_blocks_unpack_in_c_as_in_python(monkeypatch, seed):
    """``sat.unpacked`` and ``Encoding.expanded`` of packed blocks (random clauses and
    groups, empty ones, big literals): the compiled ``unpack`` and the Python loop give the
    same lists and tuples (groups as their pairs when expanded), the records as written;
    a block that is not whole records is refused."""
    import array
    rng = random.Random(seed)
    recs = []
    for _ in range(300):
        k = rng.choice((0, 1, 2, 3, 5, 9))
        lits = [rng.choice((-1, 1)) * rng.randint(1, rng.choice((50, 5000, 2 ** 30)))
                for _ in range(k)]
        recs.append(tuple(abs(x) for x in lits) if k > 1 and rng.random() < 0.3 else lits)
    ints = []
    for c in recs:
        ints += [len(c) << 1 | (type(c) is tuple)] + list(c)
    block = bytearray(array.array("i", ints).tobytes())
    out = {}
    for pure in (True, False):
        with monkeypatch.context() as m:
            m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
            enc = sat.Encoding(9, 81, compact=True, packed=True)
            enc.clauses += [[1, 2], block, (3, 4, 5)]
            out[pure] = (list(sat.unpacked([block])), enc.expanded())
    assert out[True] == out[False]
    assert out[True][0] == recs
    pairs = [list(p) for c in recs for p in
             (itertools.combinations([-x for x in c], 2) if type(c) is tuple else [c])]
    assert out[True][1] == [[1, 2]] + pairs + [[-3, -4], [-3, -5], [-4, -5]]
    for bad in (bytearray(b"\x04\x00\x00"), bytearray(array.array("i", [6, 1, 2]).tobytes()),
                bytearray(array.array("i", [-4, 1, 2]).tobytes())):
        with pytest.raises(ValueError):
            KERNEL.unpack(bad)


@pytest.mark.parametrize("seed", range(6))
def test_kernel_writes_the_between_and_lockout_clauses(monkeypatch, seed):
    """A between line's and a lockout line's cells (``_between``, ``_lockout``: the
    ``_or3`` clauses over the ends' order literals, ``line`` in C) in C and in Python,
    plain, compact and packed: the same clauses in the same order and the same variables,
    for lines of one to n middle cells, ends with one candidate or all, cells with none."""
    from csp.constraints import FunctionConstraint
    from csp.constraints.function import outside_ends, strictly_between
    rng = random.Random(seed)
    for n in (4, 6, 9, 12):
        for _ in range(6):
            size = n * n
            a, b, *mids = rng.sample(range(size), 2 + rng.randint(1, n))
            keep = rng.choice((0.0, 0.3, 0.7, 1.0))
            cand = [sum(1 << d for d in range(1, n + 1) if rng.random() < keep)
                    or 1 << rng.randint(1, n) for _ in range(size)]
            if rng.random() < 0.2:
                cand[rng.choice(mids)] = 0
            cells = [a, b] + mids
            every = rng.random() < 0.3          # the line's cells all differ: a long
            peers = {c: frozenset(o for o in cells if o != c and (every or (o + c) % 3 != 1))
                     for c in range(size)}      # lockout's ends cannot fit (an empty clause)
            out = []
            for pure, compact, packed in ((True, False, False), (False, False, False),
                                          (True, True, False), (False, True, True)):
                with monkeypatch.context() as m:
                    m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
                    enc = sat.Encoding(n, size, compact=compact, packed=packed)
                    enc.top += 3                        # as if other rules came first
                    for pred, write in ((strictly_between, sat._between),
                                        (outside_ends, sat._lockout)):
                        for c in mids:
                            con = FunctionConstraint(pred, (a, b, c), "line")
                            assert write(enc, cand, con, peers)
                    if packed:
                        assert any(type(x) is bytearray for x in enc.clauses)
                    out.append((list(sat.unpacked(enc.clauses)), enc.top))
            assert out[0] == out[1] == out[2] == out[3], (n, a, b, mids)


def test_kernel_writes_the_product_at_most_one(monkeypatch):
    """``Encoding.at_most_one`` past ``AMO_PAIRWISE`` literals (the product encoding, its
    pairs written by ``product`` in C) in C and in Python: the same clauses, groups and
    new variables in the same order, plain, compact and packed, up to a product of
    products."""
    rng = random.Random(5)
    for k in list(range(sat.AMO_PAIRWISE - 1, 40)) + [143, 144, 145, 170, 400]:
        lits = [rng.choice((1, -1)) * v for v in rng.sample(range(1, 2000), k)]
        out = []
        for pure, compact, packed in ((True, False, False), (False, False, False),
                                      (True, True, False), (False, True, True)):
            with monkeypatch.context() as m:
                m.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
                enc = sat.Encoding(9, 81, compact=compact, packed=packed)
                enc.top = 2000
                enc.at_most_one(lits)
                out.append((list(sat.unpacked(enc.clauses)), enc.top))
        assert out[0] == out[1] and out[2] == out[3], k


@pytest.mark.parametrize("packed", (False, True))
def test_kernel_writes_a_run_of_houses_as_each_house(packed):
    """``houses`` (a run of all-different rules in one call, csp/sat.py ``encode``) writes
    what ``house`` writes for each cell list in turn, lists and packed blocks alike."""
    rng = random.Random(11)
    for n in (4, 9, 12):
        cand = [sum(1 << d for d in range(1, n + 1) if rng.random() < 0.7) for _ in range(n * n)]
        runs = [rng.sample(range(n * n), rng.randint(2, n)) for _ in range(7)]
        runs.append(runs[0][::-1] + runs[0][:1])                # unsorted, a cell twice
        one = bytearray() if packed else []
        for cells in runs:
            KERNEL.house(one, cand, cells, n)
        many = bytearray() if packed else []
        KERNEL.houses(many, cand, runs, n)
        assert many == one


@pytest.mark.parametrize("packed", [False, True])
def test_kernel_writes_a_run_of_relations_as_each_relation(packed):
    """``forbidden_run`` (a run of plain relations in one call, csp/sat.py ``encode``)
    writes what ``forbidden`` writes for each (a, b, sup_a) in turn, lists and packed
    blocks alike; a bad item is refused."""
    from csp.constraints import AbsDiff, Less, NotAbsDiff
    rng = random.Random(13)
    for n in (4, 9, 12):
        cand = [sum(1 << d for d in range(1, n + 1) if rng.random() < 0.7) for _ in range(n * n)]
        rels = []
        for _ in range(30):
            a, b = rng.sample(range(n * n), 2)
            rel = rng.choice((Less(a, b), AbsDiff(a, b, rng.randint(1, 3)), NotAbsDiff(a, b)))
            rels.append((a, b, rel.tables(n)[0]))
        one = bytearray() if packed else []
        for a, b, sup in rels:
            KERNEL.forbidden(one, a, b, sup, cand, n)
        many = bytearray() if packed else []
        KERNEL.forbidden_run(many, rels, cand, n)
        assert many == one
    with pytest.raises(TypeError):
        KERNEL.forbidden_run([], [(0, 1)], cand, n)
    with pytest.raises(ValueError):
        KERNEL.forbidden_run([], [(0, n * n, rels[0][2])], cand, n)


def _distinct_reference(doms, pairs):
    return [t for t in itertools.product(*doms) if all(t[i] != t[j] for i, j in pairs)]


@pytest.mark.parametrize("seed", range(6))
def test_distinct_walks_as_the_product_filtered(monkeypatch, seed):
    """``distinct_product`` (the tables of rules over cells that must differ) in C and in
    Python: the tuples of the whole product that give each pair different digits, in the
    product's order, for cliques (a row), sparse pairs and none; domains that leave no
    tuple; one position to eight."""
    rng = random.Random(seed)
    for _ in range(300):
        k = rng.randint(1, 8)
        n = rng.choice((4, 6, 9, 12))
        doms = [sorted(rng.sample(range(1, n + 1), rng.randint(1, min(n, 5))))
                for _ in range(k)]
        every = [(i, j) for i in range(k) for j in range(i + 1, k)]
        pairs = (every if rng.random() < 0.4
                 else sorted(rng.sample(every, rng.randint(0, len(every)))))
        want = _distinct_reference(doms, pairs)
        assert KERNEL.distinct(doms, pairs) == want if pairs else True
        with monkeypatch.context() as m:
            m.setenv("SUDOKU_CSP_PURE", "1")
            assert list(sat.distinct_product(doms, pairs)) == want
        assert list(sat.distinct_product(doms, pairs)) == want


def test_distinct_refuses_what_does_not_fit():
    with pytest.raises(ValueError):
        KERNEL.distinct([[1, 2], [64]], [(0, 1)])       # a digit past 63
    with pytest.raises(ValueError):
        KERNEL.distinct([[1, 2], [1, 2]], [(1, 0)])     # a pair the wrong way round
    with pytest.raises(ValueError):
        KERNEL.distinct([], [])
    with pytest.raises(TypeError):
        KERNEL.distinct([[1, "2"], [1]], [(0, 1)])
