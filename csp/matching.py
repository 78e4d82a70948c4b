"""Matching cells to digits on bitmasks (Kuhn's augmenting paths): the one matching of csp,
used by the matching-based all-different (:class:`csp.constraints.AllDifferentGAC`, which
starts from its last call's matching) and by the renban and line checks (is there any
matching at all).

>>> [bin(b) for b in matching([0b011, 0b001, 0b110])]
['0b10', '0b1', '0b100']
>>> matching([0b011, 0b001, 0b001]) is None
True
>>> perfect_matching([0b011, 0b010]), perfect_matching([0b010, 0b010])
(True, False)
"""
from __future__ import annotations

from typing import Sequence


def matching(doms: Sequence[int], start: Sequence[int] | None = None) -> list[int] | None:
    """A digit bit for every cell (its candidate mask in ``doms``), each cell its own digit,
    or None when there is none. ``start`` (a digit bit per cell, 0 for none) is a matching
    to grow from: its entries still in their cell's mask and not taken by an earlier cell are
    kept, so a caller that keeps its last matching only augments the cells that lost theirs.

    >>> [bin(b) for b in matching([0b011, 0b011], start=[0b10, 0b10])]
    ['0b10', '0b1']
    """
    if start is None:
        mate = [0] * len(doms)
        owner: dict[int, int] = {}                     # digit bit -> cell index
    else:
        mate = [b & m for b, m in zip(start, doms)]
        owner = {}
        for i, b in enumerate(mate):
            if b:
                if b in owner:
                    mate[i] = 0
                else:
                    owner[b] = i

    def augment(i: int, seen: int) -> tuple[bool, int]:
        """Match cell i along an augmenting path; (success, digits visited)."""
        m = doms[i] & ~seen
        while m:
            low = m & -m
            m ^= low
            seen |= low
            j = owner.get(low)
            if j is None:
                ok = True
            else:
                ok, seen = augment(j, seen)
            if ok:
                owner[low] = i
                mate[i] = low
                return True, seen
        return False, seen

    for i in range(len(doms)):
        if not mate[i] and not augment(i, 0)[0]:
            return None
    return mate


def perfect_matching(doms: Sequence[int]) -> bool:
    """True when every cell (its mask in ``doms``) gets its own digit.

    >>> perfect_matching([0b001, 0b011, 0b111]), perfect_matching([0b011, 0b011, 0b011])
    (True, False)
    >>> perfect_matching([0b1110, 0b0111, 0b1011])
    True
    """
    # every cell with as many digits as there are cells: any cells' digits together are
    # as many (Hall's condition), so some matching exists; a renban's cells before much is
    # placed (Kuhn's augmenting paths take 6 us on five cells of the same five digits)
    k = len(doms)
    for m in doms:
        if m.bit_count() < k:
            return matching(doms) is not None
    return True
