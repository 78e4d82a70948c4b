"""One call's limits as one value: :class:`Budget`.

A command or an API call makes one Budget when it starts (before it parses anything) and
passes it down explicitly to everything it runs: parsing, model building (``Puzzle.freeze``,
``Puzzle.engine``, each rule's set-up), the first propagation, the SAT encoding, search and
the logic run. Every limit therefore bounds the whole call, not only its search. There is no
module-level run state: two budgets in two threads never meet.

A Budget holds

* ``deadline``: a :func:`time.perf_counter` value (the wall clock) past which the call gives
  up, from ``time_limit`` seconds (measured from when the budget is made, less ``spent``
  seconds already used) and/or an absolute ``deadline``;
* ``cpu_deadline``: a :func:`time.process_time` value from ``cpu_limit`` (optional; the
  process's CPU time, for callers that share a loaded machine);
* ``node_limit``: how many search nodes (SAT conflicts) the call may use.

Long loops call :meth:`Budget.tick` (cheap: the clocks are read only every ``every``
calls) or :meth:`Budget.check` (reads them now); both raise
:class:`~csp.errors.TimeLimitExceeded` once the budget is spent. Code that must not raise
asks :attr:`Budget.exhausted`, or :meth:`Budget.poll` in a long loop (the throttled
``exhausted``: a search that gives up quietly, such as a logic technique, which keeps what
it found); a poll or :meth:`Budget.stop` that finds the budget spent marks it
:attr:`~Budget.stopped` (something under it was cut short). :meth:`Budget.narrowed` gives
a part of a call (the first phase of a search, a uniqueness check, one technique's
search) its own budget inside the same one: the same clocks, a closer deadline or CPU cap
if asked, and its own ``stopped`` mark.

>>> b = Budget(60)
>>> b.exhausted, 59 < b.left() <= 60
(False, True)
>>> b.check("parsing")             # nothing happens: time is left
>>> spent = Budget(0)
>>> spent.exhausted
True
>>> spent.check("parsing")
Traceback (most recent call last):
...
csp.errors.TimeLimitExceeded: parsing stopped after 0 s
>>> Budget().left() is None, Budget.of(None).deadline is None, Budget.of(b) is b
(True, True, True)
"""
from __future__ import annotations

import gc
import math
import time
import functools
from typing import Any, Callable, ParamSpec, TypeVar, Union

from .errors import Cancelled, InvalidArgument, TimeLimitExceeded
from .text import quoted

__all__ = ["Budget", "BudgetLike", "gc_paused"]

P = ParamSpec("P")
R = TypeVar("R")

#: clock reads of :meth:`Budget.tick`: one every this many calls by default
TICK_EVERY = 256


def _seconds(value: float | None, what: str) -> float | None:
    """``value`` checked as a number of seconds (None and infinity: no limit)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgument(f"{what} must be a number of seconds, got {quoted(value)}")
    if value != value or value < 0:
        raise InvalidArgument(f"{what} must be 0 or more seconds, got {quoted(value)}")
    return None if math.isinf(value) else float(value)


class Budget:
    """The limits of one call (see the module docstring).

    ``time_limit``: seconds of wall clock from now (None: none); ``deadline``: an absolute
    :func:`time.perf_counter` value (the closer of the two holds); ``spent``: seconds
    already used before the budget was made (taken off ``time_limit``); ``cpu_limit``:
    seconds of this process's CPU time from now; ``node_limit``: search nodes (SAT
    conflicts); ``every``: calls of :meth:`tick` per clock read.

    >>> b = Budget(10, spent=4)
    >>> 5.9 < b.left() <= 6, b.time_limit
    (True, 10.0)
    >>> Budget(float("nan"))
    Traceback (most recent call last):
    ...
    csp.errors.InvalidArgument: time limit must be 0 or more seconds, got nan
    """

    __slots__ = ("time_limit", "deadline", "cpu_limit", "cpu_deadline", "node_limit",
                 "every", "_count", "stopped")

    def __init__(self, time_limit: float | None = None, *, deadline: float | None = None,
                 spent: float = 0.0, cpu_limit: float | None = None,
                 node_limit: int | None = None, every: int = TICK_EVERY) -> None:
        now = time.perf_counter()
        self.time_limit = _seconds(time_limit, "time limit")
        self.cpu_limit = _seconds(cpu_limit, "CPU time limit")
        end = None if self.time_limit is None else now + self.time_limit - spent
        if deadline is not None:
            end = deadline if end is None else min(end, deadline)
        self.deadline: float | None = end
        self.cpu_deadline: float | None = (None if self.cpu_limit is None
                                           else time.process_time() + self.cpu_limit)
        if node_limit is not None and (isinstance(node_limit, bool)
                                       or not isinstance(node_limit, int) or node_limit < 0):
            raise InvalidArgument(f"node limit must be a whole number 0 or more, "
                                  f"got {quoted(node_limit)}")
        self.node_limit = node_limit
        self.every = max(1, int(every))
        self._count = 1               # the first tick reads the clocks
        #: True once :meth:`poll` or :meth:`stop` found the budget spent: a search under
        #: it was cut short (its result is sound but may be incomplete)
        self.stopped = False

    @classmethod
    def of(cls, budget: "BudgetLike" = None) -> "Budget":
        """``budget`` itself when it is a Budget, else a new one of ``budget`` seconds
        (None: no limit)."""
        return budget if isinstance(budget, Budget) else cls(budget)

    @classmethod
    def within(cls, budget: "Budget | None", time_limit: float | None = None,
               node_limit: int | None = None) -> "Budget":
        """The budget of an API call given an optional caller's ``budget`` and its own
        ``time_limit`` / ``node_limit`` arguments: the caller's budget when only it is
        given, else one holding the tighter of both.

        >>> outer = Budget(100, node_limit=50)
        >>> Budget.within(outer) is outer
        True
        >>> inner = Budget.within(outer, 5)
        >>> inner.left() < 6, inner.node_limit
        (True, 50)
        >>> Budget.within(None, 2, 7).node_limit
        7
        """
        if budget is None:
            return cls(time_limit, node_limit=node_limit)
        if time_limit is None and node_limit is None:
            return budget
        out = budget.narrowed(time_limit)
        if node_limit is not None:
            out.node_limit = (node_limit if budget.node_limit is None
                              else min(node_limit, budget.node_limit))
        return out

    # -- reading the clocks ----------------------------------------------------------
    def left(self) -> float | None:
        """Seconds left on the wall clock (and, with a CPU cap, of CPU time; the smaller),
        None without a limit; 0 or less once spent."""
        out = None if self.deadline is None else self.deadline - time.perf_counter()
        if self.cpu_deadline is not None:
            cpu = self.cpu_deadline - time.process_time()
            out = cpu if out is None else min(out, cpu)
        return out

    @property
    def limited(self) -> bool:
        """True when the budget has a time limit (wall or CPU)."""
        return self.deadline is not None or self.cpu_deadline is not None

    @property
    def exhausted(self) -> bool:
        """True once the wall-clock deadline or the CPU cap has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            return True
        return self.cpu_deadline is not None and time.process_time() > self.cpu_deadline

    def check(self, what: str = "search") -> None:
        """Raise :class:`~csp.errors.TimeLimitExceeded` (``"<what> stopped after S s"``)
        once the budget is spent."""
        if self.exhausted:
            raise TimeLimitExceeded(f"{what} stopped after {self.describe()}")

    def tick(self, what: str = "search", cost: int = 1) -> None:
        """:meth:`check`, but reading the clocks only once ``every`` units of ``cost``
        have been ticked since the last read: cheap enough for an inner loop. A tick
        that stands for many units of work (a layer of thousands of transitions) says so
        with ``cost``, so that its clock is read as often as the work asks.

        >>> b = Budget(60, every=4)
        >>> b.deadline = 0.0            # (the deadline passes)
        >>> b.tick()                    # the first tick reads the clocks
        Traceback (most recent call last):
        ...
        csp.errors.TimeLimitExceeded: search stopped after 60 s
        >>> b.tick(); b.tick(); b.tick("layer", cost=4)
        Traceback (most recent call last):
        ...
        csp.errors.TimeLimitExceeded: layer stopped after 60 s
        """
        self._count -= cost
        if self._count <= 0:
            self._count = self.every
            if self.deadline is not None or self.cpu_deadline is not None:
                self.check(what)

    def stop(self) -> bool:
        """:attr:`exhausted`, read now; when True the budget is also marked
        :attr:`stopped`. For a search that gives up quietly, at the top of a loop whose
        every round is costly.

        >>> b = Budget(0)
        >>> b.stopped, b.stop(), b.stopped
        (False, True, True)
        """
        if self.exhausted:
            self.stopped = True
            return True
        return False

    def poll(self, cost: int = 1) -> bool:
        """:meth:`stop`, reading the clocks only once ``every`` units of ``cost`` have
        been polled since the last read (a loop whose rounds cost more polls with a
        larger ``cost``): cheap enough for an inner loop. Once it has answered True, every
        later poll reads the clocks (so it keeps answering True). Without a time limit it
        never reads a clock.

        >>> b = Budget(60, every=4)
        >>> [b.poll() for _ in range(5)], b.stopped
        ([False, False, False, False, False], False)
        >>> b.deadline = 0.0            # (the deadline passes)
        >>> [b.poll() for _ in range(5)]
        [False, False, False, True, True]
        >>> b.stopped, Budget(60, every=4).poll(4)
        (True, False)
        """
        self._count -= cost
        if self._count > 0:
            return False
        if self.deadline is None and self.cpu_deadline is None:
            self._count = self.every
            return False
        if self.stop():
            self._count = 1
            return True
        self._count = self.every
        return False

    def describe(self) -> str:
        """The limit in words, for messages: ``"1 s"``, ``"0.5 s of CPU time"``."""
        parts = []
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s")
        if self.cpu_limit is not None:
            parts.append(f"{self.cpu_limit:g} s of CPU time")
        return " / ".join(parts) or "the deadline"

    # -- parts of a call ---------------------------------------------------------------
    def narrowed(self, seconds: float | None = None, *,
                 cpu_seconds: float | None = None) -> "Budget":
        """A budget for a part of this call: the same limits, with the deadline brought
        to at most ``seconds`` from now and the CPU cap to at most ``cpu_seconds`` of CPU
        time from now (None: the same). Its ``time_limit`` and ``cpu_limit`` (used in
        messages) are the caller's when those are closer. The part has its own tick count
        and :attr:`stopped` mark: ``narrowed()`` is a fresh view of the same limits.

        >>> outer = Budget(100)
        >>> part = outer.narrowed(0.5)
        >>> part.left() <= 0.5 < outer.left()
        True
        >>> outer.narrowed(cpu_seconds=2).left() <= 2, outer.narrowed().stopped
        (True, False)
        """
        out = Budget(node_limit=self.node_limit, every=self.every)
        out.time_limit = self.time_limit
        out.cpu_limit = self.cpu_limit
        out.cpu_deadline = self.cpu_deadline
        out.deadline = self.deadline
        s = _seconds(seconds, "time limit")
        if s is not None and (self.deadline is None
                              or time.perf_counter() + s < self.deadline):
            out.deadline, out.time_limit = time.perf_counter() + s, s
        cs = _seconds(cpu_seconds, "CPU time limit")
        if cs is not None and (self.cpu_deadline is None
                               or time.process_time() + cs < self.cpu_deadline):
            out.cpu_deadline, out.cpu_limit = time.process_time() + cs, cs
        return out

    def __repr__(self) -> str:
        left = self.left()
        shown = "no limit" if left is None else f"{left:.3f} s left"
        nodes = "" if self.node_limit is None else f", {self.node_limit} nodes"
        return f"<Budget {shown}{nodes}>"


#: what API calls accept where a budget goes: a Budget, seconds, or None (no limit)
BudgetLike = Union[Budget, float, int, None]


class CancelBudget(Budget):
    """A :class:`Budget` that a caller's cancel stops too: ``cancelled()`` (a callable
    answering True once the caller wants the call to stop) is read at each clock read of
    :meth:`tick` (every ``every`` ticks) and at :meth:`check`, and raises
    :class:`~csp.errors.Cancelled`; the deadline, if any, holds as in a Budget. What a
    budget stops (the SAT encoding, the engine's propagation) stops on a cancel as well:
    ``listen`` cancels a running job when a new message comes, also one without a time
    limit.

    >>> b = CancelBudget(lambda: True, every=2)
    >>> b.tick()
    Traceback (most recent call last):
    ...
    csp.errors.Cancelled: search cancelled
    >>> CancelBudget(lambda: False, deadline=None).limited
    True
    """

    __slots__ = ("cancelled",)

    def __init__(self, cancelled: Callable[[], bool], **kw: Any) -> None:
        super().__init__(**kw)
        self.cancelled = cancelled

    @property
    def limited(self) -> bool:
        return True

    @property
    def exhausted(self) -> bool:
        return self.cancelled() or Budget.exhausted.fget(self)   # type: ignore[attr-defined]

    def check(self, what: str = "search") -> None:
        if self.cancelled():
            raise Cancelled(f"{what} cancelled")
        super().check(what)

    def tick(self, what: str = "search", cost: int = 1) -> None:
        self._count -= cost
        if self._count <= 0:
            self._count = self.every
            self.check(what)


class gc_paused:
    """Python's cyclic garbage collector off for the block, back on after it (when it was
    on: a caller that switched it off keeps it off). For the bursts of small lists and
    tuples a call's set-up makes (reading a document, building the engine, the SAT
    encoding, the clauses handed to a kernel): none of them form cycles, reference
    counting frees them, and the collector's passes over them were 5-10 % of a setter
    puzzle's true-candidates call (the workbench's unique set, one process, calls A/B
    interleaved: 1,051 -> 941 ms). What the block leaves in cycles is collected after it.
    The switch is process-wide: another thread's work in the block runs without the
    collector too.

    A context manager (``with gc_paused():``) and a decorator (``@gc_paused()``): the
    decorated function's wrapper switches the collector itself, one Python frame a call
    (a ``contextlib.contextmanager`` took six, and their code and objects: the footprint
    a cold call pays for, branch foot). The wrapper keeps no state on the instance, so a
    decorated function may run on several threads at once.

    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    >>> @gc_paused()
    ... def inside():
    ...     return gc.isenabled()
    >>> inside(), gc.isenabled()
    (False, True)
    """

    __slots__ = ("_was",)

    def __init__(self) -> None:
        self._was = False

    def __enter__(self) -> None:
        self._was = gc.isenabled()
        if self._was:
            gc.disable()

    def __exit__(self, *exc: object) -> bool:
        if self._was:
            gc.enable()
        return False

    def __call__(self, fn: Callable[P, R]) -> Callable[P, R]:
        isenabled, disable, enable = gc.isenabled, gc.disable, gc.enable

        @functools.wraps(fn)
        def paused(*args: P.args, **kwargs: P.kwargs) -> R:
            if not isenabled():
                return fn(*args, **kwargs)
            disable()
            try:
                return fn(*args, **kwargs)
            finally:
                enable()
        return paused
