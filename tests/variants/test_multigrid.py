"""Multi-grid (samurai / gattai) puzzles: geometry, search, logic, formats, CLI."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from csp import Grid, Puzzle
from csp.errors import GridSizeError, InvalidConstraint, ParseError
from csp.grid import SAMURAI_ORIGINS, MultiGrid
from techniques import StepSolver, registry
from techniques.analysis import Analysis
from techniques.loop import is_effective, unsound
from variants import classic_puzzle, sandwich, windoku
from sudoku_csp.formats.loader import puzzle_from_text
from csp.io import parse_subgrids, write_subgrids
from variants.multigrid import gattai, samurai, samurai_grid
from sudoku_csp.formats.spec import SpecError, from_spec, to_spec

from conftest import ROOT

LINES = [ln.split() for ln in (ROOT / "tests/data/samurai.txt").read_text().splitlines()
         if ln and not ln.startswith("#")]
HARD, EASY = LINES[0], LINES[1]


def _sol(line: str) -> list[int]:
    return parse_subgrids(samurai_grid(), line)


def test_samurai_geometry():
    g = samurai_grid()
    assert (g.size, g.height, g.width) == (5 * 81 - 4 * 9, 21, 21)
    assert len(g.houses) == 5 * 27 - 4 and all(len(h.cells) == 9 for h in g.houses)
    for c in range(g.size):
        assert g.cell(g.name(c)) == c and g.at(*g.rc(c)) == c
    # the four corner boxes of the centre grid are each shared with one corner grid
    centre = set(g.subgrids[2])
    shared = [set(g.subgrids[k]) & centre for k in (0, 1, 3, 4)]
    assert [len(s) for s in shared] == [9, 9, 9, 9]
    boxes = [set(h.cells) for h in g.houses if h.kind == "box"]
    assert all(s in boxes for s in shared)
    assert sum(1 for h in g.houses for c in h.cells if c == g.cell("r7c7")) == 5  # 2 rows, 2 cols, 1 box
    for bad in ("r1c10", "r10c1", "r22c1", (9, 0), 369):
        with pytest.raises(InvalidConstraint):
            g.cell(bad)
    assert g.knight(g.cell("r1c1")) == (g.cell("r2c3"), g.cell("r3c2"))
    assert g.orthogonal(g.cell("r1c9")) == (g.cell("r1c8"), g.cell("r2c9"))  # r1c10: no cell
    with pytest.raises(GridSizeError):
        MultiGrid(9, [(0, 0), (0, 0)])
    with pytest.raises(GridSizeError):
        MultiGrid(7, [(0, 0)])
    assert MultiGrid(9, SAMURAI_ORIGINS) == samurai_grid() != Grid(9)


def test_subgrid_line_round_trip_and_shared_cells():
    g = samurai_grid()
    sol = _sol(HARD[1])
    assert write_subgrids(g, sol) == HARD[1]
    # a shared cell must agree between the two parts that hold it: r7c7 is TL's r7c7 and
    # the centre's r1c1 (part 3, offset 0)
    line = list(HARD[1])
    line[2 * 81] = str(sol[g.cell("r7c7")] % 9 + 1)
    with pytest.raises(ParseError, match="r7c7"):
        parse_subgrids(g, "".join(line))
    with pytest.raises(ParseError, match="sub-grid BR"):
        parse_subgrids(g, HARD[0][:-1] + "x")
    with pytest.raises(ParseError, match="405"):
        parse_subgrids(g, HARD[0][:-1])
    # a line over the grid's own 369 cells is accepted too
    assert parse_subgrids(g, "".join(map(str, sol))) == sol


@pytest.mark.parametrize("case", [HARD, EASY], ids=["minimal", "singles"])
def test_search_finds_the_unique_solution(case):
    p = samurai(case[0])
    sol = _sol(case[1])
    res = p.solve()
    assert res.status == "solved" and res.solution == sol
    assert p.check_solution(sol)
    # every sub-grid of the solution is a valid classic sudoku holding the givens
    g = p.grid
    givens = _sol(case[0])
    for cells in g.subgrids:
        sub = classic_puzzle("".join(str(givens[c] or ".") for c in cells))
        assert sub.check_solution([sol[c] for c in cells])
    # the general search (a non-house rule disables the bitboard fast path) agrees
    q = samurai(case[0]).add_constraint(lambda a, b: True, ["r1c1", "r21c21"])
    assert not q.engine().pure
    assert q.count_solutions(limit=5) == 1 and q.solve().solution == sol


def test_logic_solver_on_samurai():
    sol = _sol(EASY[1])
    res = StepSolver(verify=sol).solve(samurai(EASY[0]))
    assert res.status == "solved" and res.state.values() == sol
    # the minimal puzzle: basic techniques make verified progress, then get stuck
    hard = _sol(HARD[1])
    p = samurai(HARD[0])
    res = StepSolver(["singles", "intersections", "subsets"], verify=hard).solve(p)
    st = res.state
    placed = sum(1 for c in range(p.grid.size) if st.placed[c])
    assert len(p.given) < placed < p.grid.size
    assert all(st.cand[c] >> hard[c] & 1 for c in range(p.grid.size))
    # steps name canvas cells
    texts = " ".join(s.explain(2) for s in res.steps)
    assert "r21c" in texts or "c21" in texts
    assert "TL row" in texts or "C col" in texts


def test_advanced_techniques_sound_on_samurai():
    """Techniques are generic over houses: at the state where the basic ones are stuck,
    every step of a spread of advanced techniques is sound for the known solution."""
    hard = _sol(HARD[1])
    st = StepSolver(["singles", "intersections", "subsets"]).solve(samurai(HARD[0])).state
    an = Analysis(st)
    found = 0
    names = ["x_wing", "swordfish", "jellyfish", "finned_x_wing", "finned_swordfish",
             "franken_x_wing", "skyscraper", "two_string_kite", "turbot_fish", "empty_rectangle",
             "xy_wing", "xyz_wing", "w_wing", "simple_colors_trap", "simple_colors_wrap",
             "multi_colors_1", "uniqueness_test_1", "uniqueness_test_2", "uniqueness_test_4",
             "hidden_rectangle", "bug_plus_1", "sue_de_coq", "aic", "discontinuous_nice_loop",
             "als_xz", "als_xy_wing"]
    for name in names:
        t = registry.get(name)
        for step in t.find(an, {}):
            if is_effective(st, step):
                found += 1
                assert unsound(step, hard) is None, step.explain(2)
    assert found >= 10


@pytest.mark.slow
def test_default_logic_solves_the_minimal_samurai():
    """The whole default technique set (fish per sub-grid, chains, ALS, uniqueness) solves
    the minimal puzzle, every step checked against the solution (about 10 s)."""
    sol = _sol(HARD[1])
    res = StepSolver(verify=sol).solve(samurai(HARD[0]), time_limit=300)
    assert res.status == "solved" and res.state.values() == sol


def test_gattai_layouts_and_rules():
    # two 4x4 grids sharing a box: each of the 288 first grids leaves 288/24 completions of
    # the second (its shared box is fixed); both searches (bitboard and general) count them
    p = gattai([(0, 0), (2, 2)], n=4)
    assert p.grid.size == 28
    q = gattai([(0, 0), (2, 2)], n=4).add_constraint(lambda a, b: True, ["r1c1", "r6c6"])
    assert p.count_solutions(10_000) == q.count_solutions(10_000) == 288 * 288 // 24
    for bad in (windoku(), sandwich(0, 1, 5)):
        with pytest.raises(GridSizeError, match="multi-grid"):
            samurai().use(bad)


def test_spec_round_trip_and_json(tmp_path):
    p = samurai(HARD[0])
    spec = to_spec(p)
    assert spec["version"] == 2 and spec["multigrid"]["origins"][2] == [6, 6]
    assert len(spec["givens"]) == 369
    q = from_spec(json.loads(json.dumps(spec)))
    assert q.grid == p.grid and q.given == p.given and to_spec(q) == spec
    assert q.solve().solution == _sol(HARD[1])
    # ordinary puzzles keep version 1
    assert to_spec(classic_puzzle("." * 81))["version"] == 1
    bad = dict(spec, version=1)
    with pytest.raises(SpecError, match="version 2"):
        from_spec(bad)
    assert puzzle_from_text(HARD[0]).grid == p.grid


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudoku_csp.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_cli_solves_samurai(tmp_path):
    sol = _sol(HARD[1])
    r = _cli("solve", HARD[0])
    assert r.returncode == 0 and r.stdout.split() == ["solved", "".join(map(str, sol))]
    r = _cli("solve", EASY[0], "--json", "--logic")
    out = json.loads(r.stdout)
    assert out["status"] == "solved" and len(out["grid"]) == 21
    assert out["grid"][0][9] is None and out["grid"][20][20] == _sol(EASY[1])[-1]
    f = tmp_path / "s.json"
    f.write_text(json.dumps(to_spec(samurai(HARD[0]))))
    assert _cli("count", str(f)).stdout.strip() == "1"
    r = _cli("solve", HARD[0][:-1] + "x")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "sub-grid BR" in r.stderr


def test_pencilmarks_render_canvas():
    text = str(samurai(HARD[0]).pencilmarks())
    lines = text.splitlines()
    assert len(lines) == 21 + 8            # 21 canvas rows, 6 box separators, 2 borders
    assert len({len(ln) for ln in lines}) == 1


def test_puzzle_api_with_names():
    p = Puzzle(samurai_grid())
    p.add(p["r7c13"] < p["r7c14"])
    assert p.constraints[0].name == "r7c13<r7c14"
    with pytest.raises(InvalidConstraint):
        p["r1c11"]
