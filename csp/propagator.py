"""The propagator contract and the Context through which propagators change domains.

A propagator has a ``name``, a sorted ``scope`` of cells, a ``cost`` and the ``events`` it
subscribes to, and implements ``propagate(ctx) -> Status``:

1. Contracting and correct: only remove candidates that have no support in any solution of
   this constraint; fail (raise :class:`Contradiction` via ``ctx.fail``) when the whole scope
   is fixed to a violating assignment.
2. Return ``Status.FIX`` only when running again at once would change nothing; ``NOFIX``
   when unsure; ``SUBSUMED`` once entailed (every assignment left in its scope satisfies
   the rule, e.g. ``max(a) < min(b)`` for ``a < b``): the engine then does not wake it again
   for the rest of that :meth:`~csp.engine.Engine.propagate` call (domains only shrink, so
   it stays entailed); a later call runs it afresh.
3. Deterministic and I/O-free. Every removal carries a reason (default: the propagator).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from .events import Contradiction, Cost, Event, Status

if TYPE_CHECKING:
    from .budget import Budget

#: A trace hook receives ``(cell, removed_mask, reason)`` for every removal, where reason is
#: a ``(constraint_name, premise_cells)`` tuple or a technique Step.
TraceHook = Callable[[int, int, Any], None]


class Propagator:
    name: str = "propagator"
    scope: tuple[int, ...] = ()
    cost: Cost = Cost.LINEAR
    events: Event = Event.DOM
    #: declared True by a class (on the class itself, not inherited) whose propagators
    #: remove what the candidates they read call for and nothing that depends on earlier
    #: runs (a memo of results by candidates is allowed): an engine made only of such
    #: propagators may serve every puzzle of the same rules (:class:`csp.model.RuleSet`)
    history_free: bool = False

    def propagate(self, ctx: "Context") -> Status:  # pragma: no cover - interface
        raise NotImplementedError

    def kernel_scan(self) -> tuple[Callable[..., Any], tuple[Any, ...]] | None:
        """``(fn, args)`` when :meth:`propagate` is exactly: keep in each cell of
        ``self.cells`` the digits of ``fn(doms, *args)`` (``doms`` their candidate masks,
        in order; ``fn`` gives a mask per cell, or None, when :meth:`propagate` fails with
        ``self.failure``; ValueError, TypeError or OverflowError when it declines, and
        :meth:`propagate` runs) and return FIX; the compiled engine loop
        (``csp/_engine_kernel.c``) then calls ``fn`` itself. None (the default): it calls
        :meth:`propagate`."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class Context:
    """Domain access for one propagator run: ``cand`` (read it), ``remove``/``restrict``
    (write through them), ``fail``. Changes are reported to the engine in ``changes``.
    ``budget`` is the call's :class:`~csp.budget.Budget` (None: no limit): a propagator
    with a long loop calls ``ctx.budget.tick()`` in it (see :meth:`tick`)."""

    __slots__ = ("cand", "changes", "trace", "source", "budget")

    def __init__(self, cand: list[int], trace: TraceHook | None = None,
                 budget: "Budget | None" = None) -> None:
        self.cand = cand
        self.changes: list[tuple[int, int]] = []   # (cell, old mask)
        self.trace = trace
        self.source = ""
        self.budget = budget

    def tick(self) -> None:
        """Give the call's budget a chance to stop a long propagator (raises
        :class:`~csp.errors.TimeLimitExceeded` once it is spent; nothing without one)."""
        if self.budget is not None:
            self.budget.tick("propagation")

    def remove(self, cell: int, mask: int, reason: Any = None) -> bool:
        """Remove the digits of ``mask`` from ``cell``; True if anything was removed."""
        old = self.cand[cell]
        new = old & ~mask
        if new == old:
            return False
        if not new:
            raise Contradiction(f"{self.source}: no candidate left", self.source, (cell,))
        self.cand[cell] = new
        self.changes.append((cell, old))
        if self.trace is not None:
            self.trace(cell, old & mask, reason if reason is not None else (self.source, ()))
        return True

    def restrict(self, cell: int, keep: int, reason: Any = None) -> bool:
        """Keep only the digits of ``keep`` in ``cell``."""
        return self.remove(cell, self.cand[cell] & ~keep, reason)

    def fail(self, message: str = "violated", cells: Sequence[int] = ()) -> None:
        raise Contradiction(f"{self.source}: {message}", self.source, cells)
