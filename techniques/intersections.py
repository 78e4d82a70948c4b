"""Intersections: locked candidates (pointing / claiming), locked pair and locked triple.

Generic over the houses of the model: a *full* house ``A`` (every digit appears once) whose
candidates for a digit all lie where ``A`` meets another house ``B`` puts the digit in that
intersection, so it leaves every cell that sees all those candidates (in classic sudoku: the
rest of ``B``). HoDoKu's names: *pointing* when ``A`` is a box or region, *claiming* when ``A``
is a row or column (or any other house).

>>> from variants.classic import classic_puzzle
>>> from techniques.analysis import Analysis
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> an = Analysis(p.pencilmarks())
>>> steps = list(locked_candidates_pointing(an, {}))
>>> steps[0].explain(2).startswith("Locked Candidates Type 1 (Pointing)")
True
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from csp.bits import digits_of
from csp.links import LinkTables
from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

#: house kinds whose locked candidates are called "pointing" (the others are "claiming")
POINTING_KINDS = ("box", "region", "jigsaw")


LOCKED_OPTIONS = Options(links=Option(
    True, "cells that see each other through the rules' links count as a house", bool))


def _locked_candidates(an: Analysis, pointing: bool, name: str, title: str,
                       opts: dict) -> Iterator[Step]:
    use_links = LOCKED_OPTIONS.read(opts, "links")
    # a digit's steps read only its candidate cells: kept per digit across states, then
    # put back in the search order (house by house, digits ascending)
    found: list[tuple[int, int, Step]] = []
    for d in range(1, an.n + 1):
        found += an.digit_memo(("locked_candidates", pointing, name, use_links), d,
                               lambda d=d: _locked_digit(an, pointing, name, title,
                                                         use_links, d))
    if len(found) > 1:
        found.sort(key=lambda x: x[:2])
    for _, _, step in found:
        yield step


def _locked_digit(an: Analysis, pointing: bool, name: str, title: str, use_links: bool,
                  d: int) -> list[tuple[int, int, Step]]:
    out = []
    houses = an.houses
    cwd = an.cells_with[d]
    for ai, a, amask in an.links_memo(("locked_houses", pointing), lambda: [
            (ai, a, an.house_mask[a]) for ai, a in enumerate(an.full)
            if (houses[a].kind in POINTING_KINDS) == pointing]):
        pos = amask & cwd
        if not pos or not pos & (pos - 1):
            continue            # none or a hidden single
        if use_links:
            elim = an.common_peers(d, pos) & cwd & ~pos
        else:
            elim = 0
            for b, bm in enumerate(an.house_mask):
                if b != a and pos & bm == pos:
                    elim |= bm
            elim &= cwd & ~amask
        if not elim:
            continue
        others = tuple(houses[b].name for b, bm in enumerate(an.house_mask)
                       if b != a and pos & bm == pos)
        w = an.grid.namer
        out.append((ai, d, Step(
            name, eliminations=tuple(Candidate(c, d) for c in iter_cells(elim)),
            pattern=tuple(Candidate(c, d) for c in iter_cells(pos)), digits=(d,),
            houses=(houses[a].name,) + others, title=title,
            note=f"{d} in {houses[a].name}" + (f" => {', '.join(others)}" if others else ""),
            namer=w)))
    return out


@register("locked_candidates_pointing", "Locked Candidates Type 1 (Pointing)", "intersections",
          code="0100", options=LOCKED_OPTIONS)
def locked_candidates_pointing(an: Analysis, opts: dict) -> Iterator[Step]:
    """A box's (region's) candidates for a digit all lie in one line (or all see a set of
    cells): the digit leaves the rest of that line. Option ``links``: eliminate from every
    cell weakly linked to all the candidates (default), else only from shared houses."""
    return _locked_candidates(an, True, "locked_candidates_pointing",
                              "Locked Candidates Type 1 (Pointing)", opts)


@register("locked_candidates_claiming", "Locked Candidates Type 2 (Claiming)", "intersections",
          code="0101", options=LOCKED_OPTIONS)
def locked_candidates_claiming(an: Analysis, opts: dict) -> Iterator[Step]:
    """A line's candidates for a digit all lie in one box: the digit leaves the rest of the
    box (generic: any full non-box house, eliminations from cells seeing all candidates)."""
    return _locked_candidates(an, False, "locked_candidates_claiming",
                              "Locked Candidates Type 2 (Claiming)", opts)


def _house_intersections(links: LinkTables) -> list[int]:
    """Cell bitsets where two houses meet in two or more cells."""
    hm = links.house_mask
    nh = len(hm)
    return [hm[i] & hm[j] for i in range(nh) for j in range(i + 1, nh)
            if (hm[i] & hm[j]).bit_count() >= 2]


def _locked_subsets(an: Analysis, k: int, name: str, title: str) -> Iterator[Step]:
    """Naked subsets of ``k`` cells lying in the intersection of two or more houses; the
    digits leave every house containing all the cells."""
    w = an.grid.namer
    houses = an.houses
    hm = an.house_mask
    seen: set[int] = set()
    nh = len(houses)
    pairs = an.links.derived(_house_intersections)
    small = an.small_cells(k)
    shared = an.links_memo("locked_subset_houses", dict)
    cw = an.cells_with
    for both in pairs:
        inter = both & small
        if inter.bit_count() < k:
            continue
        cells = list(iter_cells(inter))
        for combo in combinations(cells, k):
            m = 0
            cm = 0
            for c in combo:
                m |= an.cand[c]
                cm |= 1 << c
            if m.bit_count() != k or cm in seen:
                continue
            seen.add(cm)
            # the houses holding all the cells and the rest of their cells: per cell set,
            # kept per puzzle
            ca = shared.get(cm)
            if ca is None:
                common = tuple(b for b in range(nh) if hm[b] & cm == cm)
                area = 0
                for b in common:
                    area |= hm[b]
                ca = shared[cm] = (common, area & ~cm)
            common, area = ca
            area &= an.unsolved
            # no elimination unless some cell of the area holds a digit of m (bitsets)
            hit = 0
            for d in digits_of(m):
                hit |= cw[d]
            if not hit & area:
                continue
            elims = tuple(Candidate(c, d) for c in iter_cells(area)
                          for d in digits_of(an.cand[c] & m))
            digits = tuple(digits_of(m))
            yield Step(name, eliminations=elims,
                       pattern=tuple(Candidate(c, d) for c in combo
                                     for d in digits_of(an.cand[c])),
                       digits=digits, houses=tuple(houses[b].name for b in common),
                       title=title, namer=w)


@register("locked_pair", "Locked Pair", "intersections", code="0110")
def locked_pair(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two cells in a box and a line holding the same two digits only: the digits leave both
    houses."""
    return _locked_subsets(an, 2, "locked_pair", "Locked Pair")


@register("locked_triple", "Locked Triple", "intersections", code="0111")
def locked_triple(an: Analysis, opts: dict) -> Iterator[Step]:
    """Three cells in a box and a line holding three digits only: the digits leave both
    houses."""
    return _locked_subsets(an, 3, "locked_triple", "Locked Triple")
