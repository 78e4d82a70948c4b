"""``sudoku-csp generate``: puzzles with one solution at a logic level
(:mod:`sudoku_csp.generate`), printed as they are found."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import COMMANDS
from .convert import FORMATS
from .options import at_least, seconds


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``generate`` on the CLI's subparsers."""
    gn = sub.add_parser("generate", help=COMMANDS["generate"])
    gn.add_argument("--variant", default="classic",
                    help="classic, jigsaw or killer, or rule families joined by commas: "
                         "thermo, kropki, xv, parity, anti_knight, anti_king, diagonal, "
                         "arrow, whispers, renban, little_killer, sandwich (e.g. thermo,kropki)")
    gn.add_argument("--difficulty", default="easy",
                    help="easy, medium, hard, unfair or extreme (the logic rating's level)")
    gn.add_argument("--count", type=at_least(1), default=1, metavar="N",
                    help="how many puzzles to make")
    gn.add_argument("--seed", type=at_least(0), default=None, help="first candidate seed")
    gn.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    gn.add_argument("--time-limit", type=seconds, default=60.0,
                    help="seconds per puzzle before giving up (default 60)")
    gn.add_argument("--size", type=at_least(1), default=9, metavar="N",
                    help="grid size N (N x N cells, digits 1 to N)")
    gn.add_argument("--symmetric", action="store_true", help="point-symmetric givens")
    gn.add_argument("--givens", choices=("none", "few", "any"), default=None,
                    help="rule families: no givens, as few as needed, or any number dug "
                         "from the full grid (default any)")
    gn.add_argument("--negative", action="store_true",
                    help="kropki, xv: every qualifying pair is marked (the negative "
                         "constraint holds for the unmarked ones)")
    gn.add_argument("--format", choices=FORMATS, default=None, dest="out_format",
                    help="print each puzzle in this format (as `convert --to`); with "
                         "--json, add it under its name")
    gn.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="a line per candidate on stderr (auto: only when stderr is a "
                         "terminal)")
    gn.set_defaults(run=run)
    return gn


def run(args: argparse.Namespace) -> int:
    """Print each puzzle as it is found, a line string for classic and sudoku-csp JSON for
    the other variants, or with ``--json`` one object per puzzle
    (:meth:`~sudoku_csp.generate.Generated.to_dict`). Exit 0 when all ``count`` puzzles
    were made, 1 on the time limit (one line on stderr). ``--progress`` (or a terminal on
    stderr) adds a line per candidate on stderr; stdout is the same either way."""
    from ..generate import GenerationTimeout, Progress, generate_iter
    from .convert import convert
    from .options import progress_wanted
    show = progress_wanted(args.progress)

    def report(p: Progress) -> None:
        print(p.line(), file=sys.stderr, flush=True)
    try:
        for g in generate_iter(args.variant, args.difficulty, args.count, args.seed,
                               args.time_limit, args.size, args.symmetric,
                               report if show else None, givens=args.givens,
                               negative=args.negative):
            fmt = args.out_format
            if args.json:
                obj = g.to_dict()
                if fmt is not None:
                    obj[fmt.replace("-", "_")] = convert(g.puzzle, fmt)
                print(json.dumps(obj), flush=True)
            else:
                print(g.text() if fmt is None else convert(g.puzzle, fmt), flush=True)
    except GenerationTimeout as e:
        print(f"sudoku-csp: {e}", file=sys.stderr, flush=True)
        return 1
    return 0
