"""Line rules: renban, German whispers, palindromes, region-sum lines, between lines,
parity lines, 10 lines.

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2"]), renban(["r2c1", "r2c2", "r2c3"]))
>>> p.propagate().candidates("r1c1")
(1, 2, 3, 4, 6, 7, 8, 9)
"""
from __future__ import annotations

from .record import Drawing, FPuzzles, RuleRecord, SudokuPad

from typing import Any, Sequence

from csp import Equal, Less, Puzzle
from csp.errors import InvalidConstraint
from csp.constraints import Automaton, ConsecutiveSet, FunctionConstraint, Relation
from csp.constraints.binary import named_relation
from csp.constraints.function import outside_ends, strictly_between
from csp.constraints.regular import Regular
from csp.constraints.sums import Linear


def loop_cells(ids: Sequence[int]) -> tuple[tuple[int, ...], bool]:
    """A line's cells, and whether it is a closed loop: a line of a rule with
    ``closed_loop`` may end on its first cell (checked by :meth:`csp.Puzzle.use`); the
    closing cell is then dropped, the line read round.

    >>> loop_cells([0, 1, 5, 0]), loop_cells([0, 1, 5])
    (((0, 1, 5), True), ((0, 1, 5), False))
    """
    ids = tuple(ids)
    if len(ids) >= 4 and ids[0] == ids[-1]:
        return ids[:-1], True
    return ids, False


def line_segments(grid: Any, ids: Sequence[int]) -> list[list[int]]:
    """The segments of a region-sum line: its runs of cells in one region, in line order.
    A closed loop is read round, from a cell where the region changes (a run across the
    closing cell is one segment); a loop in one region is one segment.

    >>> from csp import Grid
    >>> g = Grid(4)      # boxes r1-2 c1-2, r1-2 c3-4, ...
    >>> line_segments(g, [0, 1, 2, 6, 5, 4])
    [[0, 1], [2, 6], [5, 4]]
    >>> line_segments(g, [1, 2, 6, 5, 4, 0, 1])      # the loop's box 1 run is 5, 4, 0, 1
    [[2, 6], [5, 4, 0, 1]]
    """
    cells, closed = loop_cells(ids)
    region = grid.region_of
    if closed:
        k = next((i for i in range(len(cells)) if region[cells[i - 1]] != region[cells[i]]),
                 None)
        if k is None:
            return [list(cells)]
        cells = cells[k:] + cells[:k]
    segs: list[list[int]] = []
    for c in cells:
        if segs and region[segs[-1][-1]] == region[c]:
            segs[-1].append(c)
        else:
            segs.append([c])
    return segs


class _Named:
    """A grid's :meth:`~csp.Grid.name` read by index (a multi-grid, which has no table)."""

    __slots__ = ("name",)

    def __init__(self, grid: Any) -> None:
        self.name = grid.name

    def __getitem__(self, cell: int) -> str:
        return self.name(cell)


def _names(grid: Any) -> Any:
    """:meth:`csp.Grid.name` of every cell, by index (a rule naming each relation of a line
    reads the table: one index a cell, not a method call)."""
    names = grid.names_table()
    return names if names is not None else _Named(grid)


class _Line:
    """A line rule whose one argument is its cells (the line's bundles share it)."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any]) -> None:
        self.cells = list(cells)


class _AtLeastApart:
    __slots__ = ("d",)

    def __init__(self, d: int) -> None:
        self.d = d

    def __call__(self, a: int, b: int) -> bool:
        return abs(a - b) >= self.d


class whispers:
    """Adjacent cells along the line differ by at least ``diff`` (German whispers: 5). A
    closed loop (the last cell is the first) also pairs its last cell with its first."""

    cell_lists = ("cells",)
    closed_loop = True

    def __init__(self, cells: Sequence[Any], diff: int = 5) -> None:
        self.cells, self.diff = list(cells), diff

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        name = _names(p.grid)
        diff = self.diff
        p.add(*[named_relation(a, b, _AtLeastApart(diff), f"|-|>={diff}", ("apart", diff),
                               f"whispers {name[a]}-{name[b]}") for a, b in zip(ids, ids[1:])])


class palindrome(_Line):
    """The line reads the same in both directions."""

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        name = _names(p.grid)
        p.add(*[Equal(a, b, f"palindrome {name[a]}={name[b]}")
                for a, b in zip(ids[:len(ids) // 2], ids[::-1])])


class renban(_Line):
    """The line's digits are all different and form a set of consecutive digits (a closed
    loop: the digits of its cells)."""

    closed_loop = True

    def apply(self, p: Puzzle) -> None:
        ids, _ = loop_cells(p.grid.cells(self.cells))     # a closed loop: its cells
        p.add(ConsecutiveSet(ids, f"renban {p.grid.name(ids[0])}"))


class region_sum_line(_Line):
    """The line's segments in each box (region) have equal sums (a closed loop is read
    round, :func:`line_segments`).

    A segment of one cell is the line's total itself, so the model also states what that
    says outright: one-cell segments hold the same digit (as clones), and every cell of a
    segment of two or more cells is smaller than it (the others add at least 1). These
    relations are implied by the sums; they give the clone, colouring, order and chain
    techniques their links ('Forgiven': r4c1 = r1c4, so box 1 places their digit in r2c2).

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), region_sum_line(["r4c1", "r3c2", "r3c3", "r2c3", "r1c4"]))
    >>> [c.name for c in p.constraints if c.kind == "relation"]
    ['region-sum line r4c1: r4c1=r1c4', 'region-sum line r4c1: r3c2<r4c1', 'region-sum line r4c1: r3c2<r1c4', 'region-sum line r4c1: r3c3<r4c1', 'region-sum line r4c1: r3c3<r1c4', 'region-sum line r4c1: r2c3<r4c1', 'region-sum line r4c1: r2c3<r1c4']
    """

    closed_loop = True

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        segs = line_segments(p.grid, ids)
        name = _names(p.grid)
        rules: list[Any] = [Linear(s1 + s2, [1] * len(s1) + [-1] * len(s2), 0,
                                   f"region-sum line {name[s1[0]]}")
                            for s1, s2 in zip(segs, segs[1:])]
        title = f"region-sum line {name[ids[0]]}"
        ones = list(dict.fromkeys(seg[0] for seg in segs if len(seg) == 1))
        rules += [Equal(a, b, f"{title}: {name[a]}={name[b]}") for a, b in zip(ones, ones[1:])]
        inner = list(dict.fromkeys(c for seg in segs if len(seg) > 1 for c in seg))
        rules += [Less(c, a, f"{title}: {name[c]}<{name[a]}")
                  for c in inner for a in ones if a != c]
        p.add(*rules)


class between_line(_Line):
    """Digits on the line lie strictly between the digits of its two end circles."""

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        a, b, inner = ids[0], ids[-1], ids[1:-1]
        title = f"between line {p.grid.name(a)}"
        p.add(*[FunctionConstraint(strictly_between, (a, b, c), title) for c in inner])


class _GroupsDiffer:
    """Digits fall in different groups of three (entropic: 123/456/789, modular: mod 3)."""

    __slots__ = ("n", "mode")

    def __init__(self, n: int, mode: str) -> None:
        self.n, self.mode = n, mode

    def group(self, v: int) -> int:
        if self.mode == "mod":
            return v % 3
        return (v - 1) * 3 // self.n

    def __call__(self, a: int, b: int) -> bool:
        return self.group(a) != self.group(b)


class _GroupsSame(_GroupsDiffer):
    """Digits fall in the same group of three (cells three apart on an entropic or modular
    line)."""

    __slots__ = ()

    def __call__(self, a: int, b: int) -> bool:
        return self.group(a) == self.group(b)


class _ThreeGroupsLine:
    """Any three consecutive cells take the three groups: the model states it as 'different
    groups' between cells one and two apart, and (implied by those) 'same group' between
    cells three apart, so chains and wings walk along the line's classes. On a closed loop
    the windows go round (a loop whose length is no multiple of 3 has no solution)."""

    cell_lists = ("cells",)
    closed_loop = True

    mode = ""
    title = ""

    def __init__(self, cells: Sequence[Any]) -> None:
        self.cells = list(cells)

    def apply(self, p: Puzzle) -> None:
        ids, closed = loop_cells(p.grid.cells(self.cells))
        k = len(ids)
        fn = _GroupsDiffer(p.grid.n, self.mode)
        g = p.grid

        distinct = not closed and len(set(ids)) == k

        def pairs(gaps: Sequence[int]) -> list[tuple[int, int]]:
            """Cells ``gap`` apart along the line (round a closed loop), each pair once."""
            if distinct:           # an open line through distinct cells: no pair twice
                return [(ids[i], ids[i + gap]) for i in range(k) for gap in gaps
                        if i + gap < k]
            out: dict[frozenset, tuple[int, int]] = {}
            for i in range(k):
                for gap in gaps:
                    j = i + gap
                    if j >= k and closed:
                        j %= k
                    if j < k and ids[i] != ids[j]:
                        out.setdefault(frozenset((ids[i], ids[j])), (ids[i], ids[j]))
            return list(out.values())

        # on a closed loop whose length is no multiple of 3 a pair can be both one and
        # three apart: both relations are kept (such a loop has no solution)
        # the cells' names by id (one index each, not a method call: a line makes dozens)
        name, title, mode = g.names_table(), self.title, self.mode
        if name is None:
            name = [g.name(c) for c in range(g.size)]
        label, key = f"{mode}-group!=", (mode, g.n)
        p.add(*[named_relation(a, b, fn, label, key, f"{title} {name[a]}-{name[b]}")
                for a, b in pairs((1, 2))])
        same = _GroupsSame(g.n, mode)
        label, key = f"{mode}-group==", (mode, g.n, "same")
        p.add(*[named_relation(a, b, same, label, key, f"{title} {name[a]}={name[b]} group")
                for a, b in pairs((3,))])


class entropic_line(_ThreeGroupsLine):
    """Any three consecutive cells hold a low (1-3), a middle (4-6) and a high (7-9) digit."""

    mode = "entropic"
    title = "entropic line"


class modular_line(_ThreeGroupsLine):
    """Any three consecutive cells hold digits with three different remainders mod 3."""

    mode = "mod"
    title = "modular line"


class nabner(_Line):
    """No two digits on the line are equal or consecutive (a closed loop: its cells)."""

    closed_loop = True

    def apply(self, p: Puzzle) -> None:
        ids, _ = loop_cells(p.grid.cells(self.cells))     # a closed loop: its cells
        g = p.grid
        for i in range(len(ids)):
            for j in range(i + 1, len(ids)):
                a, b = ids[i], ids[j]
                p.add(Relation(a, b, _AtLeastApart(2), "|-|>=2", ("apart", 2),
                               f"nabner {g.name(a)}-{g.name(b)}"))


class lockout:
    """The end diamonds differ by at least ``diff`` (default 4) and no digit on the line lies
    between them (inclusive)."""

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], diff: int = 4) -> None:
        self.cells, self.diff = list(cells), diff

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        a, b, inner = ids[0], ids[-1], ids[1:-1]
        g = p.grid
        p.add(Relation(a, b, _AtLeastApart(self.diff), f"|-|>={self.diff}",
                       ("apart", self.diff), f"lockout ends {g.name(a)}-{g.name(b)}"))
        for c in inner:
            p.add(FunctionConstraint(outside_ends, (a, b, c),
                                     f"lockout {g.name(a)}: {g.name(c)}"))


class zipper_line(_Line):
    """Cells at equal distance from the line's centre add up to the same total: the centre
    digit for an odd length, the same (unknown) sum for an even length."""

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        k = len(ids)
        g = p.grid
        pairs = [(ids[i], ids[k - 1 - i]) for i in range(k // 2)]
        name = f"zipper line {g.name(ids[0])}"
        if k % 2:
            mid = ids[k // 2]
            for a, b in pairs:
                p.add(Linear([a, b, mid], [1, 1, -1], 0, name))
        else:
            a0, b0 = pairs[-1]
            for a, b in pairs[:-1]:
                p.add(Linear([a, b, a0, b0], [1, 1, -1, -1], 0, name))


def _parity_differs(a: int, b: int) -> bool:
    return (a ^ b) & 1 == 1


class parity_line(_Line):
    """Adjacent cells along the line alternate between odd and even digits. A closed loop
    (the last cell is the first) also pairs its last cell with its first.

    >>> from csp import Puzzle
    >>> p = Puzzle(4).use(parity_line(["r1c1", "r1c2", "r1c3"])).givens({"r1c2": 2})
    >>> p.propagate().candidates("r1c1"), p.propagate().candidates("r1c3")
    ((1, 3), (1, 3))
    """

    closed_loop = True

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        g = p.grid
        for a, b in zip(ids, ids[1:]):
            p.add(Relation(a, b, _parity_differs, "odd/even", ("parity-differs",),
                           f"parity line {g.name(a)}-{g.name(b)}"))


def _ten_step(total: int):
    def step(i: int, s: int, d: int) -> int | None:
        t = s + d
        if t < total:
            return t
        return 0 if t == total else None
    return step


def _is_zero(s: int) -> bool:
    return s == 0


def ten_automaton(total: int = 10) -> Automaton:
    """A line cut into segments that each add up to ``total``, read cell by cell: the state
    is the sum of the segment so far (0: a segment just closed). Digits are positive, so a
    segment ends exactly where its sum reaches ``total``: the cut is never a choice.

    >>> a = ten_automaton()
    >>> s = a.start
    >>> for i, d in enumerate((1, 9, 4, 6)):
    ...     s = a.step(i, s, d)
    >>> a.accept(s), a.step(0, 0, 11)
    (True, None)
    """
    return Automaton(0, _ten_step(total), _is_zero)


class ten_line:
    """The line divides into segments of consecutive cells that each add up to 10 (a
    segment may cross boxes; digits may repeat where no other rule forbids it). ``total``
    gives lines of another sum.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> p = Puzzle(9).use(classic(), ten_line(["r1c1", "r1c2", "r1c3"]))
    >>> p.propagate().candidates("r1c2")      # one segment of 3 cells: 9 never fits
    (1, 2, 3, 4, 5, 6, 7, 8)
    >>> p.propagate().candidates("r1c1")      # a segment of 1 would need a 10
    (1, 2, 3, 4, 5, 6, 7, 8)
    """

    cell_lists = ("cells",)

    def __init__(self, cells: Sequence[Any], total: int = 10) -> None:
        if total < 1:
            raise InvalidConstraint(f"10 line: segment sum {total} must be positive")
        self.cells, self.total = list(cells), total

    def apply(self, p: Puzzle) -> None:
        ids = p.grid.cells(self.cells)
        g = p.grid
        label = "10 line" if self.total == 10 else f"{self.total} line"
        p.add(Regular(ids, ten_automaton(self.total), f"{label} {g.name(ids[0])}", "ten-line"))


__all__ = ["between_line", "entropic_line", "lockout", "modular_line", "nabner", "palindrome", "parity_line", "region_sum_line", "renban", "ten_line", "whispers", "zipper_line"]

# -- records: what the application needs about each rule (variants/record.py) -------------
_PAIRS = ("pair_rules", "pair_mandatory", "neighbour_pinch", "house_arrangement")
_PAIRS_LOGIC = ("pairs_logic", "arrangement_logic")
_CELLS = (("cells", "cells"),)
between_line.record = RuleRecord(
    FPuzzles("line", "betweenline"),
    (SudokuPad("between", "line", (("#CFCFCF", 2),), ends="both", aliases=("between-line",),
               text=(r"\bbetween lines?\b", r"\bstrictly between",
                     r"\bin between the (values|digits)")),),
    Drawing("line", "#a8cdfa", ends="circles"), args=_CELLS,
    logic=("between_lockout_logic",), techniques=("between_span",))
entropic_line.record = RuleRecord(
    FPuzzles("line", "entropicline"),
    (SudokuPad("entropic", "line", (("#FFCCAA", None),), aliases=("entropic-line",),
               text=(r"\bentropic", r"\blow\b[^.;]{0,40}\b(middle|medium)\b[^.;]{0,40}\bhigh\b")),),
    Drawing("line", "#ffae42"), args=_CELLS,
    logic=("entropic_modular_logic", *_PAIRS_LOGIC), techniques=("entropic_groups",) + _PAIRS)
lockout.record = RuleRecord(
    FPuzzles("line", "lockout", value="diff", default=lambda n: n // 2),
    (SudokuPad("lockout", "line", (("#AABEEF", None),), ends="both",
               aliases=("lockout-line",), text=(r"\blockout", r"\bdiamond"),
               suppresses=("whispers", "between")),),
    Drawing("line", "#9ccc65", ends="diamonds"), args=(("cells", "cells"), ("diff", "int")),
    logic=("between_lockout_logic",), techniques=("lockout_span",))
modular_line.record = RuleRecord(
    FPuzzles("line", "modularline"),
    (SudokuPad("modular", "line", (("#33BBBB", None),), aliases=("modular-line",),
               text=(r"\bmodular line", r"\bresidue", r"\bmodulo 3")),),
    Drawing("line", "#35c0b5"), args=_CELLS,
    logic=("entropic_modular_logic", *_PAIRS_LOGIC), techniques=("modular_groups",) + _PAIRS)
nabner.record = RuleRecord(
    FPuzzles("line", "nabner"), (SudokuPad("nabner", "line", (("#C9C883", None),),
                                                  text=(r"\bnabner",)),),
    Drawing("line", "#e6d200"), args=_CELLS, logic=_PAIRS_LOGIC, techniques=_PAIRS)
palindrome.record = RuleRecord(
    FPuzzles("line", "palindrome"), (SudokuPad("palindrome", "line", (("#CFCFCF", 16),), text=(
        r"\bpalindrom", r"\bread(s)? the same (forwards?|backwards?|in (both|either))")),),
    Drawing("line", "#b0b0b0"), args=_CELLS,
    logic=("clone_logic",), techniques=("clone_pointing", "equal_digit_colouring"))
region_sum_line.record = RuleRecord(
    FPuzzles("line", "regionsumline"),
    (SudokuPad("region-sum", "line", (("#2ECBFF", None),),
               aliases=("region-sum-line", "regionsum"),
               text=(r"\bregion sum", r"\bsum ?line", r"\bsame sum", r"\bsum to the same",
                     r"\bsame total")),),
    Drawing("line", "#4ea3ff"), args=_CELLS,
    logic=("region_sum_logic",), techniques=("region_sum_segments",))
renban.record = RuleRecord(
    FPuzzles("line", "renban"),
    (SudokuPad("renban", "line", (("#F067F0", None), ("#C060C0", None)), text=(
        r"\brenban", r"\bset of (non repeating |nonrepeating |unique )?consecutive",
        r"\bconsecutive (digits|numbers|integers)?[^.;]{0,40}\bany order",
        r"\bconsecutive set")),),
    Drawing("line", "#e07ff5"), args=_CELLS, logic=("renban_logic",),
    techniques=("renban_mandatory", "renban_house_overlap", "renban_house_split",
                "renban_cage_exclusion"))
whispers.record = RuleRecord(
    FPuzzles("line", "whispers", value="diff", default=lambda n: (n + 1) // 2),
    (SudokuPad("whispers", "line", (("#67F067", None),),
               aliases=("whisper", "german-whispers", "german-whisper"),
               text=(r"\b(german )?whisper",
                     r"\bdiffer(ence|ent|ing|s)?\b[^.;]{0,25}?\b(at least|a minimum of|minimum|"
                     r"no less than) {N}",
                     r"\bdiffer(ence|ent|ing|s)?\b[^.;]{0,25}?\b{N} or (more|greater|higher|"
                     r"larger)")),
     SudokuPad("dutch-whispers", "line", (("#FF9A00", None),), aliases=("dutch-whisper",),
               default=lambda n: (n + 1) // 2 - 1, text=(r"\bdutch whisper",),
               suppresses=("whispers",))),
    Drawing("line", "#5fcf50"), args=(("cells", "cells"), ("diff", "int")),
    logic=("whisper_logic", *_PAIRS_LOGIC),
    techniques=("whisper_neighbours", "whisper_polarity", "polarity_chain",
                "polarity_count") + _PAIRS)
zipper_line.record = RuleRecord(
    FPuzzles("line", "zipperline"),
    (SudokuPad("zipper", "line", (("#CDB1EC", None),), aliases=("zipper-line",),
               text=(r"\bzipper", r"\bsame distance from the (centre|center)")),),
    Drawing("line", "#b9a3e3"), args=_CELLS, logic=_PAIRS_LOGIC, techniques=_PAIRS)
#: SudokuPad lines are read through their f-puzzles form, which has no key for these
_NO_KEY = ("read from lines the rules text names (built after the f-puzzles form, which has "
           "no key for it)")
parity_line.record = RuleRecord(
    FPuzzles("none", reason="it has no parity line (its plain lines carry no meaning)"),
    (SudokuPad("parity-line", "custom", reason=_NO_KEY, drawn="line", text=(
        r"\bparity lines?\b", r"\balternate (between |in )?(odd and even|even and odd|parity)",
        r"\b(odd and even|even and odd|parity)[^.;]{0,30}\balternate")),),
    Drawing("line", "#e8716d"), args=_CELLS, logic=_PAIRS_LOGIC, techniques=_PAIRS)
ten_line.record = RuleRecord(
    FPuzzles("none", reason="it has no 10 line (its plain lines carry no meaning)"),
    (SudokuPad("10-line", "custom", reason=_NO_KEY, drawn="line", text=(
        r"\b(10|ten) lines?\b", r"\bsegments?\b[^.;]{0,60}\bsums? (to|of) (exactly )?(10|ten)\b"),
               suppresses=("region-sum",)),),
    Drawing("line", "#7fb3d5"), args=(("cells", "cells"), ("total", "int")))
