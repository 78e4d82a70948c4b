"""Subsets: naked and hidden pairs, triples and quadruples.

Naked subsets work in any all-different house of the model (rows, columns, boxes, diagonals,
jigsaw regions, killer cages ...): ``k`` cells of a house whose candidates together are
``k`` digits hold those digits, so the digits leave the other cells of the house (option
``links``: also every cell weakly linked to all the subset's cells holding the digit).
Hidden subsets need a *full* house (every digit must appear): ``k`` digits whose candidates
lie in ``k`` cells only fill those cells, so the other digits leave them.

>>> from variants.classic import classic_puzzle
>>> from techniques.analysis import Analysis
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> an = Analysis(p.pencilmarks())
>>> all(len(s.digits) == 2 for s in naked_pair(an, {}))
True
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step, digits_text

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register


def _combos(items: list[tuple[int, int]], k: int, limit: int) -> list[tuple[int, int]]:
    """Combinations of ``k`` (id-bitset, mask) items whose masks' union has at most
    ``limit`` bits (checked as each item is added), in lexicographic order; (ids bitset,
    union mask) each."""
    out: list[tuple[int, int]] = []
    n = len(items)
    if k == 2 or k == 3 or k == 4:
        # nested loops (the common sizes): the same order and pruning as rec below
        for i in range(n - k + 1):
            ai, am = items[i]
            if am.bit_count() > limit:
                continue
            for j in range(i + 1, n - k + 2):
                bi, bm = items[j]
                u2 = am | bm
                if u2.bit_count() > limit:
                    continue
                if k == 2:
                    out.append((ai | bi, u2))
                    continue
                for x in range(j + 1, n - k + 3):
                    ci, cm = items[x]
                    u3 = u2 | cm
                    if u3.bit_count() > limit:
                        continue
                    if k == 3:
                        out.append((ai | bi | ci, u3))
                        continue
                    for y in range(x + 1, n):
                        di, dm = items[y]
                        u4 = u3 | dm
                        if u4.bit_count() <= limit:
                            out.append((ai | bi | ci | di, u4))
        return out

    def rec(start: int, depth: int, ids: int, m: int) -> None:
        if depth == k:
            out.append((ids, m))
            return
        for i in range(start, n - (k - depth) + 1):
            iid, im = items[i]
            u = m | im
            if u.bit_count() <= limit:
                rec(i + 1, depth + 1, ids | iid, u)

    rec(0, 0, 0, 0)
    return out


def naked_subsets(an: Analysis, k: int, name: str, title: str, opts: dict) -> Iterator[Step]:
    use_links = NAKED_OPTIONS.read(opts, "links")
    small = an.small_cells(k)
    unsolved = an.unsolved
    cache = an._shared          # (an.shared_memo's cache: a hit looked up inline)
    for h, hmask in enumerate(an.house_mask):
        free = hmask & unsolved
        if free.bit_count() <= k or (hmask & small).bit_count() < k:
            continue
        if use_links:
            yield from _naked_house(an, k, name, title, h, free, True)
        else:
            # the steps read only the house's candidates: kept per puzzle on them
            key = ("naked", k, name, h, an.house_key(h))
            found = cache.get(key)
            if found is None:
                found = an.shared_memo(
                    key, lambda: list(_naked_house(an, k, name, title, h, free, False)))
            yield from found


def _naked_house(an: Analysis, k: int, name: str, title: str, h: int, free: int,
                 use_links: bool) -> Iterator[Step]:
    items = [(1 << c, an.cand[c]) for c in iter_cells(free) if an.cand[c].bit_count() <= k]
    if len(items) < k:
        return
    w = an.grid.namer
    for cm, m in _combos(items, k, k):
        if m.bit_count() != k:
            continue
        rest = free & ~cm
        elims = []
        for d in digits_of(m):
            area = rest
            if use_links:
                area |= an.common_peers(d, cm & an.cells_with[d]) & ~cm
            for c in iter_cells(area & an.cells_with[d]):
                elims.append(Candidate(c, d))
        if not elims:
            continue
        elims.sort()
        yield Step(name, eliminations=tuple(elims),
                   pattern=tuple(Candidate(c, d) for c in iter_cells(cm)
                                 for d in digits_of(an.cand[c])),
                   digits=tuple(digits_of(m)), houses=(an.houses[h].name,), title=title,
                   namer=w)


def hidden_subsets(an: Analysis, k: int, name: str, title: str, opts: dict) -> Iterator[Step]:
    hm, unsolved = an.house_mask, an.unsolved
    cw1 = an.cells_with[1:an.n + 1]
    cache = an._shared          # (an.shared_memo's cache: a hit looked up inline)
    for h in an.full:
        hmask = hm[h]
        free = hmask & unsolved
        if free.bit_count() <= k:
            continue
        # fewer than k digits with at most k places: no hidden subset (what
        # _hidden_house would answer, without its key)
        few = 0
        for p in cw1:
            p &= hmask
            if p and p.bit_count() <= k:
                few += 1
        if few < k:
            continue
        # the steps read only the house's candidates: kept per puzzle on them
        key = ("hidden", k, name, h, an.house_key(h))
        found = cache.get(key)
        if found is None:
            found = an.shared_memo(key, lambda: _hidden_house(an, k, name, title, h))
        yield from found


def _hidden_house(an: Analysis, k: int, name: str, title: str, h: int) -> list[Step]:
    hmask = an.house_mask[h]
    items = []
    for d in range(1, an.n + 1):
        p = hmask & an.cells_with[d]
        if p and p.bit_count() <= k:
            items.append((1 << d, p))
    if len(items) < k:
        return []
    w = an.grid.namer
    out = []
    for dm, cm in _combos(items, k, k):
        if cm.bit_count() != k:
            continue
        elims = [Candidate(c, d) for c in iter_cells(cm) for d in digits_of(an.cand[c] & ~dm)]
        if not elims:
            continue
        out.append(Step(name, eliminations=tuple(elims),
                        pattern=tuple(Candidate(c, d) for c in iter_cells(cm)
                                      for d in digits_of(an.cand[c] & dm)),
                        digits=tuple(digits_of(dm)), houses=(an.houses[h].name,), title=title,
                        namer=w))
    return out


NAKED_OPTIONS = Options(links=Option(
    False, "cells that see each other through the rules' links count as a house", bool))
CLIQUE_OPTIONS = Options(max_size=Option(5, "largest clique subset, in cells (0: n)", int))


def _naked(k: int, name: str, title: str):
    def finder(an: Analysis, opts: dict) -> Iterator[Step]:
        return naked_subsets(an, k, name, title, opts)
    finder.__doc__ = (f"{k} cells of a house with {k} candidates together: those digits "
                      "leave the rest of the house (any all-different house).")
    return finder


def _hidden(k: int, name: str, title: str):
    def finder(an: Analysis, opts: dict) -> Iterator[Step]:
        return hidden_subsets(an, k, name, title, opts)
    finder.__doc__ = (f"{k} digits confined to {k} cells of a full house: the other digits "
                      "leave those cells.")
    return finder


naked_pair = register("naked_pair", "Naked Pair", "subsets", code="0200",
                      options=NAKED_OPTIONS)(
    _naked(2, "naked_pair", "Naked Pair"))
naked_triple = register("naked_triple", "Naked Triple", "subsets", code="0201",
                        options=NAKED_OPTIONS)(
    _naked(3, "naked_triple", "Naked Triple"))
naked_quadruple = register("naked_quadruple", "Naked Quadruple", "subsets", code="0202",
                           options=NAKED_OPTIONS)(
    _naked(4, "naked_quadruple", "Naked Quadruple"))
hidden_pair = register("hidden_pair", "Hidden Pair", "subsets", code="0210")(
    _hidden(2, "hidden_pair", "Hidden Pair"))
hidden_triple = register("hidden_triple", "Hidden Triple", "subsets", code="0211")(
    _hidden(3, "hidden_triple", "Hidden Triple"))
hidden_quadruple = register("hidden_quadruple", "Hidden Quadruple", "subsets", code="0212")(
    _hidden(4, "hidden_quadruple", "Hidden Quadruple"))


# ------------------------------------------------------------------------------------------
# subsets in cliques: cells that see each other pairwise through the rules' links
# ------------------------------------------------------------------------------------------
def clique_adjacency(an: Analysis) -> list[int] | None:
    """Per cell, the cells it sees for every digit (a shared house, a knight's or king's
    move, a not-equal link ...): any two such cells hold different digits. None when that
    adds nothing to the houses (classic, jigsaw: every clique lies in one house there)."""
    def build() -> list[int] | None:
        n, size = an.n, an.size
        pd = an.links.peers_d
        house_peers = [0] * size
        for m in an.house_mask:
            for c in iter_cells(m):
                house_peers[c] |= m
        adj = []
        extra = False
        for c in range(size):
            m = -1
            for d in range(1, n + 1):
                m &= pd[d][c]
            m &= ~(1 << c)
            if m & ~house_peers[c]:
                extra = True
            adj.append(m)
        return adj if extra else None
    return an.links_memo("clique_adjacency", build)


def _cell_names(an: Analysis, cells: int) -> str:
    return ",".join(an.name(c) for c in iter_cells(cells))


@register("clique_subset", "Clique Subset", "subsets", options=CLIQUE_OPTIONS)
def clique_subset(an: Analysis, opts: dict) -> Iterator[Step]:
    """A naked subset in a *clique*: k cells that see each other pairwise (through houses
    and the rules' links, such as a knight's or king's move), not all in one house, whose
    candidates together are k digits. Pairwise different, they hold exactly those k digits,
    so each digit leaves every cell that sees all of the clique's cells holding it
    ("r5c3, r6c2, r6c3, r8c3, r9c3 see each other (column 3 and knight's moves) and hold
    only 12345 => r1c3<>...").

    On anti-knight and anti-king grids the cliques mix a house with knight or king links;
    with houses only every clique lies in one house (naked subsets' ground), so the search
    returns at once. ``max_size``: the largest subset (k) tried.

    >>> from csp import Puzzle, Grid, NotEqual
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> _ = p.add(NotEqual(0, 6))                      # r1c1 != r2c3
    >>> st = p.initial_state()
    >>> st.cand[0] = st.cand[6] = 0b0110                # r1c1, r2c3: 12
    >>> [s.explain(2) for s in clique_subset(Analysis(st), {"max_size": 2})]
    ['Clique Subset: r1c1,r2c3 see each other pairwise and hold only 12 => r1c3<>12, r1c4<>12, r2c1<>12, r2c2<>12']
    """
    adj = clique_adjacency(an)
    if adj is None:
        return
    kmax = CLIQUE_OPTIONS.read(opts, "max_size") or an.n
    cand = an.cand
    hm = an.house_mask
    w = an.grid.namer
    small = [c for c in iter_cells(an.unsolved) if cand[c].bit_count() <= kmax]
    if len(small) < 2:
        return
    seen: set[int] = set()
    out: list[Step] = []

    def rec(cells: int, common: int, union: int, start: int) -> None:
        k = cells.bit_count()
        if k >= 2 and union.bit_count() == k:
            if cells in seen or any(not cells & ~m for m in hm):
                return
            seen.add(cells)
            elims = []
            for d in digits_of(union):
                holders = cells & an.cells_with[d]
                for x in iter_cells(an.common_peers(d, holders) & an.cells_with[d] & ~cells):
                    elims.append(Candidate(x, d))
            if elims:
                elims.sort()
                out.append(Step("clique_subset", eliminations=tuple(elims),
                                pattern=tuple(Candidate(c, d) for c in iter_cells(cells)
                                              for d in digits_of(cand[c])),
                                digits=tuple(digits_of(union)), title="Clique Subset",
                                note=f"{_cell_names(an, cells)} see each other pairwise "
                                     f"and hold only {digits_text(union)}", namer=w))
            return
        if k == kmax:
            return
        for i in range(start, len(small)):
            c = small[i]
            if not common >> c & 1:
                continue
            u = union | cand[c]
            if u.bit_count() > kmax:
                continue
            rec(cells | 1 << c, common & adj[c], u, i + 1)

    rec(0, -1, 0, 0)
    yield from out
