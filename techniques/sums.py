"""Sum arithmetic: the puzzle's sum rules (arrows and pill arrows, little killers,
region-sum segments, zipper and double-arrow lines, killer cages) solved with the houses
their cells share, alone and two together.

A sum rule alone propagates as arithmetic on its own cells (repeats allowed unless the rule
says otherwise). A human also knows which of those cells share a house:

- ``sum_arithmetic``: one rule whose cells may repeat, with repeats allowed only where the
  cells can repeat (r4c4 and r3c4 of an arrow are in one column, so they differ; a little
  killer's cells in one box differ): the digits of no such solution go;
- ``combined_sums``: two rules that share a cell or whose cells share houses, solved
  together ("r7c9 = 4 forces the other arrow of box 9 to 10+": the two arrows of a
  crossbow; the four arrows of one circle taken two by two).
- ``substituted_sums``: a house (or a run of two or three rows or columns, two touching
  boxes) sums to 45; with the shafts of the arrows in it replaced by their circles (or a
  circle by its shaft) one equation on a few cells is left ("box 7 with its three arrows:
  2*r7c2+2*r8c2+2*r9c2-r6c1 = 45, so r6c1 is odd and the circles hold 8").

All three are exact for the cells of the rules (of the equation) -- a search over their
candidates, cells that see each other (a house, or any rule link) different -- within a
budget of search nodes. ``combined_sums`` and ``linked_sums`` (below) first ask whether
every digit of the cells is in some solution, from the solutions kept for the same rules,
cells and links (across states and puzzles: a generator rates hundreds that share them) or
found by a propagating search per digit; then no search can eliminate and the counted one
is not run (:func:`_useful_supports`): the steps are the same, the budget still decides.

>>> from csp import Puzzle, Grid
>>> from csp.constraints import Linear
>>> from techniques import StepSolver
>>> p = Puzzle(Grid(9)).add_grid_houses()
>>> cells = p.grid.cells(["r1c1", "r2c2", "r3c2", "r4c2"])
>>> _ = p.add(Linear(cells, [-1, 1, 1, 1], 0, "arrow r1c1"))
>>> [s.explain(2) for s in StepSolver().find_all(p.pencilmarks(), "sum_arithmetic")]
['Sum Arithmetic: arrow r1c1 (r1c1 = r2c2+r3c2+r4c2, r1c1 r2c2 r3c2 in box 1, r2c2 r3c2 r4c2 in col 2) => r1c1<>12345, r2c2<>789, r3c2<>789, r4c2<>789']

Column 1 with the shafts of two arrows: its other four cells and the two circles make 45,
so those four cells hold 8 and 9 and the shafts lose them:

>>> p = Puzzle(Grid(9)).add_grid_houses()
>>> _ = p.add(Linear(p.grid.cells(["r1c5", "r4c1", "r5c1", "r6c1"]), [-1, 1, 1, 1], 0,
...                  "arrow r1c5"))
>>> _ = p.add(Linear(p.grid.cells(["r2c5", "r7c1", "r8c1"]), [-1, 1, 1], 0, "arrow r2c5"))
>>> print(StepSolver().find_all(p.pencilmarks(), "substituted_sums")[0].explain(2))
Substituted Sums: col 1 sums to 45; with arrow r1c5 (r1c5 = r4c1+r5c1+r6c1), arrow r2c5 (r2c5 = r7c1+r8c1): r1c1+r1c5+r2c1+r2c5+r3c1+r9c1 = 45 (r1c1 r2c1 r3c1 r9c1 hold 89 in col 1) => r1c1<>123, r1c5<>12345, r2c1<>123, r2c5<>12345, r3c1<>123, r9c1<>123, r4c1<>89, r5c1<>89, r6c1<>89, r7c1<>89, r8c1<>89
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator, Sequence

from csp.bits import iter_bits
from csp.constraints.sums import Linear, Sum, SumIn
from csp.step import Candidate, Step, digit_symbol

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register
from .sets import set_tables

FAMILY = "sums"

#: search nodes allowed per evaluation (rules whose search would take more are skipped);
#: bounds one rule's or pair's search, not measured
NODE_LIMIT = 20000
#: the most cells two rules may have together to be combined
MAX_PAIR_CELLS = 12
#: substituted house sums: the most open cells of the equation left, and its search budget
MAX_SUB_CELLS = 8
SUB_NODE_LIMIT = NODE_LIMIT
MAX_SOLUTIONS = 400
MAX_SUB_HOUSES = 3


def _node_limit(default: int) -> Option:
    return Option(default, "search nodes per evaluation (a search that needs more is skipped)",
                  int)


SUM_OPTIONS = Options(node_limit=_node_limit(NODE_LIMIT))
SUB_OPTIONS = Options(node_limit=_node_limit(SUB_NODE_LIMIT),
                      max_cells=Option(MAX_SUB_CELLS, "most open cells of the equation", int))


class Rule:
    """One sum rule as ``sum(coeffs[i] * digit(cells[i])) in totals``."""

    __slots__ = ("index", "name", "cells", "coeffs", "totals", "distinct", "mask")

    def __init__(self, index: int, name: str, cells: Sequence[int], coeffs: Sequence[int],
                 totals: frozenset[int], distinct: bool) -> None:
        self.index = index
        self.name = name
        self.cells = tuple(cells)
        self.coeffs = tuple(coeffs)
        self.totals = totals
        self.distinct = distinct
        self.mask = sum(1 << c for c in self.cells)


def _rules(an: Analysis) -> list[Rule]:
    def build() -> list[Rule]:
        out: list[Rule] = []
        for c in an.puzzle.constraints:
            if isinstance(c, Sum):
                out.append(Rule(len(out), c.name, c.cells, [1] * len(c.cells),
                                frozenset((c.total,)), c.distinct))
            elif isinstance(c, SumIn):
                out.append(Rule(len(out), c.name, c.cells, [1] * len(c.cells),
                                frozenset(c.totals), c.distinct))
            elif isinstance(c, Linear):
                if len(set(c.cells)) != len(c.cells):
                    continue            # a cell listed twice: not handled here
                out.append(Rule(len(out), c.name, c.cells, c.coeffs, frozenset((c.total,)),
                                False))
        return out
    return an.links_memo("sum_rules", build)


def _pairs(an: Analysis, rules: list[Rule]) -> list[tuple[Rule, Rule]]:
    """Pairs of rules that share a cell or have cells that see each other (a house), not
    both killer cages, with at most :data:`MAX_PAIR_CELLS` cells together."""
    def build() -> list[tuple[Rule, Rule]]:
        hp = an.links.house_peers
        out = []
        for a, b in combinations(rules, 2):
            if a.distinct and b.distinct:
                continue              # two cages: the set and killer techniques' business
            if (a.mask | b.mask).bit_count() > MAX_PAIR_CELLS:
                continue
            touch = a.mask & b.mask
            if not touch:
                links = 0
                for c in a.cells:
                    links += (hp[c] & b.mask & ~a.mask).bit_count()
                if links < 2:
                    continue
            out.append((a, b))
        return out
    return an.links_memo("sum_rule_pairs", build)


def joint_supports(an: Analysis, cells: list[int], rules: list[Rule], limit: int,
                   seed: Sequence[tuple[int, ...]] = ()) -> list[int] | None:
    """Supported digits per cell of ``cells`` (placed cells fixed) under every rule of
    ``rules`` at once, cells that see each other for a digit (houses, rule links)
    different; None when the search passes ``limit`` nodes.

    ``seed``: solutions known already (a digit per cell of ``cells``, each keeping every
    rule, the houses and the rule links): their digits count as supported from the start,
    so the search skips the subtrees that could only support those again (the supports
    are the same; fewer nodes)."""
    placed = an.state.placed
    doms = [an.cand[c] or (1 << placed[c]) for c in cells]
    # a rule made for the question (index -1: a house's substituted equation) is named by
    # its terms, so two equations on the same cells never share an answer
    names = tuple(r.index if r.index >= 0 else (r.coeffs, tuple(sorted(r.totals)), r.distinct)
                  for r in rules)
    key = ("joint_sums", tuple(cells), names, tuple(doms), bool(seed))

    def run() -> list[int] | None:
        return _search(an, cells, doms, rules, limit, seed=seed)
    return an.shared_memo(key, run)


class _Budget(Exception):
    """A joint search passed its node limit."""


def _search(an: Analysis, cells: list[int], doms: list[int], rules: list[Rule],
            limit: int, covers: Sequence[tuple[int, int]] = (),
            found: list[tuple[int, ...]] | None = None,
            seed: Sequence[tuple[int, ...]] = ()) -> list[int] | None:
    """Supported digits per cell (see :func:`joint_supports`); ``covers``: ``(cell mask,
    digit mask)`` pairs, the digits of the mask must all stand in those cells (a house's
    digits that have no other place).

    ``found``: a list the solutions that supported a digit first go to (a digit per cell
    of ``cells``). ``seed``: solutions known already (see :func:`joint_supports`).

    Depth-first over the cells (most rules, then fewest candidates first), forward checking
    the cells that see each other; a search node is one call of ``rec`` (a leaf included),
    and the search gives up (None) on node ``limit + 1``. What a node tests is read off
    tables made once per search (the digits each rule's bounds leave a cell as one range,
    the later cells a digit leaves, the earlier candidates it clashes with), so a node costs
    few Python operations; the tree and its count do not depend on them."""
    k = len(cells)
    pos = {c: i for i, c in enumerate(cells)}
    # order: fewest candidates first, cells of several rules early
    weight = [sum(1 for r in rules if r.mask >> c & 1) for c in cells]
    order = sorted(range(k), key=lambda i: (-weight[i], doms[i].bit_count()))
    rank = [0] * k
    for j, i in enumerate(order):
        rank[i] = j
    # per rule: (positions in search order, coefficients)
    eqs = []
    for r in rules:
        items = sorted(((rank[pos[c]], a) for c, a in zip(r.cells, r.coeffs)))
        eqs.append(([j for j, _ in items], [a for _, a in items], r.totals))
    ne = len(eqs)
    sd = [doms[i] for i in order]
    lo = [(m & -m).bit_length() - 1 for m in sd]
    hi = [m.bit_length() - 1 for m in sd]
    # for each search position, the rules it belongs to: (rule, coefficient, least and
    # greatest sum of the rule so far that the rule's later cells can still complete)
    member: list[list[tuple[int, int, int, int]]] = [[] for _ in range(k)]
    leaf_eqs = []                     # rules whose totals are not one range: checked at a leaf
    for e, (js, coefs, totals) in enumerate(eqs):
        contrib_lo = [0] * k
        contrib_hi = [0] * k
        for j, a in zip(js, coefs):
            contrib_lo[j] = min(a * lo[j], a * hi[j])
            contrib_hi[j] = max(a * lo[j], a * hi[j])
        rest_lo = [0] * (k + 1)        # the rule's least / greatest sum after position j
        rest_hi = [0] * (k + 1)
        for j in range(k - 1, -1, -1):
            rest_lo[j] = rest_lo[j + 1] + contrib_lo[j]
            rest_hi[j] = rest_hi[j + 1] + contrib_hi[j]
        for j, a in zip(js, coefs):
            member[j].append((e, a, min(totals) - rest_hi[j + 1], max(totals) - rest_lo[j + 1]))
        if len(totals) != max(totals) - min(totals) + 1:
            leaf_eqs.append((e, totals))
    members = [tuple(m) for m in member]
    # cells that must differ for a digit: same-digit rule links and houses
    peers_d = an.links.peers_d
    sorted_cells = [cells[i] for i in order]
    n = an.n
    full = (1 << (n + 1)) - 1
    # per position: (digit, its bit, the later positions whose cell sees this one for the
    # digit (forward checking: the digit leaves them), the earlier positions and digits it
    # clashes with (rule links between different digits)) for each candidate
    cross = an.links.cross
    spos = {c: j for j, c in enumerate(sorted_cells)}
    digits: list[list[tuple[int, int, tuple[int, ...], tuple[tuple[int, int], ...]]]] = []
    for j in range(k):
        cj = sorted_cells[j]
        row = []
        for d in iter_bits(sd[j]):
            pd = peers_d[d][cj]
            later = tuple(j2 for j2 in range(j + 1, k)
                          if sd[j2] >> d & 1 and pd >> sorted_cells[j2] & 1)
            clash: tuple[tuple[int, int], ...] = ()
            if cross:
                clash = tuple((spos[c2], d2) for c2, d2 in cross.get((cj, d), ())
                              if c2 in spos and spos[c2] < j)
            row.append((d, 1 << d, later, clash))
        digits.append(row)
    # covers in search positions: (positions bitset, required digits)
    covs = [(tuple(sorted(rank[pos[c]] for c in iter_cells(cm) if c in pos)), dm)
            for cm, dm in covers]
    sums = [0] * ne
    vals = [0] * k
    cur = list(sd)
    sup = [0] * k
    nodes = 0
    #: positions with a digit not supported yet (bit i: position i in search order). A
    #: subtree whose fixed digits are supported and whose later positions have no
    #: unsupported digit cannot add a support: it is skipped (the supports stay exact)
    need = (1 << k) - 1
    for sol in seed:
        for i, d in enumerate(sol):
            sup[rank[i]] |= 1 << d
    for j in range(k):
        sup[j] &= sd[j]
        if sup[j] == sd[j]:
            need &= ~(1 << j)
    #: positions whose digit (now) is not supported yet: set when the digit is given,
    #: cleared by a solution (every digit of it is supported then); read below position j
    unsup = 0

    def rec(j: int) -> None:
        nonlocal nodes, need, unsup
        nodes += 1
        if nodes > limit:
            raise _Budget
        if not need >> j and not unsup & ((1 << j) - 1):
            return
        for ps, dm in covs:
            # the cover's digits still possible: placed ones and the open cells' candidates
            got = 0
            for q in ps:
                got |= (1 << vals[q]) if q < j else cur[q]
            if dm & ~got:
                return
        if j == k:
            for e, totals in leaf_eqs:
                if sums[e] not in totals:
                    return
            nd = need
            u = unsup
            while u:
                b = u & -u
                u ^= b
                i = b.bit_length() - 1
                s = sup[i] = sup[i] | 1 << vals[i]
                if s == sd[i]:
                    nd &= ~b
            need = nd
            unsup = 0
            if found is not None:
                found.append(tuple([vals[rank[i]] for i in range(k)]))
            return
        # the digits the rules' bounds leave this position, as one range
        m = cur[j]
        for e, a, smin, smax in members[j]:
            s = sums[e]
            if a > 0:
                dlo = -((s - smin) // a)
                dhi = (smax - s) // a
            elif a < 0:
                dlo = -((s - smax) // a)
                dhi = (smin - s) // a
            else:
                if smin <= s <= smax:
                    continue
                return
            if dhi < dlo or dhi < 0:
                return
            m &= (full if dhi >= n else (2 << dhi) - 1) & ~((1 << max(dlo, 0)) - 1)
        if not m:
            return
        bit = 1 << j
        mem = members[j]
        for d, low, later, clash in digits[j]:
            if not m & low:
                continue
            if clash:
                bad = False
                for j2, d2 in clash:
                    if vals[j2] == d2:
                        bad = True
                        break
                if bad:
                    continue
            # forward checking: d leaves the later cells that see this one
            hit = []
            bad = False
            for j2 in later:
                c2 = cur[j2]
                if c2 & low:
                    if c2 == low:
                        bad = True
                        break
                    cur[j2] = c2 ^ low
                    hit.append(j2)
            if not bad:
                vals[j] = d
                if sup[j] >> d & 1:
                    unsup &= ~bit
                else:
                    unsup |= bit
                for e, a, _, _ in mem:
                    sums[e] += a * d
                rec(j + 1)
                for e, a, _, _ in mem:
                    sums[e] -= a * d
            for j2 in hit:
                cur[j2] |= low

    try:
        rec(0)
    except _Budget:
        return None
    out = [0] * k
    for i in range(k):
        out[i] = sup[rank[i]]
    return out


def _eliminations(an: Analysis, cells: list[int], sup: list[int]) -> list[Candidate]:
    out = []
    for c, s in zip(cells, sup):
        m = an.cand[c]
        if m and m & ~s:
            out.extend(Candidate(c, d) for d in range(1, an.n + 1) if m >> d & 1 and not s >> d & 1)
    return out


def _formula(an: Analysis, r: Rule) -> str:
    """``r1c1 = r2c1+r3c1`` for an arrow-like rule, ``r1c1+r2c2 = 12`` for a sum."""
    pos = [c for c, a in zip(r.cells, r.coeffs) if a > 0]
    neg = [(c, a) for c, a in zip(r.cells, r.coeffs) if a < 0]
    total = sorted(r.totals)
    rhs_total = "/".join(map(str, total))
    lhs = "+".join(an.name(c) if a == 1 else f"{a}*{an.name(c)}"
                   for c, a in zip(r.cells, r.coeffs) if a > 0)
    if neg and total == [0]:
        rhs = "+".join(an.name(c) if a == -1 else f"{-a}*{an.name(c)}" for c, a in neg)
        return f"{rhs} = {lhs}"
    if neg:
        lhs += "".join(f"-{an.name(c) if a == -1 else f'{-a}*{an.name(c)}'}" for c, a in neg)
    return f"{lhs} = {rhs_total}" if pos or neg else rhs_total


def _differ_note(an: Analysis, cells: Sequence[int]) -> str:
    """The houses holding two or more of the cells: ``r2c2 r3c2 r4c2 in col 2``."""
    mask = sum(1 << c for c in cells)
    groups: list[tuple[int, str]] = []
    for h, hm in zip(an.houses, an.house_mask):
        m = hm & mask
        if m.bit_count() > 1 and not any(m & g == m for g, _ in groups):
            groups = [(g, t) for g, t in groups if g & m != g]
            groups.append((m, h.name))
    return ", ".join(f"{' '.join(an.name(c) for c in iter_cells(m))} in {name}"
                     for m, name in sorted(groups, key=lambda x: (x[0] & -x[0]).bit_length()))


@register("sum_arithmetic", "Sum Arithmetic", FAMILY,
          options=SUM_OPTIONS)
def sum_arithmetic(an: Analysis, opts: dict) -> Iterator[Step]:
    """A sum rule whose cells may repeat (arrow, little killer, region-sum segments ...)
    solved with the houses its cells share: cells that see each other differ, so digits
    of no such solution go (a 3-cell arrow shaft in one box sums to at least 6)."""
    limit = SUM_OPTIONS.read(opts, "node_limit")
    for r in _rules(an):
        if r.distinct or not r.mask & an.unsolved:
            continue
        cells = list(r.cells)
        note = _differ_note(an, cells)
        if not note:
            continue              # no two cells see each other: the rule's own arithmetic
        sup = joint_supports(an, cells, [r], limit)
        if sup is None or not all(sup):
            continue
        elims = _eliminations(an, cells, sup)
        if elims:
            yield Step("sum_arithmetic", eliminations=tuple(elims), title="Sum Arithmetic",
                       namer=an.grid.namer, houses=(r.name,),
                       pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                     if an.cand[c] >> d & 1),
                       note=f"{r.name} ({_formula(an, r)}, {note})")


@register("combined_sums", "Combined Sums", FAMILY,
          options=SUM_OPTIONS)
def combined_sums(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two sum rules that share a cell or whose cells share houses, solved together (cells
    that see each other differ): digits of no joint solution go."""
    limit = SUM_OPTIONS.read(opts, "node_limit")
    rules = _rules(an)
    if len(rules) < 2:
        return
    for a, b in _pairs(an, rules):
        if not (a.mask | b.mask) & an.unsolved:
            continue
        cells = list(iter_cells(a.mask | b.mask))
        sup = _useful_supports(an, cells, (a, b), limit)
        if sup is None or not all(sup):
            continue
        elims = _eliminations(an, cells, sup)
        if not elims:
            continue
        # only what the two rules know together, not each alone
        elims = [e for e in elims if not _alone_removes(an, e, (a, b), limit)]
        if elims:
            yield Step("combined_sums", eliminations=tuple(elims), title="Combined Sums",
                       namer=an.grid.namer, houses=(a.name, b.name),
                       pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                     if an.cand[c] >> d & 1),
                       note=f"{a.name} ({_formula(an, a)}) and {b.name} ({_formula(an, b)}) "
                            f"together")


def _alone_removes(an: Analysis, e: Candidate, rules: tuple[Rule, Rule], limit: int) -> bool:
    """True when one of the rules alone already removes the candidate."""
    for r in rules:
        if not r.mask >> e.cell & 1:
            continue
        sup = joint_supports(an, list(r.cells), [r], limit)
        if sup is not None and not sup[r.cells.index(e.cell)] >> e.digit & 1:
            return True
    return False


# -- house sums with sum rules substituted -----------------------------------------------
def _units(an: Analysis) -> list[tuple[int, int, str]]:
    """``(cell mask, sum, name)`` of the collections of full houses a substitution starts
    from: single houses, runs of two or three parallel rows or columns, two touching boxes
    (the set techniques' bases, at most :data:`MAX_SUB_HOUSES` houses)."""
    def build() -> list[tuple[int, int, str]]:
        t = set_tables(an)
        out = []
        for base, label in t._bases():
            rs = [t.regions[i] for i in base]
            if len(rs) <= MAX_SUB_HOUSES and all(r.full for r in rs):
                out.append((sum(r.mask for r in rs), sum(r.total for r in rs), label))
        out.sort(key=lambda u: u[0].bit_count())       # single houses first
        return out
    return an.links_memo("substitution_units", build)


def _substitutions(an: Analysis, rules: list[Rule], hm: int, total: int, allow_ties: bool
                   ) -> tuple[dict[int, int], int, list[tuple[Rule, int]]] | None:
    """The house's sum with sum rules substituted, greedily: ``(coefficient per cell,
    total, [(rule, +1 subtracted / -1 added)])``, or None when no rule helps.

    Start from ``sum(house) = n(n+1)/2``; subtracting a rule ``sum(a_i x_i) = t`` (or adding
    it) keeps a true equation. A rule is used (once) when it leaves fewer open cells in the
    equation, or as many with ``allow_ties`` (an arrow whose shaft only starts in the house:
    the shaft's cell leaves, its circle doubles, the shaft's cell outside comes in).
    It reads which cells of the house and of the rules touching it are open, nothing else:
    kept across the states of a solve on those (the result is not to be changed)."""
    scope = hm
    for r in rules:
        if r.mask & hm:
            scope |= r.mask
    key = ("substitutions", hm, total, allow_ties, an.unsolved & scope,
           tuple(r.index for r in rules))
    return an.shared_memo(key, lambda: _substitute(an, rules, hm, total, allow_ties))


def _substitute(an: Analysis, rules: list[Rule], hm: int, total: int, allow_ties: bool
                ) -> tuple[dict[int, int], int, list[tuple[Rule, int]]] | None:
    """:func:`_substitutions`, worked out."""
    coef = {c: 1 for c in iter_cells(hm)}
    used: list[tuple[Rule, int]] = []
    unsolved = an.unsolved

    def open_count(cf: dict[int, int]) -> int:
        return sum(1 for c, a in cf.items() if a and unsolved >> c & 1)

    touching = [r for r in rules if r.mask & hm and r.mask & unsolved and len(r.totals) == 1]
    changed = True
    while changed:
        changed = False
        best = None
        base = open_count(coef)
        for r in touching:
            if any(r is u for u, _ in used):
                continue
            for lam in (1, -1):
                cf = dict(coef)
                for c, a in zip(r.cells, r.coeffs):
                    cf[c] = cf.get(c, 0) - lam * a
                cnt = open_count(cf)
                if cnt < base or (allow_ties and cnt == base and
                                  any(cf.get(c, 0) == 0 and coef.get(c, 0)
                                      for c in r.cells if unsolved >> c & 1)):
                    if best is None or cnt < best[0]:
                        best = (cnt, r, lam, cf)
        if best is not None:
            _, r, lam, cf = best
            coef = cf
            total -= lam * next(iter(r.totals))
            used.append((r, lam))
            changed = True
    if not used:
        return None
    return {c: a for c, a in coef.items() if a}, total, used


def _equation_text(an: Analysis, coef: dict[int, int], total: int) -> str:
    out = ""
    for c in sorted(coef, key=lambda c: (coef[c] < 0, c)):
        a = coef[c]
        term = an.name(c) if abs(a) == 1 else f"{abs(a)}*{an.name(c)}"
        out += ("-" if a < 0 else ("+" if out else "")) + term
    return f"{out} = {total}"


@register("substituted_sums", "Substituted Sums", FAMILY,
          options=SUB_OPTIONS)
def substituted_sums(an: Analysis, opts: dict) -> Iterator[Step]:
    """A house sums to 45 (n(n+1)/2); replace the shafts of the arrows (sum rules with a
    circle: a negative coefficient) that lie in it by their circles, or a circle by its
    shaft, and solve the one equation that is left (cells that see each other differ):
    box 7 with three arrows whose circles stand in its column 2 gives
    ``2*r7c2+2*r8c2+2*r9c2-r6c1 = 45``, so r6c1 is odd and the circles sum to 23 or 24."""
    rules = [r for r in _rules(an) if any(a < 0 for a in r.coeffs)]
    if not rules:
        return                     # no arrow-like rule: the set techniques' business
    limit = SUB_OPTIONS.read(opts, "node_limit")
    max_cells = SUB_OPTIONS.read(opts, "max_cells")
    full = an.n * (an.n + 1) // 2
    seen: set = set()
    for hm, htotal, hname in _units(an):
        if not hm & an.unsolved:
            continue
        for ties in (False, True):
            sub = _substitutions(an, rules, hm, htotal, ties)
            if sub is None:
                continue
            coef, total, used = sub
            key = (tuple(sorted(coef.items())), total)
            if key in seen:
                continue
            seen.add(key)
            cells = sorted(coef)
            if not 0 < sum(1 for c in cells if an.unsolved >> c & 1) <= max_cells:
                continue
            coeffs = [coef[c] for c in cells]
            complete, sols = _solutions(an, cells, coeffs, total, limit)
            held, more = "", []
            if not complete:
                # too many solutions to list: the digits they use, without the mandatory
                # ones; the search starts from the solutions listed so far
                eq = Rule(-1, hname, cells, coeffs, frozenset((total,)), False)
                sup = joint_supports(an, cells, [eq], limit, _unclashed(an, cells, sols))
                if sup is None or not all(sup):
                    continue
            elif not sols:
                continue                       # no solution: not this technique's business
            else:
                sup = [0] * len(cells)
                for sol in sols:
                    for k, d in enumerate(sol):
                        sup[k] |= 1 << d
                held, more = _mandatory(an, cells, sols)
            elims = _eliminations(an, cells, sup)
            elims += [e for e in more if e not in elims]
            if not elims:
                continue
            with_ = ", ".join(f"{r.name} ({_formula(an, r)})" for r, _ in used)
            yield Step("substituted_sums", eliminations=tuple(elims), title="Substituted Sums",
                       namer=an.grid.namer, houses=(hname,) + tuple(r.name for r, _ in used),
                       pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                     if an.cand[c] >> d & 1),
                       note=f"{hname} {'sums' if htotal == full else 'sum'} to {htotal}; "
                            f"with {with_}: "
                            f"{_equation_text(an, coef, total)}{held}")


def _unclashed(an: Analysis, cells: list[int], sols: list[tuple[int, ...]]
               ) -> list[tuple[int, ...]]:
    """The solutions of ``sols`` that no rule link between different digits (``r1c1=3``
    excludes ``r1c2=7``: the cross links :func:`_search` reads) breaks."""
    cross = an.links.cross
    if not cross:
        return sols
    where = {c: k for k, c in enumerate(cells)}
    # per position and digit, the (position, digit) pairs of these cells its links exclude
    # (the links to other cells, most of them, are passed over once here, not per solution)
    clash: list[dict[int, tuple[tuple[int, int], ...]]] = [{} for _ in cells]
    for k, c in enumerate(cells):
        for d in range(1, an.n + 1):
            t = tuple((where[c2], d2) for c2, d2 in cross.get((c, d), ()) if c2 in where)
            if t:
                clash[k][d] = t
    if not any(clash):
        return sols
    out = []
    for sol in sols:
        if all(sol[k2] != d2 for k, d in enumerate(sol) for k2, d2 in clash[k].get(d, ())):
            out.append(sol)
    return out


def _solutions(an: Analysis, cells: list[int], coeffs: list[int], total: int, limit: int
               ) -> tuple[bool, list[tuple[int, ...]]]:
    """Every solution of ``sum(coeffs[i] * digit(cells[i])) = total`` (placed cells fixed,
    cells that see each other for a digit different): ``(True, solutions)``, or ``(False,
    the solutions found so far)`` past ``limit`` search nodes or :data:`MAX_SOLUTIONS`
    solutions."""
    placed = an.state.placed
    doms = tuple(an.cand[c] or (1 << placed[c]) for c in cells)
    key = ("sub_sums", tuple(cells), tuple(coeffs), total, doms)

    def run() -> tuple[bool, list[tuple[int, ...]]]:
        k = len(cells)
        lo = [min(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1))
              for a, m in zip(coeffs, doms)]
        hi = [max(a * ((m & -m).bit_length() - 1), a * (m.bit_length() - 1))
              for a, m in zip(coeffs, doms)]
        rest_lo = [0] * (k + 1)
        rest_hi = [0] * (k + 1)
        for j in range(k - 1, -1, -1):
            rest_lo[j] = rest_lo[j + 1] + lo[j]
            rest_hi[j] = rest_hi[j + 1] + hi[j]
        peers_d = an.links.peers_d
        vals = [0] * k
        out: list[tuple[int, ...]] = []
        nodes = [0]
        #: per digit, the cells given it so far (the earlier positions)
        taken = [0] * (an.n + 1)

        def rec(j: int, s: int) -> bool:
            nodes[0] += 1
            if nodes[0] > limit or len(out) > MAX_SOLUTIONS:
                return False
            if j == k:
                if s == total:
                    out.append(tuple(vals))
                return True
            a = coeffs[j]
            c = cells[j]
            bit = 1 << c
            for d in iter_bits(doms[j]):
                t = s + a * d
                if t + rest_lo[j + 1] > total or t + rest_hi[j + 1] < total:
                    continue
                if peers_d[d][c] & taken[d]:
                    continue
                vals[j] = d
                taken[d] |= bit
                ok = rec(j + 1, t)
                taken[d] &= ~bit
                if not ok:
                    return False
            return True
        return rec(0, 0), out
    return an.shared_memo(key, run)


def _mandatory(an: Analysis, cells: list[int], sols: list[tuple[int, ...]]
               ) -> tuple[str, list[Candidate]]:
    """Digits every solution of the equation puts in its cells of one house: the house's
    other cells lose them (``(r7c2 r8c2 r9c2 hold 8 in col 2)``)."""
    notes: dict[tuple[int, int], list[str]] = {}
    out: list[Candidate] = []
    emask = sum(1 << c for c in cells)
    placed = an.state.placed
    for h, hm in zip(an.houses, an.house_mask):
        group = hm & emask
        if group.bit_count() < 2 or not hm & ~emask & an.unsolved:
            continue
        idx = [k for k, c in enumerate(cells) if group >> c & 1]
        always = (1 << (an.n + 1)) - 2
        for sol in sols:
            m = 0
            for k in idx:
                m |= 1 << sol[k]
            always &= m
        for k in idx:
            if placed[cells[k]]:
                always &= ~(1 << placed[cells[k]])     # the house's own business
        for d in iter_bits(always):
            others = an.cells_with[d] & hm & ~emask
            if not others:
                continue
            out.extend(e for e in (Candidate(c, d) for c in iter_cells(others)) if e not in out)
            notes.setdefault((group, d), []).append(h.name)
    digits: dict[tuple[int, tuple[str, ...]], str] = {}
    for (g, d), hs in notes.items():
        digits[(g, tuple(hs))] = digits.get((g, tuple(hs)), "") + digit_symbol(d)
    text = "; ".join(f"{' '.join(an.name(c) for c in iter_cells(g))} hold {ds} in "
                     f"{', '.join(hs)}" for (g, hs), ds in digits.items())
    return (f" ({text})" if text else ""), out


def _arrow_like(rules: list[Rule]) -> list[Rule]:
    """The rules whose negative coefficients are all different: sums (cages, little
    killers) and arrows with a circle or a pill; not double arrows or region-sum segment
    equalities, whose many-cell sides make the joint searches below cost seconds on
    puzzles full of them for little gain."""
    out = []
    for r in rules:
        neg = [a for a in r.coeffs if a < 0]
        if len(neg) == len(set(neg)):
            out.append(r)
    return out


# -- a house with every sum rule in it -----------------------------------------------------
#: house with its sum rules: the most cells the rules have together, and the search budget
MAX_HOUSE_CELLS = 22
#: bounds one house's search (twice NODE_LIMIT: more rules together), not measured
HOUSE_NODE_LIMIT = 40000


def _house_groups(an: Analysis, rules: list[Rule]) -> list[tuple[int, int, list[Rule]]]:
    """``(house index, cells of the rules, rules)`` for each full house that two or more
    sum rules touch, not all of them killer cages (cages in one house are the set
    techniques' business), with at most :data:`MAX_HOUSE_CELLS` cells together."""
    def build() -> list[tuple[int, int, list[Rule]]]:
        out = []
        for h in an.full:
            hm = an.house_mask[h]
            touch = [r for r in rules if r.mask & hm]
            if len(touch) < 2 or all(r.distinct for r in touch):
                continue
            mask = 0
            for r in touch:
                mask |= r.mask
            if mask.bit_count() <= MAX_HOUSE_CELLS:
                out.append((h, mask, touch))
        out.sort(key=lambda g: g[1].bit_count())
        return out
    return an.links_memo("sum_rule_houses", build)


def _house_inside_groups(an: Analysis, rules: list[Rule]) -> list[tuple[int, list[Rule]]]:
    """``(house, rules)``: the full houses holding two or more sum rules, all but at most
    one cell of each rule in the house (an arrow's circle just outside its row), one rule
    at least not a killer cage. Solved with the whole house (its cells outside the rules
    too), where :func:`_house_groups` takes only the rules' cells."""
    def build() -> list[tuple[int, list[Rule]]]:
        out = []
        for h in an.full:
            hm = an.house_mask[h]
            inside = [r for r in rules if (r.mask & ~hm).bit_count() <= 1
                      and (r.mask & hm).bit_count() > 1]
            if len(inside) >= 2 and not all(r.distinct for r in inside):
                out.append((h, inside))
        return out
    return an.links_memo("house_inside_sum_groups", build)


#: search nodes of one whole house with the rules inside it
HOUSE_INSIDE_NODE_LIMIT = 4000
HOUSE_OPTIONS = Options(node_limit=_node_limit(HOUSE_NODE_LIMIT))


@register("house_sums", "House Sums", FAMILY,
          options=HOUSE_OPTIONS)
def house_sums(an: Analysis, opts: dict) -> Iterator[Step]:
    """A house (a box, row or column) with every sum rule that has a cell in it, solved
    together: the rules' cells, inside the house and out, cells that see each other
    different, and the house's digits that can stand only in the rules' cells all placed
    there. Digits of no joint solution go: in a box holding the circles and shafts of
    three arrows (or the shaft of one and the circle of another), each arrow alone allows
    what the three together do not."""
    rules = _rules(an)
    if len(rules) < 2:
        return
    groups = _house_groups(an, an.links_memo("arrow_like_sum_rules",
                                             lambda: _arrow_like(rules)))
    limit = HOUSE_OPTIONS.read(opts, "node_limit")
    placed = an.state.placed
    for h, mask, touch in groups:
        if an.expired():
            return
        if not mask & an.unsolved:
            continue
        hm = an.house_mask[h]
        # the house's digits with no place outside the rules' cells
        need = 0
        done = 0
        for c in iter_cells(hm):
            done |= 1 << placed[c]
        for d in range(1, an.n + 1):
            at = an.cells_with[d] & hm
            if at and not at & ~mask and not done >> d & 1:
                need |= 1 << d
        cells = list(iter_cells(mask))
        doms = [an.cand[c] or (1 << placed[c]) for c in cells]
        covers = ((hm & mask, need),) if need else ()
        key = ("house_sums", h, tuple(cells), tuple(doms), need)
        sup = an.shared_memo(key, lambda: _search(an, cells, doms, touch, limit, covers))
        if sup is None or not all(sup):
            continue
        elims = _eliminations(an, cells, sup)
        if not elims:
            continue
        house = an.houses[h].name
        more = ""
        if need and hm & ~mask & an.unsolved:
            more = (f"; {''.join(digit_symbol(d) for d in iter_bits(need))} of {house} "
                    f"only in their cells")
        yield Step("house_sums", eliminations=tuple(elims), title="House Sums",
                   namer=an.grid.namer, houses=(house,) + tuple(r.name for r in touch),
                   pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                 if an.cand[c] >> d & 1),
                   note=f"{house} with " + ", ".join(f"{r.name} ({_formula(an, r)})"
                                                     for r in touch) + more)
    # the whole house with the rules lying in it: its cells outside the rules count too
    # ("row 4 needs 7, 8 and 9: the cage 9 holds none, the arrow's two cells at most one")
    full = an.n * (an.n + 1) // 2
    for h, inside in _house_inside_groups(an, rules):
        if an.expired():
            return
        hm = an.house_mask[h]
        if not hm & an.unsolved:
            continue
        extra = 0
        for r in inside:
            extra |= r.mask & ~hm
        cells = list(iter_cells(hm | extra))
        whole = Rule(-1, an.houses[h].name, list(iter_cells(hm)), [1] * an.n,
                     frozenset((full,)), True)
        sup = joint_supports(an, cells, inside + [whole], HOUSE_INSIDE_NODE_LIMIT)
        if sup is None or not all(sup):
            continue                  # past the budget, or no arrangement: not this step
        elims = _eliminations(an, cells, sup)
        if not elims:
            continue
        name = an.houses[h].name
        yield Step("house_sums", eliminations=tuple(elims), title="House Sums",
                   namer=an.grid.namer, houses=(name,) + tuple(r.name for r in inside),
                   pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                 if an.cand[c] >> d & 1),
                   note=f"{name} with "
                        + ", ".join(f"{r.name} ({_formula(an, r)})" for r in inside)
                        + f": each digit once in {name}")


# -- three sum rules in a chain ------------------------------------------------------------
#: the most cells three linked rules may have together
MAX_TRIPLE_CELLS = 16
#: search budget of one group of linked rules (many groups: a small budget each)
LINKED_NODE_LIMIT = 5000
LINKED_OPTIONS = Options(node_limit=_node_limit(LINKED_NODE_LIMIT))


#: the most rules solved together
MAX_LINKED_RULES = 4


def _linked(an: Analysis, chosen: list[Rule]) -> list[tuple[Rule, ...]]:
    """Sets of three to :data:`MAX_LINKED_RULES` rules of ``chosen``, connected by the links of
    :func:`_pairs` (a shared cell, or cells that see each other), not all killer cages,
    with at most :data:`MAX_TRIPLE_CELLS` cells together (fewest cells first)."""
    def build() -> list[tuple[Rule, ...]]:
        rules = _rules(an)
        ok = {r.index for r in chosen}
        adj: dict[int, set[int]] = {}
        for a, b in _pairs(an, rules):
            if a.index not in ok or b.index not in ok:
                continue
            adj.setdefault(a.index, set()).add(b.index)
            adj.setdefault(b.index, set()).add(a.index)
        seen: set[frozenset[int]] = set()
        out = []
        frontier = [frozenset(p) for p in
                    {frozenset((a, b)) for a, near in adj.items() for b in near}]
        for _ in range(MAX_LINKED_RULES - 2):
            grown = []
            for group in frontier:
                gmask = 0
                for i in group:
                    gmask |= rules[i].mask
                for i in group:
                    for j in adj[i]:
                        if j in group:
                            continue
                        g = group | {j}
                        if g in seen or (gmask | rules[j].mask).bit_count() > MAX_TRIPLE_CELLS:
                            continue
                        seen.add(g)
                        grown.append(g)
                        if not all(rules[k].distinct for k in g):
                            out.append(tuple(rules[k] for k in sorted(g)))
            frontier = grown
        out.sort(key=lambda t: (len(t), len({c for r in t for c in r.cells})))
        return out
    return an.links_memo("sum_rule_groups", build)


#: the nodes of the search for solutions holding the digits no known solution holds yet
#: (:func:`_useful_supports`, in all); not a limit of the technique, which reads
#: LINKED_NODE_LIMIT
WITNESS_NODE_LIMIT = 2000
#: solutions kept per group of linked rules (the oldest go first), and groups kept (a hard
#: little killer generation makes about 570 groups, 45 solutions each on average)
MAX_WITNESSES = 128
MAX_WITNESS_GROUPS = 4000


class _Witnesses:
    """Solutions of a group of linked rules on their cells (cells that see each other
    different), each packed as one int: bit ``i * (n + 1) + d`` for digit d in the group's
    i-th cell. A solution of the rules stays one in every state and every puzzle with the
    same rules on the same cells and the same links between them, whatever the candidates:
    it supports its digits wherever they are all still candidates."""

    __slots__ = ("sols", "finder")

    def __init__(self) -> None:
        self.sols: dict[int, None] = {}
        #: the group's :class:`_Finder` (made when first needed)
        self.finder: _Finder | None = None

    def covered(self, packed_doms: int) -> int:
        """The digits (packed) of the kept solutions that fit the candidates."""
        out = 0
        for w in list(self.sols):
            if w & packed_doms == w:
                out |= w
        return out

    def add(self, sols: list[tuple[int, ...]], width: int) -> None:
        keep = self.sols
        for sol in sols:
            w = 0
            for i, d in enumerate(sol):
                w |= 1 << (i * width + d)
            keep.pop(w, None)
            keep[w] = None
        while len(keep) > MAX_WITNESSES:
            del keep[next(iter(keep))]


#: kept solutions by what makes them solutions (see :func:`_witnesses`): shared by the
#: puzzles a generator rates, which share their rules and grid; cleared past
#: :data:`MAX_WITNESS_GROUPS` groups
_WITNESSES: dict[tuple, _Witnesses] = {}


def _witnesses(an: Analysis, rules: Sequence[Rule], cells: list[int]) -> _Witnesses:
    """The kept solutions of ``rules`` on ``cells``: keyed on the grid size, the rules
    (cells, coefficients, totals) and the links between the cells (per digit: which of
    them each one sees; the links between different digits), everything that decides
    whether digits of the cells are a solution."""
    def build() -> _Witnesses:
        links = an.links
        mask = 0
        for c in cells:
            mask |= 1 << c
        if links.uniform:
            sees: tuple = tuple(links.house_peers[c] & mask for c in cells)
        else:
            sees = tuple(tuple(links.peers_d[d][c] & mask for c in cells)
                         for d in range(1, an.n + 1))
        cross = tuple(sorted((a, b) for a, bs in links.cross.items() if mask >> a[0] & 1
                             for b in bs if mask >> b[0] & 1)) if links.cross else ()
        key = (an.n, tuple(cells),
               tuple((r.cells, r.coeffs, tuple(sorted(r.totals))) for r in rules),
               links.uniform, sees, cross)
        got = _WITNESSES.get(key)
        if got is None:
            if len(_WITNESSES) >= MAX_WITNESS_GROUPS:
                _WITNESSES.clear()
            got = _WITNESSES[key] = _Witnesses()
        return got
    return an.links_memo(("sum_witnesses", tuple(r.index for r in rules)), build)


class _OverBudget(Exception):
    """A :class:`_Finder` passed its node budget."""


class _Finder:
    """One solution of sum rules on their cells with a given digit in a given cell:
    depth-first, the cell with fewest candidates first (its digits no solution found so
    far holds first), each choice propagated to a fixpoint (a digit leaves the cells that
    see its cell; each rule's bounds narrow its cells). Its tables depend on the rules,
    the cells and the links between them only: one finder serves every state (kept with
    the group's :class:`_Witnesses`)."""

    def __init__(self, an: Analysis, cells: list[int], rules: Sequence[Rule]) -> None:
        n = an.n
        peers_d = an.links.peers_d
        cross = an.links.cross
        k = len(cells)
        idx = {c: i for i, c in enumerate(cells)}
        self.k = k
        #: per cell and digit, the (cell, digit) pairs that digit there rules out: the same
        #: digit in the cells that see it, then the other digits its rule links forbid
        self.excl: list[list[tuple[tuple[int, int], ...]]] = [
            [tuple((j, d) for j, c2 in enumerate(cells) if j != i and peers_d[d][c] >> c2 & 1)
             + (tuple((idx[c2], d2) for c2, d2 in cross.get((c, d), ()) if c2 in idx)
                if cross and d else ())
             for d in range(n + 1)] for i, c in enumerate(cells)]
        self.eqs = [(tuple((idx[c], a) for c, a in zip(r.cells, r.coeffs)),
                     min(r.totals), max(r.totals), r.totals) for r in rules]
        #: per cell, the rules (indices into eqs) it is in, as a bitset
        self.cell_eqs = [0] * k
        for e, (items, _, _, _) in enumerate(self.eqs):
            for i, _ in items:
                self.cell_eqs[i] |= 1 << e
        self.all_eqs = (1 << len(self.eqs)) - 1
        self.nodes = 0

    def _propagate(self, dom: list[int], fixed: list[int], dirty: int) -> bool:
        """Narrow ``dom`` to a fixpoint (``fixed``: cells newly down to one digit;
        ``dirty``: the rules to check, a bitset); False on a wipe-out or a rule out of
        reach."""
        excl = self.excl
        eqs = self.eqs
        cell_eqs = self.cell_eqs
        while True:
            while fixed:
                i = fixed.pop()
                for j, d2 in excl[i][dom[i].bit_length() - 1]:
                    m = dom[j]
                    if m >> d2 & 1:
                        m ^= 1 << d2
                        if not m:
                            return False
                        dom[j] = m
                        dirty |= cell_eqs[j]
                        if not m & (m - 1):
                            fixed.append(j)
            if not dirty:
                return True
            b = dirty & -dirty
            dirty ^= b
            items, tlo, thi, _ = eqs[b.bit_length() - 1]
            lo = hi = 0
            for i, a in items:
                m = dom[i]
                if a >= 0:
                    lo += a * ((m & -m).bit_length() - 1)
                    hi += a * (m.bit_length() - 1)
                else:
                    lo += a * (m.bit_length() - 1)
                    hi += a * ((m & -m).bit_length() - 1)
            if lo > thi or hi < tlo:
                return False
            if lo >= tlo and hi <= thi:
                continue
            for i, a in items:
                m = dom[i]
                if not m & (m - 1):
                    continue
                dl = (m & -m).bit_length() - 1
                dh = m.bit_length() - 1
                x, y = (a * dl, a * dh) if a >= 0 else (a * dh, a * dl)
                vlo = tlo - (hi - y)         # a * digit must lie in [vlo, vhi]
                vhi = thi - (lo - x)
                if vlo <= x and y <= vhi:
                    continue
                nm = 0
                mm = m
                while mm:
                    low = mm & -mm
                    mm ^= low
                    if vlo <= a * (low.bit_length() - 1) <= vhi:
                        nm |= low
                if not nm:
                    return False
                dom[i] = nm
                dirty |= cell_eqs[i]
                if not nm & (nm - 1):
                    fixed.append(i)

    def _valid(self, sol: tuple[int, ...]) -> bool:
        """Whether ``sol`` is a solution of the rules, cells that see each other different
        (the solutions of :func:`_search`): checked in full, whatever found it."""
        for items, _, _, totals in self.eqs:
            if sum(a * sol[i] for i, a in items) not in totals:
                return False
        for i in range(self.k):
            for j, d2 in self.excl[i][sol[i]]:
                if sol[j] == d2:
                    return False
        return True

    def find(self, doms: list[int], i: int, d: int, cov: list[int], budget: int
             ) -> tuple[int, ...] | None:
        """A solution (a digit per cell) within ``doms`` with digit d in cell i, None when
        there is none; raises :class:`_OverBudget` once :attr:`nodes` (counted across
        calls: the caller resets it) passes ``budget``. ``cov``: the digits per cell known
        in a solution, tried last."""
        dom = list(doms)
        dom[i] = 1 << d
        if not self._propagate(dom, [j for j in range(self.k) if not dom[j] & (dom[j] - 1)],
                               self.all_eqs):
            return None
        return self._rec(dom, cov, budget)

    def _rec(self, dom: list[int], cov: list[int], budget: int) -> tuple[int, ...] | None:
        self.nodes += 1
        if self.nodes > budget:
            raise _OverBudget
        best = -1
        few = 99
        for i, m in enumerate(dom):
            if m & (m - 1):
                c = m.bit_count()
                if c < few:
                    few = c
                    best = i
        if best < 0:
            sol = tuple(m.bit_length() - 1 for m in dom)
            return sol if self._valid(sol) else None
        m0 = dom[best]
        new = m0 & ~cov[best]
        dirty = self.cell_eqs[best]
        for m in (new, m0 & ~new):
            while m:
                b = m & -m
                m ^= b
                d2 = list(dom)
                d2[best] = b
                if self._propagate(d2, [best], dirty):
                    got = self._rec(d2, cov, budget)
                    if got is not None:
                        return got
        return None


def _useful_supports(an: Analysis, cells: list[int], rules: Sequence[Rule], limit: int
                     ) -> list[int] | None:
    """:func:`joint_supports` of the rules with ``limit`` nodes when it can eliminate
    something; None when it cannot: every digit of the cells is in a solution (for
    ``linked_sums`` and ``combined_sums``, whose steps are the eliminations).

    That is what the technique needs, and it is mostly known without that search: the
    solutions found before (:func:`_witnesses`: in earlier states and puzzles) may support
    every digit, and :class:`_Finder` looks for one solution holding each digit they do
    not support (within :data:`WITNESS_NODE_LIMIT` nodes in all). Only when a digit may
    have none is the search of ``limit`` nodes run, unchanged: whether it gives up decides
    the step. A search that gave up where every digit has a solution made no step either,
    so the steps are those of ``joint_supports`` alone."""
    placed = an.state.placed
    doms = [an.cand[c] or (1 << placed[c]) for c in cells]
    key = ("useful_sums", tuple(cells), tuple(r.index for r in rules), tuple(doms))

    def run() -> list[int] | None:
        pool = _witnesses(an, rules, cells)
        width = an.n + 1
        packed = 0
        for i, m in enumerate(doms):
            packed |= m << (i * width)
        cov = pool.covered(packed)
        if cov != packed:
            digits = (1 << width) - 1
            known = [cov >> (i * width) & digits for i in range(len(cells))]
            found: list[tuple[int, ...]] = []
            finder = pool.finder
            if finder is None:
                finder = pool.finder = _Finder(an, cells, rules)
            finder.nodes = 0
            try:
                for i, m in enumerate(doms):
                    for d in iter_bits(m & ~known[i]):
                        if known[i] >> d & 1:
                            continue
                        sol = finder.find(doms, i, d, known, WITNESS_NODE_LIMIT)
                        if sol is None:
                            raise _OverBudget     # no solution holds d: the search decides
                        found.append(sol)
                        for j, v in enumerate(sol):
                            known[j] |= 1 << v
            except _OverBudget:
                pool.add(found, width)
                found = []
                sup = _search(an, cells, doms, list(rules), limit, found=found)
                pool.add(found, width)
                return sup
            pool.add(found, width)
        return None
    return an.shared_memo(key, run)


@register("linked_sums", "Linked Sums", FAMILY,
          options=LINKED_OPTIONS)
def linked_sums(an: Analysis, opts: dict) -> Iterator[Step]:
    """Three sum rules in a chain (the middle one shares a cell or houses with each of the
    others), solved together, cells that see each other different: digits of no joint
    solution go. Arrows in three corners of a grid, whose circles see each other along a
    row and a column, with shafts that meet on a diagonal: what one arrow's shaft takes
    narrows the circle two rules away."""
    rules = an.links_memo("arrow_like_sum_rules", lambda: _arrow_like(_rules(an)))
    if len(rules) < 3:
        return
    limit = LINKED_OPTIONS.read(opts, "node_limit")
    for trio in _linked(an, rules):
        if an.expired():
            return
        mask = 0
        for r in trio:
            mask |= r.mask
        if not mask & an.unsolved:
            continue
        cells = list(iter_cells(mask))
        sup = _useful_supports(an, cells, trio, limit)
        if sup is None or not all(sup):
            continue
        elims = _eliminations(an, cells, sup)
        if elims:
            yield Step("linked_sums", eliminations=tuple(elims), title="Linked Sums",
                       namer=an.grid.namer, houses=tuple(r.name for r in trio),
                       pattern=tuple(Candidate(c, d) for c in cells for d in range(1, an.n + 1)
                                     if an.cand[c] >> d & 1),
                       note=", ".join(f"{r.name} ({_formula(an, r)})" for r in trio)
                            + " together")
