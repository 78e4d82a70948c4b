"""`sudoku-csp hint`: the next step at three levels, on classic and killer puzzles, from a
fresh puzzle or a partly solved grid (pencil marks, HoDoKu library line, --marks)."""
from __future__ import annotations

import json

import pytest

from csp import Puzzle
from csp.io import write_pencilmarks
from csp.step import Candidate
from techniques import StepSolver
from techniques import registry
from techniques.loop import apply_step
from variants import classic, killer_cage
from variants.classic import classic_puzzle
from sudoku_csp.cli import main
from sudoku_csp.formats.loader import is_pencilmark_text, load_state, marks_state
from sudoku_csp.formats.spec import to_spec

from conftest import load_solutions

PUZZLE, SOLUTION = load_solutions("norvig_top95", limit=1)[0]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _cand(text: str) -> Candidate:
    """'r5c8=4' or 'r5c8<>4' -> (cell, digit)."""
    cell, d = text.replace("<>", "=").split("=")
    r, c = cell[1:].split("c")
    return Candidate((int(r) - 1) * 9 + int(c) - 1, int(d))


def _assert_sound(hint: dict, solution: list[int]) -> None:
    assert hint["placements"] or hint["eliminations"]
    for pl in map(_cand, hint["placements"]):
        assert solution[pl.cell] == pl.digit
    for el in map(_cand, hint["eliminations"]):
        assert solution[el.cell] != el.digit


def _levels(capsys, *argv: str) -> list[dict]:
    out = []
    for level in (0, 1, 2):
        rc, text, err = run(capsys, "hint", *argv, "--level", str(level), "--json")
        assert rc == 0 and err == ""
        out.append(json.loads(text))
    return out


def test_classic_three_levels(capsys):
    h0, h1, h2 = _levels(capsys, PUZZLE)
    assert h0["technique"] == h1["technique"] == h2["technique"]
    # level 0 tells the technique only, level 1 adds digits and houses, level 2 all
    assert h0["text"] == h0["title"] and "placements" not in h0 and "digits" not in h0
    assert h1["digits"] and "placements" not in h1
    assert all(str(d) in h1["text"] for d in h1["digits"])
    assert h2["text"].startswith(h2["title"]) and "=>" in h2["text"]
    _assert_sound(h2, SOLUTION)
    rc, text, _ = run(capsys, "hint", PUZZLE, "--level", "2")
    assert rc == 0 and text.strip() == h2["text"]


def _peers(c: int) -> set[int]:
    r, k = divmod(c, 9)
    box = {(r // 3 * 3 + i) * 9 + k // 3 * 3 + j for i in range(3) for j in range(3)}
    return ({r * 9 + j for j in range(9)} | {i * 9 + k for i in range(9)} | box) - {c}


def _partly_solved(puzzle: Puzzle, k: int):
    """State after k steps of the default solver."""
    solver = StepSolver()
    st = puzzle.pencilmarks()
    for _ in range(k):
        apply_step(st, solver.next_step(st))
    return st


def test_pencilmark_grid_mid_solve(capsys, tmp_path):
    st = _partly_solved(classic_puzzle(PUZZLE), 12)
    grid = write_pencilmarks(st)
    assert is_pencilmark_text(grid)
    # the grid reads back to its candidates; cells showing one digit are placed (their
    # digit then leaves the cells they see)
    back = marks_state(grid)
    expected = st.cand[:]
    for c in range(81):
        d = st.value(c)
        if d and not st.placed[c]:
            for p in _peers(c):
                expected[p] &= ~(1 << d) if st.value(p) != d else expected[p]
    assert back.cand == expected
    assert back.placed == [st.value(c) for c in range(81)]
    f = tmp_path / "marks.txt"
    f.write_text(grid + "\n")
    rc, text, _ = run(capsys, "hint", str(f), "--level", "2", "--json")
    hint = json.loads(text)
    assert rc == 0
    _assert_sound(hint, SOLUTION)
    expected = StepSolver().next_step(back)
    assert hint["text"] == expected.explain(2)
    # the same grid on one line (81 candidate groups separated by spaces)
    one_line = " ".join(grid.replace("|", " ").replace(":", " ").split()[1:-1])
    rc, text, _ = run(capsys, "hint", " ".join(t for t in one_line.split() if t.isdigit()),
                      "--level", "0")
    assert rc == 0 and text.strip() == expected.explain(0)


def test_hodoku_library_line(capsys):
    st = _partly_solved(classic_puzzle(PUZZLE), 5)
    cells = "".join(str(st.placed[c]) if st.given[c] else
                    (f"+{st.placed[c]}" if st.placed[c] else ".") for c in range(81))
    placed_only = load_state(f":0000:x:{cells}:::")  # givens' and placements' eliminations
    deleted = " ".join(f"{d}{c // 9 + 1}{c % 9 + 1}" for c in range(81) for d in range(1, 10)
                       if placed_only.cand[c] >> d & 1 and not st.cand[c] >> d & 1)
    assert deleted
    line = f":0000:x:{cells}:{deleted}::"
    assert load_state(line).cand == st.cand
    rc, text, _ = run(capsys, "hint", line, "--level", "2", "--json")
    assert rc == 0
    _assert_sound(json.loads(text), SOLUTION)


def _killer(declared: bool = True) -> Puzzle:
    """A killer whose cages are dominoes of a known solution (no givens but r9c9). It has
    64 solutions, so it is declared "may have several" (``unique`` False, kept in its own
    JSON): the logic then hints as far as it goes instead of answering "multiple"."""
    p = Puzzle(9).use(classic())
    if declared:
        p.unique = False
    name = lambda c: f"r{c // 9 + 1}c{c % 9 + 1}"  # noqa: E731
    for r in range(9):
        for c in range(0, 8, 2):
            a, b = r * 9 + c, r * 9 + c + 1
            p.use(killer_cage([name(a), name(b)], SOLUTION[a] + SOLUTION[b]))
    for r in range(0, 8, 2):
        a, b = r * 9 + 8, (r + 1) * 9 + 8
        p.use(killer_cage([name(a), name(b)], SOLUTION[a] + SOLUTION[b]))
    return p.givens({"r9c9": SOLUTION[80]})


def test_killer_three_levels_and_marks(capsys, tmp_path):
    f = tmp_path / "killer.json"
    f.write_text(json.dumps(to_spec(_killer())))
    h0, h1, h2 = _levels(capsys, str(f))
    assert registry.get(h0["technique"]).family == "killer"  # nothing else applies at the start
    assert h0["text"] == h0["title"] and "eliminations" not in h1
    _assert_sound(h2, SOLUTION)
    # mid-solve: the rules from the JSON, the progress from a pencil-mark grid
    puzzle = _killer()
    st = _partly_solved(puzzle, 20)
    marks = tmp_path / "marks.txt"
    marks.write_text(write_pencilmarks(st))
    rc, text, _ = run(capsys, "hint", str(f), "--marks", str(marks), "--level", "2", "--json")
    hint = json.loads(text)
    assert rc == 0
    _assert_sound(hint, SOLUTION)
    assert hint["text"] == StepSolver().next_step(load_state(str(f), str(marks))).explain(2)
    assert hint["text"] != h2["text"]


def test_killer_with_several_solutions_gets_no_hint(capsys, tmp_path):
    f = tmp_path / "killer.json"
    f.write_text(json.dumps(to_spec(_killer(declared=False))))
    rc, out, _ = run(capsys, "hint", str(f), "--json")
    hint = json.loads(out)
    assert rc == 1 and hint["status"] == "multiple"
    assert hint["reason"] == "64 solutions" and hint["count"] == 64 and not hint["at_least"]


def test_stuck_solved_and_broken(capsys):
    rc, out, _ = run(capsys, "hint", "." * 16, "--techniques", "singles,intersections")
    assert rc == 1 and out.startswith("no hint: the puzzle has 288 solutions")
    rc, out, _ = run(capsys, "hint", PUZZLE, "--techniques", "x_wing", "--json")
    stuck = json.loads(out)
    assert rc == 1 and stuck["status"] == "stuck"
    assert stuck["reason"] == "no selected technique applies"
    assert stuck["text"] == "no step found: no selected technique applies"
    rc, out, _ = run(capsys, "hint", "".join(map(str, SOLUTION)))
    assert rc == 0 and "solved" in out
    marks = " ".join(["12"] * 2 + ["1"] + ["1234"] * 13)  # r1c3=1 leaves r1c1,r1c2 {2}: clash
    rc, out, _ = run(capsys, "hint", marks, "--json")
    assert rc == 1 and json.loads(out)["status"] == "unsolvable"


@pytest.mark.parametrize("argv, needle", [
    (["hint", " ".join(["123"] * 80)], "square grid"),
    (["hint", "." * 81, "--marks", " ".join(["12"] * 16)], "expected 81"),
    (["hint", " ".join(["12"] * 16), "--marks", "1 2"], "--marks"),
    (["hint", "tests/data/easy50.txt"], "expected one puzzle"),
    (["hint", PUZZLE, "--techniques", "nope"], "unknown technique"),
])
def test_bad_input(argv, needle, capsys):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and err.count("\n") == 1 and needle in err, err
