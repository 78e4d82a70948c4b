"""Every rule bundle, built from random (also malformed) cell lists on small grids, solved by
brute force and by logic: whenever logic says "solved", the grid passes
``Puzzle.check_solution`` and equals the one brute-force solution, and every logic step is
true to that solution (the solve runs with ``verify=``).

Cell lists are well-formed or malformed on purpose: a cell listed twice, a closed loop (the
first cell again at the end), a cell outside the grid, a non-cell, an empty list. A list
that cannot mean anything (outside, junk, empty, a repeated cell) must be refused with the
library's own exception (``InvalidPuzzle``) naming the rule; a closed loop is accepted
exactly by the rules that read loops (``closed_loop``) and refused by the others.

Seeded plain loops: the default run takes a few cases per rule on 4x4 and 6x6 grids
(seconds); the ``slow`` run many more. A rule listed by ``variants.rules()`` with no
generator here fails ``test_every_rule_has_a_generator``.
"""
from __future__ import annotations

import inspect
import random
import zlib
from typing import Any, Callable

import pytest

import variants
from csp import Grid, Puzzle
from csp.constraints import AllDifferent, FunctionConstraint, Linear, Relation, Sum
from csp.errors import InvalidPuzzle, SearchLimit
from csp.search import search
from techniques import StepSolver
from variants import dots, inequality, killer, lines, misc, outside, parity, regions
from variants.arrow import arrow, double_arrow
from variants.chess import anti_king, anti_knight
from variants.classic import classic, classic_puzzle

from test_variants import ALL_4x4     # every 4x4 Sudoku grid, by plain enumeration

#: what a malformed list must do: refused ("refuse"), or accepted by loop rules ("loop")
REFUSED = {"repeat", "outside", "junk", "empty"}


class Cells:
    """Random cell lists for one case; ``made`` records the malformations used."""

    def __init__(self, rng: random.Random, grid: Grid, bad: float) -> None:
        self.rng, self.g, self.bad = rng, grid, bad
        self.made: set[str] = set()

    def name(self, c: int) -> str:
        return self.g.name(c)

    def one(self) -> Any:
        """A cell, now and then one outside the grid or no cell at all."""
        if self.rng.random() < self.bad / 4:
            kind = self.rng.choice(["outside", "junk"])
            self.made.add(kind)
            return (f"r{self.g.n + 1}c1", self.g.size)[self.rng.randrange(2)] \
                if kind == "outside" else self.rng.choice(["z1", "r1c", None, 1.5])
        return self.name(self.rng.randrange(self.g.size))

    def pair(self) -> tuple[str, str]:
        """Two orthogonally adjacent cells (the two cells of a dot)."""
        c = self.rng.randrange(self.g.size)
        return self.name(c), self.name(self.rng.choice(self.g.orthogonal(c)))

    def path(self, lo: int, hi: int) -> list[str]:
        """A line: a walk through king-adjacent cells, each once, maybe malformed."""
        g, rng = self.g, self.rng
        walk = [rng.randrange(g.size)]
        for _ in range(rng.randint(lo, hi) - 1):
            nxt = [c for c in g.king(walk[-1]) if c not in walk]
            if not nxt:
                break
            walk.append(rng.choice(nxt))
        return self.spoil([self.name(c) for c in walk])

    def some(self, lo: int, hi: int) -> list[str]:
        """A set of cells anywhere (a cage, a region), maybe malformed."""
        k = min(self.rng.randint(lo, hi), self.g.size)
        return self.spoil([self.name(c) for c in self.rng.sample(range(self.g.size), k)])

    def spoil(self, cells: list[str]) -> list[str]:
        rng = self.rng
        if rng.random() >= self.bad:
            return cells
        kind = rng.choice(["repeat", "repeat", "loop", "loop", "outside", "junk", "empty"])
        if kind == "repeat":
            i = rng.randrange(len(cells))
            j = rng.randrange(1, len(cells) + 1) if len(cells) > 1 else 1
            cells = cells[:j] + [cells[i]] + cells[j:]
            if cells[0] == cells[-1] and len(set(cells)) == len(cells) - 1 and len(cells) >= 4:
                cells.insert(1, cells[0])      # not a closed loop: the first cell thrice
        elif kind == "loop":
            if len(cells) < 3:
                return cells
            cells = cells + [cells[0]]
        elif kind == "outside":
            n = self.g.n
            cells = cells + [rng.choice([f"r{n + 1}c1", f"r1c{n + 2}", "r0c1", self.g.size])]
        elif kind == "junk":
            cells = cells + [rng.choice(["z1", "r1c", "", True, 1.5])]
        else:
            cells = []
        self.made.add(kind)
        return cells


Gen = Callable[[Cells], Any]


def _value(c: Cells, lo: int, hi: int) -> int:
    return c.rng.randint(lo, hi)


def _outside_clue(make: Callable[[int, int, int], Any], lo: int, hi: Callable[[int], int]) -> Gen:
    def gen(c: Cells) -> Any:
        n, rng = c.g.n, c.rng
        if rng.random() < c.bad / 3:       # a clue inside the grid or in a corner
            c.made.add("outside")
            row, col = rng.choice([(1, 1), (0, 0), (n + 1, n + 1), (0, n + 3)])
        else:
            side = rng.randrange(4)
            k = rng.randint(1, n)
            row, col = [(0, k), (n + 1, k), (k, 0), (k, n + 1)][side]
        return make(row, col, rng.randint(lo, hi(n)))
    return gen


#: rule name -> a random bundle of that rule on the grid of ``Cells``
GENERATORS: dict[str, Gen] = {
    "anti_king": lambda c: anti_king(),
    "anti_knight": lambda c: anti_knight(),
    "classic": lambda c: classic(),
    "diagonal": lambda c: regions.diagonal(c.rng.random() < .7, c.rng.random() < .7),
    "disjoint_groups": lambda c: regions.disjoint_groups(),
    "windoku": lambda c: regions.windoku(),
    "extra_region": lambda c: regions.extra_region(c.some(2, c.g.n)),
    "non_consecutive": lambda c: dots.non_consecutive(),
    "diagonal_non_consecutive": lambda c: dots.diagonal_non_consecutive(),
    "knight_non_consecutive": lambda c: dots.knight_non_consecutive(),
    "white_dot": lambda c: dots.white_dot(*c.pair(), _value(c, 1, 2)),
    "black_dot": lambda c: dots.black_dot(*c.pair(), _value(c, 2, 3)),
    "sum_dot": lambda c: dots.sum_dot(*c.pair(), _value(c, 3, 2 * c.g.n - 1)),
    "x_dot": lambda c: dots.x_dot(*c.pair()),
    "v_dot": lambda c: dots.v_dot(*c.pair()),
    "negative": lambda c: dots.negative(
        c.rng.choice(["white", "black", "x", "v", "sum"]),
        [c.spoil(list(c.pair())) for _ in range(c.rng.randrange(0, 6))],
        c.rng.choice([None, 1, 2, 5])),
    "less_than": lambda c: inequality.less_than(c.one(), c.one()),
    "greater_than": lambda c: inequality.greater_than(c.one(), c.one()),
    "thermo": lambda c: inequality.thermo(*c.path(2, 4)),
    "slow_thermo": lambda c: inequality.slow_thermo(c.path(2, 4)),
    "killer_cage": lambda c: killer.killer_cage(
        c.some(1, 4), c.rng.choice([None, _value(c, 3, 3 * c.g.n)])),
    "multi_sum_cage": lambda c: killer.multi_sum_cage(
        c.some(1, 3), [_value(c, 2, 2 * c.g.n) for _ in range(2)]),
    "digital_root_cage": lambda c: killer.digital_root_cage(c.some(1, 3), _value(c, 1, 9)),
    "little_killer": lambda c: killer.little_killer(c.path(1, 4), _value(c, 2, 3 * c.g.n)),
    "arrow": lambda c: arrow(c.some(1, 1), c.path(1, 3)),
    "double_arrow": lambda c: double_arrow(c.path(3, 5)),
    "whispers": lambda c: lines.whispers(c.path(2, 6), _value(c, 1, c.g.n // 2)),
    "palindrome": lambda c: lines.palindrome(c.path(2, 5)),
    "renban": lambda c: lines.renban(c.path(2, 5)),
    "region_sum_line": lambda c: lines.region_sum_line(c.path(2, 6)),
    "between_line": lambda c: lines.between_line(c.path(3, 5)),
    "entropic_line": lambda c: lines.entropic_line(c.path(3, 7)),
    "modular_line": lambda c: lines.modular_line(c.path(3, 7)),
    "nabner": lambda c: lines.nabner(c.path(2, 4)),
    "lockout": lambda c: lines.lockout(c.path(3, 5), _value(c, 1, c.g.n // 2)),
    "zipper_line": lambda c: lines.zipper_line(c.path(3, 6)),
    "odd": lambda c: parity.odd(*c.some(1, 3)),
    "even": lambda c: parity.even(*c.some(1, 3)),
    "minimum": lambda c: parity.minimum(*c.some(1, 2)),
    "maximum": lambda c: parity.maximum(*c.some(1, 2)),
    "digits": lambda c: parity.digits(c.one(), c.rng.sample(range(1, c.g.n + 1), 2)),
    "clone": lambda c: _clone(c),
    "quadruple": lambda c: misc.quadruple(c.some(2, 4), [_value(c, 1, c.g.n)
                                                         for _ in range(c.rng.randint(1, 2))]),
    "indexer": lambda c: misc.indexer(c.one(), c.rng.choice(["row", "column", "box"])),
    "sandwich": _outside_clue(outside.sandwich, 0, lambda n: n * (n - 1) // 2),
    "x_sum": _outside_clue(outside.x_sum, 1, lambda n: n * (n + 1) // 2),
    "skyscraper": _outside_clue(outside.skyscraper, 1, lambda n: n),
    "frame_sum": _outside_clue(outside.frame_sum, 3, lambda n: 3 * n - 3),
    "numbered_room": _outside_clue(outside.numbered_room, 1, lambda n: n),
    "rossini": lambda c: _outside_clue(
        lambda r, col, v: outside.rossini(r, col, outside.ROSSINI_ORDERS[v]), 0,
        lambda n: 2)(c),
    "rossini_negative": lambda c: outside.rossini_negative(
        [_outside_clue(lambda r, col, v: (r, col), 0, lambda n: 0)(c)
         for _ in range(c.rng.randrange(4, 4 * c.g.n))]),
    "counting_circles": lambda c: misc.counting_circles(c.some(2, c.g.n + 2)),
    "parity_line": lambda c: lines.parity_line(c.path(2, 6)),
    "ten_line": lambda c: lines.ten_line(c.path(2, 7), c.rng.choice([10, 10, c.g.n + 1])),
}


def _clone(c: Cells) -> Any:
    """Two same-shaped regions: a region shifted by a random offset (they may overlap)."""
    g, rng = c.g, c.rng
    base = c.path(1, 3)
    if not base or not all(isinstance(x, str) and x[1:].replace("c", "").isdigit()
                           for x in base):
        return misc.clone(base, base[:1] + base)
    dr, dc = rng.randint(-2, 2), rng.randint(0, 2)
    shifted = []
    for x in base:
        r, col = (int(v) for v in x[1:].split("c"))
        shifted.append(f"r{min(max(r + dr, 1), g.n)}c{min(col + dc, g.n)}")
    return misc.clone(base, shifted)


def _jigsaw(c: Cells) -> Callable[[], Puzzle]:
    from sudoku_csp.generate import random_regions
    grid = regions.jigsaw_grid(random_regions(c.g.n, c.rng))
    return lambda: Puzzle(grid).use(classic())


#: names in ``variants.rules()`` that build a whole grid or puzzle, not a bundle: the
#: generators give a maker of fresh puzzles (checked the same way); the samurai layouts are
#: too big for a brute force in seconds (369 cells): ``gattai`` covers multi-grids
PUZZLE_BUILDERS: dict[str, Callable[[Cells], Callable[[], Puzzle]] | None] = {
    "classic_puzzle": lambda c: lambda: classic_puzzle("." * c.g.size),
    "jigsaw_grid": _jigsaw,
    "gattai": lambda c: lambda: variants.gattai([(0, 0), (2, 2)], n=4),
    "samurai": None,
    "samurai_grid": None,
}


def test_every_rule_has_a_generator():
    """A new rule in ``variants.rules()`` needs a generator above; the puzzle builders are
    no bundles (nothing to ``apply``), so a bundle cannot hide among them."""
    names = set(variants.rules())
    assert names == set(GENERATORS) | set(PUZZLE_BUILDERS), (
        "no generator for " + ", ".join(sorted(names - set(GENERATORS) - set(PUZZLE_BUILDERS)))
        + "; generators for unknown rules " + ", ".join(sorted(set(GENERATORS) - names)))
    for name in PUZZLE_BUILDERS:
        assert not hasattr(getattr(variants, name), "apply"), name


#: constructor arguments that hold cells: each must be declared in ``cell_lists``
#: (single cells, ``a``/``b``/``cell``, are checked by the rule or by ``Puzzle.add``)
CELL_ARGS = {"cells", "circle", "shaft", "clone_cells", "marked"}


def test_every_cell_list_argument_is_declared():
    for name in GENERATORS:
        obj = getattr(variants, name)
        if not inspect.isclass(obj):
            continue
        params = set(inspect.signature(obj.__init__).parameters) & CELL_ARGS
        declared = {a.removesuffix("[]") for entry in getattr(obj, "cell_lists", ())
                    for a in entry.removesuffix("[]").split("+")}
        assert params <= declared, (name, params - declared)


def _grid(n: int) -> Grid:
    return Grid(n)


def _seed(*parts: Any) -> int:
    return zlib.crc32(repr(parts).encode())


def _expectation(made: set[str], bundle: Any) -> str:
    """'refuse', 'accept' or 'either' (a well-formed list may still break a rule's own
    limits: dots need neighbours, a sum its reach)."""
    if made & REFUSED:
        return "refuse"
    if "loop" in made:
        return "either" if getattr(bundle, "closed_loop", False) else "refuse"
    return "either"


def run_case(rule: str, n: int, seed: int, time_limit: float = 2.0) -> str:
    """One random case; returns what happened (for the counts of the slow run)."""
    rng = random.Random(seed)
    c = Cells(rng, _grid(n), bad=0.4)
    if rule in PUZZLE_BUILDERS:
        builder = PUZZLE_BUILDERS[rule]
        assert builder is not None
        make = builder(c)
        base = make()
        bundles: tuple = ()
        expect = "either"
    else:
        bundle = GENERATORS[rule](c)
        expect = _expectation(c.made, bundle)
        bundles = (classic(), bundle)
        try:
            base = Puzzle(_grid(n)).use(*bundles)
        except InvalidPuzzle as e:
            assert expect != "accept", (rule, e)
            assert "\n" not in str(e)
            return "refused"
        assert expect != "refuse", (rule, c.made, vars(bundle))

    def build(givens: dict[int, int]) -> Puzzle:
        if not bundles:
            p = make()
        else:
            p = Puzzle(_grid(n)).use(*bundles)
        return p.givens(givens)

    try:
        first = base.solve(first=True, time_limit=5)
    except SearchLimit:
        return "search limit"
    if first.status == "solved":
        sol = first.solution
        density = rng.uniform(0.35, 0.8)
        givens = {x: sol[x] for x in range(len(sol)) if rng.random() < density}
        if givens and rng.random() < 0.2:      # one given changed: often no solution left
            x = rng.choice(sorted(givens))
            givens[x] = rng.randint(1, base.grid.n)
    else:
        givens = {}
    try:
        p = build(givens)
        brute = p.solve(time_limit=5)
    except InvalidPuzzle:           # givens that break a rule outright
        return "bad givens"
    except SearchLimit:
        return "search limit"
    want = brute.solution if brute.status == "solved" else None
    res = StepSolver(verify=want).solve(build(givens), time_limit=time_limit)
    if res.status == "solved":
        grid = list(res.state.placed)
        assert p.check_solution(grid), (rule, seed)
        assert brute.status == "solved" and grid == list(want), (rule, seed, brute.status)
    return f"{brute.status}/{res.status}"


RULES = sorted(set(GENERATORS) | {k for k, v in PUZZLE_BUILDERS.items() if v is not None})

#: rules that no 4x4 or 6x6 Sudoku satisfies (checked by the test below): every small case
#: of theirs is unsolvable, so their outcomes cannot vary; the long run asserts that logic
#: agrees (unsolvable) on each instead
NO_SMALL_SOLUTION = {"knight_non_consecutive": dots.knight_non_consecutive}


@pytest.mark.parametrize("rule", sorted(NO_SMALL_SOLUTION))
def test_rules_without_a_small_solution_have_none(rule):
    for n in (4, 6):
        p = Puzzle(n).use(classic(), NO_SMALL_SOLUTION[rule]())
        assert p.count_solutions(limit=1) == 0, (rule, n)


@pytest.mark.parametrize("rule", RULES)
def test_rule_property(rule):
    for n in (4, 6):
        for k in range(3 if n == 4 else 1):
            run_case(rule, n, _seed(rule, n, k))


@pytest.mark.slow
@pytest.mark.parametrize("rule", RULES)
def test_rule_property_long(rule):
    seen: dict[str, int] = {}
    for n in (4, 6):
        for k in range(40 if n == 4 else 12):
            got = run_case(rule, n, _seed("long", rule, n, k), time_limit=5.0)
            seen[got] = seen.get(got, 0) + 1
    if rule in NO_SMALL_SOLUTION:
        assert set(seen) <= {"unsolvable/unsolvable", "refused", "bad givens"}, seen
    else:
        assert len(seen) > 1 or rule in PUZZLE_BUILDERS, seen


# -- the csp API: a constraint listing a cell twice is refused, or read exactly -----------
CSP_RULES: dict[str, Callable[[list[int], random.Random], Any]] = {
    "Linear": lambda cs, rng: Linear(cs, [rng.choice([-2, -1, 1, 2]) for _ in cs],
                                     rng.randint(-3, 8)),
    "FunctionConstraint": lambda cs, rng: FunctionConstraint(
        lambda *v: sum(v) % 3 != 1, cs, "sum mod 3"),
    "Sum": lambda cs, rng: Sum(cs, rng.randint(len(cs), 3 * len(cs))),
    "AllDifferent": lambda cs, rng: AllDifferent(cs, "group"),
    "Relation": lambda cs, rng: Relation(*[x for x in cs if cs.count(x) > 1][:2],
                                         lambda a, b: a + b != 5, "+!=5"),
}


@pytest.mark.parametrize("kind", sorted(CSP_RULES))
def test_csp_constraints_with_a_cell_twice(kind):
    """Linear (coefficients of one cell add up) and FunctionConstraint (each position reads
    the cell's digit) read a cell listed twice exactly: brute force (search, SAT) and the
    enumeration of every grid agree, and logic never answers a wrong "solved"; the others
    refuse it with the library's own exception."""
    for k in range(12):
        rng = random.Random(_seed("csp", kind, k))
        cells = rng.sample(range(16), rng.randint(2, 3))
        cells.insert(rng.randrange(len(cells) + 1), rng.choice(cells))
        try:
            con = CSP_RULES[kind](cells, rng)
            p = Puzzle(4).use(classic()).add(con)
        except InvalidPuzzle as e:
            assert kind not in ("Linear", "FunctionConstraint"), e
            assert "twice" in str(e) or "different cells" in str(e), e
            continue
        assert kind in ("Linear", "FunctionConstraint"), kind
        every = [g for g in ALL_4x4 if con.check(*(g[x] for x in con.cells))]
        assert p.count_solutions(300, method="search") == len(every)
        assert p.count_solutions(300, method="sat") == len(every)
        if every:
            sol = rng.choice(every)
            givens = {x: sol[x] for x in range(16) if rng.random() < 0.5}
            q = Puzzle(4).use(classic()).add(con).givens(givens)
        else:
            q = p
        brute = q.solve()
        want = brute.solution if brute.status == "solved" else None
        res = StepSolver(verify=want).solve(q, time_limit=2)
        if res.status == "solved":
            assert list(res.state.placed) == list(want)



# -- closed loops: read round, exactly ----------------------------------------------------
def _groups_differ(mode: str, n: int) -> Callable[[list[int]], bool]:
    group = (lambda v: v % 3) if mode == "mod" else (lambda v: (v - 1) * 3 // n)
    return lambda ds: len({group(d) for d in ds}) == 3


def _segments_round(g: Grid, loop: list[int]) -> list[list[int]]:
    """Runs of one region round the loop, found independently of the library."""
    k = len(loop)
    start = next((i for i in range(k) if g.region_of[loop[i]] != g.region_of[loop[i - 1]]),
                 None)
    if start is None:
        return [loop]
    order = loop[start:] + loop[:start]
    segs = [[order[0]]]
    for c in order[1:]:
        if g.region_of[c] == g.region_of[segs[-1][-1]]:
            segs[-1].append(c)
        else:
            segs.append([c])
    return segs


def _loop_holds(rule: str, g: Grid, loop: list[int], grid: tuple[int, ...]) -> bool:
    """The rule on a closed loop (cells each once, the last next to the first), by its
    definition."""
    ds = [grid[c] for c in loop]
    k = len(ds)
    if rule == "whispers":
        return all(abs(ds[i] - ds[(i + 1) % k]) >= 2 for i in range(k))
    if rule == "renban":
        return len(set(ds)) == k and max(ds) - min(ds) == k - 1
    if rule == "nabner":
        return all(abs(a - b) >= 2 for i, a in enumerate(ds) for b in ds[i + 1:])
    if rule in ("entropic_line", "modular_line"):
        ok = _groups_differ("mod" if rule == "modular_line" else "entropic", g.n)
        return all(ok([ds[i], ds[(i + 1) % k], ds[(i + 2) % k]]) for i in range(k))
    assert rule == "region_sum_line"
    sums = {sum(grid[c] for c in s) for s in _segments_round(g, loop)}
    return len(sums) == 1


LOOPS = [["r1c1", "r1c2", "r2c1"],                                   # a triangle
         ["r1c2", "r1c3", "r2c3", "r2c2"],                           # across two boxes
         ["r1c1", "r1c2", "r1c3", "r2c3", "r2c2", "r2c1"],           # six cells
         ["r2c2", "r2c3", "r3c3", "r3c2"]]                           # four boxes


@pytest.mark.parametrize("rule", ["whispers", "renban", "nabner", "entropic_line",
                                  "modular_line", "region_sum_line"])
@pytest.mark.parametrize("loop", LOOPS, ids=lambda lp: "-".join(lp))
def test_closed_loops_are_read_round(rule, loop):
    """A line that ends on its first cell is a loop: the solutions are exactly the 4x4
    grids where the rule holds round the loop (checked by the rule's definition)."""
    g = Grid(4)
    make = {"whispers": lambda cs: lines.whispers(cs, 2)}.get(rule, getattr(lines, rule))
    if rule == "renban" and len(loop) > g.n:
        with pytest.raises(InvalidPuzzle, match="renban"):
            Puzzle(g).use(classic(), make(loop + loop[:1]))
        return
    p = Puzzle(g).use(classic(), make(loop + loop[:1]))
    cells = list(g.cells(loop))
    want = {s for s in ALL_4x4 if _loop_holds(rule, g, cells, s)}
    sols, _ = search(p.engine(), p.initial_state().cand, limit=1000)
    assert {tuple(s) for s in sols} == want
    assert p.count_solutions(1000, method="sat") == len(want)
