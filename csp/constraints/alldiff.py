"""All-different: value elimination runs in the engine kernel; GAC (matching based) on request."""
from __future__ import annotations

from typing import Sequence

from ..events import Cost, Event, Status
from ..matching import matching
from ..propagator import Context, Propagator
from .base import Constraint


class AllDifferent(Constraint):
    """Cells that must all hold different digits (a house)."""

    kind = "all_different"

    def __init__(self, cells: Sequence[int], name: str = "") -> None:
        self.cells = tuple(cells)
        if len(set(self.cells)) != len(self.cells):
            from ..errors import InvalidConstraint
            raise InvalidConstraint(f"all-different {name or ''} lists a cell twice".replace("  ", " "))
        self.name = name or "all-different"

    def house(self) -> tuple[int, ...]:
        return self.cells

    def digit_symmetric(self) -> bool:
        return type(self) is AllDifferent     # a subclass may add a condition on digits

    def check(self, *values: int) -> bool:
        return len(set(values)) == len(values)

    def attributes(self) -> dict:
        return {"kind": self.kind, "size": len(self.cells)}


class AllDifferentGAC(Propagator):
    """Generalised arc consistency for all-different (Regin): a candidate survives iff it
    belongs to some maximum matching of cells to digits.

    On bitmasks: a maximum matching (Kuhn's augmenting paths, started from the last call's
    matching where it still holds), then the digit graph of alternating paths (digit x leads
    to digit y when some cell with candidate x is matched to y) closed transitively. An
    unmatched candidate d of a cell matched to m survives when m leads back to d (an
    alternating cycle) or a free digit leads to d (an alternating path from a free digit)."""

    cost = Cost.QUADRATIC
    events = Event.DOM

    def __init__(self, cells: Sequence[int], name: str = "all-different") -> None:
        self.scope = tuple(sorted(cells))
        self.name = f"{name} (GAC)"
        self._last: dict[int, int] = {}      # the last matching: cell -> digit bit

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        scope = self.scope
        # fixed cells are matched to their digit, which leaves the other cells (the engine
        # kernel does that too); only the open cells and the other digits take part
        fixed = 0
        cells = []
        for c in scope:
            m = cand[c]
            if m & (m - 1):
                cells.append(c)
            elif fixed & m:
                ctx.fail("two cells hold the same digit", scope)
            else:
                fixed |= m
        if fixed:
            for c in cells:
                if cand[c] & fixed:
                    ctx.remove(c, fixed, (self.name, scope))
            if any(not cand[c] & (cand[c] - 1) for c in cells):
                return Status.NOFIX            # a cell got fixed: run again on the rest
        k = len(cells)
        if k < 2:
            return Status.FIX
        doms = [cand[c] for c in cells]
        last = self._last
        mate = matching(doms, [last.get(c, 0) for c in cells])
        if mate is None:
            ctx.fail("no matching of cells to digits", scope)
        self._last = dict(zip(cells, mate))
        # digit graph on digit indices: succ[x] = digits matched to the cells that also
        # have candidate x
        union = 0
        for m in doms:
            union |= m
        top = union.bit_length()
        succ = [0] * top
        for m, b in zip(doms, mate):
            rest = m ^ b
            while rest:
                low = rest & -rest
                rest ^= low
                succ[low.bit_length() - 1] |= b
        # transitive closure (Warshall on bit rows)
        digits = [d for d in range(top) if succ[d]]
        for via in digits:
            vr = succ[via]
            vb = 1 << via
            for x in digits:
                if succ[x] & vb:
                    succ[x] |= vr
        matched = 0
        for b in mate:
            matched |= b
        free = union & ~matched
        from_free = free
        while free:
            low = free & -free
            free ^= low
            from_free |= succ[low.bit_length() - 1]
        changed = False
        for c, m, b in zip(cells, doms, mate):
            keep = b | (m & (succ[b.bit_length() - 1] | from_free))
            if m & ~keep:
                ctx.remove(c, m & ~keep, (self.name, scope))
                changed = True
        return Status.FIX if not changed else Status.NOFIX
