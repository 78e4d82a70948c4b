"""Setter-grade logic (issue 13): each new technique on a state of a real f-puzzles puzzle
where the default solver needs it (it is the next step there), with the exact eliminations
checked against the puzzle's stated solution; variant difficulty follows the hardest idea.
"""
from __future__ import annotations

import json

import pytest

from csp.state import State
from csp.step import Step
from techniques import StepSolver

from conftest import DATA as _DATA, joint_solutions, narrowed_doms, random_state

DATA = _DATA / "fpuzzles_cc_by.jsonl"


def _puzzle(title: str):
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    for line in DATA.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["title"] == title:
            return load_fpuzzles(rec["fpuzzles_json"]), [int(ch) for ch in rec["solution"]]
    raise KeyError(title)


def first_step_of(title: str, technique: str, eliminates: str | None = None,
                  max_steps: int = 400, selection: list[str] | str = "default"
                  ) -> tuple[object, list[int], State, Step]:
    """Walk the solve path of an f-puzzles puzzle (the ``selection`` of techniques) to the
    first step of ``technique`` (that eliminates ``eliminates``, e.g. ``"r2c7<>1"``, when
    given): (puzzle, solution, the state before it, the step)."""
    p, sol = _puzzle(title)
    run = StepSolver(selection).start(p, max_steps=max_steps)
    while True:
        step = run.peek()
        assert step is not None, f"{title}: no such {technique} step before the end"
        if step.technique == technique and (
                eliminates is None or eliminates in names(p, step.eliminations)):
            return p, sol, run.state.copy(), step
        next(run)


def names(p, cands) -> set[str]:
    return {f"{p.grid.name(c)}<>{d}" for c, d in cands}


def sound(sol: list[int], step: Step) -> bool:
    return not any(sol[c] == d for c, d in step.eliminations) and all(
        sol[c] == d for c, d in step.placements)


def test_box_indexing_reverse_direction():
    """Issue 13: 'Box Indexing Test': r1c7's candidates say where the 1 of box 3 goes, so
    r2c7 (its 4th cell) loses 1 -- indexing logic the rule's propagation did not make."""
    p, sol, st, step = first_step_of("Box Indexing Test", "indexing", "r2c7<>1")
    assert step.explain(2).startswith("Indexing: box indexer r1c7: r1c7 is ")
    assert sound(sol, step)
    # on the path there, every indexing step is sound
    run = StepSolver("default").start(p)
    for s in run:
        assert s.technique != "indexing" or sound(sol, s), s.explain(2)
        if run.state.candidates("r2c7") and 1 not in run.state.candidates("r2c7"):
            break


def test_crossbow_two_arrows_together():
    """Issue 13: 'Rapid Fire Crossbow': the arrows of r7c9 and r8c9 share box 9; taken
    together r7c9 = 4 leaves the other arrow no sum, so r7c9 (and r8c9) lose 4."""
    p, sol, st, step = first_step_of("Rapid Fire Crossbow", "combined_sums", "r7c9<>4")
    assert "arrow r8c9" in step.explain(2) and "arrow r7c9" in step.explain(2)
    assert sound(sol, step)
    # neither arrow alone knows it
    alone = StepSolver(["sum_arithmetic", "constraint"]).find_all(st, "sum_arithmetic")
    assert "r7c9<>4" not in names(p, [e for s in alone for e in s.eliminations])


def test_sum_arithmetic_on_arrows_xv_arrow():
    """'Mar 20, 2022: XV Arrow': the arrows alone allow repeats; with their cells' houses
    (and the negative XV links between neighbours) they lose digits: the puzzle, which
    needed a forcing chain, is solved without one."""
    p, sol, st, step = first_step_of("Mar 20, 2022: XV Arrow", "sum_arithmetic")
    assert step.explain(2).startswith("Sum Arithmetic: arrow r1c1 (r1c1 = r1c2+r1c3, "
                                      "r1c1 r1c2 r1c3 in row 1)")
    assert names(p, step.eliminations) == {"r1c3<>2"} and sound(sol, step)
    r = StepSolver("default").solve(p)
    assert r.status == "solved" and not any(
        s.technique.startswith(("forcing", "kraken", "template")) for s in r.steps)


def test_cell_exclusion_third_degree_murder():
    """'Third-Degree Murder': r4c2 = 4 would leave r4c1 without a digit (the entropic line
    and the row between them take all of r4c1's candidates): the step the solver used to
    take as a forcing chain."""
    # the line techniques (entropic groups) now take this state's deduction first
    p, sol, st, step = first_step_of("Third-Degree Murder", "cell_exclusion",
                                     selection=["default", "-lines", "-pairs"])
    assert step.explain(2).startswith("Cell Exclusion: r4c2=4 would leave r4c1 without a digit")
    assert names(p, step.eliminations) == {"r4c2<>4"} and sound(sol, step)


def test_house_exclusion_every_third_knight():
    """'Every Third Knight': r1c3 = 5 would leave row 1 without a 4 (its places r1c2-r1c5
    all see r1c3=5 through the cell and the entropic line)."""
    p, sol, st, step = first_step_of("Every Third Knight", "house_exclusion",
                                     selection=["default", "-lines", "-pairs"])
    assert step.explain(2).startswith("House Exclusion: r1c3=5 would leave row 1 without a 4")
    assert sound(sol, step)


def test_rule_exclusion_consec_pairs_quads():
    """'5/31/23: Consec Pairs Quads': r1c2=2 would take the 2s the quadruple 22 at r1c3
    needs (two 2s in its 2x2 cells, on a diagonal: not both in row 2): one rule read once,
    where the solver used to start a forcing net; the puzzle is now solved without any."""
    p, sol, st, step = first_step_of("5/31/23: Consec Pairs Quads", "rule_exclusion")
    assert step.explain(2) == ("Rule Exclusion: r1c2=2 would leave quadruple 22 at r1c3 "
                               "without a solution => r1c2<>2")
    assert sound(sol, step)
    r = StepSolver("default").solve(p, time_limit=60)
    assert r.status == "solved" and not any(
        s.technique.startswith(("forcing", "kraken", "template")) for s in r.steps)


@pytest.mark.parametrize("title", ["Anti-XV Coverage", "Anti-Ratio Coverage"])
def test_rule_exclusion_two_cell_table_equals_propagation(title):
    """Rule exclusion reads a two-cell rule's support table directly instead of running its
    propagation once per candidate (most of its time on negative-constraint puzzles, where
    every neighbouring pair is a rule): on random states of the negative XV and ratio
    puzzles, for every such rule, the same candidates break it either way, and some do."""
    import random

    from techniques.analysis import analyze
    from techniques.exclusion import _breakers
    from techniques.rules import rule_engine
    from csp.constraints.binary import BinaryTable
    p, sol = _puzzle(title)
    eng = rule_engine(p)
    tables = [i for i, q in enumerate(eng.props) if type(q) is BinaryTable]
    assert len(tables) > 100
    rng = random.Random(13)
    hits = 0
    for _ in range(6):
        st = random_state(p, sol, rng, keep=rng.choice((0.2, 0.4, 0.7)), place=0.1)
        an = analyze(st)
        base = [m if not st.placed[c] else 1 << st.placed[c] for c, m in enumerate(st.cand)]
        for i in tables:
            fast = _breakers(an, eng, i, base)
            assert fast == _breakers(an, eng, i, base, generic=True)
            hits += len(fast)
    assert hits


def test_exclusions_are_silent_without_cross_links():
    from variants.classic import classic_puzzle
    st = classic_puzzle("." * 81).pencilmarks()
    for name in ("cell_exclusion", "house_exclusion", "rule_exclusion"):
        assert StepSolver().find_all(st, name) == []


def test_sum_arithmetic_pill_arrow():
    """A pill arrow (a two-cell circle read as a number) over four shaft cells of one row:
    the shaft is four different digits, 10..30, and the pill's two digits differ (one row),
    so the pill is 12..29: its tens digit is 1 or 2."""
    from csp import Grid, Puzzle
    from csp.constraints import Linear
    p = Puzzle(Grid(9)).add_grid_houses()
    circle = p.grid.cells(["r1c1", "r1c2"])
    shaft = p.grid.cells(["r3c4", "r3c5", "r3c6", "r3c7"])
    p.add(Linear(circle + shaft, [-10, -1, 1, 1, 1, 1], 0, "arrow r1c1"))
    st = p.pencilmarks()
    steps = StepSolver().find_all(st, "sum_arithmetic")
    assert steps and set(st.candidates("r1c1")) - {
        d for d in range(1, 10) if f"r1c1<>{d}" in names(p, steps[0].eliminations)} == {1, 2}
    # every removal has no solution: the shaft is four different digits (10..30)
    for c, d in steps[0].eliminations:
        st2 = st.copy()
        st2.cand[c] = 1 << d
        assert p.solve(first=True, state=st2, time_limit=30).status == "unsolvable"


def test_little_killer_repeats_only_where_cells_can_repeat():
    """A little killer of 6 down three cells of one box: all different there, so 1+2+3 and
    each cell is 1, 2 or 3; the same sum along cells in three different boxes keeps 4."""
    from csp import Grid, Puzzle, Sum
    p = Puzzle(Grid(9)).add_grid_houses()
    p.add(Sum(p.grid.cells(["r1c1", "r2c2", "r3c3"]), 6, name="little killer 6"))
    st = p.propagate()                    # the sum's own arithmetic: 1..4 (1+1+4)
    assert st.candidates("r2c2") == (1, 2, 3, 4)
    steps = StepSolver().find_all(st, "sum_arithmetic")
    assert names(p, steps[0].eliminations) == {f"r{i}c{i}<>4" for i in (1, 2, 3)}
    q = Puzzle(Grid(9)).add_grid_houses()
    q.add(Sum(q.grid.cells(["r1c1", "r4c5", "r7c9"]), 6, name="little killer 6"))
    assert StepSolver().find_all(q.propagate(), "sum_arithmetic") == []


def test_variant_rating_follows_the_hardest_idea():
    """Issue 13: a variant puzzle's level is its hardest technique's, not raised by the
    number of steps; SE's scale applies through the documented extension ('extended')
    and not at all in SE 1.2.1's own mode."""
    p, _ = _puzzle("October 10, 2023: Killer")
    r = StepSolver("default").solve(p)
    assert r.status == "solved" and r.rating.basis == "ideas"
    hardest = max((s.technique for s in r.steps),
                  key=lambda t: ("easy", "medium", "hard", "unfair", "extreme").index(
                      __import__("techniques").registry.get(t).level))
    assert r.rating.level == __import__("techniques").registry.get(hardest).level
    assert r.rating.level in ("easy", "medium")          # was 'extreme' by its step count
    se = StepSolver().rate_se(p)
    assert se.applies and se.scale == "SE + variant extension" and se.er < 4.0
    assert not StepSolver().rate_se(p, mode="se121").applies


def test_classic_rating_unchanged_by_the_variant_rules():
    from variants.classic import classic_puzzle
    line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    r = StepSolver().rate(classic_puzzle(line))
    assert r.basis == "steps" and r.level == "easy"


NEW_FAMILIES = ("sets", "sums", "exclusion", "indexing", "inequality")


def _fuzz(stride: int, seed: int, per_puzzle: int) -> tuple[list[str], dict[str, int]]:
    import random
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from techniques import registry
    from techniques.analysis import Analysis
    techs = [t for t in registry.all_techniques() if t.family in NEW_FAMILIES]
    rng = random.Random(seed)
    bad: list[str] = []
    fired: dict[str, int] = {}
    seen = set()
    for line in DATA.read_text(encoding="utf-8").splitlines()[::stride]:
        rec = json.loads(line)
        if rec["title"] in seen:
            continue
        seen.add(rec["title"])
        p = load_fpuzzles(rec["fpuzzles_json"])
        sol = [int(ch) for ch in rec["solution"]]
        if not p.check_solution(sol):
            continue                 # a stated solution that breaks its own rules
        for _ in range(per_puzzle):
            st = random_state(p, sol, rng, keep=rng.choice((0.15, 0.3, 0.5)),
                               place=rng.choice((0.0, 0.3, 0.6)))
            an = Analysis(st)
            for t in techs:
                for step in t.find(an, {"node_limit": 2000}):
                    fired[t.name] = fired.get(t.name, 0) + 1
                    if any(sol[c] == d for c, d in step.eliminations) or any(
                            sol[c] != d for c, d in step.placements):
                        bad.append(f"{rec['title']}: {step.explain(2)}")
    return bad, fired


def test_new_techniques_never_lose_the_solution():
    """Fuzz on the f-puzzles set (every 8th puzzle; every puzzle in the slow sweep below):
    random candidate states holding the stated solution; no step of the new families
    removes a solution digit, and each family fires."""
    bad, fired = _fuzz(8, seed=13, per_puzzle=2)
    assert bad == []
    assert {"cell_exclusion", "house_exclusion", "rule_exclusion", "sum_arithmetic",
            "combined_sums", "indexing", "innies", "set_sums", "inequality_bounds"} <= set(fired)


@pytest.mark.slow
def test_new_techniques_never_lose_the_solution_all_puzzles():
    bad, _ = _fuzz(1, seed=14, per_puzzle=2)
    assert bad == []


@pytest.mark.long
def test_new_techniques_never_lose_the_solution_all_puzzles_6():
    """Six random states per puzzle: 750 s on the loaded 2-core machine (2026-11-29)."""
    bad, _ = _fuzz(1, seed=15, per_puzzle=6)
    assert bad == []


def test_set_equivalence_with_cages_on_solver_needs_set():
    """The digit version of SET with cages: on 'Solver needs SET', some way along the
    default path, three rows and four cages against three columns and four cages leave six
    cells on each side that hold the same digits up to the cages' digits; it eliminates what
    no technique before it in the ladder does (on this set the default path never needs it:
    cheaper steps come first)."""
    from techniques import registry
    p, sol = _puzzle("Solver needs SET")
    before = [t.name for t in registry.select("default")
              if t.order < registry.get("set_equivalence").order]
    run = StepSolver("default").start(p)
    new: set = set()
    for _ in range(250):
        st = run.state
        steps = StepSolver().find_all(st, "set_equivalence")
        assert all(sound(sol, s) for s in steps)
        if steps:
            earlier = {e for name in before for s in StepSolver().find_all(st, name)
                       for e in s.eliminations}
            new = {e for s in steps for e in s.eliminations} - earlier
            if new:
                break
        if run.peek() is None:
            break
        next(run)
    assert new, "no state where set_equivalence goes beyond the earlier techniques"
    step = next(s for s in steps if set(s.eliminations) & new)
    assert step.explain(2).startswith("Set Equivalence: rows ")
    assert "hold the same digits up to the digits of the regions" in step.explain(2)


def test_joint_supports_exact_with_early_stop():
    """The joint search of two sum rules skips subtrees that cannot add a support; its
    supports are still exactly the digits of some joint solution: checked against a plain
    enumeration on every rule pair of a double-arrow / modular-line puzzle, each cell
    narrowed to its solution digit and up to two random other candidates."""
    import random
    from techniques.analysis import Analysis
    from techniques import sums as S
    p, sol = _puzzle("Modular Nabner DA Coverage")
    an = Analysis(p.pencilmarks())
    rules = S._rules(an)
    pairs = S._pairs(an, rules)
    assert len(pairs) >= 10
    rnd = random.Random(13)
    reduced = 0
    for a, b in pairs:
        cells = sorted(set(a.cells) | set(b.cells))
        doms = narrowed_doms(an, cells, sol, rnd)
        got = S._search(an, cells, doms, [a, b], 10 ** 7)
        want = [0] * len(cells)
        for vals in joint_solutions(an, cells, doms, (a, b)):
            for i, v in enumerate(vals):
                want[i] |= 1 << v
        assert got == want, (a.name, b.name)
        assert all(w >> sol[c] & 1 for c, w in zip(cells, want))
        reduced += got != doms
    assert reduced            # some pair removes digits: the comparison is not vacuous


def test_substituted_sums_whispering_rains():
    """'Whispering Rains': column 5 sums to 45; the shafts of arrows r8c6 and r9c6 fill
    r5c5-r9c5, so r1c5+r2c5+r3c5+r4c5+r8c6+r9c6 = 45: six cells of at most 9 each leave no
    room for 1, 2 or 3 in the column's top four cells. The puzzle, which needed 21 forcing
    steps, is solved without one."""
    p, sol, st, step = first_step_of("Whispering Rains", "substituted_sums")
    assert step.explain(2) == (
        "Substituted Sums: col 5 sums to 45; with arrow r8c6 (r8c6 = r7c5+r6c5+r5c5), "
        "arrow r9c6 (r9c6 = r9c5+r8c5): r1c5+r2c5+r3c5+r4c5+r8c6+r9c6 = 45 "
        "=> r1c5<>123, r2c5<>123, r3c5<>123, r4c5<>123")
    assert sound(sol, step)
    # the plain house and arrow techniques do not see it
    for other in ("sum_arithmetic", "combined_sums", "innies", "set_sums"):
        assert not set(names(p, step.eliminations)) & {
            e for s in StepSolver().find_all(st, other) for e in names(p, s.eliminations)}
    r = StepSolver("default").solve(p)
    assert r.status == "solved" and not any(
        s.technique.startswith(("forcing", "kraken", "template")) for s in r.steps)


def test_substituted_sums_crossbow_box_circles():
    """'Rapid Fire Crossbow': box 7 with its three arrows substituted is
    2*r7c2+2*r8c2+2*r9c2-r6c1 = 45: r6c1 is odd and the circles of column 2 sum to 23 or
    24, so they hold 8 (6+8+9 or 7+8+9) and the rest of column 2 and box 7 lose it."""
    p, sol, st, step = first_step_of("Rapid Fire Crossbow", "substituted_sums", "r2c2<>8")
    text = step.explain(2)
    assert "2*r7c2+2*r8c2+2*r9c2-r6c1 = 45" in text
    assert "r7c2 r8c2 r9c2 hold 8 in col 2, box 7" in text
    assert names(p, step.eliminations) == {
        "r6c1<>2", "r6c1<>4", "r6c1<>5", "r7c2<>5", "r1c2<>8", "r2c2<>8", "r4c2<>8",
        "r5c2<>8", "r6c2<>8", "r7c1<>8"}
    assert sound(sol, step)


def test_house_sums_crossbow():
    """'Rapid Fire Crossbow': box 7 holds the circles of three arrows (r7c2, r8c2, r9c2)
    and all of their shafts but r6c1. Taken together with the box's all-different digits,
    r9c2 = 7 and a 6 on the three-cell shaft or a 3 on the two-cell shaft fit no filling.
    Three steps later column 2 (four circles and a shaft cell of a fifth arrow; its 8 and
    9 only in the arrows' cells) leaves r3c2 = 6 no filling. No arrow alone, no two
    together and no substituted 45 sees either."""
    p, sol = _puzzle("Rapid Fire Crossbow")
    run = StepSolver("default").start(p, max_steps=400)
    want = {"r9c2<>7": {"r7c3<>6", "r8c1<>3", "r8c3<>6", "r9c1<>3", "r9c2<>7", "r9c3<>6"},
            "r3c2<>6": {"r3c2<>6"}}
    texts = {"r9c2<>7": "House Sums: box 7 with arrow r8c2 (r8c2 = r9c1+r8c1), arrow r9c2 "
                        "(r9c2 = r9c3+r8c3+r7c3), arrow r7c2 (r7c2 = r7c1+r6c1) => ",
             "r3c2<>6": "; 89 of col 2 only in their cells => r3c2<>6"}
    while want:
        step = run.peek()
        assert step is not None, f"no house_sums step for {sorted(want)}"
        got = names(p, step.eliminations)
        key = next((k for k in want if k in got), None)
        if step.technique == "house_sums" and key:
            assert got == want.pop(key)
            assert texts[key] in step.explain(2)
            assert sound(sol, step)
            st = run.state
            for other in ("sum_arithmetic", "combined_sums", "substituted_sums"):
                assert not got & {e for s in StepSolver().find_all(st, other)
                                  for e in names(p, s.eliminations)}, other
        next(run)


def test_linked_sums_deflation_three_corner_arrows():
    """'Deflation': the arrows of r9c9, r9c4 and r4c9 (circles 6-8, the first seeing the
    others along row 9 and column 9); r3c8 = 3 forces r1c9 = 2, which the shaft of r9c4
    cannot then use on the anti-diagonal (r9c1), and the three circles run out of
    digits. No arrow alone and no two together see it."""
    p, sol, st, step = first_step_of("Deflation", "linked_sums", "r3c8<>3")
    assert step.explain(2) == (
        "Linked Sums: arrow r9c9 (r9c9 = r8c9+r7c9+r7c8), arrow r9c4 "
        "(r9c4 = r8c3+r8c2+r9c1), arrow r4c9 (r4c9 = r3c8+r2c8+r1c9) together => r3c8<>3")
    assert sound(sol, step)
    for other in ("sum_arithmetic", "combined_sums", "substituted_sums", "house_sums"):
        assert "r3c8<>3" not in {e for s in StepSolver().find_all(st, other)
                                 for e in names(p, s.eliminations)}, other


def test_house_sums_whole_row_exclusive_singularity():
    """'Exclusive Singularity': row 4 needs 7, 8 and 9. The cage 9 of r4c1-r4c3 holds none,
    r4c5 and r4c6 at most 7, and the arrow's cells r4c8+r4c9 = r3c9 at most one: so 9 goes
    to r4c4 or r4c7 and r4c4 is high. The whole row with the two sum rules lying in it (its
    cells outside the rules too); each rule alone does not see it. The puzzle, which needed
    19 forcing steps, is solved without one."""
    p, sol, st, step = first_step_of("Exclusive Singularity", "house_sums", "r4c4<>2")
    assert step.explain(2).startswith("House Sums: row 4 with cage 9 at r4c1")
    assert {"r4c4<>2", "r4c4<>3", "r4c4<>4", "r4c7<>2", "r4c7<>3", "r4c7<>4"} <= names(
        p, step.eliminations)
    assert sound(sol, step)
    for other in ("sum_arithmetic", "combined_sums", "substituted_sums", "house_arrangement"):
        assert "r4c4<>2" not in {
            e for s in StepSolver().find_all(st, other) for e in names(p, s.eliminations)}
    r = StepSolver("default").solve(p)
    assert r.status == "solved" and not any(
        s.technique.startswith(("forcing", "kraken", "template")) for s in r.steps)


@pytest.mark.parametrize("title", ["Box Indexing Test", "Row Indexing Test",
                                   "Column Indexing Test"])
def test_indexer_links_to_the_targets_peers(title):
    """An indexer's choice v puts its target in the v-th cell of its line, so it is weakly
    linked to the target in every cell that sees that cell ('Box Indexing Test': box
    indexer r3c9 = 1 puts the 9 of box 3 in r1c7, so r1c1 is not 9); every weak link of
    the puzzle holds against its solution (never two true candidates)."""
    p, sol = _puzzle(title)
    links = set(p.weak_links())
    cell = p.grid.cell
    if title == "Box Indexing Test":
        assert ((cell("r3c9"), 1), (cell("r1c1"), 9)) in links
        assert ((cell("r3c9"), 1), (cell("r9c7"), 9)) in links       # the column of r1c7
        assert ((cell("r3c9"), 1), (cell("r2c2"), 9)) not in links   # r2c2 does not see r1c7
    bad = [(a, b) for a, b in links if sol[a[0]] == a[1] and sol[b[0]] == b[1]]
    assert not bad


def test_region_sum_one_cell_segments_are_clones_forgiven():
    """'Forgiven' (region-sum lines): the one-cell segments r4c1 and r1c4 of one line are
    both its total, so they hold one digit; the cells of the 3-cell segment in box 1 are
    smaller. Clone logic then reads it: every 9 of box 1 sees r4c1 or r1c4, so neither is
    9 (before this, one forcing net per digit); later box 1 has only r2c2 for their digit.
    The whole solve needs no forcing-family step."""
    forcing = {"forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_verity",
               "forcing_net_contradiction", "forcing_net_nested", "kraken_fish_type_1",
               "kraken_fish_type_2", "template_set", "template_delete"}
    p, sol, st, step = first_step_of("Forgiven", "clone_pointing", "r1c4<>9")
    assert names(p, step.eliminations) == {"r1c4<>9", "r4c1<>9"}
    assert sound(sol, step)
    assert "region-sum line r4c1: r4c1=r1c4" in step.explain(2)
    res = StepSolver("default", verify=sol).solve(_puzzle("Forgiven")[0], time_limit=60)
    assert res.status == "solved"
    assert not [s.technique for s in res.steps if s.technique in forcing]
    assert any(s.technique == "equal_digit_colouring" and "r2c2 is the only cell of box 1"
               in s.explain(2) for s in res.steps)


def test_entropic_cells_three_apart_share_a_group():
    """An entropic line's cells three apart hold digits of one group (1-3, 4-6, 7-9); the
    rule states it as a relation, so the pair techniques combine it with other rules:
    'Every Third Knight', r2c4 (67) and r4c5 are three apart on a line and a knight's move
    apart: r4c5 = 6 takes 6 from r2c4 (anti-knight) and 7 (not a middle digit)."""
    # (house_pair_arrangement and band_arrangement, newer, make it first on the default
    # path: columns 5 and 6, or a band, filled together with their rules)
    p, sol, st, step = first_step_of("Every Third Knight", "pair_rules", "r4c5<>6",
                                     selection=["default", "-house_pair_arrangement",
                                                "-band_arrangement"])
    assert names(p, step.eliminations) == {"r4c5<>6"}
    assert sound(sol, step)
    assert "entropic line r2c4=r4c5 group" in step.explain(2)
    same = [c for c in p.constraints if c.name.endswith(" group")]
    assert same and all(c.check(sol[c.a], sol[c.b]) for c in same)


def test_renban_weak_links_digits_too_far_apart():
    """A renban of k cells never holds two digits k or more apart, so its cells are weakly
    linked for such pairs ('Crawfish': renban r5c6 is four cells, so r5c6 = 1 and r6c9 = 5
    never go together; with these links its solve needs 3 forcing nets instead of 9). The
    links hold against the solution of every renban puzzle of the set."""
    from csp.constraints import ConsecutiveSet
    p, sol = _puzzle("Crawfish")
    cell = p.grid.cell
    renban = next(c for c in p.constraints if c.name == "renban r5c6")
    links = set(renban.weak_links(9))
    assert ((cell("r5c6"), 1), (cell("r6c9"), 5)) in links
    assert ((cell("r5c6"), 1), (cell("r6c9"), 4)) not in links
    checked = 0
    for line in DATA.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if "renban" not in rec["fpuzzles_json"]:
            continue
        q, s = _puzzle(rec["title"])
        for c in q.constraints:
            if isinstance(c, ConsecutiveSet) and q.check_solution(s):
                for (a, x), (b, y) in c.weak_links(q.grid.n):
                    assert not (s[a] == x and s[b] == y), (rec["title"], c.name)
                    checked += 1
    assert checked > 1000


@pytest.mark.parametrize("title", ["Jul 13, 2022: Clone / Arrow", "Effluence",
                                   "Anti-XV Coverage"])
def test_colouring_free_cells_match_definition(title):
    """Equal-digit colouring's ``free`` (the cells that may hold digit d if a colour is d)
    blocks a seen cell's whole colour; it skips the look-up for cells alone in their colour
    (most of them): on random states of clone, palindrome and negative-XV puzzles, after the
    colours grow, it equals the definition (every colour with a cell seen is blocked), for
    every colour and digit."""
    import random

    from csp.bits import digits_of, iter_cells
    from techniques.analysis import analyze
    from variants.clone_logic import _Colouring, _colour_groups
    p, sol = _puzzle(title)
    rng = random.Random(7)
    multi = 0
    for _ in range(4):
        an = analyze(random_state(p, sol, rng, keep=rng.choice((0.3, 0.6)), place=0.15))
        col = _Colouring(an, _colour_groups(an) or [])
        col.grow()
        multi += bool(col.multi)
        for root in list(col.members):
            for d in digits_of(col.mask[root]):
                seen = 0
                for c in iter_cells(col.members[root]):
                    seen |= an.links.peers_d[d][c]
                blocked = 0
                for c in iter_cells(seen & col.holds(d)):
                    blocked |= col.members[col.find(c)]
                assert col.free(root, d) == col.holds(d) & ~blocked
    assert multi
