"""Batch throughput of ``sudoku-csp solve FILE``: serial vs a process pool vs a local Dask
cluster, wall time of the whole command (interpreter, pool or cluster start-up included).

::

    python benchmarks/batch.py [--file tests/data/17clue_5000.txt] [--limit N]
                               [--modes search,logic] [--backends serial,pool,dask]
                               [--workers 2] [--repeat R] [--write docs/performance.md]

``--own-sessions`` starts the command and each pool worker in a session of its own (see
docs/performance.md, "Batch": on a shared Linux machine with autogroup scheduling, CPU is
shared per session, so without it extra workers get no extra CPU).

Every back end's output must equal the serial run's (``time_ms`` aside); a difference is
reported in the table. Runs are interleaved (serial, pool, dask, serial, ...) and the best
of ``--repeat`` wall times is kept, which damps the noise of a shared machine.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- batch:begin -->"
END = "<!-- batch:end -->"


def _strip(out: str) -> list[dict]:
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        r.pop("time_ms", None)
    return rows


def run_once(file: Path, mode: str, backend: str, workers: int, summary: Path,
             own_sessions: bool = False) -> dict:
    cmd = [sys.executable, "-m", "sudoku_csp.cli", "solve", str(file), "--json",
           "--summary-json", str(summary)]
    if mode == "logic":
        cmd.append("--logic")
    if backend == "pool":
        cmd += ["--workers", str(workers)]
    elif backend == "dask":
        cmd += ["--dask", "local", "--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = dict(os.environ)
    if own_sessions:
        env["SUDOKU_CSP_WORKER_SESSIONS"] = "1"
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                       start_new_session=own_sessions)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rows": _strip(p.stdout),
            "summary": json.loads(summary.read_text())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--file", type=Path, default=ROOT / "tests/data/17clue_5000.txt")
    ap.add_argument("--limit", type=int, default=0, help="first N puzzles only (0: all)")
    ap.add_argument("--modes", default="search,logic")
    ap.add_argument("--backends", default="serial,pool,dask")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--write", type=Path, default=None)
    ap.add_argument("--own-sessions", action="store_true",
                    help="run the command, and each pool worker, in a session of its own: "
                         "under autogroup scheduling (Linux sched_autogroup_enabled=1) a "
                         "session gets one CPU share however many processes it has, so on a "
                         "busy machine this is what lets a second worker get CPU at all")
    args = ap.parse_args(argv)
    lines = [x for x in args.file.read_text().splitlines() if x.strip()]
    if args.limit:
        lines = lines[:args.limit]
    backends = args.backends.split(",")
    if "serial" not in backends:
        backends.insert(0, "serial")
    load0 = os.getloadavg()[0]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / args.file.name
        src.write_text("\n".join(lines) + "\n")
        summary = Path(tmp) / "summary.json"
        for mode in args.modes.split(","):
            best: dict[str, dict] = {}
            for _ in range(args.repeat):
                for b in backends:
                    r = run_once(src, mode, b, args.workers, summary, args.own_sessions)
                    print(f"{mode:6s} {b:6s} wall {r['wall']:8.2f} s  cpu {r['cpu']:8.2f} s  "
                          f"load {os.getloadavg()[0]:.1f}",
                          file=sys.stderr, flush=True)
                    if b not in best or r["wall"] < best[b]["wall"]:
                        best[b] = r
            ref = best["serial"]
            out.append(f"**{mode}** (`solve{' --logic' if mode == 'logic' else ''}`), "
                       f"{len(lines)} puzzles of {args.file.name}\n")
            out.append("| back end | workers | wall s | speed-up | CPU s (all processes) "
                       "| cores used | median ms/puzzle | same output as serial | counts |")
            out.append("|---|---:|---:|---:|---:|---:|---:|---|---|")
            for b in backends:
                r = best[b]
                s = r["summary"]
                counts = ", ".join(f"{v} {k}" for k, v in s["counts"].items() if v)
                same = "yes" if r["rows"] == ref["rows"] else "**NO**"
                out.append(f"| {b} | {s['workers']} | {r['wall']:.2f} | "
                           f"{ref['wall'] / r['wall']:.2f}x | {r['cpu']:.2f} | "
                           f"{r['cpu'] / r['wall']:.2f} | "
                           f"{s['time_ms']['median']:.2f} | {same} | {counts} |")
            if mode == "logic" and "ratings" in ref["summary"]:
                out.append("\nratings (serial run): " + ", ".join(
                    f"{k} {v}" for k, v in ref["summary"]["ratings"].items()))
            out.append("")
    body = "\n".join(out)
    print(body)
    if args.write:
        cmd = "python benchmarks/batch.py " + " ".join(argv if argv is not None else sys.argv[1:])
        head = (f"_Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
                f"{platform.python_version()}, {os.cpu_count()} cores, load average "
                f"{load0:.1f} at the start and {os.getloadavg()[0]:.1f} at the end, wall "
                f"time, best of {args.repeat}; command: `{cmd.strip()}`_\n\n")
        section = f"{BEGIN}\n{head}{body}{END}"
        text = args.write.read_text() if args.write.exists() else ""
        if BEGIN in text and END in text:
            text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
        else:
            text = text.rstrip() + "\n\n" + section + "\n"
        args.write.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
