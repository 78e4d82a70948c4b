"""Small generated variant puzzles (4x4 and 6x6 with random killer cages, inequalities,
Kropki / XV dots and thermometers, built through the rule bundles) solved by our search, by
the SAT encoding (three ways: tables, automata, lazy checks) and by python-constraint on
``puzzle.to_problem()``: all give the same full solution set.

Rules are drawn around a hidden random grid (so most puzzles have solutions), with an
occasional rule drawn blind (so some have none); seeded, so every run is the same.
"""
from __future__ import annotations

import random

import pytest

from csp import Grid, Puzzle
from csp.errors import ContradictoryGivens, InvalidConstraint
from csp.interop import problem_solutions
from csp.sat import sat_search
from csp.search import search
from variants import (black_dot, classic, killer_cage, less_than, slow_thermo, sum_dot, thermo,
                      white_dot)

KINDS = ("cage", "inequality", "dot", "thermo")


def _hidden_grid(n: int, rng: random.Random) -> list[int]:
    """A random solution: the first grid search finds, digits and bands shuffled."""
    base = Puzzle(Grid(n)).use(classic()).solve(first=True).solution
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    return [perm[v - 1] for v in base]


def _path(g: Grid, rng: random.Random, length: int) -> list[int]:
    path = [rng.randrange(g.size)]
    while len(path) < length:
        nxt = [o for o in g.orthogonal(path[-1]) if o not in path]
        if not nxt:
            break
        path.append(rng.choice(nxt))
    return path


def _rule(kind: str, g: Grid, S: list[int], rng: random.Random, blind: bool):
    name = g.name
    if kind == "cage":
        cells = _path(g, rng, rng.randrange(2, 4))
        total = sum(S[c] for c in cells) + (rng.choice((-1, 1)) if blind else 0)
        return killer_cage([name(c) for c in cells], None if rng.random() < 0.2 else total)
    if kind == "inequality":
        a, b = rng.sample(range(g.size), 2)
        if S[a] > S[b] and not blind:
            a, b = b, a
        return less_than(name(a), name(b))
    if kind == "dot":
        a, b = _path(g, rng, 2)[:2] if g.size > 1 else (0, 0)
        x, y = S[a], S[b]
        options = [white_dot(name(a), name(b), abs(x - y)), sum_dot(name(a), name(b), x + y)]
        if max(x, y) % min(x, y) == 0:
            options.append(black_dot(name(a), name(b), max(x, y) // min(x, y)))
        if blind:
            options = [white_dot(name(a), name(b)), black_dot(name(a), name(b)),
                       sum_dot(name(a), name(b), 5), sum_dot(name(a), name(b), 10)]
        return rng.choice(options)
    cells = _path(g, rng, rng.randrange(2, 5))
    if not blind:
        cells.sort(key=lambda c: S[c])          # bulb at the smallest digit: fits S
    slow = rng.random() < 0.3
    return (slow_thermo if slow else thermo)(*[name(c) for c in cells])


def random_variant(n: int, seed: int) -> tuple[Puzzle, list[int]]:
    rng = random.Random(seed)
    g = Grid(n)
    S = _hidden_grid(n, rng)
    p = Puzzle(g).use(classic())
    kinds = list(KINDS) + [rng.choice(KINDS) for _ in range(rng.randrange(1, n))]
    for kind in kinds:                            # every kind at least once
        try:
            p.use(_rule(kind, g, S, rng, blind=rng.random() < 0.1))
        except InvalidConstraint:                 # e.g. a dot between cells of one digit
            pass
    return _sprinkle_givens(p, S, rng, n if n == 4 else 9), S


def _sprinkle_givens(p: Puzzle, S: list[int], rng: random.Random, tries: int) -> Puzzle:
    """Give the hidden digit in about 60 % of ``tries`` random cells."""
    for c in rng.sample(range(p.grid.size), tries):
        if rng.random() < 0.6:
            p.set_given(c, S[c])
    return p


@pytest.mark.parametrize("n, seed", [(4, s) for s in range(25)] + [(6, s) for s in range(25)])
def test_search_and_python_constraint_agree(n, seed):
    _assert_agrees(random_variant(n, seed)[0])


def _assert_agrees(p: Puzzle) -> None:
    """Our search and python-constraint give the same solutions (none on bad givens)."""
    oracle = problem_solutions(p)
    try:
        p.freeze()
    except ContradictoryGivens:
        assert oracle == []
        return
    ours = sorted(search(p.engine(), p.initial_state().cand, limit=10 ** 6)[0])
    assert ours == oracle
    assert p.count_solutions(limit=10 ** 6) == len(oracle)
    for s in oracle:
        assert p.check_solution(s)
    # the SAT encoding, with tables, with automata in place of tables, and lazily checked
    cand = p.initial_state().cand
    for budgets in ((20_000, 50_000), (0, 50_000), (0, 0)):
        assert sorted(sat_search(p, cand, 10 ** 6, None, False, *budgets)[0]) == oracle


def test_generated_puzzles_cover_every_kind_and_outcome():
    """The seeds above exercise all four rule kinds on both sizes, and puzzles with one,
    several and no solutions."""
    seen: dict[int, set[str]] = {4: set(), 6: set()}
    counts = set()
    for n in (4, 6):
        for seed in range(25):
            p, S = random_variant(n, seed)
            seen[n] |= {type(b).__name__ for b, _ in p.bundles}
            c = p.count_solutions(limit=3) if _ok(p) else 0
            counts.add(min(c, 2))
    for n in (4, 6):
        assert {"killer_cage", "less_than", "thermo"} <= seen[n]
        assert seen[n] & {"white_dot", "black_dot", "sum_dot"}
    assert counts == {0, 1, 2}


def _ok(p: Puzzle) -> bool:
    try:
        p.freeze()
        return True
    except ContradictoryGivens:
        return False


def _outside_variant(n: int, seed: int) -> Puzzle:
    """Outside clues (sandwich, X-sum, skyscraper, both ends of a line sometimes) and
    between / lockout lines drawn around a hidden grid, now and then one drawn blind."""
    from variants import between_line, lockout, sandwich, skyscraper, x_sum
    rng = random.Random(1000 + seed)
    g = Grid(n)
    S = _hidden_grid(n, rng)
    p = Puzzle(g).use(classic())

    def line(row: int, col: int) -> list[int]:
        if row == 0:
            return [r * n + col - 1 for r in range(n)]
        if row == n + 1:
            return [r * n + col - 1 for r in reversed(range(n))]
        if col == 0:
            return [(row - 1) * n + c for c in range(n)]
        return [(row - 1) * n + c for c in reversed(range(n))]

    spots = ([(0, c) for c in range(1, n + 1)] + [(n + 1, c) for c in range(1, n + 1)]
             + [(r, 0) for r in range(1, n + 1)] + [(r, n + 1) for r in range(1, n + 1)])
    for row, col in rng.sample(spots, 4):
        v = [S[c] for c in line(row, col)]
        kind = rng.choice(("sandwich", "x_sum", "skyscraper"))
        if kind == "sandwich":
            i, j = sorted((v.index(1), v.index(n)))
            rule = sandwich(row, col, sum(v[i + 1:j]))
        elif kind == "x_sum":
            rule = x_sum(row, col, sum(v[:v[0]]))
        else:
            top, seen = 0, 0
            for x in v:
                if x > top:
                    top, seen = x, seen + 1
            rule = skyscraper(row, col, seen)
        if rng.random() < 0.1:
            rule.value = max(1, rule.value + rng.choice((-1, 1)))
        p.use(rule)
    for bundle in (between_line, lockout):
        cells = sorted(_path(g, rng, 3), key=lambda c: S[c])
        a, mid, b = cells if bundle is between_line else (cells[1], cells[0], cells[2])
        try:
            p.use(bundle([g.name(a), g.name(mid), g.name(b)], *(() if bundle is between_line
                                                                 else (1,))))
        except InvalidConstraint:
            pass
    return _sprinkle_givens(p, S, rng, n + 2)


@pytest.mark.parametrize("n, seed", [(4, s) for s in range(15)] + [(6, s) for s in range(15)])
def test_outside_clues_and_lines_agree_with_python_constraint(n, seed):
    _assert_agrees(_outside_variant(n, seed))


def _cage_variant(n: int, seed: int) -> Puzzle:
    """Multi-sum and digital-root cages with diagonal or knight non-consecutive, drawn
    around a hidden grid (a multi-sum has one decoy total; now and then none fits)."""
    from variants import (diagonal_non_consecutive, digital_root_cage, knight_non_consecutive,
                          multi_sum_cage)
    rng = random.Random(2000 + seed)
    g = Grid(n)
    S = _hidden_grid(n, rng)
    rule = rng.choice((diagonal_non_consecutive, knight_non_consecutive, None))
    if rule is not None:                      # a hidden grid that keeps the rule too
        q = Puzzle(g).use(classic(), rule())
        S = (Puzzle(g).use(classic(), rule()).givens({rng.randrange(g.size): rng.randint(1, n)})
             .solve(first=True).solution or q.solve(first=True).solution or S)
        # (knight non-consecutive has no solution on 4x4 and 6x6 classic grids: such
        # puzzles check that both solvers agree there is none)
    p = Puzzle(g).use(classic())
    if rule is not None:
        p.use(rule())
    for _ in range(rng.randint(2, 4)):
        cells = sorted(set(_path(g, rng, rng.randint(2, 3))))
        if len(cells) < 2:
            continue
        total = sum(S[c] for c in cells) + (rng.choice((-1, 1)) if rng.random() < 0.1 else 0)
        if rng.random() < 0.5:
            p.use(multi_sum_cage([g.name(c) for c in cells], [total, rng.randint(3, 2 * n)]))
        else:
            try:
                p.use(digital_root_cage([g.name(c) for c in cells], (total - 1) % 9 + 1))
            except InvalidConstraint:
                pass
    return _sprinkle_givens(p, S, rng, n + 2)


@pytest.mark.parametrize("n, seed", [(4, s) for s in range(12)] + [(6, s) for s in range(12)])
def test_multi_sum_cages_and_non_consecutive_kinds_agree_with_python_constraint(n, seed):
    try:
        p = _cage_variant(n, seed)
    except InvalidConstraint:                 # a decoy total no digits can reach
        return
    _assert_agrees(p)
