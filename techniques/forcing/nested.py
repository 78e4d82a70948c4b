"""Nested forcing nets (not a HoDoKu technique): inside an assumption, the net
contradictions of the next depth are applied until the assumption itself breaks."""
from __future__ import annotations

from typing import Iterator, Sequence

from csp.bits import digits_of
from csp.budget import Budget
from csp.step import Candidate, Step

from ..analysis import Analysis, iter_cells
from ..registry import Option, Options, register
from .engine import _PState, _Static, _cell, _digit, _fact, _propagate, _result, _static, fact_text
from .explain import _complexity, _contra_text, _support
from .memory import _quiet, _ruled, _untried_first
from .scans import _NET, _candidates, _inter

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
LEVEL2_CAP = 120
LEVEL2_BUDGET = 3000
#: ... and per state (the whole scan; about 1-2 s of CPU)
LEVEL_SEARCHES = 120_000
#: the scan stops once it has this many level-2 steps (the rating takes the easiest of
#: them; most of a full scan's time goes to the candidates that do not fail)
LEVEL_FIRST = 4


def se_level2(an: Analysis, c: int, d: int, level: int = 2,
              budget: list[int] | None = None) -> tuple[int, int, int] | None:
    """Whether ``c`` = ``d`` fails under Sudoku Explainer's nesting level 2 ("DFC +
    forcing chains"), as far as this model goes: the assumption is propagated as a net
    with locked candidates (SE's dynamic chains with its level-1 rules), and whenever that
    stalls, every candidate of the hypothetical grid that a *static* unary forcing chain
    (:func:`static_chain`, at most :data:`LEVEL2_CAP` facts) proves false there is removed;
    until a contradiction or a fixpoint. Returns (the contradiction's own nodes, the summed
    lengths of the inner chains it rests on, the level those need: 2 when they are all
    unary, 3 when one is a contradiction, 1 when none is used) when it fails, None when it does not or when
    the chain searches run out (``budget``: [searches left], decremented; default
    :data:`LEVEL2_BUDGET`). ``level`` 3: static contradictions count too
    (a fact and its opposite, SE's level-3 "multiple forcing chains" in their
    contradiction form). Used by the SE rating only (not a solver step)."""
    st = _static(an)
    f = _fact(c, d, True)
    ps = _result(an, f, True, True).copy()
    if ps.contra is not None:
        return _complexity(ps, ps.contra[1])["nodes"], 0, 1
    sizes: dict[int, tuple[int, int]] = {}
    left = [LEVEL2_BUDGET] if budget is None else budget
    #: per candidate index that failed to give a chain: the cells its search read
    reads: dict[int, int] = {}
    seen = [0]
    changed = -1                  # the cells changed in the last round (all at first)
    while changed and ps.contra is None:
        before = ps.cand[:]
        for x in sorted(iter_cells(st.unsolved & ~ps.on),
                        key=lambda x: (ps.cand[x].bit_count(), x)):
            for e in digits_of(ps.cand[x]):
                if ps.on >> x & 1 or not ps.cand[x] >> e & 1:
                    continue
                k = x << 5 | e
                if not reads.get(k, -1) & changed:
                    continue          # it read no cell that changed: the same answer
                if left[0] <= 0:
                    return None
                left[0] -= 1
                g = _fact(x, e, True)
                kind, n = static_chain(st, ps.cand, ps.cw, g, LEVEL2_CAP, level < 3, seen)
                if kind > level:
                    reads[k] = seen[0]
                    continue
                sizes[g ^ 1] = (n, kind)
                _propagate(st, ps, [(g ^ 1, f"{_NESTED}: {fact_text(g, st.namer)} fails")],
                           True, True)
                if ps.contra is not None:
                    break
            if ps.contra is not None:
                break
        changed = 0
        for x, (a, b) in enumerate(zip(before, ps.cand)):
            if a != b:
                changed |= 1 << x
    if ps.contra is None:
        return None
    used = [sizes[g] for g in _nested_used(ps, ps.contra[1])]
    return (_complexity(ps, ps.contra[1])["nodes"], sum(n for n, _ in used),
            max((k for _, k in used), default=1))


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
    w = an.grid.namer
    left = [searches]
    level2 = 0
    for c, d in _candidates(an):
        if an.expired() or left[0] <= 0 or level2 >= LEVEL_FIRST:
            return            # (the rating goes on to the next level)
        r = se_level2(an, c, d, 3, left)
        if r is None:
            continue
        level = max(2, r[2])
        level2 += level == 2
        cand = (Candidate(c, d),)
        yield Step("forcing_net_nested", eliminations=cand, pattern=cand, digits=(d,),
                   title="Nested Forcing Net", namer=w,
                   note=f"{fact_text(_fact(c, d, True), w)} fails with SE level-{level} "
                        "rules inside",
                   extra={"se_level": level, "nodes": r[0], "nested_nodes": r[1],
                          "depth": 2})
