"""f-puzzles export: import -> export -> import gives the same model; URL form; errors; CLI."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from csp import Grid, Less, Puzzle
from csp.search import search
from variants import (anti_king, arrow, black_dot, classic, clone, digits,
                      disjoint_groups, double_arrow, even, extra_region, indexer, killer_cage,
                      less_than, little_killer, lockout, maximum, minimum, negative,
                      non_consecutive, odd, palindrome, quadruple, renban, sandwich,
                      skyscraper, slow_thermo, sum_dot, thermo, whispers, white_dot, windoku,
                      x_sum)
from sudoku_csp.formats.fpuzzles import ExportError, decode_payload, load_fpuzzles, to_fpuzzles, to_fpuzzles_url
from variants.multigrid import samurai
from variants.regions import jigsaw_grid
from sudoku_csp.formats.spec import to_spec

from conftest import ROOT

CORPUS = [json.loads(ln) for ln in (ROOT / "tests/data/fpuzzles_cc_by.jsonl").open()]


def test_corpus_round_trips():
    assert len(CORPUS) == 136
    keys = set()
    for entry in CORPUS:
        src = entry["fpuzzles_json"]
        p = load_fpuzzles(src)
        out = to_fpuzzles(p)
        keys |= set(out)
        q = load_fpuzzles(out)
        assert to_spec(q) == to_spec(p), entry["title"]
        assert to_fpuzzles(q) == out                        # export is stable
        # what the corpus' own JSON states survives: givens and the stated solution
        assert q.given == p.given and out.get("solution") == src.get("solution")
    # the corpus exercises most rule keys
    assert {"thermometer", "killercage", "arrow", "difference", "ratio", "xv", "negative",
            "littlekillersum", "clone", "rowindexer", "skyscraper", "lockout"} <= keys


@pytest.mark.parametrize("sample", [
    pytest.param(8, id="every-8th"),
    pytest.param(1, id="all", marks=pytest.mark.slow)])
def test_corpus_urls_decode_back(sample):
    """The URL form (LZString, pure Python: ~50 ms a puzzle) decodes to the same JSON."""
    for entry in CORPUS[::sample]:
        p = load_fpuzzles(entry["fpuzzles_json"])
        url = to_fpuzzles_url(p)
        assert url.startswith("https://www.f-puzzles.com/?load=")
        assert decode_payload(url) == to_fpuzzles(p)
        assert to_spec(load_fpuzzles(url)) == to_spec(p)


def _solutions(p: Puzzle) -> list[list[int]]:
    return sorted(search(p.engine(), p.initial_state().cand, limit=100_000)[0])


def _every_rule_puzzle() -> Puzzle:
    """A 6x6 puzzle built in Python with a bundle of every kind f-puzzles holds, each
    chosen (first fitting parameters) so that one fixed grid ``S`` satisfies them all."""
    S = Puzzle(Grid(6)).use(classic()).solve(first=True).solution
    assert S is not None

    def fits(b) -> bool:
        return Puzzle(Grid(6)).use(classic(), b).check_solution(S)

    def first(*cands):
        return next(b for b in cands if fits(b))

    v = lambda name: S[Grid(6).cell(name)]  # noqa: E731
    cells = [f"r{r}c{c}" for r in range(1, 7) for c in range(1, 7)]
    rules = [
        killer_cage(["r1c1", "r1c2"], v("r1c1") + v("r1c2")), killer_cage(["r6c5", "r6c6"]),
        first(*(little_killer(["r1c6"], t) for t in range(1, 7))),
        first(*(little_killer(["r2c1", "r3c2", "r4c3", "r5c4", "r6c5"], t) for t in range(40))),
        first(*(arrow([a], [b, c]) for a in cells for b, c in (("r2c3", "r3c3"), ("r5c5", "r5c6"))
                if a not in (b, c))),
        first(*(double_arrow([a, "r5c1", b]) for a in cells for b in cells if a != b != "r5c1"
                and a != "r5c1")),
        first(thermo("r3c1", "r3c2"), thermo("r3c2", "r3c1")),
        first(*(slow_thermo(*x) for x in (("r5c2", "r5c3", "r5c4"), ("r5c4", "r5c3", "r5c2"),
                                          ("r5c2", "r6c2"), ("r6c2", "r5c2")))),
        first(*(palindrome([a, "r6c3", b]) for a in cells for b in cells if a != b)),
        first(*(renban([a, b]) for a in cells for b in cells if a != b)),
        first(*(whispers(["r2c5", "r3c5"], d) for d in range(5, 0, -1))),
        first(*(lockout([a, "r1c4", b], d) for d in (3, 2) for a in cells for b in cells
                if a != b)),
        white_dot("r2c6", "r3c6", abs(v("r2c6") - v("r3c6"))),
        first(*(black_dot(a, b, 2) for a in cells for b in cells if a != b)),
        sum_dot("r3c4", "r3c5", v("r3c4") + v("r3c5")),
        first(*(sum_dot(a, b, 10) for a in cells for b in cells if a != b)),
        first(odd("r2c4"), even("r2c4")), first(odd("r5c5"), even("r5c5")),
        first(*(minimum(c) for c in cells)), first(*(maximum(c) for c in cells)),
        digits("r1c6", sorted({v("r1c6"), 1, 2})),
        quadruple(["r4c2", "r4c3", "r5c2", "r5c3"], [v("r4c2")]),
        first(*(clone([a], [b]) for a in cells for b in cells if a != b)),
        first(*(sandwich(0, 4, t) for t in range(25))),
        first(*(x_sum(3, 7, t) for t in range(25))),
        first(*(skyscraper(7, 2, t) for t in range(1, 7))),
        first(less_than("r4c4", "r4c3"), less_than("r4c3", "r4c4")),
        extra_region([c for c in cells if v(c) == 1]),
        first(*(indexer(c, "row") for c in cells)),
    ]
    p = Puzzle(Grid(6)).use(classic(), *rules)
    assert p.check_solution(S)
    return p


@pytest.mark.parametrize("make", [
    lambda: Puzzle(4).use(classic(), anti_king(), non_consecutive(), disjoint_groups()),
    lambda: Puzzle(4).use(classic(), white_dot("r1c1", "r1c2"), negative("white", [("r1c1", "r1c2")])),
    lambda: Puzzle(4).use(classic(), sum_dot("r1c1", "r1c2", 5), sum_dot("r2c1", "r2c2", 5),
                          negative("v", [("r1c1", "r1c2"), ("r2c1", "r2c2")]),
                          negative("x", [("r1c1", "r1c2"), ("r2c1", "r2c2")])),
    lambda: Puzzle(Grid(4, box=False)).use(classic(boxes=False)),
    lambda: Puzzle(Grid(5)).use(classic(boxes=False), x_sum(0, 1, 3)).givens("12345" + "." * 20),
    lambda: Puzzle(4).use(classic(), negative("black")),
    lambda: Puzzle(4).use(classic(), maximum("r1c1"), skyscraper(0, 1, 2), x_sum(1, 0, 4)),
    lambda: Puzzle(4).use(classic(), indexer("r1c1", "row"), indexer("r2c2", "column"),
                          indexer("r3c3", "box")),
    lambda: Puzzle(jigsaw_grid("1122" "1122" "3344" "3434")).use(classic()),
])
def test_small_models_round_trip(make):
    p = make()
    q = load_fpuzzles(to_fpuzzles(p))
    assert _solutions(q) == _solutions(p)


def test_windoku_is_written_as_its_windows():
    p = Puzzle(9).use(classic(), windoku()).givens(
        "..9.6.7.." + ".5......1" + "." * 63)
    d = to_fpuzzles(p)
    assert len(d["extraregion"]) == 4 and all(len(e["cells"]) == 9 for e in d["extraregion"])
    q = load_fpuzzles(d)
    assert sorted(h.cells for h in q.houses()) == sorted(h.cells for h in p.houses())


def test_negative_rule_without_marks_is_imported():
    p = Puzzle(4).use(classic(), negative("black"))
    d = to_fpuzzles(p)
    assert d["negative"] == ["ratio"]
    del d["ratio"]            # f-puzzles may omit the empty list
    assert _solutions(load_fpuzzles(d)) == _solutions(p) != _solutions(Puzzle(4).use(classic()))


@pytest.mark.parametrize("make, match", [
    (lambda: Puzzle(4).use(classic(), sum_dot("r1c1", "r1c2", 5), sum_dot("r2c1", "r2c2", 5),
                           negative("v", [("r1c1", "r1c2")]), negative("x", [("r1c1", "r1c2")])),
     "negative v"),
    (lambda: samurai(), "multi-grid"),
    (lambda: Puzzle(4).use(classic()).add(Less(0, 1)), "without a rule bundle"),
    (lambda: Puzzle(9).use(classic(boxes=False)), "boxes"),
    (lambda: Puzzle(4).use(classic(), negative("white", value=2)), "negative white"),
    (lambda: Puzzle(4).use(classic(), white_dot("r1c1", "r1c2"), negative("white")),
     "negative white"),
    (lambda: Puzzle(4).use(classic(), little_killer(["r2c2", "r3c3"], 5)), "little_killer"),
])
def test_inexpressible_rules_raise(make, match):
    with pytest.raises(ExportError, match=match):
        to_fpuzzles(make())


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudoku_csp.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_cli_convert(tmp_path):
    src = tmp_path / "p.json"
    src.write_text(json.dumps(CORPUS[0]["fpuzzles_json"]))
    r = _cli("convert", str(src), "--to", "fpuzzles-url")
    assert r.returncode == 0
    url = r.stdout.strip()
    r = _cli("convert", url, "--to", "spec")
    spec = json.loads(r.stdout)
    assert spec == to_spec(load_fpuzzles(CORPUS[0]["fpuzzles_json"]))
    line = "." * 80 + "1"
    assert _cli("convert", line, "--to", "line").stdout.strip() == line
    r = _cli("convert", "." * 405, "--to", "fpuzzles")
    assert r.returncode == 2 and "multi-grid" in r.stderr and len(r.stderr.splitlines()) == 1
    assert _cli("convert", line, "--to", "png").returncode == 2


def test_every_public_rule_has_an_export_mapping():
    """Each rule class of the catalogue has its own f-puzzles mapping (one that writes it,
    or one that refuses it with a reason); a new rule without one fails here by name."""
    from sudoku_csp.formats.fpuzzles import export_rule
    from sudoku_csp.formats.spec import RULES
    fallback = export_rule.dispatch(object)
    missing = sorted(name for name, cls in RULES.items() if export_rule.dispatch(cls) is fallback)
    assert missing == []
    assert len(RULES) >= 40


@pytest.mark.parametrize("make, match", [
    (lambda: Puzzle(6).use(classic(), __import__("variants").diagonal_non_consecutive()),
     "diagonal non-consecutive"),
    (lambda: Puzzle(6).use(classic(), __import__("variants").knight_non_consecutive()),
     "knight non-consecutive"),
    (lambda: Puzzle(6).use(classic(), __import__("variants").multi_sum_cage(["r1c1", "r1c2"],
                                                                            [3, 4])), "one total"),
    (lambda: Puzzle(6).use(classic(), __import__("variants").digital_root_cage(["r1c1", "r1c2"],
                                                                               3)), "one total"),
    (lambda: Puzzle(4).use(classic(), maximum("r1c1"), maximum("r1c2")), "one maximum list"),
])
def test_refusing_mappings_give_a_reason(make, match):
    with pytest.raises(ExportError, match=match):
        to_fpuzzles(make())


def test_unregistered_bundle_is_named():
    from sudoku_csp.formats.fpuzzles.write import _Out, export_rule

    class shiny:
        def apply(self, p):
            pass
    with pytest.raises(ExportError, match="shiny: no f-puzzles mapping"):
        export_rule(shiny(), _Out(Puzzle(4)))
