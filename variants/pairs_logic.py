"""Named techniques of two-cell rules: Kropki dots (white and black), XV, difference and ratio
dots, whisper and palindrome neighbours, cages of two cells, any rule between two cells.
(The exact searches over a house, a pair of houses, a band or a window whose cells such
rules join are in :mod:`variants.arrangement_logic`.)

- ``pair_rules``: all the rules between two cells at once (the rule propagation checks each
  rule alone): a two-cell cage of 9 on an entropic line cannot hold 4 (its partner 5 is in
  the same group), an X between two cells of a row cannot hold 5.
- ``pair_mandatory``: the fillings left to two cells joined by rules all hold digit X: a
  cell seeing both loses X (a whisper pair {1,6,7}-{1,7} always holds a 1).
- ``cage_rules``: a killer cage whose cells are also joined by two-cell rules (a line along
  the cage, dots inside it) keeps only the fillings that satisfy those too: 13 on an
  entropic line is one low, one middle and one high digit, 148/157/247, so its low cell is
  1 or 2.
- ``dot_chain``: three or more cells joined by dots of one kind that all see each other hold
  different digits, so the chain is a progression in order (a run for white dots, doublings
  for black dots): the cells keep its digits, and a digit of every progression that fits is
  on the chain (pointing from it).
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

from csp.bits import digits_of, iter_cells
from csp.links import link_tables
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import Option, Options, register

FAMILY = "pairs"


#: entries of the pair checks' memory of quiet candidates before it is cleared (bounds
#: its memory; not measured)
QUIET_MAX = 100_000


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
        #: every pair joined by a two-cell rule, and those that the rule propagation does
        #: not see whole (two rules or more, or a rule between cells of one house)
        self.rule_pairs = sorted((a, b, tuple(ns)) for (a, b), ns in names.items() if a < b)
        self.pairs = [(a, b, ns) for a, b, ns in self.rule_pairs
                      if len(ns) > 1 or hp[a] >> b & 1]
        self.rule_names = {k: ", ".join(v) for k, v in names.items()}
        #: per pair or cell, the candidates for which a finder last found nothing (they
        #: only shrink along a solve, and the finders read nothing else that changes)
        self.quiet: dict = {}
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
    """The :class:`PinchTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(PinchTables)


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


@register("pair_rules", "Pair Rules", FAMILY)
def pair_rules(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two cells joined by several rules (a dot and a line, a cage and a line, a dot between
    cells of one house ...) keep only the digits that satisfy all of them at once with a
    digit of the other cell: an X between two cells of a row cannot hold 5."""
    t = pinch_tables(an.puzzle)
    w = an.grid.namer
    placed = an.state.placed
    sees = an.sees
    quiet = t.quiet
    for a, b, names in t.pairs:
        ma, mb = an.cand[a], an.cand[b]
        if not ma and not mb:
            continue
        va, vb = ma or 1 << placed[a], mb or 1 << placed[b]
        key = ("pair", a, b)
        if quiet.get(key) == (va, vb):
            continue
        elims = []
        why = []
        for x, y, mx, my in ((a, b, ma, vb), (b, a, mb, va)):
            for v in digits_of(mx):
                if not any(not sees(x, v, y, u) for u in digits_of(my)):
                    elims.append(Candidate(x, v))
                    why.append(f"{an.name(x)}={digit_symbol(v)} leaves {an.name(y)} nothing")
        if not elims:
            quiet[key] = (va, vb)
        else:
            both = [n for n in names]
            if an.links.house_peers[a] >> b & 1:
                both.append("one house")
            yield Step("pair_rules", eliminations=tuple(sorted(elims)), title="Pair Rules",
                       namer=w, houses=tuple(names),
                       pattern=tuple(Candidate(c, d) for c in (a, b)
                                     for d in digits_of(an.cand[c])),
                       note=f"{an.name(a)},{an.name(b)} ({' + '.join(both)}): {', '.join(why)}")


@register("neighbour_pinch", "Neighbour Pinch", FAMILY)
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
        key = ("pinch", b)
        seen = (mb, *doms)
        if t.quiet.get(key) == seen:
            continue
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
            why.append(f"{an.name(b)}={digit_symbol(v)} needs "
                       f"{','.join(an.name(a) for a in cells)} from "
                       f"{'/'.join(''.join(digit_symbol(y) for y in digits_of(s)) for s in sets)}")
        if not elims:
            t.quiet[key] = seen
        else:
            rules = ", ".join(dict.fromkeys(t.names[(b, a)] for a in cells))
            yield Step("neighbour_pinch", eliminations=tuple(elims), title="Neighbour Pinch",
                       namer=w, digits=tuple(d for _, d in elims),
                       pattern=tuple(Candidate(a, y) for a, dom in zip(cells, doms)
                                     for y in digits_of(dom) if an.cand[a]),
                       note=f"{an.name(b)} between {','.join(an.name(a) for a in cells)} "
                            f"({rules}): {', '.join(why)}")


@register("pair_mandatory", "Pair Mandatory Digit", FAMILY)
def pair_mandatory(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two cells joined by a rule (a dot, a line segment ...): when every filling they have
    left holds digit X, a cell that sees both loses X (a whisper pair {1,6,7}-{1,7} fills as
    61, 71 or 17: always a 1)."""
    t = pinch_tables(an.puzzle)
    w = an.grid.namer
    sees = an.sees
    pd = an.links.peers_d
    for a, b, names in t.rule_pairs:
        ma, mb = an.cand[a], an.cand[b]
        if not ma or not mb or (ma | mb).bit_count() > 4:
            continue
        key = ("must", a, b, ma, mb)
        hit = t.quiet.get(key)
        if hit is None:
            must = -1
            fills = []
            for x in digits_of(ma):
                for y in digits_of(mb):
                    if not sees(a, x, b, y):
                        must &= 1 << x | 1 << y
                        fills.append(f"{digit_symbol(x)}{digit_symbol(y)}")
            if len(t.quiet) > QUIET_MAX:
                t.quiet.clear()
            hit = t.quiet[key] = (must if fills else 0, fills)
        must, fills = hit
        if not must:
            continue
        pair = 1 << a | 1 << b
        for d in digits_of(must):
            targets = pd[d][a] & pd[d][b] & an.cells_with[d] & ~pair
            if targets:
                yield Step("pair_mandatory", digits=(d,), title="Pair Mandatory Digit", namer=w,
                           houses=tuple(names),
                           eliminations=tuple(Candidate(c, d) for c in iter_cells(targets)),
                           pattern=tuple(Candidate(c, x) for c in (a, b)
                                         for x in digits_of(an.cand[c])),
                           note=f"{an.name(a)},{an.name(b)} ({', '.join(names)}) fill as "
                                f"{'/'.join(fills)}: always a {digit_symbol(d)}")


class CageRuleTables:
    """Per puzzle: the killer cages (distinct digits, one known sum; the cage regions of
    :mod:`techniques.sets`) with two-cell rules between their cells beyond the cage itself."""

    def __init__(self, puzzle, cages: list) -> None:
        t = pinch_tables(puzzle)
        linked = {(a, b) for a, b, _ in t.rule_pairs}
        self.cages = []
        for cage in cages:
            cells = cage.cells
            names = sorted({t.rule_names[(a, b)] for i, a in enumerate(cells)
                            for b in cells[i + 1:] if (min(a, b), max(a, b)) in linked})
            # a two-cell cage's own sum is such a rule: leave it to pair_rules
            names = [n for n in names if n != cage.name]
            if names and len(cells) >= 3:
                self.cages.append((cage, names))


def cage_rule_tables(an: Analysis) -> CageRuleTables:
    """The :class:`CageRuleTables` of the analysed puzzle, built once per puzzle."""
    from techniques.sets import set_tables

    def build() -> CageRuleTables:
        cages = sorted((r for r in set_tables(an).regions
                        if r.kind == "cage" and r.total is not None), key=lambda r: min(r.cells))
        return CageRuleTables(an.puzzle, cages)
    return an.links_memo("cage_rule_tables", build)


#: fillings of one cage listed before it is skipped (from the first version; bounds one
#: cage's enumeration, not measured)
MAX_CAGE_FILLINGS = 50_000
CAGE_RULES_OPTIONS = Options(max_fillings=Option(
    MAX_CAGE_FILLINGS, "fillings of one cage listed (more: the cage is skipped)", int))


@register("cage_rules", "Cage Rules", FAMILY, options=CAGE_RULES_OPTIONS)
def cage_rules(an: Analysis, opts: dict) -> Iterator[Step]:
    """A killer cage whose cells are also joined by two-cell rules (a line along it, dots
    inside it) keeps only the fillings that satisfy them too: 13 on an entropic line is a
    low, a middle and a high digit (148/157/247), so its low cell is 1 or 2."""
    t = cage_rule_tables(an)
    if not t.cages:
        return
    limit = CAGE_RULES_OPTIONS.read(opts, "max_fillings")
    w = an.grid.namer
    placed = an.state.placed
    sees = an.sees
    for cage, names in t.cages:
        cells = cage.cells
        if not any(an.cand[c] for c in cells):
            continue
        doms = [an.cand[c] or 1 << placed[c] for c in cells]
        prod = 1
        for m in doms:
            prod *= m.bit_count()
        if prod > limit:
            continue
        order = sorted(range(len(cells)), key=lambda i: doms[i].bit_count())
        k = len(cells)
        sup = [0] * k
        vals = [0] * k
        total = cage.total

        def rec(j: int, s: int, used: int) -> None:
            if j == k:
                if s == total:
                    for i in range(k):
                        sup[i] |= 1 << vals[i]
                return
            i = order[j]
            left = k - j - 1
            for d in digits_of(doms[i] & ~used):
                if s + d + left > total:
                    break
                if any(sees(cells[i], d, cells[order[q]], vals[order[q]]) for q in range(j)):
                    continue
                vals[i] = d
                rec(j + 1, s + d, used | 1 << d)

        rec(0, 0, 0)
        if not all(sup):
            continue        # no filling: a contradiction, left to the other checks
        elims = [Candidate(c, d) for c, m, s in zip(cells, doms, sup)
                 for d in digits_of(an.cand[c] & ~s)]
        if elims:
            kept = ", ".join(f"{an.name(c)} {''.join(digit_symbol(d) for d in digits_of(s))}"
                             for c, s in zip(cells, sup))
            yield Step("cage_rules", eliminations=tuple(elims), title="Cage Rules", namer=w,
                       houses=(cage.name, *names),
                       pattern=tuple(Candidate(c, d) for c in cells
                                     for d in digits_of(an.cand[c])),
                       note=f"{cage.name} ({','.join(an.name(c) for c in cells)}) with "
                            f"{', '.join(names)}: the fillings keep {kept}")


class DotChainTables:
    """Per puzzle: chains of three or more cells joined by dots of one kind (a difference d,
    ``AbsDiff``, or a ratio r, ``Ratio``), every two cells of a chain seeing each other:
    (kind, value, cells in chain order, dot names). Their digits all differ, so they step by
    d (multiply by r) the same way all along: a progression."""

    def __init__(self, puzzle) -> None:
        from csp.constraints.binary import Relation, RelationKind
        adj: dict[tuple[str, int], dict[int, set[int]]] = {}
        names: dict[tuple[int, int], str] = {}
        for c in puzzle.constraints:
            if not isinstance(c, Relation):
                continue
            if c.relation is RelationKind.ABS_DIFF:
                key = ("diff", c.param)
            elif c.relation is RelationKind.RATIO:
                key = ("ratio", c.param)
            else:
                continue
            g = adj.setdefault(key, {})
            g.setdefault(c.a, set()).add(c.b)
            g.setdefault(c.b, set()).add(c.a)
            names[(c.a, c.b)] = names[(c.b, c.a)] = c.name
        hp = link_tables(puzzle).house_peers
        n = puzzle.grid.n
        self.chains: list[tuple[str, int, tuple[int, ...], str]] = []
        for (kind, value), g in sorted(adj.items()):
            paths: set[tuple[int, ...]] = set()

            def grow(path: list[int]) -> None:
                ext = False
                for nb in sorted(g.get(path[-1], ())):
                    if nb not in path and len(path) < n and all(hp[nb] >> x & 1 for x in path):
                        ext = True
                        grow(path + [nb])
                if not ext and len(path) >= 3:
                    t = tuple(path)
                    paths.add(min(t, t[::-1]))

            for start in sorted(g):
                grow([start])
            # keep the maximal chains (not part of a longer one)
            kept = [p for p in paths if not any(
                len(q) > len(p) and any(q[i:i + len(p)] in (p, p[::-1])
                                        for i in range(len(q) - len(p) + 1)) for q in paths)]
            for p in sorted(kept):
                dots = ", ".join(names[(a, b)] for a, b in zip(p, p[1:]))
                self.chains.append((kind, value, p, dots))


def dot_chain_tables(puzzle) -> DotChainTables:
    """The :class:`DotChainTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(DotChainTables)


def progressions(kind: str, value: int, k: int, n: int) -> list[tuple[int, ...]]:
    """The digit sequences of ``k`` cells along a chain of dots of one kind whose digits all
    differ: steps of +d or -d (``"diff"``), products by r or 1/r (``"ratio"``).

    >>> progressions("ratio", 2, 3, 9)
    [(1, 2, 4), (2, 4, 8), (4, 2, 1), (8, 4, 2)]
    >>> len(progressions("diff", 1, 4, 9))
    12
    """
    out = []
    for s in range(1, n + 1):
        for up in (True, False):
            seq = [s]
            for _ in range(k - 1):
                x = seq[-1]
                if kind == "diff":
                    y = x + value if up else x - value
                else:
                    y = x * value if up else (x // value if x % value == 0 else 0)
                if not 1 <= y <= n:
                    break
                seq.append(y)
            if len(seq) == k:
                out.append(tuple(seq))
    return sorted(set(out), key=lambda q: (q[0] > q[-1], q))


@register("dot_chain", "Dot Chain", FAMILY)
def dot_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """Three or more cells joined by dots of one kind, all seeing each other (a white-dot
    chain in a row, black dots around a box): their digits differ, so the chain steps the
    same way all along, a run of consecutive digits (a doubling sequence) in order. The
    cells keep the digits of the sequences that fit, and a digit in every such sequence is
    on the chain: cells seeing all its places there lose it (black dots 1-2-4 or 2-4-8 in a
    row always hold 2 and 4)."""
    t = dot_chain_tables(an.puzzle)
    if not t.chains:
        return
    w = an.grid.namer
    placed = an.state.placed
    n = an.n
    for kind, value, cells, dots in t.chains:
        if not any(an.cand[c] for c in cells):
            continue
        vals = [an.cand[c] or 1 << placed[c] for c in cells]
        fits = [q for q in progressions(kind, value, len(cells), n)
                if all(m >> x & 1 for m, x in zip(vals, q))]
        if not fits:
            continue            # no sequence fits: a contradiction
        seqs = "/".join("-".join(map(str, q)) for q in fits)
        what = (f"{dots}: the digits all differ, so the chain runs {seqs}")
        keep = [0] * len(cells)
        must = -1
        for q in fits:
            qm = 0
            for i, x in enumerate(q):
                keep[i] |= 1 << x
                qm |= 1 << x
            must &= qm
        elims = [Candidate(c, d) for c, k in zip(cells, keep) for d in digits_of(an.cand[c] & ~k)]
        pattern = tuple(Candidate(c, d) for c in cells for d in digits_of(an.cand[c]))
        if elims:
            yield Step("dot_chain", eliminations=tuple(elims), title="Dot Chain", namer=w,
                       pattern=pattern, note=what)
            continue
        chain = 0
        for c in cells:
            chain |= 1 << c
            if not an.cand[c]:
                must &= ~(1 << placed[c])
        for d in digits_of(must):
            s = chain & an.cells_with[d]
            targets = an.common_peers(d, s) & an.cells_with[d] & ~chain if s else 0
            if targets:
                yield Step("dot_chain", digits=(d,), title="Dot Chain", namer=w,
                           eliminations=tuple(Candidate(c, d) for c in iter_cells(targets)),
                           pattern=pattern,
                           note=f"{what}: always a {digit_symbol(d)}, only in "
                                f"{','.join(an.name(c) for c in iter_cells(s))}")
