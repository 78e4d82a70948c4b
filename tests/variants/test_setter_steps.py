"""Setter puzzles of the f-puzzles set (tests/data/fpuzzles_cc_by.jsonl) where a forcing
net used to do a human's one-line deduction: the state just before that net (solving
without the new idea), the new idea's exact eliminations there, checked against the known
solution, and the whole logic solve now free of forcing steps."""
from __future__ import annotations

import pytest

from csp.links import link_tables
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from techniques import StepSolver, chains

from conftest import fpuzzle_row

FORCING = frozenset((
    "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
    "forcing_net_verity", "forcing_net_nested", "kraken_fish_type_1", "kraken_fish_type_2",
    "template_set", "template_delete"))

_row = fpuzzle_row


def _before_forcing(p, techniques: str):
    """The state where a solve with ``techniques`` first takes a forcing step (without the
    three-house exclusion, the window arrangement and the digit chains, and with the band
    searches' former budget of 20,000 nodes a band at one look: all newer than these
    states, and they get past most of them on their own)."""
    run = StepSolver(techniques + ",-three_house_exclusion,-window_arrangement"
                     ",-digit_chain_exclusion,-digit_chain_verity",
                     options={"band_total": 20_000}).start(p, time_limit=30)
    prev = run.state.copy()
    for s in run:
        if s.technique in FORCING:
            return prev
        prev = run.state.copy()
    raise AssertionError("no forcing step without the technique")


def _names(p, steps) -> set[str]:
    return {f"{p.grid.name(c)}<>{d}" for s in steps for c, d in s.eliminations}


def test_disjoint_cages_sistine_hippos():
    """Cage 11 (r7c2 r7c3: 29/56) and cage 8 (r8c3 r9c3: 26/35) share box 7: 26 meets both
    combinations of cage 11, so cage 8 is 35 (a forcing chain did this before)."""
    row = _row(62)
    p = load_fpuzzles(row["fpuzzles_json"])
    # (house_arrangement, newer, gets past it too: box 7 with its two-cell cages filled whole;
    # so do house_sums and linked_sums: the cages with the puzzle's other sum rules)
    st = _before_forcing(p, "default,-disjoint_cages,-house_arrangement,-house_pair_arrangement,"
                            "-house_sums,-linked_sums,-band_arrangement")
    steps = StepSolver().find_all(st, "disjoint_cages")
    sol = [int(ch) for ch in row["solution"]]
    got = _names(p, steps)
    assert {"r8c3<>2", "r8c3<>6", "r9c3<>2", "r9c3<>6"} <= got
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    text = [s.explain(2) for s in steps]
    assert any("cage 8 at r8c3" in t and "so cage 8 at r8c3 is 35" in t for t in text), text


def test_renban_house_split_candy_cane():
    """Renban r2c3-r1c1 (r2c3 is 4 or 7): its row-1 cells hold 235, 356 or 568. 235 leaves
    both 6 and 8 to r1c6 alone, 568 leaves r1c6 no digit: they are 356, and r1c6 is not 6
    (a forcing net found r1c6<>6 before)."""
    row = _row(78)
    p = load_fpuzzles(row["fpuzzles_json"])
    # (house_arrangement, newer, finds r1c6<>6 too: row 1 filled whole with the renban;
    # almost_locked_candidates takes r1c2<>8 before: box 2 keeps 6 and 8 to row 1 and r3c6;
    # the grouped chains, with group nodes' cross-digit links (d14893d), get past
    # the forcing step on their own too)
    st = _before_forcing(p, "default,-renban_house_split,-house_arrangement,"
                            "-house_pair_arrangement,-band_arrangement,"
                            "-almost_locked_candidates,-grouped_aic,"
                            "-grouped_discontinuous_nice_loop,-grouped_continuous_nice_loop")
    steps = [s for s in StepSolver().find_all(st, "renban_house_split")
             if "renban r2c3" in s.note and "row 1" in s.note]
    assert steps
    sol = [int(ch) for ch in row["solution"]]
    got = _names(p, steps)
    assert {"r1c6<>6", "r1c1<>8", "r1c2<>8"} <= got, got
    for s in StepSolver().find_all(st, "renban_house_split"):
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    assert "r1c3,r1c2,r1c1 hold 356, not 235/568" in steps[0].explain(2)


@pytest.mark.parametrize("i", [46, 53, 62, 78])
def test_no_forcing_needed(i):
    """Quadruples (repeated digits kept out of shared houses), Column Indexing Test (the
    indexers' links feed the chains), Sistine Hippos (disjoint cages) and Candy Cane
    (renban-house split): solved by logic, correctly, without a forcing step."""
    row = _row(i)
    p = load_fpuzzles(row["fpuzzles_json"])
    r = StepSolver().solve(p, time_limit=30)
    assert r.status == "solved"
    assert "".join(str(r.state.placed[c]) for c in range(81)) == row["solution"]
    assert not [s.technique for s in r.steps if s.technique in FORCING]


def test_two_house_exclusion_anti_knight_minimal_givens(monkeypatch):
    """Anti-knight minimal givens 3: 8 goes in row 7 at r7c1/r7c2 and in column 3 at
    r1c3-r4c3/r6c3. r2c2=8 sees r7c2 (column 2), r1c3-r3c3 (box 1) and r4c3 (knight): row 7
    keeps r7c1 and column 3 r6c3, a knight's move apart. So r2c2 is not 8 (a forcing chain
    found this before: box 4 left without an 8)."""
    row = _row(4)
    p = load_fpuzzles(row["fpuzzles_json"])
    # (band_arrangement, newer, gets past this state too: rows 7-9 with the knight's moves;
    # so do the grouped chains' house groups, newer still: off for the old state)
    monkeypatch.setattr(chains, "HOUSE_GROUP_MAX_N", 0)
    st = _before_forcing(p, "default,-two_house_exclusion,-band_arrangement")
    steps = StepSolver().find_all(st, "two_house_exclusion")
    sol = [int(ch) for ch in row["solution"]]
    assert "r2c2<>8" in _names(p, steps)
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    step = next(s for s in steps if "r2c2<>8" in _names(p, [s]))
    assert step.houses == ("row 7", "col 3")
    assert "8 goes once in row 7 (r7c1,r7c2)" in step.explain(2)


def test_two_house_exclusion_kept_per_digit_across_states():
    """The pairs of houses are kept per digit across states (keyed on the digit's cells and
    the houses where it is placed): a state where 8's cells differ gets its own answer, the
    same as a fresh puzzle's, while the other digits' answers are reused unchanged."""
    row = _row(4)
    p = load_fpuzzles(row["fpuzzles_json"])
    st = _before_forcing(p, "default,-two_house_exclusion,-band_arrangement")
    first = StepSolver().find_all(st, "two_house_exclusion")
    st2 = st.copy()
    st2.cand[p.cell("r7c1")] &= ~(1 << 8)         # 8 of row 7 only in r7c2 now
    again = StepSolver().find_all(st2, "two_house_exclusion")
    fresh_p = load_fpuzzles(row["fpuzzles_json"])
    st3 = fresh_p.initial_state()
    st3.cand[:], st3.placed[:] = st2.cand[:], st2.placed[:]
    fresh = StepSolver().find_all(st3, "two_house_exclusion")
    assert [(s.houses, s.eliminations) for s in again] == [
        (s.houses, s.eliminations) for s in fresh]
    assert [(s.houses, s.eliminations) for s in again if s.digits != (8,)] == [
        (s.houses, s.eliminations) for s in first if s.digits != (8,)]
    assert [s.eliminations for s in again if s.digits == (8,)] != [
        s.eliminations for s in first if s.digits == (8,)]


def test_two_house_exclusion_through_palindromes():
    """Boxless anti-knight coloring book (Badly Made Paper Ice Crystals): 9 goes once in row
    2 (r2c3, r2c5, r2c7) and once in row 6 (r6c1, r6c3, r6c5). r1c2=9 takes 9 from r1c4 and
    r1c8 (row 1), so from their palindrome partners r2c3 and r2c7, and from r5c2 and r7c2
    (column 2), so from r6c1 and r6c3; r2c5 and r6c5 share column 5: no pair is left."""
    row = _row(122)
    p = load_fpuzzles(row["fpuzzles_json"])
    st = _before_forcing(p, "default,-two_house_exclusion")
    steps = StepSolver().find_all(st, "two_house_exclusion")
    sol = [int(ch) for ch in row["solution"]]
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    step = next(s for s in steps if s.houses == ("row 2", "row 6"))
    assert _names(p, [step]) == {"r1c2<>9"}
    assert "r1c4=r2c3, r1c8=r2c7, r5c2=r6c1, r6c3=r7c2" in step.explain(2)
    # through the links alone (rows, columns, knight's moves) r1c2 sees none of the six
    # places: the equal cells of the palindromes make the step
    six = sum(1 << p.cell(r) for r in ("r2c3", "r2c5", "r2c7", "r6c1", "r6c3", "r6c5"))
    assert link_tables(p).peers_d[9][p.cell("r1c2")] & six == 0


@pytest.mark.slow
def test_two_house_exclusion_fewer_forcing_steps(monkeypatch):
    """With the house exclusions (two houses, and three houses, which generalizes it and
    takes its steps when it is left out), Anti-knight minimal givens 3 needs fewer steps of
    the forcing family, the single-digit chains and polarity hypotheses counted with it (as
    the setter report counts them). Measured without the grouped chains' house groups,
    which are newer and take some of the same eliminations (with them on, the exclusions
    make no difference on this puzzle: 14 and 14); with them on it is no worse."""
    family = FORCING | {"digit_chain_exclusion", "digit_chain_verity", "polarity_chain"}
    p = load_fpuzzles(_row(4)["fpuzzles_json"])

    def forcing_steps(techniques: str) -> int:
        res = StepSolver(techniques).solve(p, time_limit=30)
        assert res.status == "solved"
        return sum(s.technique in family for s in res.steps)

    n_groups = forcing_steps("default")
    with monkeypatch.context() as m:
        m.setattr(chains, "HOUSE_GROUP_MAX_N", 0)
        n_with = forcing_steps("default")
        n_without = forcing_steps("default,-two_house_exclusion,-three_house_exclusion")
    assert n_with < n_without
    assert n_groups <= n_with


def test_clique_subset_electricity_warning_sign():
    """Antiknight Coloring Book (Electricity Warning Sign, jigsaw): r5c3, r6c2, r6c3, r8c3
    and r9c3 see each other pairwise (column 3, region 6 and knight's moves) and hold five
    digits only: a naked quintuple in a clique that no house contains. 6 of it sits in
    cells that r1c3 sees all of (column 3), so r1c3 is not 6."""
    row = _row(121)
    p = load_fpuzzles(row["fpuzzles_json"])
    st = _before_forcing(p, "default,-clique_subset")
    steps = StepSolver().find_all(st, "clique_subset")
    sol = [int(ch) for ch in row["solution"]]
    assert "r1c3<>6" in _names(p, steps)
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    step = next(s for s in steps if "r1c3<>6" in _names(p, [s]))
    assert "r5c3,r6c2,r6c3,r8c3,r9c3 see each other pairwise" in step.explain(2)


def test_clique_subset_silent_on_jigsaw_without_links():
    """With houses only every clique lies in one house: nothing to find, at once."""
    from techniques.analysis import Analysis
    from techniques.subsets import clique_adjacency, clique_subset
    from variants.classic import classic_puzzle
    st = classic_puzzle("." * 81).pencilmarks()
    an = Analysis(st)
    assert clique_adjacency(an) is None
    assert list(clique_subset(an, {})) == []


def test_three_house_exclusion_fuzz_on_the_lens():
    """Antiknight Coloring Book (Fuzz On The Lens, jigsaw, palindromes): r2c5=4 takes 4
    from row 4 but r4c9, from column 7 but r6c7 and r8c7, from region 7 but r8c1 and r8c3
    (through its knight's moves, its row, column and region, and the palindrome partners
    of the cells it sees). Row 4's r4c9 sees r6c7 (a region), so column 7 takes r8c7,
    which shares row 8 with both places of region 7: r2c5 is not 4. Every elimination at this state (where a forcing net used to be taken)
    is checked against the known solution and by brute force, and the whole solve is now
    free of forcing steps."""
    from test_variant_logic import assert_sound
    row = _row(124)
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch) for ch in row["solution"]]
    st = _before_forcing(p, "default")
    steps = StepSolver().find_all(st, "three_house_exclusion")
    assert {"r2c5<>4", "r3c2<>4", "r2c8<>4", "r3c8<>4", "r4c7<>4"} <= _names(p, steps)
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {p.grid.name(c)}<>{d}"
    step = next(s for s in steps if "r2c5<>4" in _names(p, [s]))
    assert step.houses == ("row 4", "col 7", "region 7")
    assert step.explain(2).startswith(
        "Three-House Exclusion: r2c5=4 would leave row 4 only r4c9, col 7 only r6c7,r8c7 "
        "and region 7 only r8c1,r8c3: every choice of one place in each has two that see "
        "each other (r2c5=r3c2")
    # no two of these houses are enough: the two-house exclusion finds nothing here
    assert StepSolver().find_all(st, "two_house_exclusion") == []
    assert_sound(p, st, steps[:3], sol)
    r = StepSolver("default").solve(p, time_limit=30)
    assert r.status == "solved"
    assert not [s.technique for s in r.steps if s.technique in FORCING]


def test_three_house_pair_fits_from_the_candidates():
    """``_pair_fits`` (kept across states, per pair of place sets) gives with the digit's
    candidates what the candidates give directly: the cells that fit (are not linked) with
    both places of some pair a, b that fit together, a and b included. On an anti-knight
    state, for every pair of houses' places (and parts of them) of every digit."""
    import random
    from csp import Grid, Puzzle
    from techniques.analysis import Analysis
    from techniques.exclusion import _pair_fits, _SameDigitSight
    from variants.chess import anti_knight
    p = Puzzle(Grid(9)).add_grid_houses().use(anti_knight())
    an = Analysis(p.givens("1...5....." + "3" + "." * 70).propagate())
    tables = p.derived(_SameDigitSight)
    rnd = random.Random(7)
    checked = 0
    for d in range(1, 10):
        cells_d, sight = an.cells_with[d], tables.sight[d]
        near = {s: cells_d & ~sight[s] | 1 << s for s in range(81) if cells_d >> s & 1}
        places = [an.house_mask[h] & cells_d for h in an.full]
        places += [pl & rnd.getrandbits(81) for pl in places]
        for pa in places:
            for pb in places:
                want = 0
                for a in (s for s in range(81) if pa >> s & 1):
                    for b in (s for s in range(81) if (pb & near[a]) >> s & 1):
                        want |= near[a] & near[b]
                assert cells_d & ~_pair_fits(pa, pb, sight) == want
                checked += bool(want)
    assert checked > 1000


def test_three_house_exclusion_silent_without_links():
    """With houses only (a classic grid, a jigsaw) the exclusions are fish: nothing to
    find, at once; on an anti-knight grid's first state nothing is excluded either (every
    candidate leaves three houses places that do not see each other)."""
    from csp import Grid, Puzzle
    from techniques.analysis import Analysis
    from techniques.exclusion import three_house_exclusion
    from variants.chess import anti_knight
    from variants.classic import classic_puzzle
    st = classic_puzzle("." * 81).pencilmarks()
    assert list(three_house_exclusion(Analysis(st), {})) == []
    p = Puzzle(Grid(9)).add_grid_houses().use(anti_knight())
    st = p.givens("1" + "." * 80).propagate()
    assert StepSolver().find_all(st, "three_house_exclusion") == []
