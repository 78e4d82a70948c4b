"""Nested forcing nets (not a HoDoKu technique): inside an assumption, the net
contradictions of the next depth are applied until the assumption itself breaks."""
from __future__ import annotations

from typing import Callable, Iterator, Sequence

from csp.bits import digits_of
from csp.budget import Budget
from csp.kernel import active
from csp.step import Candidate, Step, cell_name

from ..analysis import Analysis, iter_cells
from ..registry import Option, Options, register
from .engine import _PState, _Static, _cell, _digit, _fact, _propagate, _result, _static, fact_text
from .explain import _complexity, _contra_text, _support
from .memory import _quiet, _ruled, _untried_first
from .scans import _NET, _candidates, _inter

try:                          # the compiled kernel (csp/kernel.py), where the install built it
    from .. import _se_kernel
except ImportError:           # no C compiler at install time: the Python path only
    _se_kernel = None

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


_NESTED = "nested"


def _nested_used(ps: _PState, facts: Sequence[int]) -> set[int]:
    out = set()
    for g in _support(ps, facts):
        p = ps.parents.get(g)
        if p.__class__ is tuple and p and p[0].__class__ is str:
            p = p[0]      # (label, premises...): the level probe's inner chains
        if isinstance(p, str) and p.startswith(_NESTED):
            out.add(g)
    return out


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
                    _propagate(st, ps, [(f ^ 1, f"{_NESTED}: {fact_text(f, st.namer)} fails")],
                               True, inter)
                    progress = True
                    if ps.contra is not None:
                        return ps
    return ps


def static_chain(st: _Static, cand: list[int], cw: list[int], f0: int,
                 cap: int | None = None, unary: bool = False,
                 seen: list[int] | None = None) -> tuple[int, int]:
    """How Sudoku Explainer's *static* chains see the failure of the true fact ``f0`` on
    the (hypothetical) grid ``cand`` / ``cw``, for SE's nesting levels 2 and 3
    (:func:`se_level2`, ``techniques/se_rating.py``). The links are those
    of SE's static forcing chains on that grid as it stands: a true candidate removes its
    cell's other digits and its peers' copies of the digit; a false one makes the other
    digit of a bivalue cell and the other place of a bilocal digit in a house true (one
    premise each, no singles resting on several facts).

    Returns (kind, nodes): kind 2 when the chains reach ``f0`` false (SE's unary forcing
    chain "assume X => X false", its level-2 inner rule), nodes its length, both ends
    counted; kind 3 when they reach a fact and its opposite (SE's static contradiction,
    a multiple forcing chain: its level-3 inner rule), nodes the two paths' lengths;
    kind 4 when neither (only a dynamic chain finds it: level 4), nodes 0.
    A breadth-first search: at most two facts per candidate; with ``cap``, at most that
    many facts; ``unary``: only the unary chain is looked for (kind 2 or 4). ``seen``:
    [mask], gets the cells whose candidates the search read (the visited cells and
    their houses): the result stands while none of them changes."""
    hm, cell_full, peers_d = st.house_mask, st.cell_full, st.peers_d
    zone = _zones(st)
    touched = 0
    parent: dict[int, int] = {f0: -1}
    queue = [f0]
    append = queue.append
    first: tuple[int, int] | None = None
    target = f0 ^ 1

    def depth(g: int) -> int:
        k = 0
        while g >= 0:
            k += 1
            g = parent[g]
        return k

    # (facts as in engine: (cell << 5 | digit) << 1 | on, written out for speed)
    for f in queue:
        c = f >> 6
        d = (f >> 1) & 31
        touched |= zone[c]
        if f & 1:
            m = cand[c] & ~(1 << d)
            out = []
            while m:
                low = m & -m
                m ^= low
                out.append((c << 5 | (low.bit_length() - 1)) << 1)
            p = peers_d[d][c] & cw[d] & ~(1 << c)
            while p:
                low = p & -p
                p ^= low
                out.append(((low.bit_length() - 1) << 5 | d) << 1)
        else:
            out = []
            m = cand[c]
            if m >> d & 1 and m.bit_count() == 2:
                out.append((c << 5 | ((m & ~(1 << d)).bit_length() - 1)) << 1 | 1)
            for h in cell_full[c]:
                pl = hm[h] & cw[d]
                if pl.bit_count() == 2 and pl >> c & 1:
                    out.append((((pl & ~(1 << c)).bit_length() - 1) << 5 | d) << 1 | 1)
        for g in out:
            if g in parent:
                continue
            parent[g] = f
            if g == target:
                if seen is not None:
                    seen[0] = touched
                return 2, depth(g)
            if not unary and first is None and g ^ 1 in parent:
                first = (g, g ^ 1)
            append(g)
        if cap is not None and len(parent) > cap:
            break
    if seen is not None:
        seen[0] = touched
    if first is not None:
        return 3, depth(first[0]) + depth(first[1])
    return 4, 0


# -- SE's static chains on one grid as bitmasks (the level probe's inner rules) -----------
class _SELinks:
    """SE's static links on one (hypothetical) grid ``cand`` / ``cw``, as bitmasks: the
    strong links that make a false candidate's partner true (the other digit of a
    bivalue cell: ``biv`` as (digit e, digit f, cells whose only digits are e and f); the
    other place of a digit with two places in a house: ``bl[d]`` the cells with such a
    partner, ``partner[d][c]`` the partners). A true candidate's consequences (its cell's
    other digits, its peers' copies) are read from ``cw`` and ``st.peers_d``."""

    __slots__ = ("cand", "cw", "biv", "bivm", "bl", "partner", "digits")

    def __init__(self, st: _Static, cand: list[int], cw: list[int],
                 unsolved: int | None = None) -> None:
        self.cand, self.cw = cand, cw
        self.digits = digits = range(1, st.n + 1)
        pairs: dict[tuple[int, int], int] = {}
        m = st.unsolved if unsolved is None else unsolved
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            k = cand[c]
            if k.bit_count() == 2:
                e = (k & -k).bit_length() - 1
                f = k.bit_length() - 1
                pairs[e, f] = pairs.get((e, f), 0) | low
                pairs[f, e] = pairs.get((f, e), 0) | low
        self.biv = [(e, f, x) for (e, f), x in pairs.items()]
        #: per digit, the bivalue cells that hold it
        self.bivm = bivm = [0] * (st.n + 1)
        for (e, _), x in pairs.items():
            bivm[e] |= x
        bl = [0] * (st.n + 1)
        partner: list[dict[int, int]] = [{} for _ in range(st.n + 1)]
        hm = st.house_mask
        for h in st.full:
            hh = hm[h]
            for d in digits:
                pl = hh & cw[d]
                if pl.bit_count() == 2:
                    a = pl & -pl
                    b = pl ^ a
                    ca, cb = a.bit_length() - 1, b.bit_length() - 1
                    bl[d] |= pl
                    pd = partner[d]
                    pd[ca] = pd.get(ca, 0) | b
                    pd[cb] = pd.get(cb, 0) | a
        self.bl, self.partner = bl, partner


def se_links(st: _Static, cand: list[int], cw: list[int]) -> _SELinks:
    """:class:`_SELinks` of a grid (for :func:`se_reach`)."""
    return _SELinks(st, cand, cw)


def se_reach(st: _Static, L: _SELinks, c0: int, d0: int, on0: bool = True,
             full: bool = False) -> tuple[int, list[tuple[list[int], list[int]]],
                                          list[int], list[int]]:
    """SE's static forcing chains from ``c0`` = ``d0`` (``on0``; else ``c0`` <> ``d0``) on
    the grid of ``L``, breadth first, as bitmasks: what :func:`static_chain` searches,
    without its cap (SE has none), in waves of facts (a true wave, then the false facts
    it implies, and so on). Returns (nodes, waves, on, off): nodes is the length of the
    shortest chain to the opposite of the start (both ends counted: SE's unary forcing
    chain; 0 when there is none); waves is the list of (true masks, false masks) per
    digit as derived wave by wave (the search stops at the opposite unless ``full``);
    then the true and the false facts reached, per digit (cells per digit)."""
    peers_d, cw, cand = st.peers_d, L.cw, L.cand
    n1 = st.n + 1
    on = [0] * n1
    off = [0] * n1
    bivm, bl, partner = L.bivm, L.bl, L.partner
    waves: list[tuple[list[int], list[int]]] = []
    bit0 = 1 << c0
    # the wave's true facts as (cell, digit); its false ones as per-digit masks
    if on0:
        news = [(c0, d0)]
        on[d0] = bit0
        newoff = None
    else:
        news = None
        newoff = [0] * n1
        newoff[d0] = bit0
        off[d0] = bit0
    dist = 0
    while True:
        if news is not None:
            wave_on = [0] * n1
            newoff = [0] * n1
            for c, d in news:
                b = 1 << c
                wave_on[d] |= b
                newoff[d] |= peers_d[d][c] & cw[d]
                k = cand[c] & ~(1 << d)
                while k:
                    low = k & -k
                    k ^= low
                    newoff[low.bit_length() - 1] |= b
            any_off = 0
            for d in range(1, n1):
                p = newoff[d]
                if p:
                    p &= ~off[d]
                    newoff[d] = p
                    if p:
                        off[d] |= p
                        any_off = 1
            dist += 1
            waves.append((wave_on, newoff))
            if on0 and off[d0] & bit0:
                if not full:
                    return dist + 1, waves, on, off
                found = dist + 1
            if not any_off:
                break
        news = []
        for d in range(1, n1):
            m = newoff[d]
            if not m:
                continue
            y = m & bivm[d]
            while y:
                low = y & -y
                y ^= low
                c = low.bit_length() - 1
                e = (cand[c] & ~(1 << d)).bit_length() - 1
                if not on[e] & low:
                    on[e] |= low
                    news.append((c, e))
            y = m & bl[d]
            if y:
                pd = partner[d]
                z = 0
                while y:
                    low = y & -y
                    y ^= low
                    z |= pd[low.bit_length() - 1]
                z &= ~on[d]
                if z:
                    on[d] |= z
                    while z:
                        low = z & -z
                        z ^= low
                        news.append((low.bit_length() - 1, d))
        dist += 1
        if not on0 and on[d0] & bit0:
            wave_on = [0] * n1
            for c, d in news:
                wave_on[d] |= 1 << c
            waves.append((wave_on, [0] * n1))
            if not full:
                return dist + 1, waves, on, off
        if not news:
            waves.append(([0] * n1, [0] * n1))
            break
    return (found if on0 and off[d0] & bit0 else
            (dist + 1 if not on0 and on[d0] & bit0 else 0)), waves, on, off


def _zones(st: _Static) -> list[int]:
    """Per cell, the cells of its full houses (itself included)."""
    def build() -> list[int]:
        z = [0] * st.size
        for c in range(st.size):
            for h in st.cell_full[c]:
                z[c] |= st.house_mask[h]
        return z
    return st.an.links_memo("se_zones", build)


def _used_log(ps: _PState, log: list) -> list:
    """The entries of a closure log that the final contradiction of ``ps`` needs."""
    used = _nested_used(ps, ps.contra[1]) if ps.contra else set()
    deps = {e[0] ^ 1: e[2] for e in log}
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
    w = st.namer
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
                inner = "; ".join(f"{fact_text(e[0], w)} fails ({e[1]})" for e in used)
                note = (f"{fact_text(f, w)}: inside, {inner}; then {_contra_text(ps, w)}")
                cand = (Candidate(c, d),)
                yield Step("forcing_net_nested", eliminations=cand, pattern=cand, digits=(d,),
                           title="Nested Forcing Net", note=note, namer=w,
                           extra={"depth": depth + 1, "propagations": start - budget[0],
                                  "nodes": _complexity(ps, ps.contra[1])["nodes"],
                                  "nested_nodes": sum(e[3] for e in used),
                                  "inner_nodes": sorted(e[3] for e in used)})
            if budget[0] <= 0:
                an.timed_out = True    # gave up: the solver reports 'limit', not 'stuck'
                return


#: SE level-2 probe: facts per static chain search, and chain searches per probe
LEVEL2_BUDGET = 3000
#: ... and per state (the whole scan; about 1-2 s of CPU)
LEVEL_SEARCHES = 120_000
#: the scan stops once it has this many level-2 steps (the rating takes the easiest of
#: them; most of a full scan's time goes to the candidates that do not fail)
LEVEL_FIRST = 4


def se_level2(an: Analysis, c: int, d: int, level: int = 2,
              budget: list[int] | None = None,
              keys: dict | None = None, on: bool = True) -> tuple[int, int, int] | None:
    """Whether ``c`` = ``d`` fails under Sudoku Explainer's nesting level 2 ("DFC +
    forcing chains"), or level 3 ("DFC + multiple forcing chains"), as far as this model
    goes: the assumption is propagated as a net with locked candidates (SE's dynamic
    chains with its level-1 rules), and whenever that stalls, SE's inner rule is applied
    on the hypothetical grid: every candidate Y whose *static* unary forcing chain "Y
    true => Y false" exists there (:func:`se_reach`, SE's forcing chains, no cap) is
    removed; at ``level`` 3, when no such chain exists, SE's static cell and region
    forcing chains (every candidate of a cell, or every place of a digit in a house,
    implies the same fact by static chains) conclude; until a contradiction or a
    fixpoint. Returns (the contradiction's own nodes, the summed lengths of the inner
    chains it rests on, the level those need: 2 when they are all unary chains, 3 when
    one is a cell or region forcing chain, 1 when none is used) when it fails, None when
    it does not or when the chain searches run out (``budget``: [searches left],
    decremented; default :data:`LEVEL2_BUDGET`). The answer is kept per (assumption,
    hypothetical grid) for the puzzle's life: the next states of a rating ask most
    assumptions again on the same grid. ``keys``: gets ``(c, d)`` -> the memo's key when
    the assumption does not fail and its final grid is known (:func:`_outer_forcing`
    reads it there); ``on`` False: the assumption is ``c`` <> ``d`` (SE's "X off", whose
    contradiction places ``d``). Used by the SE rating only (not a solver step)."""
    st = _static(an)
    f = _fact(c, d, on)
    ps = _result(an, f, True, True).copy()
    if ps.contra is not None:
        return _complexity(ps, ps.contra[1])["nodes"], 0, 1
    memo = an.links_memo("se_level_memo", dict)
    finals = an.links_memo("se_level_finals", dict)
    key = (f, level, tuple(ps.cand))
    if key in memo:
        r = memo[key]
        if r is None and keys is not None and key in finals:
            keys[c, d, on] = key
        return r
    left = [LEVEL2_BUDGET] if budget is None else budget
    # level 3 goes on from where level 2 stopped with this assumption in this state
    # (its inner rules come after level 2's, at the same stalls)
    ends = an.memo("se_level2_ends", dict)
    sizes: dict[int, tuple[int, int]] = {}
    if level >= 3 and f in ends:
        ps0, sizes0, last = ends.pop(f)
        ps, sizes = ps0.copy(), dict(sizes0)
        r = _level_closure(st, ps, level, left, last, sizes)
    else:
        end: list = []
        prev, before = None, None
        firsts = an.links_memo("se_level_first", dict) if level == 2 else None
        if firsts:
            kept = firsts.get(f)
            if kept is not None and not any(a & ~b for a, b in zip(ps.cw, kept[0])):
                prev, before = kept[1], kept[0]
        if prev is None:
            prev = an.memo("se_base_closures", lambda: _base_closures(st))
        first: list | None = [] if firsts is not None else None
        r = _level_closure(st, ps, level, left, prev, sizes,
                           end if level == 2 else None, before, first)
        if first:
            firsts[f] = first[0]
        if level == 2 and r is None and left[0] > 0 and end:
            ends[f] = (ps, sizes, end[0])
    if left[0] > 0:
        if len(memo) >= LEVEL_MEMO:
            memo.clear()
            finals.clear()
        memo[key] = r
        if r is None:
            # the final grid at this level, for SE's outer cell and region forcing
            finals[key] = _summary(st, ps)
            _keep_final(an, key, ps, sizes)
            if keys is not None:
                keys[c, d, on] = key
    return r


#: whether the level probe also finds SE's outer cell and region forcing chains at levels
#: 2 and 3 (:func:`_outer_forcing`, docs/se-rating.md)
SE_OUTER_FORCING = True
#: whether it also asks SE's "X off" at levels 2 and 3, in the cells of three candidates or
#: more (in a bivalue cell "X off" is "Y on"): its contradiction places X, and with "X on"
#: it gives SE's double forcing (docs/se-rating.md: off, an experiment)
SE_OUTER_OFF = False


def _summary(st: _Static, ps: _PState) -> tuple[int, int]:
    """A final grid of the probe as two packed ints (:func:`_pack`): the candidates left,
    and the cells set true with their digit."""
    return _pack(ps.cw, st.size), _pack([w & ps.on for w in ps.cw], st.size)


def _keep_final(an: Analysis, key: tuple, ps: _PState, sizes: dict) -> None:
    """Keep a final grid whole (with its derivation) for the state's outer forcing (the
    state's own cache: freed with it)."""
    an.memo("se_level_keep", dict)[key] = (ps, sizes)


def _final_state(an: Analysis, st: _Static, key: tuple) -> tuple[_PState, dict] | None:
    """The final grid of ``c`` = ``d`` at the level of ``key`` (a memo key of
    :func:`se_level2` whose answer is None) with the inner chains' sizes: kept (found in
    this state), else propagated again (level 3 straight from the assumption: its rounds are level 2's until
    level 2's fixpoint); None when the searches run out."""
    got = an.memo("se_level_keep", dict).get(key)
    if got is not None:
        return got
    ps = _result(an, key[0], True, True).copy()
    sizes: dict = {}
    left = [LEVEL2_BUDGET]
    base = an.memo("se_base_closures", lambda: _base_closures(st))
    r = _level_closure(st, ps, key[1], left, base, sizes)
    if r is not None or ps.contra is not None or left[0] <= 0:
        return None
    _keep_final(an, key, ps, sizes)
    return ps, sizes


def _outer_forcing(an: Analysis, level: int, keys: dict[tuple[int, int, bool], tuple]
                   ) -> Iterator[Step]:
    """SE's outer cell, region and double forcing chains at nesting ``level`` (2 or 3),
    from the probe's final grids: for every cell of the state with two candidates or more,
    and every digit with two places or more in a house (SE's
    getMultipleChainsHintListForCell and its region chainings, with the multiple chains
    enabled as at every nesting level), the facts that every one of its candidates'
    (places') final grids holds; with :data:`SE_OUTER_OFF`, also SE's double forcing from
    a cell of three candidates or more (the facts that both "X" and "not X" imply). Only
    when none of the branches fails and all were searched (``keys``: (cell, digit, on) ->
    memo key, from :func:`se_level2`). Each conclusion is a step (an elimination, or a
    placement) whose complexity is SE's: the facts it rests on summed over the branches
    (``nodes``), plus the inner chains used in each branch (``nested_nodes``); its level
    is 3 when a branch uses an inner cell or region forcing chain, else 2."""
    st = _static(an)
    w = st.namer
    finals = an.links_memo("se_level_finals", dict)
    size, n1 = st.size, st.n + 1
    open_ = 0
    for d in range(1, n1):
        open_ |= st.unsolved << d * size
    live = _pack(st.cw, size) & open_
    groups: list[tuple[str, list[tuple[int, int, bool]]]] = []
    for x in iter_cells(st.unsolved):
        k = st.cand[x]
        if k.bit_count() >= 2:
            groups.append((f"cell {cell_name(x, w)}", [(x, e, True) for e in digits_of(k)]))
    for h in st.full:
        for d in range(1, n1):
            pl = st.house_mask[h] & st.cw[d] & st.unsolved
            if pl.bit_count() >= 2:
                groups.append((f"digit {d} in {an.houses[h].name}",
                               [(y, d, True) for y in iter_cells(pl)]))
    if SE_OUTER_OFF:
        for x in iter_cells(st.unsolved):
            k = st.cand[x]
            if k.bit_count() >= 3:
                for e in digits_of(k):
                    groups.append((f"{fact_text(_fact(x, e, True), w)} or not",
                                   [(x, e, True), (x, e, False)]))
    states: dict[tuple, tuple | None] = {}
    for name, grp in groups:
        if any(k not in keys or keys[k] not in finals for k in grp):
            continue
        rest = 0
        on = -1
        for k in grp:
            cw_, on_ = finals[keys[k]]
            rest |= cw_
            on &= on_
        off = live & ~rest
        on &= open_
        if not (off | on):
            continue
        for packed, is_on in ((on, True), (off, False)):
            while packed:
                low = packed & -packed
                packed ^= low
                e, x = divmod(low.bit_length() - 1, size)
                g = _fact(x, e, is_on)
                nodes = nested = 0
                lv = 2
                for k in grp:
                    if k not in states:
                        states[k] = _final_state(an, st, keys[k])
                    got = states[k]
                    if got is None:
                        break
                    ps, sizes = got
                    nodes += len(_support(ps, [g]))
                    for u in _nested_used(ps, [g]):
                        n, kk = sizes.get(u, (0, 2))
                        nested += n
                        lv = max(lv, kk)
                else:
                    cand = (Candidate(x, e),)
                    yield Step("forcing_net_nested", eliminations=() if is_on else cand,
                               placements=cand if is_on else (),
                               pattern=tuple(Candidate(c, d) for c, d, _ in grp),
                               digits=(e,), title="Nested Forcing Net", namer=w,
                               note=f"{name}: each implies {fact_text(g, w)} with SE "
                                    f"level-{lv} rules inside",
                               extra={"se_level": lv, "nodes": nodes,
                                      "nested_nodes": nested, "depth": 2, "forcing": name})
                    continue
                break


#: SE level probe: answers kept per puzzle (then the memo starts afresh)
LEVEL_MEMO = 200_000


def _base_closures(st: _Static) -> dict[int, tuple]:
    """The closures of :func:`se_reach` on the state's own grid that find no chain
    (candidate index -> (false facts, true facts) packed (:func:`_pack`), and False:
    not stale, see :func:`_level_closure`): each
    assumption's first
    round starts from them (see :func:`_news`)."""
    return _scan(st, st.cand, st.cw, st.unsolved, st.unsolved, 0, None, 0, 0, 2, None)[3]


def _level_closure(st: _Static, ps: _PState, level: int, left: list[int],
                   base: dict[int, tuple] | None = None,
                   sizes: dict[int, tuple[int, int]] | None = None,
                   ends: list | None = None, before0: list[int] | None = None,
                   first: list | None = None) -> tuple[int, int, int] | None:
    """The inner loop of :func:`se_level2` on ``ps`` (in place); ``base``: the
    closures of the state's own grid (:func:`_base_closures`), or of any grid
    ``before0`` (cells per digit) that holds every candidate of ``ps``; ``sizes``: the
    facts of inner chains so far and their (length, level), added to; ``ends`` gets the
    closures of the last round when level 2 stops at a fixpoint; ``first`` gets the
    first round's grid and closures (cells per digit, closures)."""
    if sizes is None:
        sizes = {}
    namer = st.namer
    #: the last round's closures that found no chain, and the grid they were found on
    prev: dict[int, tuple] = base or {}
    before: list[int] = (before0 if before0 is not None else st.cw) if base else ps.cw
    while ps.contra is None:
        if SE_PAIRS:
            # SE's level-1 inner rules at the stall, before its inner chains (free: no
            # nested complexity; their rule parents count in the outer chain)
            pf = _se_pairs(st, ps)
            if pf:
                _propagate(st, ps, pf, True, True)
                continue
        gone = fresh = 0
        if prev:
            gone, fresh = _news(st, before, ps)
        ok, left[0], hits, closures = _scan(st, ps.cand, ps.cw, st.unsolved,
                                            st.unsolved & ~ps.on, 2, prev, fresh, gone,
                                            level, left[0], st.cw)
        if not ok:
            return None
        if first is not None:
            first.append((ps.cw[:], closures))
            first = None
        # (each found chain with its rule facts, from the scan; past the kernel's wave
        # cap, rare, its waves searched again here)
        L = None
        found = []
        for x, e, n, rf in hits:
            if rf is None:
                if L is None:
                    L = _SELinks(st, ps.cand, ps.cw)
                rf = _rule_facts(st, st.cw, ps.cand, ps.cw, se_reach(st, L, x, e)[1], x, e, 0)
            found.append((_fact(x, e, True), n, rf))
        prev = closures
        before = ps.cw[:]
        if found:
            for g, n, _ in found:
                sizes[g ^ 1] = (n, 2)
            _propagate(st, ps, [(g ^ 1, (f"{_NESTED}: {fact_text(g, namer)} fails",)
                                 + tuple(h for h in rf if h in ps.parents))
                                for g, _, rf in found], True, True)
            continue
        if level < 3:
            if ends is not None:
                ends.append(closures)
            break
        concl, waves_of = _forcing(st, L, ps, closures)
        if not concl:
            break
        for g, (n, _) in concl.items():
            sizes[g] = (n, 3)
        facts = []
        for g, (_, grp) in concl.items():
            prem: tuple = ()
            for k in grp:
                prem += _rule_parents(st, ps, waves_of(k), _cell(g), _digit(g), g & 1)
            facts.append((g, (f"{_NESTED}: forcing to {fact_text(g, namer)}",)
                          + tuple(dict.fromkeys(prem))))
        _propagate(st, ps, facts, True, True)
    if ps.contra is None:
        return None
    used = [sizes[g] for g in _nested_used(ps, ps.contra[1])]
    return (_complexity(ps, ps.contra[1])["nodes"], sum(n for n, _ in used),
            max((k for _, k in used), default=1))


#: SE's level-1 inner rules after locked candidates, in SE's order (Chaining.
#: getAdvancedPotentials: Locking, HiddenSet(2), NakedSet(2), Fisherman(2)); the probe
#: applies them at each stall before its inner chains (docs/se-rating.md)
SE_PAIR_RULES = ("hidden pair", "naked pair", "x-wing")
#: whether the probe applies them: off by default (branch se-rho, docs/se-rating.md): in
#: Python they cost 15-25 % of a hard puzzle's rating CPU (about 140 us a stall, 5,000-10,000
#: stalls a puzzle), and on the 68 easiest SE-rated puzzles they lowered the level-2 steps by
#: about 0.1 with no gain in rank (what LEVEL2_SHIFT already absorbs); a kernel would make
#: them affordable
SE_PAIRS = False


def _lines(st: _Static) -> tuple[list[int], list[int]]:
    """The full rows and columns of the grid (house indices), for the inner X-Wing."""
    return st.an.links_memo("se_lines", lambda: (
        [h for h in st.full if st.an.houses[h].kind == "row"],
        [h for h in st.full if st.an.houses[h].kind == "col"]))


def _se_pairs(st: _Static, ps: _PState) -> list[tuple[int, tuple]]:
    """SE's inner rules hidden pair, naked pair and X-Wing on the hypothetical grid of
    ``ps``: the eliminations of the first of them (SE_PAIR_RULES order) that has one
    resting on the assumption, each as (false fact, (rule name, its rule parents...)).
    The rule parents are SE's (HiddenSetHint, NakedSetHint, fish): the candidates of the
    state's grid removed on the hypothetical one that the pattern needs gone (the pair's
    digits elsewhere in the house; the pair cells' other digits; the digit elsewhere in
    the base lines), as far as ``ps`` derived them; a pattern with none is not used (SE:
    it exists without the chain). Eliminations no more than that pattern's."""
    n1 = st.n + 1
    cand, cw, hm, base_cw, parents = ps.cand, ps.cw, st.house_mask, st.cw, ps.parents
    base = st.cand
    open_ = st.unsolved & ~ps.on
    out: dict[int, tuple] = {}

    def add(x: int, d: int, name: str, prem: list[int]) -> None:
        g = _fact(x, d, False)
        if g not in out and g not in parents:
            out[g] = (name,) + tuple(prem)

    # hidden pairs: two digits whose only places in a house are the same two cells
    for h in st.full:
        m = hm[h] & open_
        if m.bit_count() < 3:
            continue
        two = {}
        for d in range(1, n1):
            p = m & cw[d]
            if p.bit_count() == 2:
                two.setdefault(p, []).append(d)
        for p, ds in two.items():
            if len(ds) < 2:
                continue
            for i in range(len(ds)):
                for j in range(i + 1, len(ds)):
                    a, b = ds[i], ds[j]
                    keep = 1 << a | 1 << b
                    gone = [x for x in iter_cells(p) if cand[x] & ~keep]
                    if not gone:
                        continue
                    prem = [f for e in (a, b) for x in iter_cells(hm[h] & base_cw[e] & ~p)
                            if (f := _fact(x, e, False)) in parents]
                    if not prem:
                        continue
                    for x in gone:
                        for e in digits_of(cand[x] & ~keep):
                            add(x, e, "hidden pair", prem)
    if out:
        return list(out.items())
    # naked pairs: two cells of a house with the same two digits
    for h in st.full:
        m = hm[h] & open_
        pairs: dict[int, list[int]] = {}
        for x in iter_cells(m):
            if cand[x].bit_count() == 2:
                pairs.setdefault(cand[x], []).append(x)
        for k, xs in pairs.items():
            if len(xs) != 2:
                continue
            cells = 1 << xs[0] | 1 << xs[1]
            prem = [f for x in xs for e in digits_of(base[x] & ~k)
                    if (f := _fact(x, e, False)) in parents]
            if not prem:
                continue
            for e in digits_of(k):
                for x in iter_cells(m & cw[e] & ~cells):
                    add(x, e, "naked pair", prem)
    if out:
        return list(out.items())
    # X-Wing: a digit with two places in each of two rows (columns), the same two columns
    # (rows): it is false in the rest of those columns (rows)
    rows, cols = _lines(st)
    for base_l, cover_l in ((rows, cols), (cols, rows)):
        for d in range(1, n1):
            two: dict[int, list[int]] = {}
            for h in base_l:
                p = hm[h] & cw[d] & open_
                if p.bit_count() == 2 and not hm[h] & cw[d] & ps.on:
                    key = 0
                    for i, g in enumerate(cover_l):
                        if hm[g] & p:
                            key |= 1 << i
                    two.setdefault(key, []).append(h)
            for key, hs in two.items():
                for i in range(len(hs)):
                    for j in range(i + 1, len(hs)):
                        b1, b2 = hs[i], hs[j]
                        covers = [cover_l[k] for k in range(len(cover_l)) if key >> k & 1]
                        inside = hm[b1] | hm[b2]
                        cover = hm[covers[0]] | hm[covers[1]]
                        gone = cover & cw[d] & ~inside & open_
                        if not gone:
                            continue
                        prem = [f for x in iter_cells(inside & ~cover & base_cw[d])
                                if (f := _fact(x, d, False)) in parents]
                        if not prem:
                            continue
                        for x in iter_cells(gone):
                            add(x, d, "x-wing", prem)
        if out:
            break
    return list(out.items())


def _kernel(st: _Static):
    """(the compiled module ``techniques._se_kernel``, this grid's static tables in it), or
    None: not built, switched off (``SUDOKU_CSP_PURE=1``, csp/kernel.py), or a grid it does
    not take (more than 128 cells or 15 digits)."""
    k = active(_se_kernel)
    if k is None or st.size > 128 or st.n > 15 or len(st.full) > 1024:
        return None
    tables = st.an.links_memo("se_kernel_static", lambda: k.static_new(
        st.size, st.n, [list(r) for r in st.peers_d], [st.house_mask[h] for h in st.full]))
    return k, tables


def _scan(st: _Static, cand: list[int], cw: list[int], unsolved: int, cells: int,
          least: int, prev: dict[int, tuple] | None, fresh: int, gone: int, level: int,
          left: int | None, base_cw: list[int] | None = None
          ) -> tuple[bool, int | None, list, dict[int, tuple]]:
    """One round of the level probe's candidate scan on the grid ``cand`` / ``cw``:
    every candidate of ``cells`` (cells with at least ``least`` candidates) is searched with
    :func:`se_reach` unless its closure in ``prev`` still stands (see
    :func:`_level_closure`; ``fresh`` / ``gone`` from :func:`_news`). Returns (ok, searches
    left, found, closures): found the (cell, digit, nodes, waves or None) whose unary chain
    exists, closures the others' (false facts, true facts, stale) packed; ok False when
    ``left`` (None: no limit) ran out. The compiled kernel when there is one (identical
    results; waves None when it kept none, then the caller searches them again; its
    closures stay in C memory, an immutable ``_se_kernel.Closures`` whose entries the next
    scan shares, ``to_dict()`` the same dict: :func:`_as_dict`), else :func:`_scan_py`. With ``base_cw`` (the state's own grid, ``st.cw``) a found chain
    comes with its rule facts (:func:`_rule_facts` of its "cell <> digit", a tuple) in
    place of its waves (still None past the kernel's wave cap)."""
    k = _kernel(st)
    if k is None:
        return _scan_py(st, cand, cw, unsolved, cells, least, prev, fresh, gone, level, left,
                        base_cw)
    if base_cw is None:
        return k[0].scan(k[1], cand, cw, unsolved, cells, least, prev, fresh, gone, level,
                         left)
    return k[0].scan(k[1], cand, cw, unsolved, cells, least, prev, fresh, gone, level, left,
                     base_cw)


#: the kernel keeps a chain's waves up to this many (techniques/_se_kernel.c MAXWAVES)
KERNEL_WAVES = 512


def _scan_py(st: _Static, cand: list[int], cw: list[int], unsolved: int, cells: int,
             least: int, prev: dict[int, tuple] | None, fresh: int, gone: int, level: int,
             left: int | None, base_cw: list[int] | None = None
             ) -> tuple[bool, int | None, list, dict[int, tuple]]:
    """:func:`_scan` in pure Python (the reference and the fallback of the kernel)."""
    L = _SELinks(st, cand, cw, unsolved)
    size = st.size
    prev = _as_dict(prev) or {}
    found: list[tuple[int, int, int, list | None]] = []
    closures: dict[int, tuple] = {}
    m = cells
    while m:
        low = m & -m
        m ^= low
        x = low.bit_length() - 1
        k = cand[x]
        if k.bit_count() < least:
            continue
        while k:
            lowd = k & -k
            k ^= lowd
            e = lowd.bit_length() - 1
            old = prev.get(x << 5 | e)
            if old is not None and not old[0] & fresh:
                # none of its false facts got a new strong link: the closure can only
                # have lost facts (still no chain); level 3, whose forcing chains
                # read the closures, keeps it only when it lost none either (a
                # closure that may have lost some is marked stale)
                stale = old[2] or bool((old[0] | old[1]) & gone)
                if level < 3:
                    closures[x << 5 | e] = old if stale == old[2] else (
                        old[0], old[1], stale)
                    continue
                if not stale:
                    closures[x << 5 | e] = old
                    continue
            if left is not None:
                if left <= 0:
                    return False, left, [], {}
                left -= 1
            n, waves, on, off = se_reach(st, L, x, e)
            if n:
                if base_cw is not None:
                    # (as the kernel: past its wave cap, None)
                    waves = (None if len(waves) > KERNEL_WAVES else
                             _rule_facts(st, base_cw, cand, cw, waves, x, e, 0))
                found.append((x, e, n, waves))
            else:
                closures[x << 5 | e] = (_pack(off, size), _pack(on, size), False)
    return True, left, found, closures


def _news(st: _Static, before: list[int], ps: _PState) -> tuple[int, int]:
    """Per digit, the cells that lost it since ``before`` (cells per digit), and the
    cells whose false candidate of that digit got a new strong link (a cell that became
    bivalue, a house where the digit has two places left), both packed (:func:`_pack`).
    The compiled kernel's ``news`` when there is one (identical), else :func:`_news_py`."""
    k = _kernel(st)
    if k is not None:
        return k[0].news(k[1], before, ps.cand, ps.cw)
    return _news_py(st, before, ps)


def _news_py(st: _Static, before: list[int], ps: _PState) -> tuple[int, int]:
    """:func:`_news` in pure Python (the reference and the fallback of the kernel)."""
    n1 = st.n + 1
    cw, cand, hm = ps.cw, ps.cand, st.house_mask
    gone = [0] * n1
    fresh = [0] * n1
    changed = 0
    for d in range(1, n1):
        g = before[d] & ~cw[d]
        gone[d] = g
        changed |= g
        if g:
            for h in st.full:
                if hm[h] & g:
                    pl = hm[h] & cw[d]
                    if pl.bit_count() == 2:
                        fresh[d] |= pl
    for c in iter_cells(changed):
        k = cand[c]
        if k.bit_count() == 2:
            for d in digits_of(k):
                fresh[d] |= 1 << c
    return _pack(gone, st.size), _pack(fresh, st.size)


def _as_dict(closures):
    """The closures of a scan as the Python path keeps them (a dict, or None): the compiled
    scan keeps them in C memory (``_se_kernel.Closures``, same contents), which the Python
    path reads through ``to_dict()`` (a rating that switches paths, e.g. in the tests)."""
    return closures if closures is None or isinstance(closures, dict) else closures.to_dict()


def _pack(masks: list[int], size: int) -> int:
    """Per-digit cell masks as one int (digit d's cells from bit d * size)."""
    out = 0
    for d, m in enumerate(masks):
        if m:
            out |= m << d * size
    return out


def _forcing(st: _Static, L: _SELinks | None, ps: _PState, closures: dict[int, tuple]
             ) -> tuple[dict[int, tuple[int, list[int]]], Callable[[int], list]]:
    """SE's static cell and region forcing chains on the grid of ``ps`` from the full
    closures of every candidate's "true" (``closures``: candidate index -> (false,
    true facts) packed, as :func:`_level_closure` keeps them): the facts every candidate
    of a cell, or every place of a digit in a house, implies; each with its complexity
    (the branches' chain lengths summed, the smallest over the cells and houses that
    give it, and that cell's or house's candidates); and a function giving a branch's
    waves (:func:`se_reach`, searched again: conclusions are rare). ``L``: the grid's
    links (None: built when a branch's waves are asked). The compiled kernel's conclusions
    when there is one (identical), else :func:`_forcing_py`'s."""
    searched: dict[int, list] = {}
    links = [L]

    def waves_of(k: int) -> list:
        if k not in searched:
            if links[0] is None:
                links[0] = _SELinks(st, ps.cand, ps.cw)
            searched[k] = se_reach(st, links[0], k >> 5, k & 31, full=True)[1]
        return searched[k]

    kern = _kernel(st)
    if kern is None:
        return _forcing_py(st, ps, closures, waves_of), waves_of
    return kern[0].forcing(kern[1], ps.cand, ps.cw, st.unsolved, ps.on, closures,
                          SE_FORCING_CELL), waves_of


#: SE 1.2.1's static multiple forcing chains (its level-3 inner rule) scan only the cells
#: with at least this many candidates: cell forcing from those cells, and region forcing
#: from a region whose first place of the digit is such a cell (docs/se-rating.md)
SE_FORCING_CELL = 3


def _forcing_py(st: _Static, ps: _PState, closures: dict[int, tuple],
                waves_of: Callable[[int], list]) -> dict[int, tuple[int, list[int]]]:
    """:func:`_forcing`'s conclusions in pure Python (the reference and the fallback)."""
    n1 = st.n + 1
    size = st.size
    cand = ps.cand
    tot = _as_dict(closures)
    live = _pack(ps.cw, size)

    groups: list[list[int]] = []
    m = st.unsolved & ~ps.on
    while m:
        low = m & -m
        m ^= low
        x = low.bit_length() - 1
        if cand[x].bit_count() >= SE_FORCING_CELL:
            groups.append([x << 5 | e for e in digits_of(cand[x])])
    for h in st.full:
        for d in range(1, n1):
            pl = st.house_mask[h] & ps.cw[d] & ~ps.on
            # SE starts a region forcing chain only from the region's first place, and
            # only when that cell is one it scans (SE_FORCING_CELL candidates or more)
            if pl.bit_count() >= 2 and (
                    cand[(pl & -pl).bit_length() - 1].bit_count() >= SE_FORCING_CELL):
                groups.append([x << 5 | d for x in iter_cells(pl)])
    out: dict[int, tuple[int, list[int]]] = {}
    for grp in groups:
        if any(k not in tot or tot[k][2] for k in grp):
            continue
        coff, con, _ = tot[grp[0]]
        for k in grp[1:]:
            a, b, _ = tot[k]
            coff &= a
            con &= b
            if not (coff | con):
                break
        coff &= live
        if not (coff | con):
            continue
        for packed, on_ in ((con, 1), (coff, 0)):
            while packed:
                low = packed & -packed
                packed ^= low
                i = low.bit_length() - 1
                d, x = divmod(i, size)
                if on_ and (ps.on >> x & 1):
                    continue
                g = _fact(x, d, bool(on_))
                n = sum(_wave_depth(waves_of(k), x, d, on_) for k in grp)
                if g not in out or n < out[g][0]:
                    out[g] = (n, grp)
    return out


def _wave_depth(waves: list, x: int, d: int, on: int) -> int:
    """Nodes of the chain to fact (x, d, on) in the waves of :func:`se_reach` (its start
    counted)."""
    for j, (a, b) in enumerate(waves):
        if on and a[d] >> x & 1:
            return 2 * j + 1
        if not on and b[d] >> x & 1:
            return 2 * j + 2
    return 0


def se_level_steps(an: Analysis, level: int, searches: int = LEVEL_SEARCHES
                   ) -> Iterator[Step]:
    """The eliminations SE's nesting ``level`` (2 or 3) finds in this state as far as
    :func:`se_level2` models it, as ``forcing_net_nested`` steps with ``Step.extra``
    ``se_level``, ``nodes`` and ``nested_nodes``. One scan of every candidate at level 3
    (the analysis keeps it) serves both levels: a candidate whose failure rests on unary
    chains only is a level-2 step, else a level-3 one. ``searches``: static chain searches
    in all (then the scan stops, with what it found); it also stops at
    :data:`LEVEL_FIRST` level-2 steps. For the SE rating
    (``techniques/se_rating.py``), not the solver."""
    found = an.memo(("se_levels", searches), lambda: list(_level_scan(an, searches)))
    return iter([s for s in found if s.extra["se_level"] == level])


def _level_scan(an: Analysis, searches: int) -> Iterator[Step]:
    """Level 2 first over every candidate (SE asks its level-2 producer on the whole
    grid before level 3), then, when it found nothing, level 3."""
    w = an.grid.namer
    left = [searches]
    # an ordering hint only: the assumptions that failed in this run's last scans first
    # (they mostly fail again after one more elimination)
    hits = an.run_memo.setdefault("se_level_hits", set())
    order = sorted(_candidates(an), key=lambda cd: cd not in hits)
    for level in (2, 3):
        found = 0
        keys: dict[tuple[int, int, bool], tuple] = {}
        # (with SE_OUTER_OFF, then "X off" in the cells of three candidates or more)
        asks = [(c, d, True) for c, d in order]
        if SE_OUTER_OFF:
            asks += [(c, d, False) for c, d in order if an.cand[c].bit_count() >= 3]
        for c, d, on in asks:
            if an.expired() or left[0] <= 0 or found >= LEVEL_FIRST:
                break            # (the rating goes on to the next level)
            r = se_level2(an, c, d, level, left, keys, on)
            if r is None:
                continue
            lv = max(2, r[2])
            found += 1
            cand = (Candidate(c, d),)
            if on:
                hits.add((c, d))
            yield Step("forcing_net_nested", eliminations=cand if on else (),
                       placements=() if on else cand, pattern=cand, digits=(d,),
                       title="Nested Forcing Net", namer=w,
                       note=f"{fact_text(_fact(c, d, on), w)} fails with SE level-{lv} "
                            "rules inside",
                       extra={"se_level": lv, "nodes": r[0], "nested_nodes": r[1],
                              "depth": 2})
        if SE_OUTER_FORCING and not an.expired():
            for s in _outer_forcing(an, level, keys):
                found += 1
                yield s
        if found:
            return


def _rule_parents(st: _Static, ps: _PState, waves: list, x: int, d: int,
                  on: int) -> tuple[int, ...]:
    """What SE calls a nested chain's rule parents: along one shortest chain (of the
    waves of :func:`se_reach`) to the fact (x, d, on), the candidates removed on the
    hypothetical grid ``ps`` (facts of its derivation) that make the chain's strong links
    strong (the other digits of a bivalue cell, the other places of a bilocal digit):
    :func:`_rule_facts` that ``ps`` derived."""
    parents = ps.parents
    return tuple(g for g in _rule_facts(st, st.cw, ps.cand, ps.cw, waves, x, d, on)
                 if g in parents)


def _true_source(a: list[int], x: int, d: int, n1: int,
                 peers_d: list[list[int]]) -> tuple[int, int] | None:
    """Where the false fact (x, d) of a wave comes from, walking a chain back: a true fact
    of the same wave (``a``: cells per digit), another digit of its cell or the digit in a
    peer (the lowest); None when there is neither (the chain's start)."""
    for e in range(1, n1):
        if e != d and a[e] >> x & 1:
            return (x, e)
    y = a[d] & peers_d[d][x]
    return None if not y else ((y & -y).bit_length() - 1, d)


def _rule_facts(st: _Static, cw0: list[int], cand: list[int], cw: list[int], waves: list,
                x: int, d: int, on: int) -> tuple[int, ...]:
    """Along one shortest chain (of the waves of :func:`se_reach` on the grid ``cand`` /
    ``cw``) to the fact (x, d, on), the candidates of the grid ``cw0`` (cells per digit)
    missing from ``cand`` / ``cw`` that make the chain's strong links strong (the other
    digits of a bivalue cell, the other places of a bilocal digit), as false facts, each
    once in the order found. The links are read from the grid where the chain needs them
    (no :class:`_SELinks` is built). The compiled scan gives the same
    (``techniques/_se_kernel.c``, ``rule_facts``)."""
    hm, peers_d = st.house_mask, st.peers_d
    cell_full = st.cell_full
    out: list[int] = []
    j = _wave_depth(waves, x, d, on)
    if not j:
        return ()
    j = (j - 1) // 2
    n1 = st.n + 1
    while True:
        if not on:
            nxt = _true_source(waves[j][0], x, d, n1, peers_d)
            if nxt is None:
                break
            x, d, on = nxt[0], nxt[1], 1
            continue
        if j == 0:
            break
        # a true fact of wave j: from a false one of wave j - 1 (a strong link)
        b = waves[j - 1][1]
        j -= 1
        k = cand[x]
        if k.bit_count() == 2 and b[(k & ~(1 << d)).bit_length() - 1] >> x & 1:
            e = (k & ~(1 << d)).bit_length() - 1
            out.extend(_fact(x, r, False) for r in range(1, n1)
                       if cw0[r] >> x & 1 and not k >> r & 1)
            x, d, on = x, e, 0
            continue
        # the other places of d in x's full houses where d has two places (_SELinks's
        # partner[d][x])
        cwd = cw[d]
        src = 0
        for h in cell_full[x]:
            pl = hm[h] & cwd
            if pl >> x & 1 and pl.bit_count() == 2:
                src |= pl
        src &= ~(1 << x) & b[d]
        if not src:
            break
        y = (src & -src).bit_length() - 1
        for h in cell_full[x]:
            if hm[h] >> y & 1 and (hm[h] & cwd).bit_count() == 2:
                out.extend(_fact(z, d, False) for z in iter_cells(hm[h] & cw0[d] & ~cwd))
                break
        x, on = y, 0
    return tuple(dict.fromkeys(out))
