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
    gn.add_argument("--variant", default=None,
                    help="classic (the default), jigsaw or killer, or rule families joined by "
                         "commas: thermo, kropki, xv, parity, anti_knight, anti_king, diagonal, "
                         "arrow, whispers, renban, between, little_killer, sandwich (e.g. thermo,kropki); "
                         "with --technique the default is the technique's own (killer for "
                         "innies)")
    gn.add_argument("--difficulty", default="easy",
                    help="easy, medium, hard, unfair or extreme (the logic rating's level)")
    gn.add_argument("--count", type=at_least(1), default=1, metavar="N",
                    help="how many puzzles to make")
    gn.add_argument("--seed", type=at_least(0), default=None,
                    help="first candidate seed (default: random; a puzzle's seed makes it "
                         "again)")
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
    gn.add_argument("--technique", metavar="NAME", default=None,
                    help="a puzzle whose logic solve needs this technique and nothing "
                         "harder (--difficulty is then the technique's own level)")
    gn.add_argument("--practice", action="store_true",
                    help="with --technique: also print the state just before the "
                         "technique's first step (pencil marks and line), as HoDoKu's "
                         "practice mode")
    gn.add_argument("--method", choices=("generated", "bank"), default=None,
                    help="with --technique: how the puzzle is made: generated (random "
                         "candidates steered towards the technique) or bank (random "
                         "isomorphs of the seed bank's puzzles, mutated); default: the bank "
                         "for the rare techniques it was built for, else generated")
    gn.add_argument("--picture", metavar="FILE", default=None,
                    help="with --practice: draw that state to FILE (.svg or .png)")
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
    from .options import progress_wanted
    show = progress_wanted(args.progress)
    if args.technique is not None or args.practice or args.picture or args.method:
        return _for_technique(args, show)
    variant = args.variant or "classic"

    def report(p: Progress) -> None:
        print(p.line(), file=sys.stderr, flush=True)
    try:
        for g in generate_iter(variant, args.difficulty, args.count, args.seed,
                               args.time_limit, args.size, args.symmetric,
                               report if show else None, givens=args.givens,
                               negative=args.negative):
            _emit(args, g.puzzle, g.to_dict, g.text)
    except GenerationTimeout as e:
        print(f"sudoku-csp: {e}", file=sys.stderr, flush=True)
        return 1
    return 0


def _emit(args: argparse.Namespace, puzzle: Any, to_dict: Any, text: Any) -> None:
    """Print one made puzzle: its JSON object (``--json``, with the ``--format`` form under
    the format's name), else its text or its ``--format`` form."""
    from .convert import convert
    fmt = args.out_format
    if args.json:
        obj = to_dict()
        if fmt is not None:
            obj[fmt.replace("-", "_")] = convert(puzzle, fmt)
        print(json.dumps(obj), flush=True)
    else:
        print(text() if fmt is None else convert(puzzle, fmt), flush=True)


def _for_technique(args: argparse.Namespace, show: bool) -> int:
    """``generate --technique NAME [--practice [--picture FILE]]``: puzzles that need the
    technique (:func:`sudoku_csp.generate.for_technique_iter`), ``count`` of them from
    successive seeds, in the technique's variant unless ``--variant`` names one; exit 1 when
    the time limit runs out first."""
    from csp.io import write_pencilmarks
    from ..errors import UsageError
    from ..generate import NoPracticePuzzle, Progress, for_technique_iter
    from ..generate.technique import practice_method, practice_variant
    if args.technique is None:
        raise UsageError("--practice, --picture and --method need --technique NAME")
    if args.picture and not args.practice:
        raise UsageError("--picture draws the practice state: add --practice")
    if args.picture and not args.picture.lower().endswith((".svg", ".png")):
        raise UsageError(f"--picture {args.picture}: the file must end in .svg or .png")
    variant = practice_variant(args.technique, args.variant)   # refused at once
    practice_method(args.technique, variant, args.size, args.method)

    def report(p: Progress) -> None:
        print(p.line(), file=sys.stderr, flush=True)
    try:
        made = for_technique_iter(args.technique, args.count, args.seed, args.time_limit,
                                  args.size, report if show else None, variant=variant,
                                  method=args.method)
        for i, pr in enumerate(made):
            _emit(args, pr.puzzle, pr.to_dict, pr.text)
            if args.practice:
                if not args.json:
                    print(f"{pr.step.title} after {pr.before} steps; the state before it:")
                    print(write_line_of(pr))
                    print(write_pencilmarks(pr.state), flush=True)
                if args.picture:
                    from ..output import say_wrote
                    from ..render import render_svg, write_picture
                    path = args.picture if args.count == 1 else _numbered(args.picture, i + 1)
                    write_picture(render_svg(pr.state, puzzle=pr.puzzle), path)
                    say_wrote(path)
    except NoPracticePuzzle as e:
        print(f"sudoku-csp: {e}", file=sys.stderr, flush=True)
        return 1
    return 0


def write_line_of(pr: Any) -> str:
    from csp.io import write_line
    return write_line(list(pr.state.placed), pr.puzzle.grid.n)


def _numbered(path: str, i: int) -> str:
    stem, dot, ext = path.rpartition(".")
    return f"{stem}-{i}.{ext}"
