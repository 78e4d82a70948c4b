"""f-puzzles import: the 136-puzzle CC BY set loads from JSON and from its LZString payload,
and brute force gives each stated solution (every puzzle, in the default run)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from csp.errors import ParseError
from sudoku_csp.formats.fpuzzles import decode_payload, load_fpuzzles
from sudoku_csp.formats.loader import puzzle_from_text

from conftest import DATA

ROWS = [json.loads(x) for x in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")]
IDS = [f"{i}-{r['title'][:30]}" for i, r in enumerate(ROWS)]
# The stated solution of "Executive Function" breaks its own region-sum rule on every one of
# its six lines (e.g. the two-box line r4c6-r5c7 holds 6 and 3), so no correct solver can
# reproduce it; checked below, with the one grid that keeps every rule.
DATA_ERRORS = {"Executive Function"}


def test_set_size():
    assert len(ROWS) == 136


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_loads_and_stated_solution_satisfies_model(row):
    p = load_fpuzzles(row["fpuzzles_json"])
    sol = [int(ch, 36) for ch in row["solution"]]
    assert p.check_solution(sol) is (row["title"] not in DATA_ERRORS)


def test_executive_function_data_error():
    row = next(r for r in ROWS if r["title"] == "Executive Function")
    lines = row["fpuzzles_json"]["regionsumline"]
    assert ["R4C6", "R5C7"] in [ln["lines"][0] for ln in lines]
    s = row["solution"]
    assert (s[3 * 9 + 5], s[4 * 9 + 6]) == ("6", "3")   # one cell per box: must be equal
    p = load_fpuzzles(row["fpuzzles_json"])
    stated = [int(ch) for ch in s]
    broken = {c.name for c in p.constraints
              if c.cells and not c.check(*(stated[x] for x in c.cells))}
    assert broken and all(name.startswith("region-sum line") for name in broken)
    assert len({name.split()[-1] for name in broken}) >= len(lines)
    res = p.solve(time_limit=60)            # the grid that keeps every rule, and only one
    assert res.status == "solved" and p.check_solution(res.solution)


@pytest.mark.parametrize("i", [0, 17, 50, 100])
def test_payload_equals_json(i):
    row = ROWS[i]
    assert decode_payload(row["fpuzzles_lzstring_base64"]) == row["fpuzzles_json"]
    url = "https://www.f-puzzles.com/?load=" + row["fpuzzles_lzstring_base64"]
    p = puzzle_from_text(url)
    assert p.solve(time_limit=60).solution == [int(ch) for ch in row["solution"]]


def test_unknown_key_is_named():
    obj = dict(ROWS[0]["fpuzzles_json"], frobnicate=[{"cells": ["R1C1"]}])
    with pytest.raises(ParseError, match="frobnicate"):
        load_fpuzzles(obj)


def test_cosmetic_keys_ignored():
    obj = dict(ROWS[1]["fpuzzles_json"], text=[{"cells": ["R1C1"], "value": "hi"}],
               circle=[{"cells": ["R1C1"]}], disabledlogic=["x"])
    assert load_fpuzzles(obj).solve(time_limit=60).status == "solved"


@pytest.mark.parametrize("bad, needle", [
    ("{not json", "JSON"),
    ("N4IgzglgXgpiBcBOANCA", "payload"),
    ('{"size": 9}', "grid"),
    ('{"size": 9, "grid": [], "killercage": [{"cells": ["R1C1"], "value": "x"}]}', "grid"),
])
def test_bad_fpuzzles(bad, needle):
    with pytest.raises(ParseError, match=needle):
        load_fpuzzles(bad)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_brute_force_gives_stated_solution(row):
    if row["title"] in DATA_ERRORS:
        pytest.skip("stated solution violates the puzzle's own rules (see above)")
    p = load_fpuzzles(row["fpuzzles_json"])
    res = p.solve(time_limit=120)
    assert res.status == "solved"
    assert "".join(map(str, res.solution)) == row["solution"]


def test_negative_sum_dots_forbid_the_marked_sums_elsewhere():
    """``negative: ["sum"]``: like XV, no unmarked adjacent pair sums to a marked value."""
    grid = [[{} for _ in range(4)] for _ in range(4)]
    grid[1][0] = {"value": 1, "given": True}
    obj = {"size": 4, "grid": grid, "sum": [{"cells": ["R1C1", "R1C2"], "value": "5"}]}
    plain = load_fpuzzles(json.dumps(obj)).pencilmarks()
    neg = load_fpuzzles(json.dumps({**obj, "negative": ["sum"]})).pencilmarks()
    r2c2 = 5
    assert plain.cand[r2c2] >> 4 & 1          # 1 + 4 = 5 is allowed without the rule
    assert not neg.cand[r2c2] >> 4 & 1        # and forbidden with it


# -- what a run imports: the reader alone, the writer only to write ---------------------------
def _formats_imported(*argv: str) -> set[str]:
    """The ``sudoku_csp.formats`` modules a fresh ``sudoku-csp ARGV`` run imports (read from
    ``python -X importtime``)."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "sudoku_csp", *argv],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-800:]
    names = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    return {m for m in names if m.startswith("sudoku_csp.formats")}


#: a 4x4 with one solution (4312 2143 1234 3421) and a thermometer it keeps
LINE4 = ".3.....3.2.....1"
SMALL = {"size": 4, "grid": [[{"value": int(ch), "given": True} if ch != "." else {}
                              for ch in LINE4[r * 4:r * 4 + 4]] for r in range(4)],
         "thermometer": [{"lines": [["R1C3", "R1C4"]]}]}


def test_classic_line_solve_imports_no_fpuzzles_module():
    mods = _formats_imported("solve", LINE4)
    assert "sudoku_csp.formats.loader" in mods           # the probe sees the formats
    assert not {m for m in mods if "fpuzzles" in m}


def test_reading_fpuzzles_imports_the_reader_not_the_writer():
    import lzstring
    url = "https://www.f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(
        json.dumps(SMALL))
    for argv in (("solve", url), ("convert", url, "--to", "spec")):
        mods = _formats_imported(*argv)
        assert "sudoku_csp.formats.fpuzzles.read" in mods
        assert "sudoku_csp.formats.fpuzzles.write" not in mods, argv
    assert "sudoku_csp.formats.fpuzzles.write" in _formats_imported(
        "convert", url, "--to", "fpuzzles")



# -- the rules kept between reads (load_fpuzzles' templates) --------------------------------

def _view(p):
    """What a read gives, rule by rule: the grid's houses, each constraint's kind, name,
    cells and parameters (its attributes but the memos), the givens, meta and bundles."""
    def plain(v, depth=0):
        if callable(v) and hasattr(v, "__qualname__"):
            return ("fn", v.__qualname__)
        if isinstance(v, (list, tuple)):
            return tuple(plain(x, depth) for x in v)
        if isinstance(v, dict):
            return tuple(sorted((repr(k), plain(x, depth)) for k, x in v.items()))
        if isinstance(v, (int, str, float, bool, type(None))) or depth >= 3:
            return repr(v)
        return (type(v).__name__, attrs(v, depth + 1))

    def attrs(c, depth=0):
        names = list(getattr(c, "__dict__", ())) + [
            k for cls in type(c).__mro__ for k in getattr(cls, "__slots__", ())]
        return tuple(sorted((k, plain(getattr(c, k, None), depth)) for k in set(names)
                            if "memo" not in k and k != "_tables"))
    return ([h.cells for h in p.grid.houses], p.name, p.meta, p.given,
            [(type(c).__name__, c.name, tuple(c.cells), attrs(c)) for c in p.constraints],
            [(type(b).__name__, k) for b, k in p.bundles],
            [[c.name for c in cs] for cs in p.bundle_constraints])


def _fresh(doc):
    from sudoku_csp.formats.fpuzzles import read
    read.forget_templates()
    return load_fpuzzles(doc)


def test_kept_rules_give_the_same_puzzle_with_its_own_givens():
    """Every puzzle of the CC BY set read twice (the second read takes the kept rules):
    the same puzzle, new lists (adding to one leaves the next read alone), the document's
    own givens."""
    import copy
    for row in ROWS:
        doc = row["fpuzzles_json"]
        first = _fresh(doc)
        again = load_fpuzzles(doc)
        assert _view(again) == _view(first)
        assert again.constraints is not first.constraints
        assert again.bundle_constraints[0] is not first.bundle_constraints[0]
        other = copy.deepcopy(doc)             # other digits, the same rules
        for r, line in enumerate(other["grid"]):
            for c, cell in enumerate(line):
                if cell.get("given"):
                    del cell["given"], cell["value"]
                    break
        assert _view(load_fpuzzles(other)) == _view(_fresh(other))


def test_a_changed_rule_never_gets_kept_rules():
    """One change to a document's rules (a line's cell, a cage total, a region, a given
    pencil mark, a new rule key, the title) reads as that document read from scratch, the
    first document's rules kept beside it; a bad given reads as the same error."""
    import copy
    from sudoku_csp.formats.fpuzzles import read
    base = {"size": 4, "title": "t",
            "grid": [[{"value": 1, "given": True}, {}, {}, {}], [{}, {}, {}, {}],
                     [{}, {}, {}, {}], [{}, {}, {}, {"value": 2, "given": True}]],
            "thermometer": [{"lines": [["R4C1", "R4C2", "R4C3"]]}],
            "killercage": [{"cells": ["R1C3", "R1C4"], "value": "7"}]}

    def changed():
        d = copy.deepcopy(base)
        d["thermometer"][0]["lines"][0][2] = "R3C3"
        yield d
        d = copy.deepcopy(base)
        d["killercage"][0]["value"] = "5"
        yield d
        d = copy.deepcopy(base)
        d["grid"][2][2]["givenPencilMarks"] = [1, 2]
        yield d
        d = copy.deepcopy(base)
        d["title"] = "u"
        yield d
        d = copy.deepcopy(base)
        d["diagonal+"] = True
        yield d
        d = copy.deepcopy(base)
        for r in range(4):
            for c in range(4):
                d["grid"][r][c]["region"] = (r // 2) * 2 + (c // 2 + r) % 2
        yield d
        d = copy.deepcopy(base)
        d["grid"][3][3]["region"] = None         # r4c4 in no region
        yield d
        d = copy.deepcopy(base)
        d["grid"][1][1]["c"] = "#FF0000"         # a colour: the same rules
        d["grid"][1][2]["givenPencilMarks"] = None
        yield d
        d = copy.deepcopy(base)
        d["grid"][0][0]["value"] = 3             # another digit: the same rules
        yield d
    want0 = _view(_fresh(base))
    for d in changed():
        want = _view(_fresh(d))
        load_fpuzzles(base)                      # base kept, then the changed one
        assert _view(load_fpuzzles(d)) == want
        assert _view(load_fpuzzles(d)) == want   # kept itself now
        assert _view(load_fpuzzles(base)) == want0
    bad = copy.deepcopy(base)
    bad["grid"][1][1] = {"value": 7, "given": True}
    with pytest.raises(ParseError) as fresh_error:
        _fresh(bad)
    load_fpuzzles(base)
    with pytest.raises(ParseError) as kept_error:
        load_fpuzzles(bad)
    assert str(kept_error.value) == str(fresh_error.value)
    for i in range(read.TEMPLATES_SIZE + 5):     # bounded
        d = copy.deepcopy(base)
        d["title"] = f"t{i}"
        load_fpuzzles(d)
    assert len(read._TEMPLATES) <= read.TEMPLATES_SIZE


def test_kept_rules_share_engines_only_when_no_propagator_keeps_history():
    """Puzzles read with the same rules share one engine when every propagator is
    history-free, and each gets the root candidates (and true candidates) of an engine
    of its own; a puzzle with a rule added builds its own."""
    import copy

    from conftest import workbench_sets
    from csp.sat import _root_propagate
    from csp.solutions import candidate_counts
    sets = workbench_sets()
    shared = alone = 0
    for item in sets["unique"][::3] + sets["variants"][::2]:
        doc = item["doc"]
        other = copy.deepcopy(doc)             # a given less: other digits, the same rules
        for line in other["grid"]:
            hit = next((cell for cell in line if cell.get("given")), None)
            if hit is not None:
                del hit["given"], hit["value"]
                break
        first = _fresh(doc)
        eng = first.engine()
        q = load_fpuzzles(other)
        free = all(type(p).__dict__.get("history_free") for p in eng.props)
        assert (q.engine() is eng) is free, item["id"]
        shared += free
        alone += not free
        own = _fresh(other)
        cand = list(q.initial_state().cand)
        assert _root_propagate(q.engine(), cand) == _root_propagate(own.engine(), cand)
        if free:
            got = candidate_counts(q, cap=2, time_limit=20)
            want = candidate_counts(own, cap=2, time_limit=20)
            assert (got.counts, got.complete) == (want.counts, want.complete), item["id"]
        more = load_fpuzzles(doc)              # a rule added: an engine of its own
        a, b = [c for c in range(more.grid.size) if c not in more.given][:2]
        assert more.add_less(a, b).engine() is not eng
    assert shared > 10 and alone > 0
