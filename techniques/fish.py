"""Fish: basic, finned and sashimi, Franken and Mutant fish, Siamese fish (one digit).

A fish of size n for digit d takes n *base* houses (full houses: each holds d exactly once)
whose candidates for d do not overlap, and n *cover* houses (each holds d at most once)
that together contain every base candidate. The n true d's of the bases then fill the n
covers, so d goes from every cover cell outside the bases. Candidates of the bases outside
the covers are *fins* (exo fins); base candidates shared by two bases are *endo fins*. With
fins, only cover candidates that see every fin go (if no fin is true the fish holds, if one
is true it kills them). A base candidate in two covers (*cannibalism*) also goes.

Kinds follow HoDoKu: *basic* when the bases are all rows and the covers all columns (or the
reverse); *Franken* when the bases are rows and boxes and the covers columns and boxes (or
the reverse); *Mutant* otherwise. Houses are those of the model: jigsaw regions count as
boxes, diagonals and other full houses only take part in Mutant fish. Cell sets are int
bitsets, the search picks the lowest uncovered base candidate and branches on the cover
houses holding it (or on making it a fin), so every (base, cover) pair is visited once.

>>> from variants.classic import classic_puzzle
>>> from techniques.analysis import Analysis
>>> p = classic_puzzle(".................................................................................")
>>> st = p.pencilmarks()
>>> for c in range(81):
...     if c // 9 in (1, 6) and c % 9 not in (2, 7):
...         st.cand[c] &= ~(1 << 4)
>>> st.version += 1
>>> step = next(x_wing(Analysis(st), {}))
>>> step.explain(2)[:40]
'X-Wing: 4 r27 c38 => r1c3<>4, r1c8<>4, r'
>>> len(step.eliminations)
14
"""
from __future__ import annotations


from itertools import combinations
from typing import Iterator, NamedTuple, Sequence

from csp.kernel import active
from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

try:                          # the compiled kernel (csp/kernel.py), where the install built it
    from . import _fish_kernel
except ImportError:           # no C compiler at install time: the Python path only
    _fish_kernel = None

NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale",
         7: "Leviathan"}
LINE = ("row", "col")
BOXLIKE = ("box", "region")


class Fish(NamedTuple):
    """One fish found by :func:`search` (bitsets of cells)."""

    digit: int
    bases: tuple[int, ...]     # house indices
    covers: tuple[int, ...]
    body: int                  # base candidates
    fins: int                  # exo fins | endo fins
    endo: int                  # endo fins
    elims: int                 # cells losing the digit


def _kind(an: Analysis, h: int) -> str:
    k = an.houses[h].kind
    if k in LINE:
        return k
    if k in BOXLIKE:
        return "box"
    return "extra"


def fish_kind(an: Analysis, bases: Sequence[int], covers: Sequence[int]) -> str:
    """``basic``, ``franken`` or ``mutant`` by the kinds of the base and cover houses."""
    bk = {_kind(an, h) for h in bases}
    ck = {_kind(an, h) for h in covers}
    if (bk == {"row"} and ck == {"col"}) or (bk == {"col"} and ck == {"row"}):
        return "basic"
    if (bk <= {"row", "box"} and ck <= {"col", "box"}) or \
            (bk <= {"col", "box"} and ck <= {"row", "box"}):
        return "franken"
    return "mutant"


def _house_name(an: Analysis, h: int) -> str:
    house = an.houses[h]
    k = {"row": "r", "col": "c", "box": "b"}.get(house.kind)
    parts = house.name.split()
    if k and len(parts) == 2 and parts[1].isdigit():   # "row 3" -> r3 (not "TL row 3")
        return f"{k}{parts[1]}"
    return house.name


def _compact(an: Analysis, hs: Sequence[int]) -> str:
    """``r27`` for rows 2 and 7, ``r2b5`` mixed, other houses by name."""
    names = [_house_name(an, h) for h in hs]
    if an.n <= 9 and names and all(len(x) == 2 and x[0] in "rcb" for x in names):
        out, last = "", ""
        for x in sorted(names, key=lambda s: ("rcb".index(s[0]), s[1])):
            out += x[1] if x[0] == last else x
            last = x[0]
        return out
    return ",".join(names)


#: the searches' deadline pace: ``Analysis.tick(TICK_COST)`` at every TICK_EVERY-th complete
#: base set, from the first (a base set still worth 32 units: with the budget's ``every`` of
#: 256 the clocks are read about as often as by a tick(32) per base set, at a Python call
#: per 8 base sets); the compiled kernel uses the same constants
TICK_EVERY = 8
TICK_COST = 256


def search(an: Analysis, digit: int, n: int, base_pool: Sequence[int],
           cover_pool: Sequence[int], max_fins: int = 0, max_endo: int = 0,
           need_elims: bool = True, fin_prune: bool = True,
           cover_bound: bool = True) -> list[Fish]:
    """Every fish of size ``n`` for ``digit`` with bases from ``base_pool`` (full houses)
    and covers from ``cover_pool``, at most ``max_fins`` exo and ``max_endo`` endo fins.
    Fish without eliminations are skipped when ``need_elims``; ``fin_prune=False`` keeps
    fish whose fins share no peer (for Kraken fish). ``cover_bound``: cut a branch with
    two or more covers left to take whose remaining covers cannot take in enough base
    candidates to keep the fins within ``max_fins`` (a pure speed-up: the tests compare
    both settings).

    With ``need_elims`` and ``fin_prune``, two more exact cuts: a base candidate goes by
    cannibalism only when two chosen covers hold it, so where no cell lies in more than
    two cover houses a branch that may not take one of them drops it from the cells that
    could still lose the digit; and a base set whose cover search found no fish with an
    elimination is kept in the run's memo (``an.run_memo``) and skipped while its base
    candidates are the same and the digit's candidates only shrink (every elimination it
    could then find would be one it found before).

    Runs in the compiled kernel (:func:`search_compiled`) when it is built and not
    switched off (``csp/kernel.py``), in :func:`search_python` otherwise: the same fish in
    the same order (``tests/techniques/test_fish_kernel.py``)."""
    kernel = active(_fish_kernel)
    if kernel is not None and an.size <= 128 and n < 16:
        return search_compiled(kernel, an, digit, n, base_pool, cover_pool, max_fins,
                               max_endo, need_elims, fin_prune, cover_bound)
    return search_python(an, digit, n, base_pool, cover_pool, max_fins, max_endo,
                         need_elims, fin_prune, cover_bound)


def _barren(an: Analysis, P: int, digit: int, n: int, base_pool: Sequence[int],
            cover_pool: Sequence[int], max_fins: int, max_endo: int,
            cover_bound: bool, kernel=None):
    """The run's set of barren base sets of this search (see :func:`search`): a Python set
    of (bases, U) keys, or with ``kernel`` the compiled search's own table of the same
    keys (``kernel.barren_new()``, read back by ``kernel.barren_keys``: no Python object
    per base set), kept under its own key."""
    # base sets whose cover search found no fish with an elimination, kept for the run:
    # with the same base candidates U (so the same covers, fins and cannibal cells) and
    # the digit's candidates a subset of those it was searched with, every elimination
    # the search could find is a subset of one it found before (candidates outside the
    # bases, in the covers, seeing every fin), so none: the search is skipped. Exact
    key = ("fish_barren", digit, n, tuple(base_pool), tuple(cover_pool), max_fins,
           max_endo, cover_bound, kernel is not None)
    ent = an.run_memo.get(key)
    if ent is not None and not P & ~ent[0]:
        ent[0] = P
        return ent[1]
    barren = set() if kernel is None else kernel.barren_new()
    an.run_memo[key] = [P, barren]
    return barren


def _live_bases(an: Analysis, digit: int, base_pool: Sequence[int]
                ) -> tuple[int, list[int], list[int]]:
    """The digit's candidate cells P, the house masks, and the houses of ``base_pool`` that
    are full houses and hold the digit (the compiled searches' base houses)."""
    P = an.cells_with[digit]
    hm = an.house_mask
    if not P:
        return P, hm, []
    full = an.links_memo("full_set", lambda: frozenset(an.full))
    return P, hm, [h for h in base_pool if h in full and hm[h] & P]


def search_compiled(kernel, an: Analysis, digit: int, n: int, base_pool: Sequence[int],
                    cover_pool: Sequence[int], max_fins: int = 0, max_endo: int = 0,
                    need_elims: bool = True, fin_prune: bool = True,
                    cover_bound: bool = True) -> list[Fish]:
    """:func:`search` by the compiled kernel (``techniques/_fish_kernel.c``, grids of at
    most 128 cells): the same fish in the same order as :func:`search_python`, and the
    same run memo (barren base sets); a pool of more than 64 covers goes to Python."""
    P, hm, bases = _live_bases(an, digit, base_pool)
    if not P:
        return []
    covers = [h for h in cover_pool if hm[h] & P]
    if len(bases) < n or len(covers) < n:
        return []
    if len(covers) > 64 or len(bases) > 128:
        return search_python(an, digit, n, base_pool, cover_pool, max_fins, max_endo,
                             need_elims, fin_prune, cover_bound)
    barren = (_barren(an, P, digit, n, base_pool, cover_pool, max_fins, max_endo,
                      cover_bound, kernel) if need_elims and fin_prune else None)
    found, _stopped = kernel.search(
        P, n, bases, [hm[h] & P for h in bases], covers, [hm[h] & P for h in covers],
        an.links.peers_d[digit], max_fins, max_endo, need_elims, fin_prune, cover_bound,
        barren, an.tick if an.budget.limited else None)
    return [Fish(digit, *t) for t in found]


def search_python(an: Analysis, digit: int, n: int, base_pool: Sequence[int],
                  cover_pool: Sequence[int], max_fins: int = 0, max_endo: int = 0,
                  need_elims: bool = True, fin_prune: bool = True,
                  cover_bound: bool = True) -> list[Fish]:
    """:func:`search` in Python (the reference, and the path without the kernel)."""
    out: list[Fish] = []
    P = an.cells_with[digit]
    if not P:
        return out
    hm = an.house_mask
    full = set(an.full)
    bases = [h for h in base_pool if h in full and hm[h] & P]
    covers = [h for h in cover_pool if hm[h] & P]
    if len(bases) < n or len(covers) < n:
        return out
    barren = (_barren(an, P, digit, n, base_pool, cover_pool, max_fins, max_endo,
                      cover_bound) if need_elims and fin_prune else None)
    cidx = {h: i for i, h in enumerate(covers)}
    cm = [hm[h] & P for h in covers]           # each cover's candidates
    cell_covers: dict[int, list[int]] = {}     # cell -> indices of the covers holding it
    for i, m in enumerate(cm):
        for c in iter_cells(m):
            cell_covers.setdefault(c, []).append(i)
    peers = an.links.peers_d[digit]
    # when every candidate lies in exactly one cover house (rows vs columns), the cover
    # houses a base set touches beyond n are a lower bound on the fins: prune with it
    partition = all(len(v) == 1 for v in cell_covers.values())
    # candidates in two or more cover houses: the only base candidates a fish can remove
    multi = 0
    for c, v in cell_covers.items():
        if len(v) > 1:
            multi |= 1 << c
    touch = {h: 0 for h in bases}
    if partition:
        for h in bases:
            t = 0
            for c in iter_cells(hm[h] & P):
                t |= 1 << cell_covers[c][0]
            touch[h] = t
    found: list[tuple[tuple[int, ...], int, int, int, int]] = []
    target = P
    # the base candidates of the current base set; deadU the same when no cell lies in
    # more than two cover houses (a cannibal elimination then needs both), else 0
    baseU = deadU = 0
    at_most_two = all(len(v) <= 2 for v in cell_covers.values())
    near: list[int] = []    # candidates of the covers that meet the current base set

    def cover_rec(rem: int, chosen: list[int], forb: int, fins: int, common: int,
                  V: int, twice: int, dead: int) -> None:
        # common: cells (holding the digit) that see every fin so far (-1: no fin yet);
        # forb: bitset of cover indices this branch may not take. Here two or more covers
        # are left to take and rem is not empty (one cover left: last_cover; no candidate
        # left while covers are: no fish); dead: base candidates in a cover this branch
        # may not take, which cannot go by cannibalism (that takes two chosen covers)
        k = len(chosen)
        # the n - k covers still to take leave the rest of rem as fins: too many, give up
        excess = rem.bit_count() - max_fins + fins.bit_count()
        if excess > 0 and cover_bound and (k or fins):   # (the root call: base_rec cut)
            if sum(sorted([(m & rem).bit_count() for m in near])[k - n:]) < excess:
                return
        x = (rem & -rem).bit_length() - 1
        nxt = last_cover if k + 2 == n else cover_rec
        f2 = forb
        first = -1
        for i in cell_covers.get(x, ()):
            if forb >> i & 1:
                continue
            if first < 0:
                first = i
            m = cm[i]
            if rem & ~m:
                chosen.append(i)
                nxt(rem & ~m, chosen, f2, fins, common, V | m, twice | (V & m), dead)
                chosen.pop()
            f2 |= 1 << i
            dead |= m
        if fins.bit_count() < max_fins and rem & (rem - 1):
            c2 = common & peers[x] & P
            if partition and first >= 0:
                # the fin's cover house is out, so are its cells as eliminations
                c2 &= ~cm[first]
            if c2 & target & ~(dead & deadU) or not fin_prune:
                cover_rec(rem & ~(1 << x), chosen, f2, fins | (1 << x), c2, V, twice, dead)

    def last_cover(rem: int, chosen: list[int], forb: int, fins: int, common: int,
                   V: int, twice: int, dead: int) -> None:
        # cover_rec's branches when one cover is left to take, unrolled into a loop: the
        # last cover holds the lowest uncovered candidate x (the rest are fins: a leaf),
        # or x is a fin and the next candidate is tried. The same leaves in the same order;
        # the cover bound is left out here, the leaf's own fin count makes the same cut
        nf = fins.bit_count()
        while True:
            low = rem & -rem
            x = low.bit_length() - 1
            f2 = forb
            first = -1
            for i in cell_covers.get(x, ()):
                if forb >> i & 1:
                    continue
                if first < 0:
                    first = i
                f2 |= 1 << i
                m = cm[i]
                dead |= m
                r2 = rem & ~m
                if not r2:
                    found.append((tuple([covers[j] for j in chosen]) + (covers[i],), fins,
                                  common, V | m, twice | (V & m)))
                    continue
                f = fins | r2
                if f.bit_count() > max_fins:
                    continue
                V2 = V | m
                if fin_prune:
                    # only cells of the covers that could lose the digit matter (the leaf's
                    # eliminations lie in them): AND the fins' peers into those, and stop
                    # as soon as none is left
                    # (a base candidate goes only when two chosen covers hold it)
                    com = common & target & ~f & ((V2 & ~baseU) | twice | (V & m))
                    while r2 and com:
                        lo = r2 & -r2
                        com &= peers[lo.bit_length() - 1]
                        r2 ^= lo
                    if not com:
                        continue
                else:
                    com = common
                    while r2:
                        lo = r2 & -r2
                        com &= peers[lo.bit_length() - 1]
                        r2 ^= lo
                found.append((tuple([covers[j] for j in chosen]) + (covers[i],), f,
                              com, V2, twice | (V & m)))
            if nf >= max_fins:
                return
            c2 = common & peers[x] & P
            if partition and first >= 0:
                c2 &= ~cm[first]
            if not (c2 & target & ~(dead & deadU) or not fin_prune):
                return
            rem ^= low
            if not rem:
                return          # every candidate left a fin: n - 1 covers are not a fish
            forb = f2
            fins |= low
            nf += 1
            common = c2

    nb = len(bases)
    limited = an.budget.limited
    stopped = False     # the solver's deadline passed: unwind
    nbase = 0           # complete base sets so far (the deadline's pace)

    def base_rec(start: int, chosen: list[int], U: int, endo: int, common: int,
                 hit: int) -> None:
        nonlocal stopped
        if len(chosen) == n:
            nonlocal target, baseU, deadU, nbase
            baseU = U
            deadU = U if at_most_two else 0
            # a base set's cover search can be long (finned Franken/Mutant fish): the
            # deadline is read every TICK_EVERY base sets, from the first
            if limited:
                nbase += 1
                if (nbase - 1) % TICK_EVERY == 0 and an.tick(TICK_COST):
                    stopped = True
                    return
            if barren is not None:
                bkey = (tuple(chosen), U)
                if bkey in barren:
                    return
            found.clear()
            base_forb = 0
            for h in chosen:
                if h in cidx:
                    base_forb |= 1 << cidx[h]
            near[:] = [m for i, m in enumerate(cm) if m & U and not base_forb >> i & 1]
            rem = U & ~endo
            if n > 1 and cover_bound:
                # the cover bound of cover_rec's first call, before the base set's set-up:
                # n covers cannot take in enough of the base candidates to keep the fins
                # within max_fins (a third of the base sets end here)
                excess = rem.bit_count() - max_fins
                if excess > 0 and sum(sorted([(m & rem).bit_count() for m in near])[-n:]
                                      ) < excess:
                    return
            # eliminations lie outside the bases, unless covers overlap (cannibalism: a
            # base candidate in two chosen covers, which are never base houses)
            target = P & ~U
            if not partition:
                cann = U & multi
                if base_forb:
                    for c in iter_cells(cann):
                        if sum(1 for i in cell_covers[c] if not base_forb >> i & 1) < 2:
                            cann &= ~(1 << c)
                target |= cann
            if rem:
                (last_cover if n == 1 else cover_rec)(rem, [], base_forb, 0, common, 0, 0, 0)
            some = False
            for cov, exo, com, V, twice in found:
                fins = exo | endo
                elims = (V & ~U) | (twice & U & ~fins)
                if fins:
                    elims &= com & ~fins
                    if not fin_prune:
                        elims = V & ~U & ~fins
                if elims or not need_elims:
                    some = True
                    out.append(Fish(digit, tuple(chosen), tuple(sorted(cov)), U, fins, endo,
                                    elims))
            if barren is not None and not some:
                barren.add(bkey)
            return
        for i in range(start, nb - (n - len(chosen)) + 1):
            h = bases[i]
            m = hm[h] & P
            if partition:
                h2 = hit | touch[h]
                if h2.bit_count() > n + max_fins:
                    continue
            else:
                h2 = 0
            e = U & m
            com = common
            if e:
                if (endo | e).bit_count() > max_endo:
                    continue
                for c in iter_cells(e):
                    com &= peers[c]
                if not com & P & ~(endo | e):
                    continue
            chosen.append(h)
            base_rec(i + 1, chosen, U | m, endo | e, com, h2)
            chosen.pop()
            if stopped:
                return

    # past the deadline what was found is still sound but not complete: an.tick() marked
    # the analysis timed out, so digit_memo does not keep it
    base_rec(0, [], 0, 0, -1, 0)
    return out


def _pools(an: Analysis, kind: str) -> list[tuple[list[int], list[int]]]:
    """(base pool, cover pool) pairs to search for a fish kind (kept per puzzle)."""
    return an.links_memo(("fish_pools", kind), lambda: _make_pools(an, kind))


def _pool_tables(an: Analysis, kind: str) -> list[tuple]:
    """:func:`_pools` with, per pair, what the partition search reads of it (kept per
    puzzle, or per analysis on a multi-grid): (base pool, cover pool, the cover index
    (:func:`_cover_index`, None unless ``kind`` is basic), the base pool's full houses,
    the cover houses' masks)."""
    def build() -> list[tuple]:
        full = an.links_memo("full_set", lambda: frozenset(an.full))
        hm = an.house_mask
        return [(bp, cp, _cover_index(an, cp) if kind == "basic" else None,
                 [h for h in bp if h in full], [hm[h] for h in cp])
                for bp, cp in _pools(an, kind)]
    if an.grid.subgrids:
        return an.memo(("fish_pool_tables", kind), build)
    return an.links_memo(("fish_pool_tables", kind), build)


def _make_pools(an: Analysis, kind: str) -> list[tuple[list[int], list[int]]]:
    def of(*kinds: str) -> list[int]:
        return [h for h in range(len(an.houses)) if _kind(an, h) in kinds]

    if kind == "basic":
        pools = [(of("row"), of("col")), (of("col"), of("row"))]
    elif kind == "franken":
        pools = [(of("row", "box"), of("col", "box")), (of("col", "box"), of("row", "box"))]
    else:
        allh = list(range(len(an.houses)))
        pools = [(allh, allh)]
    return _per_subgrid(an, pools)


def _per_subgrid(an: Analysis, pools: list[tuple[list[int], list[int]]]
                 ) -> list[tuple[list[int], list[int]]]:
    """On a multi-grid (samurai: 45 rows, 45 columns) fish are searched inside each
    sub-grid, as a human does: the pools over all houses are too large to search. Sound
    either way; fish spanning two sub-grids are not looked for."""
    subgrids = an.grid.subgrids
    if not subgrids:
        return pools
    return an.memo(("fish_pools", tuple(map(tuple, (p for pair in pools for p in pair)))),
                   lambda: _split(an, pools, subgrids))


def _split(an: Analysis, pools, subgrids) -> list[tuple[list[int], list[int]]]:
    hm = an.house_mask
    out = []
    for cells in subgrids:
        m = 0
        for c in cells:
            m |= 1 << c
        inside = {h for h in range(len(hm)) if not hm[h] & ~m}
        out += [([h for h in bp if h in inside], [h for h in cp if h in inside])
                for bp, cp in pools]
    return out


def _cover_index(an: Analysis, cover_pool: Sequence[int]) -> list[int] | None:
    """Per cell, the index in ``cover_pool`` of its one cover house, or None when the pool
    does not partition the grid (kept per puzzle)."""
    def build() -> list[int] | None:
        of = [-1] * an.size
        for i, h in enumerate(cover_pool):
            for c in iter_cells(an.house_mask[h]):
                if of[c] != -1:
                    return None
                of[c] = i
        return None if -1 in of else of
    return an.links_memo(("fish_cover_index", tuple(cover_pool)), build)


def search_partition(an: Analysis, digit: int, n: int, base_pool: Sequence[int],
                     cover_pool: Sequence[int], cover_of: list[int],
                     max_fins: int = 0) -> list[Fish]:
    """:func:`search` for cover pools that partition the grid (rows or columns) and
    disjoint bases, with ``need_elims`` and fin pruning: the same fish in the same order.

    Each base is reduced to the set of cover houses it touches (a small int); a base set
    touching more than ``n + max_fins`` covers cannot be covered. A touched cover left out
    turns its base candidates into fins, which every elimination must see: per cover the
    candidates outside the bases and outside that cover that see all its base candidates
    are kept ("fin peers", ANDed base by base). A cover whose fin peers are empty must be chosen, and that only
    gets worse as bases are added, so a base set with more than n such covers is pruned
    with all its supersets. The cover sets are the n-subsets of the touched covers (in
    the order :func:`search` visits them: by their lowest base candidate,
    lexicographically). Compiled or in Python as :func:`search`."""
    kernel = active(_fish_kernel)
    if kernel is not None and an.size <= 128 and len(cover_pool) <= 64 and n < 16:
        return search_partition_compiled(kernel, an, digit, n, base_pool, cover_pool,
                                         cover_of, max_fins)
    return search_partition_python(an, digit, n, base_pool, cover_pool, cover_of, max_fins)


def search_partition_compiled(kernel, an: Analysis, digit: int, n: int,
                              base_pool: Sequence[int], cover_pool: Sequence[int],
                              cover_of: list[int], max_fins: int = 0) -> list[Fish]:
    """:func:`search_partition` by the compiled kernel (at most 128 cells and 64 covers):
    the same fish in the same order as :func:`search_partition_python`."""
    P, hm, bases = _live_bases(an, digit, base_pool)
    if not P or len(bases) < n:
        return []
    found = kernel.search_partition(P, n, bases, [hm[h] & P for h in bases], cover_pool,
                                    [hm[h] for h in cover_pool], cover_of,
                                    an.links.peers_d[digit], max_fins)
    return [Fish(digit, *t) for t in found]


def search_partition_python(an: Analysis, digit: int, n: int, base_pool: Sequence[int],
                            cover_pool: Sequence[int], cover_of: list[int],
                            max_fins: int = 0) -> list[Fish]:
    """:func:`search_partition` in Python (the reference, and the path without the
    kernel)."""
    out: list[Fish] = []
    P = an.cells_with[digit]
    if not P:
        return out
    hm = an.house_mask
    full = an.links_memo("full_set", lambda: frozenset(an.full))
    peers = an.links.peers_d[digit]
    nc = len(cover_pool)
    finned = max_fins > 0
    bases = []
    for h in base_pool:
        if h in full:
            m = hm[h] & P
            if m:
                t = 0
                pk = [-1] * nc if finned else None
                for c in iter_cells(m):
                    i = cover_of[c]
                    t |= 1 << i
                    if finned:
                        # eliminations never lie in a cover that is left out
                        pk[i] &= peers[c] & ~hm[cover_pool[i]]
                bases.append((h, m, t, pk))
    if not finned:
        # without fins a base touching more than n covers can never be covered
        bases = [b for b in bases if b[2].bit_count() <= n]
    nb = len(bases)
    if nb < n:
        return out
    lim = n + max_fins
    count_fins = n > max_fins          # a cover could then hold too many fins by itself
    cover_cells = [hm[h] & P for h in cover_pool]

    def leaf(chosen: list[int], U: int, T: int, CP: list[int] | None,
             pk: list[int] | None) -> None:
        # CP: the fin peers of the first n - 1 bases (None for one base), pk: the last
        # base's; a cover's fin peers are ANDed here, only for the covers touched
        notU = P & ~U
        tc = []
        while T:
            low = T & -T
            i = low.bit_length() - 1
            T ^= low
            m = cover_cells[i]
            fm = m & U
            if pk is None:
                cp = 0
            elif CP is None:
                cp = pk[i] & notU
            else:
                cp = CP[i] & pk[i] & notU
            if cp and count_fins and fm.bit_count() > max_fins:
                cp = 0
            tc.append((fm & -fm, i, m, cp))
        k = len(tc)
        if k < n:
            return
        tc.sort()
        need = k - n                   # covers to leave out
        if need == 0:
            V = 0
            for t in tc:
                V |= t[2]
            elims = V & notU
            if elims:
                out.append(Fish(digit, tuple(chosen),
                                tuple(sorted(cover_pool[t[1]] for t in tc)), U, 0, 0, elims))
            return
        opt = [j for j in range(k) if tc[j][3]]
        if len(opt) < need:
            return
        found: list[tuple[tuple[int, ...], int, int, int]] = []

        def drop(start: int, left: int, out_mask: int, acc: int, nf: int) -> None:
            if not left:
                V = 0
                for j in range(k):
                    if not out_mask >> j & 1:
                        V |= tc[j][2]
                elims = V & acc
                if elims:
                    combo = tuple(j for j in range(k) if not out_mask >> j & 1)
                    found.append((combo, U & ~V, elims, V))
                return
            for x in range(start, len(opt) - left + 1):
                j = opt[x]
                a2 = acc & tc[j][3]
                if not a2:
                    continue
                nf2 = nf + (tc[j][2] & U).bit_count()
                if nf2 > max_fins:
                    continue
                drop(x + 1, left - 1, out_mask | 1 << j, a2, nf2)

        drop(0, need, 0, notU, 0)
        found.sort()
        for combo, fins, elims, _ in found:
            out.append(Fish(digit, tuple(chosen),
                            tuple(sorted(cover_pool[tc[j][1]] for j in combo)), U, fins, 0,
                            elims))

    def mandatory(T2: int, U2: int, CPa: list[int], CPb: list[int] | None) -> int:
        """How many of the touched covers ``T2`` cannot be left out: a cover's fins would
        need a peer outside the body (``CPa[j] & CPb[j]``, the fin peers so far, must meet
        ``P & ~U2``) and within the fin budget. More than ``n`` of them: no fish here."""
        notU = P & ~U2
        mand = 0
        tt = T2
        while tt:
            low = tt & -tt
            j = low.bit_length() - 1
            tt ^= low
            m = CPa[j] if CPb is None else CPa[j] & CPb[j]
            if not m & notU or (count_fins and (cover_cells[j] & U2).bit_count() > max_fins):
                mand += 1
        return mand

    def rec(start: int, chosen: list[int], U: int, T: int, CP: list[int] | None) -> None:
        k = len(chosen)
        last = k == n - 1
        for i in range(start, nb - (n - k) + 1):
            h, m, t, pk = bases[i]
            T2 = T | t
            if T2.bit_count() > lim:
                continue
            U2 = U | m
            if last:
                # the last base: its fin peers are ANDed in for the touched covers only
                if finned and (mandatory(T2, U2, pk, None) if CP is None
                               else mandatory(T2, U2, CP, pk)) > n:
                    continue
                chosen.append(h)
                leaf(chosen, U2, T2, CP, pk)
                chosen.pop()
                continue
            CP2 = None
            if finned:
                CP2 = [x & y for x, y in zip(CP, pk)] if CP is not None else pk
                if mandatory(T2, U2, CP2, None) > n:
                    continue
            chosen.append(h)
            rec(i + 1, chosen, U2, T2, CP2)
            chosen.pop()

    rec(0, [], 0, 0, None)
    return out


#: every fish's option: the reglib runner's search hint
FISH_OPTIONS = Options(only_digits=Option(
    None, "search only these digits (None: all; a hint, as the reglib runner gives)",
    (tuple, list)))
#: finned, sashimi and siamese fish
FINNED_FISH_OPTIONS = FISH_OPTIONS.with_(
    max_fins=Option(5, "most fins", int),
    max_endo_fins=Option(2, "most endo fins (Franken and Mutant fish)", int))
#: kraken fish
KRAKEN_OPTIONS = FISH_OPTIONS.with_(
    max_size=Option(3, "largest fish (3: swordfish)", int),
    max_fins=Option(2, "most fins", int),
    max_steps=Option(200, "most steps reported per call", int))


def find_fish(an: Analysis, kind: str, n: int, finned: bool, opts: dict,
              digits: Sequence[int] | None = None) -> list[Fish]:
    """All fish of a kind and size (``finned``: with fins, else without) for ``digits``
    (default all), memoised per digit."""
    max_fins = int(FINNED_FISH_OPTIONS.read(opts, "max_fins")) if finned else 0
    max_endo = (int(FINNED_FISH_OPTIONS.read(opts, "max_endo_fins"))
                if finned and kind != "basic" else 0)
    out: list[Fish] = []
    for d in (range(1, an.n + 1) if digits is None else digits):
        # the search reads only the digit's candidate cells and the puzzle's houses/links
        out += an.digit_memo(("fish", kind, n, finned, max_fins, max_endo), d,
                             lambda d=d: _find_digit(an, kind, n, finned, max_fins,
                                                     max_endo, d))
    return out


def _find_digit(an: Analysis, kind: str, n: int, finned: bool, max_fins: int,
                max_endo: int, d: int) -> list[Fish]:
    out: list[Fish] = []
    seen: set = set()
    kernel = active(_fish_kernel) if kind == "basic" and an.size <= 128 and n < 16 else None
    for bp, cp, cover_of, full_bases, cover_masks in _pool_tables(an, kind):
        if cover_of is not None:
            if kernel is not None and len(cp) <= 64:
                # search_partition_compiled, the pool's tables read once per puzzle
                P = an.cells_with[d]
                if not P:
                    continue
                hm = an.house_mask
                bases = [h for h in full_bases if hm[h] & P]
                if len(bases) < n:
                    continue
                found = [Fish(d, *t) for t in kernel.search_partition(
                    P, n, bases, [hm[h] & P for h in bases], cp, cover_masks, cover_of,
                    an.links.peers_d[d], max_fins)]
            else:
                found = search_partition(an, d, n, bp, cp, cover_of, max_fins)
        else:
            found = search(an, d, n, bp, cp, max_fins, max_endo)
        for f in found:
            if bool(f.fins) != finned:
                continue
            if kind != "basic" and fish_kind(an, f.bases, f.covers) != kind:
                continue
            k = (frozenset(f.bases), frozenset(f.covers))
            if k in seen:
                continue
            seen.add(k)
            out.append(f)
    return out


def is_sashimi(an: Analysis, f: Fish) -> bool:
    """A finned basic fish is sashimi when some base keeps at most one candidate without
    its fins."""
    for h in f.bases:
        if (an.house_mask[h] & f.body & ~f.fins).bit_count() <= 1:
            return True
    return False


def _step(an: Analysis, name: str, title: str, f: Fish, elims: int | None = None,
          extra_fins: int = 0, covers2: Sequence[int] = ()) -> Step:
    d = f.digit
    e = f.elims if elims is None else elims
    fins = f.fins | extra_fins
    exo = fins & ~f.endo
    note = f"{d} {_compact(an, f.bases)} {_compact(an, f.covers)}"
    if covers2:
        note += f"/{_compact(an, covers2)}"
    if exo:
        note += " " + " ".join("f" + an.name(c) for c in iter_cells(exo))
    if f.endo:
        note += " " + " ".join("ef" + an.name(c) for c in iter_cells(f.endo))
    return Step(name, eliminations=tuple(Candidate(c, d) for c in iter_cells(e)),
                pattern=tuple(Candidate(c, d) for c in iter_cells(f.body)),
                houses=tuple(an.houses[h].name for h in (*f.bases, *f.covers)),
                digits=(d,), title=title, note=note, namer=an.grid.namer,
                extra={"bases": f.bases, "covers": f.covers, "fins": fins})


def _digits(an: Analysis, opts: dict) -> Sequence[int]:
    """The digits to search: all, or the ``only_digits`` option (a search hint)."""
    only = FISH_OPTIONS.read(opts, "only_digits")
    return tuple(only) if only else tuple(range(1, an.n + 1))


def _make_finder(name: str, title: str, kind: str, n: int, sub: str):
    finned = sub != "basic"
    want = sub == "sashimi"

    def finder(an: Analysis, opts: dict) -> Iterator[Step]:
        # find_fish per digit (finned basic fish split into sashimi or not), the options
        # read once a call: a state asks every fish technique of the plan for every
        # digit, and most answers come from the digit memo
        max_fins = int(FINNED_FISH_OPTIONS.read(opts, "max_fins")) if finned else 0
        max_endo = (int(FINNED_FISH_OPTIONS.read(opts, "max_endo_fins"))
                    if finned and kind != "basic" else 0)
        key = ("fish", kind, n, finned, max_fins, max_endo)
        memo = an.digit_memo
        for d in _digits(an, opts):
            fish = memo(key, d, lambda d=d: _find_digit(an, kind, n, finned, max_fins,
                                                        max_endo, d))
            if finned and kind == "basic":
                fish = [f for f in fish if is_sashimi(an, f) == want]
            for f in fish:
                yield _step(an, name, title, f)

    finder.__name__ = name
    finder.__doc__ = f"{title}: {sub} {kind} fish of size {n}."
    return finder


def _make_siamese(name: str, title: str, kind: str, n: int, sub: str):
    def finder(an: Analysis, opts: dict) -> Iterator[Step]:
        groups: dict[tuple, list[Fish]] = {}
        for f in find_fish(an, kind, n, True, opts, _digits(an, opts)):
            groups.setdefault((f.digit, tuple(sorted(f.bases))), []).append(f)
        for group in groups.values():
            for a, b in combinations(group, 2):
                if a.elims == b.elims:
                    continue
                if kind == "basic" and (is_sashimi(an, a) and is_sashimi(an, b)) != (
                        sub == "sashimi"):
                    continue
                yield _step(an, name, title, a, a.elims | b.elims, b.fins, b.covers)

    finder.__name__ = name
    finder.__doc__ = (f"{title}: two {sub} {kind} fish of size {n} on the same base houses, "
                      "reported as one step with both sets of eliminations.")
    return finder


# (name prefix, title prefix, kind, sub, code prefix): one technique per size 2..7 (X-Wing ..
# Leviathan); their order, score, level and default on/off are rows of techniques/ladder.py
TABLE = [
    ("", "", "basic", "basic", "030"),
    ("finned_", "Finned ", "basic", "finned", "031"),
    ("sashimi_", "Sashimi ", "basic", "sashimi", "032"),
    ("franken_", "Franken ", "franken", "basic", "033"),
    ("finned_franken_", "Finned Franken ", "franken", "finned", "034"),
    ("mutant_", "Mutant ", "mutant", "basic", "035"),
    ("finned_mutant_", "Finned Mutant ", "mutant", "finned", "036"),
]
#: Siamese codes of the HoDoKu library: (name prefix, kind, sub, size) -> code
SIAMESE = [("finned_", "Finned ", "basic", "finned", 3, "03111"),
           ("finned_", "Finned ", "basic", "finned", 4, "03121"),
           ("sashimi_", "Sashimi ", "basic", "sashimi", 3, "03211"),
           ("sashimi_", "Sashimi ", "basic", "sashimi", 4, "03221"),
           ("finned_franken_", "Finned Franken ", "franken", "finned", 3, "03411"),
           ("finned_franken_", "Finned Franken ", "franken", "finned", 4, "03421"),
           ("finned_mutant_", "Finned Mutant ", "mutant", "finned", 4, "03621")]


for _np, _tp, _kind_, _sub, _cp in TABLE:
    for _n in range(2, 8):
        _name = _np + NAMES[_n].lower().replace("-", "_")
        _title = _tp + NAMES[_n]
        register(_name, _title, "fish", code=f"{_cp}{_n - 2}",
                 options=FINNED_FISH_OPTIONS if _sub != "basic" else FISH_OPTIONS)(
            _make_finder(_name, _title, _kind_, _n, _sub))

for _np, _tp, _kind_, _sub, _n, _code in SIAMESE:
    _base = _np + NAMES[_n].lower()
    register("siamese_" + _base, "Siamese " + _tp + NAMES[_n], "fish", code=_code,
             options=FINNED_FISH_OPTIONS)(
        _make_siamese("siamese_" + _base, "Siamese " + _tp + NAMES[_n], _kind_, _n, _sub))

x_wing = _make_finder("x_wing", "X-Wing", "basic", 2, "basic")


# -- Kraken fish ------------------------------------------------------------------------


def assume(an: Analysis, cell: int, digit: int, max_steps: int = 200) -> list[int] | None:
    """Candidates after assuming ``digit`` in ``cell`` and propagating its weak links,
    naked singles and hidden singles (full houses); ``None`` when that contradicts.
    Memoised per analysis. Sound: every removal follows from the assumption.

    >>> from variants.classic import classic_puzzle
    >>> an = Analysis(classic_puzzle("." * 81).pencilmarks())
    >>> after = assume(an, 0, 5)
    >>> after[0] == 1 << 5, after[1] >> 5 & 1, after[10] >> 5 & 1, after[40] >> 5 & 1
    (True, 0, 0, 1)
    """
    return an.memo(("assume", cell, digit, max_steps),
                   lambda: _assume(an, cell, digit, max_steps))


def _assume(an: Analysis, cell: int, digit: int, max_steps: int) -> list[int] | None:
    cand = an.cand[:]
    links = an.links
    hm = an.house_mask
    placed_in = [0] * len(an.houses)
    for h in an.full:
        for c in an.houses[h].cells:
            v = an.state.placed[c]
            if v:
                placed_in[h] |= 1 << v
    cw = list(an.cells_with)
    assigned: dict[int, int] = {}
    queue = [(cell, digit)]
    steps = 0
    while queue:
        while queue:
            c, d = queue.pop()
            if c in assigned:
                if assigned[c] != d:
                    return None
                continue
            if not cand[c] >> d & 1:
                return None
            steps += 1
            if steps > max_steps:
                return cand
            assigned[c] = d
            m = cand[c] & ~(1 << d)
            cand[c] = 1 << d
            while m:
                low = m & -m
                cw[low.bit_length() - 1] &= ~(1 << c)
                m ^= low
            for c2, d2 in links.weak_neighbours(c, d):
                if c2 != c and cand[c2] >> d2 & 1:
                    cand[c2] &= ~(1 << d2)
                    cw[d2] &= ~(1 << c2)
                    if not cand[c2]:
                        return None
                    if not cand[c2] & (cand[c2] - 1):
                        queue.append((c2, cand[c2].bit_length() - 1))
        for h in an.full:
            for d in range(1, an.n + 1):
                if placed_in[h] >> d & 1:
                    continue
                p = cw[d] & hm[h]
                if not p:
                    return None
                if not p & (p - 1):
                    c = p.bit_length() - 1
                    if c not in assigned:
                        queue.append((c, d))
    return cand


@register("kraken_fish_type_1", "Kraken Fish Type 1", "fish", code="0371",
          options=KRAKEN_OPTIONS)
def kraken_fish_type_1(an: Analysis, opts: dict) -> Iterator[Step]:
    """A finned basic fish whose fins do not all see a cover candidate ``e``: when every
    fin, assumed true, removes ``e`` (by weak links and singles), ``e`` goes anyway (no fin
    true: the fish removes it). The fins' consequences come from singles propagation (a
    small forcing net per fin, see :func:`assume`) rather than HoDoKu's single chains, so
    it finds a superset of HoDoKu's type 1 eliminations; the step names the fish and its
    fins. Options: ``max_size`` (fish size, default 3), ``max_fins`` (2), ``max_steps``
    (assumption propagation budget, 200)."""
    seen: set = set()
    max_size = int(KRAKEN_OPTIONS.read(opts, "max_size"))
    max_fins = int(KRAKEN_OPTIONS.read(opts, "max_fins"))
    max_steps = int(KRAKEN_OPTIONS.read(opts, "max_steps"))
    for d in _digits(an, opts):
        for n in range(2, max_size + 1):
            key = ("kraken_fish", n, max_fins, d)
            fishes = an.memo(key, lambda n=n, d=d: [
                f for bp, cp in _pools(an, "basic")
                for f in search(an, d, n, bp, cp, max_fins, 0, need_elims=True,
                                fin_prune=False) if f.fins])
            for f in fishes:
                if an.expired():
                    return
                targets = f.elims
                plain = an.common_peers(d, f.fins)
                if not targets & ~plain:
                    continue                    # an ordinary finned fish
                for fin in iter_cells(f.fins):
                    after = assume(an, fin, d, max_steps)
                    if after is not None:
                        targets &= ~_cells_with(after, d)
                    if not targets & ~plain:
                        break
                if targets & ~plain and (d, targets) not in seen:
                    seen.add((d, targets))
                    yield _step(an, "kraken_fish_type_1", "Kraken Fish Type 1", f, targets)


def _cells_with(cand: list[int], d: int) -> int:
    out = 0
    for c, m in enumerate(cand):
        if m >> d & 1:
            out |= 1 << c
    return out


@register("kraken_fish_type_2", "Kraken Fish Type 2", "fish", code="0372",
          options=KRAKEN_OPTIONS)
def kraken_fish_type_2(an: Analysis, opts: dict) -> Iterator[Step]:
    """A finned basic fish and one of its cover houses ``C``: some fin is true, or the
    fish holds and the digit of ``C`` is one of the fish's cells in ``C``. A candidate
    (any digit) that every one of these, assumed true, removes (weak links and singles,
    see :func:`assume`) goes. Options as for type 1."""
    max_size = int(KRAKEN_OPTIONS.read(opts, "max_size"))
    max_fins = int(KRAKEN_OPTIONS.read(opts, "max_fins"))
    max_steps = int(KRAKEN_OPTIONS.read(opts, "max_steps"))
    seen: set = set()
    hm = an.house_mask
    for d in _digits(an, opts):
        P = an.cells_with[d]
        for n in range(2, max_size + 1):
            key = ("kraken_fish2", n, max_fins, d)
            fishes = an.memo(key, lambda n=n, d=d: [
                f for bp, cp in _pools(an, "basic")
                for f in search(an, d, n, bp, cp, max_fins, 0, need_elims=False,
                                fin_prune=False) if f.fins])
            for f in fishes:
                if an.expired():
                    return
                plain = an.common_peers(d, f.fins) & P & ~f.body
                for C in f.covers:
                    sources = list(iter_cells(f.fins | (hm[C] & f.body)))
                    left: list[int] | None = None       # per digit: cells still possible
                    for s in sources:
                        after = assume(an, s, d, max_steps)
                        if after is None:
                            continue
                        keep = [_cells_with(after, x) for x in range(an.n + 1)]
                        left = keep if left is None else [a | b for a, b in zip(left, keep)]
                    if left is None:
                        continue
                    elims = tuple(Candidate(c, x) for x in range(1, an.n + 1)
                                  for c in iter_cells(an.cells_with[x] & ~left[x]))
                    extra = [e for e in elims if e.digit != d or not plain >> e.cell & 1]
                    if not extra:
                        continue
                    k = frozenset(elims)
                    if k in seen:
                        continue
                    seen.add(k)
                    base = _step(an, "kraken_fish_type_2", "Kraken Fish Type 2", f, 0)
                    yield Step("kraken_fish_type_2", eliminations=elims, pattern=base.pattern,
                               houses=base.houses, digits=tuple(sorted({e.digit
                                                                        for e in elims})),
                               title="Kraken Fish Type 2",
                               note=f"{base.note} cover {an.houses[C].name}", namer=an.grid.namer,
                               extra=base.extra)
