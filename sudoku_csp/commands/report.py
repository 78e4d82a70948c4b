"""``sudoku-csp report PUZZLE [--json] [-o report.html]``: the setter's report
(:mod:`sudoku_csp.workbench.report`): solutions, clue suggestions, the logic verdict, the
break-in, bottlenecks, and for every rule element and given whether it is needed and used.

::

    sudoku-csp report PUZZLE [--json] [-o report.html] [--techniques SEL]
                             [--time-limit S] [--count-limit N] [--no-without]
                             [--progress auto|on|off]

Plain text on stdout, or with ``--json`` one object (:meth:`Report.to_dict`). ``-o`` also
writes the report as an HTML page (the puzzle with its redundant and decorative elements
marked) and, next to it, the step-through page of the logic solve that it links
(``NAME.explain.html``). Progress goes to stderr (one line rewritten in place, on a
terminal by default). Exit codes: 0 the puzzle is unique and the logic solves it, 1 it is not (several
or no solutions, the logic stuck or out of time), 2 bad input.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> a = add_parser(sub).parse_args(["1...", "--json", "--count-limit", "50"])
>>> a.json, a.count_limit, a.time_limit, a.output
(True, 50, 120.0, None)
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import COMMANDS
from ..errors import EXIT_FAILED, EXIT_OK, UsageError
from .count import Progress
from .options import add_puzzle_options, at_least, seconds, techniques


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``sudoku-csp report`` on the CLI's subparsers."""
    r = sub.add_parser("report", help=COMMANDS["report"])
    r.add_argument("puzzle", help="line string, f-puzzles or SudokuPad link/payload/JSON, "
                                  "file, or -")
    r.add_argument("--json", action="store_true", help="one JSON object")
    r.add_argument("-o", "--output", default=None, metavar="FILE.html",
                   help="also write the report as an HTML page (and the step-through of "
                        "its logic solve next to it)")
    r.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection of the logic solve (default, all, families or "
                        "names, comma-separated)")
    r.add_argument("--time-limit", type=seconds, default=120.0,
                   help="seconds for the whole report (default 120; the logic solve gets "
                        "at most half; what is cut short is said in the notes)")
    r.add_argument("--count-limit", type=at_least(1), default=1000, metavar="N",
                   help="stop counting solutions at N (default 1000)")
    r.add_argument("--no-without", action="store_true",
                   help="do not solve again without each element the puzzle does not need")
    r.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress on stderr (auto: only when stderr is a terminal)")
    add_puzzle_options(r)
    r.set_defaults(run=run)
    return r


def run(args: argparse.Namespace) -> int:
    """Print the report; write the pages with ``-o``."""
    from csp.budget import Budget

    from ..output import say_wrote
    from ..workbench.report import report
    from .options import left_of, load_puzzle, output_folder
    out = args.output
    if out and not out.lower().endswith((".html", ".htm")):
        raise UsageError(f"{out}: the report is HTML (use a .html file name)")
    if out:
        output_folder(out)
    budget = Budget(args.time_limit)      # the whole command: reading the puzzle too
    p = load_puzzle(args, budget)
    bar = Progress(args.progress, "report")

    def progress(phase: str, done: int, total: int | None) -> None:
        bar.say(f"{phase} {done}/{total}" if total else f"{phase} {done or ''}".rstrip())
    try:
        rep = report(p, techniques=args.techniques, count_limit=args.count_limit,
                     time_limit=left_of(budget), without_logic=not args.no_without,
                     progress=progress if bar.on else None)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(rep.to_dict()))
    else:
        print(rep.text())
    if out:
        say_wrote(out, rep.write_html(out))
    good = rep.status == "unique" and rep.logic.get("status") == "solved"
    return EXIT_OK if good else EXIT_FAILED
