"""The seed bank of ``generate --technique`` (issue 26 item 2): puzzles from public corpora
whose default logic solve needs a rare technique and nothing harder, and the random
isomorphs :func:`~sudoku_csp.generate.technique.for_technique` makes from them.

Some techniques are very rare as the hardest idea of random minimal puzzles (a hidden
quadruple, an Avoidable Rectangle type 2, a finned jellyfish: none found by the steered
generator within 60 s CPU, see docs/performance.md), while a scan of a corpus finds a few.
:data:`bank_data.BANK` holds those (``benchmarks/technique_bank.py`` scans a corpus with the
judge of ``for_technique`` and writes it; only public-domain or permissively licensed
corpora, each row naming its source, :data:`bank_data.SOURCES`).

A bank puzzle is not handed out as it is: :func:`isomorph` relabels its digits, permutes
its rows within bands, columns within stacks, the bands and stacks, and may transpose it,
all from one seeded random generator, and the generator then mutates it (givens moved or
removed while the puzzle stays unique and the judge accepts it). The solver's tie order may
depend on cell positions, so every result is judged again, never assumed.

>>> iso = isomorph(random.Random(1))
>>> line = "1" + "." * 80
>>> iso.apply(line).count("."), sorted(iso.apply("123456789" * 9).replace(".", ""))[:3]
(80, ['1', '1', '1'])
"""
from __future__ import annotations

import random
from dataclasses import dataclass

#: techniques the bank is scanned for (``benchmarks/technique_bank.py`` by default): those
#: the steered generator finds slowly or not at all from seed 1 (docs/performance.md, the
#: generate-techniques table: none in 60 s CPU, or past 20 s, or used by at most 7 of the
#: 1,000 Sudoku Exchange puzzles)
RARE = ("hidden_triple", "naked_quadruple", "hidden_quadruple", "x_wing", "hidden_pair",
        "turbot_fish", "wxyz_wing", "uniqueness_test_4", "avoidable_rectangle_1",
        "avoidable_rectangle_2", "finned_jellyfish", "simple_colors_trap", "multi_colors_1",
        "x_chain", "grouped_continuous_nice_loop", "forcing_net_contradiction")


@dataclass(frozen=True)
class Isomorph:
    """A validity-preserving transformation of a 9x9 classic grid: ``cells[i]`` is the
    cell of the source whose value lands at cell ``i``, ``digits[d]`` the new label of
    digit ``d`` (``digits[0]`` = 0)."""

    cells: tuple[int, ...]
    digits: tuple[int, ...]

    def apply(self, line: str) -> str:
        """The transformed line ('.' or '0' blank)."""
        out = []
        for i in range(81):
            ch = line[self.cells[i]]
            out.append("." if ch in ".0" else str(self.digits[int(ch)]))
        return "".join(out)

    def values(self, vals: list[int]) -> list[int]:
        """The transformed list of 81 values (0 blank)."""
        return [self.digits[vals[self.cells[i]]] for i in range(81)]


def isomorph(rng: random.Random) -> Isomorph:
    """A random isomorph of the 9x9 classic grid from ``rng``: digits relabelled, rows
    permuted within each band and the bands among themselves, the same for columns and
    stacks, and a transposition half the time."""
    def lines() -> list[int]:
        bands = [0, 1, 2]
        rng.shuffle(bands)
        out = []
        for b in bands:
            inner = [0, 1, 2]
            rng.shuffle(inner)
            out.extend(3 * b + i for i in inner)
        return out
    rows, cols = lines(), lines()
    transpose = rng.random() < 0.5
    digits = list(range(1, 10))
    rng.shuffle(digits)
    cells = []
    for r in range(9):
        for c in range(9):
            sr, sc = rows[r], cols[c]
            cells.append(9 * sc + sr if transpose else 9 * sr + sc)
    return Isomorph(tuple(cells), tuple([0] + digits))


def entries(name: str) -> list[tuple[str, str]]:
    """The bank's puzzles for technique ``name``: (line, source) pairs (none: [])."""
    from .bank_data import BANK, SOURCES
    return [(line, _source(src, SOURCES)) for t, line, src in BANK if t == name]


def _source(src: str, sources: dict[str, str]) -> str:
    tag = src.split(" ", 1)[0]
    return f"{sources.get(tag, tag)}: {src}"


def techniques() -> list[str]:
    """The techniques the bank has puzzles for."""
    from .bank_data import BANK
    return sorted({t for t, _, _ in BANK})
