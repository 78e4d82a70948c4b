"""The setter's report (``sudoku-csp report``) on the 9x9 f-puzzles setter puzzles of about
30 rule elements and givens: CPU seconds per report and per phase, and whether it was
complete (no phase cut short by its time limit).

    python benchmarks/report.py [--min 25] [--max 35] [--time-limit 120] [--json]

Each distinct puzzle of ``tests/data/fpuzzles_cc_by.jsonl`` (the set lists some twice) on a
9x9 grid with between ``--min`` and ``--max`` elements (givens and rule elements, as
:func:`sudoku_csp.workbench.elements.elements` counts them) is reported once, in this
process, with CPU time (``time.process_time``) measured around the call and between the
phases (its ``progress`` callback).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402
from sudoku_csp.workbench.elements import elements  # noqa: E402
from sudoku_csp.workbench.report import report  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--min", type=int, default=25)
    ap.add_argument("--max", type=int, default=35)
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    seen = set()
    rows = []
    with open(ROOT / "tests" / "data" / "fpuzzles_cc_by.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            key = json.dumps(row["fpuzzles_json"], sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            p = load_fpuzzles(row["fpuzzles_json"])
            if p.grid.n != 9 or not args.min <= len(elements(p)) <= args.max:
                continue
            phases: dict[str, float] = {}
            last = [None, 0.0]
            t0 = time.process_time()

            def progress(phase, done, total, t0=t0, last=last, phases=phases):
                now = time.process_time() - t0
                if phase != last[0]:
                    if last[0] is not None:
                        phases[last[0]] = phases.get(last[0], 0.0) + now - last[1]
                    last[0], last[1] = phase, now

            r = report(p, time_limit=args.time_limit, progress=progress)
            cpu = time.process_time() - t0
            if last[0] is not None:
                phases[last[0]] = phases.get(last[0], 0.0) + cpu - last[1]
            out = {"title": row["title"], "elements": len(r.elements), "cpu_s": round(cpu, 2),
                   "status": r.status, "logic": r.logic.get("status"),
                   "level": r.logic.get("level"), "complete": r.complete,
                   "redundant": len(r.verdicts("redundant")),
                   "decorative": len(r.verdicts("decorative")),
                   "phases": {k: round(v, 2) for k, v in phases.items()}, "notes": r.notes}
            rows.append(out)
            if args.json:
                print(json.dumps(out), flush=True)
            else:
                print(f"{out['cpu_s']:7.2f} s  {out['elements']:3d} el  "
                      f"{'complete' if r.complete else 'partial '}  {r.status:8} "
                      f"{str(out['logic']):8} {row['title']}", flush=True)
    cpus = [r["cpu_s"] for r in rows]
    if cpus and not args.json:
        print(f"{len(cpus)} puzzles: median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s, "
              f"{sum(c < 30 for c in cpus)} under 30 s, "
              f"{sum(r['complete'] for r in rows)} complete")


if __name__ == "__main__":
    main()
