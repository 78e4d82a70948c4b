"""Colouring and chain techniques: HoDoKu library cases, soundness, a variant case, speed."""
from __future__ import annotations

import time

import pytest

from conftest import DATA, load_solutions
from csp import Grid, Puzzle
from techniques import registry
from techniques.analysis import Analysis
from techniques.reglib import case_state, parse_case, run_case
from techniques.chains import build_graph
from techniques.loop import apply_step, is_effective, unsound
from techniques.solver import StepSolver
from techniques.verify import check_puzzle
from variants.classic import classic_puzzle

CODES = ("0500", "0501", "0502", "0503", "0701", "0702", "0703", "0706", "0707", "0708",
         "0709", "0710", "0711")
FAMILY = ["coloring", "chains"]

#: library cases that still fail (id = code field and ordinal within it), with the reason
XFAIL: dict[str, str] = {}
ALS_REASON = "an ALS chain HoDoKu finds and this search does not (not understood yet)"


def _cases() -> list:
    out = []
    counts: dict[str, int] = {}
    for line in (DATA / "reglib-1.3-public.txt").read_text().splitlines():
        if not line.startswith(":"):
            continue
        field = line.split(":")[1]
        if field.split("-")[0] not in CODES:
            continue
        counts[field] = counts.get(field, 0) + 1
        cid = f"{field}#{counts[field]}"
        marks = []
        if cid in XFAIL:
            marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[cid]))
        elif cid in ALS_XFAIL:
            marks.append(pytest.mark.xfail(strict=True, reason=ALS_REASON))
        out.append(pytest.param(line, id=cid, marks=marks))
    return out


ALS_XFAIL: set[str] = set()


@pytest.mark.parametrize("line", _cases())
def test_reglib(line: str) -> None:
    ok, msg = run_case(parse_case(line))
    assert ok, msg


def test_chain_text_and_links() -> None:
    """A found chain explains itself as an Eureka chain whose links alternate strong/weak and
    whose ends are strong links."""
    line = next(ln for ln in (DATA / "reglib-1.3-public.txt").read_text().splitlines()
                if ln.startswith(":0708-1:"))
    st = case_state(parse_case(line))
    steps = [s for s in registry.get("aic").find(Analysis(st)) if is_effective(st, s)]
    assert steps
    s = steps[0]
    assert s.links[0].strong and s.links[-1].strong
    assert all(a.strong != b.strong for a, b in zip(s.links, s.links[1:]))
    text = s.explain(2)
    assert text.startswith("AIC: (") and "=>" in text and "<>" in text


# -- soundness -------------------------------------------------------------------------------
def _sweep(name: str, limit: int) -> None:
    for puzzle, solution in load_solutions(name, limit):
        problems = check_puzzle(classic_puzzle(puzzle), solution, FAMILY, path="all")
        assert problems == [], (puzzle, problems)


def test_soundness_small() -> None:
    _sweep("norvig_top95", 1)


def _als_exit_sweep(name: str, limit: int, start: int = 0, every: int = 1) -> int:
    """Grouped continuous nice loops with ALS nodes (0709 -2), whose second pass links an
    ALS to a cell it strips of two or more digits: every elimination along default solve
    paths must keep the solution. Returns how many steps used such a link."""
    used = 0
    walker = StepSolver("default", unique=True)
    t = registry.get("grouped_continuous_nice_loop")
    opts = t.options_for_variant(2)
    for puzzle, solution in load_solutions(name, limit)[start:]:
        st = classic_puzzle(puzzle).pencilmarks()
        for k in range(300):
            an = Analysis(st)
            for step in (t.find(an, opts) if k % every == 0 else ()):
                if is_effective(st, step):
                    assert unsound(step, solution) is None, (puzzle, step.explain(2))
            g2 = build_graph(an, groups=True, als=5, als_cells=False, als_exits=True)
            used += len(g2.als_exit) > 0
            step = walker.next_step(st)
            if step is None or all(st.placed):
                break
            apply_step(st, step)
    return used


def test_als_exit_loops_sound() -> None:
    assert _als_exit_sweep("norvig_top95", 1, every=4) > 0


@pytest.mark.slow
@pytest.mark.heavy
@pytest.mark.parametrize("name,limit", [("norvig_top95", 4), ("qqwing_expert", 3),
                                        ("forum_hardest_110626", 1)])
def test_soundness_sweep(name: str, limit: int) -> None:
    _sweep(name, limit)


@pytest.mark.long
@pytest.mark.parametrize("name,limit", [("norvig_top95", 95), ("qqwing_expert", 100),
                                        ("forum_hardest_110626", 60)])
def test_soundness_sweep_long(name: str, limit: int) -> None:
    """Every chain technique at every state of the solve path: top95 alone runs >7 min."""
    _sweep(name, limit)


@pytest.mark.slow
@pytest.mark.heavy
def test_als_exit_loops_sound_sweep() -> None:
    _als_exit_sweep("norvig_top95", 8, 2)


@pytest.mark.long
def test_als_exit_loops_sound_sweep_20() -> None:
    _als_exit_sweep("norvig_top95", 20, 2)


# -- a chain that needs a variant link ------------------------------------------------------
def _grids4() -> list[list[int]]:
    out: list[list[int]] = []

    def rec(v: list[int]) -> None:
        i = len(v)
        if i == 16:
            out.append(v[:])
            return
        r, c = divmod(i, 4)
        for d in range(1, 5):
            if all(v[j] != d or not (j // 4 == r or j % 4 == c or
                                     (j // 8 == r // 2 and j % 4 // 2 == c // 2))
                   for j in range(i)):
                v.append(d)
                rec(v)
                v.pop()

    rec([])
    return out


def test_aic_uses_less_than_link() -> None:
    """4x4 pencil marks where r2c1 < r3c2 makes (2)r2c1 and (2)r3c2 weakly linked; the AIC
    through that link exists only with the constraint and is sound by brute force."""
    masks = [14, 28, 26, 12, 6, 30, 30, 30, 18, 22, 10, 18, 8, 14, 6, 28]

    def steps(with_link: bool) -> set[frozenset]:
        p = Puzzle(Grid(4)).add_grid_houses()
        if with_link:
            p.add_less("r2c1", "r3c2")
        st = p.state_from(masks)
        return {frozenset(s.eliminations) for s in registry.get("aic").find(Analysis(st))
                if is_effective(st, s)}

    with_link, without = steps(True), steps(False)
    extra = with_link - without
    assert extra, "the less-than link should give an AIC that houses alone do not"
    p = Puzzle(Grid(4)).add_grid_houses().add_less("r2c1", "r3c2")
    sols = [g for g in _grids4() if p.check_solution(g)
            and all(masks[c] >> g[c] & 1 for c in range(16))]
    assert sols
    for elims in with_link:
        for g in sols:
            assert all(g[c] != d for c, d in elims)


# -- speed ------------------------------------------------------------------------------------
def test_speed_on_hard_states() -> None:
    """Full enumeration per technique stays well under 50 ms of CPU time (median) on
    singles-stuck states of top95 (richer states than a solve loop meets; measured medians
    are 0.1-6 ms). CPU time, so a loaded test machine does not flake."""
    from techniques import StepSolver
    states = []
    for line in (DATA / "top95.txt").read_text().split()[:8]:
        r = StepSolver(["singles"]).solve(classic_puzzle(line))
        if r.status != "solved":
            states.append(r.state)
    for t in registry.select(FAMILY):
        times = []
        for st in states:
            an = Analysis(st)
            t0 = time.process_time()
            list(t.find(an))
            times.append(time.process_time() - t0)
        times.sort()
        assert times[len(times) // 2] < 0.05, (t.name, times)


@pytest.mark.parametrize("technique", ["simple_colors_trap", "multi_colors_1", "x_chain"])
def test_diagonal_house_is_used(technique: str) -> None:
    """4x4 pencil marks with an extra all-different main diagonal: the diagonal's strong
    links and peers give colouring / X-chain eliminations that rows, columns and boxes
    alone do not, and they are sound by brute force."""
    masks = [18, 28, 24, 14, 16, 30, 26, 12, 6, 16, 28, 2, 30, 10, 14, 28]

    def puzzle(diagonal: bool) -> Puzzle:
        p = Puzzle(Grid(4)).add_grid_houses()
        if diagonal:
            p.add_all_different(["r1c1", "r2c2", "r3c3", "r4c4"])
        return p

    def steps(diagonal: bool) -> set[frozenset]:
        st = puzzle(diagonal).state_from(masks)
        return {frozenset(s.eliminations) for s in registry.get(technique).find(Analysis(st))
                if is_effective(st, s)}

    with_diag = steps(True)
    assert with_diag - steps(False)
    p = puzzle(True)
    sols = [g for g in _grids4() if p.check_solution(g)
            and all(masks[c] >> g[c] & 1 for c in range(16))]
    assert sols
    for elims in with_diag:
        for g in sols:
            assert all(g[c] != d for c, d in elims)


# -- the searches of all hubs at once ---------------------------------------------------------
def _hard_states() -> list:
    """Singles-stuck states: 9x9 (top95) and a minimal 16x16."""
    from csp.io import parse_line
    states = []
    for line in (DATA / "top95.txt").read_text().split()[:6]:
        r = StepSolver(["singles"]).solve(classic_puzzle(line))
        if r.status != "solved":
            states.append(r.state)
    row = (DATA / "sizes_16min.solutions.csv").read_text().split()[0]
    n, givens = parse_line(row.split(",")[0])
    p = Puzzle(Grid(n)).add_grid_houses().givens(givens)
    states.append(StepSolver(["singles", "intersections"]).solve(p).state)
    return states


@pytest.mark.parametrize("grouped", [False, True])
def test_reach_closure_matches_searches(grouped: bool) -> None:
    """The closure over the hubs (every source's search at once) reaches exactly what a
    breadth-first search from each source reaches, at two length bounds, and the loop
    candidates it gives are those the per-source searches give."""
    from techniques.chains import _bfs, _loop_cands, _reach_closure
    for st in _hard_states():
        an = Analysis(st)
        g = build_graph(an, groups=grouped)
        hubs = g.hubs()
        assert hubs == sum(1 << i for i, m in enumerate(g.strong) if m)
        sources = g.cands & hubs
        for max_length in (3, 5, 10):
            pos, by = _reach_closure(g, sources, max_length)
            reached = {}
            for s in (s for s in range(len(g.strong)) if sources >> s & 1):
                r = 0
                for _, t in _bfs(g, 1 << s, 0, max_length)[1:]:
                    r |= t
                reached[s] = r
                assert r & ~hubs == 0
                assert r == sum(1 << t for t, k in pos.items() if by[k] >> pos[s] & 1)
            loops = 0
            for c in range(len(g.strong)):
                if not g.cands >> c & 1:
                    continue
                wc = g.weak[c]
                if any(reached[s] & wc & ~(1 << s) for s in reached if wc >> s & 1):
                    loops |= 1 << c
            assert _loop_cands(g, sources, max_length) == loops
            assert loops or max_length < 10   # the states have loops to find


# -- group nodes' cross-digit weak links ------------------------------------------------------
#: Anti-Ratio Coverage (f-puzzles set) before its step 53 (the first forcing step of the solve
#: before group nodes had cross-digit links): candidate masks and placed digits
_ANTI_RATIO_MASKS = [
    374, 886, 882, 802, 802, 72, 564, 28, 128, 374, 886, 882, 672, 930, 72, 564, 28, 258, 168,
    680, 680, 278, 20, 278, 802, 802, 64, 180, 676, 946, 950, 930, 674, 8, 64, 274, 490, 1002,
    1002, 1002, 1002, 20, 258, 672, 20, 510, 1022, 1000, 92, 350, 930, 672, 672, 22, 506, 488,
    4, 1000, 1018, 946, 466, 402, 552, 506, 506, 488, 1022, 1022, 950, 470, 406, 552, 512, 506,
    506, 510, 510, 438, 470, 406, 40]
_ANTI_RATIO_PLACED = {8: 7, 26: 6, 33: 3, 34: 6, 56: 2, 72: 9}



def _grouped_aic_removes(title: str, placed: dict, masks, cell: str, digit: int, text: str):
    """The state of f-puzzle ``title`` from ``placed`` and ``masks``: a grouped AIC there
    removes ``digit`` from ``cell`` through ``text``, and every grouped AIC is sound."""
    from conftest import fpuzzle
    p, sol = fpuzzle(title)
    st = p.state_from(masks, [placed.get(c, 0) for c in range(81)])
    found = StepSolver("all").find_all(st, "grouped_aic")
    hit = [s for s in found if (p.cell(cell), digit) in s.eliminations]
    assert hit, [s.explain(2) for s in found]
    assert text in hit[0].explain(2)
    for s in found:
        assert unsound(s, sol) is None
    return p, st

def test_group_cross_digit_link_gives_grouped_aic() -> None:
    """Row 3's 8 is either in r3c4/r3c6, both on a black dot with r3c5 (so r3c5, {2,4}, is
    not 2), or in r3c7/r3c8, which leaves column 9 its 8 in r4c9: the group (8)r3c4,r3c6 is
    weakly linked to (2)r3c5 by the dots, and the AIC (4)r3c5=(2)r3c5-(8)r3c46=(8)r3c78-
    (8)r2c9=(8)r4c9 removes 8 from r4c5 (it sees r4c9, and 8 beside r3c5=4 without a dot
    breaks the negative ratio rule). Without the group's cross-digit link no AIC finds it."""
    p, st = _grouped_aic_removes("Anti-Ratio Coverage", _ANTI_RATIO_PLACED, _ANTI_RATIO_MASKS,
                                 "r4c5", 8, "(2)r3c5-(8)r3c4,r3c6")
    g = build_graph(Analysis(st), groups=True)
    gi = next(i for i, (d, q) in enumerate(g.nodes)
              if d == 8 and q == (1 << p.cell("r3c4")) | (1 << p.cell("r3c6")))
    assert g.weak[gi] >> ((2 - 1) * 81 + p.cell("r3c5")) & 1


def test_group_cross_digit_links_sound_4x4() -> None:
    """Random 4x4 states holding a solution, with random less-than and negative-ratio style
    relations the solution keeps: no grouped chain step removes a solution digit."""
    import random
    rng = random.Random(29)
    grids = _grids4()
    total = crossed = 0
    for _ in range(60):
        sol = rng.choice(grids)
        p = Puzzle(Grid(4)).add_grid_houses()
        for _ in range(rng.randint(2, 6)):
            a, b = rng.sample(range(16), 2)
            if sol[a] < sol[b]:
                p.add_less(a, b)
            elif sol[a] > sol[b]:
                p.add_less(b, a)
        st = p.initial_state()
        for c in range(16):
            m = 1 << sol[c]
            for d in range(1, 5):
                if rng.random() < 0.6:
                    m |= 1 << d
            st.cand[c] = m
        an = Analysis(st)
        g = build_graph(an, groups=True)
        n_cand = len(g.strong) - g.extra
        for i in range(n_cand, len(g.nodes)):
            d = g.nodes[i][0]
            crossed += any(g.nodes[j][0] != d for j in range(n_cand) if g.weak[i] >> j & 1)
        for name in ("grouped_aic", "grouped_discontinuous_nice_loop",
                     "grouped_continuous_nice_loop"):
            for s in registry.get(name).find(an, {}):
                total += 1
                assert unsound(s, sol) is None, s.explain(2)
    assert total and crossed


#: "Anti-knight minimal givens 4" after 41 steps (before this change its 42nd step was a
#: digit chain exclusion): candidate masks and placed digits
_ANTI_KNIGHT_MASKS = [
    1014, 1022, 1006, 1010, 990, 502, 428, 762, 862, 1014, 510, 998, 1010, 988, 486, 420, 634,
    854, 1014, 986, 1006, 976, 14, 468, 424, 760, 602, 976, 984, 968, 34, 976, 34, 388, 200,
    332, 1012, 992, 44, 960, 464, 400, 2, 560, 328, 994, 752, 962, 4, 896, 8, 528, 192, 48, 8,
    258, 16, 258, 32, 512, 64, 4, 128, 742, 548, 706, 216, 130, 194, 528, 256, 570, 994, 994,
    736, 458, 276, 148, 40, 570, 538]
_ANTI_KNIGHT_PLACED = {42: 1, 48: 2, 50: 3, 54: 3, 56: 4, 58: 5, 59: 9, 60: 6, 61: 2, 62: 7,
                       70: 8}


def test_house_group_over_knight_moves_gives_grouped_aic() -> None:
    """Row 2's 3 is in r2c2 or in r2c5/r2c8, and both of those are a knight's move from
    r1c7 and r3c7: the house group (3)r2c5,r2c8 (not a box-line intersection) is strongly
    linked to (3)r2c2 and weakly to the group (3)r1c7,r3c7, so the grouped AIC
    (3)r2c2=(3)r2c5,r2c8-(3)r1c7,r3c7=(3)r9c7-(3)r8c9=(3)r8c4-(4)r8c4=(4)r1c4,r2c4,r3c4
    removes 4 from r2c2. With box-line groups alone no chain finds it (the solver took a
    single-digit Nishio there)."""
    from techniques import chains
    p, st = _grouped_aic_removes("Anti-knight minimal givens 4", _ANTI_KNIGHT_PLACED,
                                 _ANTI_KNIGHT_MASKS, "r2c2", 4,
                                 "(3)r2c2=(3)r2c5,r2c8-(3)r1c7,r3c7")
    r2c2 = p.cell("r2c2")
    g = build_graph(Analysis(st), groups=True)
    q = (1 << p.cell("r2c5")) | (1 << p.cell("r2c8"))
    gi = next(i for i, (d, m) in enumerate(g.nodes) if d == 3 and m == q)
    assert g.strong[gi] >> ((3 - 1) * 81 + r2c2) & 1
    # without house groups the same state has no such chain
    saved = chains._beyond_house_digits
    try:
        chains._beyond_house_digits = lambda links: 0
        fresh = st.copy()
        again = StepSolver("all").find_all(fresh, "grouped_aic")
    finally:
        chains._beyond_house_digits = saved
    assert not any((r2c2, 4) in s.eliminations for s in again)


def test_house_groups_only_with_links_beyond_houses() -> None:
    """A classic grid gets no house groups: its grouped chains keep HoDoKu's box-line
    groups."""
    p = classic_puzzle("." * 81)
    an = Analysis(p.initial_state())
    g = build_graph(an, groups=True)
    inters = {m for m, _ in _full_intersections_of(an)}
    assert all(m in inters or m & (m - 1) == 0 for _, m in g.nodes[81 * 9:])


def _full_intersections_of(an: Analysis):
    from techniques.chains import _intersections
    return _intersections(an)


def test_house_groups_sound_4x4() -> None:
    """Random 4x4 states holding a solution, with random same-digit links between cells of
    different houses that the solution keeps (two cells that must differ) and a few
    less-than relations (cross-digit links): no grouped chain
    step removes a solution digit, and house groups (groups that are not a box-line
    intersection) take part."""
    import random
    rng = random.Random(2929)
    grids = _grids4()
    total = housed = 0
    for _ in range(80):
        sol = rng.choice(grids)
        p = Puzzle(Grid(4)).add_grid_houses()
        differ = [(x, y) for x in range(1, 5) for y in range(1, 5) if x != y]
        for _ in range(rng.randint(2, 8)):
            a, b = rng.sample(range(16), 2)
            if sol[a] != sol[b]:
                p.add_allowed_pairs(a, b, differ)
        for _ in range(rng.randint(0, 3)):   # cross-digit links too (the groups take them)
            a, b = rng.sample(range(16), 2)
            if sol[a] < sol[b]:
                p.add_less(a, b)
        st = p.initial_state()
        for c in range(16):
            m = 1 << sol[c]
            for d in range(1, 5):
                if rng.random() < 0.7:
                    m |= 1 << d
            st.cand[c] = m
        an = Analysis(st)
        g = build_graph(an, groups=True)
        inters = {m for m, _ in _full_intersections_of(an)}
        n_cand = len(g.strong) - g.extra
        housed += sum(1 for _, m in g.nodes[n_cand:] if not any(m & ~i == 0 for i in inters))
        for name in ("grouped_aic", "grouped_discontinuous_nice_loop",
                     "grouped_continuous_nice_loop"):
            for s in registry.get(name).find(an, {}):
                total += 1
                assert unsound(s, sol) is None, s.explain(2)
    assert total and housed
