"""Named techniques of two-cell rules: Kropki dots (white and black), XV, difference and ratio
dots, whisper and palindrome neighbours, cages of two cells, any rule between two cells.

- ``pair_rules``: all the rules between two cells at once (the rule propagation checks each
  rule alone): a two-cell cage of 9 on an entropic line cannot hold 4 (its partner 5 is in
  the same group), an X between two cells of a row cannot hold 5.
- ``neighbour_pinch``: a cell joined by two-cell rules to several neighbours that see each
  other cannot take a digit that leaves them no different digits: a black-dot cell between
  two cells of one house cannot be 1, 3 or 6 (both neighbours would be 2, 6 or 3), a 4 on a
  German whisper cannot sit between two cells of one box (both would be 9). The neighbours
  need not be adjacent to each other, only see each other; any mix of rules works.

The rules are read through their weak links (``Constraint.weak_links``: the digit pairs a
two-cell rule forbids), so every two-cell constraint takes part, whatever made it.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.dots import black_dot
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), black_dot("r1c1", "r1c2"), black_dot("r1c2", "r1c3"))
>>> st = p.propagate()
>>> [s.explain(2) for s in StepSolver().find_all(st, "neighbour_pinch")]
['Neighbour Pinch: r1c2 between r1c1,r1c3 (black dot r1c1-r1c2, black dot r1c2-r1c3): r1c2=1 needs r1c1,r1c3 from 2/2, r1c2=3 needs r1c1,r1c3 from 6/6, r1c2=6 needs r1c1,r1c3 from 3/3, r1c2=8 needs r1c1,r1c3 from 4/4 => r1c2<>1368']
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.links import link_tables
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import register

FAMILY = "pairs"


class PinchTables:
    """Per puzzle: the cell pairs joined by two-cell rules (``pairs``: (a, b, names of the
    rules), a < b, with two rules or more or a rule between cells of one house), and for
    each cell its neighbours through two-cell rules that forbid at least three digits for
    every digit of the cell (dots, whispers, XV ...; not non-consecutive or anti-knight
    pairs, which forbid one or two), with ``compat[v]``: the neighbour's digits allowed next
    to v, and the rules' names."""

    def __init__(self, puzzle) -> None:
        g = puzzle.grid
        n = g.n
        full = ((1 << n) - 1) << 1
        forbid: dict[tuple[int, int], list[int]] = {}
        names: dict[tuple[int, int], list[str]] = {}
        for con in puzzle.constraints:
            if len(con.cells) != 2:
                continue
            a, b = con.cells
            if a == b:
                continue
            fa = forbid.setdefault((a, b), [0] * (n + 1))
            fb = forbid.setdefault((b, a), [0] * (n + 1))
            any_link = False
            for (x, v), (y, w) in con.weak_links(n):
                any_link = True
                if x == a:
                    fa[v] |= 1 << w
                    fb[w] |= 1 << v
                else:
                    fb[v] |= 1 << w
                    fa[w] |= 1 << v
            if any_link:
                names.setdefault((a, b), []).append(con.name)
                names.setdefault((b, a), []).append(con.name)
        nbs: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(g.size)]
        self.names: dict[tuple[int, int], str] = {}
        for (a, b), f in forbid.items():
            compat = tuple(full & ~f[v] for v in range(n + 1))
            if max((compat[v].bit_count() for v in range(1, n + 1)), default=n) > n - 3:
                continue
            nbs[a].append((b, compat))
            self.names[(a, b)] = ", ".join(names.get((a, b), ()))
        links = link_tables(puzzle)
        hp = links.house_peers
        self.pairs = sorted((a, b, tuple(ns)) for (a, b), ns in names.items()
                            if a < b and (len(ns) > 1 or hp[a] >> b & 1))
        # only cells with two neighbours that see each other (for some digits) can pinch
        linked_to: dict[int, set[int]] = {}
        for (c, _), others in links.cross.items():
            linked_to.setdefault(c, set()).update(o for o, _ in others)

        def linked(a: int, c: int) -> bool:
            return (any(links.peers_d[d][a] >> c & 1 for d in range(1, n + 1))
                    or c in linked_to.get(a, ()))

        self.neighbours = [x if any(linked(a, c) for i, (a, _) in enumerate(x)
                                    for c, _ in x[i + 1:]) else []
                           for x in nbs]


def pinch_tables(puzzle) -> PinchTables:
    t = getattr(puzzle, "_pinch_tables", None)
    if t is None:
        t = puzzle._pinch_tables = PinchTables(puzzle)
    return t


def _assignable(an: Analysis, cells: list[int], sets: list[int]) -> bool:
    """Can each cell take a digit of its set with no two of them seeing each other?"""
    order = sorted(range(len(cells)), key=lambda i: sets[i].bit_count())
    vals: list[tuple[int, int]] = []

    def rec(j: int) -> bool:
        if j == len(order):
            return True
        i = order[j]
        c = cells[i]
        for y in digits_of(sets[i]):
            if any(an.sees(c, y, c2, y2) for c2, y2 in vals):
                continue
            vals.append((c, y))
            if rec(j + 1):
                return True
            vals.pop()
        return False

    return rec(0)


@register("pair_rules", "Pair Rules", FAMILY, score=20, order=360, level="easy")
def pair_rules(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two cells joined by several rules (a dot and a line, a cage and a line, a dot between
    cells of one house ...) keep only the digits that satisfy all of them at once with a
    digit of the other cell: an X between two cells of a row cannot hold 5."""
    t = pinch_tables(an.puzzle)
    w = an.grid.namer
    placed = an.state.placed
    sees = an.sees
    for a, b, names in t.pairs:
        ma, mb = an.cand[a], an.cand[b]
        if not ma and not mb:
            continue
        va, vb = ma or 1 << placed[a], mb or 1 << placed[b]
        elims = []
        why = []
        for x, y, mx, my in ((a, b, ma, vb), (b, a, mb, va)):
            for v in digits_of(mx):
                if not any(not sees(x, v, y, u) for u in digits_of(my)):
                    elims.append(Candidate(x, v))
                    why.append(f"{an.name(x)}={digit_symbol(v)} leaves {an.name(y)} nothing")
        if elims:
            both = [n for n in names]
            if an.links.house_peers[a] >> b & 1:
                both.append("one house")
            yield Step("pair_rules", eliminations=tuple(sorted(elims)), title="Pair Rules",
                       width=w, houses=tuple(names),
                       pattern=tuple(Candidate(c, d) for c in (a, b) for d in digits_of(an.cand[c])),
                       note=f"{an.name(a)},{an.name(b)} ({' + '.join(both)}): {', '.join(why)}")


@register("neighbour_pinch", "Neighbour Pinch", FAMILY, score=50, order=995, level="medium")
def neighbour_pinch(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell joined by two-cell rules (dots, whispers ...) to neighbours that see each other
    cannot take a digit that leaves the neighbours no different digits: a black-dot cell
    between two cells of a house is not 1, 3 or 6; a 4 on a German whisper is not between
    two cells of one box."""
    t = pinch_tables(an.puzzle)
    w = an.grid.namer
    placed = an.state.placed
    for b in range(an.size):
        nbs = t.neighbours[b]
        mb = an.cand[b]
        if len(nbs) < 2 or not mb:
            continue
        cells = [a for a, _ in nbs]
        doms = [an.cand[a] or 1 << placed[a] for a in cells]
        elims = []
        why = []
        for v in digits_of(mb):
            sets = []
            for (a, compat), dom in zip(nbs, doms):
                s = dom & compat[v]
                for y in digits_of(s):
                    if an.sees(b, v, a, y):
                        s &= ~(1 << y)
                sets.append(s)
            if 0 in sets:
                continue        # a single neighbour rules it out: the rule propagation's job
            if _assignable(an, cells, sets):
                continue
            elims.append(Candidate(b, v))
            why.append(f"{an.name(b)}={digit_symbol(v)} needs {','.join(an.name(a) for a in cells)} "
                       f"from {'/'.join(''.join(digit_symbol(y) for y in digits_of(s)) for s in sets)}")
        if elims:
            rules = ", ".join(dict.fromkeys(t.names[(b, a)] for a in cells))
            yield Step("neighbour_pinch", eliminations=tuple(elims), title="Neighbour Pinch",
                       width=w, digits=tuple(d for _, d in elims),
                       pattern=tuple(Candidate(a, y) for a, dom in zip(cells, doms)
                                     for y in digits_of(dom) if an.cand[a]),
                       note=f"{an.name(b)} between {','.join(an.name(a) for a in cells)} "
                            f"({rules}): {', '.join(why)}")
