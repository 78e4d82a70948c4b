"""The setter's report (`sudoku-csp report`, sudoku_csp.workbench.report): necessity of each
element against independent counts, clue suggestions against counts with the clue added, the
break-in and bottlenecks against the step solver itself, soundness of every step it shows,
the HTML page, the command line and its time on a 30-element setter puzzle."""
from __future__ import annotations

import csv
import json
import resource

import pytest

from csp.step import Candidate
from techniques import StepSolver, registry
from techniques.registry import LEVELS
from variants import classic_puzzle, killer_cage, odd
from sudoku_csp.cli import main
from sudoku_csp.explain import states_before
from sudoku_csp.workbench.elements import ElementSat, elements, without
from sudoku_csp.workbench.report import EASY, report

from conftest import DATA, fpuzzle


def _qqwing(i: int) -> tuple[str, list[int]]:
    with open(DATA / "qqwing_expert.solutions.csv", newline="") as f:
        row = list(csv.DictReader(f))[i]
    return row["puzzle"], [int(ch) for ch in row["solution"]]


def _cand(text: str) -> Candidate:
    """'r5c8=4' or 'r5c8<>4' on a 9x9 grid."""
    cell, d = text.replace("<>", "=").split("=")
    r, c = cell[1:].split("c")
    return Candidate((int(r) - 1) * 9 + int(c) - 1, int(d))


def _assert_sound(step: dict, solution: list[int]) -> None:
    """No placement differs from the solution and no elimination removes its digit."""
    assert step["placements"] or step["eliminations"]
    for pl in map(_cand, step["placements"]):
        assert solution[pl.cell] == pl.digit, step["text"]
    for el in map(_cand, step["eliminations"]):
        assert solution[el.cell] != el.digit, step["text"]


def _count(p, limit: int = 3) -> int:
    """The model's own count (depth-first search handing over to its SAT search): not the
    report's selector encoding."""
    return p.count_solutions(limit=limit)


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


@pytest.fixture(scope="module")
def two_solutions():
    """A qqwing puzzle with one given removed so that it has exactly two solutions: its
    line, the two solutions, and the cell removed."""
    line, sol = _qqwing(0)
    for c, ch in enumerate(line):
        if ch == ".":
            continue
        short = line[:c] + "." + line[c + 1:]
        res = classic_puzzle(short).solve()
        if res.status == "multiple" and _count(classic_puzzle(short)) == 2:
            return short, res.solutions, c
    pytest.fail("no given of the puzzle leaves two solutions")


def _fixing_cage(line: str, s1: list[int], s2: list[int]) -> killer_cage:
    """A two-cell cage of two open neighbours whose total in ``s1`` differs from ``s2``'s."""
    a = next(c for c in range(81) if c % 9 < 8 and line[c] == "." and line[c + 1] == "."
             and s1[c] + s1[c + 1] != s2[c] + s2[c + 1])
    return killer_cage([f"r{a // 9 + 1}c{a % 9 + 1}", f"r{a // 9 + 1}c{a % 9 + 2}"],
                       s1[a] + s1[a + 1])


# -- necessity -------------------------------------------------------------------------------
def test_duplicated_cage_redundant_alone_needed_together(two_solutions):
    """A cage that tells the two solutions apart, twice: neither copy is needed (the other
    stays), though without both the puzzle has two solutions again."""
    line, (s1, s2), _cell = two_solutions
    cage = _fixing_cage(line, s1, s2)
    p = classic_puzzle(line).use(cage, killer_cage(cage.cells, cage.total))
    r = report(p)
    assert r.status == "unique" and r.solution == s1
    cages = [e for e in r.elements if e.kind == "killer cage"]
    assert len(cages) == 2 and [e.needed for e in cages] == [False, False]
    assert all(e.verdict in ("redundant", "decorative") for e in cages)
    assert _count(without(p, [cages[0].element])) == 1
    assert _count(without(p, [c.element for c in cages])) == 2
    # every element's verdict agrees with the model's own count without it
    for e in r.elements:
        assert e.needed == (_count(without(p, [e.element])) >= 2), e.label
    flagged = set(r.to_dict()["redundant"]) | set(r.to_dict()["decorative"])
    assert {e.label for e in cages} <= flagged


def test_given_implied_by_the_rest():
    line, sol = _qqwing(2)
    cell = next(c for c, ch in enumerate(line) if ch == ".")
    extra = line[:cell] + str(sol[cell]) + line[cell + 1:]
    p = classic_puzzle(extra)
    r = report(p)
    assert r.status == "unique"
    name = f"given r{cell // 9 + 1}c{cell % 9 + 1}={sol[cell]}"
    e = next(e for e in r.elements if e.label == name)
    assert e.needed is False and e.verdict in ("redundant", "decorative")
    assert _count(without(p, [e.element])) == 1
    assert e.logic_without is not None and e.logic_without["status"] == "solved"
    # the puzzle it came from needs every one of its givens: so do these
    for other in r.elements:
        if other is not e and other.needed is False:
            assert _count(without(p, [other.element])) == 1


def test_setter_puzzle_necessity_matches_counts():
    """A 30-element f-puzzles setter puzzle (XV and Kropki dots, givens): each element's
    verdict against the model's own count of the puzzle rebuilt without it."""
    p, sol = fpuzzle("August 3: XV / Kropki Pairs")
    els = elements(p)
    assert len(els) == 30
    with ElementSat(p, els) as sat:
        sols = sat.solutions(limit=2)
        assert sols == [sol]
        for e in els:
            needed = bool(sat.solutions(off=[e.index], limit=1, differ=sol))
            assert needed == (_count(without(p, [e])) >= 2), e.label


def test_decorative_element():
    """An odd circle on a given odd digit removes nothing and no step names it:
    decorative. (A cage over two givens is not: the set techniques read it.)"""
    line, sol = _qqwing(2)
    cell = next(c for c, ch in enumerate(line) if ch != "." and sol[c] % 2)
    p = classic_puzzle(line).use(odd(f"r{cell // 9 + 1}c{cell % 9 + 1}"))
    r = report(p)
    circle = next(e for e in r.elements if e.kind == "odd")
    assert (circle.needed, circle.uses, circle.verdict) == (False, 0, "decorative")
    # without it, the path replays whole: each step found again by its own technique
    assert circle.logic_without["status"] == "solved"
    assert circle.logic_without["same_steps"] == r.logic["steps"]
    assert r.to_dict()["decorative"] == [circle.label]


def test_unsolvable_names_the_conflict():
    p = classic_puzzle("1" + "." * 80).use(killer_cage(["r1c2", "r1c3"], 3),
                                           killer_cage(["r1c2", "r1c3"], 5))
    r = report(p)
    assert r.status == "unsolvable" and r.count == 0
    assert r.conflict == ["cage 3 at r1c2", "cage 5 at r1c2"]


# -- clue suggestions ----------------------------------------------------------------------------
def test_one_clue_fixes_it(two_solutions):
    line, (s1, s2), cell = two_solutions
    p = classic_puzzle(line)
    r = report(p)
    assert (r.status, r.count, r.at_least) == ("multiple", 2, False)
    best = r.suggestions[0]
    assert best.kind == "given" and best.unique
    assert _count(classic_puzzle(line).givens({best.clue.split("=")[0]:
                                                int(best.clue.split("=")[1])})) == 1
    # the given that was removed is one of the clues that fix it
    assert any(s.clue == f"r{cell // 9 + 1}c{cell % 9 + 1}={s1[cell]}" or
               s.clue == f"r{cell // 9 + 1}c{cell % 9 + 1}={s2[cell]}"
               for s in r.suggestions if s.unique) or len([s for s in r.suggestions
                                                           if s.kind == "given"]) == 8


def test_suggestion_counts_are_exact():
    """A puzzle with more solutions: every suggestion's count is the count of the puzzle
    with that clue added, and they come best first."""
    line, _sol = _qqwing(2)
    givens = [c for c, ch in enumerate(line) if ch != "."]
    short = list(line)
    for c in (givens[5], givens[8]):      # without these two it has 57 solutions
        short[c] = "."
    short = "".join(short)
    total = _count(classic_puzzle(short), 1000)
    assert 3 <= total < 1000
    r = report(classic_puzzle(short), without_logic=False)
    assert r.status == "multiple" and r.count == total and not r.at_least
    assert r.suggestions
    by_kind: dict[str, list[int]] = {}
    for s in r.suggestions:
        q = classic_puzzle(short)
        if s.kind == "given":
            ref, d = s.clue.split("=")
            q.givens({ref: int(d)})
        else:
            q.use(s.rule)
        assert _count(q, 1000) == s.count, s.clue
        assert s.unique == (s.count == 1)
        by_kind.setdefault("given" if s.kind == "given" else "mark", []).append(s.count)
    assert all(v == sorted(v) for v in by_kind.values())


def test_suggestions_past_the_count_limit():
    """Past the count limit the givens are ranked by the true candidates' per-candidate
    counts (capped at the limit): exact below it, at least the limit at it."""
    line, _sol = _qqwing(2)
    givens = [c for c, ch in enumerate(line) if ch != "."]
    short = list(line)
    for c in (givens[5], givens[8]):      # 57 solutions
        short[c] = "."
    short = "".join(short)
    r = report(classic_puzzle(short), count_limit=20, without_logic=False)
    assert (r.count, r.at_least) == (20, True)
    assert r.suggestions and all(s.kind == "given" for s in r.suggestions)
    for s in r.suggestions:
        ref, d = s.clue.split("=")
        n = _count(classic_puzzle(short).givens({ref: int(d)}), 20)
        assert (n, n >= 20) == (s.count, s.at_least), s.clue
    assert r.suggestions[0].unique


def test_count_limit_says_at_least():
    r = report(classic_puzzle("1" + "." * 80), count_limit=5, without_logic=False,
               time_limit=30)
    d = r.to_dict()
    assert (d["count"], d["at_least"]) == (5, True)


# -- logic: verdict, break-in, bottlenecks ------------------------------------------------------
def test_break_in_is_the_solvers_own(tmp_path):
    """The break-in of a qqwing puzzle (a W-Wing) is the first step of the default solver
    beyond the easy level; every step the report shows is sound; the other steps at that
    point are real (each changes that position) and come easiest first."""
    line, sol = _qqwing(2)
    p = classic_puzzle(line)
    res = StepSolver().solve(p)
    first = next(i for i, s in enumerate(res.steps) if registry.get(s.technique).level != EASY)
    r = report(p)
    assert r.logic["status"] == "solved" and r.logic["steps"] == len(res.steps)
    assert r.logic["hardest"] == res.rating.hardest
    b = r.break_in
    assert b["index"] == first and b["step"]["text"] == res.steps[first].explain(2)
    assert b["step"]["technique"] == "w_wing"
    state = list(states_before(p.pencilmarks(), res.steps))[first]
    alts = b["alternatives"]
    assert b["step"]["text"] in [a["text"] for a in alts]
    for a in [b["step"], *b["steps"], *alts, *r.bottlenecks]:
        _assert_sound(a, sol)
    for a in alts:
        assert any(state.cand[c.cell] >> c.digit & 1 and not state.placed[c.cell]
                   for c in map(_cand, a["eliminations"] + a["placements"]))
    keys = [(LEVELS.index(a["level"]), a["score"]) for a in alts]
    assert keys == sorted(keys)
    assert all(a["level"] != EASY for a in alts)


def test_bottlenecks_have_one_step_of_the_level():
    """A bottleneck is a point of the path where the techniques of the hardest level find
    one deduction: every technique of that level, listed by the solver, agrees."""
    line, sol = _qqwing(23)
    p = classic_puzzle(line)
    r = report(p, without_logic=False)
    assert r.bottlenecks and r.bottlenecks_checked >= len(r.bottlenecks)
    res = StepSolver().solve(p)
    states = list(states_before(p.pencilmarks(), res.steps))
    level = r.logic["hardest_level"]
    techs = [t for t in registry.select("default") if t.level == level]
    for b in r.bottlenecks:
        _assert_sound(b, sol)
        assert b["level"] == level
        solver = StepSolver(unique=True)
        effects = {frozenset(s.placements) | frozenset(s.eliminations)
                   for t in techs for s in solver.find_all(states[b["index"]], t.name)}
        assert len(effects) == 1, b["text"]


def test_uses_follow_the_named_rules():
    """Every rule a step of the logic path names is counted as used."""
    p, _sol = fpuzzle("August 9, 2023: Thermo")
    r = report(p, without_logic=False)
    named = {h for s in r.result.steps for h in s.houses}
    for e in r.elements:
        if e.element.names & named:
            assert e.uses > 0, e.label


# -- the page and the command line -------------------------------------------------------------------
def test_html_marks_and_links(tmp_path, two_solutions):
    line, (s1, s2), _cell = two_solutions
    cage = _fixing_cage(line, s1, s2)
    p = classic_puzzle(line).use(cage, killer_cage(cage.cells, cage.total))
    r = report(p)
    assert r.status == "unique"
    page = tmp_path / "rep.html"
    other = r.write_html(page)
    text = page.read_text()
    assert other == str(tmp_path / "rep.explain.html")
    assert "href='rep.explain.html'" in text
    assert (tmp_path / "rep.explain.html").read_text().startswith("<!DOCTYPE html>")
    flagged = len(r.verdicts("redundant") + r.verdicts("decorative"))
    assert flagged >= 2
    # each flagged element with few cells is outlined and numbered in the picture
    assert text.count("class=\"mark-badge\"") == sum(
        1 for e in r.elements if e.verdict in ("redundant", "decorative"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_json_and_exit_codes(capsys, tmp_path, two_solutions):
    line, _sols, _cell = two_solutions
    rc, out, err = run(capsys, "report", _qqwing(2)[0], "--json", "--progress", "off")
    d = json.loads(out)
    assert rc == 0 and err == ""
    assert d["status"] == "unique" and d["logic"]["status"] == "solved"
    assert {"count", "at_least", "suggestions", "break_in", "bottlenecks", "elements",
            "redundant", "decorative", "complete", "notes"} <= set(d)
    assert all({"label", "needed", "used", "verdict"} <= set(e) for e in d["elements"])
    rc, out, err = run(capsys, "report", line, "--progress", "on", "-o",
                       str(tmp_path / "r.html"), "--no-without")
    assert rc == 1 and out.startswith("9x9 puzzle") and "Solutions: 2" in out
    assert "report: counting solutions" in err and "report: logic solve" in err
    assert "wrote" in err
    assert (tmp_path / "r.html").exists() and (tmp_path / "r.explain.html").exists()


@pytest.mark.parametrize("argv, message", [
    (["report", "1" + "." * 15, "-o", "x.svg"], "the report is HTML"),
    (["report", "1" + "." * 15, "--count-limit", "0"], "--count-limit"),
    (["report", "11" + "." * 14], "given twice"),
])
def test_cli_bad_input(capsys, argv, message):
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    assert err.startswith("sudoku-csp: error:") and message in err and err.count("\n") == 1


def test_thirty_elements_within_thirty_seconds():
    """The goal of issue 25: the report on a 9x9 setter puzzle with 30 rule elements in
    under 30 s of CPU (this one, with its 12 thermometers and 18 givens, takes about 1 s)."""
    p, sol = fpuzzle("August 9, 2023: Thermo")
    t0 = _cpu()
    r = report(p)
    spent = _cpu() - t0
    assert len(r.elements) == 30 and r.complete
    assert r.solution == sol and r.logic["status"] == "solved"
    assert spent < 30, spent


@pytest.mark.parametrize("kwargs", [{"count_limit": 0}, {"time_limit": -1},
                                    {"time_limit": float("nan")}, {"logic_limit": 0}])
def test_api_refuses_bad_arguments(kwargs):
    from csp.errors import InvalidArgument
    with pytest.raises(InvalidArgument):
        report(classic_puzzle("1" + "." * 15), **kwargs)


def test_logic_solve_without_proves_not_needed(monkeypatch):
    """When the SAT questions run out of time, a logic solve without the element, with no
    technique that assumes a unique solution, that places every digit proves it is not
    needed: checked here by taking the SAT answers away and against the model's count.
    The phase's budgets are wall-clock (a report is interactive): widened here, so that a
    loaded machine cannot starve the solves this test is about."""
    import sudoku_csp.workbench.report as R
    from sudoku_csp.workbench.report import _logic_without
    monkeypatch.setattr(R, "WITHOUT_SECONDS", 600.0)
    line, sol = _qqwing(2)
    cell = next(c for c, ch in enumerate(line) if ch == ".")
    p = classic_puzzle(line[:cell] + str(sol[cell]) + line[cell + 1:])
    r = report(p, without_logic=False)
    r.result.time_ms = 30_000.0         # each solve's cap: twice the full solve's time
    # the given added above (not needed) and three that are: a solve without each of the
    # 26 was half a minute of the default run
    added = f"given {p.grid.name(cell)}={sol[cell]}"
    r.elements = sorted(r.elements, key=lambda e: e.label != added)[:4]
    assert r.elements[0].label == added
    for e in r.elements:
        e.needed = None
    _logic_without(r, "default", r.result, None, lambda *a: None)
    proved = [e for e in r.elements if e.needed is False]
    assert r.elements[0] in proved and r.proved_by_logic == len(proved)
    for e in proved:
        assert e.logic_without["status"] == "solved"
        assert _count(without(p, [e.element])) == 1, e.label


@pytest.mark.parametrize("extra", [0.0, 600.0])
def test_the_last_necessity_pass_gets_what_the_bounded_phases_left(monkeypatch, extra):
    """The phases beyond the count and the logic solve share EXTRA_SECONDS: with nothing
    left of it, the necessity questions that the first pass left open stay open (and the
    report says so); with time left, the last pass decides them. The first pass is given
    no time here, so that every question is left to the last one."""
    import sudoku_csp.workbench.report as R
    monkeypatch.setattr(R, "NECESSITY_SECONDS", 0.0)
    monkeypatch.setattr(R, "EXTRA_SECONDS", extra)
    line, _sol = _qqwing(2)
    p = classic_puzzle(line)
    r = report(p, without_logic=False)
    assert r.status == "unique" and r.elements
    open_ = [e for e in r.elements if e.needed is None]
    if extra:
        assert not open_ and not any("necessity" in n for n in r.notes)
        # the givens of a minimal-looking qqwing puzzle: each verdict as the model counts
        for e in r.elements[:5]:
            assert e.needed == (_count(without(p, [e.element])) >= 2), e.label
    else:
        assert len(open_) == len(r.elements)
        assert f"necessity not decided in time for {len(open_)} elements" in r.notes


def test_time_limit_bounds_the_encoding():
    """A big grid's encoding takes longer than a short limit: the report stops there with
    status ``limit`` and says why (the encoding ran past the limit once: a 1 s limit on a
    35x35 report took 2.4 s), and ``ElementSat`` raises ``TimeLimitExceeded`` itself."""
    import gc
    import time

    from csp.errors import TimeLimitExceeded
    p = classic_puzzle("." * 1225)      # its encoding alone: 1.3 s or more
    # the call's own CPU time: in a test worker that has run hundreds of tests, a full
    # collection of what they left alive (0.4 s in CI) can fall into any call
    gc.collect()
    gc.disable()
    try:
        t0 = time.thread_time()
        rep = report(p, time_limit=0.02)
        spent = time.thread_time() - t0
    finally:
        gc.enable()
    assert spent < 0.8, spent          # 0.02-0.04 s here
    assert rep.status == "limit" and rep.count == 0
    assert any("encoded" in note for note in rep.notes), rep.notes
    with pytest.raises(TimeLimitExceeded):
        ElementSat(p, deadline=time.perf_counter())
    with ElementSat(classic_puzzle("." * 16), deadline=time.perf_counter() + 60) as sat:
        assert len(sat.solutions(limit=3)) == 3
