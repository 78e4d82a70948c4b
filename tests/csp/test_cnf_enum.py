"""The compiled enumeration of the SAT encoding (csp._enum_kernel, csp/cnf_enum.py) against
the pure-Python SAT path: identical counts, true candidates, capped counts, statuses and
"complete" flags on the workbench sets; against an independent enumeration on small grids;
the budget giving up cleanly; time limits, cancel and count limits bounding the whole call.

The comparisons call both paths in one process: the kernel path as the library calls it,
the Python path with ``SUDOKU_CSP_PURE=1`` (csp.kernel). They skip when the kernel is not
built."""
from __future__ import annotations

import array
import itertools
import random
import threading
import time
from pathlib import Path

import pytest

from conftest import workbench_sets
from csp import Grid, Puzzle
from csp import cnf_enum
from csp.errors import Cancelled, TimeLimitExceeded
from csp.cnf_enum import compiled_kernel
from csp.sat import SatSession, unpacked
from csp.solutions import candidate_counts, count_solutions, iter_solutions

ROOT = Path(__file__).resolve().parents[2]
KERNEL = compiled_kernel()
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="csp._enum_kernel is not built "
                                  "(no C compiler at install, or SUDOKU_CSP_PURE=1)")


def _sets() -> dict:
    return workbench_sets()


_SETS: dict | None = None


def puzzle(set_name: str, ident: str) -> Puzzle:
    global _SETS
    if _SETS is None:
        _SETS = _sets()
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    item = next(it for it in _SETS[set_name] if it["id"] == ident)
    return load_fpuzzles(item["doc"])


def ids(set_name: str, count: int, step: int = 1) -> list[str]:
    prefix = {"unique": "u", "variants": "v", "classic": "c"}[set_name]
    return [f"{prefix}{i:03d}" if prefix == "u" else f"{prefix}{i:02d}"
            for i in range(1, count + 1, step)]


def pure(monkeypatch, fn, *args, **kw):
    """``fn`` on the pure-Python path."""
    with monkeypatch.context() as m:
        m.setenv("SUDOKU_CSP_PURE", "1")
        assert compiled_kernel() is None
        return fn(*args, **kw)


def view(res) -> tuple:
    """Everything a caller reads of a CandidateCounts: status, completeness, the true
    candidates with their counts capped, and nothing left undecided."""
    n = res.n
    return (res.status, res.complete,
            [tuple(min(res.counts[c * n + d], res.cap) for d in range(1, n + 1))
             for c in range(res.size)],
            [res.undecided(c) for c in range(res.size)])


def kernel_used(p: Puzzle, cap: int = 0) -> bool:
    """True when the kernel answers this puzzle within its budget (no fallback)."""
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=cap)
        return en is not None and cnf_enum.run(en, None, capped=cap > 0) is not None


# ---------------------------------------------------------------------------------------
# the workbench sets: kernel path == Python path
# ---------------------------------------------------------------------------------------
ALL = ([("variants", i) for i in ids("variants", 40)]
       + [("classic", i) for i in ids("classic", 40)]
       + [("unique", i) for i in ids("unique", 103)])
#: the default run's sample: the variants with many solutions and with few, a few classic
#: and unique puzzles (the slow sweep below takes every puzzle of the three sets)
SAMPLE = ([("variants", i) for i in ("v01", "v06", "v07", "v11", "v14", "v15", "v19", "v20",
                                     "v24", "v27", "v28", "v30", "v31", "v34", "v35", "v37",
                                     "v39", "v40")]
          + [("classic", i) for i in ids("classic", 40, 8)]
          + [("unique", i) for i in ids("unique", 103, 12)])


@needs_kernel
@pytest.mark.parametrize("set_name,ident", SAMPLE)
def test_counts_and_candidates_equal_the_python_path(monkeypatch, set_name, ident) -> None:
    _compare(monkeypatch, set_name, ident)


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize("set_name,ident", ALL)
def test_every_workbench_puzzle_equals_the_python_path(monkeypatch, set_name, ident) -> None:
    _compare(monkeypatch, set_name, ident)


def _compare(monkeypatch, set_name: str, ident: str) -> None:
    p = puzzle(set_name, ident)
    for cap in (1, 8):
        for method in ("auto", "sat"):
            got = candidate_counts(p, cap=cap, method=method)
            want = pure(monkeypatch, candidate_counts, p, cap=cap, method=method)
            assert view(got) == view(want), (ident, cap, method)
            if got.solution is not None:
                assert p.check_solution(got.solution)
    got_n = count_solutions(p).count
    assert got_n == pure(monkeypatch, count_solutions, p).count
    assert count_solutions(p, limit=3).count == min(3, got_n)


@needs_kernel
def test_the_sets_are_answered_by_the_kernel_mostly() -> None:
    """The comparison above is not vacuous: on the variant set the kernel answers (within
    its budget) most counts and true candidates itself."""
    answered = [kernel_used(puzzle("variants", i), cap) for i in ids("variants", 40, 4)
                for cap in (0, 1, 8)]
    assert sum(answered) >= 0.7 * len(answered)


#: unique puzzles whose root propagation decides every cell
DECIDED = ("u008", "u021", "u025", "u044")


def _kernel_on(s: SatSession, cap: int, keep: bool):
    """The compiled enumerator on ``s``'s encoding even when the root decided every cell
    (what :func:`cnf_enum.enumerator` did before :class:`cnf_enum.Decided`), from the
    clauses of that encoding (not the kernel's own of all-different rules)."""
    free, houses, s.free, s.houses = s.free, s.houses, [0], None
    try:
        en = cnf_enum.enumerator(s, cap=cap, keep=keep)
    finally:
        s.free, s.houses = free, houses
    assert en is not None and not isinstance(en, cnf_enum.Decided)
    return en


def _same_answers(a, b, keep: bool) -> None:
    assert a.run(cnf_enum.CHUNK, cnf_enum.CHUNK) == b.run(cnf_enum.CHUNK, cnf_enum.CHUNK) \
        == cnf_enum.DONE
    assert (a.found, a.first, a.counts()) == (b.found, b.first, b.counts())
    if keep:
        assert a.take() == b.take()


@needs_kernel
@pytest.mark.parametrize("ident", DECIDED)
@pytest.mark.parametrize("cap,keep", [(0, False), (0, True), (1, False), (8, True)])
def test_decided_at_the_root_answers_as_the_kernel(ident, cap, keep) -> None:
    """A session the root decided builds no encoding: :class:`cnf_enum.Decided` answers,
    the same as the kernel walking the encoding."""
    p = puzzle("unique", ident)
    with SatSession(p, defer=True) as s:
        assert not s.free
        en = cnf_enum.enumerator(s, cap=cap, keep=keep)
        assert isinstance(en, cnf_enum.Decided) and "enc" not in vars(s)
        assert en.found == 1 and p.check_solution(en.first)
        _same_answers(en, _kernel_on(s, cap, keep), keep)
        assert "enc" in vars(s)                 # built when read


@needs_kernel
@pytest.mark.parametrize("cap", [0, 1])
def test_decided_cells_that_break_a_rule_have_no_solution(cap) -> None:
    """Digits that break a rule the root did not propagate (here given as decided): no
    solution, as the kernel finds on the encoding."""
    p = Puzzle(Grid(4)).add_grid_houses()
    p.add_sum(["r1c1", "r1c2"], 4)               # 1 + 2 = 3: broken
    values = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    with SatSession(p, [1 << d for d in values], propagated=True, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=cap, keep=True)
        assert isinstance(en, cnf_enum.Decided)
        assert en.found == 0 and en.first is None and en.take() == []
        _same_answers(en, _kernel_on(s, cap, True), True)


def test_a_decided_root_fixpoint_holds_every_plain_relation() -> None:
    """A session whose own engine decided every cell (``root_fixpoint``) holds every
    plain relation, which :class:`cnf_enum.Decided` then reads no more: on each workbench
    puzzle decided at the root, the full check agrees."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from csp.sat import SatSession
    seen = 0
    for rows in _sets().values():
        for it in rows:
            p = load_fpuzzles(it["doc"])
            with SatSession(p, defer=True) as s:
                if s.cand is None or s.free:
                    continue
                assert s.root_fixpoint
                vals = [m.bit_length() - 1 for m in s.cand]
                assert cnf_enum._holds(p.constraints, vals, s.n, True) == \
                    cnf_enum._holds(p.constraints, vals, s.n), it["id"]
                assert cnf_enum._holds(p.constraints, vals, s.n), it["id"]
                seen += 1
    assert seen > 20, seen


def test_decided_reads_the_rules_as_their_checks() -> None:
    """:func:`cnf_enum._holds` (a plain relation read from its support table) says what
    every rule's ``check`` says, on each unique workbench puzzle's stated solution and on
    grids with one to three of its digits changed."""
    import random
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    rng = random.Random(7)
    seen = broken = 0
    for it in _sets()["unique"]:
        p = load_fpuzzles(it["doc"])
        n = p.grid.n
        sol = p.meta.get("solution")
        if not isinstance(sol, list) or len(sol) != p.grid.size:
            continue
        values = [int(d) if str(d).isdigit() and 1 <= int(d) <= n else 1 for d in sol]
        for k in range(6):
            vals = list(values)
            for _ in range(k % 4):
                vals[rng.randrange(len(vals))] = rng.randint(1, n)
            want = all(con.check(*[vals[c] for c in con.cells])
                       for con in p.constraints if con.cells)
            assert cnf_enum._holds(p.constraints, vals, n) == want, it["id"]
            # a root fixpoint reads no plain relation: those of a solution hold
            assert not want or cnf_enum._holds(p.constraints, vals, n, True), it["id"]
            seen += 1
            broken += not want
    assert seen > 300 and broken > 100, (seen, broken)


# ---------------------------------------------------------------------------------------
# against an independent enumeration
# ---------------------------------------------------------------------------------------
def brute(p: Puzzle) -> list[tuple[int, ...]]:
    """Every solution of a 4x4 puzzle by trying every Latin square (rows and columns of
    different digits, as every puzzle here has; each row a permutation its cells' givens
    allow), each checked by ``check_solution``. (Every grid of such rows was 331,776 checks
    a puzzle, a third of this file's time.)"""
    n = p.grid.n
    cand = p.initial_state().cand
    perms = list(itertools.permutations(range(1, n + 1)))
    rows = [[row for row in perms if all(cand[r * n + i] >> d & 1 for i, d in enumerate(row))]
            for r in range(n)]
    out: list[tuple[int, ...]] = []

    def walk(r: int, grid: tuple[int, ...], used: list[int]) -> None:
        if r == n:
            if p.check_solution(list(grid)):
                out.append(grid)
            return
        for row in rows[r]:
            if all(not used[i] >> d & 1 for i, d in enumerate(row)):
                walk(r + 1, grid + row, [u | 1 << d for u, d in zip(used, row)])

    walk(0, (), [0] * n)
    return out


def small_puzzles() -> list[Puzzle]:
    out = []
    for givens in ("................", ".2.4....3.......", "1...............",
                   "1.3.............", "1..2..3..4......"):
        p = Puzzle(Grid(4)).add_grid_houses().givens(givens)
        out.append(p)
        q = Puzzle(Grid(4)).add_grid_houses().givens(givens)
        q.add_sum(["r1c1", "r1c2"], 5, distinct=True)   # a cage: selector variables
        out.append(q)
        r = Puzzle(Grid(4)).add_grid_houses().givens(givens)
        r.add_sum(["r2c1", "r3c1", "r3c2"], 6, distinct=False)   # a table
        out.append(r)
    return out


@needs_kernel
@pytest.mark.parametrize("k", range(15))
def test_small_grids_equal_an_independent_enumeration(k) -> None:
    p = small_puzzles()[k]
    sols = brute(p)
    assert count_solutions(p, method="sat").count == len(sols)
    assert sorted(tuple(s) for s in iter_solutions(p, method="sat")) == sorted(sols)
    for cap in (1, 2, 5):
        res = candidate_counts(p, cap=cap, method="sat")
        assert res.complete
        for c in range(16):
            for d in range(1, 5):
                assert res.count(c, d) == min(cap, sum(1 for s in sols if s[c] == d))
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        if s.cand is not None:
            en = cnf_enum.enumerator(s, keep=True)
            assert cnf_enum.run(en, None) == cnf_enum.DONE
            assert sorted(tuple(x) for x in en.take()) == sorted(sols)


@pytest.mark.parametrize("run,costly", [(0, 2000), (1, 2000), (3, 2000), (10 ** 9, 10 ** 9),
                                        (10 ** 9, 0)])
def test_the_sat_questions_equal_an_independent_enumeration(monkeypatch, run, costly) -> None:
    """The SAT loop of true candidates (no kernel): a question per candidate, and after
    ``REFUTE_RUN`` "none" in a row (0: always; 10^9: never) or one "none" of
    ``REFUTE_COSTLY`` conflicts (0: the first) one for all those left, gives the counts of a
    brute-force enumeration."""
    from csp import solutions
    monkeypatch.setattr(solutions, "REFUTE_RUN", run)
    monkeypatch.setattr(solutions, "REFUTE_COSTLY", costly)
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    for p in small_puzzles()[::2]:
        _assert_counts_are_brute(p, brute(p), (1, 2, 5))


def _assert_counts_are_brute(p: Puzzle, sols: list[tuple[int, ...]], caps) -> None:
    """True candidates of a 4x4 puzzle by the SAT path, for each cap: complete, the status,
    every count and every refuted candidate are the brute-force enumeration's."""
    for cap in caps:
        res = candidate_counts(p, cap=cap, method="sat")
        assert res.complete
        assert res.status == ("unsolvable" if not sols else
                              "unique" if len(sols) == 1 else "multiple")
        for c in range(16):
            for d in range(1, 5):
                k = sum(1 for s in sols if s[c] == d)
                assert res.count(c, d) == min(cap, k), (cap, c, d)
                assert bool(res.refuted[c] >> d & 1) == (k == 0 and res.cand[c] >> d & 1 == 1)


def test_a_costly_none_turns_every_later_question_into_one_for_all(monkeypatch) -> None:
    """After a "none" of at least ``REFUTE_COSTLY`` conflicts the SAT loop asks only
    questions about all the candidates left (a fresh literal assumed), never one candidate
    again; with the knob out of reach it asks one a candidate. The answers are the same."""
    from csp import sat, solutions
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    asked: list[tuple[tuple[int, ...], bool]] = []
    orig = sat.SatSession.solve_lits

    def solve_lits(self, assumptions=()):
        got = orig(self, assumptions)
        asked.append((tuple(assumptions), got is None))
        return got

    monkeypatch.setattr(sat.SatSession, "solve_lits", solve_lits)
    monkeypatch.setattr(solutions, "REFUTE_RUN", 10 ** 9)
    last = 16 * 4 + 4                  # candidate literals are cell * 4 + digit
    checked = 0
    for p in small_puzzles():
        answers = []
        for costly in (10 ** 9, 0):
            monkeypatch.setattr(solutions, "REFUTE_COSTLY", costly)
            asked.clear()
            res = candidate_counts(p, cap=1, method="sat")
            answers.append([res.count(c, d) for c in range(16) for d in range(1, 5)])
            first_none = next((i for i, (a, none) in enumerate(asked) if a and none), None)
            if first_none is None or first_none == len(asked) - 1:
                break                  # no "none" with questions after it
            later = [a for a, _ in asked[first_none + 1:]]
            if costly == 0:
                assert all(len(a) == 1 and a[0] > last for a in later), asked
                assert answers[0] == answers[1]
                checked += 1
            else:
                assert any(len(a) == 1 and a[0] <= last for a in later), asked
    assert checked >= 2


def _symmetric_puzzles() -> list[Puzzle]:
    """4x4 puzzles of digit-symmetric rules only (houses, equal and not-equal pairs), with
    and without givens: their digits part into classes that swap (csp.solutions.digit_classes)."""
    from csp.constraints import Equal, NotEqual
    rng = random.Random(20261202)
    out = []
    for givens in ("................", "1...............", "1.3.............",
                   "12..............", ".2......3.......", "1....2.........."):
        for k in range(3):
            p = Puzzle(Grid(4)).add_grid_houses().givens(givens)
            for _ in range(k + 1):
                a, b = rng.sample(range(16), 2)
                p.add(NotEqual(a, b) if rng.random() < 0.6 else Equal(a, b))
            out.append(p)
    return out


@pytest.mark.parametrize("k", range(18))
def test_swapped_digits_count_like_an_independent_enumeration(monkeypatch, k) -> None:
    """On digit-symmetric puzzles the SAT loop counts each solution's swapped twins
    (csp.solutions._spread, where they reach the cap): the counts are a brute-force
    enumeration's, for caps below and above what a class's swaps reach (a class of 3 digits
    all used: 2 twins a candidate, below a cap of 3)."""
    from csp import solutions
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    spread = []
    orig = solutions._spread
    monkeypatch.setattr(solutions, "_spread", lambda *a: (spread.append(1), orig(*a)))
    p = _symmetric_puzzles()[k]
    sols = brute(p)
    assert solutions.digit_classes(p, p.initial_state().cand, 4)
    _assert_counts_are_brute(p, sols, (1, 2, 3, 5, 8))
    assert spread or len(sols) < 2


@pytest.mark.parametrize("k", range(18))
def test_counts_of_swapped_digits_equal_an_independent_enumeration(k) -> None:
    """Counting on digit-symmetric puzzles counts one solution of each swap's orbit times
    its size (csp.solutions.swap_reduced): every method's count, and a count stopped at a
    limit, are the brute-force enumeration's."""
    from csp.solutions import swap_reduced
    p = _symmetric_puzzles()[k]
    total = len(brute(p))
    for method in ("auto", "search", "sat"):
        got = count_solutions(p, method=method)
        assert (got.count, got.complete) == (total, True), method
    for limit in (1, 5, 7, 30):
        got = count_solutions(p, limit=limit)
        if total >= limit:
            assert (got.count, got.complete) == (limit, False), limit
        else:
            assert (got.count, got.complete) == (total, True), limit
    if k < 3:                          # an empty grid: a row fixed, 4! solutions each
        assert swap_reduced(p, p.initial_state().cand)[1] == 24


def test_the_empty_6x6_grids_are_counted_by_their_swaps() -> None:
    """The empty 6x6 Sudoku has 28,200,960 grids (a published count, Pettersen): counted as
    the 39,168 with a first row 1..6, times 6!, where the solver went through them all."""
    from csp.solutions import swap_reduced
    p = Puzzle(Grid(6)).add_grid_houses()
    cand, weight = swap_reduced(p, p.initial_state().cand)
    assert weight == 720
    assert count_solutions(p).count == 28_200_960
    assert count_solutions(p, cand).count == 39_168
    assert count_solutions(p, limit=1000).count == 1000


def test_an_empty_symmetric_grid_needs_two_questions(monkeypatch) -> None:
    """An empty 9x9 with anti-knight pairs: every digit swaps with every other, so the first
    solution puts each digit in each cell (in 8! solutions each): true candidates ask the
    solver twice (the first solution, a second one), with caps 1 and 8, where they asked
    one question a candidate still below the cap."""
    from csp import sat
    from csp.constraints import NotEqual
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    asked = []
    orig = sat.SatSession.solve_lits
    monkeypatch.setattr(sat.SatSession, "solve_lits",
                        lambda self, a=(): (asked.append(a), orig(self, a))[1])
    p = Puzzle(Grid(9)).add_grid_houses()
    for r in range(9):
        for c in range(9):
            for dr, dc in ((1, 2), (2, 1), (1, -2), (2, -1)):
                if 0 <= r + dr < 9 and 0 <= c + dc < 9:
                    p.add(NotEqual(r * 9 + c, (r + dr) * 9 + c + dc))
    for cap in (1, 8):
        asked.clear()
        res = candidate_counts(p, cap=cap, method="sat")
        assert res.complete and res.status == "multiple"
        assert all(res.count(c, d) == cap for c in range(81) for d in range(1, 10))
        assert len(asked) == 2
        assert p.check_solution(res.solution)


# ---------------------------------------------------------------------------------------
# the budget, and the kernel's own guards
# ---------------------------------------------------------------------------------------
@needs_kernel
@pytest.mark.parametrize("ident", ["v03", "v20", "v30"])
def test_giving_up_hands_over_to_sat_with_the_same_answers(monkeypatch, ident) -> None:
    p = puzzle("variants", ident)
    want_c = view(candidate_counts(p, cap=8, method="sat"))
    want_n = count_solutions(p).count
    monkeypatch.setattr(cnf_enum, "NODES", 50)
    monkeypatch.setattr(cnf_enum, "NODES_CAPPED", 50)
    monkeypatch.setattr(cnf_enum, "NODES_PER_SOLUTION", 0)
    monkeypatch.setattr(cnf_enum, "NODES_PER_SOLUTION_CAPPED", 0)
    monkeypatch.setattr(cnf_enum, "PROBE_FIRST", False)   # probing first finishes v30
    monkeypatch.setattr(cnf_enum, "EXTEND_MAX", 0)        # no walk goes on past its budget
    assert not kernel_used(p, 8)
    assert view(candidate_counts(p, cap=8, method="sat")) == want_c
    assert count_solutions(p).count == want_n
    listed = list(iter_solutions(p, method="sat"))    # some by the kernel, the rest by SAT
    assert len(listed) == want_n == len(set(map(tuple, listed)))
    assert all(p.check_solution(s) for s in listed[:50])


@needs_kernel
def test_a_walk_near_its_end_goes_on_past_its_budget(monkeypatch) -> None:
    """"Run-On Renbans" without four givens (v07, 827 solutions), true candidates with cap
    1: the walk has most of
    its tree behind it when its budget runs out (``Enumerator.progress`` at least
    ``EXTEND_PROGRESS``) and finishes in the kernel; without going on it gives up. The
    answers are the SAT path's either way. (With the walk of ``BRANCH_CAPPED`` = 0, which
    the test sets. "Forgiven", v31, was the example until the root probing went through
    the cells fewest candidates first: its walk then finishes within the budget. Since
    the renban encoding's clauses from the cells back to the windows, v07's walk of 1,724
    decisions finishes within its budget of 1,000 plus 16 a solution too: the test gives
    it 1,000 decisions in all, which it passes almost 0.9 through its tree.)"""
    monkeypatch.setattr(cnf_enum, "BRANCH_CAPPED", 0)
    monkeypatch.setattr(cnf_enum, "NODES_CAPPED", 1_000)
    monkeypatch.setattr(cnf_enum, "NODES_PER_SOLUTION_CAPPED", 0)
    p = puzzle("variants", "v07")
    want = view(candidate_counts(p, cap=1, method="sat"))
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=1)
        while en.run(100, 100 * cnf_enum.PROPS_PER_NODE) == cnf_enum.PAUSED:
            assert 0.0 <= en.progress < 1.0
        assert en.progress == 1.0                  # finished
    assert kernel_used(p, 1)
    assert view(candidate_counts(p, cap=1)) == want
    monkeypatch.setattr(cnf_enum, "EXTEND_MAX", 0)
    assert not kernel_used(p, 1)
    assert view(candidate_counts(p, cap=1)) == want
    monkeypatch.setattr(cnf_enum, "EXTEND_MAX", 6_000)
    monkeypatch.setattr(cnf_enum, "EXTEND_PROGRESS", 1.01)  # never reached: gives up
    monkeypatch.setattr(cnf_enum, "EXTEND_PROGRESS_FOUND", 1.01)
    assert not kernel_used(p, 1)


@needs_kernel
def test_a_leaf_it_cannot_complete_gives_up() -> None:
    """An auxiliary variable (above size * n) that must be true without unit propagation
    saying so: the kernel does not guess it, it gives up."""
    n, size = 2, 1
    # cell 0 is 1 or 2 (variables 1, 2); aux 3 or 4 must hold, neither forced
    en = KERNEL.Enumerator(4, n, size, [[1, 2], [-1, -2], [3, 4]])
    assert en.run(100, 10_000) == cnf_enum.GAVE_UP
    en = KERNEL.Enumerator(4, n, size, [[1, 2], [-1, -2], [-1, 3], [-2, 4]])
    assert en.run(100, 10_000) == cnf_enum.DONE and en.found == 2


@needs_kernel
def test_the_kernel_checks_its_arguments() -> None:
    E = KERNEL.Enumerator
    with pytest.raises(ValueError):
        E(3, 2, 2, [[1, 2]])                   # fewer variables than candidates
    with pytest.raises(ValueError):
        E(4, 2, 1, [[1, 9]])                   # a literal out of range
    with pytest.raises(ValueError):
        E(4, 2, 1, [[0]])
    with pytest.raises(TypeError):
        E(4, 2, 1, [["1"]])
    with pytest.raises(TypeError):
        E(4, 2, 1, 5)
    en = E(2, 2, 1, [[1, 2], [-1, -2], []])   # an empty clause: no solution
    assert en.run(10, 10) == cnf_enum.DONE and en.found == 0 and en.first is None
    with pytest.raises(ValueError):
        en.run(-1, 10)
    with pytest.raises(ValueError):
        E(4, 2, 1, [[1, 2 ** 40]])             # a big int (not read as a small one)
    with pytest.raises(ValueError):
        E(4, 2, 1, [[1, -(2 ** 31) - 1]])
    # clauses as other sequences and literals as int subclasses read as their values
    for clauses in ([range(1, 3), (1, 2)], [[True, 2], (True, 2)], ([1, 2], [-1, -2])):
        en = E(2, 2, 1, clauses)
        assert en.run(10, 10) == cnf_enum.DONE and en.found == 2


@needs_kernel
def test_at_most_one_groups_read_as_their_pairs() -> None:
    """A tuple is an "at most one" group: the same models as its pairwise clauses, a
    literal twice in a group is false, and a group's length is bounded."""
    E = KERNEL.Enumerator
    lists = [[1, 2, 3], [4, 5, 6]] + [list(c) for c in itertools.combinations([-1, -2, -3], 2)]
    for cl in ([(1, 2, 3)], [(1, 2), (2, 3), (1, 3)]):
        en = E(6, 3, 2, [[1, 2, 3], [4, 5, 6]] + cl + [(4, 5, 6)])
        want = E(6, 3, 2, lists + [[-4, -5], [-4, -6], [-5, -6]])
        assert en.run(100, 10_000) == want.run(100, 10_000) == cnf_enum.DONE
        assert en.found == want.found == 9
    en = E(6, 3, 2, [[1, 2, 3], [4, 5, 6], (1, 1, 2), (4, 5, 6)])   # 1 twice: 1 is false
    assert en.run(100, 10_000) == cnf_enum.DONE and en.found == 3 * 3
    with pytest.raises(ValueError):
        E(4, 2, 1, [(1, 9)])
    with pytest.raises(ValueError):
        E(5000, 1, 1, [tuple(range(1, 4200))])


def _walk(en) -> tuple:
    """Everything a walk to its end shows: code, solutions, decisions, propagations,
    probes, first solution, counts and buffered solutions."""
    code = en.run(10 ** 6, 10 ** 9)
    return (code, en.found, en.nodes, en.props, en.probed, en.first, en.counts(), en.take())


def _houses_puzzles() -> list[Puzzle]:
    """Models of all-different rules only: the workbench's (classic, and unique ones
    without other rules) and small grids with the odd cases (no regions, a diagonal, a
    rule of fewer than n cells, a rule listed twice, a one-cell rule)."""
    from csp.sat import house_rules
    out = [p for p in (puzzle(name, i) for name, i in ALL if name != "variants")
           if house_rules(p) is not None]
    out.append(Puzzle(Grid(4)).add_grid_houses().givens("1..............."))
    out.append(Puzzle(Grid(4)).add_grid_houses(regions=False).givens(".2.4....3......."))
    diag = Puzzle(Grid(6)).add_grid_houses()
    diag.add_all_different([f"r{i}c{i}" for i in range(1, 7)])
    diag.add_all_different(["r1c6", "r2c5", "r3c4"])                   # three cells of six
    diag.add_all_different(["r1c6", "r2c5", "r3c4"])                   # the same again
    diag.add_all_different(["r4c4"])                                   # one cell: no clause
    out.append(diag.givens("1.....2......3".ljust(36, ".")))
    return out


@needs_kernel
def test_the_kernel_encodes_all_different_rules_as_the_session_does() -> None:
    """A deferred session of all-different rules builds no encoding: the kernel writes the
    same clauses from the rules' cells and the candidates (``houses``), so every walk is
    the same decision for decision (counting, capped counts, listing, both branchings)."""
    from csp.sat import house_rules
    puzzles = _houses_puzzles()
    assert len(puzzles) >= 45
    for p in puzzles:
        with SatSession(p, defer=True) as s:
            if s.cand is None or not s.free:
                continue
            assert s.houses == house_rules(p) and "enc" not in vars(s)
            for cap, keep, listing in ((0, False, True), (0, True, True), (1, False, False),
                                       (8, True, False)):
                got = cnf_enum.enumerator(s, cap=cap, keep=keep, listing=listing)
                assert "enc" not in vars(s) or cap or keep   # (the first comparison builds it)
                houses, s.houses = s.houses, None      # the session's own clauses
                try:
                    want = cnf_enum.enumerator(s, cap=cap, keep=keep, listing=listing)
                finally:
                    s.houses = houses
                assert "enc" in vars(s)
                assert _walk(got) == _walk(want)


@needs_kernel
def test_the_kernels_house_encoding_checks_its_arguments() -> None:
    E = KERNEL.Enumerator
    full = [0b11110] * 16
    rows = [list(range(r * 4, r * 4 + 4)) for r in range(4)]
    assert E(68, 4, 16, None, cand=full, houses=rows).run(10, 10 ** 6) in (
        cnf_enum.DONE, cnf_enum.PAUSED)
    with pytest.raises(ValueError):
        E(70, 4, 16, None, cand=full, houses=rows)               # nvars != size * n + n
    with pytest.raises(ValueError):
        E(68, 4, 16, None, cand=full)                            # no houses
    with pytest.raises(ValueError):
        E(68, 4, 16, None, cand=full[:-1] + [1 << 5], houses=rows)   # digit 5 of 4
    with pytest.raises(ValueError):
        E(68, 4, 16, None, cand=full, houses=[[0, 16]])          # cell 16 of 16
    with pytest.raises(TypeError):
        E(68, 4, 16, None, cand=full[:-1], houses=rows)          # 15 masks
    with pytest.raises(TypeError):
        E(68, 4, 16, None, cand=full, houses=[5])
    en = E(68, 4, 16, None, cand=[0] + full[1:], houses=rows)    # a cell without digits
    assert en.run(10, 10) == cnf_enum.DONE and en.found == 0


@needs_kernel
def test_compact_encoding_expands_to_the_plain_one() -> None:
    from csp.sat import encode
    for ident in ("u001", "u056", "u072", "u087"):
        p = puzzle("unique", ident)
        with SatSession(p, defer=True) as s:
            plain = encode(p, s.cand)
            assert s.enc.compact and s.enc.packed
            assert any(type(c) is bytearray for c in s.enc.clauses)
            assert any(type(c) is tuple for c in unpacked(s.enc.clauses))
            assert s.enc.expanded() == plain.clauses and not s.enc.compact
            assert not s.enc.packed and all(type(c) is list for c in s.enc.clauses)
            assert s.enc.top >= plain.top


@needs_kernel
@pytest.mark.parametrize("set_name,ident", [("unique", "u082"), ("unique", "u072"),
                                            ("unique", "u052"), ("variants", "v06"),
                                            ("variants", "v31")])
def test_packed_blocks_read_as_their_clauses(set_name, ident) -> None:
    """A deferred session's clauses, packed blocks and all (``Encoding.packed``), and the
    same clauses read back as lists and tuples (``sat.unpacked``): the same walk (result,
    solutions, decisions, propagations, probes, root literals, counts), capped and not."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        packed = s.clauses() + s.enc.extra
        lists = list(unpacked(packed))
        assert any(type(c) is bytearray for c in packed)
        assert not any(type(c) is bytearray for c in lists)
        for cap in (0, 1, 8):
            out = []
            for clauses in (packed, lists):
                en = KERNEL.Enumerator(s.enc.top, s.n, s.size, clauses, cap, False, 1, 0,
                                       1 if cap else 0, lookahead=1, probe_yield=60,
                                       resort=1, ixnode=1)
                code = en.run(5_000, 10 ** 9)
                out.append((code, en.found, en.nodes, en.props, en.probed, en.root(),
                            en.counts()))
            assert out[0] == out[1], cap


@needs_kernel
def test_the_kernel_checks_its_packed_blocks() -> None:
    """A packed block among the clauses: read as its records (a clause, a group), and
    refused when it holds part of an int, a record running past its end, a bad header or
    a literal out of range."""
    E = KERNEL.Enumerator

    def block(*ints):
        return bytearray(array.array("i", ints).tobytes())

    en = E(4, 2, 2, [block(4, 1, 2, 5, 1, 2), [3, 4], block(), block(5, 3, 4)])
    want = E(4, 2, 2, [[1, 2], (1, 2), [3, 4], (3, 4)])
    assert en.run(10, 10) == want.run(10, 10) == cnf_enum.DONE
    assert en.found == want.found == 4
    for bad in (bytearray(b"\x04\x00\x00"), block(6, 1, 2), block(-4, 1, 2),
                block(4, 1, 5), block(4, 0, 1), block(2, -5)):
        with pytest.raises(ValueError):
            E(4, 2, 2, [[1, 2], bad])


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [("unique", "u080", 1), ("unique", "u089", 8),
                                                ("unique", "u073", 0), ("variants", "v02", 0),
                                                ("variants", "v07", 1), ("variants", "v31", 8)])
def test_probing_leaves_every_count_as_it_was(monkeypatch, set_name, ident, cap) -> None:
    """The walk with its restart and root probing (PROBE_AFTER decisions in, or from the
    start) and without: the same number of solutions, or the same capped counts."""
    p = puzzle(set_name, ident)
    out = []
    for depth, after, look in ((0, 0, True), (1, 0, False), (1, 0, True), (1, 150, True),
                               (1, 5, True), (1, 5, False)):
        with SatSession(p, defer=True) as s:
            monkeypatch.setattr(cnf_enum, "PROBE_DEPTH", depth)
            monkeypatch.setattr(cnf_enum, "PROBE_AFTER", after)
            monkeypatch.setattr(cnf_enum, "PROBE_LOOKAHEAD", look)
            en = cnf_enum.enumerator(s, cap=cap)
            assert en.run(200_000, 10 ** 9) == cnf_enum.DONE
            if depth:
                assert en.probed > 0 or en.found >= 2
            counts = en.counts()
            # counting candidates, the solutions seen depend on the walk (it skips what
            # is seen): the capped counts do not
            out.append([min(k, cap) for k in counts] if cap else en.found)
    assert all(o == out[0] for o in out[1:])


def _probed_root(s: SatSession, lookahead: bool, clauses: list | None = None) -> tuple:
    """The root literals after probing (the walk paused before its first decision), and
    the literals the lookahead set."""
    if clauses is None:
        clauses = s.clauses() + s.enc.extra       # a deferred session: supports in extra
    en = KERNEL.Enumerator(s.enc.top, s.enc.n, s.enc.size, clauses, 1, False, 1, 0, 1,
                           lookahead=lookahead)
    assert en.run(0, 10 ** 9) in (cnf_enum.PAUSED, cnf_enum.DONE)
    return set(en.root()), en.implied


def _fails_at_root(s: SatSession, clauses: list, root: set, lit: int) -> bool:
    """``lit`` set at ``root`` propagates to a conflict (no probing, no decision)."""
    en = KERNEL.Enumerator(s.enc.top, s.enc.n, s.enc.size,
                           clauses + [[x] for x in sorted(root)] + [[lit]], 0, False, 0, 0)
    return en.run(0, 10 ** 9) == cnf_enum.DONE and en.found == 0


@needs_kernel
@pytest.mark.parametrize("set_name,ident,decided", [
    ("unique", "u072", True), ("unique", "u082", True), ("unique", "u089", False),
    ("variants", "v31", False)])
def test_the_lookahead_keeps_every_failed_literal(set_name, ident, decided) -> None:
    """Root probing with the cells' lookahead (``lookahead=1``, :data:`PROBE_LOOKAHEAD`)
    against the failed-literal probing alone: its root holds every literal of the other
    (none is dropped), is closed under failed literals itself (no open candidate's
    placement propagates to a conflict), and every candidate literal of it holds in the solutions (one, or two of many).
    On "Endless Knight" (u072) and "Crawfish" (u082) the probing decides every cell
    either way, the lookahead with fewer probes."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        clauses = s.clauses() + s.enc.extra
        old, none = _probed_root(s, False, clauses)
        new, implied = _probed_root(s, True, clauses)
        assert none == 0 and implied > 0
        assert old <= new
        nprim = s.enc.size * s.enc.n
        assert all(-x not in new for x in new)
        open_ = [v for v in range(1, nprim + 1) if v not in new and -v not in new]
        assert (not open_) == decided
        for v in open_:
            assert not _fails_at_root(s, clauses, new, v)
        _assert_root_literals_hold(s, p.solve().solutions, new)   # one, or two of many


@needs_kernel
def test_the_lookahead_sets_what_every_digit_of_a_cell_sets() -> None:
    """Three cells of digits 1..3, r1c1 not 3, and two auxiliary variables ``a`` and
    ``b`` that each digit of r1c1 sets, ``a`` and ``b`` together ruling out 3 in r1c3.
    Failed-literal probing alone never finds that: placing 3 in r1c3 leaves the clause
    (not a, not b), no unit. Each of r1c1's digits propagates to it, so the lookahead
    of r1c1 sets it (a candidate literal; ``a`` and ``b`` hold too, but auxiliary
    literals are not set). 12 solutions either way."""
    n, size, a, b = 3, 3, 10, 11

    def var(c: int, d: int) -> int:
        return c * n + d
    clauses: list[list[int]] = [[var(c, d) for d in range(1, n + 1)] for c in range(size)]
    clauses += [[-var(c, x), -var(c, y)] for c in range(size)
                for x in range(1, n + 1) for y in range(x + 1, n + 1)]
    clauses += [[-var(0, 3)], [-var(0, 1), a], [-var(0, 2), a], [-var(0, 1), b],
                [-var(0, 2), b], [-a, -b, -var(2, 3)]]
    roots = []
    for look in (False, True):
        en = KERNEL.Enumerator(b, n, size, clauses, 0, False, 1, 0, 1, lookahead=look)
        assert en.run(0, 10 ** 9) == cnf_enum.PAUSED
        roots.append(set(en.root()))
        assert en.implied == (1 if look else 0)
        assert en.run(10 ** 6, 10 ** 9) == cnf_enum.DONE
        assert en.found == 12
    assert roots == [{-var(0, 3)}, {-var(0, 3), -var(2, 3)}]
    plain = KERNEL.Enumerator(b, n, size, clauses, 0, False, 1, 0, 1)   # off by default
    plain.run(0, 10 ** 9)
    assert set(plain.root()) == roots[0] and plain.implied == 0


@needs_kernel
def test_counting_branches_on_the_cells_and_finishes_in_the_kernel(monkeypatch) -> None:
    """"Modular Nabner DA Coverage" (u056, unique): its count walks the cells' clauses
    (:data:`cnf_enum.BRANCH_COUNT` = 1, about 5,000 decisions) and finishes in the kernel;
    on every branching clause (0, 11,000 decisions) it gave up to the SAT solver. The
    count is the same either way."""
    p = puzzle("unique", "u056")
    assert cnf_enum.BRANCH_COUNT == 1
    assert kernel_used(p, 0)
    assert count_solutions(p).count == 1
    monkeypatch.setattr(cnf_enum, "BRANCH_COUNT", 0)
    assert not kernel_used(p, 0)
    assert count_solutions(p).count == 1


def _spy_sat_open(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets one item each time a :class:`SatSession` opens its SAT solver."""
    opened: list[int] = []
    real = SatSession.open

    def spy(self, *args) -> None:
        opened.append(1)
        real(self, *args)
    monkeypatch.setattr(SatSession, "open", spy)
    return opened


@needs_kernel
def test_a_count_that_gives_up_walks_again_on_every_clause(monkeypatch) -> None:
    """"Renban Whispers" without one given (v08, 3,799 solutions): with a first budget of
    300 decisions the walk on the cells' clauses finds no solution and gives up (at the
    default budget the line encodings of 2026-12-01 now let it finish); the count walks
    again on every branching clause (:data:`cnf_enum.COUNT_RETRY`), which finds solutions
    from the start and finishes: the SAT solver is never set up. Without the second walk
    the same count goes to SAT."""
    p = puzzle("variants", "v08")
    monkeypatch.setattr(cnf_enum, "NODES", 300)
    assert not kernel_used(p, 0)
    opened = _spy_sat_open(monkeypatch)
    assert count_solutions(p).count == 3799
    assert not opened
    monkeypatch.setattr(cnf_enum, "COUNT_RETRY", None)
    assert count_solutions(p).count == 3799
    assert opened


def _spy_trial(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, bool]]:
    """A list that gets (solutions found, decisions, kept) of the first walk each time a
    count's :func:`cnf_enum.trial` answers (kept: the count goes on with that walk)."""
    seen: list[tuple[int, int, bool]] = []
    real = cnf_enum.trial

    def spy(session, en, *args, **kw):
        found, nodes = en.found, en.nodes
        code, walk = real(session, en, *args, **kw)
        seen.append((found, nodes, walk is en))
        return code, walk
    monkeypatch.setattr(cnf_enum, "trial", spy)
    return seen


def _derived(ident: str) -> Puzzle:
    from conftest import load_benchmark
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    ms = load_benchmark("make_workbench_sets", "make_workbench_sets_enum")
    return load_fpuzzles(next(x for x in ms.derived_set() if x["id"] == ident)["doc"])


@needs_kernel
def test_a_count_that_finds_few_solutions_a_decision_tries_the_other_branching(
        monkeypatch) -> None:
    """"Hotel" without its anti-knight rule (the derived set's u090a: 17 palindromes and a
    thermometer, 11,264 solutions): at :data:`cnf_enum.TRIAL_NODES` decisions the walk on
    the cells' clauses has found about one solution in 25 decisions; the walk on every
    branching clause, tried for as many, finds four times as many, and the count goes on
    with it (about 50,000 decisions against 325,000). The count is the same without the
    trial, and with a limit, where the tried walk stops at it."""
    p = _derived("u090a")
    seen = _spy_trial(monkeypatch)
    assert count_solutions(p).count == 11_264
    (found, nodes, kept), = seen
    assert nodes == cnf_enum.TRIAL_NODES and found * cnf_enum.TRIAL_RATE < nodes
    assert not kept
    seen.clear()
    r = count_solutions(p, limit=5_000)
    assert (r.count, r.complete) == (5_000, False) and not seen[0][2]
    monkeypatch.setattr(cnf_enum, "TRIAL_NODES", None)
    seen.clear()
    assert count_solutions(p).count == 11_264 and not seen


@needs_kernel
def test_the_trial_keeps_the_walk_that_finds_more(monkeypatch) -> None:
    """v02 (an anti-knight grid, 1,822 solutions): the walk on the cells' clauses finds a
    solution every 12 decisions and is not tried; made to try it (at more than 5 decisions
    a solution),
    the walk on every branching clause finds a third as many in as many decisions, and
    the count goes on with the first walk. "Trollscraper" (u087, one solution), tried at
    1,000 decisions: the walk on every clause ends within them and answers. The counts
    are the same. (v02 by ``"sat"``: by ``"auto"`` the bitboard walk in C counts it.)"""
    p = puzzle("variants", "v02")
    seen = _spy_trial(monkeypatch)
    assert count_solutions(p, method="sat").count == 1_822
    assert seen == [] or seen[0][2]
    assert seen == [] or seen[0][0] * cnf_enum.TRIAL_RATE >= seen[0][1]
    monkeypatch.setattr(cnf_enum, "TRIAL_RATE", 5)
    seen.clear()
    assert count_solutions(p, method="sat").count == 1_822
    (found, nodes, kept), = seen
    assert kept and found * 5 < nodes
    monkeypatch.setattr(cnf_enum, "TRIAL_NODES", 1_000)
    seen.clear()
    opened = _spy_sat_open(monkeypatch)
    assert count_solutions(puzzle("unique", "u087")).count == 1
    (found, nodes, kept), = seen
    assert nodes == 1_000 and not kept and not opened


@needs_kernel
def test_a_walk_that_finds_solutions_goes_on_while_its_foreseen_size_fits(monkeypatch) -> None:
    """"Renban Whispers" without one given (v08, 3,799 solutions), cap 1: past its budget
    the walk is half way through its tree (81 solutions at about 6,000 decisions) and goes
    on to its end (about 13,000) within :data:`cnf_enum.EXTEND_MAX`; at the former limit of
    6,000, or when the size its progress foresees is past the limit, it gives up to the SAT
    path. The answers are the same."""
    p = puzzle("variants", "v08")
    want = view(candidate_counts(p, cap=1))
    assert kernel_used(p, 1)
    monkeypatch.setattr(cnf_enum, "EXTEND_MAX", 6_000)
    assert not kernel_used(p, 1)
    assert view(candidate_counts(p, cap=1)) == want
    monkeypatch.setattr(cnf_enum, "EXTEND_MAX", 11_000)   # foreseen: about 12,400
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=1)
        assert cnf_enum.run(en, None, capped=True) is None
        assert en.nodes < 7_000


@needs_kernel
@pytest.mark.parametrize("cap", [1, 8])
def test_true_candidates_that_give_up_walk_again_on_every_clause(monkeypatch, cap) -> None:
    """"Trollscraper" (u087, 24 skyscraper clues, one solution): the walk on the cells'
    clauses gives up with one solution found; the true candidates walk again on every
    branching clause (:data:`cnf_enum.CAPPED_RETRY`), which ends in about 500 decisions:
    the SAT solver is never set up. Without the second walk, or after a first walk that
    found :data:`cnf_enum.CAPPED_RETRY_FOUND` solutions, the same candidates come from
    SAT."""
    p = puzzle("unique", "u087")
    assert not kernel_used(p, cap)
    opened = _spy_sat_open(monkeypatch)
    got = view(candidate_counts(p, cap=cap))
    assert not opened
    monkeypatch.setattr(cnf_enum, "CAPPED_RETRY_FOUND", 1)
    assert view(candidate_counts(p, cap=cap)) == got
    assert opened
    opened.clear()
    monkeypatch.setattr(cnf_enum, "CAPPED_RETRY_FOUND", 2)
    monkeypatch.setattr(cnf_enum, "CAPPED_RETRY", None)
    assert view(candidate_counts(p, cap=cap)) == got
    assert opened


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [("unique", "u056", 1), ("unique", "u098", 8),
                                                ("variants", "v07", 1), ("variants", "v33", 8),
                                                ("variants", "v20", 0), ("classic", "c01", 8)])
def test_both_branchings_walk_the_same_solutions(set_name, ident, cap) -> None:
    """Branching on the cells' clauses only (``branch=1``, :data:`cnf_enum.BRANCH_CAPPED`)
    and on every branching clause (0), walked to the end with root probing: the same
    capped counts (the same number of solutions when not counting candidates), and a
    first solution that is one."""
    p = puzzle(set_name, ident)
    out = []
    for branch in (0, 1):
        with SatSession(p, defer=True) as s:
            clauses = s.clauses() + s.enc.extra      # a deferred session: supports in extra
            en = KERNEL.Enumerator(s.enc.top, s.enc.n, s.enc.size, clauses, cap, False, 1, 0,
                                   branch)
            assert en.run(500_000, 10 ** 10) == cnf_enum.DONE
            assert en.first is None or p.check_solution(en.first)
            out.append([min(k, cap) for k in en.counts()] if cap else en.found)
    assert out[0] == out[1]
    with pytest.raises(ValueError):
        KERNEL.Enumerator(4, 2, 2, [[1, 2], [3, 4]], 1, False, 0, 0, 2)


@needs_kernel
def test_the_cells_branching_passes_over_a_shorter_clause_of_other_cells() -> None:
    """``branch=1`` decides on the cells' clauses only (the kernel lists them once,
    ``mark_cell_clauses``, and ``choose_cells`` goes through that list): three cells of
    one house, digits 1-3, and a clause "3 in the first or the second cell" given first
    and shorter than every cell's. On every clause (0) the walk decides that 3 first and
    lists the solutions with a 3 in the first cell first; on the cells' clauses the first
    cell's 1 comes first. The same four solutions either way."""
    cells = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    at_most_one = [[-a, -b] for c in cells for i, a in enumerate(c) for b in c[i + 1:]]
    different = [[-(a * 3 + d), -(b * 3 + d)] for d in (1, 2, 3) for a in range(3)
                 for b in range(a + 1, 3)]
    clauses = [[3, 6]] + cells + at_most_one + different
    walks = []
    for branch in (0, 1):
        en = KERNEL.Enumerator(9, 3, 3, clauses, 0, True, 0, 0, branch)
        assert en.run(100, 10 ** 6) == cnf_enum.DONE and en.found == 4
        walks.append(en.take())
    assert walks[0] == [[3, 1, 2], [3, 2, 1], [1, 3, 2], [2, 3, 1]]
    assert walks[1] == [[1, 3, 2], [2, 3, 1], [3, 1, 2], [3, 2, 1]]


@needs_kernel
@pytest.mark.parametrize("set_name,ident", [("unique", "u076"), ("variants", "v08"),
                                            ("classic", "c01")])
def test_the_cells_branching_keeps_counters_of_the_cells_clauses_only(set_name, ident) -> None:
    """``branch=1`` never branches on a house-digit (or other) clause, so it keeps no count of
    their literals left and true, nor their conflict weights, at each assignment
    (``Enumerator.tracked``: each candidate variable is in its cell's clause only; on
    every clause, 0, it is in its houses' clauses too). The walk itself is the same as
    when it kept them (every walk of the workbench's three sets, decision for decision:
    docs/performance.md, 2026-12-01), and so are the counts."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        candidates = sum(bin(s.cand[c]).count("1") for c in s.free)
        tracked = [cnf_enum.enumerator(s, cap=1, branch=b).tracked for b in (0, 1)]
    assert tracked[1] == candidates < tracked[0]


@needs_kernel
def test_listing_probes_from_the_start_only() -> None:
    en = KERNEL.Enumerator(4, 2, 2, [[1, 2], [3, 4], [-1, -3], [-2, -4]], 0, True, 1, 0)
    assert en.run(100, 10_000) == cnf_enum.DONE
    assert sorted(map(tuple, en.take())) == [(1, 2), (2, 1)]


@needs_kernel
@pytest.mark.parametrize("cap", [0, 1, 3])
def test_a_restart_empties_the_buffer_with_the_counts(cap: int) -> None:
    """keep with a restart (probing past a few decisions): what is buffered at the end is
    exactly the walk's ``found`` solutions, each once, all of them when it finishes."""
    p = Puzzle(Grid(4)).add_grid_houses()
    with SatSession(p, defer=True) as s:
        clauses = s.clauses() + s.enc.extra
        en = KERNEL.Enumerator(s.enc.top, 4, 16, clauses, cap, True, 1, 5)
        assert en.run(10 ** 6, 10 ** 8) == cnf_enum.DONE
        sols = en.take()
    assert len(sols) == en.found
    assert len(set(map(tuple, sols))) == len(sols)
    if cap == 0:
        assert en.found == 288


@needs_kernel
@pytest.mark.parametrize("budget", [(30, 0), (60, 1), (120, 2)])
def test_the_sat_loop_goes_on_from_the_kernels_solutions(monkeypatch, budget) -> None:
    """A kernel that gives up hands its solutions to the SAT loop (counted, and blocked
    with a cap above 1): the counts are those of the SAT path alone, on puzzles with a few
    to thousands of solutions, whatever the kernel found before it gave up."""
    monkeypatch.setattr(cnf_enum, "NODES_CAPPED", budget[0])
    monkeypatch.setattr(cnf_enum, "NODES_PER_SOLUTION_CAPPED", budget[1])
    for ident in ("v02", "v07", "v29", "v36"):
        p = puzzle("variants", ident)
        for cap in (1, 2, 8):
            got = candidate_counts(p, cap=cap, method="sat")
            monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
            want = candidate_counts(p, cap=cap, method="sat")
            monkeypatch.delenv("SUDOKU_CSP_PURE")
            assert got.complete and want.complete
            assert got.status == want.status, (ident, cap)
            assert [min(k, cap) for k in got.counts] == [min(k, cap) for k in want.counts]
            assert got.refuted == want.refuted, (ident, cap)


# ---------------------------------------------------------------------------------------
# limits bound the whole call
# ---------------------------------------------------------------------------------------
def many() -> Puzzle:
    """An empty 9x9 with one cage: about 10^20 solutions, a rule beyond houses (no
    bitboard search first), found by the kernel without end."""
    p = Puzzle(Grid(9)).add_grid_houses()
    p.add_sum(["r1c1", "r1c2"], 3, distinct=True)
    return p


@needs_kernel
def test_time_limit_and_cancel_bound_a_count(monkeypatch) -> None:
    monkeypatch.setattr(cnf_enum, "NODES", 10 ** 12)    # the kernel never gives up here
    p = many()
    p.engine()
    t0 = time.process_time()
    with pytest.raises(TimeLimitExceeded) as e:
        count_solutions(p, time_limit=0.3)
    assert time.process_time() - t0 < 2.0
    assert e.value.count > 0
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    t0 = time.process_time()
    with pytest.raises(Cancelled):
        count_solutions(p, cancel=stop)
    assert time.process_time() - t0 < 2.0
    t0 = time.process_time()
    r = count_solutions(p, limit=5000)
    assert (r.count, r.complete) == (5000, False) and time.process_time() - t0 < 1.0
    seen: list[int] = []
    with pytest.raises(TimeLimitExceeded):
        count_solutions(p, time_limit=0.6, progress=seen.append)
    assert seen and seen == sorted(seen)


@needs_kernel
def test_time_limit_and_cancel_bound_true_candidates(monkeypatch) -> None:
    monkeypatch.setattr(cnf_enum, "NODES", 10 ** 12)
    monkeypatch.setattr(cnf_enum, "NODES_CAPPED", 10 ** 12)
    p = many()
    p.engine()
    t0 = time.process_time()
    res = candidate_counts(p, cap=10 ** 6, time_limit=0.3)
    assert time.process_time() - t0 < 2.0
    assert not res.complete and res.status == "multiple" and res.solutions_seen > 2
    calls = []
    res = candidate_counts(p, cap=10 ** 6, cancel=lambda: calls.append(1) or len(calls) > 3)
    assert not res.complete
    t0 = time.process_time()
    sols = list(itertools.islice(iter_solutions(p, time_limit=5), 200))
    assert len(sols) == 200 and time.process_time() - t0 < 1.0
    with pytest.raises(TimeLimitExceeded):
        for _ in iter_solutions(p, time_limit=0.3):
            pass


def _kernel_walk(s: SatSession, cap: int, **kw) -> tuple:
    """Root probing (from the start), then the walk to its end, on ``s``'s encoding (a
    deferred session: the relations' supports in its extra): the root literals after
    probing, the probes, the lookahead's literals, and the walk's solutions and counts."""
    clauses = s.clauses() + s.enc.extra
    en = KERNEL.Enumerator(s.enc.top, s.enc.n, s.enc.size, clauses, cap, False, 1, 0, 1,
                           lookahead=True, **kw)
    assert en.run(0, 10 ** 9) in (cnf_enum.PAUSED, cnf_enum.DONE)
    root, probed, implied = set(en.root()), en.probed, en.implied
    assert en.run(10 ** 6, 10 ** 10) == cnf_enum.DONE
    # counting candidates, the solutions seen depend on the walk (it skips what is seen):
    # the capped counts do not
    if cap:
        return root, probed, implied, [min(k, cap) for k in en.counts()]
    return root, probed, implied, en.found


def _assert_root_literals_hold(s: SatSession, solutions, lits) -> None:
    """Every literal of ``lits`` on a cell's digit variable holds in every one of
    ``solutions`` (at least one)."""
    nprim = s.enc.size * s.enc.n
    seen = 0
    for solution in solutions:
        truth = {c * s.enc.n + d for c, d in enumerate(solution)}
        for x in lits:
            if abs(x) <= nprim:
                assert (x in truth) == (x > 0)
        seen += 1
    assert seen


@needs_kernel
@pytest.mark.parametrize("set_name,ident", [
    ("unique", "u068"), ("unique", "u070"), ("unique", "u072"), ("unique", "u082"),
    ("unique", "u089"), ("variants", "v31"), ("variants", "v35"), ("classic", "c01")])
def test_native_groups_propagate_as_their_pairs(set_name, ident) -> None:
    """The "at most one" groups propagated as one (``groups=1``, the default: a cell's and
    a house's digits, with their "at least one" clause) and as their pairwise clauses
    with the clause watched (``groups=0``): unit propagation reaches the same literals
    and conflicts, so root probing sets the same root with the same probes and
    lookahead; the walks after it may differ, their solutions and capped counts not."""
    p = puzzle(set_name, ident)
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        if s.cand is None or not s.free:
            pytest.skip("decided at the root")
        if s.houses is not None:        # all-different rules only: the encoding is read
            assert s.enc is not None
        for cap in (0, 8):
            on = _kernel_walk(s, cap)
            off = _kernel_walk(s, cap, groups=False)
            assert on == off


@needs_kernel
def test_native_groups_keep_the_odd_groups_as_pairs() -> None:
    """Groups the kernel keeps as pairs (a negative literal, a literal twice, more than 56
    literals) and groups with their "at least one" clause before, after or away from
    them: the same models with and without native groups, as an independent count."""
    E = KERNEL.Enumerator
    cases = [
        # cells of 3 digits, "some digit" before each group, a column group after
        ([[1, 2, 3], (1, 2, 3), [4, 5, 6], (4, 5, 6), (1, 4), [1, 4]], 2 * 3 + 0),
        # a group with a negative literal, one with a literal twice, a clause apart
        ([[1, 2, 3], [4, 5, 6], (1, 2, 3), (-4, 5), (6, 6), [1, 2, 3]], None),
        # the "at least one" away from its group (not read as one), groups of two
        ([[1, 2, 3], [4, 5, 6], (4, 5, 6), [7], (1, 2), (2, 3), (1, 3)], None),
    ]
    for clauses, _ in cases:
        want = None
        for groups in (False, True):
            en = E(7 if any(7 in c for c in clauses if isinstance(c, list)) else 6, 3, 2,
                   clauses, 0, False, 1, 0, 0, groups=groups)
            assert en.run(1000, 10 ** 6) == cnf_enum.DONE
            if want is None:
                want = en.found
            assert en.found == want
    # a long group (kept as pairs past 56 literals): one of 60 variables true at most
    lits = tuple(range(1, 61))
    for groups in (False, True):
        en = E(60, 60, 1, [lits, list(lits)], 0, False, 0, 0, 0, groups=groups)
        assert en.run(1000, 10 ** 6) == cnf_enum.DONE and en.found == 60


@needs_kernel
@pytest.mark.parametrize("ident", ["u068", "u070", "u082"])
def test_probing_passes_over_the_cells_seen_since_the_last_change(ident) -> None:
    """A sweep passes over the cells all of whose digits a pass saw not to fail since the
    node last changed (``pskipped``): the root it leaves is still closed under failed
    literals (every open candidate placed at it propagates without a conflict), and
    its candidate literals hold in the solution."""
    p = puzzle("unique", ident)
    with SatSession(p, defer=True) as s:
        clauses = s.clauses() + s.enc.extra
        en = KERNEL.Enumerator(s.enc.top, s.enc.n, s.enc.size, clauses, 1, False, 1, 0, 1,
                               lookahead=True)
        assert en.run(0, 10 ** 9) in (cnf_enum.PAUSED, cnf_enum.DONE)
        root = set(en.root())
        assert en.pskipped > 0
        nprim = s.enc.size * s.enc.n
        for v in range(1, nprim + 1):
            if v not in root and -v not in root:
                assert not _fails_at_root(s, clauses, root, v)
        _assert_root_literals_hold(s, [p.solve().solution], root)


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u068", 1), ("unique", "u070", 0), ("unique", "u089", 8), ("unique", "u056", 1),
    ("variants", "v29", 1), ("variants", "v31", 8), ("variants", "v35", 0)])
def test_a_sweep_that_finds_little_ends_the_probing(set_name, ident, cap) -> None:
    """``probe_yield`` (:data:`cnf_enum.PROBE_YIELD`): probing stops after a sweep, from the
    second on, that set fewer candidate variables than that per mille of its probes.
    Fewer probes or as many, never fewer than two sweeps' worth of a first sweep; every
    candidate literal of its root holds in every solution (the root of the probing to
    its fixpoint holds each of them too, or the walk finds it); and the same solutions
    and capped counts."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        full = _kernel_walk(s, cap)
        cut = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD)
    assert cnf_enum.PROBE_YIELD > 0
    assert cut[1] <= full[1]
    assert cut[3:] == full[3:]
    _assert_root_literals_hold(s, itertools.islice(iter_solutions(p), 50), cut[0])


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u067", 1), ("unique", "u056", 8), ("unique", "u070", 0),
    ("variants", "v06", 8), ("variants", "v29", 1), ("variants", "v31", 0)])
def test_a_first_sweep_that_finds_little_ends_the_probing(set_name, ident, cap) -> None:
    """``yield_from=1`` (:data:`cnf_enum.PROBE_YIELD_FROM`): the yield stop of
    ``probe_yield`` from the first sweep on. "It being a weekend..." (u067) stops after
    its first sweep (fewer probes than with the stop from the second); on any puzzle
    never more probes than with the stop from the second sweep, every candidate literal
    of the root holds in every solution, and the same solutions and capped counts."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        second = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD)
        first = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD, yield_from=1)
    assert cnf_enum.PROBE_YIELD_FROM == 1
    assert first[1] <= second[1]
    if ident == "u067":
        assert first[1] < second[1]
    assert first[3:] == second[3:]
    _assert_root_literals_hold(s, itertools.islice(iter_solutions(p), 50), first[0])


def _paused_walk(s: SatSession, cap: int, **kw) -> tuple:
    """The walk of :func:`cnf_enum.enumerator`'s arguments (root probing first, branch 1)
    to its end: decisions (of the last walk from the root), probes, the lookahead's
    literals, the root after probing, and the solutions and capped counts."""
    clauses = s.clauses() + s.enc.extra
    en = KERNEL.Enumerator(s.enc.top, s.enc.n, s.enc.size, clauses, cap, False, 1, 0, 1,
                           lookahead=True, probe_yield=cnf_enum.PROBE_YIELD, **kw)
    assert en.run(10 ** 6, 10 ** 10) == cnf_enum.DONE
    counts = [min(k, cap) for k in en.counts()] if cap else None
    return en.nodes, en.probed, en.implied, en.found if not cap else None, counts


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u056", 1), ("unique", "u057", 8), ("unique", "u067", 0), ("unique", "u072", 1),
    ("unique", "u060", 0), ("unique", "u070", 8), ("unique", "u082", 0), ("variants", "v07", 1),
    ("variants", "v38", 8), ("variants", "v06", 0)])
@pytest.mark.parametrize("resort,intersect,ixnode", [(False, 0, False), (True, 0, False),
                                                    (True, 1, False), (True, 0, True)])
def test_a_paused_probing_goes_on_as_if_it_had_not_paused(set_name, ident, cap, resort,
                                                          intersect, ixnode) -> None:
    """``pause`` (:data:`cnf_enum.PROBE_PAUSE`): the root's probing pauses within a sweep
    that finds little, the walk goes first, and past ``pause_nodes`` decisions the kernel
    goes back to the root and probes on from where it paused, with the walk's weights and
    watches as they were: from there the run is the run without the pause, decision for
    decision (the same decisions, probes and lookahead literals, so the same walk). A walk
    that ends before that answers with the same solutions and capped counts. With the
    cells left in a sweep sorted again after each change (``resort``) or not, and with the
    groups' intersections in the first sweep's probes (``intersect``) or at the node in
    every sweep (``ixnode``) or not."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        plain = _paused_walk(s, cap, resort=resort, intersect=intersect, ixnode=ixnode)
        back = _paused_walk(s, cap, pause=cnf_enum.PROBE_PAUSE, pause_nodes=1, resort=resort,
                            intersect=intersect, ixnode=ixnode)
        for nodes in (5, 50, cnf_enum.PROBE_PAUSE_NODES):
            for pace in (0, cnf_enum.PROBE_PAUSE_PACE):
                paused = _paused_walk(s, cap, pause=cnf_enum.PROBE_PAUSE, pause_nodes=nodes,
                                      pause_pace=pace, resort=resort, intersect=intersect,
                                      ixnode=ixnode)
                assert paused[3:] == plain[3:]
                assert paused[1] <= plain[1]
                if paused[1] < plain[1]:          # ended in the walk after the pause
                    assert paused[0] <= nodes
                else:
                    assert paused == plain
    assert back == plain


@needs_kernel
def test_the_root_probing_pauses_where_a_sweep_finds_little() -> None:
    """"Endless Knight" (u072) on the renbans' clauses (no natives): its second sweep
    finds little in its first hundred probes; the walk from there ends in fewer decisions
    than the pause allows, with the counts of the probing without the pause. Listing never
    pauses (what it listed is kept)."""
    p = puzzle("unique", "u072")
    with SatSession(p, defer=True) as s:
        plain = _paused_walk(s, 1)
        paused = _paused_walk(s, 1, pause=cnf_enum.PROBE_PAUSE,
                              pause_nodes=cnf_enum.PROBE_PAUSE_NODES,
                              pause_pace=cnf_enum.PROBE_PAUSE_PACE)
        assert paused[1] < plain[1] and 0 < paused[0] <= cnf_enum.PROBE_PAUSE_NODES
        assert paused[4] == plain[4]
        listed = cnf_enum.enumerator(s, keep=True)
        assert cnf_enum.run(listed, None) == cnf_enum.DONE
        defaults = dict(resort=cnf_enum.PROBE_RESORT, intersect=cnf_enum.PROBE_INTERSECT,
                        ixnode=cnf_enum.PROBE_INTERSECT_NODE, natives=s.enc.natives or None,
                        natk=cnf_enum.NATIVE_ROUND)
        assert listed.probed == _paused_walk(s, 1, **defaults)[1]
        counted = cnf_enum.enumerator(s, cap=1, listing=False)
        assert cnf_enum.run(counted, None, capped=True) == cnf_enum.DONE
        # (counting walks the first walks too: cnf_enum.FIRST_WALK)
        assert counted.probed == _paused_walk(
            s, 1, pause=cnf_enum.PROBE_PAUSE, pause_nodes=cnf_enum.PROBE_PAUSE_NODES,
            pause_pace=cnf_enum.PROBE_PAUSE_PACE, first_walk=cnf_enum.FIRST_WALK,
            first_check=cnf_enum.FIRST_CHECK, first_pace=cnf_enum.FIRST_PACE,
            first_shrink=cnf_enum.FIRST_SHRINK, first_again=cnf_enum.FIRST_AGAIN,
            again_check=cnf_enum.AGAIN_CHECK, again_pace=cnf_enum.AGAIN_PACE, **defaults)[1]
    with pytest.raises(ValueError):
        KERNEL.Enumerator(10, 2, 4, [[1, 2]], pause=-1, pause_nodes=5)


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u056", 1), ("unique", "u057", 8), ("unique", "u067", 0), ("unique", "u072", 1),
    ("unique", "u060", 0), ("unique", "u070", 8), ("unique", "u082", 0), ("unique", "u071", 1),
    ("unique", "u063", 8), ("variants", "v07", 1), ("variants", "v38", 8),
    ("variants", "v06", 0), ("variants", "v08", 8)])
def test_a_first_walk_leaves_the_run_as_it_was_without_it(set_name, ident, cap) -> None:
    """``first_walk`` (:data:`cnf_enum.FIRST_WALK`): the root's first sweep pauses before
    its first probe for a walk (and with ``first_again`` once more after that many probes);
    one that ends answers with the same solutions and capped counts; one that goes back to
    the probing (its budget spent, or its pace too slow at a check) leaves the run without
    it, decision for decision (the same decisions, probes and lookahead literals), with
    the pause of a later sweep or not. With ``again_found`` (:data:`cnf_enum.AGAIN_FOUND`)
    the second, in a sweep that finds little, goes on while it finds solutions, past its
    budget too: the same, ended or gone back ("Arrow", v06, ends in it)."""
    p = puzzle(set_name, ident)
    defaults = dict(resort=cnf_enum.PROBE_RESORT, intersect=cnf_enum.PROBE_INTERSECT,
                    ixnode=cnf_enum.PROBE_INTERSECT_NODE)
    pauses = dict(pause=cnf_enum.PROBE_PAUSE, pause_nodes=cnf_enum.PROBE_PAUSE_NODES,
                  pause_pace=cnf_enum.PROBE_PAUSE_PACE)
    with SatSession(p, defer=True) as s:
        for pause in ({}, pauses):
            plain = _paused_walk(s, cap, **defaults, **pause)
            for walk, check, pace, shrink, again, found in (
                    (1, 0, 0, 1000, 0, False), (5, 0, 0, 1000, 0, False),
                    (50, 0, 0, 1000, 0, False), (400, 0, 0, 1000, 0, False),
                    (cnf_enum.FIRST_WALK, cnf_enum.FIRST_CHECK, cnf_enum.FIRST_PACE,
                     cnf_enum.FIRST_SHRINK, 0, False),
                    (400, 3, 10_000, 950, 0, False), (5, 0, 0, 1000, 1, False),
                    (50, 1, 0, 0, 100, False), (20, 1, 0, 0, 100, True),
                    (cnf_enum.FIRST_WALK, cnf_enum.FIRST_CHECK, cnf_enum.FIRST_PACE,
                     cnf_enum.FIRST_SHRINK, cnf_enum.FIRST_AGAIN, False),
                    (cnf_enum.FIRST_WALK, cnf_enum.FIRST_CHECK, cnf_enum.FIRST_PACE,
                     cnf_enum.FIRST_SHRINK, cnf_enum.FIRST_AGAIN, True)):
                first = _paused_walk(s, cap, **defaults, **pause, first_walk=walk,
                                     first_check=check, first_pace=pace, first_shrink=shrink,
                                     first_again=again, again_check=cnf_enum.AGAIN_CHECK,
                                     again_pace=cnf_enum.AGAIN_PACE, again_found=found)
                assert first[3:] == plain[3:]
                if first[1] < plain[1]:     # ended in a first walk (the second: after
                    # `again` probes of the first sweep at most; past its budget only
                    # while it finds solutions)
                    assert first[0] <= walk or found
                    assert first[1] == 0 or (again and first[1] <= again + s.n)
                else:
                    assert first == plain
                if found and ident == "v06" and again == cnf_enum.FIRST_AGAIN:
                    assert first[1] < plain[1]
    with pytest.raises(ValueError):
        KERNEL.Enumerator(10, 2, 4, [[1, 2]], first_walk=-1)
    with pytest.raises(ValueError):
        KERNEL.Enumerator(10, 2, 4, [[1, 2]], first_walk=5, first_again=-1)


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u052", 0), ("unique", "u052", 1), ("unique", "u065", 8), ("unique", "u068", 0),
    ("unique", "u067", 1), ("unique", "u077", 8), ("unique", "u060", 0), ("variants", "v30", 1),
    ("variants", "v33", 0), ("variants", "v35", 8), ("variants", "v08", 8)])
def test_the_first_sweep_passes_over_house_only_cells(set_name, ident, cap,
                                                     monkeypatch) -> None:
    """``hskip`` (:data:`cnf_enum.PROBE_HOUSE_SKIP`): the root's first sweep passes over the
    cells whose candidates sit only in their cell's and houses' groups once that many of
    them, probed, set nothing; the later sweeps probe them. The root after probing and the
    walk differ, the solutions and capped counts do not; "Exclusive Singularity" (u052)
    passes over some and probes fewer."""
    p = puzzle(set_name, ident)
    runs = {}
    for hskip in (0, 1, 3):
        monkeypatch.setattr(cnf_enum, "PROBE_HOUSE_SKIP", hskip)
        with SatSession(p, defer=True) as s:
            en = cnf_enum.enumerator(s, cap=cap, listing=False)
            while (code := en.run(10 ** 6, 10 ** 10)) == cnf_enum.PAUSED:
                pass
            assert code == cnf_enum.DONE
            counts = [min(k, cap) for k in en.counts()] if cap else None
            runs[hskip] = (en.probed, en.hskipped, en.found if not cap else None, counts)
    assert runs[0][1] == 0
    assert runs[1][2:] == runs[0][2:] and runs[3][2:] == runs[0][2:]
    if ident == "u052":
        assert runs[1][1] > 0 and runs[1][0] < runs[0][0]
    with pytest.raises(ValueError):
        KERNEL.Enumerator(10, 2, 4, [[1, 2]], hskip=-1)


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("variants", "v31", 0), ("variants", "v31", 1), ("variants", "v31", 8),
    ("variants", "v35", 0), ("variants", "v20", 8), ("variants", "v07", 1),
    ("unique", "u056", 1), ("unique", "u067", 0), ("unique", "u087", 8)])
def test_a_paused_walk_that_finds_solutions_goes_on(set_name, ident, cap,
                                                     monkeypatch) -> None:
    """``pause_found`` (:data:`cnf_enum.PROBE_PAUSE_FOUND`): the walk of a later sweep's
    pause goes on where it has found solutions by its check instead of going back to the
    probing. The solutions and capped counts are the same; "Forgiven" without its diagonal
    (v31) probes 689 candidates instead of 1,000; a walk that finds no solution by its
    check goes back as before, the same run decision for decision (the hard unique
    puzzles)."""
    runs = _runs_with(puzzle(set_name, ident), cap, monkeypatch, "PROBE_PAUSE_FOUND")
    assert runs[True][:3] == runs[False][:3]
    if ident == "v31":
        assert runs[False][3] == 1000 and runs[True][3] == 689
    if set_name == "unique":
        assert runs[True][:5] == runs[False][:5]


def _runs_with(p, cap: int, monkeypatch, knob: str) -> dict[bool, tuple]:
    """A whole kernel run of ``p`` with ``cnf_enum.<knob>`` off and on: (code, solutions
    found (uncapped), capped counts (capped), probes, decisions, propagated literals)."""
    runs = {}
    for on in (False, True):
        monkeypatch.setattr(cnf_enum, knob, on)
        with SatSession(p, defer=True) as s:
            en = cnf_enum.enumerator(s, cap=cap, listing=False)
            code = cnf_enum.run(en, None, capped=cap > 0)
            counts = [min(k, cap) for k in en.counts()] if cap else None
            runs[on] = (code, en.found if not cap else None, counts, en.probed, en.nodes,
                        en.props)
    return runs


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u052", 0), ("unique", "u052", 1), ("unique", "u052", 8),
    ("unique", "u060", 1), ("unique", "u077", 8), ("unique", "u062", 0),
    ("variants", "v06", 0), ("variants", "v35", 1)])
def test_a_second_first_walk_that_walks_nothing_goes_back(set_name, ident, cap,
                                                          monkeypatch) -> None:
    """``again_none`` (:data:`cnf_enum.AGAIN_NONE`): the second first walk goes back to the
    probing at its first check when it has walked none of its tree. The solutions, capped
    counts, probes and the decisions of the walk after it are the same; "Exclusive
    Singularity" (u052) propagates fewer literals (its second walk went on to 40
    decisions); "Deflation" (u060), with some of its tree walked by then, walks on and ends
    in that walk as before."""
    runs = _runs_with(puzzle(set_name, ident), cap, monkeypatch, "AGAIN_NONE")
    assert runs[True][:5] == runs[False][:5]
    if ident == "u052":
        assert runs[True][5] < runs[False][5]
    if ident == "u060":
        assert runs[True] == runs[False]


@needs_kernel
def test_a_short_walk_goes_before_the_root_probing() -> None:
    """"Whispering Rains" (u070): the first walk keeps its pace and ends, without a probe;
    "Crawfish" (u082), whose walk is long, goes back to the probing at the first check.
    "Endless Knight" (u072) ends in its second, after the first sweep's first
    :data:`cnf_enum.FIRST_AGAIN` probes. Listing walks no first walk (what it listed is
    kept)."""
    for ident, ends in (("u070", True), ("u082", False)):
        p = puzzle("unique", ident)
        with SatSession(p, defer=True) as s:
            en = cnf_enum.enumerator(s, cap=1, listing=False)
            assert cnf_enum.run(en, None, capped=True) == cnf_enum.DONE
            assert (en.probed == 0) == ends
            if ends:
                assert 0 < en.nodes <= cnf_enum.FIRST_WALK
            listed = cnf_enum.enumerator(s, keep=True)
            assert cnf_enum.run(listed, None) == cnf_enum.DONE
            assert listed.probed > 0
    with SatSession(puzzle("unique", "u072"), defer=True) as s:
        en = cnf_enum.enumerator(s, cap=1, listing=False)
        assert cnf_enum.run(en, None, capped=True) == cnf_enum.DONE
        assert cnf_enum.FIRST_AGAIN <= en.probed <= cnf_enum.FIRST_AGAIN + s.n


@needs_kernel
@pytest.mark.parametrize("set_name,ident,cap", [
    ("unique", "u071", 1), ("unique", "u063", 0), ("unique", "u052", 8), ("unique", "u068", 1),
    ("unique", "u089", 0), ("variants", "v32", 1), ("variants", "v31", 8), ("variants", "v08", 8)])
def test_probing_sorts_the_cells_left_after_a_change(set_name, ident, cap) -> None:
    """``resort`` (:data:`cnf_enum.PROBE_RESORT`): once the root changes in a sweep, the
    cells left in it are probed fewest open digits first again. The same solutions and
    capped counts; every candidate literal of its root holds in every solution; the
    puzzles the probing decides ("Downright Odd", "Sistine Hippos") in fewer probes."""
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        plain = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD)
        sorted_ = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD, resort=True)
    assert sorted_[3:] == plain[3:]
    if ident in ("u071", "u063", "v32"):
        assert sorted_[1] < plain[1] * 0.7
    _assert_root_literals_hold(s, itertools.islice(iter_solutions(p), 50), sorted_[0])


@needs_kernel
@pytest.mark.parametrize("set_name,ident", [
    ("unique", "u082"), ("unique", "u072"), ("unique", "u071"), ("unique", "u070"),
    ("unique", "u052"), ("variants", "v06"), ("variants", "v31"), ("classic", "c01")])
def test_intersections_in_the_probes_keep_the_answers(set_name, ident) -> None:
    """``intersect=k`` (:data:`cnf_enum.PROBE_INTERSECT`): the probes of the first k sweeps
    propagate the groups' intersections too (an exactly-one group inside another clears
    the other's members, an all-positive clause inside a group likewise). The same
    solutions and capped counts; probed to the fixpoint with them in every sweep, the root
    holds every literal of the root without them; every candidate literal of each root
    holds in every solution. ``ixnode`` (:data:`cnf_enum.PROBE_INTERSECT_NODE`): the same
    rules at the node in every sweep, not in the probes: the same answers, a sound root."""
    p = puzzle(set_name, ident)
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        if s.cand is None or not s.free:
            pytest.skip("decided at the root")
        s.enc                           # an all-different model's encoding is read too
        for cap in (0, 8):
            off = _kernel_walk(s, cap, probe_yield=0)
            on = _kernel_walk(s, cap, probe_yield=0, intersect=64)
            assert on[3] == off[3]
            assert on[0] >= off[0]
            cut = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD, intersect=1)
            assert cut[3] == off[3]
            node = _kernel_walk(s, cap, probe_yield=cnf_enum.PROBE_YIELD, ixnode=True)
            assert node[3] == off[3]
            fix = _kernel_walk(s, cap, probe_yield=0, ixnode=True)
            assert fix[3] == off[3] and fix[0] >= off[0]
    solutions = list(itertools.islice(iter_solutions(p), 50))
    for root in (on[0], cut[0], node[0], fix[0]):
        _assert_root_literals_hold(s, solutions, root)


@needs_kernel
def test_intersections_clear_the_rest_of_a_group() -> None:
    """The two rules on a hand-made CNF (5 candidates of one cell-like block, no cell
    clause of its own): an exactly-one group (2, 3) inside the group (2, 3, 4, 5) makes 4
    and 5 false; the all-positive clause [1, 6] inside the group (1, 6, 7) makes 7 false.
    Without the rules the probes find them as failed literals; with them (in the probes,
    ``intersect``, or at the node, ``ixnode``) the root holds them before any probe
    fails, and the models are the same."""
    E = KERNEL.Enumerator
    clauses = [[2, 3], (2, 3), (2, 3, 4, 5), [1, 6], (1, 6, 7), [8, 9]]
    with pytest.raises(ValueError):
        E(9, 9, 1, clauses, 0, False, 1, 0, 0, intersect=-1)
    found = []
    for kw in ({}, {"intersect": 1}, {"ixnode": True}):
        en = E(9, 9, 1, clauses, 0, False, 1, 0, 0, **kw)
        assert en.run(0, 10 ** 6) in (cnf_enum.PAUSED, cnf_enum.DONE)
        root = set(en.root())
        assert {-4, -5, -7} <= root
        assert (en.crossed >= 3) == bool(kw)
        assert en.run(1000, 10 ** 6) == cnf_enum.DONE
        found.append(en.found)
    assert found[0] == found[1] == found[2] == 2 * 2 * 3


# ---------------------------------------------------------------------------------------
# natives: skyscraper clues propagated by the kernel itself
# ---------------------------------------------------------------------------------------
def _skyline(values) -> int:
    top = seen = 0
    for v in values:
        if v > top:
            top, seen = v, seen + 1
    return seen


def _line_cnf(k: int, n: int, removed) -> list:
    """k cells of digits 1..n, different, each on one digit; the (cell, digit) pairs
    ``removed`` set false."""
    clauses: list = []
    for c in range(k):
        clauses.append([c * n + d for d in range(1, n + 1)])
        clauses.append(tuple(c * n + d for d in range(1, n + 1)))
    for d in range(1, n + 1):
        clauses.append(tuple(c * n + d for c in range(k)))
    clauses.extend([-(c * n + d)] for c, d in removed)
    return clauses


@needs_kernel
@pytest.mark.parametrize("seed", range(40))
def test_a_skyscraper_native_keeps_exactly_its_lines(seed) -> None:
    """``natives=`` (kind 0): a line of k different digits out of 1..n whose skyline (the
    buildings seen from its first cell) is ``seen``, on random digits removed; the
    kernel's solutions with the clue as its only rule (no clause of it) are exactly the
    permutations an independent count keeps, in the walk and in the root probing (which
    reads the native's removals), counting candidates too."""
    import random
    rng = random.Random(seed)
    n = rng.choice((4, 5, 6, 7))
    k = n if seed % 3 else rng.randint(2, n)
    seen = rng.randint(1, k)
    removed = {(c, d) for c in range(k) for d in range(1, n + 1) if rng.random() < 0.2}
    cells = list(range(k))
    rng.shuffle(cells)                       # the clue reads the cells in this order
    want = set()
    for perm in itertools.permutations(range(1, n + 1), k):
        if any((c, perm[c]) in removed for c in range(k)):
            continue
        if _skyline([perm[c] for c in cells]) == seen:
            want.add(perm)
    clauses = _line_cnf(k, n, removed)
    native = [(0, seen, 1, 0, tuple(cells))]
    for probe_after in (0, 10 ** 9):         # probing first, or the walk alone
        en = KERNEL.Enumerator(k * n, n, k, clauses, 0, True, 1, probe_after, 0,
                               lookahead=True, natives=native)
        assert en.run(10 ** 6, 10 ** 9) == cnf_enum.DONE
        got = {tuple(s) for s in en.take()}
        assert got == want and en.found == len(want), (n, k, seen)
        assert en.natruns > 0
    en = KERNEL.Enumerator(k * n, n, k, clauses, 1, False, 1, 0, 1, natives=native)
    assert en.run(10 ** 6, 10 ** 9) == cnf_enum.DONE
    counts = en.counts()
    for c in range(k):
        for d in range(1, n + 1):
            assert min(counts[c * n + d], 1) == any(s[c] == d for s in want)


@needs_kernel
@pytest.mark.parametrize("seed", range(40))
def test_a_renban_native_keeps_exactly_its_runs(seed) -> None:
    """``natives=`` (kind 1): k different digits of 1..n (their house in the CNF) that
    form a run of consecutive digits, on random digits removed, alone or with a second
    renban over some of the same cells: the kernel's solutions are exactly those an
    independent enumeration keeps, with the natives' round at the fixpoint only and
    every few literals (``natk``), probing first or not."""
    import random
    rng = random.Random(seed)
    n = rng.choice((4, 5, 6, 7))
    size = rng.randint(2, min(n, 5))
    removed = {(c, d) for c in range(size) for d in range(1, n + 1) if rng.random() < 0.25}
    lines = [tuple(rng.sample(range(size), rng.randint(1, size)))
             for _ in range(rng.randint(1, 2))]

    def run_of(ds) -> bool:
        return max(ds) - min(ds) == len(ds) - 1

    want = {p for p in itertools.permutations(range(1, n + 1), size)
            if not any((c, p[c]) in removed for c in range(size))
            and all(run_of([p[c] for c in line]) for line in lines)}
    clauses = _line_cnf(size, n, removed)
    native = [(1, 0, 1, 0, line) for line in lines]
    for probe_after, natk in ((0, 0), (10 ** 9, 0), (0, 1), (10 ** 9, 3)):
        en = KERNEL.Enumerator(size * n, n, size, clauses, 0, True, 1, probe_after, 0,
                               lookahead=True, natives=native, natk=natk)
        assert en.run(10 ** 6, 10 ** 9) == cnf_enum.DONE
        assert {tuple(s) for s in en.take()} == want and en.found == len(want)


@needs_kernel
def test_the_kernel_checks_its_natives() -> None:
    E = KERNEL.Enumerator
    clauses = _line_cnf(4, 4, ())
    for bad in ([(1, 2, 1, 0, (0, 1, 2, 3))],        # an unknown kind
                [(0, 0, 1, 0, (0, 1, 2, 3))],        # nothing seen
                [(0, 16, 1, 0, (0, 1, 2, 3))],       # more than 15 seen
                [(0, 2, 1, 0, (0, 1, 2, 3, 0))],     # more cells than digits
                [(0, 2, 1, 0, (0, 1, 2, 7))],        # a cell out of range
                [(0, 2, 3, 9, (0, 1, 2, 3))],        # states among the candidates
                [(0, 2, 17, 40, (0, 1, 2, 3))],      # states past the variables
                [(1, 2, 1, 0, (0, 1, 2, 3))],        # a renban sees nothing
                [(0, 2, 1, 0)], [[0, 2, 1, 0, (0, 1, 2, 3)]]):
        with pytest.raises(ValueError):
            E(16, 4, 4, clauses, natives=bad)
    with pytest.raises(TypeError):
        E(16, 4, 4, clauses, natives=5)


@needs_kernel
@pytest.mark.parametrize("ident", ["u082", "u087"])
def test_skyscraper_natives_leave_the_answers_as_they_were(monkeypatch, ident) -> None:
    """"Crawfish" and "Trollscraper": the encoding lists each clue (six and 24) with its
    automaton's state variables, a range of their own above the candidates; the kernel
    with the clues as natives (their states' clauses left out) walks to the same
    solutions and capped counts as the kernel on every clause ("Crawfish"; the same count
    as the pure path, "Trollscraper", whose count the natives now finish in the kernel),
    with fewer propagated literals."""
    p = puzzle("unique", ident)
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        enc = s.enc
        nat = enc.natives
        assert sum(x[0] == 0 for x in nat) == {"u082": 6, "u087": 24}[ident]
        spans = sorted((lo, hi) for _, _, lo, hi, _ in nat)
        assert spans[0][0] > enc.size * enc.n + enc.n and spans[-1][1] <= enc.top
        assert all(a[1] < b[0] for a, b in zip(spans, spans[1:]))
        clauses = s.clauses() + enc.extra
        if ident == "u087":
            en = cnf_enum.enumerator(s, branch=0)   # (the cells' walk gives up)
            assert cnf_enum.run(en, None) == cnf_enum.DONE
            assert en.natruns > 0
            assert en.found == pure(monkeypatch, count_solutions, p).count
            return
        for cap in (0, 1, 8):
            res = []
            for kw in ({}, {"natives": nat}, {"natives": nat, "intersect": 1}):
                en = KERNEL.Enumerator(enc.top, enc.n, enc.size, clauses, cap, False, 1, 0,
                                       1, lookahead=True, **kw)
                assert en.run(0, 10 ** 9) in (cnf_enum.PAUSED, cnf_enum.DONE)
                root = set(en.root())
                assert en.run(10 ** 6, 10 ** 10) == cnf_enum.DONE
                res.append((root, en.props, [min(x, cap) for x in en.counts()] if cap
                            else en.found, en.first))
            assert res[0][2:] == res[1][2:] == res[2][2:]
            truth = {c * enc.n + d for c, d in enumerate(res[0][3])}
            for root, *_ in res:             # one solution: the roots hold in it
                assert all((x in truth) == (x > 0) for x in root if abs(x) <= enc.size * enc.n)
            assert res[1][1] < res[0][1]


@needs_kernel
@pytest.mark.parametrize("set_name,ident", [("unique", "u072"), ("unique", "u065"),
                                            ("unique", "u082"), ("unique", "u087"),
                                            ("variants", "v07"), ("variants", "v08")])
def test_deferred_natives_are_written_where_they_stood(monkeypatch, set_name, ident) -> None:
    """A deferred session's renbans and skyscraper clues (natives of the compiled
    enumerator) reserve their variables and write only their clauses without one; the
    enumerator reads the encoding so, and whatever reads every clause (the session's
    ``clauses()``, the solver's set-up) gets them written where the encoding at once
    writes them: the same clauses and extra clauses in the same order, the same
    variables."""
    from csp import sat
    p = puzzle(set_name, ident)
    with SatSession(p, defer=True) as s:
        assert s.enc.deferred and len(s.enc.deferred) == len(s.enc.natives)
        en = cnf_enum.enumerator(s)
        assert en is not None and s.enc.deferred      # the kernel did not need them
        with monkeypatch.context() as m:
            m.setattr(sat, "RENBAN_NATIVE", False)
            m.setattr(sat, "SKY_DEFER", False)
            with SatSession(p, defer=True) as whole:
                assert not whole.enc.deferred
                # (read through the packed blocks: a deferral starts a new block)
                assert (list(sat.unpacked(s.clauses())) == list(sat.unpacked(whole.clauses()))
                        and s.enc.top == whole.enc.top)
                assert list(sat.unpacked(s.enc.extra)) == list(sat.unpacked(whole.enc.extra))
        assert not s.enc.deferred


@needs_kernel
@pytest.mark.parametrize("set_name,ident", [("unique", "u052"), ("unique", "u072"),
                                            ("unique", "u082"), ("variants", "v07")])
def test_nodrop_walks_as_the_scanned_stream(monkeypatch, set_name, ident) -> None:
    """``nodrop`` (what :func:`cnf_enum.enumerator` passes when every native's clauses
    with a state variable are deferred, :attr:`csp.sat.Encoding.deferred`): the clause
    stream holds none of the natives' state variables, and the kernel that does not scan
    for them walks as the one that does (the same root, probes, decisions, literals and
    answers); the driver passes it on such a session, not once the clauses are written."""
    p = puzzle(set_name, ident)
    seen = []
    real = KERNEL.Enumerator

    def spy(*a, **kw):
        seen.append(kw.get("nodrop"))
        return real(*a, **kw)

    with SatSession(p, defer=True) as s:
        enc = s.enc
        assert enc.natives and len(enc.deferred) == len(enc.natives)
        states = {v for _, _, lo, hi, _ in enc.natives for v in range(lo, hi + 1)}
        clauses = enc.clauses + s._units + enc.extra
        assert not any(abs(x) in states for cl in unpacked(clauses) for x in cl)
        for cap in (0, 1, 8):
            res = []
            for nodrop in (False, True):
                en = KERNEL.Enumerator(enc.top, enc.n, enc.size, clauses, cap, False, 1, 0,
                                       1, lookahead=True, natives=enc.natives,
                                       nodrop=nodrop)
                assert en.run(10 ** 6, 10 ** 10) in (cnf_enum.DONE, cnf_enum.PAUSED)
                res.append((sorted(en.root()), en.probed, en.nodes, en.props,
                            en.counts() if cap else en.found))
            assert res[0] == res[1]
        monkeypatch.setattr(cnf_enum, "compiled_kernel", lambda: type(
            "K", (), {"Enumerator": staticmethod(spy)}))
        cnf_enum.enumerator(s, cap=1)
        s.enc.materialize()
        cnf_enum.enumerator(s, cap=1)
    assert seen == [True, False]


@needs_kernel
@pytest.mark.parametrize("ident,cap", [("v07", 1), ("v07", 8), ("v02", 3)])
def test_gain_at_is_where_a_solution_last_raised_a_count_below_the_cap(ident, cap) -> None:
    """``Enumerator.gain_at``: walked one decision at a time, it moves to the decisions
    made exactly when a solution of that step raised some candidate's count while below
    the cap (the capped counts summed grew), and stays where it was otherwise; a walk
    that goes back to probe its root (its decisions and counts start again from 0)
    starts it again there too. Every solution the walk records raises a count (past two
    solutions it cuts a subtree whose open candidates are all at the cap, leaves
    included), so ``gain_at`` is where it last found one."""
    p = puzzle("variants", ident)
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=cap)
        gained = moved = 0
        before, at, nodes, found = 0, en.gain_at, en.nodes, en.found
        while True:
            code = en.run(1, cnf_enum.PROPS_PER_NODE * 50)
            now = sum(min(x, cap) for x in en.counts())
            if en.nodes < nodes or now < before:      # back to the root
                assert en.gain_at <= en.nodes
            elif now > before:
                assert en.gain_at == en.nodes
                gained += 1
            else:
                assert en.gain_at == at and en.found == found
            moved += en.gain_at != at
            before, at, nodes, found = now, en.gain_at, en.nodes, en.found
            if code != cnf_enum.PAUSED or en.nodes > 3_000:
                break
        assert gained >= 5 and moved >= 5
        assert en.gain_at < en.nodes          # a dry stretch before the end or the stop


@needs_kernel
def test_a_capped_walk_that_stops_raising_counts_hands_over_to_sat(monkeypatch) -> None:
    """The derived set's u067a, cap 8 (615 candidates, 602 true, thousands of solutions):
    by about 27,000 decisions the walk has raised almost every true candidate's count to
    8 and then finds solutions of capped candidates only, or none, for tens of thousands of
    decisions. With :data:`cnf_enum.STALL_NODES` it gives up exactly that many decisions
    after the last count it raised, and the SAT path answers the rest (the 13 candidates
    no solution holds, asked one by one); without it the walk goes on to its budget. The
    true candidates and counts are the same either way."""
    p = _derived("u067a")
    want = view(candidate_counts(p, cap=8))
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=8, keep=True, listing=False)
        assert cnf_enum.run(en, None, capped=True) is None
        stalled = en.nodes
        assert stalled - en.gain_at == cnf_enum.STALL_NODES
        assert stalled < cnf_enum.NODES_CAPPED + cnf_enum.NODES_PER_SOLUTION_CAPPED * en.found
    monkeypatch.setattr(cnf_enum, "STALL_NODES", 0)
    with SatSession(p, p.initial_state().cand, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=8, keep=True, listing=False)
        assert cnf_enum.run(en, None, capped=True) is None
        assert en.nodes > stalled + 10_000
    assert view(candidate_counts(p, cap=8)) == want
