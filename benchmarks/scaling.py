"""How solving time grows with the grid: n = 4, 6, 9, 12, 16, 25, next to peers.

    python benchmarks/scaling.py                           # print the tables
    python benchmarks/scaling.py --write docs/performance.md --plot docs/img/scaling.png
    python benchmarks/scaling.py --sets 16,16min --time-limit 10 --no-pencilmark

Puzzles: ``tests/data/sizes_<set>.solutions.csv``, made by ``benchmarks/make_bigsets.py``
(seeded; each has one solution, checked by this project's search, OR-Tools CP-SAT and
pencilmark): minimal random puzzles for n = 4, 6, 9, 12 and 16 (``16min``), 16x16 with
38-44 % givens (``16``) and 25x25 with 40-55 % givens (``25``).

Solvers, all in this process, interleaved puzzle by puzzle (every solver on puzzle 1, then
every solver on puzzle 2, ...) so slow drifts of the machine hit them alike:

* ``ours: solve()`` -- the public API: ``Puzzle(Grid(n)).add_grid_houses().givens(line)
  .solve(time_limit=...)``, construction included; goes on until a second solution is ruled
  out (a uniqueness proof).
* ``ours: solve(first=True)`` -- the same, stopping at the first solution.
* ``pencilmark`` -- pencilmark's C++ depth-first search (``cbackend.brute_solve(puzzle,
  limit=2)``, also a uniqueness proof; model building included), when pencilmark is
  installed. It has no time limit, only a node limit (``--pm-nodes``): a puzzle past it
  counts as timed out with the time it took.
* ``or-tools cp-sat`` -- when ``ortools`` is installed: n*n integer variables,
  ``AddAllDifferent`` per house, one search worker, first solution (as in
  ``benchmarks/bruteforce.py``), ``max_time_in_seconds`` = the time limit.
* ``or-tools cp-sat (unique)`` -- the same, then the solution forbidden and a second solve
  that must find none: the uniqueness proof the first three give.
* logic columns (``--logic``, or ``--logic-only`` for them alone): ``ours: logic`` is
  ``techniques.StepSolver().solve(puzzle, time_limit=...)`` (model building included; a
  puzzle its techniques cannot finish counts as "stuck"); ``pencilmark: logic`` is
  pencilmark's logical pass (``cbackend.solve(puzzle, _params("human"))``, no guessing, as
  ``benchmarks/variants.py`` runs it; model building included), which has no time limit
  and whose grid is not read back (only solved or stuck). :data:`LOGIC` is the hook for more.

    python benchmarks/scaling.py --logic-only --save /tmp/logic.json
    python benchmarks/scaling.py --load /tmp/brute.json --merge /tmp/logic.json \
        --write docs/performance.md --plot docs/img/scaling.png

Every answer is checked against the stored solution; a wrong answer stops the run. A solver
past the time limit (``--time-limit``, default 30 s) counts with the time it took and is
marked; its totals are then lower bounds. Times are CPU time of the process (``--clock
wall`` for elapsed time). Each solver first solves one puzzle of each size untimed (imports,
cached tables). ``--plot`` draws median time per puzzle against n on log-log axes.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from csp import Grid, Puzzle  # noqa: E402
from csp.errors import SearchLimit  # noqa: E402
from csp.io import parse_line  # noqa: E402

DATA = ROOT / "tests" / "data"
#: set name -> n (the sets of the growth table and plot: one per n; ``16min`` is an extra row)
SETS = {"4": 4, "6": 6, "9": 9, "12": 12, "16": 16, "16min": 16, "25": 25}
CURVE = ("4", "6", "9", "12", "16", "25")

TIMEOUT = "timeout"
#: a solver: (puzzle line, time limit in seconds) -> solution line, None or TIMEOUT
Solver = Callable[[str, float], "list[int] | str | None"]


def load(name: str) -> list[tuple[str, list[int]]]:
    out = []
    for row in (DATA / f"sizes_{name}.solutions.csv").read_text().split():
        puzzle, solution = row.split(",")[:2]
        out.append((puzzle, parse_line(solution)[1]))
    return out


# ---------------------------------------------------------------------------------------
# Solvers
# ---------------------------------------------------------------------------------------
def _puzzle(line: str) -> Puzzle:
    n = math.isqrt(len(line))
    return Puzzle(Grid(n)).add_grid_houses().givens(line)


def ours_solve(line: str, limit: float):
    try:
        r = _puzzle(line).solve(time_limit=limit)
    except SearchLimit:
        return TIMEOUT
    return r.solution if r.status == "solved" else None


def ours_first(line: str, limit: float):
    try:
        return _puzzle(line).solve(first=True, time_limit=limit).solution
    except SearchLimit:
        return TIMEOUT


def make_pencilmark(node_limit: int) -> Solver | None:
    try:
        from pencilmark import cbackend, model
    except ImportError:
        return None

    def solve(line: str, limit: float):
        n = math.isqrt(len(line))
        bh, bw = Grid(n).box_shape
        p = model.standard(n, bh, bw, line)
        sols = cbackend.brute_solve(p, limit=2, node_limit=node_limit)
        if not sols.complete:
            return TIMEOUT
        return list(sols[0]) if len(sols) == 1 else None
    return solve


def make_ortools(unique: bool = False) -> Solver | None:
    """CP-SAT on n*n integer variables with ``AddAllDifferent`` per house, one worker.
    ``unique``: then forbids the solution found and solves again (a uniqueness proof, as
    ``ours: solve()`` and pencilmark give)."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None

    def solve(line: str, limit: float):
        t0 = time.perf_counter()
        n, vals = parse_line(line)
        m = cp_model.CpModel()
        x = [m.NewIntVar(1, n, f"c{c}") if not v else m.NewConstant(v)
             for c, v in enumerate(vals)]
        for h in Grid(n).houses:
            m.AddAllDifferent([x[c] for c in h.cells])
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        s.parameters.max_time_in_seconds = limit
        st = s.Solve(m)
        if st == cp_model.UNKNOWN:
            return TIMEOUT
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        sol = [s.Value(v) for v in x]
        if not unique:
            return sol
        differs = []
        for c, v in enumerate(vals):
            if not v:
                b = m.NewBoolVar(f"d{c}")
                m.Add(x[c] != sol[c]).OnlyEnforceIf(b)
                differs.append(b)
        m.AddBoolOr(differs)
        s = cp_model.CpSolver()
        s.parameters.num_workers = 1
        s.parameters.max_time_in_seconds = max(0.01, limit - (time.perf_counter() - t0))
        st = s.Solve(m)
        if st == cp_model.UNKNOWN:
            return TIMEOUT
        return sol if st == cp_model.INFEASIBLE else None
    return solve


def ours_logic(line: str, limit: float):
    from techniques import StepSolver
    r = StepSolver().solve(_puzzle(line), time_limit=limit)
    if r.status == "limit":
        return TIMEOUT
    if r.status != "solved":
        return "stuck"
    return list(r.state.placed)


def make_pencilmark_logic() -> Solver | None:
    """pencilmark's logical pass (``cbackend.solve`` in its "human" mode, no guessing, as
    ``benchmarks/variants.py`` runs it): "solved" when it fills the grid (its answer is not
    read back, so not checked here), "stuck" when its techniques run out. It has no time
    limit of its own."""
    try:
        from pencilmark import cbackend, model
        from pencilmark.api import _params
    except ImportError:
        return None
    params = _params("human")

    def solve(line: str, limit: float):
        n = math.isqrt(len(line))
        bh, bw = Grid(n).box_shape
        _steps, solved = cbackend.solve(model.standard(n, bh, bw, line), params)
        return "solved" if solved else "stuck"
    return solve


#: logic solvers (``--logic``): name -> solver; a solver may return "stuck" (no verdict,
#: not an error) or "solved" (a verdict whose grid is not read back).
LOGIC: dict[str, Solver] = {"ours: logic": ours_logic}
_pm_logic = make_pencilmark_logic()
if _pm_logic is not None:
    LOGIC["pencilmark: logic"] = _pm_logic


# ---------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------
CLOCK = time.process_time
CLOCK_NAME = "CPU"


class Times:
    """Seconds per puzzle of one solver on one set, and how many ran out / got stuck."""

    def __init__(self) -> None:
        self.secs: list[float] = []
        self.timeouts = 0
        self.stuck = 0


def run(name: str, solvers: dict[str, Solver], limit: float,
        log: Callable[[str], None]) -> dict[str, Times]:
    rows = load(name)
    out = {s: Times() for s in solvers}
    for sname, fn in solvers.items():       # warm-up, untimed
        fn(rows[0][0], limit)
    for i, (line, sol) in enumerate(rows):
        parts = []
        for sname, fn in solvers.items():
            t0 = CLOCK()
            got = fn(line, limit)
            dt = CLOCK() - t0
            t = out[sname]
            t.secs.append(dt)
            if got == TIMEOUT:
                t.timeouts += 1
            elif got == "stuck":
                t.stuck += 1
            elif got == "solved":
                pass
            elif got != sol:
                raise SystemExit(f"{sname}: wrong answer on {line}")
            parts.append(f"{sname} {dt * 1000:.0f} ms" + (" (timeout)" if got == TIMEOUT
                                                          else ""))
        log(f"  {name} #{i}: " + ", ".join(parts))
    return out


def fmt_ms(s: float) -> str:
    ms = s * 1000
    return f"{ms:.3f}" if ms < 1 else (f"{ms:.2f}" if ms < 100 else f"{ms:,.0f}")


def _ratio(a: float, b: float) -> str:
    return "-" if not b else (f"{a / b:.2f}x" if a / b < 100 else f"{a / b:,.0f}x")


def table(results: dict[str, dict[str, Times]], refs: list[str]) -> str:
    cols = [f"vs {r} (total)" for r in refs]
    out = ["| set | n | givens | solver | puzzles | median ms | max ms | total s | "
           + " | ".join(cols) + " |",
           "|---|---:|---:|---|---:|---:|---:|---:|" + "---:|" * len(cols)]
    for name, res in results.items():
        rows = load(name)
        n = SETS[name]
        giv = statistics.mean(sum(1 for ch in p if ch != ".") for p, _ in rows) / (n * n)
        for sname, t in res.items():
            if not t.secs:
                continue
            tot = sum(t.secs)
            mark = ""
            if t.timeouts:
                mark = f" ({t.timeouts} over the limit)"
            if t.stuck:
                mark += f" ({t.stuck} stuck)"
            ratios = [_ratio(tot, sum(res[r].secs)) if r in res and r != sname else "-"
                      for r in refs]
            ge = ">= " if t.timeouts else ""
            out.append(f"| {name} | {n} | {giv:.0%} | {sname}{mark} | {len(t.secs)} | "
                       f"{fmt_ms(statistics.median(t.secs))} | {fmt_ms(max(t.secs))} | "
                       f"{ge}{tot:.3f} | " + " | ".join(ratios) + " |")
    return "\n".join(out) + "\n"


def growth(results: dict[str, dict[str, Times]]) -> str:
    """Median time per puzzle against n, and the local exponent k of t ~ n^k between
    neighbouring sizes."""
    names = [s for s in CURVE if s in results]
    solvers = list(dict.fromkeys(s for nm in names for s in results[nm]))
    head = "| solver | " + " | ".join(f"n={SETS[nm]}" for nm in names) + " |"
    out = [head, "|---|" + "---:|" * len(names)]
    for sname in solvers:
        cells, prev = [], None
        for nm in names:
            t = results[nm].get(sname)
            if t is None or not t.secs:
                cells.append("-")
                prev = None
                continue
            med = statistics.median(t.secs)
            txt = fmt_ms(med) + " ms"
            if prev is not None and prev[1] > 0 and med > 0:
                k = math.log(med / prev[1]) / math.log(SETS[nm] / prev[0])
                txt += f" (n^{k:.1f})"
            cells.append(txt)
            prev = (SETS[nm], med)
        out.append(f"| {sname} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def plot(results: dict[str, dict[str, Times]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [s for s in CURVE if s in results]
    solvers = list(dict.fromkeys(s for nm in names for s in results[nm]))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
    for ax, what in zip(axes, ("median", "mean")):
        for sname in solvers:
            xs, ys, low = [], [], []
            for nm in names:
                t = results[nm].get(sname)
                if t is None or not t.secs:
                    continue
                xs.append(SETS[nm])
                v = statistics.median(t.secs) if what == "median" else statistics.mean(t.secs)
                ys.append(v * 1000)
                low.append(t.timeouts > 0)
            line, = ax.plot(xs, ys, marker="o", label=sname)
            for x, y, lo in zip(xs, ys, low):      # a lower bound: puzzles over the limit
                if lo:
                    ax.plot([x], [y], marker="^", markersize=11, color=line.get_color(),
                            markerfacecolor="none")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ns = [SETS[nm] for nm in names]
        ax.set_xticks(ns)
        ax.set_xticklabels([str(v) for v in ns])
        ax.minorticks_off()
        ax.set_xlabel("n (grid is n x n)")
        ax.set_ylabel(f"{what} {CLOCK_NAME} ms per puzzle")
        ax.set_title(f"{what} time per puzzle (open triangle: lower bound)", fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def save_times(path: Path, results: dict[str, dict[str, Times]], refs: list[str]) -> None:
    data = {"refs": refs, "sets": {nm: {s: vars(t) for s, t in res.items()}
                                   for nm, res in results.items()}}
    path.write_text(json.dumps(data))


def load_times(path: Path) -> tuple[dict[str, dict[str, Times]], list[str]]:
    data = json.loads(path.read_text())
    results: dict[str, dict[str, Times]] = {}
    for nm, res in data["sets"].items():
        results[nm] = {}
        for s, d in res.items():
            t = results[nm][s] = Times()
            t.secs, t.timeouts, t.stuck = d["secs"], d["timeouts"], d["stuck"]
    return results, data["refs"]


BEGIN = "<!-- scaling:begin -->"
END = "<!-- scaling:end -->"


def write_section(path: Path, body: str, argv: list[str]) -> None:
    """Replace the marked results section of ``path`` (appended if missing)."""
    cmd = "python benchmarks/scaling.py " + " ".join(argv)
    try:
        load_avg = "load average %.1f, " % os.getloadavg()[0]
    except OSError:
        load_avg = ""
    section = (f"{BEGIN}\n_Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
               f"Python {platform.python_version()} on {platform.machine()} "
               f"({platform.system()}, {os.cpu_count()} cores, {load_avg}{CLOCK_NAME} time); "
               f"command: `{cmd.strip()}`_\n\n{body}\n{END}")
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        a = text.index(BEGIN)
        b = text.index(END) + len(END)
        text = text[:a] + section + text[b:]
    else:
        text = text.rstrip() + ("\n\n" if text else "") + section + "\n"
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--time-limit", type=float, default=30.0,
                    help="seconds per puzzle and solver (default 30)")
    ap.add_argument("--pm-nodes", type=int, default=4_000_000,
                    help="pencilmark's node limit (it has no time limit; 4,000,000 nodes "
                         "take about 30 s on a 25x25)")
    ap.add_argument("--no-pencilmark", action="store_true")
    ap.add_argument("--no-ortools", action="store_true")
    ap.add_argument("--no-unique", action="store_true",
                    help="skip CP-SAT's uniqueness proof (second solve)")
    ap.add_argument("--no-first", action="store_true", help="skip ours: solve(first=True)")
    ap.add_argument("--logic", action="store_true", help="add the logic solvers")
    ap.add_argument("--logic-only", action="store_true",
                    help="only the logic solvers (their ratios against pencilmark's)")
    ap.add_argument("--merge", type=Path, action="append", default=[],
                    help="with --load: add the solvers of more times saved by --save")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--write", type=Path, default=None,
                    help="write the results section into this markdown file")
    ap.add_argument("--plot", type=Path, default=None, help="write the log-log plot (PNG)")
    ap.add_argument("--save", type=Path, default=None,
                    help="save the measured times (JSON), for --load")
    ap.add_argument("--load", type=Path, default=None,
                    help="no run: tables and plot from times saved by --save")
    args = ap.parse_args(argv)

    global CLOCK, CLOCK_NAME
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    CLOCK_NAME = "CPU" if args.clock == "cpu" else "wall"
    solvers: dict[str, Solver] = {"ours: solve()": ours_solve}
    if not args.no_first:
        solvers["ours: solve(first=True)"] = ours_first
    refs = []
    pm = None if args.no_pencilmark else make_pencilmark(args.pm_nodes)
    if pm is not None:
        solvers["pencilmark"] = pm
        refs.append("pencilmark")
    ort = None if args.no_ortools else make_ortools()
    if ort is not None:
        solvers["or-tools cp-sat"] = ort
        refs.append("or-tools cp-sat")
        if not args.no_unique:
            solvers["or-tools cp-sat (unique)"] = make_ortools(unique=True)
            refs.append("or-tools cp-sat (unique)")
    if args.logic:
        solvers.update(LOGIC)
    if args.logic_only:
        solvers = dict(LOGIC)
        refs = [s for s in LOGIC if s.startswith("pencilmark")]
    if args.no_pencilmark:
        solvers = {k: v for k, v in solvers.items() if not k.startswith("pencilmark")}
        refs = [r for r in refs if not r.startswith("pencilmark")]


    results: dict[str, dict[str, Times]] = {}
    if args.load:
        results, refs = load_times(args.load)
        for extra in args.merge:
            more, more_refs = load_times(extra)
            for nm, res in more.items():
                results.setdefault(nm, {}).update(res)
            refs += [r for r in more_refs if r not in refs]
    for name in args.sets.split(",") if not args.load else ():
        print(f"set {name}", flush=True)
        results[name] = run(name, solvers, args.time_limit, lambda s: print(s, flush=True))
        print(table({name: results[name]}, refs), flush=True)
        if args.save:
            save_times(args.save, results, refs)
    body = (table(results, refs) + "\nMedian per puzzle, and the growth t ~ n^k from the "
            "size before:\n\n" + growth(results))
    print(body)
    if args.plot:
        plot(results, args.plot)
    if args.write:
        write_section(args.write, body, argv if argv is not None else sys.argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
