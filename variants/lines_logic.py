"""Named techniques of the line rules (German whispers, renban, region-sum, between, lockout,
entropic and modular lines), read from the puzzle's own line bundles.

- ``whisper_neighbours``: neighbours on a whisper differ by its difference or more: a cell
  keeps the digits with such a partner next to it (no 5 on a German whisper). The rule
  propagation finds the same; this step names it, before it.
- ``region_sum_segments``: every segment of a region-sum line adds up to the same total; a
  segment inside one region holds different digits, so its possible totals are the sums of
  the digit sets that still fit it (three cells of one box: 6 at least). The common total is
  in every segment's set; each segment keeps the digits of the sets with such a total.
- ``between_span``: the inner cells of a between line that share a house need different
  digits strictly between the two ends, so the ends are at least that many + 1 apart (and
  inner cells lie between the ends of a pair that still works).
- ``lockout_span``: the same for lockout lines: the inner cells that share a house need
  different digits outside the ends' range.
- ``whisper_polarity``: on a whisper of difference d with 2d >= n (German whispers: 5 on
  1-9) every cell is low (1..n-d) or high (d+1..n) and neighbours alternate, so the cells at
  even and odd positions form two classes, one low and one high. A class that cannot be low
  (or high) without leaving a house it touches unfillable (more cells than low digits ...)
  is the other one.
- ``polarity_chain``: a German whisper whose polarity is still open is given one polarity;
  the rules' own propagation carries it (thermos and arrows at its ends, other whispers,
  houses) and, if a rule fails or a house is left with more cells of one polarity than
  digits, the whisper has the other polarity. A hypothesis propagated until the rules break:
  the ladder tries it just before the forcing chains, and the setter report counts it with
  the forcing family.
- ``polarity_count``: the same hypothesis, read as a colour: the rules without the houses
  carry it to the whispers it reaches, then the houses are read once with those whispers'
  classes low or high: a house with more cells of one polarity than digits, or a count of
  a digit set (a box that keeps S out of one of its lines puts S on its band's other lines,
  which then hold S only once more each outside the box). No digit placed, no single
  followed: not counted with the forcing family.
- ``entropic_groups`` / ``modular_groups``: on an entropic (modular) line any three
  consecutive cells hold digits of three different groups (1-3/4-6/7-9; remainders mod 3),
  so the cells whose positions are equal mod 3 share one group and the three classes take
  the three groups: a little sudoku of classes and groups, checked against the houses too,
  and for lines of one kind that share a house, against that house jointly (three lines
  crossing a column must together give each group its three cells).
- ``renban_mandatory``: a digit in every run that still fits a renban is on the line: cells
  that see all of the line's cells holding it lose it.
- ``renban_house_overlap``: a digit that a house can only place on a renban is on the line:
  the runs without it go.
- ``renban_house_split``: a renban's cells in a house hold part of its run and the house's
  other cells must take the digits that part leaves, each its own cell: the parts that
  leave some digit no room go (``house_split``, for any group of different digits with
  known digit sets).

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.lines import region_sum_line
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), region_sum_line(["r4c4", "r3c3", "r3c2", "r2c2"]))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "region_sum_segments")]
['Region-Sum Segments: region-sum line r4c4: r4c4 sums 1-9, r3c3+r3c2+r2c2 sums 6-24 (all different), common 6-9 => r2c2<>789, r3c2<>789, r3c3<>789, r4c4<>12345']
"""
from __future__ import annotations

from itertools import combinations, permutations, product
from typing import Iterator, Sequence

from csp.bits import digits_of, iter_bits, iter_cells
from csp.constraints.run import _perfect_matching, fitting_runs
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import Option, Options, register

FAMILY = "lines"


# -- static tables -------------------------------------------------------------------------
#: search nodes of one region-sum line filled as a whole (from the first version; bounds
#: one line's search, not measured)
LINE_FILL_NODES = 50_000
#: search nodes of one region-sum segment's totals (from the first version; bounds one
#: segment's search, not measured)
SEGMENT_SUM_NODES = 50_000
#: entries of a line table's memo before it is cleared (bounds its memory; not measured)
MEMO_MAX = 50_000


class Line:
    """One line rule: its cells in order, a display name and rule-specific data."""

    __slots__ = ("kind", "cells", "name", "data")

    def __init__(self, kind: str, cells: Sequence[int], name: str, data=None) -> None:
        self.kind, self.cells, self.name, self.data = kind, tuple(cells), name, data


class LineTables:
    """Per puzzle: the line rules read from its bundles (``Puzzle.bundles``), with what the
    techniques need precomputed (segments, groups of inner cells sharing a house, classes)."""

    def __init__(self, puzzle) -> None:
        from . import lines as L
        g = puzzle.grid
        self.n = n = g.n
        houses = [h.cells for h in puzzle.houses()]
        self.lines: list[Line] = []
        for b, _ in puzzle.bundles:
            if not isinstance(b, (L.whispers, L.renban, L.region_sum_line, L.between_line,
                                  L.lockout, L.entropic_line, L.modular_line)):
                continue
            cells = g.cells(b.cells)
            if len(cells) < 2:
                continue
            first = g.name(cells[0])
            if isinstance(b, L.whispers):
                d = b.diff
                label = "German whispers" if d == 5 and n == 9 else f"whispers (difference {d})"
                self.lines.append(Line("whisper_pairs", cells, f"{label} {first}", d))
                if 2 * d >= n:
                    low = sum(1 << v for v in range(1, n - d + 1))
                    high = sum(1 << v for v in range(d + 1, n + 1))
                    self.lines.append(Line("whispers", cells, f"{label} {first}",
                                           (_position_classes(cells, 2), (low, high),
                                            ("low", "high"))))
            elif isinstance(b, L.renban):      # a closed loop: its cells
                self.lines.append(Line("renban", L.loop_cells(cells)[0], f"renban {first}"))
            elif isinstance(b, L.region_sum_line):
                segs = L.line_segments(g, cells)       # a closed loop read round
                if len(segs) >= 2:
                    self.lines.append(Line("region_sum", L.loop_cells(cells)[0],
                                           f"region-sum line {first}",
                                           [tuple(s) for s in segs]))
            elif isinstance(b, (L.between_line, L.lockout)):
                if len(cells) < 3:
                    continue
                inner = cells[1:-1]
                groups = _house_groups(inner, houses)
                if isinstance(b, L.lockout):
                    self.lines.append(Line("lockout", cells, f"lockout {first}",
                                           (groups, b.diff)))
                else:
                    self.lines.append(Line("between", cells, f"between line {first}",
                                           (groups, 0)))
            else:
                mode = "entropic" if isinstance(b, L.entropic_line) else "mod"
                fn = L._GroupsDiffer(n, mode)
                masks = [0, 0, 0]
                for v in range(1, n + 1):
                    masks[fn.group(v)] |= 1 << v
                if mode == "entropic":
                    names = tuple(_digit_range(m) for m in masks)
                    title = f"entropic line {first}"
                else:
                    names = tuple(f"{{{''.join(digit_symbol(v) for v in digits_of(m))}}}"
                                  for m in masks)
                    title = f"modular line {first}"
                self.lines.append(Line(mode, cells, title,
                                       (_position_classes(cells, 3), tuple(masks), names)))
        #: results of the costly searches, keyed on the candidates they read
        self.memo: dict = {}
        #: per class line: the cells of the houses it touches
        self.touched: dict[tuple[int, ...], tuple[int, ...]] = {}
        #: per region-sum line: whether cells of different segments see each other
        self.crossing: dict[tuple[int, ...], bool] = {}

    def of(self, kind: str) -> list[Line]:
        return [ln for ln in self.lines if ln.kind == kind]

    def remember(self, key, value):
        if len(self.memo) > MEMO_MAX:
            self.memo.clear()
        self.memo[key] = value
        return value


def _position_classes(cells: Sequence[int], period: int) -> tuple[tuple[int, ...], ...]:
    """The cells grouped by position mod ``period`` (fewer classes on a short line); a cell
    met twice (a line crossing itself) stays in its first class."""
    k = min(period, len(cells))
    out: list[list[int]] = [[] for _ in range(k)]
    seen: set[int] = set()
    for i, c in enumerate(cells):
        if c not in seen:
            seen.add(c)
            out[i % period].append(c)
    return tuple(tuple(x) for x in out)


def _house_groups(cells: Sequence[int], houses: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Maximal groups of ``cells`` that share a house (at least two cells), plus the cells in
    no such group alone."""
    groups: set[tuple[int, ...]] = set()
    for h in houses:
        hs = set(h)
        g = tuple(c for c in dict.fromkeys(cells) if c in hs)
        if len(g) >= 2:
            groups.add(g)
    out = [g for g in groups if not any(set(g) < set(o) for o in groups)]
    covered = {c for g in out for c in g}
    out += [(c,) for c in dict.fromkeys(cells) if c not in covered]
    return sorted(out, key=lambda g: (-len(g), g))


def line_tables(puzzle) -> LineTables:
    """The :class:`LineTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(LineTables)


# -- helpers -------------------------------------------------------------------------------
def _digit_range(mask: int) -> str:
    """``1-3`` for a run of three or more digits, else the digits: ``1-3``, ``46``.

    >>> _digit_range(0b1110), _digit_range(0b1010000)
    ('1-3', '46')
    """
    ds = digits_of(mask)
    if len(ds) >= 3 and ds[-1] - ds[0] == len(ds) - 1:
        return f"{digit_symbol(ds[0])}-{digit_symbol(ds[-1])}"
    return "".join(digit_symbol(d) for d in ds)


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


def _value(an: Analysis, c: int) -> int:
    """Candidates of ``c``, or the placed digit's bit."""
    return an.cand[c] or (1 << an.state.placed[c])


def _names(an: Analysis, cells, sep: str = ",") -> str:
    return sep.join(an.name(c) for c in cells)


def _elims(an: Analysis, cells: Sequence[int], keep: Sequence[int]) -> list[Candidate]:
    out = []
    for c, k in zip(cells, keep):
        bad = an.cand[c] & ~k
        if bad:
            out.extend(Candidate(c, d) for d in digits_of(bad))
    return out


def _pattern(an: Analysis, cells) -> tuple[Candidate, ...]:
    return tuple(Candidate(c, d) for c in cells for d in digits_of(an.cand[c]))


def _all_different(an: Analysis, cells: Sequence[int]) -> bool:
    hp = an.links.house_peers
    return all(hp[a] >> b & 1 for a, b in combinations(cells, 2))


# -- whispers --------------------------------------------------------------------------------
@register("whisper_neighbours", "Whisper Neighbours", FAMILY)
def whisper_neighbours(an: Analysis, opts: dict) -> Iterator[Step]:
    """Neighbours on a whisper line differ by the line's difference or more: a cell keeps
    the digits with such a partner among its neighbours' candidates (on a German whisper 5
    has none at all). The rule propagation finds the same; this step names it, before it."""
    t = line_tables(an.puzzle)
    w = an.grid.namer
    n = an.n
    for ln in t.of("whisper_pairs"):
        d = ln.data
        cells = ln.cells
        elims: list[Candidate] = []
        why = []
        for i, c in enumerate(cells):
            m = an.cand[c]
            if not m:
                continue
            keep = m
            nbs = []
            for j in (i - 1, i + 1):
                if 0 <= j < len(cells) and cells[j] != c:
                    nb = _value(an, cells[j])
                    ok = 0
                    for v in digits_of(m):
                        if any(abs(v - y) >= d for y in digits_of(nb)):
                            ok |= 1 << v
                    if m & ~ok:
                        nbs.append(f"{an.name(cells[j])} ({_digit_range(nb)})")
                    keep &= ok
            bad = m & ~keep
            if bad:
                elims.extend(Candidate(c, v) for v in digits_of(bad))
                why.append(f"{an.name(c)} next to {' and '.join(nbs)}")
        if elims:
            yield Step("whisper_neighbours", eliminations=tuple(elims), title="Whisper Neighbours",
                       width=w, houses=(ln.name,), pattern=_pattern(an, cells),
                       note=f"{ln.name}: neighbours differ by {d} or more; {'; '.join(why)}")


# -- region-sum lines ----------------------------------------------------------------------
def segment_sums(doms: Sequence[int], distinct: bool, differ: Sequence[Sequence[int]] = (),
                 limit: int = SEGMENT_SUM_NODES, required: int = 0) -> dict[int, list[int]] | None:
    """The totals a segment can take and, per total, the digits each cell can hold in a
    filling with that total. ``doms``: candidate masks; ``distinct``: all cells differ
    (else ``differ[i]`` lists the earlier positions cell i must differ from); ``required``:
    digits every filling holds (used with ``distinct``). None when the search would exceed
    ``limit`` fillings.

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
        for combo in combinations(digits, k):
            cm = 0
            for d in combo:
                cm |= 1 << d
            if cm & required != required:
                continue
            sub = [m & cm for m in doms]
            if 0 in sub or not _perfect_matching(sub):
                continue
            sup = out.setdefault(sum(combo), [0] * k)
            for i, m in enumerate(sub):
                for d in digits_of(m & ~sup[i]):
                    bit = 1 << d
                    rest = [x & ~bit for j, x in enumerate(sub) if j != i]
                    if _perfect_matching(rest):
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
    w = an.grid.namer
    max_nodes = REGION_SUM_OPTIONS.read(opts, "max_nodes")
    for ln in t.of("region_sum"):
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
            key = ("line fill", ln.cells, tuple(_value(an, c) for c in ln.cells), common)
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
        yield Step("region_sum_segments", eliminations=tuple(sorted(elims)),
                   title="Region-Sum Segments", width=w, houses=(ln.name,),
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


# -- between and lockout lines ---------------------------------------------------------------
def span_supports(a_dom: int, b_dom: int, groups: Sequence[Sequence[int]], n: int,
                  lockout_diff: int = 0, required: int = 0) -> tuple[int, int, int]:
    """Supported digits of the two ends and the digits the inner cells may take.

    ``groups``: candidate masks of inner cells that must all differ (one list per group).
    Between line (``lockout_diff`` 0): inner digits lie strictly between the ends; lockout
    (``lockout_diff`` d): the ends differ by d or more and inner digits lie outside their
    range. A pair of end digits works when every group can take different digits allowed
    by it and allows the ``required`` digits (digits some inner cell must hold). Returns
    (end a digits, end b digits, union of the allowed inner digits).

    >>> a, b, inner = span_supports(0b1111111110, 0b1111111110, [[0b1111111110] * 3], 9)
    >>> digits_of(a), digits_of(inner)
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), (2, 3, 4, 5, 6, 7, 8))
    >>> a, b, _ = span_supports(0b100000, 0b1111111110, [[0b1111111110] * 3], 9)
    >>> digits_of(b)      # 5 at one end: the other end is 1 or 9 (3 digits between)
    (1, 9)
    """
    full = ((1 << n) - 1) << 1
    sa = sb = inner = 0
    for x in digits_of(a_dom):
        for y in digits_of(b_dom):
            lo, hi = (x, y) if x < y else (y, x)
            if lockout_diff:
                if hi - lo < lockout_diff:
                    continue
                allowed = full & ~(((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1))
            else:
                if hi - lo < 2:
                    continue
                allowed = ((1 << hi) - 1) ^ ((1 << (lo + 1)) - 1)
            if allowed & required != required:
                continue
            for g in groups:
                sub = [m & allowed for m in g]
                if 0 in sub or (len(sub) > 1 and not _perfect_matching(sub)):
                    break
            else:
                sa |= 1 << x
                sb |= 1 << y
                inner |= allowed
    return sa, sb, inner


def _span_steps(an: Analysis, kind: str, name: str, title: str) -> Iterator[Step]:
    t = line_tables(an.puzzle)
    w = an.grid.namer
    n = an.n
    for ln in t.of(kind):
        a, b = ln.cells[0], ln.cells[-1]
        inner = ln.cells[1:-1]
        if not any(an.cand[c] for c in ln.cells):
            continue
        groups, diff = ln.data
        doms = [[_value(an, c) for c in g] for g in groups]
        forced, why = an.house_forced_digits(sum(1 << c for c in set(inner)))
        key = ("span", ln.cells, _value(an, a), _value(an, b), tuple(map(tuple, doms)), forced)
        res = t.memo.get(key)
        if res is None:
            res = t.remember(key, span_supports(_value(an, a), _value(an, b), doms, n, diff,
                                                forced))
        sa, sb, allowed = res
        if not sa or not sb:
            continue            # no pair of ends works: a contradiction
        elims = _elims(an, (a, b), (sa, sb)) + _elims(an, inner, [allowed] * len(inner))
        if not elims:
            continue
        big = [g for g in groups if len(g) > 1]
        need = "; ".join(
            f"{_names(an, g)} ({_house_name(an, g)}) need {len(g)} different digits" for g in big)
        where = "between the ends" if kind == "between" else "outside the ends' range"
        text = (f"{ln.name}: {need} {where}" if big else
                f"{ln.name}: inner digits {where}")
        if diff:
            text += f", ends {diff} or more apart"
        if forced:
            text += f" ({'; '.join(why)}: on the line)"
        text += f": {an.name(a)} in {_digit_range(sa)}, {an.name(b)} in {_digit_range(sb)}"
        yield Step(name, eliminations=tuple(sorted(set(elims))), title=title, width=w,
                   houses=(ln.name,), pattern=_pattern(an, ln.cells), note=text)


def _house_name(an: Analysis, cells: Sequence[int]) -> str:
    m = 0
    for c in cells:
        m |= 1 << c
    for h, hm in zip(an.houses, an.house_mask):
        if hm & m == m:
            return h.name
    return "all different"


@register("between_span", "Between Span", FAMILY)
def between_span(an: Analysis, opts: dict) -> Iterator[Step]:
    """Inner cells of a between line sharing a house need that many different digits
    strictly between the ends: four in a row make the ends at least 5 apart, so neither end
    can be 5 (and the inner cells keep the digits between a pair of ends that works)."""
    yield from _span_steps(an, "between", "between_span", "Between Span")


@register("lockout_span", "Lockout Span", FAMILY)
def lockout_span(an: Analysis, opts: dict) -> Iterator[Step]:
    """Inner cells of a lockout line sharing a house need that many different digits
    outside the range of the ends: the ends cannot be so far apart that too few digits are
    left outside (and the inner cells keep the digits outside a pair of ends that works)."""
    yield from _span_steps(an, "lockout", "lockout_span", "Lockout Span")


# -- line classes: whisper polarity, entropic and modular groups ----------------------------
def _house_fill_ok(an: Analysis, h: int, restricted: dict[int, int]) -> bool:
    """Can house ``h`` still take different digits with ``restricted`` cell masks?"""
    doms = [restricted.get(c, an.cand[c]) for c in iter_cells(an.house_mask[h] & an.unsolved)]
    if not doms:
        return True
    placed = 0
    for c in iter_cells(an.house_mask[h] & ~an.unsolved):
        placed |= 1 << an.state.placed[c]
    doms = [m & ~placed for m in doms]
    if 0 in doms:
        return False
    return _perfect_matching(doms)


def _class_analysis(an: Analysis, ln: Line, use_houses: bool):
    """(classes, group masks, group names, surviving assignments, rejected assignments
    with the house that rejects them); an assignment maps class i to group sigma[i]."""
    classes, masks, gnames = ln.data
    k = len(classes)
    vals = {c: _value(an, c) for c in ln.cells}
    touched = []
    if use_houses:
        m = 0
        for c in ln.cells:
            m |= 1 << c
        touched = [h for h, hm in enumerate(an.house_mask) if hm & m and hm & an.unsolved]
    alive, dead = [], []
    for sigma in permutations(range(len(masks)), k):
        ok = True
        restricted: dict[int, int] = {}
        for cl, gi in zip(classes, sigma):
            for c in cl:
                v = vals[c] & masks[gi]
                if not v:
                    ok = False
                    break
                if an.cand[c]:
                    restricted[c] = v
            if not ok:
                break
        if not ok:
            dead.append((sigma, None))
            continue
        bad = next((h for h in touched if not _house_fill_ok(an, h, restricted)), None)
        if bad is not None:
            dead.append((sigma, bad))
            continue
        alive.append(sigma)
    return classes, masks, gnames, alive, dead


def _line_classes(an: Analysis, t: LineTables, ln: Line):
    """The class analysis of one line (cached on the candidates of the houses it touches)."""
    touched = t.touched.get(ln.cells)
    if touched is None:
        m = 0
        for c in ln.cells:
            m |= 1 << c
        hm = 0
        for h in an.house_mask:
            if h & m:
                hm |= h
        touched = t.touched[ln.cells] = tuple(iter_cells(hm))
    key = ("classes", ln.cells, tuple([_value(an, c) for c in touched]))
    res = t.memo.get(key)
    if res is None:
        res = t.remember(key, _class_analysis(an, ln, True))
    return res


def _class_step(an: Analysis, ln: Line, res, alive, name: str, title: str,
                why: list[str]) -> Step | None:
    """The step keeping, on each class of ``ln``, the groups of the ``alive`` assignments."""
    classes, masks, gnames, _, _ = res
    keep_of: dict[int, int] = {}
    for cl_i, cl in enumerate(classes):
        m = 0
        for sigma in alive:
            m |= masks[sigma[cl_i]]
        for c in cl:
            keep_of[c] = m
    cells = list(ln.cells)
    elims = _elims(an, cells, [keep_of.get(c, -1) for c in cells])
    if not elims:
        return None
    parts = []
    for cl_i, cl in enumerate(classes):
        gs = sorted({sigma[cl_i] for sigma in alive})
        parts.append(f"{_names(an, cl)}: {'/'.join(gnames[g] for g in gs)}")
    note = f"{ln.name}: classes " + "; ".join(parts)
    if why:
        note += " (" + "; ".join(why[:2]) + (" ..." if len(why) > 2 else "") + ")"
    return Step(name, eliminations=tuple(sorted(elims)), title=title, width=an.grid.namer,
                houses=(ln.name,), pattern=_pattern(an, ln.cells), note=note)


#: at most this many joint assignments of the lines crossing one house are tried
_JOINT_MAX = 1000


def _class_steps(an: Analysis, kind: str, name: str, title: str) -> Iterator[Step]:
    t = line_tables(an.puzzle)
    lines = [ln for ln in t.of(kind) if any(an.cand[c] for c in ln.cells)]
    results = {}
    for ln in lines:
        res = results[ln] = _line_classes(an, t, ln)
        classes, masks, gnames, alive, dead = res
        if not alive:
            continue            # no assignment works: a contradiction
        why = [", ".join(f"{an.name(cl[0])}'s class {gnames[g]}" for cl, g in zip(classes, sigma))
               + f" leaves {an.houses[h].name} unfillable" for sigma, h in dead if h is not None]
        step = _class_step(an, ln, res, alive, name, title, why)
        if step is not None:
            yield step
    # lines of this kind that share a house: their assignments together must fill it
    if len(lines) < 2:
        return
    for h in an.full:
        hm = an.house_mask[h]
        if not hm & an.unsolved:
            continue
        here = [ln for ln in lines if results[ln][3] and any(hm >> c & 1 for c in ln.cells)]
        if len(here) < 2:
            continue
        size = 1
        for ln in here:
            size *= len(results[ln][3])
        if size > _JOINT_MAX or size == 1:
            continue
        used: list[set] = [set() for _ in here]
        for combo in product(*(results[ln][3] for ln in here)):
            restricted: dict[int, int] = {}
            ok = True
            for ln, sigma in zip(here, combo):
                classes, masks = results[ln][0], results[ln][1]
                for cl, g in zip(classes, sigma):
                    for c in cl:
                        if hm >> c & 1 and an.cand[c]:
                            restricted[c] = restricted.get(c, an.cand[c]) & masks[g]
                            if not restricted[c]:
                                ok = False
            if ok and _house_fill_ok(an, h, restricted):
                for u, sigma in zip(used, combo):
                    u.add(sigma)
        for ln, u in zip(here, used):
            alive = results[ln][3]
            if not u or len(u) == len(alive):
                continue
            others = ", ".join(o.name for o in here if o is not ln)
            step = _class_step(an, ln, results[ln], sorted(u), name, title,
                               [f"with {others} in {an.houses[h].name}: the other "
                                "assignments leave it unfillable"])
            if step is not None:
                yield step


@register("whisper_polarity", "Whisper Polarity", FAMILY)
def whisper_polarity(an: Analysis, opts: dict) -> Iterator[Step]:
    """German whispers alternate low (1-4) and high (6-9): the cells at odd and at even
    positions form two classes, one low and one high. If one class cannot be low (say five
    of its cells in one row, or a house with no room left for its low digits), it is
    high, and the other class low (any difference d with 2d >= n)."""
    yield from _class_steps(an, "whispers", "whisper_polarity", "Whisper Polarity")


def _open_assignments(an: Analysis, ln: Line, cand: Sequence[int]) -> list[tuple[int, ...]]:
    """The assignments (class i -> group sigma[i]) of a two-class line that every cell of
    each class still fits in ``cand``."""
    classes, masks, _ = ln.data
    out = []
    for sigma in permutations(range(len(masks)), len(classes)):
        if all(cand[c] & masks[g] for cl, g in zip(classes, sigma) for c in cl):
            out.append(sigma)
    return out


def _polarity_text(an: Analysis, ln: Line, sigma: tuple[int, ...]) -> str:
    classes, _, gnames = ln.data
    return ", ".join(f"{_names(an, cl)} {gnames[g]}" for cl, g in zip(classes, sigma))


def _ends_text(an: Analysis, ln: Line, sigma: tuple[int, ...]) -> str:
    """``r3c9 low``: the polarity of a line's first cell (its class's group)."""
    classes, _, gnames = ln.data
    first = ln.cells[0]
    g = next(g for cl, g in zip(classes, sigma) if first in cl)
    return f"({an.name(first)} {gnames[g]})"


@register("polarity_chain", "Polarity Chain", FAMILY)
def polarity_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """A German whisper (any difference d with 2d >= n) splits into two classes, one low and
    one high. Give a whisper whose polarity is still open one polarity (every cell of one
    class low, of the other high) and let the rules carry it: a thermo or an arrow at the
    end of the line makes the next whisper's end low or high, a house can hold only so many
    low digits, and so on around the grid (the rules' own propagation, no technique). If
    that breaks a rule, the whisper has the other polarity (the "high/low around the loop"
    argument of loop puzzles such as The Octagon).

    Sound: the hypothesis is a restriction of the candidates and the propagation only
    removes digits that no solution of the restricted state holds, so a contradiction
    refutes the hypothesis. It is trial over a group of cells (pencilmark's "WhatIf" kind of
    step), so it stands just before the forcing chains in the ladder and is counted with the
    forcing family in the setter report."""
    lines, base, opened = _open_whispers(an)
    if not lines:
        return
    engine = an.puzzle.engine(False)
    for ln in lines:
        alive = opened[ln]
        if len(alive) != 2:
            continue
        for sigma in alive:
            cand, failed = _hypothesis(ln, sigma, an.state.cand, engine)
            if failed is not None:
                reason = failed
            else:
                # a house with more cells of one polarity than digits (five high cells in a
                # row): no matching of its cells to different digits
                reason = next((f"{an.houses[h].name} cannot hold different digits"
                               for h in an.full if not _perfect_matching(
                                   [cand[c] for c in iter_cells(an.house_mask[h])])), "")
                if not reason:
                    continue
            other, elims = _other_polarity(an, ln, alive, sigma)
            if not elims:
                continue
            # the polarities the rules carried to the other open whispers before failing
            # (``cand`` holds the propagation up to the failure)
            carried = "; ".join(f"{o.name} {_ends_text(an, o, s)}"
                                for o, s in _carried(ln, lines, opened, cand)[0])
            via = f" carry it to {carried} and" if carried else ""
            note = (f"{ln.name}: if {_polarity_text(an, ln, sigma)}, the rules{via} fail "
                    f"({reason}), so {_polarity_text(an, ln, other)}")
            yield _polarity_step(an, "polarity_chain", "Polarity Chain", ln, elims, note)
            break


def _open_whispers(an: Analysis
                   ) -> tuple[list[Line], list[int], dict[Line, list[tuple[int, ...]]]]:
    """The two-class whispers with open cells, the cells' values (candidates, or a placed
    digit's bit) and each whisper's polarities that still fit them."""
    t = line_tables(an.puzzle)
    lines = [ln for ln in t.of("whispers") if len(ln.data[1]) == 2
             and any(an.cand[c] for c in ln.cells)]
    base = [_value(an, c) for c in range(len(an.cand))]
    return lines, base, {ln: _open_assignments(an, ln, base) for ln in lines}


def _hypothesis(ln: Line, sigma: tuple[int, ...], start: Sequence[int], engine
                ) -> tuple[list[int], str | None]:
    """``start`` with whisper ``ln`` given polarity ``sigma``, propagated by ``engine``:
    the candidates reached, and the contradiction's message (None when there is none)."""
    from csp.events import Contradiction
    classes, masks, _ = ln.data
    cand = list(start)
    for cl, g in zip(classes, sigma):
        for c in cl:
            cand[c] &= masks[g]
    try:
        engine.propagate(cand, None, None)
    except Contradiction as exc:
        return cand, str(exc)
    return cand, None


def _other_polarity(an: Analysis, ln: Line, alive: Sequence[tuple[int, ...]],
                    sigma: tuple[int, ...]) -> tuple[tuple[int, ...], list[Candidate]]:
    """Whisper ``ln``'s polarity other than ``sigma`` (of its two ``alive``) and the
    candidates of its cells that polarity removes."""
    classes, masks, _ = ln.data
    other = next(s for s in alive if s != sigma)
    keep = {c: masks[g] for cl, g in zip(classes, other) for c in cl}
    cells = list(ln.cells)
    return other, _elims(an, cells, [keep[c] for c in cells])


def _polarity_step(an: Analysis, name: str, title: str, ln: Line, elims: list[Candidate],
                   note: str) -> Step:
    """The step giving whisper ``ln`` its other polarity (``elims``), explained by ``note``."""
    return Step(name, eliminations=tuple(sorted(elims)), title=title, width=an.grid.namer,
                houses=(ln.name,), pattern=_pattern(an, ln.cells), note=note)


def _carried(ln: Line, lines: Sequence[Line], opened: dict, cand: Sequence[int]
             ) -> tuple[list[tuple[Line, tuple[int, ...]]], bool]:
    """The other open whispers that ``cand`` leaves one polarity, with it, and whether
    ``cand`` leaves one of them none."""
    out = []
    broken = False
    for o in lines:
        if o is ln or len(opened[o]) != 2:
            continue
        left = [s for s in opened[o] if all(
            cand[c] & o.data[1][g] for cl, g in zip(o.data[0], s) for c in cl)]
        if len(left) == 1:
            out.append((o, left[0]))
        elif not left:
            broken = True
    return out, broken


def _box_counts(an: Analysis) -> list[tuple[int, str, tuple[int, ...], str, int, str, int]]:
    """Per box V and each of its rows (columns) Z, with the other rows (columns) of its band
    (stack): ``(V mask, V name, Z's cells in V, Z name, the other lines' cells outside V,
    their names, how many times each digit stands there once V holds it)``, for the grids
    whose boxes, rows and columns are all full houses. Static."""
    def build():
        g = an.grid
        if not g.box_shape:
            return []
        bh, bw = g.box_shape
        n = an.n
        by_mask = {an.house_mask[h]: an.houses[h].name for h in an.full}
        rows = [sum(1 << (r * n + c) for c in range(n)) for r in range(n)]
        cols = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
        if not all(m in by_mask for m in rows + cols):
            return []
        out = []
        for r0 in range(0, n, bh):
            for c0 in range(0, n, bw):
                box = sum(1 << (r * n + c) for r in range(r0, r0 + bh)
                          for c in range(c0, c0 + bw))
                if box not in by_mask:
                    continue
                for lines in (rows[r0:r0 + bh], cols[c0:c0 + bw]):
                    for z in lines:
                        others = [m for m in lines if m != z]
                        rest = 0
                        for m in others:
                            rest |= m
                        out.append((box, by_mask[box], tuple(iter_cells(z & box)), by_mask[z],
                                    rest & ~box, " and ".join(by_mask[m] for m in others),
                                    len(others) - 1))
        return out
    return an.links_memo("polarity_box_counts", build)


def _overfilled(an: Analysis, vals: Sequence[int]) -> str:
    """Why the cell masks ``vals`` (candidates, or a placed digit's bit) cannot fill the
    houses, by counting a digit set: box V keeps the digits S out of its line Z, so V puts
    all of S on the other lines of its band, and those lines (each a full house) hold each
    digit of S once more outside V; more cells there that must hold a digit of S than that
    is impossible. "" when the count fits everywhere."""
    full = ((1 << an.n) - 1) << 1
    for box, bname, z_in, zname, out, onames, k in _box_counts(an):
        held = 0
        for c in z_in:
            held |= vals[c]
        s = full & ~held
        if not s or not k:
            continue
        forced = [c for c in iter_cells(out) if not vals[c] & ~s]
        limit = k * s.bit_count()
        if len(forced) > limit:
            ds = "".join(digit_symbol(d) for d in digits_of(s))
            return (f"{onames} would hold {ds} in {len(forced)} cells outside {bname} "
                    f"({_names(an, forced)}), room for {limit} only ({bname} cannot hold "
                    f"{ds} in {zname}, so it takes them from {onames})")
    return ""


@register("polarity_count", "Polarity Count", FAMILY)
def polarity_count(an: Analysis, opts: dict) -> Iterator[Step]:
    """Polarity colouring of German whispers (any difference d with 2d >= n), with a count.
    A whisper's polarity (which class is low, which high) is a colour; a thermo or an arrow
    between two whispers links their colours ("a high end makes the thermo's tip high, so
    the next whisper's end is high"): the rules without the houses carry one whisper's
    colour to the others. If the whispers' classes so coloured overfill the houses, the
    colour is wrong: a house with more low cells than low digits, or (the count) box V
    keeps a digit set S out of its line Z, so V puts all of S on the other lines of its
    band, which leaves those lines room for S just once more each outside V ("The
    Octagon": low whisper ends would make eight middle cells high, four of them 7-9 in
    columns 4 and 6 outside box 5, whose column-5 arrow keeps 7-9 out; three fit).

    Unlike :func:`polarity_chain`, the houses are read once, after the colours are
    carried: no digit is placed and no hidden single followed, so it stands before the
    forcing family and is not counted with it. A colour that the rules alone refute is left
    to :func:`polarity_chain`.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from variants.lines import whispers
    >>> from variants.inequality import thermo
    >>> from techniques import StepSolver
    >>> p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]),
    ...                   thermo(["r1c3", "r2c3", "r3c3"]), whispers(["r3c3", "r3c4", "r3c5"]))
    >>> st = p.propagate()
    >>> for c in range(6, 10):                       # row 3 has four high cells already
    ...     st.cand[p.cell(f"r3c{c}")] &= 0b1111000000
    >>> [s.explain(2) for s in StepSolver().find_all(st, "polarity_count")][0]
    ... # doctest: +NORMALIZE_WHITESPACE
    'Polarity Count: German whispers r1c1: if r1c1,r1c3 high, r1c2 low, the rules carry it
     to German whispers r3c3 (r3c3 high); then row 3 cannot hold different digits; so
     r1c1,r1c3 low, r1c2 high => r1c1<>6789, r1c2<>12, r1c3<>67'

    The thermo makes r3c3 high when r1c3 is, so r3c5 too: six high cells in row 3.
    """
    from techniques.rules import _rule_engine
    lines, base, opened = _open_whispers(an)
    engine = _rule_engine(an.puzzle)
    if not lines or engine is None:
        return
    for ln in lines:
        alive = opened[ln]
        if len(alive) != 2:
            continue
        for sigma in alive:
            cand, failed = _hypothesis(ln, sigma, base, engine)
            if failed is not None:
                continue            # the rules alone refute it: polarity_chain's business
            # the colours carried: open whispers left with one polarity
            carried_to, broken = _carried(ln, lines, opened, cand)
            if broken:
                continue
            fixed = [(ln, sigma)] + carried_to
            # the houses read once with the whispers' classes so coloured
            vals = list(base)
            touched = 0
            for o, s in fixed:
                for cl, g in zip(o.data[0], s):
                    for c in cl:
                        if an.cand[c]:
                            vals[c] &= o.data[1][g]
                            touched |= 1 << c
            restricted = {c: vals[c] for c in iter_cells(touched)}
            reason = next((f"{an.houses[h].name} cannot hold different digits"
                           for h in an.full if an.house_mask[h] & touched
                           and not _house_fill_ok(an, h, restricted)), "")
            if not reason:
                reason = _overfilled(an, vals)
            if not reason:
                continue
            other, elims = _other_polarity(an, ln, alive, sigma)
            if not elims:
                continue
            carried = ", ".join(f"{o.name} {_ends_text(an, o, s)}" for o, s in fixed[1:])
            via = f"the rules carry it to {carried}; then " if carried else ""
            note = (f"{ln.name}: if {_polarity_text(an, ln, sigma)}, {via}{reason}; so "
                    f"{_polarity_text(an, ln, other)}")
            yield _polarity_step(an, "polarity_count", "Polarity Count", ln, elims, note)
            break


@register("entropic_groups", "Entropic Groups", FAMILY)
def entropic_groups(an: Analysis, opts: dict) -> Iterator[Step]:
    """On an entropic line the cells three apart share a group (1-3, 4-6, 7-9) and the three
    position classes take the three groups: a class left with one group takes it from the
    others, two classes sharing two groups leave the third to the last class, and an
    assignment that leaves a house unfillable goes."""
    yield from _class_steps(an, "entropic", "entropic_groups", "Entropic Groups")


@register("modular_groups", "Modular Groups", FAMILY)
def modular_groups(an: Analysis, opts: dict) -> Iterator[Step]:
    """On a modular line the cells three apart have the same remainder mod 3 and the three
    position classes take the three remainders ({3,6,9}, {1,4,7}, {2,5,8}); like entropic
    groups."""
    yield from _class_steps(an, "mod", "modular_groups", "Modular Groups")


# -- renban --------------------------------------------------------------------------------
def renban_runs(doms: Sequence[int], n: int) -> list[int]:
    """The runs (digit masks of k consecutive digits) that still fit the k cells: every
    cell takes a digit of the run, all different.

    >>> [_digit_range(m) for m in renban_runs([0b110, 0b1111111110, 0b1111111110], 9)]
    ['1-3', '2-4']
    """
    return fitting_runs(doms, n)


def _runs(an: Analysis, t: LineTables, ln: Line) -> list[int]:
    doms = tuple(_value(an, c) for c in ln.cells)
    key = ("runs", ln.cells, doms)
    hit = t.memo.get(key)
    if hit is None:
        hit = t.remember(key, renban_runs(doms, an.n))
    return hit


def _renban_lines(an: Analysis, t: LineTables, least: int) -> Iterator[tuple[Line, list[int], int]]:
    """The renban lines with open cells and at least ``least`` fitting runs: (line, runs,
    cell bitset)."""
    for ln in t.of("renban"):
        if any(an.cand[c] for c in ln.cells):
            runs = _runs(an, t, ln)
            if len(runs) >= least:
                yield ln, runs, sum(1 << c for c in set(ln.cells))


@register("renban_mandatory", "Renban Mandatory Digit", FAMILY)
def renban_mandatory(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit in every run that still fits a renban line is on the line: a cell outside
    the line that sees all the line's cells holding it loses it (a 5-cell renban on 1-9
    always holds 5)."""
    t = line_tables(an.puzzle)
    w = an.grid.namer
    for ln, runs, line in _renban_lines(an, t, 1):
        must = -1
        for r in runs:
            must &= r
        for c in ln.cells:
            if not an.cand[c]:
                must &= ~(1 << an.state.placed[c])
        for d, s, targets in an.group_pointing(line, must):
            yield Step("renban_mandatory", digits=(d,), houses=(ln.name,), width=w,
                       title="Renban Mandatory Digit",
                       eliminations=tuple(Candidate(c, d) for c in iter_cells(targets)),
                       pattern=tuple(Candidate(c, d) for c in iter_cells(s)),
                       note=f"{digit_symbol(d)} in every run of {ln.name} "
                            f"({', '.join(_digit_range(r) for r in runs)}), only in "
                            f"{_names(an, iter_cells(s))}")


@register("renban_house_overlap", "Renban-House Overlap", FAMILY)
def renban_house_overlap(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit that a house can only place on a renban line is on the line: the runs
    without it go, and the line keeps the digits of the remaining runs."""
    t = line_tables(an.puzzle)
    w = an.grid.namer
    for ln, runs, line in _renban_lines(an, t, 2):
        forced, why = an.house_forced_digits(line)
        keep_runs = [r for r in runs if r & forced == forced]
        if not forced or not keep_runs or len(keep_runs) == len(runs):
            continue
        doms = [_value(an, c) for c in ln.cells]
        keep = [0] * len(doms)
        for r in keep_runs:
            for i, m in enumerate(doms):
                keep[i] |= m & r
        elims = _elims(an, ln.cells, keep)
        if elims:
            yield Step("renban_house_overlap", eliminations=tuple(elims), width=w,
                       title="Renban-House Overlap", houses=(ln.name,),
                       digits=digits_of(forced),
                       note=f"{'; '.join(why)}: {ln.name} is "
                            f"{'/'.join(_digit_range(r) for r in keep_runs)}")


#: a renban's cells in one house that :func:`renban_house_split` still enumerates
SPLIT_MAX_CELLS = 6


def house_split(an: Analysis, runs: Sequence[int], inside: list[int], rest: list[int],
                outside: list[int]) -> tuple[list[int], list[int], list[int], list[int]]:
    """A group of different digits that holds one of the digit sets ``runs`` (a renban's
    runs, a cage's combinations), split by a full house: the sets its cells ``inside`` the
    house can hold such that its other cells (``rest``) still take the rest of a run and
    the house's other cells (``outside``) the digits the group leaves them, each cell its
    own digit; with the supported digits per cell of ``inside``, ``rest`` and ``outside``."""
    n = an.n
    full = ((1 << n) - 1) << 1
    din = [_value(an, c) for c in inside]
    drest = [_value(an, c) for c in rest]
    dout = [_value(an, c) for c in outside]
    sup_in = [0] * len(inside)
    sup_rest = [0] * len(rest)
    sup_out = [0] * len(outside)
    good: list[int] = []
    checked: dict[tuple[int, int], bool] = {}
    vals = [0] * len(inside)

    def fits(run: int, s: int) -> bool:
        key = (run, s)
        ok = checked.get(key)
        if ok is None:
            left = run & ~s
            ok = (_perfect_matching([m & left for m in drest])
                  and _perfect_matching([m & full & ~s for m in dout]))
            checked[key] = ok
        return ok

    def rec(run: int, i: int, s: int) -> None:
        if i == len(inside):
            if fits(run, s):
                if s not in good:
                    good.append(s)
                for k, v in enumerate(vals):
                    sup_in[k] |= 1 << v
                for k, m in enumerate(drest):
                    sup_rest[k] |= m & run & ~s
                for k, m in enumerate(dout):
                    sup_out[k] |= m & ~s
            return
        for v in digits_of(din[i] & run & ~s):
            vals[i] = v
            rec(run, i + 1, s | 1 << v)

    for run in runs:
        rec(run, 0, 0)
    return good, sup_in, sup_rest, sup_out


@register("renban_house_split", "Renban-House Split", FAMILY)
def renban_house_split(an: Analysis, opts: dict) -> Iterator[Step]:
    """A renban's cells in a house hold a part of its run; the house's other cells must
    take every digit that part leaves (each cell its own digit). A part that leaves some
    digits no room goes ("r1c1-r1c3 of the renban are 235, 356 or 568: 235 leaves 6 and 8
    only r1c6, 568 leaves r1c6 nothing, so they are 356")."""
    t = line_tables(an.puzzle)
    w = an.grid.namer
    for ln, runs, line in _renban_lines(an, t, 1):
        cells = list(dict.fromkeys(ln.cells))
        for h in an.full:
            hm = an.house_mask[h]
            inside_m = hm & line
            if not inside_m or inside_m == hm or inside_m.bit_count() > SPLIT_MAX_CELLS:
                continue
            if not (hm | line) & an.unsolved:
                continue
            inside = [c for c in cells if hm >> c & 1]
            rest = [c for c in cells if not hm >> c & 1]
            outside = list(iter_cells(hm & ~line))
            key = ("split", ln.cells, h, tuple(_value(an, c) for c in cells),
                   tuple(_value(an, c) for c in outside), tuple(runs))
            hit = t.memo.get(key)
            if hit is None:
                hit = t.remember(key, house_split(an, runs, inside, rest, outside))
            good, sup_in, sup_rest, sup_out = hit
            if not good:
                continue            # no split at all: a contradiction the rules report
            elims = (_elims(an, inside, sup_in) + _elims(an, rest, sup_rest)
                     + _elims(an, outside, sup_out))
            if not elims:
                continue
            # the parts a plain look at the runs allows, to name the ones that go
            plain: list[int] = []
            for run in runs:
                for s in _plain_parts(an, inside, run):
                    if s not in plain:
                        plain.append(s)
            gone = [s for s in plain if s not in good]
            yield Step("renban_house_split", eliminations=tuple(elims), width=w,
                       title="Renban-House Split", houses=(ln.name, an.houses[h].name),
                       pattern=tuple(Candidate(c, d) for c in inside
                                     for d in digits_of(an.cand[c])),
                       note=f"{ln.name} ({', '.join(_digit_range(r) for r in runs)}) in "
                            f"{an.houses[h].name}: {_names(an, inside)} hold "
                            f"{'/'.join(_ds(s) for s in sorted(good))}"
                            + (f", not {'/'.join(_ds(s) for s in sorted(gone))} (the rest "
                               f"of {an.houses[h].name} could not take the other digits)"
                               if gone else ""))
            break


def _ds(mask: int) -> str:
    return "".join(digit_symbol(d) for d in digits_of(mask))


def _plain_parts(an: Analysis, inside: list[int], run: int) -> list[int]:
    """The digit sets of ``run`` the ``inside`` cells can take, each cell its own digit."""
    out: list[int] = []

    def rec(i: int, s: int) -> None:
        if i == len(inside):
            if s not in out:
                out.append(s)
            return
        for v in digits_of(_value(an, inside[i]) & run & ~s):
            rec(i + 1, s | 1 << v)
    rec(0, 0)
    return out


def _blind_cages(an: Analysis, t: LineTables):
    """Per renban line, the cages (all-different with a sum) whose every cell sees every
    cell of the line through a house, so they share no digit with it: {line cells: [cage
    regions]} (built once per puzzle)."""
    def build():
        from techniques.sets import set_tables
        peers = an.links.house_peers
        cages = [r for r in set_tables(an).regions if r.kind == "cage"]
        out: dict[tuple[int, ...], list] = {}
        for ln in t.of("renban"):
            cells = set(ln.cells)
            blind = [r for r in cages if not cells & set(r.cells)
                     and all(peers[a] >> b & 1 for a in r.cells for b in cells)]
            if blind:
                out[ln.cells] = blind
        return out
    return an.memo("renban_blind_cages", build)


@register("renban_cage_exclusion", "Renban-Cage Exclusion", FAMILY)
def renban_cage_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A killer cage whose every cell sees every cell of a renban line shares no digit
    with the line: a combination of the cage that meets every run still fitting the line
    goes, and so does a run that meets every combination ("cage 11 r8c8,r8c9 (29/38)
    sees all of renban r8c4 (1-6/2-7/3-8/4-9): 38 meets every run, so the cage is 29 and
    the line 3-8")."""
    t = line_tables(an.puzzle)
    if not t.of("renban"):
        return
    blind = _blind_cages(an, t)
    if not blind:
        return
    from techniques.sets import cage_combinations
    w = an.grid.namer
    for ln, runs, line in _renban_lines(an, t, 1):
        for cage in blind.get(ln.cells, ()):
            if not any(an.cand[c] for c in cage.cells):
                continue
            combos = cage_combinations(an, cage.cells, cage.totals)
            if not combos:
                continue
            keep_runs = [r for r in runs if any(not r & m for m in combos)]
            keep_combos = [m for m in combos if any(not r & m for r in runs)]
            if not keep_runs or not keep_combos:
                continue            # nothing fits: a contradiction the rules report
            line_keep = [0] * len(ln.cells)
            for r in keep_runs:
                for i, c in enumerate(ln.cells):
                    line_keep[i] |= _value(an, c) & r
            cage_keep = 0
            for m in keep_combos:
                cage_keep |= m
            elims = sorted(set(_elims(an, ln.cells, line_keep)
                               + _elims(an, cage.cells, [cage_keep] * len(cage.cells))))
            if not elims:
                continue
            gone_c = [m for m in combos if m not in keep_combos]
            gone_r = [r for r in runs if r not in keep_runs]
            why = []
            if gone_c:
                why.append(f"{'/'.join(_ds(m) for m in gone_c)} meets every run")
            if gone_r:
                why.append(f"{'/'.join(_digit_range(r) for r in gone_r)} meets every "
                           "combination")
            yield Step("renban_cage_exclusion", eliminations=tuple(elims), width=w,
                       title="Renban-Cage Exclusion", houses=(ln.name, cage.name),
                       pattern=_pattern(an, cage.cells),
                       note=f"{cage.name} ({_names(an, cage.cells)}: "
                            f"{'/'.join(_ds(m) for m in combos)}) sees all of {ln.name} "
                            f"({', '.join(_digit_range(r) for r in runs)}): "
                            f"{'; '.join(why)}")
