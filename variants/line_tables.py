"""The line rules as the line techniques read them (German whispers, renban, region-sum,
zipper, between, lockout, entropic and modular lines): :class:`LineTables` per puzzle, read from its
line bundles, and the small helpers the line technique modules share (a cell's value, cell
names, eliminations, a step's pattern, a digit range's text). No technique here.
"""
from __future__ import annotations

from typing import Sequence

from csp.bits import digits_of
from csp.step import Candidate, digit_symbol
from techniques.analysis import Analysis


FAMILY = "lines"


#: entries of a line table's memo before it is cleared (bounds its memory; not measured)
MEMO_MAX = 50_000


class Line:
    """One line rule: its cells in order, a display name and rule-specific data."""

    __slots__ = ("kind", "cells", "name", "data")

    def __init__(self, kind: str, cells: Sequence[int], name: str, data=None) -> None:
        self.kind, self.cells, self.name, self.data = kind, tuple(cells), name, data


class LineTables:
    """Per puzzle: the line rules read from its bundles (``Puzzle.bundles``), with what the
    techniques need precomputed (segments, groups of inner cells sharing a house, classes)."""

    def __init__(self, puzzle) -> None:
        from . import lines as L
        g = puzzle.grid
        self.n = n = g.n
        houses = [h.cells for h in puzzle.houses()]
        self.lines: list[Line] = []
        for b, _ in puzzle.bundles:
            if not isinstance(b, (L.whispers, L.renban, L.region_sum_line, L.between_line,
                                  L.lockout, L.entropic_line, L.modular_line, L.zipper_line)):
                continue
            cells = g.cells(b.cells)
            if len(cells) < 2:
                continue
            first = g.name(cells[0])
            if isinstance(b, L.whispers):
                d = b.diff
                label = "German whispers" if d == 5 and n == 9 else f"whispers (difference {d})"
                self.lines.append(Line("whisper_pairs", cells, f"{label} {first}", d))
                if 2 * d >= n:
                    low = sum(1 << v for v in range(1, n - d + 1))
                    high = sum(1 << v for v in range(d + 1, n + 1))
                    self.lines.append(Line("whispers", cells, f"{label} {first}",
                                           (_position_classes(cells, 2), (low, high),
                                            ("low", "high"))))
            elif isinstance(b, L.renban):      # a closed loop: its cells
                self.lines.append(Line("renban", L.loop_cells(cells)[0], f"renban {first}"))
            elif isinstance(b, L.region_sum_line):
                segs = L.line_segments(g, cells)       # a closed loop read round
                if len(segs) >= 2:
                    self.lines.append(Line("region_sum", L.loop_cells(cells)[0],
                                           f"region-sum line {first}",
                                           [tuple(s) for s in segs]))
            elif isinstance(b, L.zipper_line):
                # the parts that share one total: the pairs at equal distance from the
                # centre, and the centre cell of an odd line (the total itself)
                k = len(cells)
                if k >= 3 and len(set(cells)) == k:
                    segs = [(cells[i], cells[k - 1 - i]) for i in range(k // 2)]
                    if k % 2:
                        segs.append((cells[k // 2],))
                    if len(segs) >= 2:
                        self.lines.append(Line("zipper", cells, f"zipper line {first}", segs))
            elif isinstance(b, (L.between_line, L.lockout)):
                if len(cells) < 3:
                    continue
                inner = cells[1:-1]
                groups = _house_groups(inner, houses)
                if isinstance(b, L.lockout):
                    self.lines.append(Line("lockout", cells, f"lockout {first}",
                                           (groups, b.diff)))
                else:
                    self.lines.append(Line("between", cells, f"between line {first}",
                                           (groups, 0)))
            else:
                mode = "entropic" if isinstance(b, L.entropic_line) else "mod"
                fn = L._GroupsDiffer(n, mode)
                masks = [0, 0, 0]
                for v in range(1, n + 1):
                    masks[fn.group(v)] |= 1 << v
                if mode == "entropic":
                    names = tuple(_digit_range(m) for m in masks)
                    title = f"entropic line {first}"
                else:
                    names = tuple(f"{{{''.join(digit_symbol(v) for v in digits_of(m))}}}"
                                  for m in masks)
                    title = f"modular line {first}"
                self.lines.append(Line(mode, cells, title,
                                       (_position_classes(cells, 3), tuple(masks), names)))
        #: results of the costly searches, keyed on the candidates they read
        self.memo: dict = {}
        #: per class line: the cells of the houses it touches
        self.touched: dict[tuple[int, ...], tuple[int, ...]] = {}
        #: per region-sum line: whether cells of different segments see each other
        self.crossing: dict[tuple[int, ...], bool] = {}

    def of(self, kind: str) -> list[Line]:
        return [ln for ln in self.lines if ln.kind == kind]

    def remember(self, key, value):
        if len(self.memo) > MEMO_MAX:
            self.memo.clear()
        self.memo[key] = value
        return value


def _position_classes(cells: Sequence[int], period: int) -> tuple[tuple[int, ...], ...]:
    """The cells grouped by position mod ``period`` (fewer classes on a short line); a cell
    met twice (a line crossing itself) stays in its first class."""
    k = min(period, len(cells))
    out: list[list[int]] = [[] for _ in range(k)]
    seen: set[int] = set()
    for i, c in enumerate(cells):
        if c not in seen:
            seen.add(c)
            out[i % period].append(c)
    return tuple(tuple(x) for x in out)


def _house_groups(cells: Sequence[int], houses: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Maximal groups of ``cells`` that share a house (at least two cells), plus the cells in
    no such group alone."""
    groups: set[tuple[int, ...]] = set()
    for h in houses:
        hs = set(h)
        g = tuple(c for c in dict.fromkeys(cells) if c in hs)
        if len(g) >= 2:
            groups.add(g)
    out = [g for g in groups if not any(set(g) < set(o) for o in groups)]
    covered = {c for g in out for c in g}
    out += [(c,) for c in dict.fromkeys(cells) if c not in covered]
    return sorted(out, key=lambda g: (-len(g), g))


def line_tables(puzzle) -> LineTables:
    """The :class:`LineTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(LineTables)


# -- helpers -------------------------------------------------------------------------------
def _digit_range(mask: int) -> str:
    """``1-3`` for a run of three or more digits, else the digits: ``1-3``, ``46``.

    >>> _digit_range(0b1110), _digit_range(0b1010000)
    ('1-3', '46')
    """
    ds = digits_of(mask)
    if len(ds) >= 3 and ds[-1] - ds[0] == len(ds) - 1:
        return f"{digit_symbol(ds[0])}-{digit_symbol(ds[-1])}"
    return "".join(digit_symbol(d) for d in ds)


def _value(an: Analysis, c: int) -> int:
    """Candidates of ``c``, or the placed digit's bit."""
    return an.cand[c] or (1 << an.state.placed[c])


def _names(an: Analysis, cells, sep: str = ",") -> str:
    return sep.join(an.name(c) for c in cells)


def _elims(an: Analysis, cells: Sequence[int], keep: Sequence[int]) -> list[Candidate]:
    out = []
    for c, k in zip(cells, keep):
        bad = an.cand[c] & ~k
        if bad:
            out.extend(Candidate(c, d) for d in digits_of(bad))
    return out


def _pattern(an: Analysis, cells) -> tuple[Candidate, ...]:
    return tuple(Candidate(c, d) for c in cells for d in digits_of(an.cand[c]))
