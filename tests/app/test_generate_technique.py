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
from sudoku_csp.generate import NoPracticePuzzle, UnknownPractice, for_technique
from techniques import StepSolver, registry

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
    (["--technique", "innies"], "classic puzzles only"),
    (["--technique", "renban_mandatory"], "classic puzzles only"),
    (["--practice"], "need --technique"),
    (["--technique", "x_wing", "--variant", "killer"], "classic puzzles"),
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
