"""Named techniques of the lines whose parts add up to one total: region-sum lines (every
segment, the part of the line in one region) and zipper lines (every pair of cells at equal
distance from the centre; the centre digit itself on a line of odd length).

- ``region_sum_segments``: every segment of a region-sum line adds up to the same total; a
  segment inside one region holds different digits, so its possible totals are the sums of
  the digit sets that still fit it (three cells of one box: 6 at least). The common total is
  in every segment's set; each segment keeps the digits of the sets with such a total.
- ``zipper_totals``: the same reading of a zipper line, its pairs and its centre.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.lines import region_sum_line
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), region_sum_line(["r4c4", "r3c3", "r3c2", "r2c2"]))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "region_sum_segments")]
['Region-Sum Segments: region-sum line r4c4: r4c4 sums 1-9, r3c3+r3c2+r2c2 sums 6-24 (all different), common 6-9 => r2c2<>789, r3c2<>789, r3c3<>789, r4c4<>12345']
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Iterator, Sequence

from csp.bits import digits_of, iter_bits
from csp.matching import perfect_matching
from csp.step import Candidate, Step
from techniques.analysis import Analysis
from techniques.registry import Option, Options, register

from .line_tables import FAMILY, Line, LineTables, _elims, _names, _pattern, _value, line_tables


#: search nodes of one region-sum line filled as a whole (from the first version; bounds
#: one line's search, not measured)
LINE_FILL_NODES = 50_000


#: search nodes of one region-sum segment's totals (from the first version; bounds one
#: segment's search, not measured)
SEGMENT_SUM_NODES = 50_000


def _sum_ranges(mask: int) -> str:
    """Totals of a mask as ranges: ``6-9,11``.

    >>> _sum_ranges(0b101111000000)
    '6-9,11'
    """
    out = []
    ts = list(iter_bits(mask))
    i = 0
    while i < len(ts):
        j = i
        while j + 1 < len(ts) and ts[j + 1] == ts[j] + 1:
            j += 1
        out.append(str(ts[i]) if i == j else f"{ts[i]}-{ts[j]}")
        i = j + 1
    return ",".join(out)


def _all_different(an: Analysis, cells: Sequence[int]) -> bool:
    hp = an.links.house_peers
    return all(hp[a] >> b & 1 for a, b in combinations(cells, 2))


# -- region-sum lines ----------------------------------------------------------------------
def segment_sums(doms: Sequence[int], distinct: bool, differ: Sequence[Sequence[int]] = (),
                 limit: int = SEGMENT_SUM_NODES, required: int = 0) -> dict[int, list[int]] | None:
    """The totals a segment can take and, per total, the digits each cell can hold in a
    filling with that total. ``doms``: candidate masks; ``distinct``: all cells differ
    (else ``differ[i]`` lists the earlier positions cell i must differ from); ``required``:
    digits every filling holds (used with ``distinct``). None when the search would exceed
    ``limit`` fillings (or, with ``distinct``, digit sets to try).

    >>> sorted(segment_sums([0b1110, 0b1110], True))
    [3, 4, 5]
    >>> segment_sums([0b1110, 0b1110], True)[4]
    [10, 10]
    """
    k = len(doms)
    out: dict[int, list[int]] = {}
    if distinct:
        union = 0
        for m in doms:
            union |= m
        digits = digits_of(union)
        if len(digits) < k:
            return out
        if comb(len(digits), k) > limit:
            return None         # (a long segment on a big grid: millions of digit sets)
        for combo in combinations(digits, k):
            cm = 0
            for d in combo:
                cm |= 1 << d
            if cm & required != required:
                continue
            sub = [m & cm for m in doms]
            if 0 in sub or not perfect_matching(sub):
                continue
            sup = out.setdefault(sum(combo), [0] * k)
            for i, m in enumerate(sub):
                for d in digits_of(m & ~sup[i]):
                    bit = 1 << d
                    rest = [x & ~bit for j, x in enumerate(sub) if j != i]
                    if perfect_matching(rest):
                        sup[i] |= bit
        return out
    prod = 1
    for m in doms:
        prod *= m.bit_count()
    if prod > limit:
        return None
    vals = [0] * k
    lists = [digits_of(m) for m in doms]

    def rec(i: int, s: int) -> None:
        if i == k:
            sup = out.setdefault(s, [0] * k)
            for j in range(k):
                sup[j] |= 1 << vals[j]
            return
        for d in lists[i]:
            if any(vals[j] == d for j in differ[i]):
                continue
            vals[i] = d
            rec(i + 1, s + d)

    rec(0, 0)
    return out


def _segment_info(an: Analysis, t: LineTables, seg: tuple[int, ...]):
    """(totals -> supports, all different, digits a house forces into the segment and why)."""
    doms = tuple(_value(an, c) for c in seg)
    distinct = _all_different(an, seg)
    forced, why = an.house_forced_digits(sum(1 << c for c in seg)) if distinct else (0, [])
    key = ("seg", seg, doms, forced)
    hit = t.memo.get(key)
    if hit is not None:
        return hit
    differ = ()
    if not distinct:
        hp = an.links.house_peers
        differ = [[j for j in range(i) if hp[seg[i]] >> seg[j] & 1] for i in range(len(seg))]
    sums = segment_sums(doms, distinct, differ, required=forced)
    return t.remember(key, (sums, distinct, why))


REGION_SUM_OPTIONS = Options(max_nodes=Option(
    LINE_FILL_NODES, "search nodes of one line filled as a whole", int))


@register("region_sum_segments", "Region-Sum Segments", FAMILY, options=REGION_SUM_OPTIONS)
def region_sum_segments(an: Analysis, opts: dict) -> Iterator[Step]:
    """The segments of a region-sum line have one common total: each segment's possible
    totals (sums of different digits that fit its cells) are intersected, and each segment
    keeps the digits of fillings with a common total (three cells of a box add up to 6 or
    more, so a one-cell segment on the same line is 6 or more)."""
    t = line_tables(an.puzzle)
    yield from _common_total_steps(an, t, t.of("region_sum"), "region_sum_segments",
                                   "Region-Sum Segments",
                                   REGION_SUM_OPTIONS.read(opts, "max_nodes"))


ZIPPER_OPTIONS = Options(max_nodes=Option(
    LINE_FILL_NODES, "search nodes of one line filled as a whole", int))


@register("zipper_totals", "Zipper Totals", FAMILY, options=ZIPPER_OPTIONS)
def zipper_totals(an: Analysis, opts: dict) -> Iterator[Step]:
    """The pairs of a zipper line (cells at equal distance from its centre) all add up to
    one total, the centre digit on a line of odd length: each pair's possible totals (two
    cells that share a house differ) are intersected with the others' and the centre's,
    and each pair keeps the digits of its fillings with a common total; when that removes
    nothing and cells of different pairs see each other, the whole line is filled once with
    those totals. The rule's own propagation reads each pair with the centre (or with the
    middle pair) alone; this reads every pair at once. A five-cell zipper inside box 1: each
    pair alone allows a centre of 3 (1+2), but the two pairs need two different splits of
    the centre's digit, neither using the centre's own digit, so the centre is 5 or more:

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from variants.lines import zipper_line
    >>> from techniques import StepSolver
    >>> p = Puzzle(9).use(classic(), zipper_line(["r1c1", "r1c2", "r1c3", "r2c3", "r2c2"]))
    >>> [s.explain(2) for s in StepSolver().find_all(p.propagate(), "zipper_totals")]
    ['Zipper Totals: zipper line r1c1: r1c1+r2c2 sums 3-15 (all different), r1c2+r2c3 sums 3-15 (all different), r1c3 sums 3-9, common 3-9; filled together (cells of different segments that see each other differ) => r1c3<>34']
    """
    t = line_tables(an.puzzle)
    yield from _common_total_steps(an, t, t.of("zipper"), "zipper_totals", "Zipper Totals",
                                   ZIPPER_OPTIONS.read(opts, "max_nodes"))


def _common_total_steps(an: Analysis, t: LineTables, lines: list[Line], technique: str,
                        title: str, max_nodes: int) -> Iterator[Step]:
    """The steps of lines whose parts (``Line.data``: a region-sum line's segments, a
    zipper's pairs and centre) all add up to one total: each part's possible totals are
    intersected, each part keeps the digits of its fillings with a common total; with
    nothing from that and parts whose cells see each other, the line filled as a whole."""
    w = an.grid.namer
    for ln in lines:
        segs = ln.data
        if not any(an.cand[c] for c in ln.cells):
            continue
        infos = [_segment_info(an, t, s) for s in segs]
        if any(sums is None for sums, _, _ in infos):
            continue
        masks = []
        for sums, _, _ in infos:
            m = 0
            for total in sums:
                m |= 1 << total
            masks.append(m)
        common = -1
        for m in masks:
            common &= m
        if not common:
            continue        # no common total: a contradiction, left to the solver's checks
        elims: list[Candidate] = []
        for seg, (sums, _, _) in zip(segs, infos):
            keep = [0] * len(seg)
            for total, sup in sums.items():
                if common >> total & 1:
                    keep = [a | b for a, b in zip(keep, sup)]
            elims += _elims(an, seg, keep)
        together = ""
        crossing = t.crossing.get(ln.cells)
        if crossing is None:
            crossing = _crossing(an, t, ln)
        if not elims and crossing:
            # segments whose cells see each other: fill the line as a whole
            key = ("line fill", ln.kind, ln.cells, tuple(_value(an, c) for c in ln.cells),
                   common)
            sup = t.memo.get(key)
            if sup is None:
                sup = t.remember(key, _line_fill(an, ln, common, max_nodes))
            if sup and all(sup.get(c) for c in ln.cells):
                cells = list(dict.fromkeys(ln.cells))
                elims = _elims(an, cells, [sup[c] for c in cells])
                together = ("; filled together (cells of different segments that see each "
                            "other differ)")
        if not elims:
            continue
        parts = []
        for seg, m, (_, distinct, why) in zip(segs, masks, infos):
            parts.append(f"{_names(an, seg, '+')} sums {_sum_ranges(m)}"
                         + (" (all different)" if distinct and len(seg) > 1 else "")
                         + (f" (holding {'; '.join(why)})" if why else ""))
        yield Step(technique, eliminations=tuple(sorted(elims)),
                   title=title, namer=w, houses=(ln.name,),
                   pattern=_pattern(an, ln.cells),
                   note=f"{ln.name}: {', '.join(parts)}, common {_sum_ranges(common)}{together}")


def _crossing(an: Analysis, t: LineTables, ln: Line) -> bool:
    """Do cells of different segments of the line see each other (kept per line)?"""
    hp = an.links.house_peers
    segs = ln.data
    out = any(hp[a] >> b & 1 for i, s1 in enumerate(segs) for s2 in segs[i + 1:]
              for a in s1 for b in s2)
    # a line through one cell twice is left to the segments alone
    out = out and len(set(ln.cells)) == len(ln.cells)
    t.crossing[ln.cells] = out
    return out


def _line_fill(an: Analysis, ln: Line, common: int, max_nodes: int) -> dict[int, int] | None:
    """Per cell, the digits of the fillings of the whole region-sum line: every segment adds
    up to one total of ``common``, cells that see each other (any two cells of the line
    sharing a house) differ. None when the search passes ``max_nodes``."""
    cells = list(dict.fromkeys(ln.cells))
    pos = {c: i for i, c in enumerate(cells)}
    segs = [[pos[c] for c in dict.fromkeys(s)] for s in ln.data]
    hp = an.links.house_peers
    doms = [_value(an, c) for c in cells]
    differ = [[j for j in range(len(cells)) if j != i and hp[cells[i]] >> cells[j] & 1]
              for i in range(len(cells))]
    order = [i for s in segs for i in s]
    seg_end = {}
    k = 0
    for s in segs:
        k += len(s)
        seg_end[k - 1] = s
    sup = [0] * len(cells)
    vals = [0] * len(cells)
    nodes = 0

    class _Budget(Exception):
        pass

    def rec(j: int, total: int, acc: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise _Budget
        if j == len(order):
            for i in range(len(cells)):
                sup[i] |= 1 << vals[i]
            return
        i = order[j]
        for d in digits_of(doms[i]):
            if any(vals[x] == d for x in differ[i]):
                continue
            vals[i] = d
            a = acc + d
            if j in seg_end:
                if total == 0:
                    if common >> a & 1:
                        rec(j + 1, a, 0)
                elif a == total:
                    rec(j + 1, total, 0)
            elif (total == 0 and a < common.bit_length()) or a < total:
                rec(j + 1, total, a)
            vals[i] = 0

    try:
        rec(0, 0, 0)
    except _Budget:
        return None
    return {c: sup[i] for i, c in enumerate(cells)}
