"""What a run keeps across the scans of its forcing techniques: the assumptions a
search tried in vain (an ordering hint, :func:`_quiet`) and the quiet net propagations
that need not run again (:class:`_Kept`). Neither changes which steps are sound; the
hint changes only the order of the scan (on grids with other rules)."""
from __future__ import annotations

import weakref

from csp.bits import digits_of

from ..analysis import Analysis, iter_cells
from .engine import _PState, _Static


class _Scan:
    """What a run's last search of one kind tried in vain: an ordering hint, nothing more.

    Removing candidates never undoes a contradiction (fewer candidates only add singles and
    rule removals), so an assumption that broke stays broken; one that did not break may
    break later. Starting each search at the top of the list again (after every step the
    solver takes) re-proves the same quiet assumptions before reaching new ones: the next
    search of the same run tries the assumptions not yet tried first and the quiet ones
    last. Every step is still proved by its own propagation on the current grid; only the
    order (so which step comes first) changes. A hint belongs to one working state (a weak
    reference: a new run starts afresh) and holds while candidates are only removed."""

    __slots__ = ("ref", "snap", "quiet")

    def __init__(self, state) -> None:
        self.ref = weakref.ref(state)
        self.snap: list[int] = []
        #: facts tried without a result since the state last grew back
        self.quiet: set[int] = set()


def _quiet(an: Analysis, key) -> set[int]:
    """The set of facts that the last searches of kind ``key`` on this run tried in vain
    (the caller adds to it), reset unless the state only lost candidates since."""
    memo = an.run_memo.setdefault("forcing_scan", {})
    sc = memo.get(key)
    cand = an.cand
    if sc is None or sc.ref() is not an.state or any(
            m & ~s for m, s in zip(cand, sc.snap)):
        sc = memo[key] = _Scan(an.state)
    sc.snap = list(cand)
    return sc.quiet


class _Kept:
    """Net assumptions that led to no contradiction, kept across the states of one run so
    that the next scan need not propagate them again.

    An assumption's propagation ``P`` (a fixpoint of the net's implications: singles,
    the removals of a true candidate, no contradiction) stays quiet after the grid loses
    candidates as long as ``P`` without them is still a fixpoint: no cell of ``P`` is left
    with one candidate (or none) that is not set true, and no house keeps one place (or
    none) for a digit it lost there that is not set true. Then every implication from the
    assumption on the new grid lands inside ``P``, whose facts hold together, so the new
    propagation would reach the same quiet end: it is skipped. Only the cells changed since
    an assumption was last checked are looked at (a bitset per scan). Any other change
    (candidates back, another working state) starts afresh. Used only by nets without
    other rules; with locked candidates (option ``intersections``) the check also asks
    that no house which lost places of a digit now has them all inside another house
    holding the digit elsewhere (the only locked-candidate implications the lost
    candidates can start). The scan's order, hence the step found, is the same as without
    it.

    >>> from variants.classic import classic_puzzle
    >>> from techniques import StepSolver
    >>> p = classic_puzzle("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.")
    >>> r = StepSolver(["singles", "forcing_net_contradiction"]).solve(p)
    >>> r.status, r.state.values() == p.solve().solution
    ('solved', True)
    """

    __slots__ = ("ref", "snap", "masks", "entries", "_since")

    def __init__(self, state) -> None:
        self.ref = weakref.ref(state)
        self.snap: list[int] = []
        #: masks[i]: the cells whose candidates changed between scans i and i + 1
        self.masks: list[int] = []
        #: fact -> [scan, candidates per cell, cells per digit, cells set true] of ``P``
        self.entries: dict[int, list] = {}
        self._since: dict[int, int] = {}

    def start(self, cand: list[int]) -> None:
        changed = 0
        for c, (a, b) in enumerate(zip(cand, self.snap)):
            if a != b:
                changed |= 1 << c
        if changed:
            self.masks.append(changed)
            self._since = {}
        self.snap = list(cand)

    def keep(self, f: int, ps: _PState) -> None:
        self.entries[f] = [len(self.masks), ps.cand[:], ps.cw[:], ps.on]

    def _changed_since(self, scan: int) -> int:
        m = self._since.get(scan)
        if m is None:
            m = 0
            for x in self.masks[scan:]:
                m |= x
            self._since[scan] = m
        return m

    def still_quiet(self, st: _Static, f: int, inter: bool = False) -> bool:
        """True when the kept propagation of ``f`` is still a quiet fixpoint on the
        current grid (brought up to date in place); False when ``f`` must be propagated
        again (the entry is dropped). ``inter``: the propagation included locked
        candidates, so a house that lost places of a digit must not now have them all
        inside another house that has the digit elsewhere."""
        e = self.entries.get(f)
        if e is None:
            return False
        now = len(self.masks)
        if e[0] == now:
            return True
        cells = self._changed_since(e[0])
        kc, kcw, kon = e[1], e[2], e[3]
        acand = st.cand
        scand = st.an.state.cand
        lost: list[tuple[int, int]] = []
        for c in iter_cells(cells):
            old = kc[c]
            new = acand[c]
            rem = old & ~new
            if not rem:
                continue
            if new:
                m = old & new
                if not m & (m - 1):      # a new single, or no candidate left
                    del self.entries[f]
                    return False
            else:                        # placed since: P must allow its digit
                pd = scand[c]
                if not old & pd:
                    del self.entries[f]
                    return False
                kon &= ~(1 << c)
            kc[c] = old & new
            for x in digits_of(rem):
                kcw[x] &= ~(1 << c)
            lost.append((c, rem))
        hm, done, cell_full = st.house_mask, st.house_done, st.cell_full
        for c, rem in lost:
            for h in cell_full[c]:
                m = rem & ~done[h]
                while m:
                    low = m & -m
                    m ^= low
                    d = low.bit_length() - 1
                    p = hm[h] & kcw[d]
                    if not p & (p - 1):
                        if not (p and kon & p):
                            del self.entries[f]
                            return False
                    elif inter and any(not p & ~hm[g] and hm[g] & kcw[d] & ~hm[h]
                                       for g in st.overlaps[h]):
                        del self.entries[f]
                        return False
        e[0], e[3] = now, kon
        return True


def _kept(an: Analysis, inter: bool = False) -> _Kept:
    """The run's kept quiet net assumptions (see :class:`_Kept`), brought to this state
    (``inter``: those of the nets with locked candidates, kept apart)."""
    memo = an.run_memo.setdefault("forcing_kept", {})
    key = ("net", inter)
    k = memo.get(key)
    cand = an.cand
    if k is None or k.ref() is not an.state or any(
            m & ~s for m, s in zip(cand, k.snap)):
        k = memo[key] = _Kept(an.state)
    k.start(cand)
    return k


def _ruled(st: _Static) -> bool:
    """True when the puzzle has rules besides its houses (the scan hint is used there)."""
    return st.rule_engine is not None or bool(st.binary)


def _untried_first(facts: list[int], quiet: set[int]) -> list[int]:
    """``facts`` in their order, those in ``quiet`` moved to the end.

    >>> _untried_first([1, 2, 3, 4], {1, 3})
    [2, 4, 1, 3]
    """
    if not quiet:
        return facts
    return [f for f in facts if f not in quiet] + [f for f in facts if f in quiet]
