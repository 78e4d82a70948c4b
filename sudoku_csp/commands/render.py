"""``sudoku-csp render PUZZLE [--step N | --state] [-o out.svg|out.png]``: a picture of the
puzzle, its propagated pencil marks or one step of a logic solve (:mod:`sudoku_csp.render`)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from csp.budget import Budget

from . import COMMANDS

if TYPE_CHECKING:
    from csp.model import Puzzle
    from csp.state import State
    from csp.step import Step


def add_parser(sub: Any) -> Any:
    """Register ``sudoku-csp render`` on the CLI's subparsers."""
    r = sub.add_parser("render", help=COMMANDS["render"])
    r.add_argument("puzzle", help="line string, f-puzzles or SudokuPad link/payload/JSON, "
                                  "file, or -")
    what = r.add_mutually_exclusive_group()
    from .options import at_least, techniques
    what.add_argument("--step", type=at_least(1), default=None, metavar="N",
                      help="draw the N-th step (1-based) of a logic solve, on the state before it "
                           "(default: no step, the puzzle)")
    what.add_argument("--state", action="store_true",
                      help="draw the propagated pencil-mark state")
    r.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection for --step (default, all, a family or names)")
    from .options import seconds
    r.add_argument("--time-limit", type=seconds, default=60.0,
                   help="with --step: seconds the logic solve may take (default 60; past "
                        "it exit 1)")
    r.add_argument("-o", "--output", default=None,
                   help="out.svg or out.png (default: SVG on stdout)")
    from .options import add_puzzle_options
    add_puzzle_options(r)
    r.set_defaults(run=run)
    return r


class _OutOfTime(Exception):
    """The logic solve of ``--step`` ran past ``--time-limit``."""


def _nth_step(puzzle: Puzzle, n: int, techniques: str,
              time_limit: float | None = None, budget: Budget | None = None
              ) -> tuple[Step, State]:
    from csp.errors import InvalidPuzzle
    from techniques import StepSolver

    from ..render import RenderError
    run = StepSolver(techniques).start(puzzle, time_limit=None if budget else time_limit,
                                       budget=budget)
    for _ in range(n - 1):
        if next(run, None) is None:
            break
    if run.expired() or run.status == "limit":
        raise _OutOfTime(f"time limit: step {n} not reached in {time_limit:g} s "
                         f"({len(run.steps)} steps)")
    if run.status == "unsolvable":
        raise InvalidPuzzle(f"the puzzle has no solution: {run.reason}")
    done = len(run.steps)
    if all(run.state.placed):
        raise RenderError(f"--step {n}: the puzzle is solved after {done} steps")
    step = run.peek() if run.status is None else None
    if step is None and run.expired():
        raise _OutOfTime(f"time limit: step {n} not found in {time_limit:g} s")
    if step is None:
        next(run, None)      # ends the run: its status says why there is no step
        if run.status == "multiple":
            raise RenderError(f"--step {n}: the puzzle has {run.reason}, so a logic solve "
                              f"cannot finish it (after {done} steps)")
        raise RenderError(f"--step {n}: the logic solve is stuck after {done} steps")
    return step, run.state


def run(args: Any) -> int:
    """``sudoku-csp render``: exit 0 on success, 1 when ``--step``'s logic solve runs out of
    ``--time-limit``; bad input raises (exit 2 in the CLI)."""
    from csp.errors import InvalidPuzzle
    from csp.events import Contradiction

    from ..output import say_wrote
    from ..render import render_svg, write_picture
    from .options import load_puzzle, picture_output
    budget = Budget(args.time_limit)      # the whole command: reading the puzzle too
    out = picture_output(args.output)
    p = load_puzzle(args, budget)
    try:
        if args.step is not None:
            try:
                step, st = _nth_step(p, args.step, args.techniques, args.time_limit, budget)
            except _OutOfTime as e:
                print(f"sudoku-csp: {e}", file=sys.stderr, flush=True)
                return 1
            svg = render_svg(step, state=st)
        elif args.state:
            svg = render_svg(p.propagate())
        else:
            svg = render_svg(p)
    except Contradiction as e:
        raise InvalidPuzzle(f"the puzzle has no solution: {e}") from None
    if out:
        write_picture(svg, out)
        say_wrote(out)
    else:
        from ..output import write_output
        write_output(None, svg + "\n")
    return 0
