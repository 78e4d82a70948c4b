"""Named technique of odd and even cells (any cells whose candidates are all odd or all
even).

- ``parity_count``: a house holds a fixed number of odd digits (5 on 1-9) and of even ones
  (4). When as many of its open cells must be odd as it still lacks odd digits, those cells
  take all of them and the other cells are even (and the same for even).

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.parity import odd
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), odd("r1c1", "r1c3", "r1c5", "r1c7", "r1c9"))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "parity_count")]
['Parity Count: row 1: r1c1,r1c3,r1c5,r1c7,r1c9 must be odd and take its 5 odd digits => r1c2<>13579, r1c4<>13579, r1c6<>13579, r1c8<>13579']
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of, iter_cells
from csp.step import Candidate, Step
from techniques.analysis import Analysis
from techniques.registry import register

FAMILY = "parity"


@register("parity_count", "Parity Count", FAMILY)
def parity_count(an: Analysis, opts: dict) -> Iterator[Step]:
    """When as many open cells of a house must be odd (even) as the house still lacks odd
    (even) digits, they take them all: the house's other cells are even (odd)."""
    n, w = an.n, an.grid.namer
    odd = sum(1 << d for d in range(1, n + 1, 2))
    even = sum(1 << d for d in range(2, n + 1, 2))
    placed = an.state.placed
    for h in an.full:
        hm = an.house_mask[h]
        open_ = hm & an.unsolved
        if not open_:
            continue
        done = 0
        for c in iter_cells(hm & ~an.unsolved):
            done |= 1 << placed[c]
        for par, other, word in ((odd, even, "odd"), (even, odd, "even")):
            left = (par & ~done).bit_count()
            forced = [c for c in iter_cells(open_) if not an.cand[c] & ~par]
            if not forced or len(forced) != left:
                continue
            rest = open_
            for c in forced:
                rest &= ~(1 << c)
            elims = [Candidate(c, d) for c in iter_cells(rest) for d in digits_of(an.cand[c] & par)]
            if elims:
                yield Step("parity_count", eliminations=tuple(elims), title="Parity Count",
                           namer=w, houses=(an.houses[h].name,),
                           pattern=tuple(Candidate(c, d) for c in forced
                                         for d in digits_of(an.cand[c])),
                           note=f"{an.houses[h].name}: {','.join(an.name(c) for c in forced)} "
                                f"must be {word} and take its {left} {word} digits")
