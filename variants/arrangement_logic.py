"""The arrangement searches: a house, a pair of houses, a band or a window of rows whose
cells are also joined by two-cell rules (or, over a band or window, longer rules read
through their ``check``) keeps only the candidates of some filling of its open cells that
keeps every rule (an exact search with a node budget). The techniques belong to the
``pairs`` family, with the two-cell rule techniques of :mod:`variants.pairs_logic`
whose tables they read.

- ``house_arrangement``: a house whose cells are also joined by two-cell rules (negative XV
  or ratio between the neighbours of a row, dots or whispers inside a box) keeps only the
  candidates of some filling that satisfies those rules too (an exact search with a node
  budget per house): without X or V, a row whose V pair holds 1+4 or 2+3 and with a third
  cell of 1..4 cannot put 1..4 next to that cell, the two would add up to 5.
- ``house_pair_arrangement``: the same over two houses at once (neighbouring rows, columns
  or boxes joined by such rules between three or more pairs of cells), just before the forcing
  family: the negative rules' "if r5c6 were 1, row 4 could not place its 9".
- ``band_arrangement``: the same over a band (three rows and their boxes, or a stack of
  columns) with every rule inside it, cages and lines of three cells or more included (read
  through their ``check``): "rows 4-6 with the anti-XV rule: no filling of these 26 open
  cells has r5c6=9". Fillings found are kept and support their digits at later looks while
  they still fit, so most looks search only for the candidates about to go.
- ``window_arrangement``: the same on a grid without bands (a jigsaw whose regions cross
  every row, a boxless grid) over every three consecutive rows or columns, just before the
  forcing family: "rows 4-6 with anti-knight, palindrome: no filling of these 24 open cells
  has r4c5=6".

The rules are read through their weak links (``Constraint.weak_links``: the digit pairs a
two-cell rule forbids), so every two-cell constraint takes part, whatever made it.
"""
from __future__ import annotations

import time
from itertools import product
from typing import Any, Iterator

from csp import kernel
from csp.bits import digits_of, iter_cells
from csp.constraints import AllDifferent, Constraint
from csp.constraints.sums import Linear
from csp.links import link_tables, rule_kind
from csp.step import Candidate, Step, cell_name, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import Option, Options, register

from .pairs_logic import FAMILY, pinch_tables

try:        # the arrangement searches with linear-sum rules in C (optional; csp/kernel.py)
    from . import _band_kernel
except ImportError:                                         # pragma: no cover - not built
    _band_kernel = None


class ArrangementTables:
    """Per puzzle: the houses whose cells are also joined by two-cell rules that forbid pairs
    of different digits (a negative XV or ratio rule along a row, a whisper inside a box ...)
    (``houses``), and the pairs of houses that such rules join (``unions``: two neighbouring
    rows, columns or boxes); for each
    ``region`` (a house index, or a pair of them) what a candidate of one of its cells
    removes from its other cells (``removes(region)``: (cell, digit) -> ((other cell, digit
    mask), ...): the same digit in cells of a common house, the digits the rules forbid)."""

    def __init__(self, puzzle) -> None:
        links = self.links = link_tables(puzzle)
        cross = links.cross
        hm = links.house_mask
        self.houses: list[int] = []
        joined: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for h, m in enumerate(hm):
            inside = False
            for c in iter_cells(m):
                for d in range(1, links.n + 1):
                    for c2, d2 in cross.get((c, d), ()):
                        if c2 == c or d2 == d:
                            continue
                        if m >> c2 & 1:
                            inside = True
                            continue
                        for h2 in links.cell_houses[c2]:
                            if h2 != h and not hm[h2] >> c & 1:
                                joined.setdefault((min(h, h2), max(h, h2)), set()).add(
                                    (min(c, c2), max(c, c2)))
            if inside:
                self.houses.append(h)
        #: pairs of houses joined by rules between three or more pairs of their cells (two
        #: neighbouring rows under a negative rule; a single dot between two boxes is not
        #: worth a search over both)
        self.unions: list[tuple[int, int]] = sorted(
            k for k, v in joined.items() if len(v) >= 3)
        rule_names = pinch_tables(puzzle).rule_names
        self._names = rule_names

        def long_rules(inside: int) -> tuple:
            """The rules of three cells or more (all-different houses aside) wholly inside
            the cell set ``inside``."""
            return tuple(con for con in puzzle.constraints
                         if len(con.cells) > 2 and type(con) is not AllDifferent
                         and type(con).check is not Constraint.check
                         and all(inside >> c & 1 for c in con.cells))

        #: per band (see :func:`bands`): its houses, its name and the rules of three cells
        #: or more wholly inside it (the two-cell rules are read through their weak links)
        self.bands: list[tuple[tuple[int, ...], str, tuple]] = []
        for houses, name in bands(puzzle, links):
            inside = self.cells(houses)
            rules = long_rules(inside)
            if rules or _linked_between(links, inside, inside):
                self.bands.append((houses, name, rules))
        #: on a grid where no box joins a few lines only (a jigsaw whose regions cross
        #: every line, a boxless grid): windows of ``WINDOW`` consecutive rows (columns)
        #: with the houses wholly inside them and their rules, searched the same way by
        #: :func:`window_arrangement`
        self.windows: list[tuple[tuple[int, ...], str, tuple]] = []
        for houses, name in line_windows(puzzle, links):
            inside = self.cells(houses)
            rules = long_rules(inside)
            if rules or _linked_between(links, inside, inside):
                self.windows.append((houses, name, rules))
        #: a band with one more line that rules join to it ("rows 4-6 and row 3": an XV
        #: rule across the band's edge), the same way
        self.wide: list[tuple[tuple[int, ...], str, tuple]] = []
        for houses, name, _ in self.bands:
            inside = self.cells(houses)
            kind = links.houses[houses[0]].kind
            for x, h in enumerate(links.houses):
                if h.kind != kind or not links.house_mask[x] & ~inside \
                        or not _linked_between(links, links.house_mask[x], inside):
                    continue
                cells = inside | links.house_mask[x]
                more = tuple(y for y, m in enumerate(links.house_mask)
                             if y not in houses and y != x and len(links.houses[y].cells) > 1
                             and not m & ~cells)
                rules = long_rules(cells)
                self.wide.append((houses + (x,) + more, f"{name} and {h.name}", rules))
        self._removes: dict = {}
        #: per region, the open cells of its last search and their :func:`_forbid_table`
        #: (the open cells change only when a cell of the region is placed)
        self._forbid: dict = {}
        #: per region, the failed states of its searches (:attr:`_Filler.dead`), kept while
        #: the open cells, groups and lacking digits stay the same
        self._dead: dict = {}
        #: per region, the kinds of two-cell rules between its cells and how many there are
        #: ("negative x" for "negative x r1c1-r1c2"; for the explanation)
        self.rules: dict = {}
        #: the same as (kinds, how many rules)
        self.kinds: dict = {}
        #: per region, the cell candidates for which the finder last found nothing
        self.quiet: dict = {}
        #: per region, fillings found (bit set of the region's cells' digits, bit
        #: ``c * (n + 1) + d`` for cell c holding d): those that still fit support their
        #: digits at the next look without a search
        self.fillings: dict = {}

    def cells(self, region: int | tuple[int, ...]) -> int:
        """The cells of a region (a bit set)."""
        hm = self.links.house_mask
        if isinstance(region, int):
            return hm[region]
        out = 0
        for h in region:
            out |= hm[h]
        return out

    def removes(self, region: int | tuple[int, ...]) -> dict:
        """What a candidate of a region's cell removes from its other cells (built once)."""
        got = self._removes.get(region)
        if got is None:
            links = self.links
            inside = self.cells(region)
            got = {}
            linked: set[tuple[int, int]] = set()    # cells joined by a rule (for names)
            for c in iter_cells(inside):
                hp = links.house_peers[c]
                for d in range(1, links.n + 1):
                    peers = links.peers_d[d][c] & inside
                    out: dict[int, int] = dict.fromkeys(iter_cells(peers), 1 << d)
                    if peers & ~hp:                                 # anti-knight, ...
                        linked.update((c, c2) for c2 in iter_cells(peers & ~hp))
                    for c2, d2 in links.cross.get((c, d), ()):
                        if c2 != c and inside >> c2 & 1:
                            out[c2] = out.get(c2, 0) | 1 << d2
                            linked.add((c, c2))
                    got[(c, d)] = tuple(out.items())
            self._removes[region] = got
            names = {n for pair in linked for n in self._names.get(pair, "").split(", ") if n}
            kinds = sorted({n.rsplit(" ", 1)[0] if " " in n else n for n in names})
            self.kinds[region] = (kinds, len(names))
            self.rules[region] = (f"{', '.join(kinds)} ({len(names)} "
                                  f"rule{'s' if len(names) > 1 else ''})")
        return got

    def forbid_table(self, region: int | tuple[int, ...], cells: list[int]) -> list[dict]:
        """:func:`_forbid_table` of a region's open ``cells`` (kept until they change)."""
        key = tuple(cells)
        got = self._forbid.get(region)
        if got is None or got[0] != key:
            got = self._forbid[region] = (key, _forbid_table(self.removes(region), cells,
                                                             self.links.n))
        return got[1]

    def dead_states(self, region: int | tuple[int, ...], cells: list[int], groups: list[int],
                    required: list[int] | None = None) -> dict:
        """The failed states of the searches of a region's open ``cells`` with these
        ``groups`` and lacking digits (``required``) so far: the search from a state is the
        same at every look while those and the rules are (the rules are fixed per region;
        :meth:`forbid_table` for the same cells). A new table when they change; all are
        dropped when they hold ``DEAD_STATES`` states between them (they only save time,
        about half a kilobyte a state)."""
        shape = (tuple(cells), tuple(groups), tuple(required or ()))
        if sum(len(states) for _, states in self._dead.values()) > DEAD_STATES:
            self._dead.clear()
        got = self._dead.get(region)
        if got is None or got[0] != shape:
            got = self._dead[region] = (shape, {})
        return got[1]


#: failed search states kept for all regions (:meth:`ArrangementTables.dead_states`): about
#: 5 MB. Measured on Anti-XV, Anti-Ratio and Deflation, keeping 100,000 of them across looks
#: saved no time and cost 40 MB more peak memory than 10,000; most of the gain is inside a look
DEAD_STATES = 10_000


def _forbid_table(removes: dict, cells: list[int], n: int) -> list[dict]:
    """Per open cell (its index in ``cells``), per digit 1..``n``: what the candidate takes
    from the other open cells, as (their index, the digits they keep) (``removes``: see
    :meth:`ArrangementTables.removes`)."""
    index = {c: i for i, c in enumerate(cells)}
    every = (1 << n + 1) - 1
    return [{d: tuple((index[c2], every & ~m) for c2, m in removes[(c, d)] if c2 in index)
             for d in range(1, n + 1)} for c in cells]


def arrangement_tables(puzzle) -> ArrangementTables:
    """The :class:`ArrangementTables` of a puzzle, built once (:meth:`csp.Puzzle.derived`)."""
    return puzzle.derived(ArrangementTables)


class _Expired(Exception):
    """The solver's deadline passed during a search (the search is dropped)."""


def bands(puzzle, links=None) -> list[tuple[tuple[int, ...], str]]:
    """The bands and stacks of a grid: the fewest rows (or columns) that hold whole boxes,
    with those boxes and every other house wholly inside them (a cage, an extra region), as
    (house indexes, name). Two to four lines a band; a jigsaw whose regions join every row
    has none.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> [name for _, name in bands(Puzzle(9).use(classic()))]
    ['rows 1-3', 'rows 4-6', 'rows 7-9', 'columns 1-3', 'columns 4-6', 'columns 7-9']
    >>> len(bands(Puzzle(6).use(classic()))), bands(Puzzle(6).use(classic()))[0][1]
    (5, 'rows 1-2')
    """
    links = links or link_tables(puzzle)
    houses, hm = links.houses, links.house_mask
    boxes = [i for i, h in enumerate(houses) if h.kind in ("box", "region")]
    out = []
    for kind, word in (("row", "rows"), ("col", "columns")):
        lines = [i for i, h in enumerate(houses) if h.kind == kind]
        parent = {x: x for x in lines}

        def root(x: int) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        for b in boxes:
            crossing = [x for x in lines if hm[x] & hm[b]]
            for x in crossing[1:]:
                parent[root(x)] = root(crossing[0])
        comps: dict[int, list[int]] = {}
        for x in lines:
            comps.setdefault(root(x), []).append(x)
        for group in comps.values():
            if not 2 <= len(group) <= 4 or len(group) == len(lines):
                continue
            inside = 0
            for x in group:
                inside |= hm[x]
            more = [h for h in range(len(houses))
                    if h not in group and len(houses[h].cells) > 1 and not hm[h] & ~inside]
            nums = [houses[x].name.rsplit(" ", 1)[-1] for x in group]
            name = (f"{word} {nums[0]}-{nums[-1]}"
                    if all(s.isdigit() for s in nums)
                    and [int(s) for s in nums] == list(range(int(nums[0]), int(nums[-1]) + 1))
                    else f"{word} {', '.join(nums)}")
            out.append((tuple(group + more), name))
    return out


#: lines per window of :func:`line_windows`
WINDOW = 3


def line_windows(puzzle, links=None, k: int = WINDOW) -> list[tuple[tuple[int, ...], str]]:
    """On a grid without bands of one direction (see :func:`bands`: a jigsaw whose regions
    cross every row, a boxless grid), every window of ``k`` consecutive lines of that
    direction, with the houses wholly inside it, as (house indexes, name); nothing in a
    direction that has bands.

    >>> from csp import Puzzle, Grid
    >>> [name for _, name in line_windows(Puzzle(Grid(6, box=(1, 6))).add_grid_houses())]
    ['rows 1-3', 'rows 2-4', 'rows 3-5', 'rows 4-6', 'columns 1-3', 'columns 2-4', 'columns 3-5', 'columns 4-6']
    >>> line_windows(Puzzle(9).add_grid_houses())
    []
    """
    links = links or link_tables(puzzle)
    houses, hm = links.houses, links.house_mask
    have = {name.split(" ", 1)[0] for _, name in bands(puzzle, links)}
    out = []
    for kind, word in (("row", "rows"), ("col", "columns")):
        lines = [i for i, h in enumerate(houses) if h.kind == kind]
        if word in have or len(lines) <= k:
            continue
        for i in range(len(lines) - k + 1):
            group = lines[i:i + k]
            inside = 0
            for x in group:
                inside |= hm[x]
            more = [h for h in range(len(houses))
                    if h not in group and len(houses[h].cells) > 1 and not hm[h] & ~inside]
            out.append((tuple(group + more), f"{word} {i + 1}-{i + k}"))
    return out


def _linked_between(links, a: int, b: int) -> bool:
    """Is some candidate of a cell in bit set ``a`` linked by a rule (not a house) to a
    candidate of a cell in bit set ``b``?"""
    for c in iter_cells(a):
        hp = links.house_peers[c]
        for d in range(1, links.n + 1):
            if links.peers_d[d][c] & b & ~hp:
                return True
            if any(c2 != c and b >> c2 & 1 for c2, _ in links.cross.get((c, d), ())):
                return True
    return False


#: nodes a band's searches may take together at one look (option ``band_total``; a
#: candidate's own search: ``band_budget``, 2000). Measured on the f-puzzles set, interleaved
#: per puzzle: at 20,000 "Y Are We Whispering?" still needed 6 forcing nets and a polarity
#: trial, at 50,000 it needs none and takes 5.0 s instead of 7.8 s; the whole set's CPU
#: moved within the machine's noise (207 -> 212 s) and no other solve changed its forcing
#: count (200,000 frees nothing more). ``window_total`` stays 20,000: 50,000 changed nothing
BAND_TOTAL = 50_000


#: what one support search of a rule (:meth:`_Filler.prune`) counts against a filling
#: search's node budget: a skyscraper line's exact supports cost about as much CPU as this
#: many plain search nodes, so a budget bounds the time whether the rules prune or not
PRUNE_COST = 4


def _required(an: Analysis, houses: tuple[int, ...], inside: int) -> list[int]:
    """Per house of a region, the digits its open cells must hold: a full house lying
    wholly inside the region lacks the digits not placed in it yet; any other house, 0."""
    placed = an.state.placed
    full = set(an.full)
    every = ((1 << an.n) - 1) << 1
    out = []
    for h in houses:
        hm = an.house_mask[h]
        if h not in full or hm & ~inside:
            out.append(0)
            continue
        m = every
        for c in iter_cells(hm):
            if placed[c]:
                m &= ~(1 << placed[c])
        out.append(m)
    return out


def _rule_places(cells: Any, index: dict[int, int], values: Any) -> tuple[list[int],
                                                                         list[int], int]:
    """A rule's cells as a search sees them: each cell's index in the search (-1 outside),
    the digit of each cell outside (``values``; 0 inside) and the bitset of the indexes
    inside."""
    pos = [index.get(c, -1) for c in cells]
    fixed = [0 if p >= 0 else values[c] for p, c in zip(pos, cells)]
    opened = 0
    for p in pos:
        if p >= 0:
            opened |= 1 << p
    return pos, fixed, opened


class _Filler:
    """Fillings of a region's open ``cells`` from their candidates ``doms``: what each
    candidate removes from the other cells (``removes``, see
    :meth:`ArrangementTables.removes`) taken out at each step, the cells of each of
    ``groups`` (bit sets of cell indexes that must differ) given as many different digits;
    at most ``budget`` search nodes (then :class:`TimeoutError`).

    ``removes`` must be symmetric, as weak links are ((c, d) removes d2 from c2 exactly when
    (c2, d2) removes d from c), and remove a digit from the other cells of each group (the
    cells of a house). Then a cell placed during the search keeps its one digit to the end
    (a later placement that would remove it was itself removed by it), which the search's
    bookkeeping of the digits a group still lacks relies on."""

    def __init__(self, cells: list[int], doms: list[int], removes: dict, groups: list[int],
                 budget: int, rules: tuple = (), values: list[int] | None = None,
                 an: Analysis | None = None, required: list[int] | None = None,
                 forbid: list[dict] | None = None, dead: dict | None = None) -> None:
        self.k = k = len(cells)
        self._cells = cells
        index = {c: i for i, c in enumerate(cells)}
        #: per cell and digit: (other cell, the digits it keeps) for each cell the
        #: candidate takes digits from (``forbid``: :func:`_forbid_table`, given or built)
        self.fb = forbid if forbid is not None else _forbid_table(
            removes, cells, max(doms, default=1).bit_length() - 1)
        self.groups = groups
        # The groups whose open cells must hold given digits between them (``required``:
        # a full house, the digits not placed in it yet): the search also branches on
        # where such a digit goes when it has fewer places than any cell has digits. The
        # search's masks (``dom`` in :meth:`fill`) hold the cells' digits, then per such
        # group the digits it still lacks (less those placed in it during the search):
        # ``_req`` (its cells, its slot in ``dom``), ``_slots`` (per cell, the slots of
        # its groups), ``_lacks`` (the slots at the start); the other groups: ``_plain``.
        lacking = list(required or ())[:len(groups)]
        lacking += [0] * (len(groups) - len(lacking))
        self._plain = [g for g, r in zip(groups, lacking) if not r]
        self._req: list[tuple[int, int]] = []
        self._lacks: list[int] = []
        slots: list[list[int]] = [[] for _ in range(k)]
        for g, r in zip(groups, lacking):
            if r:
                slot = k + len(self._req)
                self._req.append((g, slot))
                self._lacks.append(r)
                for i in iter_cells(g):
                    slots[i].append(slot)
        self._slots = [tuple(x) for x in slots]
        #: with no rules: the states whose search failed, with its node count (``dead``,
        #: given to keep them between searches of the same cells, groups and digits
        #: lacking, or a new one), see :meth:`descend`
        self.dead: dict | None = None if rules else (dead if dead is not None else {})
        self.doms = doms
        self.budget = budget
        self.nodes = 0
        self.chosen = [0] * self.k
        #: the last filling found or kept (None: none yet): the search tries its digit of
        #: a cell first, so the next search for a candidate mostly follows it (a search
        #: that fails visits every branch in any order, the same nodes; one that succeeds
        #: mostly succeeds sooner). Not with :attr:`pruners`, whose looks cost nodes only
        #: the first time (``pruned``): there the order would move where budgets stop
        self.guide: list[int] | None = None
        self.an = an
        #: per open cell, the rules of three cells or more through it: (the rule, its
        #: cells' open indexes or -1, the placed digits, the bit set of its open cells,
        #: the rule's verdicts so far: its cells' digits -> ``check``)
        self.rules_of: list[list] | None = None
        #: the rules with an exact support function of their own (``Constraint.supports``:
        #: an outside clue's line), read at every node to prune: (the rule, its cells' open
        #: indexes or -1, the placed digits' masks)
        self.pruners: list[tuple] = []
        self.pruned: dict[tuple[int, ...], list[int] | None] = {}
        self._rules, self._values = rules, values
        if rules:
            self.rules_of = [[] for _ in range(self.k)]
            for con in rules:
                pos, fixed, opened = _rule_places(con.cells, index, values)
                # (``check`` is a predicate of the digits alone, so its verdict on a tuple
                # of digits holds for the whole search)
                verdicts: dict[tuple[int, ...], bool] = {}
                for p in set(pos) - {-1}:
                    self.rules_of[p].append((con, pos, fixed, opened, verdicts))
                if opened and type(con).supports is not Constraint.supports:
                    self.pruners.append((con, pos, [1 << v for v in fixed]))

    def holds(self, i: int, left: int) -> bool:
        """Do the rules through cell ``i`` whose cells are all chosen now (none in bit set
        ``left``) hold?"""
        chosen = self.chosen
        for con, pos, fixed, opened, verdicts in self.rules_of[i]:
            if opened & left:
                continue
            digits = tuple([chosen[p] if p >= 0 else v for p, v in zip(pos, fixed)])
            ok = verdicts.get(digits)
            if ok is None:
                ok = verdicts[digits] = con.check(*digits)
            if not ok:
                return False
        return True

    def fill(self, dom: list[int], left: int) -> bool:
        """Fill the cells of bit set ``left`` (a filling found is left in ``chosen``);
        ``dom``: the cells' digits, then the digits each required group still lacks."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise TimeoutError
        if self.an is not None and self.an.tick():
            raise _Expired
        if not left:
            return True
        if self.pruners and not self.prune(dom):
            return False
        # the open cell with the fewest digits (the first of them), none empty
        best, bc = -1, 99
        x = left
        while x:
            low = x & -x
            i = low.bit_length() - 1
            cnt = dom[i].bit_count()
            if cnt < bc:
                if not cnt:
                    return False
                best, bc = i, cnt
            x ^= low
        # the open cells of each group need as many different digits (the groups with
        # given digits are checked with those below)
        for g in self._plain:
            g &= left
            if g & (g - 1):
                need = 0
                x = g
                while x:
                    low = x & -x
                    need |= dom[low.bit_length() - 1]
                    x ^= low
                if need.bit_count() < g.bit_count():
                    return False
        # a digit a full house still lacks: no place left fails, one place is a hidden
        # single, two places branch more narrowly than a cell of three digits or more.
        # After a hidden single, the later houses are only checked for enough digits.
        spots = digit = 0
        single = False
        for g, slot in self._req:
            g &= left
            once = twice = thrice = 0
            x = g
            while x:
                low = x & -x
                m = dom[low.bit_length() - 1]
                thrice |= twice & m
                twice |= once & m
                once |= m
                x ^= low
            if once.bit_count() < g.bit_count():
                return False
            if single:
                continue
            need = dom[slot]
            if need & ~once:
                return False
            pick = need & ~twice or (need & ~thrice if bc > 2 else 0)
            if pick:
                digit = (pick & -pick).bit_length() - 1
                bit = 1 << digit
                spots = 0
                x = g
                while x:
                    low = x & -x
                    if dom[low.bit_length() - 1] & bit:
                        spots |= low
                    x ^= low
                if not pick & twice:
                    single = True           # a hidden single: take it now
        guide = self.guide if not self.pruners else None
        if spots:
            order = iter_cells(spots)
            if guide is not None:
                g = [i for i in iter_cells(spots) if guide[i] == digit]
                if g:
                    order = g + [i for i in iter_cells(spots) if i != g[0]]
            for i in order:
                self.chosen[i] = digit
                rest = left & ~(1 << i)
                if self.rules_of is not None and not self.holds(i, rest):
                    continue
                if self.descend(self.place(dom, i, digit), rest):
                    return True
            return False
        rest = left & ~(1 << best)
        order = digits_of(dom[best])
        if guide is not None and dom[best] >> guide[best] & 1 and order[0] != guide[best]:
            order = (guide[best],) + tuple(d for d in order if d != guide[best])
        for d in order:
            self.chosen[best] = d
            if self.rules_of is not None and not self.holds(best, rest):
                continue
            if self.descend(self.place(dom, best, d), rest):
                return True
        return False

    def descend(self, dom: list[int], left: int) -> bool:
        """:meth:`fill`, or with :attr:`dead`, its node count replayed for a state whose
        search has failed before: the search from a state reads only the masks of the
        open cells and the lacking digits (a placed cell's mask is 0 then, so ``(left,
        *dom)`` is the whole state) and the rules are none, so it is the same search,
        counting the same nodes, every time; the budget runs out inside it exactly when
        the nodes so far plus its count exceed it."""
        dead = self.dead
        if dead is None:
            return self.fill(dom, left)
        key = (left, *dom)
        count = dead.get(key)
        if count is None:
            before = self.nodes
            if self.fill(dom, left):
                return True
            dead[key] = self.nodes - before
            return False
        before = self.nodes
        if before + count > self.budget:
            self.nodes = self.budget + 1        # where the search itself would stop
            raise TimeoutError
        self.nodes = before + count
        if self.an is not None and self.an.tick(count):
            raise _Expired
        return False

    def prune(self, dom: list[int]) -> bool:
        """Narrow ``dom`` (in place) to the digits each rule of :attr:`pruners` supports
        from it; False when some rule has no assignment left."""
        seen = self.pruned
        for r, (con, pos, fixed) in enumerate(self.pruners):
            key = (r, *[dom[p] if p >= 0 else f for p, f in zip(pos, fixed)])
            sup = seen.get(key, self)
            if sup is self:
                # a rule's support search costs about as much as PRUNE_COST nodes
                self.nodes += PRUNE_COST
                sup = seen[key] = con.supports(list(key[1:]))
            if sup is None:
                return False
            for p, m in zip(pos, sup):
                if p >= 0 and dom[p] & ~m:
                    m &= dom[p]
                    if not m:
                        return False
                    dom[p] = m
        return True

    def place(self, dom: list[int], i: int, d: int) -> list[int]:
        """The masks once cell ``i`` holds ``d`` (its own mask 0 with :attr:`dead`, where
        nothing reads a placed cell's mask, so that a state is its masks)."""
        nd = dom[:]
        for j, keep in self.fb[i].get(d, ()):
            nd[j] &= keep
        bit = 1 << d
        nd[i] = bit if self.dead is None else 0
        for slot in self._slots[i]:
            nd[slot] &= ~bit
        return nd

    def _kernel_spec(self) -> tuple | None:
        """What ``variants._band_kernel.supports`` reads of this search, or None when the
        kernel does not take it: it takes searches without rules of three cells or more
        (houses, pairs of houses, bands joined by two-cell rules only) and those whose such
        rules are all linear sums (``Linear``: arrows, double arrows), up to 64 cells and
        slots, digits up to 62, 32 cells a rule and 4,096 partial sums."""
        rules = self._rules or ()
        if self.k + len(self._req) > 64 or any(type(con) is not Linear for con in rules):
            return None
        n = max(self.doms + self._lacks, default=1).bit_length() - 1
        if n > 62:
            return None
        index = {c: i for i, c in enumerate(self._cells)}
        values = self._values
        specs, rules_of, pruners = [], [[] for _ in range(self.k)], []
        for r, con in enumerate(rules):
            if len(con.cells) > 32 or sum(abs(a) for a in con.coeffs) * n >= 4096 \
                    or any(abs(a) > 1 << 24 for a in con.coeffs) or abs(con.total) > 1 << 40:
                return None
            pos, fixed, opened = _rule_places(con.cells, index, values)
            specs.append((tuple(pos), tuple(fixed), opened, con.coeffs, con.total))
            for p in set(pos) - {-1}:
                rules_of[p].append(r)
            if opened:
                pruners.append(r)
        return (self.k, self.fb, self._plain, [(g, slot) for g, slot in self._req],
                self._slots, specs, rules_of, pruners)

    def supports(self, total: int | None = None, seed: list[int] | None = None) -> list[int]:
        """For each cell, the digits that take part in some filling. Each candidate without
        one yet is tried in turn; a filling found supports all its digits at once.

        With ``total``, ``budget`` caps each candidate's search and ``total`` all of them:
        a candidate whose search runs out counts as supported (it is only left alone), and
        once ``total`` is spent every candidate not yet tried does. ``seed``: digits known
        to take part in some filling already (each filling found is kept in ``found``).
        In the compiled ``variants._band_kernel`` when it is built and takes the search
        (:meth:`_kernel_spec`): the same nodes, supports and fillings."""
        kern = kernel.active(_band_kernel)
        spec = self._kernel_spec() if kern is not None else None
        if spec is not None:
            status, support, found, self.nodes = kern.supports(
                spec, self.doms + self._lacks, list(seed) if seed is not None else [0] * self.k,
                self.budget, -1 if total is None else total,
                self.an.tick if self.an is not None else None,
                self.guide if not self.pruners else None, self.dead)
            self.found = found
            if found:
                self.guide = found[-1]
            if status == 1:
                raise TimeoutError
            if status == 2:
                raise _Expired
            return support
        k = self.k
        support = list(seed) if seed is not None else [0] * k
        self.found: list[list[int]] = []
        everyone = (1 << k) - 1
        spent = 0
        start = self.doms + self._lacks
        for i in range(k):
            for d in digits_of(self.doms[i] & ~support[i]):
                if support[i] >> d & 1:
                    continue
                if total is not None and spent > total:
                    return support[:i] + [s | dm for s, dm in zip(support[i:], self.doms[i:])]
                self.chosen[i] = d
                rest = everyone & ~(1 << i)
                if self.rules_of is not None and not self.holds(i, rest):
                    continue
                try:
                    if self.descend(self.place(start, i, d), rest):
                        for j, x in enumerate(self.chosen):
                            support[j] |= 1 << x
                        self.found.append(self.chosen[:])
                        self.guide = self.found[-1]
                except TimeoutError:
                    if total is None:
                        raise
                    support[i] |= 1 << d        # not decided within its budget: kept
                if total is not None:
                    spent += self.nodes
                    self.nodes = 0
        return support


# -- why a candidate fits no filling (the arrangement steps' explanations) ---------------------
#: where a line of reasoning ends: ("cell", open index): no digit left; ("house", (group,
#: digit)): no place for a digit the house lacks; ("few", group): fewer digits than open
#: cells; ("rule", rule index): no way to keep the rule
End = tuple

#: two-way splits :meth:`_Why.prove` tries at a position that stops short
WHY_SPLITS = 12
#: positions a candidate's case search (:meth:`_Why.search`) may visit
WHY_SEARCH = 400
#: fillings of a rule's cells :class:`_Why` enumerates to narrow a rule that has no
#: support function of its own (more: the rule only breaks once its cells are placed)
WHY_RULE_TUPLES = 4096
#: groups of candidates whose representative's whole reasoning the text spells out (the
#: others name only where theirs ends)
WHY_SHOWN = 3
#: consequences (:meth:`_Why._step`) one step's explanation may follow in all: past it,
#: the splits and the case searches stop and say what they saw (about a second; the
#: explanations of the solve paths of the f-puzzles set take at most 15,000, the one that
#: prompted it 80,000: 5 s of a report's 2)
WHY_WORK = 20_000


class _Trial:
    """One line of reasoning inside a region (see :class:`_Why`): the open cells' digits
    (``dom``), what followed so far (``events``: (open index, digit or removed digits,
    why, the events it rests on); index -1 for a rule's narrowing, -2 for the end), the
    event that placed each open cell and the one that removed each (cell, digit)."""

    __slots__ = ("dom", "events", "placed", "removed_by")

    def __init__(self, dom: list[int]) -> None:
        self.dom = dom
        self.events: list[tuple[int, int, tuple, frozenset[int]]] = []
        self.placed: dict[int, int] = {}
        self.removed_by: dict[tuple[int, int], int] = {}

    def copy(self) -> "_Trial":
        t = _Trial(self.dom[:])
        t.events = self.events[:]
        t.placed = dict(self.placed)
        t.removed_by = dict(self.removed_by)
        return t


class _Proof:
    """Why a candidate fits no filling: the events of its line of reasoning, those its end
    rests on (``needed``), and its end -- or the two cases it splits into (each a proof
    whose events continue these), or the dead ends of a case search (``search``:
    (cases, ends))."""

    __slots__ = ("events", "needed", "end", "cases", "search")

    def __init__(self, events: list, needed: set[int], end: End | None = None,
                 cases: tuple["_Proof", ...] = (), search: tuple | None = None) -> None:
        self.events = events
        self.needed = needed
        self.end = end
        self.cases = cases
        self.search = search

    def size(self) -> int:
        """How much there is to read."""
        return len(self.needed) + sum(c.size() for c in self.cases)


def _needed(events: list) -> set[int]:
    """The events the last one (an end) rests on: a walk back along their causes."""
    seen: set[int] = set()
    stack = list(events[-1][3])
    while stack:
        e = stack.pop()
        if e not in seen:
            seen.add(e)
            stack.extend(events[e][3])
    return seen


class _Why:
    """Why a candidate of a region's open cells fits no filling of the region, as a solver
    checks it by hand: the candidate placed and what follows inside the region -- a cell's
    last digit, a house's only place for a digit it lacks, a digit that would leave a
    rule-joined neighbour nothing, the digits a rule of three cells or more can still take
    -- until a cell has no digit left, a house no place for a digit it lacks (or fewer
    digits than open cells) or a rule no way to hold. Where that stops short, a cell with
    two digits (or a digit with two places in a house) is split into its two cases, each
    followed the same way; failing that, a search through the cases (branching on the cell
    with the fewest digits) counts where they end. Only the events an end rests on are
    told. The exact search (:class:`_Filler`) decides what goes; this only says why.

    Holds plain data only (no analysis or state), so a step can keep it and work its
    explanation out when first asked (:class:`_Reasons`)."""

    def __init__(self, an: Analysis, cells: list[int], doms: list[int], forbid: list[dict],
                 groups: list[int], houses: list[str], required: list[int],
                 rules: tuple = ()) -> None:
        self.cells = cells
        self.doms = doms
        self.fb = forbid
        self.groups = groups
        self.work = 0              # consequences followed so far (see WHY_WORK)
        #: a caller's deadline (a :func:`time.perf_counter` value; None: none) that stops
        #: the splits and the case searches as WHY_WORK does (see :attr:`_Reasons.deadline`)
        self.deadline: float | None = None
        self.houses = houses
        self.required = list(required) + [0] * (len(groups) - len(required))
        self.namer = an.grid.namer
        self.pair_names = pinch_tables(an.puzzle).rule_names
        index = {c: i for i, c in enumerate(cells)}
        placed = an.state.placed
        self.rules = [(con, [index.get(c, -1) for c in con.cells],
                       [0 if c in index else placed[c] for c in con.cells])
                      for con in rules if any(c in index for c in con.cells)]
        self._sup: dict[tuple, list[int] | None] = {}

    # -- following a line of reasoning ------------------------------------------------------
    @staticmethod
    def _lost(t: _Trial, i: int, mask: int) -> set[int]:
        """The events that removed the digits ``mask`` from open cell ``i``."""
        rb = t.removed_by
        return {rb[(i, v)] for v in digits_of(mask) if (i, v) in rb}

    def _empty(self, t: _Trial, i: int) -> End:
        t.events.append((-2, i, ("end",), frozenset(self._lost(t, i, self.doms[i]))))
        return ("cell", i)

    def _place(self, t: _Trial, i: int, d: int, why: tuple, causes: set[int]) -> End | None:
        """Place ``d`` in open cell ``i`` and take out what it rules out (the end when a
        cell is left with nothing)."""
        e = len(t.events)
        t.events.append((i, d, why, frozenset(causes)))
        t.placed[i] = e
        dom = t.dom
        for v in digits_of(dom[i] & ~(1 << d)):
            t.removed_by[(i, v)] = e
        dom[i] = 1 << d
        for j, keep in self.fb[i].get(d, ()):
            gone = dom[j] & ~keep
            if gone:
                for v in digits_of(gone):
                    t.removed_by[(j, v)] = e
                dom[j] &= keep
                if not dom[j]:
                    return self._empty(t, j)
        return None

    def _remove(self, t: _Trial, i: int, gone: int, why: tuple, causes: set[int]) -> End | None:
        e = len(t.events)
        t.events.append((i, gone, why, frozenset(causes)))
        for v in digits_of(gone):
            t.removed_by[(i, v)] = e
        t.dom[i] &= ~gone
        return None if t.dom[i] else self._empty(t, i)

    def _support(self, r: int, doms: list[int]) -> list[int] | None:
        """The digits of rule ``r``'s cells that some assignment keeping it uses: its own
        support function, or for a few tuples all of them checked (else every digit)."""
        key = (r, *doms)
        if key in self._sup:
            return self._sup[key]
        con = self.rules[r][0]
        got: list[int] | None
        if type(con).supports is not Constraint.supports:
            got = con.supports(list(doms))
        else:
            size = 1
            for m in doms:
                size *= m.bit_count()
            got = list(doms)
            if size <= WHY_RULE_TUPLES:
                got = [0] * len(doms)
                for combo in product(*(digits_of(m) for m in doms)):
                    if con.check(*combo):
                        for x, v in enumerate(combo):
                            got[x] |= 1 << v
                if not any(got):
                    got = None
        self._sup[key] = got
        return got

    def _step(self, t: _Trial) -> End | None | bool:
        """Take the next consequence: the end when it is one, True when something
        followed, False when nothing does. Order: a cell's last digit, a house's only place
        (or none) for a digit it lacks, a house with fewer digits than open cells, digits
        that leave a rule-joined neighbour nothing, a long rule's supports."""
        self.work += 1
        dom, placed = t.dom, t.placed
        for j, m in enumerate(dom):
            if j not in placed and not m & (m - 1):
                return self._place(t, j, m.bit_length() - 1, ("last",),
                                   self._lost(t, j, self.doms[j] & ~m)) or True
        for gi, g in enumerate(self.groups):
            for v in digits_of(self.required[gi]):
                bit = 1 << v
                spots = [j for j in iter_cells(g) if dom[j] & bit]
                if len(spots) > 1 or (spots and spots[0] in placed):
                    continue
                causes: set[int] = set()
                for j in iter_cells(g):
                    if self.doms[j] & bit and not dom[j] & bit:
                        causes |= self._lost(t, j, bit)
                if not spots:
                    t.events.append((-2, -1, ("end",), frozenset(causes)))
                    return ("house", (gi, v))
                return self._place(t, spots[0], v, ("only", gi), causes) or True
        for gi, g in enumerate(self.groups):
            union = 0
            for j in iter_cells(g):
                union |= dom[j]
            if union.bit_count() < g.bit_count():
                causes = set()
                for j in iter_cells(g):
                    causes |= self._lost(t, j, self.doms[j] & ~union)
                t.events.append((-2, -1, ("end",), frozenset(causes)))
                return ("few", gi)
        fb = self.fb
        for j, m in enumerate(dom):
            if j in placed:
                continue
            gone = 0
            causes = set()
            by: list[int] = []
            for v in digits_of(m):
                for j2, keep in fb[j].get(v, ()):
                    if not dom[j2] & keep:
                        gone |= 1 << v
                        causes |= self._lost(t, j2, self.doms[j2] & keep)
                        if j2 not in by:
                            by.append(j2)
                        break
            if gone:
                return self._remove(t, j, gone, ("cut", tuple(by)), causes) or True
        for r, (con, pos, fixed) in enumerate(self.rules):
            sup = self._support(r, [dom[p] if p >= 0 else 1 << f for p, f in zip(pos, fixed)])
            causes = set()
            for p in pos:
                if p >= 0:
                    causes |= self._lost(t, p, self.doms[p] & ~dom[p])
            if sup is None:
                t.events.append((-2, -1, ("end",), frozenset(causes)))
                return ("rule", r)
            for p, s in zip(pos, sup):
                if p >= 0 and dom[p] & ~s:
                    return self._remove(t, p, dom[p] & ~s, ("rule", r), causes) or True
        return False

    def _follow(self, t: _Trial, i: int, d: int, why: tuple) -> End | None:
        """Place ``d`` in ``i`` and follow it until it ends (None: it stops short)."""
        end = self._place(t, i, d, why, set())
        while end is None:
            got = self._step(t)
            if got is False:
                return None
            if got is not True:
                end = got
        return end

    def _splits(self, t: _Trial) -> Iterator[list[tuple[int, int, tuple]]]:
        """The two-way splits of a position: a cell with two digits, then a digit with two
        places in a house that lacks it."""
        dom, placed = t.dom, t.placed
        for j, m in enumerate(dom):
            if j not in placed and m.bit_count() == 2:
                yield [(j, v, ("case",)) for v in digits_of(m)]
        for gi, g in enumerate(self.groups):
            for v in digits_of(self.required[gi]):
                spots = [j for j in iter_cells(g) if dom[j] >> v & 1]
                if len(spots) == 2 and not any(j in placed for j in spots):
                    yield [(j, v, ("case-of", gi)) for j in spots]

    def prove(self, i: int, d: int, split: bool = True) -> _Proof | None:
        """Why open cell ``i`` cannot hold ``d``: the line of reasoning to its end, or
        (``split``) the two cases of the split that ends both most briefly; None when
        neither does."""
        t = _Trial(self.doms[:])
        end = self._follow(t, i, d, ("trial",))
        if end is not None:
            return _Proof(t.events, _needed(t.events), end)
        if not split:
            return None
        best: _Proof | None = None
        k = len(t.events)
        for tried, cases in enumerate(self._splits(t)):
            if tried >= WHY_SPLITS or self.spent():
                break
            proofs = []
            for j, v, why in cases:
                u = t.copy()
                end = self._follow(u, j, v, why)
                if end is None:
                    break
                proofs.append(_Proof(u.events, _needed(u.events), end))
            else:
                before = set().union(*({e for e in p.needed if e < k} for p in proofs))
                proof = _Proof(t.events, before, None, tuple(proofs))
                if best is None or proof.size() < best.size():
                    best = proof
        return best

    def spent(self) -> bool:
        """True once the explanation has followed :data:`WHY_WORK` consequences, or its
        caller's :attr:`deadline` has passed."""
        return self.work > WHY_WORK or (self.deadline is not None
                                        and time.perf_counter() > self.deadline)

    def search(self, i: int, d: int) -> _Proof:
        """The dead ends of a search through the cases of open cell ``i`` holding ``d``
        (branching on the cell with the fewest digits, each case followed as in
        :meth:`prove`), at most :data:`WHY_SEARCH` positions (fewer once the explanation
        has followed :data:`WHY_WORK` consequences)."""
        t = _Trial(self.doms[:])
        end = self._follow(t, i, d, ("trial",))
        ends: list[End] = []
        seen = [0]

        def walk(u: _Trial) -> bool:
            seen[0] += 1
            if seen[0] > WHY_SEARCH or self.spent():
                return False
            open_ = [j for j in range(len(u.dom)) if j not in u.placed]
            if not open_:
                return False       # (cannot happen: the exact search found no filling)
            j = min(open_, key=lambda x: u.dom[x].bit_count())
            for v in digits_of(u.dom[j]):
                w = u.copy()
                e = self._follow(w, j, v, ("case",))
                if e is not None:
                    ends.append(e)
                elif not walk(w):
                    return False
            return True

        complete = end is not None or walk(t)
        if end is not None:
            ends.append(end)
        return _Proof(t.events, _needed(t.events) if end is not None else set(),
                      end, (), (len(ends), ends, complete))

    # -- telling it ------------------------------------------------------------------------------
    def cname(self, i: int) -> str:
        return cell_name(self.cells[i], self.namer)

    @staticmethod
    def rule_label(con: Any) -> str:
        return con.name or con.kind.replace("_", " ")

    def end_text(self, end: End) -> str:
        kind, what = end
        if kind == "cell":
            return f"{self.cname(what)} has no digit left"
        if kind == "house":
            gi, v = what
            return f"{self.houses[gi]} has no place for {digit_symbol(v)}"
        if kind == "few":
            return f"{self.houses[what]} has fewer digits than open cells"
        return f"{self.rule_label(self.rules[what][0])} cannot hold"

    def event_text(self, ev: tuple) -> str:
        i, x, why, _ = ev
        kind = why[0]
        if kind in ("trial", "last", "case", "case-of"):
            return f"{self.cname(i)}={digit_symbol(x)}"
        if kind == "only":
            return f"{self.cname(i)}={digit_symbol(x)} (only {digit_symbol(x)} in " \
                   f"{self.houses[why[1]]})"
        gone = "".join(digit_symbol(v) for v in digits_of(x))
        if kind == "cut":
            by = why[1]
            names = sorted({rule_kind(n) for j in by for n in self.pair_names.get(
                (self.cells[i], self.cells[j]), "").split(", ") if n})
            rule = f"{'/'.join(names)}: " if names else ""
            return f"{self.cname(i)}<>{gone} ({rule}no digit of " \
                   f"{','.join(self.cname(j) for j in by)} fits)"
        return f"{self.cname(i)}<>{gone} ({self.rule_label(self.rules[why[1]][0])})"

    def chain_text(self, p: _Proof, start: int = 0) -> str:
        """The needed events of ``p`` from ``start`` on, in order."""
        return ", ".join(self.event_text(p.events[e]) for e in sorted(p.needed) if e >= start
                         and p.events[e][2][0] not in ("trial", "case", "case-of"))

    def proof_text(self, p: _Proof) -> str:
        head = self.event_text(p.events[0])
        if p.search is not None:
            count, ends, complete = p.search
            tally: dict[str, int] = {}
            for e in ends:
                key = self.end_text(e)
                tally[key] = tally.get(key, 0) + 1
            top = sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
            said = ", ".join(f"{k} ({n})" for k, n in top[:3])
            rest = len(top) - 3
            more = f", {rest} other end{'s' if rest > 1 else ''}" if rest > 0 else ""
            if not count:
                return f"{head}: no short chain; not searched further (the explanation's budget)"
            return (f"{head}: no short chain; tried case by case through the other cells, "
                    f"{'all ' if complete else 'the first '}{count} cases fail: {said}{more}")
        chain = self.chain_text(p, 1)
        if p.end is not None:
            return f"{head}: {chain + ', so ' if chain else ''}{self.end_text(p.end)}"
        k = len(p.events)
        a, b = p.cases
        first, second = a.events[k], b.events[k]
        if first[2][0] == "case":
            split = (f"{self.cname(first[0])} is {digit_symbol(first[1])} or "
                     f"{digit_symbol(second[1])}")
        else:
            split = (f"the {digit_symbol(first[1])} of {self.houses[first[2][1]]} is in "
                     f"{self.cname(first[0])} or {self.cname(second[0])}")
        told = []
        for c in p.cases:
            more = self.chain_text(c, k + 1)
            told.append(f"if {self.event_text(c.events[k])}, "
                        f"{more + ', so ' if more else ''}{self.end_text(c.end)}")
        return f"{head}: {chain + '; ' if chain else ''}then {split} ({'; '.join(told)})"

    def group_key(self, p: _Proof) -> tuple:
        if p.search is not None:
            return (2, "search")
        if p.end is not None:
            return (0, self.end_text(p.end))
        return (1, " or ".join(sorted({self.end_text(c.end) for c in p.cases})))


def _cands_text(items: list[tuple[str, int]]) -> str:
    """``r1c1=1/2, r2c3=4`` (digits of one cell together, cells in order)."""
    by: dict[str, list[int]] = {}
    for name, d in items:
        by.setdefault(name, []).append(d)
    return ", ".join(f"{name}={'/'.join(digit_symbol(d) for d in ds)}" for name, ds in by.items())


class _Reasons:
    """The reasons of an arrangement step, worked out when first asked (explaining costs
    more than finding, and most steps of a solve are never read): ``str()`` is the text,
    :meth:`picture` what its picture marks. Kept in the step's ``extra["detail"]``."""

    def __init__(self, why: _Why, elims: list[tuple[int, int]]) -> None:
        self.why = why
        self.elims = elims
        self._text: str | None = None
        self._picture: dict | None = None
        #: a deadline (a :func:`time.perf_counter` value) a caller may set before the
        #: text is first asked for: the splits and case searches stop there as at
        #: :data:`WHY_WORK` (a report bounds the break-in's alternatives by its own; one
        #: explanation of 20,000 consequences took 1-3 s of CPU)
        self.deadline: float | None = None

    def _work(self) -> None:
        why = self.why
        why.work = 0
        why.deadline = self.deadline
        proofs = [why.prove(i, d, split=False) for i, d in self.elims]
        # the split search (and the case search) only for what the plain one leaves
        proofs = [p or why.prove(i, d) for p, (i, d) in zip(proofs, self.elims)]
        groups: dict[tuple, list[tuple[int, _Proof]]] = {}
        for x, p in enumerate(proofs):
            if p is None:
                i, d = self.elims[x]
                p = proofs[x] = why.search(i, d)
            groups.setdefault(why.group_key(p), []).append((x, p))
        order = sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[1][0][0]))
        parts = []
        for g, (key, members) in enumerate(order):
            rep_x, rep = min(members, key=lambda m: (m[1].size(), m[0]))
            others = [(why.cname(self.elims[x][0]), self.elims[x][1])
                      for x, _ in members if x != rep_x]
            if g < WHY_SHOWN or key[0] == 2:
                text = why.proof_text(rep)
                if g == 0:
                    text = text.replace(":", " (pictured):", 1)
                if others:
                    text += (f"; the same way {_cands_text(others)}" if key[0] < 2 else
                             f"; likewise found by search: {_cands_text(others)}")
            else:
                every = [(why.cname(self.elims[x][0]), self.elims[x][1]) for x, _ in members]
                text = f"{_cands_text(every)} lead{'s' if len(every) == 1 else ''} to: {key[1]}"
            parts.append(text)
        self._text = ". ".join(parts)
        rep = min(order[0][1], key=lambda m: (m[1].size(), m[0]))[1]
        self._picture = self._draw(rep)

    def _draw(self, p: _Proof) -> dict:
        """What the picture marks of a proof: the candidate tried, the placements that
        follow (with an arrow from each placement they rest on) and where it ends (the
        cells of the house, cell or rule that breaks)."""
        why = self.why
        cells = why.cells
        evs = p.events
        shown = sorted(e for e in p.needed if evs[e][0] >= 0) if p.search is None else []
        placed = {e for e in shown if evs[e][2][0] in ("last", "only")}
        arrows = []
        for e in sorted(placed):
            for c in sorted(evs[e][3]):
                src = c
                while src not in placed and src != 0 and evs[src][3]:
                    src = min(evs[src][3])      # through a removal to the placement behind it
                if src in placed or src == 0:
                    arrows.append(((cells[evs[src][0]], evs[src][1]),
                                   (cells[evs[e][0]], evs[e][1])))
        ends = [p.end] if p.end is not None else (
            [c.end for c in p.cases] if p.cases else
            [e for e in p.search[1][:1]] if p.search else [])
        broken: list[int] = []
        house = None
        for kind, what in ends:
            if kind == "cell":
                broken.append(cells[what])
            elif kind in ("house", "few"):
                house = why.houses[what[0] if kind == "house" else what]
            elif kind == "rule":
                broken.extend(why.rules[what][0].cells)
        i, d, _, _ = evs[0]
        return {"trial": (cells[i], d),
                "forced": [(cells[evs[e][0]], evs[e][1]) for e in sorted(placed)],
                "arrows": sorted(set(arrows)), "broken": sorted(set(broken)), "house": house}

    def picture(self) -> dict:
        """What the picture marks: ``trial`` (cell, digit), the candidate tried;
        ``forced``, the placements that follow; ``arrows`` ((cell, digit) -> (cell,
        digit)), what each rests on; where it ends: ``broken``, the cells of a cell or rule
        that breaks, or ``house``, the name of a house that does."""
        if self._picture is None:
            self._work()
        assert self._picture is not None
        return self._picture

    def __str__(self) -> str:
        if self._text is None:
            self._work()
        assert self._text is not None
        return self._text


def _supports(an: Analysis, t: ArrangementTables, region: int | tuple[int, ...],
              cells: list[int], filler: _Filler, total: int | None = None) -> list[int]:
    """:meth:`_Filler.supports` for a region's open ``cells``, seeded with the fillings
    found at earlier looks at the region that still fit (a filling of the region keeps
    every rule whatever the state: it supports its digits while they are candidates)."""
    cand, values = an.cand, an.state.placed
    w = an.n + 1
    every = (1 << w) - 1
    # the region's candidates and placed digits, and its placed digits alone, as fillings
    # are written (a filling fits when it has no digit outside ``now``)
    now = fixed = 0
    for c in iter_cells(t.cells(region)):
        now |= (cand[c] | 1 << values[c]) << c * w
        if not cand[c]:
            fixed |= 1 << c * w + values[c]
    kept = [f for f in t.fillings.get(region, ()) if not f & ~now]
    union = 0
    for f in kept:
        union |= f
    seed = [union >> c * w & every for c in cells]
    if kept:        # the searches follow the latest filling that still fits first
        filler.guide = [(kept[-1] >> c * w & every).bit_length() - 1 for c in cells]
    support = filler.supports(total, seed)
    for f in filler.found:
        kept.append(fixed | sum(1 << c * w + d for c, d in zip(cells, f)))
    t.fillings[region] = kept[-64:]
    return support


def _arrangement(an: Analysis, t: ArrangementTables, region: int | tuple[int, ...],
                 budget: int) -> tuple[list[int], list[int], list[int]] | None:
    """The open cells of a region, their candidates and, per cell, the digits that take
    part in some filling of the region (None: no candidate lacks one, nothing new since the
    last look, or more than ``budget`` nodes)."""
    cand = an.cand
    inside = t.cells(region)
    key = tuple(cand[c] for c in iter_cells(inside))
    if t.quiet.get(region) == key:
        return None
    cells = [c for c in iter_cells(inside) if cand[c]]
    if len(cells) < 2:
        t.quiet[region] = key
        return None
    index = {c: i for i, c in enumerate(cells)}
    groups = []
    for h in ((region,) if isinstance(region, int) else region):
        g = 0
        for c in iter_cells(an.house_mask[h]):
            if c in index:
                g |= 1 << index[c]
        groups.append(g)
    doms = [cand[c] for c in cells]
    try:
        support = _supports(an, t, region, cells,
                            _Filler(cells, doms, t.removes(region), groups, budget,
                                    forbid=t.forbid_table(region, cells),
                                    dead=t.dead_states(region, cells, groups)))
    except TimeoutError:
        support = doms      # too many fillings to look through: leave it
    if all(s == d for s, d in zip(support, doms)):
        t.quiet[region] = key       # (a step found is applied, which changes the key)
        return None
    return cells, doms, support


HOUSE_ARRANGEMENT_OPTIONS = Options(budget=Option(
    4000, "search nodes per house", int))
HOUSE_PAIR_OPTIONS = Options(budget=Option(3000, "search nodes per pair of houses", int))


@register("house_arrangement", "House Arrangement", FAMILY, options=HOUSE_ARRANGEMENT_OPTIONS)
def house_arrangement(an: Analysis, opts: dict) -> Iterator[Step]:
    """A house whose cells are also joined by two-cell rules (a negative XV or ratio rule
    between neighbours of a row, a whisper inside a box) keeps only the candidates that take
    part in a filling of the house satisfying those rules too: with no X or V between the
    cells of a row, a row holding 1..4 only in four adjacent cells cannot place them.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from variants.dots import x_dot
    >>> from techniques import StepSolver
    >>> p = Puzzle(9).use(classic(), x_dot("r1c1", "r1c2"))
    >>> st = p.propagate()
    >>> st.cand[p.cell("r1c2")] = 1 << 1 | 1 << 9
    >>> [s.explain(2) for s in StepSolver().find_all(st, "house_arrangement")][0]
    'House Arrangement: row 1 with X (1 rule) between its cells: 21 candidates of the open cells fit no filling that keeps these rules => r1c1<>2345678, r1c3<>19, r1c4<>19, r1c5<>19, r1c6<>19, r1c7<>19, r1c8<>19, r1c9<>19. Why: r1c3=1 (pictured): r1c2=9, so r1c1 has no digit left; the same way r1c3=9, r1c4=1/9, r1c5=1/9, r1c6=1/9, r1c7=1/9, r1c8=1/9, r1c9=1/9. r1c1=2: r1c2 has no digit left; the same way r1c1=3/4/5/6/7/8'
    """
    if an.links.uniform:        # houses only: no rule joins two cells of a house
        return
    t = arrangement_tables(an.puzzle)
    budget = int(HOUSE_ARRANGEMENT_OPTIONS.read(opts, "budget"))
    for h in t.houses:
        got = _arrangement(an, t, h, budget)
        if got is not None:
            yield from _arrangement_step(an, t, h, *got, "house_arrangement",
                                         "House Arrangement")


@register("house_pair_arrangement", "House Pair Arrangement", FAMILY,
          options=HOUSE_PAIR_OPTIONS)
def house_pair_arrangement(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two houses joined by two-cell rules between three or more pairs of their cells
    (neighbouring rows, columns or boxes under a negative XV rule), filled together:
    each keeps different digits, the rules hold across both, and a candidate that takes part
    in no such filling of the two is false ("if r5c6 were 1, r5c7 would be 9 across the X,
    and row 4 could not place its 9 then")."""
    if an.links.uniform:        # houses only: no rule joins two houses' cells
        return
    t = arrangement_tables(an.puzzle)
    budget = int(HOUSE_PAIR_OPTIONS.read(opts, "budget"))
    for u in t.unions:
        if an.expired():
            return
        got = _arrangement(an, t, u, budget)
        if got is not None:
            yield from _arrangement_step(an, t, u, *got, "house_pair_arrangement",
                                         "House Pair Arrangement")


#: nodes a window's searches may take together at one look: 50,000 changed nothing on the
#: f-puzzles set (see :data:`BAND_TOTAL`)
WINDOW_TOTAL = 20_000
_CANDIDATE_BUDGET = Option(2000, "search nodes per candidate", int)
BAND_OPTIONS = Options(
    band_wide=Option(False, "also each band with one more house beside it", bool),
    band_budget=_CANDIDATE_BUDGET,
    band_total=Option(BAND_TOTAL, "search nodes per band at one look", int))
WINDOW_OPTIONS = Options(
    window_budget=_CANDIDATE_BUDGET,
    window_total=Option(WINDOW_TOTAL, "search nodes per window at one look", int))


@register("band_arrangement", "Band Arrangement", FAMILY, options=BAND_OPTIONS)
def band_arrangement(an: Analysis, opts: dict) -> Iterator[Step]:
    """A band (three rows and their three boxes, or a stack of columns) whose cells are
    also joined by rules (two-cell rules, negative or not, anti-knight or anti-king links
    inside it, cages and lines wholly inside it), filled together: a candidate that takes
    part in no filling of the band's open cells that keeps every rule is false ("rows 4-6
    with the anti-XV rule: no filling of these 14 open cells has r5c3=7"). An exact search
    per candidate (most are confirmed by a filling found for another: a filling supports
    every digit it places), ``band_budget`` nodes each (2000) and ``band_total`` a band at
    most at one look (:data:`BAND_TOTAL`, 50,000); just before the forcing family, after
    the house pairs. The search places first a digit that a row
    or box of the band still lacks and can put in one cell (or two, when every cell has
    three digits or more), and after each placement narrows the cells of the rules with an
    exact support function of their own (``Constraint.supports``: skyscraper, sandwich and
    X-sum lines, arrows, three-cell lockout and between rules), each such look counted as
    ``PRUNE_COST`` nodes.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from variants.dots import x_dot
    >>> from techniques import StepSolver
    >>> p = Puzzle(9).use(classic()).add_sum(["r1c1", "r2c4"], 10)
    >>> st = p.propagate()
    >>> st.cand[p.cell("r1c1")] = st.cand[p.cell("r2c4")] = 1 << 1 | 1 << 9
    >>> [s.explain(2) for s in StepSolver().find_all(st, "band_arrangement")]
    ['Band Arrangement: rows 1-3 with sum (1 rule): 12 candidates of these 27 open cells fit no filling that keeps these rules => r1c4<>19, r1c5<>19, r1c6<>19, r2c1<>19, r2c2<>19, r2c3<>19. Why: r1c4=1 (pictured): r1c1=9, so r2c4 has no digit left; the same way r1c4=9, r1c5=1/9, r1c6=1/9, r2c1=1/9, r2c2=1/9, r2c3=1/9']
    """
    t = arrangement_tables(an.puzzle)
    if not t.bands:
        return
    regions = t.bands + t.wide if BAND_OPTIONS.read(opts, "band_wide") else t.bands
    budget, total = BAND_OPTIONS.read(opts, "band_budget"), BAND_OPTIONS.read(opts, "band_total")
    yield from _fill_regions(an, t, regions, int(budget), int(total), "band_arrangement",
                             "Band Arrangement")


@register("window_arrangement", "Window Arrangement", FAMILY, options=WINDOW_OPTIONS)
def window_arrangement(an: Analysis, opts: dict) -> Iterator[Step]:
    """The band arrangement on a grid without bands (a jigsaw whose regions cross every
    row, a boxless grid): three consecutive rows (or columns), with the region cells,
    anti-knight or anti-king links, clones and other rules inside them, filled together;
    a candidate that takes part in no filling of the window's open cells is false ("rows
    4-6 with anti-knight, palindrome (...): no filling of these 24 open cells has
    r4c5=6"). The same exact search and budgets (``window_budget`` nodes a candidate,
    ``window_total`` a window); just before the forcing family, so it runs only on
    states nothing else moves.

    A 6x6 grid without boxes, anti-knight, its first row given:

    >>> from csp import Puzzle, Grid
    >>> from variants.chess import anti_knight
    >>> from techniques import StepSolver
    >>> p = Puzzle(Grid(6, box=(1, 6))).add_grid_houses().use(anti_knight())
    >>> st = p.givens("123456" + "." * 30).propagate()
    >>> [s.explain(2) for s in StepSolver().find_all(st, "window_arrangement")]
    ['Window Arrangement: rows 3-5 with anti-knight (26 rules): 2 candidates of these 18 open cells fit no filling that keeps these rules => r5c2<>5, r5c5<>2. Why: r5c2=5 (pictured): row 3 has no place for 5. r5c5=2: row 3 has no place for 2']
    """
    t = arrangement_tables(an.puzzle)
    if not t.windows:
        return
    budget = WINDOW_OPTIONS.read(opts, "window_budget")
    total = WINDOW_OPTIONS.read(opts, "window_total")
    yield from _fill_regions(an, t, t.windows, int(budget), int(total), "window_arrangement",
                             "Window Arrangement")


def _fill_regions(an: Analysis, t: ArrangementTables, regions: list, budget: int,
                  total: int, technique: str, title: str) -> Iterator[Step]:
    """The arrangement steps of ``regions`` ((houses, name, rules) each): every candidate
    of a region's open cells without a filling of the region that keeps its rules."""
    cand = an.cand
    for houses, name, rules in regions:
        if an.expired():
            return
        inside = t.cells(houses)
        key = tuple(cand[c] for c in iter_cells(inside))
        if t.quiet.get(houses) == key:
            continue
        cells = [c for c in iter_cells(inside) if cand[c]]
        if len(cells) < 2:
            t.quiet[houses] = key
            continue
        index = {c: i for i, c in enumerate(cells)}
        groups = []
        for h in houses:
            g = 0
            for c in iter_cells(an.house_mask[h] & inside):
                if c in index:
                    g |= 1 << index[c]
            groups.append(g)
        doms = [cand[c] for c in cells]
        required = _required(an, houses, inside)
        filler = _Filler(cells, doms, t.removes(houses), groups, budget, rules,
                         an.state.placed, an, required, t.forbid_table(houses, cells),
                         None if rules else t.dead_states(houses, cells, groups, required))
        try:
            support = _supports(an, t, houses, cells, filler, total)
        except _Expired:
            return
        elims = [Candidate(c, d) for c, dom, s in zip(cells, doms, support)
                 for d in digits_of(dom & ~s)]
        if not elims:
            t.quiet[houses] = key
            continue
        pair_kinds, count = t.kinds[houses]
        count += len(rules)
        what = sorted({*pair_kinds, *(con.kind.replace("_", " ") for con in rules)})
        kinds = f"{', '.join(what)} ({count} rule{'s' if count > 1 else ''})"
        names = [an.houses[h].name for h in houses]
        yield _explained(an, technique, title, cells, doms, support, names,
                         _Why(an, cells, doms, filler.fb, groups, names, required, rules),
                         f"{name} with {kinds}: ", f"these {len(cells)} open cells")


def _arrangement_step(an: Analysis, t: ArrangementTables, region: int | tuple[int, ...],
                      cells: list[int], doms: list[int], support: list[int], name: str,
                      title: str) -> Iterator[Step]:
    """The step of a region's arrangement (nothing when every candidate has a filling)."""
    if all(s == d for s, d in zip(support, doms)):
        return
    hs = (region,) if isinstance(region, int) else region
    houses = [an.links.houses[h].name for h in hs]
    index = {c: i for i, c in enumerate(cells)}
    groups = []
    for h in hs:
        groups.append(sum(1 << index[c] for c in iter_cells(an.house_mask[h]) if c in index))
    why = _Why(an, cells, doms, t.forbid_table(region, cells), groups, houses,
               _required(an, hs, t.cells(region)))
    their = "its" if len(houses) == 1 else "their"
    yield _explained(an, name, title, cells, doms, support, houses, why,
                     f"{' and '.join(houses)} with {t.rules[region]} between {their} cells: ",
                     "the open cells")


def _explained(an: Analysis, technique: str, title: str, cells: list[int], doms: list[int],
               support: list[int], houses: list[str], why: _Why, head: str,
               where: str) -> Step:
    """An arrangement step: the candidates without a filling go, and the step carries
    why (:class:`_Reasons`, worked out when its text or picture is first asked for)."""
    elims = [(i, d) for i, (dom, s) in enumerate(zip(doms, support)) for d in digits_of(dom & ~s)]
    extra = {}
    if not any(support):
        note = head + f"no filling of {where} keeps these rules at all"
    else:
        n = len(elims)
        note = head + (f"{n} candidate{'s' if n > 1 else ''} of {where} fit{'' if n > 1 else 's'} "
                       "no filling that keeps these rules")
        extra["detail"] = _Reasons(why, elims)
    return Step(technique, eliminations=tuple(Candidate(cells[i], d) for i, d in elims),
                title=title, namer=an.grid.namer, houses=tuple(houses),
                pattern=tuple(Candidate(c, d) for c in cells for d in digits_of(an.cand[c])),
                note=note, extra=extra)
