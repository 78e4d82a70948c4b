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

- ``equal_digit_colouring``: colours of cells proven to hold one digit, digits unknown (the
  coloring-book break-in). A colour starts as a group of equal cells (or one cell); its
  digit is somewhere in every full house, and a house cell can take it only when that
  cell's colour shares a candidate d with it and no cell of one sees a cell of the other
  for d (a house, a knight's or king's move, any link). When one cell of a house without
  the colour can, it joins the colour. A colour keeps the candidates all its cells share,
  minus a digit that would leave a house no place for it. Puzzles with houses only skip it.

>>> from variants.chess import anti_knight
>>> q = Puzzle(9).use(classic(), anti_knight())
>>> st = q.propagate()
>>> st.cand[q.cell("r1c1")] = 0b110                     # r1c1 is 1 or 2
>>> for c in range(4, 10):                               # row 3: 1, 2 only in box 1
...     st.cand[q.cell(f"r3c{c}")] &= ~0b110
>>> st.cand[q.cell("r3c4")] |= 0b100                    # ... or r3c4, which may be 2
>>> StepSolver().find_all(st, "equal_digit_colouring")[0].explain(2)
"Equal-Digit Colouring: r1c1=r3c4 hold one digit (r3c4 is the only cell of row 3 that can hold r1c1's digit), so 2 => r1c1<>1, r3c4<>3456789"
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of, iter_cells
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
                yield Step("clone_pointing", digits=(x,), title="Clone Pointing", namer=w,
                           houses=(an.houses[h].name,),
                           eliminations=tuple(Candidate(c, x) for c in cells
                                              if an.cand[c] >> x & 1),
                           pattern=tuple(Candidate(c, x) for c in iter_cells(pos)),
                           note=f"{'='.join(an.name(c) for c in cells)} ({names}): "
                                f"{digit_symbol(x)} of {an.houses[h].name} only in "
                                f"{','.join(an.name(c) for c in iter_cells(pos))}, each seeing "
                                f"{' or '.join(an.name(c) for c in cells)}")
                break


class _Colouring:
    """Equal-digit colours of one state: cells proven to hold one digit, with the reasons.

    A colour starts as one cell (or a group of ``Equal`` cells); placed cells take part with
    their digit. Its digit is one of the candidates all its cells share (``mask``). Colour
    X *blocks* colour Y for digit d when some cell of X sees some cell of Y for d (a house,
    an anti-knight or anti-king move, any weak link): they cannot both be d. X's digit
    appears once in every full house; a cell of such a house can hold it only when its
    colour shares a candidate d with X and is not blocked by X for d. When a house without
    a cell of X has one such cell only, that cell holds X's digit and joins X.
    """

    def __init__(self, an: Analysis, groups) -> None:
        size = an.size
        self.an = an
        placed = an.state.placed
        val = [an.cand[c] or (1 << placed[c] if placed[c] else 0) for c in range(size)]
        self.parent = list(range(size))
        self.members = {c: 1 << c for c in range(size) if val[c]}
        self.mask = {c: val[c] for c in self.members}
        self.why: dict[int, list[str]] = {c: [] for c in self.members}
        #: cells whose colour has two cells or more (the others are their own colour)
        self.multi = 0
        for cells, _gmask, names in groups:
            for c in cells[1:]:
                self.union(cells[0], c, names)

    def find(self, x: int) -> int:
        p = self.parent
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a: int, b: int, why: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb or ra not in self.members or rb not in self.members:
            return
        self.parent[rb] = ra
        self.members[ra] |= self.members.pop(rb)
        self.mask[ra] &= self.mask.pop(rb)
        self.why[ra] += self.why.pop(rb) + [why]
        self.multi |= self.members[ra]
        self._holds = None

    def holds(self, d: int) -> int:
        """Cells whose colour can still be digit d."""
        h = self._holds
        if h is None:
            h = self._holds = [0] * (self.an.n + 1)
            for root, m in self.mask.items():
                cells = self.members[root]
                for x in digits_of(m):
                    h[x] |= cells
        return h[d]

    _holds: list[int] | None = None

    def free(self, root: int, d: int) -> int:
        """Cells that may hold digit d if colour ``root`` is d: their colour can be d and
        is not blocked by the colour for d."""
        pd = self.an.links.peers_d[d]
        seen = 0
        for c in iter_cells(self.members[root]):
            seen |= pd[c]
        holds = self.holds(d)
        # the colours of the cells seen: a cell alone in its colour blocks itself only
        blocked = seen & holds
        x = blocked & self.multi
        while x:
            low = x & -x
            m = self.members[self.find(low.bit_length() - 1)]
            blocked |= m
            x &= ~m
        return holds & ~blocked

    def open_cells(self, root: int) -> int:
        """Cells that may hold the colour's digit (cells of the colour included)."""
        out = 0
        for d in digits_of(self.mask[root]):
            out |= self.free(root, d)
        return out

    def grow(self) -> None:
        """Join colours by the one-open-cell rule until nothing changes."""
        an = self.an
        changed = True
        while changed:
            changed = False
            for root in list(self.members):
                if root not in self.members:
                    continue
                open_ = self.open_cells(root)
                for h in an.full:
                    hm = an.house_mask[h]
                    if self.members[root] & hm:
                        continue
                    here = open_ & hm
                    if here & (here - 1) or not here:
                        continue
                    c = here.bit_length() - 1
                    self.union(root, c, f"{an.name(c)} is the only cell of "
                                        f"{an.houses[h].name} that can hold "
                                        f"{an.name(root)}'s digit")
                    changed = True
                    root = self.find(root)
                    open_ = self.open_cells(root)

    def fits(self, root: int) -> tuple[int, list[str]]:
        """The colour's digits that have a place in every full house without a cell of it,
        and why each other digit goes ("no 5 in row 3")."""
        an = self.an
        cells = self.members[root]
        mask = self.mask[root]
        why = []
        for d in digits_of(mask):
            free = self.free(root, d)
            for h in an.full:
                hm = an.house_mask[h]
                if not cells & hm and not free & hm:
                    mask &= ~(1 << d)
                    why.append(f"no {digit_symbol(d)} left in {an.houses[h].name}")
                    break
        return mask, why


def _colour_groups(an: Analysis):
    """The clone groups when equal-digit colouring applies to the puzzle, else None: it needs
    ``Equal`` relations or links beyond the houses (a classic or killer grid skips it)."""
    groups = clone_tables(an.puzzle).groups
    if not groups and an.links.uniform:
        return None
    return groups


@register("equal_digit_colouring", "Equal-Digit Colouring", FAMILY)
def equal_digit_colouring(an: Analysis, opts: dict) -> Iterator[Step]:
    """Colour cells that must hold one digit (equal relations, and a house where one cell
    only can take a colour's digit); a colour's digit is a candidate of all its cells and
    has a place in every house: the other candidates of its cells go."""
    groups = _colour_groups(an)
    if groups is None:
        return
    col = _Colouring(an, groups)
    col.grow()
    w = an.grid.namer
    for root, cells in list(col.members.items()):
        if not cells & an.unsolved:
            continue
        mask, gone = col.fits(root)
        elims = tuple(Candidate(c, d) for c in iter_cells(cells & an.unsolved)
                      for d in digits_of(an.cand[c] & ~mask))
        if not elims:
            continue
        names = "=".join(an.name(c) for c in iter_cells(cells))
        same = "; ".join(col.why[root])
        parts = [f"{names} hold one digit ({same})"] if same else [names]
        if gone:
            parts.append(f"as {'/'.join(gone)} ({'it' if cells & (cells - 1) == 0 else 'they'} "
                         f"would see every place)")
        parts.append(f"so {''.join(digit_symbol(d) for d in digits_of(mask)) or 'nothing'}")
        yield Step("equal_digit_colouring", digits=tuple(sorted({e.digit for e in elims})),
                   title="Equal-Digit Colouring", namer=w, eliminations=elims,
                   pattern=tuple(Candidate(c, d) for c in iter_cells(cells & an.unsolved)
                                 for d in digits_of(an.cand[c] & mask)),
                   note=", ".join(parts))
