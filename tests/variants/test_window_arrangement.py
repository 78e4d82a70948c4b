"""Window Arrangement (variants/arrangement_logic.py): on a grid without bands (a jigsaw whose
regions cross every row, a boxless grid), three consecutive rows (or columns) with the
region cells, links and rules inside them filled together; a candidate in no such filling
goes.

The real state is Lubaf's "Antiking Coloring Book: Relaxed String" (f-puzzles set, CC BY
4.0: jigsaw regions, anti-king, palindromes, a thermometer) on its default path, at the
step the window arrangement takes where the default solver without it (and without the
three-house exclusion) has only a forcing net left. The expected eliminations come from an independent oracle: a puzzle of the rules
lying wholly inside the window plus, for every house, its cells inside the window all
different, solved by the model's own search once per candidate."""
from __future__ import annotations

from csp import Grid, Puzzle
from csp.bits import iter_cells
from sudoku_csp.formats.loader import marks_state
from techniques import StepSolver, chains
from variants.classic import classic
from variants.arrangement_logic import arrangement_tables, line_windows

from conftest import fpuzzle, fpuzzle_row, region_oracle
from test_variant_logic import assert_sound, found

FORCING = ("forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
           "forcing_net_verity", "forcing_net_nested")

#: "Relaxed String" (line 126 of the set) before its window step
RELAXED_STRING = """
24 15678 167 1567 17 349 2349 249 678 369 3456 289 125689 2479 24789 14 3479 567 24689 17
12479 123679 134679 379 5 124 68 23479 135679 24689 379 124689 17 289 1234679 57 23479
13679 17 289 12346789 24579 124689 135679 234 678 134679 5 123679 12479 289 24689 17 1234
5678 789 124678 1237 1347 1234579 369 4567 24 567 467 679 2789 289 12489 2349 3456 123 1 2
3 4 5 6 7 8 9"""


def relaxed_string():
    assert fpuzzle_row(126)["title"] == "Antiking Coloring Book: Relaxed String"
    return fpuzzle(126)


def oracle(p: Puzzle, st, window: set[int]) -> set[tuple[int, int]]:
    """The candidates of the window's open cells that no filling of the window keeps: the
    rules wholly inside it and each house's cells inside it all different
    (:func:`conftest.region_oracle`)."""
    return region_oracle(p, st, window, split_houses=True)


def test_window_on_a_jigsaw_coloring_book(monkeypatch) -> None:
    """Rows 1-3 of "Relaxed String" with anti-king and the region cells inside them: the
    eliminations are exactly the oracle's, none removes a digit of the solution, and the
    solver without the window arrangement has nothing but the forcing family here."""
    p, sol = relaxed_string()
    st = marks_state(RELAXED_STRING, p)
    assert all(st.cand[c] >> sol[c] & 1 or st.placed[c] == sol[c] for c in range(81))
    # (the three-house exclusion, just after the two-house one, gets past this state too,
    # and so does the digit chain exclusion, after the window arrangement, and a grouped
    # nice loop through the chains' house groups, newer than both)
    without = ["default", "-window_arrangement", "-three_house_exclusion",
               "-digit_chain_exclusion", "-digit_chain_verity"]
    loop = StepSolver([*without, *(f"-{f}" for f in FORCING)]).next_step(st)
    assert loop.technique == "grouped_continuous_nice_loop"
    assert all(sol[c] != d for c, d in loop.eliminations)
    with monkeypatch.context() as m:
        m.setattr(chains, "HOUSE_GROUP_MAX_N", 0)
        assert StepSolver([*without, *(f"-{f}" for f in FORCING)]).next_step(st) is None
        step = StepSolver(["default", "-three_house_exclusion"]).next_step(st)
        assert step.technique == "window_arrangement"
    steps = found(p, st, "window_arrangement")
    assert steps[0].explain(2).startswith("Window Arrangement: rows 1-3 with anti-king")
    assert sorted((p.grid.name(c), d) for c, d in steps[0].eliminations) == [
        ("r1c2", 1), ("r1c2", 7), ("r1c4", 1), ("r1c4", 7), ("r2c4", 1), ("r2c7", 4),
        ("r3c8", 1)]
    t = arrangement_tables(p)
    for s in steps:
        name = s.explain(2).split(": ", 1)[1].split(" with ", 1)[0]
        houses = next(h for h, n, _ in t.windows if n == name)
        cells = set(iter_cells(t.cells(houses)))
        assert set(s.eliminations) == oracle(p, st, cells), s.explain(2)
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert_sound(p, st, steps[:1], sol)


def test_no_windows_where_bands_exist() -> None:
    """A grid with boxes has bands and no windows (the band arrangement covers it), so the
    window arrangement returns at once; a boxless grid has windows both ways, but none is
    searched when no rule joins its cells."""
    p = Puzzle(9).use(classic()).add_sum(["r1c1", "r2c4"], 10)
    assert line_windows(p) == [] and arrangement_tables(p).windows == []
    st = p.propagate()
    assert found(p, st, "window_arrangement") == []
    q = Puzzle(Grid(9, box=(1, 9))).add_grid_houses()
    assert len(line_windows(q)) == 14
    assert arrangement_tables(q).windows == []
