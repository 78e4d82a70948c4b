"""Named techniques of between and lockout lines: the span between a line's two ends that its
inner cells need.

- ``between_span``: the inner cells of a between line that share a house need different
  digits strictly between the two ends, so the ends are at least that many + 1 apart (and
  inner cells lie between the ends of a pair that still works).
- ``lockout_span``: the same for lockout lines: the inner cells that share a house need
  different digits outside the ends' range.
"""
from __future__ import annotations

from typing import Iterator, Sequence

from csp.bits import digits_of
from csp.matching import perfect_matching
from csp.step import Step
from techniques.analysis import Analysis
from techniques.registry import register

from .line_tables import FAMILY, _digit_range, _elims, _names, _pattern, _value, line_tables


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
                if 0 in sub or (len(sub) > 1 and not perfect_matching(sub)):
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
        yield Step(name, eliminations=tuple(sorted(set(elims))), title=title, namer=w,
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
