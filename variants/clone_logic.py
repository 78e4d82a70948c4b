"""Named techniques of equal cells: clones and palindromes (any ``Equal`` relations).

- ``clone_pointing``: cells that must be equal (a clone pair, the two cells of a palindrome
  at the same distance from its ends, or a chain of such equalities) hold one digit, so a
  cell that sees any of them for that digit sees them all. When every place a house has left
  for digit X sees one of the equal cells, none of them can be X: it would take X from the
  whole house.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.lines import palindrome
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), palindrome(["r1c1", "r2c2", "r3c3", "r4c4", "r5c5"]))
>>> st = p.propagate()
>>> for c in (2, 3, 4, 6, 7, 8, 9):
...     st.cand[p.cell(f"r9c{c}")] &= ~(1 << 7)      # 7 of row 9 only in r9c1, r9c5
>>> [s.explain(2) for s in StepSolver().find_all(st, "clone_pointing")]
['Clone Pointing: r1c1=r5c5 (palindrome r1c1=r5c5): 7 of row 9 only in r9c1,r9c5, each seeing r1c1 or r5c5 => r1c1<>7, r5c5<>7']
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import iter_cells
from csp.constraints.binary import Relation, RelationKind
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import register

FAMILY = "clone"


class CloneTables:
    """Per puzzle: groups of cells that must hold one digit (joined by ``Equal`` relations,
    closed over chains), with the names of the relations."""

    def __init__(self, puzzle) -> None:
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        names: dict[int, list[str]] = {}
        edges = []
        for c in puzzle.constraints:
            if isinstance(c, Relation) and c.relation is RelationKind.EQ:
                edges.append((c.a, c.b, c.name))
                ra, rb = find(c.a), find(c.b)
                if ra != rb:
                    parent[ra] = rb
        groups: dict[int, list[int]] = {}
        for a, b, _ in edges:
            for x in (a, b):
                groups.setdefault(find(x), [])
                if x not in groups[find(x)]:
                    groups[find(x)].append(x)
        for a, b, name in edges:
            names.setdefault(find(a), []).append(name)
        self.groups: list[tuple[tuple[int, ...], int, str]] = []
        for root, cells in groups.items():
            cells.sort()
            mask = 0
            for c in cells:
                mask |= 1 << c
            self.groups.append((tuple(cells), mask, ", ".join(names[root])))
        self.groups.sort()


def clone_tables(puzzle) -> CloneTables:
    """The :class:`CloneTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(CloneTables)


def _placed_in(an: Analysis, h: int, x: int) -> bool:
    """Is digit ``x`` already placed in house ``h``?"""
    placed = an.state.placed
    return any(placed[c] == x for c in iter_cells(an.house_mask[h] & ~an.unsolved))


@register("clone_pointing", "Clone Pointing", FAMILY)
def clone_pointing(an: Analysis, opts: dict) -> Iterator[Step]:
    """Equal cells (clones, palindrome twins) hold one digit, so whatever sees one of them
    sees them all: when every place a house has left for X sees one of the equal cells,
    they cannot be X."""
    t = clone_tables(an.puzzle)
    if not t.groups:
        return
    w = an.grid.namer
    for cells, gmask, names in t.groups:
        common = -1
        for c in cells:
            common &= an.cand[c]
        if not common:
            continue
        for x in range(1, an.n + 1):
            if not common >> x & 1:
                continue
            seen = 0
            for c in cells:
                seen |= an.peers(c, x)
            seen &= ~gmask
            for h in an.full:
                pos = an.pos(h, x)
                if not pos or pos & ~seen or _placed_in(an, h, x):
                    continue
                yield Step("clone_pointing", digits=(x,), title="Clone Pointing", width=w,
                           houses=(an.houses[h].name,),
                           eliminations=tuple(Candidate(c, x) for c in cells
                                              if an.cand[c] >> x & 1),
                           pattern=tuple(Candidate(c, x) for c in iter_cells(pos)),
                           note=f"{'='.join(an.name(c) for c in cells)} ({names}): "
                                f"{digit_symbol(x)} of {an.houses[h].name} only in "
                                f"{','.join(an.name(c) for c in iter_cells(pos))}, each seeing "
                                f"{' or '.join(an.name(c) for c in cells)}")
                break
