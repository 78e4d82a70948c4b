"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS Chain, Death Blossom.

An *almost locked set* (ALS) is a set of n unsolved cells of one house (any all-different
house of the model: row, column, box, diagonal, jigsaw region, cage) holding n+1 candidates
together. A single bivalue cell is an ALS of size 1. If an ALS loses one of its digits, the
rest is a locked set and every other digit must appear in it.

A *restricted common candidate* (RCC) of two ALS A and B is a digit x of both such that no x
lies in the overlap of A and B and every x of A sees (is weakly linked with) every x of B:
x can then be true in at most one of them. "Sees" is :meth:`Analysis.peers`, so variant links
(anti-knight, non-consecutive, ...) take part.

All functions share one memoised list of ALS and RCCs per analysis (``an.memo``).

Library variants (HoDoKu regression library): ``-2`` of 0902/0903/0904 allows ALS to overlap
(option ``allow_overlap``); 0901 ``-1``/``-2`` are the singly/doubly linked forms, both always
searched.

Options: ``max_size`` (largest ALS, 0 = no limit), ``allow_overlap``, ``dedupe`` (default
True: one step per distinct elimination set).
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.kernel import active
from csp.step import Candidate, Step, digit_symbol
from csp.step import digits_text

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

try:
    from . import _als_kernel
except ImportError:  # not built (no C compiler): the pure-Python path
    _als_kernel = None


class ALS:
    """An almost locked set: ``cells`` (bitset), ``mask`` (digits), ``pos[d]`` (cells of the
    ALS holding d), ``house`` (index of a house containing it)."""

    __slots__ = ("cells", "mask", "size", "pos", "house", "index", "in_full", "_text",
                 "_pattern")

    def __init__(self, cells: int, mask: int, pos: dict[int, int], house: int) -> None:
        self.cells = cells
        self.mask = mask
        self.size = cells.bit_count()
        self.pos = pos
        self.house = house
        self.index = -1
        self.in_full = False
        self._text = ""
        self._pattern: tuple[Candidate, ...] | None = None

    def text(self, an: Analysis) -> str:
        if not self._text:
            self._text = (f"{cells_text(an, self.cells)} "
                          f"{{{''.join(digit_symbol(d) for d in digits_of(self.mask))}}}")
        return self._text

    def pattern(self, an: Analysis) -> tuple[Candidate, ...]:
        if self._pattern is None:
            self._pattern = tuple(Candidate(c, d) for c in iter_cells(self.cells)
                                  for d in digits_of(an.cand[c]))
        return self._pattern

    def __repr__(self) -> str:
        return f"ALS(cells={self.cells:#x}, mask={self.mask:#x})"


def cells_text(an: Analysis, cells: int) -> str:
    """Compact cell names: ``r4c57`` (one row), ``r12c3`` (one column), else a list.

    >>> from variants.classic import classic_puzzle
    >>> an = Analysis(classic_puzzle("." * 81).pencilmarks())
    >>> cells_text(an, (1 << 40) | (1 << 42)), cells_text(an, 1 | (1 << 9)), cells_text(an, 1 | (1 << 10))
    ('r5c57', 'r12c1', 'r1c1 r2c2')
    """
    g = an.grid
    w = max(g.height, g.width)
    cs = list(iter_cells(cells))
    rows = sorted({g.row(c) for c in cs})
    cols = sorted({g.col(c) for c in cs})

    def sym(i: int) -> str:
        return str(i + 1) if w <= 9 else f"{i + 1},"

    if len(rows) == 1:
        return f"r{rows[0] + 1}c" + "".join(sym(c) for c in cols).rstrip(",")
    if len(cols) == 1:
        return "r" + "".join(sym(r) for r in rows).rstrip(",") + f"c{cols[0] + 1}"
    return " ".join(an.name(c) for c in cs)


def find_als(an: Analysis, max_size: int = 0) -> list[ALS]:
    """Every ALS of the state (deduplicated by cell set), smallest first; memoised.
    ``max_size`` 0 = no limit.

    >>> from variants.classic import classic_puzzle
    >>> p = classic_puzzle("8....5..7.7.1.8.6...6.9.8..64.9.7.3...3...7...9.8.2.46..9.8.4...1.5.4.2.4..3....1")
    >>> len(find_als(Analysis(p.pencilmarks()))) > 0
    True
    """
    return an.memo(("als", max_size), lambda: _find_als(an, max_size))


def _find_als(an: Analysis, max_size: int) -> "list[ALS] | LazyALS":
    rows = _kernel_rows(an, max_size)
    if rows is not None:
        # the compiled enumeration's rows, sorted the same way; each ALS object is made
        # when first read (most states only hand the cells and digits to the kernels)
        order = sorted([(cb.bit_count(), cb, j) for j, (cb, _m, _p, house, _f)
                        in enumerate(rows) if house >= 0])
        return LazyALS(rows, [j for _, _, j in order])
    out = sorted((a for a in als_table(an, max_size) if a.house >= 0),
                 key=lambda a: (a.size, a.cells))
    for i, a in enumerate(out):
        a.index = i
    return out


class LazyALS:
    """:func:`find_als`'s list on the compiled path: a read-only sequence of :class:`ALS`
    over the kernel's rows (``order``: the rows in the list's order), each object made on
    first read (with its ``index``) and then kept, so a state whose searches find nothing
    makes none; ``cells`` / ``masks`` give the kernels' inputs without making them."""

    __slots__ = ("_rows", "_order", "_objs")

    def __init__(self, rows: list, order: list[int]) -> None:
        self._rows = rows
        self._order = order
        self._objs: list[ALS | None] = [None] * len(order)

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._order)))]
        a = self._objs[i]
        if a is None:
            if i < 0:
                i += len(self._order)
            cb, m, pos, house, in_full = self._rows[self._order[i]]
            a = ALS(cb, m, pos, house)
            a.in_full = in_full
            a.index = i
            self._objs[i] = a
        return a

    def __iter__(self) -> Iterator[ALS]:
        for i in range(len(self._order)):
            yield self[i]

    def cells(self) -> list[int]:
        rows = self._rows
        return [rows[j][0] for j in self._order]

    def masks(self) -> list[int]:
        rows = self._rows
        return [rows[j][1] for j in self._order]


def full_house_als(an: Analysis, max_size: int) -> list[tuple[int, int]]:
    """``(cells, digit mask)`` of the ALS of 2..``max_size`` cells inside a full house,
    all its free cells allowed (the ALS nodes of the chain graphs), sorted by cells; the
    same enumeration as :func:`find_als` (:func:`als_table`), memoised.

    >>> from variants.classic import classic_puzzle
    >>> p = classic_puzzle("8....5..7.7.1.8.6...6.9.8..64.9.7.3...3...7...9.8.2.46..9.8.4...1.5.4.2.4..3....1")
    >>> an = Analysis(p.pencilmarks())
    >>> sorted((a.cells, a.mask) for a in find_als(an, 3) if a.size > 1) == full_house_als(an, 3)
    True
    """
    return an.memo(("als_full", max_size),
                   lambda: sorted((a.cells, a.mask) for a in als_table(an, max_size)
                                  if a.in_full and a.size > 1))


def als_table(an: Analysis, max_size: int) -> list[ALS]:
    """The one ALS enumeration of a state (memoised): every set of up to ``max_size`` free
    cells (0: any) of one house holding one digit more than cells, deduplicated by cells.
    ``house`` is the first house holding it as a part of its free cells (-1 when it is
    all of every such house's free cells, then a locked set with a stale candidate:
    :func:`find_als` leaves it out); ``in_full`` says some full house holds it."""
    return an.memo(("als_table", max_size), lambda: _als_table(an, max_size))


def _kernel_rows(an: Analysis, max_size: int) -> list | None:
    """The compiled enumeration's table of this state (memoised): rows (cells, digits,
    pos, house, in_full) in :func:`als_table`'s order; None without the kernel or for a
    house of more than 16 free cells."""
    def build():
        kernel = _enum_kernel(an)
        if kernel is None:
            return None
        # the same table in the same order, all houses at once (no per-house memo: the
        # search costs less than its keys)
        full = an.links_memo("full_flags", lambda: [h in set(an.full)
                                                    for h in range(len(an.house_mask))])
        return kernel.als_table(an.size, an.house_mask, full, an.unsolved, an.cand,
                                max_size)
    return an.memo(("als_rows", max_size), build)


def _als_table(an: Analysis, max_size: int) -> list[ALS]:
    rows = _kernel_rows(an, max_size)
    if rows is not None:
        out = []
        for cb, m, pos, house, in_full in rows:
            a = ALS(cb, m, pos, house)
            a.in_full = in_full
            out.append(a)
        return out
    seen: dict[int, ALS] = {}
    full = an.links_memo("full_set", lambda: frozenset(an.full))
    for h in range(len(an.house_mask)):
        # a house's ALS depend on its cells' candidates only: kept across states
        for cb, m, pos, whole in an.shared_memo(("als_of_house", h, max_size, an.house_key(h)),
                                                lambda h=h: _house_als(an, h, max_size)):
            a = seen.get(cb)
            if a is None:
                a = seen[cb] = ALS(cb, m, dict(pos), -1)
            if a.house < 0 and not whole:
                a.house = h
            if h in full:
                a.in_full = True
    return list(seen.values())


def _enum_kernel(an: Analysis):
    """The compiled kernel for this grid's ALS enumeration, or None: not built, switched
    off (``SUDOKU_CSP_PURE=1``), or more than 128 cells or 30 digits."""
    kernel = active(_als_kernel)
    return kernel if kernel is not None and an.size <= 128 and an.n <= 30 else None


def _house_als(an: Analysis, h: int, max_size: int
               ) -> list[tuple[int, int, dict[int, int], bool]]:
    """(cells, digits, cells per digit, all the house's free cells?) of every ALS inside
    house ``h`` of up to ``max_size`` cells (0: any), in search order."""
    cand = an.cand
    cells = list(iter_cells(an.house_mask[h] & an.unsolved))
    k = len(cells)
    out: list[tuple[int, int, dict[int, int], bool]] = []
    if not cells:
        return out
    limit = min(k, max_size) if max_size else k
    masks = [cand[c] for c in cells]
    kernel = _enum_kernel(an)
    if kernel is not None:
        # the same ALS in the same order (tests/techniques/test_als_kernel.py); None: a
        # house of more than 16 free cells
        got = kernel.house_als(cells, masks, limit)
        if got is not None:
            return got
    found: set[int] = set()
    # DFS over subsets in index order: (start, cells bitset, mask, size)
    stack = [(0, 0, 0, 0)]
    poll = an.budget.poll       # the throttled clock (an.tick without the extra call)
    while stack:
        if poll():
            break       # incomplete: not kept (shared_memo), the solver reports 'limit'
        start, cb, m, s = stack.pop()
        for i in range(start, k):
            m2 = m | masks[i]
            s2 = s + 1
            extra = m2.bit_count() - s2       # must end at 1
            # each further cell lowers (digits - size) by at most one
            if extra - (limit - s2) > 1:
                continue
            cb2 = cb | (1 << cells[i])
            if extra == 1 and cb2 not in found:
                found.add(cb2)
                pos = {d: 0 for d in digits_of(m2)}
                for c in iter_cells(cb2):
                    for d in digits_of(cand[c]):
                        pos[d] |= 1 << c
                # (one free cell with two candidates is an ALS: a bivalue cell)
                out.append((cb2, m2, pos, s2 == k > 1))
            if s2 < limit:
                stack.append((i + 1, cb2, m2, s2))
    return out


_BUDDIES_MAX = 200_000


def _buddy_cache(an: Analysis) -> dict:
    """The memo of :func:`_buddies`: it reads the link tables only, so it is kept for the
    puzzle (across states), and cleared when it grows past ``_BUDDIES_MAX`` entries."""
    cache = an.links_memo("als_buddies", dict)
    if len(cache) > _BUDDIES_MAX:
        cache.clear()
    return cache


def _buddies(an: Analysis, cache: dict, d: int, cells: int) -> int:
    """Cells that see every cell of ``cells`` for digit ``d`` (memoised)."""
    key = (d, cells)
    v = cache.get(key)
    if v is None:
        v = cache[key] = an.common_peers(d, cells)
    return v


def buddies(an: Analysis, d: int, cells: int) -> int:
    return _buddies(an, _buddy_cache(an), d, cells)


def find_rccs(an: Analysis, allow_overlap: bool = False, max_size: int = 0
              ) -> dict[int, dict[int, int]]:
    """RCC adjacency: ``rcc[i][j]`` = digit mask of the RCCs of ALS i and j (both ways)."""
    return an.memo(("rcc", allow_overlap, max_size),
                   lambda: _find_rccs(an, allow_overlap, max_size))


def _als_key(a: ALS) -> tuple:
    """What an ALS's RCCs depend on besides the puzzle: its cells and their candidates."""
    return (a.cells, a.mask, tuple(a.pos.values()))


def _find_rccs(an: Analysis, allow_overlap: bool, max_size: int) -> dict[int, dict[int, int]]:
    """The RCC table of this state. A run keeps the last table it built (``an.run_memo``):
    the RCCs of two ALS depend on their cells and those cells' candidates only, so the
    pairs of ALS that were there before keep their entries and only the pairs with a new
    (or changed) ALS are searched."""
    alses = find_als(an, max_size)
    adj: dict[int, dict[int, int]] = {a.index: {} for a in alses}
    keys = [_als_key(a) for a in alses]
    prev = an.run_memo.get(("rcc_prev", allow_overlap, max_size))
    new = alses
    if prev is not None:
        old_index, old_adj = prev
        back: dict[int, int] = {}       # old index -> new index
        new = []
        for a, k in zip(alses, keys):
            oi = old_index.get(k)
            if oi is None:
                new.append(a)
            else:
                back[oi] = a.index
        for oi, i in back.items():
            row = adj[i]
            for oj, m in old_adj[oi].items():
                j = back.get(oj)
                if j is not None:
                    row[j] = m
    if new:
        _add_rccs(an, alses, new, adj, allow_overlap)
    if not an.timed_out:
        an.run_memo[("rcc_prev", allow_overlap, max_size)] = (
            {k: a.index for a, k in zip(alses, keys)}, adj)
    return adj


def _add_rccs(an: Analysis, alses: list[ALS], new: list[ALS], adj: dict[int, dict[int, int]],
              allow_overlap: bool) -> None:
    """Enter into ``adj`` (both ways) the RCCs of every pair of ``alses`` with one ALS of
    ``new`` in it. Per digit the ALS are grouped by their cells holding it, and a partner
    group must lie in the cells that see all of a group's (its lowest cell indexes it)."""
    cache = _buddy_cache(an)
    fresh = {a.index for a in new}
    everything = len(new) == len(alses)
    for d in range(1, an.n + 1):
        if an.expired():
            break
        groups: dict[int, list[ALS]] = {}
        for a in alses:
            p = a.pos.get(d)
            if p:
                groups.setdefault(p, []).append(a)
        keys = list(groups)
        by_low: dict[int, list[int]] = {}
        lows = 0
        for j, pb in enumerate(keys):
            low = pb & -pb
            lows |= low
            by_low.setdefault(low, []).append(j)
        bit = 1 << d
        for ia, pa in enumerate(keys):
            if an.tick():
                break
            ga = groups[pa]
            if not everything:
                ga = [a for a in ga if a.index in fresh]
                if not ga:
                    continue
            bud = _buddies(an, cache, d, pa)
            hit = bud & lows
            while hit:
                low = hit & -hit
                hit ^= low
                for j in by_low[low]:
                    # every pair once when all are new (j >= ia), else each new ALS with
                    # all its partners
                    if everything and j < ia:
                        continue
                    pb = keys[j]
                    if pb & ~bud:
                        continue
                    for a in ga:
                        for b in groups[pb]:
                            if a is b:
                                continue
                            ov = a.cells & b.cells
                            if ov and (not allow_overlap or (pa | pb) & ov
                                       or a.cells & ~b.cells == 0 or b.cells & ~a.cells == 0):
                                continue
                            adj[a.index][b.index] = adj[a.index].get(b.index, 0) | bit
                            adj[b.index][a.index] = adj[b.index].get(a.index, 0) | bit


def _kernel_ctx(an: Analysis, allow_overlap: bool, max_size: int):
    """The compiled kernel's context of this state (``techniques/_als_kernel.c``: the ALS,
    the RCC table, every ALS digit's buddies), memoised; None when the kernel is not built
    or switched off (``csp/kernel.py``) or the grid is too large for it (more than 128
    cells or 31 digits): then the Python searches run, the reference (the same results in
    the same order: ``tests/techniques/test_als_kernel.py``)."""
    kernel = active(_als_kernel)
    if kernel is None or an.size > 128 or an.n > 31:
        return None

    def build():
        alses = find_als(an, max_size)
        K = an.n + 1
        pd = an.links.peers_d
        # (the RCC table is built in C, from scratch: as :func:`_find_rccs` gives it)
        lazy = isinstance(alses, LazyALS)
        return kernel.prepare(
            an.size, an.n, allow_overlap,
            alses.cells() if lazy else [a.cells for a in alses],
            alses.masks() if lazy else [a.mask for a in alses],
            list(an.cand), [[]] + [list(pd[d]) for d in range(1, K)],
            [an.cells_with[d] for d in range(K)])
    return an.memo(("als_kernel_ctx", allow_overlap, max_size), build)


def _targets(an: Analysis, cache: dict, d: int, cells: int, exclude: int) -> int:
    """Cells outside ``exclude`` holding d that see every cell of ``cells`` for d."""
    return _buddies(an, cache, d, cells) & an.cells_with[d] & ~exclude


def _elims_text(elims: list[Candidate]) -> tuple[Candidate, ...]:
    return tuple(sorted(set(elims)))


def _pattern(an: Analysis, *alses: ALS) -> tuple[Candidate, ...]:
    if len(alses) == 1:
        return alses[0].pattern(an)
    out: set[Candidate] = set()
    for a in alses:
        out.update(a.pattern(an))
    return tuple(sorted(out))


def _step(an: Analysis, name: str, title: str, elims: list[Candidate], note,
          *alses: ALS, seen: set | None = None) -> Step | None:
    """The Step, or None when ``seen`` already holds its elimination set (one step per
    distinct result keeps the search output small). ``note`` may be a callable."""
    el = _elims_text(elims)
    if seen is not None:
        if el in seen:
            return None
        seen.add(el)
    if callable(note):
        note = note()
    return Step(name, eliminations=el, pattern=_pattern(an, *alses),
                digits=tuple(sorted({c.digit for c in el})), title=title, note=note,
                namer=an.grid.namer)


# --------------------------------------------------------------------------------------
#: ALS chain: search nodes per call (a chain of up to 7 ALS; from the first version, not
#: measured)
ALS_CHAIN_NODES = 150_000
#: Death Blossom: search nodes per stem (from the first version, not measured)
DEATH_BLOSSOM_NODES = 20_000

#: the options of the ALS techniques
ALS_OPTIONS = Options(
    allow_overlap=Option(False, "the ALS may share cells (not their RCC's)", bool),
    max_size=Option(0, "most cells of one ALS (0: any)", int),
    dedupe=Option(True, "report each elimination set once", bool),
)
ALS_CHAIN_OPTIONS = ALS_OPTIONS.with_(
    min_als=Option(4, "fewest ALS in a chain (at least 2)", int),
    max_als=Option(7, "most ALS in a chain", int),
    max_nodes=Option(ALS_CHAIN_NODES, "search nodes per call", int))
DEATH_BLOSSOM_OPTIONS = ALS_OPTIONS.with_(
    max_nodes=Option(DEATH_BLOSSOM_NODES, "search nodes per stem cell", int))


@register("als_xz", "ALS-XZ", "als", code="0901",
          options=ALS_OPTIONS)
def als_xz(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two ALS A and B with an RCC x: a digit z of both (z != x) is false in every cell that
    sees all z of A and B. Doubly linked (two RCCs x, y): A and B minus x/y are locked sets,
    so every other digit of A is false in cells seeing all of it in A (same for B), and x
    and y are false in cells seeing all their instances in A and B."""
    allow = bool(ALS_OPTIONS.read(opts, "allow_overlap"))
    max_size = int(ALS_OPTIONS.read(opts, "max_size"))
    alses = find_als(an, max_size)
    seen: set | None = set() if ALS_OPTIONS.read(opts, "dedupe") else None
    ctx = _kernel_ctx(an, allow, max_size)
    if ctx is not None:
        yield from _als_xz_compiled(an, ctx, alses, seen)
        return
    adj = find_rccs(an, allow, max_size)
    cache = _buddy_cache(an)
    for a in alses:
        if an.tick(4):
            return
        for bi, rc in sorted(adj[a.index].items()):
            if bi <= a.index:
                continue
            b = alses[bi]
            union = a.cells | b.cells
            elims: list[Candidate] = []
            common = a.mask & b.mask
            if rc.bit_count() == 1:
                for z in digits_of(common & ~rc):
                    for c in iter_cells(_targets(an, cache, z, a.pos[z] | b.pos[z], union)):
                        elims.append(Candidate(c, z))
                kind = "singly linked"
            else:
                for x in digits_of(rc):
                    for c in iter_cells(_targets(an, cache, x, a.pos[x] | b.pos[x], union)):
                        elims.append(Candidate(c, x))
                for s in (a, b):
                    for z in digits_of(s.mask & ~rc):
                        for c in iter_cells(_targets(an, cache, z, s.pos[z], union)):
                            elims.append(Candidate(c, z))
                kind = "doubly linked"
            if elims:
                st = _step(an, "als_xz", "ALS-XZ", elims,
                           lambda: f"A={a.text(an)}, B={b.text(an)}, "
                                   f"X={'/'.join(digits_text(1 << d) for d in digits_of(rc))} ({kind})",
                           a, b, seen=seen)
                if st is not None:
                    yield st


def _xz_note(an: Analysis, a: ALS, b: ALS, rc: int) -> str:
    kind = "singly linked" if rc.bit_count() == 1 else "doubly linked"
    return (f"A={a.text(an)}, B={b.text(an)}, "
            f"X={'/'.join(digits_text(1 << d) for d in digits_of(rc))} ({kind})")


def _als_xz_compiled(an: Analysis, ctx, alses: list[ALS], seen: set | None
                     ) -> Iterator[Step]:
    """:func:`als_xz` by the compiled kernel: the same steps in the same order."""
    kernel = _als_kernel
    start, n = 0, len(alses)
    while start < n:
        if an.tick(4):
            return
        nxt, found = kernel.xz(ctx, start, 64)
        for ai, bi, rc, el in found:
            a, b = alses[ai], alses[bi]
            st = _step(an, "als_xz", "ALS-XZ", [Candidate(c, z) for c, z in el],
                       lambda: _xz_note(an, a, b, rc), a, b, seen=seen)
            if st is not None:
                yield st
        if nxt - start > 1 and an.tick(4 * (nxt - start - 1)):
            return
        start = nxt


@register("als_xy_wing", "ALS-XY-Wing", "als", code="0902",
          options=ALS_OPTIONS,
          variants={1: {"allow_overlap": False}, 2: {"allow_overlap": True}})
def als_xy_wing(an: Analysis, opts: dict) -> Iterator[Step]:
    """Three ALS: A and B each have an RCC with the pivot C (x for A-C, y for B-C, x != y);
    a digit z of A and B (not x or y) is false in every cell (outside A, B, C) that sees all
    z of A and B: if it were true, A and B would be locked, holding x and y, and C would
    lose both."""
    allow = bool(ALS_OPTIONS.read(opts, "allow_overlap"))
    max_size = int(ALS_OPTIONS.read(opts, "max_size"))
    alses = find_als(an, max_size)
    seen: set | None = set() if ALS_OPTIONS.read(opts, "dedupe") else None
    ctx = _kernel_ctx(an, allow, max_size)
    if ctx is not None:
        yield from _als_xy_wing_compiled(an, ctx, alses, allow, seen)
        return
    adj = find_rccs(an, allow, max_size)
    cache = _buddy_cache(an)
    for c_als in alses:
        if an.tick(16):
            return
        nb = sorted(adj[c_als.index].items())
        for i in range(len(nb)):
            ai, rca = nb[i]
            a = alses[ai]
            for j in range(i + 1, len(nb)):
                bi, rcb = nb[j]
                b = alses[bi]
                if not allow and a.cells & b.cells:
                    continue
                if a.cells & ~b.cells == 0 or b.cells & ~a.cells == 0:
                    continue
                if rca == rcb and rca.bit_count() == 1:
                    continue
                zmask = a.mask & b.mask & ~rca & ~rcb
                if not zmask:
                    continue
                excl = a.cells | b.cells | c_als.cells
                elims: list[Candidate] = []
                for z in digits_of(zmask):
                    zc = a.pos[z] | b.pos[z]
                    for c in iter_cells(_targets(an, cache, z, zc, excl)):
                        elims.append(Candidate(c, z))
                if elims:
                    st = _step(an, "als_xy_wing", "ALS-XY-Wing", elims,
                               lambda: f"C={c_als.text(an)}, A={a.text(an)}, B={b.text(an)}, "
                                       f"X={digits_text(rca)}, Y={digits_text(rcb)}",
                               c_als, a, b, seen=seen)
                    if st is not None:
                        yield st


def _als_xy_wing_compiled(an: Analysis, ctx, alses: list[ALS], allow: bool,
                          seen: set | None) -> Iterator[Step]:
    """:func:`als_xy_wing` by the compiled kernel: the same steps in the same order."""
    kernel = _als_kernel
    start, n = 0, len(alses)
    while start < n:
        if an.tick(16):
            return
        nxt, found = kernel.xy_wing(ctx, start, allow, 16)
        for ci, ai, bi, rca, rcb, el in found:
            c_als, a, b = alses[ci], alses[ai], alses[bi]
            st = _step(an, "als_xy_wing", "ALS-XY-Wing", [Candidate(c, z) for c, z in el],
                       lambda: f"C={c_als.text(an)}, A={a.text(an)}, B={b.text(an)}, "
                               f"X={digits_text(rca)}, Y={digits_text(rcb)}",
                       c_als, a, b, seen=seen)
            if st is not None:
                yield st
        if nxt - start > 1 and an.tick(16 * (nxt - start - 1)):
            return
        start = nxt


@register("als_chain", "ALS Chain", "als", code="0903",
          options=ALS_CHAIN_OPTIONS,
          variants={1: {"allow_overlap": False}, 2: {"allow_overlap": True}})
def als_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """A chain of ALS A1 -x1- A2 -x2- ... Ak where consecutive ALS share an RCC and
    consecutive RCCs differ: a digit z of A1 and Ak (not x1, not the last RCC) is false in
    every cell outside A1 and Ak that sees all z of A1 and Ak. If it were true, A1 would be
    locked, so x1 is in A1, A2 loses x1 and is locked, ... and Ak, losing z and its last
    RCC, would be short of a digit. (Each step is an implication, so non-adjacent ALS may
    share cells or even repeat.)

    The search is a breadth-first walk from each (A1, x1) over states (ALS, entering
    digit), each state visited once, so one shortest chain is reported per end state.
    Options: ``min_als``/``max_als`` chain length in ALS (default 4..7: two is ALS-XZ,
    three ALS-XY-Wing), ``allow_overlap`` (adjacent ALS may overlap outside their RCC),
    ``max_nodes`` (budget of state expansions per call; the search stops there)."""
    allow = bool(ALS_CHAIN_OPTIONS.read(opts, "allow_overlap"))
    max_size = int(ALS_CHAIN_OPTIONS.read(opts, "max_size"))
    min_als = max(2, int(ALS_CHAIN_OPTIONS.read(opts, "min_als")))
    max_als = int(ALS_CHAIN_OPTIONS.read(opts, "max_als"))
    alses = find_als(an, max_size)
    seen: set | None = set() if ALS_CHAIN_OPTIONS.read(opts, "dedupe") else None
    budget = int(ALS_CHAIN_OPTIONS.read(opts, "max_nodes"))
    ctx = _kernel_ctx(an, allow, max_size) if max_als <= 60 else None
    if ctx is not None:
        yield from _als_chain_compiled(an, ctx, alses, budget, min_als, max_als, seen)
        return
    adj = find_rccs(an, allow, max_size)
    nbrs = an.memo(("rcc_list", allow, max_size),
                   lambda: {i: [(j, list(digits_of(m))) for j, m in sorted(d.items())]
                            for i, d in adj.items()})
    # the same RCC edges flattened, each search state (ALS index, entering digit) coded as
    # one int ``index * K + digit`` (cheaper to hash than a tuple), in the order of ``nbrs``
    K = an.n + 1
    flat = an.memo(("rcc_flat_int", allow, max_size),
                   lambda: {i: [j * K + y for j, ys in e for y in ys] for i, e in nbrs.items()})
    # ... and without the edges of one digit (a chain's next RCC differs from the last)
    flat_ex: dict[int, list[int]] = an.memo(("rcc_flat_ex_int", allow, max_size), dict)
    cache = _buddy_cache(an)
    cw = an.cells_with
    poll = an.budget.poll
    for a1 in alses:
        if budget <= 0 or an.expired():
            return
        # digits of A1 that could be eliminated somewhere at all
        zt1: dict[int, int] = {}
        for z in digits_of(a1.mask):
            t = _buddies(an, cache, z, a1.pos[z]) & cw[z] & ~a1.cells
            if t:
                zt1[z] = t
        if not zt1 or not nbrs[a1.index]:
            continue
        zcand = 0
        for z in zt1:
            zcand |= 1 << z
        i1 = a1.index
        # per end ALS b: the digits z of both A1 and b that some cell outside both sees in
        # all of A1's and b's cells (what the chain ending in b could remove, before its
        # RCC digits are taken out), worked out once per A1
        ends: dict[int, int] = {}
        home = {i1 * K + y: -1 for y in range(1, an.n + 1)}
        for ni, xs in nbrs[i1]:
            for x1 in xs:
                if not zcand & ~(1 << x1):
                    continue
                start = ni * K + x1
                parent: dict[int, int] = {start: -1}
                # A1 itself is never entered again: its states count as visited
                parent.update(home)
                frontier = [start]
                depth = 2                      # ALS in the chain so far
                while frontier and depth < max_als and budget > 0:
                    nxt_frontier = []
                    for state in frontier:
                        budget -= 1
                        if poll():
                            return
                        edges = flat_ex.get(state)
                        if edges is None:
                            cx = state % K
                            edges = flat_ex[state] = [e for e in flat[state // K]
                                                      if e % K != cx]
                        for nxt in edges:
                            if nxt in parent:
                                continue
                            parent[nxt] = state
                            nxt_frontier.append(nxt)
                    depth += 1
                    frontier = nxt_frontier
                    if depth < min_als:
                        continue
                    keep = ~(1 << x1)
                    for s in frontier:
                        bi, y = divmod(s, K)
                        zend = ends.get(bi)
                        if zend is None:
                            b = alses[bi]
                            zend = 0
                            excl = a1.cells | b.cells
                            for z in digits_of(zcand & b.mask):
                                if zt1[z] & ~excl & _buddies(an, cache, z, b.pos[z]):
                                    zend |= 1 << z
                            ends[bi] = zend
                        if not zend & keep & ~(1 << y):
                            continue
                        b = alses[bi]
                        zmask = zcand & b.mask & keep & ~(1 << y)
                        excl = a1.cells | b.cells
                        elims = []
                        for z in digits_of(zmask):
                            t = zt1[z] & ~b.cells
                            if t:
                                t &= _buddies(an, cache, z, b.pos[z])
                                for c in iter_cells(t & ~excl):
                                    elims.append(Candidate(c, z))
                        if not elims:
                            continue
                        path = [s]
                        while parent[path[-1]] != -1:
                            path.append(parent[path[-1]])
                        path.reverse()
                        snap = [(a1, 0)] + [(alses[i // K], i % K) for i in path]
                        st = _step(an, "als_chain", "ALS Chain", elims,
                                   lambda: _chain_note(an, snap),
                                   *[a for a, _ in snap], seen=seen)
                        if st is not None:
                            yield st


def _als_chain_compiled(an: Analysis, ctx, alses: list[ALS], budget: int, min_als: int,
                        max_als: int, seen: set | None) -> Iterator[Step]:
    """:func:`als_chain` by the compiled kernel: the same breadth-first walk and node
    budget, the same steps in the same order (the deadline is polled between the kernel's
    calls, every few thousand nodes, instead of at every node)."""
    kernel = _als_kernel
    K = an.n + 1
    start, n = 0, len(alses)
    while start < n:
        if budget <= 0 or an.expired():
            return
        start, used, found = kernel.chain(ctx, start, budget, min_als, max_als)
        budget -= used
        for i1, el, path in found:
            snap = [(alses[i1], 0)] + [(alses[i // K], i % K) for i in path]
            st = _step(an, "als_chain", "ALS Chain", [Candidate(c, z) for c, z in el],
                       lambda: _chain_note(an, snap), *[a for a, _ in snap], seen=seen)
            if st is not None:
                yield st
        if used and an.tick(used):
            return


def _chain_note(an: Analysis, chain: list[tuple[ALS, int]]) -> str:
    out = chain[0][0].text(an)
    for a, x in chain[1:]:
        out += f" -{digit_symbol(x)}- {a.text(an)}"
    return out


@register("death_blossom", "Death Blossom", "als", code="0904",
          options=DEATH_BLOSSOM_OPTIONS,
          variants={1: {"allow_overlap": False}, 2: {"allow_overlap": True}})
def death_blossom(an: Analysis, opts: dict) -> Iterator[Step]:
    """A stem cell and, for each of its candidates d, a petal ALS holding d whose every d
    sees the stem. Whatever the stem takes, that digit's petal is locked. A digit z in every
    petal (z is then no stem candidate) is false in every cell outside the petals that sees
    all z of all petals: it would lock every petal and leave the stem with no candidate.

    Options: ``allow_overlap`` (petals may share cells, not the stem), ``max_nodes``
    search budget per stem."""
    allow = bool(DEATH_BLOSSOM_OPTIONS.read(opts, "allow_overlap"))
    max_size = int(DEATH_BLOSSOM_OPTIONS.read(opts, "max_size"))
    budget = int(DEATH_BLOSSOM_OPTIONS.read(opts, "max_nodes"))
    alses = find_als(an, max_size)
    cache = _buddy_cache(an)
    seen: set | None = set() if DEATH_BLOSSOM_OPTIONS.read(opts, "dedupe") else None
    cw = an.cells_with
    # petal candidates: for each ALS and digit, which stems it serves
    by_digit: dict[int, list[ALS]] = {}
    for a in alses:
        for d in digits_of(a.mask):
            by_digit.setdefault(d, []).append(a)
    for stem in iter_cells(an.unsolved):
        if an.expired():
            return
        sm = an.cand[stem]
        if sm.bit_count() < 2:
            continue
        sbit = 1 << stem
        petals: list[tuple[int, list[ALS]]] = []
        ok = True
        for d in digits_of(sm):
            pd = an.peers(stem, d)
            lst = [a for a in by_digit.get(d, ()) if not a.cells & sbit
                   and a.pos[d] & ~pd == 0]
            if not lst:
                ok = False
                break
            petals.append((d, lst))
        if not ok:
            continue
        petals.sort(key=lambda t: len(t[1]))
        nodes = 0
        chosen: list[tuple[int, ALS]] = []

        def dfs(i: int, zt: dict[int, int], union: int) -> Iterator[Step]:
            nonlocal nodes
            if i == len(petals):
                elims = [Candidate(c, z) for z, t in zt.items()
                         for c in iter_cells(t & ~union)]
                if elims:
                    snap = list(chosen)
                    st = _step(an, "death_blossom", "Death Blossom", elims,
                               lambda: _blossom_note(an, stem, snap),
                               *[a for _, a in snap], seen=seen)
                    if st is not None:
                        st.pattern  # noqa: B018 (pattern holds the petals)
                        yield st
                return
            d, lst = petals[i]
            for a in lst:
                nodes += 1
                if nodes > budget:
                    return
                if not allow and a.cells & union:
                    continue      # (also: one ALS may serve several digits only with overlap)
                zt2 = {}
                if any(a is b for _, b in chosen):
                    zt2 = zt
                for z, t in (() if zt2 else zt.items()):
                    if a.mask >> z & 1:
                        t2 = t & _buddies(an, cache, z, a.pos[z]) & ~a.cells
                        if t2:
                            zt2[z] = t2
                if not zt2:
                    continue
                chosen.append((d, a))
                yield from dfs(i + 1, zt2, union | a.cells)
                chosen.pop()

        # z may be a stem candidate too when the target also sees the stem's z (then the
        # stem is not z, and the petal of its actual digit would lose z)
        start = {z: (cw[z] & ~sbit if not sm >> z & 1 else cw[z] & an.peers(stem, z))
                 for z in range(1, an.n + 1) if cw[z]}
        yield from dfs(0, start, 0)


def _blossom_note(an: Analysis, stem: int, petals: list[tuple[int, ALS]]) -> str:
    return (f"stem {an.name(stem)}, " +
            ", ".join(f"{digit_symbol(d)}: {a.text(an)}" for d, a in sorted(petals,
                                                                             key=lambda t: t[0])))
