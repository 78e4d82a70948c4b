"""Every solution, counting you can follow, and estimates: :mod:`csp.solutions` for
puzzles given as text, start states or pencil marks.

>>> [s[:4] for s in iter_solutions(".2.4....3.......")]
[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]
>>> count_solutions(".2.4....3.......").count
3
>>> est = estimate_count("." * 16, samples=300, seed=1, exact_nodes=0)  # 288 solutions
>>> est.low <= 288 <= est.high, est.exact
(True, False)
>>> estimate_count("." * 16).estimate                   # small enough to count outright
288.0
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from csp import Puzzle, State
from csp import solutions as _lib
from csp.solutions import Estimate, SolutionCount

from .candidates import load_puzzle, start_state

__all__ = ["iter_solutions", "count_solutions", "estimate_count", "Estimate", "SolutionCount"]


def iter_solutions(puzzle: Puzzle | str, *, state: State | None = None,
                   marks: str | None = None, limit: int | None = None,
                   time_limit: float | None = None, cancel: Any = None,
                   method: str = "auto") -> Iterator[list[int]]:
    """Every solution (a digit per cell, row-major) of ``puzzle`` from ``state`` or pencil
    ``marks`` (default: the givens), up to ``limit``. Raises
    :class:`csp.errors.TimeLimitExceeded` or :class:`csp.errors.Cancelled` when cut short
    (the solutions yielded before stand)."""
    p = load_puzzle(puzzle)
    st = start_state(p, state, marks)
    k = 0
    if limit is not None and limit < 1:
        return
    for values in _lib.iter_solutions(p, st.cand, time_limit=time_limit, cancel=cancel,
                                      method=method):
        yield values
        k += 1
        if limit is not None and k >= limit:
            return


def count_solutions(puzzle: Puzzle | str, *, state: State | None = None,
                    marks: str | None = None, limit: int | None = None,
                    time_limit: float | None = None, cancel: Any = None,
                    progress: Callable[[int], Any] | None = None,
                    method: str = "auto") -> SolutionCount:
    """:func:`csp.solutions.count_solutions` (``progress(count)`` now and then; limits
    raise with ``e.count``) for a puzzle given as text, a state or marks."""
    p = load_puzzle(puzzle)
    st = start_state(p, state, marks)
    return _lib.count_solutions(p, st.cand, limit, time_limit=time_limit, cancel=cancel,
                                progress=progress, method=method)


def estimate_count(puzzle: Puzzle | str, *, state: State | None = None,
                   marks: str | None = None, samples: int = 1000, seed: int | None = 0,
                   time_limit: float | None = None, cancel: Any = None,
                   progress: Callable[[Estimate], Any] | None = None,
                   exact_nodes: int | None = None) -> Estimate:
    """:func:`csp.solutions.estimate_count` (Knuth's random probes, a 95 % interval; a
    small tree counted outright) for a puzzle given as text, a state or marks."""
    p = load_puzzle(puzzle)
    st = start_state(p, state, marks)
    return _lib.estimate_count(p, st.cand, samples=samples, seed=seed, time_limit=time_limit,
                               cancel=cancel, progress=progress, exact_nodes=exact_nodes)
