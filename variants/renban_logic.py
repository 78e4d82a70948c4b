"""Named techniques of renban lines: the line holds a run of consecutive digits in any order.

- ``renban_mandatory``: a digit in every run that still fits a renban is on the line: cells
  that see all of the line's cells holding it lose it.
- ``renban_house_overlap``: a digit that a house can only place on a renban is on the line:
  the runs without it go.
- ``renban_house_split``: a renban's cells in a house hold part of its run and the house's
  other cells must take the digits that part leaves, each its own cell: the parts that
  leave some digit no room go (``house_split``, for any group of different digits with
  known digit sets).
"""
from __future__ import annotations

from typing import Iterator, Sequence

from csp.bits import digits_of, iter_cells
from csp.constraints.run import fitting_runs
from csp.matching import perfect_matching
from csp.step import Candidate, Step, digit_symbol, digits_text
from techniques.analysis import Analysis
from techniques.registry import register

from .line_tables import (FAMILY, Line, LineTables, _digit_range, _elims, _names, _pattern, _value,
                          line_tables)


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
            yield Step("renban_mandatory", digits=(d,), houses=(ln.name,), namer=w,
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
            yield Step("renban_house_overlap", eliminations=tuple(elims), namer=w,
                       title="Renban-House Overlap", houses=(ln.name,),
                       digits=digits_of(forced),
                       note=f"{'; '.join(why)}: {ln.name} is "
                            f"{'/'.join(_digit_range(r) for r in keep_runs)}")


#: a renban's cells in one house that :func:`renban_house_split` still enumerates
SPLIT_MAX_CELLS = 6
#: at most this many assignments of digits to the renban's cells in a house (an upper
#: bound, over all its runs) :func:`renban_house_split` enumerates; a house with more (a
#: long renban on a big grid: 17 cells of 1..25 have millions) waits until the candidates
#: narrow. The renban puzzles of the shared sets need at most 7,680.
SPLIT_WORK = 100_000


def split_work(an: Analysis, runs: Sequence[int], inside: Sequence[int]) -> int:
    """An upper bound on the assignments :func:`house_split` tries: per run, the product
    of the cells' candidate counts in it, and at most the run's ordered choices."""
    from math import perm
    total = 0
    for run in runs:
        prod = 1
        for c in inside:
            prod *= (_value(an, c) & run).bit_count()
        total += min(prod, perm(run.bit_count(), len(inside)))
    return total


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
            ok = (perfect_matching([m & left for m in drest])
                  and perfect_matching([m & full & ~s for m in dout]))
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
                if split_work(an, runs, inside) > SPLIT_WORK:
                    continue        # too many to try now: bounded work (see SPLIT_WORK)
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
            yield Step("renban_house_split", eliminations=tuple(elims), namer=w,
                       title="Renban-House Split", houses=(ln.name, an.houses[h].name),
                       pattern=tuple(Candidate(c, d) for c in inside
                                     for d in digits_of(an.cand[c])),
                       note=f"{ln.name} ({', '.join(_digit_range(r) for r in runs)}) in "
                            f"{an.houses[h].name}: {_names(an, inside)} hold "
                            f"{'/'.join(digits_text(s) for s in sorted(good))}"
                            + (f", not {'/'.join(digits_text(s) for s in sorted(gone))} (the rest "
                               f"of {an.houses[h].name} could not take the other digits)"
                               if gone else ""))
            break


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
                why.append(f"{'/'.join(digits_text(m) for m in gone_c)} meets every run")
            if gone_r:
                why.append(f"{'/'.join(_digit_range(r) for r in gone_r)} meets every "
                           "combination")
            yield Step("renban_cage_exclusion", eliminations=tuple(elims), namer=w,
                       title="Renban-Cage Exclusion", houses=(ln.name, cage.name),
                       pattern=_pattern(an, cage.cells),
                       note=f"{cage.name} ({_names(an, cage.cells)}: "
                            f"{'/'.join(digits_text(m) for m in combos)}) sees all of {ln.name} "
                            f"({', '.join(_digit_range(r) for r in runs)}): "
                            f"{'; '.join(why)}")
