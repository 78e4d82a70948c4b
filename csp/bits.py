"""Bitmask helpers. A candidate set is an int whose bit ``d`` stands for digit ``d``.

>>> mask_of([1, 3, 9])
522
>>> list(iter_bits(522))
[1, 3, 9]
>>> popcount(522), lowest(522), highest(522)
(3, 1, 9)
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Iterator


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
    """Smallest digit of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@lru_cache(maxsize=1 << 17)
def digits_of(mask: int) -> tuple[int, ...]:
    """Cached tuple of the digits in ``mask`` (ascending)."""
    return tuple(iter_bits(mask))


def is_single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0
