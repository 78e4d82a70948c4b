"""``sudoku-csp count PUZZLE [--limit K]``: the number of solutions, counting stops at K.

::

    sudoku-csp count PUZZLE [--limit K] [--list] [--estimate [--samples N] [--seed S]]
                            [--json] [--time-limit S] [--node-limit N] [--method M]
                            [--progress auto|on|off]

The count is :func:`csp.solutions.count_solutions` (the workbench's: the compiled walk,
digits that every solution may swap counted once per swap); ``--node-limit`` takes the
search of ``solve`` (:meth:`csp.Puzzle.count_solutions`). ``--list`` prints each solution
as it is found (a line string; with ``--json`` one object
holding them all), up to ``--limit`` (default 2 for a count, 1000 for a list). A long count
shows how far it got on stderr when that is a terminal (``--progress``). ``--estimate``
estimates the number of solutions of a puzzle with too many to count, by Knuth's random
probes of the search tree, with a 95 % interval (:func:`csp.solutions.estimate_count`;
``--samples`` probes, ``--seed`` for a repeatable run).

>>> from sudoku_csp.cli import main
>>> main(["count", ".2.4....3.......", "--list"])
1234431234212143
1234432131422413
1234432134122143
3
0
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from . import COMMANDS
from ..errors import UsageError
from .options import (PUZZLE_HELP, add_puzzle_options, at_least, left_of, load_puzzle,
                      node_limit, progress_wanted, seconds)
from .solve import METHOD_HELP, METHODS

#: the default --limit of a count (a uniqueness check) and of a list
COUNT_LIMIT = 2
LIST_LIMIT = 1000


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``count`` on the CLI's subparsers."""
    c = sub.add_parser("count", help=COMMANDS["count"])
    c.add_argument("puzzle", help=PUZZLE_HELP)
    c.add_argument("--limit", type=at_least(1), default=None, metavar="K",
                   help=f"stop at K solutions (default {COUNT_LIMIT}; {LIST_LIMIT} with --list)")
    c.add_argument("--list", action="store_true", help="print each solution found")
    c.add_argument("--estimate", action="store_true",
                   help="estimate the number of solutions (Knuth's random probes) with a "
                        "95%% interval")
    c.add_argument("--samples", type=at_least(1), default=1000, metavar="N",
                   help="probes of --estimate (default 1000)")
    c.add_argument("--seed", type=at_least(0), default=0, metavar="S",
                   help="random seed of --estimate (default 0)")
    c.add_argument("--json", action="store_true",
                   help="one JSON object: count, limit, at_least, status, time_ms (and "
                        "solutions with --list; the estimate's fields with --estimate)")
    c.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds before the count stops (and says so) (default 60)")
    c.add_argument("--node-limit", type=node_limit, default=None, metavar="N",
                   help="search nodes (conflicts when the SAT solver searches; 0: no "
                        "search, only propagation; default: no limit)")
    c.add_argument("--method", choices=METHODS, default="auto", help=METHOD_HELP)
    c.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress on stderr (auto: only when stderr is a terminal)")
    add_puzzle_options(c)
    c.set_defaults(run=run)
    return c


class Progress:
    """One line of progress on stderr, rewritten in place (``on`` when ``mode`` is "on", or
    "auto" and stderr is a terminal); :meth:`close` clears it."""

    def __init__(self, mode: str, what: str) -> None:
        self.on = progress_wanted(mode)
        self.what = what
        self.t0 = time.perf_counter()
        self.shown = False

    def say(self, text: str) -> None:
        if self.on:
            secs = time.perf_counter() - self.t0
            sys.stderr.write(f"\r{self.what}: {text} ({secs:.0f} s)\033[K")
            sys.stderr.flush()
            self.shown = True

    def count(self, n: int) -> None:
        self.say(f"{n} solutions so far")

    def candidates(self, seen: int, decided: int, total: int) -> None:
        self.say(f"{seen} solutions seen" + (f", {decided}/{total} candidates decided"
                                             if total else ""))

    def estimate(self, est: Any) -> None:
        self.say(f"~{est.estimate:.4g} after {est.samples} probes")

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


def run(args: argparse.Namespace) -> int:
    """Print the count (``K+`` when counting stopped at the limit); exit 1 on a search
    limit."""
    from csp.budget import Budget

    budget = Budget(args.time_limit)      # the whole command: reading the puzzle too
    if args.estimate and args.list:
        raise UsageError("--estimate and --list do not go together")
    if args.node_limit is not None and (args.list or args.estimate):
        raise UsageError("--node-limit goes with a plain count only")
    from csp.errors import SearchLimit
    limit = args.limit if args.limit is not None else (LIST_LIMIT if args.list
                                                       else COUNT_LIMIT)
    t0 = time.perf_counter()
    try:
        p = load_puzzle(args, budget)
    except SearchLimit as e:              # the limit passed while reading or building
        print(f"sudoku-csp: error: {e}", file=sys.stderr)
        _report(args, None, limit, "limit", t0)
        return 1
    if args.estimate:
        return _estimate(p, args, budget)
    bar = Progress("off" if args.node_limit is not None else args.progress, "count")
    try:
        if args.list:
            return _follow(p, args, limit, bar, budget)
        return _count(p, args, limit, budget, bar)
    finally:
        bar.close()


def _count(p: Any, args: argparse.Namespace, limit: int, budget: Any, bar: Progress) -> int:
    """The count: :func:`csp.solutions.count_solutions` (the compiled walk, digit swaps,
    progress on a terminal), or with ``--node-limit`` :meth:`csp.Puzzle.count_solutions`
    (a budget of search nodes)."""
    from csp.errors import SearchLimit, TimeLimitExceeded
    t0 = time.perf_counter()
    try:
        if args.node_limit is not None:
            count = p.count_solutions(limit=limit, node_limit=args.node_limit,
                                      method=args.method, budget=budget)
        else:
            from csp.solutions import count_solutions
            count = count_solutions(p, limit=limit, time_limit=left_of(budget),
                                    method=args.method,
                                    progress=bar.count if bar.on else None).count
        status = "ok"
    except SearchLimit as e:
        count, status = None, "limit"
        bar.close()
        # the command's own limit, not the part of it left when the count started
        why = (f"search stopped after {args.time_limit:g} s"
               if isinstance(e, TimeLimitExceeded) and args.time_limit is not None else e)
        print(f"sudoku-csp: error: {why}", file=sys.stderr)
    _report(args, count, limit, status, t0)
    return 0 if status == "ok" else 1


def _report(args: argparse.Namespace, count: int | None, limit: int, status: str, t0: float,
            solutions: list[str] | None = None) -> None:
    ms = round((time.perf_counter() - t0) * 1000, 3)
    if args.json:
        out: dict[str, Any] = {"count": count, "limit": limit, "at_least": count == limit,
                               "status": status, "time_ms": ms}
        if solutions is not None:
            out["solutions"] = solutions
        print(json.dumps(out))
    elif count is not None:
        print(f"{count}+" if count >= limit else count)


def _follow(p: Any, args: argparse.Namespace, limit: int, bar: Progress,
            budget: Any) -> int:
    """Count (and with ``--list`` print) solution by solution, with progress."""
    from csp.errors import SearchLimit, TimeLimitExceeded
    from csp.io import write_line
    from csp.solutions import iter_solutions
    t0 = time.perf_counter()
    n = p.grid.n
    listed: list[str] | None = [] if args.list and args.json else None
    count = 0
    status = "ok"
    nxt = t0 + 0.2
    try:
        for values in iter_solutions(p, time_limit=left_of(budget), method=args.method):
            count += 1
            if args.list:
                line = write_line(values, n)
                if listed is not None:
                    listed.append(line)
                else:
                    bar.close()
                    print(line, flush=True)
            if count >= limit:
                break
            if bar.on and time.perf_counter() > nxt:
                bar.count(count)
                nxt = time.perf_counter() + 0.2
    except SearchLimit as e:
        status = "limit"
        bar.close()
        # the command's own limit, not the part of it left when the search started
        why = (f"search stopped after {args.time_limit:g} s"
               if isinstance(e, TimeLimitExceeded) and args.time_limit is not None else e)
        print(f"sudoku-csp: error: {why} ({count} solutions found)", file=sys.stderr)
    bar.close()
    _report(args, count if status == "ok" or args.list else None, limit, status, t0, listed)
    return 0 if status == "ok" else 1


def _estimate(p: Any, args: argparse.Namespace, budget: Any) -> int:
    from csp.solutions import estimate_count
    bar = Progress(args.progress, "estimate")
    try:
        est = estimate_count(p, samples=args.samples, seed=args.seed,
                             time_limit=left_of(budget),
                             progress=bar.estimate if bar.on else None)
    finally:
        bar.close()
    if not est.exact and est.samples < 2:
        print(f"sudoku-csp: error: time limit: {est.samples} probes in {args.time_limit:g} s, "
              "too few for an estimate", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"estimate": est.estimate, "stderr": est.stderr,
                          "low": est.low, "high": est.high, "samples": est.samples,
                          "rel_err": round(est.rel_err, 3), "found": est.found,
                          "exact": est.exact, "method": "knuth",
                          "time_ms": round(est.time_ms, 3)}))
    elif est.exact:
        n = round(est.estimate)
        print(f"{n} solution{'' if n == 1 else 's'} (counted exactly: a small search tree)")
    else:
        print(f"~{est.estimate:.4g} solutions (95 % interval {est.low:.4g} .. {est.high:.4g}, "
              f"{est.samples} probes, +-{est.rel_err:.1f} %)")
    return 0
