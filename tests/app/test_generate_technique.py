"""``generate --technique NAME [--practice]`` (issue 26 item 2): a classic puzzle whose logic
solve needs the technique and nothing harder, and the state just before it.

The seeds below were found by searching from seed 1 (``for_technique(name, seed=1)``); the
tests start at them, so each finds its puzzle at once, and check the claim independently:
the default solver uses the technique and nothing later in the ladder, and without it the
techniques before it get stuck exactly at the practice state."""
from __future__ import annotations

import json

import pytest

from sudoku_csp.cli import main
from sudoku_csp.generate import (NoPracticePuzzle, Progress, UnknownPractice, for_technique,
                                 for_technique_iter, practice_variant)
from techniques import StepSolver, registry
from variants.classic import classic
from variants.killer import killer_cage

#: technique -> the seed its puzzle was found at (searching from seed 1)
FOUND = {"x_wing": 509, "xy_wing": 11, "xy_chain": 24, "als_xz": 25}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_puzzle_needs_the_technique_and_nothing_harder(name):
    pr = for_technique(name, seed=FOUND[name], time_limit=120)
    assert pr.seed == FOUND[name] and pr.technique == name and pr.step.technique == name
    p = pr.puzzle
    assert p.count_solutions(2, method="sat") == 1 and p.count_solutions(2, method="search") == 1
    assert p.check_solution(pr.solution)
    default = [t.name for t in registry.select("default")]
    before = default[:default.index(name)]
    res = StepSolver(unique=True).solve(p)
    used = [st.technique for st in res.steps]
    assert res.status == "solved" and name in used
    assert set(used) <= set(before) | {name}            # nothing harder
    stuck = StepSolver(before, unique=True).solve(p)
    assert stuck.status == "stuck"                       # needs it
    assert list(stuck.state.cand) == list(pr.state.cand)
    assert len(stuck.steps) == pr.before == used.index(name)
    assert pr.rating.hardest is not None


def test_practice_cli_prints_the_puzzle_and_the_state_before(tmp_path, capsys):
    pic = tmp_path / "before.svg"
    assert main(["generate", "--technique", "xy_wing", "--seed", "11", "--practice",
                 "--picture", str(pic)]) == 0
    out = capsys.readouterr().out.splitlines()
    pr = for_technique("xy_wing", seed=11)
    assert out[0] == pr.line()
    assert out[1] == f"XY-Wing after {pr.before} steps; the state before it:"
    assert len(out[2]) == 81 and out[2].count(".") < out[0].count(".")
    assert out[3].startswith(".---") and len(out) == 3 + 13
    assert pic.read_text().startswith("<svg")


def test_practice_json(capsys):
    assert main(["generate", "--technique", "xy_wing", "--seed", "11", "--json",
                 "--count", "2"]) == 0
    objs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [o["technique"] for o in objs] == ["xy_wing", "xy_wing"]
    assert objs[0]["seed"] == 11 and objs[1]["seed"] > 11
    o = objs[0]
    assert set(o) >= {"puzzle", "solution", "level", "rating", "hardest", "seed", "practice"}
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
    assert main(["generate", "--technique", "x_wing", "--seed", "1", "--time-limit", "1"]) == 1
    err = capsys.readouterr().err
    assert "no puzzle needing x_wing" in err and err.count("\n") == 1
    with pytest.raises(NoPracticePuzzle):
        for_technique("x_wing", seed=1, time_limit=0.5)
    with pytest.raises(UnknownPractice):
        for_technique("squirmbag")


#: killer techniques -> the seed their puzzle was found at (searching from seed 1)
KILLER_FOUND = {"innies": 8, "cage_house_overlap": 5}


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


def test_killer_technique_cli_json_and_practice(capsys):
    assert main(["generate", "--technique", "innies", "--seed", "8", "--json"]) == 0
    o = json.loads(capsys.readouterr().out)
    assert o["variant"] == "killer" and o["technique"] == "innies" and o["seed"] == 8
    assert {r["rule"] for r in o["puzzle"]["rules"]} == {"classic", "killer_cage"}
    assert o["practice"]["step"].startswith("Innies")
    assert main(["generate", "--technique", "innies", "--variant", "killer", "--seed", "8",
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
    with pytest.raises(NoPracticePuzzle) as e:
        list(for_technique_iter("x_wing", 2, seed=FOUND["x_wing"], time_limit=8))
    assert [pr.seed for pr in e.value.puzzles] == [FOUND["x_wing"]]
