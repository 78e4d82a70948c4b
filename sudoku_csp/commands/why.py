"""``sudoku-csp why PUZZLE r5c3=7``: why a candidate is false (the logic's refutation
after assuming it), or in how many solutions it is true (:mod:`sudoku_csp.workbench.why`).

::

    sudoku-csp why PUZZLE CANDIDATE [--marks GRID] [--cap N] [--techniques SEL]
                           [--time-limit S] [--json] [-o FILE.svg|FILE.png] [--no-shorten]

PUZZLE is anything ``hint`` reads (a puzzle, a pencil-mark grid or a HoDoKu library line);
``--marks`` gives the progress of a PUZZLE whose rules come from elsewhere. ``-o`` draws
the refutation (or the candidate) as a picture. Exit codes: 0 answered (true, false with a
refutation, or not a candidate there), 1 false but the selected techniques cannot show it,
no solution from that position, or the time limit; 2 bad input (a candidate not written
like ``r5c3=7``, a cell or digit outside the grid).

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> a = add_parser(sub).parse_args(["1...", "r1c2=3", "--cap", "5"])
>>> a.candidate, a.cap, a.marks, a.output
('r1c2=3', 5, None, None)
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import COMMANDS
from ..errors import EXIT_FAILED, EXIT_OK, UsageError
from .options import (add_puzzle_options, at_least, file_picture_output, line_meanings,
                      seconds, techniques)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``sudoku-csp why`` on the CLI's subparsers."""
    w = sub.add_parser("why", help=COMMANDS["why"])
    w.add_argument("puzzle", help="a puzzle (as for solve), a pencil-mark grid or a HoDoKu "
                                  "library line, a file holding one, or -")
    w.add_argument("candidate", help="the candidate, like r5c3=7")
    w.add_argument("--marks", default=None, metavar="GRID",
                   help="pencil marks (text or file) of PUZZLE's current state")
    w.add_argument("--cap", type=at_least(1), default=100, metavar="N",
                   help="stop counting the solutions that hold it at N (default 100)")
    w.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection of the refutation (default, all, families or "
                        "names, comma-separated)")
    w.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds for the whole question: the count, the refutation and its "
                        "shortening (default 60)")
    w.add_argument("--json", action="store_true", help="one JSON object")
    w.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="draw the answer: FILE.svg or FILE.png")
    w.add_argument("--no-shorten", action="store_true",
                   help="show every step the search applied, not only those the "
                        "contradiction needs")
    add_puzzle_options(w)
    w.set_defaults(run=run)
    return w


def run(args: argparse.Namespace) -> int:
    """Print the answer; exit 0 when it is answered (see the module docstring)."""
    from csp.events import Contradiction

    from csp.budget import Budget

    from ..formats.loader import load_state
    from ..output import say_wrote
    from ..render import write_picture
    from .options import left_of
    from ..workbench.why import parse_candidate, why
    out = file_picture_output(args.output, "why")
    budget = Budget(args.time_limit)      # the whole command: reading the puzzle too
    try:
        state = load_state(args.puzzle, args.marks, lines=line_meanings(args), budget=budget)
    except Contradiction as e:
        raise UsageError(f"the marks leave no position to ask about: {e}") from None
    puzzle = state.puzzle
    cand = parse_candidate(puzzle, args.candidate)
    answer = why(puzzle, cand, state=state, cap=args.cap, techniques=args.techniques,
                 time_limit=left_of(budget), shorten=not args.no_shorten)
    if args.json:
        print(json.dumps(answer.to_dict()))
    else:
        print(answer.text())
    if out:
        write_picture(answer.svg(), out)
        say_wrote(out)
    answered = answer.status in ("true", "eliminated") or answer.refuted
    return EXIT_OK if answered else EXIT_FAILED
