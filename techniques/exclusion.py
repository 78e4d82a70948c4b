"""Exclusions through the rules' links: a candidate that would leave a cell without a digit,
or a house without a place for a digit, at once.

Variant rules link candidates of different digits (a whisper, a white dot, a renban, a
2-cell cage, an entropic line ...): assuming r4c1=4 removes, in one step, every candidate
weakly linked to it. When those include every candidate of another cell, or every place of
a digit in a full house, the assumption is impossible:

- ``cell_exclusion``: (a, v) sees every candidate of a cell b, so a is not v ("r4c1=4 would
  leave r4c2 without a digit: 1-3 through the entropic line, 4 through the row ...");
- ``house_exclusion``: (a, v) sees every place of a digit d in a full house (its own cell
  among them; for d = v through links other than the houses, such as a knight's move), so a
  is not v ("r1c3=5 would leave row 1 without a 4");
- ``two_house_exclusion``: (a, d) sees a cell of every pair of places of d, one in each of
  two full houses, that do not see each other, so a is not d ("r2c2=8 would leave row 7
  only r7c1 and column 3 only r6c3, a knight's move apart");
- ``three_house_exclusion``: the same over three full houses: (a, d) leaves each of them
  only places among which every choice of one per house holds two that see each other
  ("r2c5=4 would leave row 4 only r4c9, column 7 only r6c7, r8c7 and region 7 only r8c1,
  r8c3");
- ``rule_exclusion``: with the candidates (a, v) sees removed, one of the puzzle's rules
  (read alone, once) has no way left to be satisfied ("r7c7=6 would leave the white dot
  r6c7-r6c8 without a consecutive pair");
- ``almost_locked_candidates``: a full house A keeps a digit set S to its cells shared with a
  house C plus fewer cells than S has digits, so C outside A has room for only that many
  digits of S; (a, v) there that forces more cells of C outside A into S (what it sees
  removed, the rules on its cell read once) is false ("r9c2=8 would make r9c1 9 through the
  arrow: row 9 would hold 8 and 9 outside box 9, which keeps them to row 9 and r8c9").

All are one assumption deep, like a pointing pair: the assumed candidate's own links, no
chain followed further. With houses only (classic sudoku) they say nothing that singles,
locked candidates and X-wings (finned, kites) do not, so they return at once on puzzles
without links beyond the houses.

>>> from csp import Puzzle, Grid
>>> from techniques import StepSolver
>>> p = Puzzle(Grid(4)).add_grid_houses().add_not_abs_diff("r1c1", "r1c2")
>>> st = p.initial_state()
>>> st.cand[1] = 0b01100          # r1c2 is 2 or 3: r1c1=2 sees r1c2=3 and r1c2=2 ...
>>> [s.explain(2) for s in StepSolver().find_all(st, "cell_exclusion")]
['Cell Exclusion: r1c1=2 would leave r1c2 without a digit (r1c2: 23) => r1c1<>2', 'Cell Exclusion: r1c1=3 would leave r1c2 without a digit (r1c2: 23) => r1c1<>3']
"""
from __future__ import annotations

from typing import Callable, Iterator

from csp.bits import digits_of
from csp.constraints.binary import BinaryTable, Relation, RelationKind
from csp.events import Contradiction
from csp.links import link_tables
from csp.propagator import Context
from csp.step import Candidate, Step, digit_symbol, digits_text

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register
from .rules import rule_engine
from .sets import house_placed

FAMILY = "exclusion"


def _cross_masks(an: Analysis) -> dict[tuple[int, int], list[int]]:
    """(cell, digit) -> per digit v, the cells a whose (a, v) is linked to (cell, digit)
    through a rule (different digits; the same digit goes through ``peers_d``)."""
    def build() -> dict[tuple[int, int], list[int]]:
        n = an.n
        out: dict[tuple[int, int], list[int]] = {}
        for (c, d), others in an.links.cross.items():
            row = out.get((c, d))
            if row is None:
                row = out[(c, d)] = [0] * (n + 1)
            for c2, d2 in others:
                if c2 != c:
                    row[d2] |= 1 << c2
        return out
    return an.links_memo("exclusion_cross", build)


@register("cell_exclusion", "Cell Exclusion", FAMILY)
def cell_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate weakly linked to every candidate of another cell is false: it would leave
    that cell without a digit."""
    if not an.links.cross:
        return
    cross = _cross_masks(an)
    n = an.n
    cand, cw = an.cand, an.cells_with
    peers_d = an.links.peers_d
    zero = [0] * (n + 1)
    for b in iter_cells(an.unsolved):
        cb = cand[b]
        digits = [d for d in range(1, n + 1) if cb >> d & 1]
        rows = [cross.get((b, d), zero) for d in digits]
        for v in range(1, n + 1):
            x = cw[v] & ~(1 << b)
            for d, row in zip(digits, rows):
                x &= peers_d[v][b] if d == v else row[v]
                if not x:
                    break
            if not x:
                continue
            for a in iter_cells(x):
                yield Step("cell_exclusion", eliminations=(Candidate(a, v),),
                           title="Cell Exclusion", namer=an.grid.namer,
                           pattern=tuple(Candidate(b, d) for d in digits),
                           digits=(v,),
                           note=f"{an.name(a)}={digit_symbol(v)} would leave {an.name(b)} "
                                f"without a digit ({an.name(b)}: {digits_text(cb)})")


@register("house_exclusion", "House Exclusion", FAMILY)
def house_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate weakly linked to every place of a digit in a full house (its own cell
    among them) is false: it would leave the house without that digit."""
    links = an.links
    # same-digit links beyond the houses (anti-knight, anti-king, ...)?
    uniform = an.links_memo("exclusion_same_digit_houses_only", lambda: all(
        links.peers_d[d] == links.house_peers for d in range(1, an.n + 1)))
    if not links.cross and uniform:
        return
    cross = _cross_masks(an)
    n = an.n
    cw = an.cells_with
    zero = [0] * (n + 1)
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    for h in an.full:
        hm = an.house_mask[h]
        for d in range(1, n + 1):
            if done[h] >> d & 1:
                continue
            peers_d = an.links.peers_d[d]
            places = hm & cw[d]
            if not places:
                continue
            cells = list(iter_cells(places))
            rows = [cross.get((s, d), zero) for s in cells]
            for v in range(1, n + 1):
                if v == d:
                    # the digit's own places: through the houses that is locked candidates
                    # (earlier in the ladder); other same-digit links (anti-knight, ...) too
                    if uniform:
                        continue
                    x = cw[d] & ~places
                    for s in cells:
                        x &= peers_d[s]
                        if not x:
                            break
                else:
                    x = cw[v]
                    for s, row in zip(cells, rows):
                        x &= row[v] | (1 << s)
                        if not x:
                            break
                if not x:
                    continue
                for a in iter_cells(x):
                    yield Step("house_exclusion", eliminations=(Candidate(a, v),),
                               title="House Exclusion", namer=an.grid.namer,
                               houses=(an.houses[h].name,), digits=(d,),
                               pattern=tuple(Candidate(s, d) for s in cells),
                               note=f"{an.name(a)}={digit_symbol(v)} would leave "
                                    f"{an.houses[h].name} without a {digit_symbol(d)} "
                                    f"({','.join(an.name(s) for s in cells)})")


RULE_EXCLUSION_OPTIONS = Options(max_scope=Option(
    12, "most cells of a rule whose fillings are read", int))


@register("rule_exclusion", "Rule Exclusion", FAMILY, options=RULE_EXCLUSION_OPTIONS)
def rule_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate whose direct consequences (the candidates it sees, removed) leave one of
    the puzzle's rules -- a dot, a line, a cage, an arrow -- with no way to be satisfied is
    false: one rule read once, no chain ("r7c7=6 would leave the white dot r6c7-r6c8 no
    consecutive pair")."""
    eng = rule_engine(an.puzzle)
    if eng is None:
        return
    max_scope = RULE_EXCLUSION_OPTIONS.read(opts, "max_scope")
    st = an.state
    base = [m if not st.placed[c] else 1 << st.placed[c] for c, m in enumerate(st.cand)]
    cand = an.cand
    found: dict[tuple[int, int], str] = {}
    for i, p in enumerate(eng.props):
        if len(p.scope) > max_scope:
            continue
        if an.tick(len(p.scope)):
            break               # the deadline: what was found so far is sound
        # which candidates break the rule depends on its own cells' candidates only
        key = ("rule_exclusion", i, tuple(base[c] for c in p.scope))
        for a, v in an.shared_memo(key, lambda p=p, i=i: _breakers(an, eng, i, base)):
            if cand[a] >> v & 1 and (a, v) not in found:
                found[(a, v)] = p.name
    for (a, v), name in sorted(found.items()):
        p = next(q for q in eng.props if q.name == name)
        yield Step("rule_exclusion", eliminations=(Candidate(a, v),), title="Rule Exclusion",
                   namer=an.grid.namer, houses=(name,), digits=(v,),
                   pattern=tuple(Candidate(x, d) for x in p.scope for d in range(1, an.n + 1)
                                 if cand[x] >> d & 1),
                   note=f"{an.name(a)}={digit_symbol(v)} would leave {name} without a "
                        f"solution")


def _breakers(an: Analysis, eng, i: int, base: list[int],
              generic: bool = False) -> tuple[tuple[int, int], ...]:
    """The candidates (a, v) whose direct consequences on rule ``i``'s cells -- the
    candidates there that (a, v) sees, removed -- leave the rule without a solution.
    A two-cell rule's table is read directly (``generic``: run its propagation per
    candidate as for any other rule, the same answer)."""
    p = eng.props[i]
    out = []
    uni = p.uni_a if type(p) is BinaryTable and not generic else None
    if uni is not None:
        # a two-cell rule has a solution while some digit left in b goes with one left in
        # a (what its propagation finds, without running it per candidate); the answer
        # reads only what a candidate removes from the two cells, so it is worked out once
        # per distinct removal
        bx, by = base[p.a], base[p.b]
        avs, groups = _pair_reach(an, eng, i)
        hits: list[int] = []
        for rx, ry, where in groups:
            mx, my = bx & ~rx, by & ~ry
            if mx and my and (mx != bx or my != by) and not uni[mx] & my:
                hits += where
        hits.sort()
        return tuple([avs[j] for j in hits])
    for (a, v), rem in _reach(an, eng, i):
        if an.tick(len(p.scope)):
            break               # cut short: not cached (Analysis.shared_memo)
        work = base[:]
        hit = False
        for c, m in rem.items():
            if work[c] & m:
                hit = True
                work[c] &= ~m
                if not work[c]:
                    break        # a cell of the rule left empty: cell exclusion's business
        else:
            if not hit:
                continue
            ctx = Context(work)
            ctx.source = p.name
            try:
                p.propagate(ctx)
            except Contradiction:
                out.append((a, v))
    return tuple(out)


def _reach(an: Analysis, eng, i: int) -> list[tuple[tuple[int, int], dict[int, int]]]:
    """Every candidate (a, v) that sees a candidate of rule ``i``'s cells (or is one of
    them), with what it removes from those cells when true (cell -> digit mask). Static:
    the links only, whatever the candidates."""
    def build() -> list[tuple[tuple[int, int], dict[int, int]]]:
        p = eng.props[i]
        n = an.n
        peers_d, cross = an.links.peers_d, an.links.cross
        full = ((1 << n) - 1) << 1
        out: dict[tuple[int, int], dict[int, int]] = {}
        for c in p.scope:
            for d in range(1, n + 1):
                # same digit: every a that sees c for d
                m = peers_d[d][c]
                while m:
                    low = m & -m
                    a = low.bit_length() - 1
                    m ^= low
                    out.setdefault((a, d), {})
                    out[(a, d)][c] = out[(a, d)].get(c, 0) | 1 << d
                for a, v in cross.get((c, d), ()):
                    out.setdefault((a, v), {})
                    out[(a, v)][c] = out[(a, v)].get(c, 0) | 1 << d
        for a in p.scope:
            for v in range(1, n + 1):
                rem = out.setdefault((a, v), {})
                rem[a] = rem.get(a, 0) | (full & ~(1 << v))
        return sorted(out.items())
    return an.links_memo(("rule_exclusion_reach", i), build)


def _pair_reach(an: Analysis, eng, i: int
                ) -> tuple[list[tuple[int, int]], list[tuple[int, int, list[int]]]]:
    """For a two-cell rule ``i`` (cells a and b): the candidates of :func:`_reach` and
    their removals grouped by what they remove from the two cells: ``(candidates,
    [(removed from a, removed from b, positions in candidates)])``. Static."""
    def build():
        p = eng.props[i]
        avs = []
        groups: dict[tuple[int, int], list[int]] = {}
        for j, (av, rem) in enumerate(_reach(an, eng, i)):
            avs.append(av)
            groups.setdefault((rem.get(p.a, 0), rem.get(p.b, 0)), []).append(j)
        return avs, [(rx, ry, where) for (rx, ry), where in groups.items()]
    return an.links_memo(("rule_exclusion_pairs", i), build)


def _pair_survivors(places_a: int, places_b: int, free: dict[int, int]) -> int:
    """The cells X for which digit d at X still leaves some pair of places (a in A, b in B,
    the same cell or two cells that do not see each other): the union, over those pairs, of
    a, b and the cells that see neither. ``free[s]``: the cells not linked to s for d."""
    out = 0
    for a in iter_cells(places_a):
        fa = free[a]
        ba = 1 << a
        rest = places_b & (fa | ba)
        for b in iter_cells(rest):
            out |= (fa & free[b]) | ba | (1 << b)
    return out


class _SameDigitSight:
    """Per puzzle, per digit d and cell s: the cells that cannot hold d when s does, through
    the houses, the rules' same-digit links and equal cells (``Equal`` relations: clones,
    palindromes, closed over chains): s = d puts d in every cell equal to s, and a cell
    that one of those sees for d takes d from every cell equal to it. ``None`` when that is
    just the houses (classic grids, jigsaws): nothing beyond the X-wing family to find."""

    def __init__(self, puzzle) -> None:
        links = link_tables(puzzle)
        n, size = puzzle.grid.n, puzzle.grid.size
        parent = list(range(size))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for c in puzzle.constraints:
            if isinstance(c, Relation) and c.relation is RelationKind.EQ:
                parent[find(c.a)] = find(c.b)
        group = [0] * size
        for c in range(size):
            group[find(c)] |= 1 << c
        group = [group[find(c)] for c in range(size)]
        equal = [g for c, g in enumerate(group) if find(c) == c and g & (g - 1)]
        same = all(links.peers_d[d] == links.house_peers for d in range(1, n + 1))
        self.equal = bool(equal)
        #: per cell, the other cells equal to it (0 for most)
        self.group = [g & ~(1 << c) for c, g in enumerate(group)]
        if same and not equal:
            self.sight: list[list[int]] | None = None
            return
        sight: list[list[int]] = [[]]
        for d in range(1, n + 1):
            peers = links.peers_d[d]
            row = []
            for c in range(size):
                reach = 0
                for y in iter_cells(group[c]):
                    reach |= peers[y]
                for g in equal:
                    if reach & g:
                        reach |= g
                row.append(reach & ~(1 << c))
            sight.append(row)
        self.sight = sight
        #: per digit, :func:`_pair_fits` of pairs of place sets (kept across states)
        self.pair_fits: list[dict[tuple[int, int], int]] = [
            {} for _ in range(n + 1)]


def _max_places(default: int | None) -> Options:
    return Options(max_places=Option(default, "most places of the digit in a house (None: n)",
                                     int))


TWO_HOUSE_OPTIONS = _max_places(None)


@register("two_house_exclusion", "Two-House Exclusion", FAMILY, options=TWO_HOUSE_OPTIONS)
def two_house_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate of digit d that, through its same-digit links (houses, a knight's or
    king's move, ...) and equal cells (clones, palindromes), leaves no way to place d once
    in each of two full houses is false: in each house d must go to a cell it does not
    see, and those two cells may not see each other ("r2c2=8 would leave row 7 only r7c1
    and column 3 only r6c3, a knight's move apart").

    With houses only this is what X-wings, skyscrapers, kites and their finned forms find;
    it runs on puzzles whose same-digit links go beyond the houses (anti-knight, anti-king,
    ...) or with equal cells, where those patterns' fins and eliminations reach through the
    rule's links. ``max_places``: the most places of d a house may have to take part (None:
    any; on the anti-knight set a limit of 5 left 457 forcing steps instead of 331, for
    about the same time).

    >>> from csp import Puzzle, Grid, NotEqual
    >>> from techniques import StepSolver
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> for a, b in [(a, b) for a in range(16) for b in p.grid.knight(a) if b > a]:
    ...     _ = p.add(NotEqual(a, b))                  # anti-knight
    >>> st = p.initial_state()
    >>> for c in (2, 3, 12, 13):                       # 1 in row 1 at r1c1/r1c2, row 4 r4c3/r4c4
    ...     st.cand[c] &= ~0b10
    >>> [s.explain(2) for s in StepSolver().find_all(st, "two_house_exclusion")
    ...  if s.houses == ("row 1", "row 4")]  # doctest: +NORMALIZE_WHITESPACE
    ['Two-House Exclusion: 1 goes once in row 1 (r1c1,r1c2) and once in row 4 (r4c3,r4c4);
      r2c3,r2c4,r3c3,r3c4=1 would leave no two of these places that see neither it nor each
      other => r2c3<>1, r2c4<>1, r3c3<>1, r3c4<>1 (r2c3 sees r1c1 by r1c1!=r2c3; r2c3 sees
      r4c4 by r2c3!=r4c4; r2c4 sees r1c2 by r1c2!=r2c4; r2c4 sees r4c3 by r2c4!=r4c3; r3c3
      sees r1c2 by r1c2!=r3c3)']

    r2c3 sees r1c1 and r4c4 by a knight's move and r4c3 through column 3: r1c1 is out, and
    r1c2 has no partner left in row 4.
    """
    tables = an.puzzle.derived(_SameDigitSight)
    if tables.sight is None:
        return
    max_places = TWO_HOUSE_OPTIONS.read(opts, "max_places") or an.n
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    for d in range(1, an.n + 1):
        if not an.cells_with[d]:
            continue
        # the houses where d is placed take no part
        skip = 0
        for h in an.full:
            if done[h] >> d & 1:
                skip |= 1 << h
        # the pairs depend on d's cells and those houses only: kept across states until a
        # step touches d
        found = an.digit_memo(("two_house_exclusion", max_places, skip), d,
                              lambda d=d, skip=skip: _two_house_pairs(an, tables, d,
                                                                      max_places, skip))
        if an.timed_out:
            return
        for ha, hb, pa, pb, x in found:
            ds = digit_symbol(d)
            na, nb = an.houses[ha].name, an.houses[hb].name
            via = _equal_note(an, tables.group, x | pa | pb)
            yield Step("two_house_exclusion",
                       eliminations=tuple(Candidate(a, d) for a in iter_cells(x)),
                       title="Two-House Exclusion", namer=an.grid.namer,
                       houses=(na, nb), digits=(d,),
                       pattern=tuple(Candidate(s, d) for s in iter_cells(pa | pb)),
                       note=f"{ds} goes once in {na} ({_names(an, pa)}) and once in "
                            f"{nb} ({_names(an, pb)}); {_names(an, x)}={ds} would leave "
                            f"no two of these places that see neither it nor each "
                            f"other{via}")


def _two_house_pairs(an: Analysis, tables: "_SameDigitSight", d: int, max_places: int,
                     skip: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """Two-house exclusions of digit ``d``: (house a, house b, d's places in a and in b,
    the cells that lose d), each pair's cells not already taken by an earlier pair. Reads
    nothing but d's cells and ``skip``, the bit set of the houses where d is placed."""
    cells_d = an.cells_with[d]
    taken = 0               # eliminated by an earlier pair of houses of this search
    sight = tables.sight[d]
    free = {s: cells_d & ~sight[s] & ~(1 << s) for s in iter_cells(cells_d)}
    houses = []
    for h in an.full:
        if skip >> h & 1:
            continue
        places = an.house_mask[h] & cells_d
        if places and places.bit_count() <= max_places:
            houses.append((h, places))
    out = []
    for i, (ha, pa) in enumerate(houses):
        if an.expired():
            break
        for hb, pb in houses[i + 1:]:
            if pa & pb == pa or pa & pb == pb:
                continue           # one house's places inside the other's: one house
            x = cells_d & ~_pair_survivors(pa, pb, free) & ~taken
            if x:
                taken |= x
                out.append((ha, hb, pa, pb, x))
    return tuple(out)


def _equal_note(an: Analysis, group: list[int], cells: int) -> str:
    """" (r1c2=r9c8, ...: equal cells see what each of them sees)" for the equal cells
    among ``cells``, or ""."""
    parts = []
    for c in iter_cells(cells):
        if group[c]:
            parts.append("=".join(an.name(s) for s in iter_cells(group[c] | 1 << c)))
    if not parts:
        return ""
    parts = list(dict.fromkeys(parts))
    return f" ({', '.join(parts)}: equal cells see what each of them sees)"


def _names(an: Analysis, cells: int) -> str:
    return ",".join(an.name(s) for s in iter_cells(cells))



def _house_pairs(an: Analysis) -> list[tuple[int, int, int]]:
    """(A, C, A & C) for every ordered pair of houses that share two cells or more, A a full
    house and C not inside A (a box and a row, a row and a box, a box and a cage ...)."""
    def build() -> list[tuple[int, int, int]]:
        hm = an.house_mask
        out = []
        for a in an.full:
            for c in range(len(hm)):
                if c == a:
                    continue
                inter = hm[a] & hm[c]
                if inter & (inter - 1) and hm[a] & ~inter and hm[c] & ~inter:
                    out.append((a, c, inter))
        return out
    return an.links_memo("alc_house_pairs", build)


def _near(an: Analysis, eng) -> dict[int, int]:
    """Cell -> the cells that share a rule with it or that a rule links to one of its
    candidates (a bit set): the only cells where an assumption on it can remove more than
    its own digit."""
    def build() -> dict[int, int]:
        out: dict[int, int] = {}
        if eng is not None:
            for p in eng.props:
                m = 0
                for c in p.scope:
                    m |= 1 << c
                for c in p.scope:
                    out[c] = out.get(c, 0) | m
        for (c, _), others in an.links.cross.items():
            for c2, _ in others:
                out[c] = out.get(c, 0) | 1 << c2
        return {c: m & ~(1 << c) for c, m in out.items()}
    return an.links_memo("alc_near", build)


def _rules_of(an: Analysis, eng) -> dict[int, list[int]]:
    """Cell -> the indexes of the rule propagators whose scope holds it."""
    def build() -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i, p in enumerate(eng.props):
            for c in p.scope:
                out.setdefault(c, []).append(i)
        return out
    return an.links_memo("alc_rules_of", build)


ALC_OPTIONS = Options(alc_max_x=Option(2, "most extra digits of the almost locked set", int))


@register("almost_locked_candidates", "Almost Locked Candidates", FAMILY, options=ALC_OPTIONS)
def almost_locked_candidates(an: Analysis, opts: dict) -> Iterator[Step]:
    """Locked candidates of a digit set, almost: in a full house A, the digits of a set S
    all have their places in A's cells shared with a house C plus a few cells X outside C,
    fewer than S has digits. Each digit of S that C holds outside A must sit in X in A, so
    C outside A holds at most |X| digits of S. A candidate (a, v) of C outside A, v in S,
    that forces more cells of C outside A into S (through what it sees and the rules on
    its cell, read once) would put more than |X| digits of S there, so a is not v ("r9c2=8
    would make r9c1 9 (arrow r9c1): row 9 would hold 8 and 9 outside box 9, where box 9
    keeps its 8 and 9 to row 9 and r8c9, room for one of them only").

    One assumption deep, like the other exclusions. With houses only, the forced cells
    are naked cells of S (the classic almost locked candidates); the step is tried only
    on puzzles with rules beyond the houses.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from techniques import StepSolver
    >>> p = Puzzle(9).use(classic()).add_sum(["r9c1", "r9c2"], 17)    # 8 + 9
    >>> st = p.initial_state()
    >>> for name in ("r7c7", "r7c8", "r7c9", "r8c7", "r8c8"):       # box 9: 8 and 9 only
    ...     st.cand[p.cell(name)] &= ~(1 << 8 | 1 << 9)                # in row 9 and r8c9
    >>> steps = StepSolver().find_all(st, "almost_locked_candidates")
    >>> steps[0].explain(2)
    'Almost Locked Candidates: box 9 holds 89 only in row 9 and r8c9: row 9 outside box 9 holds at most one of them; r9c1=8 would put 2 of them there (r9c1=8, r9c2=9) => r9c1<>8'
    >>> sorted(p.grid.name(e.cell) + "<>" + str(e.digit) for s in steps for e in s.eliminations)
    ['r9c1<>8', 'r9c1<>9', 'r9c2<>8', 'r9c2<>9']
    """
    links = an.links
    eng = rule_engine(an.puzzle)
    if eng is None and not links.cross:
        return
    pairs = _house_pairs(an)
    if not pairs:
        return
    max_x = int(ALC_OPTIONS.read(opts, "alc_max_x"))
    n = an.n
    st = an.state
    cand, cw, placed = an.cand, an.cells_with, st.placed
    cross = _cross_masks(an) if links.cross else {}
    rules_of = _rules_of(an, eng) if eng is not None else {}
    near = _near(an, eng)
    base = [m if not placed[c] else 1 << placed[c] for c, m in enumerate(st.cand)]
    zero = [0] * (n + 1)
    no_rule: dict[int, int] = {}
    conseq: dict[tuple[int, int], dict[int, int] | None] = {}

    def after(a: int, v: int) -> dict[int, int] | None:
        """The candidates left in the cells near ``a`` when a = v: the candidates a=v
        sees removed, then each rule on a run once; None when that breaks a rule."""
        got = conseq.get((a, v), 0)
        if got != 0:
            return got
        # the result reads the candidates of a and the cells near it only
        key = ("alc_after", a, v, tuple(base[c] for c in iter_cells(near.get(a, 0))))
        got = conseq[(a, v)] = an.shared_memo(key, lambda: _after(a, v))
        return got

    def _after(a: int, v: int) -> dict[int, int] | None:
        work = base[:]
        work[a] = 1 << v
        row = cross.get((a, v), zero)
        pv = links.peers_d[v][a]
        cells = near.get(a, 0)
        out: dict[int, int] | None = {}
        for c in iter_cells(cells):
            if placed[c]:
                continue
            m = work[c]
            if pv >> c & 1:
                m &= ~(1 << v)
            for d in digits_of(m):
                if row[d] >> c & 1:
                    m &= ~(1 << d)
            if not m:
                out = None
                break
            work[c] = m
        if out is not None:
            ctx = Context(work)
            try:
                for i in rules_of.get(a, ()):
                    p = eng.props[i]
                    ctx.source = p.name
                    p.propagate(ctx)
            except Contradiction:
                out = None
            else:
                out = {c: work[c] for c in iter_cells(cells)}
        return out

    done: dict[int, int] = {}

    def placed_in(h: int) -> int:
        """The digits placed in house ``h`` (a mask)."""
        m = done.get(h)
        if m is None:
            m = 0
            for c in iter_cells(an.house_mask[h] & ~an.unsolved):
                m |= 1 << placed[c]
            done[h] = m
        return m

    seen: set[tuple[int, int]] = set()
    for ha, hc, inter in pairs:
        hm_a, hm_c = an.house_mask[ha], an.house_mask[hc]
        rest = hm_c & ~hm_a & an.unsolved        # C outside A, open cells
        if not rest & (rest - 1):
            continue
        off = hm_a & ~inter                      # A outside C
        skip = placed_in(ha) | placed_in(hc)
        # per digit placed in neither house: its places in A off C
        outs: dict[int, int] = {}
        for d in range(1, n + 1):
            if skip >> d & 1 or not cw[d] & rest:
                continue
            o = cw[d] & off
            if o and o.bit_count() <= max_x:
                outs[d] = o
        if len(outs) < 2:
            continue
        xs = sorted({o for o in outs.values()}, key=int.bit_count)
        tried: set[int] = set()
        for x0 in xs:
            for x1 in [0] + xs:
                x = x0 | x1
                size = x.bit_count()
                if size > max_x or x in tried:
                    continue
                tried.add(x)
                s = 0
                for d, o in outs.items():
                    if not o & ~x:
                        s |= 1 << d
                if s.bit_count() <= size:
                    continue
                # cells of C outside A with only digits of S left
                naked = 0
                for b in iter_cells(rest):
                    if not cand[b] & ~s:
                        naked |= 1 << b
                for a in iter_cells(rest):
                    reach = near.get(a, 0) & rest
                    for v in digits_of(cand[a] & s):
                        if (a, v) in seen:
                            continue
                        # only a rule's cells and cells naked in S can be forced
                        if ((reach | naked) & ~(1 << a)).bit_count() < size:
                            continue
                        dom = after(a, v) if a in rules_of else no_rule
                        if dom is None:
                            continue             # the rule breaks: rule exclusion's step
                        row = cross.get((a, v))
                        forced = [(a, v)]
                        for b in iter_cells(rest & ~(1 << a)):
                            m = cand[b] & ~(1 << v)
                            if b in dom:
                                m &= dom[b]
                            extra = m & ~s
                            if extra and row is not None:
                                for d in digits_of(extra):
                                    if row[d] >> b & 1:
                                        m &= ~(1 << d)
                                extra = m & ~s
                            if m and not extra:
                                forced.append((b, m))
                        if len(forced) <= size:
                            continue
                        seen.add((a, v))
                        yield _alc_step(an, ha, hc, x, s, a, v, forced)


def _alc_step(an: Analysis, ha: int, hc: int, x: int, s: int, a: int, v: int,
              forced: list[tuple[int, int]]) -> Step:
    """The step of :func:`almost_locked_candidates`."""
    hname, cname = an.houses[ha].name, an.houses[hc].name
    xs = ",".join(an.name(c) for c in iter_cells(x))
    k = x.bit_count()
    room = "one of them" if k == 1 else f"{k} of them"
    what = ", ".join(f"{an.name(b)}={digit_symbol(m) if b == a else digits_text(m)}"
                     for b, m in forced)
    return Step("almost_locked_candidates", eliminations=(Candidate(a, v),),
                title="Almost Locked Candidates", namer=an.grid.namer,
                houses=(hname, cname), digits=tuple(digits_of(s)),
                pattern=tuple(Candidate(c, d) for c in iter_cells(an.house_mask[ha])
                              for d in digits_of(an.cand[c] & s)),
                note=f"{hname} holds {digits_text(s)} only in {cname} and {xs}: {cname} outside "
                     f"{hname} holds at most {room}; {an.name(a)}={digit_symbol(v)} would put "
                     f"{len(forced)} of them there ({what})")


THREE_HOUSE_OPTIONS = _max_places(4)


@register("three_house_exclusion", "Three-House Exclusion", FAMILY, options=THREE_HOUSE_OPTIONS)
def three_house_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """The two-house exclusion over three houses: a candidate of digit d that, through its
    same-digit links (houses, a knight's or king's move, ...) and equal cells (clones,
    palindromes), leaves no way to place d once in each of three full houses is false: in
    each house d must go to a place it does not see, and no two of the three places may
    see each other ("r2c5=4 would leave row 4 only r4c9, column 7 only r6c7, r8c7 and
    region 7 only r8c1, r8c3": r4c9 sees r6c7, so column 7 takes r8c7, which shares row 8
    with both places of region 7).

    Like :func:`two_house_exclusion` it runs on puzzles whose same-digit links go beyond
    the houses or with equal cells, just after it: on the coloring books of the f-puzzles
    set it takes the single-digit forcing nets they needed. A candidate that leaves one
    house no place through equal cells (which the house exclusion does not read) is taken
    too. ``max_places``: the most places of d a house may keep, once the candidate's
    links are taken out, to take part. The results of a digit are kept across states
    while its candidates stay the same (:meth:`~techniques.analysis.Analysis.digit_memo`).

    A 6x6 anti-knight grid whose first row is given:

    >>> from csp import Puzzle, Grid
    >>> from variants.chess import anti_knight
    >>> from techniques import StepSolver
    >>> p = Puzzle(Grid(6, box=(2, 3))).add_grid_houses().use(anti_knight())
    >>> st = p.givens("123456" + "." * 30).propagate()
    >>> [s.explain(2) for s in StepSolver().find_all(st, "three_house_exclusion")
    ...  if len(s.houses) == 3][0]  # doctest: +NORMALIZE_WHITESPACE
    'Three-House Exclusion: r5c6=1 would leave row 2 only r2c4,r2c5, row 6 only r6c2,r6c3
     and row 4 only r4c2,r4c3,r4c5: every choice of one place in each has two that see each
     other => r5c6<>1 (r5c6 sees r4c4 by the anti-knight rule)'

    Whichever place row 6 takes, it sees r4c2 and r4c3 (a column, a knight's move), so
    row 4 is left r4c5, which sees both places of row 2 (a knight's move, column 5).
    """
    tables = an.puzzle.derived(_SameDigitSight)
    if tables.sight is None:
        return
    max_places = int(THREE_HOUSE_OPTIONS.read(opts, "max_places") or an.n)
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    for d in range(1, an.n + 1):
        if not an.cells_with[d]:
            continue
        # the full houses that still need d (d not placed in them)
        need = tuple(h for h in an.full if not done[h] >> d & 1)
        # the steps of digit d read nothing but its candidates and those houses: kept
        # across states
        yield from an.digit_memo(("three_house_exclusion", max_places, need), d,
                                 lambda d=d, need=need: list(_three_house_steps(
                                     an, tables, d, need, max_places)))


def _three_house_steps(an: Analysis, tables: "_SameDigitSight", d: int,
                       need: tuple[int, ...], max_places: int) -> Iterator[Step]:
    """The three-house exclusions of digit ``d`` (see :func:`three_house_exclusion`) over
    the full houses ``need`` (where d is not placed yet)."""
    cells_d = an.cells_with[d]
    group = tables.group
    sight = tables.sight[d]
    houses = [(h, an.house_mask[h] & cells_d) for h in need]
    houses = [(h, pl) for h, pl in houses if pl]
    pair_fits = tables.pair_fits[d]
    if len(pair_fits) > _PAIR_FITS_MAX:
        pair_fits.clear()
    for x in iter_cells(cells_d):
        if an.expired():
            return
        own = 1 << x | group[x]
        kill = sight[x] | own
        left = []
        seen: set[int] = set()
        for h, pl in houses:
            if pl & own:
                continue            # x (or a cell equal to it) places d there
            rest = pl & ~kill
            if not rest:
                # no place left at all (through equal cells: the house exclusion reads
                # a clone's sight only beyond the houses)
                left = [(h, pl, rest)]
                break
            if rest.bit_count() > max_places or rest in seen:
                continue
            seen.add(rest)
            left.append((h, pl, rest))
        if len(left) == 1 and not left[0][2]:
            hit = left
        else:
            # three houses whose places x leaves alone fit for every x (or the state is
            # broken): the houses it takes places from come first, and a three starts
            # with one of them
            left.sort(key=lambda t: (t[1] == t[2], t[2].bit_count()))
            hit = _three_houses(left, cells_d, sight, sum(1 for t in left if t[1] != t[2]),
                                pair_fits)
        if hit is None:
            continue
        ds = digit_symbol(d)
        pattern = 0
        for _, pl, _ in hit:
            pattern |= pl
        via = _equal_note(an, group, (1 << x) | pattern)
        if len(hit) == 1:
            why = f"{an.houses[hit[0][0]].name} without a place for {ds}"
        else:
            parts = [f"{an.houses[h].name} only {_names(an, rest)}" for h, _, rest in hit]
            why = (f"{', '.join(parts[:-1])} and {parts[-1]}: every choice of one place "
                   f"in each has two that see each other")
        yield Step("three_house_exclusion", eliminations=(Candidate(x, d),),
                   title="Three-House Exclusion", namer=an.grid.namer,
                   houses=tuple(an.houses[h].name for h, _, _ in hit), digits=(d,),
                   pattern=tuple(Candidate(s, d) for s in iter_cells(pattern)),
                   note=f"{an.name(x)}={ds} would leave {why}{via}")


#: entries of one digit's :attr:`_SameDigitSight.pair_fits` before it is cleared
_PAIR_FITS_MAX = 100_000


def _pair_fits(pa: int, pb: int, sight: list[int]) -> int:
    """The cells linked to one of a and b (``sight``) for every pair of places a of ``pa``,
    b of ``pb`` that fit together (b not linked to a), ANDed: with the digit's candidates
    ``cells_d`` (which hold both place sets), ``cells_d & ~`` it are the cells that fit
    with some such pair, a and b included (no cell is linked to itself). Which pairs fit
    reads the place sets alone, so this holds for any candidates."""
    out = -1
    x = pa
    while x:
        la = x & -x
        x ^= la
        sa = sight[la.bit_length() - 1]
        y = pb & ~sa
        while y:
            lb = y & -y
            y ^= lb
            out &= sa | sight[lb.bit_length() - 1]
    return out


def _three_houses(left: list[tuple[int, int, int]], cells_d: int, sight: list[int],
                  first: int, pair_fits: dict[tuple[int, int], int]):
    """The first three of ``left`` ((house, places, places left)) whose places left offer
    no choice of one place each with no two seeing each other, or None; the three's first
    house among the first ``first`` of ``left``. ``cells_d``: the digit's candidates,
    ``sight[s]``: the cells linked to s for the digit.

    Per pair of houses, the cells that fit with some fitting pair of their places (the
    pair's places themselves included) are gathered: a third house fits with the pair
    when one of its places is among them (from :func:`_pair_fits`, kept in ``pair_fits``
    per pair of place sets, across states). A pair that does not fit at all is returned
    as it is: two houses are enough."""
    k = len(left)
    rests = [t[2] for t in left]
    for i in range(min(first, k)):
        pa = rests[i]
        for j in range(i + 1, k):
            pb = rests[j]
            linked = pair_fits.get((pa, pb))
            if linked is None:
                linked = pair_fits[(pa, pb)] = _pair_fits(pa, pb, sight)
            fits = cells_d & ~linked
            if not fits:
                return left[i], left[j]
            for m in range(j + 1, k):
                if not fits & rests[m]:
                    return left[i], left[j], left[m]
    return None


@register("digit_chain_exclusion", "Digit Chain Exclusion", FAMILY)
def digit_chain_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate of digit d whose placement, followed through a chain of hidden singles
    of d alone, leaves a full house without a place for d is false. Placing d in a cell
    removes d from every cell that sees it for d (houses, a knight's or king's move, ...)
    and puts d in the cells equal to it (clones, palindromes); a full house that still
    needs d and keeps one place takes d there, and so on ("r1c4=3 would put 3 in r9c5 (the
    only place of column 5), so in r6c6 (equal to it), then in r8c9 (box 9), then in r5c3
    (row 5), which leaves region 1 without a place for 3"). Two placements of d that see
    each other are a contradiction too.

    This is how a coloring-book solver follows one digit through the clones and a knight's
    moves: :func:`house_exclusion` and :func:`two_house_exclusion` /
    :func:`three_house_exclusion` are its one-house and few-house cases. It reads one digit
    and no other rule, so it is much narrower than a forcing chain; it runs on puzzles
    whose same-digit links go beyond the houses or with equal cells (with houses only, a
    chain of hidden singles of one digit is what X-chains and fish find). The steps of a
    digit are kept across states while its candidates stay the same. It is still trial on
    one digit (a single-digit Nishio), so it stands just before the forcing family and the
    setter report counts it with that family.

    A 6x6 anti-knight grid whose first row is given:

    >>> from csp import Puzzle, Grid
    >>> from variants.chess import anti_knight
    >>> from techniques import StepSolver
    >>> p = Puzzle(Grid(6, box=(2, 3))).add_grid_houses().use(anti_knight())
    >>> st = p.givens("123456" + "." * 30).propagate()
    >>> [s.explain(2) for s in StepSolver().find_all(st, "digit_chain_exclusion")
    ...  if s.eliminations[0] == (p.grid.cell("r3c5"), 2)]  # doctest: +NORMALIZE_WHITESPACE
    ['Digit Chain Exclusion: r3c5=2 would put 2 in r4c1 (only place of row 4), leaving
      row 5 without a place for 2 => r3c5<>2 (r3c5 sees r5c4 by the anti-knight rule; r3c5
      sees r5c6 by the anti-knight rule)']

    r3c5=2 takes 2 from row 4 but r4c1 (its box, a knight's move to r4c3, column 2
    holding r1c2=2); r4c1=2 and r3c5=2 then see all of row 5.
    """
    yield from _each_digit(an, "digit_chain_exclusion", _digit_chain_steps)


def _each_digit(an: Analysis, name: str,
                find: Callable[[Analysis, "_SameDigitSight", int, tuple[int, ...]],
                               Iterator[Step]]) -> Iterator[Step]:
    """The steps ``find(an, tables, d, need)`` gives for each digit d with candidates, over
    the full houses ``need`` where d is not placed yet, kept per digit across states
    (``digit_memo``); nothing on a puzzle without same-digit links beyond the houses or
    equal cells."""
    tables = an.puzzle.derived(_SameDigitSight)
    if tables.sight is None:
        return
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    for d in range(1, an.n + 1):
        if not an.cells_with[d]:
            continue
        need = tuple(h for h in an.full if not done[h] >> d & 1)
        yield from an.digit_memo((name, need), d,
                                 lambda d=d, need=need: list(find(an, tables, d, need)))
        if an.timed_out:
            return


def _digit_chain_steps(an: Analysis, tables: "_SameDigitSight", d: int,
                       need: tuple[int, ...]) -> Iterator[Step]:
    """The digit chain exclusions of digit ``d`` (see :func:`digit_chain_exclusion`) over
    the full houses ``need`` (where d is not placed yet)."""
    cells_d = an.cells_with[d]
    group = tables.group
    sight = tables.sight[d]
    hm = an.house_mask
    places = [(h, hm[h] & cells_d) for h in need]
    for x in iter_cells(cells_d):
        if an.expired():
            return
        found = _digit_chain(x, group, sight, places, cells_d)
        if found is None:
            continue
        chain, end = found
        ds = digit_symbol(d)
        parts = []
        pattern = 1 << x
        for s, h in chain:
            eq = "".join(f"={an.name(y)}" for y in iter_cells(group[s]))
            parts.append(f"{an.name(s)}{eq} (only place of {an.houses[h].name})")
            pattern |= 1 << s | group[s]
        if end[0] == "house":
            h = end[1]
            last = f"{an.houses[h].name} without a place for {ds}"
            pattern |= hm[h] & cells_d
            names = [an.houses[s_h].name for _, s_h in chain] + [an.houses[h].name]
        else:
            a, b = end[1], end[2]
            last = f"{ds} in {an.name(a)} and {an.name(b)}, which see each other"
            names = [an.houses[s_h].name for _, s_h in chain]
        own = "".join(f"={an.name(y)}" for y in iter_cells(group[x]))
        if parts:
            why = f"put {ds} in " + ", then ".join(parts) + f", leaving {last}"
        else:
            why = f"leave {last}"
        yield Step("digit_chain_exclusion", eliminations=(Candidate(x, d),),
                   title="Digit Chain Exclusion", namer=an.grid.namer,
                   houses=tuple(dict.fromkeys(names)), digits=(d,),
                   pattern=tuple(Candidate(s, d) for s in iter_cells(pattern)),
                   note=f"{an.name(x)}{own}={ds} would {why}")


def _digit_chain(x: int, group: list[int], sight: list[int],
                 places: list[tuple[int, int]], cells_d: int):
    """Place the digit in ``x`` and follow the hidden singles of the digit alone
    (:func:`_follow`). Returns None when no contradiction comes, else (the singles that
    matter in order as (cell, house), the end): the end is ("house", h) for a house left
    without a place, or ("sees", a, b) for two placements that see each other."""
    f = _follow(x, group, sight, places, cells_d)
    if f is None or f.end is None:
        return None
    return [f.chain[i - 1] for i in _closure(f.deps, f.end_deps) if i > 0], f.end


class _Chain:
    """What placing the digit in one cell leads to, through hidden singles of that digit:
    ``chain`` the singles in order ((cell, house)), ``deps[i]`` the placements single i
    needs (0: the first cell), ``killer[c]`` the placement that took the digit from cell
    c, ``end`` / ``end_deps`` the contradiction (None when none came) and what it needs,
    ``alive`` the cells that keep the digit, ``placed`` the cells that hold it."""

    __slots__ = ("chain", "deps", "killer", "end", "end_deps", "alive", "placed")


def _closure(deps: list[tuple[int, ...]], start) -> list[int]:
    """The placements ``start`` needs, with theirs, sorted (0: the first cell)."""
    keep: set[int] = set()
    todo = list(start)
    while todo:
        i = todo.pop()
        if i in keep:
            continue
        keep.add(i)
        todo.extend(deps[i])
    return sorted(keep)


def _follow(x: int, group: list[int], sight: list[int],
            places: list[tuple[int, int]], cells_d: int) -> "_Chain | None":
    """Place the digit in ``x`` and follow the hidden singles of the digit alone:
    ``sight[s]``, the cells that lose the digit when s holds it (equal cells included),
    ``group[s]`` the cells equal to s, ``places`` (house, its places of the digit) for the
    full houses that still need it. None when x's equal cells see each other (another
    technique's step)."""
    killer: dict[int, int] = {}        # cell -> index of the placement that took d from it
    chain: list[tuple[int, int]] = []  # placements after x: (cell, house)
    deps: list[tuple[int, ...]] = [()]  # per placement (0 = x): the placements it needs
    placed = 0
    alive = cells_d

    def place(s: int, idx: int):
        nonlocal placed, alive
        own = 1 << s | group[s]
        clash = sight[s] & placed
        if clash:
            b = (clash & -clash).bit_length() - 1
            return b
        placed |= own
        kill = sight[s] & alive & ~placed
        for c in iter_cells(kill):
            killer[c] = idx
        alive &= ~kill & ~own
        return None

    def needs(h_places: int, keep: int) -> tuple[int, ...]:
        return tuple(sorted({killer[c] for c in iter_cells(h_places & ~keep)
                             if c in killer}))

    if sight[x] & (1 << x | group[x]):
        return None                    # x's equal cells see each other: another technique
    place(x, 0)
    end = None
    end_deps: tuple[int, ...] = ()
    progress = True
    while progress and end is None:
        progress = False
        for h, pl in places:
            if pl & placed:
                continue
            rest = pl & alive
            if not rest:
                end = ("house", h)
                end_deps = needs(pl, 0)
                break
            if rest & (rest - 1):
                continue
            s = rest.bit_length() - 1
            idx = len(chain) + 1
            chain.append((s, h))
            deps.append(needs(pl, rest))
            b = place(s, idx)
            if b is not None:
                # the placement sees an earlier one (b, or a cell equal to it)
                owner = 0
                for j, (t, _) in enumerate(chain[:-1], start=1):
                    if (1 << t | group[t]) >> b & 1:
                        owner = j
                end = ("sees", s, b)
                end_deps = (idx, owner)
                break
            progress = True
    out = _Chain()
    out.chain, out.deps, out.killer = chain, deps, killer
    out.end, out.end_deps, out.alive, out.placed = end, end_deps, alive, placed
    return out


@register("digit_chain_verity", "Digit Chain Verity", FAMILY)
def digit_chain_verity(an: Analysis, opts: dict) -> Iterator[Step]:
    """The verity form of :func:`digit_chain_exclusion`: digit d goes in one of its places
    in a full house; each place, followed through the hidden singles of d alone (through
    its same-digit links and equal cells), takes d from a cell: that cell is not d,
    whichever place the house takes ("6 goes in row 1 at r1c1, r1c5 or r1c7: r1c1 puts 6
    in r7c4, r1c5 sees r5c5 and r1c7 puts 6 in r3c5, all of which see r5c5 =>
    r5c5<>6"). A house of two places is a strong link, as in an X-chain; with more places
    it is the single-digit net a coloring-book solver draws over a digit's clones and
    knight's moves. Like the exclusion it reads one digit and no other rule, and runs on
    puzzles whose same-digit links go beyond the houses or with equal cells.

    >>> from csp import Puzzle, Grid
    >>> from variants.chess import anti_knight
    >>> from techniques import StepSolver
    >>> p = Puzzle(Grid(6, box=(2, 3))).add_grid_houses().use(anti_knight())
    >>> st = p.givens("123456" + "." * 30).propagate()    # row 1 given
    >>> [s.explain(2) for s in StepSolver().find_all(st, "digit_chain_verity")
    ...  if s.houses == ("row 3",)][0]  # doctest: +NORMALIZE_WHITESPACE
    'Digit Chain Verity: 1 goes in row 3 at r3c3,r3c4,r3c5,r3c6; following the hidden
     singles of 1 from each, r5c6 loses 1 (r3c3 puts 1 in r6c2, r5c5; r3c4 puts 1 in
     r2c5, r4c3, r6c6; r3c5 sees it; r3c6 sees it) => r5c6<>1, r6c5<>1 (r5c6 sees r3c5 by
     the anti-knight rule)'
    """
    yield from _each_digit(an, "digit_chain_verity", _digit_verity_steps)


def _digit_verity_steps(an: Analysis, tables: "_SameDigitSight", d: int,
                        need: tuple[int, ...]) -> Iterator[Step]:
    """The digit chain verities of digit ``d`` (see :func:`digit_chain_verity`) over the
    full houses ``need`` (where d is not placed yet)."""
    cells_d = an.cells_with[d]
    group = tables.group
    sight = tables.sight[d]
    hm = an.house_mask
    places = [(h, hm[h] & cells_d) for h in need]
    follow: dict[int, _Chain | None] = {}
    taken = 0
    for h, pl in places:
        if pl.bit_count() < 2:
            continue
        common = cells_d
        branches = []
        for x in iter_cells(pl):
            if x not in follow:
                if an.expired():
                    return
                follow[x] = _follow(x, group, sight, places, cells_d)
            f = follow[x]
            if f is None or f.end is not None:
                break                   # a false place: the exclusion's step
            common &= cells_d & ~f.alive & ~f.placed
            branches.append((x, f))
            if not common & ~taken:
                break
        else:
            x_out = common & ~taken
            if not x_out:
                continue
            taken |= x_out
            e = (x_out & -x_out).bit_length() - 1
            ds = digit_symbol(d)
            parts = []
            pattern = pl
            for x, f in branches:
                k = f.killer[e]
                used = [f.chain[i - 1] for i in _closure(f.deps, (k,)) if i > 0]
                if used:
                    parts.append(f"{an.name(x)} puts {ds} in "
                                 + ", ".join(an.name(s) for s, _ in used))
                else:
                    parts.append(f"{an.name(x)} sees it")
                for s, _ in used:
                    pattern |= 1 << s | group[s]
            hname = an.houses[h].name
            yield Step("digit_chain_verity",
                       eliminations=tuple(Candidate(c, d) for c in iter_cells(x_out)),
                       title="Digit Chain Verity", namer=an.grid.namer,
                       houses=(hname,), digits=(d,),
                       pattern=tuple(Candidate(s, d) for s in iter_cells(pattern)),
                       note=f"{ds} goes in {hname} at {_names(an, pl)}; following the "
                            f"hidden singles of {ds} from each, {an.name(e)} loses {ds} "
                            f"({'; '.join(parts)})")
