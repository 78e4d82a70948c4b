"""Forcing chains and nets: soundness, logic-only solving of the hardest sets, explanations,
and a variant where the anti-knight links are essential.

The public HoDoKu library has no forcing-chain cases (codes 1301-1304), so the reglib part
lives in tests/techniques/test_reglib.py only through the ratchet file.
"""
from __future__ import annotations

import itertools

import pytest

from csp import Puzzle
from csp.step import Step
import techniques
from techniques import StepSolver, apply_step, registry
from techniques.analysis import Analysis
from techniques.loop import unsound
from techniques.verify import check_puzzle
from variants.chess import anti_knight
from variants.classic import classic, classic_puzzle

from conftest import DATA, load_solutions

FORCING = ["forcing_chain_contradiction", "forcing_chain_verity",
           "forcing_net_contradiction", "forcing_net_verity"]
PATH = ["singles", "forcing"]


def _lines(name: str) -> list[str]:
    return [l.strip() for l in open(DATA / name) if l.strip() and not l.startswith("#")]


def _solved_by_logic(line: str, sol: list[int], techniques=PATH) -> list[Step]:
    p = classic_puzzle(line)
    r = StepSolver(techniques, verify=sol, unique=True).solve(p)   # verify: every step sound
    assert r.status == "solved", line
    assert r.state.values() == sol
    return r.steps


# -- registration ------------------------------------------------------------------------
def test_registration_codes_and_order():
    codes = {t.name: t.code for t in registry.select("forcing")}
    assert codes == {"forcing_chain_contradiction": "1301", "forcing_chain_verity": "1302",
                     "forcing_net_contradiction": "1303", "forcing_net_verity": "1304",
                     "forcing_net_nested": None}
    default = registry.select("default")
    names = [t.name for t in default]
    assert set(codes) <= set(names)
    # the forcing family is the last resort: after every other default technique
    assert names[-len(codes):] == ["forcing_chain_contradiction", "forcing_chain_verity",
                                   "forcing_net_contradiction", "forcing_net_verity",
                                   "forcing_net_nested"]
    assert all(t.order < 8500 for t in default if t.family != "forcing")


# -- soundness -------------------------------------------------------------------------------
@pytest.mark.parametrize("name,k", [("norvig_top95", 1), ("qqwing_expert", 1),
                                    ("forum_hardest_110626", 1)])
def test_forcing_steps_sound_on_solve_path(name, k):
    """Every forcing step (all of them, at the first states of the solve path) is sound."""
    for line, sol in load_solutions(name, k):
        assert check_puzzle(classic_puzzle(line), sol, FORCING, path=PATH, max_steps=12) == []


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("name", ["norvig_top95", "qqwing_expert", "forum_hardest_110626",
                                  "tdoku_magictour_top1465"])
def test_forcing_steps_sound_on_solve_path_slow(name):
    for line, sol in load_solutions(name, 4):
        assert check_puzzle(classic_puzzle(line), sol, FORCING, path=PATH) == []


@pytest.mark.long
@pytest.mark.parametrize("name", ["norvig_top95", "qqwing_expert", "forum_hardest_110626",
                                  "tdoku_magictour_top1465"])
def test_forcing_steps_sound_on_solve_path_long(name):
    """15 puzzles a set (the slow run's 4 first): beyond CI's time budget."""
    for line, sol in load_solutions(name, 15):
        assert check_puzzle(classic_puzzle(line), sol, FORCING, path=PATH) == []


def test_nested_net_steps_sound():
    line, sol = load_solutions("forum_hardest_110626", 1)[0]
    st = classic_puzzle(line).pencilmarks()
    solver = StepSolver(["singles"] + FORCING)
    while (s := solver.next_step(st)) is not None:
        apply_step(st, s)
    an = Analysis(st)
    steps = list(itertools.islice(registry.get("forcing_net_nested").find(an), 2))
    assert steps
    for s in steps:
        assert unsound(s, sol) is None, s.explain(2)
        assert s.extra["depth"] >= 2
        c = s.eliminations[0]
        assert s.explain(2).startswith(f"Nested Forcing Net: {c.name()}={c.digit}: inside, ")
        assert " fails (" in s.note
        reason = s.note.rsplit(" : ", 1)[1]
        assert any(w in reason for w in ("no place for", "no candidate", "both true and false",
                                          "two digits")), reason


# -- logic-only solving ----------------------------------------------------------------------
def test_logic_solves_hardest11_with_verified_steps():
    lines = _lines("hardest11.txt")
    sols = dict(load_solutions("norvig_hardest"))
    assert len(lines) == 11
    used = set()
    for line in lines:
        used |= {s.technique for s in _solved_by_logic(line, sols[line])}
    assert "forcing_chain_contradiction" in used


def test_logic_solves_top95_and_forum_sample():
    top = load_solutions("norvig_top95")
    for line, sol in top[::12]:
        _solved_by_logic(line, sol)
    used = set()
    for line, sol in load_solutions("forum_hardest_110626", 1):
        used |= {s.technique for s in _solved_by_logic(line, sol)}
    assert "forcing_net_nested" in used    # these need trial and error of depth 2


def test_default_solver_finishes_a_hardest_puzzle():
    line, sol = load_solutions("forum_hardest_110626", 3)[2]
    r = StepSolver("default", verify=sol).solve(classic_puzzle(line))
    assert r.status == "solved" and r.state.values() == sol
    assert r.rating.level == "extreme"


#: every how many puzzles of each set the slow run (CI) and the long run solve: the forum's
#: hardest take about 9 s of forcing nets each (every 25th: 15 puzzles); the whole set is
#: measured by benchmarks/logic.py --sets forum_hardest (docs/performance.md)
SLOW_EVERY = {"norvig_top95": 2, "norvig_hardest": 1, "qqwing_expert": 4,
              "forum_hardest_110626": 25}
LONG_EVERY = {"norvig_top95": 1, "norvig_hardest": 1, "qqwing_expert": 1,
              "forum_hardest_110626": 5}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SLOW_EVERY))
def test_logic_solves_full_sets(name):
    for line, sol in load_solutions(name)[::SLOW_EVERY[name]]:
        _solved_by_logic(line, sol)


@pytest.mark.long
@pytest.mark.parametrize("name", list(LONG_EVERY))
def test_logic_solves_full_sets_long(name):
    for line, sol in load_solutions(name)[::LONG_EVERY[name]]:
        _solved_by_logic(line, sol)


# -- explanations ----------------------------------------------------------------------------
def _state_after_singles(line: str):
    st = classic_puzzle(line).pencilmarks()
    solver = StepSolver("singles")
    while (s := solver.next_step(st)) is not None:
        apply_step(st, s)
    return st


def _check_chain_links(an: Analysis, step: Step) -> None:
    """A forcing chain's links are real implications of the grid: true -> false along a
    weak link, false -> true along a strong link (bivalue cell or bilocal house)."""
    assert step.links
    for a_nodes, b_nodes, strong in step.links:
        (a,), (b,) = a_nodes, b_nodes
        if strong:    # a false => b true
            if a.cell == b.cell:
                assert an.cand[a.cell] == (1 << a.digit) | (1 << b.digit)
            else:
                assert a.digit == b.digit
                assert any(an.pos(h, a.digit) == (1 << a.cell) | (1 << b.cell)
                           for h in an.full)
        else:         # a true => b false
            assert an.sees(a.cell, a.digit, b.cell, b.digit)
    for x, y in zip(step.links, step.links[1:]):
        assert x.b == y.a and x.strong != y.strong


def test_chain_explanations_are_valid_chains():
    st = _state_after_singles(load_solutions("norvig_top95", 1)[0][0])
    an = Analysis(st)
    solver = StepSolver("all")
    steps = solver.find_all(st, "forcing_chain_contradiction")
    assert steps
    for s in steps:
        _check_chain_links(an, s)
        text = s.explain(2)
        c = s.eliminations[0] if s.eliminations else s.placements[0]
        start = f"{c.name()}{'=' if s.eliminations else '<>'}{c.digit}"
        assert text.startswith(f"Forcing Chain Contradiction: {start}: {start} -> "), text
        assert text.endswith(s.result_text())
    verity = solver.find_all(st, "forcing_chain_verity")
    assert verity
    for s in verity:
        _check_chain_links(an, s)
        head, branches = s.note.split(": ", 1)
        first = s.placements[0] if s.placements else s.eliminations[0]
        key = f"{first.name()}{'=' if s.placements else '<>'}{first.digit}"
        # every branch of the verity is a chain ending in the (first) conclusion
        ends = {b.split(" (and")[0].rsplit(" -> ", 1)[-1] for b in branches.split(" | ")}
        assert ends == {key}, s.note


def test_shortest_option_orders_by_explanation_size():
    st = _state_after_singles(load_solutions("norvig_top95", 2)[1][0])
    sized = StepSolver("all", options={"shortest": True}).find_all(
        st, "forcing_net_contradiction")
    plain = StepSolver("all").find_all(st, "forcing_net_contradiction")
    assert sorted(map(str, sized)) == sorted(map(str, plain))
    lengths = [s.note.count("->") for s in sized]
    assert lengths[0] <= lengths[-1]


# -- a variant: anti-knight links are essential ----------------------------------------------
ANTI_KNIGHT = ".261........82............8.......8.....6........7............96....9....5...3..."


def test_anti_knight_puzzle_needs_its_links_and_is_solved_soundly():
    assert classic_puzzle(ANTI_KNIGHT).count_solutions(2) == 2   # not unique without the rule
    p = Puzzle(9).use(classic(), anti_knight())
    p.givens(ANTI_KNIGHT)
    sol = p.solve().solution
    assert sol is not None and p.count_solutions(2) == 1
    r = StepSolver(PATH, verify=sol, unique=True).solve(p)
    assert r.status == "solved" and r.state.values() == sol
    assert any(s.technique.startswith("forcing") for s in r.steps)
    assert StepSolver("singles", unique=True).solve(p).status == "stuck"


def test_forcing_as_propagator_in_puzzle_propagate():
    """``Puzzle.propagate(techniques=["forcing"])`` runs the same finders as propagators."""
    for line, sol in load_solutions("norvig_hardest", 3):
        st = techniques.propagate(classic_puzzle(line), ["forcing"])
        assert st.is_solved() and st.values() == sol


def test_six_by_six_needs_forcing_and_is_solved_soundly():
    line = "..6..4......4...3...21....4..31...2."    # a minimal 6x6 (2x3 boxes) puzzle
    p = classic_puzzle(line)
    sol = p.solve().solution
    assert p.count_solutions(2) == 1
    assert StepSolver("singles", unique=True).solve(p).status == "stuck"
    r = StepSolver(PATH, verify=sol, unique=True).solve(p)
    assert r.status == "solved" and r.state.values() == sol
    assert any(s.technique.startswith("forcing") for s in r.steps)
    assert all(s.namer == 6 for s in r.steps)


def test_nets_use_the_puzzle_rules_of_a_variant():
    """A (non-binary) killer cage takes part in forcing nets through its propagator."""
    from variants.killer import killer_cage
    line = ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8..."
    sol = dict(load_solutions("norvig_top95", 12))[line]
    cells = [39, 40, 41]                     # r5c4..r5c6 hold 1, 2, 4 in the solution
    assert sorted(sol[c] for c in cells) == [1, 2, 4]
    p = Puzzle(9).use(classic(), killer_cage(cells, 7))
    p.givens(line)
    r = StepSolver(PATH, verify=sol, unique=True).solve(p)
    assert r.status == "solved" and r.state.values() == sol
    cage_steps = [s for s in r.steps if "cage 7 at r5c4" in s.explain(2)]
    assert cage_steps and all(s.technique.startswith("forcing_net") for s in cage_steps)


def _fpuzzle(title: str):
    """(puzzle, solution digits) of the f-puzzles set's puzzle with this title."""
    import json
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    for line in (DATA / "fpuzzles_cc_by.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["title"] == title:
            return load_fpuzzles(rec["fpuzzles_json"]), [int(ch) for ch in rec["solution"]]
    raise AssertionError(title)


@pytest.mark.parametrize("title", ["Anti-XV Coverage", "Anti-Ratio Coverage",
                                   "It being a weekend..."])
def test_net_propagation_keeps_the_solution(title):
    """Assuming a candidate that the solution makes true (or a false one false) never leads
    a chain or net to a contradiction or to a fact the solution breaks: binary relations
    (negative XV, ratio) kept in the net's own loop and the other rules through the engine."""
    from techniques import forcing as F
    p, sol = _fpuzzle(title)
    an = Analysis(p.pencilmarks())
    st = F._static(an)
    assert st.binary or st.rule_engine is not None
    tried = 0
    for c, d in F._candidates(an):
        f = F._fact(c, d, sol[c] == d)        # the true one of c=d and c<>d
        for net in (True, False):
            ps = F._assume(st, f, net)
            assert ps.contra is None, (F.fact_text(f), ps.contra[0])
            wrong = [g for g in ps.parents if (sol[F._cell(g)] == F._digit(g)) != bool(g & 1)]
            assert not wrong, F.fact_text(wrong[0])
            tried += 1
    assert tried > 300
    # and the net removes what the rules forbid: a digit without a partner across a
    # binary relation goes (every assumption of a false candidate as true is refuted by
    # the nets somewhere on the solve path, so at least one breaks here)
    assert any(F._assume(st, F._fact(c, d, True), True).contra is not None
               for c, d in F._candidates(an) if sol[c] != d)


def test_scan_hint_belongs_to_one_descending_run():
    """The quiet-assumption hint survives removals on the same state (the run's next
    analysis, made from its previous one), resets on a state that grew back and on
    another state object; it belongs to its run (``run_memo``), so another run neither
    sees nor takes it."""
    from techniques import forcing as F
    p = classic_puzzle("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.")
    st = p.pencilmarks()
    first = Analysis(st)
    q = F._quiet(first, "demo")
    q.add(7)
    cell = next(c for c in range(81) if st.cand[c].bit_count() > 2)
    low = st.cand[cell] & -st.cand[cell]
    st.remove(cell, low.bit_length() - 1)
    second = Analysis(st, first)
    assert F._quiet(second, "demo") == {7}
    other = st.copy()
    assert F._quiet(Analysis(other, second), "demo") == set()
    assert F._quiet(Analysis(st), "demo") == set()       # a new run starts afresh
    assert F._quiet(Analysis(st, second), "demo") == {7}     # the other runs took nothing
    st.cand[cell] |= low                                   # the candidate grows back
    assert F._quiet(Analysis(st, second), "demo") == set()


@pytest.mark.parametrize("inter", [False, True])
def test_kept_quiet_assumptions_are_quiet_and_change_no_step(monkeypatch, inter):
    """A net assumption skipped because its kept propagation is still a quiet fixpoint
    really is quiet on the new grid (a fresh propagation finds no contradiction), and the
    skipping changes no step of the solve path; with locked candidates in the nets too
    (option ``intersections``, on for 25x25)."""
    from techniques import forcing as F
    line = "6.2.5.........4.3..........43...8....1....2........7..5..27...........81...6....."
    techs = ["singles", "intersections", "forcing_net_contradiction"]
    opts = {"intersections": inter}
    checked = skipped = 0
    real = F._Kept.still_quiet

    def audited(self, st, f, inter_=False):
        nonlocal checked, skipped
        assert inter_ is inter
        ok = real(self, st, f, inter_)
        if ok:
            skipped += 1
            if checked < 3000:
                checked += 1
                assert F._assume(st, f, True, inter_).contra is None, F.fact_text(f)
        return ok

    monkeypatch.setattr(F._Kept, "still_quiet", audited)
    kept = StepSolver(techs, options=opts).solve(classic_puzzle(line))
    monkeypatch.setattr(F._Kept, "still_quiet", lambda self, st, f, inter_=False: False)
    fresh = StepSolver(techs, options=opts).solve(classic_puzzle(line))
    assert kept.status == fresh.status == "solved"
    assert skipped > 100 and checked > 100
    assert ([(s.technique, s.placements, s.eliminations) for s in kept.steps]
            == [(s.technique, s.placements, s.eliminations) for s in fresh.steps])
