"""Shared test helpers: data paths and puzzle/solution loaders."""
from __future__ import annotations

import csv
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

#: the project checkout, and its test data (tests are grouped in sub-folders by package)
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


#: where the Python processes the tests start (``run_cli``'s children, the documents'
#: commands ...) write and read their bytecode, outside the checkout, also where
#: ``PYTHONDONTWRITEBYTECODE`` is set (CI machines set it): without it each child compiled
#: the hundred-odd modules a command imports from source, 0.7-1 s of CPU that a command's
#: limit cannot bound (it comes before its clock starts) and that an installed package
#: (whose bytecode the installer writes) never spends; and the default run spent minutes
#: on it. Set here, before any test runs, for every child
PYCACHE = os.path.join(tempfile.gettempdir(), f"sudoku-csp-test-pycache-{os.getuid()}")
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ.setdefault("PYTHONPYCACHEPREFIX", PYCACHE)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The sweeps marked ``heavy`` (minutes each) run first: with ``-n auto`` the workers
    then share them out and finish together, instead of one worker running the last long
    sweep alone. The others keep their order (the sort is stable)."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


@dataclass
class Child:
    """What :func:`run_cli` saw of one ``sudoku-csp`` process: its exit code, stdout,
    stderr, CPU seconds (user + system) and peak memory (MB), the last two of that process
    alone (``os.wait4``; the peak from ``/proc/PID/status`` where there is one, see
    :func:`_peak_mb`)."""

    rc: int
    out: str
    err: str
    cpu: float
    maxrss_mb: float


def run_cli(argv: list[str], stdin: str | None = None, timeout: float = 180.0) -> Child:
    """Run ``python -m sudoku_csp ARGV`` in a child process and measure it. A child still
    running after ``timeout`` wall seconds is killed (its rc is then -9): the limit tests
    assert on CPU time, which a loaded machine does not inflate the way it does wall time.
    The child reads its modules' bytecode from a cache (see :data:`PYCACHE`), as an
    installed package does."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as err, \
            tempfile.TemporaryFile("w+", encoding="utf-8") as inp:
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        proc = subprocess.Popen([sys.executable, "-m", "sudoku_csp", *argv], cwd=ROOT,
                                stdin=inp, stdout=out, stderr=err)
        end = time.monotonic() + timeout
        peak = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak = _peak_mb(proc.pid, peak)
            if time.monotonic() > end:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)   # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        return Child(proc.returncode, out.read(), err.read(), usage.ru_utime + usage.ru_stime,
                     usage.ru_maxrss / 1024 if peak is None else peak)


def _peak_mb(pid: int, seen: float | None) -> float | None:
    """The child's peak resident memory so far (``VmHWM``, MB), or ``seen`` when it cannot
    be read (no /proc, or the process is gone). ``ru_maxrss`` is not enough on Linux: a
    child started by fork (or vfork) and exec carries over the peak of the process it was
    forked from, so under pytest-xdist it reports the worker's own size once that is
    larger (an empty 35x35 count that peaks at 90 MB read 311 MB)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    mb = int(line.split()[1]) / 1024
                    return mb if seen is None else max(seen, mb)
    except (OSError, ValueError):
        pass
    return seen


def load_solutions(name: str, limit: int | None = None) -> list[tuple[str, list[int]]]:
    """(puzzle, solution digits) pairs from ``tests/data/<name>.solutions.csv``."""
    out = []
    with open(DATA / f"{name}.solutions.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["n_solutions_capped_at_2"] != "1":
                continue
            out.append((row["puzzle"], [int(ch) for ch in row["solution"]]))
            if limit is not None and len(out) >= limit:
                break
    return out


def load_benchmark(name: str, as_name: str | None = None) -> Any:
    """Import ``benchmarks/NAME.py`` as a module for a test, leaving ``sys.path`` as it was:
    the benchmark scripts put their own folder (or the checkout) in front of it, and the
    benchmarks' folder holds a ``variants.py`` of its own that would shadow the package for
    everything started later by the same test process (a Dask worker of ``--dask local``
    inherits the path: it failed to unpickle its tasks, and the run waited forever)."""
    import importlib.util

    # the packages first, so the script's own imports find them, not its neighbours
    import sudoku_csp.formats.fpuzzles  # noqa: F401
    import variants  # noqa: F401
    spec = importlib.util.spec_from_file_location(as_name or name,
                                                  ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path[:] = saved
    return mod


def workbench_sets() -> dict[str, list[dict]]:
    """The setter's workbench sets (``benchmarks/make_workbench_sets.py``'s ``load_sets``:
    ``unique``, ``variants``, ``classic``; each item with its ``id``, ``title`` and f-puzzles
    ``doc``), read anew on each call, so a test may change what it gets."""
    return load_benchmark("make_workbench_sets").load_sets()


@lru_cache(maxsize=None)
def fpuzzle_rows() -> tuple[dict, ...]:
    """The rows of ``tests/data/fpuzzles_cc_by.jsonl`` (title, author, categories,
    solution, fpuzzles_json), read once."""
    with open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f)


def fpuzzle_row(key: int | str) -> dict:
    """A row of the f-puzzles set by its line index or its title (the first row of that
    title)."""
    rows = fpuzzle_rows()
    if isinstance(key, int):
        return rows[key]
    return next(r for r in rows if r["title"] == key)


def fpuzzle(key: int | str):
    """(Puzzle, solution digits) of a row of the f-puzzles set (index or title)."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    row = fpuzzle_row(key)
    return load_fpuzzles(row["fpuzzles_json"]), [int(ch) for ch in row["solution"]]


def region_oracle(p, st, cells: set[int], split_houses: bool = False) -> set[tuple[int, int]]:
    """The candidates of the open cells of ``cells`` that no filling of that region keeps:
    a puzzle of the constraints lying wholly inside it (and, with ``split_houses``, each
    house's cells inside it all different), the cells outside pinned to a digit no
    constraint reads, solved by the model's own search once per candidate. The oracle of
    the arrangement techniques' tests (it reads no link table)."""
    from csp import Puzzle
    from csp.bits import digits_of
    from csp.constraints import AllDifferent
    sub = Puzzle(p.grid.n)
    for con in p.constraints:
        if len(con.cells) > 1 and set(con.cells) <= cells:
            sub.add(con)
    if split_houses:
        for h in p.houses():
            part = [c for c in h.cells if c in cells]
            if 1 < len(part) < len(h.cells):
                sub.add(AllDifferent(part))
    base = sub.initial_state()
    for c in range(p.grid.size):
        base.cand[c] = ((1 << st.placed[c] if st.placed[c] else st.cand[c])
                        if c in cells else 1 << 1)
    dead = set()
    for c in sorted(cells):
        if st.placed[c]:
            continue
        for d in digits_of(st.cand[c]):
            st2 = base.copy()
            st2.cand[c] = 1 << d
            if sub.solve(first=True, state=st2, time_limit=30).status == "unsolvable":
                dead.add((c, d))
    return dead


@pytest.fixture
def data_dir() -> Path:
    return DATA


def random_state(p, sol, rng, keep: float, place: float):
    """A state of puzzle ``p`` holding the solution ``sol``: each open cell's candidates are
    its solution digit plus each other digit with probability ``keep``; some cells placed
    (probability ``place``; their digit left as a candidate of their peers: stale marks).
    For fuzz tests of techniques (no step may remove a solution digit)."""
    st = p.initial_state()
    n = p.grid.n
    for c in range(p.grid.size):
        if st.placed[c]:
            continue
        if rng.random() < place:
            st.place(c, sol[c])
            continue
        m = 1 << sol[c]
        for d in range(1, n + 1):
            if rng.random() < keep:
                m |= 1 << d
        st.cand[c] = m
    return st


def narrowed_doms(an, cells, sol, rng, extra: int = 2) -> list[int]:
    """Candidate masks for ``cells`` (an :class:`~techniques.analysis.Analysis`'s state):
    each cell's solution digit and up to ``extra`` of its other candidates, at random, so
    that a brute-force enumeration of the cells stays small."""
    doms = []
    for c in cells:
        others = [d for d in range(1, an.n + 1) if an.cand[c] >> d & 1 and d != sol[c]]
        doms.append(sum(1 << d for d in [sol[c]] + rng.sample(others, min(extra, len(others)))))
    return doms


def joint_solutions(an, cells, doms, rules) -> list[tuple[int, ...]]:
    """Every assignment of ``cells`` within ``doms`` (masks) that keeps cells which see each
    other for a digit different (``an.links``: houses and same-digit rule links), breaks no
    cross-digit link, and meets every sum rule of ``rules`` (``cells``, ``coeffs``,
    ``totals``): plain enumeration, the oracle of the joint sum searches' tests."""
    peers_d, cross = an.links.peers_d, an.links.cross
    at = {c: i for i, c in enumerate(cells)}
    k = len(cells)
    out = []
    for vals in itertools.product(*[[d for d in range(1, an.n + 1) if m >> d & 1]
                                    for m in doms]):
        if any(vals[i] == vals[j] and peers_d[vals[i]][cells[i]] >> cells[j] & 1
               for i in range(k) for j in range(i)):
            continue
        if cross and any((cells[j], vals[j]) in cross.get((cells[i], vals[i]), ())
                         for i in range(k) for j in range(k) if i != j):
            continue
        if all(sum(a * vals[at[c]] for c, a in zip(r.cells, r.coeffs)) in r.totals
               for r in rules):
            out.append(vals)
    return out


# -- compiled kernels against their pure-Python twins (tests/techniques/test_*_kernel.py) --
def sample_lines(name: str, k: int, seed: int = 1) -> list[str]:
    """``k`` puzzle lines of ``tests/data/<name>.solutions.csv``, a seeded sample."""
    import random
    return [p for p, _ in random.Random(seed).sample(load_solutions(name), k)]


def line_domains(rng, n: int, count: int):
    """``count`` random line domains (bit masks of digits 1..n) around a random permutation,
    so that most lines have a filling: random extra digits, some cells emptied of theirs at
    random. Yields ``(doms, perm)`` (the outside-clue scan kernels' comparison tests)."""
    full = (1 << (n + 1)) - 2
    for _ in range(count):
        perm = list(range(1, n + 1))
        rng.shuffle(perm)
        keep = rng.random()
        doms = []
        for d in perm:
            m = 1 << d
            for e in range(1, n + 1):
                if rng.random() < keep:
                    m |= 1 << e
            if rng.random() < 0.03:
                m &= ~(1 << d) or full
            doms.append(m & full or full)
        yield doms, perm

def random_states(puzzle, k: int, seed: int, low: int, high: int):
    """``k`` pencil-mark states of ``puzzle`` with ``low``-``high`` random candidates a
    cell (a seeded sample: many small patterns for a kernel to find)."""
    import random
    rng = random.Random(seed)
    n = puzzle.grid.n
    for _ in range(k):
        st = puzzle.pencilmarks()
        for c in range(puzzle.grid.size):
            keep = rng.sample(range(1, n + 1), rng.randint(low, high))
            st.cand[c] &= sum(1 << d for d in keep)
        st.version += 1
        yield st


def path_states(puzzles: list, steps: int, every: int):
    """Copies of every ``every``-th state along the first ``steps`` steps of the default
    solve paths (puzzles: lines of classic puzzles, or Puzzles): the states a kernel's
    comparison test calls both implementations on."""
    from techniques import StepSolver
    from techniques.loop import apply_step
    from variants.classic import classic_puzzle
    walker = StepSolver("default", unique=True)
    for line in puzzles:
        p = classic_puzzle(line) if isinstance(line, str) else line
        st = p.pencilmarks()
        for k in range(steps):
            if k % every == 0:
                yield st.copy()
            step = walker.next_step(st)
            if step is None:
                break
            apply_step(st, step)


def kernel_solve_path(line: str) -> tuple:
    """A classic puzzle's default logic solve: its status and (step, extra, note) each."""
    from techniques.solver import StepSolver
    from variants.classic import classic_puzzle
    r = StepSolver("default").solve(classic_puzzle(line))
    return r.status, [(s, s.extra, s.note) for s in r.steps]


def kernel_path(monkeypatch, pure: bool) -> None:
    """Switch the compiled kernels off (``pure``) or on for what follows, from cold
    caches: the link tables and what they keep are shared by all puzzles of a layout."""
    from csp import links
    monkeypatch.setattr(links, "_LAYOUTS", {})
    if pure:
        monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    else:
        monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)


def both_kernel_paths(monkeypatch, owner, entry: str, lines: list[str],
                      want: int | None = None) -> tuple[int, int]:
    """Solve each puzzle with the kernels and with ``SUDOKU_CSP_PURE=1``, each from cold
    caches (the link tables and what they keep are shared by all classic puzzles), and
    assert the same status, steps and notes. ``owner.entry`` is the function through which
    the solve reaches the kernel (counted); ``want``: stop once that many puzzles reached
    it, and solve the others only once. Returns (puzzles compared, puzzles that reached
    the kernel). A call of ``owner.entry`` counts when it answers (not None).
    """
    calls = {"n": 0}
    real = getattr(owner, entry)

    def counted(*a, **k):
        out = real(*a, **k)
        calls["n"] += out is not None       # (None: the kernel is off, Python searches)
        return out
    monkeypatch.setattr(owner, entry, counted)
    compared = reached = 0
    for line in lines:
        kernel_path(monkeypatch, False)
        before = calls["n"]
        with_kernel = kernel_solve_path(line)
        if calls["n"] > before:
            reached += 1
        elif want is not None:
            continue
        kernel_path(monkeypatch, True)
        before = calls["n"]
        pure = kernel_solve_path(line)
        assert calls["n"] == before, "the pure run called the kernel"
        assert with_kernel == pure, line
        compared += 1
        if want is not None and reached >= want:
            break
    return compared, reached


def counted_calls(monkeypatch, owner, name: str) -> list[int]:
    """Replace ``owner.name`` by a wrapper that counts its calls (for the test's duration)
    and return the list that grows by one per call: a test's proof that the path under
    test was taken."""
    real = getattr(owner, name)
    calls: list[int] = []

    def counted(*args, **kw):
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(owner, name, counted)
    return calls


# -- 4x4 puzzles against every filled grid (tests/csp/test_sat_derived.py, test_sat_lines.py)
_ROWS4 = list(itertools.permutations(range(1, 5)))
#: the rows, columns and boxes of a 4x4 grid (cell = row * 4 + column)
HOUSES4 = ([[r * 4 + c for c in range(4)] for r in range(4)]
           + [[r * 4 + c for r in range(4)] for c in range(4)]
           + [[r * 4 + c for r in (br, br + 1) for c in (bc, bc + 1)]
              for br in (0, 2) for bc in (0, 2)])
#: the 288 filled 4x4 grids, by trying every four Latin rows against the houses
GRIDS4 = [v for v in ([d for row in grid for d in row]
                      for grid in itertools.product(_ROWS4, repeat=4))
          if all(len({v[c] for c in h}) == 4 for h in HOUSES4)]


def brute4(p) -> list[tuple[int, ...]]:
    """Every solution of a 4x4 puzzle ``p``: each filled grid its givens and every rule
    allow."""
    cand = p.initial_state().cand
    return [tuple(v) for v in GRIDS4
            if all(cand[c] >> d & 1 for c, d in enumerate(v)) and p.check_solution(v)]


def assert_sat_path_equals(monkeypatch, p, sols: list[tuple[int, ...]]) -> None:
    """The SAT path's solution count and true candidates (caps 1 and 3), with the compiled
    enumerator and without (``SUDOKU_CSP_PURE``), equal those of the solutions ``sols``
    (every cell and digit of a 4x4)."""
    from csp.solutions import candidate_counts, count_solutions
    for pure in (False, True):
        with monkeypatch.context() as m:
            if pure:
                m.setenv("SUDOKU_CSP_PURE", "1")
            assert count_solutions(p, method="sat").count == len(sols)
            for cap in (1, 3):
                res = candidate_counts(p, cap=cap, method="sat")
                assert res.complete
                for c in range(16):
                    for d in range(1, 5):
                        assert res.count(c, d) == min(cap, sum(1 for s in sols if s[c] == d))
