"""Wings: XY-Wing, XYZ-Wing, W-Wing and the WXYZ / VWXYZ / UVWXYZ-Wing family.

"Sees" is the weak-link relation of the model (:meth:`Analysis.peers`), so anti-knight,
non-consecutive or other variant links make wings too.

The WXYZ family (design document ``xyz-wing-family``): a *pivot* cell with ``n`` candidates
and ``n - 1`` cells it sees that together hold exactly the pivot's candidates. Our test for
the pattern is the general one: the ``n`` cells hold only ``n`` digits, and every digit but
one (``z``) is *restricted* (all the pattern cells holding it see each other for it). Were
``z`` absent from the pattern, its ``n`` cells would need ``n`` different digits out of
``n - 1``; so ``z`` is in the pattern and leaves every cell that sees all its ``z``
candidates. With bivalue wing cells (option ``bivalue``, the default) this is the design
document's form (each wing cell holds ``z`` and one other pivot digit); the relaxed form lets
the wing cells hold any subset of the pivot's digits.

>>> from variants.classic import classic_puzzle
>>> from techniques.analysis import Analysis
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> next(xy_wing(Analysis(p.pencilmarks()), {})).explain(2)
'XY-Wing: 4/5 r1c1, 4/7 r2c3, 5/7 r1c9 => r1c2<>7, r2c7<>7, r2c8<>7'
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register
from .single_digit import strong_links


def _cand_tuple(an: Analysis, cells) -> tuple[Candidate, ...]:
    return tuple(Candidate(c, d) for c in cells for d in digits_of(an.cand[c]))


def _any_peers(an: Analysis, cell: int, mask: int) -> int:
    """Cells that see ``cell`` for at least one digit of ``mask``."""
    out = 0
    for d in digits_of(mask):
        out |= an.peers(cell, d)
    return out


@register("xy_wing", "XY-Wing", "wings", code="0800")
def xy_wing(an: Analysis, opts: dict) -> Iterator[Step]:
    """Pivot {x,y} sees pincers {x,z} (for x) and {y,z} (for y): z leaves every cell that
    sees both pincers' z."""
    w = an.grid.namer
    cand = an.cand
    bv = an.bivalue_cells()
    bvmask = 0
    for c in bv:
        bvmask |= 1 << c
    for piv in bv:
        pm = cand[piv]
        x, y = digits_of(pm)
        ax = [c for c in iter_cells(an.peers(piv, x) & bvmask)
              if cand[c] & pm == 1 << x]
        if not ax:
            continue
        ay = [c for c in iter_cells(an.peers(piv, y) & bvmask)
              if cand[c] & pm == 1 << y]
        for p1 in ax:
            z = cand[p1] & ~pm
            zd = z.bit_length() - 1
            for p2 in ay:
                if cand[p2] != (1 << y) | z or p2 == p1:
                    continue
                elim = (an.peers(p1, zd) & an.peers(p2, zd) & an.cells_with[zd]
                        & ~(1 << piv | 1 << p1 | 1 << p2))
                if not elim:
                    continue
                yield Step("xy_wing",
                           eliminations=tuple(Candidate(c, zd) for c in iter_cells(elim)),
                           pattern=_cand_tuple(an, (piv, p1, p2)),
                           digits=tuple(sorted((x, y, zd))), title="XY-Wing", namer=w)


@register("xyz_wing", "XYZ-Wing", "wings", code="0801")
def xyz_wing(an: Analysis, opts: dict) -> Iterator[Step]:
    """Pivot {x,y,z} sees {x,z} (for x) and {y,z} (for y): z leaves every cell that sees all
    three z."""
    w = an.grid.namer
    cand = an.cand
    # the bivalue cells as a bitset: a wing sees the pivot (for one of its digits), so only
    # the bivalue cells among the pivot's peers are tested (the same list, in cell order)
    bvmask = an.small_cells(2) & ~an.small_cells(1)
    peers_d = an.links.peers_d
    for piv in iter_cells(an.unsolved):
        pm = cand[piv]
        if pm.bit_count() != 3:
            continue
        near = 0
        for d in digits_of(pm):
            near |= peers_d[d][piv]
        wings = [c for c in iter_cells(near & bvmask) if cand[c] & pm == cand[c]]
        for zd in digits_of(pm):
            zb = 1 << zd
            others = digits_of(pm & ~zb)
            a = [c for c in wings if cand[c] == zb | 1 << others[0]
                 and an.peers(piv, others[0]) >> c & 1]
            if not a:
                continue
            b = [c for c in wings if cand[c] == zb | 1 << others[1]
                 and an.peers(piv, others[1]) >> c & 1]
            for p1 in a:
                for p2 in b:
                    elim = (an.peers(piv, zd) & an.peers(p1, zd) & an.peers(p2, zd)
                            & an.cells_with[zd])
                    if not elim:
                        continue
                    yield Step("xyz_wing",
                               eliminations=tuple(Candidate(c, zd) for c in iter_cells(elim)),
                               pattern=_cand_tuple(an, (piv, p1, p2)),
                               digits=tuple(digits_of(pm)), title="XYZ-Wing", namer=w)


def _strong_links(an: Analysis, d: int) -> list[tuple[int, int, int]]:
    """(cell a, cell b, house) for every full house where digit d has exactly two places
    (the single-digit family's shared, memoised list, reordered)."""
    return [(a, b, h) for h, a, b in strong_links(an, d)]


@register("w_wing", "W-Wing", "wings", code="0803")
def w_wing(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two bivalue cells {x,y} whose x candidates see the two ends of a strong link on x:
    one of them is y, so y leaves every cell that sees both."""
    w = an.grid.namer
    cand = an.cand
    bv = an.bivalue_cells()
    for i, p in enumerate(bv):
        pm = cand[p]
        for q in bv[i + 1:]:
            if cand[q] != pm:
                continue
            for x in digits_of(pm):
                y = digits_of(pm & ~(1 << x))[0]
                elim = an.peers(p, y) & an.peers(q, y) & an.cells_with[y]
                if not elim:
                    continue
                px, qx = an.peers(p, x), an.peers(q, x)
                for a, b, h in _strong_links(an, x):
                    if a in (p, q) or b in (p, q):
                        continue
                    for e1, e2 in ((a, b), (b, a)):
                        if px >> e1 & 1 and qx >> e2 & 1:
                            break
                    else:
                        continue
                    yield Step("w_wing",
                               eliminations=tuple(Candidate(c, y) for c in iter_cells(elim)),
                               pattern=_cand_tuple(an, (p, q)) + (Candidate(e1, x),
                                                                   Candidate(e2, x)),
                               digits=tuple(sorted((x, y))), houses=(an.houses[h].name,),
                               note=(f"{min(x, y)}/{max(x, y)} {an.name(p)},{an.name(q)} "
                                     f"strong {x} {an.name(e1)}={an.name(e2)}"),
                               title="W-Wing", namer=w)
                    break


# -- the pivot family ----------------------------------------------------------------------

def _non_restricted(an: Analysis, cells: tuple[int, ...], digits: int) -> list[int]:
    """Digits of ``digits`` whose candidates in ``cells`` do not all see each other."""
    out = []
    for d in digits_of(digits):
        holders = [c for c in cells if an.cand[c] >> d & 1]
        ok = True
        for i in range(len(holders)):
            pi = an.peers(holders[i], d)
            for j in range(i + 1, len(holders)):
                if not pi >> holders[j] & 1:
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            out.append(d)
    return out


def pivot_wings(an: Analysis, n: int, bivalue: bool = True,
                max_wing_cands: int = 14) -> Iterator[tuple[int, tuple[int, ...], int, int]]:
    """Patterns (pivot, wing cells, z, elimination bitset) of the WXYZ family of size ``n``.

    The pivot has ``n`` candidates; ``n - 1`` wing cells see the pivot, hold only pivot
    digits (two of them if ``bivalue``); exactly one pattern digit ``z`` is not restricted.
    """
    cand = an.cand
    # the cells a wing can be (the same list, fewer cells tested): bivalue wings are cells
    # with at most two candidates (the test below asks for exactly two)
    room = an.small_cells(2) if bivalue else an.unsolved
    for piv in iter_cells(an.unsolved):
        pm = cand[piv]
        if pm.bit_count() != n:
            continue
        near = _any_peers(an, piv, pm) & room
        wings = [c for c in iter_cells(near)
                 if cand[c] & pm == cand[c]
                 and (cand[c].bit_count() == 2 if bivalue else cand[c].bit_count() >= 2)
                 and any(an.peers(piv, d) >> c & 1 for d in digits_of(cand[c]))]
        if len(wings) < n - 1 or len(wings) > max_wing_cands:
            continue
        for combo in combinations(wings, n - 1):
            cells = (piv,) + combo
            if bivalue:
                # the design document's form: wing digits cover the pivot's, z in every wing
                u = 0
                common = pm
                for c in combo:
                    u |= cand[c]
                    common &= cand[c]
                if u != pm or not common:
                    continue
            free = _non_restricted(an, cells, pm)
            if len(free) != 1:
                continue
            z = free[0]
            zc = 0
            for c in cells:
                if cand[c] >> z & 1:
                    zc |= 1 << c
            elim = an.common_peers(z, zc) & an.cells_with[z] & ~zc
            if elim:
                yield piv, combo, z, elim


_FAMILY = {4: ("wxyz_wing", "WXYZ-Wing", "0802"),
           5: ("vwxyz_wing", "VWXYZ-Wing", None),
           6: ("uvwxyz_wing", "UVWXYZ-Wing", None)}


_CANDS = Option(14, "most candidates of the wing cells together", int)
WING_OPTIONS = Options(bivalue=Option(True, "wing cells are bivalue", bool),
                       max_wing_cands=_CANDS)
RELAXED_OPTIONS = Options(bivalue=Option(False, "wing cells are bivalue", bool),
                          max_wing_cands=_CANDS,
                          sizes=Option((3, 4, 5, 6), "pattern sizes, in cells", (tuple, list)))


def _family_finder(n: int, name: str, title: str):
    def finder(an: Analysis, opts: dict) -> Iterator[Step]:
        w = an.grid.namer
        bivalue = WING_OPTIONS.read(opts, "bivalue")
        max_cands = WING_OPTIONS.read(opts, "max_wing_cands")
        for piv, combo, z, elim in pivot_wings(an, n, bivalue, max_cands):
            yield Step(name, eliminations=tuple(Candidate(c, z) for c in iter_cells(elim)),
                       pattern=_cand_tuple(an, (piv,) + combo),
                       digits=tuple(digits_of(an.cand[piv])), title=title,
                       note=f"pivot {an.name(piv)}, z={z}: " + ", ".join(
                           "/".join(map(str, digits_of(an.cand[c]))) + " " + an.name(c)
                           for c in (piv,) + combo),
                       namer=w)
    finder.__doc__ = (f"Pivot with {n} candidates and {n - 1} wing cells it sees holding "
                      "only its digits, all but one digit z restricted: z leaves the cells "
                      "seeing all z of the pattern (option bivalue: wing cells bivalue).")
    return finder


for _n, (_name, _title, _code) in _FAMILY.items():
    register(_name, _title, "wings", code=_code,
             options=WING_OPTIONS)(_family_finder(_n, _name, _title))


@register("relaxed_wing", "Relaxed Pivot Wing", "wings",
          options=RELAXED_OPTIONS)
def relaxed_wing(an: Analysis, opts: dict) -> Iterator[Step]:
    """The relaxed XYZ..UVWXYZ-Wing: wing cells need not be bivalue (any subset of the pivot's
    digits, at least two)."""
    w = an.grid.namer
    bivalue = RELAXED_OPTIONS.read(opts, "bivalue")
    max_cands = RELAXED_OPTIONS.read(opts, "max_wing_cands")
    for n in RELAXED_OPTIONS.read(opts, "sizes"):
        for piv, combo, z, elim in pivot_wings(an, n, bivalue, max_cands):
            yield Step("relaxed_wing",
                       eliminations=tuple(Candidate(c, z) for c in iter_cells(elim)),
                       pattern=_cand_tuple(an, (piv,) + combo),
                       digits=tuple(digits_of(an.cand[piv])), title="Relaxed Pivot Wing",
                       namer=w)
