"""The scans shared by forcing chains and nets: every assumption tried for a
contradiction, and every cell, house and candidate tried for a verity (facts common to
all its branches); with the options they read."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step, digit_symbol

from ..analysis import Analysis, iter_cells
from ..registry import Option, Options
from .engine import _PState, _Static, _cell, _digit, _fact, _resolver, _static, fact_text
from .explain import _complexity, _contra_text, _links, _size, path_text
from .memory import _kept, _quiet, _ruled, _untried_first

#: the options the plain chains and nets read (each technique declares its own part)
CONTRADICTION_OPTIONS = Options(
    shortest=Option(False, "order all steps by the size of their explanation (a full scan)",
                    bool))
VERITY_OPTIONS = CONTRADICTION_OPTIONS.with_(
    candidate_verity=Option(True, "also the true/false form of one candidate", bool),
    max_branches=Option(None, "skip cells / houses with more branches (None: n)", int))
_NET = Option(False, "the nets' propagation includes locked candidates", bool)
FORCING_OPTIONS = VERITY_OPTIONS.with_(intersections=_NET)


#: a flag in a run's ``Analysis.run_memo`` (not an option: the SE rating's loop sets it,
#: and makes what it keeps): the scans leave a step's note and links to be made later, in
#: ``Step.extra[NOTE_LATER]`` (a function giving them as a dict of Step fields), since a
#: rating that compares many steps by their complexity keeps one; :func:`with_note`
#: makes them
NOTES_LATER = "forcing_notes_later"
#: the key of that function in ``Step.extra``
NOTE_LATER = "_note"
#: a flag in a run's ``Analysis.run_memo`` (the SE rating's loop sets it): the net
#: contradiction scans propagate every assumption instead of skipping those the run's kept
#: propagations show still quiet (:class:`memory._Kept`). In the rating the check cost
#: more than the propagations it saved (the verity scans that follow propagate most of the
#: same assumptions anyway): 6-7 % of its CPU. The steps are the same either way.
NO_KEPT = "forcing_no_kept"


def with_note(step: Step) -> Step:
    """``step`` with the note and links a scan left for later (:data:`NOTES_LATER`) made,
    the same an eager scan gives; ``step`` itself when it has none pending."""
    make = step.extra.get(NOTE_LATER)
    if make is None:
        return step
    extra = {k: v for k, v in step.extra.items() if k != NOTE_LATER}
    return replace(step, **make(), extra=extra)


def _inter(opts: dict, net: bool) -> bool:
    """Whether a net's propagation includes locked candidates (option ``intersections``)."""
    return net and bool(FORCING_OPTIONS.read(opts, "intersections"))


def _candidates(an: Analysis) -> list[tuple[int, int]]:
    """Unsolved candidates, cells with fewer candidates first (short chains first)."""
    cells = sorted(iter_cells(an.unsolved), key=lambda c: (an.cand[c].bit_count(), c))
    return [(c, d) for c in cells for d in digits_of(an.cand[c])]


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
    w = st.namer
    tick = an.budget.poll           # (an.tick without its call)
    inter = _inter(opts, net)
    facts = [_fact(c, d, on) for c, d in _candidates(an) for on in (True, False)]
    quiet: set[int] = set()
    # (a full scan sorts its steps anyway; on grids without other rules the hint cost more
    # than it saved: top95 classic 7.6 -> 9.8 s, so they keep the plain order)
    if not FORCING_OPTIONS.read(opts, "shortest") and _ruled(st):
        quiet = _quiet(an, ("contradiction", net))
        facts = _untried_first(facts, quiet)
    kept = (_kept(an, inter) if net and not _ruled(st) and not an.run_memo.get(NO_KEPT)
            else None)
    result = _resolver(an, net, inter)
    later = bool(an.run_memo.get(NOTES_LATER))
    # (a step's size only orders a full scan's steps)
    sized = bool(FORCING_OPTIONS.read(opts, "shortest"))
    scand, bilocal = st.cand, st.bilocal
    for f in facts:
        if tick(16):        # (the throttled clock: a propagation each round at most)
            return
        c, d, on = f >> 6, (f >> 1) & 31, f & 1       # (_cell, _digit)
        if not on and not net and scand[c].bit_count() > 2 and (c << 5 | d) not in bilocal:
            continue   # no strong link: a chain cannot start from c<>d (st.chain_from_off)
        if kept is not None and kept.still_quiet(st, f, inter):
            continue
        ps = result(f)
        if ps.contra is None:
            quiet.add(f)
            if kept is not None:
                kept.keep(f, ps)
            continue
        cand = (Candidate(c, d),)
        fs = ps.contra[1]
        extra = _complexity(ps, fs)

        def details(f: int = f, ps: _PState = ps, fs: tuple = fs) -> dict:
            return {"note": f"{fact_text(f, w)}: {_contra_text(ps, w)}",
                    "links": _links(ps, fs[0], w) if fs and fs[0] in ps.parents else ()}

        if later:
            note, links = "", ()
            extra[NOTE_LATER] = details
        else:
            d_ = details()
            note, links = d_["note"], d_["links"]
        yield _size(ps, fs) if sized else 0, Step(
            tech, eliminations=cand if on else (), placements=() if on else cand,
            pattern=cand, digits=(d,), links=links, title=title, note=note, namer=w,
            extra=extra)


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
                 results: list[_PState], later: bool = False,
                 sized: bool = True) -> tuple[int, Step] | None:
    """A verity step of ``results`` (the branches), or None; ``later``: its note and
    links left for later (:data:`NOTES_LATER`); ``sized``: its size computed (else 0:
    only a full scan orders its steps by size)."""
    st = _static(an)
    trues, falses = _common(st, results)
    if not trues and not falses:
        return None
    w = st.namer
    key = trues[0] if trues else falses[0]
    more = len(trues) + len(falses) - 1

    def details() -> dict:
        chains = " | ".join(path_text(r, key, w) for r in results)
        return {"note": f"{what}: {chains}" + (f" (and {more} more)" if more > 0 else ""),
                "links": _links(results[0], key, w)}

    if later:
        note, links = "", ()
    else:
        d_ = details()
        note, links = d_["note"], d_["links"]
    pl = tuple(Candidate(_cell(f), _digit(f)) for f in trues)
    el = tuple(Candidate(_cell(f), _digit(f)) for f in falses)
    digits = tuple(sorted({x.digit for x in pl + el}))
    pattern = tuple(Candidate(_cell(f), _digit(f)) for f in premises)
    size = sum(_size(r, [key]) for r in results) - 10 * len(pl) if sized else 0
    info = [_complexity(r, [key]) for r in results]
    extra = {"nodes": sum(i["nodes"] for i in info),
             "digits": sorted({d for i in info for d in i["digits"]})}
    if later:
        extra[NOTE_LATER] = details
    return size, Step(tech, placements=pl, eliminations=el, pattern=pattern, digits=digits,
                      links=links, title=title, note=note, namer=w, extra=extra)


def _verities(an: Analysis, opts: dict, net: bool, tech: str, title: str) -> Iterator[Step]:
    return _shortest(_verities_sized(an, opts, net, tech, title),
                     bool(FORCING_OPTIONS.read(opts, "shortest")))


def _verities_sized(an: Analysis, opts: dict, net: bool, tech: str,
                    title: str) -> Iterator[tuple[int, Step]]:
    st = _static(an)
    maxb = FORCING_OPTIONS.read(opts, "max_branches")
    maxb = an.n if maxb is None else int(maxb)
    inter = _inter(opts, net)
    result = _resolver(an, net, inter)
    later = bool(an.run_memo.get(NOTES_LATER))
    sized = bool(FORCING_OPTIONS.read(opts, "shortest"))
    tick = an.budget.poll           # (an.tick without its call)
    # cells
    for c in sorted(iter_cells(an.unsolved), key=lambda c: (an.cand[c].bit_count(), c)):
        if tick(32):        # (the throttled clock: a few propagations each round)
            return
        ds = digits_of(an.cand[c])
        if len(ds) < 2 or len(ds) > maxb:
            continue
        facts = [_fact(c, d, True) for d in ds]
        rs = [result(f) for f in facts]
        if any(r.contra for r in rs):
            continue
        s = _verity_step(an, tech, title, f"cell {an.name(c)}", facts, rs, later, sized)
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
            s = _verity_step(an, tech, title, what, facts, rs, later, sized)
            if s is not None:
                yield s
    # a candidate true and false
    if FORCING_OPTIONS.read(opts, "candidate_verity"):
        for c, d in _candidates(an):
            if tick(16):
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
            s = _verity_step(an, tech, title, what, [f], rs, later, sized)
            if s is not None:
                yield s
