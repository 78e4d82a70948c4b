"""Brute-force solving speed: this project's search next to reference solvers.

    python benchmarks/bruteforce.py [--sample N] [--seed S] [--sets 17clue,forum11]
                                    [--pc-sample K] [--pc-timeout SECONDS] [--no-ortools]
                                    [--clock cpu|wall] [--write docs/performance.md]

All solvers run in this one process on the same puzzles (a fixed sample per set, default
1,000 puzzles, seed 1), interleaved puzzle by puzzle so machine noise hits them alike:

* ``ours: solve()`` -- the public API, ``classic_puzzle(line).solve()``: builds the puzzle,
  propagates, searches and goes on until a second solution is ruled out (uniqueness proof).
* ``ours: solve(first=True)`` -- the same, stopping at the first solution.
* ``ours: engine reuse`` -- the lower-level path: one engine for the 9x9 grid, reused; only
  the candidate list is built per puzzle (``csp.search.search`` with limit 2).
* ``norvig-style`` -- a reference written in this file: Norvig-style constraint propagation
  over a dict of candidate strings (eliminate / assign, "only one place left" in a unit) and
  depth-first search on the square with the fewest candidates. Stops at the first solution.
* ``python-constraint`` -- the natural model (81 variables, givens as one-value domains, an
  ``AllDifferentConstraint`` per house) with its default backtracking solver, on a small
  sample (``--pc-sample``, default 20) with a per-puzzle timeout. Its compiled solver cannot
  be interrupted, so it runs in a worker process (timed inside the worker) that is killed on
  a timeout; a timed-out puzzle counts with the timeout, so its ratio is a lower bound,
  shown with ``>=``.
* ``or-tools cp-sat`` -- when ``ortools`` is importable (``pip install ortools``; the optional
  ``bench`` extra): 81 integer variables, ``AddAllDifferent`` per house, one search worker.

Every solution is checked (a valid grid that keeps the givens). Ratios are solver time over
the Norvig-style reference's time on the same puzzles. Times are CPU time of the process by
default (``--clock cpu``, steadier on a shared machine than elapsed time; ``--clock wall``
for elapsed time). Method and results: docs/performance.md.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from csp.search import search  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402

SETS = {"17clue": "17clue_5000.txt", "forum11": "forum_11plus_5000.txt"}


def data_dir() -> Path:
    for cand in (ROOT.parent / "shared" / "data" / "classic",
                 ROOT.parent.parent / "shared" / "data" / "classic",
                 Path("/work/shared/data/classic")):
        if cand.is_dir():
            return cand
    raise SystemExit("shared data directory not found (give --data)")


def load(path: Path) -> list[str]:
    out = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line.split()[0])
    return out


# ---------------------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------------------
_UNITS9 = ([[r * 9 + c for c in range(9)] for r in range(9)]
           + [[r * 9 + c for r in range(9)] for c in range(9)]
           + [[(br + i) * 9 + bc + j for i in range(3) for j in range(3)]
              for br in (0, 3, 6) for bc in (0, 3, 6)])
_FULL = set("123456789")


def valid(line: str, sol: str | None) -> bool:
    """``sol`` is a complete valid grid that keeps the givens of ``line``."""
    if sol is None or len(sol) != 81:
        return False
    if any(g not in ".0" and g != s for g, s in zip(line, sol)):
        return False
    return all({sol[c] for c in u} == _FULL for u in _UNITS9)


# ---------------------------------------------------------------------------------------
# The Norvig-style reference (written for this benchmark)
# ---------------------------------------------------------------------------------------
_NV_UNITS = [[_u for _u in _UNITS9 if c in _u] for c in range(81)]
_NV_PEERS = [sorted(set().union(*map(set, _NV_UNITS[c])) - {c}) for c in range(81)]


def _nv_drop(grid: dict[int, str], cell: int, digit: str) -> bool:
    """Remove ``digit`` from ``cell`` and propagate; False on a contradiction."""
    here = grid[cell]
    if digit not in here:
        return True
    here = here.replace(digit, "")
    if not here:
        return False
    grid[cell] = here
    if len(here) == 1:           # the cell is decided: its digit leaves every peer
        last = here
        for p in _NV_PEERS[cell]:
            if not _nv_drop(grid, p, last):
                return False
    for unit in _NV_UNITS[cell]:  # the digit may now have a single place in a unit
        spots = [c for c in unit if digit in grid[c]]
        if not spots:
            return False
        if len(spots) == 1 and len(grid[spots[0]]) > 1:
            if not _nv_set(grid, spots[0], digit):
                return False
    return True


def _nv_set(grid: dict[int, str], cell: int, digit: str) -> bool:
    """Make ``digit`` the value of ``cell`` by dropping every other candidate."""
    return all(_nv_drop(grid, cell, other) for other in grid[cell] if other != digit)


def _nv_dfs(grid: dict[int, str]) -> dict[int, str] | None:
    open_cells = [c for c in range(81) if len(grid[c]) > 1]
    if not open_cells:
        return grid
    cell = min(open_cells, key=lambda c: len(grid[c]))
    for digit in grid[cell]:
        trial = grid.copy()
        if _nv_set(trial, cell, digit):
            done = _nv_dfs(trial)
            if done is not None:
                return done
    return None


def norvig_solve(line: str) -> str | None:
    grid = {c: "123456789" for c in range(81)}
    for c, ch in enumerate(line):
        if ch in "123456789" and not _nv_set(grid, c, ch):
            return None
    done = _nv_dfs(grid)
    return None if done is None else "".join(done[c] for c in range(81))


# ---------------------------------------------------------------------------------------
# This project
# ---------------------------------------------------------------------------------------
def _digits(sol: list[int] | None) -> str | None:
    return None if sol is None else "".join(map(str, sol))


def ours_solve(line: str) -> str | None:
    r = classic_puzzle(line).solve()
    return _digits(r.solution) if r.status == "solved" else None


def ours_first(line: str) -> str | None:
    return _digits(classic_puzzle(line).solve(first=True).solution)


def make_engine_reuse() -> Callable[[str], str | None]:
    engine = classic_puzzle("." * 81).engine()
    full = engine.all_mask

    def solve(line: str) -> str | None:
        cand = [full if ch in ".0" else 1 << int(ch) for ch in line]
        sols, _ = search(engine, cand, 2)
        return _digits(sols[0]) if len(sols) == 1 else None
    return solve


# ---------------------------------------------------------------------------------------
# python-constraint and OR-Tools
# ---------------------------------------------------------------------------------------
def _pc_model(line: str):
    import constraint  # python-constraint2
    prob = constraint.Problem()   # default: BacktrackingSolver
    for c, ch in enumerate(line):
        prob.addVariable(c, [int(ch)] if ch in "123456789" else list(range(1, 10)))
    for u in _UNITS9:
        prob.addConstraint(constraint.AllDifferentConstraint(), u)
    return prob


def _pc_worker(conn) -> None:  # pragma: no cover - runs in the child process
    while True:
        line = conn.recv()
        if line is None:
            return
        t0 = CLOCK()
        sol = _pc_model(line).getSolution()
        dt = CLOCK() - t0
        conn.send((dt, None if not sol else "".join(str(sol[c]) for c in range(81))))


class PythonConstraint:
    """python-constraint in a worker process (its compiled solver cannot be interrupted in
    process), so a puzzle over ``timeout`` seconds is abandoned by killing the worker. The
    time reported is measured inside the worker around model building plus ``getSolution()``."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.proc = None
        self.conn = None
        self.last_time = 0.0

    def _start(self) -> None:
        import multiprocessing as mp
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_pc_worker, args=(child,), daemon=True)
        self.proc.start()

    def __call__(self, line: str) -> str | None:
        if self.proc is None:
            self._start()
        assert self.conn is not None and self.proc is not None
        self.conn.send(line)
        if not self.conn.poll(self.timeout):
            self.proc.kill()
            self.proc.join()
            self.proc = None
            self.last_time = self.timeout
            return "timeout"
        self.last_time, sol = self.conn.recv()
        return sol

    def close(self) -> None:
        if self.proc is not None and self.conn is not None:
            self.conn.send(None)
            self.proc.join(5)
            self.proc = None


def make_ortools() -> Callable[[str], str | None] | None:
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None

    def solve(line: str) -> str | None:
        m = cp_model.CpModel()
        x = [m.NewIntVar(1, 9, f"c{c}") if ch in ".0" else m.NewConstant(int(ch))
             for c, ch in enumerate(line)]
        for u in _UNITS9:
            m.AddAllDifferent([x[c] for c in u])
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        st = s.Solve(m)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return "".join(str(s.Value(v)) for v in x)
    return solve


# ---------------------------------------------------------------------------------------
# Running and reporting
# ---------------------------------------------------------------------------------------
CLOCK = time.process_time
CLOCK_NAME = "CPU"


def run(solvers: dict[str, Callable[[str], str | None]], lines: list[str],
        only: dict[str, int]) -> dict[str, list[float]]:
    """Time each solver on each puzzle, interleaved. ``only[name] = k``: that solver runs on
    the first ``k`` puzzles only. Returns per-solver lists of seconds."""
    times: dict[str, list[float]] = {name: [] for name in solvers}
    timeouts: dict[str, int] = {name: 0 for name in solvers}
    for i, line in enumerate(lines):
        for name, fn in solvers.items():
            if name in only and i >= only[name]:
                continue
            t0 = CLOCK()
            sol = fn(line)
            dt = CLOCK() - t0
            if isinstance(fn, PythonConstraint):
                dt = fn.last_time
            if sol == "timeout":
                timeouts[name] += 1
            elif not valid(line, sol):
                raise SystemExit(f"{name}: wrong answer on {line}")
            times[name].append(dt)
    times["_timeouts"] = timeouts  # type: ignore[assignment]
    return times


def fmt_ms(s: float) -> str:
    ms = s * 1000
    return f"{ms:.3f}" if ms < 1 else (f"{ms:.2f}" if ms < 100 else f"{ms:.0f}")


def table(set_name: str, count: int, times: dict[str, list[float]],
          ref: str = "norvig-style") -> str:
    timeouts = times.pop("_timeouts", {})  # type: ignore[arg-type]
    rows = ["| solver | puzzles | median ms | total s | ratio vs Norvig-style (total) |",
            "|---|---:|---:|---:|---:|"]
    for name, ts in times.items():
        if not ts:
            continue
        k = len(ts)
        ref_total = sum(times[ref][:k])
        tot = sum(ts)
        to = timeouts.get(name, 0)
        r = tot / ref_total if ref_total else 0.0
        ratio = "-" if not ref_total else (f"{r:.3f}x" if r < 10 else f"{r:,.0f}x")
        if to:
            ratio = f">= {ratio} ({to} timed out)"
        rows.append(f"| {name} | {k} | {fmt_ms(statistics.median(ts))} | {tot:.3f} | {ratio} |")
    notes = []
    pc = times.get("python-constraint")
    if pc:
        k = len(pc)
        for name in ("ours: solve()", "ours: solve(first=True)"):
            ours = sum(times[name][:k])
            ge = ">= " if timeouts.get("python-constraint") else ""
            notes.append(f"python-constraint / {name} on the same {k} puzzles: "
                         f"{ge}{sum(pc) / ours:,.0f}x")
    text = f"**{set_name}** ({count} puzzles)\n\n" + "\n".join(rows) + "\n"
    if notes:
        text += "\n" + "\n".join(f"- {x}" for x in notes) + "\n"
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=1000, help="puzzles per set (0 = all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sets", default="17clue,forum11")
    ap.add_argument("--data", type=Path, default=None, help="directory of the puzzle files")
    ap.add_argument("--pc-sample", type=int, default=20,
                    help="puzzles per set for python-constraint (0 = skip)")
    ap.add_argument("--pc-timeout", type=float, default=10.0,
                    help="python-constraint seconds per puzzle")
    ap.add_argument("--no-ortools", action="store_true")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu: process CPU time (default; steadier on a shared machine), "
                         "wall: elapsed time")
    ap.add_argument("--write", type=Path, default=None,
                    help="write the results section into this markdown file")
    args = ap.parse_args(argv)

    global CLOCK, CLOCK_NAME
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    CLOCK_NAME = "CPU" if args.clock == "cpu" else "wall"
    data = args.data or data_dir()
    solvers: dict[str, Callable[[str], str | None]] = {
        "ours: solve()": ours_solve,
        "ours: solve(first=True)": ours_first,
        "ours: engine reuse": make_engine_reuse(),
        "norvig-style": norvig_solve,
    }
    only: dict[str, int] = {}
    if args.pc_sample:
        solvers["python-constraint"] = PythonConstraint(args.pc_timeout)
        only["python-constraint"] = args.pc_sample
    ort = None if args.no_ortools else make_ortools()
    if ort is not None:
        solvers["or-tools cp-sat"] = ort

    out = []
    for key in args.sets.split(","):
        lines = load(data / SETS[key])
        if args.sample and args.sample < len(lines):
            lines = random.Random(args.seed).sample(lines, args.sample)
        times = run(solvers, lines, only)
        out.append(table(f"{SETS[key]}", len(lines), times))
        print(out[-1], flush=True)

    for fn in solvers.values():
        if isinstance(fn, PythonConstraint):
            fn.close()
    if args.write:
        write_section(args.write, "\n".join(out), argv if argv is not None else sys.argv[1:])
    return 0


BEGIN = "<!-- bruteforce:begin -->"
END = "<!-- bruteforce:end -->"


def write_section(path: Path, body: str, argv: list[str]) -> None:
    """Replace the marked results section of ``path`` (appended if missing)."""
    import platform
    cmd = "python benchmarks/bruteforce.py " + " ".join(argv)
    import os
    try:
        load = "load average %.1f, " % os.getloadavg()[0]
    except OSError:
        load = ""
    section = (f"{BEGIN}\n_Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
               f"Python {platform.python_version()} on {platform.machine()} "
               f"({platform.system()}, {os.cpu_count()} cores, {load}{CLOCK_NAME} time); "
               f"command: `{cmd.strip()}`_\n\n{body}\n{END}")
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        a = text.index(BEGIN)
        b = text.index(END) + len(END)
        text = text[:a] + section + text[b:]
    else:
        text = text.rstrip() + ("\n\n" if text else "") + section + "\n"
    path.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main())
