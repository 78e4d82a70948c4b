"""Line, two-cell-rule and clone techniques (variants/whisper_logic.py, region_sum_logic.py,
between_lockout_logic.py, entropic_modular_logic.py, renban_logic.py, pairs_logic.py,
arrangement_logic.py, clone_logic.py).

Each technique is shown on a state of a real f-puzzles puzzle (tests/data, CC BY 4.0): the
state where the default solver *without* these techniques took its first forcing step (the
pencil marks just before it), so it is the step a human would use there; the first step's
eliminations are proved by brute force and none removes a digit of the stated solution.
Hand-made states cover the rules' corners with exact eliminations. Soundness: random line
puzzles built around known solutions, every elimination on random candidate states proved
by brute force (6x6), and solve paths checked step by step (9x9)."""
from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest

from csp import Grid, Puzzle
from csp.state import State
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from sudoku_csp.formats.loader import marks_state
from techniques import StepSolver, registry
from techniques.analysis import Analysis
from techniques.verify import check_puzzle, check_solve
from variants.whisper_logic import _overfilled
from variants.classic import classic
from variants.dots import black_dot, white_dot, x_dot
from variants.killer import killer_cage
from variants.lines import (between_line, entropic_line, lockout, modular_line, palindrome,
                            region_sum_line, renban, whispers, zipper_line)
from variants.inequality import thermo
from variants.misc import clone
from variants.outside import line_from_clue, sandwich, x_sum

from conftest import DATA, load_solutions
from test_variant_logic import assert_sound, elims, found, make_state

FAMILIES = ("lines", "pairs", "clone", "outside", "thermo", "parity")


def techs() -> list[str]:
    return [t.name for t in registry.select(list(FAMILIES))]


# -- states from real puzzles -----------------------------------------------------------------
@lru_cache(maxsize=None)
def fpuzzle(title: str) -> tuple[Puzzle, list[int]]:
    for line in (DATA / "fpuzzles_cc_by.jsonl").read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if obj["title"] == title:
            # the solution by brute force (unique): the stated one of "Executive Function"
            # does not fit the rules as imported
            p = load_fpuzzles(obj["fpuzzles_json"])
            res = p.solve(time_limit=60)
            assert res.status == "solved"
            return p, list(res.solution)
    raise KeyError(title)


#: technique -> (puzzle title, candidates of the 81 cells just before the first forcing
#: step of the default solve without the line techniques, the first step's text)
REAL: dict[str, tuple[str, str, str]] = {
    "region_sum_segments": ("Executive Function", """
6 12345789 12345789 12345789 12345789 123457 345789 12345789 2345789 12345789
12345789 234578 2345678 2345678 123456789 2345678 12345678 23456789 12345789 234578
12345789 123456789 123456789 123456789 2345678 12345678 23456789 12345789 2345678
123456789 123456789 2345678 2345678 3456789 23456789 23456789 12345789 2345678
123456789 123456789 123456789 123456789 2345678 23456789 23456789 2345789 23456789
23456789 23456789 23456789 23456789 1 23456789 345678 34578 123456789 123456789
123456 123456 123456 6789 23456789 345678 12345789 345678 123456789 123456789
123456789 123456789 23456789 23456789 345678 2345789 23456789 345678 23456789
23456789 345678 345678 345678 1""",
        "Region-Sum Segments: region-sum line r2c2: r2c2+r3c3 sums 3-17 (all different), "
        "r4c3+r5c3+r6c3 sums 6-24 (all different), r7c4+r7c5+r7c6 sums 6-15 (all different), "
        "r7c7 sums 6-9, common 6-9 => r2c2<>9, r3c3<>9, r4c3<>789, r5c3<>789, r6c3<>789"),
    "between_span": ("Van de Graaf Generator", """
3 1245679 245679 1245679 12467 1245679 1245679 1245679 8 12456789 12456789 245678
2345678 234678 2345678 234567 12345679 1345679 12456789 245678 2456789 123456789
234678 2345678 234567 234567 1345679 2456789 2345678 23456789 78 1234678 12346789
2345678 2345678 1345679 4678 234678 1 234678 5 2346789 234678 234678 34679 2456789
2345678 23456789 12346789 234678 23 123456789 2345678 1345679 1245678 2345678
2345678 12345678 9 12345678 1345678 345678 134567 12456789 123456789 2345678
2345678 234678 2345678 345678 13456789 34567 1456789 13456789 3456789 1345678 3467
1345678 13456789 13456789 2""",
        "Between Span: between line r2c2: r3c2,r4c2,r5c2,r6c2,r7c2 (col 2) need 5 different "
        "digits between the ends: r2c2 in 12789, r8c2 in 123789 => r2c2<>456, r8c2<>456"),
    "lockout_span": ("Locking Out the Odds", """
123456789 123456789 123456789 2468 12345789 2468 123456789 2468 123456789 123456789
123456789 2468 123456789 12345789 123456789 2468 13579 123456789 123456789 2468
123456789 123456789 12345789 123456789 123456789 13579 123456789 2468 13579 13579
248 13579 248 13579 2468 13579 12345789 12345789 248 12345789 6 12345789 12345789
13579 12345789 123456789 123456789 123456789 12345789 12345789 12345789 123456789
2468 123456789 2468 2468 123456789 123456789 12345789 123456789 123456789 13579
123456789 123456789 123456789 123456789 123456789 248 123456789 123456789 13579
2468 123456789 123456789 123456789 123456789 12345789 2468 123456789 2468 123456789""",
        "Lockout Span: lockout r8c3: r7c2,r7c1,r8c1 (box 7) need 3 different digits outside "
        "the ends' range, ends 4 or more apart: r8c3 in 13579, r9c2 in 13579 => r8c1<>5, "
        "r8c3<>2468, r9c2<>2468"),
    "entropic_groups": ("Every Third Knight", """
1 2456789 23456789 23456789 2345689 2356789 236789 2356789 2356789 235679 256789
2356789 12356789 1235689 12356789 1236789 4 12356789 2345679 245679 23456789
123456789 12345689 12356789 1236789 12356789 12356789 2345679 1245679 12345679
123456789 12345689 123456789 1236789 12356789 12356789 8 1245679 1245679 12345679
1234569 12345679 1234679 1235679 12345679 234569 1245679 12345679 12456789 12345689
123456789 12346789 12356789 123456789 245679 3 12456789 1245689 1245689 124689
1246789 126789 1246789 245679 12456789 1245689 1245689 1234689 12345689 1234689
1236789 12346789 2469 124689 124689 1234689 7 1234689 5 123689 1234689""",
        "Entropic Groups: entropic line r3c7: classes r3c7,r2c9,r1c7: 1-3/7-9; r3c8,r1c9: "
        "1-3/4-6/7-9; r3c9,r1c8: 1-3/4-6/7-9 (r3c7's class 4-6, r3c8's class 1-3, r3c9's class "
        "7-9 leaves col 7 unfillable; r3c7's class 4-6, r3c8's class 7-9, r3c9's class 1-3 "
        "leaves col 7 unfillable) => r1c7<>6, r2c9<>56, r3c7<>6"),
    "modular_groups": ("Parking Garage", """
1234568 12345689 7 12345689 12345689 123589 123469 12345689 123589 1234568 12345689
1235689 123456789 123456789 123456789 1234679 123456789 12345789 12346 12345689
1235689 123467 123456789 123456789 123467 123456789 12345789 123578 123578 4
1235789 1235789 123589 12379 123789 6 1235678 1235678 123568 123456789 123456789
123456789 123479 1234789 1234789 9 123678 12368 123467 1234678 1234678 5 123478
123478 12345678 123456789 123589 123456789 123456789 123589 1234679 12345679 12359
12345678 123456789 1235689 123456789 123456789 123456789 1234679 12345679 1234579
123467 12345679 123569 123467 12345679 12345679 8 12345679 1234579""",
        "Modular Groups: modular line r9c3: classes r9c3,r7c2: {369}/{147}/{258}; r8c3,r6c3: "
        "{369}/{258}; r7c3: {369}/{147}/{258} (r9c3's class {369}, r8c3's class {147}, r7c3's "
        "class {258} leaves col 3 unfillable; r9c3's class {258}, r8c3's class {147}, r7c3's "
        "class {369} leaves col 3 unfillable) => r6c3<>1, r8c3<>1"),
    "renban_mandatory": ("Endless Knight", """
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 12345678
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789 23456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 12345678 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 23456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 12345678 23456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789""",
        "Renban Mandatory Digit: 5 in every run of renban r6c4 (1-5, 2-6, 3-7, 4-8, 5-9), only "
        "in r5c5,r5c6,r6c4,r6c6,r7c6 => r4c6<>5"),
    "neighbour_pinch": ("The Octagon", """
123456789 123456789 346789 123489 12346789 126789 123467 12346789 12346789 12346789
1234678 123467 123456789 123456789 123456789 123456789 2345678 12346789 1234678
346789 234678 123456789 6789 123456789 123456789 123456789 346789 1236789 123456789
123456789 123456789 123456 123456789 123456789 123456789 123489 12346789 123456789
123456789 123456789 123456 12345678 12345678 3456789 12346789 123489 12346789
12346789 123456789 123456 123456789 123456789 123456789 1236789 346789 123456789
123456789 123456789 123456789 123456789 12346789 12346789 1234678 12345678 2345678
123456789 123456789 123456789 123456789 12346789 1234678 123456789 12345678 3456789
123467 126789 12346789 123489 346789 12346789 123456789""",
        "Neighbour Pinch: r1c4 between r1c3,r1c5 (whispers r1c3-r1c4, whispers r1c4-r1c5): "
        "r1c4=4 needs r1c3,r1c5 from 9/9 => r1c4<>4"),
    "pair_rules": ("Third-Degree Murder", """
123456789 123456789 123456789 123456789 123456789 123456789 123567 123456789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123567 123456789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789
123456789 12345678 12345678 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 12346789 123456789 123456789 123456789 123456789 123456789
23456789 23456789 123456789 12346789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 23456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 123456789 23456789 123456789 123456789 123456789 123456789
123456789 123456789""",
        "Pair Rules: r4c1,r4c2 (cage 9 at r4c1 + entropic line r4c2-r4c1 + one house): r4c1=4 "
        "leaves r4c2 nothing, r4c1=5 leaves r4c2 nothing, r4c2=4 leaves r4c1 nothing, r4c2=5 "
        "leaves r4c1 nothing => r4c1<>45, r4c2<>45"),
    "clone_pointing": ("Antiknight Coloring Book: Four Fours in Front And A Lot of Two Fours "
                       "Plus One In Back", """
23456789 13456789 12456789 12356789 12346789 12345789 12345689 12345679 12345678
23456789 13456789 12456789 12356789 12346789 12345789 12345689 12345679 12345678
23456789 1456789 12456789 2356789 12346789 12345789 1235689 12345679 12345678
2356789 13456789 1456789 12356789 12346789 1234789 12345689 12345679 12345678
23456789 13456789 12789 1236789 1234789 1234579 12345689 12345679 12345678 23456789
13456789 12456789 1235689 1236789 12345789 123456 1234679 12345678 3456789 456789
156789 126789 12789 12348 123459 123456 1234567 2456789 1356789 246789 135789
124689 123579 123468 1234579 1234568 1 2 3 4 5 6 7 8 9""",
        "Clone Pointing: r3c4=r4c1 (palindrome r4c1=r3c4): 2 of region 6 only in r5c1,r5c3,"
        "r5c4,r6c1,r7c4, each seeing r3c4 or r4c1 => r3c4<>2, r4c1<>2 (r3c4, r4c1 see r5c3 "
        "by the anti-knight rule)"),
    "equal_digit_colouring": ("Boxless Antiknight Coloring Book: The Flag", """
23456789 23456789 2356789 23456789 3456789 346789 3456789 456789 1 456789 3456789 346789
3456789 1456789 1456789 456789 156789 2 156789 456789 1456789 1456789 1256789 1256789 156789
26789 3 26789 156789 1256789 1256789 1236789 1236789 126789 13789 4 13789 126789 1236789
1236789 12346789 12346789 123789 124689 5 12345789 12345789 1234789 12345789 12345789
12345789 123489 123579 6 12345689 12345689 12345689 12345689 12345689 12345689 123459 123468
7 12345679 12345679 12345679 12345679 12345679 12345679 123456 1234579 8 12345678 12345678
12345678 12345678 12345678 12345678 1234567 1234568 9""",
        "Equal-Digit Colouring: r1c1=r2c5=r3c4=r4c7=r5c2 hold one digit (palindrome "
        "r5c2=r4c7; palindrome r3c4=r2c5; r3c4 is the only cell of row 3 that can hold r4c7's "
        "digit; r2c5 is the only cell of row 2 that can hold r1c1's digit), so 6789 => "
        "r1c1<>2345, r2c5<>145, r3c4<>145, r4c7<>12, r5c2<>12"),
}


#: the Octagon just before the default solve's one forcing step (a forcing net proving
#: r1c4=2 by carrying high/low around the octagon of whispers, thermos and arrows)
REAL["polarity_chain"] = ("The Octagon", """
34567 3456 34789 289 12378 1789 12346 134678 123789 12346789 1236 12346 123456789
3456789 123456789 123456789 345678 234679 12367 6789 234678 123456789 6789 123456789
123456789 123456789 46789 1278 123456789 123456789 123456789 123456 123456789 123456789
123456789 1239 123789 123456789 123456789 123456789 123456 1234567 12345678 456789
123789 12389 12346789 12346789 123456789 123456 123456789 123456789 123456789 1238
346789 123456789 123456789 123456789 23456789 123456789 12346789 12346789 123678 123456
2345678 123456789 123456789 23456789 123456789 12346789 123467 34567 123456 56789
123467 12789 123789 12389 346789 12346789 34567""",
    "Polarity Chain: German whispers r1c3: if r1c3,r1c5,r1c7 low, r1c4,r1c6 high, the rules "
    "carry it to German whispers r3c9 (r3c9 low); German whispers r9c3 (r9c3 low); German "
    "whispers r7c1 (r7c1 low); German whispers r1c8 (r1c8 high) and fail (col 5: no place "
    "for digit 9), so r1c3,r1c5,r1c7 high, r1c4,r1c6 low => r1c3<>34, r1c4<>89, r1c5<>123, "
    "r1c6<>789, r1c7<>1234")


#: the same state: the polarity colouring with a count takes the step before the trial
REAL["polarity_count"] = (REAL["polarity_chain"][0], REAL["polarity_chain"][1],
    "Polarity Count: German whispers r1c3: if r1c3,r1c5,r1c7 low, r1c4,r1c6 high, the rules "
    "carry it to German whispers r3c9 (r3c9 low), German whispers r9c3 (r9c3 low), German "
    "whispers r7c1 (r7c1 low); then col 4 and col 6 would hold 789 in 4 cells outside box 5 "
    "(r1c4,r1c6,r9c4,r9c6), room for 3 only (box 5 cannot hold 789 in col 5, so it takes "
    "them from col 4 and col 6); so r1c3,r1c5,r1c7 high, r1c4,r1c6 low => r1c3<>34, "
    "r1c4<>89, r1c5<>123, r1c6<>789, r1c7<>1234")


REAL["cage_rules"] = (REAL["pair_rules"][0], REAL["pair_rules"][1],
                      "Cage Rules: cage 13 at r1c8 (r1c8,r1c9,r2c9) with entropic line "
                      "r1c8-r1c9, entropic line r1c8-r2c9, entropic line r1c9-r2c9: the fillings "
                      "keep r1c8 124578, r1c9 124578, r2c9 124578 => r1c8<>369, r1c9<>369, "
                      "r2c9<>369")


@pytest.mark.parametrize("name", sorted(REAL))
def test_technique_on_a_real_puzzle(name: str) -> None:
    title, marks, text = REAL[name]
    p, sol = fpuzzle(title)
    st = marks_state(marks, p)
    assert all(st.cand[c] >> sol[c] & 1 or st.placed[c] == sol[c] for c in range(81))
    steps = found(p, st, name)
    assert steps and steps[0].explain(2) == text
    for s in steps:
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert_sound(p, st, steps[:1])


RULE_READING = ("sets", "sums", "indexing", "exclusion")


def test_real_states_needed_a_forcing_step() -> None:
    """On these states the default techniques of the base solver (no line, pair or clone
    techniques, nor the generic rule-reading ones: sets, sums, indexing, exclusions) find
    nothing before the forcing family: the technique is the step a human would use there."""
    base = StepSolver(["default"] + [f"-{f}" for f in FAMILIES + RULE_READING])
    forcing = ("forcing_", "kraken", "template")
    for name in ("between_span", "lockout_span", "entropic_groups", "pair_rules"):
        title, marks, _ = REAL[name]
        p, _ = fpuzzle(title)
        step = base.next_step(marks_state(marks, p))
        assert step is not None and step.technique.startswith(forcing), (name, step)


def test_polarity_chain_replaces_the_octagons_forcing_step() -> None:
    """Without polarity_count and polarity_chain the default solver needs its forcing
    family on this state; the two short whispers (r1c8, r6c2), whose polarity the rules
    leave open, give no step."""
    title, marks, _ = REAL["polarity_chain"]
    p, sol = fpuzzle(title)
    st = marks_state(marks, p)
    step = StepSolver(["default", "-polarity_count", "-polarity_chain"]).next_step(st)
    assert step is not None and step.technique.startswith("forcing_"), step
    steps = found(p, st, "polarity_chain")
    assert [s.houses[0] for s in steps] == ["German whispers r1c3", "German whispers r3c9",
                                            "German whispers r9c3", "German whispers r7c1"]
    for s in steps:
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)


def test_polarity_count_takes_the_octagons_step_before_any_trial() -> None:
    """The default solver's next step on the Octagon's state is the polarity count, for
    each of the four long whispers, all sound; the count alone, without the colours carried
    around the loop, finds nothing (one whisper's middle cells put two cells of 789 in
    columns 4 and 6 outside box 5, where three fit)."""
    title, marks, _ = REAL["polarity_count"]
    p, sol = fpuzzle(title)
    st = marks_state(marks, p)
    step = StepSolver("default").next_step(st)
    assert step is not None and step.technique == "polarity_count", step
    steps = found(p, st, "polarity_count")
    assert [s.houses[0] for s in steps] == ["German whispers r1c3", "German whispers r3c9",
                                            "German whispers r9c3", "German whispers r7c1"]
    assert_sound(p, st, steps)
    an = Analysis(st)
    vals = [st.cand[c] or 1 << st.placed[c] for c in range(81)]
    high = 0b1111000000
    for cell in ("r1c4", "r1c6"):
        vals[p.cell(cell)] &= high
    assert _overfilled(an, vals) == ""
    for cell in ("r9c4", "r9c6"):
        vals[p.cell(cell)] &= high
    assert "col 4 and col 6 would hold 789 in 4 cells outside box 5" in _overfilled(an, vals)


def test_polarity_count_reads_the_digit_set_count() -> None:
    """Box 5 keeps 7-9 out of column 5: columns 4 and 6 hold 7, 8, 9 once each outside box
    5. Three cells there that must be 7-9 fit; a fourth does not. Rows the same way."""
    p = Puzzle(9).use(classic())
    st = p.initial_state()
    for r in (4, 5, 6):
        st.cand[p.cell(f"r{r}c5")] &= 0b0001111110
    an = Analysis(st)
    vals = list(st.cand)
    for cell in ("r1c4", "r2c6", "r9c4"):
        vals[p.cell(cell)] = 0b1110000000
    assert _overfilled(an, vals) == ""
    vals[p.cell("r8c6")] = 0b1100000000
    assert _overfilled(an, vals) == ("col 4 and col 6 would hold 789 in 4 cells outside box "
                                     "5 (r1c4,r2c6,r8c6,r9c4), room for 3 only (box 5 cannot "
                                     "hold 789 in col 5, so it takes them from col 4 and "
                                     "col 6)")
    vals[p.cell("r8c6")] = 0b0100000010       # 1 or 8: not forced into 7-9
    assert _overfilled(an, vals) == ""


@pytest.mark.parametrize("name", ["polarity_count", "polarity_chain"])
def test_polarity_techniques_must_not_fire(name: str) -> None:
    """Open polarities that neither the rules nor a house count refute: an empty grid with
    two whispers joined by a thermo; and a Dutch whisper (difference 4: no low/high split)
    in the Octagon's place."""
    p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]),
                      thermo(["r1c3", "r2c3", "r3c3"]), whispers(["r3c3", "r3c4", "r3c5"]))
    assert found(p, p.propagate(), name) == []
    q = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"], diff=4))
    st = make_state(q, {"r1c4": "1234", "r1c5": "1234", "r1c6": "1234"})
    assert found(q, st, name) == []


def test_polarity_chain_carries_through_a_thermo() -> None:
    """Two German whispers joined by a thermo r1c3 < r2c3 < r3c3, row 3's r3c6..r3c9 high.
    If r1c1,r1c3 were high, the thermo would make r3c3 high (8 or 9), so r3c5 high too: six
    high cells in row 3. So r1c1,r1c3 are low and r1c2 high."""
    p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]),
                      thermo(["r1c3", "r2c3", "r3c3"]), whispers(["r3c3", "r3c4", "r3c5"]))
    st = make_state(p, {f"r3c{c}": "6789" for c in range(6, 10)})
    steps = [s for s in found(p, st, "polarity_chain") if s.houses[0] == "German whispers r1c1"]
    assert elims(p, steps) == ({f"r1c{c}<>{d}" for c in (1, 3) for d in (5, 6, 7, 8, 9)}
                               | {f"r1c2<>{d}" for d in (1, 2, 3, 4, 5)}) - {
        f"r1c{c}<>5" for c in (1, 2, 3) if not st.cand[p.cell(f"r1c{c}")] >> 5 & 1}
    assert_sound(p, st, steps)


# -- hand-made states ---------------------------------------------------------------------
def test_region_sum_three_cells_of_a_box_make_the_single_cell_six_or_more() -> None:
    """The issue's "Equal Sums" case: r4c4 alone in box 5, three cells in box 1."""
    p = Puzzle(9).use(classic(), region_sum_line(["r3c1", "r3c2", "r3c3", "r4c4"]))
    st = make_state(p, {"r4c4": "345678"})
    steps = found(p, st, "region_sum_segments")
    assert elims(p, steps) == {"r4c4<>3", "r4c4<>4", "r4c4<>5"} | {
        f"r3c{c}<>{d}" for c in (1, 2, 3) for d in (6, 7, 8, 9)}
    assert "r3c1+r3c2+r3c3 sums 6-24 (all different)" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_region_sum_three_segments_intersect() -> None:
    """Three segments: {1,2} + {1,2} in box 1 is 3, so the others are 3 too."""
    p = Puzzle(9).use(classic(), region_sum_line(["r1c2", "r1c3", "r1c4", "r1c5", "r1c7"]))
    st = make_state(p, {"r1c2": "12", "r1c3": "12"})
    steps = found(p, st, "region_sum_segments")
    assert elims(p, steps) == ({"r1c7<>" + str(d) for d in range(4, 10)} | {"r1c7<>1", "r1c7<>2"}
                               | {f"r1c{c}<>{d}" for c in (4, 5) for d in range(3, 10)})
    assert "common 3" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_region_sum_line_filled_together() -> None:
    """'Executive Function', the state where the solver with the per-segment step still took
    a forcing net: the segments in boxes 4, 1 and 2 share column 1 and row 1, so box 1's 9
    (on the line) rules 9 out of the other segments, and with it their totals above 15."""
    p, sol = fpuzzle("Executive Function")
    st = marks_state("""
6 123459 23459 789 789 123457 345789 12345789 2345789
123459 123457 234578 2345678 2345678 123456789 2345678 12345678 23456789
123459 234578 234578 123456789 123456789 123456789 2345678 12345678 23456789
789 2345678 123456 123456789 2345678 2345678 3456789 23456789 23456789
789 2345678 123456 123456789 123456789 123456789 2345678 23456789 234789
2345789 23456789 23456 23456789 23456789 23456789 1 23456789 345678
34578 123456789 23456789 123456 123456 123456 6789 23456789 345678
12345789 345678 23456789 123456789 123456789 123456789 23456789 23456789 345678
2345789 23456789 345678 23456789 234789 345678 345678 345678 1""", p)
    steps = found(p, st, "region_sum_segments")
    assert [s.explain(2) for s in steps] == [
        "Region-Sum Segments: region-sum line r5c1: r5c1+r4c1 sums 15-17 (all different), "
        "r3c1+r2c1+r1c2+r1c3 sums 15-21 (all different) (holding 9 of box 1 only in "
        "r1c2,r1c3,r2c1,r3c1), r1c4+r1c5 sums 15-17 (all different), common 15-17; filled "
        "together (cells of different segments that see each other differ) => r1c2<>45, "
        "r1c3<>45, r1c4<>9, r1c5<>9, r2c1<>45, r3c1<>45, r4c1<>9, r5c1<>9"]
    assert not any(sol[c] == d for c, d in steps[0].eliminations)
    assert_sound(p, st, steps)


def test_region_sum_segment_holding_a_house_digit() -> None:
    """5 of box 1 only in r2c2, r3c3: that segment is 5 + 1..4, so r4c4 is 6-9."""
    p = Puzzle(9).use(classic(), region_sum_line(["r2c2", "r3c3", "r4c4"]))
    others = ["r1c1", "r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2"]
    st = make_state(p, {}, remove={5: others})
    steps = found(p, st, "region_sum_segments")
    assert elims(p, steps) == {f"r4c4<>{d}" for d in range(1, 6)} | {
        f"{c}<>{d}" for c in ("r2c2", "r3c3") for d in (6, 7, 8, 9)}
    assert "(holding 5 of box 1 only in r2c2,r3c3)" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_zipper_totals_every_pair_at_once() -> None:
    """A six-cell zipper, no two of its cells in one house: the outer pairs make 3-4 and
    4-5, the middle pair 3-5; each outer pair alone with the middle one (the rule's
    propagation) allows all of it, together only 4: r6c8 loses 2, r5c5 loses 3."""
    p = Puzzle(9).use(classic(), zipper_line(["r1c1", "r2c4", "r3c7", "r4c2", "r5c5",
                                              "r6c8"]))
    st = make_state(p, {"r1c1": "1", "r6c8": "23", "r2c4": "2", "r5c5": "23",
                        "r3c7": "12", "r4c2": "23"})
    assert p.propagate(st).candidates("r6c8") == (2, 3)        # the rules alone keep 2
    steps = found(p, st, "zipper_totals")
    assert elims(p, steps) == {"r6c8<>2", "r5c5<>3"}
    assert "common 4" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_zipper_totals_pairs_inside_one_box_fill_together() -> None:
    """Two pairs and the centre in box 1 (each pair alone: centre 3 or more): the pairs
    need two different splits of the centre's digit, so it is 5 or more."""
    p = Puzzle(9).use(classic(), zipper_line(["r1c1", "r1c2", "r1c3", "r2c3", "r2c2"]))
    st = p.propagate()
    assert 3 in st.candidates("r1c3")
    steps = found(p, st, "zipper_totals")
    assert elims(p, steps) == {"r1c3<>3", "r1c3<>4"}
    assert "filled together" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_lockout_span_with_a_digit_the_line_must_hold() -> None:
    """'Locking Out the Odds': odd ends, 6 of row 1 only on the line's inside, so 6 lies
    outside the ends' range: the ends are 1 and 5."""
    p = Puzzle(9).use(classic(), lockout(["r2c6", "r1c6", "r1c5", "r1c4", "r2c4"]))
    st = make_state(p, {"r2c6": "13579", "r2c4": "13579"},
                    remove={6: [f"r1c{c}" for c in (1, 2, 3, 5, 7, 8, 9)]})
    steps = found(p, st, "lockout_span")
    assert elims(p, steps) == {f"r2c{c}<>{d}" for c in (4, 6) for d in (3, 7, 9)} | {
        f"r1c{c}<>{d}" for c in (4, 5, 6) for d in range(1, 6)}
    assert "(6 of row 1 only in r1c4,r1c6: on the line)" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_between_span_five_in_the_middle() -> None:
    p = Puzzle(9).use(classic(), between_line(["r1c1", "r1c2", "r1c3", "r1c4", "r1c5"]))
    st = make_state(p, {"r1c1": "5"})
    steps = found(p, st, "between_span")
    # r1c5 is 1 or 9; the inner cells lie between 5 and it: not 1, 5 or 9
    assert elims(p, steps) == {f"r1c5<>{d}" for d in range(2, 9)} | {
        f"r1c{c}<>{d}" for c in (2, 3, 4) for d in (1, 5, 9)}
    assert_sound(p, st, steps)
    # four inner cells of row 1: the ends are 5 or more apart, so neither is 5
    p = Puzzle(9).use(classic(), between_line([f"r1c{c}" for c in range(1, 7)]))
    st = p.initial_state()
    steps = found(p, st, "between_span")
    assert elims(p, steps) == {"r1c1<>5", "r1c6<>5"} | {
        f"r1c{c}<>{d}" for c in (2, 3, 4, 5) for d in (1, 9)}
    assert_sound(p, st, steps)


def test_between_span_inner_cells_in_different_houses_may_repeat() -> None:
    """Inner cells in no common house: the ends need only be 2 apart."""
    p = Puzzle(9).use(classic(), between_line(["r1c1", "r2c2", "r3c4", "r4c7", "r5c9"]))
    steps = found(p, p.initial_state(), "between_span")
    assert elims(p, steps) <= {f"{c}<>{d}" for c in ("r2c2", "r3c4", "r4c7") for d in (1, 9)}


def test_lockout_span() -> None:
    """Lockout r1c1 .. r1c5 (difference 4): three inner cells of row 1 need three digits
    outside the ends' range: ends 1 and 9 leave none."""
    p = Puzzle(9).use(classic(), lockout(["r1c1", "r1c2", "r1c3", "r1c4", "r1c5"]))
    st = make_state(p, {"r1c1": "1"})
    steps = found(p, st, "lockout_span")
    # r1c5 - 1 >= 4 and 9 - r1c5 >= 3: r1c5 in 5, 6
    assert elims(p, steps) >= {f"r1c5<>{d}" for d in (7, 8, 9)}
    assert_sound(p, st, steps)


def test_whisper_neighbours() -> None:
    """No 5 on a German whisper; a Dutch whisper (difference 4) keeps 5 (1 and 9 are 4
    away) but a cell next to {3,4,5,6,7} cannot be 4, 5 or 6."""
    p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]))
    steps = found(p, p.initial_state(), "whisper_neighbours")
    assert elims(p, steps) == {"r1c1<>5", "r1c2<>5", "r1c3<>5"}
    q = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2"], diff=4))
    assert found(q, q.initial_state(), "whisper_neighbours") == []
    st = make_state(q, {"r1c2": "34567"})
    steps = found(q, st, "whisper_neighbours")
    assert elims(q, steps) == {"r1c1<>4", "r1c1<>5", "r1c1<>6"}
    assert steps[0].explain(2) == ("Whisper Neighbours: whispers (difference 4) r1c1: neighbours "
                                   "differ by 4 or more; r1c1 next to r1c2 (3-7) => r1c1<>456")
    assert_sound(q, st, steps)


def test_whisper_polarity_by_counting() -> None:
    """r1c1-r1c2-r1c3 on a German whisper: r1c1 and r1c3 share a polarity. Row 1 keeps one
    low digit for them (r1c4..r1c6 hold three of 1-4), so they are high and r1c2 low."""
    p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]))
    st = make_state(p, {"r1c4": "1234", "r1c5": "1234", "r1c6": "1234"})
    steps = found(p, st, "whisper_polarity")
    assert elims(p, steps) == ({f"r1c{c}<>{d}" for c in (1, 3) for d in (1, 2, 3, 4, 5)}
                               | {f"r1c2<>{d}" for d in (5, 6, 7, 8, 9)})
    assert "leaves row 1 unfillable" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_whisper_polarity_needs_difference_of_half() -> None:
    """Dutch whispers (difference 4) have no low/high split: no polarity step."""
    p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"], diff=4))
    st = make_state(p, {"r1c4": "1234", "r1c5": "1234", "r1c6": "1234"})
    assert found(p, st, "whisper_polarity") == []


def test_entropic_groups_third_cell() -> None:
    """r1c1 and r1c2 both low or middle: r1c3 is high (no single pair rules that out)."""
    p = Puzzle(9).use(classic(), entropic_line(["r1c1", "r1c2", "r1c3", "r1c4"]))
    st = make_state(p, {"r1c1": "1245", "r1c2": "3456"})
    steps = found(p, st, "entropic_groups")
    assert elims(p, steps) == ({f"r1c3<>{d}" for d in range(1, 7)}
                               | {f"r1c4<>{d}" for d in (7, 8, 9)})   # r1c4 shares r1c1's group
    assert_sound(p, st, steps)


def test_modular_groups_third_cell() -> None:
    p = Puzzle(9).use(classic(), modular_line(["r1c1", "r1c2", "r1c3"]))
    st = make_state(p, {"r1c1": "147369", "r1c2": "14736"})
    steps = found(p, st, "modular_groups")
    assert elims(p, steps) == {f"r1c3<>{d}" for d in (1, 3, 4, 6, 7, 9)}
    assert_sound(p, st, steps)


def test_modular_groups_lines_sharing_a_house() -> None:
    """'Parking Garage': modular lines r8c1.., r5c1.. and the diagonal r1c1.. all cross
    column 1; each alone fits, but together they leave column 1 (three digits per
    remainder) fillable only if r7c1 and r9c1 are not 3 or 6."""
    p, sol = fpuzzle("Parking Garage")
    st = p.pencilmarks()
    steps = [s for s in found(p, st, "modular_groups") if "with modular line" in s.explain(2)]
    texts = [s.explain(2) for s in steps]
    assert ("Modular Groups: modular line r8c1: classes r8c1,r9c2: {369}/{147}/{258}; r7c1,r9c1: "
            "{147}/{258}; r8c2: {369}/{147}/{258} (with modular line r5c1, modular line r1c1 in "
            "col 1: the other assignments leave it unfillable) => r7c1<>36, r9c1<>36") in texts
    for s in steps:
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert_sound(p, st, steps[:1])


def test_renban_mandatory_five() -> None:
    p = Puzzle(9).use(classic(), renban(["r1c1", "r2c1", "r3c1", "r3c2", "r3c3"]))
    steps = found(p, p.initial_state(), "renban_mandatory")
    assert {s.digits for s in steps} == {(5,)}
    assert elims(p, steps) == {f"{c}<>5" for c in ("r1c2", "r1c3", "r2c2", "r2c3")}
    assert_sound(p, p.initial_state(), steps)


def test_renban_house_overlap() -> None:
    """9 of row 1 only on the renban: the run is 7-9."""
    p = Puzzle(9).use(classic(), renban(["r1c1", "r1c2", "r2c1"]))
    st = make_state(p, {}, remove={9: [f"r1c{c}" for c in range(3, 10)]})
    steps = found(p, st, "renban_house_overlap")
    assert elims(p, steps) == {f"{c}<>{d}" for c in ("r1c1", "r1c2", "r2c1") for d in range(1, 7)}
    assert steps[0].explain(2).startswith("Renban-House Overlap: 9 of row 1 only in r1c1,r1c2: "
                                          "renban r1c1 is 7-9")
    assert_sound(p, st, steps)


def test_neighbour_pinch_black_dots_and_whispers() -> None:
    p = Puzzle(9).use(classic(), black_dot("r1c1", "r1c2"), black_dot("r1c2", "r2c2"))
    st = p.propagate()
    steps = found(p, st, "neighbour_pinch")
    assert elims(p, steps) == {"r1c2<>1", "r1c2<>3", "r1c2<>6", "r1c2<>8"}
    assert_sound(p, st, steps)
    # neighbours that see each other through a box, or a column
    for a, b, c in (("r5c4", "r5c5", "r6c5"), ("r4c5", "r5c5", "r6c5")):
        q = Puzzle(9).use(classic(), black_dot(a, b), black_dot(b, c))
        assert elims(q, found(q, q.propagate(), "neighbour_pinch")) == {
            f"{b}<>{d}" for d in (1, 3, 6, 8)}
    w = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]))
    steps = found(w, w.propagate(), "neighbour_pinch")
    assert elims(w, steps) == {"r1c2<>4", "r1c2<>6"}
    assert_sound(w, w.propagate(), steps)


def test_neighbour_pinch_skips_neighbours_that_may_be_equal() -> None:
    p = Puzzle(9).use(classic(), black_dot("r3c3", "r3c4"), black_dot("r3c4", "r4c4"))
    st = p.propagate()
    assert found(p, st, "neighbour_pinch") == []
    # and rightly so: r3c4 = 1 with r3c3 = r4c4 = 2 is possible
    st2 = make_state(p, {"r3c4": "1"}, base=st)
    assert p.solve(first=True, state=st2, time_limit=30).status == "solved"


ANTI_RATIO = """
1234568 12345689 1345689 12345689 12345689 123468 1234589 1234589 7
1234568 12345689 1345689 123456789 1356789 123468 1234589 1234589 124589
1234578 12345789 1345789 1248 24 1248 1234589 124589 6
12345678 123456789 13456789 123456789 1356789 123456789 123468 123468 1248
12345678 123456789 13456789 123456789 123456789 123468 123468 579 24
12345678 123456789 356789 123456789 123456789 123456789 579 579 1248
1345678 35678 2 356789 13456789 13456789 1456789 1456789 134589
1345678 1345678 35678 123456789 123456789 123456789 12456789 12456789 1234589
9 1345678 1345678 12345678 12345678 12345678 1245678 1245678 123458"""


def test_dot_chain_on_a_real_puzzle() -> None:
    """'Anti-Ratio Coverage', where the solver with the other techniques took a forcing net:
    black dots r3c4-r3c5-r3c6 in one row double along the chain (124 or 248), so 2 and 4
    are on it and leave the rest of row 3 and box 2."""
    p, sol = fpuzzle("Anti-Ratio Coverage")
    st = marks_state(ANTI_RATIO, p)
    steps = found(p, st, "dot_chain")
    assert steps[0].explain(2) == (
        "Dot Chain: black dot r3c4-r3c5, black dot r3c5-r3c6: the digits all differ, so the "
        "chain runs 1-2-4/2-4-8/4-2-1/8-4-2: always a 2, only in r3c4,r3c5,r3c6 => r1c4<>2, "
        "r1c5<>2, r1c6<>2, r2c4<>2, r2c6<>2, r3c1<>2, r3c2<>2, r3c7<>2, r3c8<>2")
    for s in steps:
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert_sound(p, st, steps[:1])
    # (the house arrangements, newer, would find eliminations here too)
    base = StepSolver(["default", "-dot_chain", "-house_arrangement", "-house_pair_arrangement",
                       "-band_arrangement"])
    assert base.next_step(st).technique.startswith("forcing_")


def test_dot_chain_white_dots_in_a_row() -> None:
    """Four cells joined by white dots in row 1 hold four consecutive digits in order: with
    r1c1 at most 2, the chain is 1-2-3-4 or 2-3-4-5; a five-cell chain always holds 5."""
    p = Puzzle(9).use(classic(), white_dot("r1c1", "r1c2"), white_dot("r1c2", "r1c3"),
                      white_dot("r1c3", "r1c4"))
    st = make_state(p, {"r1c1": "12"})
    steps = found(p, st, "dot_chain")
    assert elims(p, steps) == ({f"r1c2<>{d}" for d in (1, 4, 5, 6, 7, 8, 9)}
                               | {f"r1c3<>{d}" for d in (1, 2, 5, 6, 7, 8, 9)}
                               | {f"r1c4<>{d}" for d in (1, 2, 3, 6, 7, 8, 9)})
    assert_sound(p, st, steps)
    from techniques.loop import apply_step
    q = Puzzle(9).use(classic(), *(white_dot(f"r2c{c}", f"r2c{c + 1}") for c in range(1, 5)))
    st = q.propagate()
    first = found(q, st, "dot_chain")          # the chain's cells first: r2c3 in 3-7 ...
    assert elims(q, first) == {f"r2c3<>{d}" for d in (1, 2, 8, 9)} | {
        f"r2c{c}<>{d}" for c in (2, 4) for d in (1, 9)}
    apply_step(st, first[0])
    steps = found(q, st, "dot_chain")          # ... then the 5 every run holds
    assert {s.digits for s in steps} == {(5,)}
    assert elims(q, steps) == {f"r2c{c}<>5" for c in range(6, 10)}
    assert_sound(q, st, steps)


def test_pair_rules() -> None:
    p = Puzzle(9).use(classic(), x_dot("r1c1", "r1c2"))
    steps = found(p, p.propagate(), "pair_rules")
    assert elims(p, steps) == {"r1c1<>5", "r1c2<>5"}
    assert_sound(p, p.propagate(), steps)
    # a difference of 4 and a sum of 10 on two cells in no common house: 3 and 7 only
    q = Puzzle(9).use(classic()).add_abs_diff("r1c1", "r5c5", 4)
    q.add_constraint(lambda a, b: a + b == 10, ["r1c1", "r5c5"])
    steps = found(q, q.propagate(), "pair_rules")
    assert elims(q, steps) == {f"{c}<>{d}" for c in ("r1c1", "r5c5") for d in (1, 2, 4, 5, 6, 8, 9)}
    assert_sound(q, q.propagate(), steps)
    r = Puzzle(9).use(classic()).add_abs_diff("r1c1", "r5c5", 4)
    assert found(r, r.propagate(), "pair_rules") == []       # one rule, no common house


def test_pair_mandatory_whisper_pair() -> None:
    """r2c1 {1,6,7} - r2c2 {1,7} on a German whisper fill as 17, 61 or 71: always a 1."""
    p = Puzzle(9).use(classic(), whispers(["r2c1", "r2c2"]))
    st = make_state(p, {"r2c1": "167", "r2c2": "17"})
    steps = found(p, st, "pair_mandatory")
    assert elims(p, steps) == {f"{c}<>1" for c in ("r1c1", "r1c2", "r1c3", "r2c3", "r3c1", "r3c2",
                                                  "r3c3", "r2c4", "r2c5", "r2c6", "r2c7", "r2c8",
                                                  "r2c9")}
    assert "fill as 17/61/71: always a 1" in steps[0].explain(2)
    assert_sound(p, st, steps)


def test_house_exclusion_anti_knight() -> None:
    """Anti-knight: r4c2 sees r2c1 and r2c3 by a knight's move and r3c2 by its column; if
    those are box 1's only 5s, r4c2 is not 5 (nor r2c4: row 2 and a knight's move).
    (house_exclusion of techniques/exclusion.py, for the digit's own links beyond houses.)"""
    from variants.chess import anti_knight
    p = Puzzle(9).use(classic(), anti_knight())
    keep = {"r2c1", "r2c3", "r3c2"}
    st = make_state(p, {}, remove={5: [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)
                                       if f"r{r}c{c}" not in keep]})
    steps = [s for s in found(p, st, "house_exclusion") if s.houses == ("box 1",)]
    assert elims(p, steps) == {"r2c4<>5", "r4c2<>5"}
    assert steps[-1].explain(2) == ("House Exclusion: r4c2=5 would leave box 1 without a 5 "
                                   "(r2c1,r2c3,r3c2) => r4c2<>5 (r4c2 sees r2c1 by the "
                                   "anti-knight rule; r4c2 sees r2c3 by the anti-knight rule)")
    assert_sound(p, st, steps)


def test_cage_rules_entropic_cage() -> None:
    """Cage 13 along an entropic line: one digit of each group, 148, 157 or 247."""
    q = Puzzle(9).use(classic(), killer_cage(["r1c1", "r1c2", "r1c3"], 13),
                      entropic_line(["r1c1", "r1c2", "r1c3"]))
    st = q.propagate()
    steps = found(q, st, "cage_rules")
    assert elims(q, steps) == {f"r1c{c}<>{d}" for c in (1, 2, 3) for d in (3, 6, 9)}
    assert_sound(q, st, steps)


def test_clone_pointing() -> None:
    p = Puzzle(9).use(classic(), clone(["r1c1"], ["r5c9"]))
    st = make_state(p, {}, remove={3: [f"r9c{c}" for c in range(2, 9)]})
    steps = found(p, st, "clone_pointing")
    # 3 of row 9 in r9c1 (sees r1c1) or r9c9 (sees r5c9)
    assert elims(p, steps) == {"r1c1<>3", "r5c9<>3"}
    assert_sound(p, st, steps)


def test_equal_digit_colouring_one_open_cell() -> None:
    """r1c1 is 1 or 2; row 3 can place 1 and 2 only in box 1 (all seen by r1c1: box and
    knight's move) or r3c4: r3c4 holds r1c1's digit, and it has no 1."""
    from variants.chess import anti_knight
    p = Puzzle(9).use(classic(), anti_knight())
    st = make_state(p, {"r1c1": "12", "r3c4": "23456789"},
                    remove={d: [f"r3c{c}" for c in range(5, 10)] for d in (1, 2)})
    steps = found(p, st, "equal_digit_colouring")
    assert steps[0].explain(2) == (
        "Equal-Digit Colouring: r1c1=r3c4 hold one digit (r3c4 is the only cell of row 3 "
        "that can hold r1c1's digit), so 2 => r1c1<>1, r3c4<>3456789")
    # the other steps are single cells that would take row 3's last place for 1 or 2
    assert elims(p, steps) == ({"r1c1<>1"} | {f"r3c4<>{d}" for d in range(3, 10)}
                               | {f"{c}<>{d}" for c in ("r1c2", "r1c3", "r2c1", "r2c2", "r2c3")
                                  for d in (1, 2)} | {"r5c2<>1"})
    assert_sound(p, st, steps)


def test_equal_digit_colouring_silent_without_links() -> None:
    """A classic grid (houses only) never runs it, whatever the candidates."""
    p = Puzzle(9).use(classic())
    st = make_state(p, {"r1c1": "12", "r3c4": "23456789"},
                    remove={d: [f"r3c{c}" for c in range(5, 10)] for d in (1, 2)})
    assert found(p, st, "equal_digit_colouring") == []


def test_techniques_silent_on_classic() -> None:
    p = Puzzle(9).use(classic())
    st = p.initial_state()
    for name in techs():
        assert found(p, st, name) == []


# -- soundness on generated puzzles ---------------------------------------------------------
def _paths(g: Grid, rng: random.Random, length: int, diagonal: bool) -> list[int]:
    """A random self-avoiding path of up to ``length`` cells (king or rook steps)."""
    n = g.n
    c = rng.randrange(g.size)
    path = [c]
    while len(path) < length:
        r, col = divmod(path[-1], n)
        steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                 if (dr or dc) and (diagonal or not (dr and dc))]
        options = [(r + dr) * n + col + dc for dr, dc in steps
                   if 0 <= r + dr < n and 0 <= col + dc < n]
        options = [o for o in options if o not in path]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def _holds(kind: str, v: list[int], n: int, g: Grid, cells: list[int]) -> bool:
    if kind == "whispers":
        return all(abs(a - b) >= (n + 1) // 2 for a, b in zip(v, v[1:]))
    if kind == "renban":
        return len(set(v)) == len(v) and max(v) - min(v) == len(v) - 1
    if kind in ("entropic", "modular"):
        grp = (lambda x: (x - 1) * 3 // n) if kind == "entropic" else (lambda x: x % 3)
        return all(len({grp(x) for x in v[i:i + 3]}) == len(v[i:i + 3]) for i in range(len(v)))
    if kind == "between":
        lo, hi = sorted((v[0], v[-1]))
        return all(lo < x < hi for x in v[1:-1])
    if kind == "lockout":
        lo, hi = sorted((v[0], v[-1]))
        return hi - lo >= 4 and all(not lo <= x <= hi for x in v[1:-1])
    if kind == "region_sum":
        sums: list[int] = []
        prev = None
        for c, x in zip(cells, v):
            if g.region_of[c] == prev:
                sums[-1] += x
            else:
                sums.append(x)
            prev = g.region_of[c]
        return len(sums) >= 2 and len(set(sums)) == 1
    if kind == "zipper":
        k = len(v)
        totals = {v[i] + v[k - 1 - i] for i in range(k // 2)} | ({v[k // 2]} if k % 2 else set())
        return len(totals) == 1
    if kind == "palindrome":
        return v == v[::-1]
    if kind == "thermo":
        return all(a < b for a, b in zip(v, v[1:]))
    raise ValueError(kind)


def _bundle(kind: str, names: list[str], n: int):
    return {"whispers": lambda: whispers(names, diff=(n + 1) // 2), "renban": lambda: renban(names),
            "entropic": lambda: entropic_line(names), "modular": lambda: modular_line(names),
            "between": lambda: between_line(names), "lockout": lambda: lockout(names),
            "region_sum": lambda: region_sum_line(names),
            "palindrome": lambda: palindrome(names), "thermo": lambda: thermo(names),
            "zipper": lambda: zipper_line(names)}[kind]()


KINDS = ("whispers", "renban", "entropic", "modular", "between", "lockout", "region_sum",
         "palindrome", "thermo", "zipper")


def line_puzzle(sol: list[int], n: int, rng: random.Random, lines: int) -> Puzzle:
    """Classic n x n with random lines that ``sol`` satisfies, and random Kropki dots."""
    g = Grid(n)
    p = Puzzle(n).use(classic())
    made = 0
    tries = 0
    while made < lines and tries < 5000:
        tries += 1
        kind = rng.choice(KINDS)
        if kind == "lockout" and n < 9:
            continue
        cells = _paths(g, rng, rng.randint(2, 6), diagonal=True)
        if len(cells) < (3 if kind in ("between", "lockout") else 2):
            continue
        v = [sol[c] for c in cells]
        if _holds(kind, v, n, g, cells):
            names = [g.name(c) for c in cells]
            p.use(_bundle(kind, names, n))
            made += 1
            if len(cells) >= 3 and len(set(v)) == len(v) and rng.random() < 0.4:
                p.use(killer_cage(names, sum(v)))        # a cage along the line
    for a in range(g.size):
        for b in g.orthogonal(a):
            if b > a and rng.random() < 0.15:
                if abs(sol[a] - sol[b]) == 1:
                    p.use(white_dot(g.name(a), g.name(b)))
                elif sol[a] == 2 * sol[b] or sol[b] == 2 * sol[a]:
                    p.use(black_dot(g.name(a), g.name(b)))
                elif sol[a] + sol[b] == n + 1:
                    p.use(x_dot(g.name(a), g.name(b)) if n == 9 else white_dot(
                        g.name(a), g.name(b), abs(sol[a] - sol[b])))
    for _ in range(2):        # outside clues on a random row and column each
        line = rng.randrange(n)
        for row, col in ((line + 1, 0), (0, line + 1)):
            cells = line_from_clue(n, row, col)
            v = [sol[c] for c in cells]
            i, j = sorted((v.index(1), v.index(n)))
            p.use(sandwich(row, col, sum(v[i + 1:j])) if rng.random() < 0.5
                  else x_sum(row, col, sum(v[:v[0]])))
    assert p.check_solution(sol)
    return p


def _random_state(p: Puzzle, sol: list[int], rng: random.Random) -> State:
    st = p.initial_state()
    keep = rng.choice((0.2, 0.4, 0.7))
    for c in range(p.grid.size):
        if rng.random() < 0.15:
            st.place(c, sol[c])
            continue
        m = 1 << sol[c]
        for d in range(1, p.grid.n + 1):
            if rng.random() < keep:
                m |= 1 << d
        st.cand[c] = m
    return st


def _fuzz_6x6(seed: int, puzzles: int) -> dict[str, int]:
    """Random 6x6 line puzzles, random candidate states holding a solution: every
    elimination of every technique leaves no solution (brute force). Returns how often each
    technique fired."""
    rng = random.Random(seed)
    n = 6
    fired: dict[str, int] = {}
    names = techs()
    for k in range(puzzles):
        sol = Puzzle(n).use(classic()).solve(first=True, state=_shuffled(n, rng)).solution
        p = line_puzzle(list(sol), n, rng, lines=8)
        for _ in range(6):
            prove_steps(p, list(sol), _random_state(p, list(sol), rng), names, fired)
    return fired


def prove_steps(p: Puzzle, sol: list[int], st: State, names, fired: dict[str, int]) -> None:
    """Every elimination of techniques ``names`` on ``st`` removes no digit of ``sol`` and
    leaves no solution (brute force); counts the steps in ``fired``."""
    an = Analysis(st)
    for name in names:
        for step in registry.get(name).find(an):
            fired[name] = fired.get(name, 0) + 1
            for c, d in step.eliminations:
                assert sol[c] != d, step.explain(2)
                st2 = st.copy()
                st2.cand[c] = 1 << d
                assert p.solve(first=True, state=st2, time_limit=30).status == \
                    "unsolvable", step.explain(2)


def test_random_6x6_states_every_elimination_proved() -> None:
    """The fuzz above on 40 puzzles; it reaches every technique (lockout lines need 9x9)."""
    fired = _fuzz_6x6(13, 40)
    # (the renban techniques that read skyscrapers or cages have their own fuzz:
    # test_renban_fuzz.py)
    # (the window arrangement needs a grid without bands, a jigsaw or a boxless grid:
    # test_window_arrangement.py)
    missing = set(techs()) - set(fired) - {"lockout_span", "skyscraper_renban",
                                           "renban_cage_exclusion", "window_arrangement"}
    assert not missing, missing


@pytest.mark.slow
@pytest.mark.heavy
def test_random_6x6_states_every_elimination_proved_big() -> None:
    _fuzz_6x6(14, 400)


def _shuffled(n: int, rng: random.Random) -> State:
    """A classic n x n state with a few random givens-as-candidates, to vary solutions."""
    p = Puzzle(n).use(classic())
    st = p.initial_state()
    perm = list(range(1, n + 1))
    rng.shuffle(perm)
    for i, d in enumerate(perm):
        st.cand[i] = 1 << d
    return st


def _random_9x9_solve_paths(count: int) -> None:
    """Every line family at every state of ``count`` random line puzzles' solve paths (34 to
    101 s of CPU each; the 6x6 states above cover the default run)."""
    rng = random.Random(7)
    sols = [s for _, s in load_solutions("norvig_top95", limit=count)]
    problems = []
    for i, sol in enumerate(sols):
        p = line_puzzle(sol, 9, rng, lines=14)
        for c in rng.sample(range(81), rng.randint(4, 12)):
            p.set_given(c, sol[c])
        problems += [f"puzzle {i}: {x}" for x in check_puzzle(
            p, sol, list(FAMILIES), path=["singles", "rules", *FAMILIES, "intersections"],
            max_steps=120)]
    assert problems == []


@pytest.mark.slow
@pytest.mark.heavy
def test_random_9x9_solve_paths_are_sound() -> None:
    _random_9x9_solve_paths(2)


@pytest.mark.long
def test_random_9x9_solve_paths_are_sound_6() -> None:
    """Six puzzles (the first two are the slow run's): about 300 s of CPU."""
    _random_9x9_solve_paths(6)


# -- outside clues, thermometers, parity -----------------------------------------------------
def test_sandwich_crusts() -> None:
    p = Puzzle(9).use(classic(), sandwich(1, 0, 35))     # row 1: 2..8 all between the crusts
    steps = found(p, p.initial_state(), "sandwich_crusts")
    assert elims(p, steps) == {f"r1c{c}<>{d}" for c in range(2, 9) for d in (1, 9)}
    assert "35 needs 7 cells between 1 and 9" in steps[0].explain(2)
    assert_sound(p, p.initial_state(), steps)
    q = Puzzle(9).use(classic(), sandwich(0, 3, 0))      # column 3: 1 and 9 adjacent
    st = make_state(q, {"r2c3": "2345678", "r4c3": "2345678", "r6c3": "2345678"})
    steps = found(q, st, "sandwich_crusts")
    # r1c3, r3c3, r5c3: their neighbours in the column hold no crust
    assert elims(q, steps) == {f"r{r}c3<>{d}" for r in (1, 3, 5) for d in (1, 9)}
    assert_sound(q, st, steps)


def test_x_sum_length() -> None:
    p = Puzzle(9).use(classic(), x_sum(0, 2, 45))
    steps = found(p, p.initial_state(), "x_sum_length")
    assert elims(p, steps) == {f"r1c2<>{d}" for d in range(1, 9)}
    assert_sound(p, p.initial_state(), steps)


def test_thermo_length_on_a_branching_thermo() -> None:
    p = Puzzle(9).use(classic(), thermo(["r1c1", "r1c2", "r1c3"]),
                      thermo(["r1c2", "r2c2", "r3c2", "r4c2"]))
    steps = found(p, p.initial_state(), "thermo_length")
    got = elims(p, steps)
    # the longest chain counts: r1c2 has three cells above it on the branch, r1c1 four
    assert {e for e in got if e.startswith("r1c2")} == {f"r1c2<>{d}" for d in (1, 7, 8, 9)}
    assert {e for e in got if e.startswith("r1c1")} == {f"r1c1<>{d}" for d in (6, 7, 8, 9)}
    assert_sound(p, p.initial_state(), steps)


def test_parity_count() -> None:
    from variants.parity import even
    p = Puzzle(9).use(classic(), even("r1c1", "r2c2", "r3c3", "r1c3"))
    steps = found(p, p.initial_state(), "parity_count")
    assert elims(p, steps) == {f"{c}<>{d}" for c in ("r1c2", "r2c1", "r2c3", "r3c1", "r3c2")
                               for d in (2, 4, 6, 8)}
    assert "box 1: r1c1,r1c3,r2c2,r3c3 must be even and take its 4 even digits" in \
        steps[0].explain(2)
    assert_sound(p, p.initial_state(), steps)


# -- soundness on the f-puzzles set ------------------------------------------------------------
def fpuzzles_with_solutions(titles=None) -> list[tuple[str, Puzzle, list[int]]]:
    """Every distinct f-puzzles puzzle (or those titled ``titles``) with its solution: the
    stated one when it fits the rules as imported, else the unique one by brute force."""
    out, seen = [], set()
    for line in (DATA / "fpuzzles_cc_by.jsonl").read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        key = json.dumps(obj["fpuzzles_json"], sort_keys=True)
        if key in seen or not obj.get("solution") or (titles and obj["title"] not in titles):
            continue
        seen.add(key)
        p = load_fpuzzles(obj["fpuzzles_json"])
        sol = [int(ch) for ch in obj["solution"]]
        if len(sol) != p.grid.size or not p.check_solution(sol):
            res = p.solve(time_limit=60)
            if res.status != "solved":
                continue
            sol = list(res.solution)
        out.append((obj["title"], p, sol))
    return out


#: line, pair and clone puzzles checked in the default run (a few seconds each)
SAMPLE = ("Executive Function", "Every Third Knight", "Third-Degree Murder",
          "Locking Out the Odds", "Parking Garage")


def _check_all(titles, limit: float) -> list[str]:
    problems = []
    for title, p, sol in fpuzzles_with_solutions(titles):
        r = check_solve(p, sol, "all", time_limit=limit)
        if r.status == "unsound":
            problems.append(f"{title}: {r.problem}")
    return problems


def test_fpuzzles_sample_with_every_technique_is_sound() -> None:
    assert _check_all(SAMPLE, 2.0) == []


# The slow run over every f-puzzles puzzle with every technique is
# tests/variants/test_variant_sweep.py::test_variant_soundness_sweep_all (one sweep, not two).


@pytest.mark.parametrize("rule", [entropic_line, modular_line])
def test_three_group_line_pairs_each_once(rule) -> None:
    """An entropic or modular line's relations: cells one or two apart 'differ', cells
    three apart 'same', each pair of cells once, in line order (open lines through distinct
    cells take a shorter path than closed loops and lines crossing themselves), named
    after their cells."""
    rng = random.Random(7)
    g = Grid(9)
    for _ in range(60):
        k = rng.randint(2, 12)
        if rng.random() < 0.3:                         # a closed loop
            ids = rng.sample(range(81), k) if k >= 3 else [0, 1, 2]
            line = list(ids) + [ids[0]]
        elif rng.random() < 0.5:                       # cells may repeat
            line = [rng.randrange(81) for _ in range(k)]
        else:
            line = rng.sample(range(81), k)
        p = Puzzle(g)
        try:
            p.use(rule([g.name(c) for c in line]))
        except Exception:                              # a line the rule refuses
            continue
        ids = line[:-1] if len(line) >= 4 and line[0] == line[-1] else line
        closed = len(ids) < len(line)
        want: dict[tuple, dict] = {}
        for gaps, tag in (((1, 2), "differ"), ((3,), "same")):
            out: dict[frozenset, tuple[int, int]] = {}
            for i in range(len(ids)):
                for gap in gaps:
                    j = i + gap
                    if j >= len(ids) and closed:
                        j %= len(ids)
                    if j < len(ids) and ids[i] != ids[j]:
                        out.setdefault(frozenset((ids[i], ids[j])), (ids[i], ids[j]))
            want[tag] = list(out.values())
        rels = [c for c in p.constraints if c.kind == "relation"]
        got = [(c.a, c.b) for c in rels]
        assert got == want["differ"] + want["same"]
        sep = ["-"] * len(want["differ"]) + ["="] * len(want["same"])
        assert [c.name.split(" ")[-2 if s == "=" else -1] for c, s in zip(rels, sep)] == [
            f"{g.name(a)}{s}{g.name(b)}" for (a, b), s in zip(got, sep)]
