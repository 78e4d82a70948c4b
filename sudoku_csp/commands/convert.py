"""Convert a puzzle to another format (the ``sudoku-csp convert`` command).

Formats: ``spec`` (sudoku-csp JSON, :mod:`sudoku_csp.formats.spec`), ``fpuzzles`` (f-puzzles JSON),
``fpuzzles-url`` (an f-puzzles link), ``sudokupad-url`` (a SudokuPad link, its ``fpuzzles``
form), ``line`` (the givens as a line string; a samurai /
gattai as its sub-grids one after the other, :mod:`variants.multigrid`). A puzzle a format
cannot hold raises a subclass of :class:`csp.errors.InvalidPuzzle` naming the reason.

>>> from variants import classic_puzzle
>>> convert(classic_puzzle("1" + "." * 15), "line")
'1...............'
>>> convert(classic_puzzle("1" + "." * 15), "fpuzzles")[:23]
'{"size": 4, "grid": [[{'
"""
from __future__ import annotations

import json

from csp import Puzzle
from csp.errors import InvalidPuzzle
from csp.io import write_line

from . import COMMANDS
from csp.text import quoted

FORMATS = ("spec", "fpuzzles", "fpuzzles-url", "sudokupad-url", "line")


def convert(p: Puzzle, to: str) -> str:
    """The puzzle written in format ``to`` (one of :data:`FORMATS`)."""
    if to == "spec":
        from ..formats.spec import to_spec
        return json.dumps(to_spec(p))
    if to == "fpuzzles":
        from ..formats.fpuzzles import to_fpuzzles
        return json.dumps(to_fpuzzles(p))
    if to == "fpuzzles-url":
        from ..formats.fpuzzles import to_fpuzzles_url
        return to_fpuzzles_url(p)
    if to == "sudokupad-url":
        from ..formats.sudokupad import to_sudokupad_url
        return to_sudokupad_url(p)
    if to == "line":
        g = p.grid
        values = [p.given.get(c, 0) for c in range(g.size)]
        if not g.square:
            from csp.io import write_subgrids
            return write_subgrids(g, values)
        return write_line(values, g.n)
    raise InvalidPuzzle(f"unknown format {quoted(to)} (one of {', '.join(FORMATS)})")


def run(args) -> int:
    """``sudoku-csp convert PUZZLE --to FORMAT``: print the puzzle in another format."""
    from ..formats.loader import load_one
    from .options import line_meanings
    p = load_one(args.puzzle, lines=line_meanings(args)).puzzle
    p.freeze()          # contradictory givens: refused as solve refuses them
    print(convert(p, args.to))
    return 0


def add_parser(sub) -> None:
    """Register the ``convert`` subcommand on the CLI's subparsers."""
    from .options import PUZZLE_HELP, add_puzzle_options
    c = sub.add_parser("convert", help=COMMANDS["convert"])
    c.add_argument("puzzle", help=PUZZLE_HELP)
    c.add_argument("--to", choices=FORMATS, required=True,
                   help="spec: sudoku-csp JSON; fpuzzles: f-puzzles JSON; fpuzzles-url, "
                        "sudokupad-url: links; line: the givens as a line string (rules "
                        "are not written)")
    add_puzzle_options(c)
    c.set_defaults(run=run)
