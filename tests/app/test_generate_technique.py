"""``generate --technique NAME [--practice]`` (issue 26 item 2): a classic puzzle whose logic
solve needs the technique and nothing harder, and the state just before it.

The seeds below were found by searching from seed 1 (``for_technique(name, seed=1)``); the
tests start at them, so each finds its puzzle at once, and check the claim independently:
the default solver uses the technique and nothing later in the ladder, and without it the
techniques before it get stuck exactly at the practice state. The searches from seed 1
themselves (how fast the steering finds them) are in the ``slow`` run."""
from __future__ import annotations

import json
import time

import pytest

from sudoku_csp.cli import main
from sudoku_csp.generate import (NoPracticePuzzle, Progress, UnknownPractice, for_technique,
                                 for_technique_iter, practice_variant)
from techniques import StepSolver
from variants.classic import classic
from variants.killer import killer_cage
from variants.lines import renban

#: technique -> the seed its puzzle was found at (searching from seed 1)
FOUND = {"x_wing": 118, "xy_wing": 6, "xy_chain": 5, "als_xz": 25,
         "hidden_triple": 287, "swordfish": 25,
         # steered by the pattern search (technique.PATTERN_STEER) with their own _near
         "naked_quadruple": 189, "uniqueness_test_4": 286, "avoidable_rectangle_1": 335,
         "multi_colors_1": 118,
         # steered by the edges of random orders of added givens (technique.EDGE_STEER)
         "simple_colors_trap": 112, "grouped_continuous_nice_loop": 940,
         # built around the pattern: a box without givens (technique.SHAPE_STEER)
         "hidden_quadruple": 81}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_puzzle_needs_the_technique_and_nothing_harder(name):
    pr = for_technique(name, seed=FOUND[name], time_limit=120)
    assert pr.seed == FOUND[name] and pr.method == "generated"
    assert_needs(pr, name)


def assert_needs(pr, name):
    """The claim of a classic practice puzzle, checked independently of the judge, in the
    puzzle's ladder (the order the solver takes; the classic ladder leaves out the set
    techniques, e.g. set_sums, which the registry's default order has before the fish)."""
    assert pr.technique == name and pr.step.technique == name
    p = pr.puzzle
    assert p.count_solutions(2, method="sat") == 1 and p.count_solutions(2, method="search") == 1
    assert p.check_solution(pr.solution)
    run = StepSolver(unique=True).start(p)
    plan = [t.name for t, _, _ in run.plan()]
    before = plan[:plan.index(name)]
    res = StepSolver(unique=True).finish(run)
    used = [st.technique for st in res.steps]
    assert res.status == "solved" and name in used
    assert set(used) <= set(before) | {name}            # nothing harder
    stuck = StepSolver(before, unique=True).solve(p)
    assert stuck.status == "stuck"                       # needs it
    assert list(stuck.state.cand) == list(pr.state.cand)
    assert len(stuck.steps) == pr.before == used.index(name)
    assert pr.rating.hardest is not None
    with_it = StepSolver(before + [name], unique=True).solve(stuck.state)
    assert with_it.status == "solved"                    # and solved with it


def test_practice_cli_prints_the_puzzle_and_the_state_before(tmp_path, capsys):
    pic = tmp_path / "before.svg"
    assert main(["generate", "--technique", "xy_wing", "--seed", "6", "--practice",
                 "--picture", str(pic)]) == 0
    out = capsys.readouterr().out.splitlines()
    pr = for_technique("xy_wing", seed=6)
    assert out[0] == pr.line()
    assert out[1] == f"XY-Wing after {pr.before} steps; the state before it:"
    assert len(out[2]) == 81 and out[2].count(".") < out[0].count(".")
    assert out[3].startswith(".---") and len(out) == 3 + 13
    assert pic.read_text().startswith("<svg")


def test_practice_json(capsys):
    assert main(["generate", "--technique", "xy_wing", "--seed", "6", "--json",
                 "--count", "2"]) == 0
    objs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [o["technique"] for o in objs] == ["xy_wing", "xy_wing"]
    assert objs[0]["seed"] == 6 and objs[1]["seed"] > 6
    o = objs[0]
    assert set(o) >= {"puzzle", "solution", "level", "rating", "hardest", "seed", "practice"}
    assert o["method"] == "generated" and "bank" not in o
    assert o["practice"]["step"].startswith("XY-Wing") and len(o["practice"]["candidates"]) == 81


@pytest.mark.parametrize("argv, words", [
    (["--technique", "x_wingg"], "x_wing"),                       # did you mean
    (["--technique", "squirmbag"], "not on the default path"),
    (["--technique", "innies", "--variant", "classic"], "a classic puzzle never needs it"),
    (["--technique", "renban_mandatory"], "name the rule family with variant"),
    (["--technique", "cage_rules"], "name the rule family with variant"),
    (["--technique", "x_wing", "--variant", "sudoku"], "unknown variant 'sudoku'"),
    (["--practice"], "need --technique"),
    (["--technique", "x_wing", "--picture", "a.svg"], "add --practice"),
])
def test_bad_arguments_exit_2_one_line(argv, words, capsys):
    assert main(["generate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_time_limit_exit_1(capsys):
    # seeds 1-32 give no naked triple (found at 33 from seed 1, about 1.1 s of CPU on a
    # quiet machine of 2026-12: a limit of 1 s was reached only on slower or loaded
    # machines); within 0.2 s about 6 seeds are tried, far from 33 on any machine
    assert main(["generate", "--technique", "naked_triple", "--seed", "1",
                 "--time-limit", "0.2"]) == 1
    err = capsys.readouterr().err
    assert "no puzzle needing naked_triple" in err and err.count("\n") == 1
    with pytest.raises(NoPracticePuzzle):
        for_technique("naked_triple", seed=1, time_limit=0.2)
    with pytest.raises(UnknownPractice):
        for_technique("squirmbag")


#: killer techniques -> the seed their puzzle was found at (searching from seed 1)
KILLER_FOUND = {"innies": 1, "cage_house_overlap": 1, "innies_outies": 1, "outies": 7}


@pytest.mark.parametrize("name", sorted(KILLER_FOUND))
def test_killer_technique_puzzle_needs_it_and_nothing_later(name):
    """A variant technique (issue 26 acceptance): a killer whose default logic path needs
    the technique, stuck without it at the practice state, solved with it."""
    assert practice_variant(name) == "killer"
    pr = for_technique(name, seed=KILLER_FOUND[name], time_limit=120)
    assert pr.variant == "killer" and pr.seed == KILLER_FOUND[name] and pr.technique == name
    p = pr.puzzle
    kinds = {type(b) for b, _ in p.bundles}
    assert kinds == {classic, killer_cage}                       # its rules: a killer
    assert p.count_solutions(2, method="sat") == 1 and p.count_solutions(2, method="search") == 1
    assert p.check_solution(pr.solution)
    run = StepSolver(unique=True).start(p)
    plan = [t.name for t, _, _ in run.plan()]                    # the variant ladder
    res = StepSolver(unique=True).finish(run)
    used = [st.technique for st in res.steps]
    assert res.status == "solved" and name in used
    before = plan[:plan.index(name)]
    assert set(used) <= set(before) | {name}                     # nothing later
    stuck = StepSolver(before, unique=True).solve(p)
    assert stuck.status == "stuck"                               # gets stuck without it
    assert list(stuck.state.cand) == list(pr.state.cand)
    assert len(stuck.steps) == pr.before == used.index(name)
    with_it = StepSolver(before + [name], unique=True).solve(stuck.state)
    assert with_it.status == "solved"                            # and solves with it


def test_renban_technique_puzzle_needs_it():
    """A rule-family technique with ``variant``: a renban puzzle (steered: seed 1; before
    the steering none was found in 150 s) stuck without renban_mandatory, solved with it."""
    pr = for_technique("renban_mandatory", seed=1, variant="renban", time_limit=120)
    p = pr.puzzle
    assert pr.variant == "renban" and pr.seed == 1
    assert {type(b) for b, _ in p.bundles} == {classic, renban}
    assert p.count_solutions(2, method="sat") == 1 and p.count_solutions(2, method="search") == 1
    run = StepSolver(unique=True).start(p)
    plan = [t.name for t, _, _ in run.plan()]
    res = StepSolver(unique=True).finish(run)
    used = [st.technique for st in res.steps]
    before = plan[:plan.index("renban_mandatory")]
    assert res.status == "solved" and set(used) <= set(before) | {"renban_mandatory"}
    stuck = StepSolver(before, unique=True).solve(p)
    assert stuck.status == "stuck" and list(stuck.state.cand) == list(pr.state.cand)
    assert StepSolver(before + ["renban_mandatory"], unique=True).solve(
        stuck.state).status == "solved"


def test_killer_technique_cli_json_and_practice(capsys):
    assert main(["generate", "--technique", "innies", "--seed", "1", "--json"]) == 0
    o = json.loads(capsys.readouterr().out)
    assert o["variant"] == "killer" and o["technique"] == "innies" and o["seed"] == 1
    assert {r["rule"] for r in o["puzzle"]["rules"]} == {"classic", "killer_cage"}
    assert o["practice"]["step"].startswith("Innies")
    assert main(["generate", "--technique", "innies", "--variant", "killer", "--seed", "1",
                 "--practice"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[0])["rules"][1]["rule"] == "killer_cage"
    assert out[1].startswith("Innies after ") and len(out[2]) == 81


def test_iterator_progress_and_time_limit():
    seen: list[Progress] = []
    got = list(for_technique_iter("xy_wing", 2, seed=FOUND["xy_wing"], progress=seen.append))
    assert [pr.seed for pr in got] == [FOUND["xy_wing"], seen[-1].seed]
    assert [p.puzzle for p in seen if p.outcome == "kept"] == [1, 2]
    assert all(p.count == 2 and p.seconds <= p.total for p in seen)
    assert {p.outcome for p in seen} <= {"kept", "not used", "needs harder", "not needed",
                                         "stuck elsewhere", "logic stuck", "no puzzle",
                                         "search limit"}
    # each puzzle has its own time limit, and one past it ends the call with the puzzles
    # made so far: after the first candidate of the second puzzle the progress callback
    # waits past that puzzle's limit (a wait, not work: the same on any machine; an idle
    # one finds the second hidden pair within seconds)
    limit = 8.0

    def wait_in_second(pr: Progress) -> None:
        if pr.puzzle == 2 and pr.candidate == 1:
            time.sleep(max(0.0, limit + 0.2 - pr.total))

    with pytest.raises(NoPracticePuzzle) as e:     # a hidden pair: about 1 seed in 120
        list(for_technique_iter("hidden_pair", 2, seed=120, time_limit=limit,
                                progress=wait_in_second))
    assert [pr.seed for pr in e.value.puzzles] == [120]


def _cpu_from_seed_1(name: str) -> tuple[float, "object"]:
    t = time.process_time()
    pr = for_technique(name, seed=1, time_limit=None)
    return time.process_time() - t, pr


@pytest.mark.slow
@pytest.mark.parametrize("name, limit", [("x_wing", 90.0), ("outies", 90.0),
                                         ("hidden_quadruple", 60.0),
                                         ("avoidable_rectangle_2", 60.0)])
def test_steering_finds_it_from_seed_1_in_cpu_limit(name, limit):
    """The steering from seed 1 within a CPU limit (measured 2026-11-29 under load: X-Wing
    at seed 118 in 43 s, outies at seed 7 in 29 s; before the steering an X-Wing took 509
    candidates, 51 s, and outies were not found in 90 s)."""
    cpu, pr = _cpu_from_seed_1(name)
    assert pr.step.technique == name and cpu < limit


def test_candidate_budget_is_cpu_time(monkeypatch):
    """A candidate's logic solve is bounded by CPU time (CANDIDATE_SECONDS of
    time.process_time), not the wall clock: time without CPU (a loaded machine) does not
    spend it; the call's wall-clock deadline stays a hard bound."""
    from sudoku_csp.generate import technique
    monkeypatch.setattr(technique, "CANDIDATE_SECONDS", 0.2)
    b = technique._budget(None)
    assert b.deadline is None and b.cpu_limit == 0.2
    time.sleep(0.3)                     # wall time passes, no CPU
    assert not b.exhausted
    c0 = time.process_time()
    while time.process_time() - c0 < 0.25:
        pass
    assert b.exhausted
    assert technique._budget(time.perf_counter() - 1).exhausted     # past the deadline


# the seed bank (issue 26 item 2): rare techniques from random isomorphs of bank puzzles

def _bank_first():
    from sudoku_csp.generate import bank
    from sudoku_csp.generate.technique import BANK_FIRST
    return sorted(t for t in BANK_FIRST if bank.entries(t))


@pytest.mark.parametrize("name", _bank_first())
def test_rare_technique_from_the_bank(name):
    """A technique of BANK_FIRST comes from the seed bank: a random isomorph of a bank
    puzzle, mutated, that needs it and nothing harder (checked here, not by the judge),
    unique by search and SAT, the same from the same seed, and not a copy of the bank's."""
    from sudoku_csp.generate import bank
    pr = for_technique(name, seed=1, time_limit=120)
    assert pr.method == "bank isomorph" and pr.seed == 1 and pr.source
    assert_needs(pr, name)
    assert for_technique(name, seed=1, time_limit=120).line() == pr.line()
    assert pr.line() not in {line for line, _ in bank.entries(name)}
    d = pr.to_dict()
    assert d["method"] == "bank isomorph" and d["bank"]["source"] == pr.source


def test_hidden_quadruple_shaped_candidate_and_bank():
    """The hidden quadruple is needed only in a house of 9 open cells (in one of 5 to 8 the
    complement is a naked single, pair, triple or quadruple, which come first): its shaped
    candidate keeps a box without givens, the quadruple's house at the practice state, and it
    is generated, not taken from the bank. ``method="bank"`` gives a mutated isomorph of
    the bank rows found that way, which needs it as well."""
    from sudoku_csp.generate.technique import BANK_FIRST, SHAPE_STEER
    assert "hidden_quadruple" in SHAPE_STEER and "hidden_quadruple" not in BANK_FIRST
    pr = for_technique("hidden_quadruple", seed=FOUND["hidden_quadruple"], time_limit=120)
    assert pr.method == "generated"
    house = pr.step.houses[0]
    cells = next(h for h in pr.puzzle.grid.houses if h.name == house).cells
    assert not any(pr.puzzle.given.get(c) for c in cells)
    assert not any(pr.state.placed[c] for c in cells)          # 9 open cells there
    bk = for_technique("hidden_quadruple", seed=3, method="bank", time_limit=120)
    assert bk.method == "bank isomorph" and bk.source
    assert_needs(bk, "hidden_quadruple")


def test_avoidable_rectangle_2_from_the_bank_and_climbed(monkeypatch):
    """The avoidable rectangle 2 comes from the seed bank by default (its one row was found
    by hill climbing over givens); the practice state has the pattern the climb scores:
    two adjacent corners placed by logic (not given), the open two {b, c} and {a, c}, a cell
    to clear. ``method="generated"`` climbs (``_climbed``), the same from the same seed."""
    from sudoku_csp.generate import technique
    name = "avoidable_rectangle_2"
    assert name in technique.SHAPE_STEER & technique.CLIMB_STEER
    assert name in technique.BANK_FIRST
    pr = for_technique(name, seed=1001, time_limit=120)
    assert pr.method == "bank isomorph" and pr.seed == 1001
    assert_needs(pr, name)
    sc, rect = technique._ar2_score(pr.state, pr.solution)
    assert sc >= technique.AR2_APPLIES
    assert set(rect) == {c.cell for c in pr.step.pattern}
    p, q, r, s = rect
    assert all(pr.state.placed[c] and c not in pr.puzzle.given for c in (p, q))
    assert not pr.state.placed[r] and not pr.state.placed[s]
    monkeypatch.setattr(technique, "CLIMB_MOVES", 40)
    got = technique._climbed(name, 1, None)
    assert got == technique._climbed(name, 1, None) and isinstance(got, str)
    seen = []
    monkeypatch.setattr(technique, "_climbed", lambda n, s_, d: seen.append(s_) or "not used")
    assert technique._candidate(name, "classic", None, 7, 9, None) == "not used"
    assert seen == [7]


def test_isomorph_is_a_symmetry_of_the_grid():
    """Digits relabelled, rows and columns permuted within bands and stacks, bands and
    stacks permuted, sometimes transposed: a solution stays a solution, a puzzle keeps its
    one solution (the isomorph of the original's), and a seed gives the same isomorph."""
    import random
    from sudoku_csp.generate.bank import isomorph
    from variants.classic import classic_puzzle
    line = "..39..2...7..5...........61.....9.32.423..79...6..............769..3..4..2749...."
    p = classic_puzzle(line)
    sol = p.solve().solutions[0]
    transposed = set()
    for s in range(12):
        iso = isomorph(random.Random(s))
        assert sorted(iso.cells) == list(range(81)) and sorted(iso.digits) == list(range(10))
        assert isomorph(random.Random(s)) == iso
        q = classic_puzzle(iso.apply(line))
        assert q.solve().solutions == [iso.values(list(sol))]
        assert q.check_solution(iso.values(list(sol)))
        transposed.add(iso.cells[1] % 9 == 0)       # r1c2 comes from column 1: transposed
    assert transposed == {True, False}


def test_bank_rows_are_judged_as_they_are():
    """Every bank puzzle is unique and the judge of for_technique accepts it for its
    technique as it is, and every row names its source."""
    from sudoku_csp.generate import bank
    from sudoku_csp.generate.technique import _check
    from variants.classic import classic_puzzle
    assert bank.techniques()
    for name in bank.techniques():
        for line, source in bank.entries(name):
            p = classic_puzzle(line)
            p.unique = True
            assert p.count_solutions(2) == 1 and source
            got = _check(p, name, None)
            assert not isinstance(got, str), (name, line, got)


def test_method_argument_and_cli():
    from sudoku_csp.generate import GenerateError
    with pytest.raises(GenerateError, match="has no puzzle for xy_wing"):
        for_technique("xy_wing", seed=1, method="bank")
    with pytest.raises(GenerateError, match="unknown method"):
        for_technique("xy_wing", seed=1, method="dig")
    assert for_technique("xy_wing", seed=6, method="generated").method == "generated"


@pytest.mark.parametrize("argv, words", [
    (["--technique", "xy_wing", "--method", "bank"], "has no puzzle for xy_wing"),
    (["--method", "bank"], "--method need --technique"),
    (["--technique", "x_wing", "--method", "bank", "--size", "4"], "classic 9x9 puzzles only"),
])
def test_method_bad_arguments_exit_2(argv, words, capsys):
    assert main(["generate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
