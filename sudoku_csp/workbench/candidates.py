"""True candidates: the digits each cell holds in at least one solution, how many solutions
hold each (up to a cap), and, next to them, what the logic solver keeps that no solution
uses (the *logical* view).

The counting is :func:`csp.solutions.candidate_counts` (one SAT solver kept warm: a found
solution marks all its candidates at once, each candidate not seen yet is one question under
an assumption); this module adds what a setter works with: a puzzle given as text, a start
state or pencil marks, the logic solver's view with a technique selection, and the answer
as rows of digits, JSON, the websocket reply of :mod:`sudoku_csp.commands.listen` and a
picture (:func:`candidates_svg`).

>>> from variants import classic_puzzle
>>> p = classic_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
>>> res = true_candidates(p)
>>> res.status, res.solutions_seen, res.candidates[1]
('unique', 1, (1,))
>>> res = true_candidates(".2.4....3.......", cap=2)     # three solutions
>>> res.status, res.candidates[10], res.counts[10]
('multiple', (1, 2, 4), {1: 1, 2: 1, 4: 1})
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, Callable, Sequence

from csp import Puzzle, State
from csp.engine import _engine_kernel
from csp.errors import InvalidArgument
from csp.kernel import active
from csp.events import Contradiction
from csp.solutions import MAX_CAP, CandidateCounts, candidate_counts

__all__ = ["TrueCandidates", "true_candidates", "start_state", "load_puzzle"]


def load_puzzle(puzzle: Puzzle | str) -> Puzzle:
    """A Puzzle as it is, or read from text: anything the command line's PUZZLE reads (a
    line string, an f-puzzles or SudokuPad link or payload, JSON, a file name)."""
    if isinstance(puzzle, Puzzle):
        return puzzle
    if not isinstance(puzzle, str):
        raise InvalidArgument(f"expected a Puzzle or puzzle text, not {type(puzzle).__name__}")
    from ..formats.loader import load_one
    p = load_one(puzzle).puzzle
    assert p is not None
    return p


def start_state(puzzle: Puzzle, state: State | None = None, marks: str | None = None) -> State:
    """The state a question starts from: ``state``, or the puzzle's candidates narrowed by
    the pencil-mark text ``marks`` (:func:`sudoku_csp.formats.loader.marks_state`), or the
    puzzle's initial state (givens placed)."""
    if state is not None and marks is not None:
        raise InvalidArgument("give a state or marks, not both")
    if marks is not None:
        from ..formats.loader import marks_state
        return marks_state(marks, puzzle)
    if state is not None:
        if state.grid.size != puzzle.grid.size:
            raise InvalidArgument(f"the state has {state.grid.size} cells, the puzzle "
                                  f"{puzzle.grid.size}")
        return state
    return puzzle.initial_state()


@dataclass
class TrueCandidates:
    """The answer of :func:`true_candidates`.

    ``status``: ``"unique"``, ``"multiple"``, ``"unsolvable"`` or ``"limit"`` (cut by the
    time limit or a cancel before two solutions were seen); ``candidates``: per cell
    (row-major) the digits in at least one solution; ``counts``: per cell, digit ->
    solutions holding it, capped at ``cap`` (exact below the cap when ``complete``; made
    when first read: the answer keeps its counts as one flat list, which
    :meth:`count_rows` and :meth:`count_list` hand back as arrays without the dicts);
    ``logical_only``: with ``logical``, the candidates (``"rNcM=d"``) the logic solver keeps
    although no solution holds them; ``solutions_seen``; ``complete``: every candidate was
    decided (False when the run was cut: ``undecided`` lists what is left open, and
    ``candidates`` holds only the digits seen in a solution so far).
    """

    puzzle: Puzzle
    cap: int
    status: str
    candidates: list[tuple[int, ...]]
    #: the internal form of the counts: index ``cell * n + digit - 1``, capped at ``cap``
    #: (read it through :meth:`count_list`, :meth:`count_rows` or ``counts``)
    _flat: list[int] = field(repr=False)
    solutions_seen: int
    complete: bool
    logical: bool = False
    logical_only: list[str] = field(default_factory=list)
    #: per cell, the digits the logic solver keeps (with ``logical``)
    logical_candidates: list[tuple[int, ...]] | None = None
    #: the logic solver's verdict on its own (solved, stuck, limit, unsolvable)
    logic_status: str | None = None
    undecided: list[str] = field(default_factory=list)
    solution: list[int] | None = None
    time_ms: float = 0.0
    raw: CandidateCounts | None = field(default=None, repr=False)
    _counts: list[dict[int, int]] | None = field(default=None, init=False, repr=False,
                                                 compare=False)

    @property
    def n(self) -> int:
        return self.puzzle.grid.n

    @property
    def counts(self) -> list[dict[int, int]]:
        """Per cell (row-major), digit -> solutions holding it, capped at ``cap``, for the
        digits seen in a solution (ascending); made from :meth:`count_list` when first
        read."""
        got = self._counts
        if got is None:
            n, flat = self.n, self._flat
            got = self._counts = [
                {d: k for d, k in zip(range(1, n + 1), flat[i:i + n]) if k}
                for i in range(0, len(flat), n)]
        return got

    def count_list(self) -> list[int]:
        """The counts as one flat list (a new one): index ``cell * n + digit - 1`` holds
        the solutions holding that candidate, capped at ``cap`` (0: in no solution seen).

        >>> res = true_candidates(".2.4....3.......", cap=2)     # three solutions
        >>> res.count_list()[10 * 4:11 * 4]                       # cell r3c3
        [1, 1, 0, 1]
        """
        return self._flat[:]

    def count_rows(self) -> list[list[int]]:
        """The counts as rows, one per cell (row-major), of ``n`` entries each: entry
        ``digit - 1`` holds the solutions holding that candidate, capped at ``cap`` (the
        arrays a program compares or sends; no dict is made).

        >>> res = true_candidates(".2.4....3.......", cap=2)
        >>> res.count_rows()[10], res.count_rows()[0]
        ([1, 1, 0, 1], [2, 0, 0, 0])
        """
        n, flat = self.n, self._flat
        return [flat[i:i + n] for i in range(0, len(flat), n)]

    def name(self, cell: int, digit: int) -> str:
        return f"{self.puzzle.grid.name(cell)}={digit}"

    def solutions_per_candidate(self) -> list[int]:
        """The flat list of the f-puzzles solver protocol: index ``cell * n + digit - 1``
        holds the solutions holding that candidate (capped; 1 for a true candidate when
        ``cap`` is 1), 0 for a false one and -1 for one only the logic keeps
        (:meth:`count_list` with the logic's extra candidates marked)."""
        n = self.n
        out = self._flat[:]
        if self.logical_candidates is not None:
            for c, (ds, true) in enumerate(zip(self.logical_candidates, self.candidates)):
                for d in ds:
                    if d not in true:
                        out[c * n + d - 1] = -1
        return out

    def to_dict(self, counts: bool | None = None) -> dict[str, Any]:
        """The JSON object of ``sudoku-csp candidates --json``: ``status``, ``candidates``
        (a list of digits per cell), ``counts`` (one object per cell, digit -> solutions,
        capped; by default when ``cap`` > 1), ``logical_only`` (with ``logical``),
        ``solutions_seen``, ``complete``, ``cap``, ``undecided`` (when not complete) and
        ``time_ms``."""
        out: dict[str, Any] = {"status": self.status,
                               "candidates": [list(ds) for ds in self.candidates]}
        if counts if counts is not None else self.cap > 1:
            n, flat = self.n, self._flat
            out["counts"] = [{str(d): k for d, k in zip(range(1, n + 1), flat[i:i + n]) if k}
                             for i in range(0, len(flat), n)]
        if self.logical:
            out["logical_only"] = list(self.logical_only)
            out["logic_status"] = self.logic_status
        out["solutions_seen"] = self.solutions_seen
        out["complete"] = self.complete
        out["cap"] = self.cap
        if not self.complete:
            out["undecided"] = list(self.undecided)
        out["time_ms"] = round(self.time_ms, 3)
        return out

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture (:func:`~sudoku_csp.workbench.candidates_svg`, through the
        renderer :mod:`sudoku_csp` registers with :mod:`csp.display`)."""
        from csp.display import repr_svg
        return repr_svg(self)


def true_candidates(puzzle: Puzzle | str, *, state: State | None = None,
                    marks: str | None = None, cap: int = 1, logical: bool = False,
                    techniques: str | Sequence[str] = "default",
                    time_limit: float | None = None, cancel: Any = None,
                    progress: Callable[[int, int, int], Any] | None = None,
                    method: str = "auto") -> TrueCandidates:
    """True candidates of ``puzzle`` (a Puzzle or puzzle text) from ``state`` or pencil
    ``marks`` (default: the givens), with solution counts up to ``cap``.

    ``logical``: also run the logic solver (``techniques``: a selection as for
    ``solve --logic``) from the same state and list in ``logical_only`` the candidates it
    cannot remove although no solution holds them. ``time_limit`` (seconds, the whole call)
    and ``cancel`` (a ``threading.Event`` or a callable) cut the run short without raising:
    the answer then says ``complete=False``. ``progress(solutions_seen, decided, total)``
    is called now and then. ``method``: see :mod:`csp.solutions` (``"auto"``, ``"sat"``,
    ``"search"``).

    >>> res = true_candidates("1...............", cap=3, logical=True, techniques="singles")
    >>> res.status, res.candidates[1], res.counts[1], res.logical_only
    ('multiple', (2, 3, 4), {2: 3, 3: 3, 4: 3}, [])
    """
    t0 = time.perf_counter()
    p = load_puzzle(puzzle)
    deadline = None if time_limit is None else t0 + time_limit
    try:
        st = start_state(p, state, marks)
    except Contradiction:              # the marks already contradict
        st = None
    if st is None:
        cc = CandidateCounts(p.grid.n, p.grid.size, min(cap, MAX_CAP), [0] * p.grid.size,
                             [0] * (p.grid.size * p.grid.n + p.grid.n + 1),
                             [0] * p.grid.size, complete=True)
    else:
        cc = candidate_counts(p, st.cand, cap, time_limit=time_limit, cancel=cancel,
                              progress=progress, method=method)
    size = p.grid.size
    candidates, flat = _per_cell(cc)
    res = TrueCandidates(p, cc.cap, cc.status, candidates, flat, cc.solutions_seen, cc.complete,
                         logical=logical, solution=cc.solution, raw=cc)
    if not cc.complete:
        res.undecided = [f"{p.grid.name(c)}={d}" for c in range(size) for d in cc.undecided(c)]
    if logical and st is not None:
        # from the puzzle itself the logic starts at its pencil marks, as solve --logic does
        _logical_view(res, p, p if state is None and marks is None else st, techniques,
                      deadline, cancel)
    res.time_ms = (time.perf_counter() - t0) * 1000
    return res


def _per_cell(cc: CandidateCounts) -> tuple[list[tuple[int, ...]], list[int]]:
    """Per cell the digits seen in a solution, and the counts capped at ``cc.cap`` as one
    flat list (index ``cell * n + digit - 1``), in one pass over ``cc.counts`` (a setter's
    answer reads every cell: this is part of each call's fixed cost; the per-cell dicts
    of ``TrueCandidates.counts`` are made only when read)."""
    n, cap, raw = cc.n, cc.cap, cc.counts
    done = cc._take_cells()           # the compiled enumeration's answer made the pass
    if done is not None:
        if done[0] is raw:
            return done[1], done[2]
    kernel = active(_engine_kernel)
    if kernel is not None and type(raw) is list:      # the pass below in C
        got = kernel.per_cell(raw, n, cc.size, cap, True)
        if got is not None:
            return got[1], got[2]
    last = cc.size * n
    flat = raw[1:last + 1]
    digits: list[list[int]] = [[] for _ in range(cc.size)]
    # the candidates seen (count > 0, most of them zero), picked in C in ascending order:
    # a pass over those alone, not over every cell's n digits
    for i in compress(range(last), flat):
        c, d = divmod(i, n)
        digits[c].append(d + 1)
        if flat[i] > cap:
            flat[i] = cap
    return [tuple(ds) for ds in digits], flat


def _logical_view(res: TrueCandidates, p: Puzzle, st: Puzzle | State,
                  techniques: str | Sequence[str], deadline: float | None, cancel: Any) -> None:
    """Run the logic solver from ``st`` (a state, or the puzzle) and fill ``res.logical_candidates``,
    ``logical_only`` and ``logic_status``."""
    from techniques import StepSolver
    if isinstance(techniques, str):
        sel: Any = [s.strip() for s in techniques.split(",") if s.strip()] or ["default"]
    else:
        sel = list(techniques)
    # uniqueness techniques assume one solution: allowed only when the truth says so
    solver = StepSolver(sel, unique=res.status == "unique")
    from csp.sat import cancel_check
    stop = cancel_check(cancel)
    run = solver.start(st, deadline=deadline)
    for _ in run:
        if stop is not None and stop():
            break
    res.logic_status = str(run.status)
    if stop is not None and stop():
        res.logic_status = "limit"
    if run.status == "unsolvable":     # logic found a contradiction: nothing it keeps
        res.logical_candidates = [() for _ in range(p.grid.size)]
        return
    out = run.state
    n = p.grid.n
    logical = []
    for c in range(p.grid.size):
        m = (1 << out.placed[c]) if out.placed[c] else out.cand[c]
        logical.append(tuple(d for d in range(1, n + 1) if m >> d & 1))
    res.logical_candidates = logical
    if not res.complete:               # what is undecided cannot be called logical-only
        return
    res.logical_only = [res.name(c, d) for c, ds in enumerate(logical) for d in ds
                        if d not in res.candidates[c]]
