"""Fish and single-digit patterns: HoDoKu library cases, seed X-Wings, soundness, variants."""
from __future__ import annotations

import time
from typing import Iterator

import pytest

from csp import Puzzle
from techniques import fish, registry
from techniques.analysis import Analysis, iter_cells
from techniques.reglib import parse_case, run_case
from techniques.loop import apply_step, unsound
from techniques.solver import StepSolver
from techniques.verify import check_puzzle
from variants.chess import anti_knight
from variants.classic import classic, classic_puzzle
from variants.regions import diagonal

from conftest import DATA, load_solutions

# -- HoDoKu regression library ---------------------------------------------------------

CODES = ("0300 0301 0302 0310 0311 03111 0312 03121 0320 0321 03211 0322 03221 0331 0332 "
         "0340 0341 03411 0342 03421 0362 03621 0363 0364 0400 0401 0402 0403 0404 0405"
         ).split()
#: codes whose search takes 0.3-20 s per case in pure Python (Franken Jellyfish, Mutant
#: fish): run with -m slow
SLOW_CODES = {"0342", "03421", "0362", "03621", "0363", "0364"}
#: library cases we do not reproduce (line prefix -> reason)
XFAIL = {
    ":0404:3:2+5479..3168": "the library line lists r3c8<>7, a digit-7 elimination in a "
                            "digit-3 Dual 2-String Kite (HoDoKu pairs kites of different "
                            "digits; see tests/data/README.md)",
}


def _cases() -> list:
    out = []
    counts: dict[str, int] = {}
    for line in open(DATA / "reglib-1.3-public.txt", encoding="utf-8"):
        if not line.startswith(":"):
            continue
        code = line.split(":")[1].split("-")[0]
        if code not in CODES:
            continue
        k = counts[code] = counts.get(code, 0) + 1
        marks = []
        for prefix, why in XFAIL.items():
            if line.startswith(prefix):
                marks.append(pytest.mark.xfail(strict=True, reason=why))
        if code in SLOW_CODES:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(line.rstrip("\n"), id=f"{code}-{k}", marks=marks))
    return out


@pytest.mark.parametrize("line", _cases())
def test_reglib_case(line):
    ok, msg = run_case(parse_case(line))
    assert ok, msg


# -- seed examples: X-Wing and finned X-Wing, rows and columns ---------------------------


def _state_with(digit: int, keep: dict[int, set[int]], by: str = "row"):
    """An empty classic grid where ``digit`` stays only at ``keep[line]`` (columns of the
    row, or rows of the column) in the named lines."""
    st = classic_puzzle("." * 81).pencilmarks()
    for c in range(81):
        r, k = divmod(c, 9)
        line, pos = (r, k) if by == "row" else (k, r)
        if line in keep and pos not in keep[line]:
            st.cand[c] &= ~(1 << digit)
    st.version += 1
    return st


def _cells(*names: str) -> set[int]:
    return {(int(n[1]) - 1) * 9 + int(n[3]) - 1 for n in names}


def _steps(name: str, st) -> list:
    an = Analysis(st)
    return list(registry.get(name).find(an))


def test_x_wing_rows():
    st = _state_with(7, {1: {2, 7}, 6: {2, 7}})          # r2, r7: c3 and c8
    steps = _steps("x_wing", st)
    assert len(steps) == 1
    s = steps[0]
    want = {r * 9 + c for r in range(9) for c in (2, 7) if r not in (1, 6)}
    assert {c for c, d in s.eliminations} == want and s.digits == (7,)
    assert s.explain(2).startswith("X-Wing: 7 r27 c38 =>")


def test_x_wing_columns():
    st = _state_with(5, {1: {0, 7}, 5: {0, 7}}, by="col")  # c2, c6: r1 and r8
    steps = _steps("x_wing", st)
    assert len(steps) == 1
    want = {r * 9 + c for r in (0, 7) for c in range(9) if c not in (1, 5)}
    assert {c for c, d in steps[0].eliminations} == want
    assert steps[0].explain(2).startswith("X-Wing: 5 c26 r18 =>")


def test_finned_x_wing_rows_fin_box_eliminations():
    # r9: c3, c8; r3: c3, c8 and a fin at r3c2 (box 1): the cells of box 1 in the cover
    # column 3 (outside the base row) go
    st = _state_with(4, {8: {2, 7}, 2: {1, 2, 7}})
    assert _steps("x_wing", st) == []
    steps = _steps("finned_x_wing", st)
    assert len(steps) == 1
    s = steps[0]
    assert {c for c, d in s.eliminations} == _cells("r1c3", "r2c3")
    assert s.explain(2) == "Finned X-Wing: 4 r39 c38 fr3c2 => r1c3<>4, r2c3<>4"
    assert _steps("sashimi_x_wing", st) == []


def test_finned_x_wing_columns_two_fins():
    # c2: r4, r8; c7: r4, r8 and fins r5c7, r6c7 (box 6): r4c8, r4c9 go
    st = _state_with(9, {1: {3, 7}, 6: {3, 4, 5, 7}}, by="col")
    steps = _steps("finned_x_wing", st)
    assert len(steps) == 1
    assert {c for c, d in steps[0].eliminations} == _cells("r4c8", "r4c9")
    assert "fr5c7 fr6c7" in steps[0].explain(2)


def test_sashimi_x_wing():
    # r9: c3, c8; r3: c3, c9. Covers c3, c8 with fin r3c9 (r3 keeps one covered cell:
    # sashimi) -> r1c8, r2c8; or covers c3, c9 with fin r9c8 -> r7c9, r8c9
    st = _state_with(4, {8: {2, 7}, 2: {2, 8}})
    assert _steps("finned_x_wing", st) == []
    steps = _steps("sashimi_x_wing", st)
    assert sorted(s.explain(2) for s in steps) == [
        "Sashimi X-Wing: 4 r39 c38 fr3c9 => r1c8<>4, r2c8<>4",
        "Sashimi X-Wing: 4 r39 c39 fr9c8 => r7c9<>4, r8c9<>4"]


def test_fin_in_two_boxes_gives_nothing():
    st = _state_with(4, {8: {2, 7}, 2: {1, 2, 7, 8}})      # fins in box 1 and box 3
    assert _steps("finned_x_wing", st) == []


# -- generic: variant houses and links, checked against single-digit brute force -------


def digit_templates(an: Analysis, d: int) -> int:
    """Union of all placements of ``d`` (one per row, none seeing another, every full house
    holding one) on its candidates: cells outside it can never hold ``d``."""
    rows = [h for h in an.full if an.houses[h].kind == "row"]
    rows.sort(key=lambda h: min(an.houses[h].cells))
    union = 0

    def rec(i: int, chosen: int, banned: int) -> None:
        nonlocal union
        if i == len(rows):
            if all(an.house_mask[h] & chosen for h in an.full):
                union |= chosen
            return
        for c in iter_cells(an.pos(rows[i], d) & ~banned):
            rec(i + 1, chosen | (1 << c), banned | an.peers(c, d))

    rec(0, 0, 0)
    return union


FAMILY_TECHS = [t.name for t in registry.all_techniques()
                if t.family in ("fish", "single_digit") and
                not t.name.endswith(("squirmbag", "whale", "leviathan")) and
                not t.name.startswith(("mutant_", "finned_mutant_", "siamese_finned_mutant",
                                       "kraken_"))]
#: the quick selection: no Franken fish
QUICK_TECHS = [t for t in FAMILY_TECHS if "franken" not in t]


def _assert_sound_by_templates(st, names) -> list:
    an = Analysis(st)
    found = []
    for name in names:
        for s in registry.get(name).find(an):
            for c, d in s.eliminations:
                assert not digit_templates(an, d) >> c & 1, s.explain(2)
            found.append(s)
    return found


def test_mutant_x_wing_on_the_diagonals():
    # diagonal sudoku, digit 6 only at the corners of both diagonals: bases main and
    # anti-diagonal, covers rows 1 and 9 -> 6 goes from the rest of rows 1 and 9
    p = Puzzle(9).use(classic(), diagonal())
    st = p.pencilmarks()
    diag = set(p.grid.diagonal_main) | set(p.grid.diagonal_anti)
    for c in diag - {0, 8, 72, 80}:
        st.cand[c] &= ~(1 << 6)
    st.version += 1
    an = Analysis(st)
    steps = [fish._step(an, "mutant_x_wing", "Mutant X-Wing", f)
             for f in fish.find_fish(an, "mutant", 2, False, {}, (6,))]
    assert steps, "no mutant fish found"
    for s in steps:
        for c, d in s.eliminations:
            assert not digit_templates(an, d) >> c & 1, s.explain(2)
    want = {c for c in range(81) if c // 9 in (0, 8) and c not in (0, 8, 72, 80)}
    assert any({c for c, d in s.eliminations} == want and
               {"main diagonal", "anti-diagonal"} <= set(s.houses) for s in steps)
    # without the diagonals there is no such fish
    st2 = classic_puzzle("." * 81).pencilmarks()
    for c in diag - {0, 8, 72, 80}:
        st2.cand[c] &= ~(1 << 6)
    st2.version += 1
    assert not any({c for c, d in s.eliminations} == want for s in
                   [fish._step(an, "mutant_x_wing", "Mutant X-Wing", f)
                    for f in fish.find_fish(Analysis(st2), "mutant", 2, False, {}, (6,))])


def test_turbot_fish_through_an_anti_knight_link():
    # digit 3: strong links r1c2 = r1c7 and r3c6 = r3c4; r1c7 and r3c6 share no house, only
    # a knight's move. r1c2 = r1c7 - r3c6 = r3c4: r2c2, r2c4 and r4c2 see both ends (a
    # house and a knight's move) and lose the 3.
    p = Puzzle(9).use(classic(), anti_knight())
    keep = {0: {1, 6}, 2: {3, 5}}

    def state(p):
        st = p.pencilmarks()
        for c in range(81):
            r, k = divmod(c, 9)
            if r in keep and k not in keep[r]:
                st.cand[c] &= ~(1 << 3)
        st.version += 1
        return st

    steps = _assert_sound_by_templates(state(p), ["turbot_fish", "skyscraper",
                                                  "two_string_kite"])
    pattern = _cells("r1c2", "r1c7", "r3c6", "r3c4")
    knight = [s for s in steps if {c for c, _ in s.pattern} == pattern]
    assert [s.technique for s in knight] == ["turbot_fish"]
    assert {c for c, _ in knight[0].eliminations} == _cells("r2c2", "r2c4", "r4c2")
    # the same candidates without the anti-knight rule: no such chain
    plain = Puzzle(9).use(classic())
    assert not [s for s in _steps("turbot_fish", state(plain))
                if {c for c, _ in s.pattern} == pattern]


def test_empty_rectangle_on_a_jigsaw_region():
    from variants.regions import jigsaw_grid
    # regions: boxes, except that box 1 and box 2 trade r1c3 and r1c4
    reg = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    reg[2], reg[3] = 1, 0
    g = jigsaw_grid(reg)
    p = Puzzle(g).use(classic())
    st = p.pencilmarks()
    _assert_sound_by_templates(st, QUICK_TECHS)   # nothing to find, nothing wrong


# -- soundness on solve paths -----------------------------------------------------------

def _sweep(names, sets, limit):
    problems = []
    for set_name in sets:
        for puzzle, sol in load_solutions(set_name, limit):
            problems += check_puzzle(classic_puzzle(puzzle), sol, names, path="default")
    return problems


def test_soundness_sample():
    t0 = time.process_time()
    assert _sweep(QUICK_TECHS, ["norvig_top95", "qqwing_expert"], 1) == []
    assert time.process_time() - t0 < 60


@pytest.mark.slow
@pytest.mark.heavy
def test_soundness_sweep_big():
    assert _sweep(QUICK_TECHS, ["norvig_top95", "qqwing_expert", "forum_hardest_110626",
                                "tdoku_magictour_top1465"], 8) == []


@pytest.mark.long
def test_soundness_sweep_big_25():
    assert _sweep(QUICK_TECHS, ["norvig_top95", "qqwing_expert", "forum_hardest_110626",
                                "tdoku_magictour_top1465"], 25) == []


@pytest.mark.slow
@pytest.mark.heavy
def test_soundness_sweep_franken():
    franken = [t for t in FAMILY_TECHS if "franken" in t]
    assert _sweep(franken, ["norvig_top95", "forum_hardest_110626"], 4) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["kraken_fish_type_1", "kraken_fish_type_2"])
def test_kraken_fish_sound_and_found(name):
    solver = StepSolver("default")
    kraken = registry.get(name)
    found = 0
    for puzzle, sol in load_solutions("norvig_top95", 2):
        st = classic_puzzle(puzzle).pencilmarks()
        for _ in range(150):
            for s in kraken.find(Analysis(st)):
                assert unsound(s, sol) is None, s.explain(2)
                found += 1
            step = solver.next_step(st)
            if step is None:
                break
            apply_step(st, step)
    assert found


def test_assume_propagates_singles_and_detects_contradictions():
    from techniques.fish import assume
    st = classic_puzzle("." * 81).pencilmarks()
    # digit 2 only at r1c1 and r1c2 in row 1; r1c1 holds only 2 and 3
    for c in range(2, 9):
        st.cand[c] &= ~(1 << 2)
    st.cand[0] = (1 << 2) | (1 << 3)
    st.version += 1
    an = Analysis(st)
    after = assume(an, 1, 2)                 # r1c2=2 -> r1c1=3 (naked single)
    assert after[0] == 1 << 3 and not any(after[c] >> 3 & 1 for c in range(1, 9))
    st.cand[9] = 1 << 2                      # r2c1 can only be 2: r1c2=2 and r1c1=3 ok,
    st.version += 1                          # but r1c1=2 clashes with r2c1
    assert assume(Analysis(st), 0, 2) is None


# -- the partition fast path equals the general search ---------------------------------


def _path_states(first: int, last: int, steps: int, every: int) -> Iterator[Analysis]:
    """Analyses of states along the default solve paths of top95 puzzles first..last-1,
    one every ``every`` steps for the first ``steps`` steps."""
    lines = [ln.strip() for ln in open(DATA / "top95.txt") if ln.strip()][first:last]
    walker = StepSolver("default", unique=True)
    for line in lines:
        st = classic_puzzle(line).pencilmarks()
        for k in range(steps):
            if k % every == 0:
                yield Analysis(st)
            step = walker.next_step(st)
            if step is None:
                break
            apply_step(st, step)


def test_search_partition_matches_general_search():
    """Basic (row/column) fish come from :func:`fish.search_partition`; on states along
    hard solve paths it must return exactly what the general search returns, in order."""
    compared = 0
    for an in _path_states(0, 6, 200, 7):
        for bp, cp in fish._pools(an, "basic"):
            cover_of = fish._cover_index(an, cp)
            assert cover_of is not None
            for d in range(1, 10):
                for n in (2, 3, 4):
                    for max_fins in (0, 3, 5):
                        want = fish.search(an, d, n, bp, cp, max_fins, 0)
                        got = fish.search_partition(an, d, n, bp, cp, cover_of, max_fins)
                        assert got == want
                        compared += len(want)
    assert compared > 100


def test_cover_bound_only_prunes():
    """The cover bound of :func:`fish.search` (covers still to take must leave at most
    ``max_fins`` fins) removes no fish: Franken and Mutant searches with and without it
    return the same fish in the same order, on states along hard solve paths."""
    compared = 0
    for an in _path_states(6, 8, 90, 30):
        for kind, sizes in (("franken", (2, 3)), ("mutant", (2,))):
            for bp, cp in fish._pools(an, kind):
                for d in range(1, 10):
                    for n in sizes:
                        for max_fins, max_endo in ((1, 0), (5, 2)):
                            args = (an, d, n, bp, cp, max_fins, max_endo)
                            want = fish.search(*args, cover_bound=False)
                            assert fish.search(*args) == want
                            compared += len(want)
    assert compared > 1000


def test_the_dead_base_set_cache_only_prunes():
    """Base sets whose cover search found no fish with an elimination are kept for the run
    and skipped while their base candidates stay the same (candidates only go): searches
    on a run's analyses (their ``run_memo`` kept from state to state) return the same
    Franken fish, in the same order, as on a fresh analysis of each state."""
    lines = [ln.strip() for ln in open(DATA / "top95.txt") if ln.strip()][6:7]
    walker = StepSolver("default", unique=True)
    compared = kept = 0
    for line in lines:
        st = classic_puzzle(line).pencilmarks()
        an = None
        for k in range(60):
            an = Analysis(st, an)
            if k % 10 == 0:
                fresh = Analysis(st.copy())
                for bp, cp in fish._pools(an, "franken"):
                    for d in range(1, 10):
                        for n in (2, 3):
                            for max_fins, max_endo in ((0, 0), (5, 2)):
                                want = fish.search(fresh, d, n, bp, cp, max_fins, max_endo)
                                assert fish.search(an, d, n, bp, cp, max_fins, max_endo) == want
                                compared += len(want)
                # (the last item of the key: the compiled search's own table)
                kept = max(kept, sum(len(fish._fish_kernel.barren_keys(v[1]) if key[-1]
                                         else v[1])
                                     for key, v in an.run_memo.items()
                                     if key[0] == "fish_barren"))
            step = walker.next_step(st)
            if step is None:
                break
            apply_step(st, step)
    assert compared > 100 and kept > 100
