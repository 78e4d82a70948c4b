"""House Arrangement (variants/arrangement_logic.py): a house whose cells are also joined by
two-cell rules keeps only the candidates of some filling that satisfies those rules too.

The real state is "Anti-XV Coverage" (tests/data, CC BY 4.0, negative XV: neighbours
without a marker sum to neither 5 nor 10) after its first nine default steps, where the
default solver without this technique took its first forcing net. The expected eliminations
come from an independent oracle: fillings of the house enumerated with the constraints' own
``check``, not through the link tables the technique reads."""
from __future__ import annotations


from csp import Puzzle
from csp.bits import digits_of
from sudoku_csp.formats.loader import marks_state
from techniques import StepSolver
from variants.classic import classic
from variants.dots import x_dot
from variants.arrangement_logic import arrangement_tables

from conftest import fpuzzle
from test_variant_logic import assert_sound, found, make_state

ANTI_XV = """
23456789 23456789 23456789 23456789 23456789 23456789 345789 3578 1 13456789 13456789
13456789 13456789 13456789 13456789 345789 4579 2 12345789 789 12345789 12345789 12345789
12345789 345789 35789 6 5689 123 234 1234 1234 5689 5689 5689 7 123456789 123456789
123456789 123456789 123456789 1246789 1234689 12345689 4589 123456789 123456789 123456789
123456789 123456789 123456789 1234 12345689 34589 123456789 123456789 123456789 123456789
1234 1234 1234 123456789 34589 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 34589 123456789 123456789 123456789 123456789 123456789
123456789 123456789 123456789 34589"""


def anti_xv() -> tuple[Puzzle, list[int]]:
    return fpuzzle("Anti-XV Coverage")


def oracle(p: Puzzle, st, house) -> set[tuple[int, int]]:
    """The candidates of the house's open cells that no filling keeps: different digits,
    every constraint lying wholly inside the house satisfied (``Constraint.check``)."""
    cells = sorted((c for c in house.cells if not st.placed[c]),
                   key=lambda c: bin(st.cand[c]).count("1"))
    inside = [con for con in p.constraints
              if len(con.cells) > 1 and set(con.cells) <= set(house.cells)]
    value = {c: st.placed[c] for c in house.cells if st.placed[c]}

    def ok(c: int) -> bool:
        return all(con.check(*(value[x] for x in con.cells)) for con in inside
                   if c in con.cells and all(x in value for x in con.cells))

    def fill(j: int) -> bool:
        if j == len(cells):
            return True
        c = cells[j]
        for d in digits_of(st.cand[c]):
            if d in value.values():
                continue
            value[c] = d
            if ok(c) and fill(j + 1):
                del value[c]
                return True
            del value[c]
        return False

    dead = set()
    for c in cells:
        for d in digits_of(st.cand[c]):
            value[c] = d
            cells.remove(c)
            if not (ok(c) and fill(0)):
                dead.add((c, d))
            cells.insert(0, c)
            cells.sort(key=lambda x: bin(st.cand[x]).count("1"))
            del value[c]
    return dead


def test_anti_xv_row_cannot_hold_two_v_pairs() -> None:
    """Row 7: r7c5-r7c6 carry a V (1+4 or 2+3) and r7c7 is 1..4; were r7c8 1..4 too, r7c7
    and r7c8 would be the other pair adding to 5, next to each other without a V."""
    p, sol = anti_xv()
    st = marks_state(ANTI_XV, p)
    assert all(st.cand[c] >> sol[c] & 1 or st.placed[c] == sol[c] for c in range(81))
    # (band_arrangement, newer, finds steps here too: rows 4-6 filled whole)
    base = StepSolver(["default", "-house_arrangement", "-house_pair_arrangement",
                       "-band_arrangement"])
    assert base.next_step(st).technique.startswith("forcing_")
    steps = found(p, st, "house_arrangement")
    assert [s.houses for s in steps] == [("row 7",), ("box 6",)]
    # the text says why each candidate goes: r7c8=1 (pictured) leaves r7c6, between two
    # rule-joined neighbours, no digit; 2, 3 and 4 end the same way
    assert steps[0].explain(2).endswith(
        "=> r7c8<>1234. Why: r7c8=1 (pictured): r7c6<>234 (V/negative v/negative x: no digit "
        "of r7c7,r7c5 fits), so r7c6 has no digit left; the same way r7c8=2/3/4")
    assert steps[0].extra["detail"].picture()["broken"] == [p.cell("r7c6")]
    houses = {h.name: h for h in p.houses()}
    for s in steps:
        assert set(s.eliminations) == oracle(p, st, houses[s.houses[0]]), s.explain(2)
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    # every house of the puzzle: the technique finds exactly what the oracle finds
    got = {(c, d) for s in steps for c, d in s.eliminations}
    want = set().union(*(oracle(p, st, h) for h in p.houses()))
    assert got == want
    assert_sound(p, st, steps)


ANTI_XV_PAIR = """
23456789 23456789 23456789 23456789 23456789 23456789 345789 3578 1 13456789 13456789
13456789 13456789 13456789 13456789 345789 4579 2 12345789 789 12345789 12345789 12345789
12345789 345789 35789 6 5689 123 234 1234 1234 5689 5689 5689 7 123456789 123456789
123456789 123456789 123456789 146789 123469 12345689 4589 123456789 123456789 123456789
123456789 123456789 123456789 1234 12345689 34589 123456789 123456789 123456789 123456789
1234 1234 1234 56789 34589 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 34589 123456789 123456789 123456789 123456789 123456789 123456789
123456789 123456789 34589"""


def test_anti_xv_two_rows_together() -> None:
    """Three steps later (the row arrangements made), the default solver without it took a
    forcing net for r5c6<>1: if r5c6 were 1, r5c7 would be 9 (X), row 4's V pairs would be
    2+3 (r4c4, r4c5 see the 1) and 1+4, and row 4's 9 would have no place."""
    p, sol = anti_xv()
    st = marks_state(ANTI_XV_PAIR, p)
    assert all(st.cand[c] >> sol[c] & 1 or st.placed[c] == sol[c] for c in range(81))
    base = StepSolver(["default", "-house_pair_arrangement", "-band_arrangement"])
    assert base.next_step(st).technique.startswith("forcing_")
    steps = found(p, st, "house_pair_arrangement")
    by_houses = {s.houses: s for s in steps}
    # and the text tells that reasoning: r5c6=1 makes r5c7 9, row 4's 1 goes to r4c2, and
    # row 4's 9 has no place left
    assert by_houses[("row 4", "row 5")].explain(2).endswith(
        "=> r5c6<>1, r5c7<>9. Why: r5c6=1 (pictured): r5c7=9, r4c2=1 (only 1 in row 4), so "
        "row 4 has no place for 9; the same way r5c7=9")
    assert by_houses[("row 4", "row 5")].extra["detail"].picture()["house"] == "row 4"
    for s in steps:
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert_sound(p, st, steps[:3])


def test_x_dot_pair_in_a_row() -> None:
    """Only houses with rules between their cells take part (a classic grid has none); an X
    between r1c1 and r1c2, both 1 or 9: row 1 and box 1 keep 1 and 9 there only."""
    assert arrangement_tables(Puzzle(9).use(classic())).houses == []
    p = Puzzle(9).use(classic(), x_dot("r1c1", "r1c2"))
    assert len(arrangement_tables(p).houses) == 2          # row 1 and box 1
    st = make_state(p, {"r1c1": "1289", "r1c2": "19"})
    steps = found(p, st, "house_arrangement")
    houses = {h.name: h for h in p.houses()}
    assert sorted(s.houses[0] for s in steps) == ["box 1", "row 1"]
    for s in steps:
        assert set(s.eliminations) == oracle(p, st, houses[s.houses[0]]), s.explain(2)
    assert {p.grid.name(c) for s in steps for c, d in s.eliminations if c == 0} == {"r1c1"}
    assert_sound(p, st, steps)
