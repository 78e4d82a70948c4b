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
  r6c7-r6c8 without a consecutive pair").

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

from typing import Iterator

from csp.constraints.binary import Relation, RelationKind
from csp.events import Contradiction
from csp.links import link_tables
from csp.propagator import Context
from csp.step import Candidate, Step, digit_symbol

from .analysis import Analysis, iter_cells
from .registry import register
from .rules import _rule_engine
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


def _digits(mask: int) -> str:
    return "".join(digit_symbol(d) for d in range(1, mask.bit_length()) if mask >> d & 1)


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
                           title="Cell Exclusion", width=an.grid.namer,
                           pattern=tuple(Candidate(b, d) for d in digits),
                           digits=(v,),
                           note=f"{an.name(a)}={digit_symbol(v)} would leave {an.name(b)} "
                                f"without a digit ({an.name(b)}: {_digits(cb)})")


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
                               title="House Exclusion", width=an.grid.namer,
                               houses=(an.houses[h].name,), digits=(d,),
                               pattern=tuple(Candidate(s, d) for s in cells),
                               note=f"{an.name(a)}={digit_symbol(v)} would leave "
                                    f"{an.houses[h].name} without a {digit_symbol(d)} "
                                    f"({','.join(an.name(s) for s in cells)})")


@register("rule_exclusion", "Rule Exclusion", FAMILY)
def rule_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate whose direct consequences (the candidates it sees, removed) leave one of
    the puzzle's rules -- a dot, a line, a cage, an arrow -- with no way to be satisfied is
    false: one rule read once, no chain ("r7c7=6 would leave the white dot r6c7-r6c8 no
    consecutive pair")."""
    eng = _rule_engine(an.puzzle)
    if eng is None:
        return
    max_scope = opts.get("max_scope", 12)
    st = an.state
    base = [m if not st.placed[c] else 1 << st.placed[c] for c, m in enumerate(st.cand)]
    cand = an.cand
    found: dict[tuple[int, int], str] = {}
    for i, p in enumerate(eng.props):
        if len(p.scope) > max_scope:
            continue
        # which candidates break the rule depends on its own cells' candidates only
        key = ("rule_exclusion", i, tuple(base[c] for c in p.scope))
        for a, v in an.shared_memo(key, lambda p=p, i=i: _breakers(an, eng, i, base)):
            if cand[a] >> v & 1 and (a, v) not in found:
                found[(a, v)] = p.name
    for (a, v), name in sorted(found.items()):
        p = next(q for q in eng.props if q.name == name)
        yield Step("rule_exclusion", eliminations=(Candidate(a, v),), title="Rule Exclusion",
                   width=an.grid.namer, houses=(name,), digits=(v,),
                   pattern=tuple(Candidate(x, d) for x in p.scope for d in range(1, an.n + 1)
                                 if cand[x] >> d & 1),
                   note=f"{an.name(a)}={digit_symbol(v)} would leave {name} without a "
                        f"solution")


def _breakers(an: Analysis, eng, i: int, base: list[int]) -> tuple[tuple[int, int], ...]:
    """The candidates (a, v) whose direct consequences on rule ``i``'s cells -- the
    candidates there that (a, v) sees, removed -- leave the rule without a solution."""
    p = eng.props[i]
    out = []
    for (a, v), rem in _reach(an, eng, i):
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


@register("two_house_exclusion", "Two-House Exclusion", FAMILY,
          options={"max_places": None})
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
      other => r2c3<>1, r2c4<>1, r3c3<>1, r3c4<>1']

    r2c3 sees r1c1 and r4c4 by a knight's move and r4c3 through column 3: r1c1 is out, and
    r1c2 has no partner left in row 4.
    """
    tables = an.puzzle.derived(_SameDigitSight)
    if tables.sight is None:
        return
    n = an.n
    cw = an.cells_with
    max_places = opts.get("max_places") or n
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    full = an.full
    for d in range(1, n + 1):
        cells_d = cw[d]
        if not cells_d:
            continue
        taken = 0               # eliminated by an earlier pair of houses of this search
        sight = tables.sight[d]
        free = {s: cells_d & ~sight[s] & ~(1 << s) for s in iter_cells(cells_d)}
        houses = []
        for h in full:
            if done[h] >> d & 1:
                continue
            places = an.house_mask[h] & cells_d
            if places and places.bit_count() <= max_places:
                houses.append((h, places))
        for i, (ha, pa) in enumerate(houses):
            if an.expired():
                return
            for hb, pb in houses[i + 1:]:
                if pa & pb == pa or pa & pb == pb:
                    continue           # one house's places inside the other's: one house
                x = cells_d & ~_pair_survivors(pa, pb, free) & ~taken
                if not x:
                    continue
                taken |= x
                ds = digit_symbol(d)
                na, nb = an.houses[ha].name, an.houses[hb].name
                via = _equal_note(an, tables.group, x | pa | pb)
                yield Step("two_house_exclusion",
                           eliminations=tuple(Candidate(a, d) for a in iter_cells(x)),
                           title="Two-House Exclusion", width=an.grid.namer,
                           houses=(na, nb), digits=(d,),
                           pattern=tuple(Candidate(s, d) for s in iter_cells(pa | pb)),
                           note=f"{ds} goes once in {na} ({_names(an, pa)}) and once in "
                                f"{nb} ({_names(an, pb)}); {_names(an, x)}={ds} would leave "
                                f"no two of these places that see neither it nor each "
                                f"other{via}")


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



@register("three_house_exclusion", "Three-House Exclusion", FAMILY,
          options={"max_places": 4})
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
     other => r5c6<>1'

    Whichever place row 6 takes, it sees r4c2 and r4c3 (a column, a knight's move), so
    row 4 is left r4c5, which sees both places of row 2 (a knight's move, column 5).
    """
    tables = an.puzzle.derived(_SameDigitSight)
    if tables.sight is None:
        return
    max_places = int(opts.get("max_places") or an.n)
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
    near = {s: cells_d & ~sight[s] | 1 << s for s in iter_cells(cells_d)}
    houses = [(h, an.house_mask[h] & cells_d) for h in need]
    houses = [(h, pl) for h, pl in houses if pl]
    memo: dict[tuple[int, int], int] = {}
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
            hit = _three_houses(left, near, sum(1 for t in left if t[1] != t[2]), memo)
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
                   title="Three-House Exclusion", width=an.grid.namer,
                   houses=tuple(an.houses[h].name for h, _, _ in hit), digits=(d,),
                   pattern=tuple(Candidate(s, d) for s in iter_cells(pattern)),
                   note=f"{an.name(x)}={ds} would leave {why}{via}")


def _three_houses(left: list[tuple[int, int, int]], near: dict[int, int], first: int,
                  memo: dict[tuple[int, int], int]):
    """The first three of ``left`` ((house, places, places left)) whose places left offer
    no choice of one place each with no two seeing each other, or None; the three's first
    house among the first ``first`` of ``left``. ``near[s]``: s and the cells not linked to
    s for the digit.

    Per pair of houses, the cells that fit with some fitting pair of their places (the
    pair's places themselves included) are gathered once: a third house fits with the
    pair when one of its places is among them (kept in ``memo`` per pair of place sets,
    for the other candidates of the digit). A pair that does not fit at all is returned as
    it is: two houses are enough."""
    k = len(left)
    for i in range(min(first, k)):
        pa = left[i][2]
        for j in range(i + 1, k):
            pb = left[j][2]
            fits = memo.get((pa, pb))
            if fits is None:
                fits = 0
                x = pa
                while x:
                    low = x & -x
                    x ^= low
                    na = near[low.bit_length() - 1]
                    y = pb & na
                    while y:
                        lb = y & -y
                        y ^= lb
                        fits |= na & near[lb.bit_length() - 1]
                memo[(pa, pb)] = fits
            if not fits:
                return left[i], left[j]
            for m in range(j + 1, k):
                if not fits & left[m][2]:
                    return left[i], left[j], left[m]
    return None
