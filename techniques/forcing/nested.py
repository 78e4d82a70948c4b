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
                inner = "; ".join(f"{fact_text(g, w)} fails ({t})" for g, t, _, _ in used)
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
