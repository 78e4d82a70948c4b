"""``sudoku-csp count PUZZLE [--limit K]``: the number of solutions, counting stops at K."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from . import COMMANDS
from ..errors import UsageError
from .options import add_puzzle_options, at_least, line_meanings, node_limit, seconds
from .solve import METHOD_HELP, METHODS


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``count`` on the CLI's subparsers."""
    c = sub.add_parser("count", help=COMMANDS["count"])
    c.add_argument("puzzle")
    c.add_argument("--limit", type=at_least(1), default=2)
    c.add_argument("--json", action="store_true")
    c.add_argument("--time-limit", type=seconds, default=60.0)
    c.add_argument("--node-limit", type=node_limit, default=None, metavar="N",
                   help="search nodes (conflicts when the SAT solver searches; 0: no "
                        "search, only propagation)")
    c.add_argument("--method", choices=METHODS, default="auto", help=METHOD_HELP)
    add_puzzle_options(c)
    c.set_defaults(run=run)
    return c


def run(args: argparse.Namespace) -> int:
    """Print the count (``K+`` when counting stopped at the limit); exit 1 on a search
    limit."""
    from csp.errors import SearchLimit

    from ..formats.loader import load_one
    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    p = load_one(args.puzzle, lines=line_meanings(args)).puzzle
    t0 = time.perf_counter()
    try:
        count = p.count_solutions(limit=args.limit, node_limit=args.node_limit,
                                  time_limit=args.time_limit, method=args.method)
        status = "ok"
    except SearchLimit as e:
        count, status = None, "limit"
        print(f"sudoku-csp: error: {e}", file=sys.stderr)
    ms = round((time.perf_counter() - t0) * 1000, 3)
    if args.json:
        print(json.dumps({"count": count, "limit": args.limit, "at_least": count == args.limit,
                          "status": status, "time_ms": ms}))
    elif count is not None:
        print(f"{count}+" if count >= args.limit else count)
    return 0 if status == "ok" else 1
