"""A logic solve never answers "solved" with a grid that is not a solution.

Two guards, both in the human loop (techniques.loop): a placement that fills every cell of
a rule with digits that break it is a contradiction (the run ends "unsolvable"), and the
one place where a run becomes "solved" checks the full grid with Puzzle.check_solution,
raising csp.errors.SoundnessError (never an answer) when it fails. The second guard is
proven here by breaking the first on purpose.
"""
from __future__ import annotations

import json
import tempfile

import pytest

import techniques.loop as loop
from csp import Puzzle
from csp.constraints import FunctionConstraint, Linear
from csp.errors import SoundnessError
from csp.step import Candidate, Step
from sudoku_csp.cli import main
from sudoku_csp.formats.spec import from_spec
from techniques import StepSolver
from variants import arrow, between_line, classic, double_arrow, quadruple, zipper_line

# a 4x4 solution; leaving r1c1 and r2c2 open, singles fill them with 1 and 4
SOLUTION = "1234341221434321"
OPEN_TWO = ".2343.1221434321"


@pytest.fixture(autouse=True)
def _saved_puzzles_in_tmp_path(monkeypatch, tmp_path) -> None:
    """The CLI saves the puzzle of a soundness error in a temporary file for the bug report:
    here that file goes to the test's own directory, not the machine's /tmp."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def _puzzle(*rules, givens: str = OPEN_TWO) -> Puzzle:
    return Puzzle(4).use(classic(), *rules).givens(givens)


# rules with no weak links that 1 at r1c1 and 4 at r2c2 break (each alone leaves no solution)
BROKEN_BY_SINGLES = {
    "arrow": lambda: arrow(["r1c1"], ["r2c2"]),                      # 1 != 4
    "between line": lambda: between_line(["r1c1", "r4c4", "r2c2"]),  # r4c4 = 1: not in 2..3
    "double arrow": lambda: double_arrow(["r1c1", "r1c2", "r2c2"]),  # 1 + 4 != 2
    "zipper line": lambda: zipper_line(["r1c1", "r1c2", "r2c2"]),    # 1 + 4 != 2
    "quadruple": lambda: quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [1, 1]),  # one 1 only
}


@pytest.mark.parametrize("name", BROKEN_BY_SINGLES)
def test_the_reproducers_have_no_solution(name):
    assert _puzzle(BROKEN_BY_SINGLES[name]()).solve().status == "unsolvable"


@pytest.mark.parametrize("name", BROKEN_BY_SINGLES)
def test_singles_that_fill_a_broken_rule_end_unsolvable(name):
    """The wrong answer of issue 24: singles fill r1c1 and r2c2, no technique ever reads the
    rule (it has no weak links), and the run used to end "solved" with the rule broken.
    Now the placement that fills the rule is a contradiction naming it."""
    res = StepSolver().solve(_puzzle(BROKEN_BY_SINGLES[name]()))
    assert res.status == "unsolvable", (res.status, res.reason)
    assert name.split()[0] in res.reason and "break" in res.reason


@pytest.mark.parametrize("make", [
    lambda: Linear([0, 5, 5], [-1, 1, 1], 0, "twice r2c2"),       # r1c1 = 2 * r2c2
    lambda: FunctionConstraint(lambda a, b, c: a + b == c, [0, 5, 0], "sum with r1c1 twice"),
])
def test_csp_rules_reading_a_cell_twice_are_exact(make):
    """Linear and FunctionConstraint read a cell listed twice as the same digit: search,
    SAT and logic agree (here: no solution) and logic never says "solved"."""
    p = Puzzle(4).use(classic()).add(make()).givens(OPEN_TWO)
    assert p.solve(method="search").status == p.solve(method="sat").status == "unsolvable"
    assert StepSolver().solve(p).status == "unsolvable"


def test_a_full_grid_handed_in_that_breaks_a_rule_is_unsolvable():
    p = _puzzle(arrow(["r1c1"], ["r2c2"]))
    st = p.initial_state()
    for c, ch in enumerate(SOLUTION):
        st.place(c, int(ch))
    res = StepSolver().solve(st)
    assert res.status == "unsolvable" and "arrow r1c1" in res.reason


def _blind_fill(grid: str):
    """A deliberately broken technique: it places the digits of ``grid`` in every open cell
    at once, whatever the candidates say."""
    def strategy(run, an):
        st = run.state
        return Step("broken", placements=tuple(
            Candidate(c, int(ch)) for c, ch in enumerate(grid) if not st.placed[c]))
    return strategy


def _miss_placement_checks(monkeypatch):
    """A deliberately broken placement check: the rules a step fills are not looked at."""
    real = Puzzle.broken_rule

    def broken_rule(self, values, around=None):
        return None if around is not None else real(self, values)
    monkeypatch.setattr(Puzzle, "broken_rule", broken_rule)


def test_gate_refuses_a_solved_grid_that_breaks_a_rule(monkeypatch):
    """With the placement check broken, the blind technique fills a grid that keeps every
    house but breaks the arrow: the gate raises SoundnessError with the puzzle and the grid
    instead of answering "solved"."""
    _miss_placement_checks(monkeypatch)
    p = _puzzle(arrow(["r1c1"], ["r2c2"]))
    run = StepSolver().start(p, strategy=_blind_fill(SOLUTION))
    with pytest.raises(SoundnessError) as info:
        list(run)
    err = info.value
    assert err.puzzle is p and err.values == [int(ch) for ch in SOLUTION]
    assert "r1c1=1, r2c2=4 break arrow r1c1" in str(err)
    assert run.status is None          # the run gave no answer


def test_gate_refuses_a_grid_with_a_digit_twice_in_a_house(monkeypatch):
    """A broken step application (digits placed without looking at candidates or links)
    and a technique that places a second 2 in row 1: the gate names the house."""
    def apply_blindly(state, step, *tables):     # (the run hands its link tables on)
        for c, d in step.placements:
            state.place(c, d)
    monkeypatch.setattr(loop, "apply_step", apply_blindly)
    p = _puzzle()
    run = StepSolver().start(p, strategy=_blind_fill("2" + SOLUTION[1:]))
    with pytest.raises(SoundnessError, match="r1c1 and r1c2 both hold 2 in row 1"):
        list(run)


def test_gate_holds_for_every_solve_entry(monkeypatch):
    """StepSolver.solve, the SE rating and the generator's rating all end through the gate."""
    from sudoku_csp.generate import rate_within
    _miss_placement_checks(monkeypatch)
    monkeypatch.setattr(loop, "first_step", _blind_fill(SOLUTION))
    p = _puzzle(arrow(["r1c1"], ["r2c2"]))
    with pytest.raises(SoundnessError):
        StepSolver().solve(p)
    with pytest.raises(SoundnessError):
        rate_within(p, "hard")


def _one_soundness_line(capsys, argv) -> str:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 1, (out, err)
    assert "solved" not in out
    assert err.count("\n") == 1 and err.startswith("sudoku-csp: internal soundness error: ")
    assert "Traceback" not in err
    return err


def _broken_fill(monkeypatch) -> dict:
    """Placement checks off and a strategy that fills the grid blindly: the sudoku-csp JSON
    of a 4x4 with an arrow the fill breaks (only the final gate can catch it)."""
    _miss_placement_checks(monkeypatch)
    monkeypatch.setattr(loop, "first_step", _blind_fill(SOLUTION))
    return {"format": "sudoku-csp", "version": 1, "size": 4, "box": [2, 2],
            "givens": OPEN_TWO, "rules": [{"rule": "classic"},
                                          {"rule": "arrow", "circle": ["r1c1"],
                                           "shaft": ["r2c2"]}]}


@pytest.mark.parametrize("command", [["solve", "--logic"], ["explain", "-o", "{tmp}/x.html"]])
def test_cli_reports_the_soundness_error_with_the_puzzle(monkeypatch, capsys, tmp_path, command):
    spec = _broken_fill(monkeypatch)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    # solve reads a file as a batch (below); the puzzle as an argument is a single puzzle
    puzzle = json.dumps(spec) if command[0] == "solve" else str(path)
    argv = [command[0], puzzle] + [a.format(tmp=tmp_path) for a in command[1:]]
    err = _one_soundness_line(capsys, argv)
    assert "break arrow r1c1" in err and "please report it" in err
    saved = err.split("the puzzle is saved in ")[1].split(" (a bug")[0]
    again = from_spec(json.load(open(saved)))
    assert again.given == _puzzle(arrow(["r1c1"], ["r2c2"])).given
    assert [type(b).__name__ for b, _ in again.bundles] == ["classic", "arrow"]
    assert not (tmp_path / "x.html").exists()


def test_batch_reports_the_soundness_error_as_that_lines_error(monkeypatch, capsys, tmp_path):
    """In a batch the soundness error is the line's error (with the saved puzzle), never a
    "solved", and the other lines still get their answers."""
    spec = _broken_fill(monkeypatch)
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps(spec) + "\n" + json.dumps({**spec, "rules": [{"rule": "classic"}]})
                    + "\n")
    rc = main(["solve", str(path), "--logic", "--json"])
    out, err = capsys.readouterr()
    lines = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and len(lines) == 2
    assert lines[0]["status"] == "error" and "internal soundness error" in lines[0]["error"]
    assert "please report it" in lines[0]["error"] and "b.jsonl:1" in err
    assert lines[1]["where"].endswith("b.jsonl:2") and lines[1]["status"] != "error"


def test_generator_never_hands_out_a_wrong_solution(monkeypatch):
    """The generator checks the solution it reports: a candidate whose stated solution is
    not one (a deliberately broken fill) raises SoundnessError instead of being kept."""
    import sudoku_csp.generate as gen
    real = gen.make_candidate

    def wrong_fill(*a, **kw):
        got = real(*a, **kw)
        if got is None:
            return None
        p, sol = got
        return p, [x % p.grid.n + 1 for x in sol]      # every digit shifted: not a solution
    monkeypatch.setattr(gen, "make_candidate", wrong_fill)
    with pytest.raises(SoundnessError, match="not one"):
        gen.generate("classic", "easy", seed=3, size=4)


def test_hint_on_a_full_grid_that_breaks_a_rule_is_not_solved(capsys, tmp_path):
    spec = {"format": "sudoku-csp", "version": 1, "size": 4, "box": [2, 2],
            "givens": SOLUTION[:4] + "." * 12,
            "rules": [{"rule": "classic"},
                      {"rule": "arrow", "circle": ["r1c1"], "shaft": ["r2c2"]}]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    rc = main(["hint", str(path), "--marks", " ".join(SOLUTION)])
    out, err = capsys.readouterr()
    assert rc == 1 and out.startswith("unsolvable") and "arrow r1c1" in out, (out, err)


@pytest.mark.parametrize("cells", [(0, 1), (0, 9), (0, 10)])
def test_two_placements_of_a_digit_in_one_house_are_a_contradiction(cells):
    """On a grid of all-different houses only, apply_step skips the rule check after
    placements (Puzzle.broken_rule): the first placement takes the digit out of its houses,
    so a second one in the same row, column or box is no candidate."""
    from csp.events import Contradiction
    from csp.step import Candidate
    from variants.classic import classic_puzzle
    st = classic_puzzle("." * 81).pencilmarks()
    step = Step("test", placements=tuple(Candidate(c, 5) for c in cells))
    with pytest.raises(Contradiction, match="is not a candidate"):
        loop.apply_step(st, step)
