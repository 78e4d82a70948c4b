"""Indexing, explained: the named step of the puzzle's element constraints (row, column and
box indexers: the digit v of an indexing cell says that the v-th cell of its line holds a
given digit).

``indexing``, both directions:

- the v-th cell cannot hold the digit, so the indexing cell is not v;
- the line is a house (it holds the digit once): the indexing cell cannot be q, so the q-th
  cell does not hold the digit ("r1c7's candidates say where 1 goes in box 3: not in its
  4th cell, r2c7").

>>> from csp import Puzzle, Grid
>>> from csp.constraints import Element
>>> from techniques import StepSolver
>>> p = Puzzle(Grid(4)).add_grid_houses()
>>> _ = p.add(Element(0, (0, 1, 2, 3), 1, "row indexer r1c1"))
>>> st = p.initial_state()
>>> st.cand[0] = 0b10110          # r1c1 is 1, 2 or 4
>>> [s.explain(2) for s in StepSolver().find_all(st, "indexing")]
['Indexing: row indexer r1c1: r1c1 is 124, so the 1 of its line is in the cells 1, 2, 4 (r1c1,r1c2,r1c4) => r1c3<>1']
"""
from __future__ import annotations

from typing import Iterator

from csp.constraints.element import Element
from csp.step import Candidate, Step, digit_symbol, digits_text

from .analysis import Analysis
from .registry import register


def _elements(an: Analysis) -> list[tuple[Element, bool]]:
    """The puzzle's element constraints, each with whether its line is a house."""
    def build() -> list[tuple[Element, bool]]:
        houses = {frozenset(h.cells) for h in an.houses}
        return [(c, len(set(c.line)) == len(c.line) and frozenset(c.line) in houses)
                for c in an.puzzle.constraints if isinstance(c, Element)]
    return an.links_memo("indexing_elements", build)


@register("indexing", "Indexing", "indexing")
def indexing(an: Analysis, opts: dict) -> Iterator[Step]:
    """An indexing cell and its line agree: the index is not v when the v-th cell cannot
    hold the target digit, and (the line a house) the q-th cell does not hold it when the
    index cannot be q."""
    elements = _elements(an)
    if not elements:
        return
    st = an.state
    vals = [m if not st.placed[c] else 1 << st.placed[c] for c, m in enumerate(st.cand)]
    w = an.grid.namer
    for el, house in elements:
        idx, line, t = el.index, el.line, el.target
        m = vals[idx]
        tbit = 1 << t
        # forward: index v needs the v-th cell to be able to hold t
        bad = 0
        for v in range(1, len(line) + 1):
            if m >> v & 1:
                c = line[v - 1]
                if not (vals[c] & tbit if c != idx else v == t):
                    bad |= 1 << v
        if bad and not st.placed[idx]:
            cells = [line[v - 1] for v in range(1, len(line) + 1) if bad >> v & 1]
            yield Step("indexing", title="Indexing", namer=w, houses=(el.name,),
                       eliminations=tuple(Candidate(idx, v) for v in range(1, an.n + 1)
                                          if bad >> v & 1),
                       digits=(t,),
                       note=f"{el.name}: {','.join(an.name(c) for c in cells)} cannot be "
                            f"{digit_symbol(t)}, so {an.name(idx)} is not {digits_text(bad)}")
        if not house:
            continue
        # reverse: the q-th cell holds t only if the index can be q
        gone = [c for q, c in enumerate(line, 1)
                if c != idx and not st.placed[c] and an.cand[c] & tbit and not m >> q & 1]
        if gone:
            ok = [q for q in range(1, len(line) + 1) if m >> q & 1]
            yield Step("indexing", title="Indexing", namer=w, houses=(el.name,),
                       eliminations=tuple(Candidate(c, t) for c in gone), digits=(t,),
                       pattern=tuple(Candidate(idx, q) for q in ok),
                       note=f"{el.name}: {an.name(idx)} is {digits_text(m)}, so the "
                            f"{digit_symbol(t)} of its line is in the cells "
                            f"{', '.join(map(str, ok))} "
                            f"({','.join(an.name(line[q - 1]) for q in ok)})")
