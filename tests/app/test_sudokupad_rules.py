"""Rules read from their text (issue 28, item 6): a SudokuPad line or circle whose meaning is
only in the rules text gets it from the text when the text names exactly one rule for it
(German and Dutch whispers with their minimum difference, renban, region-sum, between), is
refused naming the rule when the reader cannot build it (run-on renban; parity lines, 10
lines and counting circles are built after the f-puzzles form) or when the text gives it
two meanings; ``--line`` wins over the text; what was inferred is said on stderr, in ``solve --json`` / ``convert --to spec`` and in
``puzzle.meta["inferred"]``.

The payloads are built as SudokuPad stores them: lines with ``wayPoints`` / ``color`` /
``thickness``, circles as rounded underlays, the rules text in a value-only ``rules:`` cage
(or ``metadata.rules``), encoded as ``scl`` links (LZString base64 of the JSON)."""
from __future__ import annotations

import json
import re

import lzstring
import pytest

from csp.errors import ParseError
from sudoku_csp.cli import main
from sudoku_csp.formats.spec import from_spec
from sudoku_csp.formats.sudokupad import load_sudokupad
from sudoku_csp.formats.sudokupad_rules import UNSUPPORTED, RulesText, colour_words
from techniques import StepSolver
from variants.outside import line_from_clue, rossini

from conftest import DATA

LZ = lzstring.LZString()


def box_regions(n: int, h: int, w: int) -> list[list[list[int]]]:
    return [[[r, c] for r in range(br, br + h) for c in range(bc, bc + w)]
            for br in range(0, n, h) for bc in range(0, n, w)]


def puzzle(rules: str, lines: list[dict], n: int = 9, givens: dict[str, int] | None = None,
           underlays: list[dict] | None = None, in_metadata: bool = False) -> dict:
    """A SudokuPad puzzle JSON: an n x n grid with boxes, the lines, the givens
    (``{"r1c1": 5}``) and the rules text (a ``rules:`` cage, or ``metadata.rules``)."""
    h = {9: 3, 6: 2, 4: 2}[n]
    obj: dict = {"cells": [[{} for _ in range(n)] for _ in range(n)],
                 "regions": box_regions(n, h, n // h), "lines": lines,
                 "cages": [{"value": "title: Rules text test"}, {"value": "author: tests"}]}
    if in_metadata:
        obj["metadata"] = {"rules": rules}
    else:
        obj["cages"].append({"value": "rules: " + rules})
    for name, v in (givens or {}).items():
        r, c = map(int, re.findall(r"[0-9]+", name))
        obj["cells"][r - 1][c - 1] = {"value": v}
    if underlays:
        obj["underlays"] = underlays
    return obj


def line(colour: str, *cells: str, thickness: float = 9.6) -> dict:
    pts = [[int(r) - 0.5, int(c) - 0.5] for r, c in (re.findall(r"[0-9]+", x) for x in cells)]
    return {"wayPoints": pts, "color": colour, "thickness": thickness}


def circle(cell: str, bg: str = "#FFFFFF") -> dict:
    r, c = map(int, re.findall(r"[0-9]+", cell))
    return {"center": [r - 0.5, c - 0.5], "width": 0.8, "height": 0.8, "rounded": True,
            "backgroundColor": bg, "borderColor": "#000000", "thickness": 2}


def scl(obj: dict) -> str:
    return "https://sudokupad.app/scl" + LZ.compressToBase64(json.dumps(obj))


def marks(p, cell: str) -> tuple[int, ...]:
    return p.propagate().candidates(cell)


def bundle_names(p) -> list[str]:
    return sorted(type(b).__name__ for b, _ in p.bundles)


# -- whispers: German and Dutch, and the difference the text gives -----------------------------
GERMAN = ("Normal sudoku rules apply.\nGERMAN WHISPERS\nAdjacent digits along a green line "
          "must have a difference of at least 5.")
DUTCH = ("Normal sudoku rules apply. Dutch Whispers: adjacent digits along an orange line "
         "must differ by at least 4.")
ISSUE = ("Normal sudoku rules apply. Two cells connected by a line (either grey or green) "
         "must have a difference of five or more.")


@pytest.mark.parametrize("rules, colour, meaning, given, expect", [
    (GERMAN, "#60C060", "whispers:5", 1, (7, 8, 9)),     # 6 leaves r2c2 only 1
    (GERMAN, "#60C060", "whispers:5", 4, (9,)),
    (ISSUE, "#4CAF50", "whispers:5", 3, (8, 9)),
    (ISSUE, "#A0A0A0", "whispers:5", 3, (8, 9)),           # the grey of "grey or green"
    (DUTCH, "#E88A2A", "dutch-whispers:4", 5, (1, 9)),
    (DUTCH, "#E88A2A", "dutch-whispers:4", 3, (7, 8, 9)),
    ("Along a green line, adjacent digits differ by 3 or more.", "#33CC33", "whispers:3", 5,
     (1, 2, 8, 9)),
])
def test_whispers_from_the_text(rules, colour, meaning, given, expect):
    p = load_sudokupad(scl(puzzle(rules, [line(colour, "r1c1", "r1c2", "r2c2")],
                                  givens={"r1c1": given})))
    assert bundle_names(p) == ["classic", "whispers"]
    assert [r["meaning"] for r in p.meta["inferred"]] == [meaning]
    assert p.meta["inferred"][0]["colour"] == colour.upper()
    assert marks(p, "r1c2") == expect                     # the minimum difference holds


def test_german_whispers_on_a_6x6_takes_the_size_default():
    """"German whispers" with no number: ceil(N/2), 3 on a 6x6 (as the conventions)."""
    p = load_sudokupad(scl(puzzle("German whispers: green lines.", [line("#60C060", "r1c1",
                                                                         "r1c2")], n=6,
                                  givens={"r1c1": 3})))
    assert p.meta["inferred"][0]["meaning"] == "whispers" and marks(p, "r1c2") == (6,)


# -- renban, region-sum, between ----------------------------------------------------------------
@pytest.mark.parametrize("text, colour, cells, givens, bundle, meaning, cell, left", [
    ("Normal sudoku rules apply. Digits along a purple line form a set of consecutive "
     "digits in any order.", "#A050D0", ("r1c1", "r1c2", "r1c3"), {"r1c1": 1, "r1c3": 3},
     "renban", "renban", "r1c2", (2,)),
    ("Normal sudoku rules apply. Box borders divide each blue line into segments; "
     "digits along a blue line have the same sum in each box the line passes through.",
     "#3070F0", ("r3c2", "r3c3", "r3c4"), {"r3c4": 3, "r3c2": 1},
     "region_sum_line", "region-sum", "r3c3", (2,)),           # 1 + r3c3 = 3
], ids=["renban", "region-sum"])
def test_line_rule_from_the_text(text, colour, cells, givens, bundle, meaning, cell, left):
    p = load_sudokupad(scl(puzzle(text, [line(colour, *cells)], givens=givens)))
    assert bundle_names(p) == ["classic", bundle]
    assert p.meta["inferred"][0]["meaning"] == meaning
    assert marks(p, cell) == left


def test_between_from_the_text_takes_its_end_circles():
    text = ("Normal sudoku rules apply. Digits on a grey line must be strictly between the "
            "digits in the circles at its ends.")
    p = load_sudokupad(scl(puzzle(text, [line("#999999", "r1c1", "r1c2", "r1c3", thickness=3)],
                                  givens={"r1c1": 2, "r1c3": 5},
                                  underlays=[circle("r1c1"), circle("r1c3")])))
    assert bundle_names(p) == ["between_line", "classic"]
    assert p.meta["inferred"][0]["meaning"] == "between"
    assert marks(p, "r1c2") == (3, 4)


def test_metadata_rules_and_several_colours():
    text = ("Renban: each pink line holds consecutive digits in any order. German whispers: "
            "adjacent digits along a green line differ by at least 5.")
    p = load_sudokupad(scl(puzzle(text, [line("#E070E0", "r1c1", "r1c2"),
                                         line("#70D070", "r5c5", "r5c6")],
                                  givens={"r1c1": 5, "r5c5": 2}, in_metadata=True)))
    assert bundle_names(p) == ["classic", "renban", "whispers"]
    assert {r["colour"]: r["meaning"] for r in p.meta["inferred"]} == {
        "#E070E0": "renban", "#70D070": "whispers:5"}
    assert marks(p, "r1c2") == (4, 6) and marks(p, "r5c6") == (7, 8, 9)


def test_thermometers_in_the_text_are_no_candidate_for_a_line_without_a_bulb():
    text = ("Normal sudoku rules apply. Digits along each thermometer must increase from the "
            "bulb end. Digits along a line read the same forwards and backwards.")
    p = load_sudokupad(scl(puzzle(text, [line("#888888", "r1c3", "r1c4", "r2c4")],
                                  givens={"r1c3": 4})))
    assert bundle_names(p) == ["classic", "palindrome"] and marks(p, "r2c4") == (4,)


# -- rules f-puzzles has no key for: built after its form; the one not modelled: refused ----
@pytest.mark.parametrize("text, rule, bundle", [
    ("Normal sudoku rules apply.\nPARITY LINES\nAdjacent digits along a red line alternate "
     "between odd and even.", "parity-line", "parity_line"),
    ("Normal sudoku rules apply. 10 lines: each red line can be divided into one or more "
     "non-overlapping segments that each sum to 10.", "10-line", "ten_line"),
])
def test_parity_and_ten_lines_are_read_from_the_text(text, rule, bundle):
    obj = puzzle(text, [line("#E03030", "r1c1", "r1c2", "r1c3")], givens={"r1c1": 3})
    p = load_sudokupad(scl(obj))
    assert bundle_names(p) == ["classic", bundle]
    assert [r["meaning"] for r in p.meta["inferred"]] == [rule]
    want = {"parity_line": (2, 4, 6, 8), "ten_line": (1, 2, 5, 6)}[bundle]  # 3+a+b = 10, no 3
    assert marks(p, "r1c2") == want
    p = load_sudokupad(scl(obj), lines={"#E03030": "ignore"})      # --line still wins
    assert bundle_names(p) == ["classic"] and "inferred" not in p.meta


def test_run_on_renban_is_refused_naming_it():
    text = ("Normal sudoku rules apply. Along each red line, every group of three contiguous "
            "digits must form a set of consecutive integers, in any order.")
    obj = puzzle(text, [line("#E03030", "r1c1", "r1c2", "r1c3")])
    with pytest.raises(ParseError, match=r"line 1 \(colour #E03030.*the rules text says it "
                                         r"is a run-on renban line \(\".*\"\), a rule "
                                         "sudoku-csp cannot model"):
        load_sudokupad(scl(obj))
    p = load_sudokupad(scl(obj), lines={"#E03030": "ignore"})      # --line still wins
    assert bundle_names(p) == ["classic"] and "inferred" not in p.meta


def test_counting_circles_are_read_from_the_text():
    """The real Sudoku Maker payload ("Introduction to Counting Circles", Michael Lefkowitz;
    from the Sudoku-Bench README, MIT): its rules text names counting circles, so its circles
    become one ``counting_circles`` rule (built after the f-puzzles form, which has no key
    for it), said in ``inferred``; brute force and logic solve it to the same grid."""
    payload = (DATA / "sudokupad_counting_circles.txt").read_text().strip()
    p = load_sudokupad(payload)
    assert "counting_circles" in bundle_names(p)
    assert [r["meaning"] for r in p.meta["inferred"]] == ["counting-circles"]
    assert p.count_solutions(2, method="sat") == 1
    brute = p.solve()
    logic = StepSolver(verify=brute.solution).solve(load_sudokupad(payload), time_limit=120)
    assert logic.status == "solved" and list(logic.state.placed) == list(brute.solution)
    with pytest.raises(ParseError, match="a circle with no arrow"):       # without the text
        obj = json.loads(json.dumps(puzzle("Normal sudoku rules apply.", [])))
        obj["underlays"] = [{"center": [0.5, 0.5], "width": 0.8, "height": 0.8,
                             "rounded": True, "backgroundColor": "#FFFFFF"}]
        load_sudokupad(scl(obj))


# -- ambiguous or silent texts: the old refusal, with the reason ---------------------------------
def test_two_rules_for_one_colour_are_refused():
    text = "Green lines are renban lines. Adjacent digits along a green line differ by at least 5."
    obj = puzzle(text, [line("#60C060", "r1c1", "r1c2")])
    with pytest.raises(ParseError) as e:
        load_sudokupad(scl(obj))
    msg = str(e.value)
    assert "the rules text gives a green line two meanings: renban" in msg
    assert "whispers:5" in msg and "--line '#60C060=renban'" in msg and "\n" not in msg
    p = load_sudokupad(scl(obj), lines={"#60c060": "whispers:5"})     # the override decides
    assert bundle_names(p) == ["classic", "whispers"] and "inferred" not in p.meta


def test_two_differences_for_one_colour_are_refused():
    text = ("Green lines are German whispers: adjacent digits differ by at least 5. "
            "Adjacent digits along green lines differ by at least 4.")
    with pytest.raises(ParseError, match="two meanings: whispers:5 .* and whispers:4"):
        load_sudokupad(scl(puzzle(text, [line("#60C060", "r1c1", "r1c2")])))


@pytest.mark.parametrize("text", [
    "Normal sudoku rules apply. Digits along a red line form a set of consecutive digits.",
    "Normal sudoku rules apply. Killer cages: digits sum to the total in the corner.",
    "Digits in cages sum to the same total.",        # a description of no line: not region-sum
    "",
])
def test_no_rule_for_the_colour_keeps_the_old_refusal(text):
    with pytest.raises(ParseError, match=r"line 1 \(colour #60C060.*its meaning is only in "
                                         r"the rules text; say what it is"):
        load_sudokupad(scl(puzzle(text, [line("#60C060", "r1c1", "r1c2")])))


def test_conventions_win_over_the_text():
    """A line in a colour with a fixed meaning (the userscript's renban pink) is not
    re-read from the text."""
    text = "Adjacent digits along a pink line differ by at least 5."
    p = load_sudokupad(scl(puzzle(text, [line("#F067F0", "r1c1", "r1c2")])))
    assert bundle_names(p) == ["classic", "renban"] and "inferred" not in p.meta


def test_colour_words():
    assert {"green"} <= colour_words("#60C060") and "blue" not in colour_words("#60C060")
    assert {"pink", "purple", "magenta"} <= colour_words("#F067F0")
    assert "blue" in colour_words("#2ECBFF") and "grey" in colour_words("#CFCFCF")
    assert colour_words("#000000") == {"black"} and "white" in colour_words("#FFFFFF")


def test_statements_take_their_heading():
    t = RulesText("RENBAN\nDigits on purple lines.\n\nTHERMOS\nDigits increase from the bulb.")
    assert t.meaning("#9040C0", "line").kind == "renban"


# -- the CLI: a note on stderr, `inferred` in the JSON -------------------------------------------
SMALL_TEXT = ("Normal sudoku rules apply. Digits along a green line form a set of consecutive "
              "digits in any order.")


def small_link() -> str:
    obj = puzzle(SMALL_TEXT, [line("#60C060", "r4c4", "r3c4", "r3c3")], n=4,
                 givens={"r2c2": 2, "r1c1": 1, "r4c1": 4})
    return scl(obj)


def test_cli_notes_what_it_read_and_json_says_it(capsys):
    link = small_link()
    assert main(["solve", link]) == 0
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("sudoku-csp: note: read from the rules "
                                                   "text: line #60C060 = renban (")
    assert out.startswith("solved ")
    assert main(["solve", link, "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["inferred"] == [{"element": "line", "colour": "#60C060", "meaning": "renban",
                                "text": SMALL_TEXT.split(". ")[1].rstrip(".")}]
    assert main(["convert", link, "--to", "spec"]) == 0
    spec = json.loads(capsys.readouterr().out)
    assert spec["inferred"] == res["inferred"]
    assert [r["rule"] for r in spec["rules"]] == ["classic", "renban"]
    assert "inferred" not in from_spec(spec).meta        # the spec holds the rule itself


def test_cli_override_wins_and_says_nothing(capsys):
    assert main(["solve", small_link(), "--line", "#60c060=ignore"]) == 1   # not unique
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("multiple")


def test_cli_refusal_is_one_line_exit_2(capsys):
    text = ("Normal sudoku rules apply. Along each red line, every group of three contiguous "
            "digits must form a set of consecutive integers, in any order.")
    assert main(["solve", scl(puzzle(text, [line("#E03030", "r1c1", "r1c2", "r1c3")]))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run-on renban" in err and "cannot model" in err


def test_colourless_statements_leave_out_the_rules_given_a_colour():
    text = ("Normal sudoku rules apply. Between lines: on the grey lines, every cell must be "
            "strictly between the circled ends. Entropic lines: any three sequential cells "
            "along an entropic line hold a low, a middle and a high digit.")
    p = load_sudokupad(scl(puzzle(text, [line("#F0A070", "r1c1", "r1c2", "r1c3")])))
    assert bundle_names(p) == ["classic", "entropic_line"]
    with pytest.raises(ParseError, match="its meaning is only in the rules text"):
        load_sudokupad(scl(puzzle("Grey lines are palindromes. Digits along green lines "
                                  "differ by at least 5.", [line("#E03030", "r1c1", "r1c2")])))


# -- the CC BY set's rules texts against the lines f-puzzles typed ------------------------------
def test_cc_by_rules_texts_never_contradict_the_typed_lines():
    """The 136 CC BY f-puzzles carry typed lines (SudokuPad draws them in the userscript's
    colours) and their rules texts: read from the text alone, each such line's colour gets
    the typed rule (or the same rule: Dutch whispers as whispers with difference 4), or no
    meaning / a refusal; never another rule. Measured: 30 of the 35 typed line colours
    (per puzzle) get their rule; the others are refused or get none."""
    from sudoku_csp.formats.sudokupad import CONVENTIONS
    from sudoku_csp.formats.sudokupad_rules import Ambiguous, Found
    seen, agree, total = set(), 0, 0
    for row in map(json.loads, open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")):
        fp = row["fpuzzles_json"]
        fp = json.loads(fp) if isinstance(fp, str) else fp
        if row["title"] in seen:
            continue
        seen.add(row["title"])
        text, n = RulesText(str(fp.get("ruleset", ""))), fp["size"]
        typed = {(x.get("outlineC") or "").upper()[:7] for x in fp.get("line", [])}
        for col in sorted(typed):
            kind = CONVENTIONS.get((col, None))
            if kind is None:
                continue
            total += 1
            got = text.meaning(col, "line", frozenset({"thermo", "slow-thermo"}))
            if isinstance(got, Found) and got.kind not in UNSUPPORTED:
                same = got.kind == kind or (kind, got.kind, got.value) == (
                    "dutch-whispers", "whispers", (n + 1) // 2 - 1)
                assert same, (row["title"], col, kind, got)
                agree += 1
            else:
                assert got is None or isinstance(got, (Found, Ambiguous))
    assert (agree, total) == (30, 35)


# -- Rossini: arrows outside the grid, read when the rules text names them ---------------------
ROSSINI = ("Normal sudoku rules apply. Rossini: an arrow outside the grid means the first "
           "three digits in that row or column, read from the arrow's side, increase in the "
           "direction of the arrow.")
ALL_GIVEN = " All possible arrows are given."


#: the grid and givens of the Rossini puzzle in tests/variants/test_new_rules.py
ROSSINI_GRID = [int(ch) for ch in
                "534678912672195348198342567859761423426853791713924856961537284287419635345286179"]
ROSSINI_GIVENS = "....7....6.21.................7..........3....1...4..6.6............9............"
ROSSINI_SIDES = [(0, k) for k in range(1, 10)] + [(10, k) for k in range(1, 10)] + \
    [(k, 0) for k in range(1, 10)] + [(k, 10) for k in range(1, 10)]


def rossini_arrow(r: int, c: int, inward: bool, glyph: bool = False) -> dict:
    """A SudokuPad arrow in the outside cell of ``(r, c)`` (1-based with 0 / 10 outside, as
    ``variants.outside.rossini``), pointing into the grid or out of it; as a text glyph
    (an overlay) when ``glyph``."""
    cr, cc = r - 0.5, c - 0.5
    dr = 1 if r == 0 else -1 if r == 10 else 0
    dc = 1 if c == 0 else -1 if c == 10 else 0
    if not inward:
        dr, dc = -dr, -dc
    if glyph:
        text = {(0, 1): "\u2192", (0, -1): "<", (1, 0): "v", (-1, 0): "\u2191"}[(dr, dc)]
        return {"center": [cr, cc], "width": 0.6, "height": 0.6, "text": text,
                "fontSize": 24, "color": "#000000"}
    return {"wayPoints": [[cr - 0.3 * dr, cc - 0.3 * dc], [cr + 0.3 * dr, cc + 0.3 * dc]],
            "color": "#000000", "thickness": 2, "headLength": 0.3}


@pytest.mark.parametrize("glyph", [False, True], ids=["arrows", "glyphs"])
def test_rossini_arrows_are_read_from_the_text(glyph):
    """The Rossini puzzle of the rule's own tests (its arrows read off a known grid, every
    arrow given) drawn as SudokuPad draws it: arrows (or arrow glyphs) outside the grid, the
    rules text naming Rossini and saying every arrow is given. It loads as the same rules
    (``inferred`` says so), is unique, and search and logic solve it to the grid."""
    clues = []
    for r, c in ROSSINI_SIDES:
        a, b, d = [ROSSINI_GRID[x] for x in line_from_clue(9, r, c)[:3]]
        if a < b < d or a > b > d:
            clues.append(rossini(r, c, "increasing" if a < b else "decreasing"))
    givens = {f"r{i // 9 + 1}c{i % 9 + 1}": int(ch)
              for i, ch in enumerate(ROSSINI_GIVENS) if ch != "."}
    G = ROSSINI_GRID
    obj = puzzle(ROSSINI + ALL_GIVEN, [], givens=givens)
    drawn = [rossini_arrow(c.row, c.col, c.order == "increasing", glyph) for c in clues]
    obj["overlays" if glyph else "arrows"] = drawn
    p = load_sudokupad(scl(obj))
    assert bundle_names(p) == ["classic"] + ["rossini"] * len(clues) + ["rossini_negative"]
    read = {(b.row, b.col, b.order) for b, _ in p.bundles if type(b).__name__ == "rossini"}
    assert read == {(c.row, c.col, c.order) for c in clues}
    assert [r["meaning"] for r in p.meta["inferred"]] == ["rossini", "rossini-negative"]
    assert p.count_solutions(2, method="sat") == 1
    assert list(p.solve().solution) == G
    logic = StepSolver(verify=G).solve(load_sudokupad(scl(obj)), time_limit=120)
    assert logic.status == "solved" and list(logic.state.placed) == G


def test_rossini_without_every_arrow_given_reads_only_the_arrows():
    obj = puzzle(ROSSINI, [], givens={"r1c1": 5})
    obj["arrows"] = [rossini_arrow(1, 0, True), rossini_arrow(0, 1, False)]
    p = load_sudokupad(scl(obj))
    assert bundle_names(p) == ["classic", "rossini", "rossini"]
    assert marks(p, "r1c2") == (6, 7, 8) and marks(p, "r2c1") == (2, 3, 4)


@pytest.mark.parametrize("text, arrow, why", [
    ("Normal sudoku rules apply.", rossini_arrow(1, 0, True),
     "meaning the rules text does not give"),
    (ROSSINI, {"wayPoints": [[0.5, -0.5], [0.3, -0.5]], "color": "#000000"},
     "points neither along its row or column nor along a diagonal"),
])
def test_rossini_arrows_the_text_does_not_explain_are_refused(text, arrow, why):
    obj = puzzle(text, [])
    obj["arrows"] = [arrow]
    with pytest.raises(ParseError, match=why):
        load_sudokupad(scl(obj))
