"""Singles: full house, naked single, hidden single (over any full house of the model)."""
from __future__ import annotations

from typing import Iterator

from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import register


@register("full_house", "Full House", "singles", code="0000", score=4, order=100,
          level="easy")
def full_house(an: Analysis, opts: dict) -> Iterator[Step]:
    """The last empty cell of a house takes the missing digit."""
    w = an.grid.namer
    for h in an.full:
        empty = an.house_mask[h] & an.unsolved
        if empty and not empty & (empty - 1):
            c = empty.bit_length() - 1
            m = an.cand[c]
            if m and not m & (m - 1):
                d = m.bit_length() - 1
                yield Step("full_house", placements=(Candidate(c, d),), digits=(d,),
                           houses=(an.houses[h].name,), title="Full House", width=w)


@register("naked_single", "Naked Single", "singles", code="0003", score=4, order=200,
          level="easy")
def naked_single(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell with one candidate left takes it."""
    w = an.grid.namer
    for c in iter_cells(an.unsolved):
        m = an.cand[c]
        if not m & (m - 1):
            d = m.bit_length() - 1
            yield Step("naked_single", placements=(Candidate(c, d),), digits=(d,),
                       pattern=(Candidate(c, d),),
                       title="Naked Single", width=w)


@register("hidden_single", "Hidden Single", "singles", code="0002", score=14, order=300,
          level="easy")
def hidden_single(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit with one place left in a house goes there."""
    w = an.grid.namer
    seen: set[tuple[int, int]] = set()
    for h in an.full:
        for d in range(1, an.n + 1):
            p = an.pos(h, d)
            if p and not p & (p - 1):
                c = p.bit_length() - 1
                if (c, d) in seen:
                    continue
                seen.add((c, d))
                yield Step("hidden_single", placements=(Candidate(c, d),), digits=(d,),
                           houses=(an.houses[h].name,), title="Hidden Single", width=w)
