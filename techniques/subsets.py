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
from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import register


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
    use_links = opts.get("links", False)
    small = an.small_cells(k)
    for h, hmask in enumerate(an.house_mask):
        free = hmask & an.unsolved
        if free.bit_count() <= k or (hmask & small).bit_count() < k:
            continue
        if use_links:
            yield from _naked_house(an, k, name, title, h, free, True)
        else:
            # the steps read only the house's candidates: kept per puzzle on them
            yield from an.shared_memo(
                ("naked", k, name, h, an.house_key(h)),
                lambda: list(_naked_house(an, k, name, title, h, free, False)))


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
                   width=w)


def hidden_subsets(an: Analysis, k: int, name: str, title: str, opts: dict) -> Iterator[Step]:
    for h in an.full:
        free = an.house_mask[h] & an.unsolved
        if free.bit_count() <= k:
            continue
        # the steps read only the house's candidates: kept per puzzle on them
        yield from an.shared_memo(("hidden", k, name, h, an.house_key(h)),
                                  lambda: _hidden_house(an, k, name, title, h))


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
                        width=w))
    return out


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
                      options={"links": False})(
    _naked(2, "naked_pair", "Naked Pair"))
naked_triple = register("naked_triple", "Naked Triple", "subsets", code="0201",
                        options={"links": False})(
    _naked(3, "naked_triple", "Naked Triple"))
naked_quadruple = register("naked_quadruple", "Naked Quadruple", "subsets", code="0202",
                           options={"links": False})(
    _naked(4, "naked_quadruple", "Naked Quadruple"))
hidden_pair = register("hidden_pair", "Hidden Pair", "subsets", code="0210")(
    _hidden(2, "hidden_pair", "Hidden Pair"))
hidden_triple = register("hidden_triple", "Hidden Triple", "subsets", code="0211")(
    _hidden(3, "hidden_triple", "Hidden Triple"))
hidden_quadruple = register("hidden_quadruple", "Hidden Quadruple", "subsets", code="0212")(
    _hidden(4, "hidden_quadruple", "Hidden Quadruple"))
