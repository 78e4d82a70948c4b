"""Sudoku Explainer-like rating (techniques/se_rating.py).

Reference values: puzzles of the Sudoku Exchange bank with their published SE rating
(/work/shared/data/classic/sudoku_exchange_1000_rated.tsv, public domain), and the value
and chain-length tables of SE 1.2.1 (/work/shared/data/ratings/SE_RATINGS.md).
"""
from __future__ import annotations

import json
import pytest

from csp.errors import SudokuCSPError
from csp.step import Candidate, Link, Step
from techniques import StepSolver
from techniques.loop import unsound
from techniques.se_rating import (LEVEL2_SHIFT, LEVEL3_NESTED, LEVEL3_OUTER, LEVEL3_SHIFT, MODES, NESTED_FREE, NESTED_LEVEL2,
                                  NESTED_MIN_LEVEL,
                                  NESTED_SHIFT, SE121_PRODUCERS, SEStep,
                                  SESolver, UnknownSEMode, chain_nodes, chain_value,
                                  forcing_value, length_increment, nested_level, producers,
                                  rate_se, se_value, summarize)
from variants.classic import classic_puzzle

from conftest import ROOT, load_benchmark

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

# (published SE rating, puzzle): Sudoku Exchange puzzles whose hardest step is the named
# SE 1.2.1 technique
REFERENCE = [
    (1.5, "..28.61......9....3.......7..3...2..6..7.4..882.....45....1....14..8..63.3..5..8."),
    (1.7, "...4.2......7.9....52...93..236.145.4..375..6....................89.36..3.6...7.2"),
    (2.0, "3....6.8969.8...7...12..3..4.....91.....2.....35.....2..3..85...4...3.9195.7....4"),
    (2.3, ".2.9......48....31....63.2...94.7..3..3.8.2..4..1.56...3.57....25....18......6.5."),
    (2.5, "2.1.6...5.3.5...1...52139.8..8...23.3.6...1.4.42...7..5.71864...1...5.2.8...4.5.1"),
    (2.6, "6...5...7.3........8.4.92...153.......8...3.......759...95.1.3........8.2...7...4"),
    (2.8, "...7.9...2...8...3.7.2.4.5.8.......1...5.1...16..7..45.5.....3..3.....1.6.4.9.5.8"),
    (3.0, ".48.7.12....6.2.......9........4....3.9...4.2.6.....7...17.93..4..5.3..753..6..19"),
    (3.2, "..1...4..5.9.3.1.86..8.1..232.....854..5.6..7.........8..4.3..1.4.....5.9...1...4"),
    (3.4, ".49......7....4.....3...51.....93....3187569....46.....26...7.....1....6......85."),
    (4.2, "3....6.8597..28.3...5...9..79.8.2....1.....9....1.9.48..7...6...5.36..7264.2....9"),
    (4.5, "..2.14......3.7.....46..2.149....32.2...3...8.78....158.6..97.....2.6......85.1.."),
]

# published 4.1 (a fork's 2-String Kite); SE 1.2.1 needs a forcing X-chain for it
KITE = ".24...65.1.......7..8.1.9...........26..9..83.8.5.1.7.6..9.3..8..28547......7...."


def _puzzle(line: str):
    p = classic_puzzle(line)
    p.unique = True
    return p


@pytest.mark.parametrize("expected,line", REFERENCE)
def test_se121_matches_published_ratings(expected, line):
    r = rate_se(_puzzle(line), mode="se121")
    assert r.solved
    assert r.er == expected
    assert r.ed <= r.ep <= r.er


def test_singles_only_puzzle():
    r = StepSolver().rate_se(classic_puzzle(EASY))
    assert r.solved and r.mode == "extended"
    assert (r.er, r.ep, r.ed) == (1.2, 1.2, 1.2)
    assert {s.step.technique for s in r.steps} <= {"full_house", "hidden_single"}
    assert {s.value for s in r.steps} <= {10, 12}


def test_hidden_single_values_follow_the_house():
    from csp.links import link_tables
    st = classic_puzzle(EASY).pencilmarks()
    houses = link_tables(st.puzzle).houses
    solver = StepSolver()
    seen = set()
    for s in solver.find_all(st, "hidden_single") + solver.find_all(st, "full_house"):
        (c, d), = s.placements
        mine = [h for h in houses if c in h.cells]
        places = {h.kind: sum(1 for x in h.cells if not st.placed[x] and st.cand[x] >> d & 1)
                  for h in mine}
        empties = min(sum(1 for x in h.cells if not st.placed[x]) for h in mine)
        v = se_value(s, st, "se121")
        seen.add(v)
        expected = 10 if empties == 1 else 12 if places["box"] == 1 else 15
        assert v == expected, s.explain(2)
    assert {12, 15} <= seen


def test_naked_single_value():
    st = classic_puzzle(EASY).pencilmarks()
    s = StepSolver().find_all(st, "naked_single")[0]
    assert se_value(s, st) == 23


def test_length_increment_matches_the_table():
    # (first C, last C, increment in tenths) from SE_RATINGS.md section 4.3
    table = [(3, 6, 0), (7, 8, 1), (9, 10, 2), (11, 14, 3), (15, 18, 4), (19, 26, 5),
             (27, 34, 6), (35, 50, 7), (51, 66, 8), (67, 98, 9), (99, 130, 10),
             (131, 194, 11), (195, 258, 12), (259, 386, 13), (387, 514, 14)]
    for lo, hi, inc in table:
        for c in range(lo, hi + 1):
            assert length_increment(c) == inc, c


def _cand(name: str, d: int) -> tuple[Candidate, ...]:
    r, c = int(name[1]) - 1, int(name[3]) - 1
    return (Candidate(r * 9 + c, d),)


def _chain(technique: str, nodes: list[tuple[str, int]], first_strong: bool = True,
           close: bool = False) -> Step:
    ns = [_cand(c, d) for c, d in nodes]
    links, strong = [], first_strong
    for a, b in zip(ns, ns[1:]):
        links.append(Link(a, b, strong))
        strong = not strong
    if close:
        links.append(Link(ns[-1], ns[0], strong))
    return Step(technique, links=tuple(links))


def test_chain_grading_on_constructed_chains():
    # skyscraper as a forcing X-chain: 4 chain nodes + the target twice = 6 -> 6.6
    sky = _chain("x_chain", [("r1c1", 7), ("r5c1", 7), ("r5c4", 7), ("r2c4", 7)])
    assert chain_nodes(sky) == 6 and chain_value(sky) == 66
    # XY-chain through 3 bivalue cells (XY-Wing shape): C = 8 -> 7.1; 4 cells: C = 10 -> 7.2
    xy3 = _chain("xy_chain", [("r1c1", 1), ("r1c1", 2), ("r1c5", 2), ("r1c5", 3),
                              ("r5c5", 3), ("r5c5", 1)])
    assert chain_nodes(xy3) == 8 and chain_value(xy3) == 71
    xy4 = _chain("xy_chain", [("r1c1", 1), ("r1c1", 2), ("r1c5", 2), ("r1c5", 3),
                              ("r5c5", 3), ("r5c5", 4), ("r5c9", 4), ("r5c9", 1)])
    assert chain_nodes(xy4) == 10 and chain_value(xy4) == 72
    # 4-cell X-cycle ("generalized X-Wing"): 6.5; 8-cell X-cycle: 6.6
    x4 = _chain("continuous_nice_loop", [("r1c1", 5), ("r1c5", 5), ("r4c5", 5), ("r4c1", 5)],
                close=True)
    assert chain_nodes(x4) == 4 and chain_value(x4) == 65
    x8 = _chain("continuous_nice_loop", [("r1c1", 5), ("r1c3", 5), ("r2c3", 5), ("r2c5", 5),
                                         ("r4c5", 5), ("r4c7", 5), ("r6c7", 5), ("r6c1", 5)],
                close=True)
    assert chain_value(x8) == 66
    # 6-cell Y-cycle (loop through bivalue cells): C = 12 -> 6.8
    cells = ["r1c1", "r1c5", "r4c5", "r4c8", "r7c8", "r7c1"]
    ds = [1, 2, 3, 4, 5, 6]
    ynodes = []
    for i, c in enumerate(cells):
        ynodes += [(c, ds[i - 1]), (c, ds[i])]
    yc = _chain("continuous_nice_loop", ynodes, close=True)
    assert chain_nodes(yc) == 12 and chain_value(yc) == 68
    # the same loop with a conjugate-pair link is a mixed cycle: base 7.0
    mixed = _chain("continuous_nice_loop", [("r1c1", 1), ("r1c1", 2), ("r1c5", 2),
                                            ("r4c5", 2), ("r4c5", 1), ("r4c1", 1)], close=True)
    assert chain_value(mixed) == 70


def test_forcing_grading_uses_node_counts():
    # SE prints "w/L nodes" with L = C - 2; Step.extra["nodes"] holds C
    nishio = Step("forcing_net_contradiction", extra={"nodes": 15, "digits": [4]})
    assert forcing_value(nishio) == 79            # "7.9 Nishio w/13 nodes [7.5+0.4]"
    dyn = Step("forcing_net_contradiction", extra={"nodes": 96, "digits": [1, 4, 7]})
    assert forcing_value(dyn) == 94               # "9.4 ... w/94 nodes [8.5+0.9]"
    region = Step("forcing_chain_verity", extra={"nodes": 12, "digits": [2, 3]})
    assert forcing_value(region) == 83            # "8.3 ... w/10 nodes [8.0+0.3]"
    # without the sizes of its inner contradictions a nested net is SE's level 4 (plus the
    # calibration of the nested nets, which stand for SE steps the level probe misses)
    nested = Step("forcing_net_nested", extra={"nodes": 20, "depth": 2, "nested_nodes": 30})
    assert forcing_value(nested) == 105 + NESTED_SHIFT + length_increment(50)


def test_nested_nets_take_the_base_of_se_nesting_levels():
    # SE: level L rates 8.5 + 0.5 L plus the increment of its own nodes and of every
    # nested chain's; tiny inner contradictions stand for level-1 rules (no complexity)
    tiny = [NESTED_FREE] * 5
    assert nested_level(Step("forcing_net_nested", extra={"inner_nodes": tiny})) == (1, 0)
    small = tiny + [NESTED_FREE + 1, NESTED_LEVEL2]
    level, nodes = nested_level(Step("forcing_net_nested", extra={"inner_nodes": small}))
    assert level in (1, 2) and nodes == NESTED_FREE + 1 + NESTED_LEVEL2
    big = Step("forcing_net_nested", extra={"nodes": 40, "inner_nodes": [NESTED_LEVEL2 + 1]})
    assert nested_level(big)[0] > level
    assert forcing_value(big) == 85 + 5 * max(NESTED_MIN_LEVEL, nested_level(big)[0]) \
        + NESTED_SHIFT + length_increment(41 + NESTED_LEVEL2)
    deeper = Step("forcing_net_nested", extra={"nodes": 40, "depth": 3,
                                                "inner_nodes": [NESTED_LEVEL2 + 1]})
    assert nested_level(deeper)[0] == nested_level(big)[0] + 1


def test_nested_nets_stand_for_se_level_4():
    # the rating asks a nested net only after the probe's levels 2 and 3 found nothing, and
    # SE's producer after level 3 is level 4 (DFC + dynamic forcing chains, 10.5): a nested
    # net is never valued below that level, however small its inner contradictions
    assert NESTED_MIN_LEVEL == 4
    for inner in ([NESTED_FREE] * 3, [NESTED_FREE + 1], [NESTED_LEVEL2 + 1]):
        s = Step("forcing_net_nested", extra={"nodes": 30, "inner_nodes": inner})
        assert forcing_value(s) == 105 + NESTED_SHIFT + length_increment(30 + nested_level(s)[1])
    # a level above 4 (deeper nesting) keeps its own base
    deeper = Step("forcing_net_nested", extra={"nodes": 30, "depth": 4, "inner_nodes": [2000]})
    assert nested_level(deeper)[0] > 4
    assert forcing_value(deeper) == 85 + 5 * nested_level(deeper)[0] + NESTED_SHIFT \
        + length_increment(2030)


def test_forcing_steps_carry_their_complexity():
    p = classic_puzzle("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.")
    st = p.pencilmarks()
    solver = StepSolver(["singles", "forcing_net_contradiction"])
    step = None
    for _ in range(200):
        step = solver.next_step(st)
        if step is None or step.technique == "forcing_net_contradiction":
            break
        from techniques import apply_step
        apply_step(st, step)
    assert step is not None and step.technique == "forcing_net_contradiction"
    assert step.extra["nodes"] >= 3 and step.extra["digits"]
    assert se_value(step, st) >= 75


def test_modes_differ_on_a_fork_technique():
    p = _puzzle(KITE)
    se121 = rate_se(p, mode="se121")
    ext = rate_se(p, mode="extended")
    assert se121.solved and ext.solved
    assert se121.er == 6.6 and se121.hardest == "x_chain"
    assert ext.er < 4.5
    allowed = {t for pr in SE121_PRODUCERS for t in pr.techniques}
    assert {s.step.technique for s in se121.steps} <= allowed
    assert {s.step.technique for s in ext.steps} - allowed   # uses a fork technique


def test_extended_mode_takes_the_easiest_step():
    p = _puzzle(REFERENCE[-2][1])
    solver = SESolver("extended", unique=True)
    st = p.pencilmarks()
    ss = solver.next_step(st)
    # no registry step in the same state rates below the chosen one
    steps = StepSolver("all", unique=True)
    lower = []
    for pr in producers("extended"):
        for name in pr.techniques:
            for s in steps.find_all(st, name):
                v = se_value(s, st)
                if v is not None and v < ss.value:
                    lower.append((name, v))
    assert not lower


def test_ep_and_ed_bookkeeping():
    e = Step("x_chain", eliminations=(Candidate(0, 1),))
    p = Step("hidden_single", placements=(Candidate(0, 2),))
    r = summarize([SEStep(e, 66, "chains", False), SEStep(e, 71, "chains", False),
                   SEStep(p, 15, "hidden_single", True), SEStep(e, 83, "multiple", False)])
    assert (r.er, r.ep, r.ed) == (8.3, 7.1, 6.6)
    # a direct hint counts as a placement: EP stops there
    r = summarize([SEStep(e, 17, "direct_pointing", True), SEStep(e, 32, "x_wing", False)])
    assert (r.er, r.ep, r.ed) == (3.2, 1.7, 1.7)
    r = summarize([SEStep(e, 45, "ur", False)], solved=False)
    assert (r.er, r.ep, r.ed, r.solved) == (20.0, 20.0, 4.5, False)


def test_time_limit_reports_unsolved():
    r = rate_se(_puzzle(KITE), time_limit=1e-9)
    assert not r.solved and r.er == 20.0


def test_unknown_mode():
    with pytest.raises(UnknownSEMode) as ei:
        rate_se(classic_puzzle(EASY), mode="hodoku")
    assert isinstance(ei.value, SudokuCSPError)
    assert set(MODES) == {"extended", "se121"}


def test_uniqueness_off_when_declared_multiple():
    r = SESolver("se121", unique=False).rate(_puzzle(REFERENCE[-1][1]))
    assert all(not s.step.technique.startswith("uniqueness") for s in r.steps)
    assert r.solved and r.er != 4.5


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    from sudoku_csp.cli import main
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_se_rating_key(capsys):
    rc1, plain, _ = _cli(capsys, "solve", "--logic", "--json", REFERENCE[8][1])
    rc2, withse, _ = _cli(capsys, "solve", "--logic", "--json", "--rating", "se121",
                          REFERENCE[8][1])
    assert rc1 == 0 and rc2 == 0
    a, b = json.loads(plain), json.loads(withse)
    assert "se_rating" not in a
    assert a["rating"] == b["rating"]
    assert b["se_rating"]["er"] == 3.2 and b["se_rating"]["mode"] == "se121"
    _, text, _ = _cli(capsys, "solve", "--logic", "--rating", "se", REFERENCE[8][1])
    assert "(SE 3.2/" in text


def test_cli_rating_needs_logic(capsys):
    rc, _, err = _cli(capsys, "solve", "--rating", "se", EASY)
    assert rc == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.slow
def test_calibration_on_sudoku_exchange_sample():
    """Spearman >= 0.9 against the published SE ratings on 150 Sudoku Exchange puzzles."""
    import random
    bench = load_benchmark("rating", "rating_bench")
    try:
        data = bench.load_sudoku_exchange()
    except FileNotFoundError:
        pytest.skip("shared data not available")
    data = random.Random(5).sample(data, 150)
    for mode in MODES:
        ours = [rate_se(_puzzle(line), mode=mode, time_limit=30).er for line, _ in data]
        assert bench.spearman(ours, [r for _, r in data]) >= 0.9, mode


# Sudoku Explainer ER of puzzles of HardestDatabase110626
# (/work/shared/data/classic/forum_hardest_1106_rated.csv, column ER): two that need SE's
# nested forcing chains (DFC + forcing chains), rated within 0.2 by the calibration
HARDEST = [
    (11.1, "...4.67....7..........7..15.94.6.5.........98..5.1.6..3....1........2.6...6.4.1.."),
    (11.1, ".2.4....9....8....6.8...1.....7..39..7.....2.....24..75.........4.9....3..1..5.6."),
]


@pytest.mark.parametrize("expected,line", HARDEST)
def test_nested_calibration_on_hardest_puzzles(expected, line):
    """The nested levels' calibration (docs/se-rating.md): before it, these rated 11.9 and
    12.0 (every nested net at SE's level 4)."""
    r = rate_se(_puzzle(line), mode="se121", time_limit=120)
    assert r.solved
    assert abs(r.er - expected) <= 0.2 + 1e-9, (r.er, r.hardest)
    assert r.hardest == "forcing_net_nested"


@pytest.mark.long
def test_calibration_on_forum_hardest_sample():
    """(``-m long``: 300 s on the loaded 2-core machine, beyond CI's budget beside the other
    sweeps; the default run checks two of the hardest.) On 24 puzzles of the SE-rated forum-hardest file (every 11th by ER: the sample of
    ``benchmarks/rating.py --sets forum_hardest --sample 24 --stratified``), the mean error
    (absolute) stays within 0.5 and at least 25 % are within 0.2 (measured 0.36 and 33 %;
    before the nesting levels 1.0 and 0 %: docs/performance.md)."""
    import csv
    path = ROOT.parent / "shared" / "data" / "classic" / "forum_hardest_1106_rated.csv"
    if not path.exists():
        path = ROOT.parent.parent / "shared" / "data" / "classic" / path.name
    if not path.exists():
        pytest.skip("shared data not available")
    with open(path) as f:
        rows = sorted(((float(r["ER"]), r["puzzle"]) for r in csv.DictReader(f) if r["ER"]),
                      key=lambda x: x[0])
    sample = [rows[i * len(rows) // 24] for i in range(24)]
    errs = [rate_se(_puzzle(line), mode="se121", time_limit=120).er - er for er, line in sample]
    assert sum(abs(e) for e in errs) / len(errs) <= 0.5
    assert sum(abs(e) <= 0.2 + 1e-9 for e in errs) >= 0.25 * len(errs)


def test_every_ladder_technique_with_an_se_value_is_asked_by_the_extended_mode():
    """A technique given an SE value in techniques/ladder.py (the variant ones too: this
    project's extension) must be one the extended mode's producers ask, or the value is
    never used and a variant puzzle needing it is rated through harder steps."""
    import variants  # noqa: F401  (registers the rule families' techniques)
    from techniques.ladder import LADDER
    from techniques.se_rating import producers
    asked = {t for p in producers("extended") for t in p.techniques}
    assert [r.name for r in LADDER if r.se is not None and r.name not in asked] == []


# -- SE's nesting levels 2 and 3 (docs/se-rating.md) ---------------------------------------
HARD_NET = "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4."


def test_static_chains_disprove_only_false_candidates():
    """SE's static forcing chains on a grid as it stands: a unary chain "X => X false"
    (kind 2) or a static contradiction (kind 3) only ever disproves a false candidate,
    and the chains count both ends."""
    from techniques.analysis import analyze
    from techniques.forcing.engine import _fact, _static
    from techniques.forcing.nested import static_chain
    p = _puzzle(HARD_NET)
    sol = p.solve().solution
    an = analyze(p.pencilmarks())
    st = _static(an)
    kinds = []
    for c in range(81):
        for d in range(1, 10):
            if an.cand[c] >> d & 1:
                kind, nodes = static_chain(st, st.cand, st.cw, _fact(c, d, True))
                kinds.append(kind)
                if kind < 4:
                    assert sol[c] != d, (c, d, kind)
                    assert nodes >= 3
                # the unary search alone finds the same unary chains
                k2, _ = static_chain(st, st.cand, st.cw, _fact(c, d, True), 120, True)
                assert (k2 == 2) == (kind == 2)
    assert 2 in kinds and 4 in kinds


def test_bitmask_chains_match_the_static_chain_search():
    """se_reach (the level probe's bitmask search) finds SE's unary chain "X => X false"
    exactly when static_chain without a cap does, with the same length."""
    from techniques.analysis import analyze
    from techniques.forcing.engine import _fact, _static
    from techniques.forcing.nested import se_links, se_reach, static_chain
    an = analyze(_puzzle(HARD_NET).pencilmarks())
    st = _static(an)
    links = se_links(st, st.cand, st.cw)
    found = 0
    for c in range(81):
        for d in range(1, 10):
            if an.cand[c] >> d & 1:
                kind, nodes = static_chain(st, st.cand, st.cw, _fact(c, d, True), None, True)
                n = se_reach(st, links, c, d)[0]
                assert n == (nodes if kind == 2 else 0), (c, d)
                found += n > 0
    assert found


def test_static_forcing_concludes_only_true_facts():
    """The level-3 inner rule (static cell and region forcing from the closures) on a
    real grid: every fact it concludes holds in the solution."""
    from techniques.analysis import analyze
    from techniques.forcing.engine import _base, _static
    from techniques.forcing.nested import _base_closures, _forcing, se_links
    p = _puzzle(HARD_NET)
    sol = p.solve().solution
    an = analyze(p.pencilmarks())
    st = _static(an)
    closures = _base_closures(st)
    concl, _ = _forcing(st, se_links(st, st.cand, st.cw), _base(st), closures)
    for g, (n, grp) in concl.items():
        c, d = g >> 6, (g >> 1) & 31
        assert (sol[c] == d) == bool(g & 1), (c, d, g & 1)
        assert n >= 2 * len(grp)


def test_static_forcing_starts_where_se_starts_it(monkeypatch):
    """SE 1.2.1's static multiple forcing chains (the level-3 inner rule) scan only the
    cells with three candidates or more: cell forcing from those cells, region forcing from
    a region whose first place of the digit is such a cell. On a real grid, every
    conclusion comes from such a group, and they are the conclusions of all groups (two
    candidates) kept to those groups."""
    from techniques.analysis import analyze
    from techniques.forcing import nested
    from techniques.forcing.engine import _base, _static
    from techniques.forcing.nested import _base_closures, _forcing_py, se_links, se_reach
    an = analyze(_puzzle(HARD_NET).pencilmarks())
    st = _static(an)
    closures = _base_closures(st)
    grid = _base(st)
    L = se_links(st, st.cand, st.cw)
    waves = lambda k: se_reach(st, L, k >> 5, k & 31, full=True)[1]   # noqa: E731

    def se_starts(grp):
        cells = [k >> 5 for k in grp]
        if len(set(cells)) == 1:                      # a cell's candidates
            return st.cand[cells[0]].bit_count() >= 3
        return st.cand[min(cells)].bit_count() >= 3   # a region: its first place

    assert nested.SE_FORCING_CELL == 3
    se = _forcing_py(st, grid, closures, waves)
    monkeypatch.setattr(nested, "SE_FORCING_CELL", 2)
    every = _forcing_py(st, grid, closures, waves)
    assert every and se != every
    assert all(se_starts(grp) for _, grp in se.values())
    # every group of SE's is in both searches: the facts SE concludes, it concludes in
    # both (the smallest complexity among SE's own groups)
    for g, (n, grp) in se.items():
        assert g in every and every[g][0] <= n
    assert {g for g, (_, grp) in every.items() if se_starts(grp)} <= set(se)
    assert any(not se_starts(grp) for _, grp in every.values())


def test_se_level_steps_are_sound_and_valued_at_their_level():
    from techniques.analysis import analyze
    from techniques.forcing.nested import se_level_steps
    p = _puzzle(HARD_NET)
    sol = p.solve().solution
    an = analyze(p.pencilmarks())
    steps = []
    for s in se_level_steps(an, 2, searches=20_000):
        steps.append(s)
        if len(steps) == 5:
            break
    assert steps
    for s in steps:
        # (a contradiction eliminates; SE's outer cell / region forcing may also place)
        assert not unsound(s, sol)
        assert s.extra["se_level"] == 2
        assert nested_level(s) == (2, s.extra["nested_nodes"])
        assert forcing_value(s) == 95 + LEVEL2_SHIFT + length_increment(
            s.extra["nodes"] + s.extra["nested_nodes"])


#: SE 10.3 in forum_hardest_1106_rated.csv: SE's outer region forcing at level 2 (every
#: place of 2 in row 5, under the level-2 rules, removes 2 from r4c3) is its cheapest step
#: at one state (10.1, where the probe's cheapest contradiction there is 10.3)
OUTER_REGION = "1....6.8...71....66.....15..3.9.....7....184.....2........9.41.5....4..8...8..5.."


def test_se_outer_forcing_steps_are_sound_and_valued_at_their_level():
    p = _puzzle(OUTER_REGION)
    sol = p.solve().solution
    r = rate_se(p, mode="se121", time_limit=120)
    assert r.solved and r.er == 10.3
    assert not [s for s in r.steps if unsound(s.step, sol)]
    outer = [s for s in r.steps if "forcing" in s.step.extra]
    assert outer and all(s.producer == "se_level2" for s in outer)
    for s in outer:
        x = s.step.extra
        assert x["forcing"] == "digit 2 in row 5"
        assert s.value == 95 + LEVEL2_SHIFT + length_increment(x["nodes"] + x["nested_nodes"])


def test_se121_asks_the_nesting_levels_in_order():
    names = [p.name for p in producers("se121")]
    assert (names.index("dynamic_forcing_plus") < names.index("se_level2")
            < names.index("se_level3") < names.index("nested_forcing"))
    lvl3 = Step("forcing_net_nested", extra={"se_level": 3, "nodes": 20, "nested_nodes": 10})
    assert forcing_value(lvl3) == 100 + LEVEL3_SHIFT + length_increment(
        int(20 * LEVEL3_OUTER) + 10 * LEVEL3_NESTED)


def test_probe_levels_are_calibrated_at_both_ends():
    """The calibration (docs/se-rating.md, "Calibration"): a level-2 step of the probe
    takes LEVEL2_SHIFT (SE's cheapest level-2 hint is shorter than the probe's
    contradiction: SE 10.2-10.4 where the probe's chains gave 10.5-10.7); a level-3 step is
    valued on its outer facts weighted by LEVEL3_OUTER and its nested chains by
    LEVEL3_NESTED (SE counts every nested chain's whole complexity), plus LEVEL3_SHIFT."""
    assert LEVEL2_SHIFT < 0 and LEVEL3_SHIFT < 0
    assert 0 < LEVEL3_OUTER < 1 < LEVEL3_NESTED
    lvl2 = Step("forcing_net_nested", extra={"se_level": 2, "nodes": 80, "nested_nodes": 40})
    assert forcing_value(lvl2) == 95 + LEVEL2_SHIFT + length_increment(120)

    def lvl3(nodes, nested):
        return Step("forcing_net_nested", extra={"se_level": 3, "nodes": nodes,
                                                 "nested_nodes": nested})
    assert forcing_value(lvl3(150, 200)) == 100 + LEVEL3_SHIFT + length_increment(
        int(150 * LEVEL3_OUTER) + 200 * LEVEL3_NESTED)
    # the nested chains decide: two level-3 steps of the rated file (57 outer facts on 36
    # nested nodes, 131 on 234) come out 10.8 and 11.2; more outer facts on fewer nested
    # nodes rate lower
    assert forcing_value(lvl3(57, 36)) / 10 == 10.8
    assert forcing_value(lvl3(131, 234)) / 10 == 11.2
    assert forcing_value(lvl3(200, 36)) < forcing_value(lvl3(57, 120))


def test_forcing_notes_made_later_are_the_eager_ones():
    """Under the SE loop's flag (``scans.NOTES_LATER`` in ``run_memo``) the forcing scans
    leave a step's note and links for later; :func:`scans.with_note` makes exactly the
    note, links and ``extra`` an eager scan gives, for every step of every scan."""
    from itertools import islice

    from techniques import registry
    from techniques.analysis import analyze
    from techniques.forcing.scans import NOTE_LATER, NOTES_LATER, with_note
    line = "1...5.7.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
    state = classic_puzzle(line).pencilmarks()
    found = 0
    for tech, opts in (("forcing_net_contradiction", {}), ("forcing_net_verity", {}),
                       ("forcing_chain_contradiction", {}), ("forcing_chain_verity", {}),
                       ("forcing_net_contradiction", {"intersections": True}),
                       ("forcing_net_verity", {"intersections": True})):
        t = registry.load()[tech]
        eager = list(islice(t.find(analyze(state), opts), 40))
        an = analyze(state)
        an.run_memo[NOTES_LATER] = True
        later = list(islice(t.find(an, opts), 40))
        assert len(later) == len(eager)
        assert all(s.note == "" and s.links == () and NOTE_LATER in s.extra for s in later)
        made = [with_note(s) for s in later]
        assert made == eager and [s.extra for s in made] == [s.extra for s in eager]
        assert all(s.note for s in made)
        found += len(made)
    assert found > 20
    s = eager[0]
    assert with_note(s) is s


#: ER 10.1 in 0.3 s: dynamic forcing chains (the level-1 nets) and the level probe
NET_10 = "1...5.7.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."


def _steps(r) -> list:
    return [(s.step.technique, s.value, s.producer, s.step.placements, s.step.eliminations)
            for s in r.steps]


def test_rating_pauses_the_collector_and_leaves_no_cycles():
    """``SESolver.rate`` runs without the cyclic garbage collector and puts it back as it
    was (on or off); the run releases each state's analysis (``Analysis.release``), so a
    rating leaves nothing in a cycle for the collector to find."""
    import gc
    from techniques.se_rating import SESolver
    was = gc.isenabled()
    try:
        gc.enable()
        SESolver("se121", unique=True).rate(_puzzle(NET_10))     # (imports, tables)
        seen = []
        cb = lambda phase, info: seen.append(phase)   # noqa: E731
        gc.callbacks.append(cb)
        try:
            r = SESolver("se121", unique=True).rate(_puzzle(NET_10))
        finally:
            gc.callbacks.remove(cb)
        # (one collection at most: before the run starts or after it ends; with the
        # collector on, the run alone would start dozens)
        assert r.solved and r.er >= 9.0 and seen.count("start") <= 1 and gc.isenabled()
        gc.collect()
        gc.disable()
        SESolver("se121", unique=True).rate(_puzzle(NET_10))
        assert not gc.isenabled()
        assert gc.collect() < 50
    finally:
        (gc.enable if was else gc.disable)()


def test_kept_check_off_in_the_rating_changes_no_step(monkeypatch):
    """The SE loop's net scans propagate every assumption (``scans.NO_KEPT``); with the
    kept quiet propagations checked instead (the flag under another key) every step and
    value is the same."""
    from techniques import se_rating
    from techniques.forcing import scans
    calls = []
    real = scans._kept

    def counted(an, inter=False):
        calls.append(inter)
        return real(an, inter)

    monkeypatch.setattr(scans, "_kept", counted)
    off = se_rating.SESolver("se121", unique=True).rate(_puzzle(NET_10))
    assert calls == []
    monkeypatch.setattr(se_rating, "NO_KEPT", "not the flag")
    on = se_rating.SESolver("se121", unique=True).rate(_puzzle(NET_10))
    assert len(calls) > 10 and off.solved and on.solved and off.er >= 9.0
    assert _steps(off) == _steps(on) and off.er == on.er
