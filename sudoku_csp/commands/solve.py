"""``sudoku-csp solve``: brute force (propagation and search) or, with ``--logic``, the
human techniques only; one puzzle, several, or a batch file (:mod:`sudoku_csp.batch`).

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_parser(sub).parse_args(["1...", "--logic"]).logic
True
"""
from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING, Any, Sequence

from csp.budget import Budget
from csp.errors import SearchLimit
from csp.events import Contradiction
from csp.io import SYMBOL_STYLES, SYMBOLS, write_line
from csp.status import SolveStatus

from . import COMMANDS
from ..errors import UsageError
from .options import (add_puzzle_options, at_least, node_limit, seconds, technique_option,
                      technique_options, techniques)

if TYPE_CHECKING:
    from techniques.solver import LogicResult

    from ..formats.loader import Item

METHODS = ("auto", "search", "sat")
METHOD_HELP = ("brute force: auto (default: depth-first search, then a SAT solver when the "
               "search grows), search or sat")


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``solve`` on the CLI's subparsers."""
    s = sub.add_parser("solve", help=COMMANDS["solve"])
    s.add_argument("puzzle", nargs="+", help="line string, f-puzzles or SudokuPad "
                                             "link/payload/JSON, file, or -")
    s.add_argument("--logic", action="store_true", help="techniques only, never guess")
    s.add_argument("--first", action="store_true", help="skip the uniqueness check")
    s.add_argument("--steps", action="store_true", help="print the logic steps (with --logic)")
    s.add_argument("--level", type=at_least(0), choices=(0, 1, 2), default=2,
                   help="explanation detail of printed steps")
    s.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    s.add_argument("--symbols", choices=SYMBOL_STYLES, default=None,
                   help="digits of printed grids: letters (1-9, A=10, ...; default up to "
                        "35x35) or numbers (comma separated)")
    s.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection for --logic (default, all, a family or names)")
    s.add_argument("--option", action="append", type=technique_option, metavar="KEY=VALUE",
                   help="a technique option for --logic, e.g. max_length=8 (repeatable; "
                        "`sudoku-csp techniques --options` lists them)")
    s.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds per puzzle before giving up (default 60)")
    s.add_argument("--node-limit", type=node_limit, default=None, metavar="N",
                   help="search nodes per puzzle (conflicts when the SAT solver searches; "
                        "0: no search, only propagation; default: no limit)")
    s.add_argument("--method", choices=METHODS, default="auto", help=METHOD_HELP)
    add_batch_arguments(s)
    add_puzzle_options(s)
    s.add_argument("--rating", choices=("hodoku", "se", "se121"), default="hodoku",
                   help="with --logic: also a Sudoku Explainer-like rating ER/EP/ED "
                        "(se: extended technique set, se121: SE 1.2.1's)")
    s.set_defaults(run=run)
    return s


def add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    """The batch options of ``sudoku-csp solve`` (run by :mod:`sudoku_csp.batch`)."""
    g = parser.add_argument_group("batch runs")
    g.add_argument("--workers", type=at_least(0), default=1, metavar="N",
                   help="solve in N worker processes (default 1; 0: one per CPU; never more "
                        "than the CPUs nor the puzzles); output stays in input order. With "
                        "--dask local: the number of Dask workers (default 2)")
    g.add_argument("--chunk-size", type=at_least(1), default=None, metavar="K",
                   help="puzzles sent to a worker at a time (default: automatic)")
    g.add_argument("--dask", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster: a scheduler address (tcp://host:8786) or "
                        "'local' for a LocalCluster on this machine (needs the dask extra)")
    g.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                   help="progress on stderr: a bar for a batch, steps and the current "
                        "technique for one --logic solve (auto: only when stderr is a "
                        "terminal)")
    g.add_argument("--summary", action="store_true",
                   help="print a summary on stderr at the end (automatic on a terminal)")
    g.add_argument("--summary-json", default=None, metavar="FILE",
                   help="write the summary as JSON to FILE")


def run(args: argparse.Namespace) -> int:
    """Solve every puzzle of the arguments; exit 0 when all are solved, else 1."""
    if args.first and args.logic:
        raise UsageError("--first and --logic do not go together")
    if args.rating != "hodoku" and not args.logic:
        raise UsageError("--rating needs --logic")
    if args.steps and not args.logic:
        raise UsageError("--steps needs --logic")
    from .. import batch
    return batch.run_solve(args, solve_one, print_result)


def grid_rows(values: Sequence[int], n: int, grid: Any = None) -> list[list[int | None]]:
    if grid is not None and not grid.square:   # multi-grid: canvas rows, None off the grids
        return [[values[c] if c >= 0 else None for c in (grid.at(r, k) for k in range(grid.width))]
                for r in range(grid.height)]
    return [list(values[r * n:(r + 1) * n]) for r in range(n)]


def solution_text(values: Sequence[int] | None, n: int) -> str | None:
    if values is None:
        return None
    if n <= 9:
        return "".join(str(v) for v in values)
    return "".join(SYMBOLS[v - 1] for v in values) if n <= len(SYMBOLS) else \
        ",".join(str(v) for v in values)


def stated_values(stated: Any, n: int) -> list[int] | None:
    """A stated solution (a digit string, one symbol per cell up to 35x35 (``1``-``9``,
    ``A``=10 ...), comma-separated numbers, or a list) as digits, 0 where a cell is left
    unknown (``.``, ``?``, ``0``, ``_``); None when it is not one of these for ``n x n``.

    >>> stated_values("12..", 2), stated_values([1, 2, 2, 1], 2), stated_values("123", 2)
    ([1, 2, 0, 0], [1, 2, 2, 1], None)
    """
    size = n * n
    if isinstance(stated, list):
        vals = stated
    elif isinstance(stated, str):
        s = stated.strip()
        if "," in s:
            vals = [x.strip() for x in s.split(",")]
        else:
            vals = list(s.replace(" ", ""))
    else:
        return None
    if len(vals) != size:
        return None
    out = []
    for v in vals:
        if isinstance(v, int) and not isinstance(v, bool):
            d = v
        elif isinstance(v, str) and v in (".", "?", "_", "0", ""):
            d = 0
        elif isinstance(v, str) and v.isascii() and v.isalnum() and len(v) <= 2:
            d = int(v) if v.isdigit() else (int(v, 36) if len(v) == 1 else -1)
        else:
            return None
        if not 0 <= d <= n:
            return None
        out.append(d)
    return out


def stated_verdict(stated: Any, p: Any, status: str, values: Sequence[int] | None) -> str | None:
    """``"agrees"`` / ``"differs"``: how our answer compares with a puzzle's stated solution
    (its known cells). A unique solution is compared cell by cell; with no solution, or
    several, the stated one "differs" when it breaks the puzzle's rules as read here; None
    when there is nothing to compare."""
    want = stated_values(stated, p.grid.n) if p.grid.square else None
    if want is None or not any(want):
        return None
    if status == "solved" and values is not None and all(values):
        return "agrees" if all(w in (0, v) for w, v in zip(want, values)) else "differs"
    if status in ("unsolvable", "multiple") and all(want):
        return "differs" if status == "unsolvable" or not p.check_solution(want) else None
    return None


def logic_solve(p: Any, args: argparse.Namespace, single: bool = True,
                budget: "Budget | None" = None) -> "LogicResult":
    """The logic solve of ``solve --logic`` and ``explain`` (``--techniques``,
    ``--time-limit``; ``budget``: the command's, when it was made before the puzzle was
    read), with the live progress line of ``--progress`` when it is one puzzle
    (:mod:`sudoku_csp.progress`)."""
    from techniques import StepSolver

    from ..progress import RunProgress, wants_progress
    solver = StepSolver(args.techniques, options=technique_options(args))
    run = solver.start(p, time_limit=args.time_limit, budget=budget)
    with RunProgress(run, single and wants_progress(args)):
        return solver.finish(run)


def solve_one(item: Item, args: argparse.Namespace) -> dict[str, Any]:
    p = item.puzzle
    assert p is not None
    n = p.grid.n
    out: dict[str, Any] = {"puzzle": item.label}
    if item.where:
        out["where"] = item.where
    if p.meta.get("inferred"):               # meanings read from the rules text
        out["inferred"] = p.meta["inferred"]
    t0 = time.perf_counter()
    values: list[int] | None = None
    # one budget for the puzzle: its reading (batch.work made it then), the solve and the
    # SE rating after it
    budget = item.budget if item.budget is not None else Budget(args.time_limit)
    try:
        if args.logic:
            res = logic_solve(p, args, single=not getattr(args, "batch", True),
                              budget=budget)
            status = res.status
            if res.reason is not None:         # every status but solved says why
                out["reason"] = res.reason
            if status == SolveStatus.MULTIPLE:
                out["count"] = res.solutions
                out["at_least"] = not res.solutions_exact
            elif status != SolveStatus.UNSOLVABLE:
                values = [res.state.placed[c] or 0 for c in range(p.grid.size)]
                if status == SolveStatus.SOLVED:   # only a finished solve rates the puzzle
                    out["rating"] = res.rating.to_dict()
                if args.rating in ("se", "se121") and (
                        status == SolveStatus.SOLVED or not getattr(args, "rated_only", False)):
                    from techniques import StepSolver
                    se = StepSolver(args.techniques, options=technique_options(args)).rate_se(
                        p, mode="se121" if args.rating == "se121" else "extended",
                        budget=budget)
                    out["se_rating"] = se.to_dict()
            if args.steps:
                out["steps"] = [s.to_dict() for s in res.steps]
                out["_steps"] = res.steps
        else:
            r = p.solve(first=args.first, node_limit=args.node_limit, budget=budget,
                        method=getattr(args, "method", "auto"))
            status = r.status
            values = r.solution
            out["nodes"] = r.nodes
            out["method"] = r.method
            if r.method == "sat":
                out["conflicts"] = r.conflicts
    except Contradiction as e:
        status, values = SolveStatus.UNSOLVABLE, None
        out["reason"] = str(e)
    except SearchLimit as e:
        status, values = SolveStatus.LIMIT, None
        out["reason"] = str(e)
    out["status"] = status
    solved = status == SolveStatus.SOLVED and values is not None and all(values)
    out["solution"] = solution_text(values, n) if solved else None
    out["grid"] = grid_rows(values, n, p.grid) if values is not None else None
    if status == SolveStatus.MULTIPLE and not args.logic:
        out["grid"] = None
    stated = item.solution if item.solution is not None else p.meta.get("solution")
    verdict = stated_verdict(stated, p, status, values)
    if verdict is not None:
        out["stated_solution"] = verdict
    out["time_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return out


def print_result(res: dict[str, Any], args: argparse.Namespace, n: int) -> None:
    steps = res.pop("_steps", None)
    if args.json:
        print(json.dumps(res), flush=True)
        return
    head = res["status"]
    if res.get("where"):
        head = f"{res['where']}: {head}"
    if args.logic and res["status"] != SolveStatus.SOLVED and res.get("reason"):
        head += f" ({res['reason']})"   # multiple, stuck, limit, unsolvable: why, no rating
    if args.logic and "rating" in res:
        rt = res["rating"]
        head += f" (rating {rt.get('score')} {rt.get('level')})"
    if args.logic and "se_rating" in res:
        se = res["se_rating"]
        if not se.get("applies", True):
            head += " (SE: does not apply to this variant)"
        elif se.get("solved", True):
            head += f" (SE {se['er']:.1f}/{se['ep']:.1f}/{se['ed']:.1f})"
        else:
            head += " (SE: not solved)"
    if steps:
        for i, s in enumerate(steps, 1):
            print(f"{i:3d}. {s.explain(args.level)}")
    grid = res.get("grid")
    symbols = args.symbols
    tail = {"agrees": " (agrees with the stated solution)",
            "differs": " (differs from the stated solution)"}.get(res.get("stated_solution"), "")
    if res.get("solution") and (symbols is None or not grid):
        print(f"{head} {res['solution']}{tail}", flush=True)
    elif grid and (args.logic or res.get("solution")):
        values = [v for row in grid for v in row if v is not None]
        print(f"{head} {write_line(values, n, symbols=symbols)}{tail}", flush=True)
    else:
        msg = f" ({res['reason']})" if res.get("reason") and not args.logic else ""
        print(f"{head}{msg}{tail}", flush=True)
