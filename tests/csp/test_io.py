"""Text formats: line strings of any size, pencil-mark grids, HoDoKu library lines."""
from __future__ import annotations

import random

import pytest

from csp.errors import GridSizeError, ParseError
from csp.io import (parse_library_line, parse_line, parse_pencilmarks, write_library_line,
                    write_line, write_pencilmarks)
from variants.classic import classic_puzzle

from conftest import DATA


@pytest.mark.parametrize("n", [4, 6, 8, 9, 12, 16, 25])
def test_line_round_trip_any_size(n):
    rng = random.Random(n)
    vals = [rng.choice([0, rng.randint(1, n)]) for _ in range(n * n)]
    text = write_line(vals, n)
    assert len(text) == n * n
    assert parse_line(text) == (n, vals)
    assert parse_line(text.replace(".", "0")) == (n, vals)
    numbers = ",".join(str(v) for v in vals)
    assert parse_line(numbers) == (n, vals)
    assert parse_line(" ".join(str(v) for v in vals)) == (n, vals)


@pytest.mark.parametrize("text, exc, needle", [
    ("123", ParseError, "not a square grid"),
    ("5" + "." * 15, ParseError, "unexpected character '5'"),
    ("x" * 81, ParseError, "unexpected character 'x'"),
    ("", ParseError, "empty"),
    ("1,2,3", ParseError, "not a square grid"),
    (",".join(["17"] * 16), ParseError, "not a digit 1..4"),
    ("." * 36 * 36, GridSizeError, "too large"),
])
def test_bad_lines(text, exc, needle):
    with pytest.raises(exc, match=needle):
        parse_line(text)


@pytest.mark.parametrize("line", [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "1...............",
    "1." + "." * 34,
])
def test_pencilmarks_round_trip(line):
    p = classic_puzzle(line)
    st = p.propagate()
    text = write_pencilmarks(st)
    assert text.startswith(".") and text.rstrip().endswith("'")
    n, masks = parse_pencilmarks(text)
    assert n == p.grid.n and masks == [st.cand[c] for c in range(p.grid.size)]
    back = p.state_from(masks)
    assert back.cand == st.cand


def test_pencilmarks_wrong_count():
    with pytest.raises(ParseError, match="expected 81"):
        parse_pencilmarks("12 34 5", 9)


def test_library_lines_round_trip():
    lines = [l.rstrip("\n") for l in open(DATA / "reglib-1.3-public.txt", encoding="utf-8")
             if l.startswith(":")]
    assert len(lines) > 700
    for line in lines:
        case = parse_library_line(line)
        assert len(case.values) == 81
        assert write_library_line(case) == line


@pytest.mark.parametrize("bad, needle", [
    ("0100:5:...", "not a library line"),
    (":0100-q:5:" + "." * 81 + ":::", "bad option"),
    (":0100:5:" + "." * 80 + ":::", "80 cells"),
    (":0100:5:" + "." * 81 + ":5x1::", "bad deleted token"),
])
def test_bad_library_lines(bad, needle):
    with pytest.raises(ParseError, match=needle):
        parse_library_line(bad)
