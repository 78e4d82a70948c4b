"""Start-up cost of a one-shot solve: ``sudoku-csp solve PUZZLE`` against pencilmark's
``import pencilmark; pencilmark.solve(...)``, both measured above a bare interpreter.

Each round runs three child processes, interleaved (a bare ``python -c pass``, our command,
pencilmark's one-shot), and reads their CPU time (user + system) from
``resource.getrusage(RUSAGE_CHILDREN)``; the report gives medians per command and the ratio
of the costs above the bare interpreter::

    python benchmarks/startup.py [--rounds 30] [--puzzle LINE] [--mode cached|source|both]

Two modes (``both`` by default, one after the other):

* ``cached``: as an installed program runs, with byte-code caching on (this script drops
  ``PYTHONDONTWRITEBYTECODE`` from the children's environment and a warm-up run writes the
  ``.pyc`` files; pip compiles pencilmark's at install time);
* ``source``: with ``PYTHONDONTWRITEBYTECODE=1`` and this checkout's ``__pycache__`` folders
  removed first, so every run compiles our modules from source (an editable install in an
  environment that forbids byte-code files); pencilmark keeps its installed ``.pyc`` files.

pencilmark is an outside peer (``pip install pencilmark``), never imported by the package;
without it only our figures are printed.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("csp", "techniques", "variants", "sudoku_csp")


def environment(mode: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if mode == "source":
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        for pkg in PACKAGES:
            for cache in (ROOT / pkg).rglob("__pycache__"):
                shutil.rmtree(cache, ignore_errors=True)
    return env


def cpu_of(cmd: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process running ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)!r} failed: {out.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def has_pencilmark() -> bool:
    return subprocess.run([sys.executable, "-c", "import pencilmark"],
                          capture_output=True).returncode == 0


def measure(mode: str, rounds: int, puzzle: str) -> dict[str, float]:
    """Median CPU seconds per command in ``mode``."""
    env = environment(mode)
    exe = shutil.which("sudoku-csp", path=os.path.dirname(sys.executable)) or "sudoku-csp"
    commands = {
        "bare python": [sys.executable, "-c", "pass"],
        "sudoku-csp solve": [exe, "solve", puzzle],
    }
    if has_pencilmark():
        commands["pencilmark.solve"] = [
            sys.executable, "-c",
            f"import pencilmark; pencilmark.solve(pencilmark.from_string({puzzle!r}))"]
    times: dict[str, list[float]] = {k: [] for k in commands}
    for cmd in commands.values():     # warm the file cache (and, cached, the .pyc files)
        cpu_of(cmd, env)
    for _ in range(rounds):
        for name, cmd in commands.items():
            times[name].append(cpu_of(cmd, env))
    return {k: statistics.median(v) for k, v in times.items()}


def report(mode: str, med: dict[str, float], rounds: int) -> None:
    print(f"mode {mode}: {'command':20s} {'median CPU ms':>14s} {'above bare ms':>14s}")
    for k, v in med.items():
        print(f"{'':{len(mode) + 6}s}{k:20s} {v * 1000:14.1f} "
              f"{(v - med['bare python']) * 1000:14.1f}")
    if "pencilmark.solve" in med:
        ours = med["sudoku-csp solve"] - med["bare python"]
        peer = med["pencilmark.solve"] - med["bare python"]
        print(f"mode {mode}: ratio (sudoku-csp above bare / pencilmark above bare): "
              f"{ours / peer:.2f}  ({rounds} interleaved rounds)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--puzzle", default=PUZZLE)
    ap.add_argument("--mode", choices=("cached", "source", "both"), default="both")
    args = ap.parse_args(argv)
    for mode in (("cached", "source") if args.mode == "both" else (args.mode,)):
        report(mode, measure(mode, args.rounds, args.puzzle), args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
