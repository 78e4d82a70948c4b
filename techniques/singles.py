"""Singles: full house, naked single, hidden single (over any full house of the model)."""
from __future__ import annotations

from typing import Iterator

from csp.step import Candidate, Step

from .analysis import Analysis
from .registry import register


@register("full_house", "Full House", "singles", code="0000")
def full_house(an: Analysis, opts: dict) -> Iterator[Step]:
    """The last empty cell of a house takes the missing digit."""
    hm = an.house_mask
    unsolved = an.unsolved
    cand = an.cand
    for h in an.full:
        empty = hm[h] & unsolved
        if empty and not empty & (empty - 1):
            c = empty.bit_length() - 1
            m = cand[c]
            if m and not m & (m - 1):
                d = m.bit_length() - 1
                yield Step("full_house", placements=(Candidate(c, d),), digits=(d,),
                           houses=(an.houses[h].name,), title="Full House",
                           namer=an.grid.namer)


@register("naked_single", "Naked Single", "singles", code="0003")
def naked_single(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell with one candidate left takes it."""
    for c, m in enumerate(an.cand):      # placed cells have no candidates here
        if m and not m & (m - 1):
            d = m.bit_length() - 1
            yield Step("naked_single", placements=(Candidate(c, d),), digits=(d,),
                       pattern=(Candidate(c, d),),
                       title="Naked Single", namer=an.grid.namer)


@register("hidden_single", "Hidden Single", "singles", code="0002")
def hidden_single(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit with one place left in a house goes there."""
    seen: set[tuple[int, int]] = set()
    cand = an.cand
    cw = an.cells_with
    hm = an.house_mask
    cells = an.links_memo("house_cells", an._cells)
    for h in an.full:
        # digits held by exactly one cell of the house
        once = twice = 0
        for c in cells[h]:
            m = cand[c]
            twice |= once & m
            once |= m
        once &= ~twice
        while once:
            low = once & -once
            once ^= low
            d = low.bit_length() - 1
            p = hm[h] & cw[d]
            c = p.bit_length() - 1
            if (c, d) in seen:
                continue
            seen.add((c, d))
            yield Step("hidden_single", placements=(Candidate(c, d),), digits=(d,),
                       houses=(an.houses[h].name,), title="Hidden Single",
                       namer=an.grid.namer)
