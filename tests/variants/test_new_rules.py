"""The rules added for issue 28 item 5: frame sums, Rossini, numbered rooms, parity lines,
10 lines and counting circles.

Each rule is checked three ways: on 4x4 grids against plain enumeration of the 288 Sudoku
grids (propagation never removes a digit some solution uses, and the depth-first search
and the SAT path count the same solutions); on a 9x9 puzzle made here from a known grid
(clues read off the grid, givens dug while the SAT path proves one solution), which brute
force and the logic solver both solve to that grid; and on malformed clues, refused with
the library's own exception.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable

import pytest

from csp import Puzzle
from csp.errors import InvalidPuzzle
from techniques import StepSolver
from variants import lines, misc, outside
from variants.classic import classic

from test_variants import ALL_4x4, oracle

#: the known grid the 9x9 puzzles are made from
GRID = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
G = [int(ch) for ch in GRID]
SIDES = ([(0, k) for k in range(1, 10)] + [(10, k) for k in range(1, 10)]
         + [(k, 0) for k in range(1, 10)] + [(k, 10) for k in range(1, 10)])


def _name(x: int, n: int = 9) -> str:
    return f"r{x // n + 1}c{x % n + 1}"


def _read(grid: list[int], n: int, row: int, col: int) -> list[int]:
    return [grid[c] for c in outside.line_from_clue(n, row, col)]


# -- clues read off a solution grid (any size) ---------------------------------------------
def frame_clues(grid: list[int], n: int, sides: list[tuple[int, int]]) -> list[Any]:
    k = Puzzle(n).grid.box_shape
    return [outside.frame_sum(r, c, sum(_read(grid, n, r, c)[:k[1] if c in (0, n + 1) else k[0]]))
            for r, c in sides]


def rossini_clues(grid: list[int], n: int, sides: list[tuple[int, int]]) -> list[Any]:
    out, marked = [], []
    for r, c in sides:
        a, b, d = _read(grid, n, r, c)[:3]
        if a < b < d or a > b > d:
            out.append(outside.rossini(r, c, "increasing" if a < b else "decreasing"))
            marked.append((r, c))
    return out + [outside.rossini_negative(marked)]


def room_clues(grid: list[int], n: int, sides: list[tuple[int, int]]) -> list[Any]:
    out = []
    for r, c in sides:
        ln = _read(grid, n, r, c)
        out.append(outside.numbered_room(r, c, ln[ln[0] - 1]))
    return out


def _runs(grid: list[int], n: int, ok: Callable[[list[int]], bool]) -> list[list[int]]:
    """Row runs of cells (left to right, disjoint, greedy) whose digits ``ok`` accepts."""
    out = []
    for r in range(n):
        c = 0
        while c < n:
            best = None
            for e in range(c + 2, n + 1):
                cells = [r * n + x for x in range(c, e)]
                if ok([grid[x] for x in cells]):
                    best = cells
            if best:
                out.append(best)
                c = best[-1] + 1
            else:
                c += 1
    return out


def parity_clues(grid: list[int], n: int) -> list[Any]:
    runs = _runs(grid, n, lambda ds: len(ds) >= 3 and all((a ^ b) & 1 for a, b in zip(ds, ds[1:])))
    return [lines.parity_line([_name(x, n) for x in run]) for run in runs]


def _tens(ds: list[int]) -> bool:
    s = 0
    for d in ds:
        s += d
        if s > 10:
            return False
        s %= 10
    return s == 0


def ten_clues(grid: list[int], n: int) -> list[Any]:
    return [lines.ten_line([_name(x, n) for x in run]) for run in _runs(grid, n, _tens)]


def circle_clues(grid: list[int], n: int, rng: random.Random) -> list[Any]:
    cells = []
    for d in (1, 2, 3, 4):
        cells += rng.sample([i for i in range(n * n) if grid[i] == d], min(d, n))
    return [misc.counting_circles([_name(x, n) for x in cells])]


#: rule -> (its clues on the 9x9 grid, the givens that make them unique; made by digging
#: givens in random order while the SAT path counted one solution)
PUZZLES: dict[str, tuple[Callable[[], list[Any]], str]] = {
    "frame_sum": (lambda: random.Random(7).sample(frame_clues(G, 9, SIDES), 24),
                  "....7.91.6.21......9.......8.............3....1...4....6........8...9............"),
    "rossini": (lambda: rossini_clues(G, 9, SIDES),
                "....7....6.21.................7..........3....1...4..6.6............9............"),
    "numbered_room": (lambda: random.Random(7).sample(room_clues(G, 9, SIDES), 18),
                      "......9.....1............................3........4.................9............"),
    "parity_line": (lambda: parity_clues(G, 9),
                    "...67..1...21......9...............3....53........4..6........4.8...9......2...7."),
    "ten_line": (lambda: ten_clues(G, 9),
                 "....7.9..6.................8.......3.....3....1...4..6............4.9.3.........."),
    "counting_circles": (lambda: circle_clues(G, 9, random.Random(7)),
                         "......91.6.2...............8..7.........53....1...4..6.6........8.419...3..2...7."),
}


def build(rule: str, givens: str | dict = "") -> Puzzle:
    return Puzzle(9).use(classic(), *PUZZLES[rule][0]()).givens(givens or {})


#: givens ``dig`` keeps at least (a rule whose minimal puzzles take the logic solver a
#: minute, as frame sums with 2 givens, keeps more, so its test stays quick)
FLOOR = {"frame_sum": 14}


def dig(rule: str, seed: int = 7) -> str:
    """The givens of ``PUZZLES`` (run this file to print them): every cell of the grid, then
    each removed in random order unless the SAT path then counts more than one solution
    (down to ``FLOOR`` givens)."""
    rng = random.Random(seed)
    givens = dict(enumerate(G))
    order = list(range(81))
    rng.shuffle(order)
    for i in order:
        if len(givens) <= FLOOR.get(rule, 0):
            break
        v = givens.pop(i)
        if build(rule, givens).count_solutions(2, method="sat") != 1:
            givens[i] = v
    return "".join(str(givens.get(i, ".")) for i in range(81))


@pytest.mark.parametrize("rule", sorted(PUZZLES))
def test_puzzle_solved_by_brute_force_and_logic(rule):
    """The 9x9 puzzle has one solution (SAT), the depth-first search finds the grid it was
    made from, and so does the logic solver, every step checked against that grid."""
    givens = PUZZLES[rule][1]
    assert build(rule, givens).count_solutions(2, method="sat") == 1
    res = build(rule, givens).solve(method="search", time_limit=60)
    assert res.status == "solved" and list(res.solution) == G
    t0 = time.process_time()
    logic = StepSolver(verify=G).solve(build(rule, givens), time_limit=120)
    assert logic.status == "solved", (logic.status, logic.reason)
    assert list(logic.state.placed) == G
    assert time.process_time() - t0 < 60


#: rule -> random bundles of that rule on a 4x4 grid
SMALL: dict[str, Callable[[random.Random], list[Any]]] = {
    "frame_sum": lambda rng: frame_clues(list(rng.choice(ALL_4x4)), 4, rng.sample(_sides(4), 3)),
    "rossini": lambda rng: [outside.rossini(*rng.choice(_sides(4)), rng.choice(outside.ROSSINI_ORDERS))
                            for _ in range(rng.randint(1, 3))],
    "rossini_negative": lambda rng: [outside.rossini_negative(rng.sample(_sides(4), rng.randint(6, 14)))],
    "numbered_room": lambda rng: [outside.numbered_room(*rng.choice(_sides(4)), rng.randint(1, 4))
                                  for _ in range(rng.randint(1, 3))],
    "parity_line": lambda rng: [lines.parity_line(_path(rng, 2, 5))],
    "ten_line": lambda rng: [lines.ten_line(_path(rng, 3, 7), rng.choice([5, 6, 10]))],
    "counting_circles": lambda rng: [misc.counting_circles(
        [_name(x, 4) for x in rng.sample(range(16), rng.randint(2, 9))])],
}


def _sides(n: int) -> list[tuple[int, int]]:
    return ([(0, k) for k in range(1, n + 1)] + [(n + 1, k) for k in range(1, n + 1)]
            + [(k, 0) for k in range(1, n + 1)] + [(k, n + 1) for k in range(1, n + 1)])


def _path(rng: random.Random, lo: int, hi: int) -> list[str]:
    walk = [rng.randrange(16)]
    for _ in range(rng.randint(lo, hi) - 1):
        r, c = divmod(walk[-1], 4)
        nxt = [x for x in range(16) if x not in walk and max(abs(x // 4 - r), abs(x % 4 - c)) == 1]
        if not nxt:
            break
        walk.append(rng.choice(nxt))
    return [_name(x, 4) for x in walk]


@pytest.mark.parametrize("rule", sorted(SMALL))
def test_small_grids_agree_with_enumeration(rule):
    """On 4x4 grids, against the 288 grids filtered by each rule's own check: propagation
    keeps every digit a solution uses, and the search and the SAT path (the rule's
    automaton or table) count exactly the solutions."""
    rng = random.Random(rule)
    kinds = set()
    for _ in range(25):
        bundles = SMALL[rule](rng)
        p = Puzzle(4).use(classic(), *bundles)
        some = sorted(oracle(p))
        if some:                        # givens from a solution, now and then one wrong
            g = rng.choice(some)
            givens = {c: g[c] for c in range(16) if rng.random() < rng.uniform(0.1, 0.5)}
            if givens and rng.random() < 0.2:
                givens[rng.choice(sorted(givens))] = rng.randint(1, 4)
            try:
                p = Puzzle(4).use(classic(), *bundles).givens(givens)
                p.initial_state()
            except InvalidPuzzle:       # a wrong given that breaks a rule outright
                continue
        truth = oracle(p)
        kinds.add(min(len(truth), 2))
        try:
            cand = p.propagate().cand
        except Exception:               # a contradiction at the root: no solution
            assert not truth
            cand = None
        if cand is not None:
            for g in truth:
                assert all(cand[c] >> g[c] & 1 for c in range(16)), (rule, g)
        assert p.count_solutions(300, method="search") == len(truth)
        assert p.count_solutions(300, method="sat") == len(truth)
    assert kinds == {0, 1, 2}, (rule, kinds)      # the samples reach every outcome


@pytest.mark.parametrize("bundle, words", [
    (lambda: outside.frame_sum(1, 0, 10, count=10), "count 10 outside 1..9"),
    (lambda: outside.frame_sum(5, 5, 10), "not next to a row or column"),
    (lambda: outside.rossini(0, 1, "upwards"), "rossini order 'upwards'"),
    (lambda: outside.rossini_negative([(3, 3)]), "not next to a row or column"),
    (lambda: outside.numbered_room(0, 1, 10), "outside 1..9"),
    (lambda: lines.ten_line(["r1c1", "r1c2"], total=0), "must be positive"),
    (lambda: misc.counting_circles(["r1c1", "r1c1"]), "listed twice"),
])
def test_bad_clues_are_refused(bundle, words):
    with pytest.raises(InvalidPuzzle, match=words):
        Puzzle(9).use(classic(), bundle())


if __name__ == "__main__":      # pragma: no cover - prints the givens above
    import sys
    for rule in sys.argv[1:] or PUZZLES:
        print(rule, dig(rule))
