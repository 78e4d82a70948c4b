"""Write the technique catalogue: ``docs/techniques.md`` and ``docs/img/techniques/*.svg``.

Run from anywhere (it finds the repository from its own path)::

    python docs/tools/make_catalogue.py            # rewrite the page and the pictures
    python docs/tools/make_catalogue.py --check    # exit 1 if the page is out of date
    python docs/tools/make_catalogue.py --pin LINE K   # library line of step K of a solve

Every registered technique (``techniques`` and the ones ``variants`` registers) gets a
section: its metadata from the registry, a definition (``definitions.py``), an example
state, the step the technique finds there (``step.explain(2)``, the first effective step of
the technique's finder with its default options) and a picture of that step.

Example states come, in this order of preference, from

1. the HoDoKu regression library (``tests/data/reglib-1.3-public.txt``): the first case of
   the technique's code (in file order, ``-x`` cases skipped) where the finder finds a step;
2. ``PINNED``: HoDoKu-style library lines of classic states met along the default logic
   solve of a puzzle from ``tests/data`` (found once by walking the solve paths and checking
   the technique at every state; ``--pin`` prints such a line);
3. ``FPUZZLES``: the state after K default logic steps of a variant puzzle of
   ``tests/data/fpuzzles_cc_by.jsonl`` (CC BY 4.0, the author is named on the page);
4. ``HANDMADE``: small constructed states (variant rules, and the two big pivot wings).

Everything is deterministic: no randomness, no time limits on the path to a state.
"""
from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import variants  # noqa: E402  (registers the variant techniques)
from csp.io import parse_library_line, write_pencilmarks  # noqa: E402
from csp.model import Puzzle  # noqa: E402
from csp.state import State  # noqa: E402
from csp.step import Step  # noqa: E402
from definitions import definition  # noqa: E402
from techniques import StepSolver, registry  # noqa: E402
from techniques.analysis import Analysis  # noqa: E402
from techniques.registry import Technique  # noqa: E402
from techniques.loop import apply_step, is_effective  # noqa: E402
from variants import classic, killer_cage, non_consecutive  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402
from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402
from sudoku_csp.formats.loader import marks_state  # noqa: E402
from sudoku_csp.render import render_svg  # noqa: E402

PAGE = ROOT / "docs" / "techniques.md"
IMG = ROOT / "docs" / "img" / "techniques"
REGLIB = ROOT / "tests" / "data" / "reglib-1.3-public.txt"
FPUZZLES = ROOT / "tests" / "data" / "fpuzzles_cc_by.jsonl"

#: technique -> (where the state comes from, HoDoKu library line of the state)
PINNED: dict[str, tuple[str, str]] = {
    'sashimi_leviathan': ('the state after 28 default logic steps of puzzle 5 of `tests/data/top95.txt`',
        ':0000:x:.+6+2+314+8.+7.3....2...7.+2..+4.+3...9...3.6.1....+4+2.......8.2..+6..1.4....5.6.+8.+1+67.8+3..:528 928 129 629 538 938 549 564 365 366 569 969 972 373 973 978 386 986 591 991 995::'),
    'finned_franken_leviathan': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'finned_franken_squirmbag': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'finned_franken_whale': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'finned_mutant_leviathan': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'finned_mutant_swordfish': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'finned_mutant_x_wing': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'finned_whale': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'forcing_chain_contradiction': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'forcing_chain_verity': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'forcing_net_contradiction': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'forcing_net_nested': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'forcing_net_verity': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'franken_leviathan': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'franken_squirmbag': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'franken_whale': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'franken_x_wing': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'kraken_fish_type_1': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'kraken_fish_type_2': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'mutant_jellyfish': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'mutant_leviathan': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'mutant_squirmbag': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'mutant_swordfish': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'mutant_whale': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'mutant_x_wing': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'sashimi_squirmbag': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'squirmbag': ('the starting pencil marks of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......:::'),
    'whale': ('the state after 5 default logic steps of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.....8.5.3..........7......2.....6.....8.4...+4..1.......6.3.7.5.+32.+1...1.4......:612 712 632 652 752 975 277 977 279 879 979 882 982 892 992::'),
    'sashimi_whale': ('the state after 6 default logic steps of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4.+7...8.5.3..........7......2.....6.....8.4...+4..1.......6.3.7.5.+32.+1...1.4......:612 632 652 752 975 277 977 279 879 979 882 982 892 992::'),
    'finned_leviathan': ('the state after 16 default logic steps of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4+1+7+3+6+98+25.3.+1........7......2.+4...6.....8.4...+4..1.......6.3.7.5.+32.+1...1.4+8.....:226 632 236 652 752 975 277 977 279 879 979 882 982 992::'),
    'finned_squirmbag': ('the state after 16 default logic steps of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4+1+7+3+6+98+25.3.+1........7......2.+4...6.....8.4...+4..1.......6.3.7.5.+32.+1...1.4+8.....:226 632 236 652 752 975 277 977 279 879 979 882 982 992::'),
    'relaxed_wing': ('the state after 23 default logic steps of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4+1+7+3+6+98+25.3.+1........7......2.+4+3+7.6.....8.4...+4..1.......6+43+57+15.+32.+1...1.4+8.+5...:226 632 236 652 752 882 982 992::'),
    'wxyz_wing': ('the state after 23 default logic steps of puzzle 1 of `tests/data/top95.txt`',
        ':0000:x:4+1+7+3+6+98+25.3.+1........7......2.+4+3+7.6.....8.4...+4..1.......6+43+57+15.+32.+1...1.4+8.+5...:226 632 236 652 752 882 982 992::'),
    'leviathan': ('the state after 47 default logic steps of puzzle 11 of `tests/data/top95.txt`',
        ':0000:x:6+1+43.2+5+7..5.....1+2.+2.+5....+67+426.+5..........543.+5....+2+7+28.15........4.2........7..:823 825 925 726 927 833 736 838 347 848 149 951 854 954 155 855 955 156 356 856 157 857 373 973 377 677 181 383 389 889 989 191 393 395 895 995 498 399 899 999::'),
}

#: technique -> (f-puzzles title, number of default logic steps applied first)
FPUZZLE_EXAMPLES: dict[str, tuple[str, int]] = {
    "constraint": ("The Initials", 0),
    "inequality_bounds": ("The Initials", 0),
    "consecutive_neighbours": ("The Initials", 30),
    "innies": ("October 10, 2023: Killer", 0),
    "killer_combinations": ("October 10, 2023: Killer", 0),
    "mandatory_inclusion": ("October 10, 2023: Killer", 0),
    "cage_house_overlap": ("October 10, 2023: Killer", 26),
    "disjoint_cages": ("Sistine Hippos", 45),
    "outies": ("October 10, 2023: Killer", 27),
    "innies_outies": ("October 10, 2023: Killer", 36),
    "consecutive_chain": ("August 15, 2023: Kropki Pairs", 0),
    "law_of_leftovers": ("Aug 9, 2022: Irregular Sudoku", 0),
    "consecutive_locked_pair": ("Jan 25, 2021: Non-consecutive", 0),
    "consecutive_locked_triple": ("Jan 25, 2021: Non-consecutive", 0),
    "consecutive_pair_cell": ("Jan 25, 2021: Non-consecutive", 0),
    "consecutive_gap_cell": ("Jan 25, 2021: Non-consecutive", 26),
    "thermo_length": ("August 9, 2023: Thermo", 15),
    "whisper_neighbours": ("Sept. 5, '23: Renban Whispers", 5),
    "sandwich_crusts": ("September 13, 2021: Sandwich", 0),
    "x_sum_length": ("July 4, 2023: X-Sums Sudoku", 0),
    "pair_rules": ("Anti-Ratio Coverage", 8),
    "neighbour_pinch": ("August 15, 2023: Kropki Pairs", 39),
    "dot_chain": ("Anti-Ratio Coverage", 12),
    "house_arrangement": ("Anti-XV Coverage", 9),
    "house_pair_arrangement": ("Anti-XV Coverage", 12),
    "band_arrangement": ("Anti-Ratio Coverage", 45),
    "polarity_chain": ("The Octagon", 57),
    "polarity_count": ("The Octagon", 57),
    "window_arrangement": ("Antiknight Coloring Book: Hanging Vines", 110),
    "clone_pointing": ("Exclusive Singularity", 24),
    "equal_digit_colouring": ("Boxless Antiknight Coloring Book: The Flag", 36),
    "parity_count": ("Locking Out the Odds", 0),
    "region_sum_segments": ("Executive Function", 11),
    "zipper_totals": ("Zipper Lines", 1),
    "between_span": ("Executive Function", 12),
    "lockout_span": ("Locking Out the Odds", 2),
    "renban_mandatory": ("Effluence", 2),
    "renban_house_overlap": ("Candy Cane Sudoku", 69),
    "renban_house_split": ("Candy Cane Sudoku", 81),
    "skyscraper_renban": ("Crawfish", 15),
    "renban_cage_exclusion": ("Effluence", 21),
    "entropic_groups": ("Every Third Knight", 6),
    "modular_groups": ("Parking Garage", 0),
    "pair_mandatory": ("Candy Cane Sudoku", 21),
    "cage_rules": ("Third-Degree Murder", 8),
    "indexing": ("Box Indexing Test", 0),
    "sum_arithmetic": ("Mar 20, 2022: XV Arrow", 29),
    "combined_sums": ("Rapid Fire Crossbow", 15),
    "substituted_sums": ("Whispering Rains", 30),
    "house_sums": ("Rapid Fire Crossbow", 25),
    "linked_sums": ("Deflation", 70),
    "cell_exclusion": ("Third-Degree Murder", 5),
    "house_exclusion": ("Every Third Knight", 1),
    "rule_exclusion": ("5/31/23: Consec Pairs Quads", 30),
    "two_house_exclusion": ("Anti-knight minimal givens 3", 27),
    "almost_locked_candidates": ("It being a weekend...", 11),
    "three_house_exclusion": ("Antiknight Coloring Book: Fuzz On The Lens", 92),
    "digit_chain_exclusion": ("Antiknight Coloring Book: Hanging Vines", 88),
    "digit_chain_verity": ("Almost Boxless Antiknight Coloring Book: Two Hooks Intertwined",
                           91),
    "clique_subset": ("Every Third Knight", 19),
    "set_sums": ("Solver needs SET", 0),
    "set_equivalence": ("Solver needs SET", 93),
}


# -- hand-made variant states ------------------------------------------------------------
def _narrow(p: Puzzle, cells: dict[str, str] | None = None,
            remove: dict[int, list[str]] | None = None) -> State:
    """The puzzle's starting pencil marks with ``cells`` (name -> digits) narrowed and the
    digit keys of ``remove`` taken out of the listed cells."""
    st = p.pencilmarks()
    for ref, digits in (cells or {}).items():
        c = p.cell(ref)
        st.cand[c] &= sum(1 << int(ch) for ch in digits)
    for d, refs in (remove or {}).items():
        for ref in refs:
            st.cand[p.cell(ref)] &= ~(1 << d)
    st.version += 1
    return st


def _nc_triple() -> tuple[str, State]:
    p = Puzzle(9).use(classic(), non_consecutive())
    return ("non-consecutive sudoku, no givens; r2c7 narrowed to 4/5/6",
            _narrow(p, {"r2c7": "456"}))


def _nc_nearby() -> tuple[str, State]:
    p = Puzzle(9).use(classic(), non_consecutive())
    others = [f"r{r}c3" for r in (1, 2, 3, 5, 7, 8, 9)]
    return ("non-consecutive sudoku, no givens; 6 of column 3 only in r4c3 and r6c3",
            _narrow(p, remove={6: others}))


def _nc_check() -> tuple[str, State]:
    p = Puzzle(9).use(classic(), non_consecutive())
    others = ["r7c7", "r7c8", "r7c9", "r8c8", "r9c7", "r9c9"]
    return ("non-consecutive sudoku, no givens; 6 of box 9 only in r8c7, r8c9 and r9c8",
            _narrow(p, remove={6: others}))


def _killer_split() -> tuple[str, State]:
    p = Puzzle(9).use(classic(),
                      killer_cage(["r4c6", "r5c6", "r4c7", "r5c7"], 13),
                      killer_cage(["r4c4", "r4c5", "r5c4", "r5c5"], 30),
                      killer_cage(["r6c4", "r6c5", "r6c6"], 12))
    return ("killer cages 13 (r4c6, r5c6, r4c7, r5c7), 30 (r4c4, r4c5, r5c4, r5c5) and "
            "12 (r6c4, r6c5, r6c6), no givens", p.pencilmarks())


#: a solved classic grid (the solution of the first puzzle of tests/data/top95.txt)
SOLUTION = ("417369825632158947958724316825437169791586432346912758289643571573291684"
            "164875293")


def _pivot_wing(wings: int) -> tuple[str, State]:
    """A classic state with the solution ``SOLUTION`` among its candidates: pivot r5c5 and
    ``wings`` cells it sees (in row 5 and box 5) holding two digits each, the pivot's digit z
    and the wing's own solution digit; every other cell keeps all nine candidates. Cells of
    row 5 and box 5 see every z of the pattern, and z is not their solution digit."""
    p = classic_puzzle("." * 81)
    sol = [int(ch) for ch in SOLUTION]
    g = p.grid
    pivot = g.at(4, 4)
    z = sol[pivot]
    row = [g.at(4, c) for c in (0, 1, 2, 6, 7, 8)]
    box = [g.at(r, c) for r in (3, 5) for c in (3, 4, 5)]
    chosen: list[int] = []
    for pool in (box[:2], row, box):       # two box cells first, the rest along row 5
        for cell in pool:
            if len(chosen) < wings and cell not in chosen and \
                    sol[cell] not in {sol[o] for o in chosen}:
                chosen.append(cell)
                if pool is box[:2] and len(chosen) == 2:
                    break
    if len(chosen) != wings:
        raise ValueError("no room for the wing cells")
    st = p.pencilmarks()
    st.cand[pivot] = (1 << z) | sum(1 << sol[c] for c in chosen)
    for c in chosen:
        st.cand[c] = (1 << z) | (1 << sol[c])
    st.version += 1
    names = ", ".join(g.name(c) for c in chosen)
    return (f"a constructed classic state (no givens; every digit of a known solution kept): "
            f"pivot r5c5 and wing cells {names} narrowed, all other cells open", st)


def _whisper_polarity() -> tuple[str, State]:
    from variants.lines import whispers
    p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]))
    return ("a German whisper r1c1-r1c2-r1c3 with three of 1-4 in r1c4-r1c6",
            _narrow(p, {"r1c4": "1234", "r1c5": "1234", "r1c6": "1234"}))


HANDMADE: dict[str, Callable[[], tuple[str, State]]] = {
    "whisper_polarity": _whisper_polarity,
    "vwxyz_wing": lambda: _pivot_wing(4),
    "uvwxyz_wing": lambda: _pivot_wing(5),
    "consecutive_triple_cell": _nc_triple,
    "consecutive_locked_nearby": _nc_nearby,
    "consecutive_check_pattern": _nc_check,
    "cage_splitting": _killer_split,
}


# -- finding examples --------------------------------------------------------------------
@dataclass
class Example:
    """One technique's example: the state, the step found there and where it comes from."""

    technique: Technique
    source: str
    state: State
    step: Step
    line: str | None = None          # HoDoKu library line of a classic state
    credit: str | None = None        # author / licence of a borrowed puzzle


def first_step(t: Technique, state: State) -> Step | None:
    """The first effective step of ``t``'s finder (default options) in ``state``."""
    for step in t.find(Analysis(state)):
        if is_effective(state, step):
            return step
    return None


def _reglib_lines() -> list[tuple[int, str]]:
    return [(i, ln) for i, ln in enumerate(REGLIB.read_text().splitlines(), 1)
            if ln.startswith(":")]


def _from_reglib(t: Technique) -> Example | None:
    for lineno, ln in _reglib_lines():
        case = parse_library_line(ln)
        if case.code != t.code or case.must_not_fire:
            continue
        state = marks_state(ln)
        step = first_step(t, state)
        if step is not None:
            return Example(t, f"HoDoKu regression library, case `{ln.split(':')[1]}` "
                              f"(`tests/data/reglib-1.3-public.txt` line {lineno})",
                           state, step, line=ln)
    return None


def _fpuzzle(title: str) -> tuple[Puzzle, dict]:
    for ln in FPUZZLES.read_text().splitlines():
        obj = json.loads(ln)
        if obj["title"] == title:
            return load_fpuzzles(obj["fpuzzles_json"]), obj
    raise KeyError(title)


def walk(puzzle: Puzzle, k: int) -> State:
    """The state after ``k`` steps of the default logic solve of ``puzzle``."""
    state = puzzle.pencilmarks()
    solver = StepSolver()
    for _ in range(k):
        step = solver.next_step(state)
        if step is None:
            raise ValueError(f"the solve stops before step {k}")
        apply_step(state, step)
    return state


def find_example(t: Technique) -> Example | None:
    """The example of technique ``t`` (None when none is known)."""
    if t.code:
        ex = _from_reglib(t)
        if ex is not None:
            return ex
    if t.name in PINNED:
        source, ln = PINNED[t.name]
        state = marks_state(ln)
        step = first_step(t, state)
        return Example(t, source, state, step, line=ln) if step else None
    if t.name in FPUZZLE_EXAMPLES:
        title, k = FPUZZLE_EXAMPLES[t.name]
        puzzle, obj = _fpuzzle(title)
        state = walk(puzzle, k)
        step = first_step(t, state)
        where = (f"f-puzzles puzzle \"{title}\" (`tests/data/fpuzzles_cc_by.jsonl`)"
                 + (f" after {k} default logic steps" if k else ", its starting pencil marks"))
        credit = f"{obj['title']} by {obj['author']}, {obj['license']}"
        return Example(t, where, state, step, credit=credit) if step else None
    if t.name in HANDMADE:
        source, state = HANDMADE[t.name]()
        step = first_step(t, state)
        return Example(t, source, state, step) if step else None
    return None


def library_line(state: State) -> str:
    """A HoDoKu library line (code ``0000``, no digits) that :func:`marks_state` reads back
    as ``state`` (a classic 9x9 state): givens, ``+d`` placed digits, and DELETED the
    candidates gone beyond what the placed digits remove."""
    cells = []
    for c in range(81):
        d = state.placed[c]
        cells.append("." if not d else str(d) if state.given[c] else f"+{d}")
    base = ":0000:x:" + "".join(cells) + ":"
    st0 = marks_state(base + ":")
    deleted = [f"{d}{c // 9 + 1}{c % 9 + 1}" for c in range(81) if not st0.placed[c]
               for d in range(1, 10) if st0.cand[c] >> d & 1 and not state.cand[c] >> d & 1]
    line = base + " ".join(deleted) + "::"
    back = marks_state(line)
    if back.cand != state.cand or back.placed != state.placed:
        raise ValueError("the library line does not read back as the state")
    return line


# -- writing -----------------------------------------------------------------------------
HEADER = """\
# Technique catalogue

<!-- generated by docs/tools/make_catalogue.py: do not edit by hand -->

This page is generated: run `python docs/tools/make_catalogue.py` from the repository root
to rewrite it and its pictures (`docs/img/techniques/`) after a technique is added or
changed; `python docs/tools/make_catalogue.py --check` tells whether it is up to date, and
`tests/techniques/test_catalogue.py` checks that every registered technique is here and that sampled
steps are still the ones the code finds.

Every technique of the registry (`sudoku-csp techniques`), including the variant techniques
that `variants` registers (more on those in [variant-techniques.md](variant-techniques.md)),
grouped by family in the solver's default order. For each: its name for `--techniques`, its
HoDoKu library code, its score and level in the HoDoKu-style rating, whether the default
selection uses it, a definition, an example state, the step the technique finds there
(`step.explain(2)`: the first step its finder yields, default options) and a picture of the
step (houses shaded, pattern candidates highlighted, eliminations struck in red, placements
on a green square, chain links as arrows).

A classic example state is given as a HoDoKu library line (givens, `+d` placed digits,
then the candidates already removed) and as a pencil-mark grid; either can be pasted into
`sudoku-csp hint` (e.g. `sudoku-csp hint ':0000:x:...' --techniques hidden_single
--level 2`). States from the HoDoKu regression library are its own lines. A variant example
needs its rules: the picture draws them and the text says where the puzzle comes from.
"""


def _anchor(t: Technique) -> str:
    return t.name.replace("_", "-")


def _families(techs: list[Technique]) -> list[tuple[str, list[Technique]]]:
    out: dict[str, list[Technique]] = {}
    for t in techs:
        out.setdefault(t.family, []).append(t)
    return list(out.items())


def section(t: Technique, ex: Example | None) -> str:
    """The markdown of one technique (from its marker line to the next section)."""
    code = f"`{t.code}`" if t.code else "-"
    lines = [f"<!-- technique: {t.name} -->",
             f"### {t.title} (`{t.name}`)", "",
             "| name | family | HoDoKu code | score | level | default | needs a unique solution |",
             "|---|---|---|---|---|---|---|",
             f"| `{t.name}` | {t.family} | {code} | {t.score} | {t.level} | "
             f"{'yes' if t.enabled else 'no'} | {'yes' if t.requires_unique else 'no'} |", ""]
    text = definition(t.name)
    lines += [text if text else "No definition yet.", ""]
    if ex is None:
        lines += ["**No example yet.**", ""]
        return "\n".join(lines)
    lines += [f"Example: {ex.source}."]
    if ex.credit:
        lines += [f"Puzzle: {ex.credit}."]
    lines += [""]
    if ex.line:
        lines += ["```text", ex.line, "```", ""]
    lines += ["```text", write_pencilmarks(ex.state), "```", "",
              "Step:", "", "```text", ex.step.explain(2), "```", "",
              f"![{t.title}](img/techniques/{t.name}.svg)", ""]
    return "\n".join(lines)


def picture(ex: Example) -> str:
    """SVG of the example's step on its state."""
    return render_svg(ex.step, state=ex.state, title=ex.technique.title) + "\n"


def build(names: list[str] | None = None) -> Iterator[tuple[Technique, Example | None]]:
    """Each technique (all, or ``names``) in catalogue order with its example."""
    for t in registry.all_techniques():
        if names is None or t.name in names:
            yield t, find_example(t)


def page(results: list[tuple[Technique, Example | None]]) -> str:
    """The whole page."""
    techs = [t for t, _ in results]
    ex = {t.name: e for t, e in results}
    out = [HEADER, "## Contents", ""]
    for fam, ts in _families(techs):
        out.append(f"- **{fam}**: " + ", ".join(f"[{t.title}](#{_anchor(t)})" for t in ts))
    missing = [t.name for t in techs if ex[t.name] is None]
    out += ["", "Techniques without an example yet: "
            + (", ".join(f"`{m}`" for m in missing) if missing else "none") + ".", ""]
    for fam, ts in _families(techs):
        out += [f"## {fam}", ""]
        for t in ts:
            out.append(f'<a id="{_anchor(t)}"></a>')
            out.append("")
            out.append(section(t, ex[t.name]))
    return "\n".join(out).rstrip("\n") + "\n"


def write(results: list[tuple[Technique, Example | None]]) -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    keep = set()
    for t, ex in results:
        if ex is not None:
            svg = picture(ex)
            ET.fromstring(svg)
            path = IMG / f"{t.name}.svg"
            keep.add(path.name)
            path.write_text(svg)
    for old in IMG.glob("*.svg"):
        if old.name not in keep:
            old.unlink()
    PAGE.write_text(page(results))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when docs/techniques.md differs from what would be written")
    ap.add_argument("--pin", nargs=2, metavar=("PUZZLE", "K"),
                    help="print the library line of the state after K default logic steps")
    args = ap.parse_args(argv)
    if args.pin:
        print(library_line(walk(classic_puzzle(args.pin[0]), int(args.pin[1]))))
        return 0
    results = []
    for t, ex in build():
        print(f"{t.name}: {'no example' if ex is None else ex.step.explain(0)}",
              file=sys.stderr, flush=True)
        results.append((t, ex))
    if args.check:
        same = PAGE.exists() and PAGE.read_text() == page(results)
        print("up to date" if same else "docs/techniques.md is out of date")
        return 0 if same else 1
    write(results)
    print(f"wrote {PAGE.relative_to(ROOT)} and {sum(e is not None for _, e in results)} "
          f"pictures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
