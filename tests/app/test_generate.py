"""Puzzle generation (variants/generate.py, `sudoku-csp generate`): every generated puzzle is
re-checked independently -- rebuilt from its printed form (line string or sudoku-csp JSON),
solution count by search, rating by a fresh ``StepSolver`` -- and must be unique and rated
in the asked band."""
from __future__ import annotations

import json
import random
import time

import pytest

from csp import Grid, Puzzle
from techniques import StepSolver
from variants.classic import classic, classic_puzzle
from sudoku_csp.cli import main
from sudoku_csp.generate import (GenerateError, GenerationTimeout, generate, generate_iter,
                               random_cages, random_fill, random_regions, rate_within)
from sudoku_csp.formats.spec import from_spec


def _connected(cells: set[int], n: int) -> bool:
    g = Grid(n, box=False)
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        for x in g.orthogonal(c):
            if x in cells and x not in seen:
                seen.add(x)
                todo.append(x)
    return seen == cells


def _check_independently(p: Puzzle, level: str, solution: list[int]) -> None:
    """Unique by search, the search solution is the recorded one, and a fresh default
    StepSolver (uniqueness decided by its own search) solves it at ``level``."""
    p.unique = None
    res = p.solve()
    assert res.status == "solved"
    assert res.solution == solution
    assert p.count_solutions(2) == 1
    logic = StepSolver("default").solve(p)
    assert logic.status == "solved"
    assert logic.rating.level == level
    assert [logic.state.placed[c] for c in range(p.grid.size)] == solution


@pytest.mark.parametrize("level,count", [("easy", 2), ("medium", 1), ("hard", 1)])
def test_classic_unique_and_in_band(level, count):
    out = generate("classic", level, count=count, seed=100)
    assert len(out) == count
    lines = set()
    for g in out:
        assert g.level == g.rating.level == level
        q = classic_puzzle(g.line())             # rebuilt from the printed line
        assert q.given == g.puzzle.given and 17 <= g.givens < 81
        _check_independently(q, level, g.solution)
        lines.add(g.line())
    assert len(lines) == count


def test_classic_is_minimal():
    g = generate("classic", "easy", seed=4)[0]
    for c in g.puzzle.given:                     # no given can go
        q = Puzzle(9).use(classic()).givens({x: d for x, d in g.puzzle.given.items() if x != c})
        assert q.count_solutions(2) == 2


def test_jigsaw_unique_and_in_band():
    g = generate("jigsaw", "medium", seed=21)[0]
    spec = g.to_spec()
    assert spec["box"] is None and len(spec["regions"]) == 81
    q = from_spec(json.loads(json.dumps(spec)))
    assert q.grid.region_kind == "region"
    for reg in q.grid.regions:
        assert len(reg) == 9 and _connected(set(reg), 9)
    assert q.grid.regions != Grid(9).regions
    _check_independently(q, "medium", g.solution)


def test_killer_unique_and_in_band():
    g = generate("killer", "easy", seed=8)[0]
    q = from_spec(json.loads(json.dumps(g.to_spec())))
    cages = [r for r in g.to_spec()["rules"] if r["rule"] == "killer_cage"]
    covered = sorted(q.grid.cell(c) for r in cages for c in r["cells"])
    assert covered == list(range(81))            # the cages tile the grid
    for r in cages:
        ids = [q.grid.cell(c) for c in r["cells"]]
        assert 2 <= len(ids) <= 3 and _connected(set(ids), 9)
        assert r["total"] == sum(g.solution[c] for c in ids)
    assert g.givens <= 10
    _check_independently(q, "easy", g.solution)


def test_seed_reproduces_puzzle():
    a = generate("classic", "medium", count=2, seed=30)
    b = generate("classic", "medium", seed=a[1].seed)
    assert b[0].line() == a[1].line() and b[0].seed == a[1].seed
    assert a[0].seed < a[1].seed


def test_symmetric_givens():
    g = generate("classic", "easy", seed=2, symmetric=True)[0]
    given = g.puzzle.given
    assert all((80 - c) in given for c in given)
    assert g.puzzle.count_solutions(2) == 1


def test_small_grid():
    g = generate("classic", "easy", size=4, seed=1)[0]
    assert g.puzzle.grid.n == 4 and len(g.line()) == 16
    assert classic_puzzle(g.line()).count_solutions(2) == 1


def test_rate_within_matches_full_rating():
    g = generate("classic", "hard", seed=50)[0]
    full = StepSolver("default").rate(g.puzzle)
    assert full.level == "hard"
    status, r = rate_within(g.puzzle, "hard")
    assert status == "solved" and r.score == full.score and r.counts == full.counts
    assert rate_within(g.puzzle, "medium") == ("above", None)
    assert rate_within(g.puzzle, "easy") == ("above", None)
    assert rate_within(g.puzzle, None)[1].score == full.score


def test_random_regions_and_cages():
    rng = random.Random(9)
    for n in (6, 9):
        regs = random_regions(n, rng)
        for i in range(n):
            cells = {c for c in range(n * n) if regs[c] == i}
            assert len(cells) == n and _connected(cells, n)
    sol = random_fill(Puzzle(9).use(classic()), rng)
    assert Puzzle(9).use(classic()).check_solution(sol)
    cages = random_cages(sol, 9, rng, 2, 4)
    assert sorted(c for cage in cages for c in cage) == list(range(81))
    for cage in cages:
        assert 2 <= len(cage) <= 5 and _connected(set(cage), 9)
        assert len({sol[c] for c in cage}) == len(cage)


@pytest.mark.parametrize("size,level,symmetric", [(16, "medium", True), (16, "hard", False),
                                                (12, "easy", True)])
def test_big_grid_at_level(size, level, symmetric):
    """Issue 14: 12x12 and 16x16 at a level, rebuilt from the printed line and checked
    independently (unique by search, solved by a fresh logic solver at the level)."""
    g = generate("classic", level, size=size, seed=1, symmetric=symmetric, time_limit=600)[0]
    assert g.puzzle.grid.n == size and g.level == level
    p = classic_puzzle(g.line())
    _check_independently(p, level, g.solution)
    given = set(p.given)
    last = size * size - 1
    assert all((last - c) in given for c in given) == symmetric


@pytest.mark.parametrize("kw,msg", [
    ({"variant": "sudoku"}, "unknown variant"),
    ({"level": "diabolical"}, "unknown level"),
    ({"count": 0}, "count must be"),
    ({"size": 7}, "box shape"),
    ({"size": 30}, "size must be"),
    ({"size": 25, "variant": "jigsaw"}, "classic only"),
    ({"seed": -1}, "seed must be"),
    ({"time_limit": 0}, "time limit"),
])
def test_bad_arguments(kw, msg):
    with pytest.raises(GenerateError, match=msg):
        generate(**kw)


def test_timeout_is_reported():
    with pytest.raises(GenerationTimeout) as e:
        generate("classic", "extreme", count=2, seed=1, time_limit=0.05)
    assert "time limit" in str(e.value) and e.value.puzzles == []
    with pytest.raises(GenerationTimeout) as e2:
        list(generate_iter("jigsaw", "extreme", count=1, seed=3, time_limit=0.01))
    assert e2.value.tried >= 1


def test_timeout_keeps_partial_results(monkeypatch):
    import sudoku_csp.generate as G
    real = G.rate_within
    calls = {"solved": 0}

    def rate_once(p, level=None, deadline=None):   # after one success nothing is in band
        if calls["solved"]:
            return "above", None
        out = real(p, level, deadline)
        calls["solved"] += out[0] == "solved" and out[1].level == level
        return out

    monkeypatch.setattr(G, "rate_within", rate_once)
    with pytest.raises(GenerationTimeout) as e:
        generate("classic", "easy", count=3, seed=1, time_limit=3.0)   # room on a busy machine
    assert len(e.value.puzzles) == 1 and e.value.puzzles[0].level == "easy"
    assert "made 1 of 3" in str(e.value)


def test_cli_generate_json(capsys):
    rc = main(["generate", "--count", "2", "--difficulty", "medium", "--seed", "3", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 2
    for r in rows:
        assert r["level"] == r["rating"]["level"] == "medium" and r["variant"] == "classic"
        assert r["givens"] == sum(ch != "." for ch in r["puzzle"])
        q = classic_puzzle(r["puzzle"])
        assert q.solve().solution == [int(ch) for ch in r["solution"]]
    rc = main(["generate", "--seed", str(rows[1]["seed"]), "--difficulty", "medium"])
    out, _ = capsys.readouterr()
    assert rc == 0 and out.strip() == rows[1]["puzzle"]


@pytest.mark.parametrize("level,seed", [("unfair", 4), ("hard", 8)])
def test_killer_unfair_by_its_hardest_idea(level, seed):
    """Hard and unfair killers are steered by the hardest technique they need (a killer's
    rating follows its hardest idea, not its step count): the kept puzzle needs a technique
    of the level, it is one that the rating says, and it is unique and solved by logic.
    Bounded in CPU seconds, not wall (the wall limit only stops a runaway on a loaded
    machine): these seeds take 2-4 s CPU (issue 26: an unfair killer took 45 s CPU, seed 2,
    when every failed rating of the steering tried a band arrangement)."""
    from techniques import registry
    t0 = time.process_time()
    g = generate("killer", level, seed=seed, time_limit=600)[0]
    assert time.process_time() - t0 < 30
    assert g.rating.basis == "ideas" and g.rating.level == level
    assert registry.get(g.rating.hardest).level == level
    assert g.puzzle.count_solutions(2) == 1
    cages = [r for r in g.to_spec()["rules"] if r["rule"] == "killer_cage"]
    assert cages and all(r["total"] == sum(g.solution[g.puzzle.grid.cell(c)] for c in r["cells"])
                         for r in cages)
    _check_independently(from_spec(json.loads(json.dumps(g.to_spec()))), level, g.solution)


def test_cli_generate_progress(capsys):
    """--progress on: a line per candidate on stderr, the last one the kept puzzle; stdout
    is exactly what the run without it prints."""
    argv = ["generate", "--difficulty", "hard", "--seed", "5"]
    assert main(argv + ["--progress", "off"]) == 0
    plain, err = capsys.readouterr()
    assert err == ""
    assert main(argv + ["--progress", "on"]) == 0
    out, err = capsys.readouterr()
    assert out == plain
    lines = err.splitlines()
    assert lines and all(x.startswith("generate: puzzle 1/1, candidate ") for x in lines)
    assert [x.split("(seed ")[1].split(")")[0] for x in lines] == [
        str(5 + i) for i in range(len(lines))]
    assert "kept (hard)" in lines[-1] and not any("kept" in x for x in lines[:-1])


def test_generate_progress_outcomes():
    seen = []
    made = list(generate_iter("classic", "hard", count=2, seed=5, progress=seen.append))
    kept = [p for p in seen if p.outcome == "kept"]
    assert [p.seed for p in kept] == [g.seed for g in made]
    assert [p.puzzle for p in kept] == [1, 2] and all(p.count == 2 for p in seen)
    assert all(p.level == "hard" for p in kept)
    assert sum(p.puzzle == 1 for p in seen) == made[0].candidates


def test_cli_generate_killer_solves(capsys, tmp_path):
    rc = main(["generate", "--variant", "killer", "--difficulty", "easy", "--seed", "8"])
    out, _ = capsys.readouterr()
    assert rc == 0
    f = tmp_path / "k.json"
    f.write_text(out)
    rc = main(["solve", str(f), "--logic", "--json"])
    res = json.loads(capsys.readouterr()[0])
    assert rc == 0 and res["status"] == "solved" and res["rating"]["level"] == "easy"


@pytest.mark.parametrize("argv", [
    ["generate", "--variant", "windoku"],
    ["generate", "--difficulty", "fiendish"],
    ["generate", "--count", "0"],
    ["generate", "--count", "two"],
])
def test_cli_bad_input(capsys, argv):
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_cli_timeout(capsys):
    # seed 1's first extreme puzzle is its 9th candidate, about 50 ms of rating in a warm
    # process (a test worker that has run others): 5 ms is well short of it
    rc = main(["generate", "--difficulty", "extreme", "--seed", "1", "--time-limit", "0.005"])
    out, err = capsys.readouterr()
    assert rc == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "time limit" in err


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "jigsaw", "killer"])
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "unfair"])
def test_sweep_levels(variant, level):
    """Two puzzles of each variant and level, checked independently; bounded in CPU seconds
    (120 a puzzle) rather than wall: the wall limit only stops a runaway (on a loaded machine
    the unfair killers took 5x their CPU time in wall time and ran out of 120 s)."""
    t0 = time.process_time()
    for g in generate(variant, level, count=2, seed=500, time_limit=900):
        q = from_spec(json.loads(json.dumps(g.to_spec())))
        _check_independently(q, level, g.solution)
    assert time.process_time() - t0 < 2 * 120


@pytest.mark.parametrize("variant", ["killer", "classic"])
def test_cli_generate_json_reads_back(variant, capsys, tmp_path):
    """A line of `generate --json` is a puzzle file for the other commands: its `puzzle`
    (a spec object for a variant, a line for classic) is read, and `solution` checked
    against it (a spec object under `puzzle` was 'neither f-puzzles data nor ...')."""
    assert main(["generate", "--variant", variant, "--seed", "3", "--json"]) == 0
    out, _ = capsys.readouterr()
    row = json.loads(out.splitlines()[0])
    f = tmp_path / "g.jsonl"
    f.write_text(out)
    assert main(["solve", str(f)]) == 0
    got, err = capsys.readouterr()
    assert "solved " + row["solution"] in got and "agrees with the stated solution" in got
    assert err == ""
    nested = tmp_path / "n.json"                 # one level deep only
    nested.write_text(json.dumps({"puzzle": {"puzzle": {"puzzle": row["puzzle"]}}}))
    assert main(["solve", str(nested)]) == 2
