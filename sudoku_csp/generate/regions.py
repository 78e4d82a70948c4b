"""Random jigsaw layouts (:func:`random_regions`)."""
from __future__ import annotations

import random

from csp import Grid


def random_regions(n: int, rng: random.Random, swaps: int | None = None) -> list[int]:
    """A random jigsaw layout: a region index per cell, n orthogonally connected regions of
    n cells each.

    Starts from the boxes (rows when n has no box shape) and makes ``swaps`` (default
    ``30 * n * n``) random exchanges of two neighbouring cells of different regions, each
    kept only when both regions stay connected, so every layout on the way is valid.

    >>> regs = random_regions(6, random.Random(2))
    >>> sorted(regs.count(i) for i in range(6))
    [6, 6, 6, 6, 6, 6]
    >>> regs != list(Grid(6).region_of)
    True
    """
    g = Grid(n)
    size = g.size
    region = list(g.region_of) if g.regions else [c // n for c in range(size)]
    nbrs = [g.orthogonal(c) for c in range(size)]
    members = [set() for _ in range(n)]
    for c in range(size):
        members[region[c]].add(c)

    def connected(cells: set[int]) -> bool:
        start = next(iter(cells))
        seen = {start}
        todo = [start]
        while todo:
            c = todo.pop()
            for x in nbrs[c]:
                if x in cells and x not in seen:
                    seen.add(x)
                    todo.append(x)
        return len(seen) == len(cells)

    edges = [(a, b) for a in range(size) for b in nbrs[a] if a < b]
    for _ in range(30 * size if swaps is None else swaps):
        a, b = rng.choice(edges)
        ra, rb = region[a], region[b]
        if ra == rb:
            continue
        # a moves to b's region and some other cell x of b's region (next to a's region)
        # moves to a's: swapping a and b themselves would change nothing in the shape
        xs = [x for x in members[rb] if x != b and any(region[y] == ra and y != a
                                                       for y in nbrs[x])]
        if not xs:
            continue
        x = rng.choice(sorted(xs))
        A = members[ra] - {a} | {x}
        B = members[rb] - {x} | {a}
        if connected(A) and connected(B):
            members[ra], members[rb] = A, B
            region[a], region[x] = rb, ra
    return region
