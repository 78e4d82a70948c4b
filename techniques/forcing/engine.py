"""The propagation a forcing chain or net runs: facts (a candidate true or false) as
ints, the per-analysis tables (:class:`_Static`), a propagation state (:class:`_PState`),
the propagation itself (strong links for chains; singles, the puzzle's other rules and,
with ``inter``, locked candidates for nets) and the analysis' cache of assumptions
propagated. See :mod:`techniques.forcing`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from csp.bits import digits_of, union_of
from csp.events import Contradiction
from csp.kernel import active
from csp.step import Namer, cell_name, digit_symbol

from ..analysis import Analysis, iter_cells
from ..rules import rule_engine

try:
    from .. import _forcing_kernel
except ImportError:  # not built (no C compiler): the pure-Python path
    _forcing_kernel = None

if TYPE_CHECKING:
    from csp.engine import Engine

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
    if width.__class__ is int:
        # (kept per width: the notes of a rating's scans name the same facts again and
        # again; a grid's namer object is not cached)
        texts = _TEXTS.get(width)
        if texts is None:
            texts = _TEXTS[width] = {}
        t = texts.get(f)
        if t is None:
            t = texts[f] = (f"{cell_name(_cell(f), width)}{'=' if f & 1 else '<>'}"
                            f"{digit_symbol(_digit(f))}")
        return t
    return f"{cell_name(_cell(f), width)}{'=' if f & 1 else '<>'}{digit_symbol(_digit(f))}"


#: fact_text's texts per plain width (facts of at most 2 * 32 * cells of that width's grid)
_TEXTS: dict[int, dict[int, str]] = {}


class _Static:
    """Per-analysis data for propagation."""

    def __init__(self, an: Analysis) -> None:
        self.an = an
        self.n = n = an.n
        self.size = an.size
        self.namer = an.grid.namer
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
        self.rule_engine = rule_engine(an.puzzle)
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
        self._kernel: object = None

    def kernel(self):
        """The compiled propagation's tables of this analysis (``techniques/_forcing_kernel.c``),
        built on first use; None when the kernel is not built or switched off
        (``csp/kernel.py``), or the grid is not one it handles: more than 128 cells or 30
        digits (then :func:`_propagate` runs in Python, the reference:
        ``tests/techniques/test_forcing_kernel.py``). The kernel takes the cross-digit links
        and the binary relations; a net's other rules run in Python between its calls
        (:func:`_propagate_compiled`)."""
        kernel = active(_forcing_kernel)
        if kernel is None or self.size > 128 or self.n > 30:
            return None
        if self._kernel is None:
            links = self.an.links_memo("forcing_kernel_links", lambda: _kernel_links(self))
            n = self.n
            binary = [] if not self.binary else [
                tuple((o, tuple(sup[1 << v] if by_mask else sup[v] for v in range(n + 1)),
                       name) for o, sup, by_mask, name in rels)
                for rels in self.binary_live]
            self._kernel = False if links is None else kernel.static(
                links, self.cand, self.cw, [self.house_done[h] for h in self.full],
                [(k, v[0], None if v[1] is None else tuple(c2 for _, c2 in v[1]))
                 for k, v in enumerate(self.chain) if v is not None],
                list((self.cross_k or {}).items()), binary,
                list(self.binary_t) if binary else [])
        return self._kernel or None

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


def _kernel_links(st: _Static):
    """The compiled kernel's per-puzzle tables (peers, full houses, each cell's full
    houses), None when it does not take the grid."""
    index = {h: i for i, h in enumerate(st.full)}
    return _forcing_kernel.links(
        st.size, st.n, [[0] * st.size] + [list(st.peers_d[d]) for d in range(1, st.n + 1)],
        [st.house_mask[h] for h in st.full],
        [tuple(index[h] for h in st.cell_full[c]) for c in range(st.size)], list(st.full),
        _LOCKED)


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
    out: dict[str, set[int]] = {}
    for p in rule_engine(puzzle).props:
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
    eng = rule_engine(puzzle)
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

    __slots__ = ("cand", "cw", "on", "parents", "contra", "_order", "ruled", "_paths")

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
        self._paths: tuple[int, dict] | None = None

    def order(self) -> dict[int, int]:
        """Derivation index of every fact (computed once the state is final)."""
        if self._order is None or len(self._order) != len(self.parents):
            self._order = {g: i for i, g in enumerate(self.parents)}
        return self._order

    def paths(self) -> dict:
        """A cache of the derivation paths (``explain._path``) of this state's facts,
        emptied when the derivation has grown since."""
        if self._paths is None or self._paths[0] != len(self.parents):
            self._paths = (len(self.parents), {})
        return self._paths[1]

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
    written out inline. On grids the compiled kernel takes (``_Static.kernel``), it runs
    the same propagation (:func:`_propagate_compiled`)."""
    ks = st.kernel()
    if ks is not None:
        return _propagate_compiled(st, ps, facts, net, inter, ks)
    return _propagate_py(st, ps, facts, net, inter)


def _propagate_py(st: _Static, ps: _PState, facts: Sequence[tuple[int, tuple | str]],
                  net: bool, inter: bool = False) -> _PState:
    """:func:`_propagate` in Python (the reference)."""
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

    set_off = _off_setter(st, ps, append)

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


def _off_setter(st: _Static, ps: _PState, append: Callable[[int], None]
                ) -> Callable[[int, int, object], None]:
    """``set_off(c, d, premises)``: c<>d added to ``ps`` (when c still has d) and handed to
    ``append`` (the propagation's queue); a contradiction sets ``ps.contra`` and raises
    :class:`_Stop`."""
    cand, cw, parents, base = ps.cand, ps.cw, ps.parents, st.cand

    def set_off(c: int, d: int, prem) -> None:
        m = cand[c]
        if not m >> d & 1:
            return
        f = (c << _DSHIFT | d) << 1
        parents[f] = prem
        if ps.on >> c & 1 and m == 1 << d:
            ps.contra = (f"{_name(st, c)}={digit_symbol(d)} is both true and false",
                         (f | 1, f))
            raise _Stop
        m &= ~(1 << d)
        cand[c] = m
        cw[d] &= ~(1 << c)
        if not m:
            ps.contra = (f"{_name(st, c)} has no candidate left",
                         tuple(_fact(c, e, False) for e in digits_of(base[c])))
            raise _Stop
        append(f)

    return set_off


def _propagate_compiled(st: _Static, ps: _PState, facts, net: bool, inter: bool,
                        ks) -> _PState:
    """:func:`_propagate` by ``techniques/_forcing_kernel.c``, a net's locked candidates
    (:func:`_locked`), binary relations and the links' cross-digit links included; a net's
    other rules (:func:`_rules`) run here in Python each time the kernel's queue is
    drained, and their removals go back to it as its next queue: the same derivation in
    the same order, the same contradiction. (The cells :func:`_rules` wakes are those whose
    candidates differ from ``ps.ruled``: the cells of the false facts the Python loop
    collects.)"""
    facts, queued = list(facts), None
    rules = net and st.rule_engine is not None
    while True:
        if queued is None:
            ps.on, contra = _forcing_kernel.propagate(ks, ps.cand, ps.cw, ps.on, ps.parents,
                                                      facts, net, net and inter)
        else:
            ps.on, contra = _forcing_kernel.propagate(ks, ps.cand, ps.cw, ps.on, ps.parents,
                                                      [], net, net and inter, queued)
        if contra is not None:
            ps.contra = _contra_of(st, contra)
            return ps
        if not rules:
            return ps
        queued = []
        try:
            if not _rules(st, ps, _off_setter(st, ps, queued.append)):
                return ps
        except _Stop:
            return ps


def _contra_of(st: _Static, t: tuple) -> tuple[str, tuple[int, ...]]:
    """The contradiction the kernel reports (a kind and its cells, digits) as
    :func:`_propagate` words it."""
    kind, c = t[0], t[1]
    if kind == "two":
        return (f"{_name(st, c)} would hold two digits", (_fact(c, t[2], True),
                                                           _fact(c, t[3], True)))
    if kind == "both":
        f = _fact(c, t[2], True)
        return f"{_name(st, c)}={digit_symbol(t[2])} is both true and false", (f, f ^ 1)
    if kind == "empty":
        return (f"{_name(st, c)} has no candidate left",
                tuple(_fact(c, e, False) for e in digits_of(st.cand[c])))
    d, h = t[2], st.cell_full[c][t[3]]
    return (f"{st.an.houses[h].name} has no place for {digit_symbol(d)}",
            tuple(_fact(x, d, False) for x in iter_cells(st.house_mask[h] & st.cw[d])))


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


def _assume(st: _Static, f: int, net: bool, inter: bool = False, ks=False) -> _PState:
    """``f`` propagated from the analysis' own grid (``ks``: ``st.kernel()`` when the caller
    has it): the compiled kernel's :func:`_assume_compiled` where it has the whole
    propagation, else :func:`_propagate` on :func:`_base`."""
    if ks is False:
        ks = st.kernel()
    if ks is None:
        return _propagate_py(st, _base(st), [(f, ())], net, inter)
    ps = _assume_compiled(st, f, net, inter, ks)
    return ps if ps is not None else _propagate_compiled(st, _base(st), [(f, ())], net,
                                                         inter, ks)


def _assume_compiled(st: _Static, f: int, net: bool, inter: bool, ks) -> _PState | None:
    """:func:`_assume` by the kernel's ``assume``: the same state as
    :func:`_propagate_compiled` on :func:`_base` (``tests/techniques/test_forcing_kernel.py``),
    made from the kernel's copy of the grid (the lists copied, not read back). None for a
    net with rules to run in Python between the kernel's calls."""
    if net and st.rule_engine is not None:
        return None
    cand, cw, on, parents, contra = _forcing_kernel.assume(ks, st.cand, st.cw, f, net,
                                                           net and inter)
    ps = _PState(cand, cw, on, parents)
    if contra is not None:
        ps.contra = _contra_of(st, contra)
    return ps


# -- the analysis' cache -------------------------------------------------------------------
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
    ks = st.kernel()        # (asked once: the compiled propagation, or None)

    def result(f: int) -> _PState:
        r = cache.get(f)
        if r is None:
            r = cache[f] = _assume(st, f, net, inter, ks)
        return r

    return result
