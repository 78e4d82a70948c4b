"""SudokuPad import: links and payloads, the zipped JSON, every element kind, the colour
meanings, the 136 CC BY puzzles as SudokuPad's own f-puzzles converter wrote them, the round
trip f-puzzles -> SudokuPad -> puzzle, and the CLI (``--line`` on every command, stated
solutions)."""
from __future__ import annotations

import json
from urllib.parse import quote

import lzstring
import pytest

from csp.errors import ParseError
from sudoku_csp.cli import main
from sudoku_csp.formats.fpuzzles import load_fpuzzles, to_fpuzzles
from sudoku_csp.formats.payload import NeedsNetwork, decode_sudokupad, is_sudokupad_text, sudokupad_id
from sudoku_csp.formats.zipped import unzip
from sudoku_csp.formats.spec import to_spec
from sudoku_csp.formats.sudokupad import (load_sudokupad, parse_meanings, sudokupad_to_fpuzzles,
                                          to_sudokupad_url)

from conftest import DATA

ROWS = [json.loads(x) for x in open(DATA / "sudokupad_cc_by.jsonl", encoding="utf-8")]
SOURCES = {r["title"]: r for r in map(json.loads, open(DATA / "fpuzzles_cc_by.jsonl",
                                                       encoding="utf-8"))}
IDS = [f"{i}-{r['title'][:30]}" for i, r in enumerate(ROWS)]
LZ = lzstring.LZString()


def solution_text(p) -> tuple[str, str | None]:
    res = p.solve(time_limit=120)
    return res.status, "".join(map(str, res.solution)) if res.solution else None


def check_row(row: dict) -> None:
    expect = row.get("expect", "solved")
    if expect == "refused":
        with pytest.raises(ParseError, match="grey cell"):
            load_sudokupad(row["scl"], lines=row.get("lines"))
        return
    p = load_sudokupad(row["scl"], lines=row.get("lines"))
    status, sol = solution_text(p)
    if expect == "solved":
        assert (status, sol) == ("solved", row["solution"])
    elif expect == "differs":
        assert status == "solved" and sol != row["solution"]
    else:
        assert status == expect


# -- the CC BY set through SudokuPad's converter ---------------------------------------------
def test_set():
    assert len(ROWS) == 136
    assert sum(r.get("expect", "solved") == "solved" for r in ROWS) == 132


@pytest.mark.parametrize("row", ROWS[::9], ids=IDS[::9])
def test_converted_payloads_sample(row):
    check_row(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_converted_payloads_all(row):
    check_row(row)


@pytest.mark.parametrize("title", ["Jan. 6, 2024: Region Sum Lines", "Fortress Sudoku",
                                   "Exclusive Singularity", "The Initials"])
def test_same_reading_as_the_fpuzzles_source(title):
    """Where SudokuPad's conversion keeps every rule, the SudokuPad reading and the f-puzzles
    reading have the same solutions (compared by a second solve with the first one
    excluded: both unique and equal)."""
    row = next((r for r in ROWS if r["title"] == title), None)
    if row is None:
        pytest.skip(f"{title!r} not in the set")
    p = load_sudokupad(row["scl"])
    q = load_fpuzzles(SOURCES[title]["fpuzzles_json"])
    assert solution_text(p) == solution_text(q)
    assert p.count_solutions(limit=2) == q.count_solutions(limit=2) == 1


KINDS = {"thermometer", "killercage", "arrow", "difference", "ratio", "xv", "littlekillersum",
         "palindrome", "renban", "whispers", "betweenline", "minimum", "maximum", "odd", "even",
         "quadruple", "extraregion", "lockout", "entropicline", "modularline", "regionsumline",
         "zipperline", "doublearrow", "nabner", "sandwichsum", "xsum", "skyscraper",
         "disjointgroups", "antiknight", "antiking", "rowindexer", "negative", "nonconsecutive"}


def test_converted_set_covers_the_element_kinds():
    """Every kind of rule the CC BY set has comes back from SudokuPad's drawing of it (for
    each kind, the first puzzle whose f-puzzles source has it)."""
    kinds, tried = set(), set()
    for row in ROWS:
        src = set(SOURCES[row["title"]]["fpuzzles_json"]) & KINDS
        if row.get("expect") == "refused" or not src - tried:
            continue
        tried |= src
        got = set(sudokupad_to_fpuzzles(decode_sudokupad(row["scl"])[1], row.get("lines")))
        assert src <= got, (row["title"], src - got)
        kinds |= got
    assert KINDS <= kinds


# -- round trip ------------------------------------------------------------------------------
@pytest.mark.parametrize("i", range(3, 136, 17))
def test_round_trip_fpuzzles_sudokupad_puzzle(i):
    src = SOURCES[ROWS[i]["title"]]["fpuzzles_json"]
    p = load_fpuzzles(src)
    url = to_sudokupad_url(p)
    assert url.startswith("https://sudokupad.app/fpuzzles")
    q = load_sudokupad(url)
    assert to_spec(q) == to_spec(p)
    assert solution_text(q) == solution_text(p)


# -- links and payloads ----------------------------------------------------------------------
SMALL = {"cells": [[{"value": 1}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}],
                   [{}, {}, {}, {"value": 2}]],
         "regions": [[[0, 0], [0, 1], [1, 0], [1, 1]], [[0, 2], [0, 3], [1, 2], [1, 3]],
                     [[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]],
         "cages": [{"value": "title: Small"}, {"value": "solution: 1342421331242431"}]}


def _zipped(obj: dict) -> str:
    """A hand-written zipped form of SMALL (as SudokuPad writes it)."""
    return ("{ce:[[{v:1},,,],[,,,],[,,,],[,,,{v:2}]],re:[[[0,0],[0,1],[1,0],[1,1]],"
            "[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]],"
            "ca:[{v:'title: Small'},{v:'solution: 1342421331242431'}]}")


def test_unzip_reads_sudokupads_compaction():
    assert unzip(_zipped(SMALL)) == SMALL
    z = ("{l:[{wp:[[0.5,0.5],[1.5,0.5]],c:#0,th:2,r:t,k:f},{c:'#abcdef',x:123456}],"
         "metadata:{t:'It\\'s',solution:'12'},ca:[,{v:5}]}")
    assert unzip(z) == {"lines": [{"wayPoints": [[0.5, 0.5], [1.5, 0.5]], "color": "#000000",
                                   "thickness": 2, "rounded": True, "k": False},
                                  {"color": "#abcdef", "x": "#123456"}],
                        "metadata": {"title": "It's", "solution": "12"},
                        "cages": [{}, {"value": 5}]}


@pytest.mark.parametrize("bad", ["{ce:[[{v:1}]", "{ce:", "{'a':'b}", "{a:b:c}", "[" * 200,
                                 "{a:1e999}", "{a:'\\x'}"])
def test_unzip_errors_are_parse_errors(bad):
    with pytest.raises(ParseError):
        unzip(bad)


def _scl(obj: dict, zipped: bool = True) -> str:
    text = _zipped(obj) if zipped else json.dumps(obj)
    return "scl" + LZ.compressToBase64(text)


@pytest.mark.parametrize("make", [
    lambda: _scl(SMALL),
    lambda: _scl(SMALL, zipped=False),
    lambda: "ctc" + LZ.compressToBase64(json.dumps(SMALL)),
    lambda: "https://sudokupad.app/" + _scl(SMALL),
    lambda: "https://beta.sudokupad.app/" + _scl(SMALL) + "?setting-nogrid=1",
    lambda: "https://sudokupad.app/sudoku?puzzleid=" + _scl(SMALL),
    lambda: "https://app.crackingthecryptic.com/sudoku/" + _scl(SMALL),
    lambda: "sudokupad://puzzle/" + _scl(SMALL),
    lambda: "https://sudokupad.app/" + quote(_scl(SMALL), safe=""),
    lambda: json.dumps(SMALL),
    lambda: _zipped(SMALL),
])
def test_link_and_payload_forms(make):
    p = load_sudokupad(make())
    assert p.given == {0: 1, 15: 2} and p.meta["title"] == "Small"
    assert p.meta["solution"] == "1342421331242431"
    assert p.solve().status == "multiple"


def test_fpuzzles_and_scf_forms():
    fp = {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] +
          [[{}, {}, {}, {}] for _ in range(3)], "diagonal-": True}
    for prefix in ("fpuzzles", "fpuz"):
        p = load_sudokupad("https://sudokupad.app/" + prefix + LZ.compressToBase64(json.dumps(fp)))
        assert to_spec(p) == to_spec(load_fpuzzles(fp))
    # scf: each character is a digit followed by up to five blanks (value digit + 10 * blanks)
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
    code, i = "", 0
    while i < 81:
        d = int(line[i].replace(".", "0"))
        j = i + 1
        while j < 81 and line[j] == "." and j - i <= 5:
            j += 1
        code += chars[d + 10 * (j - i - 1)]
        i = j
    p = load_sudokupad("https://sudokupad.app/scf" + code + quote("*xtDiagonal **star*aMe"))
    assert "".join(str(p.given.get(c, ".")) for c in range(81)) == line
    assert p.meta["title"] == "Diagonal *star" and p.meta["author"] == "Me"
    assert {h.name for h in p.houses()} >= {"main diagonal", "anti-diagonal"}


def test_ids():
    assert sudokupad_id("https://sudokupad.app/abc?x=1") == "abc"
    assert is_sudokupad_text("scl" + "A" * 20)
    assert not is_sudokupad_text("4.....8.5")
    assert not is_sudokupad_text("https://www.f-puzzles.com/?load=N4Ig")


@pytest.mark.parametrize("link", ["https://sudokupad.app/wsj7iunsg6",
                                  "https://sudokupad.app/sudoku/psyche/abc",
                                  "https://www.f-puzzles.com/?id=yhkyz63b"])
def test_short_links_need_the_network(link, capsys):
    with pytest.raises(NeedsNetwork, match="network"):
        load_sudokupad(link) if "sudokupad" in link else load_fpuzzles(link)
    assert main(["solve", link]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "network fetch" in err


# -- elements --------------------------------------------------------------------------------
def grid4(**extra) -> dict:
    return {"cells": [[{}, {}, {}, {}] for _ in range(4)], "regions": SMALL["regions"], **extra}


def fp_of(obj: dict, lines=None) -> dict:
    return {k: v for k, v in sudokupad_to_fpuzzles(obj, lines).items() if k not in ("size", "grid")}


def test_lines_of_the_conventions():
    obj = grid4(lines=[
        {"wayPoints": [[0.5, 0.5], [0.5, 1.5], [1.5, 1.5]], "color": "#CFCFCF", "thickness": 21},
        {"wayPoints": [[2.5, 0.5], [2.5, 2.5]], "color": "#CFCFCF", "thickness": 16},
        {"wayPoints": [[3.5, 0.9], [3.5, 2.1]], "color": "#CFCFCF", "thickness": 2},
        {"wayPoints": [[1.5, 3.5], [2.5, 3.5]], "color": "#67F067", "thickness": 6},
        {"wayPoints": [[0.5, 2.5], [0.5, 3.5]], "color": "#f067f0", "thickness": 8},
        {"wayPoints": [[0, 0], [4, 4]], "color": "#34BBE6", "thickness": 2}],
        underlays=[{"center": [1.5, 1.5], "width": 0.85, "height": 0.85, "rounded": True,
                    "backgroundColor": "#CFCFCF"}],
        overlays=[{"center": [3.5, 0.5], "width": 0.8, "height": 0.8, "rounded": True,
                   "backgroundColor": "#FFFFFF", "borderColor": "#CFCFCF"},
                  {"center": [3.5, 2.5], "width": 0.8, "height": 0.8, "rounded": True,
                   "backgroundColor": "#FFFFFF", "borderColor": "#CFCFCF"}])
    fp = fp_of(obj)
    # the bulb is at r2c2: the thermometer runs from there
    assert fp["thermometer"] == [{"lines": [["R2C2", "R1C2", "R1C1"]]}]
    assert fp["palindrome"] == [{"lines": [["R3C1", "R3C2", "R3C3"]]}]   # r3c2 filled in
    assert fp["betweenline"] == [{"lines": [["R4C1", "R4C2", "R4C3"]]}]  # pulled-in ends
    assert fp["whispers"] == [{"lines": [["R2C4", "R3C4"]], "value": "2"}]
    assert fp["renban"] == [{"lines": [["R1C3", "R1C4"]]}]
    assert fp["diagonal-"] is True


def test_thermometer_by_its_bulb_in_any_colour():
    obj = grid4(lines=[{"wayPoints": [[0.5, 0.5], [0.5, 1.5], [0.5, 2.5]], "color": "#B0B0B0",
                        "thickness": 10}],
                underlays=[{"center": [0.5, 2.5], "width": 0.8, "height": 0.8, "rounded": True,
                            "backgroundColor": "#B0B0B0"}])
    assert fp_of(obj)["thermometer"] == [{"lines": [["R1C3", "R1C2", "R1C1"]]}]


def test_dots_xv_quadruple_odd_even_outside():
    obj = grid4(overlays=[
        {"center": [0.5, 1], "width": 0.3, "height": 0.3, "rounded": True,
         "backgroundColor": "#FFFFFF", "borderColor": "#000000", "text": ""},
        {"center": [1, 0.5], "width": 0.3, "height": 0.3, "rounded": True,
         "backgroundColor": "#000000", "borderColor": "#000000", "text": 3},
        {"center": [2.5, 2], "width": 0.25, "height": 0.25, "text": "X", "fontSize": 21},
        {"center": [2, 2], "width": 0.7, "height": 0.7, "rounded": True,
         "backgroundColor": "#FFFFFF", "borderColor": "#000000", "text": "1\u20092\n3"},
        {"center": [-0.5, 1.5], "width": 0.25, "height": 0.25, "text": 5, "fontSize": 32,
         "backgroundColor": "#FFFFFF", "borderColor": "#FFFFFF"},
        {"center": [1.5, 4.5], "width": 0.25, "height": 0.25, "text": "\u25ef", "fontSize": 38},
        {"center": [1.5, 4.5], "width": 0.25, "height": 0.25, "text": 4, "fontSize": 22}],
        underlays=[{"center": [3.5, 3.5], "width": 0.7, "height": 0.7, "rounded": True,
                    "backgroundColor": "#CFCFCF"},
                   {"center": [3.5, 2.5], "width": 0.7, "height": 0.7, "rounded": False,
                    "backgroundColor": "#CFCFCF"},
                   {"center": [0.5, 3.5], "width": 1, "height": 1, "rounded": False,
                    "backgroundColor": "#FFA0A0"}])      # a coloured cell: decoration
    fp = fp_of(obj)
    assert fp["difference"] == [{"cells": ["R1C1", "R1C2"]}]
    assert fp["ratio"] == [{"cells": ["R1C1", "R2C1"], "value": "3"}]
    assert fp["xv"] == [{"cells": ["R3C2", "R3C3"], "value": "X"}]
    assert fp["quadruple"] == [{"cells": ["R2C2", "R2C3", "R3C2", "R3C3"], "values": [1, 2, 3]}]
    assert fp["sandwichsum"] == [{"cell": "R0C2", "value": "5"}]
    assert fp["xsum"] == [{"cell": "R2C5", "value": "4"}]
    assert fp["odd"] == [{"cell": "R4C4"}] and fp["even"] == [{"cell": "R4C3"}]


def test_cages_metadata_and_flags():
    obj = grid4(cages=[
        {"value": "title: T"}, {"value": "author: A"}, {"value": "rules: first"},
        {"value": "rules: second"}, {"value": "msgcorrect: yes", "cells": [[0, 0]],
                                     "outlineC": "#ffffff00", "fontC": "#ffffff00"},
        {"cells": [[0, 0], [0, 1]], "unique": True, "sum": 5, "value": "5"},
        {"cells": [[1, 0], [1, 1]], "unique": True, "value": 4},
        {"cells": [[2, 0], [2, 1]], "unique": True},
        {"cells": [[3, 0], [3, 1], [2, 2]], "unique": True, "style": "extraregion", "sum": 6},
        {"cells": [[3, 3]], "unique": False, "hidden": True}],
        metadata={"solution": "1234341221434321", "antiking": True},
        **{"global": ["nonconsecutive", "antiratio"]})
    fp = fp_of(obj)
    assert fp["title"] == "T" and fp["author"] == "A" and fp["ruleset"] == "first\nsecond"
    assert fp["killercage"] == [{"cells": ["R1C1", "R1C2"], "value": "5"},
                                {"cells": ["R2C1", "R2C2"], "value": "4"},
                                {"cells": ["R3C1", "R3C2"]}]
    assert fp["extraregion"] == [{"cells": ["R4C1", "R4C2", "R3C3"]}]
    assert fp["nonconsecutive"] and fp["antiking"] and fp["negative"] == ["ratio"]
    assert fp["solution"] == "1234341221434321"


def test_arrows_and_little_killers():
    obj = grid4(
        arrows=[{"wayPoints": [[0.5, 0.9], [0.5, 1.5], [1.5, 2.5]], "color": "#a1a1a1",
                 "thickness": 5, "headLength": 0.3},
                {"wayPoints": [[0.5, 0.9], [1.5, 0.5]], "color": "#a1a1a1", "thickness": 5},
                {"wayPoints": [[3.5, 1.9], [3.5, 2.5], [3.5, 3.5]], "color": "#a1a1a1"},
                {"wayPoints": [[-0.2, -0.2], [-0.02, -0.02]], "color": "#000000", "thickness": 2}],
        overlays=[{"center": [0.5, 0.5], "width": 0.83, "height": 0.83, "rounded": True,
                   "backgroundColor": "#ffffff", "borderColor": "#a1a1a1"},
                  {"center": [0.5, 0.5], "width": 0.83, "height": 0.83, "rounded": True,
                   "backgroundColor": "#ffffff", "borderColor": "#a1a1a1"},
                  {"center": [3.5, 1], "width": 1.83, "height": 0.83, "rounded": True,
                   "backgroundColor": "#ffffff", "borderColor": "#a1a1a1"},
                  {"center": [-0.5, -0.5], "width": 0.25, "height": 0.25, "text": 10,
                   "fontSize": 28}])
    fp = fp_of(obj)
    assert fp["arrow"] == [
        {"cells": ["R1C1"], "lines": [["R1C1", "R1C2", "R2C3"], ["R1C1", "R2C1"]]},
        {"cells": ["R4C1", "R4C2"], "lines": [["R4C2", "R4C3", "R4C4"]]}]
    assert fp["littlekillersum"] == [{"cell": "R0C0", "direction": "DR", "value": "10"}]
    p = load_sudokupad(obj)
    assert {type(b).__name__ for b, _ in p.bundles} >= {"arrow", "little_killer"}


def test_minimum_maximum_chevrons():
    """A maximum cell r1c1 beside a maximum r1c2 (no chevron between them) and a minimum
    r4c4, drawn as SudokuPad's conversion draws them."""
    def chevron(cell, towards, out):
        r, c = cell[0] + 0.5, cell[1] + 0.5
        dr, dc = towards
        tip, arm = (0.44, 0.34) if out else (0.39, 0.49)
        return {"wayPoints": [[r + dr * arm - dc * 0.1, c + dc * arm - dr * 0.1],
                              [r + dr * tip, c + dc * tip],
                              [r + dr * arm + dc * 0.1, c + dc * arm + dr * 0.1]],
                "color": "#000000", "thickness": 1}
    obj = grid4(lines=[chevron((0, 0), (1, 0), True), chevron((0, 1), (1, 0), True),
                       chevron((0, 1), (0, 1), True), chevron((3, 3), (-1, 0), False),
                       chevron((3, 3), (0, -1), False)],
                underlays=[{"center": [r + 0.5, c + 0.5], "width": 1, "height": 1,
                            "rounded": False, "backgroundColor": "#ccc"}
                           for r, c in ((0, 0), (0, 1), (3, 3))])
    fp = fp_of(obj)
    assert fp["maximum"] == [{"cell": "R1C1"}, {"cell": "R1C2"}]
    assert fp["minimum"] == [{"cell": "R4C4"}]


# -- what is not clear raises, and how to say it -----------------------------------------------
@pytest.mark.parametrize("obj, needle", [
    (grid4(lines=[{"wayPoints": [[0.5, 0.5], [0.5, 1.5]], "color": "#60C060", "thickness": 9}]),
     "--line '#60C060=renban'"),
    (grid4(underlays=[{"center": [0.5, 0.5], "width": 0.8, "height": 0.8, "rounded": True,
                       "backgroundColor": "#FFFFFF", "borderColor": "#000000"}]),
     "a circle with no arrow"),
    (grid4(cages=[{"cells": [[0, 0], [0, 1]], "value": "7"}]), "--line 'cage=killer'"),
    (grid4(overlays=[{"center": [-0.5, 0.5], "text": "7", "fontSize": 20}]),
     "--line 'outside=sandwich'"),
    (grid4(underlays=[{"center": [0.5, 0.5], "width": 1, "height": 1,
                       "backgroundColor": "#CFCFCF"}]), "clone"),
    (grid4(metadata={"bgimage": "https://example.org/a.png"}), "background image"),
    (grid4(**{"global": ["antiwhatever"]}), "antiwhatever"),
    (grid4(arrows=[{"wayPoints": [[1.5, 1.5], [1.5, 2.5]]}]), "no circle"),
    (grid4(lines=[{"wayPoints": [[1, 1], [1, 3]], "color": "#000000"}]), "grid lines"),
    (grid4(lines=[{"wayPoints": [[0.5, 0.5], [9.5, 0.5]], "color": "#000000"}]), "leaves the grid"),
    (grid4(spiders=[{"x": 1}]), "'spiders'"),
    ({"cells": [[{}, {}], [{}]]}, "not square"),
    ({"cells": [[{"value": "x"}]]}, "not a digit"),
    (grid4(regions=[[[0, 0], [0, 1]], [[0, 1]]]), "in regions 1 and 2"),
])
def test_unclear_elements_are_named(obj, needle):
    with pytest.raises(ParseError) as e:
        load_sudokupad(obj)
    assert needle in str(e.value)


def test_meanings_resolve_them():
    obj = grid4(lines=[{"wayPoints": [[0.5, 0.5], [0.5, 1.5]], "color": "#60C060"}],
                cages=[{"cells": [[3, 0], [3, 1]], "value": "7"}],
                overlays=[{"center": [-0.5, 2.5], "text": "3", "fontSize": 20}])
    fp = fp_of(obj, {"#60c060": "dutch whispers", "cage": "killer", "outside": "skyscraper"})
    assert fp["whispers"] == [{"lines": [["R1C1", "R1C2"]], "value": "1"}]
    assert fp["killercage"] == [{"cells": ["R4C1", "R4C2"], "value": "7"}]
    assert fp["skyscraper"] == [{"cell": "R0C3", "value": "3"}]
    fp = fp_of(obj, {"#60C060": "whispers:3", "cage": "ignore", "outside": "ignore"})
    assert fp["whispers"][0]["value"] == "3" and "killercage" not in fp


@pytest.mark.parametrize("bad", [{"#60C060": "wiggle"}, {"green": "renban"},
                                 {"#60C060": "renban:3"}, {"#60C060": 5}])
def test_bad_meanings(bad):
    with pytest.raises(ParseError):
        parse_meanings(bad)


def test_real_payload_counting_circles_from_the_rules_text():
    """A SudokuPad puzzle from Sudoku Maker ("Introduction to Counting Circles", Michael
    Lefkowitz; payload from the Sudoku-Bench README, MIT): its circles mean counting
    circles, which only the rules text says: read as one counting-circles rule, unique."""
    payload = (DATA / "sudokupad_counting_circles.txt").read_text().strip()
    assert load_sudokupad(payload).count_solutions(limit=3) == 1
    p = load_sudokupad(payload, lines={"#FFFFFF": "ignore"})     # without the circles:
    assert p.meta["title"] == "Introduction to Counting Circles"
    assert p.count_solutions(limit=3) == 3                        # not unique


# -- CLI -----------------------------------------------------------------------------------------
def _needs_meaning_link() -> str:
    obj = grid4(lines=[{"wayPoints": [[0.5, 0.5], [0.5, 1.5], [1.5, 1.5]], "color": "#60C060"}])
    obj["cells"][0][0] = {"value": 1}
    obj["cells"][3][3] = {"value": 2}
    obj["cells"][2][2] = {"value": 3}
    return "https://sudokupad.app/scl" + LZ.compressToBase64(json.dumps(obj))


@pytest.mark.parametrize("argv", [
    ["solve"], ["count"], ["hint"], ["graph"], ["render"], ["convert", "--to", "spec"],
    ["explain", "-o", "-"]])
def test_every_command_takes_line_meanings(argv, capsys):
    link = _needs_meaning_link()
    cmd, rest = argv[0], argv[1:]
    assert main([cmd, link, *rest]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--line '#60C060=renban'" in err
    rc = main([cmd, link, *rest, "--line", "#60c060=renban"])
    out, err = capsys.readouterr()
    assert rc in (0, 1) and "error" not in err, err


def test_solve_reports_the_stated_solution(capsys):
    row = next(r for r in ROWS if r["title"] == "Jan. 6, 2024: Region Sum Lines")
    assert main(["solve", row["scl"], "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["stated_solution"] == "agrees" and res["solution"] == row["solution"]
    assert main(["solve", "https://sudokupad.app/" + row["scl"]]) == 0
    assert "(agrees with the stated solution)" in capsys.readouterr().out
    k, obj = decode_sudokupad(row["scl"])
    for cage in obj["cages"]:
        if str(cage.get("value", "")).startswith("solution:"):
            cage["value"] = "solution: " + "1" * 81
    assert main(["solve", json.dumps(obj), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stated_solution"] == "differs"


def test_convert_to_sudokupad_url(capsys, tmp_path):
    src = SOURCES[ROWS[3]["title"]]["fpuzzles_json"]
    f = tmp_path / "p.json"
    f.write_text(json.dumps(src))
    assert main(["convert", str(f), "--to", "sudokupad-url"]) == 0
    url = capsys.readouterr().out.strip()
    assert to_spec(load_sudokupad(url)) == to_spec(load_fpuzzles(src))
    assert to_fpuzzles(load_sudokupad(url)) == to_fpuzzles(load_fpuzzles(src))


def test_batch_of_links_with_a_bad_line(tmp_path, capsys):
    good = ROWS[6]
    f = tmp_path / "links.txt"
    f.write_text("https://sudokupad.app/" + good["scl"] + "\nsclGARBAGE!!\n"
                 + good["scl"] + "\n")
    for workers in ("1", "2"):
        rc = main(["solve", str(f), "--json", "--workers", workers])
        out, err = capsys.readouterr()
        res = [json.loads(x) for x in out.splitlines()]
        assert rc == 1 and [r["status"] for r in res] == ["solved", "error", "solved"]
        assert f"{f}:2" in err and "Traceback" not in err


# -- outside clues f-puzzles has no key for: built after its form (issue 28 item 5) -------------
def _outside_link(text: str, center: list[float]) -> str:
    obj = grid4(overlays=[{"center": center, "text": text, "fontSize": 20}])
    return "https://sudokupad.app/scl" + LZ.compressToBase64(json.dumps(obj))


@pytest.mark.parametrize("meaning, center, text, rule, cell, want", [
    ("frame-sum", [0.5, -0.5], "3", "frame_sum", "r1c1", (1, 2)),       # r1c1 + r1c2 = 3
    ("frame", [-0.5, 1.5], "7", "frame_sum", "r1c2", (3, 4)),          # r1c2 + r2c2 = 7
    ("numbered-room", [0.5, -0.5], "4", "numbered_room", "r1c1", (2, 3, 4)),  # 1: r1c1 = 4
])
def test_outside_clues_built_after_the_fpuzzles_form(meaning, center, text, rule, cell, want):
    p = load_sudokupad(_outside_link(text, center), lines={"outside": meaning})
    rules = [type(b).__name__ for b, _ in p.bundles]
    assert rule in rules
    assert p.propagate().candidates(cell) == want
    with pytest.raises(ParseError, match="only in the rules text"):    # no meaning given
        load_sudokupad(_outside_link(text, center))


def test_outside_meaning_error_lists_the_meanings():
    with pytest.raises(ParseError, match="frame-sum.*numbered-room|numbered-room.*frame-sum"):
        load_sudokupad(_outside_link("3", [0.5, -0.5]), lines={"outside": "wiggle"})
