"""The compiled walk (csp/cnf_enum.py, csp/_enum_kernel.c) of workbench puzzles to its end:
decisions, solutions found, propagated literals, root probes and the kernel's CPU time,
split into the root probing and the walk after it (the best of ``--reps`` runs).

    python benchmarks/walks.py u076,v31                 # caps 1 and 8, and counting
    python benchmarks/walks.py u076 --caps 0 --branch 0,1
    python benchmarks/walks.py all --caps 1 --top 20    # every model beyond houses

The walk runs without the callers' budgets (up to ``--max`` decisions), on the session a
workbench call builds (``SatSession(defer=True)``, ``cnf_enum.enumerator``), so it shows
the tree a rule's encoding gives, apart from the hand-offs to the SAT solver.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import workbench as wb  # noqa: E402


def walk(puzzle, cap: int, branch: int | None, max_nodes: int) -> tuple | None:
    """(decisions, found, props, probes, setup ms, probing ms, walk ms, finished)."""
    from csp import cnf_enum
    from csp.sat import SatSession
    t0 = time.process_time()
    with SatSession(puzzle, defer=True) as s:
        en = cnf_enum.enumerator(s, cap=cap, listing=False, branch=branch)
        if en is None or isinstance(en, cnf_enum.Decided):
            return None
        t1 = time.process_time()
        en.run(0, 10 ** 12, 0)             # the root: probing, no decision
        t2 = time.process_time()
        code = cnf_enum.PAUSED
        while code == cnf_enum.PAUSED and en.nodes < max_nodes:
            code = en.run(cnf_enum.CHUNK, 10 ** 12, 0)
        t3 = time.process_time()
        return (en.nodes, en.found, en.props, en.probed, (t1 - t0) * 1e3, (t2 - t1) * 1e3,
                (t3 - t2) * 1e3, code == cnf_enum.DONE)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ids", help="puzzle ids, comma-separated, or 'all'")
    ap.add_argument("--caps", default="1,8,0", help="0: count solutions")
    ap.add_argument("--branch", default="", help="kernel branchings (default: the callers')")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--max", type=int, default=20_000, help="decisions at most")
    ap.add_argument("--top", type=int, default=0, help="only the slowest walks")
    a = ap.parse_args()
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    items = {it["id"]: it for rows in wb.load_sets().values() for it in rows}
    ids = [k for k in items if k[0] in "uv"] if a.ids == "all" else a.ids.split(",")
    branches = [int(b) for b in a.branch.split(",")] if a.branch else [None]
    rows = []
    for pid in ids:
        p = load_fpuzzles(items[pid]["doc"])
        for cap in (int(c) for c in a.caps.split(",")):
            for b in branches:
                runs = [walk(p, cap, b, a.max) for _ in range(a.reps)]
                if runs[0] is None:
                    continue
                r = min(runs, key=lambda x: x[5] + x[6])
                rows.append((r[5] + r[6], pid, cap, b, r))
    if a.top:
        rows = sorted(rows, reverse=True)[:a.top]
    for _, pid, cap, b, r in rows:
        where = "" if b is None else f" branch {b}"
        print(f"{pid} {items[pid]['title'][:24]:24} cap {cap}{where}: decisions {r[0]}"
              f"{'' if r[7] else ' (not finished)'}, found {r[1]}, props {r[2]}, probes {r[3]};"
              f" set-up {r[4]:.2f} ms, probing {r[5]:.2f} ms, walk {r[6]:.2f} ms")


if __name__ == "__main__":
    main()
