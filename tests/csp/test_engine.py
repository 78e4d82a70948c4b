"""Behaviour of the fixpoint engine and the search (both the general path and the bitboard
fast path for models made of all-different houses only). No timed tests here: speed is
measured by benchmarks/bruteforce.py."""
from __future__ import annotations

import itertools
import random

import pytest

from csp import Contradiction, Grid, Puzzle
from csp.engine import Engine
from csp.errors import NodeLimitExceeded, SearchLimit, TimeLimitExceeded
from csp.search import search
from variants.classic import classic_puzzle

from conftest import load_solutions

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def bits(*digits: int) -> int:
    return sum(1 << d for d in digits)


def with_noop_relation(p: Puzzle) -> Puzzle:
    """Add an always-true binary relation: the model is no longer pure all-different, so
    search takes the general engine path instead of the bitboard fast path."""
    return p.add_constraint(lambda a, b: True, ["r1c1", f"r{p.grid.n}c{p.grid.n}"],
                            name="anything")


# -- contradictions name the failing constraint -------------------------------------------

def test_two_fixed_cells_with_one_digit_name_the_house():
    eng = Engine(3, 3, [("trio", (0, 1, 2))], [])
    cand = [bits(1), bits(1), bits(1, 2, 3)]
    with pytest.raises(Contradiction) as e:
        eng.propagate(cand)
    assert e.value.constraint == "trio"
    assert set(e.value.cells) == {0, 1}


def test_pigeonhole_names_house_and_missing_digit():
    eng = Engine(3, 3, [("trio", (0, 1, 2))], [])
    cand = [bits(1, 2)] * 3          # digit 3 has no place in a full house of 3 cells
    with pytest.raises(Contradiction) as e:
        eng.propagate(cand)
    assert e.value.constraint == "trio"
    assert "3" in str(e.value)
    assert set(e.value.cells) == {0, 1, 2}


def test_relation_cycle_contradiction_names_a_relation():
    p = Puzzle(Grid(4))
    p.add_less("r1c1", "r1c2").add_less("r1c2", "r1c3").add_less("r1c3", "r1c1")
    with pytest.raises(Contradiction) as e:
        p.propagate()
    assert e.value.constraint in {c.name for c in p.constraints}
    assert e.value.cells


def test_no_contradiction_on_empty_grid():
    st = classic_puzzle("." * 81).propagate()
    assert all(m.bit_count() == 9 for m in st.cand)


# -- the trace hook -----------------------------------------------------------------------

def test_trace_accounts_for_every_removal_with_a_house_reason():
    p = classic_puzzle(HARD)
    start = p.initial_state().cand
    seen: dict[int, int] = {}
    reasons = []

    def hook(cell, removed, reason):
        assert removed and not removed & seen.get(cell, 0), "a digit removed twice"
        seen[cell] = seen.get(cell, 0) | removed
        reasons.append((cell, reason))

    end = p.propagate(trace=hook).cand
    # every removed digit was reported, and nothing else
    for c in range(81):
        assert seen.get(c, 0) == start[c] & ~end[c]
    houses = {h.name: set(h.cells) for h in p.houses()}
    assert reasons
    for cell, (name, premises) in reasons:
        assert name in houses
        assert cell in houses[name]
        assert all(q in houses[name] and q != cell for q in premises)


def test_trace_reason_of_a_relation_names_it():
    p = Puzzle(Grid(4)).add_grid_houses().add_less("r1c1", "r1c2", name="thermo")
    got = []
    p.propagate(trace=lambda c, m, r: got.append((c, m, r)))
    r1c1, r1c2 = p.cell("r1c1"), p.cell("r1c2")
    assert (r1c1, bits(4), ("thermo", (r1c2,))) in got
    assert (r1c2, bits(1), ("thermo", (r1c1,))) in got
    assert all(r[0] == "thermo" for c, m, r in got if c in (r1c1, r1c2))


# -- search limits --------------------------------------------------------------------------

@pytest.mark.parametrize("general", [False, True])
def test_node_limit_raises(general):
    p = classic_puzzle(HARD)
    if general:
        with_noop_relation(p)
    with pytest.raises(NodeLimitExceeded):
        p.solve(node_limit=1)
    # with room enough it solves
    assert p.solve(node_limit=100_000).status == "solved"


@pytest.mark.parametrize("general", [False, True])
def test_time_limit_raises(general):
    p = classic_puzzle("." * 81)
    if general:
        with_noop_relation(p)
    with pytest.raises(TimeLimitExceeded) as e:
        p.count_solutions(limit=10 ** 9, time_limit=0.0)
    assert isinstance(e.value, SearchLimit)


# -- solving never mutates the puzzle --------------------------------------------------------

def test_solve_does_not_mutate_puzzle_or_state():
    p = classic_puzzle(HARD)
    givens = dict(p.given)
    names = [c.name for c in p.constraints]
    st = p.initial_state()
    before = st.cand[:]
    r1 = p.solve(state=st)
    assert st.cand == before
    assert p.given == givens and [c.name for c in p.constraints] == names
    assert p.initial_state().cand == before
    r2 = p.solve()
    assert r1.status == r2.status == "solved"
    assert r1.solution == r2.solution
    assert p.check_solution(r1.solution)


# -- solutions: uniqueness, multiple, none -----------------------------------------------------

def test_known_solutions_fast_and_general_paths():
    for line, sol in load_solutions("norvig_top95", limit=12):
        assert classic_puzzle(line).solve().solution == sol
        r = with_noop_relation(classic_puzzle(line)).solve()
        assert r.status == "solved" and r.solution == sol


def _unique_rectangle(grid: list[list[int]]):
    """Four cells (two rows of one band, two columns of two stacks) holding a b / b a."""
    for r1, r2 in itertools.combinations(range(9), 2):
        if r1 // 3 != r2 // 3:
            continue
        for c1, c2 in itertools.combinations(range(9), 2):
            if c1 // 3 == c2 // 3:
                continue
            a, b = grid[r1][c1], grid[r1][c2]
            if grid[r2][c1] == b and grid[r2][c2] == a:
                return [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
    return None


@pytest.mark.parametrize("general", [False, True])
def test_multiple_detected_on_a_deadly_rectangle(general):
    for _, sol in load_solutions("norvig_top95"):
        grid = [sol[r * 9:r * 9 + 9] for r in range(9)]
        rect = _unique_rectangle(grid)
        if rect:
            break
    assert rect, "no solution grid with a rectangle"
    line = "".join("." if (r, c) in rect else str(grid[r][c])
                   for r in range(9) for c in range(9))
    p = classic_puzzle(line)
    if general:
        with_noop_relation(p)
    res = p.solve()
    assert res.status == "multiple"
    a, b = res.solutions
    diff = {i for i in range(81) if a[i] != b[i]}
    assert diff == {r * 9 + c for r, c in rect}
    assert all(p.check_solution(s) for s in res.solutions)
    assert p.count_solutions(limit=10) == 2
    assert p.solve(first=True).status == "solved"


def test_4x4_empty_grid_has_288_solutions_on_both_paths():
    assert classic_puzzle("." * 16).count_solutions(limit=1000) == 288
    assert with_noop_relation(classic_puzzle("." * 16)).count_solutions(limit=1000) == 288


def test_unsolvable_without_direct_clash():
    # r1c1..r1c8 force r1c9 = 9, but column 9 already holds a 9 further down
    line = "12345678." + "." * 8 + "9" + "." * 63
    res = classic_puzzle(line).solve()
    assert res.status == "unsolvable" and res.solutions == []


def _all_solutions(p: Puzzle) -> set[tuple[int, ...]]:
    sols, _ = search(p.engine(), p.initial_state().cand, limit=100_000)
    return {tuple(s) for s in sols}


@pytest.mark.parametrize("n", [4, 6])
def test_fast_path_enumerates_the_same_solutions_as_the_general_path(n):
    rng = random.Random(n)
    full = classic_puzzle("." * (n * n)).solve(first=True).solution
    assert full is not None
    for _ in range(15):
        keep = rng.sample(range(n * n), rng.randint(2 * n - 2, 3 * n))
        line = "".join(str(full[c]) if c in keep else "." for c in range(n * n))
        fast = classic_puzzle(line)
        slow = with_noop_relation(classic_puzzle(line))
        assert fast.engine().pure and not slow.engine().pure
        got = _all_solutions(fast)
        assert got == _all_solutions(slow)
        assert tuple(full) in got
        assert all(fast.check_solution(list(s)) for s in got)


def test_fast_path_respects_non_full_houses_and_restricted_candidates():
    # a 2-cell all-different "cage" inside a 4x4 grid, and a cell limited to {1, 2}
    p = classic_puzzle("." * 16)
    p.add_all_different(["r1c1", "r2c3"], name="cage")
    st = p.initial_state()
    st.cand[p.cell("r4c4")] = bits(1, 2)
    sols, _ = search(p.engine(), st.cand, limit=1000)
    assert sols
    for s in sols:
        assert s[p.cell("r1c1")] != s[p.cell("r2c3")]
        assert s[p.cell("r4c4")] in (1, 2)
    every = classic_puzzle("." * 16).solve  # sanity: the extra rules cut solutions
    assert len(sols) < 288 and every().status == "multiple"


def test_engines_of_same_houses_share_tables_but_not_names():
    a = classic_puzzle("." * 81).engine()
    b = classic_puzzle("1" + "." * 80).engine()
    assert a.peers is b.peers
    assert a.bitboards() is b.bitboards()
    jig = Puzzle(Grid(4)).add_grid_houses()
    jig.add_all_different(["r1c1", "r4c4"], name="extra")
    assert jig.engine().peers is not classic_puzzle("." * 16).engine().peers


def test_perfect_matching_against_brute_force():
    """``csp.matching.perfect_matching`` (with its shortcut for cells of as many digits as
    there are cells) and ``matching`` against every assignment of 1 to 5 cells."""
    import itertools
    import random
    from csp.matching import matching, perfect_matching
    rng = random.Random(7)
    for _ in range(3000):
        k = rng.randint(1, 5)
        doms = [rng.randrange(1, 1 << 7) << 1 for _ in range(k)]
        if rng.random() < 0.3:                 # the shortcut's case: wide cells
            doms = [m | (((1 << k) - 1) << 1) for m in doms]
        want = any(all(doms[i] >> d & 1 for i, d in enumerate(ds))
                   for ds in itertools.permutations(range(1, 8), k))
        assert perfect_matching(doms) is want
        mate = matching(doms)
        assert (mate is not None) is want
        if mate is not None:
            assert len(set(mate)) == k and all(b & m for b, m in zip(mate, doms))


# -- houses_last: the houses' hidden singles after the other propagators ------------------

def _propagated(eng: Engine, cand: list[int], houses_last: bool) -> list[int] | None:
    cand = list(cand)
    try:
        eng.propagate(cand, None, houses_last=houses_last)
    except Contradiction:
        return None
    return cand


@pytest.mark.parametrize("seed", range(40))
def test_houses_last_reaches_the_same_fixpoint_on_random_models(seed):
    """Random 4x4 and 6x6 grids with chains of "<", "!=" pairs, sums of pairs and a few
    givens: the same candidates (or the same contradiction) whichever order the houses'
    hidden singles take."""
    rng = random.Random(seed)
    n = rng.choice([4, 6])
    p = classic_puzzle("." * (n * n))
    size = n * n
    for _ in range(rng.randint(2, 8)):
        a, b = rng.sample(range(size), 2)
        p.add_less(p.grid.name(a), p.grid.name(b))
    for _ in range(rng.randint(0, 3)):
        a, b = rng.sample(range(size), 2)
        k = rng.randint(3, 2 * n - 1)
        p.add_constraint(lambda x, y, k=k: x + y != k, [p.grid.name(a), p.grid.name(b)],
                         name=f"not {k}")
    st = p.initial_state()
    for c in rng.sample(range(size), rng.randint(0, n)):
        st.cand[c] = 1 << rng.randint(1, n)
    eng = p.engine()
    assert not eng.pure
    assert _propagated(eng, st.cand, True) == _propagated(eng, st.cand, False)


def test_houses_last_keeps_the_root_of_every_workbench_model():
    """The SAT session's root propagation (csp.sat._root_propagate, houses_last) gives the
    candidates of the default order on every model of the workbench's unique and variant
    sets that is not made of houses only."""
    from conftest import workbench_sets
    from csp.sat import _root_propagate
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    sets = workbench_sets()
    seen = 0
    for name in ("unique", "variants"):
        for item in sets[name]:
            p = load_fpuzzles(item["doc"])
            eng = p.engine()
            if eng.pure:
                continue
            cand = list(p.initial_state().cand)
            assert _root_propagate(eng, cand) == _propagated(eng, cand, False), item["id"]
            seen += 1
    assert seen > 100


# -- order_propagators: its work kept by the rules ----------------------------------------

def _order_view(props):
    return [(p.cell, p.below, p.above, p.scope, p.name) for p in props]


@pytest.mark.parametrize("seed", range(20))
def test_order_propagators_kept_by_rules_never_stale(seed):
    """``order_propagators`` keeps its closure and groups by the ``<`` pairs, ``!=`` pairs
    and houses: on random models, the propagators from a remembered entry equal those
    worked out afresh, a changed rule (one more ``<``, one more ``!=``, other houses) gets
    its own, and the propagators are new objects each time."""
    from csp.constraints import order
    from csp.constraints.binary import Relation, RelationKind
    rng = random.Random(seed)
    n = rng.choice([4, 6, 9])
    g = Grid(n)
    size = n * n
    rules = [Relation(*rng.sample(range(size), 2), RelationKind.LT)
             for _ in range(rng.randint(2, 12))]
    rules += [Relation(*rng.sample(range(size), 2), RelationKind.NE)
              for _ in range(rng.randint(0, 4))]
    houses = [tuple(h.cells) for h in Puzzle(g).add_grid_houses().houses()]

    def fresh(rules, houses):
        order._SPECS.clear()
        return _order_view(order.order_propagators(rules, houses, g.name))

    def variants():
        a, b = rng.sample(range(size), 2)
        yield rules + [Relation(a, b, RelationKind.LT)], houses
        yield rules + [Relation(a, b, RelationKind.NE)], houses
        yield rules, houses[:-1]
        yield rules[1:], houses
    want = fresh(rules, houses)
    first = order.order_propagators(rules, houses, g.name)
    assert _order_view(first) == want
    for other_rules, other_houses in variants():
        other = fresh(other_rules, other_houses)
        order.order_propagators(rules, houses, g.name)          # both remembered now
        assert _order_view(order.order_propagators(other_rules, other_houses, g.name)) \
            == other
        again = order.order_propagators(rules, houses, g.name)
        assert _order_view(again) == want
        assert not set(map(id, again)) & set(map(id, first))
    assert len(order._SPECS) <= order._SPECS_SIZE


def _order_specs_reference(less, ne, house_cells):
    """The ordering groups as first written (a walk from each cell, each group grown by
    the cells that differ from every cell of it, pair by pair): the reference of
    ``order._order_specs``."""
    above = {}
    cells = set(less) | {y for ys in less.values() for y in ys}
    for x in sorted(cells):
        seen, stack = set(), list(less.get(x, ()))
        while stack:
            y = stack.pop()
            if y in seen or y == x:
                continue
            seen.add(y)
            stack.extend(less.get(y, ()))
        above[x] = seen
    below = {x: set() for x in cells}
    for x, ys in above.items():
        for y in ys:
            below[y].add(x)
    houses = [set(h) for h in house_cells]

    def differ(a, b):
        return any(a in h and b in h for h in houses) or (min(a, b), max(a, b)) in ne

    def groups(cs):
        out = []
        if len(cs) < 2:
            return out
        for h in houses:
            grp = cs & h
            if len(grp) < 2:
                continue
            for c in sorted(cs - grp):
                if all(differ(c, x) for x in grp):
                    grp = grp | {c}
            t = tuple(sorted(grp))
            if t not in out:
                out.append(t)
        return out
    specs = []
    for x in sorted(cells):
        b, a = groups(below[x]), groups(above[x])
        if a or b:
            specs.append((x, tuple(b), tuple(a),
                          tuple(sorted({x, *(c for g in b + a for c in g)}))))
    return tuple(specs)


def _random_order_graph(rng: random.Random, size: int, edges: int,
                        pairs: int) -> tuple[dict[int, set[int]], set[tuple[int, ...]]]:
    """Random ``<`` edges (up to ``edges``; chains, branches, cycles) over ``size`` cells and
    up to ``pairs`` ``!=`` pairs, for the ordering groups' tests."""
    less: dict[int, set[int]] = {}
    for _ in range(rng.randint(1, edges)):
        if rng.random() < 0.7 and less:        # extend a chain
            a = rng.choice([y for ys in less.values() for y in ys])
        else:
            a = rng.randrange(size)
        b = rng.randrange(size)
        if a != b:
            less.setdefault(a, set()).add(b)
    ne = {tuple(sorted(rng.sample(range(size), 2))) for _ in range(rng.randint(0, pairs))}
    return less, ne


@pytest.mark.parametrize("seed", range(40))
def test_order_specs_equal_the_reference(seed):
    """``order._order_specs`` (the closure from the greatest cells down, the groups grown
    by each cell's set of cells it differs from) against the first writing, on random
    ``<`` graphs (chains, branches, cycles) with ``!=`` pairs on 4x4 to 9x9 grids."""
    from csp.constraints import order
    rng = random.Random(seed)
    n = rng.choice([4, 6, 9])
    size = n * n
    houses = [tuple(h.cells) for h in Puzzle(Grid(n)).add_grid_houses().houses()]
    less, ne = _random_order_graph(rng, size, 3 * n, 6)
    assert order._order_specs(less, ne, houses) == _order_specs_reference(less, ne, houses)


@pytest.mark.parametrize("seed", range(60))
def test_order_specs_kernel_equals_python(seed):
    """``csp._engine_kernel.order_specs`` gives ``order._order_specs``' tuple on random
    ``<`` graphs (chains, branches, cycles) with ``!=`` pairs, on 4x4 to 16x16 grids, with
    all their houses or some of them; and None (the Python loop's turn) for a cell that is
    not a small non-negative int."""
    from csp.constraints import order
    kernel = order._engine_kernel
    if kernel is None:
        pytest.skip("csp._engine_kernel is not built")
    rng = random.Random(seed)
    n = rng.choice([4, 6, 9, 12, 16])
    size = n * n
    houses = [tuple(h.cells) for h in Puzzle(Grid(n)).add_grid_houses().houses()]
    if seed % 3 == 0:
        houses = rng.sample(houses, rng.randrange(len(houses) + 1))
    less, ne = _random_order_graph(rng, size, 4 * n, 12)
    assert kernel.order_specs(less, ne, houses) == order._order_specs(less, ne, houses)
    assert kernel.order_specs({}, ne, houses) == ()
    assert kernel.order_specs({0: {"r1c2"}}, set(), houses) is None
    assert kernel.order_specs({-1: {2}}, set(), houses) is None


def test_table_propagator_equals_the_relations_propagator():
    """``Relation.table_propagator`` (one engine build's tables by relation key) gives the
    propagator ``propagators(n)`` gives: the same cells, name, scope and the same table
    objects, for relations of every kind sharing one memo."""
    from csp.constraints.binary import (AbsDiff, AllowedPairs, Less, LessEqual, NotAbsDiff,
                                        Ratio, Relation)
    for n in (4, 9, 12):
        memo: dict = {}
        rels = [Less(0, 5), Less(7, 2), LessEqual(3, 4), AbsDiff(1, 2, 1), AbsDiff(8, 3, 2),
                NotAbsDiff(4, 9, 1), Ratio(2, 6, 2), AllowedPairs(0, 1, {(1, 2), (2, 3)}),
                Relation(5, 6, lambda x, y: x + y > n, "gt"), Less(5, 0)]
        for r in rels:
            want = r.propagators(n)[0]
            got = r.table_propagator(n, memo)
            assert (got.a, got.b, got.name, got.scope) == (want.a, want.b, want.name,
                                                           want.scope)
            for attr in ("sup_a", "sup_b", "uni_a", "uni_b", "both_a"):
                assert getattr(got, attr) is getattr(want, attr), (r.name, attr)


def test_engine_ordering_bounds_take_the_houses_of_houses():
    """``Puzzle._build_engine`` hands ``order_propagators`` the cells of the houses it
    gathers itself: on every workbench model with a ``<`` rule, the engine's ordering
    bounds are those made from :meth:`Puzzle.houses` (the same cells, in the same order)."""
    from conftest import workbench_sets
    from csp.constraints.order import OrderBoundsPropagator, forget_specs, order_propagators
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.formats.fpuzzles.read import forget_templates
    seen = 0
    for rows in workbench_sets().values():
        for it in rows:
            forget_templates()
            forget_specs()
            p = load_fpuzzles(it["doc"])
            got = [q for q in p.engine().props if type(q) is OrderBoundsPropagator]
            forget_specs()
            ref = order_propagators(p.constraints, [tuple(h.cells) for h in p.houses()],
                                    p.grid.name)
            assert _order_view(got) == _order_view(ref), it["id"]
            seen += bool(ref)
    assert seen >= 10
