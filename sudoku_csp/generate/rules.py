"""Rule-family candidates: the generator places the rule elements itself, read off a random
solution grid, then digs givens and removes elements while the puzzle keeps one solution and
a rating within the asked level (:func:`make_rules_candidate`).

Families (:data:`RULE_FAMILIES`) and how their elements are placed:

* ``thermo``: thermometers along paths (king moves, no cell twice) whose digits increase;
* ``kropki``: white dots between orthogonal neighbours that differ by 1, black dots where one
  is twice the other (a 1-2 pair gets either); with ``negative`` every such pair is marked
  and the negative constraint holds (no dot: neither), the dots are then never removed;
* ``xv``: X between neighbours summing to 10, V summing to 5; ``negative`` as for kropki;
* ``parity``: even and odd squares on 2n random cells;
* ``arrow``: a circle and a shaft of 2-3 cells (king moves) that sum to its digit;
* ``whispers``: lines whose neighbours differ by at least 5 (n >= 9; about n / 2 below);
* ``renban``: lines whose digits are a set of consecutive digits;
* ``between``: between lines, whose inner digits lie strictly between the digits of its two
  end circles (a path that rises, or falls, from its first cell, cut at its last cell past
  every inner digit);
* ``little_killer``: the sums of the diagonals (from edge to edge, at least 2 cells), each
  with its clue outside the grid;
* ``sandwich``: for every row and column, the sum of the digits between 1 and n;
* ``anti_knight``, ``anti_king``, ``diagonal``: global rules; the grid is filled under them
  and nothing is placed (they need givens).

How givens are chosen (``givens``): ``"any"`` starts from the full grid and digs (like
classic puzzles); ``"few"`` starts from none and adds givens where two solutions differ until
one is left, then drops the ones no longer needed; ``"none"`` keeps no given (a candidate
whose elements leave several solutions is dropped). Then the removable elements are taken
away one by one in a random order, each removal kept only while the puzzle stays unique and
rated within the level (so no element can go but the last one of a family, which stays).
At the levels of :data:`RULES_STEERED` (medium to extreme) with ``givens="any"`` the
rating steers instead of filtering every removal (:func:`_steered`): half the elements are
kept, the givens are dug to a minimal puzzle by uniqueness alone (each search within
:data:`STEER_UNIQUE_NODES` nodes), and the removals are bisected back to the level by a few
ratings (at extreme, the top level, to the fewest removals that reach it, rated in full: that
rating is the generator's final check); then elements go while it is below the level (each
drop checked for uniqueness before it is rated), until it is reached.
With ``symmetric`` the givens are point-symmetric and the removable elements stand in
180-degree pairs (:func:`_groups`: each with its image read off the solution, removed
together). Every step is read from one
``random.Random(seed)``, so the seed reproduces the candidate.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from csp import Grid, Puzzle
from csp.errors import TimeLimitExceeded

from variants.arrow import arrow
from variants.chess import anti_king, anti_knight
from variants.classic import classic
from variants.dots import black_dot, negative, sum_dot, white_dot
from variants.inequality import thermo
from variants.killer import little_killer
from variants.outside import sandwich
from variants.lines import between_line, renban, whispers
from variants.parity import even, odd
from variants.regions import diagonal

from .dig import _unique, dig, dig_order, few_givens, unique_within
from .fill import random_fill
from .killer import STEER_SKIP
from .rating import _rate

from techniques import registry
from techniques.registry import LEVELS

#: the rule families the generator places (see the module doc); ``anti_knight``,
#: ``anti_king`` and ``diagonal`` are global rules the grid is filled under
RULE_FAMILIES = ("thermo", "kropki", "xv", "parity", "anti_knight", "anti_king", "diagonal",
                 "arrow", "whispers", "renban", "between", "little_killer", "sandwich")
#: the global rules: nothing to place, the solution grid is filled under them
GLOBAL_RULES = {"anti_knight": anti_knight, "anti_king": anti_king, "diagonal": diagonal}
#: the families whose elements depend on ``negative`` (the full negative constraint)
NEGATIVE_FAMILIES = ("kropki", "xv")
#: levels whose ``givens="any"`` candidates are steered by the rating (:func:`_steered`):
#: the share of the placed element groups kept before digging. Minimal puzzles (givens dug
#: by uniqueness alone) with every element are mostly extreme (kropki, xv, arrow, renban,
#: thermo+kropki, seeds 1-6: 27 of 29 unfair or extreme), with half of them medium to
#: extreme, so the steering bisects the dig down to the level instead of rating every removal.
#: Measured 2026-11-29, seeds 1/101/201, CPU for the three puzzles: medium kropki 1.8 s
#: (unsteered 19.8), thermo+kropki 1.7 s (27.1); hard 3-6 s per family. Easy is not steered:
#: its boundary lies high in the dig and keeps most elements and many givens (kropki: 41
#: givens and every dot, against 3 givens and 27 dots unsteered)
RULES_STEERED = {"medium": 0.5, "hard": 0.5, "unfair": 0.5, "extreme": 0.5}
#: depth-first nodes each uniqueness search of the steering may use (:func:`_steered`: the
#: dig to a minimal puzzle, :func:`~.dig.dig_order`, and the check of a puzzle without one
#: more element group, :func:`_unique_within`); past them the given or the group stays. A
#: node count, so the seed gives the same puzzle on any machine. Measured 2026-11-29
#: (CPU): the little killer dig of seed 1 needed 9-92 nodes down to 9 givens, then 201,
#: 492, 1,103 and 6,287 nodes (4.2 s) for 8, 7, 6 and 5 givens, and ran past 30 s on the
#: next (none in 60 s at extreme); the element check comes before the rating: a minimal
#: puzzle mostly has several solutions without an element, and the logic rating of such a
#: puzzle runs the whole ladder to get stuck (13 s and more on xv extreme, seed 1)
STEER_UNIQUE_NODES = 1_000
#: ``givens`` choices (see the module doc)
GIVENS = ("any", "few", "none")

Element = tuple[str, Any]   # (family, rule bundle)


def parse_families(variant: str) -> list[str] | None:
    """The rule families of a ``--variant`` value such as ``"thermo,kropki"`` (in the order
    of :data:`RULE_FAMILIES`, each once), or None when it is not made of rule families.

    >>> parse_families("kropki,thermo"), parse_families("killer")
    (['thermo', 'kropki'], None)
    """
    names = [x.strip() for x in variant.split(",")]
    if not names or any(x not in RULE_FAMILIES for x in names):
        return None
    return [f for f in RULE_FAMILIES if f in names]


def _king(g: Grid, c: int) -> list[int]:
    return sorted(set(g.orthogonal(c)) | set(g.diagonal_neighbours(c)))


def _crossing(g: Grid, a: int, b: int) -> frozenset[int] | None:
    """The step that a diagonal step between king neighbours ``a`` and ``b`` would cross
    (the other diagonal of their 2x2 block, as a set of its two cells), or None for an
    orthogonal step.

    >>> g = Grid(9)
    >>> sorted(_crossing(g, g.cell("r4c8"), g.cell("r5c9"))) == sorted(
    ...     [g.cell("r4c9"), g.cell("r5c8")])
    True
    >>> _crossing(g, g.cell("r4c8"), g.cell("r4c9")) is None
    True
    """
    (ra, ca), (rb, cb) = g.rc(a), g.rc(b)
    if ra == rb or ca == cb:
        return None
    return frozenset((ra * g.n + cb, rb * g.n + ca))


def _step_ok(g: Grid, a: int, b: int, steps: set[frozenset[int]]) -> bool:
    """Whether the step ``a`` -> ``b`` leaves every drawn step of ``steps`` uncrossed: two
    diagonal steps across the same 2x2 block would draw an X, and a line through it could
    be read either way."""
    cross = _crossing(g, a, b)
    return cross is None or cross not in steps


def _paths(g: Grid, rng: random.Random, used: set[int], ok: Callable[[list[int], int], bool],
           count: int, lengths: tuple[int, int], tries: int = 40) -> list[list[int]]:
    """Up to ``count`` disjoint random paths (king moves, cells not in ``used``) of
    ``lengths`` cells, each extended only by cells ``x`` with ``ok(path, x)``. No diagonal
    step crosses another of the paths' diagonal steps (:func:`_step_ok`): the lines drawn
    never make an X, which a solver could not follow.

    >>> g = Grid(9)
    >>> paths = _paths(g, random.Random(3), set(), lambda p, x: True, 12, (4, 8))
    >>> steps = [frozenset(s) for p in paths for s in zip(p, p[1:])]
    >>> any(_crossing(g, *s) in steps for s in steps if _crossing(g, *s))
    False
    """
    out: list[list[int]] = []
    steps: set[frozenset[int]] = set()
    free = [c for c in range(g.size) if c not in used]
    for _ in range(count * tries):
        if len(out) >= count or not free:
            break
        start = rng.choice(free)
        if start in used:
            continue
        path = [start]
        mine: set[frozenset[int]] = set()
        want = rng.randint(*lengths)
        while len(path) < want:
            at = path[-1]
            nxt = [x for x in _king(g, at) if x not in used and x not in path
                   and _step_ok(g, at, x, steps) and _step_ok(g, at, x, mine)
                   and ok(path, x)]
            if not nxt:
                break
            x = rng.choice(nxt)
            mine.add(frozenset((at, x)))
            path.append(x)
        if len(path) >= lengths[0]:
            out.append(path)
            used.update(path)
            steps |= mine
    return out


def _names(g: Grid, cells: Sequence[int]) -> list[str]:
    return [g.name(c) for c in cells]


def _pairs(g: Grid) -> list[tuple[int, int]]:
    return [(c, o) for c in range(g.size) for o in g.orthogonal(c) if o > c]


def place(family: str, g: Grid, sol: Sequence[int], rng: random.Random,
          negative_: bool) -> tuple[list[Element], list[Element]]:
    """The elements of ``family`` read off the solution ``sol``: (removable elements,
    fixed elements). With ``negative_`` (kropki, xv) every qualifying pair is marked and
    nothing is removable.

    >>> g = Grid(4)
    >>> sol = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    >>> els, fixed = place("kropki", g, sol, random.Random(1), True)
    >>> els, [type(b).__name__ for _, b in fixed[-2:]], len(fixed) - 2
    ([], ['negative', 'negative'], 16)
    >>> Puzzle(g).use(classic(), *[b for _, b in fixed]).check_solution(sol)
    True
    """
    n = g.n
    out: list[Element] = []
    if family in GLOBAL_RULES:
        return out, []
    if family == "thermo":
        for path in _paths(g, rng, set(), lambda p, x: sol[x] > sol[p[-1]], n + 2, (3, 6)):
            out.append((family, thermo(*_names(g, path))))
    elif family in ("kropki", "xv"):
        marks: list[tuple[str, int, int]] = []
        for a, b in _pairs(g):
            x, y = sol[a], sol[b]
            if family == "kropki":
                kinds = [k for k, hit in (("white", abs(x - y) == 1),
                                          ("black", x == 2 * y or y == 2 * x)) if hit]
            else:
                kinds = [k for k, hit in (("x", x + y == 10), ("v", x + y == 5)) if hit]
            if kinds:
                marks.append((rng.choice(kinds), a, b))
        for kind, a, b in marks:
            na, nb = g.name(a), g.name(b)
            bundle = {"white": lambda: white_dot(na, nb), "black": lambda: black_dot(na, nb),
                      "x": lambda: sum_dot(na, nb, 10), "v": lambda: sum_dot(na, nb, 5)}[kind]()
            out.append((family, bundle))
        if negative_:
            marked = [(g.name(a), g.name(b)) for _, a, b in marks]
            kinds = ("white", "black") if family == "kropki" else ("x", "v")
            return [], out + [(family, negative(k, marked)) for k in kinds]
    elif family == "parity":
        cells = sorted(rng.sample(range(g.size), 2 * n))
        for c in cells:
            out.append((family, (even if sol[c] % 2 == 0 else odd)(g.name(c))))
    elif family == "arrow":
        used: set[int] = set()
        steps: set[frozenset[int]] = set()     # no shaft crosses another (_step_ok)
        cells = list(range(g.size))
        rng.shuffle(cells)
        for circle in cells:
            if len(out) >= n or circle in used or sol[circle] < 3:
                continue
            for _ in range(10):
                shaft: list[int] = []
                mine: set[frozenset[int]] = set()
                total = 0
                at = circle
                while total < sol[circle]:
                    nxt = [x for x in _king(g, at) if x not in used and x != circle
                           and x not in shaft and total + sol[x] <= sol[circle]
                           and _step_ok(g, at, x, steps)
                           and _step_ok(g, at, x, mine)]
                    if not nxt:
                        break
                    x = rng.choice(nxt)
                    mine.add(frozenset((at, x)))
                    at = x
                    shaft.append(at)
                    total += sol[at]
                if total == sol[circle] and 2 <= len(shaft) <= 3:
                    used.update(shaft + [circle])
                    steps |= mine
                    out.append((family, arrow([g.name(circle)], _names(g, shaft))))
                    break
    elif family == "whispers":
        diff = 5 if n >= 9 else max(2, n // 2)
        for path in _paths(g, rng, set(), lambda p, x: abs(sol[x] - sol[p[-1]]) >= diff,
                           n, (3, 7)):
            out.append((family, whispers(_names(g, path), diff)))
    elif family == "renban":
        def consecutive(p: list[int], x: int) -> bool:
            ds = {sol[c] for c in p}
            return sol[x] not in ds and max(ds | {sol[x]}) - min(ds | {sol[x]}) <= len(p)
        for path in _paths(g, rng, set(), consecutive, n, (3, 5)):
            out.append((family, renban(_names(g, path))))
    elif family == "between":
        for path in _paths(g, rng, set(), lambda p, x: _rises(sol, p, x), n, (3, 6)):
            line = _between_cut(sol, path)
            if line is not None:
                out.append((family, between_line(_names(g, line))))
    elif family == "little_killer":
        for diag in _diagonals(g):
            out.append((family, little_killer(_names(g, diag), sum(sol[c] for c in diag))))
    elif family == "sandwich":
        for i in range(n):
            for line, row, col in (([i * n + c for c in range(n)], i + 1, 0),
                                   ([r * n + i for r in range(n)], 0, i + 1)):
                ds = [sol[c] for c in line]
                a, b = sorted((ds.index(1), ds.index(n)))
                out.append((family, sandwich(row, col, sum(ds[a + 1:b]))))
    return out, []


def _rises(sol: Sequence[int], path: list[int], x: int) -> bool:
    """``x`` may extend ``path`` as a between line: its digit is on the side of the first
    cell's digit that the second cell set (above it or below it)."""
    first = sol[path[0]]
    if len(path) == 1:
        return sol[x] != first
    up = sol[path[1]] > first
    return sol[x] > first if up else sol[x] < first


def _between_cut(sol: Sequence[int], path: list[int]) -> list[int] | None:
    """The longest start of ``path`` (built by :func:`_rises`) that is a between line: its
    last cell is past every inner digit; None when no such start has an inner cell.

    >>> _between_cut([1, 5, 3, 9, 4], [0, 1, 2, 3, 4]), _between_cut([5, 3, 4], [0, 1, 2])
    ([0, 1, 2, 3], None)
    """
    up = sol[path[1]] > sol[path[0]]
    best = None
    for j in range(2, len(path)):
        inner = [sol[c] for c in path[1:j]]
        if (sol[path[j]] > max(inner)) if up else (sol[path[j]] < min(inner)):
            best = j
    return None if best is None else path[:best + 1]


def _diagonals(g: Grid) -> list[list[int]]:
    """Every diagonal from edge to edge of at least 2 cells, both directions, each once.

    >>> [len(d) for d in _diagonals(Grid(4))]
    [4, 3, 2, 3, 2, 4, 3, 2, 3, 2]
    """
    n = g.n
    out = []
    for dc in (1, -1):
        c0 = 0 if dc == 1 else n - 1
        starts = [(0, c0 + dc * k) for k in range(n - 1)] + [(r, c0) for r in range(1, n - 1)]
        for r, c in starts:
            cells = []
            while 0 <= r < n and 0 <= c < n:
                cells.append(r * n + c)
                r, c = r + 1, c + dc
            out.append(cells)
    return out


def _key(g: Grid, b: Any) -> tuple:
    """Where an element stands: its cells (a dot's pair, an arrow's circle and shaft), or a
    sandwich clue's row and column."""
    if isinstance(b, sandwich):
        return ("sandwich", b.row, b.col)
    if isinstance(b, arrow):
        return (frozenset(g.cells(b.circle)), frozenset(g.cells(b.shaft)))
    if hasattr(b, "a"):
        return (frozenset(g.cells([b.a, b.b])),)
    return (frozenset(g.cells(b.cells)),)


def _image(g: Grid, sol: Sequence[int], b: Any) -> Any | None:
    """The element ``b`` turned 180 degrees, read off the solution: the same kind of element
    on the turned cells (a thermo or dot of the kind the solution asks for, a line in either
    direction), or None when no such element holds on ``sol``. Little killer and sandwich
    clues are all placed: their image is found among them (:func:`_groups`).

    >>> g = Grid(4)
    >>> sol = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    >>> _image(g, sol, thermo("r1c1", "r1c2", "r1c3")).cells
    ('r4c4', 'r4c3', 'r4c2')
    >>> d = _image(g, sol, black_dot("r1c4", "r2c4"))
    >>> type(d).__name__, d.a, d.b
    ('black_dot', 'r4c1', 'r3c1')
    >>> _image(g, sol, thermo("r1c1", "r2c1", "r3c1")) is None      # 1, 3, 2 on the image: no
    True
    """
    size = g.size

    def turn(names: Sequence[str]) -> list[str]:
        return [g.name(size - 1 - c) for c in g.cells(list(names))]
    options: list[Any] = []
    if isinstance(b, thermo):
        cells = turn(b.cells)
        options = [thermo(*cells), thermo(*cells[::-1])]
    elif isinstance(b, (white_dot, black_dot)):
        x, y = turn([b.a, b.b])
        options = [white_dot(x, y), black_dot(x, y)]
    elif isinstance(b, sum_dot):
        x, y = turn([b.a, b.b])
        options = [sum_dot(x, y, b.total), sum_dot(x, y, 15 - b.total)]
    elif isinstance(b, arrow):
        options = [arrow(turn(b.circle), turn(b.shaft))]
    elif isinstance(b, whispers):
        options = [whispers(turn(b.cells), b.diff)]
    elif isinstance(b, renban):
        options = [renban(turn(b.cells))]
    elif isinstance(b, between_line):
        options = [between_line(turn(b.cells))]
    elif isinstance(b, (even, odd)):
        (c,) = turn(b.cells)
        options = [(even if sol[g.cells([c])[0]] % 2 == 0 else odd)(c)]
    for o in options:
        if Puzzle(g).use(classic(), o).check_solution(list(sol)):
            return o
    return None


def _groups(g: Grid, sol: Sequence[int], elements: list[Element],
            symmetric: bool) -> list[list[Element]]:
    """The removable elements in groups that go together: one each, or with ``symmetric``
    each element with its 180-degree image (:func:`_image`; an element whose image does not
    hold on the solution, or would cross a kept element, is dropped; one that is its own
    image stands alone).

    >>> g = Grid(4)
    >>> sol = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    >>> els = [("kropki", white_dot("r1c1", "r1c2")), ("kropki", white_dot("r4c4", "r4c3")),
    ...        ("thermo", thermo("r1c1", "r2c1", "r3c1"))]
    >>> [[(b.a, b.b) for _, b in grp] for grp in _groups(g, sol, els, True)]
    [[('r1c1', 'r1c2'), ('r4c4', 'r4c3')]]
    """
    if not symmetric:
        return [[e] for e in elements]
    keys = {_key(g, b): (f, b) for f, b in elements}
    taken: set[tuple] = set()
    cells: set[int] = set()
    out: list[list[Element]] = []
    for f, b in elements:
        k = _key(g, b)
        if k in taken:
            continue
        if isinstance(b, (little_killer, sandwich)):
            img = next((e[1] for kk, e in keys.items() if kk == _turned_key(g, k)), None)
        else:
            img = _image(g, sol, b)
        if img is None:
            continue
        ki = _key(g, img)
        crossing = not isinstance(b, (white_dot, black_dot, sum_dot, little_killer, sandwich))
        mine = set().union(*k) | set().union(*ki) if crossing else set()
        if ki in taken or mine & cells:
            continue
        taken |= {k, ki}
        cells |= mine
        out.append([(f, b)] if ki == k else [(f, b), (f, img)])
    return out


def _turned_key(g: Grid, k: tuple) -> tuple:
    """:func:`_key` of the element turned 180 degrees (a sandwich clue: the opposite row or
    column)."""
    if k[0] == "sandwich":
        _, r, c = k
        return ("sandwich", g.n + 1 - r if r else 0, g.n + 1 - c if c else 0)
    return tuple(frozenset(g.size - 1 - c for c in part) for part in k)


def _merge(elements: Sequence[Element]) -> list[Any]:
    """The bundles of ``elements``, even and odd squares merged into one bundle each."""
    ev = [c for _, b in elements if isinstance(b, even) for c in b.cells]
    od = [c for _, b in elements if isinstance(b, odd) for c in b.cells]
    rest = [b for _, b in elements if not isinstance(b, (even, odd))]
    return rest + ([even(*ev)] if ev else []) + ([odd(*od)] if od else [])


class RulesCandidate:
    """The parts of a rule-family candidate: grid, global rules, fixed bundles, elements."""

    def __init__(self, grid: Grid, glob: list[Any], fixed: list[Any]) -> None:
        self.grid, self.glob, self.fixed = grid, glob, fixed

    def build(self, elements: Sequence[Element], givens: Sequence[int] = ()) -> Puzzle:
        p = Puzzle(self.grid).use(classic(), *self.glob, *self.fixed, *_merge(elements))
        if givens:
            p.givens(list(givens))
        return p


def make_rules_candidate(families: Sequence[str], seed: int, size: int = 9,
                         symmetric: bool = False, deadline: float | None = None,
                         level: str | None = None, givens: str = "any",
                         negative_: bool = False
                         ) -> tuple[Puzzle, list[int], list[Element]] | None:
    """One candidate of the rule ``families`` from ``seed`` (see the module doc): the puzzle
    (unique, rated at most ``level`` when one is given), its solution and its elements
    (fixed ones first);
    None when the seed gives none (no grid under the global rules, or with ``givens="none"``
    elements that leave several solutions). Raises :class:`csp.errors.SearchLimit` past
    ``deadline``.

    >>> p, sol, els = make_rules_candidate(["thermo"], seed=2, size=6, level="easy")
    >>> p.count_solutions(2, method="sat"), p.check_solution(sol)
    (1, True)
    >>> {f for f, _ in els}
    {'thermo'}
    """
    rng = random.Random(seed)
    g = Grid(size)
    glob = [GLOBAL_RULES[f]() for f in families if f in GLOBAL_RULES]
    base = Puzzle(g).use(classic(), *glob)
    sol = None
    for _ in range(5):
        sol = random_fill(base, rng, deadline=deadline)
        if sol is not None:
            break
    if sol is None:
        return None
    elements: list[Element] = []
    fixed: list[Element] = []
    for f in families:
        els, fx = place(f, g, sol, rng, negative_ and f in NEGATIVE_FAMILIES)
        elements += els
        fixed += fx
    groups = _groups(g, sol, elements, symmetric)
    elements = [e for grp in groups for e in grp]
    if any(f not in GLOBAL_RULES and not any(x == f for x, _ in fixed + elements)
           for f in families):
        return None     # a family with no element left (none placed, or no symmetric one)
    rc = RulesCandidate(g, glob, [b for _, b in fixed])

    def within(gv: Sequence[int], els: Sequence[Element]) -> bool:
        if level is None:
            return True
        status, _ = _rate(rc.build(els, gv), level, deadline, STEER_SKIP)
        if status == "timeout":
            raise TimeLimitExceeded("time limit reached while digging")
        return status == "solved"

    def unique(gv: Sequence[int], els: Sequence[Element]) -> bool:
        p = rc.build(els, gv)
        return _unique(p.engine(), p.initial_state().cand, deadline)

    if level in RULES_STEERED and givens == "any":
        return _steered(rc, sol, groups, fixed, rng, level, RULES_STEERED[level], symmetric,
                        deadline)
    gv: list[int]
    if givens == "any":
        gv = dig(rc.build(elements), sol, rng, symmetric, deadline=deadline,
                 keep_if=lambda x: within(x, elements))
    else:
        gv = [0] * g.size
        if givens == "few":
            gv = few_givens(rc.build(elements).engine(), sol, rng, deadline, symmetric)
        elif not unique(gv, elements):
            return None
        if not within(gv, elements):
            return None
    order = list(range(len(groups)))
    rng.shuffle(order)
    dropped: set[int] = set()
    for i in order:     # the elements that are not needed go (the level may rise)
        rest = [e for k, grp in enumerate(groups) if k != i and k not in dropped for e in grp]
        if not any(f == groups[i][0][0] for f, _ in rest):
            continue        # the last element (group) of its family stays
        if unique(gv, rest) and within(gv, rest):
            dropped.add(i)
    elements = [e for k, grp in enumerate(groups) if k not in dropped for e in grp]
    p = rc.build(elements, gv)
    p.unique = True
    return p, sol, fixed + elements


def _unique_within(p: Puzzle, deadline: float | None) -> bool:
    """One solution, decided by depth-first search within :data:`STEER_UNIQUE_NODES` nodes
    (a search past them counts as not unique: the element stays)."""
    return unique_within(p.engine(), p.initial_state().cand, deadline, STEER_UNIQUE_NODES)


def _steered(rc: RulesCandidate, sol: list[int], groups: list[list[Element]],
             fixed: list[Element], rng: random.Random, level: str, share: float,
             symmetric: bool, deadline: float | None
             ) -> tuple[Puzzle, list[int], list[Element]] | None:
    """A candidate steered towards ``level`` by its hardest idea (:data:`RULES_STEERED`):
    ``share`` of the element groups are kept (at least one of each family), the givens are
    dug to a minimal puzzle by uniqueness alone (:func:`~.dig.dig_order`, each search
    within :data:`STEER_UNIQUE_NODES` nodes), and the rating decides where to stop: a
    minimal puzzle at the level is kept; one above it is bisected over the removals (each
    first k of them leave one solution, so only ratings are needed) to the last one within
    the level before one above it, then later removals are tried one by one while it is
    below; one below it loses elements (random order, each kept out while the puzzle stays
    unique, checked first within the node budget, and within the level) until the level is
    reached. At the top level (extreme: nothing is above it but a stuck solve) the removals
    are bisected to the fewest that reach it instead of rating the minimal puzzle first (a
    puzzle with more givens needs fewer forcing nets: little killer seed 1, 52 s for the
    minimal puzzle, 10.5 s for the one kept), and the ratings are the full ones
    (:func:`~.rating.rate_within`, no :data:`~.killer.STEER_SKIP`): the kept puzzle's
    rating is handed to the generator's final check as ``Puzzle.rated`` (the same call on
    the same puzzle, not made twice). The puzzle may keep givens or elements it does not
    need.
    """
    cap = LEVELS.index(level)
    order = list(range(len(groups)))
    rng.shuffle(order)
    keep = sorted(order[:max(1, int(len(groups) * share + 0.5))])
    for f in {e[0] for grp in groups for e in grp}:      # every family keeps an element
        if not any(groups[k][0][0] == f for k in keep):
            keep.append(next(k for k in order if groups[k][0][0] == f))
    groups = [groups[k] for k in sorted(keep)]

    def flat(gs: Sequence[list[Element]]) -> list[Element]:
        return [e for grp in gs for e in grp]

    top = cap == len(LEVELS) - 1
    rated: dict[tuple, tuple[str, Any]] = {}     # full ratings (the top level), by puzzle

    def key(gv: Sequence[int], gs: Sequence[list[Element]]) -> tuple:
        return tuple(gv), tuple(id(g) for g in gs)

    def rate(gv: Sequence[int], gs: Sequence[list[Element]]) -> tuple[int, bool]:
        """(-1 below the level, 0 at it, 1 above or stuck; whether the logic proved one
        solution: solved without a technique that assumes one)"""
        if top:     # no "above" but stuck: rated in full (kept for the final check)
            status, r = rated[key(gv, gs)] = _rate(rc.build(flat(gs), gv), level, deadline)
        else:
            status, r = _rate(rc.build(flat(gs), gv), level, deadline, STEER_SKIP)
        if status == "timeout":
            raise TimeLimitExceeded("time limit reached while digging")
        if status != "solved" or r is None:
            return 1, False
        proved = not any(getattr(registry.get(t), "requires_unique", True) for t in r.counts)
        return (LEVELS.index(r.level) > cap) - (LEVELS.index(r.level) < cap), proved

    removals = dig_order(rc.build(flat(groups)), sol, rng, symmetric, deadline,
                         STEER_UNIQUE_NODES)

    def givens_after(k: int, extra: Sequence[list[int]] = ()) -> list[int]:
        gv = list(sol)
        for grp in list(removals[:k]) + list(extra):
            for c in grp:
                gv[c] = 0
        return gv

    m = len(removals)
    if top:     # the fewest removals that reach the level: lo below it, hi not below
        lo, hi, vhi = 0, m, None
        while hi - lo > 1:
            mid = (lo + hi) // 2
            vm, _ = rate(givens_after(mid), groups)
            if vm < 0:
                lo = mid
            else:
                hi, vhi = mid, vm
        if vhi is None:
            vhi, _ = rate(givens_after(m), groups)
        v, gv, vlo = vhi, givens_after(hi), -1
    else:
        v, _ = rate(givens_after(m), groups)
        gv = givens_after(m)
        if v > 0:       # bisect: lo within the level, hi above it
            lo, hi, vlo = 0, m, -1
            while hi - lo > 1:
                mid = (lo + hi) // 2
                vm, _ = rate(givens_after(mid), groups)
                if vm > 0:
                    hi = mid
                else:
                    lo, vlo = mid, vm
    if v > 0:
        extra: list[list[int]] = []
        v = vlo
        for j in range(hi + 1, m):      # below: later removals, one by one
            if v == 0:
                break
            vj, _ = rate(givens_after(lo, extra + [removals[j]]), groups)
            if vj <= 0:
                extra.append(removals[j])
                v = vj
        gv = givens_after(lo, extra)
    if v < 0:       # below: elements go until the level is reached
        out = list(range(len(groups)))
        rng.shuffle(out)
        dropped: set[int] = set()
        for i in out:
            rest = [grp for k, grp in enumerate(groups) if k != i and k not in dropped]
            if not any(grp[0][0] == groups[i][0][0] for grp in rest):
                continue
            if not _unique_within(rc.build(flat(rest), gv), deadline):
                continue    # several solutions (or past the node budget): keep it
            vi, _ = rate(gv, rest)
            if vi > 0:
                continue
            dropped.add(i)
            if vi == 0:
                break
        groups = [grp for k, grp in enumerate(groups) if k not in dropped]
    elements = flat(groups)
    p = rc.build(elements, gv)
    p.unique = True
    got = rated.get(key(gv, groups))
    if got is not None:     # the final check's rating: the same call on the same puzzle
        p.rated = (level, deadline, got)
    return p, sol, fixed + elements


__all__ = ["RULES_STEERED", "RULE_FAMILIES", "GLOBAL_RULES", "GIVENS", "parse_families", "place",
           "make_rules_candidate"]
