"""Singles: full house, naked single, hidden single (over any full house of the model).

Besides the three finders, :func:`first_single` finds the first single the run's default
strategy would take (the finders in its plan's order, each one's first step) straight from
a state, with no :class:`~techniques.analysis.Analysis`: the run's singles fast path
(:meth:`techniques.loop.Run.peek`). It is compiled (``techniques/_singles_kernel.c``) where
built, with :func:`_first_single` as its pure-Python twin (identical results).
"""
from __future__ import annotations

from array import array
from dataclasses import fields
from typing import Callable, Iterator, Sequence

from csp.kernel import active
from csp.links import LinkTables
from csp.state import State
from csp.step import Candidate, Namer, Step

from .analysis import Analysis
from .registry import register

try:
    from . import _singles_kernel
except ImportError:  # not built (no C compiler): the pure-Python path
    _singles_kernel = None


# the steps of the three finders (and of single_step): one Candidate (made as the tuple it
# is, without the named tuple's Python-level __new__) serves as placement and pattern
_tuple_new = tuple.__new__


#: Step's fields, in order: while they are these, a single's Step is made field by field
#: (``object.__setattr__`` on a new object: what the frozen dataclass's ``__init__`` does,
#: without its keyword call; a third of a singles step's cost), else through ``Step(...)``
_STEP_FIELDS = ("technique", "placements", "eliminations", "pattern", "houses", "links",
                "digits", "title", "note", "namer", "extra")
_FAST_STEP = tuple(f.name for f in fields(Step)) == _STEP_FIELDS
_new = object.__new__
_set = object.__setattr__


def _single(technique: str, title: str, cd: tuple, pattern: tuple, houses: tuple, d: int,
            namer: "int | Namer") -> Step:
    """``Step(technique, placements=cd, pattern=pattern, houses=houses, digits=(d,),
    title=title, namer=namer)``."""
    if not _FAST_STEP:
        return Step(technique, placements=cd, pattern=pattern, houses=houses, digits=(d,),
                    title=title, namer=namer)
    s = _new(Step)
    _set(s, "technique", technique)
    _set(s, "placements", cd)
    _set(s, "eliminations", ())
    _set(s, "pattern", pattern)
    _set(s, "houses", houses)
    _set(s, "links", ())
    _set(s, "digits", (d,))
    _set(s, "title", title)
    _set(s, "note", "")
    _set(s, "namer", namer)
    _set(s, "extra", {})
    return s


def _full_house_step(c: int, d: int, house: str, namer: "int | Namer") -> Step:
    return _single("full_house", "Full House", (_tuple_new(Candidate, (c, d)),), (),
                   (house,), d, namer)


def _naked_single_step(c: int, d: int, namer: "int | Namer") -> Step:
    cd = (_tuple_new(Candidate, (c, d)),)
    return _single("naked_single", "Naked Single", cd, cd, (), d, namer)


def _hidden_single_step(c: int, d: int, house: str, namer: "int | Namer") -> Step:
    return _single("hidden_single", "Hidden Single", (_tuple_new(Candidate, (c, d)),), (),
                   (house,), d, namer)


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
                yield _full_house_step(c, m.bit_length() - 1, an.houses[h].name,
                                       an.grid.namer)


@register("naked_single", "Naked Single", "singles", code="0003")
def naked_single(an: Analysis, opts: dict) -> Iterator[Step]:
    """A cell with one candidate left takes it."""
    for c, m in enumerate(an.cand):      # placed cells have no candidates here
        if m and not m & (m - 1):
            yield _naked_single_step(c, m.bit_length() - 1, an.grid.namer)


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
            yield _hidden_single_step(c, d, an.houses[h].name, an.grid.namer)


#: the finders :func:`first_single` stands for, and their stage codes
STAGES = {full_house: 0, naked_single: 1, hidden_single: 2}
#: cells and digits the kernel takes (a candidate mask fits 64 bits, a cell 16)
KERNEL_CELLS = 4096
KERNEL_DIGITS = 62


class _Table:
    """The full houses of a puzzle's link tables as the singles search reads them: the
    cells of each (in the order of ``LinkTables.full``) as tuples, and packed for the
    kernel (native unsigned 16-bit ints, n per house)."""

    def __init__(self, links: LinkTables) -> None:
        self.cells = tuple(tuple(links.houses[h].cells) for h in links.full)
        self.names = tuple(links.houses[h].name for h in links.full)
        self.packed = (array("H", [c for cells in self.cells for c in cells]).tobytes()
                       if links.size <= KERNEL_CELLS else b"")
        self.compiled = links.size <= KERNEL_CELLS and links.n <= KERNEL_DIGITS


def first_single(state: State, links: LinkTables,
                 stages: bytes) -> tuple[int, int, int, int] | None:
    """The first single of ``state`` (``links``: its puzzle's link tables) that the finders
    of ``stages`` (their :data:`STAGES` codes, in the run's plan order) yield, each finder
    searched in full before the next, as (stage, cell, digit, house: the position of the
    house in ``links.full``, -1 for a naked single); None when none has one. A placed
    cell counts as having no candidate (as in an Analysis).

    >>> from variants.classic import classic_puzzle
    >>> from csp.links import link_tables
    >>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8"
    ...                    "..2.3..9..5.1.3..")
    >>> st = p.pencilmarks()
    >>> first_single(st, link_tables(p), bytes([0, 1, 2]))      # r5c6=4
    (1, 41, 4, -1)
    >>> first_single(st, link_tables(p), bytes([0, 2]))         # r1c6=1, in row 1
    (2, 5, 1, 0)
    """
    return searcher(links)(state, stages)


def searcher(links: LinkTables) -> Callable[[State, bytes], tuple[int, int, int, int] | None]:
    """:func:`first_single` for the states of one puzzle (``links``: its link tables), with
    the kernel asked for (:func:`csp.kernel.active`) once, now: a run takes one when it
    starts searching, instead of reading the environment at each step."""
    table = links.derived(_Table)
    kernel = active(_singles_kernel) if table.compiled else None
    if kernel is not None:
        find, packed, n = kernel.first_single, table.packed, links.n
        return lambda state, stages: find(state.cand, state.placed, packed, n, stages)
    cells = table.cells
    return lambda state, stages: _first_single(state.cand, state.placed, cells, stages)


def _first_single(cand: Sequence[int], placed: Sequence[int],
                  houses: Sequence[Sequence[int]],
                  stages: bytes) -> tuple[int, int, int, int] | None:
    """:func:`first_single` in Python (the reference of the compiled kernel):
    ``houses`` are the cells of the full houses."""
    u = [0 if p else m for m, p in zip(cand, placed)]
    for stage in stages:
        if stage == 0:
            for h, cells in enumerate(houses):
                last = -1
                for c in cells:
                    if u[c]:
                        if last >= 0:
                            break
                        last = c
                else:
                    if last >= 0:
                        m = u[last]
                        if not m & (m - 1):
                            return 0, last, m.bit_length() - 1, h
        elif stage == 1:
            for c, m in enumerate(u):
                if m and not m & (m - 1):
                    return 1, c, m.bit_length() - 1, -1
        elif stage == 2:
            for h, cells in enumerate(houses):
                once = twice = 0
                for c in cells:
                    m = u[c]
                    twice |= once & m
                    once |= m
                once &= ~twice
                if once:
                    d = (once & -once).bit_length() - 1
                    for c in cells:
                        if u[c] >> d & 1:
                            return 2, c, d, h
        else:
            raise ValueError(f"unknown singles stage {stage}")
    return None


def single_step(found: tuple[int, int, int, int], links: LinkTables,
                namer: "int | Namer") -> Step:
    """The Step of a :func:`first_single` answer: the very step its finder yields."""
    stage, c, d, h = found
    if stage == 1:
        return _naked_single_step(c, d, namer)
    house = links.derived(_Table).names[h]
    if stage == 0:
        return _full_house_step(c, d, house, namer)
    return _hidden_single_step(c, d, house, namer)
