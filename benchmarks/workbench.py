"""The setter's workbench (issue 25): true candidates and solution counts, side by side with
two public JavaScript solvers run under node.

    python benchmarks/workbench.py setup [--peers-dir DIR] [--svs-git GITDIR] [--iss-git GITDIR]
    python benchmarks/workbench.py [--sets unique,variants,classic,derived] [--modes tc1,tc8,count]
                                   [--peers svs,iss]
                                   [--limit 120] [--peers-dir DIR] [--ours auto|api|diy]
                                   [--only ID,...] [--skip ID,...] [--repeat N] [--warm]
                                   [--json FILE]
                                   [--write docs/performance.md]
    python benchmarks/workbench.py --profile ID|SET[,...] [--modes tc8]
    python benchmarks/workbench.py --listen [--rounds 20]
    python benchmarks/workbench.py --package ../other-worktree ...   # ours from another checkout

**Calls.** ``tc1`` and ``tc8``: the true candidates of every cell (the digits that appear in
at least one solution) with per-candidate solution counts capped at 1 and 8; ``count``: the
number of solutions (all of them). Each call starts from the f-puzzles document (ours:
``load_fpuzzles`` and the call; SVS: its ``trueCandidates`` / ``countSolutions``, which
build the board from the same document; ISS: parse its constraint text, build, solve).

**Solvers**, each in its own long-lived worker process reading one puzzle a line on stdin,
warmed up with one puzzle of each call first, interleaved puzzle by puzzle (every solver on
puzzle 1, then on puzzle 2, ..., the order rotating), CPU time of the call alone
(``time.process_time()`` in Python, ``process.cpuUsage()`` in node). Ours keeps some work
between calls by a puzzle's rules (the f-puzzles reader's rules and shared engines, the
ordering work: a setter's next question brings the same rules with other digits); the
benchmark empties it before every call unless ``--warm``, so by default every call reads and
builds from scratch, as the peers do. With ``--repeat N``
every call is run N times by each solver, the solvers alternating and their order rotating
each time, and the run with the median CPU time is kept (all N must give the same answer):
a call of 1-3 ms can double when the machine is busy for a moment, so single-call ratios
near 2x flip between runs of one measurement each.

* ``ours``: ``sudoku_csp.workbench.true_candidates(puzzle, cap=K)`` and
  ``sudoku_csp.workbench.count_solutions(puzzle)`` when the package has them (``--ours
  api``), in a process readied as ``sudoku-csp listen`` readies its own
  (``sudoku_csp.workbench.server.ready_process``: a warm-up job of each kind, then the
  start-up objects frozen out of the collector's reach) when the package has that;
  otherwise (``--ours diy``) a do-it-yourself baseline on the public
  API of today: propagate, then for each candidate not yet seen in a solution (or seen in
  fewer than K) search with that candidate placed -- ``puzzle.solve(state=..., first=True)``
  for K = 1, the same search asked for K solutions for K > 1 -- every solution found marking
  all its candidates; counting is ``puzzle.count_solutions(limit=10**7)``.
* ``SVS``: the JavaScript port of the C# variant solver (github:dclamage/SudokuVariantSolverJS,
  ISC licence), ``trueCandidates({board, options: {maxSolutionsPerCandidate: K}})`` and
  ``countSolutions({board, options: {maxSolutions: 0}})`` on the f-puzzles document.
* ``ISS``: the Interactive Sudoku Solver (github:sigh/Interactive-Sudoku-Solver, MIT),
  ``SudokuBuilder.build(...)`` then ``solveAllPossibilities(K)`` / ``countSolutions()``, on
  the constraint text written by ``benchmarks/iss_text.py`` (ours; ISS reads no f-puzzles).

Neither peer is imported by, or shipped with, the package, and none of their code is in this
repository: ``setup`` takes each from a git directory (``--svs-git`` / ``--iss-git``; the
default is the mirror ``/work/.mirror/<owner>+<name>/repo`` when it exists, else a clone
from GitHub), extracts the pinned commit with ``git archive`` into ``--peers-dir`` (default
``benchmarks/peers``, git-ignored), and for SVS installs esbuild (the bundler its own
benchmark runs under, through tsx) with ``npm install`` and bundles ``src/index.ts`` into one
CommonJS file. ISS is plain ES modules with no dependencies: nothing to build. The node side
of the workers is ``benchmarks/workbench_peers.mjs``.

**Checking.** The three answers must agree on every call: the same candidates in every cell,
the same counts (each capped at K) for K > 1, the same solution count. A disagreement is
printed and makes the run exit 1. Only puzzles both peers can read are compared (a puzzle
ISS's text cannot state, e.g. a box indexer, is listed as out with the reason).

**Sets** (``benchmarks/make_workbench_sets.py`` builds them into ``benchmarks/data``):
``unique``, the 103 distinct f-puzzles setter puzzles; ``variants``, 40 of them without one
given or one rule element (2 to 5,000 solutions); ``classic``, 40 classic puzzles with
several solutions. ``--sets derived``: a held-out set made on the fly with a fixed seed
(``make_workbench_sets.derived_set``: 216 edits of the setter puzzles, two rule elements
removed, a third of the givens removed, a wrong given added), puzzles no set above has;
SVS takes seconds to minutes on many of them, so ``--peers iss`` leaves it out.

``--limit S``: a call of ours gets ``time_limit=S``; a peer past 3 S (at least S + 5 s) of
wall time is killed and restarted (the call counts as S). ``--write FILE`` replaces the text between
``<!-- workbench:begin -->`` and ``<!-- workbench:end -->``. ``--profile`` runs ours on the
named puzzles under cProfile in this process and prints where the time goes. ``--listen``
measures the round trip of ``truecandidates`` through ``sudoku-csp listen`` when the package
has it.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import select
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# --package DIR: "ours" is the package of another checkout (e.g. a branch's worktree)
PACKAGE = Path(sys.argv[sys.argv.index("--package") + 1]).resolve() \
    if "--package" in sys.argv[:-1] else ROOT
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(PACKAGE))

from iss_text import Unsupported, to_iss  # noqa: E402
from make_workbench_sets import load_sets  # noqa: E402

PEERS_DIR = ROOT / "benchmarks" / "peers"
NODE_WORKER = ROOT / "benchmarks" / "workbench_peers.mjs"
PEERS = {
    "svs": {"repo": "dclamage/SudokuVariantSolverJS",
            "commit": "06eaf432bdf56eae47b2a1816e3f23d3996897a3",
            "paths": ["src", "package.json", "LICENSE", "tsconfig.json"]},
    "iss": {"repo": "sigh/Interactive-Sudoku-Solver",
            "commit": "e373f9811c087246b097eb444d838ab492c55f35",
            "paths": ["js", "package.json", "LICENSE"]},
}
ESBUILD = "esbuild@0.19.11"     # the version SVS's package-lock.json pins (through tsx)
MODES = {"tc1": ("truecandidates", 1), "tc8": ("truecandidates", 8), "count": ("count", 0)}
SOLVERS = ("ours", "svs", "iss")
#: ``method`` of ours' calls (``--method``; the package's own choice is "auto")
METHOD = "auto"
MARK_BEGIN, MARK_END = "<!-- workbench:begin -->", "<!-- workbench:end -->"


# -- set-up of the peers -------------------------------------------------------------------
def _run(cmd: list[str], **kw: Any) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def setup(peers_dir: Path, gits: dict[str, str | None]) -> int:
    """Check out the pinned commit of each peer and build SVS's bundle."""
    peers_dir.mkdir(parents=True, exist_ok=True)
    for name, info in PEERS.items():
        dest = peers_dir / name
        stamp = dest / ".workbench-commit"
        if stamp.exists() and stamp.read_text().strip() == info["commit"]:
            print(f"{name}: {info['repo']} {info['commit'][:12]} already in {dest}")
            continue
        git = gits.get(name)
        if git is None:
            mirror = Path(f"/work/.mirror/{info['repo'].replace('/', '+')}/repo")
            if mirror.exists():
                git = str(mirror)
            else:
                git = str(peers_dir / f"{name}.git")
                if not Path(git).exists():
                    _run(["git", "clone", "--bare", f"https://github.com/{info['repo']}.git",
                          git])
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir()
        archive = subprocess.run(["git", f"--git-dir={git}", "archive", info["commit"],
                                  *info["paths"]], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        if name == "svs":
            tools = peers_dir / "tools"
            if not (tools / "node_modules" / ".bin" / "esbuild").exists():
                _run(["npm", "install", "--prefix", str(tools), "--no-save", "--no-audit",
                      "--no-fund", ESBUILD])
            _run([str(tools / "node_modules" / ".bin" / "esbuild"), str(dest / "src/index.ts"),
                  "--bundle", "--platform=node", "--format=cjs", "--log-level=warning",
                  f"--outfile={dest / 'svs.cjs'}"])
        stamp.write_text(info["commit"] + "\n")
        print(f"{name}: {info['repo']} {info['commit'][:12]} in {dest}")
    return 0


# -- our side (runs in the worker process) -------------------------------------------------
def _api() -> Any:
    try:
        from sudoku_csp.workbench import true_candidates
    except ImportError:
        return None
    return true_candidates


def _api_count() -> Any:
    try:
        from sudoku_csp.workbench import count_solutions
    except ImportError:
        return None
    return count_solutions


def _bits(mask: int) -> list[int]:
    out = []
    d = 0
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


def diy_true_candidates(p: Any, cap: int, time_limit: float | None) -> dict:
    """The baseline on the public API of today (see the module docstring)."""
    from csp import Contradiction
    from csp.errors import SearchLimit
    t0 = time.perf_counter()
    n, size = p.grid.n, p.grid.size
    try:
        st = p.propagate()
    except Contradiction:
        return {"status": "unsolvable"}
    counts = [[0] * (n + 1) for _ in range(size)]
    seen: set[tuple[int, ...]] = set()

    def add(sol: list[int]) -> None:
        key = tuple(sol)
        if key not in seen:
            seen.add(key)
            for c, d in enumerate(sol):
                counts[c][d] += 1

    try:
        for c in range(size):
            for d in _bits(st.cand[c]):
                if counts[c][d] >= cap:
                    continue
                left = None if time_limit is None else time_limit - (time.perf_counter() - t0)
                if left is not None and left <= 0:
                    raise SearchLimit("time")
                s2 = st.copy()
                s2.cand[c] = 1 << d
                if cap == 1:
                    r = p.solve(state=s2, first=True, time_limit=left)
                    sols = r.solutions
                else:
                    sols = p._search(s2.cand, cap, None, left, "auto")[0]
                for sol in sols:
                    add(sol)
    except SearchLimit:
        return {"status": "limit"}
    if not seen:
        return {"status": "unsolvable"}
    return {"status": "ok", "candidates": [[d for d in range(1, n + 1) if counts[c][d]]
                                           for c in range(size)],
            "counts": [[min(counts[c][d], cap) for d in range(1, n + 1)] for c in range(size)]}


def ours_call(req: dict, use_api: bool) -> dict:
    """One call of ours, from the f-puzzles document to the answer."""
    from csp.errors import SearchLimit
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    limit = req.get("limit")
    p = load_fpuzzles(req["input"])
    if req["op"] == "count":
        count = _api_count() if use_api else None
        try:
            if count is None:
                return {"status": "ok", "count": p.count_solutions(limit=10 ** 7,
                                                                   time_limit=limit)}
            r = count(p, time_limit=limit, method=req.get("method", "auto"))
            return {"status": "ok", "count": int(getattr(r, "count", r))}
        except SearchLimit:
            return {"status": "limit"}
    cap = req["cap"]
    api = _api() if use_api else None
    if api is None:
        return diy_true_candidates(p, cap, limit)
    r = api(p, cap=cap, time_limit=limit, method=req.get("method", "auto"))
    status = str(r.status)
    if status == "unsolvable":
        return {"status": "unsolvable"}
    if status == "limit" or not r.complete:
        return {"status": "limit"}
    n = p.grid.n
    out: dict[str, Any] = {"status": "ok", "candidates": [sorted(c) for c in r.candidates]}
    if cap > 1:                               # as the peers' worker: counts for cap > 1 only
        rows = getattr(r, "count_rows", None)  # the arrays as they are kept (floor19 on)
        out["counts"] = rows() if rows is not None else [
            [min(cnt.get(d, 0), cap) for d in range(1, n + 1)] for cnt in r.counts]
    return out


def forget_rules() -> None:
    """Empty what the package keeps between calls by a puzzle's rules (the f-puzzles reader's
    kept rules and shared engines, the ordering work), so the next call reads and builds
    from scratch, as on a setter's first question about a new puzzle. What is kept by
    something other than a puzzle's rules (tables by digit pattern) stays."""
    for module, name in (("sudoku_csp.formats.fpuzzles.read", "forget_templates"),
                         ("csp.constraints.order", "forget_specs")):
        try:
            getattr(__import__(module, fromlist=[name]), name)()
        except (ImportError, AttributeError):       # an older checkout keeps none
            pass


def worker(use_api: bool, cold: bool = False) -> int:
    """Our long-lived worker: one JSON request a line on stdin, one reply a line; with
    ``cold``, nothing kept by a puzzle's rules survives from one call to the next."""
    if use_api:
        try:
            from sudoku_csp.workbench.server import ready_process
        except ImportError:             # an older checkout (--package): as it was
            pass
        else:
            ready_process()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if cold:
                forget_rules()
            t0, w0 = time.process_time(), time.perf_counter()
            res = ours_call(req, use_api)
            res.update(cpu_ms=(time.process_time() - t0) * 1000,
                       wall_ms=(time.perf_counter() - w0) * 1000)
        except Exception as e:      # a bug shows as an error reply, the run goes on
            res = {"status": "error", "error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()
    return 0


# -- the workers, seen from the harness ----------------------------------------------------
class Worker:
    """A solver's long-lived process; ``call`` sends one request and waits for the reply."""

    def __init__(self, name: str, cmd: list[str], limit: float) -> None:
        self.name, self.cmd, self.limit = name, cmd, limit
        self.proc: subprocess.Popen | None = None
        self.restarts = 0

    def start(self, warmup: list[dict]) -> None:
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        for req in warmup:
            res = self.call(req, restart=False)
            if res["status"] == "error":
                raise SystemExit(f"{self.name} warm-up failed: {res.get('error')}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def call(self, req: dict, restart: bool = True) -> dict:
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + max(3 * self.limit, self.limit + 5)
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, left))
            if ready:
                line = self.proc.stdout.readline()
                if not line:
                    return {"status": "error", "error": f"{self.name} worker exited"}
                return json.loads(line)
            if left <= 0:
                self.stop()
                self.restarts += 1
                if restart:
                    self.start(self.warmup)
                return {"status": "limit", "cpu_ms": self.limit * 1000}


class Off:
    """A peer left out (``--peers``): every call answers ``{"status": "off"}``, which the
    comparison and the tables pass over."""

    def __init__(self, name: str) -> None:
        self.name, self.restarts, self.warmup = name, 0, []

    def start(self, warmup: list[dict]) -> None:
        pass

    def stop(self) -> None:
        pass

    def call(self, req: dict, restart: bool = True) -> dict:
        return {"status": "off", "cpu_ms": None}


def make_workers(peers_dir: Path, limit: float, ours: str, warm: bool = False,
                 peers: tuple[str, ...] = ("svs", "iss")) -> dict[str, Any]:
    svs = peers_dir / "svs" / "svs.cjs"
    iss = peers_dir / "iss"
    for path in (svs, iss / "js"):
        if not path.exists():
            raise SystemExit(f"{path} is missing: run python benchmarks/workbench.py setup "
                             f"--peers-dir {peers_dir}")
    py = [sys.executable, str(Path(__file__).resolve()), "--worker", "--ours", ours,
          "--package", str(PACKAGE)] + ([] if warm else ["--cold"])
    return {"ours": Worker("ours", py, limit),
            "svs": Worker("svs", ["node", str(NODE_WORKER), "svs", str(svs)], limit)
            if "svs" in peers else Off("svs"),
            "iss": Worker("iss", ["node", str(NODE_WORKER), "iss", str(iss)], limit)
            if "iss" in peers else Off("iss")}


def request(solver: str, item: dict, mode: str, limit: float) -> dict:
    op, cap = MODES[mode]
    inp = item["iss"] if solver == "iss" else item["doc"]
    req: dict[str, Any] = {"op": op, "cap": cap, "input": inp}
    if solver == "ours":
        req["limit"] = limit
        req["method"] = METHOD
    return req


# -- comparing -----------------------------------------------------------------------------
def answer(res: dict, mode: str) -> Any:
    """The comparable part of a reply (None when the call gave no answer)."""
    if res["status"] == "unsolvable":
        return "unsolvable"
    if res["status"] != "ok":
        return None
    if mode == "count":
        return res["count"]
    cap = MODES[mode][1]
    cands = [sorted(c) for c in res["candidates"]]
    if cap == 1:
        return cands
    counts = [[min(x, cap) for x in row] for row in res["counts"]]
    return cands, counts


def describe_difference(a: Any, b: Any) -> str:
    if not isinstance(a, (list, tuple)) or not isinstance(b, (list, tuple)):
        return f"{a!r} against {b!r}"
    if isinstance(a, tuple):
        if a[0] != b[0]:
            return describe_difference(a[0], b[0])
        diffs = [(i, x, y) for i, (x, y) in enumerate(zip(a[1], b[1])) if x != y]
        i, x, y = diffs[0]
        return f"counts differ in {len(diffs)} cells, first cell {i}: {x} against {y}"
    diffs = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    i, x, y = diffs[0]
    return f"candidates differ in {len(diffs)} cells, first cell {i}: {x} against {y}"


# -- the run -------------------------------------------------------------------------------
def prepare(sets: dict[str, list[dict]], names: list[str], only: set[str] | None,
            skip: set[str] | None = None) -> dict[str, list[dict]]:
    """The puzzles of the sets ``names`` (of those, the ids in ``only`` when given, less
    the ids in ``skip``), each with its ISS text or the reason ISS cannot state it. An id
    of ``only`` or ``skip`` that none of those sets has is an error (a mistyped id would
    otherwise measure nothing, or everything, without a word)."""
    known = {it["id"] for name in names for it in sets[name]}
    for flag, ids in (("--only", only), ("--skip", skip)):
        unknown = sorted((ids or set()) - known)
        if unknown:
            raise SystemExit(f"{flag}: no puzzle {', '.join(unknown)} in the sets "
                             f"{','.join(names)}")
    out: dict[str, list[dict]] = {}
    for name in names:
        items = []
        for it in sets[name]:
            if (only and it["id"] not in only) or (skip and it["id"] in skip):
                continue
            try:
                it["iss"] = to_iss(it["doc"])
                it["out"] = None
            except Unsupported as e:
                it["iss"] = None
                it["out"] = f"ISS: {e}"
            items.append(it)
        out[name] = items
    return out


def run(args: argparse.Namespace) -> dict:
    sets = prepare(load_sets(), args.sets, set(args.only) if args.only else None,
                   set(args.skip) if args.skip else None)
    workers = make_workers(args.peers_dir, args.limit, args.ours, args.warm, args.peers)
    first = load_sets()["unique"][0]            # the warm-up puzzle (not measured)
    first["iss"] = to_iss(first["doc"])
    for name, w in workers.items():
        w.warmup = [request(name, first, m, args.limit) for m in MODES]
        w.start(w.warmup)
    api_in_use = args.ours == "api" and _api() is not None
    results: dict = {"started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                     "ours": "api" if api_in_use else "diy", "limit": args.limit,
                     "commit": _git_head(PACKAGE), "method": METHOD,
                     "repeat": args.repeat, "warm": args.warm, "sets": {}}
    k = 0
    try:
        for set_name, items in sets.items():
            rows = []
            for it in items:
                row: dict[str, Any] = {"id": it["id"], "title": it["title"],
                                       "solutions": it["solutions"], "out": it["out"],
                                       "calls": {}}
                if it["out"]:
                    print(f"{set_name} {it['id']} out: {it['out']}", flush=True)
                    rows.append(row)
                    continue
                for mode in args.modes:
                    got = {}
                    runs: dict[str, list[dict]] = {s: [] for s in SOLVERS}
                    for _ in range(args.repeat):      # interleaved, the order rotating
                        order = SOLVERS[k % 3:] + SOLVERS[:k % 3]
                        k += 1
                        for s in order:
                            runs[s].append(workers[s].call(request(s, it, mode, args.limit)))
                    for s in SOLVERS:
                        got[s] = _median_run(runs[s])
                    on = [s for s in SOLVERS if got[s]["status"] != "off"]
                    answers = {s: answer(got[s], mode) for s in on}
                    agree = all(answers[s] is not None and answers[s] == answers["ours"]
                                for s in on)
                    note = ""
                    if not agree:
                        missing = [s for s in on if answers[s] is None]
                        if missing:
                            note = "; ".join(f"{s}: {got[s]['status']} "
                                             f"{got[s].get('error', '')}".strip()
                                             for s in missing)
                        else:
                            other = next(s for s in on if answers[s] != answers["ours"])
                            note = f"ours vs {other}: " + describe_difference(
                                answers["ours"], answers[other])
                    row["calls"][mode] = {
                        "agree": agree, "note": note,
                        **{s: {"cpu_ms": got[s].get("cpu_ms"), "status": got[s]["status"],
                               **({"cpu_ms_runs": [r.get("cpu_ms") for r in runs[s]]}
                                  if args.repeat > 1 else {})}
                           for s in SOLVERS}}
                    t = {s: got[s].get("cpu_ms") or 0.0 for s in SOLVERS}
                    print(f"{set_name} {it['id']} {mode:5s} ours {t['ours']:9.1f} ms  svs "
                          f"{t['svs']:9.1f} ms  iss {t['iss']:9.1f} ms  "
                          f"{_label(row['calls'][mode])}  {it['title'][:30]}",
                          flush=True)
                rows.append(row)
                results["sets"][set_name] = rows
                if args.json:       # as it goes: a run cut short keeps what it measured
                    args.json.write_text(json.dumps(results, indent=1))
            results["sets"][set_name] = rows
    finally:
        for w in workers.values():
            w.stop()
    results["finished"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results["restarts"] = {n: w.restarts for n, w in workers.items()}
    return results


def _median_run(runs: list[dict]) -> dict:
    """One solver's answer to a call measured ``--repeat`` times: the reply of the run with
    the median CPU time. Every run must give the same answer: if one differs (or fails),
    that run is the result, so the difference shows instead of being averaged away."""
    first = runs[0]
    for r in runs[1:]:
        if r.get("status") != first.get("status") or any(
                r.get(key) != first.get(key) for key in ("candidates", "counts", "count")):
            return r if first.get("status") == "ok" else first
    ok = sorted(runs, key=lambda r: r.get("cpu_ms") or 0.0)
    return ok[(len(ok) - 1) // 2]


def _git_head(where: Path) -> str:
    """The commit of a checkout, with ``+`` when its package has uncommitted changes."""
    try:
        head = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--",
                                "csp", "techniques", "variants", "sudoku_csp"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"
    return head + ("+" if dirty else "")


# -- the report ----------------------------------------------------------------------------
SET_TITLES = {"unique": "103 distinct f-puzzles setter puzzles (unique)",
              "variants": "40 multi-solution variants",
              "classic": "40 classic multi-solution puzzles",
              "derived": "216 held-out edits of the setter puzzles (make_workbench_sets."
                         "derived_set)"}


def _fmt_ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 else "-"


def outcome(call: dict) -> str:
    """``agree``, ``limit`` (a solver stopped at the limit: no answer to compare) or
    ``differ`` (different answers, or a solver failed)."""
    if call["agree"]:
        return "agree"
    if any(call[s]["status"] == "limit" for s in SOLVERS):
        return "limit"
    return "differ"


def _label(call: dict) -> str:
    kind = outcome(call)
    return {"agree": "ok", "limit": "LIMIT "}.get(kind, "DIFFERENT ") + (
        call["note"] if kind != "agree" else "")


def disagreements(results: dict) -> list[tuple[str, dict, str, dict]]:
    return [(s, r, m, c) for s, rows in results["sets"].items() for r in rows
            for m, c in r["calls"].items() if outcome(c) == "differ"]


def summarise(results: dict) -> str:
    """The Markdown tables of a run: totals and medians over the calls all three solvers
    answered (alike), the calls a solver did not finish apart, the worst calls of ours."""
    lines = []
    modes = [m for m in MODES if any(m in r["calls"] for rows in results["sets"].values()
                                      for r in rows)]
    lines.append("| set | call | puzzles | ours total s | SVS total s | ISS total s | "
                 "ours / SVS (total) | ours / ISS (total) | ours / ISS (median) | "
                 "ours median ms | ISS median ms | ours max s | over 2x ISS | over 2x ISS, any size | "
                 "over 5 s |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst = []
    for set_name, rows in results["sets"].items():
        for mode in modes:
            every = [(r, r["calls"][mode]) for r in rows if mode in r["calls"]]
            worst += [(c["ours"]["cpu_ms"] or 0.0, set_name, mode, r, c) for r, c in every]
            calls = [(r, c) for r, c in every if outcome(c) == "agree"]
            if not calls:
                continue
            t = {s: [c[s]["cpu_ms"] or 0.0 for _, c in calls] for s in SOLVERS}
            med = {s: statistics.median(t[s]) for s in SOLVERS}
            tot = {s: sum(t[s]) / 1000 for s in SOLVERS}
            over2 = sum(1 for o, i in zip(t["ours"], t["iss"]) if o > 2 * i and o > 10)
            over2_any = sum(1 for o, i in zip(t["ours"], t["iss"]) if o > 2 * i)
            over5 = sum(1 for o in t["ours"] if o > 5000)
            shown = {s: f"{tot[s]:.2f}" if any(c[s]["status"] != "off" for _, c in calls)
                     else "-" for s in SOLVERS}
            lines.append(
                f"| {set_name} | {mode} | {len(calls)} | {shown['ours']} | {shown['svs']} "
                f"| {shown['iss']} | {_fmt_ratio(tot['ours'], tot['svs'])} | "
                f"{_fmt_ratio(tot['ours'], tot['iss'])} | {_fmt_ratio(med['ours'], med['iss'])}"
                f" | {med['ours']:.1f} | {med['iss']:.1f} | {max(t['ours']) / 1000:.2f} | "
                f"{over2} | {over2_any} | {over5} |")
    ours = ("sudoku_csp.workbench" if results["ours"] == "api"
            else "the do-it-yourself baseline")
    if results.get("method", "auto") != "auto" and results["ours"] == "api":
        ours += f" with method={results['method']!r}"
    calls = [c for rows in results["sets"].values() for r in rows for c in r["calls"].values()]
    limits = {s: sum(1 for c in calls if c[s]["status"] == "limit") for s in SOLVERS}
    off = [s for s in ("svs", "iss") if calls and all(c[s]["status"] == "off" for c in calls)]
    out = [f"_Run of {results['started']} to {results['finished']} on commit "
           f"{results['commit']}, ours = {ours}, per-call limit {results['limit']:g} s "
           f"(wall), CPU time of each call"
           + (f" (the median of {results['repeat']} runs, interleaved)"
              if results.get("repeat", 1) > 1 else "")
           + ("; ours keeps what it keeps by a puzzle's rules between calls (--warm)"
              if results.get("warm") else "; ours keeps nothing by a puzzle's rules between "
              "calls")
           + f". {len(calls)} calls: "
           f"{len(disagreements(results))} with different answers, "
           f"{sum(outcome(c) == 'limit' for c in calls)} stopped at the limit (ours "
           f"{limits['ours']}, SVS {limits['svs']}, ISS {limits['iss']}); the table is over "
           + ("the calls all three answered" if not off else
              f"the calls ours and {'ISS' if 'svs' in off else 'SVS'} answered "
              f"({', '.join(x.upper() for x in off)} not run: --peers)") + "._", ""]
    out += lines
    out.append("")
    out.append("\"over 2x ISS\": calls where ours took more than twice ISS's CPU time and "
               "over 10 ms; \"any size\": all calls over twice ISS's time.")
    stopped = [(s, r, m, c) for s, rows in results["sets"].items() for r in rows
               for m, c in r["calls"].items() if outcome(c) == "limit"]
    if stopped:
        out.append("")
        out.append("Stopped at the limit (CPU s of ours / SVS / ISS; a stopped call shows "
                   "the time it ran): " + "; ".join(
                       f"{s} {r['id']} {m} ("
                       + ", ".join(x for x in SOLVERS if c[x]["status"] == "limit")
                       + "): " + " / ".join(f"{(c[x]['cpu_ms'] or 0) / 1000:.2f}"
                                            for x in SOLVERS)
                       for s, r, m, c in stopped) + ".")
    lost = [(s, r) for s, rows in results["sets"].items() for r in rows if r["out"]]
    if lost:
        out.append("")
        out.append("Not compared (a peer cannot read them): " + "; ".join(
            f"{s} {r['id']} \"{r['title']}\" ({r['out']})" for s, r in lost) + ".")
    worst.sort(key=lambda w: -w[0])
    out.append("")
    out.append("Worst single calls of ours:")
    out.append("")
    out += _call_table(worst[:10])
    over = [w for w in worst if outcome(w[4]) == "agree"
            and w[0] > 2 * (w[4]["iss"]["cpu_ms"] or 0.0)]
    out.append("")
    out.append(f"Single calls over twice ISS's CPU time: {len(over)}"
               + (f", {sum(w[0] > 10 for w in over)} of them over 10 ms:" if over else "."))
    if over:
        out.append("")
        out += _call_table(over)
    bad = disagreements(results)
    if bad:
        out.append("")
        out.append("Different answers: " + "; ".join(
            f"{s} {r['id']} {m}: {c['note']}" for s, r, m, c in bad) + ".")
    return "\n".join(out)


def _call_table(calls: list[tuple]) -> list[str]:
    """Markdown rows of single calls ``(ours ms, set, mode, row, call)``, CPU ms."""
    out = ["| set | call | puzzle | solutions | ours ms | SVS ms | ISS ms | ours / ISS |",
           "|---|---|---|---:|---:|---:|---:|---:|"]
    for ms, set_name, mode, r, c in calls:
        svs, iss = c["svs"]["cpu_ms"] or 0.0, c["iss"]["cpu_ms"] or 0.0
        flags = {x: " (limit)" if c[x]["status"] == "limit" else "" for x in SOLVERS}
        out.append(f"| {set_name} | {mode} | {r['id']} {r['title'][:40]} | {r['solutions']} "
                   f"| {ms:.1f}{flags['ours']} | {svs:.1f}{flags['svs']} | "
                   f"{iss:.1f}{flags['iss']} | {_fmt_ratio(ms, iss)} |")
    return out


def write_section(path: Path, text: str) -> None:
    doc = path.read_text()
    if MARK_BEGIN not in doc or MARK_END not in doc:
        raise SystemExit(f"{path} has no {MARK_BEGIN} ... {MARK_END} section")
    head, rest = doc.split(MARK_BEGIN, 1)
    _, tail = rest.split(MARK_END, 1)
    path.write_text(f"{head}{MARK_BEGIN}\n{text}\n{MARK_END}{tail}")
    print(f"updated {path}")


# -- profiling and listen ------------------------------------------------------------------
def profile(ids: list[str], modes: list[str], limit: float, ours: str) -> int:
    """cProfile of ours on puzzles named by id, or on whole sets (one profile per set and
    call, summed over its puzzles)."""
    sets = load_sets()
    items = {it["id"]: it for rows in sets.values() for it in rows}
    groups = [(name, sets[name]) if name in sets else (name, [items[name]]) for name in ids]
    for name, group in groups:
        for mode in modes:
            op, cap = MODES[mode]
            prof = cProfile.Profile(time.process_time)     # CPU, not waiting
            cpu = 0.0
            for it in group:
                req = {"op": op, "cap": cap, "input": it["doc"], "limit": limit,
                       "method": METHOD}
                ours_call(req, ours == "api")           # warm
                t0 = time.process_time()
                prof.enable()
                ours_call(req, ours == "api")
                prof.disable()
                cpu += time.process_time() - t0
            title = group[0]["title"] if len(group) == 1 else f"{len(group)} puzzles"
            print(f"== {name} ({title}) {mode}: {cpu:.2f} s CPU under the profiler")
            buf = io.StringIO()
            st = pstats.Stats(prof, stream=buf)
            st.sort_stats("tottime").print_stats(20)
            st.sort_stats("cumulative").print_stats(30)
            print(buf.getvalue())
    return 0


def listen_round_trip(rounds: int) -> int:
    """Median round trip of ``truecandidates`` through ``sudoku-csp listen`` (when there)."""
    try:
        import websockets.sync.client as wsc   # the optional extra of the package
    except ImportError as e:
        print(f"listen: not measurable here ({e})")
        return 1
    import lzstring
    port = 45450 + os.getpid() % 1000
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(PACKAGE), *filter(None, [os.environ.get("PYTHONPATH")])]))
    proc = subprocess.Popen([sys.executable, "-m", "sudoku_csp", "listen", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        sets = load_sets()
        docs = [it for it in sets["unique"] if it["doc"]["size"] == 9][:rounds]
        times = []
        url = f"ws://127.0.0.1:{port}"
        for _ in range(50):
            try:
                conn = wsc.connect(url)
                break
            except OSError:
                time.sleep(0.2)
        else:
            print("listen: the server did not start: " + (proc.stderr.read() if
                                                           proc.poll() is not None else ""))
            return 1
        with conn:
            for i, it in enumerate(docs):
                data = lzstring.LZString().compressToBase64(json.dumps(it["doc"]))
                w0 = time.perf_counter()
                conn.send(json.dumps({"nonce": i, "command": "truecandidates",
                                      "dataType": "fpuzzles", "data": data}))
                while True:
                    reply = json.loads(conn.recv(timeout=120))
                    if reply.get("nonce") == i and reply.get("type") != "count" and \
                            not reply.get("inProgress"):
                        break
                times.append(time.perf_counter() - w0)
                print(f"{it['id']} {reply.get('type')} {times[-1] * 1000:.0f} ms "
                      f"{it['title'][:40]}", flush=True)
        print(f"listen truecandidates round trip over {len(times)} 9x9 setter puzzles: "
              f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")
    finally:
        proc.kill()
        proc.wait()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", nargs="?", choices=("run", "setup"), default="run")
    ap.add_argument("--peers-dir", type=Path, default=PEERS_DIR)
    ap.add_argument("--svs-git", help="git directory of SudokuVariantSolverJS")
    ap.add_argument("--iss-git", help="git directory of Interactive-Sudoku-Solver")
    ap.add_argument("--sets", default="unique,variants,classic")
    ap.add_argument("--modes", default="tc1,tc8,count")
    ap.add_argument("--peers", default="svs,iss",
                    help="the peers run (default svs,iss); one left out answers nothing and "
                    "the tables pass over it (SVS takes seconds to minutes on many of the "
                    "derived set's puzzles: --sets derived --peers iss)")
    ap.add_argument("--limit", type=float, default=120.0,
                    help="seconds (wall) per call (default 120)")
    ap.add_argument("--ours", choices=("auto", "api", "diy"), default="auto",
                    help="auto: the package's true_candidates when it has one, else diy")
    ap.add_argument("--method", choices=("auto", "search", "sat"), default="auto",
                    help="the method ours is asked to use (sudoku_csp.workbench's method=; "
                    "default auto)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="measure every call this many times per solver, interleaved, and "
                         "keep the median CPU time (single calls of a few ms are noisy)")
    ap.add_argument("--warm", action="store_true",
                    help="let ours keep what it keeps between calls by a puzzle's rules (as "
                         "a setter's session does while digits change); by default it is "
                         "emptied before every call, so each call reads and builds anew")
    ap.add_argument("--cold", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--only", help="puzzle ids (u001, v07, c12, ...), comma-separated")
    ap.add_argument("--skip", help="puzzle ids left out, comma-separated (the whole sets' "
                    "usual run: --skip u086, where SVS stops at any limit below minutes)")
    ap.add_argument("--json", type=Path, help="write every call's figures to this file")
    ap.add_argument("--write", type=Path, help="update the workbench section of this file")
    ap.add_argument("--profile", help="profile ours on these puzzle ids or whole sets "
                    "(comma-separated)")
    ap.add_argument("--listen", action="store_true", help="measure sudoku-csp listen")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--report", type=Path, help="print (and --write) the tables of a --json "
                    "file instead of running")
    ap.add_argument("--package", type=Path, default=ROOT,
                    help="the checkout whose package is 'ours' (default: this one)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    ours = "api" if args.ours == "api" or (args.ours == "auto" and _api()) else "diy"
    if args.ours == "api" and _api() is None:
        raise SystemExit("sudoku_csp.workbench.true_candidates is not in this package")
    if args.worker:
        return worker(ours == "api", args.cold)
    args.ours = ours
    global METHOD
    METHOD = args.method
    args.sets = [s for s in args.sets.split(",") if s]
    args.modes = [m for m in args.modes.split(",") if m]
    for m in args.modes:
        if m not in MODES:
            raise SystemExit(f"unknown call {m!r} (tc1, tc8, count)")
    args.only = [x for x in args.only.split(",") if x] if args.only else None
    args.skip = [x for x in args.skip.split(",") if x] if args.skip else None
    args.peers = tuple(x for x in args.peers.split(",") if x)
    if not set(args.peers) <= {"svs", "iss"}:
        raise SystemExit(f"unknown peer in --peers {','.join(args.peers)!r} (svs, iss)")
    for name in args.sets:
        if name not in ("unique", "variants", "classic", "derived"):
            raise SystemExit(f"unknown set {name!r} (unique, variants, classic, derived)")
    if args.command == "setup":
        return setup(args.peers_dir, {"svs": args.svs_git, "iss": args.iss_git})
    if args.profile:
        return profile(args.profile.split(","), args.modes, args.limit, ours)
    if args.listen:
        return listen_round_trip(args.rounds)
    results = json.loads(args.report.read_text()) if args.report else run(args)
    text = summarise(results)
    print()
    print(text)
    if args.json and not args.report:
        args.json.write_text(json.dumps(results, indent=1))
    if args.write:
        write_section(args.write, text)
    return 1 if disagreements(results) else 0


if __name__ == "__main__":
    sys.exit(main())
