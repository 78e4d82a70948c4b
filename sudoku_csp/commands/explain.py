"""``sudoku-csp explain PUZZLE -o solve.html``: the whole logic solve as one self-contained
HTML page to step through (:mod:`sudoku_csp.explain`); options as ``solve --logic``.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> a = add_parser(sub).parse_args(["1...", "-o", "x.html", "--level", "1"])
>>> a.output, a.level, a.techniques, a.time_limit
('x.html', 1, 'default', 60.0)
"""
from __future__ import annotations

import argparse
from typing import Any

from . import COMMANDS
from ..errors import EXIT_FAILED, EXIT_OK, UsageError
from ..progress import PROGRESS_HELP
from .options import add_puzzle_options, at_least, line_meanings, seconds, techniques


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``sudoku-csp explain`` on the CLI's subparsers."""
    e = sub.add_parser("explain", help=COMMANDS["explain"])
    e.add_argument("puzzle", help="line string, f-puzzles or SudokuPad link/payload/JSON, "
                                  "file, or -")
    e.add_argument("-o", "--output", default=None,
                   help="the page to write (.html; default: stdout)")
    e.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection (default, all, a family or names)")
    e.add_argument("--level", type=at_least(0), choices=(0, 1, 2), default=2,
                   help="explanation detail shown per step (the hint mode shows all three)")
    e.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds before the solve stops (default 60; the page says where)")
    e.add_argument("--title", default=None, help="page title (default: the puzzle's)")
    e.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help=PROGRESS_HELP)
    add_puzzle_options(e)
    e.set_defaults(run=run)
    return e


def run(args: argparse.Namespace) -> int:
    """Write the page; exit 0 when the logic solve is complete, 1 when it stops (several
    solutions, stuck or over the time limit: the page then says why and where), 2 on bad
    input."""
    from csp.budget import Budget
    from csp.errors import InvalidPuzzle
    from csp.events import Contradiction
    from csp.text import one_line

    from ..explain import explain_html
    from .solve import logic_solve
    from ..formats.loader import load_one
    from ..output import say_wrote, write_output
    budget = Budget(args.time_limit)      # the whole solve: reading the puzzle too
    out = args.output
    if out and out != "-" and not out.lower().endswith((".html", ".htm")):
        raise UsageError(f"{out}: the page is HTML (use a .html file name)")
    p = load_one(args.puzzle, lines=line_meanings(args), budget=budget).puzzle
    assert p is not None
    try:
        res = logic_solve(p, args, budget=budget)
    except Contradiction as e:
        raise InvalidPuzzle(f"the puzzle has no solution: {e}") from None
    page = explain_html(res, puzzle=p, level=args.level, title=args.title)
    write_output(out, page)
    if out and out != "-":
        kb = len(page.encode("utf-8", "backslashreplace")) / 1024
        # a rating only for a finished solve; any other outcome says why it stopped
        what = (f"rating {res.rating.score} ({res.rating.level})" if res.status == "solved"
                else f"{res.reason}")
        print(f"{one_line(out)}: {res.status}, {len(res.steps)} steps, {what}, {kb:.0f} KB")
        say_wrote(out)
    return EXIT_OK if res.status == "solved" else EXIT_FAILED
