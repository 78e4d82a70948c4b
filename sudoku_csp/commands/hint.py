"""``sudoku-csp hint``: the next logic step of a puzzle or a partly solved grid, told at a
chosen level of detail.

::

    sudoku-csp hint PUZZLE [--marks GRID] [--level 0|1|2] [--techniques SEL] [--json]
                           [--time-limit S]

Level 0 names the technique, 1 adds its digits and houses, 2 gives the whole step (pattern,
placements, eliminations). PUZZLE is anything ``solve`` reads (holding one puzzle), a
pencil-mark grid or a HoDoKu library line (:func:`sudoku_csp.formats.loader.marks_state`); ``--marks``
gives the progress of a PUZZLE whose rules come from elsewhere (a killer in JSON, say).
The puzzle's solutions are counted first (:class:`techniques.loop.Run`): a puzzle with
several gets no hint but status ``multiple`` (a logic solve cannot finish it). Exit codes:
0 a hint (or nothing left to solve), 1 no hint: several solutions, no step found, the grid
is broken or the time limit (default 60 s) ran out first (status ``limit``); every such
answer says why (``reason`` in JSON); 2 bad input.

>>> from csp.step import Step, Candidate
>>> step = Step("hidden_single", placements=(Candidate(0, 5),), houses=("box 1",),
...             digits=(5,), title="Hidden Single")
>>> hint_payload(step, 0)["text"], sorted(hint_payload(step, 0))
('Hidden Single', ['level', 'status', 'technique', 'text', 'title'])
>>> hint_payload(step, 1)["text"], hint_payload(step, 2)["placements"]
('Hidden Single digit 5 in box 1', ['r1c1=5'])
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from csp.events import Contradiction
from csp.step import Step

from . import COMMANDS


def hint_payload(step: Step, level: int) -> dict[str, Any]:
    """The JSON of a hint: only as much as ``level`` tells (0: technique; 1: + digits and
    houses; 2: the whole :meth:`Step.to_dict`)."""
    full = step.to_dict()
    out: dict[str, Any] = {"status": "hint", "level": level, "technique": full["technique"],
                           "title": full["title"], "text": step.explain(level)}
    if level >= 1:
        out["digits"] = full["digits"]
        out["houses"] = full["houses"]
    if level >= 2:
        for key in ("placements", "eliminations", "pattern"):
            out[key] = full[key]
    return out


def add_parser(sub: Any) -> None:
    """Register the ``hint`` subcommand on the CLI's subparsers."""
    h = sub.add_parser("hint", help=COMMANDS["hint"])
    h.add_argument("puzzle", help="a puzzle (as for solve), a pencil-mark grid or a HoDoKu "
                                  "library line, a file holding one, or -")
    h.add_argument("--marks", default=None, metavar="GRID",
                   help="pencil marks (text or file) of PUZZLE's current state")
    from .options import at_least, techniques
    h.add_argument("--level", type=at_least(0), choices=(0, 1, 2), default=1,
                   help="0: technique, 1: + digits and houses (default), 2: the full step")
    h.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection (default, all, families or names, comma-separated)")
    h.add_argument("--json", action="store_true", help="one JSON object")
    from .options import add_puzzle_options, seconds
    h.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds to look for the step before giving up (default 60)")
    add_puzzle_options(h)
    h.set_defaults(run=run)


def _say(args: argparse.Namespace, status: str, text: str, reason: str | None = None,
         **extra: Any) -> None:
    if args.json:
        out: dict[str, Any] = {"status": status, "text": text}
        if reason is not None:
            out["reason"] = reason
        out.update(extra)
        print(json.dumps(out))
    else:
        print(text)


def run(args: argparse.Namespace) -> int:
    from csp.budget import Budget
    from csp.errors import SearchLimit
    from techniques import StepSolver

    from ..formats.loader import load_state
    from .options import line_meanings
    budget = Budget(args.time_limit)      # the whole command: reading the puzzle too
    sel = [s.strip() for s in args.techniques.split(",") if s.strip()] or ["default"]
    solver = StepSolver(sel)
    try:
        state = load_state(args.puzzle, args.marks, lines=line_meanings(args), budget=budget)
        if all(state.placed):
            broken = state.puzzle.broken_rule(state.placed)
            if broken is not None:     # a full grid given with --marks: not a solution
                _say(args, "unsolvable", f"unsolvable: the grid breaks a rule: {broken}")
                return 1
            _say(args, "solved", "solved: no step left to hint")
            return 0
        # a broken grid fails here, before any technique
        state.puzzle.propagate(state, budget=budget)
        run = solver.start(state, copy=False, time_limit=args.time_limit, budget=budget)
        run.check_due()          # the position's solutions are counted first
        step = run.peek()
    except Contradiction as e:
        _say(args, "unsolvable", f"unsolvable: {e}", str(e))
        return 1
    except SearchLimit:
        step, run = None, None
    if run is not None and run.solutions == 0:
        why = "a search finds no solution from this position"
        _say(args, "unsolvable", f"unsolvable: {why}", why)
        return 1
    if step is None and (run is None or (run.expired() and (run.solutions or 0) < 2)):
        _say(args, "limit", f"time limit: no step found in {args.time_limit:g} s")
        return 1
    if step is None:
        next(run, None)          # ends the run: its status and reason say why there is none
        status, why = run.status, run.reason or ""
        if status == "multiple":
            _say(args, "multiple", f"no hint: the puzzle has {why}, so logic alone cannot "
                 f"solve it", why, count=run.solutions, at_least=not run.solutions_exact)
        elif status == "unsolvable":
            _say(args, "unsolvable", f"unsolvable: {why}", why)
        else:                    # stuck or limit
            _say(args, str(status), f"no step found: {why}", why)
        return 1
    if args.json:
        print(json.dumps(hint_payload(step, args.level)))
    else:
        print(step.explain(args.level))
    return 0
