"""StepSolver, registry, Step and the techniques-as-propagators path."""
from __future__ import annotations

import re

import pytest

from csp import Contradiction, Grid, Puzzle
from csp.step import Candidate, Step
import techniques
from techniques import StepSolver, UnsoundStep, apply_step, registry
from techniques.registry import UnknownTechnique
from techniques.solver import rate_steps
from variants.classic import classic_puzzle

from conftest import DATA

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def easy_lines(k: int = 20) -> list[str]:
    return [l.strip() for l in open(DATA / "easy50.txt") if l.strip()][:k]


def test_singles_solve_easy_puzzles_to_the_search_solution():
    solver = StepSolver("singles")
    for line in easy_lines(10):
        p = classic_puzzle(line)
        r = solver.solve(p)
        if r.status == "solved":
            assert r.state.values() == p.solve().solution
            assert all(s.technique in ("full_house", "naked_single", "hidden_single")
                       for s in r.steps)
            assert r.rating.level == "easy"


def test_first_easy_puzzle_is_solved_by_singles():
    r = StepSolver("singles").solve(classic_puzzle(EASY))
    assert r.status == "solved"
    assert len(r.steps) == 81 - 32
    assert r.rating.score == sum(registry.get(s.technique).score for s in r.steps)


def test_stuck_when_no_technique_applies():
    # a hard puzzle: singles alone cannot finish it
    p = classic_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    r = StepSolver("singles").solve(p)
    assert r.status == "stuck"
    assert not r.state.is_solved()
    # every placement made is right
    sol = p.solve().solution
    assert all(sol[c] == v for c, v in enumerate(r.state.placed) if v)


def test_steps_do_not_mutate_input_state():
    p = classic_puzzle(EASY)
    st = p.pencilmarks()
    before = (list(st.cand), list(st.placed))
    steps = list(StepSolver("singles").steps(st))
    assert steps and (st.cand, st.placed) == before


def test_find_all_lists_every_hidden_single():
    p = classic_puzzle(EASY)
    st = p.pencilmarks()
    found = StepSolver().find_all(st, "hidden_single")
    assert found
    sol = p.solve().solution
    for s in found:
        (c, d), = s.placements
        assert sol[c] == d


def test_select_by_family_name_and_exclusion():
    names = [t.name for t in registry.select(["singles", "-naked_single"])]
    assert names == ["full_house", "hidden_single"]
    with pytest.raises(UnknownTechnique):
        registry.select("no_such_technique")


@pytest.mark.parametrize("spec", ["default,-bogus", "-bogus", "all,-", ["default", "-nope"]])
def test_select_refuses_an_unknown_removal(spec):
    with pytest.raises(UnknownTechnique, match="unknown technique or family|empty"):
        registry.select(spec)


def test_select_removes_keywords_and_families():
    everything = {t.name for t in registry.all_techniques()}
    default = {t.name for t in registry.select("default")}
    assert registry.select("all,-all") == [] and registry.select("-all,all") == []
    assert {t.name for t in registry.select("all,-default")} == everything - default
    assert 0 < len(default) < len(everything)
    singles = {t.name for t in registry.all_techniques() if t.family == "singles"}
    assert {t.name for t in registry.select("default,-singles")} == default - singles


@pytest.mark.parametrize("typo, suggestion", [("hiden_single", "hidden_single"),
                                              ("-singels", "singles"), ("defualt", "default")])
def test_select_suggests_the_closest_names(typo, suggestion):
    with pytest.raises(UnknownTechnique, match=f"did you mean '{suggestion}'"):
        registry.select(f"full_house,{typo}")


def test_verify_raises_on_unsound_step():
    p = classic_puzzle(EASY)
    sol = p.solve().solution
    wrong = list(sol)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    with pytest.raises(UnsoundStep):
        StepSolver("singles", verify=wrong).solve(p)


def test_apply_step_removes_linked_candidates_and_detects_wipeout():
    p = Puzzle(Grid(4)).add_grid_houses()
    st = p.pencilmarks()
    apply_step(st, Step("naked_single", placements=(Candidate(0, 1),)))
    assert st.placed[0] == 1
    assert all(not st.cand[c] >> 1 & 1 for c in (1, 2, 3, 4, 8, 12, 5))
    st.cand[1] = 1 << 2
    with pytest.raises(Contradiction):
        apply_step(st, Step("x", eliminations=(Candidate(1, 2),)))


def test_step_explain_levels_and_dict():
    s = Step("hidden_single", placements=(Candidate(43, 4),), digits=(4,),
             houses=("row 5",), title="Hidden Single")
    assert s.explain(0) == "Hidden Single"
    assert s.explain(1) == "Hidden Single digit 4 in row 5"
    assert s.explain(2) == "Hidden Single: row 5 => r5c8=4"
    d = s.to_dict()
    assert d["placements"] == ["r5c8=4"] and d["eliminations"] == [] and d["text"] == s.explain(2)


def test_rating_level_rises_with_score():
    steps = [Step("hidden_single")] * 100   # 14 * 100 = 1400 > easy max 800
    r = rate_steps(steps)
    assert r.score == 1400 and r.level == "hard"


def test_propagate_with_techniques_matches_step_solver():
    p = classic_puzzle(EASY)
    st = techniques.propagate(p, ["singles"])
    assert st.is_solved()
    assert st.values() == StepSolver("singles").solve(p).state.values()


def test_constraint_step_explains_variant_rule():
    p = Puzzle(Grid(4)).add_grid_houses()
    p.add(p["r1c1"] < p["r1c2"])
    st = p.pencilmarks()
    assert StepSolver().next_step(st) is None      # several solutions: checked first
    step = StepSolver(unique=False).next_step(st)  # declared: the logic as far as it goes
    assert step.technique == "constraint"
    assert set(step.eliminations) == {Candidate(0, 4), Candidate(1, 1)}
    assert "<" in step.explain(2)


def test_techniques_share_one_analysis_in_any_order():
    """Techniques cache on the shared Analysis (``an.memo``): a key used by two families with
    different meanings would make results depend on the order they run in."""
    from techniques import registry
    from techniques.analysis import Analysis
    from techniques.solver import StepSolver
    from variants.classic import classic_puzzle
    # every family that caches on the Analysis; the big finned Franken/Mutant fish and the
    # size-5+ fish add tens of thousands of steps (over a minute) without a memo key of their own
    costly = re.compile(r"kraken|finned_(franken|mutant)|squirmbag|whale|leviathan")
    fast = [t for t in registry.load().values()
            if t.family not in ("forcing", "templates") and not costly.search(t.name)]
    assert {t.family for t in fast} >= {"fish", "wings", "chains", "als", "single_digit"}
    line = [l.strip() for l in open(DATA / "top95.txt") if l.strip()][3]
    st = classic_puzzle(line).pencilmarks()
    walker = StepSolver("singles")
    for s in walker.steps(st):
        pass
    for order in (fast, fast[::-1]):
        an = Analysis(st)
        got = {t.name: [s.explain(2) for s in t.find(an)] for t in order}
        if order is fast:
            first = got
    assert got == first


def test_logic_solve_reports_time_limit():
    from variants.classic import classic_puzzle
    line = [l.strip() for l in open(DATA / "top95.txt") if l.strip()][0]
    r = StepSolver("default").solve(classic_puzzle(line), time_limit=1e-6)
    full = StepSolver("default").solve(classic_puzzle(line))
    assert r.status == "limit" and full.status == "solved" and len(r.steps) < len(full.steps)


def test_costly_techniques_stop_at_the_deadline():
    """On an empty boxless 9x9 killer (f-puzzles 'Solver needs SET') without set equivalence
    (its break-in) the fish and nested-net searches are huge; the solver's time limit
    reaches into them."""
    import json
    import time
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    row = next(json.loads(x) for x in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")
               if '"Solver needs SET"' in x)
    t0 = time.process_time()
    r = StepSolver("default,-sets").solve(load_fpuzzles(row["fpuzzles_json"]), time_limit=2)
    assert r.status == "limit" and time.process_time() - t0 < 10


def test_a_search_that_gives_up_on_its_budget_is_a_limit_not_stuck():
    """The nested forcing net has its own propagation budget; when it runs out with no
    step the solve did not prove that nothing applies, so it reports 'limit'."""
    import json
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    row = next(json.loads(x) for x in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")
               if '"Solver needs SET"' in x)
    p = load_fpuzzles(row["fpuzzles_json"])
    r = StepSolver(["singles", "forcing_net_nested"], options={"budget": 50}).solve(p)
    assert r.status == "limit" and not r.steps
    # with the budget untouched but nothing that can search, it is stuck
    assert StepSolver("singles").solve(p).status == "stuck"


def test_solver_made_before_the_variants_plans_with_their_techniques():
    """A rule family's techniques register when ``variants`` is imported: a solver made
    before that (a fresh process, ``techniques`` imported alone) must still plan with them,
    taking the same steps on a killer puzzle as a solver made afterwards."""
    import subprocess
    import sys
    code = (
        "from techniques import StepSolver\n"
        "early = StepSolver('default', unique=False)\n"
        "before = len(early.techniques)\n"
        "from csp import Puzzle\n"
        "from variants.classic import classic\n"
        "from variants.killer import killer_cage\n"
        "p = Puzzle(9).use(classic(), killer_cage(['r1c1', 'r1c2'], 3),\n"
        "                  killer_cage(['r5c5', 'r5c6', 'r6c5'], 23))\n"
        "late = StepSolver('default', unique=False)\n"
        "a, b = early.solve(p, max_steps=5), late.solve(p, max_steps=5)\n"
        "print(before < len(early.techniques) == len(late.techniques),\n"
        "      [s.technique for s in a.steps] == [s.technique for s in b.steps],\n"
        "      a.steps[0].technique if a.steps else None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "True", "killer_combinations"]
