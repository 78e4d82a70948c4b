"""Step, Candidate and Link: an explained deduction.

>>> s = Step("xy_wing", eliminations=(Candidate(43, 7),),
...          pattern=(Candidate(11, 1), Candidate(11, 5), Candidate(16, 1), Candidate(16, 7),
...                   Candidate(38, 5), Candidate(38, 7)), digits=(1, 5, 7), title="XY-Wing")
>>> s.explain(0)
'XY-Wing'
>>> s.explain(2)
'XY-Wing: 1/5 r2c3, 1/7 r2c8, 5/7 r5c3 => r5c8<>7'
>>> s.to_dict()["eliminations"]
['r5c8<>7']
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, Sequence

from .bits import digits_of
from .io import SYMBOLS


class Candidate(NamedTuple):
    """Digit ``digit`` in cell ``cell``."""

    cell: int
    digit: int

    def name(self, width: "int | Namer" = 9) -> str:
        return cell_name(self.cell, width)


class Link(NamedTuple):
    """A link of a chain between two nodes; a node is a tuple of candidates (a group of
    cells with one digit, or a single candidate). ``strong``: at least one is true."""

    a: tuple[Candidate, ...]
    b: tuple[Candidate, ...]
    strong: bool


class Namer(Protocol):
    """Anything that names cells (a multi-grid, see :attr:`csp.grid.Grid.namer`)."""

    def name(self, cell: int) -> str: ...


def cell_name(cell: int, width: "int | Namer" = 9) -> str:
    """``r5c8``: row-major naming with row length ``width``, or ``width.name(cell)`` when a
    grid is given (multi-grids, whose cells are not row-major on a square)."""
    if isinstance(width, int):
        return f"r{cell // width + 1}c{cell % width + 1}"
    return width.name(cell)


def digit_symbol(d: int) -> str:
    return SYMBOLS[d - 1] if 1 <= d <= len(SYMBOLS) else str(d)


def digits_text(mask: int) -> str:
    """The digits of a candidate mask (bit ``d`` for digit ``d``; bit 0 is no digit) as one
    word, ascending, each as :func:`digit_symbol` writes it (10 is ``A`` on 16x16).

    >>> digits_text(0b1010010), digits_text(1 << 1 | 1 << 10 | 1 << 16), digits_text(0)
    ('146', '1AG', '')
    """
    return "".join(digit_symbol(d) for d in digits_of(mask) if d)


def format_candidates(cands: Sequence[Candidate], op: str, width: "int | Namer" = 9) -> str:
    """``r5c8<>7, r5c9<>7`` (grouped by cell: ``r5c8<>17``)."""
    by_cell: dict[int, list[int]] = {}
    for c in cands:
        by_cell.setdefault(c.cell, []).append(c.digit)
    return ", ".join(f"{cell_name(cell, width)}{op}{''.join(digit_symbol(d) for d in sorted(ds))}"
                     for cell, ds in by_cell.items())


def format_node(node: Sequence[Candidate], width: "int | Namer" = 9) -> str:
    """``(7)r1c2`` or a group ``(7)r1c23``-style list ``(7)r1c2,r1c3``."""
    digits = sorted({c.digit for c in node})
    cells = ",".join(cell_name(c, width) for c in sorted(set(c.cell for c in node)))
    return f"({''.join(digit_symbol(d) for d in digits)}){cells}"


@dataclass(frozen=True, slots=True)
class Step:
    """One deduction: what it places and eliminates, and the pattern that proves it.

    ``technique`` is the registry name; ``title`` the display name; ``digits`` the digits of
    the move (HoDoKu library convention); ``houses`` base/cover sets; ``links`` a chain in
    order; ``note`` an optional technique-specific middle part of the level-2 text; ``namer``
    what names the cells: the grid's :attr:`csp.grid.Grid.namer` (or, for a plain row-major
    grid, its width).
    """

    technique: str
    placements: tuple[Candidate, ...] = ()
    eliminations: tuple[Candidate, ...] = ()
    pattern: tuple[Candidate, ...] = ()
    houses: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    digits: tuple[int, ...] = ()
    title: str = ""
    note: str = ""
    namer: "int | Namer" = 9
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def name(self) -> str:
        return self.title or self.technique.replace("_", " ").title()

    @property
    def width(self) -> "int | Namer":
        """The old name of :attr:`namer` (read only)."""
        return self.namer

    def pattern_text(self) -> str:
        by_cell: dict[int, list[int]] = {}
        for c in self.pattern:
            by_cell.setdefault(c.cell, []).append(c.digit)
        return ", ".join("/".join(digit_symbol(d) for d in sorted(ds)) + " " +
                         cell_name(cell, self.namer) for cell, ds in by_cell.items())

    def chain_text(self) -> str:
        """Eureka-like notation of ``links``: ``(7)r1c2=(7)r1c5-(7)r3c4``."""
        if not self.links:
            return ""
        out = format_node(self.links[0].a, self.namer)
        for ln in self.links:
            out += ("=" if ln.strong else "-") + format_node(ln.b, self.namer)
        return out

    def result_text(self) -> str:
        parts = []
        if self.placements:
            parts.append(format_candidates(self.placements, "=", self.namer))
        if self.eliminations:
            parts.append(format_candidates(self.eliminations, "<>", self.namer))
        return ", ".join(parts)

    def explain(self, level: int = 2) -> str:
        """0: technique name; 1: plus digits and houses; 2: full pattern and result, then
        the rules that link its candidates (``extra["via"]``, see
        :func:`csp.links.rule_citations`) and the reasons a technique keeps for the reader
        (``extra["detail"]``: a text, or an object whose ``str()`` works it out)."""
        if level <= 0:
            return self.name
        if level == 1:
            bits = [self.name]
            if self.digits:
                bits.append("digit" + ("s " if len(self.digits) > 1 else " ") +
                            "/".join(digit_symbol(d) for d in self.digits))
            if self.houses:
                bits.append("in " + ", ".join(self.houses))
            return " ".join(bits)
        middle = self.note or self.chain_text() or self.pattern_text()
        if not middle and self.houses:
            middle = ", ".join(self.houses)
        head = f"{self.name}: {middle}" if middle else self.name
        text = f"{head} => {self.result_text()}"
        via = self.extra.get("via")
        if via:
            text += f" ({via})"
        detail = self.extra.get("detail")
        if detail is not None:
            text += f". Why: {detail}"
        return text

    def to_dict(self) -> dict:
        w = self.namer
        return {
            "technique": self.technique,
            "title": self.name,
            "digits": list(self.digits),
            "placements": [f"{c.name(w)}={digit_symbol(c.digit)}" for c in self.placements],
            "eliminations": [f"{c.name(w)}<>{digit_symbol(c.digit)}" for c in self.eliminations],
            "pattern": [f"{c.name(w)}:{digit_symbol(c.digit)}" for c in self.pattern],
            "houses": list(self.houses),
            "text": self.explain(2),
        }

    def _repr_svg_(self) -> str | None:
        """SVG picture for Jupyter, drawn by the renderer an upper layer registered
        (:mod:`csp.display`); None (text repr) when none is registered."""
        from .display import repr_svg
        return repr_svg(self)

    def __str__(self) -> str:
        return self.explain(2)
