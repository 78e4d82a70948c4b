"""Start-up cost of a one-shot solve: ``sudoku-csp solve PUZZLE`` against pencilmark's
``import pencilmark; pencilmark.solve(...)``, both measured above a bare interpreter.

Each round runs three child processes, interleaved (a bare ``python -c pass``, our command,
pencilmark's one-shot), and reads their CPU time (user + system) from
``resource.getrusage(RUSAGE_CHILDREN)``; the report gives medians per command and the ratio
of the costs above the bare interpreter::

    python benchmarks/startup.py [--rounds 30] [--puzzle LINE]

pencilmark is an outside peer (``pip install pencilmark``), never imported by the package;
without it only our figures are printed.

The children run as an installed program does: with byte-code caching on (this script drops
``PYTHONDONTWRITEBYTECODE`` from their environment, and a warm-up run writes the ``.pyc``
files), as pip leaves an installed package (pencilmark's are compiled at install time).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one child process running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)!r} failed: {out.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def has_pencilmark() -> bool:
    return subprocess.run([sys.executable, "-c", "import pencilmark"],
                          capture_output=True, env=ENV).returncode == 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--puzzle", default=PUZZLE)
    args = ap.parse_args(argv)
    exe = shutil.which("sudoku-csp", path=os.path.dirname(sys.executable)) or "sudoku-csp"
    commands = {
        "bare python": [sys.executable, "-c", "pass"],
        "sudoku-csp solve": [exe, "solve", args.puzzle],
    }
    if has_pencilmark():
        commands["pencilmark.solve"] = [
            sys.executable, "-c",
            f"import pencilmark; pencilmark.solve(pencilmark.from_string({args.puzzle!r}))"]
    times: dict[str, list[float]] = {k: [] for k in commands}
    for name, cmd in commands.items():     # warm the file cache and the .pyc files
        cpu_of(cmd)
    for _ in range(args.rounds):
        for name, cmd in commands.items():
            times[name].append(cpu_of(cmd))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{'command':20s} {'median CPU ms':>14s} {'above bare ms':>14s}")
    for k, v in med.items():
        print(f"{k:20s} {v * 1000:14.1f} {(v - med['bare python']) * 1000:14.1f}")
    if "pencilmark.solve" in med:
        ours = med["sudoku-csp solve"] - med["bare python"]
        peer = med["pencilmark.solve"] - med["bare python"]
        print(f"ratio (sudoku-csp above bare / pencilmark above bare): {ours / peer:.2f}"
              f"  ({args.rounds} interleaved rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
