"""``sudoku-csp rate``: the difficulty of puzzles, by logic. A thin command over ``solve
--logic`` (:func:`sudoku_csp.commands.solve.solve_one`, batched by :mod:`sudoku_csp.batch`)
that prints the ratings instead of the grids: the HoDoKu-style level, score and hardest
technique, and the Sudoku Explainer-like ER/EP/ED (:mod:`techniques.se_rating`).

A puzzle is rated only when the logic solves it; a puzzle with several solutions, none, or
one the techniques do not finish (stuck, or over the time limit) gets no rating, and the
line says why (exit code 1).

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> a = add_parser(sub).parse_args(["1...", "--rating", "se"])
>>> a.rating, a.time_limit
('se', 60.0)
>>> rating_text({"rating": {"level": "easy", "score": 196, "hardest": "naked_single"},
...              "se_rating": {"er": 1.2, "ep": 1.2, "ed": 1.2}})
'easy 196 (hardest naked_single), SE 1.2/1.2/1.2'
"""
from __future__ import annotations

import argparse
import json
from typing import Any

from csp.status import SolveStatus

from . import COMMANDS
from .options import PUZZLE_HELP, add_puzzle_options, seconds, techniques
from .solve import add_batch_arguments

#: --rating choices: HoDoKu-style only, SE-like only (extended or SE 1.2.1's technique
#: set), or HoDoKu-style and SE-like (extended)
RATINGS = ("hodoku", "se", "se121", "both")
#: the ``solve --rating`` each rate --rating runs (solve always rates HoDoKu-style)
_SOLVE_RATING = {"hodoku": "hodoku", "se": "se", "se121": "se121", "both": "se"}


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``rate`` on the CLI's subparsers."""
    r = sub.add_parser("rate", help=COMMANDS["rate"],
                       description="Rate puzzles by the logic that solves them. Exit code 0 "
                                   "when every puzzle is rated, 1 when some is not (it has "
                                   "several solutions or none, or the techniques do not "
                                   "finish it: the line says why), 2 for bad input.")
    r.add_argument("puzzle", nargs="+", help=PUZZLE_HELP)
    r.add_argument("--rating", choices=RATINGS, default="both",
                   help="hodoku: level, score and hardest technique; se: Sudoku "
                        "Explainer-like ER/EP/ED (extended technique set); se121: SE "
                        "1.2.1's technique set; both: hodoku and se")
    r.add_argument("--json", action="store_true",
                   help="one JSON object per puzzle per line: puzzle, status, rated, reason "
                        "(when not rated), rating, se_rating, solution, time_ms")
    r.add_argument("--techniques", default="default", type=techniques,
                   help="technique selection of the HoDoKu-style rating (default, all, a "
                        "family or names)")
    r.add_argument("--time-limit", type=seconds, default=60.0,
                   help="seconds per puzzle (both ratings) before giving up (default 60)")
    add_batch_arguments(r)
    add_puzzle_options(r)
    r.set_defaults(run=run)
    return r


def run(args: argparse.Namespace) -> int:
    """Rate every puzzle of the arguments; exit 0 when all are rated, else 1."""
    from .. import batch
    from .solve import solve_one
    wanted = args.rating
    # the options of solve --logic that rate does not take
    args.logic, args.first, args.steps, args.level = True, False, False, 2
    args.method, args.node_limit, args.symbols = "auto", None, None
    args.rating = _SOLVE_RATING[wanted]
    args.rated_only = True          # no SE rating is computed for a puzzle logic left unsolved
    unrated: list[bool] = []

    def show(res: dict[str, Any], _: argparse.Namespace, n: int) -> None:
        out = rate_result(res, wanted, args.time_limit)
        if not out["rated"]:
            unrated.append(True)
        if args.json:
            print(json.dumps(out), flush=True)
        else:
            head = f"{res['where']}: " if res.get("where") else ""
            text = rating_text(out) if out["rated"] else _why(out)
            print(head + text, flush=True)
    worst = batch.run_solve(args, solve_one, show)
    return max(worst, 1 if unrated else 0)


def _se_missing(res: dict[str, Any], time_limit: float | None = None) -> str | None:
    """Why a solved puzzle's result has no SE-like rating, or None when it has one (the SE
    run shares the puzzle's ``time_limit``: a run that used it all is said to be out of
    time)."""
    se = res.get("se_rating")
    if not se:
        return "the SE-like rating was not computed"
    if not se.get("applies", True):
        return "the SE-like rating does not apply to this variant"
    if not se.get("solved", True):
        if time_limit is not None and res.get("time_ms", 0) >= 0.98 * time_limit * 1000:
            return (f"the SE-like techniques did not finish within the time limit "
                    f"({time_limit:g} s)")
        return "the SE-like techniques do not solve it"
    return None


def rate_result(res: dict[str, Any], wanted: str,
                time_limit: float | None = None) -> dict[str, Any]:
    """The JSON of one puzzle's ratings from its ``solve --logic`` result. It is ``rated``
    when the logic solved it and the rating asked for was given (with ``both``, the
    HoDoKu-style one; an SE-like rating that cannot be given is then ``null`` with its
    ``se_reason``); otherwise ``reason`` says why and no rating is given."""
    solved = res["status"] == SolveStatus.SOLVED
    out: dict[str, Any] = {"puzzle": res.get("puzzle")}
    if res.get("where"):
        out["where"] = res["where"]
    out["status"] = res["status"]
    reason = None if solved else (res.get("reason") or res["status"])
    se_reason = _se_missing(res, time_limit) if solved and wanted != "hodoku" else None
    if se_reason and wanted != "both":
        reason = se_reason
    out["rated"] = reason is None
    if reason is not None:
        out["reason"] = reason
    if wanted in ("hodoku", "both"):
        out["rating"] = res.get("rating") if out["rated"] else None
    if wanted != "hodoku":
        out["se_rating"] = res.get("se_rating") if out["rated"] and not se_reason else None
        if out["rated"] and se_reason:
            out["se_reason"] = se_reason
    out["solution"] = res.get("solution") if solved else None
    out["time_ms"] = res.get("time_ms")
    return out


def rating_text(out: dict[str, Any]) -> str:
    """The plain line of a rated puzzle (:func:`rate_result`): ``easy 196 (hardest
    naked_single)`` (HoDoKu-style), ``SE 1.2/1.2/1.2`` (ER/EP/ED), or both joined by a
    comma."""
    parts = []
    rt = out.get("rating")
    if rt:
        parts.append(f"{rt['level']} {rt['score']} (hardest {rt['hardest']})")
    se = out.get("se_rating")
    if se:
        parts.append(f"SE {se['er']:.1f}/{se['ep']:.1f}/{se['ed']:.1f}")
    elif out.get("se_reason"):
        parts.append(f"no SE rating: {out['se_reason']}")
    return ", ".join(parts)


def _why(out: dict[str, Any]) -> str:
    status, reason = out["status"], out["reason"]
    if status == SolveStatus.SOLVED:      # solved, but the rating asked for is not given
        return f"not rated: {reason}"
    return f"not rated: {status}" + (f" ({reason})" if reason != status else "")
