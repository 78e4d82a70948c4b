"""``sudoku-csp candidates``: the true candidates of a puzzle -- the digits each cell holds in
at least one solution -- with per-candidate solution counts and the logic solver's view.

::

    sudoku-csp candidates PUZZLE [--counts K] [--logical] [--techniques SEL] [--marks GRID]
                                 [--json] [-o FILE.svg|.png] [--time-limit S]
                                 [--progress auto|on|off]

The text answer is the status line (unique, multiple, unsolvable, limit, with the solutions
seen) and the grid of true candidates as pencil marks; ``--counts K`` adds, per open cell,
how many solutions hold each digit (``K+``: K or more); ``--logical`` adds the candidates the
logic solver (``--techniques``) keeps although no solution holds them. ``--json`` prints
:meth:`sudoku_csp.workbench.TrueCandidates.to_dict`; ``-o`` draws the picture
(:func:`sudoku_csp.workbench.candidates_svg`). ``--marks`` narrows PUZZLE's candidates to a
pencil-mark grid (as ``hint`` reads it). Exit codes: 0 unique, 1 multiple, unsolvable or cut
by the time limit (default 60 s; the answer then says what was decided), 2 bad input.

>>> from sudoku_csp.cli import main
>>> main(["candidates", ".2.4....3.......", "--counts", "2"])
multiple: 3 solutions seen (complete)
.------.--------.
| 1 2  | 3   4  |
| 4 3  | 12  12 |
:------+--------:
| 3 14 | 124 12 |
| 2 14 | 14  3  |
'------'--------'
counts (solutions per digit, 2+ = 2 or more):
r2c3 1:1 2:2+      r2c4 1:2+ 2:1      r3c2 1:1 4:2+      r3c3 1:1 2:1 4:1
r3c4 1:1 2:2+      r4c2 1:2+ 4:1      r4c3 1:1 4:2+
1
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import COMMANDS


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``candidates`` on the CLI's subparsers."""
    from .options import add_puzzle_options, at_least, seconds, techniques
    c = sub.add_parser("candidates", help=COMMANDS["candidates"])
    c.add_argument("puzzle", help="a puzzle (as for solve), a file holding one, or -")
    c.add_argument("--counts", type=at_least(1), default=None, metavar="K",
                   help="count the solutions holding each candidate, up to K solutions "
                        "(default: no counts, only whether a solution holds it)")
    c.add_argument("--logical", action="store_true",
                   help="also list the candidates the logic solver keeps that no solution has")
    c.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection of --logical (default, all, families or names)")
    c.add_argument("--marks", default=None, metavar="GRID",
                   help="pencil marks (text or file) narrowing PUZZLE's candidates")
    c.add_argument("--json", action="store_true", help="one JSON object")
    c.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="draw the candidates to FILE.svg or FILE.png")
    c.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds for the whole question (default 60)")
    c.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress on stderr (auto: only when stderr is a terminal)")
    add_puzzle_options(c)
    c.set_defaults(run=run)
    return c


def _grid_text(res: Any) -> str:
    """The true candidates as a pencil-mark grid (:func:`csp.io.write_pencilmarks`)."""
    from csp.io import write_pencilmarks
    st = res.puzzle.initial_state()
    st.cand = [sum(1 << d for d in ds) for ds in res.candidates]
    st.placed = [ds[0] if len(ds) == 1 and res.complete else 0 for ds in res.candidates]
    return write_pencilmarks(st)


def _counts_text(res: Any) -> list[str]:
    cap = res.cap
    items = []
    for c, (ds, row) in enumerate(zip(res.candidates, res.count_rows())):
        if len(ds) > 1:
            items.append(res.puzzle.grid.name(c) + " " + " ".join(
                f"{d}:{k}{'+' if k >= cap else ''}" for d, k in enumerate(row, 1) if k))
    width = max((len(t) for t in items), default=0) + 3
    per = max(1, 80 // width)
    lines = [f"counts (solutions per digit, {cap}+ = {cap} or more):"]
    for i in range(0, len(items), per):
        lines.append("".join(t.ljust(width) for t in items[i:i + per]).rstrip())
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the true candidates; exit 0 when the puzzle is unique, 1 otherwise."""
    from ..formats.loader import load_state
    from csp.budget import Budget

    from ..output import say_wrote
    from ..render import write_picture
    from ..workbench import candidates_svg, true_candidates
    from .count import Progress
    from .options import file_picture_output, left_of, line_meanings, load_puzzle
    out = file_picture_output(args.output, "candidates")
    budget = Budget(args.time_limit)      # the whole command: reading the puzzle too
    if args.marks is not None:
        st = load_state(args.puzzle, args.marks, lines=line_meanings(args), budget=budget)
        p, state = st.puzzle.freeze(budget), st
    else:
        p, state = load_puzzle(args, budget), None
    bar = Progress(args.progress, "candidates")
    try:
        res = true_candidates(p, state=state, cap=args.counts or 1, logical=args.logical,
                              techniques=args.techniques, time_limit=left_of(budget),
                              progress=bar.candidates if bar.on else None)
    finally:
        bar.close()
    if out:
        write_picture(candidates_svg(res), out)
        say_wrote(out)
    if args.json:
        print(json.dumps(res.to_dict(counts=args.counts is not None)))
        return 0 if res.status == "unique" else 1
    seen = f"{res.solutions_seen} solution{'s' if res.solutions_seen != 1 else ''} seen"
    print(f"{res.status}: {seen} ({'complete' if res.complete else 'stopped at the time limit'})")
    if res.status != "unsolvable":
        print(_grid_text(res))
    if args.counts is not None and res.status == "multiple":
        print("\n".join(_counts_text(res)))
    if args.logical:
        print("logical only: " + (" ".join(res.logical_only) or "none")
              + f" (logic: {res.logic_status})")
    if not res.complete:
        print(f"undecided: {len(res.undecided)} candidates", file=sys.stderr)
    return 0 if res.status == "unique" else 1
