"""`sudoku-csp why` and sudoku_csp.workbench.why: a false candidate's refutation replays
step by step (each step found again by its technique, a rule's own step checked against the
rule by brute force) and ends in a contradiction; a true candidate's count is the count of
the puzzle with it as a given; marks, pictures and bad input."""
from __future__ import annotations

import csv
import itertools
import json

import pytest

from csp.bits import digits_of
from csp.events import Contradiction
from csp.io import write_pencilmarks
from csp.step import Candidate, Step
from techniques import StepSolver
from techniques.loop import apply_step
from variants import classic_puzzle
from sudoku_csp.cli import main
from sudoku_csp.workbench.why import parse_candidate, why

from conftest import DATA, fpuzzle


def _qqwing(i: int) -> tuple[str, list[int]]:
    with open(DATA / "qqwing_expert.solutions.csv", newline="") as f:
        row = list(csv.DictReader(f))[i]
    return row["puzzle"], [int(ch) for ch in row["solution"]]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _rule_step_sound(state, step: Step) -> bool:
    """A ``constraint`` step: each candidate it removes has no support in its rule, by
    trying every filling of the rule's cells from the candidates (cells of one row,
    column or box holding different digits, as the engine's sums know)."""
    p = state.puzzle
    cons = [c for c in p.constraints if c.name in step.houses]
    assert cons, step.houses
    for cell, d in step.eliminations:
        for con in cons:
            if cell not in con.cells:
                continue
            cells = list(dict.fromkeys(con.cells))
            doms = [digits_of(1 << state.placed[x] if state.placed[x] else state.cand[x])
                    for x in cells]
            assert len(list(itertools.product(*doms))) < 200_000
            pairs = [(i, j) for i in range(len(cells)) for j in range(i)
                     if any(cells[i] in h.cells and cells[j] in h.cells
                            for h in p.grid.houses)]

            def fits(vals: tuple[int, ...]) -> bool:
                at = dict(zip(cells, vals))
                return (all(vals[i] != vals[j] for i, j in pairs)
                        and con.check(*(at[x] for x in con.cells)))
            if not any(fits(vals) for vals in itertools.product(*doms)
                       if vals[cells.index(cell)] == d):
                break
        else:
            return False
    return True


def _replay(w) -> None:
    """The refutation from the start: the assumption, then each step found again by its own
    technique where it stands (or, for a rule's own step, checked against the rule), and
    the last one (or the position after it) shows the contradiction."""
    st = w.start.copy()
    c, d = w.candidate
    try:
        apply_step(st, Step("assume", placements=(Candidate(c, d),)))
    except Contradiction:         # the assumption alone empties a cell
        assert not w.steps
        return
    solver = StepSolver()
    for i, step in enumerate(w.steps):
        want = {x for x in step.placements if not st.placed[x.cell]} | {
            x for x in step.eliminations if st.cand[x.cell] >> x.digit & 1}
        assert want, step.explain(2)
        if step.technique == "constraint":
            assert _rule_step_sound(st, step), step.explain(2)
        else:
            found = solver.find_all(st, step.technique)
            assert any(want <= set(s.placements) | set(s.eliminations) for s in found), \
                step.explain(2)
        try:
            apply_step(st, step)
        except Contradiction:
            assert i == len(w.steps) - 1, "the contradiction comes at the last step"
            return
    # no step failed: the position shows it (a cell without candidates, a row, column or
    # box with no place for a digit, or a rule whose cells are all placed and break it)
    empty = any(not st.placed[x] and not st.cand[x] for x in range(st.grid.size))
    missing = any(not any(st.cand[x] >> d & 1 for x in h.cells)
                  for h in st.grid.houses for d in range(1, st.grid.n + 1))
    broken = any(all(st.placed[x] for x in con.cells) and not con.check(
        *(st.placed[x] for x in con.cells)) for con in st.puzzle.constraints if con.cells)
    assert empty or missing or broken, w.contradiction


@pytest.mark.parametrize("index", [0, 2, 21])
def test_false_candidates_refuted_soundly(index):
    line, sol = _qqwing(index)
    p = classic_puzzle(line)
    st = p.pencilmarks()
    false = [(c, d) for c in range(81) if not st.placed[c]
             for d in digits_of(st.cand[c]) if d != sol[c]]
    for c, d in false[::max(1, len(false) // 6)][:6]:
        w = why(p, (c, d))
        assert w.status == "false" and w.count == 0
        assert w.refuted and w.logic == "refuted" and w.contradiction
        assert len(w.steps) <= w.searched
        _replay(w)


@pytest.mark.parametrize("title", ["August 9, 2023: Thermo", "The Initials",
                                   "November 13, 2023: Arrow"])
def test_variant_refutation_sound(title):
    """Variant puzzles from their start: the rules' own steps (thermometers, little
    killers, dots, quadruples) among the singles; on the arrow puzzle some refutations end
    with an arrow whose cells are all placed and do not add up."""
    p, sol = fpuzzle(title)
    st = p.pencilmarks()
    false = [(c, d) for c in range(81) if not st.placed[c]
             for d in digits_of(st.cand[c]) if d != sol[c]]
    techniques = set()
    for c, d in false[::max(1, len(false) // 4)][:4]:
        w = why(p, (c, d))
        assert w.status == "false" and w.refuted
        _replay(w)
        techniques.update(s.technique for s in w.steps)
    assert title != "The Initials" or "constraint" in techniques


def test_shortened_is_shorter_and_not_when_asked():
    line, sol = _qqwing(0)
    p = classic_puzzle(line)
    st = p.pencilmarks()
    lengths = []
    for c in range(81):
        if st.placed[c]:
            continue
        for d in digits_of(st.cand[c]):
            if d != sol[c]:
                full = why(p, (c, d), shorten=False)
                short = why(p, (c, d))
                assert len(short.steps) <= len(full.steps) <= full.searched
                lengths.append((len(full.steps), len(short.steps)))
        if len(lengths) >= 8:
            break
    assert any(a > b for a, b in lengths)


def test_true_candidate_count_matches():
    """On a puzzle with several solutions: the count is that of the puzzle with the
    candidate as one more given (both capped)."""
    with open(DATA / "multi_solution_1000.txt") as f:
        line = next(l.strip() for l in f if l.strip() and not l.startswith("#"))
    p = classic_puzzle(line)
    sols = p.solve().solutions
    c = next(x for x in range(81) if sols[0][x] != sols[1][x])
    for d in (sols[0][c], sols[1][c]):
        w = why(p, (c, d), cap=50)
        ref = classic_puzzle(line).givens({c: d}).count_solutions(limit=50)
        assert (w.status, w.count) == ("true", ref) and ref >= 1
        assert w.at_least == (ref >= 50)
        assert w.to_dict()["count"] == ref


def test_marks(capsys, tmp_path):
    """From a partly solved grid: a candidate the marks removed is not one there; a false
    one is refuted from the marks' position; a true one counts the marks' solutions."""
    line, sol = _qqwing(2)
    p = classic_puzzle(line)
    run_ = StepSolver().start(p)
    for _ in range(12):
        next(run_)
    state = run_.state
    marks = tmp_path / "marks.txt"
    marks.write_text(write_pencilmarks(state))
    start = p.pencilmarks()
    gone = next((c, d) for c in range(81) for d in digits_of(start.cand[c])
                if not start.placed[c] and not state.cand[c] >> d & 1 and not state.placed[c])
    name = lambda c, d: f"r{c // 9 + 1}c{c % 9 + 1}={d}"  # noqa: E731
    rc, out, err = run(capsys, "why", line, name(*gone), "--marks", str(marks), "--json")
    d = json.loads(out)
    assert rc == 0 and d["status"] == "eliminated" and "not a candidate" in d["text"]
    # the same candidate from the puzzle's own start is false and refuted
    rc, out, _ = run(capsys, "why", line, name(*gone), "--json")
    assert rc == 0 and json.loads(out)["refuted"]
    false = next((c, d) for c in range(81) if not state.placed[c]
                 for d in digits_of(state.cand[c]) if d != sol[c])
    w = why(p, false, marks=marks.read_text())
    assert w.status == "false" and w.refuted and w.start.cand == state.cand
    _replay(w)
    true = next(c for c in range(81) if not state.placed[c])
    rc, out, _ = run(capsys, "why", line, name(true, sol[true]), "--marks", str(marks),
                     "--json")
    assert rc == 0 and json.loads(out)["count"] == 1


def test_stuck_and_unsolvable(capsys):
    """Singles alone cannot refute every false candidate of a hard puzzle (exit 1, said so);
    marks that drop a solution digit leave no solution at all."""
    line, sol = _qqwing(1)
    p = classic_puzzle(line)
    st = p.pencilmarks()
    answers = list(itertools.islice((why(p, (c, d), techniques="singles")
                                     for c in range(81) if not st.placed[c]
                                     for d in digits_of(st.cand[c]) if d != sol[c]), 40))
    stuck = [w for w in answers if not w.refuted]
    assert stuck and all(w.status == "false" and w.logic == "stuck" for w in stuck)
    w = stuck[0]
    rc, out, _ = run(capsys, "why", line, w.name, "--techniques", "singles")
    assert rc == 1 and "no refutation was found" in out
    # drop the solution digit of one open cell from the marks
    c = next(x for x in range(81) if not st.placed[x])
    marks = st.copy()
    marks.cand[c] &= ~(1 << sol[c])
    other = next(x for x in range(81) if x != c and not st.placed[x])
    w = why(p, (other, sol[other]), marks=write_pencilmarks(marks))
    assert w.status == "unsolvable"


def test_picture(capsys, tmp_path):
    line, sol = _qqwing(0)
    p = classic_puzzle(line)
    c = next(x for x in range(81) if line[x] == ".")
    d = next(x for x in range(1, 10) if x != sol[c] and p.pencilmarks().cand[c] >> x & 1)
    name = f"r{c // 9 + 1}c{c % 9 + 1}={d}"
    out_svg = tmp_path / "why.svg"
    rc, out, err = run(capsys, "why", line, name, "-o", str(out_svg))
    assert rc == 0 and out.startswith(f"{name} is false") and "wrote" in err
    svg = out_svg.read_text()
    assert svg.startswith("<svg") and 'class="mark"' in svg and f"Assume {name}" in svg
    pytest.importorskip("cairosvg")
    rc, _, _ = run(capsys, "why", line, f"r{c // 9 + 1}c{c % 9 + 1}={sol[c]}", "-o",
                   str(tmp_path / "why.png"))
    assert rc == 0 and (tmp_path / "why.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("cand, message", [
    ("r5c3", "expected a candidate like r5c3=7"),
    ("r0c1=5", "no cell r0c1"),
    ("r10c1=5", "no cell r10c1"),
    ("r1c1=0", "the digit must be 1..9"),
    ("r1c1=10", "the digit must be 1..9"),
    ("five", "expected a candidate"),
])
def test_bad_candidate(capsys, cand, message):
    rc, out, err = run(capsys, "why", _qqwing(0)[0], cand)
    assert rc == 2 and out == ""
    assert err.startswith("sudoku-csp: error:") and message in err and err.count("\n") == 1


def test_bad_options(capsys):
    line = _qqwing(0)[0]
    for argv, message in ((["--cap", "0"], "--cap"), (["-o", "x.gif"], "unknown picture")):
        rc, _, err = run(capsys, "why", line, "r1c1=1", *argv)
        assert rc == 2 and message in err and err.count("\n") == 1


def test_parse_candidate_symbols():
    p = classic_puzzle("." * 256)
    assert parse_candidate(p, "r16c16=G") == (255, 16) == parse_candidate(p, "r16c16=16")


@pytest.mark.parametrize("kwargs", [{"cap": 0}, {"time_limit": float("inf")},
                                    {"state": "x", "marks": "y"}])
def test_api_refuses_bad_arguments(kwargs):
    from csp.errors import InvalidArgument
    with pytest.raises(InvalidArgument):
        why(classic_puzzle("1" + "." * 15), "r1c2=2", **kwargs)
    with pytest.raises(InvalidArgument):
        why(classic_puzzle("1" + "." * 15), (0, 7))



@pytest.mark.parametrize("slow_count", [False, True])
def test_time_limit_bounds_the_whole_call(monkeypatch, slow_count):
    """``time_limit`` is one clock for the whole call: the counts, the search for a
    refutation and its shortening share it. A false candidate of a 25x25 puzzle whose
    refutation takes the logic far longer than the limit (about 19 s of CPU): the call
    ends within the limit (CPU time, plus a margin for the check between steps), with no
    refutation (it once took twice the limit, and reported as a refutation the steps
    applied when time ran out, ending in "a search finds no solution"). With
    ``slow_count`` the first count is made slow on purpose (it burns 0.6 of the limit
    before it runs): the refutation gets only what is left (the counts and the refutation
    each had a full limit of their own)."""
    import time

    from sudoku_csp.workbench import why as why_module

    with open(DATA / "sizes_25.solutions.csv") as f:
        line = f.read().splitlines()[1].split(",")[0]
    p = classic_puzzle(line)
    limit = 2.0
    real = why_module._solutions
    calls = []

    def slow(*args, **kwargs):
        calls.append(1)
        t = time.process_time()
        while len(calls) == 1 and time.process_time() - t < 0.6 * limit:
            pass
        return real(*args, **kwargs)
    # the modules a refutation imports on its first call, imported before the clock: from
    # source (PYTHONDONTWRITEBYTECODE) that took 0.2-0.6 s of CPU, past the deadline, on
    # a loaded machine (a process's first call only; from bytecode it is 0.02 s)
    from techniques import registry
    registry.select("all")
    if slow_count:
        monkeypatch.setattr(why_module, "_solutions", slow)
    # the garbage earlier tests of this worker left, collected before the clock: a full
    # collection of a worker's heap inside the call once put it 0.07 s past the margin
    import gc
    gc.collect()
    t = time.process_time()
    w = why(p, "r1c2=4", time_limit=limit)
    spent = time.process_time() - t
    assert spent < limit + 0.5, spent
    assert (w.count, w.refuted, w.steps) == (0, False, [])
    # the time limit is wall-clock: on a loaded machine the counts may use it all ("limit");
    # otherwise the candidate is false and the refutation is what runs out of time
    assert w.status == "limit" or (w.status, w.logic) == ("false", "limit"), w
    assert "time" in w.text()          # "not counted in time", "the time limit came first"
