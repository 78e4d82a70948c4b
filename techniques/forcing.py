"""Last resort: forcing chains and forcing nets (contradiction and verity), and nested
forcing nets, so that a logic-only solve finishes every valid puzzle without guessing.

An *assumption* (a candidate set true or false) is propagated with implications that are
generic over the model: a true candidate removes every candidate weakly linked to it (its
cell, its houses, binary constraints such as anti-knight or a<b), and a removed candidate
makes another one true through

* **chains** (HoDoKu's Forcing Chains): only the strong links of the current grid -- the
  other candidate of a bivalue cell, the other place of a bilocal digit in a full house --
  so every derived fact rests on exactly one earlier fact;
* **nets** (Forcing Nets): any naked or hidden single, which may rest on several earlier
  facts; puzzles with other rules (sums, lines ...) also run those rules' propagators.
  Option ``intersections`` (on from 25x25, :data:`techniques.ladder.SIZED`) adds locked
  candidates: the places of a digit left in a full house all in another house remove it
  from the rest of that house.

Deductions:

* *contradiction*: assuming a candidate true (or false) leads to a contradiction (a
  candidate both true and false, a cell without candidates, a house without a place for a
  digit), so it is false (or true);
* *verity*: every candidate of a cell, every place of a digit in a house, or a candidate
  being true and being false, all imply the same fact, so it holds;
* *nested nets* (``forcing_net_nested``, not a HoDoKu technique): inside an assumption, the
  net contradictions of the next depth are applied until the assumption itself breaks
  (trial and error of depth 2, then 3). Every known valid puzzle falls at depth 2.

Propagation is on int bitmasks: candidate masks per cell and a cell bitset per digit.

>>> from variants.classic import classic_puzzle
>>> from techniques import StepSolver
>>> p = classic_puzzle("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.")
>>> r = StepSolver(["singles", "forcing"]).solve(p)
>>> r.status, r.state.values() == p.solve().solution
('solved', True)
"""
from __future__ import annotations

import weakref
from typing import Callable, Iterator, Sequence

from csp.bits import digits_of, union_of
from csp.budget import Budget
from csp.events import Contradiction
from csp.step import Candidate, Link, Namer, Step, cell_name, digit_symbol

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

# A fact is an int: ((cell << 5 | digit) << 1) | on.  on=1: the candidate is true.
_DSHIFT = 5


def _fact(cell: int, digit: int, on: bool) -> int:
    return ((cell << _DSHIFT | digit) << 1) | (1 if on else 0)


def _cell(f: int) -> int:
    return f >> (_DSHIFT + 1)


def _digit(f: int) -> int:
    return (f >> 1) & ((1 << _DSHIFT) - 1)


def fact_text(f: int, width: "int | Namer" = 9) -> str:
    """``r1c2=5`` (true) or ``r1c2<>5`` (false).

    >>> fact_text(_fact(10, 5, True)), fact_text(_fact(0, 3, False))
    ('r2c2=5', 'r1c1<>3')
    >>> fact_text(_fact(17, 12, True), 16)
    'r2c2=C'

    """
    return f"{cell_name(_cell(f), width)}{'=' if f & 1 else '<>'}{digit_symbol(_digit(f))}"


class _Static:
    """Per-analysis data for propagation."""

    def __init__(self, an: Analysis) -> None:
        self.an = an
        self.n = n = an.n
        self.size = an.size
        self.width = an.grid.namer
        links = an.links
        self.peers_d = links.peers_d
        self.house_mask = hm = an.house_mask
        self.full = list(an.full)
        #: per cell, its full houses (in the order of ``full``) and their cells marked
        #: with two bits of their own past the grid (see ``sentinel``)
        self.cell_full, self.cell_masks = an.links_memo("forcing_cells", lambda: _cell_houses(an))
        #: every cell is in three full houses (row, column, box: the checks are unrolled)
        self.three = all(len(x) == 3 for x in self.cell_masks)
        state = an.state
        self.cand = list(an.cand)
        self.placed_cells = [c for c in range(an.size) if not an.cand[c]]
        done = dict.fromkeys(self.full, 0)
        for c in self.placed_cells:
            for h in self.cell_full[c]:
                done[h] |= state.cand[c]
        self.house_done = done
        self.cw = cw = list(an.cells_with)
        self.unsolved = an.unsolved
        # rule propagators of non-house constraints (sums, lines ...), used by nets
        from .rules import _rule_engine
        self.rule_engine = _rule_engine(an.puzzle)
        self.rule_scope: dict[str, set[int]] = {}
        #: per cell, its binary relations (XV, ratio, negative constraints, a<b ...) as
        #: (other cell, supports in it: per digit or per mask, relation name); nets keep
        #: them arc consistent in their own loop, the rule engine runs the others
        self.binary: list[tuple[tuple[int, tuple[int, ...], bool, str], ...]] = []
        if self.rule_engine is not None:
            self.rule_scope = an.puzzle.derived(_rule_scopes)
            #: rule name -> every fact (true or false) on the cells of its scope
            self.rule_facts = an.puzzle.derived(_rule_facts)
            self.binary, self.rule_engine = an.puzzle.derived(_split_binary)
        #: the cells some rule of ``rule_engine`` reads (watches)
        self.rule_cells: frozenset[int] = an.puzzle.derived(_rule_cells)
        self.full_cand = [state.cand[c] if state.placed[c] else an.cand[c]
                          for c in range(an.size)]
        self._overlaps: dict[int, tuple[int, ...]] | None = None
        # tables of the propagation's inner loop
        #: per digit d, the marker bits of the houses where d is placed: a false fact
        #: (c, d) checks each house of c for places of d left with ``cw[d] | sentinel[d]``,
        #: so a house where d is placed (where no cell has d) has two "places" and is
        #: passed over, with one mask test per house
        sentinel = [0] * (n + 1)
        #: a chain's strong links by candidate index c << 5 | d: None for most; else
        #: (the other digit of c when c is bivalue, else 0; when some house of c has two
        #: places of d, c's houses as (marked cells, the other place or -1), else None)
        chain: list[tuple[int, tuple[tuple[int, int], ...] | None] | None] = \
            [None] * (an.size << _DSHIFT)
        #: the candidate indices c << 5 | d where some full house of c has two places of
        #: d (see ``chain_from_off``)
        self.bilocal: set[int] = set()
        size = an.size
        for i, h in enumerate(self.full):
            dn, hmh = done[h], hm[h]
            for d in range(1, n + 1):
                pl = hmh & cw[d]
                if pl.bit_count() == 2:
                    self.bilocal.update(c << _DSHIFT | d for c in iter_cells(pl))
                if dn >> d & 1:
                    sentinel[d] |= 3 << (size + 2 * i)
                elif pl.bit_count() == 2:
                    for c in iter_cells(pl):
                        k = c << _DSHIFT | d
                        if chain[k] is None:
                            chain[k] = (0, tuple((m, -1) for m in self.cell_masks[c]))
                        j = self.cell_full[c].index(h)
                        t = chain[k][1]
                        chain[k] = (0, t[:j] + ((t[j][0], (pl & ~(1 << c)).bit_length() - 1),)
                                    + t[j + 1:])
        for c in iter_cells(an.unsolved):
            m = an.cand[c]
            if m.bit_count() == 2:
                for d in digits_of(m):
                    k = c << _DSHIFT | d
                    chain[k] = ((m & ~(1 << d)).bit_length() - 1,
                                None if chain[k] is None else chain[k][1])
        self.sentinel, self.chain = sentinel, chain
        cross = an.links_memo("forcing_cross", lambda: {
            c << _DSHIFT | d: v for (c, d), v in links.cross.items()})
        #: the links' cross-digit weak links by candidate index (None when there are
        #: none), without those to candidates gone before this analysis (the propagation
        #: checks that the other end is still there: it never is for these)
        live = {}
        for k, t in cross.items():
            if self.cand[k >> _DSHIFT] >> (k & 31) & 1:
                t = tuple(x for x in t if self.cand[x[0]] >> x[1] & 1)
                if t:
                    live[k] = t
        self.cross_k = live or None
        #: ``binary`` without the relations whose other cell was placed before
        self.binary_live = [tuple(r for r in rels if self.cand[r[0]]) for rels in self.binary]
        #: per cell, the most of its digits one digit of a related cell excludes: with
        #: more candidates left it supports every digit of the cells it is related to
        self.binary_t = an.puzzle.derived(_binary_limits) if self.binary else []

    @property
    def overlaps(self) -> dict[int, tuple[int, ...]]:
        """full house -> the other full houses it shares two or more cells with (the
        intersections a net's locked candidates look at), built on first use."""
        if self._overlaps is None:
            hm = self.house_mask
            self._overlaps = {h: tuple(g for g in self.full
                                       if g != h and (hm[h] & hm[g]).bit_count() > 1)
                              for h in self.full}
        return self._overlaps

    def is_bilocal(self, h: int, d: int) -> bool:
        p = self.house_mask[h] & self.cw[d]
        return p.bit_count() == 2

    def chain_from_off(self, c: int, d: int) -> bool:
        """Whether a chain goes on from c<>d: c is bivalue, or d has two places in a
        house of c. Else the chain is c<>d alone (or a house left without d)."""
        return self.cand[c].bit_count() <= 2 or c << _DSHIFT | d in self.bilocal


def _cell_houses(an: Analysis) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """(per cell: its full houses in the order of ``an.full``; per cell: those houses'
    cells, each with the two marker bits of its house, ``3 << (size + 2 * i)`` for the
    i-th full house)."""
    cf: list[list[int]] = [[] for _ in range(an.size)]
    cm: list[list[int]] = [[] for _ in range(an.size)]
    for i, h in enumerate(an.full):
        for c in iter_cells(an.house_mask[h]):
            cf[c].append(h)
            cm[c].append(an.house_mask[h] | 3 << (an.size + 2 * i))
    return [tuple(x) for x in cf], [tuple(x) for x in cm]


def _rule_scopes(puzzle) -> dict[str, set[int]]:
    """Rule name -> the cells of the puzzle's propagators of that name (non-house rules)."""
    from .rules import _rule_engine
    out: dict[str, set[int]] = {}
    for p in _rule_engine(puzzle).props:
        out.setdefault(p.name, set()).update(p.scope)
    return out


def _rule_facts(puzzle) -> dict[str, frozenset[int]]:
    """Rule name -> every fact on the cells of its scope (``_rule_scopes``)."""
    n = puzzle.grid.n
    return {name: frozenset(_fact(c, d, on) for c in cells for d in range(1, n + 1)
                            for on in (False, True))
            for name, cells in puzzle.derived(_rule_scopes).items()}


def _rule_cells(puzzle) -> frozenset[int]:
    """The cells the rule engine of a net (``_split_binary``) watches: a change elsewhere
    wakes none of its rules."""
    eng = puzzle.derived(_split_binary)[1]
    return frozenset() if eng is None else frozenset(c for c, w in enumerate(eng.watch) if w)


def _binary_limits(puzzle) -> list[int]:
    """Per cell c, the most digits of c that one digit of a cell related to c by a binary
    relation excludes (see ``_Static.binary``). A digit x of the other cell keeps a support
    while c has a digit x goes with, so the removal of a digit of c can cost it its last
    support only once c is down to that many digits or fewer."""
    per, _ = puzzle.derived(_split_binary)
    n = puzzle.grid.n
    out = []
    for rels in per:
        worst = 0
        for _, sup, by_mask, _ in rels:
            for x in range(1, n + 1):
                k = sum(1 for v in range(1, n + 1)
                        if not (sup[1 << v] if by_mask else sup[v]) >> x & 1)
                worst = max(worst, k)
        out.append(worst)
    return out


def _split_binary(puzzle) -> tuple[list, "Engine | None"]:
    """(per cell: its binary relations, see ``_Static.binary``; an engine of the puzzle's
    other rules, None when there are none). Empty lists when no rule is binary."""
    from csp.constraints.binary import BinaryTable
    from csp.engine import Engine
    from .rules import _rule_engine
    eng = _rule_engine(puzzle)
    if eng is None:
        return [], None
    bins = [p for p in eng.props if type(p) is BinaryTable]
    if not bins:
        return [], eng
    per: list[list] = [[] for _ in range(puzzle.grid.size)]
    for p in bins:
        if p.uni_a is not None:
            per[p.a].append((p.b, p.uni_a, True, p.name))
            per[p.b].append((p.a, p.uni_b, True, p.name))
        else:
            per[p.a].append((p.b, p.sup_a, False, p.name))
            per[p.b].append((p.a, p.sup_b, False, p.name))
    rest = [p for p in eng.props if type(p) is not BinaryTable]
    return ([tuple(x) for x in per],
            Engine(puzzle.grid.n, puzzle.grid.size, [], rest) if rest else None)


class _PState:
    """A propagation state: candidate masks, cells per digit, cells set true, derivations."""

    __slots__ = ("cand", "cw", "on", "parents", "contra", "_order", "ruled")

    def __init__(self, cand: list[int], cw: list[int], on: int, parents: dict,
                 ruled: list[int] | None = None) -> None:
        self.cand = cand
        self.cw = cw
        self.on = on
        #: fact -> premises (a tuple of facts, or a str label for a rule / a nested step)
        self.parents = parents
        #: None, or (text, conflicting facts)
        self.contra: tuple[str, tuple[int, ...]] | None = None
        self._order: dict[int, int] | None = None
        #: candidates as of the last run of the rule engine (None: the analysis' own), so
        #: the next run wakes only the rules on cells changed since
        self.ruled = ruled

    def order(self) -> dict[int, int]:
        """Derivation index of every fact (computed once the state is final)."""
        if self._order is None or len(self._order) != len(self.parents):
            self._order = {g: i for i, g in enumerate(self.parents)}
        return self._order

    def copy(self) -> "_PState":
        return _PState(self.cand[:], self.cw[:], self.on, dict(self.parents),
                       None if self.ruled is None else self.ruled[:])

    def holds(self, f: int) -> bool:
        c, d = _cell(f), _digit(f)
        if f & 1:
            return bool(self.on >> c & 1) and self.cand[c] == 1 << d
        return not self.cand[c] >> d & 1


class _Stop(Exception):
    pass


def _propagate(st: _Static, ps: _PState, facts: Sequence[tuple[int, tuple | str]],
               net: bool, inter: bool = False) -> _PState:
    """Add ``facts`` (fact, premises) to ``ps`` (in place) and propagate to fixpoint.
    Sets ``ps.contra`` on a contradiction. ``inter`` (nets only): locked candidates are
    implications too (see :func:`_locked`).

    Facts are handled in the order they are derived (a FIFO queue), each derived once,
    with the first premises found: the explanations read the derivation in that order.
    The removals of a true candidate's peers, the bulk of the work, are ``set_off``
    written out inline."""
    cand, cw, parents = ps.cand, ps.cw, ps.parents
    base = st.cand
    peers_d, cross = st.peers_d, st.cross_k
    cell_masks, sentinel, chain, three = st.cell_masks, st.sentinel, st.chain, st.three
    house_mask, base_cw = st.house_mask, st.cw
    binary = st.binary_live if net and st.binary else None
    binary_t = st.binary_t
    queue: list[int] = []
    append = queue.append

    def contra(text: str, fs: tuple[int, ...]) -> None:
        ps.contra = (text, fs)
        raise _Stop

    def no_place(c: int, d: int, hmask: int) -> None:
        # the house of c with (marked) cells hmask has no place left for d
        h = st.cell_full[c][cell_masks[c].index(hmask)]
        contra(f"{st.an.houses[h].name} has no place for {digit_symbol(d)}",
               tuple(_fact(x, d, False) for x in iter_cells(house_mask[h] & base_cw[d])))

    def set_on(c: int, d: int, prem) -> None:
        f = ((c << _DSHIFT | d) << 1) | 1
        if ps.on >> c & 1:
            if cand[c] == 1 << d:
                return
            other = cand[c].bit_length() - 1 if cand[c] else 0
            parents[f] = prem
            contra(f"{_name(st, c)} would hold two digits",
                   (_fact(c, other, True), f))
        if not cand[c] >> d & 1:
            parents[f] = prem
            contra(f"{_name(st, c)}={digit_symbol(d)} is both true and false", (f, f ^ 1))
        ps.on |= 1 << c
        parents[f] = prem
        append(f)
        m = cand[c] & ~(1 << d)
        if m:
            # set_off(c, e, (f,)) for the other digits e: c keeps d, so none empties it
            own = (f,)
            cand[c] = 1 << d
            bit = 1 << c
            g = c << (_DSHIFT + 1)
            while m:
                low = m & -m
                m ^= low
                e = low.bit_length() - 1
                parents[g | e << 1] = own
                cw[e] &= ~bit
                append(g | e << 1)

    def set_off(c: int, d: int, prem) -> None:
        m = cand[c]
        if not m >> d & 1:
            return
        f = (c << _DSHIFT | d) << 1
        parents[f] = prem
        if ps.on >> c & 1 and m == 1 << d:
            contra(f"{_name(st, c)}={digit_symbol(d)} is both true and false", (f | 1, f))
        m &= ~(1 << d)
        cand[c] = m
        cw[d] &= ~(1 << c)
        if not m:
            contra(f"{_name(st, c)} has no candidate left",
                   tuple(_fact(c, e, False) for e in digits_of(base[c])))
        append(f)

    # nets with rules: the cells changed since the rules last ran (``ps.ruled``) are those
    # of the false facts derived since, from queue[fresh:] on (known: when the candidates
    # were the rules' fixpoint at the start, as they are after a propagation that ended
    # without a contradiction)
    ruled: set[int] | None = None
    known, fresh = True, 0
    if net and st.rule_engine is not None:
        ruled = set()
        known = ps.cand == (st.cand if ps.ruled is None else ps.ruled)
    try:
        for f, prem in facts:
            if f & 1:
                set_on(_cell(f), _digit(f), prem)
            else:
                set_off(_cell(f), _digit(f), prem)
        while True:
            # (a for loop over a list sees the items appended to it while it runs)
            for f in queue:
                k = f >> 1                 # candidate index c << 5 | d
                c = k >> _DSHIFT
                d = k & 31
                if f & 1:
                    prem = (f,)
                    cwd = cw[d]
                    p = peers_d[d][c] & cwd
                    if p:
                        # set_off(x, d, prem) for each peer x left with d: x holds d
                        # (cw[d] says so, and this loop changes only d of other peers)
                        bit = 1 << d
                        dd = d << 1
                        while p:
                            low = p & -p
                            p ^= low
                            x = low.bit_length() - 1
                            g = x << (_DSHIFT + 1) | dd
                            parents[g] = prem
                            m = cand[x]
                            if m == bit and ps.on >> x & 1:
                                cw[d] = cwd
                                contra(f"{_name(st, x)}={digit_symbol(d)} is both true and "
                                       "false", (g | 1, g))
                            m ^= bit
                            cand[x] = m
                            cwd ^= low
                            if not m:
                                cw[d] = cwd
                                contra(f"{_name(st, x)} has no candidate left",
                                       tuple(_fact(x, e, False) for e in digits_of(base[x])))
                            append(g)
                        cw[d] = cwd
                    if cross is not None:
                        for c2, d2 in cross.get(k, ()):
                            if cand[c2] >> d2 & 1:
                                set_off(c2, d2, prem)
                    continue
                if not net:
                    # a chain: the other digit of a bivalue cell, the other place of a
                    # bilocal digit; a house left without a place for d
                    sp = chain[k]
                    if sp is None:      # no strong link: only the houses' places
                        cwd = cw[d] | sentinel[d]
                        hs = cell_masks[c]
                        if three:
                            h1, h2, h3 = hs
                            if h1 & cwd and h2 & cwd and h3 & cwd:
                                continue
                        for hmask in hs:
                            if not hmask & cwd:
                                no_place(c, d, hmask)
                        continue
                    e, bl = sp
                    if e and not ps.on >> c & 1:
                        set_on(c, e, (f,))
                    cwd = cw[d] | sentinel[d]   # (set_on(c2, d) keeps d in the others)
                    if bl is None:
                        for hmask in cell_masks[c]:
                            if not hmask & cwd:
                                no_place(c, d, hmask)
                    else:
                        for hmask, c2 in bl:
                            if not hmask & cwd:
                                no_place(c, d, hmask)
                            if c2 >= 0 and not ps.on >> c2 & 1:
                                set_on(c2, d, (f,))
                    continue
                # a false candidate: binary relations lose the digits it supported alone
                if binary is not None and binary[c] and cand[c].bit_count() <= binary_t[c]:
                    m = cand[c]
                    for o, sup, by_mask, rname in binary[c]:
                        keep = sup[m] if by_mask else union_of(sup, m)
                        drop = cand[o] & ~keep
                        if drop:
                            prem = (rname,) + tuple(_fact(c, x, False)
                                                    for x in digits_of(base[c] & ~m))
                            for x in digits_of(drop):
                                set_off(o, x, prem)
                # a false candidate: singles
                m = cand[c]
                if not m & (m - 1) and not ps.on >> c & 1:
                    e = m.bit_length() - 1
                    g0 = c << (_DSHIFT + 1)         # the false facts of c's other digits
                    set_on(c, e, tuple(g for g in (g0 | x << 1 for x in digits_of(base[c])
                                                   if x != e) if g in parents))
                cwd = cw[d] | sentinel[d]      # (the set_on below keep d in the others)
                on = ps.on
                for hmask in cell_masks[c]:
                    p = hmask & cwd
                    # no place left, or one in a cell not yet set true (a place set true
                    # is the common case: the house of the true fact that removed d here)
                    if not p & (p - 1) and not p & on:
                        if not p:
                            no_place(c, d, hmask)
                        dd = d << 1
                        set_on(p.bit_length() - 1, d, tuple(
                            x << (_DSHIFT + 1) | dd for x in iter_cells(hmask & base_cw[d] & ~p)))
                        on = ps.on
            if net and inter:
                k = len(queue)
                _locked(st, ps, queue, set_off)
                if len(queue) > k:
                    if ruled is not None:
                        ruled |= {f >> (_DSHIFT + 1) for f in queue[fresh:k] if not f & 1}
                    del queue[:k]
                    fresh = 0
                    continue
            if ruled is None:
                queue.clear()
                break
            ruled |= {f >> (_DSHIFT + 1) for f in queue[fresh:] if not f & 1}
            queue.clear()
            if not _rules(st, ps, set_off, sorted(ruled) if known else None):
                break
            ruled.clear()
            known = True
            fresh = len(queue)     # the rules' own removals: ps.ruled has them
    except _Stop:
        pass
    return ps


_LOCKED = "locked candidates"


def _locked(st: _Static, ps: _PState, queue: list[int], set_off) -> None:
    """Locked candidates inside a net: when every place left for digit d in a full house h
    lies in another full house g, d is false in the rest of g (d is in h once, so in h & g,
    and g holds d once). Looks at the houses whose d lost a place among the facts of
    ``queue`` (new facts are appended to it). A removal rests on the removals of d from
    h outside g."""
    cw, base_cw = ps.cw, st.cw
    hm, done, over, cell_full = st.house_mask, st.house_done, st.overlaps, st.cell_full
    dirty = set()
    for f in queue:
        if not f & 1:
            d = (f >> 1) & 31
            for h in cell_full[f >> (_DSHIFT + 1)]:
                dirty.add((h, d))
    for h, d in dirty:
        if done[h] >> d & 1:
            continue
        p = hm[h] & cw[d]
        if not p & (p - 1):
            continue    # no place or one: the singles see to it
        for g in over[h]:
            if p & ~hm[g]:
                continue
            out = hm[g] & cw[d] & ~hm[h]
            if out:
                prem = (_LOCKED,) + tuple(_fact(x, d, False)
                                          for x in iter_cells(hm[h] & base_cw[d] & ~hm[g]))
                for x in iter_cells(out):
                    set_off(x, d, prem)


def _name(st: _Static, c: int) -> str:
    return st.an.grid.name(c)


def _rules(st: _Static, ps: _PState, set_off, changed: list[int] | None = None) -> bool:
    """Run the puzzle's non-house rules on the propagation state. A removal becomes a fact
    whose premises are the rule's name and the facts derived on the rule's other cells.
    ``changed``: the cells whose candidates changed since the rules last ran (``ps.ruled``,
    else the analysis' candidates), ascending; None: compare them all.
    Returns True when something changed."""
    if changed is None:
        last = st.cand if ps.ruled is None else ps.ruled
        changed = [c for c, a, b in zip(range(st.size), ps.cand, last) if a != b]
    # the rule engine was at its fixpoint on ``last``: wake only the rules on cells changed
    # (placed cells are 0 in both)
    if not changed:
        return False
    if st.rule_cells.isdisjoint(changed):
        # no rule reads these cells: the engine would wake none (it has no houses)
        ps.ruled = ps.cand[:]
        return False
    cand = ps.cand[:]
    for c in st.placed_cells:
        cand[c] = st.full_cand[c]
    before = cand[:]
    names: dict[int, str] = {}

    def trace(cell: int, mask: int, reason) -> None:
        name = reason[0] if isinstance(reason, tuple) else str(reason)
        names.setdefault(cell, name)

    def on_cells(cells) -> tuple[int, ...]:
        return tuple(f for f in ps.parents if f >> (_DSHIFT + 1) in cells)   # _cell(f)

    try:
        st.rule_engine.propagate(cand, changed, trace)
    except Contradiction as e:
        name = e.constraint or "rule"
        cells = set(e.cells) or st.rule_scope.get(name, set())
        ps.contra = (f"{name}: {e}" if name not in str(e) else str(e), on_cells(cells))
        raise _Stop
    any_change = False
    # the facts on a rule's cells, found once per rule (not once per cell: the derivation
    # can hold thousands of facts), plus the removals made below in order, so each premise
    # is the facts on the rule's other cells at the time, as before
    on_scope: dict[str, tuple[int, ...]] = {}
    added: list[int] = []
    # the cells the rules changed, ascending: every removal goes through Context.remove,
    # which traces it
    for c in sorted(names):
        b0, b1 = before[c], cand[c]
        if b0 == b1 or not st.cand[c]:
            continue
        gone = b0 & ~b1
        name = names.get(c, "rule")
        scope = st.rule_scope.get(name, set())
        base = on_scope.get(name)
        if base is None:
            # the facts on the rule's cells, in derivation order (filtered in C)
            base = on_scope[name] = tuple(filter(
                st.rule_facts.get(name, frozenset()).__contains__, ps.parents))
        prem = (name,) + tuple(f for f in base if f >> (_DSHIFT + 1) != c) + tuple(
            f for f in added if _cell(f) != c and _cell(f) in scope)
        for d in digits_of(gone):
            if ps.cand[c] >> d & 1:
                set_off(c, d, prem)
                added.append((c << _DSHIFT | d) << 1)
            any_change = True
    ps.ruled = ps.cand[:]
    return any_change


def _base(st: _Static) -> _PState:
    return _PState(st.cand[:], st.cw[:], 0, {})


def _assume(st: _Static, f: int, net: bool, inter: bool = False) -> _PState:
    return _propagate(st, _base(st), [(f, ())], net, inter)


# -- explanation ---------------------------------------------------------------------------
def _path(ps: _PState, f: int, width: "int | Namer") -> list[tuple[int, tuple[int, ...] | str]]:
    """The derivation of ``f`` back to its assumption, as [(fact, other premises)], the
    assumption first. For nets the main line follows the latest-derived premise."""
    order = ps.order()
    out: list[tuple[int, tuple[int, ...] | str]] = []
    seen = set()
    while f in ps.parents and f not in seen:
        seen.add(f)
        prem = ps.parents[f]
        if isinstance(prem, str):
            out.append((f, prem))
            break
        label = ""
        if prem and isinstance(prem[0], str):     # (rule name, facts ...)
            label, prem = prem[0], prem[1:]
            if not prem:
                out.append((f, label))
                break
        if not prem:
            out.append((f, ()))
            break
        main = max(prem, key=lambda g: order.get(g, -1))
        rest = tuple(g for g in prem if g != main)
        out.append((f, (label,) + rest if label else rest))
        f = main
    out.reverse()
    return out


def path_text(ps: _PState, f: int, width: "int | Namer" = 9) -> str:
    parts = []
    for g, extra in _path(ps, f, width):
        t = fact_text(g, width)
        if isinstance(extra, str):
            t += f" [{extra}]"
        elif extra:
            if isinstance(extra[0], str):
                t += f" [{extra[0]}]"
                extra = extra[1:]
            if extra:
                t += "{" + ",".join(fact_text(x, width) for x in extra) + "}"
        parts.append(t)
    return " -> ".join(parts)


def _links(ps: _PState, f: int, width: "int | Namer") -> tuple[Link, ...]:
    p = [g for g, _ in _path(ps, f, width)]
    out = []
    for a, b in zip(p, p[1:]):
        out.append(Link((Candidate(_cell(a), _digit(a)),), (Candidate(_cell(b), _digit(b)),),
                        bool(b & 1)))
    return tuple(out)


def _contra_text(ps: _PState, width: "int | Namer") -> str:
    text, fs = ps.contra
    chains = [path_text(ps, g, width) for g in fs if g in ps.parents]
    return " | ".join(chains) + f" : {text}"


# -- finders ---------------------------------------------------------------------------------
def _static(an: Analysis) -> _Static:
    return an.memo("forcing_static", lambda: _Static(an))


def _results(an: Analysis, net: bool, inter: bool = False) -> dict[int, _PState]:
    return an.memo(("forcing_results", net, inter), dict)


def _result(an: Analysis, f: int, net: bool, inter: bool = False) -> _PState:
    return _resolver(an, net, inter)(f)


def _resolver(an: Analysis, net: bool, inter: bool = False) -> Callable[[int], _PState]:
    """``_result(an, ., net, inter)`` with the analysis' cache looked up once (a scan
    asks for thousands of results)."""
    cache = _results(an, net, inter)
    st = _static(an)

    def result(f: int) -> _PState:
        r = cache.get(f)
        if r is None:
            r = cache[f] = _assume(st, f, net, inter)
        return r

    return result


#: the options the plain chains and nets read (each technique declares its own part)
CONTRADICTION_OPTIONS = Options(
    shortest=Option(False, "order all steps by the size of their explanation (a full scan)",
                    bool))
VERITY_OPTIONS = CONTRADICTION_OPTIONS.with_(
    candidate_verity=Option(True, "also the true/false form of one candidate", bool),
    max_branches=Option(None, "skip cells / houses with more branches (None: n)", int))
_NET = Option(False, "the nets' propagation includes locked candidates", bool)
FORCING_OPTIONS = VERITY_OPTIONS.with_(intersections=_NET)
#: nested net: inner propagations per call (from the first version; bounds a call on
#: variants with costly rules, not measured)
NESTED_BUDGET = 100_000
#: nested net: CPU seconds per call (bounds a call, not measured)
NESTED_SECONDS = 30.0
NESTED_OPTIONS = Options(
    max_depth=Option(3, "nesting depth + 1 (inner forcing nets up to max_depth - 1 deep)", int),
    budget=Option(NESTED_BUDGET, "inner propagations per call", int),
    seconds=Option(NESTED_SECONDS, "CPU seconds per call (within the run's budget)", float),
    intersections=_NET,
    inner_max=Option(None, "inner assumptions only in cells with at most this many "
                           "candidates (None: any)", int))


def _inter(opts: dict, net: bool) -> bool:
    """Whether a net's propagation includes locked candidates (option ``intersections``)."""
    return net and bool(FORCING_OPTIONS.read(opts, "intersections"))


def _candidates(an: Analysis) -> list[tuple[int, int]]:
    """Unsolved candidates, cells with fewer candidates first (short chains first)."""
    cells = sorted(iter_cells(an.unsolved), key=lambda c: (an.cand[c].bit_count(), c))
    return [(c, d) for c in cells for d in digits_of(an.cand[c])]


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


def _size(ps: _PState, facts: Sequence[int]) -> int:
    """Size of an explanation: the distinct facts on the main lines to ``facts``."""
    seen: set[int] = set()
    for f in facts:
        seen.update(g for g, _ in _path(ps, f, 9))
    return len(seen)


def _complexity(ps: _PState, facts: Sequence[int]) -> dict:
    """Sudoku Explainer's complexity of a deduction (informative, in ``Step.extra``):
    ``nodes`` is the sum over ``facts`` of the number of distinct facts each one rests on
    (itself and its assumption included), ``digits`` the digits of those facts."""
    nodes = 0
    digits: set[int] = set()
    for f in facts:
        sup = _support(ps, [f])
        nodes += len(sup)
        digits.update(_digit(g) for g in sup)
    return {"nodes": nodes, "digits": sorted(digits)}


def _shortest(steps: Iterator[tuple[int, Step]], shortest: bool) -> Iterator[Step]:
    """``shortest``: every step, smallest explanation first; else in the order found."""
    if not shortest:
        for _, s in steps:
            yield s
        return
    found = list(steps)
    found.sort(key=lambda x: x[0])
    for _, s in found:
        yield s


def _contradictions(an: Analysis, opts: dict, net: bool, tech: str,
                    title: str) -> Iterator[Step]:
    return _shortest(_contradictions_sized(an, opts, net, tech, title),
                     bool(FORCING_OPTIONS.read(opts, "shortest")))


def _contradictions_sized(an: Analysis, opts: dict, net: bool, tech: str,
                          title: str) -> Iterator[tuple[int, Step]]:
    st = _static(an)
    w = st.width
    inter = _inter(opts, net)
    facts = [_fact(c, d, on) for c, d in _candidates(an) for on in (True, False)]
    quiet: set[int] = set()
    # (a full scan sorts its steps anyway; on grids without other rules the hint cost more
    # than it saved: top95 classic 7.6 -> 9.8 s, so they keep the plain order)
    if not FORCING_OPTIONS.read(opts, "shortest") and _ruled(st):
        quiet = _quiet(an, ("contradiction", net))
        facts = _untried_first(facts, quiet)
    kept = _kept(an, inter) if net and not _ruled(st) else None
    result = _resolver(an, net, inter)
    for f in facts:
        if an.expired():
            return
        c, d, on = _cell(f), _digit(f), bool(f & 1)
        if not on and not net and not st.chain_from_off(c, d):
            continue   # no strong link: a chain cannot start from c<>d
        if kept is not None and kept.still_quiet(st, f, inter):
            continue
        ps = result(f)
        if ps.contra is None:
            quiet.add(f)
            if kept is not None:
                kept.keep(f, ps)
            continue
        cand = (Candidate(c, d),)
        note = f"{fact_text(f, w)}: {_contra_text(ps, w)}"
        fs = ps.contra[1]
        links = _links(ps, fs[0], w) if fs and fs[0] in ps.parents else ()
        yield _size(ps, fs), Step(
            tech, eliminations=cand if on else (), placements=() if on else cand,
            pattern=cand, digits=(d,), links=links, title=title, note=note, width=w,
            extra=_complexity(ps, fs))


def _common(st: _Static, results: list[_PState]) -> tuple[list[int], list[int]]:
    """Facts derived in every result: (true facts, false facts), each ascending."""
    # dict key views intersect in C, walking the smaller side
    common = results[0].parents.keys() & results[-1].parents.keys()
    for r in results[1:-1]:
        if not common:
            break
        common = r.parents.keys() & common
    if not common:
        return [], []
    trues = sorted(f for f in common if f & 1)
    falses = sorted(f for f in common if not f & 1)
    if trues and falses:
        # drop eliminations in the placed cells or following from the placements
        ts = [(_cell(t), _digit(t)) for t in trues]
        falses = [f for f in falses
                  if not any(c == _cell(f) or st.an.sees(c, d, _cell(f), _digit(f))
                             for c, d in ts)]
    return trues, falses


def _verity_step(an: Analysis, tech: str, title: str, what: str, premises: list[int],
                 results: list[_PState]) -> tuple[int, Step] | None:
    st = _static(an)
    trues, falses = _common(st, results)
    if not trues and not falses:
        return None
    w = st.width
    key = trues[0] if trues else falses[0]
    chains = " | ".join(path_text(r, key, w) for r in results)
    more = len(trues) + len(falses) - 1
    note = f"{what}: {chains}" + (f" (and {more} more)" if more > 0 else "")
    pl = tuple(Candidate(_cell(f), _digit(f)) for f in trues)
    el = tuple(Candidate(_cell(f), _digit(f)) for f in falses)
    digits = tuple(sorted({x.digit for x in pl + el}))
    pattern = tuple(Candidate(_cell(f), _digit(f)) for f in premises)
    size = sum(_size(r, [key]) for r in results) - 10 * len(pl)
    info = [_complexity(r, [key]) for r in results]
    extra = {"nodes": sum(i["nodes"] for i in info),
             "digits": sorted({d for i in info for d in i["digits"]})}
    return size, Step(tech, placements=pl, eliminations=el, pattern=pattern, digits=digits,
                      links=_links(results[0], key, w), title=title, note=note, width=w,
                      extra=extra)


def _verities(an: Analysis, opts: dict, net: bool, tech: str, title: str) -> Iterator[Step]:
    return _shortest(_verities_sized(an, opts, net, tech, title),
                     bool(FORCING_OPTIONS.read(opts, "shortest")))


def _verities_sized(an: Analysis, opts: dict, net: bool, tech: str,
                    title: str) -> Iterator[tuple[int, Step]]:
    st = _static(an)
    w = st.width
    maxb = FORCING_OPTIONS.read(opts, "max_branches")
    maxb = an.n if maxb is None else int(maxb)
    inter = _inter(opts, net)
    result = _resolver(an, net, inter)
    # cells
    for c in sorted(iter_cells(an.unsolved), key=lambda c: (an.cand[c].bit_count(), c)):
        if an.expired():
            return
        ds = digits_of(an.cand[c])
        if len(ds) < 2 or len(ds) > maxb:
            continue
        facts = [_fact(c, d, True) for d in ds]
        rs = [result(f) for f in facts]
        if any(r.contra for r in rs):
            continue
        s = _verity_step(an, tech, title, f"cell {an.name(c)}", facts, rs)
        if s is not None:
            yield s
    # houses
    for h in st.full:
        if an.expired():
            return
        for d in range(1, an.n + 1):
            if st.house_done[h] >> d & 1:
                continue
            p = an.pos(h, d)
            k = p.bit_count()
            if k < 2 or k > maxb:
                continue
            facts = [_fact(x, d, True) for x in iter_cells(p)]
            rs = [result(f) for f in facts]
            if any(r.contra for r in rs):
                continue
            what = f"digit {digit_symbol(d)} in {an.houses[h].name}"
            s = _verity_step(an, tech, title, what, facts, rs)
            if s is not None:
                yield s
    # a candidate true and false
    if FORCING_OPTIONS.read(opts, "candidate_verity"):
        for c, d in _candidates(an):
            if an.expired():
                return
            f = _fact(c, d, True)
            if not net and an.cand[c].bit_count() == 2:
                continue   # the same as the cell's verity
            if not net and not st.chain_from_off(c, d):
                # c<>d derives nothing (or breaks a house), so nothing holds both ways
                continue
            rs = [result(f), result(f ^ 1)]
            if any(r.contra for r in rs):
                continue
            what = f"{an.name(c)}={digit_symbol(d)} or <>{digit_symbol(d)}"
            s = _verity_step(an, tech, title, what, [f], rs)
            if s is not None:
                yield s


@register("forcing_chain_contradiction", "Forcing Chain Contradiction", "forcing",
          code="1301", options=CONTRADICTION_OPTIONS)
def forcing_chain_contradiction(an: Analysis, opts: dict) -> Iterator[Step]:
    """Assuming a candidate true (false) leads along strong and weak links to a
    contradiction: it is false (true). Candidates of cells with few candidates are tried
    first; option ``shortest`` orders all steps by the size of their explanation."""
    return _contradictions(an, opts, False, "forcing_chain_contradiction",
                           "Forcing Chain Contradiction")


@register("forcing_chain_verity", "Forcing Chain Verity", "forcing", code="1302",
          options=VERITY_OPTIONS)
def forcing_chain_verity(an: Analysis, opts: dict) -> Iterator[Step]:
    """Every candidate of a cell (every place of a digit in a house, or a candidate true
    and false) leads along chains to the same fact: it holds.

    Options: ``max_branches`` (default n: cells / houses with more branches are skipped),
    ``candidate_verity`` (the true/false form), ``shortest`` (order the steps by the size of
    their explanation; costs a full scan, default off)."""
    return _verities(an, opts, False, "forcing_chain_verity", "Forcing Chain Verity")


@register("forcing_net_contradiction", "Forcing Net Contradiction", "forcing", code="1303",
          options=CONTRADICTION_OPTIONS.with_(intersections=_NET))
def forcing_net_contradiction(an: Analysis, opts: dict) -> Iterator[Step]:
    """Like the chain form, with naked and hidden singles resting on several facts (and
    with option ``intersections``, locked candidates: see the module docstring)."""
    return _contradictions(an, opts, True, "forcing_net_contradiction",
                           "Forcing Net Contradiction")


@register("forcing_net_verity", "Forcing Net Verity", "forcing", code="1304",
          options=FORCING_OPTIONS)
def forcing_net_verity(an: Analysis, opts: dict) -> Iterator[Step]:
    """Like the chain form, with naked and hidden singles resting on several facts."""
    return _verities(an, opts, True, "forcing_net_verity", "Forcing Net Verity")


# -- nested nets -------------------------------------------------------------------------
def _support(ps: _PState, facts: Sequence[int]) -> set[int]:
    """Every fact the derivation of ``facts`` rests on (themselves included)."""
    seen: set[int] = set()
    parents = ps.parents
    stack = [f for f in facts if f in parents]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        prem = parents.get(f)
        if prem.__class__ is tuple and prem:
            # premises are facts, after a label (a str: a rule's name) in first place
            stack.extend(prem[1:] if prem[0].__class__ is str else prem)
    return seen


_NESTED = "nested"


def _nested_used(ps: _PState, facts: Sequence[int]) -> set[int]:
    return {g for g in _support(ps, facts)
            if isinstance(ps.parents.get(g), str) and ps.parents[g].startswith(_NESTED)}


def _closure(st: _Static, ps: _PState, depth: int, log: list, budget: list[int],
             clock: Budget, inter: bool = False, inner_max: int = 32) -> _PState:
    """Apply net contradictions of depth ``depth`` inside ``ps`` until a fixpoint or a
    contradiction (in place). ``log`` collects (failed assumption, its contradiction text,
    the earlier nested facts that contradiction used). ``budget`` is [propagations left];
    ``clock`` the search's part of the run's budget (with its own CPU cap): either running
    out ends the search (the propagations left are set to 0).
    ``inner_max``: inner assumptions only in cells with at most that many candidates."""
    if depth <= 0:
        return ps
    progress = True
    while progress and ps.contra is None:
        progress = False
        for c in sorted(iter_cells(st.unsolved & ~ps.on),
                        key=lambda c: (ps.cand[c].bit_count(), c)):
            if ps.cand[c].bit_count() > inner_max:
                break
            for d in digits_of(ps.cand[c]):
                if ps.on >> c & 1 or not ps.cand[c] >> d & 1:
                    continue
                if budget[0] <= 0:
                    return ps
                budget[0] -= 1
                if clock.poll(8):       # the clocks, every 32 propagations
                    budget[0] = 0
                    return ps
                f = _fact(c, d, True)
                sub = _propagate(st, ps.copy(), [(f, ())], True, inter)
                if sub.contra is None and depth > 1:
                    _closure(st, sub, depth - 1, [], budget, clock, inter, inner_max)
                if sub.contra is not None:
                    # its complexity: the facts it derived itself (not those of ``ps``)
                    outer = ps.parents
                    own = sum(1 for g in _support(sub, sub.contra[1]) if g not in outer)
                    log.append((f, sub.contra[0], _nested_used(sub, sub.contra[1]), own))
                    _propagate(st, ps, [(f ^ 1, f"{_NESTED}: {fact_text(f, st.width)} fails")],
                               True, inter)
                    progress = True
                    if ps.contra is not None:
                        return ps
    return ps


def _used_log(ps: _PState, log: list) -> list:
    """The entries of a closure log that the final contradiction of ``ps`` needs."""
    used = _nested_used(ps, ps.contra[1]) if ps.contra else set()
    deps = {f ^ 1: d for f, _, d, _ in log}
    todo = list(used)
    while todo:
        g = todo.pop()
        for h in deps.get(g, ()):
            if h not in used:
                used.add(h)
                todo.append(h)
    return [e for e in log if e[0] ^ 1 in used]


@register("forcing_net_nested", "Nested Forcing Net", "forcing",
          options=NESTED_OPTIONS)
def forcing_net_nested(an: Analysis, opts: dict) -> Iterator[Step]:
    """Assuming a candidate and applying, inside that assumption, forcing-net
    contradictions (recursively up to ``max_depth``) leads to a contradiction: the
    candidate is false. ``budget`` caps the inner propagations per call and ``seconds`` its
    CPU time (within the run's own budget, ``an.budget``: one clock): on variants with costly rules
    an exhaustive nested net could otherwise run for many minutes. ``inner_max`` (None: any)
    makes inner assumptions only in cells with at most that many candidates (2 on 25x25:
    bivalue cells, whose failed branch places the other digit; the whole inner scan costs
    ~10x more there and found no step within 60 s on the grids where the bivalue form finds
    one in 1-2 s); ``intersections`` as for the plain nets. ``Step.extra`` holds the
    complexity in Sudoku Explainer's terms: ``nodes`` (the facts the final contradiction
    rests on), ``inner_nodes`` (per inner contradiction used, the facts it derived itself,
    not those of the assumption it is nested in) and their sum ``nested_nodes``."""
    st = _static(an)
    w = st.width
    # its own time cap is CPU time, so what it finds does not depend on the machine's load
    # (a wall-clock cap cut it short on a busy machine, before its propagation budget)
    clock = an.budget.narrowed(cpu_seconds=float(NESTED_OPTIONS.read(opts, "seconds")))
    budget = [int(NESTED_OPTIONS.read(opts, "budget"))]
    inter = _inter(opts, True)
    inner_max = int(NESTED_OPTIONS.read(opts, "inner_max") or 32)
    start = budget[0]
    for depth in range(1, int(NESTED_OPTIONS.read(opts, "max_depth"))):
        quiet = _quiet(an, ("nested", depth)) if _ruled(st) else set()
        for f in _untried_first([_fact(c, d, True) for c, d in _candidates(an)], quiet):
            if an.expired():   # (a closure with no inner assumption reads no clock)
                return
            c, d = _cell(f), _digit(f)
            ps = _result(an, f, True, inter).copy()
            if ps.contra is not None:
                continue   # a plain net contradiction, found by forcing_net_contradiction
            log: list = []
            _closure(st, ps, depth, log, budget, clock, inter, inner_max)
            if ps.contra is None and budget[0] > 0:
                quiet.add(f)
            if ps.contra is not None:
                used = _used_log(ps, log)
                inner = "; ".join(f"{fact_text(g, w)} fails ({t})" for g, t, _, _ in used)
                note = (f"{fact_text(f, w)}: inside, {inner}; then {_contra_text(ps, w)}")
                cand = (Candidate(c, d),)
                yield Step("forcing_net_nested", eliminations=cand, pattern=cand, digits=(d,),
                           title="Nested Forcing Net", note=note, width=w,
                           extra={"depth": depth + 1, "propagations": start - budget[0],
                                  "nodes": _complexity(ps, ps.contra[1])["nodes"],
                                  "nested_nodes": sum(e[3] for e in used),
                                  "inner_nodes": sorted(e[3] for e in used)})
            if budget[0] <= 0:
                an.timed_out = True    # gave up: the solver reports 'limit', not 'stuck'
                return
