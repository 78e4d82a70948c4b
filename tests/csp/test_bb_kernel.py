"""The compiled depth-first search of all-different models (``csp._enum_kernel.bb_search``,
``csp.search._search_compiled``) against the Python one (``csp.search._search_bitboards``
with ``SUDOKU_CSP_PURE=1``): the same solutions in the same order, the same node counts,
the same node-limit and time-limit stops at the same node, on classic 9x9 sets, states part
way through a logic solve, 4x4 to 16x16 grids and a jigsaw. Skips when the kernel is not
built."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from csp import Grid, Puzzle
from csp.budget import Budget
from csp.errors import NodeLimitExceeded, TimeLimitExceeded
from csp import search as S

DATA = Path(__file__).resolve().parents[1] / "data"
KERNEL = S.active(S._enum_kernel)
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="csp._enum_kernel is not built "
                                  "(no C compiler at install, or SUDOKU_CSP_PURE=1)")


def _both(monkeypatch, engine, cand, limit, node_limit=None):
    """(kernel outcome, Python outcome): (solutions, nodes) or (exception type, nodes)."""
    out = []
    for pure in ("0", "1"):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        budget = Budget(None)
        budget.node_limit = node_limit
        try:
            out.append(S._search_bitboards(engine, list(cand), limit, budget))
        except (NodeLimitExceeded, TimeLimitExceeded) as e:
            out.append((type(e), e.nodes, str(e)))
    monkeypatch.delenv("SUDOKU_CSP_PURE")
    return out


def _lines(name: str, k: int, seed: int = 1) -> list[str]:
    rows = [ln.split()[0].split(",")[0] for ln in (DATA / name).read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]
    return random.Random(seed).sample(rows, min(k, len(rows)))


@needs_kernel
@pytest.mark.parametrize("name", ["17clue_5000.txt", "forum_hardest_1106.txt",
                                  "multi_solution_1000.txt", "qqwing_expert.txt"])
def test_same_search_on_classic_sets(monkeypatch, name):
    from variants.classic import classic_puzzle
    for line in _lines(name, 40):
        p = classic_puzzle(line)
        eng, cand = p.engine(), p.initial_state().cand
        for limit in (1, 2, 5):
            k, py = _both(monkeypatch, eng, cand, limit)
            assert k == py, (line, limit)
        for node_limit in (0, 1, 7, 50):
            k, py = _both(monkeypatch, eng, cand, 2, node_limit)
            assert k == py, (line, node_limit)


@needs_kernel
def test_same_search_along_logic_paths(monkeypatch):
    """States part way through logic solves (the first uniqueness check's position, and
    later ones), with a few true digits removed so that several solutions appear."""
    from techniques import StepSolver
    from variants.classic import classic_puzzle
    rng = random.Random(3)
    for line in _lines("forum_hardest_1106.txt", 6) + _lines("17clue_5000.txt", 6):
        p = classic_puzzle(line)
        run = StepSolver("default").start(p)
        for i, _ in enumerate(run):
            if i % 7:
                continue
            cand = list(run.state.cand)
            k, py = _both(monkeypatch, p.engine(), cand, 2)
            assert k == py
            full = (1 << 10) - 2
            for c in rng.sample(range(81), 5):
                cand[c] = full
            k, py = _both(monkeypatch, p.engine(), cand, 3, 200)
            assert k == py
            if i > 30:
                break


@needs_kernel
@pytest.mark.parametrize("n", [4, 6, 12, 16])
def test_same_search_on_other_sizes(monkeypatch, n):
    name = {4: "sizes_4", 6: "sizes_6", 12: "sizes_12", 16: "sizes_16min"}[n]
    rows = (DATA / f"{name}.solutions.csv").read_text().split()[:6]
    for row in rows:
        line = row.split(",")[0]
        p = Puzzle(Grid(n)).add_grid_houses().givens(line)
        eng, cand = p.engine(), p.initial_state().cand
        for limit, node_limit in ((2, None), (10, 300), (1, 5)):
            k, py = _both(monkeypatch, eng, cand, limit, node_limit)
            assert k == py, (line, limit, node_limit)


@needs_kernel
def test_same_search_on_a_jigsaw(monkeypatch):
    regions = [[0, 0, 0, 1, 1, 1], [0, 0, 2, 2, 1, 1], [0, 3, 2, 2, 2, 1],
               [3, 3, 3, 4, 2, 5], [3, 4, 4, 4, 5, 5], [3, 4, 5, 5, 4, 5]]
    g = Grid(6, regions=[r for row in regions for r in row])
    full = Puzzle(g).add_grid_houses().solve(first=True, method="search").solution
    for seed in range(20):
        cells = random.Random(seed).sample(range(36), 7)
        q = Puzzle(g).add_grid_houses().givens({c: full[c] for c in cells})
        k, py = _both(monkeypatch, q.engine(), q.initial_state().cand, 1000)
        assert k == py
    # a limit past a C int (every solution) is the same, and node limits past a C long
    # long or below 0
    k, py = _both(monkeypatch, q.engine(), q.initial_state().cand, 10**12)
    assert k == py
    for node_limit in (10**30, -3):
        k, py = _both(monkeypatch, q.engine(), q.initial_state().cand, 5, node_limit)
        assert k == py


@needs_kernel
def test_time_limit_stops_the_compiled_search():
    """An empty 9x9 counted to a million solutions stops on a spent budget at a node
    where the Python search would read it (every 256 nodes). (The tables are built before
    the budget starts: on a loaded machine their building would meet the limit first.)"""
    p = Puzzle(Grid(9)).add_grid_houses()
    eng, cand = p.engine(), p.initial_state().cand
    eng.bitboards()
    budget = Budget(0.05)
    with pytest.raises(TimeLimitExceeded) as e:
        S._search_bitboards(eng, cand, 10**6, budget)
    assert e.value.nodes % 256 == 0


@needs_kernel
def test_bad_input_is_refused():
    p = Puzzle(Grid(4)).add_grid_houses()
    T = p.engine().bitboards()
    packed = KERNEL.bb_tables(T.n, T.size, T.full, T.peers, T.houses, T.home)
    with pytest.raises(TypeError):
        KERNEL.bb_search(packed, [1, 2], None, 0, 2, -1, None)
    with pytest.raises(TypeError):
        KERNEL.bb_search(packed, ["x"] * 16, None, 0, 2, -1, None)
    with pytest.raises((TypeError, ValueError)):
        KERNEL.bb_search("not a capsule", [30] * 16, None, 0, 2, -1, None)
    code, sols, nodes = KERNEL.bb_search(packed, [1 << 20] * 16, None, 0, 2, -1, None)
    assert code == 4            # masks beyond the grid's digits: the Python path
    assert KERNEL.bb_tables(200, 16, 0, [], [], []) is None


def _roots(monkeypatch, engine, cand):
    """(kernel, Python) root propagation of ``cand`` (``csp.search.propagate_pure``)."""
    out = []
    for pure in ("0", "1"):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        out.append(S.propagate_pure(engine, list(cand)))
    monkeypatch.delenv("SUDOKU_CSP_PURE")
    return out


@needs_kernel
def test_same_root_propagation(monkeypatch):
    """``bb_root`` (naked and hidden singles, up to 9 digits) gives ``_root``'s masks, or
    None on the same contradictions: classic sets, states part way through with digits
    put back and wrong ones given, 4x4 and 6x6 grids and a jigsaw; 12x12 and up stay on
    the Python path (locked candidates)."""
    from variants.classic import classic_puzzle
    rng = random.Random(5)
    contradictions = 0
    for name in ("17clue_5000.txt", "forum_hardest_1106.txt", "multi_solution_1000.txt"):
        for line in _lines(name, 30):
            p = classic_puzzle(line)
            eng, cand = p.engine(), p.initial_state().cand
            k, py = _roots(monkeypatch, eng, cand)
            assert k == py and k is not None, line
            for _ in range(4):     # a few cells opened again, a few digits given at random
                c2 = list(k)
                for c in rng.sample(range(81), 6):
                    c2[c] = (1 << 10) - 2
                for c in rng.sample(range(81), 3):
                    c2[c] = 1 << rng.randint(1, 9)
                k2, py2 = _roots(monkeypatch, eng, c2)
                assert k2 == py2, line
                contradictions += k2 is None
    assert contradictions > 0
    for n in (4, 6):
        rows = (DATA / f"sizes_{n}.solutions.csv").read_text().split()[:6]
        for row in rows:
            p = Puzzle(Grid(n)).add_grid_houses().givens(row.split(",")[0])
            k, py = _roots(monkeypatch, p.engine(), p.initial_state().cand)
            assert k == py
    regions = [[0, 0, 0, 1, 1, 1], [0, 0, 2, 2, 1, 1], [0, 3, 2, 2, 2, 1],
               [3, 3, 3, 4, 2, 5], [3, 4, 4, 4, 5, 5], [3, 4, 5, 5, 4, 5]]
    g = Grid(6, regions=[r for row in regions for r in row])
    q = Puzzle(g).add_grid_houses().givens({0: 1, 7: 2, 20: 3})
    k, py = _roots(monkeypatch, q.engine(), q.initial_state().cand)
    assert k == py
    p = Puzzle(Grid(4)).add_grid_houses()
    T = p.engine().bitboards()
    packed = KERNEL.bb_tables(T.n, T.size, T.full, T.peers, T.houses, T.home)
    assert KERNEL.bb_root(packed, [1 << 20] * 16) is False     # the Python path
    with pytest.raises(TypeError):
        KERNEL.bb_root(packed, [30] * 15)
    with pytest.raises(TypeError):
        KERNEL.bb_root(packed, ["x"] * 16)


def _windoku_diagonal() -> Puzzle:
    """A 9x9 with both diagonals and four windows as extra houses: over 64 pairs of
    houses meeting in two cells or more (boxes, lines, diagonals, windows)."""
    p = Puzzle(Grid(9)).add_grid_houses()
    p.add_all_different([r * 9 + r for r in range(9)])
    p.add_all_different([r * 9 + 8 - r for r in range(9)])
    for r0 in (1, 5):
        for c0 in (1, 5):
            p.add_all_different([(r0 + i) * 9 + c0 + j for i in range(3) for j in range(3)])
    return p


@needs_kernel
def test_same_locked_candidates_at_the_root():
    """``bb_root(..., locked=True)`` (``bb_locked``: locked candidates with naked and hidden
    singles to fixpoint, each digit's pairs of houses looked at only where its places
    changed since the last fixpoint) gives ``_root(..., locked=True)``'s masks (every pair,
    every digit, round after round), or None on the same contradictions: classic states
    with cells opened again and digits given at random, a grid with diagonals and windows
    (over 64 pairs of houses), 4x4 and 6x6 grids and a jigsaw; and it removes more than
    singles alone on many of them."""
    from variants.classic import classic_puzzle
    rng = random.Random(7)
    stronger = contradictions = 0

    def check(p, cand):
        nonlocal stronger, contradictions
        eng = p.engine()
        T = eng.bitboards()
        packed = S._packed(KERNEL, T)
        root = S._root(eng, list(cand), locked=True)
        py = None if root is None else root[2]
        k = KERNEL.bb_root(packed, list(cand), True)
        assert k == py
        plain = KERNEL.bb_root(packed, list(cand))
        stronger += k is not None and k != plain
        contradictions += k is None
    wd = _windoku_diagonal()
    assert len(wd.engine().bitboards().pairs) > 64
    for name in ("17clue_5000.txt", "multi_solution_1000.txt"):
        for line in _lines(name, 25):
            p = classic_puzzle(line)
            sol = p.solve(first=True).solution
            for q in (p, wd):
                cand = list(p.initial_state().cand)
                check(q, cand)
                for _ in range(4):
                    c2 = list(cand)
                    for c in rng.sample(range(81), 30):
                        c2[c] = (1 << 10) - 2
                    for c in rng.sample(range(81), rng.choice((0, 2))):
                        c2[c] = 1 << rng.randint(1, 9)
                    check(q, c2)
                if sol is not None:        # a third of a solution given, some of it wrong
                    c3 = [(1 << 10) - 2] * 81
                    for c in rng.sample(range(81), 27):
                        c3[c] = 1 << sol[c]
                    check(q, c3)
    for n in (4, 6):
        for row in (DATA / f"sizes_{n}.solutions.csv").read_text().split()[:6]:
            p = Puzzle(Grid(n)).add_grid_houses().givens(row.split(",")[0])
            check(p, p.initial_state().cand)
    regions = [[0, 0, 0, 1, 1, 1], [0, 0, 2, 2, 1, 1], [0, 3, 2, 2, 2, 1],
               [3, 3, 3, 4, 2, 5], [3, 4, 4, 4, 5, 5], [3, 4, 5, 5, 4, 5]]
    g = Grid(6, regions=[r for row in regions for r in row])
    full = Puzzle(g).add_grid_houses().solve(first=True, method="search").solution
    for seed in range(10):
        cells = random.Random(seed).sample(range(36), 5)
        q = Puzzle(g).add_grid_houses().givens({c: full[c] for c in cells})
        check(q, q.initial_state().cand)
    assert stronger > 20 and contradictions > 5


def _derived(pid: str) -> Puzzle:
    from conftest import load_benchmark
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    ms = load_benchmark("make_workbench_sets", "make_workbench_sets_bb")
    p = load_fpuzzles(next(x for x in ms.derived_set() if x["id"] == pid)["doc"])
    assert p.engine().pure
    return p


@needs_kernel
def test_locked_candidates_at_every_node_cut_the_walk_of_true_candidates():
    """True candidates walk with locked candidates at every node (``WALK_LOCKED``,
    ``bb_counts``' ``locked``): the derived u030b (a classic grid less a third of its
    givens) with a cap of 1 sees its true candidates in about 1,900 nodes, where singles
    alone walk about 72,000 (an open subtree keeps a false candidate that singles cannot
    remove); the counts are the same."""
    import csp.solutions as sol
    p = _derived("u030b")
    assert sol.WALK_LOCKED
    eng = p.engine()
    packed = S._packed(KERNEL, eng.bitboards())
    cand = list(p.initial_state().cand)
    out = [KERNEL.bb_counts(packed, cand, 1, -1, 0, -1, None, locked) for locked in (False, True)]
    (c0, counts0, _, _, nodes0, _), (c1, counts1, _, _, nodes1, _) = out
    assert c0 == c1 == 0 and counts0 == counts1
    assert nodes1 * 10 < nodes0


def _counts_both(monkeypatch, p, cap, **kw):
    """(kernel, Python) ``candidate_counts`` of ``p``: everything it reports."""
    from csp.solutions import candidate_counts
    out = []
    for pure in ("0", "1"):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        r = candidate_counts(p, cap=cap, **kw)
        if r.method == "sat":          # past the walk's budget: the SAT stage, whose
            # compiled enumerator the Python path has not: the answer, capped
            out.append((r.status, r.complete, r.method, r.refuted,
                        [min(k, cap) for k in r.counts]))
        else:
            out.append((r.status, r.complete, r.method, r.counts, r.refuted,
                        r.solutions_seen, r.solution))
    monkeypatch.delenv("SUDOKU_CSP_PURE")
    return out


@needs_kernel
def test_same_candidate_counts_walk(monkeypatch):
    """``bb_counts`` (``solutions._counts_compiled``) walks as ``_counts_pure`` does: the
    same counts, refutations, solutions seen and first solution, with caps 1, 2 and 8, by
    ``"search"`` (no budget) and ``"auto"`` (within the budget, or past it on to SAT the
    same way: the same answer there), on classic grids with many solutions, few, one and
    none, a 4x4 and a jigsaw; a cancel read every 64 nodes stops both at the same node
    with the same counts so far. Both propagate locked candidates at every node
    (``WALK_LOCKED``). (The kernel's budget a solution is its own, larger: both set to 2
    here, so that "auto" gives some walks up.)"""
    from variants.classic import classic_puzzle
    import csp.solutions as sol
    assert sol.WALK_LOCKED
    for name in ("SEARCH_NODES_PER_SOLUTION", "SEARCH_NODES_PER_SOLUTION_COMPILED",
                 "SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1"):
        monkeypatch.setattr(sol, name, 2)
    lines = (_lines("multi_solution_1000.txt", 12) + _lines("17clue_5000.txt", 4)
             + _lines("forum_hardest_1106.txt", 3))
    puzzles = [classic_puzzle(line) for line in lines]
    puzzles.append(classic_puzzle("12" + "." * 79))                  # very many
    puzzles.append(classic_puzzle("12345678." + "........9" + "." * 63))   # r1c9: no digit
    puzzles.append(Puzzle(Grid(4)).add_grid_houses().givens(".2.4....3......."))
    regions = [[0, 0, 0, 1, 1, 1], [0, 0, 2, 2, 1, 1], [0, 3, 2, 2, 2, 1],
               [3, 3, 3, 4, 2, 5], [3, 4, 4, 4, 5, 5], [3, 4, 5, 5, 4, 5]]
    g = Grid(6, regions=[r for row in regions for r in row])
    puzzles.append(Puzzle(g).add_grid_houses().givens({0: 1, 7: 2, 20: 3}))
    full = _windoku_diagonal().solve(first=True).solution      # 12 of its digits given
    puzzles.insert(0, _windoku_diagonal().givens(
        {c: full[c] for c in random.Random(1).sample(range(81), 12)}))
    methods = set()
    for p in puzzles:
        if p is puzzles[-4]:
            k, py = _counts_both(monkeypatch, p, 1, time_limit=5)
            assert k == py
            continue
        for cap in (1, 2, 8):
            for method in ("search", "auto"):
                k, py = _counts_both(monkeypatch, p, cap, method=method)
                assert k == py, (cap, method)
                methods.add(k[2])
    assert methods == {"search", "sat"}        # "auto" gave some up to SAT, both alike
    k, py = _counts_both(monkeypatch, puzzles[-2], 2 ** 40)      # a cap past a C int
    assert k == py and k[2] == "search"
    monkeypatch.setattr(sol, "SEARCH_NODES", 5)
    monkeypatch.setattr(sol, "SEARCH_SLACK", 5)
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION", 0)
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED", 0)
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1", 0)
    for p in puzzles[:4]:
        k, py = _counts_both(monkeypatch, p, 2)
        assert k == py and k[2] == "sat"

    def cancel_after(k):
        calls = [0]

        def cancel():
            calls[0] += 1
            return calls[0] > k
        return cancel
    p = puzzles[-4]                            # a walk of many nodes
    for cap, k in ((1, 3), (8, 10)):
        out = []
        for pure in ("0", "1"):
            monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
            r = sol.candidate_counts(p, cap=cap, method="search", cancel=cancel_after(k))
            out.append((r.complete, r.counts, r.solutions_seen, r.solution))
        monkeypatch.delenv("SUDOKU_CSP_PURE")
        assert out[0] == out[1] and not out[0][0] and out[0][2] > 0


@needs_kernel
def test_same_count_walk(monkeypatch):
    """``count_solutions`` by ``"auto"`` on a houses-only model walks the bitboards in C
    (``solutions._count_compiled``) as the Python path does without the kernel: the same
    counts (within the budget, or past it by SAT), progress reported, and a cancel read
    every 64 nodes stopping both at the same count."""
    from variants.classic import classic_puzzle
    import csp.solutions as sol
    from csp.errors import Cancelled
    puzzles = [classic_puzzle(line) for line in _lines("multi_solution_1000.txt", 10)
               + _lines("17clue_5000.txt", 3)]
    puzzles.append(classic_puzzle("12345678." + "........9" + "." * 63))
    puzzles.append(Puzzle(Grid(4)).add_grid_houses())
    for p in puzzles:
        got = []
        for pure in ("0", "1"):
            monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
            r = sol.count_solutions(p)
            got.append((r.count, r.complete))
        assert got[0] == got[1]
    big = classic_puzzle("123456789" + "." * 72)         # more than a walk's budget
    seen: list[int] = []
    monkeypatch.setenv("SUDOKU_CSP_PURE", "0")
    assert sol.count_solutions(big, limit=50).count == 50
    monkeypatch.setattr(sol, "PROGRESS_EVERY", 0.0)
    r = sol.count_solutions(puzzles[0], progress=seen.append)
    assert r.complete and (not seen or seen[-1] <= r.count)
    counts = []
    for pure in ("0", "1"):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        calls = [0]

        def cancel():
            calls[0] += 1
            return calls[0] > 2
        with pytest.raises(Cancelled) as e:
            sol.count_solutions(big, method="auto", cancel=cancel)
        counts.append(e.value.count)
    monkeypatch.delenv("SUDOKU_CSP_PURE")
    assert counts[0] == counts[1] > 0


@needs_kernel
def test_the_kernel_walk_goes_on_at_tens_of_nodes_a_solution(monkeypatch):
    """The kernel's walk has a budget a solution of its own
    (``SEARCH_NODES_PER_SOLUTION_COMPILED``), above the Python walk's: the derived u017b (a
    grid of houses less a third of its givens) with a cap of 8 sees 764 solutions on a
    walk that needs more than 48 nodes a solution somewhere (locked candidates at every
    node): given up at 48 (632 solutions seen, then SAT: about 100 ms), walked to its end
    at 100 (about 40 ms). The capped counts are the SAT path's either way."""
    import csp.solutions as sol
    p = _derived("u017b")
    res = sol.candidate_counts(p, cap=8)
    ref = sol.candidate_counts(p, cap=8, method="sat")
    assert (res.method, res.complete, ref.complete) == ("search", True, True)
    cells, digits = range(p.grid.size), range(1, 10)
    assert [[res.count(c, d) for d in digits] for c in cells] == \
        [[ref.count(c, d) for d in digits] for c in cells]
    assert res.refuted == ref.refuted
    assert 48 < sol.SEARCH_NODES_PER_SOLUTION_COMPILED
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED", 48)
    given_up = sol.candidate_counts(p, cap=8)
    assert given_up.method == "sat" and given_up.counts == ref.counts


@needs_kernel
def test_true_candidates_with_a_cap_of_one_walk_at_their_own_rate(monkeypatch):
    """With a cap of 1 the kernel's walk has its own budget a solution
    (``SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1``, below the one of caps above 1 and counts):
    the derived u021b (a grid of houses less a third of its givens, 133 solutions seen)
    ends its walk at 32 nodes a solution and gives it up at 24, whatever the other rate
    is; the answer is the same either way."""
    import csp.solutions as sol
    p = _derived("u021b")
    assert 32 <= sol.SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1 \
        < sol.SEARCH_NODES_PER_SOLUTION_COMPILED
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED", 10 ** 6)
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1", 24)
    given_up = sol.candidate_counts(p, cap=1)
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED", 0)
    monkeypatch.setattr(sol, "SEARCH_NODES_PER_SOLUTION_COMPILED_CAP1", 32)
    walked = sol.candidate_counts(p, cap=1)
    assert (given_up.method, walked.method) == ("sat", "search")
    assert given_up.complete and walked.complete
    assert [given_up.digits(c) for c in range(81)] == [walked.digits(c) for c in range(81)]
