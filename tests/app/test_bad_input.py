"""Hostile input: each case exits 2 with one line on stderr (never a traceback or an
``internal error``), and the API raises the library's own exceptions."""
from __future__ import annotations

import math

import pytest

from csp.errors import InvalidArgument, ParseError, SudokuCSPError
from csp.io import parse_library_line, parse_line
from sudoku_csp.cli import main
from variants import classic_puzzle

EXAMPLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _one_clean_error(capsys, argv: list[str]) -> str:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (argv, out, err)
    assert err.count("\n") == 1 and err.startswith("sudoku-csp: error: "), err
    assert "internal error" not in err and "Traceback" not in err
    return err


def _numbers(third: str) -> str:
    return ",".join(["1", "2", third, "4"] + ["1", "2", "3", "4"] * 3)


@pytest.mark.parametrize("argv", [
    ["solve", '{"puzzle": ' + "[" * 5000 + "]" * 5000 + "}"],
    ["solve", "[" * 100_000],
    ["solve", '{"puzzle": 1e400}'],
    ["solve", _numbers("⁹")],            # superscript nine
    ["solve", _numbers("١")],            # Arabic-Indic one
    ["solve", _numbers("１")],           # full-width one
    ["solve", _numbers("9" * 5000)],     # past int()'s digit limit
    ["hint", ":0000:x:+....:::"],
    ["hint", ":0000:x:" + "." * 80 + "+:::"],
    ["hint", ":0000:x:" + "." * 79 + "+x.:::"],
    ["hint", ":0000:x:" + "." * 80 + "٣:::"],
    ["generate", "--time-limit", "inf"],
    ["generate", "--time-limit", "nan"],
    ["solve", EXAMPLE, "--time-limit", "inf"],
    ["count", EXAMPLE, "--time-limit", "-1"],
])
def test_reproducers_exit_2_with_one_line(capsys, argv):
    _one_clean_error(capsys, argv)


@pytest.mark.parametrize("text", [_numbers("⁹"), _numbers("１"), _numbers("٣"),
                                  _numbers("9" * 5000), "1" + "²" * 15])
def test_parse_line_takes_ascii_digits_only(text):
    with pytest.raises(ParseError):
        parse_line(text)


@pytest.mark.parametrize("grid", ["+" + "." * 80, "." * 80 + "+", "." * 79 + "+x.",
                                  "." * 80 + "٣", "." * 80 + "x"])
def test_library_line_errors(grid):
    with pytest.raises(ParseError):
        parse_library_line(f":0000:x:{grid}:::")


def test_api_time_limits():
    p = classic_puzzle(EXAMPLE)
    assert p.solve(time_limit=math.inf).status == "solved"     # inf: no limit
    for bad in (math.nan, -1.0):
        with pytest.raises(InvalidArgument):
            p.solve(time_limit=bad)
    with pytest.raises(InvalidArgument) as e:
        p.solve(method="dfs")
    assert isinstance(e.value, SudokuCSPError) and isinstance(e.value, ValueError)


# -- issue 12, item 4: the remaining reproducers ------------------------------------------------
def _fp(cell: dict) -> str:
    import json
    grid = [[{} for _ in range(4)] for _ in range(4)]
    grid[0][0] = cell
    return json.dumps({"size": 4, "grid": grid}, allow_nan=True)


def _spec(*rules: dict, **top) -> str:
    import json
    return json.dumps({"format": "sudoku-csp", "version": 1, "size": 4, **top,
                       "rules": [{"rule": "classic"}, *rules]})


@pytest.mark.parametrize("argv", [
    ["solve", _fp({"region": "a"})],
    ["solve", _fp({"region": []})],
    ["solve", _fp({"region": float("nan")})],
    ["solve", _fp({"value": 1e400, "given": True}).replace("Infinity", "1e400")],
    ["solve", _fp({"value": float("nan"), "given": True})],
    ["solve", _fp({"value": "abc", "given": True})],
    ["solve", _spec({"rule": "killer_cage", "cells": ["r1c1", "r1c2"], "total": {}})],
    ["solve", _spec({"rule": {}})],
    ["solve", _spec(regions=[None] * 16)],
    ["solve", _spec({"rule": "killer_cage", "cells": []})],
    ["convert", "11" + "." * 14, "--to", "line"],
    ["render", "11" + "." * 14],
    ["graph", "11" + "." * 14],
])
def test_issue_12_reproducers(capsys, argv):
    _one_clean_error(capsys, argv)


def test_contradictory_givens_same_message_everywhere(capsys):
    msgs = set()
    for argv in (["solve", "11" + "." * 14], ["convert", "11" + "." * 14, "--to", "spec"],
                 ["render", "11" + "." * 14], ["graph", "11" + "." * 14]):
        msgs.add(_one_clean_error(capsys, argv))
    assert len(msgs) == 1 and "given twice" in msgs.pop()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_reports_a_bad_line_and_goes_on(tmp_path, capsys, workers):
    import json
    f = tmp_path / "mixed.jsonl"
    good = json.dumps({"puzzle": "1" + "." * 14 + "2"})
    f.write_text("\n".join([good, _fp({"region": "a"}), _spec({"rule": {}}), good]) + "\n")
    rc = main(["solve", str(f), "--json", "--workers", workers, "--first"])
    out, err = capsys.readouterr()
    res = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and [r["status"] for r in res] == ["solved", "error", "error", "solved"]
    assert f"{f}:2" in err and f"{f}:3" in err and "internal error" not in err


def test_api_raises_library_errors_for_data_shaped_input():
    from csp import Grid, Puzzle
    from csp.errors import GridSizeError, InvalidConstraint
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.formats.spec import SpecError, from_spec
    from variants import between_line, killer_cage, thermo
    with pytest.raises(InvalidConstraint, match="cage needs at least one cell"):
        Puzzle(4).use(killer_cage([], 3))
    with pytest.raises(InvalidConstraint, match="not a cell: 1.5"):
        Puzzle(4).use(thermo(1.5, 2.5))
    with pytest.raises(InvalidConstraint, match="rule between_line: cannot be built"):
        Puzzle(4).use(between_line([]))
    with pytest.raises(GridSizeError):
        Grid(4, regions=[None] * 16)
    with pytest.raises(SpecError, match="'total' must be an integer"):
        from_spec({"format": "sudoku-csp", "version": 1, "size": 4,
                   "rules": [{"rule": "killer_cage", "cells": ["r1c1"], "total": 1e400}]})
    with pytest.raises(ParseError, match="R1C1"):
        load_fpuzzles({"size": 4, "grid": [[{"value": 10 ** 400, "given": True}, {}, {}, {}]]
                       + [[{}, {}, {}, {}]] * 3})


@pytest.mark.parametrize("pred, cells", [
    (lambda a, b: a < b, ["r1c1", "r1c2", "r1c3"]),
    (lambda a, b, c: a < b < c, ["r1c1", "r1c2"]),
    (lambda: True, ["r1c1", "r1c2", "r1c3"]),
])
def test_predicate_arity_is_checked_when_added(pred, cells):
    from csp import FunctionConstraint, Puzzle
    from csp.errors import InvalidConstraint
    with pytest.raises(InvalidConstraint, match="rule sorted_row: its predicate takes"):
        Puzzle(4).add_constraint(pred, cells, name="sorted_row")
    if len(cells) != 2:
        with pytest.raises(InvalidConstraint, match="rule mine"):
            FunctionConstraint(pred, list(range(len(cells))), "mine")
    ok = Puzzle(4).add_constraint(lambda *v: len(set(v)) == len(v), cells, name="varargs")
    assert ok.constraints


# -- issue 24: one line per message, ASCII digits only --------------------------------------
def _sp(value: str) -> str:
    import json
    cells = [[{} for _ in range(4)] for _ in range(4)]
    cells[0][0] = {"value": value}
    boxes = [[[r + dr, c + dc] for dr in (0, 1) for dc in (0, 1)] for r in (0, 2) for c in (0, 2)]
    return json.dumps({"cells": cells, "regions": boxes})


def _fp_thermo(*cells: str) -> str:
    import json
    grid = [[{} for _ in range(4)] for _ in range(4)]
    return json.dumps({"size": 4, "grid": grid, "thermometer": [{"lines": [list(cells)]}]})


@pytest.mark.parametrize("argv", [
    ["solve", _spec({"rule": "thermo", "cells": ["r\u0661c\u0661", "r1c2"]})],  # r١c١
    ["solve", _spec({"rule": "thermo", "cells": ["r1c\uff11", "r1c2"]})],       # r1c１
    ["solve", _spec({"rule": "thermo", "cells": ["R5C1\n", "r1c2"]})],
    ["solve", _spec({"rule": "thermo", "cells": ["r1c1", "r1c2\n"]})],
    ["solve", _spec({"rule": "thermo", "cells": ["r1c1", "r" + "1" * 5000 + "c1"]})],
    ["solve", _fp_thermo("R1C1", "R1C2\n")],
    ["solve", _fp_thermo("R1C1", "R1C\u0662")],
    ["solve", _sp("\u0663")],                                             # ٣
    ["solve", _sp("\uff13")],                                             # ３
])
def test_unicode_digits_and_trailing_newlines_are_refused(capsys, argv):
    err = _one_clean_error(capsys, argv)
    assert "\n" not in err[:-1]


def test_the_same_givens_in_ascii_are_read(capsys):
    assert main(["solve", _sp("3"), "--first"]) == 0
    assert main(["solve", _fp_thermo("R1C1", "R1C2"), "--first"]) == 0
    assert main(["solve", _spec({"rule": "thermo", "cells": [" r1c1", "r1 c2 "]}), "--first"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("ref", ["r5c1\n", "r\u0661c1", "r1c1\t", "r" + "9" * 5000 + "c1"])
def test_grid_cell_names_are_ascii_and_end_at_the_name(ref):
    from csp import Grid
    from csp.errors import InvalidConstraint
    with pytest.raises(InvalidConstraint, match="not a cell name") as e:
        Grid(9).cell(ref)
    assert "\n" not in str(e.value) and "\t" not in str(e.value)
