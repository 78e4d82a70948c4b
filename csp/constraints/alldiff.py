"""All-different: value elimination runs in the engine kernel; GAC (matching based) on request."""
from __future__ import annotations

from typing import Sequence

from ..events import Cost, Event, Status
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

    def check(self, *values: int) -> bool:
        return len(set(values)) == len(values)

    def attributes(self) -> dict:
        return {"kind": self.kind, "size": len(self.cells)}


class AllDifferentGAC(Propagator):
    """Generalised arc consistency for all-different (Regin): a candidate survives iff it
    belongs to some maximum matching of cells to digits."""

    cost = Cost.QUADRATIC
    events = Event.DOM

    def __init__(self, cells: Sequence[int], name: str = "all-different") -> None:
        self.scope = tuple(sorted(cells))
        self.name = f"{name} (GAC)"

    def propagate(self, ctx: Context) -> Status:
        cand = ctx.cand
        cells = self.scope
        k = len(cells)
        doms = [cand[c] for c in cells]
        # maximum matching cell index -> digit by augmenting paths (Kuhn)
        match_digit: dict[int, int] = {}   # digit -> cell index
        cell_digit = [0] * k

        def augment(i: int, seen: set[int]) -> bool:
            m = doms[i]
            while m:
                low = m & -m
                d = low.bit_length() - 1
                m ^= low
                if d in seen:
                    continue
                seen.add(d)
                j = match_digit.get(d)
                if j is None or augment(j, seen):
                    match_digit[d] = i
                    cell_digit[i] = d
                    return True
            return False

        for i in range(k):
            if not augment(i, set()):
                ctx.fail("no matching of cells to digits", cells)
        digits = 0
        for m in doms:
            digits |= m
        free = [k + d for d in range(digits.bit_length()) if digits >> d & 1 and d not in match_digit]
        # Orient matched edges cell -> digit and the others digit -> cell (node ids: cells
        # 0..k-1, digit d is k+d). A non-matching edge survives iff it lies on a cycle (same
        # SCC) or on an alternating path from a free digit.
        g: dict[int, list[int]] = {}
        for i in range(k):
            g[i] = [k + cell_digit[i]]
        for i in range(k):
            m = doms[i]
            while m:
                low = m & -m
                d = low.bit_length() - 1
                m ^= low
                if d != cell_digit[i]:
                    g.setdefault(k + d, []).append(i)
        for d in range(64):
            if digits >> d & 1:
                g.setdefault(k + d, [])
        reach: set[int] = set()
        todo = list(free)
        while todo:
            u = todo.pop()
            if u in reach:
                continue
            reach.add(u)
            todo.extend(g.get(u, ()))
        comp = _scc(g)
        changed = False
        for i in range(k):
            m = doms[i]
            remove = 0
            while m:
                low = m & -m
                d = low.bit_length() - 1
                m ^= low
                if d == cell_digit[i]:
                    continue
                # edge digit d -> cell i (unmatched). Keep if on a cycle or on a path from free.
                if comp[k + d] == comp[i] or (k + d) in reach:
                    continue
                remove |= low
            if remove:
                ctx.remove(cells[i], remove, (self.name, cells))
                changed = True
        return Status.FIX if not changed else Status.NOFIX


def _scc(g: dict[int, list[int]]) -> dict[int, int]:
    """Tarjan's strongly connected components (iterative); node -> component id."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    comp: dict[int, int] = {}
    on: set[int] = set()
    st: list[int] = []
    counter = 0
    ncomp = 0
    for root in g:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, pi = work.pop()
            if pi == 0:
                index[v] = low[v] = counter
                counter += 1
                st.append(v)
                on.add(v)
            succ = g.get(v, ())
            recurse = False
            while pi < len(succ):
                w = succ[pi]
                pi += 1
                if w not in index:
                    work.append((v, pi))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                while True:
                    w = st.pop()
                    on.discard(w)
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    return comp
