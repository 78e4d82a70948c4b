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
