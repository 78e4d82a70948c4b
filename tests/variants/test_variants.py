"""Variant rule bundles, checked against an independent brute-force oracle on 4x4 grids."""
from __future__ import annotations

import itertools
import random

import pytest

from csp import Grid, Puzzle
from csp.errors import InvalidConstraint
from csp.search import search
from variants.arrow import arrow
from variants.chess import anti_king, anti_knight
from variants.classic import classic
from variants.dots import black_dot, negative, non_consecutive, sum_dot, v_dot, white_dot
from variants.inequality import greater_than, less_than, slow_thermo, thermo
from variants.killer import diagonal_from_clue, killer_cage, little_killer
from variants.lines import between_line, palindrome, region_sum_line, renban, whispers
from variants.parity import even, maximum, minimum, odd
from variants.regions import diagonal, disjoint_groups, extra_region, jigsaw_grid, windoku


def _all_4x4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku solution, by plain enumeration (no solver involved)."""
    rows = list(itertools.permutations(range(1, 5)))
    out = []
    for r1 in rows:
        for r2 in rows:
            if any(a == b for a, b in zip(r1, r2)) or {r1[0], r1[1], r2[0], r2[1]} != {1, 2, 3, 4}:
                continue
            for r3 in rows:
                if any(len({a, b, c}) < 3 for a, b, c in zip(r1, r2, r3)):
                    continue
                for r4 in rows:
                    g = r1 + r2 + r3 + r4
                    cols_ok = all(len({g[c], g[4 + c], g[8 + c], g[12 + c]}) == 4 for c in range(4))
                    boxes_ok = all(len({g[b], g[b + 1], g[b + 4], g[b + 5]}) == 4
                                   for b in (0, 2, 8, 10))
                    if cols_ok and boxes_ok:
                        out.append(g)
    return out


ALL_4x4 = _all_4x4()


def test_oracle_has_288_grids():
    assert len(ALL_4x4) == 288


def our_solutions(p: Puzzle) -> set[tuple[int, ...]]:
    sols, _ = search(p.engine(), p.initial_state().cand, limit=10_000)
    return {tuple(s) for s in sols}


def oracle(p: Puzzle) -> set[tuple[int, ...]]:
    ok = set()
    for g in ALL_4x4:
        if all(g[c] == d for c, d in p.given.items()) and all(
                c.check(*(g[x] for x in c.cells)) and
                (c.house() is None or len({g[x] for x in c.house()}) == len(c.house()))
                for c in p.constraints):
            ok.add(g)
    return ok


def random_bundle(rng: random.Random):
    cells = [f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5)]
    g = Grid(4)

    def adj_pair():
        c = rng.randrange(16)
        o = rng.choice(g.orthogonal(c))
        return g.name(c), g.name(o)

    kind = rng.choice(["white", "black", "x", "v", "lt", "thermo", "slow", "cage", "cage0",
                       "little", "arrow", "whisper", "pal", "renban", "odd", "even", "min",
                       "max", "between", "sumdot", "neg_white", "neg_black", "rsl"])
    if kind == "white":
        return white_dot(*adj_pair())
    if kind == "black":
        return black_dot(*adj_pair())
    if kind == "x":
        return sum_dot(*adj_pair(), 5 + rng.randrange(3))
    if kind == "v":
        return v_dot(*adj_pair())
    if kind == "sumdot":
        return sum_dot(*adj_pair(), rng.randrange(3, 8))
    if kind == "lt":
        a, b = rng.sample(cells, 2)
        return less_than(a, b)
    if kind in ("thermo", "slow", "whisper", "pal", "renban", "between", "rsl"):
        path = [rng.randrange(16)]
        for _ in range(rng.randrange(1, 3)):
            nxt = [o for o in g.orthogonal(path[-1]) if o not in path]
            if not nxt:
                break
            path.append(rng.choice(nxt))
        names = [g.name(c) for c in path]
        if len(names) < 2:
            return odd(names[0])
        return {"thermo": thermo, "slow": slow_thermo, "whisper": lambda *x: whispers(x, 2),
                "pal": lambda *x: palindrome(x), "renban": lambda *x: renban(x),
                "between": lambda *x: between_line(x) if len(x) >= 3 else thermo(*x),
                "rsl": lambda *x: region_sum_line(x)}[kind](*names)
    if kind in ("cage", "cage0"):
        k = rng.randrange(2, 4)
        cs = rng.sample(cells, k)
        if kind == "cage0":
            return killer_cage(cs)
        return killer_cage(cs, rng.randrange(k * (k + 1) // 2, 4 * k - k * (k - 1) // 2 + 1))
    if kind == "little":
        cs = rng.sample(cells, rng.randrange(2, 4))
        return little_killer(cs, rng.randrange(len(cs), 4 * len(cs) + 1))
    if kind == "arrow":
        circ, *shaft = rng.sample(cells, rng.randrange(2, 4))
        return arrow([circ], shaft)
    if kind == "odd":
        return odd(rng.choice(cells))
    if kind == "even":
        return even(rng.choice(cells))
    if kind == "min":
        return minimum(rng.choice(cells))
    if kind == "max":
        return maximum(rng.choice(cells))
    if kind == "neg_white":
        return negative("white", [adj_pair() for _ in range(rng.randrange(4, 12))])
    return negative("black", [adj_pair() for _ in range(rng.randrange(4, 12))])


@pytest.mark.parametrize("seed", range(150))
def test_random_4x4_variants_match_brute_force(seed):
    rng = random.Random(seed)
    p = Puzzle(Grid(4)).use(classic())
    for _ in range(rng.randrange(1, 4)):
        try:
            p.use(random_bundle(rng))
        except InvalidConstraint:
            pass
    for _ in range(rng.randrange(0, 3)):
        p.set_given(rng.randrange(16), rng.randrange(1, 5))
    want = oracle(p)
    try:
        got = our_solutions(p)
    except Exception as e:  # contradictory givens are bad input, and the oracle agrees
        from csp.errors import ContradictoryGivens
        assert isinstance(e, ContradictoryGivens) and not want
        return
    assert got == want
    # propagation keeps every solution digit
    if want:
        st = p.propagate()
        for sol in want:
            assert all(st.cand[c] >> sol[c] & 1 for c in range(16))


def test_inequality_beyond_pairs():
    p = Puzzle(9).use(classic(), less_than("r1c1", "r1c2"), greater_than("r1c2", "r1c3"))
    assert min(p.propagate().candidates("r1c2")) == 3
    # pairwise only (no shared house): r1c1 and r5c5 could both be 1
    q = Puzzle(9).use(classic(), less_than("r1c1", "r2c4"), greater_than("r2c4", "r5c5"))
    assert min(q.propagate().candidates("r2c4")) == 2


def test_inequality_through_chains_and_upper_bounds():
    # r1c1 < r1c2 < r1c3 and r1c4 < r1c3: r1c1, r1c2, r1c4 are three row cells below r1c3
    p = Puzzle(9).use(classic(), thermo("r1c1", "r1c2", "r1c3"), less_than("r1c4", "r1c3"))
    assert min(p.propagate().candidates("r1c3")) == 4
    q = Puzzle(9).use(classic(), less_than("r5c5", "r5c1"), less_than("r5c5", "r5c2"),
                      less_than("r5c5", "r5c3"))
    assert max(q.propagate().candidates("r5c5")) == 6


def test_killer_cage_errors_and_pruning():
    p = Puzzle(9).use(classic())
    with pytest.raises(InvalidConstraint):
        p.use(killer_cage(["r1c1", "r1c2"], 18))
    p.use(killer_cage(["r1c1", "r1c2", "r1c3"], 24))
    assert p.propagate().candidates("r1c1") == (7, 8, 9)


def test_dots_must_be_adjacent():
    with pytest.raises(InvalidConstraint):
        Puzzle(9).use(white_dot("r1c1", "r1c3"))


def test_regions_and_jigsaw():
    g = jigsaw_grid("1112" "1222" "3334" "3444")
    assert len(g.regions) == 4 and g.regions[1] == (3, 5, 6, 7)
    p = Puzzle(g).use(classic())
    sols = our_solutions(p)
    assert sols and all(len({s[c] for c in reg}) == 4 for s in sols for reg in g.regions)
    p9 = Puzzle(9).use(classic(), diagonal(), windoku(), disjoint_groups(),
                       extra_region(["r1c1", "r9c9"], "corners"))
    r = p9.solve(first=True)
    assert r.status == "solved" and p9.check_solution(r.solution)


def test_chess_rules_hold_in_solutions():
    p = Puzzle(9).use(classic(), anti_knight(), anti_king())
    r = p.solve(first=True)
    s = r.solution
    assert p.check_solution(s)
    assert all(s[c] != s[o] for c in range(81) for o in p.grid.knight(c))
    assert all(s[c] != s[o] for c in range(81) for o in p.grid.king(c))


def test_non_consecutive_solution():
    p = Puzzle(9).use(classic(), non_consecutive())
    s = p.solve(first=True).solution
    assert all(abs(s[c] - s[o]) != 1 for c in range(81) for o in p.grid.orthogonal(c))


def test_little_killer_geometry():
    assert diagonal_from_clue(9, 0, 1, "DR")[-1] == (7, 8)
    with pytest.raises(InvalidConstraint):
        diagonal_from_clue(4, 0, 4, "UR")


@pytest.mark.parametrize("rule, moves", [(anti_knight, "knight"), (anti_king, "king")])
def test_chess_pairs_in_order_named_and_new_each_puzzle(rule, moves):
    """The pairs of a size come from a table made once (``chess._named_pairs``): every
    pair of cells a move apart once, lowest cell first, in the order of their cells, each
    named after its cells; each puzzle gets constraints of its own, and a grid of another
    shape (a multi-grid, a jigsaw, another size) its own pairs."""
    from csp.grid import MultiGrid
    from csp.constraints.binary import RelationKind
    for grid in (lambda: Grid(9), lambda: Grid(6), lambda: Grid(4, regions=[
            0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]),
                 lambda: MultiGrid(4, [(0, 0), (2, 2)])):
        p, q = Puzzle(grid()).use(rule()), Puzzle(grid()).use(rule())
        g = p.grid
        want = [(a, b) for a in range(g.size) for b in getattr(g, moves)(a) if b > a]
        label = "anti-knight" if rule is anti_knight else "anti-king"
        assert [(c.a, c.b) for c in p.constraints] == want
        assert [c.name for c in p.constraints] == [
            f"{label} {g.name(a)}-{g.name(b)}" for a, b in want]
        assert all(c.relation is RelationKind.NE for c in p.constraints)
        assert all(x is not y for x, y in zip(p.constraints, q.constraints))
        assert [c.name for c in q.constraints] == [c.name for c in p.constraints]


def test_add_checks_a_relations_cells():
    """``Puzzle.add``'s path for relations refuses what the general one refuses."""
    from csp import NotEqual
    with pytest.raises(InvalidConstraint, match="outside the grid"):
        Puzzle(4).add(NotEqual(0, 16))
    with pytest.raises(InvalidConstraint, match="outside the grid"):
        Puzzle(4).add(NotEqual(-1, 3))
    with pytest.raises(InvalidConstraint, match="outside the grid"):
        Puzzle(4).add(NotEqual(0, "r1c2"))
    p = Puzzle(4).add(NotEqual(0, 1))
    assert p.constraints[0].name == "r1c1!=r1c2"
