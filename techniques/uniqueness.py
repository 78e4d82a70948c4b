"""Uniqueness: Uniqueness Tests 1-6, Hidden Rectangle, Avoidable Rectangles 1 and 2, BUG+1.

Valid only when the puzzle has exactly one solution (registered with ``requires_unique``;
the solver uses them only when uniqueness is declared or known).

A *deadly pattern* is a rectangle of cells (two rows, two columns) holding ``a b / b a``
whose digits can be swapped without breaking a rule; a unique puzzle cannot end in one
unless a given pins it. The swap is valid when every house of the model holds none, two
(one row's or one column's pair) or all four corners and the model has no rule besides its
houses (variants with sums, links or cages get no uniqueness steps): in classic sudoku this
is the usual "two rows, two columns, two boxes".

Option ``allow_missing`` (HoDoKu's library variants: ``-1`` strict, ``-2`` relaxed): a
corner may lack one of the rectangle's digits (it was removed by sound logic, so the pattern
still cannot be completed both ways); by default the relaxed form is used.

>>> from techniques.reglib import parse_case, case_state
>>> from techniques.analysis import Analysis
>>> case = parse_case(":0600-1:23:+4+7.3..1.8+85.4...9.39.+86.+4.7+1342+8.+5.+9+2+8+5+1...+3+496+7+53+4..1+6+2871+3+9+45+5+1+3+9+42..+6+74+96+58.+1.::227 327::")
>>> [s.explain(2) for s in uniqueness_test_1(Analysis(case_state(case)), {})]
['Uniqueness Test 1: 2/3/6 r2c7, 2/3 r2c9, 2/3 r9c7, 2/3 r9c9 => r2c7<>23']
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from csp import AllDifferent, Sum
from csp.bits import digits_of
from csp.links import LinkTables
from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register


def _pure(an: Analysis) -> bool:
    """The model's rules are all-different houses (and sums over all-different cages, which
    only depend on the set of digits) and there are no other weak links: then swapping the
    digits of a rectangle keeps every rule when each house holds a row or column pair."""
    def check():
        if not an.links.uniform:
            return False
        return all(type(c) is AllDifferent or (type(c) is Sum and c.distinct)
                   for c in an.puzzle.constraints)
    return an.memo("uniq_pure", check)


def _swappable(house_masks, corners: tuple[int, int, int, int]) -> bool:
    """Corners (p, q, r, s) with p-q a row pair, p-r a column pair, s opposite p: every
    house holds 0, 2 (a row or column pair) or 4 of them."""
    p, q, r, s = corners
    rm = 1 << p | 1 << q | 1 << r | 1 << s
    ok_pairs = (1 << p | 1 << q, 1 << r | 1 << s, 1 << p | 1 << r, 1 << q | 1 << s)
    for hm in house_masks:
        x = hm & rm
        if x and x != rm and x not in ok_pairs:
            return False
    return True


_RECTS: dict[tuple, list] = {}


def _layout_rectangles(links: LinkTables) -> list[tuple[int, int, int, int]]:
    """The rectangles of a house layout whose swap keeps every house (cached per layout)."""
    g = links.grid
    key = (g.n, g.size, tuple(links.house_mask))
    out = _RECTS.get(key)
    if out is None:
        out = []
        # only the houses through a corner can break the swap
        through: list[tuple[int, ...]] = [() for _ in range(g.size)]
        for hm in links.house_mask:
            for c in iter_cells(hm):
                through[c] += (hm,)
        at = g.at
        for r1 in range(g.height):
            for r2 in range(r1 + 1, g.height):
                for c1 in range(g.width):
                    p, r = at(r1, c1), at(r2, c1)
                    if p < 0 or r < 0:
                        continue
                    pr = through[p] + through[r]
                    for c2 in range(c1 + 1, g.width):
                        rect = (p, at(r1, c2), r, at(r2, c2))
                        if rect[1] >= 0 and rect[3] >= 0 and _swappable(
                                pr + through[rect[1]] + through[rect[3]], rect):
                            out.append(rect)
        if len(_RECTS) > 64:
            _RECTS.clear()
        _RECTS[key] = out
    return out


def _by_cell(an: Analysis) -> dict[int, list[tuple[tuple[int, int, int, int], int]]]:
    """Rectangles (with their cell bitset) through each cell (cached per link tables)."""
    return an.links.derived(_rects_by_cell) if _pure(an) else {}


def _rects_by_cell(links: LinkTables) -> dict[int, list[tuple[tuple[int, int, int, int], int]]]:
    out: dict[int, list[tuple[tuple[int, int, int, int], int]]] = {}
    for rect, rm in _rects_with_masks(links):
        for c in rect:
            out.setdefault(c, []).append((rect, rm))
    return out


class UR:
    """A unique rectangle candidate: corners (p, q, r, s), digits a < b, floors (cells
    holding exactly {a, b}) and roofs."""

    __slots__ = ("corners", "a", "b", "ab", "floors", "roofs")

    def __init__(self, corners, a, b, floors, roofs):
        self.corners, self.a, self.b = corners, a, b
        self.ab = 1 << a | 1 << b
        self.floors, self.roofs = floors, roofs


def unique_rectangles(an: Analysis, allow_missing: bool = True) -> list[UR]:
    """Every rectangle of unsolved cells on two digits a, b with at least one corner holding
    exactly {a, b}; every corner holds both digits (or, with ``allow_missing``, at least one
    of them)."""
    def build():
        out = []
        seen = set()
        by_cell = _by_cell(an)
        cand = an.cand
        cw = an.cells_with
        for c in an.bivalue_cells():
            m = cand[c]
            a, b = digits_of(m)
            # the cells a corner may not be (computed once per cell, not per rectangle)
            bad = ~((cw[a] | cw[b]) if allow_missing else (cw[a] & cw[b]))
            for rect, rm in by_cell.get(c, ()):
                if rm & bad:
                    continue
                key = (rm, m)
                if key in seen:
                    continue
                seen.add(key)
                floors = tuple([x for x in rect if cand[x] == m])
                roofs = tuple([x for x in rect if cand[x] != m])
                out.append(UR(rect, a, b, floors, roofs))
        return out
    return an.memo(("uniq_urs", allow_missing), build)


def _adjacent(ur: UR, x: int, y: int) -> bool:
    """x and y are a row or column pair of the rectangle (not diagonal): the sides are
    p-q, r-s, p-r and q-s (compared cell by cell, no sets made)."""
    p, q, r, s = ur.corners
    if x == p:
        return y == q or y == r
    if x == q:
        return y == p or y == s
    if x == r:
        return y == s or y == p
    if x == s:
        return y == r or y == q
    return False


def _opposite(ur: UR, x: int) -> int:
    """The corner diagonal to corner x (p-s, q-r)."""
    p, q, r, s = ur.corners
    if x == p:
        return s
    if x == s:
        return p
    if x == q:
        return r
    if x == r:
        return q
    raise KeyError(x)


def _step(an: Analysis, name: str, title: str, ur: UR, elims, note: str = "",
          extra_cells=()) -> Step:
    cells = list(ur.corners) + [c for c in extra_cells if c not in ur.corners]
    return Step(name, eliminations=tuple(sorted(set(elims))),
                pattern=tuple(Candidate(c, d) for c in cells for d in digits_of(an.cand[c])),
                digits=(ur.a, ur.b), title=title, note=note, namer=an.grid.namer)


def _houses_with(an: Analysis, cells: int) -> list[int]:
    """The houses holding every cell of the bitset ``cells`` (kept per puzzle by
    ``cells``: the checks ask for the same corner pairs state after state)."""
    known = an.links_memo("uniq_houses_with", dict)
    hs = known.get(cells)
    if hs is None:
        hs = known[cells] = [h for h, hm in enumerate(an.house_mask) if hm & cells == cells]
    return hs


UR_OPTIONS = Options(allow_missing=Option(
    True, "rectangles may miss a candidate in a corner (HoDoKu's library variant 2)", bool))
UT3_OPTIONS = UR_OPTIONS.with_(max_size=Option(4, "largest naked subset with the roof", int))
_META = dict(family="uniqueness", requires_unique=True, options=UR_OPTIONS,
             variants={1: {"allow_missing": False}, 2: {"allow_missing": True}})


@register("uniqueness_test_1", "Uniqueness Test 1", code="0600", **_META)
def uniqueness_test_1(an: Analysis, opts: dict) -> Iterator[Step]:
    """Three corners hold exactly {a,b}: the fourth cannot be a or b."""
    for ur in unique_rectangles(an, UR_OPTIONS.read(opts, "allow_missing")):
        if len(ur.floors) == 3:
            x = ur.roofs[0]
            elims = [Candidate(x, d) for d in digits_of(an.cand[x] & ur.ab)]
            if elims:
                yield _step(an, "uniqueness_test_1", "Uniqueness Test 1", ur, elims)


def _extra_single(an: Analysis, ur: UR) -> int:
    """The single extra digit shared by all roofs (0 if none)."""
    extra = 0
    for x in ur.roofs:
        e = an.cand[x] & ~ur.ab
        if e.bit_count() != 1:
            return 0
        if extra and e != extra:
            return 0
        extra = e
    return extra.bit_length() - 1 if extra else 0


@register("uniqueness_test_2", "Uniqueness Test 2", code="0601", **_META)
def uniqueness_test_2(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two adjacent roofs hold {a,b} and the same one extra digit c: c leaves every cell
    seeing both."""
    for ur in unique_rectangles(an, UR_OPTIONS.read(opts, "allow_missing")):
        if len(ur.roofs) != 2 or not _adjacent(ur, *ur.roofs):
            continue
        c = _extra_single(an, ur)
        if not c:
            continue
        rm = 1 << ur.roofs[0] | 1 << ur.roofs[1]
        elim = an.common_peers(c, rm) & an.cells_with[c] & ~rm
        if elim:
            yield _step(an, "uniqueness_test_2", "Uniqueness Test 2", ur,
                        [Candidate(x, c) for x in iter_cells(elim)])


@register("uniqueness_test_3", "Uniqueness Test 3", code="0602",
          **{**_META, "options": UT3_OPTIONS})
def uniqueness_test_3(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two adjacent roofs: their extra digits act as one cell, which forms a naked subset
    with other cells of a house they share; the subset's digits leave that house."""
    max_size = UT3_OPTIONS.read(opts, "max_size")
    for ur in unique_rectangles(an, UT3_OPTIONS.read(opts, "allow_missing")):
        if len(ur.roofs) != 2 or not _adjacent(ur, *ur.roofs):
            continue
        x, y = ur.roofs
        extra = (an.cand[x] | an.cand[y]) & ~ur.ab
        if extra.bit_count() < 2:
            continue
        rm = 1 << x | 1 << y
        done = set()
        for h in _houses_with(an, rm):
            free = an.house_mask[h] & an.unsolved & ~rm
            cells = [c for c in iter_cells(free) if an.cand[c] & ~ur.ab and
                     (an.cand[c] | extra).bit_count() <= max_size]
            for k in range(1, max_size):
                for combo in combinations(cells, k):
                    m = extra
                    for c in combo:
                        m |= an.cand[c]
                    if m.bit_count() != k + 1:
                        continue
                    cm = 0
                    for c in combo:
                        cm |= 1 << c
                    if cm in done:
                        continue
                    done.add(cm)
                    area = 0
                    for h2 in _houses_with(an, cm | rm):
                        area |= an.house_mask[h2]
                    rest = area & an.unsolved & ~cm & ~rm
                    elims = [Candidate(c, d) for c in iter_cells(rest)
                             for d in digits_of(an.cand[c] & m)]
                    if elims:
                        yield _step(an, "uniqueness_test_3", "Uniqueness Test 3", ur, elims,
                                    extra_cells=combo)


@register("uniqueness_test_4", "Uniqueness Test 4", code="0603", **_META)
def uniqueness_test_4(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two adjacent roofs, and in a house holding both, digit a has no other place: b
    leaves both roofs."""
    for ur in unique_rectangles(an, UR_OPTIONS.read(opts, "allow_missing")):
        if len(ur.roofs) != 2 or not _adjacent(ur, *ur.roofs):
            continue
        x, y = ur.roofs
        rm = 1 << x | 1 << y
        for h in _houses_with(an, rm):
            for a, b in ((ur.a, ur.b), (ur.b, ur.a)):
                if an.pos(h, a) == rm:
                    elims = [Candidate(c, b) for c in (x, y) if an.cand[c] >> b & 1]
                    if elims:
                        yield _step(an, "uniqueness_test_4", "Uniqueness Test 4", ur, elims)


@register("uniqueness_test_5", "Uniqueness Test 5", code="0604", **_META)
def uniqueness_test_5(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two diagonal roofs or three roofs, each holding {a,b} and the same one extra digit c:
    c leaves every cell seeing all of them."""
    for ur in unique_rectangles(an, UR_OPTIONS.read(opts, "allow_missing")):
        k = len(ur.roofs)
        if k == 3 or (k == 2 and not _adjacent(ur, *ur.roofs)):
            c = _extra_single(an, ur)
            if not c:
                continue
            rm = 0
            for x in ur.roofs:
                rm |= 1 << x
            elim = an.common_peers(c, rm) & an.cells_with[c] & ~rm
            if elim:
                yield _step(an, "uniqueness_test_5", "Uniqueness Test 5", ur,
                            [Candidate(x, c) for x in iter_cells(elim)])


def _lines_of(an: Analysis, x: int, y: int) -> list[int]:
    """Houses holding both x and y."""
    return _houses_with(an, 1 << x | 1 << y)


@register("uniqueness_test_6", "Uniqueness Test 6", code="0605", **_META)
def uniqueness_test_6(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two diagonal floors; digit a has no other places in both rows (or both columns) of
    the rectangle than its corners: a leaves both roofs."""
    for ur in unique_rectangles(an, UR_OPTIONS.read(opts, "allow_missing")):
        if len(ur.roofs) != 2 or _adjacent(ur, *ur.roofs):
            continue
        p, q, r, s = ur.corners
        cm = 1 << p | 1 << q | 1 << r | 1 << s
        for a in (ur.a, ur.b):
            for (x1, y1), (x2, y2) in (((p, q), (r, s)), ((p, r), (q, s))):
                ok = True
                for x, y in ((x1, y1), (x2, y2)):
                    pair = 1 << x | 1 << y
                    hs = _lines_of(an, x, y)
                    if not any(an.pos(h, a) & ~pair == 0 and _two_corners(an, h, cm)
                               for h in hs):
                        ok = False
                        break
                if not ok:
                    continue
                elims = [Candidate(c, a) for c in ur.roofs if an.cand[c] >> a & 1]
                if elims:
                    yield _step(an, "uniqueness_test_6", "Uniqueness Test 6", ur, elims)
                    break


def _two_corners(an: Analysis, h: int, corners: int) -> bool:
    """House h holds exactly two corners of the rectangle."""
    return (an.house_mask[h] & corners).bit_count() == 2


@register("hidden_rectangle", "Hidden Rectangle", code="0606", **_META)
def hidden_rectangle(an: Analysis, opts: dict) -> Iterator[Step]:
    """A floor corner; in the row and the column of the opposite corner D, digit a has no
    places outside the rectangle: b leaves D."""
    for ur in unique_rectangles(an, UR_OPTIONS.read(opts, "allow_missing")):
        if len(ur.floors) > 2 or (len(ur.floors) == 2 and _adjacent(ur, *ur.floors)):
            continue
        p, q, r, s = ur.corners
        cm = 1 << p | 1 << q | 1 << r | 1 << s
        for f in ur.floors:
            d = _opposite(ur, f)
            others = [x for x in ur.corners if x not in (f, d)]
            for a, b in ((ur.a, ur.b), (ur.b, ur.a)):
                if not an.cand[d] >> b & 1:
                    continue
                ok = True
                for o in others:
                    pair = 1 << d | 1 << o
                    if not an.cand[o] >> a & 1 or not any(
                            an.pos(h, a) & ~pair == 0 and _two_corners(an, h, cm)
                            for h in _lines_of(an, d, o)):
                        ok = False
                        break
                if ok:
                    yield _step(an, "hidden_rectangle", "Hidden Rectangle", ur,
                                [Candidate(d, b)])


# -- avoidable rectangles: corners placed by logic (not givens) ----------------------------

def _solved_value(an: Analysis, c: int) -> int:
    """The placed digit of a non-given cell, else 0."""
    st = an.state
    if st.placed[c] and not st.given[c]:
        return st.placed[c]
    return 0


def _avoidable(an: Analysis) -> list[tuple[tuple[int, int, int, int], list[int]]]:
    """Rectangles with two or more corners placed by logic (not givens) and no given."""
    def build():
        out = []
        if not _pure(an):
            return out
        st = an.state
        placed = st.placed
        is_given = st.given
        solved = 0
        given = 0
        for c in range(an.size):
            if placed[c]:
                if is_given[c]:
                    given |= 1 << c
                else:
                    solved |= 1 << c
        # the rectangles without a given, kept per puzzle on the givens (the same order)
        for rect, rm in an.shared_memo(("uniq_no_given", given), lambda: [
                (rect, rm) for rect, rm in _rect_masks(an) if not rm & given]):
            if (rm & solved).bit_count() >= 2:
                out.append((rect, [_solved_value(an, c) for c in rect]))
        return out
    return an.memo("uniq_avoidable", build)


def _rect_masks(an: Analysis) -> list[tuple[tuple[int, int, int, int], int]]:
    """The rectangles with their cell bitsets (cached per link tables)."""
    return an.links.derived(_rects_with_masks) if _pure(an) else []


def _rects_with_masks(links: LinkTables) -> list[tuple[tuple[int, int, int, int], int]]:
    return [(r, 1 << r[0] | 1 << r[1] | 1 << r[2] | 1 << r[3])
            for r in _layout_rectangles(links)]


@register("avoidable_rectangle_1", "Avoidable Rectangle Type 1", code="0607", **_META)
def avoidable_rectangle_1(an: Analysis, opts: dict) -> Iterator[Step]:
    """Three corners placed (not given) as a/b/b around the fourth's diagonal a: the fourth
    cannot be a."""
    w = an.grid.namer
    for rect, vals in _avoidable(an):
        if sum(1 for v in vals if v) != 3:
            continue
        p, q, r, s = rect
        i = vals.index(0)
        x = rect[i]
        opp = {0: 3, 3: 0, 1: 2, 2: 1}[i]
        adj = [j for j in range(4) if j not in (i, opp)]
        a = vals[opp]
        b = vals[adj[0]]
        if vals[adj[1]] != b or a == b or not an.cand[x] >> a & 1:
            continue
        yield Step("avoidable_rectangle_1", eliminations=(Candidate(x, a),),
                   pattern=tuple(Candidate(c, v) for c, v in zip(rect, vals) if v),
                   digits=tuple(sorted((a, b))), title="Avoidable Rectangle Type 1", namer=w)


@register("avoidable_rectangle_2", "Avoidable Rectangle Type 2", code="0608", **_META)
def avoidable_rectangle_2(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two corners placed (not given) a and b; the other two hold {b,c} and {a,c} where the
    pattern needs b and a: c leaves every cell seeing both."""
    w = an.grid.namer
    cand = an.cand
    for rect, vals in _avoidable(an):
        if sum(1 for v in vals if v) != 2:
            continue
        p, q, r, s = rect
        opp = {p: s, s: p, q: r, r: q}
        placed = [c for c, v in zip(rect, vals) if v]
        free = [c for c, v in zip(rect, vals) if not v]
        val = dict(zip(rect, vals))
        if opp[placed[0]] == placed[1]:
            continue          # diagonal placed corners: not handled
        # each free corner must take its opposite corner's digit to complete the pattern
        need = {x: val[opp[x]] for x in free}
        digits = {v for v in vals if v}
        if len(digits) != 2:
            continue
        extra = 0
        ok = True
        for x in free:
            e = cand[x] & ~(1 << need[x])
            if not cand[x] >> need[x] & 1 or e.bit_count() != 1 or (extra and e != extra):
                ok = False
                break
            extra = e
        if not ok:
            continue
        c = extra.bit_length() - 1
        fm = 1 << free[0] | 1 << free[1]
        elim = an.common_peers(c, fm) & an.cells_with[c] & ~fm
        if elim:
            yield Step("avoidable_rectangle_2",
                       eliminations=tuple(Candidate(x, c) for x in iter_cells(elim)),
                       pattern=tuple(Candidate(x, v) for x, v in zip(rect, vals) if v)
                       + tuple(Candidate(x, d) for x in free for d in digits_of(cand[x])),
                       digits=tuple(sorted(digits)), title="Avoidable Rectangle Type 2",
                       namer=w)


# -- BUG+1 ------------------------------------------------------------------------------------

@register("bug_plus_1", "Bivalue Universal Grave + 1", "uniqueness", code="0610",
          requires_unique=True)
def bug_plus_1(an: Analysis, opts: dict) -> Iterator[Step]:
    """Every unsolved cell bivalue but one with three candidates, every digit twice in each
    house but one digit three times in that cell's houses: the cell takes that digit."""
    if not _pure(an) or len(an.full) != len(an.houses):
        return
    tri = -1
    for c in iter_cells(an.unsolved):
        k = an.cand[c].bit_count()
        if k == 2:
            continue
        if k != 3 or tri >= 0:
            return
        tri = c
    if tri < 0:
        return
    digit = 0
    for h in an.full:
        inside = an.house_mask[h] >> tri & 1
        for d in range(1, an.n + 1):
            k = an.pos(h, d).bit_count()
            if k in (0, 2):
                continue
            if k == 3 and inside and an.cand[tri] >> d & 1 and digit in (0, d):
                digit = d
                continue
            return
    if not digit:
        return
    for h in an.full:   # removing the digit from the cell must leave a BUG
        if an.house_mask[h] >> tri & 1 and an.pos(h, digit).bit_count() != 3:
            return
    yield Step("bug_plus_1",
               eliminations=tuple(Candidate(tri, d) for d in digits_of(an.cand[tri] & ~(1 << digit))),
               pattern=(Candidate(tri, digit),), digits=(), title="Bivalue Universal Grave + 1",
               note=f"{an.name(tri)}={digit}", namer=an.grid.namer)
