"""Chains: X-Chain, XY-Chain, Remote Pair, nice loops and AICs (plain and grouped).

All chain techniques run on one *candidate node graph* (built per state, cached):

- a node is a candidate (cell, digit) or, in grouped searches, a *group*: the 2+ cells of a
  digit in the intersection of two full houses (a box-line intersection in classic sudoku)
  or, for a digit with same-digit links beyond the houses (anti-knight, anti-king ...), a
  *house group*: the digit's places in a full house but one cell (or but a box-line group),
  kept when a candidate outside the house sees all its cells (:func:`_house_groups`: "the
  3 of row 2 is in r2c2 or in r2c5/r2c8, and both of those are a knight's move from r1c7");
- a *strong link* joins two nodes of which at least one is true: the two candidates of a
  bivalue cell, or two nodes covering all places of a digit in a full house;
- a *weak link* joins two nodes that cannot both be true: one digit in cells that see each
  other (``an.peers``, so variant houses and anti-knight style links count), two digits of a
  cell, and cross-digit pairs ruled out by binary constraints (``LinkTables.cross``), also
  between a group and a candidate of another digit that every cell of the group rules out
  (``(8)r3c4,r3c6 - (2)r3c5`` when both cells sit on a black dot with r3c5).

Searches are breadth-first over implications with bitsets of node indices ("X false"
follows strong links to "Y true", "Y true" follows weak links to "Z false"), so the chain
found for a result is a shortest one; ``max_length`` (links) caps it. Only nodes with a
strong link (*hubs*) lead on from a false node, so searches expand through them alone;
discontinuous nice loops and AICs first take every start's search at once (the sets of
starts reaching each hub, passed along the hubs' links: :func:`_reach_closure`) and search
from a start only where that shows a loop or chain to report. An implication
``S false => T true`` is an AIC (S or T is true); from it:

- AIC: candidates seeing both ends are eliminated;
- continuous nice loop: the ends see each other, every weak link of the loop becomes
  strong and candidates seeing both of its nodes are eliminated;
- discontinuous nice loop: ``C true => C false`` deletes C (type "delete"),
  ``C false => C true`` sets C (type "set": the other candidates of its cell go).

HoDoKu's library variants select the elimination types: 0707/0710 ``-1``/``-3`` set,
``-2``/``-4`` delete; 0708/0711 ``-1``/``-3`` AIC ends with one digit, ``-2``/``-4`` two digits;
``-3``/``-4`` and 0709 ``-2`` add ALS nodes (option ``als``: the largest ALS, 5 there, 0 =
off by default).

Options (defaults): ``max_length`` 20 links for X-/XY-chains, nice loops and AICs (the
searches are breadth-first, so this only bounds the depth); ``groups`` True for the grouped
techniques; ``als`` 0; ``types`` "12"; ``both_ways`` False (continuous loops also searched
from each node taken true: more loops, twice the searches); remote pairs ``max_cells`` 20.

Like HoDoKu, a continuous loop's weak link between two cells eliminates only outside the
cells of the loop; one step is reported per distinct elimination set.

The compiled kernel ``techniques._chain_kernel`` (``techniques/_chain_kernel.c``, when built;
``csp/kernel.py``) builds the graph (not ALS nodes or cross-digit links; grids of up to 128
cells) and runs the searches (:func:`_search`, :func:`_path`, the closure, the continuous
loops' paths) with the same results; this module's code is the reference and the fallback
(``tests/techniques/test_chain_kernel.py`` compares both).
"""
from __future__ import annotations

from typing import Callable, Iterator, Sequence

from csp.bits import digits_of, union_of
from csp.kernel import active
from csp.links import LinkTables
from csp.step import Candidate, Link, Step, cell_name

from .als import full_house_als
from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

try:
    from . import _chain_kernel
except ImportError:  # not built (no C compiler): the pure-Python path
    _chain_kernel = None


# ------------------------------------------------------------------------------------------
# the node graph
# ------------------------------------------------------------------------------------------
#: bytes 0 and 1 -> the digits "0" and "1" (:meth:`ChainGraph.hubs`)
_BINARY = bytes.maketrans(b"\x00\x01", b"01")


class ChainGraph:
    """Nodes and links of one state for one kind of chain search.

    ``nodes[i]`` = (digit, cell bitset); ``strong[i]`` / ``weak[i]`` are bitsets of node
    indices; ``cands`` is the bitset of single-candidate nodes (candidate (d, cell) is node
    ``(d - 1) * size + cell``).
    """

    __slots__ = ("nodes", "strong", "weak", "cands", "width", "als", "searches",
                 "extra", "als_exit", "size", "_hubs", "_kernel")

    def __init__(self) -> None:
        self.nodes: list[tuple[int, int]] = []
        #: node index -> (ALS cell bitset, ALS digit mask) for ALS nodes
        self.als: dict[int, tuple[int, int]] = {}
        #: (ALS node, candidate node) -> digit mask Y: the ALS, its node's digit missing,
        #: removes every digit of Y from the candidate's cell, leaving only the candidate
        self.als_exit: dict[tuple[int, int], int] = {}
        #: cached searches: (start, start value, max length) -> (levels, reached)
        self.searches: dict[tuple[int, bool, int], tuple[list[tuple[int, int]], int]] = {}
        self.strong: list[int] = []
        self.weak: list[int] = []
        self.cands = 0
        self.width = 9
        self.extra = 0
        #: cells per digit block: candidate (d, cell) is node (d - 1) * size + cell
        self.size = 0
        self._hubs: int | None = None
        #: the compiled kernel's copy of the links (None: not made yet, False: none)
        self._kernel = None

    def hubs(self) -> int:
        """Bitset of the nodes with a strong link (computed on first use, once the graph
        is built): only they lead on from a false node, so a search expands its false
        front through them alone, and only they can start an AIC."""
        h = self._hubs
        if h is None:
            # one byte per node (1: has a strong link), read as a binary number: C loops
            # only (a Python loop over the ~15,000 slots of a 25x25 graph costs ~2 ms)
            flags = bytes(map(bool, self.strong)).translate(_BINARY)[::-1]
            h = self._hubs = int(flags, 2) if flags else 0
        return h

    def use_kernel(self, ctx, hubs: int | None = None) -> None:
        """Keep the compiled kernel's context of the links (False: the kernel declined
        the graph) and, when the kernel built the graph, its hub bitset."""
        self._kernel = ctx
        if hubs is not None:
            self._hubs = hubs

    def relinked(self) -> None:
        """Forget what was derived from the links (the hubs, the kernel's copy): nodes or
        links were added after the build (:func:`_house_groups`)."""
        self._hubs = None
        self._kernel = None

    def starts(self) -> int:
        """Bitset of the nodes a search may start from: present candidates and the group
        and ALS nodes (appended after the candidate slots)."""
        n_cand = len(self.strong) - self.extra
        return self.cands | (((1 << self.extra) - 1) << n_cand)

    def add(self, digit: int, cells: int) -> int:
        self.extra += 1
        i = len(self.nodes)
        self.nodes.append((digit, cells))
        self.strong.append(0)
        self.weak.append(0)
        return i

    def node(self, i: int) -> tuple[Candidate, ...]:
        """The candidates of a node (an ALS node shows all candidates of its ALS)."""
        if i in self.als:
            cells, dm = self.als[i]
            return tuple(Candidate(c, d) for c in iter_cells(cells) for d in digits_of(dm))
        d, cells = self.nodes[i]
        return tuple(Candidate(c, d) for c in iter_cells(cells))

    def candidates(self, bits: int) -> tuple[Candidate, ...]:
        out = []
        for i in iter_cells(bits):
            d, cells = self.nodes[i]
            out.append(Candidate(cells.bit_length() - 1, d))
        return tuple(sorted(out))


def _intersections(an: Analysis) -> list[tuple[int, tuple[int, ...]]]:
    """``(cells, houses)`` where 2+ full houses intersect in 2+ cells (static, cached per
    puzzle)."""
    return an.links.derived(_full_intersections)


def _full_intersections(links: LinkTables) -> list[tuple[int, tuple[int, ...]]]:
    found: dict[int, set[int]] = {}
    full, hm = links.full, links.house_mask
    for i, h1 in enumerate(full):
        for h2 in full[i + 1:]:
            m = hm[h1] & hm[h2]
            if m & (m - 1):
                found.setdefault(m, set()).update((h1, h2))
    return [(m, tuple(sorted(hs))) for m, hs in sorted(found.items())]


def build_graph(an: Analysis, *, digits: tuple[int, ...] | None = None, house: bool = True,
                bivalue: bool = True, cell_weak: bool = True, groups: bool = False,
                cross: bool = True, als: int = 0, als_cells: bool = True,
                als_exits: bool = False) -> ChainGraph:
    """The node graph for a search (cached on the analysis by its arguments).

    ``house``: strong links from bilocal digits in full houses; ``bivalue``: strong links
    in bivalue cells; ``cell_weak``: weak links between digits of one cell; ``groups``: add
    group nodes; ``cross``: weak links between different digits from binary constraints;
    ``als``: add ALS nodes of up to that many cells (0: none). An ALS node (A, y) is true
    when digit y is in ALS A: two nodes of one ALS are strongly linked (only one digit can
    be missing), and (A, y) is weakly linked to what sees every y-cell of A. With
    ``als_cells``, a digit with one cell in A is also linked as that candidate (strong links
    from the ALS's other nodes straight to the candidate).
    With ``als_exits``, an ALS node (A, x) is also strongly linked to a candidate (c, z)
    outside A when, x missing from A, the other digits of A leave c only z.
    """
    key = ("chain_graph", digits, house, bivalue, cell_weak, groups, cross, als, als_cells,
           als_exits)
    return an.memo(key, lambda: _build(an, digits, house, bivalue, cell_weak, groups, cross,
                                       als, als_cells, als_exits))


_TEMPLATES: dict[tuple[int, int], list[tuple[int, int]]] = {}


def _kernel_layout(links: LinkTables):
    """The kernel's static tables of a layout (kept with the link tables), or None."""
    kernel = _chain_kernel
    if kernel is None:
        return None
    inters = [(m, [links.house_mask[h] for h in hs]) for m, hs in _full_intersections(links)]
    return kernel.layout(links.size, links.n, links.peers_d,
                         [links.house_mask[h] for h in links.full], inters)


def _kernel_build(an: Analysis, g: ChainGraph, ds: tuple[int, ...], dsmask: int,
                  house: bool, bivalue: bool, cell_weak: bool, groups: bool, cross: bool,
                  als: int) -> bool:
    """:func:`_build` by the compiled kernel into ``g``: True when done. Not for ALS nodes,
    cross-digit links, unsorted digits or grids past its size (then False: the Python
    build); with groups, not past the deadline (the Python build then stops early)."""
    kernel = active(_chain_kernel)
    if (kernel is None or als or (cross and an.links.cross) or list(ds) != sorted(set(ds))
            or (groups and an.expired())):
        return False
    lay = an.links.derived(_kernel_layout)
    if lay is None:
        return False
    out = kernel.build(lay, dsmask, an.cand, an.cells_with, an.unsolved, house, bivalue,
                       cell_weak, groups)
    if out is None:
        return False
    gnodes, g.strong, g.weak, g.cands, hubs, ctx = out
    g.use_kernel(ctx, hubs)
    n, size = an.n, an.size
    tpl = _TEMPLATES.get((n, size))
    if tpl is None:
        tpl = _TEMPLATES[(n, size)] = [(d, 1 << c) for d in range(1, n + 1)
                                       for c in range(size)]
    g.nodes = tpl + gnodes
    g.extra = len(gnodes)
    return True


def _group_cross(links: LinkTables) -> dict:
    """(group cells, digit) -> the candidates of other digits outside the group that a
    binary rule rules out beside every cell of the group (filled on first use, kept with
    the link tables: the links are static)."""
    return {}


def _common_cross(crossmap: dict, q: int, d: int) -> tuple[tuple[int, int], ...]:
    common: set | None = None
    for c in iter_cells(q):
        s = crossmap.get((c, d))
        if not s:
            return ()
        common = set(s) if common is None else common & set(s)
        if not common:
            return ()
    return tuple(sorted((o, e) for o, e in common or () if e != d and not q >> o & 1))



def _link_cross(weak: list[int], shared: dict, crossmap: dict, q: int, d: int, gi: int,
                dsmask: int, cw: Sequence[int], size: int) -> None:
    """Weakly link group node ``gi`` (digit ``d`` in cells ``q``) to the candidates of the
    chain's digits (``dsmask``) still open (``cw``) that a binary rule rules out beside
    every cell of the group (:func:`_common_cross`, kept in ``shared``)."""
    common = shared.get((q, d))
    if common is None:
        common = shared[(q, d)] = _common_cross(crossmap, q, d)
    for (o, e) in common:
        if dsmask >> e & 1 and cw[e] >> o & 1:
            j = (e - 1) * size + o
            weak[gi] |= 1 << j
            weak[j] |= 1 << gi

def _build(an: Analysis, digits, house, bivalue, cell_weak, groups, cross, als=0,
           als_cells=True, als_exits=False) -> ChainGraph:
    g = ChainGraph()
    n, size = an.n, an.size
    g.size = size
    g.width = an.grid.namer
    ds = digits or tuple(range(1, n + 1))
    dsmask = 0
    for d in ds:
        dsmask |= 1 << d
    if _kernel_build(an, g, ds, dsmask, house, bivalue, cell_weak, groups, cross, als):
        if groups and house:
            _house_groups(an, g, ds, False)
        return g
    cand = an.cand
    cw = an.cells_with
    peers_d = an.links.peers_d
    # candidate nodes: index (d - 1) * size + cell (absent candidates are unused slots)
    base = n * size
    tpl = _TEMPLATES.get((n, size))
    if tpl is None:
        tpl = _TEMPLATES[(n, size)] = [(d, 1 << c) for d in range(1, n + 1)
                                       for c in range(size)]
    g.nodes = list(tpl)
    g.strong = strong = [0] * base
    g.weak = weak = [0] * base
    cands = 0
    for d in ds:
        cands |= cw[d] << ((d - 1) * size)
    g.cands = cands
    cellbits = {}
    if cell_weak:
        for c in iter_cells(an.unsolved):
            bits = 0
            for d in digits_of(cand[c] & dsmask):
                bits |= 1 << ((d - 1) * size + c)
            cellbits[c] = bits
    crossmap = an.links.cross if cross else {}
    for d in ds:
        off = (d - 1) * size
        pd = peers_d[d]
        cwd = cw[d]
        for c in iter_cells(cwd):
            i = off + c
            w = (pd[c] & cwd) << off
            if cell_weak:
                w |= cellbits[c] & ~(1 << i)
            if crossmap:
                for (o, e) in crossmap.get((c, d), ()):
                    if dsmask >> e & 1 and cw[e] >> o & 1:
                        w |= 1 << ((e - 1) * size + o)
            weak[i] = w
    # bivalue strong links
    if bivalue:
        for c in iter_cells(an.unsolved):
            m = cand[c]
            if m.bit_count() == 2 and (m & dsmask) == m:
                i = ((m & -m).bit_length() - 2) * size + c
                j = (m.bit_length() - 2) * size + c
                strong[i] |= 1 << j
                strong[j] |= 1 << i
    # house strong links between candidates
    if house:
        for h in an.full:
            hm = an.house_mask[h]
            for d in ds:
                p = hm & cw[d]
                if p and p.bit_count() == 2:
                    off = (d - 1) * size
                    i = off + (p & -p).bit_length() - 1
                    j = off + p.bit_length() - 1
                    strong[i] |= 1 << j
                    strong[j] |= 1 << i
    # group nodes
    gnodes: dict[int, list[tuple[int, int]]] = {}
    if groups:
        for d in ds:
            if an.expired():
                break   # past the deadline: fewer nodes (the links built are all true)
            lst = gnodes[d] = []
            by_mask: dict[int, int] = {}
            cwd = cw[d]
            hlist = []
            for inter, hs in _intersections(an):
                q = inter & cwd
                if q & (q - 1) and q not in by_mask:
                    gi = g.add(d, q)
                    by_mask[q] = gi
                    lst.append((q, gi))
                    hlist.append(hs)
            pd = peers_d[d]
            off = (d - 1) * size
            for (q, gi), hs in zip(lst, hlist):
                common = -1
                for c in iter_cells(q):
                    common &= pd[c]
                common &= cwd & ~q
                w = common << off
                for o in iter_cells(common):
                    weak[off + o] |= 1 << gi
                for q2, gj in lst:
                    if q2 & ~common == 0:
                        w |= 1 << gj
                weak[gi] |= w
                if house:
                    for h in hs:
                        p = an.house_mask[h] & cwd
                        rest = p & ~q
                        if not rest:
                            continue
                        if not rest & (rest - 1):
                            j = off + rest.bit_length() - 1
                        else:
                            j = by_mask.get(rest)
                            if j is None:
                                continue
                        strong[gi] |= 1 << j
                        strong[j] |= 1 << gi
    # a group's cross-digit weak links: a candidate of another digit that a rule's binary
    # constraint rules out next to every cell of the group (the group true puts the digit
    # in one of its cells, whichever it is the candidate is false)
    if groups and crossmap:
        shared = an.links.derived(_group_cross)
        for d, lst in gnodes.items():
            for q, gi in lst:
                _link_cross(weak, shared, crossmap, q, d, gi, dsmask, cw, size)
    # ALS nodes
    if als:
        for cells, dm in full_house_als(an, als):
            ids = []
            for y in digits_of(dm & dsmask):
                ycells = cells & cw[y]
                ai = g.add(y, ycells)
                g.als[ai] = (cells, dm)
                ids.append(ai)
                common = -1
                for c in iter_cells(ycells):
                    common &= peers_d[y][c]
                common &= cw[y] & ~cells
                off = (y - 1) * size
                w = common << off
                for o in iter_cells(common):
                    weak[off + o] |= 1 << ai
                for q, gj in gnodes.get(y, ()):
                    if q & ~common == 0:
                        w |= 1 << gj
                        weak[gj] |= 1 << ai
                weak[ai] |= w
            # ALS -> cell: when x is missing from A, every other digit y of A is in A and
            # removes y from a cell seeing all y-cells of A; a cell left with one
            # candidate z then holds it: (A, x) and (c, z) are strongly linked. (One
            # removed digit is the ALS node's weak link plus a bivalue cell; this adds
            # the cells that lose two or more digits at once.)
            seen_by: dict[int, int] = {}
            for ai in (ids if als_exits else ()):
                y, ycells = g.nodes[ai]
                common = -1
                for c in iter_cells(ycells):
                    common &= peers_d[y][c]
                for c in iter_cells(common & cw[y] & ~cells):
                    seen_by[c] = seen_by.get(c, 0) | 1 << y
            for c, kall in seen_by.items():
                if kall & (kall - 1) == 0:
                    continue
                cm = an.cand[c]
                for ai in ids:
                    x = g.nodes[ai][0]
                    k = kall & ~(1 << x)
                    rest = cm & ~k
                    if k & (k - 1) == 0 or not rest or rest & (rest - 1):
                        continue
                    j = (rest.bit_length() - 2) * size + c
                    if not g.cands >> j & 1:
                        continue
                    strong[ai] |= 1 << j
                    strong[j] |= 1 << ai
                    g.als_exit[(ai, j)] = k
            for ai in ids:
                for aj in ids:
                    if ai != aj:
                        strong[ai] |= 1 << aj
                        # a digit in one cell of the ALS: its node is that candidate
                        y, ycells = g.nodes[aj]
                        if als_cells and not ycells & (ycells - 1):
                            j = (y - 1) * size + ycells.bit_length() - 1
                            strong[ai] |= 1 << j
                            strong[j] |= 1 << ai
        # ALS - ALS weak links (same digit, every y-cell of one sees every y-cell of the other)
        anodes = list(g.als)
        for ai in anodes:
            y, ycells = g.nodes[ai]
            common = -1
            for c in iter_cells(ycells):
                common &= peers_d[y][c]
            for aj in anodes:
                y2, yc2 = g.nodes[aj]
                if y2 == y and aj != ai and yc2 & ~common == 0:
                    weak[ai] |= 1 << aj
                    weak[aj] |= 1 << ai
    if groups and house:
        _house_groups(an, g, ds, cross)
    return g


#: house groups: a digit's places in a house are split into one cell and the rest only
#: while the house has at most this many places (the rest: up to 5 cells)
HOUSE_GROUP_PLACES = 6
#: ... and only on grids up to this size (their count grows with houses x digits, and the
#: weak links between them with its square; measured on 9x9 only)
HOUSE_GROUP_MAX_N = 12


def _beyond_house_digits(links: LinkTables) -> int:
    """Bit d set when digit d has same-digit weak links beyond the houses (a knight's or
    king's move, a non-house diagonal ...): the digits whose house groups can lead
    somewhere new (kept with the link tables)."""
    out = 0
    for d in range(1, links.n + 1):
        if links.peers_d[d] != links.house_peers:
            out |= 1 << d
    return out


def _house_groups(an: Analysis, g: ChainGraph, ds, cross: bool) -> None:
    """Add *house groups* to a grouped graph: for a digit with 3 to
    :data:`HOUSE_GROUP_PLACES` places in a full house, the places but one (and the places
    but a box-line group) form a group strongly linked to that cell (group): the house
    holds the digit once, so one side or the other does. A group is kept only when some
    candidate of the digit outside the house sees all its cells, and only for digits with
    same-digit links beyond the houses (a knight's or king's move ...: on grids of houses
    alone the box-line groups are the ones a solver uses, and their paths stay HoDoKu's).
    Weak links as for the box-line groups: to the digit's candidates seeing every cell of
    the group, to the groups wholly inside those and (``cross``) to the candidates of other
    digits that a binary rule rules out beside every cell of the group."""
    beyond = an.links.derived(_beyond_house_digits)
    if not beyond or an.n > HOUSE_GROUP_MAX_N:
        return
    size = an.size
    cw, hm = an.cells_with, an.house_mask
    peers_d = an.links.peers_d
    strong, weak, nodes = g.strong, g.weak, g.nodes
    base = an.n * size
    added = False
    crossmap = an.links.cross if cross else {}
    shared = an.links.derived(_group_cross) if crossmap else {}
    dsmask = 0
    for d in ds:
        dsmask |= 1 << d
    for d in ds:
        if not beyond >> d & 1:
            continue
        cwd = cw[d]
        pd = peers_d[d]
        off = (d - 1) * size
        known: dict[int, int] = {}
        for i in range(base, len(nodes)):
            if nodes[i][0] == d and i not in g.als:
                known[nodes[i][1]] = i
        boxline = list(known)
        fresh: list[tuple[int, int, int]] = []   # (cells, node, common peers)
        for h in an.full:
            p = hm[h] & cwd
            k = p.bit_count()
            if k < 3 or k > HOUSE_GROUP_PLACES:
                continue
            parts = [(p & ~(1 << c), 1 << c) for c in iter_cells(p)]
            parts += [(p & ~q, q) for q in boxline
                      if q & ~p == 0 and (p & ~q) & ((p & ~q) - 1)]
            for q, other in parts:
                gi = known.get(q)
                if gi is None:
                    common = cwd & ~p
                    for c in iter_cells(q):
                        common &= pd[c]
                    if not common:
                        continue
                    gi = g.add(d, q)
                    known[q] = gi
                    fresh.append((q, gi, common | (p & ~q)))
                    added = True
                j = (off + other.bit_length() - 1 if not other & (other - 1)
                     else known.get(other))
                if j is None:
                    continue
                strong[gi] |= 1 << j
                strong[j] |= 1 << gi
                added = True
        # weak links of the new groups: candidates seeing all their cells, groups inside
        for q, gi, common in fresh:
            w = 0
            for o in iter_cells(common):
                w |= 1 << (off + o)
                weak[off + o] |= 1 << gi
            for q2, gj in known.items():
                if gj != gi and q2 & ~common == 0:
                    w |= 1 << gj
                    weak[gj] |= 1 << gi
            weak[gi] |= w
            if crossmap:
                _link_cross(weak, shared, crossmap, q, d, gi, dsmask, cw, size)
    if added:
        g.relinked()



# ------------------------------------------------------------------------------------------
# search
# ------------------------------------------------------------------------------------------
def _bfs(g: ChainGraph, start_false: int, start_true: int, max_length: int
         ) -> list[tuple[int, int]]:
    """Level sets ``[(false_k, true_k), ...]`` of a breadth-first implication search; level
    0 holds the start. Each node is visited at most once per truth value."""
    strong, weak = g.strong, g.weak
    hubs = g.hubs()
    vis_f, vis_t = start_false, start_true
    front_f, front_t = start_false, start_true
    levels = [(front_f, front_t)]
    for _ in range(max_length):
        # a false node without a strong link implies nothing: expand the hubs only
        new_t = union_of(strong, front_f & hubs) & ~vis_t
        new_f = union_of(weak, front_t) & ~vis_f
        if not (new_t | new_f):
            break
        vis_t |= new_t
        vis_f |= new_f
        front_f, front_t = new_f, new_t
        levels.append((front_f, front_t))
    return levels


def _search(g: ChainGraph, s: int, start_true: bool, max_length: int
            ) -> tuple[list[tuple[int, int]], int]:
    """Cached :func:`_bfs` from one node with a value; ``reached`` is the bitset of nodes
    reached with the opposite value (after the start level)."""
    key = (s, start_true, max_length)
    got = g.searches.get(key)
    if got is None:
        kg = _kernel_graph(g)
        if kg is not None:
            # (levels, reached): the levels stay in C, for :func:`_path`
            got = g.searches[key] = _chain_kernel.search(kg, s, start_true, max_length)
            return got
        if start_true:
            levels = _bfs(g, 0, 1 << s, max_length)
            reached = 0
            for f, _ in levels[1:]:
                reached |= f
        else:
            levels = _bfs(g, 1 << s, 0, max_length)
            reached = 0
            for _, t in levels[1:]:
                reached |= t
        got = g.searches[key] = (levels, reached)
    return got


def _kernel_graph(g: ChainGraph):
    """The compiled kernel's context of the graph's links (made on first use, once the
    graph is built), or None: the pure-Python searches (kernel not built, switched off,
    or a graph past its size: ``techniques/_chain_kernel.c``)."""
    kernel = active(_chain_kernel)
    if kernel is None:
        return None
    k = g._kernel
    if k is None:
        k = kernel.graph(g.strong, g.weak, g.hubs(), g.cands) or False
        g.use_kernel(k)
    return k or None


def _path(g: ChainGraph, levels: list[tuple[int, int]], node: int, value: bool
          ) -> list[tuple[int, bool]]:
    """A shortest implication path from the start to ``node`` having ``value``:
    ``[(node, value), ...]`` from the start."""
    if not isinstance(levels, list):   # the kernel's levels (:func:`_search`)
        return _chain_kernel.path(g._kernel, levels, node, value)
    k = None
    bit = 1 << node
    for i, (f, t) in enumerate(levels):
        if (t if value else f) & bit:
            k = i
            break
    if k is None:
        raise ValueError("node not reached")
    out = [(node, value)]
    used = {node}
    cur, val = node, value
    for i in range(k - 1, -1, -1):
        f, t = levels[i]
        # links are symmetric: the predecessors are the level's nodes linked to ``cur``
        b = (f & g.strong[cur]) if val else (t & g.weak[cur])
        found = None
        while b:   # a predecessor, preferably one not on the path yet
            low = b & -b
            j = low.bit_length() - 1
            if j not in used:
                found = j
                break
            if found is None:
                found = j
            b ^= low
        if found is None:
            raise AssertionError("broken BFS levels")
        used.add(found)
        cur, val = found, not val
        out.append((cur, val))
    out.reverse()
    return out


def _links(g: ChainGraph, path: list[tuple[int, bool]], close: bool = False
           ) -> tuple[Link, ...]:
    """Links of an implication path (a strong link leads to a true node)."""
    out = []
    for (a, _), (b, vb) in zip(path, path[1:]):
        out.append(Link(g.node(a), g.node(b), vb))
    if close:
        out.append(Link(g.node(path[-1][0]), g.node(path[0][0]), False))
    return tuple(out)


def _digits(cands: tuple[Candidate, ...]) -> tuple[int, ...]:
    return tuple(sorted({c.digit for c in cands}))


# ------------------------------------------------------------------------------------------
# results of one search: (kind, eliminations bitset of node indices, links)
# ------------------------------------------------------------------------------------------
def _aic_results(g: ChainGraph, max_length: int, starts: int | None = None,
                 same_digit_only: bool = False, allow_linked: bool = False,
                 stop: Callable[[], bool] | None = None
                 ) -> Iterator[tuple[int, int, int, list]]:
    """``(S, T, elims, levels)`` for every AIC ``S false => T true`` (S < T; ends that see
    each other only with ``allow_linked``) with eliminations (candidate nodes weakly linked
    to both ends). ``stop()`` is asked before each start (the solver's deadline)."""
    weak, cands, nodes = g.weak, g.cands, g.nodes
    if starts is None:
        starts = g.cands
    starts &= g.hubs()
    # an AIC's eliminations see both its ends: only starts that see such a candidate
    # can have one (found for all starts at once, without a search from each)
    near = 0
    for e in iter_cells(_loop_cands(g, starts, max_length)):
        near |= weak[e]
    for s in iter_cells(starts & near):
        if stop is not None and stop():
            return
        ws = weak[s] & cands
        if not ws:
            continue
        levels, reached = _search(g, s, False, max_length)
        # ends with a common weak neighbour, after s, not weakly linked to s
        reached &= ~((1 << (s + 1)) - 1)
        if not allow_linked:
            reached &= ~weak[s]
        if same_digit_only and not g.extra and g.size:
            # candidate nodes only: the ends of s's digit are its digit block
            off = s - s % g.size
            reached &= ((1 << g.size) - 1) << off
        for t in iter_cells(reached):
            if same_digit_only and nodes[t][0] != nodes[s][0]:
                continue
            e = ws & weak[t]
            if e:
                yield s, t, e, levels


def _node_text(g: ChainGraph, i: int) -> str:
    d, cells = g.nodes[i]
    return f"({d})" + ",".join(cell_name(c, g.width) for c in iter_cells(cells))


def _eureka(g: ChainGraph, ids: list[int], links: tuple[Link, ...]) -> str:
    """Eureka text of a chain whose nodes are ``ids``; an ALS passage (two nodes of one ALS
    joined by their strong link) reads ``(z=y)ALS:cells``. Empty when there is no ALS node
    (the Step's own chain text is used then)."""
    if not any(i in g.als for i in ids):
        return ""
    out = ""
    k = 0
    while k < len(ids):
        i = ids[k]
        if k:
            out += "=" if links[k - 1].strong else "-"
        if (i in g.als and k + 1 < len(ids) and ids[k + 1] in g.als
                and g.als[ids[k + 1]] == g.als[i] and links[k].strong):
            cells = g.als[i][0]
            out += (f"({g.nodes[i][0]}={g.nodes[ids[k + 1]][0]})ALS:"
                    + ",".join(cell_name(c, g.width) for c in iter_cells(cells)))
            k += 2
            continue
        if i in g.als:
            out += "ALS:" + ",".join(cell_name(c, g.width) for c in iter_cells(g.als[i][0]))
        out += _node_text(g, i)
        k += 1
    return out


def _elim_step(name: str, title: str, g: ChainGraph, elims: int, links: tuple[Link, ...],
               ids: list[int] | None = None, digits: tuple[int, ...] | None = None) -> Step:
    el = g.candidates(elims)
    note = _eureka(g, ids, links) if ids else ""
    return Step(name, eliminations=el, links=links, digits=digits or _digits(el), title=title,
                note=note, namer=g.width)


def _chain_steps(an: Analysis, g: ChainGraph, name: str, title: str, max_length: int,
                 same_digit_only: bool, types: str = "12", allow_linked: bool = True,
                 min_links: int = 3) -> Iterator[Step]:
    """AIC steps, one per distinct elimination set (``types``: "1" ends with one digit,
    "2" ends with two digits). Ends joined by fewer than ``min_links`` links (a single
    strong link: locked candidates or a pair) are left to the simpler techniques."""
    seen: set[int] = set()
    for s, t, e, levels in _aic_results(g, max_length, same_digit_only=same_digit_only,
                                        allow_linked=allow_linked, stop=an.expired):
        kind = "1" if g.nodes[s][0] == g.nodes[t][0] else "2"
        if kind not in types or e in seen:
            continue
        path = _path(g, levels, t, True)
        if len(path) - 1 < min_links:
            continue
        seen.add(e)
        yield _elim_step(name, title, g, e, _links(g, path), [n for n, _ in path])


def _continuous(an: Analysis, g: ChainGraph, name: str, title: str, max_length: int,
                both: bool = False) -> Iterator[Step]:
    """Continuous nice loops: ``S false => T true`` with S, T weakly linked (the loop
    closes with a weak link) or, with ``both``, also ``S true => T false`` with S, T
    strongly linked (more loops for twice the searches)."""
    weak, cands = g.weak, g.cands
    seen: set[int] = set()
    starts = g.cands & g.hubs()
    if not both:
        # the starts whose search closes a loop, for all starts at once (the searches
        # below find the same loops)
        starts &= _loop_ends(g, starts, max_length)
    kg = None if both else _kernel_graph(g)
    if kg is not None:
        # the kernel: every start's loops at once, only the starts with a loop listed
        if an.expired():
            return
        found = [(s, False, paths)
                 for s, paths in _chain_kernel.loop_paths(kg, starts, max_length)]
    else:
        found = ((s, start_true, _loop_paths(g, s, start_true, max_length))
                 for s in iter_cells(starts)
                 for start_true in ((False, True) if both else (False,)))
    for s, start_true, paths in found:
        if an.expired():
            return
        for path in paths:
            nodes = [n for n, _ in path]
            inloop = 0
            for n in nodes:
                inloop |= 1 << n
            # weak links of the loop: those leading to a false node, and the closing one
            pairs = [(a, b) for (a, _), (b, vb) in zip(path, path[1:]) if not vb]
            if not start_true:
                pairs.append((nodes[-1], nodes[0]))
            # like HoDoKu, a weak link between cells eliminates only outside the loop's
            # cells; a weak link inside a cell eliminates the cell's other digits
            loopcells = 0
            for n in nodes:
                loopcells |= g.nodes[n][1]
            outside = g.cands & ~_cells_nodes(an, g, loopcells)
            e = 0
            for u, v in pairs:
                if g.nodes[u][1] == g.nodes[v][1]:
                    e |= weak[u] & weak[v]
                else:
                    e |= weak[u] & weak[v] & outside
            for (u, _), (v, _) in zip(path, path[1:]):
                if u in g.als and v in g.als and g.als[u] == g.als[v]:
                    e |= _als_locked(an, g, g.als[u],
                                     (1 << g.nodes[u][0]) | (1 << g.nodes[v][0]))
                else:
                    # an ALS -> cell passage: A misses x or the cell takes a digit of
                    # Y (which A then misses), so A's other digits are locked in it
                    a, c = (u, v) if (u, v) in g.als_exit else (v, u)
                    y = g.als_exit.get((a, c))
                    if y is not None:
                        e |= _als_locked(an, g, g.als[a], (1 << g.nodes[a][0]) | y)
            e &= cands & ~inloop
            if e and e not in seen:
                seen.add(e)
                links = list(_links(g, path))
                links.append(Link(g.node(nodes[-1]), g.node(nodes[0]), start_true))
                yield _elim_step(name, title, g, e, tuple(links), nodes + [nodes[0]])


def _loop_paths(g: ChainGraph, s: int, start_true: bool, max_length: int
                ) -> Iterator[list[tuple[int, bool]]]:
    """The loops of :func:`_continuous` from ``s``: for each end ``t`` (ascending) reached
    with the value opposite to ``s``'s and linked back to ``s`` (weakly from ``s`` false,
    strongly from ``s`` true), the path to it, when it has 4+ nodes, all different (the
    kernel's ``loop_paths`` gives those of ``s`` false for many starts at once)."""
    levels, reached = _search(g, s, start_true, max_length)
    ends = reached & (g.strong[s] if start_true else g.weak[s]) & ~(1 << s)
    for t in iter_cells(ends):
        path = _path(g, levels, t, not start_true)
        if len(path) < 4:
            continue
        if len({n for n, _ in path}) != len(path):
            continue
        yield path


def _cells_nodes(an: Analysis, g: ChainGraph, cells: int) -> int:
    """Candidate nodes in the cells of a cell bitset."""
    out = 0
    size = an.size
    for d in range(1, an.n + 1):
        out |= (cells & an.cells_with[d]) << ((d - 1) * size)
    return out & g.cands


def _als_locked(an: Analysis, g: ChainGraph, als: tuple[int, int], used: int) -> int:
    """Candidate nodes seeing every cell of a digit of an ALS that is locked in it (the
    ALS's digits other than the loop's two digits ``used``)."""
    cells, dm = als
    out = 0
    for w in digits_of(dm & ~used):
        common = -1
        for c in iter_cells(cells & an.cells_with[w]):
            common &= an.links.peers_d[w][c]
        off = (w - 1) * g.size
        for o in iter_cells(common & an.cells_with[w] & ~cells):
            j = off + o
            if g.cands >> j & 1:
                out |= 1 << j
    return out


_STRIDES: dict[tuple[int, int], int] = {}


def _strides(n: int, size: int) -> int:
    """Bitset of the candidate slots of cell 0, one per digit (shift it by a cell)."""
    m = _STRIDES.get((n, size))
    if m is None:
        m = 0
        for d in range(n):
            m |= 1 << (d * size)
        m = _STRIDES[(n, size)] = m
    return m


def _reach_closure(g: ChainGraph, sources: int, max_length: int
                   ) -> tuple[dict[int, int], list[int]]:
    """The implication searches ``s false`` of every node ``s`` of ``sources`` (hubs) at
    once: ``(pos, by)`` where ``pos`` numbers the hubs 0.. in index order and
    ``by[pos[v]]`` is the set of sources (as bits ``1 << pos[s]``) whose search reaches
    ``v`` true within ``max_length`` links: the union of the true levels of :func:`_bfs`
    from each of them. Only hubs lead on, so the sets travel over the hubs' links alone,
    and only what a node gained at the last level is passed on (cached on the graph)."""
    key = ("closure", sources, max_length)
    got = g.searches.get(key)
    if got is not None:
        return got   # type: ignore[return-value]
    hub = g.hubs()
    order = list(iter_cells(hub))
    pos = {v: k for k, v in enumerate(order)}
    strong = [[pos[u] for u in iter_cells(g.strong[v])] for v in order]
    weak = [[pos[u] for u in iter_cells(g.weak[v] & hub)] for v in order]
    fal = [0] * len(order)     # sources reaching the hub false (within k links)
    tru = [0] * len(order)     # ... true
    gain_f: dict[int, int] = {}
    for s in iter_cells(sources):
        k = pos[s]
        fal[k] = gain_f[k] = 1 << k
    gain_t: dict[int, int] = {}
    for _ in range(max_length):
        # links are symmetric: a hub's strong partners reached false (weak partners
        # reached true) at the last level reach it true (false) at this one
        new_t: dict[int, int] = {}
        for u, x in gain_f.items():
            for v in strong[u]:
                y = x & ~tru[v]
                if y:
                    new_t[v] = new_t.get(v, 0) | y
        new_f: dict[int, int] = {}
        for u, x in gain_t.items():
            for v in weak[u]:
                y = x & ~fal[v]
                if y:
                    new_f[v] = new_f.get(v, 0) | y
        if not new_t and not new_f:
            break
        for v, y in new_t.items():
            tru[v] |= y
        for v, y in new_f.items():
            fal[v] |= y
        gain_t, gain_f = new_t, new_f
    got = g.searches[key] = (pos, tru)   # type: ignore[assignment]
    return pos, tru


def _loop_cands(g: ChainGraph, sources: int, max_length: int) -> int:
    """Bitset of the candidate nodes ``c`` weakly linked to both ends of an implication
    ``s false => t true`` (``s`` in ``sources``, ``t != s``, within ``max_length`` links):
    the candidates a discontinuous nice loop deletes, the eliminations of AICs from
    ``sources`` (cached on the graph)."""
    kc = _kernel_closure(g, sources, max_length)
    if kc is not None:
        return kc[1]
    key = ("loop_cands", sources, max_length)
    got = g.searches.get(key)
    if got is not None:
        return got   # type: ignore[return-value]
    pos, by = _reach_closure(g, sources, max_length)
    weak, cands = g.weak, g.cands
    near_src: dict[int, int] = {}   # candidate -> the sources it sees (bits by pos)
    near_end: dict[int, int] = {}   # candidate -> sources reaching a hub it sees, not itself
    for t, k in pos.items():
        bit = 1 << k
        ends = by[k] & ~bit
        src = sources >> t & 1
        if not ends and not src:
            continue
        for c in iter_cells(weak[t] & cands):
            if ends:
                near_end[c] = near_end.get(c, 0) | ends
            if src:
                near_src[c] = near_src.get(c, 0) | bit
    out = 0
    for c, x in near_end.items():
        if x & near_src.get(c, 0):
            out |= 1 << c
    g.searches[key] = out   # type: ignore[assignment]
    return out


def _kernel_closure(g: ChainGraph, sources: int, max_length: int
                    ) -> tuple[int, int, int] | None:
    """The kernel's closure of ``sources`` (cached on the graph): ``(self_loops,
    loop_cands, loop_ends)`` as :func:`_self_loops`, :func:`_loop_cands` and
    :func:`_loop_ends` give them; None without the kernel."""
    kg = _kernel_graph(g)
    if kg is None:
        return None
    key = ("kernel_closure", sources, max_length)
    got = g.searches.get(key)
    if got is None:
        got = g.searches[key] = _chain_kernel.closure(kg, sources, max_length) or False
    return got or None   # type: ignore[return-value]


def _self_loops(g: ChainGraph, sources: int, max_length: int) -> int:
    """The sources ``s`` whose search ``s false`` reaches ``s`` true (a discontinuous nice
    loop that sets ``s``)."""
    kc = _kernel_closure(g, sources, max_length)
    if kc is not None:
        return kc[0]
    pos, by = _reach_closure(g, sources, max_length)
    out = 0
    for s in iter_cells(sources):
        k = pos[s]
        if by[k] >> k & 1:
            out |= 1 << s
    return out


def _loop_ends(g: ChainGraph, sources: int, max_length: int) -> int:
    """The sources ``s`` whose search ``s false`` reaches true a node ``t != s`` weakly
    linked to ``s``: where a continuous nice loop closes (only hubs are reached true, as
    strong links are symmetric)."""
    kc = _kernel_closure(g, sources, max_length)
    if kc is not None:
        return kc[2]
    pos, by = _reach_closure(g, sources, max_length)
    weak, hub = g.weak, g.hubs()
    out = 0
    for s in iter_cells(sources):
        bit = 1 << pos[s]
        for t in iter_cells(weak[s] & hub & ~(1 << s)):
            if by[pos[t]] & bit:
                out |= 1 << s
                break
    return out


def _discontinuous(an: Analysis, g: ChainGraph, name: str, title: str, max_length: int,
                   types: str = "12") -> Iterator[Step]:
    """Discontinuous nice loops at a candidate C: ``C false => C true`` (type 1, set C:
    its cell's other candidates go) and ``C - S = ... = T - C`` (type 2, delete C: an AIC
    whose ends both see C)."""
    weak, strong = g.weak, g.strong
    # the AIC between C's neighbours is searched from a candidate end (both ends are group
    # or ALS nodes only in rare loops; they are tried when ALS nodes are on)
    hubs = g.hubs()
    pivots = (g.starts() if g.als else g.cands) & hubs
    size = an.size
    # candidate node (d, cell) is slot (d - 1) * size + cell: one cell's slots are a stride
    stride = _strides(an.n, size)
    # which pivots reach which nodes true, for all pivots at once: the candidates without
    # a loop are passed over without a search (the searches below find the same loops)
    selfloops = _self_loops(g, pivots, max_length) if "1" in types else 0
    loops = _loop_cands(g, pivots, max_length) if "2" in types else 0
    for c in iter_cells(g.cands & (selfloops | loops)):
        if an.expired():
            return
        if "1" in types and strong[c]:
            others = weak[c] & g.cands & (stride << (c % size))
            if others and selfloops >> c & 1:
                levels, reached = _search(g, c, False, max_length)
                if reached >> c & 1:
                    path = _path(g, levels, c, True)
                    yield _elim_step(name, title, g, others, _links(g, path),
                                     [n for n, _ in path])
        if "2" in types:
            if not loops >> c & 1:
                continue
            wc = weak[c]
            best = None
            tries = 4   # path reconstructions spent looking for a loop without repeats
            for s in iter_cells(wc & pivots):
                if an.expired():
                    return
                levels, reached = _search(g, s, False, max_length)
                for t in iter_cells(reached & wc & ~(1 << s)):
                    path = _path(g, levels, t, True)
                    ids = [c, *(n for n, _ in path), c]
                    clean = len(set(ids)) == len(ids) - 1
                    if best is None or (clean and not best[0]):
                        best = (clean, path, ids)
                    tries -= 1
                    if clean or tries <= 0:
                        break
                if best is not None and (best[0] or tries <= 0):
                    break
            if best is not None:
                _, path, ids = best
                links = (Link(g.node(c), g.node(path[0][0]), False), *_links(g, path),
                         Link(g.node(path[-1][0]), g.node(c), False))
                yield _elim_step(name, title, g, 1 << c, links, ids)


# ------------------------------------------------------------------------------------------
# X-Chain, XY-Chain, Remote Pair
# ------------------------------------------------------------------------------------------
#: the chains' options (the module docstring says more)
CHAIN_OPTIONS = Options(max_length=Option(
    20, "longest chain, in links (bounds the breadth-first depth)", int))
_TYPES = Option("12", "elimination types (HoDoKu's library variants: '1', '2' or '12')", str)
LOOP_OPTIONS = CHAIN_OPTIONS.with_(both_ways=Option(
    False, "also search from each node taken true (more loops, twice the searches)", bool))
TYPED_OPTIONS = CHAIN_OPTIONS.with_(types=_TYPES)
_GROUPED = dict(groups=Option(True, "group nodes (several cells of a digit in a house)", bool),
                als=Option(0, "ALS nodes of up to this many cells (0: none)", int))
GROUPED_LOOP_OPTIONS = LOOP_OPTIONS.with_(**_GROUPED)
GROUPED_TYPED_OPTIONS = TYPED_OPTIONS.with_(**_GROUPED)
#: every chain option (read by the helpers several techniques share)
ALL_CHAIN_OPTIONS = GROUPED_LOOP_OPTIONS.with_(types=_TYPES)
#: remote pair: search nodes per digit pair (from the first version; bounds the path
#: search, not measured)
REMOTE_PAIR_NODES = 20_000
REMOTE_PAIR_OPTIONS = Options(max_cells=Option(20, "most bivalue cells in a remote pair",
                                               int))


@register("x_chain", "X-Chain", "chains", code="0701", options=CHAIN_OPTIONS)
def x_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """Single-digit AIC over conjugate pairs: the digit goes from cells seeing both ends.

    >>> from techniques.reglib import parse_case, case_state
    >>> st = case_state(parse_case(":0701:7:3.4+52..8...6.+9.....5..7.3.....68+9.2+3...+734"
    ...     "....6+315+27...1.+9+6......9.+4..6.+6.8217..5::742::5"))
    >>> [s.explain(2) for s in x_chain(Analysis(st), {})]
    ['X-Chain: (7)r1c2=(7)r1c9-(7)r2c8=(7)r7c8-(7)r7c3=(7)r4c3 => r4c2<>7']
    """
    ml = CHAIN_OPTIONS.read(opts, "max_length")
    for d in range(1, an.n + 1):
        # one digit's chains read only its candidate cells: kept per digit across states
        yield from an.digit_memo(("x_chain", ml), d, lambda d=d: list(_chain_steps(
            an, build_graph(an, digits=(d,), bivalue=False, cell_weak=False, cross=False),
            "x_chain", "X-Chain", ml, True, allow_linked=True)))


@register("xy_chain", "XY-Chain", "chains", code="0702", options=CHAIN_OPTIONS)
def xy_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """AIC through bivalue cells only (strong links inside cells, weak links between cells
    with one digit); both ends hold the same digit, eliminated from cells seeing both."""
    ml = CHAIN_OPTIONS.read(opts, "max_length")
    g = build_graph(an, house=False, cell_weak=False, cross=False)
    yield from _chain_steps(an, g, "xy_chain", "XY-Chain", ml, True, allow_linked=True,
                            min_links=5)


@register("remote_pair", "Remote Pair", "chains", code="0703",
          options=REMOTE_PAIR_OPTIONS)
def remote_pair(an: Analysis, opts: dict) -> Iterator[Step]:
    """A chain of 4+ bivalue cells with the same two digits, each seeing the next: cells
    an odd number of links apart (3 or more) hold different digits, so a cell seeing both
    loses both digits."""
    max_cells = REMOTE_PAIR_OPTIONS.read(opts, "max_cells")
    w = an.grid.namer
    by_pair: dict[int, int] = {}
    for c in an.bivalue_cells():
        by_pair[an.cand[c]] = by_pair.get(an.cand[c], 0) | 1 << c
    seen_elims: set[tuple] = set()
    for mask, cells in by_pair.items():
        if cells.bit_count() < 4:
            continue
        a = (mask & -mask).bit_length() - 1
        b = mask.bit_length() - 1
        # cells linked when they see each other for both digits
        adj = {c: an.peers(c, a) & an.peers(c, b) & cells for c in iter_cells(cells)}
        budget = [REMOTE_PAIR_NODES]

        def dfs(path: list[int], used: int) -> Iterator[list[int]]:
            budget[0] -= 1
            if budget[0] < 0:
                return
            if len(path) >= 4:
                yield path
            if len(path) >= max_cells:
                return
            for o in iter_cells(adj[path[-1]] & ~used):
                path.append(o)
                yield from dfs(path, used | 1 << o)
                path.pop()

        for start in iter_cells(cells):
            for path in dfs([start], 1 << start):
                if path[0] > path[-1]:
                    continue
                if (len(path) - 1) % 2 == 0:
                    continue
                elim = []
                targets = 0
                for i in range(len(path)):
                    for j in range(i + 3, len(path), 2):
                        for d in (a, b):
                            targets_d = (an.peers(path[i], d) & an.peers(path[j], d)
                                         & an.cells_with[d])
                            for c in iter_cells(targets_d):
                                elim.append(Candidate(c, d))
                                targets |= 1 << c
                if not elim:
                    continue
                key = tuple(sorted(set(elim)))
                if key in seen_elims:
                    continue
                seen_elims.add(key)
                links = []
                for x, y in zip(path, path[1:]):
                    links.append(Link((Candidate(x, a), Candidate(x, b)),
                                      (Candidate(y, a), Candidate(y, b)), False))
                yield Step("remote_pair", eliminations=key, digits=(a, b), title="Remote Pair",
                           pattern=tuple(Candidate(c, d) for c in path for d in (a, b)),
                           note=f"{a}/{b} " + "-".join(an.name(c) for c in path),
                           namer=w)


# ------------------------------------------------------------------------------------------
# nice loops and AIC (plain and grouped)
# ------------------------------------------------------------------------------------------
def _graph(an: Analysis, opts: dict, grouped: bool, loops: bool = False) -> ChainGraph:
    if not grouped:
        return build_graph(an)
    als = ALL_CHAIN_OPTIONS.read(opts, "als")
    # continuous loops pass through an ALS by two of its nodes (its locked digits give
    # eliminations), so they do not use the ALS-digit-as-candidate shortcut
    return build_graph(an, groups=ALL_CHAIN_OPTIONS.read(opts, "groups"), als=als,
                       als_cells=bool(als) and not loops)


@register("continuous_nice_loop", "Continuous Nice Loop", "chains", code="0706",
          options=LOOP_OPTIONS)
def continuous_nice_loop(an: Analysis, opts: dict) -> Iterator[Step]:
    """A closed alternating loop: each weak link is also strong, so candidates seeing both
    of its nodes are eliminated."""
    ml, both = LOOP_OPTIONS.read(opts, "max_length"), LOOP_OPTIONS.read(opts, "both_ways")
    g = _graph(an, opts, False)
    yield from _continuous(an, g, "continuous_nice_loop", "Continuous Nice Loop", ml, both)


@register("discontinuous_nice_loop", "Discontinuous Nice Loop", "chains", code="0707",
          options=TYPED_OPTIONS,
          variants={1: {"types": "1"}, 2: {"types": "2"}})
def discontinuous_nice_loop(an: Analysis, opts: dict) -> Iterator[Step]:
    """A loop broken at one candidate: set it (strong links on both sides) or delete it
    (weak links on both sides, or a strong and a weak link of different digits)."""
    ml, types = TYPED_OPTIONS.read(opts, "max_length"), TYPED_OPTIONS.read(opts, "types")
    g = _graph(an, opts, False)
    yield from _discontinuous(an, g, "discontinuous_nice_loop", "Discontinuous Nice Loop",
                              ml, types)


@register("aic", "AIC", "chains", code="0708",
          options=TYPED_OPTIONS, variants={1: {"types": "1"}, 2: {"types": "2"}})
def aic(an: Analysis, opts: dict) -> Iterator[Step]:
    """Alternating inference chain: one end is true, so candidates seeing both go."""
    ml, types = TYPED_OPTIONS.read(opts, "max_length"), TYPED_OPTIONS.read(opts, "types")
    g = _graph(an, opts, False)
    yield from _chain_steps(an, g, "aic", "AIC", ml, False, types)


@register("grouped_continuous_nice_loop", "Grouped Continuous Nice Loop", "chains",
          code="0709", options=GROUPED_LOOP_OPTIONS,
          variants={1: {}, 2: {"als": 5}})
def grouped_continuous_nice_loop(an: Analysis, opts: dict) -> Iterator[Step]:
    """Continuous nice loop with group nodes."""
    read = GROUPED_LOOP_OPTIONS.read
    ml, both = read(opts, "max_length"), read(opts, "both_ways")
    g = _graph(an, opts, True, loops=True)
    seen: set[frozenset] = set()
    for step in _continuous(an, g, "grouped_continuous_nice_loop",
                            "Grouped Continuous Nice Loop", ml, both):
        seen.add(frozenset(step.eliminations))
        yield step
    if not g.als:
        return
    # then loops that need an ALS -> cell passage (the ALS takes two or more digits from
    # a cell), as a second pass so the plain loops keep their shortest form
    g2 = build_graph(an, groups=read(opts, "groups"), als=read(opts, "als"),
                     als_cells=False, als_exits=True)
    for step in _continuous(an, g2, "grouped_continuous_nice_loop",
                            "Grouped Continuous Nice Loop", ml, both):
        if frozenset(step.eliminations) not in seen:
            seen.add(frozenset(step.eliminations))
            yield step


@register("grouped_discontinuous_nice_loop", "Grouped Discontinuous Nice Loop", "chains",
          code="0710", options=GROUPED_TYPED_OPTIONS,
          variants={1: {"types": "1"}, 2: {"types": "2"}, 3: {"types": "1", "als": 5},
                    4: {"types": "2", "als": 5}})
def grouped_discontinuous_nice_loop(an: Analysis, opts: dict) -> Iterator[Step]:
    """Discontinuous nice loop with group nodes."""
    read = GROUPED_TYPED_OPTIONS.read
    ml, types = read(opts, "max_length"), read(opts, "types")
    g = _graph(an, opts, True)
    yield from _discontinuous(an, g, "grouped_discontinuous_nice_loop",
                              "Grouped Discontinuous Nice Loop", ml, types)


@register("grouped_aic", "Grouped AIC", "chains", code="0711",
          options=GROUPED_TYPED_OPTIONS,
          variants={1: {"types": "1"}, 2: {"types": "2"}, 3: {"types": "1", "als": 5},
                    4: {"types": "2", "als": 5}})
def grouped_aic(an: Analysis, opts: dict) -> Iterator[Step]:
    """AIC with group nodes."""
    read = GROUPED_TYPED_OPTIONS.read
    ml, types = read(opts, "max_length"), read(opts, "types")
    g = _graph(an, opts, True)
    yield from _chain_steps(an, g, "grouped_aic", "Grouped AIC", ml, False, types)
