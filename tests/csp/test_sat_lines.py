"""The SAT encodings of the line rules (csp/sat.py): renban (``_consecutive``, with the
clauses from the cells back to the windows), equal sums of groups of different digits
(``_equal_sums``: region-sum lines, one sum shared by the segments of a line), between
lines (``_between``: a direction and the ends' order literals shared by the line's cells)
and equal digits (``_relation`` of an ``Equal``: palindromes, one-cell segments of a
region-sum line, as two implications a digit).

Each is checked for soundness and completeness against a brute-force enumeration: on
random candidate masks, the models of the encoding, read on the rule's cells, are exactly
the tuples of those candidates the rules allow. Then the whole SAT path (the compiled
enumerator and the pure-Python SAT loop) against every filled 4x4 grid."""
from __future__ import annotations

import itertools
import random
from typing import Callable

import pytest
from pysat.solvers import Solver

from csp import Grid, Puzzle, sat
from csp.constraints import AllDifferent, ConsecutiveSet, Equal, FunctionConstraint, Linear
from csp.constraints.function import outside_ends, strictly_between
from conftest import GRIDS4, assert_sat_path_equals, brute4, counted_calls
from variants.lines import (between_line, line_segments, lockout, palindrome, region_sum_line,
                           renban)


#: the 288 filled 4x4 grids
GRIDS = GRIDS4


def projected_models(p: Puzzle, cand: list[int], scope: list[int]) -> set[tuple[int, ...]]:
    """The digits of ``scope`` in every model of ``p``'s encoding from ``cand`` (every
    other cell decided by its lowest candidate, so the models differ on the scope only)."""
    enc = sat.encode(p, _fix_outside(cand, scope))
    return _scope_models(enc.clauses, enc.n, scope)


def _fix_outside(cand: list[int], scope: list[int]) -> list[int]:
    """``cand`` with every cell outside ``scope`` on its lowest candidate."""
    cand = list(cand)
    for c in range(len(cand)):
        if c not in scope:
            cand[c] &= -cand[c]
    return cand


def _scope_models(clauses: list, n: int, scope: list[int]) -> set[tuple[int, ...]]:
    """The digits of ``scope`` in every model of ``clauses`` (each blocked once found)."""
    out: set[tuple[int, ...]] = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        while s.solve():
            true = {x for x in s.get_model() if x > 0}
            tup = tuple(next(d for d in range(1, n + 1) if c * n + d in true) for c in scope)
            out.add(tup)
            s.add_clause([-(c * n + d) for c, d in zip(scope, tup)])
    return out


def brute_force(p: Puzzle, cand: list[int], scope: list[int]) -> set[tuple[int, ...]]:
    """The tuples of ``scope``'s candidates every rule within the scope allows."""
    rules = [con for con in p.constraints if con.cells and set(con.cells) <= set(scope)]
    pos = {c: i for i, c in enumerate(scope)}
    doms = [[d for d in range(1, p.grid.n + 1) if cand[c] >> d & 1] for c in scope]
    return {tup for tup in itertools.product(*doms)
            if all(con.check(*[tup[pos[c]] for c in con.cells]) for con in rules)}


def _tuples(cand: list[int], scope: list[int]) -> int:
    out = 1
    for c in scope:
        out *= bin(cand[c]).count("1")
    return out


def random_cand(rng: random.Random, n: int, size: int, keep: float) -> list[int]:
    """Candidate masks: each digit kept with probability ``keep``, at least one a cell."""
    out = []
    for _ in range(size):
        m = 0
        while not m:
            m = sum(1 << d for d in range(1, n + 1) if rng.random() < keep)
        out.append(m)
    return out


def random_instances_agree(rng: random.Random, sizes: tuple[int, ...],
                           keeps: tuple[float, ...],
                           build: Callable[[random.Random, Puzzle, int], list[int]]) -> None:
    """Six random instances: an n x n puzzle (``n`` from ``sizes``) to which ``build``
    adds the rules under test and returns their scope, and random candidates (each digit
    kept with a probability from ``keeps``); the encoding's models on the scope are the
    brute force's tuples."""
    for _ in range(6):
        n = rng.choice(sizes)
        p = Puzzle(Grid(n))
        scope = build(rng, p, n)
        cand = random_cand(rng, n, n * n, rng.choice(keeps))
        assert projected_models(p, cand, scope) == brute_force(p, cand, scope)


def compact_models(p: Puzzle, cand: list[int], scope: list[int],
                   extra: bool) -> set[tuple[int, ...]]:
    """:func:`projected_models` of ``p``'s compact encoding with every rule but houses and
    relations as its automaton (no table), with or without the clauses it lists in
    ``Encoding.extra`` (the layers' supports and the projection clauses)."""
    enc = sat.encode(p, _fix_outside(cand, scope), table_budget=0, compact=True)
    return _scope_models(enc.expanded() + (enc.extra if extra else []), enc.n, scope)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("pure", [True, False])
def test_outside_clue_automata_are_exact(monkeypatch, seed, pure) -> None:
    """Skyscraper (now and then with the opposite clue too), sandwich and X-sum clues on
    4x4 to 6x6 grids, encoded as automata (``_automaton``, compact: the layers' supports
    and the projection clauses in ``Encoding.extra``; in Python, and by the compiled
    ``csp._auto_kernel``) from random candidates: their models on the line, with and
    without the extra clauses, are the brute force's tuples."""
    from csp import kernel
    from variants.outside import sandwich, skyscraper, x_sum
    used = counted_calls(monkeypatch, sat, "_automaton")
    if pure:
        monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
        projected = counted_calls(monkeypatch, sat, "_projections")
    else:
        if kernel.active(sat._auto_kernel) is None:
            pytest.skip("csp._auto_kernel is not built (or SUDOKU_CSP_PURE=1)")
        projected = []
        real = sat._auto_kernel.layers

        def layers(*args):
            if args[10]:                  # the projection clauses asked for
                projected.append(1)
            return real(*args)
        monkeypatch.setattr(sat._auto_kernel, "layers", layers)
    rng = random.Random(seed)
    for _ in range(8):
        n = rng.choice((4, 5, 6))
        side = rng.randrange(4)
        i = rng.randint(1, n)
        row, col = ((0, i), (n + 1, i), (i, 0), (i, n + 1))[side]
        perm = rng.sample(range(1, n + 1), n)          # a line the clue fits, mostly
        kind = rng.choice(("skyscraper", "sandwich", "x_sum"))
        rules: list = []
        if kind == "skyscraper":
            seen = sum(1 for j, v in enumerate(perm) if v > max(perm[:j], default=0))
            rules.append(skyscraper(row, col, rng.choice((seen, rng.randint(1, n)))))
            if rng.random() < 0.4:
                back = ((n + 1, i), (0, i), (i, n + 1), (i, 0))[side]
                rules.append(skyscraper(*back, rng.randint(1, n)))
        elif kind == "sandwich":
            a, b = sorted((perm.index(1), perm.index(n)))
            rules.append(sandwich(row, col, sum(perm[a + 1:b]) + rng.choice((0, 0, 1))))
        else:
            rules.append(x_sum(row, col, sum(perm[:perm[0]]) + rng.choice((0, 0, 1))))
        p = Puzzle(Grid(n)).use(*rules)
        scope = list(p.constraints[0].cells)
        cand = random_cand(rng, n, n * n, rng.choice((0.5, 0.75, 1.0)))
        want = brute_force(p, cand, scope)
        assert compact_models(p, cand, scope, extra=True) == want
        assert compact_models(p, cand, scope, extra=False) == want
    assert len(used) >= 16 and len(projected) > 0


@pytest.mark.parametrize("seed", range(8))
def test_renban_encoding_is_exact(monkeypatch, seed) -> None:
    used = counted_calls(monkeypatch, sat, "_consecutive")

    def build(rng: random.Random, p: Puzzle, n: int) -> list[int]:
        cells = rng.sample(range(n * n), rng.randint(2, 5))
        p.add(ConsecutiveSet(cells, "renban"))
        return cells
    random_instances_agree(random.Random(seed), (6, 7, 9), (0.4, 0.6, 0.9), build)
    assert len(used) == 6


@pytest.mark.parametrize("seed", range(8))
def test_equal_sums_encoding_is_exact(monkeypatch, seed) -> None:
    """Groups of different digits (one to four cells each) whose sums are equated in a
    chain and now and then once more across it (both sums known already), on random
    candidates: the encoding's models are the brute force's tuples."""
    rng = random.Random(seed)
    real = sat._equal_sums                          # every such rule taken, shared or not
    monkeypatch.setattr(sat, "_equal_sums", lambda enc, cand, con, peers, budget, tb=0:
                        real(enc, cand, con, peers, budget, 0))
    used = counted_calls(monkeypatch, sat, "_sum_side")
    for _ in range(5):
        p = Puzzle(Grid(6))
        pool = rng.sample(range(36), 10)
        groups, i = [], 0
        while i < len(pool) and len(groups) < 4:
            k = rng.choice((1, 1, 2, 3, 4))
            if i + k > len(pool):
                break
            groups.append(pool[i:i + k])
            i += k
        for g in groups:
            if len(g) > 1:
                p.add(AllDifferent(g, "group"))
        for a, b in zip(groups, groups[1:]):
            p.add(Linear(a + b, [1] * len(a) + [-1] * len(b), 0, "equal sums"))
        if len(groups) > 2 and rng.random() < 0.5:
            a, b = groups[0], groups[-1]
            p.add(Linear(b + a, [1] * len(b) + [-1] * len(a), 0, "equal sums"))
        scope = [c for g in groups for c in g]
        while True:                    # few enough tuples for the brute force
            cand = random_cand(rng, 6, 36, rng.choice((0.5, 0.8)))
            if _tuples(cand, scope) <= 50_000:
                break
        assert projected_models(p, cand, scope) == brute_force(p, cand, scope)
    assert len(used) >= 5


def test_equal_sums_need_groups_of_different_digits() -> None:
    """A side whose cells may repeat a digit, a coefficient other than 1 and -1 or a total
    other than 0 is not this encoding's (a table or an automaton takes it); nor is a rule
    whose sides no other rule shares and whose table is small (an arrow: its table also
    knows the peers across its sides)."""
    p = Puzzle(Grid(6)).add(AllDifferent([0, 1]))
    cand = p.initial_state().cand
    peers = sat._Peers(p)
    enc = sat.Encoding(6, 36)
    for con in (Linear([2, 3, 4], [1, 1, -1], 0), Linear([0, 1, 2], [1, 1, -2], 0),
                Linear([0, 1, 2], [1, 1, -1], 1)):
        assert not sat._equal_sums(enc, cand, con, peers, 2000, table_budget=0)
    assert not sat._equal_sums(enc, cand, Linear([0, 1, 2], [1, 1, -1], 0), peers, 2000)
    assert enc.clauses == [] and enc.top == 6 * 36 + 6
    assert sat._equal_sums(enc, cand, Linear([0, 1, 2], [1, 1, -1], 0), peers, 2000,
                           table_budget=0)
    q = Puzzle(Grid(6)).add(AllDifferent([0, 1]), Linear([0, 1, 2], [1, 1, -1], 0),
                            Linear([2, 3], [1, -1], 0))     # the side r1c3 is shared
    enc = sat.Encoding(6, 36)
    assert sat._equal_sums(enc, cand, q.constraints[1], sat._Peers(q), 2000)


@pytest.mark.parametrize("seed", range(8))
def test_between_encoding_is_exact(monkeypatch, seed) -> None:
    """A between line's cells (some of them all different: the ends then lie further
    apart) and sometimes a second line on the same ends, on random candidates."""
    used = counted_calls(monkeypatch, sat, "_between")

    def build(rng: random.Random, p: Puzzle, n: int) -> list[int]:
        k = rng.randint(1, 3)
        a, b, *mids = rng.sample(range(n * n), k + 2 + 2)
        lines = [mids[:k]]
        if rng.random() < 0.4:
            lines.append(mids[k:])
        for line in lines:
            for c in line:
                p.add(FunctionConstraint(strictly_between, (a, b, c), "between"))
        if k > 1 and rng.random() < 0.6:
            p.add(AllDifferent(mids[:k], "mids"))
        return [a, b] + [c for line in lines for c in line]
    random_instances_agree(random.Random(seed), (5, 7, 9), (0.4, 0.7, 1.0), build)
    assert len(used) > 0


@pytest.mark.parametrize("seed", range(8))
def test_lockout_encoding_is_exact(monkeypatch, seed) -> None:
    """A lockout line's cells (some of them all different: the ends then lie closer
    together; sometimes one in a house with an end), sometimes a second line on the same
    ends, and sometimes the ends' own rule, on random candidates."""
    used = counted_calls(monkeypatch, sat, "_lockout")

    def build(rng: random.Random, p: Puzzle, n: int) -> list[int]:
        k = rng.randint(1, 4)
        a, b, *mids = rng.sample(range(n * n), k + 2 + 2)
        lines = [mids[:k]]
        if rng.random() < 0.4:
            lines.append(mids[k:])
        for line in lines:
            for c in line:
                p.add(FunctionConstraint(outside_ends, (a, b, c), "lockout"))
        if k > 1 and rng.random() < 0.6:
            p.add(AllDifferent(mids[:rng.randint(2, k)], "mids"))
        if rng.random() < 0.4:
            p.add(AllDifferent([rng.choice((a, b)), mids[0]], "end and cell"))
        if rng.random() < 0.4:
            p.add(FunctionConstraint(lambda x, y: abs(x - y) >= 3, (a, b), "ends"))
        return [a, b] + [c for line in lines for c in line]
    random_instances_agree(random.Random(seed), (4, 5, 7, 9), (0.4, 0.7, 1.0), build)
    assert len(used) > 0


def test_lockout_encoding_propagates_the_ends_ranges() -> None:
    """Ends on 1-2 and 6-9: unit propagation alone rules out 2..6 in the line's cell
    (the forbidden triples acted only once both ends were placed)."""
    from csp.cnf_enum import compiled_kernel
    mod = compiled_kernel()
    if mod is None:
        pytest.skip("csp._enum_kernel is not built (or SUDOKU_CSP_PURE=1)")
    p = Puzzle(Grid(9))
    p.add(FunctionConstraint(outside_ends, (0, 1, 2), "lockout"))
    cand = [0b1111111110] * 81
    cand[0], cand[1] = 0b110, 0b1111000000
    enc = sat.encode(p, cand)
    en = mod.Enumerator(enc.top, 9, 81, enc.clauses, 0, False, 0, 0, 0)
    en.run(0, 10 ** 6, 0)              # the root's unit propagation, no decision
    root = set(en.root())
    assert [d for d in range(1, 10) if -(2 * 9 + d) not in root] == [1, 7, 8, 9]


@pytest.mark.parametrize("seed", range(4))
def test_equal_digits_encoding_is_exact(seed) -> None:
    """Chains of equal cells on random candidates (some digits in one cell only)."""
    rng = random.Random(seed)
    for _ in range(6):
        p = Puzzle(Grid(6))
        cells = rng.sample(range(36), rng.randint(2, 5))
        for a, b in zip(cells, cells[1:]):
            p.add(Equal(a, b, "equal"))
        cand = random_cand(rng, 6, 36, rng.choice((0.4, 0.7)))
        added = len(sat.encode(p, cand).clauses) - len(sat.encode(Puzzle(Grid(6)), cand).clauses)
        want = 0                       # two implications a shared digit, a unit clause else
        for a, b in zip(cells, cells[1:]):
            both = bin(cand[a] & cand[b]).count("1")
            want += 2 * both + bin(cand[a] ^ cand[b]).count("1")
        assert added == want
        assert projected_models(p, cand, cells) == brute_force(p, cand, cells)


def line_puzzle(rng: random.Random) -> Puzzle:
    """A 4x4 with houses, a few givens and line rules true of a random solution: a renban
    (a run of consecutive digits of the solution), a region-sum line (its segments' sums
    equal in the solution), a palindrome (when a walk reads the same both ways) and a
    between line."""
    sol = rng.choice(GRIDS)
    g = Grid(4)
    p = Puzzle(g).add_grid_houses()
    givens = ["."] * 16
    for c in rng.sample(range(16), rng.randint(0, 3)):
        givens[c] = str(sol[c])
    p.givens("".join(givens))

    def walk(k: int) -> list[int]:
        """A random path of up to ``k`` orthogonally adjacent cells."""
        path = [rng.randrange(16)]
        while len(path) < k:
            r, c = divmod(path[-1], 4)
            nxt = [(r + dr) * 4 + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                   if 0 <= r + dr < 4 and 0 <= c + dc < 4 and (r + dr) * 4 + c + dc not in path]
            if not nxt:
                break
            path.append(rng.choice(nxt))
        return path

    names = [g.name(c) for c in range(16)]
    for _ in range(20):
        path = walk(rng.randint(2, 4))
        vals = sorted(sol[c] for c in path)
        if len(set(vals)) == len(vals) and vals[-1] - vals[0] == len(vals) - 1:
            p.use(renban([names[c] for c in path]))
            break
    for _ in range(40):
        path = walk(rng.randint(3, 6))
        segs = line_segments(g, path)
        if len(segs) > 1 and len({sum(sol[c] for c in s) for s in segs}) == 1:
            p.use(region_sum_line([names[c] for c in path]))
            break
    for _ in range(40):
        path = walk(rng.randint(2, 5))
        if all(sol[c] == sol[path[-1 - i]] for i, c in enumerate(path)) and len(path) > 3:
            p.use(palindrome([names[c] for c in path]))
            break
    for _ in range(40):
        path = walk(rng.randint(3, 4))
        lo, hi = sorted((sol[path[0]], sol[path[-1]]))
        if all(lo < sol[c] < hi for c in path[1:-1]):
            p.use(between_line([names[c] for c in path]))
            break
    for _ in range(40):
        path = walk(rng.randint(3, 4))
        lo, hi = sorted((sol[path[0]], sol[path[-1]]))
        if hi - lo >= 2 and all(not lo <= sol[c] <= hi for c in path[1:-1]):
            p.use(lockout([names[c] for c in path], 2))
            break
    return p


@pytest.mark.parametrize("seed", range(6))
def test_line_puzzles_agree_with_every_filled_grid(monkeypatch, seed) -> None:
    """True candidates (caps 1 and 3) and counts on the SAT path, with the compiled
    enumerator and without (``SUDOKU_CSP_PURE``), equal those of every filled 4x4 grid."""
    rng = random.Random(seed)
    for _ in range(8):
        p = line_puzzle(rng)
        assert_sat_path_equals(monkeypatch, p, brute4(p))


def test_the_line_encodings_leave_no_table() -> None:
    """On a 9x9 with a region-sum line and a between line, neither is a table any more:
    no triple table for the between line's cells, no automaton for the segments."""
    from variants.classic import classic
    p = Puzzle(9).use(classic(), region_sum_line(["r1c1", "r2c2", "r3c3", "r4c4", "r5c5",
                                                  "r6c6"]),
                      between_line(["r9c1", "r9c2", "r9c3", "r8c3"]))
    cand = p.initial_state().cand
    calls = []
    orig_table, orig_auto = sat._table, sat._automaton
    try:
        sat._table = lambda *a, **k: calls.append("table") or orig_table(*a, **k)
        sat._automaton = lambda *a, **k: calls.append("automaton") or orig_auto(*a, **k)
        enc = sat.encode(p, cand, compact=True)
    finally:
        sat._table, sat._automaton = orig_table, orig_auto
    assert calls == []
    assert ("between", p.grid.cell("r9c1"), p.grid.cell("r8c3")) in enc.shared
