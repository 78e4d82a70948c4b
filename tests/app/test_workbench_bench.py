"""The workbench benchmark's own bookkeeping (benchmarks/workbench.py): the median of
repeated runs of a call, and the report's counts of calls over twice ISS's time."""
from __future__ import annotations

from typing import Any

from conftest import load_benchmark


def _bench():
    return load_benchmark("workbench", "workbench_bench")


def test_median_run_keeps_the_median_time_and_shows_a_different_answer() -> None:
    wb = _bench()
    runs = [{"status": "ok", "count": 3, "cpu_ms": t} for t in (5.0, 1.0, 9.0)]
    assert wb._median_run(runs)["cpu_ms"] == 5.0
    assert wb._median_run(runs[:2])["cpu_ms"] == 1.0        # even: the lower middle
    odd = [dict(runs[0]), {"status": "ok", "count": 4, "cpu_ms": 2.0}, dict(runs[2])]
    assert wb._median_run(odd)["count"] == 4                 # the odd one out shows
    failed = [{"status": "error", "error": "x"}, dict(runs[0])]
    assert wb._median_run(failed)["status"] == "error"


def _results(pairs: list[tuple[float, float]], repeat: int) -> dict:
    rows = [{"id": f"u{i:03d}", "title": f"t{i}", "solutions": 1, "out": None,
             "calls": {"tc1": {"agree": True, "note": "",
                               "ours": {"cpu_ms": o, "status": "ok"},
                               "svs": {"cpu_ms": 10 * i + 1.0, "status": "ok"},
                               "iss": {"cpu_ms": s, "status": "ok"}}}}
            for i, (o, s) in enumerate(pairs)]
    return {"started": "s", "finished": "f", "ours": "api", "limit": 120.0, "commit": "c",
            "method": "auto", "repeat": repeat, "sets": {"unique": rows}}


def test_summary_counts_calls_over_twice_iss_of_any_size() -> None:
    wb = _bench()
    text = wb.summarise(_results([(3.0, 1.0), (15.0, 10.0), (30.0, 10.0), (1.0, 1.0)], 3))
    row = next(line for line in text.splitlines() if line.startswith("| unique | tc1"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[-3:] == ["1", "2", "0"]      # over 2x and 10 ms; over 2x; over 5 s
    assert "the median of 3 runs" in text
    assert "median of" not in wb.summarise(_results([(1.0, 1.0)], 1))


def test_forget_rules_empties_what_is_kept_by_a_puzzles_rules() -> None:
    from csp.constraints import order
    from sudoku_csp.formats.fpuzzles import read
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    wb = _bench()
    row = [{} for _ in range(4)]
    doc = {"size": 4, "grid": [list(row) for _ in range(4)],
           "thermometer": [{"lines": [["R1C1", "R1C2", "R2C2"]]}]}
    load_fpuzzles(doc).engine()
    assert read._TEMPLATES and order._SPECS
    wb.forget_rules()
    assert not read._TEMPLATES and not order._SPECS


def test_summary_passes_over_a_peer_left_out() -> None:
    """--peers iss: SVS answers "off" on every call; the tables show it as "-" and say it
    was not run, the totals and the counts over ISS stay."""
    wb = _bench()
    res = _results([(3.0, 1.0), (30.0, 10.0)], 1)
    for row in res["sets"]["unique"]:
        row["calls"]["tc1"]["svs"] = {"cpu_ms": None, "status": "off"}
    text = wb.summarise(res)
    row = next(line for line in text.splitlines() if line.startswith("| unique | tc1"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2] == "2" and cells[4] == "-" and cells[6] == "-"   # puzzles, SVS s, / SVS
    assert cells[7] == f"{33.0 / 11.0:.2f}x"                          # ours / ISS (total)
    assert "SVS not run" in text
    off = wb.Off("svs")
    off.start([])
    assert off.call({"op": "tc", "cap": 1}) == {"status": "off", "cpu_ms": None}


def _sets():
    return load_benchmark("make_workbench_sets", "make_workbench_sets_bench")


def test_derived_set_is_held_out_and_the_same_on_every_run() -> None:
    """The derived set (--sets derived): the same 216 edits each run, none of them a puzzle
    of the other sets, each of the three kinds, the wrong givens unsolvable without a house
    repeating a digit (the library reads every one)."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.workbench import count_solutions
    ms = _sets()
    one, two = ms.derived_set(), ms.derived_set()
    assert [(x["id"], x["doc"]) for x in one] == [(x["id"], x["doc"]) for x in two]
    kinds = {x["id"][-1] for x in one}
    assert kinds == {"a", "b", "d"} and len(one) >= 200
    sets = ms.load_sets()
    others = {json_key(it["doc"]) for name in ("unique", "variants") for it in sets[name]}
    assert not others & {json_key(x["doc"]) for x in one}
    assert sets["derived"][0]["id"] == one[0]["id"]
    for x in [x for x in one if x["id"].endswith("d")][:12]:
        p = load_fpuzzles(x["doc"])
        p.initial_state()                           # no ContradictoryGivens
        assert count_solutions(p, limit=1, time_limit=30).count == 0, x["id"]


def json_key(doc: dict) -> str:
    import json
    return json.dumps({k: v for k, v in doc.items() if k != "solution"}, sort_keys=True)


def test_prepare_skips_and_names_an_unknown_id(monkeypatch: Any) -> None:
    """--skip leaves those puzzles out (the whole sets' usual run skips u086); an id of
    --only or --skip that no set asked for stops the run with the id named."""
    import pytest
    wb = _bench()
    sets = {"unique": [{"id": "u001", "doc": {"size": 4}}, {"id": "u002", "doc": {"size": 4}}],
            "classic": [{"id": "c01", "doc": {"size": 4}}]}
    monkeypatch.setattr(wb, "to_iss", lambda doc: "text")
    got = wb.prepare(sets, ["unique", "classic"], None, {"u002"})
    assert [it["id"] for rows in got.values() for it in rows] == ["u001", "c01"]
    got = wb.prepare(sets, ["unique"], {"u002"})
    assert [it["id"] for it in got["unique"]] == ["u002"]
    for only, skip in (({"u009"}, None), (None, {"c01"})):   # c01 is not in "unique"
        with pytest.raises(SystemExit) as e:
            wb.prepare(sets, ["unique"], only, skip)
        assert ("u009" if only else "c01") in str(e.value)


def test_a_capped_walk_at_its_trees_end_goes_on_past_a_dry_stretch(monkeypatch: Any) -> None:
    """csp.cnf_enum.STALL_PROGRESS: the held-out u076a (cap 1) has a dry stretch of 8,000
    decisions at 0.99999 of its tree; the walk goes on to its end (a last candidate's
    first solution comes after it) instead of giving up to the SAT path, with the same
    answer either way."""
    import csp.cnf_enum as ce
    import csp.solutions as sol
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.workbench import true_candidates
    import pytest
    if ce.compiled_kernel() is None:
        pytest.skip("the compiled enumerator is not built (or SUDOKU_CSP_PURE=1)")
    doc = next(x["doc"] for x in _sets().derived_set() if x["id"] == "u076a")
    loops: list[int] = []
    real = sol._sat_loop
    monkeypatch.setattr(sol, "_sat_loop", lambda *a: (loops.append(1), real(*a))[1])
    got = {}
    for progress in (ce.STALL_PROGRESS, 1.0):       # 1.0: every dry stretch gives up
        monkeypatch.setattr(ce, "STALL_PROGRESS", progress)
        res = true_candidates(load_fpuzzles(doc), cap=1)
        assert res.complete
        got[progress] = (res.candidates, len(loops))
    (cands, sat_on), (cands_off, sat_off) = got.values()
    assert cands == cands_off and sat_on == 0 and sat_off == 1
