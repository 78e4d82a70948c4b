"""Basic techniques: intersections, subsets, wings, uniqueness.

1. HoDoKu regression library cases for the families' codes (one test per case).
2. Soundness sweeps on puzzles with known solutions (small default sample, bigger slow one).
3. Generic cases: a variant house or link is essential; checked against brute force.
"""
from __future__ import annotations

import pytest

from csp import Grid, Puzzle
from csp.search import search
from techniques import StepSolver, apply_step, registry
from techniques.analysis import Analysis
from techniques.reglib import parse_case, run_case
from techniques.verify import check_puzzle
from variants.classic import classic, classic_puzzle
from variants.regions import diagonal

from conftest import DATA, load_solutions

FAMILIES = ["intersections", "subsets", "wings", "uniqueness"]
CODES = {"0100", "0101", "0110", "0111", "0200", "0201", "0202", "0210", "0211", "0212",
         "0800", "0801", "0802", "0803", "0600", "0601", "0602", "0603", "0604", "0605",
         "0606", "0607", "0608", "0610"}

#: library lines that still fail (ratchet: strict xfail)
KNOWN_FAILURES: dict[str, str] = {}


def _cases():
    out = []
    counts: dict[str, int] = {}
    with open(DATA / "reglib-1.3-public.txt", encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            case = parse_case(line)
            if case.code not in CODES or not registry.by_code(case.code):
                continue
            k = counts[case.code] = counts.get(case.code, 0) + 1
            marks = ()
            if case.line in KNOWN_FAILURES:
                marks = (pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[case.line]),)
            out.append(pytest.param(case.line, id=f"{case.code}-{k}", marks=marks))
    return out


@pytest.mark.parametrize("line", _cases())
def test_reglib_case(line):
    ok, msg = run_case(parse_case(line))
    assert ok, msg


def _tech_names() -> list[str]:
    return [t.name for t in registry.select([f for f in FAMILIES if f in registry.families()])]


def _sweep(sets: list[tuple[str, int]], path="default"):
    problems = []
    for name, k in sets:
        for puzzle, sol in load_solutions(name, k):
            p = classic_puzzle(puzzle)
            problems += check_puzzle(p, sol, _tech_names(), path=path)
    assert problems == []


def test_soundness_sample():
    _sweep([("norvig_top95", 8), ("qqwing_expert", 8), ("forum_hardest_110626", 4)])


def test_soundness_with_non_default_options():
    """Options switched away from their defaults (subsets eliminating through links, strict
    uniqueness, relaxed pivot wings) stay sound."""
    problems = []
    opts = {"links": True, "allow_missing": False, "bivalue": False}
    for puzzle, sol in load_solutions("norvig_top95", 4):
        problems += check_puzzle(classic_puzzle(puzzle), sol, _tech_names(), path="default",
                                 options=opts)
    assert problems == []


@pytest.mark.slow
def test_soundness_big():
    """A quarter of the 100 below, every set represented (CI's slow run)."""
    _sweep([("norvig_top95", 5), ("qqwing_expert", 10), ("forum_hardest_110626", 3),
            ("tdoku_magictour_top1465", 7)])


@pytest.mark.long
def test_soundness_100():
    """100 puzzles: 700 s on the loaded 2-core machine (2026-11-29), beyond CI's time
    budget beside the other sweeps (run by hand: ``pytest -m long``)."""
    _sweep([("norvig_top95", 20), ("qqwing_expert", 40), ("forum_hardest_110626", 10),
            ("tdoku_magictour_top1465", 30)])


@pytest.mark.long
def test_soundness_full():
    """The same over 595 puzzles (well over 10 minutes)."""
    _sweep([("norvig_top95", 95), ("qqwing_expert", 200), ("forum_hardest_110626", 100),
            ("tdoku_magictour_top1465", 200)])


# -- generic (variant) cases ---------------------------------------------------------------

def brute_force_refutes(puzzle: Puzzle, cand: list[int], cell: int, digit: int) -> bool:
    """True when no solution of ``puzzle`` within ``cand`` has ``digit`` at ``cell``."""
    c = list(cand)
    c[cell] = 1 << digit
    sols, _ = search(puzzle.engine(), c, 1)
    return not sols


def _six_by_six(diag: bool) -> tuple[Puzzle, list[int]]:
    p = Puzzle(Grid(6)).use(classic())
    if diag:
        p.use(diagonal(anti=False))
    sol = p.solve(first=True).solution
    return p, sol


def test_naked_pair_on_a_diagonal_is_found_and_sound():
    p, sol = _six_by_six(True)
    g = p.grid
    a, b = g.cell("r1c1"), g.cell("r4c4")
    pair = 1 << sol[a] | 1 << sol[b]
    cand = [g.all_mask] * g.size
    cand[a] = cand[b] = pair
    st = p.state_from(cand)
    steps = [s for s in registry.get("naked_pair").find(Analysis(st))
             if s.houses == ("main diagonal",)]
    assert len(steps) == 1
    elims = set(steps[0].eliminations)
    diag_rest = {g.cell(f"r{i}c{i}") for i in (2, 3, 5, 6)}
    assert {c for c, _ in elims} == diag_rest
    assert {d for _, d in elims} == {sol[a], sol[b]}
    for c, d in elims:
        assert brute_force_refutes(p, cand, c, d)
    # without the diagonal house there is no such pair
    q, _ = _six_by_six(False)
    st2 = q.state_from(cand)
    assert not [s for s in registry.get("naked_pair").find(Analysis(st2))
                if s.eliminations]


def test_locked_candidates_through_a_diagonal():
    """A box whose candidates for a digit lie on the diagonal points along the diagonal."""
    p, sol = _six_by_six(True)
    g = p.grid
    d = sol[g.cell("r1c1")]
    cand = [g.all_mask] * g.size
    # box 1 (r1-2, c1-3): digit d only at r1c1 and r2c2 (both on the main diagonal)
    box1 = [h for h in p.houses() if h.name == "box 1"][0]
    for c in box1.cells:
        if c not in (g.cell("r1c1"), g.cell("r2c2")):
            cand[c] &= ~(1 << d)
    st = p.state_from(cand)
    steps = [s for s in registry.get("locked_candidates_pointing").find(Analysis(st))
             if s.digits == (d,) and "box 1" in s.houses]
    assert len(steps) == 1
    got = {c for c, _ in steps[0].eliminations}
    assert got == {g.cell(f"r{i}c{i}") for i in (3, 4, 5, 6)}
    for c, dd in steps[0].eliminations:
        assert brute_force_refutes(p, cand, c, dd)


def test_xy_wing_through_an_anti_knight_link():
    """The pivot sees one pincer only by a knight's move: an XY-Wing exists only with the
    anti-knight links; its eliminations are refuted by brute force."""
    from variants.chess import anti_knight
    p = Puzzle(Grid(6)).use(classic(), anti_knight())
    plain = Puzzle(Grid(6)).use(classic())
    S = p.solve(first=True).solution
    g = p.grid
    n_found = 0
    for piv in range(g.size):
        for a in g.rows[piv // 6]:
            for b in g.knight(piv):
                if a == piv or b in (a, piv):
                    continue
                if any(b in h.cells and (piv in h.cells or a in h.cells) for h in plain.houses()):
                    continue     # b must see the others only by knight moves
                x, y, z = S[piv], S[b], S[a]
                if len({x, y, z}) < 3:
                    continue
                cand = [g.all_mask] * g.size
                cand[piv] = 1 << x | 1 << y
                cand[a] = 1 << x | 1 << z
                cand[b] = 1 << y | 1 << z
                st = p.state_from(cand)
                steps = [s for s in registry.get("xy_wing").find(Analysis(st))
                         if {c for c, _ in s.pattern} == {piv, a, b}]
                if not steps:
                    continue
                n_found += 1
                assert any(all(d == z for _, d in s.eliminations) for s in steps)
                for s in steps:
                    assert s.eliminations
                    for c, d in s.eliminations:
                        assert brute_force_refutes(p, cand, c, d)
                st2 = plain.state_from(cand)
                assert not [s for s in registry.get("xy_wing").find(Analysis(st2))
                            if {c for c, _ in s.pattern} == {piv, a, b}]
                if n_found >= 3:
                    return
    assert n_found >= 3


# -- seed examples (design documents): states on the solve path, recorded as library lines --

SEED_STEPS = [
    # W-Wing, ..973..81.8...9...7.5.84..33....82.74.2.......786..4.5...8.6..26........8.74.15.6
    ("w_wing",
     ":0803:12:..973..81.8...9...7.5.84..33....82.74.2.......786..4.5...8.6..26........8.74.15.6"
     "::124 125 132::",
     "W-Wing: 1/2 r2c1,r3c4 strong 2 r2c8=r3c8 => r2c4<>1, r2c5<>1, r3c2<>1"),
    # W-Wing, .4......512..7..8667..9.32......7..2..28.37..4..2......93.8..5771..5..638......9.
    ("w_wing",
     ":0803:14:.4......512..7..8667..9.32......7..2..28.37..4..2.....+293.8..5771..5..638......9."
     "::197::",
     "W-Wing: 1/4 r7c7,r9c9 strong 4 r2c7=r3c9 => r9c7<>1"),
    # XYZ-Wing, 8.9..3..4.24...61..7...6.297.2.4.......3.2.......5.1.225.1...4..47...83.1..7..2.5
    ("xyz_wing",
     ":0801:569:8+69+2+13..4.24...61..7..+86.297.2.4.......3.2.......5.1.225.1...4..47...83.1..7"
     "..2.5::985::",
     "XYZ-Wing: 5/6/9 r8c4, 5/9 r8c6, 6/9 r8c1 => r8c5<>9"),
    # WXYZ-Wing, ..3..4...1.86539...5.7...83..6.37.9.7..4....54.....72.....9.51...9..6...8..3..26.
    ("wxyz_wing",
     ":0802:1589:..3..4.+5.1.86539...5.7...83.+86.37.9.7+9.4+6.+8+354+3....72+6+3+6..9.51...9..6+3.+88"
     "..3..26+9:214 236 144 273 782 284 285 792 193:156::",
     "WXYZ-Wing: pivot r6c6, z=1: 1/5/8/9 r6c6, 1/9 r3c6, 1/8 r6c5, 1/5 r9c6 => r5c6<>1"),
]


@pytest.mark.parametrize("tech,line,text", SEED_STEPS, ids=[f"{t}-{i}" for i, (t, _, _) in
                                                             enumerate(SEED_STEPS)])
def test_seed_example_step(tech, line, text):
    from techniques.reglib import case_state
    from techniques.loop import is_effective
    case = parse_case(line)
    st = case_state(case)
    steps = [s for s in registry.get(tech).find(Analysis(st)) if is_effective(st, s)]
    assert [s.explain(2) for s in steps] == [text]
    assert set(steps[0].eliminations) == set(case.eliminations)
    assert set(steps[0].digits) == set(case.digits)


def test_seed_states_are_on_the_solve_path():
    """Each recorded seed state is reached by singles, intersections and subsets from the
    seed puzzle, and the first effective step of the technique there is the recorded one."""
    from techniques.reglib import case_state
    from techniques.loop import is_effective
    puzzles = {0: "..973..81.8...9...7.5.84..33....82.74.2.......786..4.5...8.6..26........8.74.15.6",
               1: ".4......512..7..8667..9.32......7..2..28.37..4..2......93.8..5771..5..638......9.",
               2: "8.9..3..4.24...61..7...6.297.2.4.......3.2.......5.1.225.1...4..47...83.1..7..2.5",
               3: "..3..4...1.86539...5.7...83..6.37.9.7..4....54.....72.....9.51...9..6...8..3..26."}
    walker = StepSolver(["singles", "intersections", "subsets"])
    for i, pz in puzzles.items():
        tech, line, text = SEED_STEPS[i]
        target = case_state(parse_case(line))
        st = classic_puzzle(pz).pencilmarks()
        for _ in range(200):
            found = [s for s in registry.get(tech).find(Analysis(st)) if is_effective(st, s)]
            if found:
                break
            apply_step(st, walker.next_step(st))
        assert found[0].explain(2) == text
        assert [st.cand[c] if not st.placed[c] else 1 << st.placed[c] for c in range(81)] \
            == target.cand


def test_naked_pair_in_a_killer_cage():
    """A partial all-different house (a cage) holds a naked pair; its third cell loses both
    digits, which no row, column or box pair would give."""
    from variants.killer import killer_cage
    p = Puzzle(Grid(6)).use(classic(), killer_cage(["r2c3", "r2c4", "r3c4"]))
    S = p.solve(first=True).solution
    g = p.grid
    a, b, t = g.cell("r2c3"), g.cell("r3c4"), g.cell("r2c4")
    cand = [g.all_mask] * g.size
    cand[a] = cand[b] = 1 << S[a] | 1 << S[b]
    st = p.state_from(cand)
    steps = [s for s in registry.get("naked_pair").find(Analysis(st)) if s.eliminations]
    assert len(steps) == 1 and steps[0].houses == ("cage at r2c3",)
    assert set(steps[0].eliminations) == {(t, S[a]), (t, S[b])}
    for c, d in steps[0].eliminations:
        assert brute_force_refutes(p, cand, c, d)


UT1_CASE = (":0600-1:23:+4+7.3..1.8+85.4...9.39.+86.+4.7+1342+8.+5.+9+2+8+5+1...+3+496+7+53+4..1+6+2871+3+9+45"
            "+5+1+3+9+42..+6+74+96+58.+1.::227 327::")


def test_uniqueness_respects_variant_houses_and_links():
    """A rectangle is a deadly pattern only when its digits can be swapped under every rule:
    with the main diagonal through one corner (r9c9) or with anti-knight links, the classic
    Uniqueness Test 1 must not fire."""
    from techniques.reglib import case_state
    from variants.chess import anti_knight
    st = case_state(parse_case(UT1_CASE))
    t = registry.get("uniqueness_test_1")
    classic_steps = [s.explain(2) for s in t.find(Analysis(st))]
    assert classic_steps == ["Uniqueness Test 1: 2/3/6 r2c7, 2/3 r2c9, 2/3 r9c7, 2/3 r9c9 "
                             "=> r2c7<>23"]
    for extra in (diagonal(anti=False), anti_knight()):
        q = Puzzle(Grid(9)).use(classic(), extra)
        st2 = q.state_from(st.cand, st.placed)
        assert list(t.find(Analysis(st2))) == []
    # an unrelated extra house (the anti-diagonal misses all four corners) keeps the step
    q = Puzzle(Grid(9)).use(classic(), diagonal(main=False))
    st3 = q.state_from(st.cand, st.placed)
    assert [s.explain(2) for s in t.find(Analysis(st3))] == classic_steps


def test_uniqueness_techniques_only_run_for_unique_puzzles():
    assert all(t.requires_unique for t in registry.select("uniqueness"))
    from techniques.reglib import case_state
    st = case_state(parse_case(UT1_CASE))
    st.puzzle.unique = False
    assert StepSolver("uniqueness").next_step(st) is None
    st.puzzle.unique = True
    assert StepSolver("uniqueness").next_step(st).technique == "uniqueness_test_1"


# a state on the default solve path of top95's
# 48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....
RELAXED_CASE = (
    ":0000:1589:48+73........+6..+271+12+6.+9.+3..7.5....6....2..8.............1.76...3.....4......5"
    "+3...:516 526 434 834 436 836 538 539 444 661 961 363 463 963 164 464 864 964 865 866 268 "
    "269 283 288 289:989::")


def test_relaxed_pivot_wing_with_a_trivalue_wing():
    """Wing r8c4 holds three digits: only the relaxed form sees this WXYZ-Wing; the
    elimination is checked against the puzzle's solution."""
    from techniques.reglib import case_state
    from techniques.loop import is_effective
    st = case_state(parse_case(RELAXED_CASE))
    an = Analysis(st)
    got = [s for s in registry.get("relaxed_wing").find(an) if is_effective(st, s)]
    assert [s.explain(2) for s in got] == [
        "Relaxed Pivot Wing: 1/5/8/9 r8c8, 5/9 r7c7, 8/9 r8c3, 1/8/9 r8c4 => r8c9<>9"]
    strict = [s for t in registry.select("wings") if t.name != "relaxed_wing"
              for s in t.find(an) if is_effective(st, s) and s.technique.endswith("xyz_wing")]
    assert strict == []
    sol = st.puzzle.solve().solution
    assert sol[st.grid.cell("r8c9")] != 9


#: HoDoKu's default order, base score and level per library code
#: (shared data reglib/hodoku_default_steps.tsv)
HODOKU_DEFAULTS = {
    "0100": (1200, 50, "medium"),
    "0101": (1210, 50, "medium"),
    "0110": (1000, 40, "medium"),
    "0111": (1100, 60, "medium"),
    "0200": (1300, 60, "medium"),
    "0201": (1400, 80, "medium"),
    "0202": (2000, 120, "hard"),
    "0210": (1500, 70, "medium"),
    "0211": (1600, 100, "medium"),
    "0212": (2100, 150, "hard"),
    "0600": (3500, 100, "hard"),
    "0601": (3600, 100, "hard"),
    "0602": (3700, 100, "hard"),
    "0603": (3800, 100, "hard"),
    "0604": (3900, 100, "hard"),
    "0605": (4000, 100, "hard"),
    "0606": (4010, 100, "hard"),
    "0607": (4020, 100, "hard"),
    "0608": (4030, 100, "hard"),
    "0610": (2900, 100, "hard"),
    "0800": (3300, 160, "hard"),
    "0801": (3400, 180, "hard"),
    "0803": (3200, 150, "hard"),
}


@pytest.mark.parametrize("code", sorted(HODOKU_DEFAULTS))
def test_registered_metadata_follows_hodoku_defaults(code):
    techs = registry.by_code(code)
    assert len(techs) == 1
    t = techs[0]
    assert (t.order, t.score, t.level) == HODOKU_DEFAULTS[code]
