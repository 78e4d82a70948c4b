"""Hostile input: each case exits 2 with one line on stderr (never a traceback or an
``internal error``), and the API raises the library's own exceptions."""
from __future__ import annotations

import json
import math

import pytest

from csp.errors import InvalidArgument, ParseError, SudokuCSPError
from csp.io import parse_library_line, parse_line
from sudoku_csp.cli import main
from variants import classic_puzzle

from conftest import DATA

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
    with pytest.raises(InvalidConstraint, match="rule killer_cage: cells must list at least one cell"):
        Puzzle(4).use(killer_cage([], 3))
    with pytest.raises(InvalidConstraint, match="not a cell: 1.5"):
        Puzzle(4).use(thermo(1.5, 2.5))
    with pytest.raises(InvalidConstraint, match="rule between_line: cells must list at least"):
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


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv", [
    ["solve", _spec({"rule": "killer_cage", "cells": ["r1c1", "r1c2"], "total": 50,
                     "name": "x\ny\x1b[2J"})],
    ["solve", _spec({"rule": "bogus\nrule"})],
    ["solve", "no\nsuch.txt"],
    ["solve", "1.....2...3..4..", "--line", "#ff\n0000=whispers"],
    ["solve", "1.....2...3..4..", "--techniques", "sing\nles"],
    ["explain", "1.....2...3..4..", "-o", "page\n.txt"],
    ["render", "1.....2...3..4..", "-o", "/no/such\ndir/out.svg"],
])
def test_messages_that_quote_input_stay_one_line(capsys, argv):
    err = _one_clean_error(capsys, argv)
    assert "\x1b" not in err and "\n" not in err[:-1]


def test_library_messages_are_one_line():
    from sudoku_csp.formats.spec import from_spec
    import json
    with pytest.raises(SudokuCSPError) as e:
        from_spec(json.loads(_spec({"rule": "killer_cage", "cells": ["r1c1", "r1c2"],
                                    "total": 50, "name": "x\ny"})))
    assert "x\\ny" in str(e.value) and "\n" not in str(e.value)


def test_a_batch_file_named_with_a_newline_keeps_its_lines_whole(capsys, tmp_path):
    f = tmp_path / "two\nlines.txt"
    f.write_text("1.....2...3..4..\nnot a puzzle\n")
    rc, out, err = _run(capsys, ["solve", str(f)])
    shown = str(f).replace("\n", "\\n")
    assert rc == 1 and out == f"{shown}:1: solved 1243432121343412\n"
    assert err.startswith(f"error: {shown}:2: ") and err.count("\n") == 1


# -- issue 24: reglib, hint --marks, numeric options ----------------------------------------
def test_reglib_names_the_line_that_cannot_be_read(capsys, tmp_path):
    lib = (DATA / "reglib-1.3-public.txt").read_text()
    cases = [line for line in lib.splitlines() if line.startswith(":")][:2]
    f = tmp_path / "lib.txt"
    f.write_bytes(("\n".join(cases) + "\n").encode() + b":0000:x:\xff:::\n")
    assert _one_clean_error(capsys, ["reglib", str(f)]) == \
        f"sudoku-csp: error: {f}:3: not UTF-8 text: byte 0xff at column 9\n"
    f.write_text("\n".join(cases) + "\ngarbage\n")
    assert _one_clean_error(capsys, ["reglib", str(f)]) == \
        f"sudoku-csp: error: {f}: line 3: not a library line: 'garbage'\n"
    f.write_text("\n".join(cases) + "\n")
    rc, out, _ = _run(capsys, ["reglib", str(f)])
    assert rc in (0, 1) and out.splitlines()[-1].endswith("failed")


# r1c4 has no candidate in the puzzle itself: row 1 holds 1, 2, 3 and column 4 holds 4
NO_CANDIDATE = "123........4...."
MARKS = "1 2 3 1234 1234 1234 1234 1234 1234 1234 1234 4 1234 1234 1234 1234"


def test_hint_marks_that_leave_a_cell_empty_are_a_contradiction(capsys):
    import json
    from csp.events import Contradiction
    from sudoku_csp.formats.loader import marks_state
    rc, out, err = _run(capsys, ["hint", NO_CANDIDATE, "--marks", MARKS, "--json"])
    assert rc == 1 and err == "" and json.loads(out)["status"] == "unsolvable"
    assert "r1c4" in json.loads(out)["text"]
    rc, out, err = _run(capsys, ["solve", NO_CANDIDATE, "--json"])
    assert rc == 1 and json.loads(out)["status"] == "unsolvable"      # as solve says
    with pytest.raises(Contradiction, match="r1c4 has no candidate left"):
        marks_state(MARKS, classic_puzzle(NO_CANDIDATE))


@pytest.mark.parametrize("argv", [
    ["solve", EXAMPLE, "--node-limit", "-5"],
    ["solve", EXAMPLE, "--node-limit", str(2 ** 63), "--method", "sat"],
    ["solve", EXAMPLE, "--node-limit", "\u0663"],
    ["solve", EXAMPLE, "--node-limit", "1e3"],
    ["count", EXAMPLE, "--node-limit", "-1"],
    ["count", EXAMPLE, "--limit", "\uff10"],
    ["solve", EXAMPLE, "--workers", "\u0661"],
    ["solve", EXAMPLE, "--chunk-size", "0"],
    ["graph", EXAMPLE, "--max-nodes", "-3"],
    ["render", EXAMPLE, "--step", "\u0663"],
    ["solve", EXAMPLE, "--logic", "--techniques", "default,-bogus"],
    ["hint", EXAMPLE, "--techniques", "-all,nope"],
])
def test_numbers_and_selections_of_options_are_checked(capsys, argv):
    _one_clean_error(capsys, argv)


@pytest.mark.parametrize("method", ["search", "sat", "auto"])
def test_node_limit_0_is_honoured_by_every_method(capsys, method):
    import json
    rc, out, err = _run(capsys, ["solve", EXAMPLE, "--method", method, "--node-limit", "0",
                                 "--json"])
    res = json.loads(out)
    assert rc == 1 and res["status"] == "limit" and res["reason"] and err == ""
    rc, out, _ = _run(capsys, ["solve", EXAMPLE, "--method", method, "--node-limit",
                               str(10 ** 12), "--json"])
    assert rc == 0 and json.loads(out)["status"] == "solved"


# -- a long input is quoted shortened: the error names it and its length, not all of it -----
LONG = "R1C1" + "x" * 9996


def test_a_long_cell_name_is_quoted_shortened():
    from csp import Grid
    from csp.errors import InvalidConstraint
    with pytest.raises(InvalidConstraint) as e:
        Grid(9).cell(LONG)
    msg = str(e.value)
    assert msg.startswith("not a cell name: 'R1C1xxxx") and "...' (10,000 characters)" in msg
    assert len(msg) < 200


@pytest.mark.parametrize("ref", [10 ** 5000, (0.5, 0), (1, "x"), (True, 2), (10 ** 5000, 1)],
                         ids=["huge-int", "float-pair", "str-pair", "bool-pair", "huge-pair"])
def test_grid_cell_refuses_what_is_not_a_cell_with_its_error(ref):
    """An int too long to print, a (row, col) pair of non-ints: InvalidConstraint (they
    were a ValueError, a TypeError, or the cell 4.5)."""
    from csp import Grid
    from csp.errors import InvalidConstraint
    with pytest.raises(InvalidConstraint) as e:
        Grid(9).cell(ref)
    assert len(str(e.value)) < 200


def _spec(rule: dict) -> str:
    import json
    return json.dumps({"format": "sudoku-csp", "version": 1, "size": 4, "rules": [rule]})


@pytest.mark.parametrize("argv", [
    ["solve", "1...............", "--time-limit", LONG],
    ["solve", "1...............", "--logic", "--techniques", LONG],
    ["convert", "1...............", "--to", LONG],
    ["solve", _spec({"rule": LONG})],
    ["solve", _spec({"rule": "killer_cage", "cells": [LONG], "total": 3})],
    ["solve", "1...............", "--line", LONG],
    ["why", "1...............", "r1c1=" + LONG],
    [LONG],
    ["solve", "1...............", "--limt", LONG],
    ["generate", "--variant", LONG],
    ["generate", "--technique", LONG],
    ["solve", _spec({"rule": "killer_cage", "cells": ["r1c1"], "total": 3, LONG: 1})],
    ["solve", json.dumps({"size": 4, "grid": [[{}] * 4] * 4, LONG: []})],
    ["solve", json.dumps({"format": "sudoku-csp", "version": 1, "size": 4,
                                        LONG: 1})],
], ids=["time-limit", "techniques", "convert-to", "rule", "cage-cell", "line", "why", "command",
        "unrecognized", "variant", "technique", "rule-argument", "fpuzzles-key", "spec-key"])
def test_cli_quotes_a_long_input_shortened(capsys, argv):
    rc, out, err = _run(capsys, argv)
    assert rc == 2 and out == "" and err.count("\n") == 1, err[:300]
    assert len(err) < 400 and "characters)" in err, err[:300]


def test_a_multigrid_origin_too_large_for_a_float_is_bad_input(capsys):
    """An origin of 401 digits made the canvas-size message format it as a float: an
    OverflowError ('internal error', exit 1). Now the canvas cap's error, exit 2."""
    doc = {"format": "sudoku-csp", "version": 2, "size": 4,
           "multigrid": {"origins": [[10 ** 400, 0]]}}
    rc, out, err = _run(capsys, ["solve", json.dumps(doc)])
    assert rc == 2 and out == ""
    assert err == ("sudoku-csp: error: multigrid: a multi-grid canvas of about 10^400 x 4 = "
                   "about 10^400 cells is over the cap of 10,000 cells\n")


@pytest.mark.parametrize("doc", [
    {"lines": [{"wayPoints": [[10 ** 400, 1], [1.5, 1.5]], "color": "#67f067"}]},
    {"underlays": [{"center": [10 ** 400, 1], "width": 1, "height": 1}]},
], ids=["line", "underlay"])
def test_a_sudokupad_coordinate_too_large_for_a_float_is_bad_input(capsys, doc):
    """A coordinate of 401 digits was an OverflowError of math.isfinite ('internal error',
    exit 1); now the error that names the element, exit 2."""
    doc = {"cells": [[{} for _ in range(4)] for _ in range(4)], **doc}
    rc, out, err = _run(capsys, ["solve", json.dumps(doc)])
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "is not a finite number" in err and "(401 characters)" in err


def test_fpuzzles_data_without_its_grid_is_named(capsys, tmp_path):
    """f-puzzles data written by hand with 'size' and rules but no 'grid' is told so, not
    called "neither f-puzzles data nor ..."."""
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"size": 9, "killercage": [{"cells": ["R1C1", "R1C2"],
                                                        "value": "3"}]}))
    err = _one_clean_error(capsys, ["candidates", str(f)])
    assert "'size' but no 'grid'" in err
    from sudoku_csp.formats.loader import puzzle_from_json
    with pytest.raises(ParseError, match="no 'grid'"):
        puzzle_from_json({"size": 9})
    with pytest.raises(ParseError, match="neither f-puzzles data"):
        puzzle_from_json({"title": "x"})
