"""What the SAT encoding adds beyond the rules one by one (csp/sat.py): derived sums
(``derived_sums``: a full house's total less the sum rules inside it) and tables without
the tuples that houses forbid (``_table``'s ``peers``). Both must leave the solutions as
they are: checked against a brute-force enumeration on random 4x4 puzzles with cages, sum
lines and arrows, on the kernel path and the pure-Python SAT path, and on the workbench's
"Deflation", whose centre box gets its ninth digit from two cages. Also the projection
clauses of automata of different digits (``_projections``), on outside clues."""
from __future__ import annotations

import random

import pytest

from csp import Grid, Puzzle, sat
from csp.constraints import Linear
from csp.errors import InvalidConstraint
from csp.solutions import candidate_counts, count_solutions
from conftest import GRIDS4, HOUSES4, assert_sat_path_equals, brute4, counted_calls

HOUSES, GRIDS, brute = HOUSES4, GRIDS4, brute4


def random_puzzle(rng: random.Random) -> Puzzle:
    """Houses, a few givens, and sum rules true of a random solution: cages and sum lines
    inside a house (what derived_sums reads; sometimes two in one house), and an arrow
    anywhere (a table whose cells may share a house)."""
    base = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    perm = list(range(1, 5))
    rng.shuffle(perm)
    sol = [perm[d - 1] for d in base]
    if rng.random() < 0.5:             # swap the two rows of a band: another solution
        a = rng.choice((0, 2))
        sol[a * 4:a * 4 + 4], sol[a * 4 + 4:a * 4 + 8] = sol[a * 4 + 4:a * 4 + 8], sol[a * 4:a * 4 + 4]
    givens = ["."] * 16
    for c in rng.sample(range(16), rng.randint(0, 3)):
        givens[c] = str(sol[c])
    p = Puzzle(Grid(4)).add_grid_houses().givens("".join(givens))
    for _ in range(rng.randint(1, 4)):
        h = rng.choice(HOUSES)
        cells = rng.sample(h, rng.randint(1, 3))
        total = sum(sol[c] for c in cells)
        if len(cells) > 1 and rng.random() < 0.1:
            total += 1                 # now and then a total the solution does not meet
        try:
            if rng.random() < 0.5:
                p.add_sum([p.grid.name(c) for c in cells], total, distinct=True)
            else:                      # a sum line: unit coefficients, digits may repeat
                p.add(Linear(cells, [1] * len(cells), total, "line"))
        except InvalidConstraint:      # no digits add up to it
            pass
    if rng.random() < 0.7:             # an arrow: the circle is the sum of two cells
        a, b, circle = rng.sample(range(16), 3)
        p.add(Linear([a, b, circle], [1, 1, -1], sol[a] + sol[b] - sol[circle], "arrow"))
    return p


def test_derived_sums_of_a_box() -> None:
    p = Puzzle(Grid(4)).add_grid_houses()
    p.add_sum(["r1c1", "r1c2", "r2c1"], 6, distinct=True)
    assert sat.derived_sums(p) == [((5,), 4)]     # r2c2 = 10 - 6
    q = Puzzle(Grid(4)).add_grid_houses()         # nothing inside a house: nothing derived
    q.add(Linear([0, 15], [1, 1], 5, "line"))
    assert sat.derived_sums(q) == []


@pytest.mark.parametrize("seed", range(6))
def test_the_answers_equal_a_brute_force_enumeration(monkeypatch, seed) -> None:
    rng = random.Random(seed)
    monkeypatch.setattr(sat, "DERIVED_CELLS", 4)  # every derived sum of a 4x4
    derived = 0
    for _ in range(12):
        p = random_puzzle(rng)
        sols = brute(p)
        derived += len(sat.derived_sums(p))
        for cells, total in sat.derived_sums(p):    # implied by the rules
            assert all(sum(s[c] for c in cells) == total for s in sols)
        assert_sat_path_equals(monkeypatch, p, sols)
    assert derived > 0


def test_deflation_gets_its_centre_from_two_cages() -> None:
    """u060 of the workbench: cages of 10 and 26 in the centre box; the ninth cell is 9."""
    from conftest import workbench_sets
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    doc = next(it["doc"] for it in workbench_sets()["unique"] if it["title"] == "Deflation")
    p = load_fpuzzles(doc)
    assert sat.derived_sums(p) == [((30,), 9)]    # r4c4
    res = candidate_counts(p, cap=1, method="sat")
    assert res.status == "unique" and res.solution == doc["solution"]


@pytest.mark.parametrize("seed", range(4))
def test_projections_of_outside_clues_keep_the_answers(monkeypatch, seed) -> None:
    """The projection clauses of automata of different digits (``_projections``: a
    state allows in each later cell only the digits of its paths to an accepted end)
    leave the solutions as they are: random 4x4 puzzles with skyscraper, sandwich and
    X-sum clues true of a random solution (now and then one that is not), each clue
    encoded as its automaton (no table), against the brute-force enumeration, on the
    kernel path and the pure-Python SAT path."""
    from variants import sandwich, skyscraper, x_sum
    rng = random.Random(100 + seed)
    made = counted_calls(monkeypatch, sat, "_projections")
    monkeypatch.setattr(sat, "_table", lambda *args, **kw: False)   # automata only
    for _ in range(8):
        sol = rng.choice(GRIDS)
        rules = []
        for _ in range(rng.randint(1, 4)):
            side = rng.randrange(4)
            i = rng.randint(1, 4)
            row, col = ((0, i), (5, i), (i, 0), (i, 5))[side]
            line = [sol[c] for c in _line(row, col)]
            kind = rng.randrange(3)
            if kind == 0:
                seen = sum(1 for j, d in enumerate(line) if d > max(line[:j], default=0))
                rules.append(skyscraper(row, col, seen + (rng.random() < 0.1)))
            elif kind == 1:
                a, b = sorted((line.index(1), line.index(4)))
                rules.append(sandwich(row, col, sum(line[a + 1:b])))
            else:
                rules.append(x_sum(row, col, sum(line[:line[0]])))
        p = Puzzle(Grid(4)).add_grid_houses()
        try:
            p.use(*rules)
        except InvalidConstraint:
            continue
        sols = brute(p)
        for pure in (False, True):
            with monkeypatch.context() as m:
                if pure:
                    m.setenv("SUDOKU_CSP_PURE", "1")
                assert count_solutions(p, method="sat").count == len(sols)
                res = candidate_counts(p, cap=2, method="sat")
                assert res.complete
                for c in range(16):
                    for d in range(1, 5):
                        assert res.count(c, d) == min(2, sum(1 for s in sols if s[c] == d))
    assert made


def _line(row: int, col: int) -> list[int]:
    from variants.outside import line_from_clue
    return line_from_clue(4, row, col)
