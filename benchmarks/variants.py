"""Variant puzzles: brute force and logic-only solving on the f-puzzles CC BY set.

    python benchmarks/variants.py [--limit SECONDS] [--logic] [--only killercage,irregular]
                                  [--method auto|search|sat] [--compare]
    python benchmarks/variants.py --setter [--limit 30] [--no-peer] [--json FILE]

For each of the 136 puzzles of tests/data/fpuzzles_cc_by.jsonl: load (f-puzzles JSON),
brute force (propagation + search, uniqueness checked) and, with ``--logic``, the logic-only
solver (techniques, never guessing). Reports per puzzle and in total: time, search nodes,
whether the stated solution came out; the median over killer and jigsaw puzzles is the issue's
interactivity figure. There is no Python peer for variant brute force; ``--compare`` runs
brute force three ways in one run (``solve(method=...)``: auto, depth-first search alone and
the SAT solver alone) and reports the ratios.

``--setter`` is the setter report: the logic-only solver on every puzzle, side by side in one
run (interleaved puzzle by puzzle, CPU time) with pencilmark's logical pass on the same puzzle
(an outside peer, run here only: ``pip install pencilmark``; its human-mode C++ solver,
``pencilmark.cbackend.solve`` with ``search="human"``, the pass behind ``pencilmark.rate``
without the uniqueness proof and the card). Per puzzle kind (each f-puzzles rule category
of a puzzle counts it once): logic solve rate, the share solved without any step of the
forcing family (forcing chains and nets, nested nets, Kraken fish, templates), median and
90th-percentile CPU time; and the totals with the ratio ours / pencilmark.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from csp.errors import SearchLimit  # noqa: E402
from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402

DATA = ROOT / "tests" / "data" / "fpuzzles_cc_by.jsonl"


def brute(row: dict, method: str, limit: float) -> tuple[bool, str, int, float, str]:
    """(stated solution found, status, depth-first nodes, seconds, method that answered)."""
    p = load_fpuzzles(row["fpuzzles_json"])
    t0 = time.perf_counter()
    try:
        res = p.solve(time_limit=limit, method=method)
        good = res.status == "solved" and "".join(map(str, res.solution)) == row["solution"]
        status, nodes, used = res.status, res.nodes, res.method
    except SearchLimit:
        good, status, nodes, used = False, "limit", -1, "-"
    return good, status, nodes, time.perf_counter() - t0, used


def compare(rows: list[dict], limit: float) -> int:
    """Brute force with each method, one puzzle at a time (all methods on a puzzle before the
    next, so machine load hits them alike); per-puzzle times and a summary with ratios."""
    methods = ("auto", "search", "sat")
    times: dict[str, list[float]] = {m: [] for m in methods}
    ok = dict.fromkeys(methods, 0)
    for i, r in enumerate(rows):
        cols = []
        for m in methods:
            good, status, _, dt, used = brute(r, m, limit)
            times[m].append(dt if status != "limit" else limit)
            ok[m] += good
            cols.append(f"{m} {dt * 1000:9.1f} ms {used:6s}{'' if good else ' ' + status}")
        print(f"{i:3d} " + " | ".join(cols) + f"  {r['title'][:40]}", flush=True)
    print()
    print("| method | stated solution | median ms | max s | total s | over 1 s | total vs auto |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = sum(times["auto"])
    for m in methods:
        t = times[m]
        print(f"| {m} | {ok[m]}/{len(rows)} | {statistics.median(t) * 1000:.1f} | "
              f"{max(t):.2f} | {sum(t):.1f} | {sum(x > 1 for x in t)} | "
              f"{sum(t) / base:.2f}x |")
    print(f"(a run that hit the {limit:g} s limit counts as {limit:g} s)")
    return 0


#: our techniques counted as the forcing family (trial-and-error-like, "bifurcation"):
#: besides the forcing chains and nets, Kraken fish and templates, every step that assumes
#: something and propagates the rules from it until they break, whatever the assumption
#: covers: a whisper's whole low/high polarity (``polarity_chain``, pencilmark's "WhatIf"
#: kind of step), one digit placed and followed through its hidden singles
#: (``digit_chain_exclusion`` / ``digit_chain_verity``: single-digit Nishio, pencilmark's
#: "NishioForcingNet")
FORCING_FAMILY = frozenset((
    "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
    "forcing_net_verity", "forcing_net_nested", "kraken_fish_type_1", "kraken_fish_type_2",
    "template_set", "template_delete", "polarity_chain", "digit_chain_exclusion",
    "digit_chain_verity"))
#: pencilmark's technique families of the same kind: its "computer search", trial and guess,
#: and its bounded "case work" (CaseAnalysis, EitherWay, WhatIf, ShortTrial: assume a
#: candidate or each candidate of a cell / house and propagate, which is what our forcing
#: chains and nets do), so that both "without forcing" columns count the same thing
PEER_FORCING = frozenset((
    "ForcingChains", "DynamicForcingChains", "NestedForcingChains", "NishioForcingNet",
    "PatternOverlay", "Trial", "Guess", "CaseAnalysis", "EitherWay", "WhatIf", "ShortTrial"))


def _share(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage that never rounds up to a goal it misses: whole when
    exact, else one decimal rounded down (115 of 136 is "84.5 %", not "85 %")."""
    if (100 * k) % n == 0:
        return f"{100 * k // n} %"
    return f"{(1000 * k // n) / 10:.1f} %"


def _pct(xs: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``xs`` (nearest rank)."""
    ys = sorted(xs)
    if not ys:
        return float("nan")
    return ys[min(len(ys) - 1, max(0, int(round(q * len(ys) + 0.5)) - 1))]


def ours_logic(row: dict, limit: float) -> dict:
    """Our logic-only solve: status, CPU seconds, steps, forcing-family steps, hardest."""
    from techniques import StepSolver
    p = load_fpuzzles(row["fpuzzles_json"])
    c0 = time.process_time()
    lr = StepSolver("default").solve(p, time_limit=limit)
    cpu = time.process_time() - c0
    placed = "".join(str(lr.state.placed[c]) for c in range(p.grid.size))
    counts: dict[str, int] = {}
    for s in lr.steps:
        counts[s.technique] = counts.get(s.technique, 0) + 1
    return {"status": lr.status, "ok": lr.status == "solved" and placed == row["solution"],
            "solved": lr.status == "solved", "cpu": cpu, "steps": len(lr.steps),
            "forcing": sum(v for k, v in counts.items() if k in FORCING_FAMILY),
            "level": lr.rating.level, "hardest": lr.rating.hardest, "counts": counts}


def peer_logic(row: dict) -> dict | None:
    """pencilmark's logical pass (human mode, no guessing), or None when it cannot read the
    puzzle or is not installed."""
    try:
        from pencilmark import cbackend, puzzle_json, sources
        from pencilmark.api import _params
    except ImportError:
        return None
    try:
        pj = sources.load(row["fpuzzles_json"], fetch=False)
    except Exception as e:   # an f-puzzles element it cannot map: no figure for this puzzle
        return {"error": f"{type(e).__name__}: {str(e)[:80]}"}
    c0 = time.process_time()
    p = puzzle_json.from_json(pj)
    p.finalize()
    steps, solved = cbackend.solve(p, _params("human"))
    cpu = time.process_time() - c0
    fams: dict[str, int] = {}
    for s in steps:
        fams[s.move.family] = fams.get(s.move.family, 0) + 1
    forcing = sum(v for k, v in fams.items() if k in PEER_FORCING)
    return {"solved": bool(solved), "cpu": cpu, "steps": len(steps), "forcing": forcing,
            "trial": fams.get("Trial", 0) + fams.get("Guess", 0)}


def setter(rows: list[dict], limit: float, peer: bool, out: str | None) -> int:
    """The setter report (see the module docstring)."""
    results = []
    for i, r in enumerate(rows):
        ours = ours_logic(r, limit)
        theirs = peer_logic(r) if peer else None
        results.append({"i": i, "title": r["title"], "categories": r["categories"],
                        "ours": ours, "peer": theirs})
        line = (f"{i:3d} ours {ours['cpu']:7.2f} s {ours['status']:6s} {ours['steps']:4d} steps "
                f"{ours['forcing']:3d} forcing {ours['level']:8s}")
        if theirs and "error" not in theirs:
            line += (f" | pencilmark {theirs['cpu']:7.2f} s "
                     f"{'solved' if theirs['solved'] else 'stuck '} {theirs['forcing']:3d} forcing")
        elif theirs:
            line += f" | pencilmark: {theirs['error']}"
        print(f"{line}  {r['title'][:36]}", flush=True)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    setter_table(results, limit)
    return 0


def setter_table(results: list[dict], limit: float) -> None:
    groups: dict[str, list[dict]] = {"all": results}
    groups["killer/jigsaw"] = [x for x in results
                               if {"killercage", "irregular"} & set(x["categories"])]
    for x in results:
        for c in x["categories"]:
            if not c.startswith(("gridsize", "non9x9")):
                groups.setdefault(c, []).append(x)
    print()
    print("| kind | puzzles | logic solved | without forcing | median s | p90 s | max s | "
          "pencilmark solved | pencilmark without forcing | pencilmark median s | "
          "total ours / pencilmark |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    order = ["all", "killer/jigsaw"] + sorted(
        (k for k in groups if k not in ("all", "killer/jigsaw")), key=lambda k: -len(groups[k]))
    for k in order:
        xs = groups[k]
        if not xs:
            continue
        t = [x["ours"]["cpu"] for x in xs]
        solved = sum(x["ours"]["solved"] for x in xs)
        clean = sum(x["ours"]["solved"] and not x["ours"]["forcing"] for x in xs)
        ps = [x["peer"] for x in xs if x["peer"] and "error" not in x["peer"]]
        row = (f"| {k} | {len(xs)} | {solved} ({_share(solved, len(xs))}) | "
               f"{clean} ({_share(clean, len(xs))}) | {statistics.median(t):.2f} | "
               f"{_pct(t, 0.9):.2f} | {max(t):.2f} | ")
        if ps:
            pt = [p["cpu"] for p in ps]
            psolved = sum(p["solved"] for p in ps)
            pclean = sum(p["solved"] and not p["forcing"] for p in ps)
            both = [x for x in xs if x["peer"] and "error" not in x["peer"]]
            ratio = (sum(x["ours"]["cpu"] for x in both) /
                     max(1e-9, sum(x["peer"]["cpu"] for x in both)))
            row += (f"{psolved}/{len(ps)} | {pclean}/{len(ps)} | {statistics.median(pt):.2f} | "
                    f"{ratio:.2f}x |")
        else:
            row += "- | - | - | - |"
        print(row)
    t = [x["ours"]["cpu"] for x in results]
    print(f"\nours: total {sum(t):.1f} s CPU, over {limit:g} s (the limit): "
          f"{sum(x['ours']['status'] == 'limit' for x in results)}, "
          f"stated solution: {sum(x['ours']['ok'] for x in results)}/{len(results)}")
    levels: dict[str, int] = {}
    for x in results:
        levels[x["ours"]["level"]] = levels.get(x["ours"]["level"], 0) + 1
    print("levels: " + ", ".join(f"{k} {v}" for k, v in levels.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per puzzle and solver")
    ap.add_argument("--logic", action="store_true", help="also run the logic-only solver")
    ap.add_argument("--only", default="", help="comma-separated categories to keep")
    ap.add_argument("--method", choices=("auto", "search", "sat"), default="auto",
                    help="brute-force method (Puzzle.solve(method=...))")
    ap.add_argument("--compare", action="store_true",
                    help="brute force with every method side by side (no logic)")
    ap.add_argument("--setter", action="store_true",
                    help="setter report: logic-only solving next to pencilmark's logical pass")
    ap.add_argument("--no-peer", action="store_true", help="setter report without pencilmark")
    ap.add_argument("--json", default="", help="setter report: write per-puzzle results here")
    ap.add_argument("--from-json", default="",
                    help="setter report: print the tables of a --json file (no solving)")
    args = ap.parse_args()
    if args.from_json:
        setter_table(json.load(open(args.from_json, encoding="utf-8")), args.limit)
        return 0
    rows = [json.loads(x) for x in open(DATA, encoding="utf-8")]
    if args.only:
        keep = set(args.only.split(","))
        rows = [r for r in rows if keep & set(r["categories"])]
    if args.compare:
        return compare(rows, args.limit)
    if args.setter:
        return setter(rows, args.limit, not args.no_peer, args.json or None)
    bf_times: list[float] = []
    bf_ok = 0
    kj_bf: list[float] = []
    kj_logic: list[float] = []
    logic_ok = 0
    stuck: list[str] = []
    for i, r in enumerate(rows):
        good, status, nodes, dt, used = brute(r, args.method, args.limit)
        bf_times.append(dt)
        bf_ok += good
        kj = bool({"killercage", "irregular"} & set(r["categories"]))
        if kj:
            kj_bf.append(dt)
        line = (f"{i:3d} bf {dt * 1000:9.1f} ms {nodes:7d} nodes {used:6s} {status:10s} "
                f"{'ok' if good else 'MISMATCH'}")
        if args.logic:
            from techniques import StepSolver
            p2 = load_fpuzzles(r["fpuzzles_json"])
            t1 = time.perf_counter()
            lr = StepSolver("default").solve(p2, time_limit=args.limit)
            dl = time.perf_counter() - t1
            placed = "".join(str(lr.state.placed[c]) for c in range(p2.grid.size))
            lok = lr.status == "solved" and placed == r["solution"]
            logic_ok += lok
            if not lok:
                stuck.append(f"{r['title']} ({', '.join(r['categories'])}): {lr.status}")
            if kj:
                kj_logic.append(dl)
            line += f" | logic {dl * 1000:9.1f} ms {lr.status} {len(lr.steps)} steps"
        print(f"{line}  {r['title'][:40]}", flush=True)
    n = len(rows)
    print()
    print(f"brute force: {bf_ok}/{n} give the stated solution; median "
          f"{statistics.median(bf_times) * 1000:.1f} ms, max {max(bf_times):.2f} s, "
          f"total {sum(bf_times):.1f} s")
    if kj_bf:
        print(f"killer/jigsaw brute force median {statistics.median(kj_bf) * 1000:.1f} ms "
              f"({len(kj_bf)} puzzles)")
    if args.logic:
        print(f"logic only: {logic_ok}/{n} solved ({100 * logic_ok / max(n, 1):.0f}%)")
        if kj_logic:
            print(f"killer/jigsaw logic median {statistics.median(kj_logic) * 1000:.1f} ms")
        for s in stuck:
            print(f"  not solved to the stated solution: {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
