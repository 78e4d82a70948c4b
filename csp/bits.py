"""Bitmask helpers, the one home of bit iteration. A candidate set is an int whose bit ``d``
stands for digit ``d``; a cell set is an int whose bit ``c`` stands for cell ``c``.

>>> mask_of([1, 3, 9])
522
>>> list(iter_bits(522)), digits_of(522)
([1, 3, 9], (1, 3, 9))
>>> popcount(522), lowest(522), highest(522), is_single(522), is_single(8)
(3, 1, 9, False, True)
>>> list(iter_cells(0b10110))
[1, 2, 4]
>>> union_of([0, 1, 2, 4], 0b1100)
6

Digit masks are few (``2**(n+1)``), so :func:`digits_of` keeps each one's tuple: iterate
digits with it. Cell sets are many, so :func:`iter_cells` walks them without a cache. The
innermost loops of the engine, the search and some propagators iterate inline
(``low = m & -m``), where a call per bit would cost measurable time.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Sequence


def popcount(mask: int) -> int:
    return mask.bit_count()


def mask_of(digits: Iterable[int]) -> int:
    m = 0
    for d in digits:
        m |= 1 << d
    return m


def full_mask(n: int) -> int:
    """Digits 1..n: ``full_mask(4) == 0b11110``."""
    return ((1 << n) - 1) << 1


def lowest(mask: int) -> int:
    """Smallest set bit of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """Largest set bit of a non-empty mask."""
    return mask.bit_length() - 1


def iter_bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, ascending (no cache: for cell sets and one-off masks)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


#: the cells of a cell bitset, ascending (the same walk as :func:`iter_bits`)
iter_cells = iter_bits


def union_of(table: Sequence[int], mask: int) -> int:
    """The union of ``table[i]`` over the set bits ``i`` of ``mask``: the supports of a
    candidate set in a binary relation, the cells an implication front reaches.

    >>> union_of([0, 0b100, 0b1000, 0b1], 0b1010)      # table[1] | table[3]
    5
    """
    out = 0
    while mask:
        low = mask & -mask
        out |= table[low.bit_length() - 1]
        mask ^= low
    return out

_DIGITS: dict[int, tuple[int, ...]] = {}
_DIGITS_MAX = 1 << 17


def digits_of(mask: int) -> tuple[int, ...]:
    """The set bits of a digit mask as a tuple, ascending, kept per mask (bounded).

    >>> digits_of(0b1010010)
    (1, 4, 6)
    """
    try:
        return _DIGITS[mask]
    except KeyError:
        out = []
        m = mask
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        if len(_DIGITS) >= _DIGITS_MAX:
            _DIGITS.clear()
        t = _DIGITS[mask] = tuple(out)
        return t


def is_single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0
