"""Sue de Coq, the one technique of the ``misc`` family.

Sue de Coq (two-sector disjoint subsets): take two houses H1, H2 (a line and a box in the
classic case; generically any two houses of the model that intersect) and a set C of k >= 2
unsolved cells of their intersection whose candidates V number at least k + 2. Add a set L of
cells from H1 outside H2 and a set B of cells from H2 outside H1 such that the candidates of L
(VL) and of B (VB) are disjoint and the k + |L| + |B| cells hold exactly k + |L| + |B|
digits together. The cells then hold distinct digits (L and B share none), so each digit of
the pattern appears in it exactly once: digits of VL and V \\ VB are confined to H1's part,
digits of VB and V \\ VL to H2's part. They are removed from the rest of H1 and H2.

Options: ``max_cells`` (largest L or B set, default 4), ``max_intersection`` (largest C,
default 3).
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from csp.bits import digits_of
from csp.kernel import active
from csp.step import Candidate, Step, digits_text

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

try:
    from . import _als_kernel     # (its sdc_pair: the search of _sdc_pair, in C)
except ImportError:  # not built (no C compiler): the pure-Python path
    _als_kernel = None


def _subsets(cells: list[int], masks: list[int], max_k: int) -> list[tuple[int, int, int]]:
    """All non-empty subsets up to ``max_k`` cells as (cell bitset, size, candidate mask)."""
    out = []
    for k in range(1, min(max_k, len(cells)) + 1):
        for combo in combinations(range(len(cells)), k):
            cb = 0
            m = 0
            for i in combo:
                cb |= 1 << cells[i]
                m |= masks[i]
            out.append((cb, k, m))
    return out


def _names(an: Analysis, cells: int) -> str:
    return ",".join(an.name(c) for c in iter_cells(cells))


def _sdc_pairs(an: Analysis) -> list[tuple[int, int, int, int, int, tuple[int, ...]]]:
    """Pairs of houses that can hold a Sue de Coq: ``(h1, h2, intersection, rest of h1,
    rest of h2, cells of both)``, the intersection with 2+ cells and both rests non-empty
    (static, kept per puzzle)."""
    def build():
        hm = an.house_mask
        out = []
        for h1 in range(len(hm)):
            for h2 in range(h1 + 1, len(hm)):
                inter = hm[h1] & hm[h2]
                r1, r2 = hm[h1] & ~hm[h2], hm[h2] & ~hm[h1]
                if inter.bit_count() >= 2 and r1 and r2:
                    out.append((h1, h2, inter, r1, r2, tuple(iter_cells(hm[h1] | hm[h2]))))
        return out
    return an.links_memo("sdc_pairs", build)


SDC_OPTIONS = Options(
    max_cells=Option(4, "most cells of the pattern outside the intersection", int),
    max_intersection=Option(3, "most cells of the intersection", int))


@register("sue_de_coq", "Sue de Coq", "misc", code="1101",
          options=SDC_OPTIONS)
def sue_de_coq(an: Analysis, opts: dict) -> Iterator[Step]:
    """Sue de Coq over every pair of intersecting houses (see the module docstring).

    A pair's steps depend only on the candidates of its two houses, so they are kept per
    puzzle keyed on those candidates: after a step only the pairs it touched are searched
    again."""
    max_cells = int(SDC_OPTIONS.read(opts, "max_cells"))
    max_inter = int(SDC_OPTIONS.read(opts, "max_intersection"))
    unsolved = an.unsolved
    seen: set = set()
    cache = an._shared          # (an.shared_memo's cache: a hit looked up inline)
    house_key = an.house_key
    for h1, h2, inter, r1, r2, ucells in _sdc_pairs(an):
        if an.expired():
            return
        inter &= unsolved
        if inter.bit_count() < 2 or not r1 & unsolved or not r2 & unsolved:
            continue
        # the candidates of the two houses' cells (those of ``ucells``, the intersection
        # twice), from the analysis' house keys
        key = ("sdc", max_cells, max_inter, h1, h2, house_key(h1), house_key(h2))
        found = cache.get(key)
        if found is None:
            found = an.shared_memo(key, lambda: _sdc_pair(an, h1, h2, inter, r1 & unsolved,
                                                          r2 & unsolved, max_cells, max_inter))
        for key, step in found:
            if key not in seen:
                seen.add(key)
                yield step


def _kernel(an: Analysis):
    """The compiled kernel for this grid (``techniques._als_kernel``), or None: not built,
    switched off (``SUDOKU_CSP_PURE=1``), or more than 128 cells or 30 digits."""
    kernel = active(_als_kernel)
    return kernel if kernel is not None and an.size <= 128 and an.n <= 30 else None


def _sdc_pair(an: Analysis, h1: int, h2: int, inter: int, rest1: int, rest2: int,
              max_cells: int, max_inter: int) -> list[tuple[tuple, Step]]:
    """The Sue de Coq steps of one pair of houses, in search order, with their keys
    (eliminations, pattern cells) for the de-duplication across pairs."""
    cand = an.cand
    out: list[tuple[tuple, Step]] = []
    icells = list(iter_cells(inter))
    c1 = list(iter_cells(rest1))
    c2 = list(iter_cells(rest2))
    kernel = _kernel(an)
    if kernel is not None:
        # the same patterns in the same order (tests/techniques/test_enum_kernel.py); None:
        # a side too large for it
        found = kernel.sdc_pair(icells, [cand[c] for c in icells], c1, [cand[c] for c in c1],
                                c2, [cand[c] for c in c2], max_cells, max_inter)
        if found is not None:
            for cset, v, lb, vl, bb, vb in found:
                got = _sdc_step(an, h1, h2, cset, v, lb, vl, bb, vb)
                if got is not None:
                    out.append(got)
            return out
    subs1 = None
    subs2 = None
    for k in range(2, min(max_inter, len(icells)) + 1):
        for combo in combinations(icells, k):
            if an.expired():
                return out      # incomplete: not kept (shared_memo)
            cset = 0
            v = 0
            for c in combo:
                cset |= 1 << c
                v |= cand[c]
            extra = v.bit_count() - k
            if extra < 2:
                continue
            if subs1 is None:
                subs1 = _subsets(c1, [cand[c] for c in c1], max_cells)
                subs2 = _subsets(c2, [cand[c] for c in c2], max_cells)
            # gain of a side set: its cells minus the digits it adds beyond V
            side1 = []
            for cb, n, m in subs1:
                if not m & v:
                    continue
                g = n - (m & ~v).bit_count()
                if 1 <= g < extra:
                    side1.append((cb, g, m))
            if not side1:
                continue
            side2: dict[int, list[tuple[int, int]]] = {}
            for cb, n, m in subs2:
                if not m & v:
                    continue
                g = n - (m & ~v).bit_count()
                if 1 <= g < extra:
                    side2.setdefault(g, []).append((cb, m))
            for lb, g1, vl in side1:
                if an.tick():
                    return out
                for bb, vb in side2.get(extra - g1, ()):
                    if vl & vb:
                        continue
                    got = _sdc_step(an, h1, h2, cset, v, lb, vl, bb, vb)
                    if got is not None:
                        out.append(got)
    return out


def _sdc_step(an: Analysis, h1: int, h2: int, cset: int, v: int, lb: int, vl: int, bb: int,
              vb: int) -> tuple[tuple, Step] | None:
    cand = an.cand
    pattern_cells = cset | lb | bb
    d1 = (vl | v) & ~vb     # confined to H1's part (C and L)
    d2 = (vb | v) & ~vl     # confined to H2's part (C and B)
    out1 = an.house_mask[h1] & an.unsolved & ~pattern_cells
    out2 = an.house_mask[h2] & an.unsolved & ~pattern_cells
    elims = []
    for part, digits, outside in ((cset | lb, d1, out1), (cset | bb, d2, out2)):
        for d in range(1, an.n + 1):
            if not digits >> d & 1:
                continue
            where = part & an.cells_with[d]
            if not where:
                continue
            targets = outside & an.cells_with[d] & an.common_peers(d, where)
            for c in iter_cells(targets):
                elims.append(Candidate(c, d))
    if not elims:
        return None
    el = tuple(sorted(set(elims)))
    key = (el, pattern_cells)
    pattern = tuple(Candidate(c, d) for c in iter_cells(pattern_cells)
                    for d in digits_of(cand[c]))
    note = (f"{_names(an, cset)} {{{digits_text(v)}}}, {_names(an, lb)} {{{digits_text(vl)}}} in "
            f"{an.houses[h1].name}, {_names(an, bb)} {{{digits_text(vb)}}} in {an.houses[h2].name}")
    return key, Step("sue_de_coq", eliminations=el, pattern=pattern,
                     houses=(an.houses[h1].name, an.houses[h2].name),
                     digits=tuple(sorted({c.digit for c in el})), title="Sue de Coq",
                     note=note, namer=an.grid.namer)
