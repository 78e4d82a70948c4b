"""Ordering bounds beyond pairs, explained: the named step of the core's ordering
propagators (:mod:`csp.constraints.order`), for every strict ``<`` of the puzzle (signs,
thermometers, ``p.add(a < b)``, ``add_less``).

``inequality_bounds``: a cell greater than k cells that must all differ (they share a house;
the cells below it are found through chains of ``<``) is greater than the k-th smallest digit
of their candidates, and symmetrically below the k-th largest digit of k different cells
above it. Pairwise bounds are the rule propagation's ("constraint") job.

>>> from csp import Puzzle, Grid
>>> from techniques import StepSolver
>>> p = Puzzle(Grid(9)).add_grid_houses()
>>> _ = p.add(p["r1c1"] < p["r1c2"]).add(p["r1c2"] > p["r1c3"])
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "inequality_bounds")]
['Inequality Bounds: r1c2 > r1c1,r1c3 (all different in row 1, 2nd smallest of 1-9 is 2) => r1c2<>12']
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.constraints.order import OrderBoundsPropagator, kth_largest, kth_smallest
from csp.step import Candidate, Step

from .analysis import Analysis
from .registry import register


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def _digits_or_range(mask: int) -> str:
    """The digits of a mask in decimal, a run of three or more as a range (the step's note
    names its k-th digit in decimal too, so this is not :func:`csp.step.digits_text`).

    >>> _digits_or_range(0b111110), _digits_or_range(0b10110), _digits_or_range(1 << 10 | 1 << 12)
    ('1-5', '124', '1012')
    """
    ds = list(digits_of(mask))
    if len(ds) > 2 and ds == list(range(ds[0], ds[-1] + 1)):
        return f"{ds[0]}-{ds[-1]}"
    return "".join(map(str, ds))


def _props(puzzle) -> list[OrderBoundsPropagator]:
    """The puzzle's ordering-bounds propagators (kept with :meth:`csp.Puzzle.derived`)."""
    return [p for p in puzzle.engine().props if isinstance(p, OrderBoundsPropagator)]


@register("inequality_bounds", "Inequality Bounds", "inequality")
def inequality_bounds(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell above (below) k all-different cells is above the k-th smallest (below the k-th
    largest) digit of their candidates: r1c1 < r1c2 > r1c3 gives r1c2 >= 3."""
    props = an.puzzle.derived(_props)
    if not props:
        return
    st = an.state
    vals = [m if not st.placed[c] else 1 << st.placed[c] for c, m in enumerate(st.cand)]
    w = an.grid.namer
    house_of = {}
    for p in props:
        x = p.cell
        m = an.cand[x]
        if not m:
            continue
        for groups, below in ((p.below, True), (p.above, False)):
            for g in groups:
                u = 0
                for c in g:
                    u |= vals[c]
                k = len(g)
                kth = kth_smallest(u, k) if below else kth_largest(u, k)
                if not kth:
                    continue       # no way to fill the group: a contradiction, not a bound
                bad = m & ((1 << (kth + 1)) - 1) if below else m & ~((1 << kth) - 1)
                if not bad:
                    continue
                if g not in house_of:
                    gm = sum(1 << c for c in g)
                    house_of[g] = next((f"in {h.name}" for h, hm in zip(an.houses, an.house_mask)
                                        if gm & hm == gm), "mutually")
                rel = ">" if below else "<"
                which = "smallest" if below else "largest"
                yield Step("inequality_bounds", title="Inequality Bounds", namer=w,
                           eliminations=tuple(Candidate(x, d) for d in range(1, an.n + 1)
                                              if bad >> d & 1),
                           houses=(house_of[g].removeprefix("in "),),
                           pattern=tuple(Candidate(c, d) for c in g for d in range(1, an.n + 1)
                                         if vals[c] >> d & 1),
                           note=f"{an.name(x)} {rel} {','.join(an.name(c) for c in g)} "
                                f"(all different {house_of[g]}, {_ordinal(k)} {which} of "
                                f"{_digits_or_range(u)} is {kth})")
