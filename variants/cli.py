"""The ``sudoku-csp`` console script.

::

    sudoku-csp solve PUZZLE... [--logic] [--first] [--steps] [--level 0|1|2] [--json]
                    [--workers N] [--dask ADDRESS] [--summary] [--summary-json FILE]
    sudoku-csp hint PUZZLE [--marks GRID] [--level 0|1|2] [--techniques SEL] [--json]
    sudoku-csp count PUZZLE [--limit K]
    sudoku-csp reglib FILE [--json]
    sudoku-csp graph PUZZLE --kind constraint|cells|links --format graphml|json|dot [-o FILE]
    sudoku-csp techniques
    sudoku-csp render PUZZLE [--step N | --state] [--techniques SEL] [-o out.svg|out.png]
    sudoku-csp generate [--variant classic|jigsaw|killer] [--difficulty LEVEL] [--count N]
                        [--seed S] [--json] [--time-limit S] [--size N] [--symmetric]
    sudoku-csp convert PUZZLE --to spec|fpuzzles|fpuzzles-url|line

Exit codes: 0 all solved / all passed; 1 some puzzle unsolvable, multiple, stuck (or over a
limit), or some case failed; 2 bad input or usage, with one line on stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Sequence

from csp.errors import InvalidPuzzle, SearchLimit, SudokuCSPError
from csp.events import Contradiction
from csp.io import SYMBOLS

from . import batch, hint
from .loader import Item, load_arg


class UsageError(Exception):
    """Bad command-line usage (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(message)


def _grid_rows(values: Sequence[int], n: int, grid: Any = None) -> list[list[int | None]]:
    if grid is not None and not grid.square:   # multi-grid: canvas rows, None off the grids
        return [[values[c] if c >= 0 else None for c in (grid.at(r, k) for k in range(grid.width))]
                for r in range(grid.height)]
    return [list(values[r * n:(r + 1) * n]) for r in range(n)]


def _solution_text(values: Sequence[int] | None, n: int) -> str | None:
    if values is None:
        return None
    if n <= 9:
        return "".join(str(v) for v in values)
    return "".join(SYMBOLS[v - 1] for v in values) if n <= len(SYMBOLS) else \
        ",".join(str(v) for v in values)


def _solve_one(item: Item, args: argparse.Namespace) -> dict[str, Any]:
    p = item.puzzle
    assert p is not None
    n = p.grid.n
    out: dict[str, Any] = {"puzzle": item.label}
    if item.where:
        out["where"] = item.where
    t0 = time.perf_counter()
    values: list[int] | None = None
    try:
        if args.logic:
            from techniques import StepSolver
            solver = StepSolver(args.techniques)
            res = solver.solve(p, time_limit=args.time_limit)
            status = res.status
            values = [res.state.placed[c] or 0 for c in range(p.grid.size)]
            out["rating"] = res.rating.to_dict()
            if args.rating in ("se", "se121"):
                left = (args.time_limit - res.time_ms / 1000) if args.time_limit else None
                se = solver.rate_se(p, mode="se121" if args.rating == "se121" else "extended",
                                    time_limit=max(left, 1.0) if left is not None else None)
                out["se_rating"] = se.to_dict()
            if args.steps:
                out["steps"] = [s.to_dict() for s in res.steps]
                out["_steps"] = res.steps
        else:
            r = p.solve(first=args.first, node_limit=args.node_limit, time_limit=args.time_limit,
                        method=getattr(args, "method", "auto"))
            status = r.status
            values = r.solution
            out["nodes"] = r.nodes
            out["method"] = r.method
            if r.method == "sat":
                out["conflicts"] = r.conflicts
    except Contradiction as e:
        status, values = "unsolvable", None
        out["reason"] = str(e)
    except SearchLimit as e:
        status, values = "limit", None
        out["reason"] = str(e)
    out["status"] = status
    solved = status == "solved" and values is not None and all(values)
    out["solution"] = _solution_text(values, n) if solved else None
    out["grid"] = _grid_rows(values, n, p.grid) if values is not None else None
    if status == "multiple" and not args.logic:
        out["grid"] = None
    out["time_ms"] = round((time.perf_counter() - t0) * 1000, 3)
    return out


def _print_result(res: dict[str, Any], args: argparse.Namespace, n: int) -> None:
    steps = res.pop("_steps", None)
    if args.json:
        print(json.dumps(res), flush=True)
        return
    head = res["status"]
    if res.get("where"):
        head = f"{res['where']}: {head}"
    if args.logic and "rating" in res:
        rt = res["rating"]
        head += f" (rating {rt.get('score')} {rt.get('level')})"
        if "se_rating" in res:
            se = res["se_rating"]
            head += f" (SE {se['er']:.1f}/{se['ep']:.1f}/{se['ed']:.1f})"
    if steps:
        for i, s in enumerate(steps, 1):
            print(f"{i:3d}. {s.explain(args.level)}")
    grid = res.get("grid")
    if res.get("solution"):
        print(f"{head} {res['solution']}", flush=True)
    elif grid and args.logic:
        from csp.io import write_line
        print(f"{head} {write_line([v for row in grid for v in row if v is not None], n)}",
              flush=True)
    else:
        msg = f" ({res['reason']})" if res.get("reason") else ""
        print(f"{head}{msg}", flush=True)


def cmd_solve(args: argparse.Namespace) -> int:
    if args.first and args.logic:
        raise UsageError("--first and --logic do not go together")
    if args.rating != "hodoku" and not args.logic:
        raise UsageError("--rating needs --logic")
    return batch.run_solve(args, _solve_one, _print_result)


def _single(arg: str) -> Item:
    items = list(load_arg(arg))
    if len(items) != 1:
        raise UsageError(f"expected one puzzle, {arg!r} holds {len(items)}")
    if items[0].error is not None:
        raise items[0].error
    return items[0]


def cmd_count(args: argparse.Namespace) -> int:
    item = _single(args.puzzle)
    p = item.puzzle
    t0 = time.perf_counter()
    try:
        count = p.count_solutions(limit=args.limit, node_limit=args.node_limit,
                                  time_limit=args.time_limit, method=args.method)
        status = "ok"
    except SearchLimit as e:
        count, status = None, "limit"
        print(f"sudoku-csp: error: {e}", file=sys.stderr)
    ms = round((time.perf_counter() - t0) * 1000, 3)
    if args.json:
        print(json.dumps({"count": count, "limit": args.limit, "at_least": count == args.limit,
                          "status": status, "time_ms": ms}))
    elif count is not None:
        print(f"{count}+" if count >= args.limit else count)
    return 0 if status == "ok" else 1


def cmd_graph(args: argparse.Namespace) -> int:
    import networkx as nx

    from csp.graphs import to_dot
    p = _single(args.puzzle).puzzle
    if args.kind == "constraint":
        G = p.constraint_graph()
    elif args.kind == "cells":
        G = p.cell_graph()
    else:
        try:
            st = p.propagate()
        except Contradiction as e:
            raise InvalidPuzzle(f"the puzzle has no solution: {e}") from None
        G = p.link_graph(st)
    if args.format == "graphml":
        text = "\n".join(nx.generate_graphml(G)) + "\n"
    elif args.format == "json":
        text = json.dumps(nx.node_link_data(G, edges="edges")) + "\n"
    else:
        text = to_dot(G)
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_reglib(args: argparse.Namespace) -> int:
    from techniques import reglib
    if not os.path.isfile(args.file):
        raise UsageError(f"{args.file}: no such file")
    codes = set(args.codes) if args.codes else None
    rep = reglib.run_file(args.file, codes)
    if args.json:
        print(json.dumps({"passed": rep.passed, "failed": rep.failed,
                          "failures": [{"line": ln, "reason": msg} for ln, msg in rep.failures],
                          "table": {k: {"passed": v[0], "failed": v[1]}
                                    for k, v in sorted(rep.table.items())},
                          "seconds": round(rep.seconds, 3)}))
    else:
        for line, msg in rep.failures:
            print(line)
            print(f"    {msg}")
        for key, (ok, bad) in sorted(rep.table.items()):
            print(f"{key:50s} {ok:5d} passed {bad:5d} failed")
        print(f"{rep.passed} passed, {rep.failed} failed")
    return 0 if rep.failed == 0 else 1


def cmd_techniques(args: argparse.Namespace) -> int:
    from techniques import registry
    rows = sorted(registry.REGISTRY.values(), key=lambda t: (t.order, t.name))
    if args.json:
        print(json.dumps([{"name": t.name, "title": t.title, "family": t.family,
                           "code": t.code, "score": t.score, "level": t.level,
                           "enabled": t.enabled, "requires_unique": t.requires_unique}
                          for t in rows]))
        return 0
    for t in rows:
        flag = "" if t.enabled else "  (off by default)"
        print(f"{t.name:32s} {t.family:14s} {t.code or '-':6s} {t.score:6d} {t.level:8s}"
              f"{t.title}{flag}")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from .generate import run_cli
    return run_cli(args)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of a closed pipe
    does not print a second error at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


METHODS = ("auto", "search", "sat")
METHOD_HELP = ("brute force: auto (default: depth-first search, then a SAT solver when the "
               "search grows), search or sat")


def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="sudoku-csp",
                 description="Solve, count and explain Sudoku and variant puzzles.")
    sub = ap.add_subparsers(dest="cmd", parser_class=_Parser)

    s = sub.add_parser("solve", help="solve puzzles (search by default, --logic for techniques)")
    s.add_argument("puzzle", nargs="+", help="line string, f-puzzles URL/payload/JSON, file, or -")
    s.add_argument("--logic", action="store_true", help="techniques only, never guess")
    s.add_argument("--first", action="store_true", help="skip the uniqueness check")
    s.add_argument("--steps", action="store_true", help="print the logic steps (with --logic)")
    s.add_argument("--level", type=int, choices=(0, 1, 2), default=2,
                   help="explanation detail of printed steps")
    s.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    s.add_argument("--techniques", default="default",
                   help="technique selection for --logic (default, all, a family or names)")
    s.add_argument("--time-limit", type=float, default=60.0,
                   help="seconds per puzzle before giving up (default 60)")
    s.add_argument("--node-limit", type=int, default=None, help="search nodes per puzzle")
    s.add_argument("--method", choices=METHODS, default="auto", help=METHOD_HELP)
    batch.add_arguments(s)
    s.add_argument("--rating", choices=("hodoku", "se", "se121"), default="hodoku",
                   help="with --logic: also a Sudoku Explainer-like rating ER/EP/ED "
                        "(se: extended technique set, se121: SE 1.2.1's)")
    s.set_defaults(fn=cmd_solve)

    c = sub.add_parser("count", help="count solutions up to a limit")
    c.add_argument("puzzle")
    c.add_argument("--limit", type=int, default=2)
    c.add_argument("--json", action="store_true")
    c.add_argument("--time-limit", type=float, default=60.0)
    c.add_argument("--node-limit", type=int, default=None)
    c.add_argument("--method", choices=METHODS, default="auto", help=METHOD_HELP)
    c.set_defaults(fn=cmd_count)

    r = sub.add_parser("reglib", help="run a HoDoKu regression library file")
    r.add_argument("file")
    r.add_argument("codes", nargs="*", help="only these technique codes")
    r.add_argument("--json", action="store_true")
    r.set_defaults(fn=cmd_reglib)

    g = sub.add_parser("graph", help="export the constraint, cell or link graph")
    g.add_argument("puzzle")
    g.add_argument("--kind", choices=("constraint", "cells", "links"), default="constraint")
    g.add_argument("--format", choices=("graphml", "json", "dot"), default="graphml")
    g.add_argument("-o", "--output", default=None)
    g.set_defaults(fn=cmd_graph)

    from .render import add_parser as _add_render_parser
    _add_render_parser(sub)
    hint.add_parser(sub)

    t = sub.add_parser("techniques", help="list the registered techniques")
    t.add_argument("--json", action="store_true")
    t.set_defaults(fn=cmd_techniques)

    gn = sub.add_parser("generate", help="make puzzles with one solution at a logic level")
    gn.add_argument("--variant", default="classic", help="classic, jigsaw or killer")
    gn.add_argument("--difficulty", default="easy",
                    help="easy, medium, hard, unfair or extreme (the logic rating's level)")
    gn.add_argument("--count", type=int, default=1)
    gn.add_argument("--seed", type=int, default=None, help="first candidate seed")
    gn.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    gn.add_argument("--time-limit", type=float, default=60.0,
                    help="seconds per puzzle before giving up (default 60)")
    gn.add_argument("--size", type=int, default=9)
    gn.add_argument("--symmetric", action="store_true", help="point-symmetric givens")
    gn.set_defaults(fn=cmd_generate)
    from .convert import add_parser as add_convert
    add_convert(sub)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    ap = build_parser()
    try:
        args = ap.parse_args(argv)
        if args.cmd is None:
            raise UsageError("a command is required: solve, hint, count, reglib, graph, "
                             "render, generate, techniques or convert")
        if getattr(args, "limit", 2) is not None and getattr(args, "limit", 2) < 1:
            raise UsageError("--limit must be at least 1")
        if getattr(args, "steps", False) and not args.logic:
            raise UsageError("--steps needs --logic")
        return args.fn(args)
    except UsageError as e:
        print(f"sudoku-csp: error: {e}", file=sys.stderr)
        return 2
    except SudokuCSPError as e:
        print(f"sudoku-csp: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:   # the reader went away (| head): stop quietly
        _silence_stdout()
        return 0
    except OSError as e:
        print(f"sudoku-csp: error: {e.strerror}: {e.filename}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sudoku-csp: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug: one line unless debugging
        if os.environ.get("SUDOKU_CSP_DEBUG"):
            raise
        print(f"sudoku-csp: internal error: {type(e).__name__}: {e} "
              "(set SUDOKU_CSP_DEBUG=1 for a traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
