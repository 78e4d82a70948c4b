"""ALS family (ALS-XZ, ALS-XY-Wing, ALS Chain, Death Blossom), Sue de Coq and templates:
HoDoKu regression cases, the design-document seeds, soundness sweeps, variant cases."""
from __future__ import annotations

import pytest

from techniques import StepSolver, apply_step, registry
from techniques.analysis import Analysis
from techniques.reglib import parse_case, run_case
from techniques.verify import check_puzzle
from variants.classic import classic_puzzle

from conftest import DATA, load_solutions

CODES = ("0901", "0902", "0903", "0904", "1101", "1201", "1202")

#: library cases that still fail (ratchet: strict xfail)
XFAIL: dict[str, str] = {}


def _cases() -> list:
    out = []
    with open(DATA / "reglib-1.3-public.txt", encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.startswith(":")]
    counter: dict[str, int] = {}
    for line in lines:
        case = parse_case(line)
        if case.code not in CODES:
            continue
        if not registry.by_code(case.code):
            continue
        key = line.split(":")[1]
        counter[key] = counter.get(key, 0) + 1
        cid = f"{key}#{counter[key]}"
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[cid])] if cid in XFAIL else []
        out.append(pytest.param(line, id=cid, marks=marks))
    return out


@pytest.mark.parametrize("line", _cases())
def test_reglib(line: str) -> None:
    ok, msg = run_case(parse_case(line))
    assert ok, msg


# -- ALS-XY-Wing seeds from the design document ------------------------------------------
SEEDS = [
    # puzzle, pivot C, ALS A, ALS B, RCC x (A-C), RCC y (B-C), elimination
    ("8....5..7.7.1.8.6...6.9.8..64.9.7.3...3...7...9.8.2.46..9.8.4...1.5.4.2.4..3....1",
     "r1c78 {129}", "r4c57 {125}", "r12c3 {145}", 2, 1, {"r4c3<>5"}),
    ("4..1....39.7.3.54..539..7....5...3..2963.7154..8...6....4..389..39.4.2.56....9..7",
     "r9c5 {25}", "r6c569 {1259}", "r129c2 {1268}", 5, 2, {"r6c2<>1"}),
]


def _seed_step(state, c, a, b, x, y):
    an = Analysis(state)
    for s in registry.get("als_xy_wing").find(an, {"dedupe": False}):
        note = s.note
        if f"C={c}" not in note:
            continue
        if {f"A={a}", f"B={b}"} <= set(note.split(", ")) and f"X={x}" in note and f"Y={y}" in note:
            return s
        if {f"A={b}", f"B={a}"} <= set(note.split(", ")) and f"X={y}" in note and f"Y={x}" in note:
            return s
    return None


@pytest.mark.parametrize("seed", SEEDS, ids=["seed1", "seed2"])
def test_als_xy_wing_seed_on_solve_path(seed) -> None:
    """Walk the logic path (singles + ALS-XZ + ALS-XY-Wing) until the documented wing
    appears; it must make exactly the documented elimination, which must be sound."""
    line, c, a, b, x, y, elims = seed
    p = classic_puzzle(line)
    sol = p.solve().solution
    walker = StepSolver(["singles", "als_xz", "als_xy_wing"], unique=True)
    st = p.pencilmarks()
    for _ in range(60):
        s = _seed_step(st, c, a, b, x, y)
        if s is not None:
            break
        step = walker.next_step(st)
        assert step is not None, "stuck before the seed wing appeared"
        apply_step(st, step)
    else:
        pytest.fail("seed wing not found on the path")
    assert set(s.to_dict()["eliminations"]) == elims
    assert s.digits == tuple(sorted({int(e[-1]) for e in elims}))
    for cell, d in s.eliminations:
        assert sol[cell] != d


def test_als_xy_wing_seed_fixture() -> None:
    """The same wing on a recorded pencil-mark state (tests/data/als_xy_wing_seeds.txt,
    written from the walk above) -- independent of the path."""
    from csp.io import parse_pencilmarks
    blocks = (DATA / "als_xy_wing_seeds.txt").read_text().split("\n\n")
    assert len(blocks) == len(SEEDS)
    for seed, text in zip(SEEDS, blocks):
        line, c, a, b, x, y, elims = seed
        p = classic_puzzle(line)
        n, masks = parse_pencilmarks(text)
        st = p.state_from(masks)
        for cell, v in p.given.items():
            st.placed[cell] = v
        for cell in range(81):
            if masks[cell] & (masks[cell] - 1) == 0 and cell not in p.given:
                st.placed[cell] = masks[cell].bit_length() - 1
        s = _seed_step(st, c, a, b, x, y)
        assert s is not None
        assert set(s.to_dict()["eliminations"]) == elims


# -- soundness ---------------------------------------------------------------------------
FAMILY = ["als_xz", "als_xy_wing", "sue_de_coq", "death_blossom", "als_chain",
          "template_set", "template_delete"]
#: small search budgets keep the sweep fast (a budget only shortens the search)
SWEEP_OPTS = {"max_nodes": 2000}


def _sweep(names: list[tuple[str, int]], techniques: list[str], max_steps: int = 120) -> None:
    problems = []
    for name, k in names:
        for puzzle, sol in load_solutions(name, k):
            p = classic_puzzle(puzzle)
            problems += check_puzzle(p, sol, techniques, path=["singles"] + techniques,
                                     max_steps=max_steps, options=SWEEP_OPTS)
    assert problems == []


def test_soundness_sample() -> None:
    _sweep([("qqwing_expert", 2)], FAMILY, max_steps=60)


@pytest.mark.slow
@pytest.mark.heavy
def test_soundness_slow() -> None:
    """A quarter of the long sweep, every set represented (CI's slow run)."""
    _sweep([("norvig_top95", 8), ("qqwing_expert", 10), ("forum_hardest_110626", 3),
            ("tdoku_magictour_top1465", 5)], FAMILY)


@pytest.mark.long
def test_soundness_long() -> None:
    """100 puzzles: 2,071 s on the loaded 2-core machine (2026-11-29), beyond CI's time
    budget (run by hand: ``pytest -m long``)."""
    _sweep([("norvig_top95", 30), ("qqwing_expert", 40), ("forum_hardest_110626", 10),
            ("tdoku_magictour_top1465", 20)], FAMILY)
