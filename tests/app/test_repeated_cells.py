"""Issue 24's wrong answer from the command line: rules whose cell list repeats a cell, from
sudoku-csp JSON and from f-puzzles, exit 2 with one line naming the rule and the cell (they
used to be solved by logic, exit 0, on puzzles with no solution); closed loops of the loop
rules are read as loops, from f-puzzles and SudokuPad alike."""
from __future__ import annotations

import json

import pytest

from sudoku_csp.cli import main
from sudoku_csp.formats.fpuzzles import load_fpuzzles
from sudoku_csp.formats.spec import from_spec, to_spec
from sudoku_csp.formats.sudokupad import load_sudokupad

# the 4x4 of the reports: a solution with r1c1 and r2c2 left open
OPEN_TWO = ".2343.1221434321"

# (own JSON rule, f-puzzles key and entry, the cell named)
CASES = [
    ({"rule": "arrow", "circle": ["r1c1"], "shaft": ["r2c2", "r2c2"]},
     ("arrow", {"cells": ["R1C1"], "lines": [["R1C1", "R2C2", "R2C2"]]}), "arrow", "r2c2"),
    ({"rule": "between_line", "cells": ["r1c1", "r1c1", "r1c1"]},
     ("betweenline", {"lines": [["R1C1", "R1C1", "R1C1"]]}), "between_line", "r1c1"),
    ({"rule": "double_arrow", "cells": ["r1c1", "r2c2", "r1c1"]},
     ("doublearrow", {"lines": [["R1C1", "R2C2", "R1C1"]]}), "double_arrow", "r1c1"),
    ({"rule": "zipper_line", "cells": ["r1c1", "r2c2", "r1c1"]},
     ("zipperline", {"lines": [["R1C1", "R2C2", "R1C1"]]}), "zipper_line", "r1c1"),
    ({"rule": "quadruple", "cells": ["r1c1", "r1c1", "r2c2", "r2c2"], "values": [1, 2]},
     ("quadruple", {"cells": ["R1C1", "R1C1", "R2C2", "R2C2"], "values": [1, 2]}),
     "quadruple", "r1c1"),
    ({"rule": "palindrome", "cells": ["r1c1", "r1c2", "r2c2", "r1c1"]},
     ("palindrome", {"lines": [["R1C1", "R1C2", "R2C2", "R1C1"]]}), "palindrome", "r1c1"),
    ({"rule": "renban", "cells": ["r1c1", "r1c2", "r1c1"]},       # too short for a loop
     ("renban", {"lines": [["R1C1", "R1C2", "R1C1"]]}), "renban", "r1c1"),
    ({"rule": "killer_cage", "cells": ["r1c1", "r1c2", "r1c1"], "total": 5},
     ("killercage", {"cells": ["R1C1", "R1C2", "R1C1"], "value": "5"}), "killer_cage", "r1c1"),
]


def _own(rule: dict) -> str:
    return json.dumps({"format": "sudoku-csp", "version": 1, "size": 4, "box": [2, 2],
                       "givens": OPEN_TWO, "rules": [{"rule": "classic"}, rule]})


def _fpuzzles(key: str, entry: dict) -> str:
    grid = [[{"value": int(ch)} if ch != "." else {} for ch in OPEN_TWO[r * 4:r * 4 + 4]]
            for r in range(4)]
    return json.dumps({"size": 4, "grid": grid, key: [entry]})


@pytest.mark.parametrize("form", ["own", "fpuzzles"])
@pytest.mark.parametrize("command", [["solve", "--logic"], ["solve"], ["hint"], ["count"]])
@pytest.mark.parametrize("case", CASES, ids=[c[2] for c in CASES])
def test_a_cell_listed_twice_exits_2_naming_rule_and_cell(capsys, tmp_path, case, command,
                                                          form):
    rule, (key, entry), name, cell = case
    path = tmp_path / "p.json"
    path.write_text(_own(rule) if form == "own" else _fpuzzles(key, entry))
    rc = main([command[0], str(path)] + command[1:])
    out, err = capsys.readouterr()
    assert rc == 2 and not out, (out, err)
    assert err.count("\n") == 1 and err.startswith("sudoku-csp: error: "), err
    assert f"rule {name}: cell {cell} is listed twice" in err, err
    assert "internal" not in err and "Traceback" not in err


LOOP = ["R1C2", "R1C3", "R2C3", "R2C2", "R1C2"]


@pytest.mark.parametrize("key", ["renban", "whispers", "nabner", "entropicline",
                                 "modularline", "regionsumline"])
def test_fpuzzles_closed_loops_are_loops_and_round_trip(key):
    """A closed line (its last cell is its first) of a loop rule is read round; it is
    written back unchanged to sudoku-csp JSON and f-puzzles."""
    entry = {"lines": [LOOP]}
    if key == "whispers":
        entry["value"] = "2"
    p = load_fpuzzles({"size": 4, "grid": [[{}] * 4 for _ in range(4)], key: [entry]})
    b = p.bundles[-1][0]
    assert [c.lower() for c in b.cells] == [c.lower() for c in LOOP]
    again = from_spec(to_spec(p))
    assert again.count_solutions(300) == p.count_solutions(300)


def test_sudokupad_line_drawn_round_is_a_renban_loop():
    """A SudokuPad line whose way points come back to the first cell is a closed loop: the
    renban holds for its four cells (before, the closing cell made it a five-cell renban,
    refused on a 4x4)."""
    d = {"cells": [[{}] * 4 for _ in range(4)],
         "regions": [[[0, 0], [0, 1], [1, 0], [1, 1]], [[0, 2], [0, 3], [1, 2], [1, 3]],
                     [[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]],
         "lines": [{"wayPoints": [[0.5, 1.5], [0.5, 2.5], [1.5, 2.5], [1.5, 1.5], [0.5, 1.5]],
                    "color": "#F067F0", "thickness": 9.6}]}
    p = load_sudokupad(d)
    assert [type(b).__name__ for b, _ in p.bundles] == ["classic", "renban"]
    renban = p.bundles[-1][0]
    assert renban.cells[0] == renban.cells[-1] and len(renban.cells) == 5
    assert p.count_solutions(2) == 2
