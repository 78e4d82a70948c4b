"""Position classes of a line, shared by the whisper polarity (two classes, low and high) and
the entropic and modular groups (three classes, three digit groups): which class can take
which group, checked against the houses the line touches, and jointly for lines of one kind
that share a house. No technique here; :mod:`variants.whisper_logic` and
:mod:`variants.entropic_modular_logic` register the steps.
"""
from __future__ import annotations

from itertools import permutations, product
from typing import Iterator

from csp.bits import iter_cells
from csp.matching import perfect_matching
from csp.step import Step
from techniques.analysis import Analysis

from .line_tables import Line, LineTables, _elims, _names, _pattern, _value, line_tables


# -- line classes: whisper polarity, entropic and modular groups ----------------------------
def _house_fill_ok(an: Analysis, h: int, restricted: dict[int, int]) -> bool:
    """Can house ``h`` still take different digits with ``restricted`` cell masks?"""
    doms = [restricted.get(c, an.cand[c]) for c in iter_cells(an.house_mask[h] & an.unsolved)]
    if not doms:
        return True
    placed = 0
    for c in iter_cells(an.house_mask[h] & ~an.unsolved):
        placed |= 1 << an.state.placed[c]
    doms = [m & ~placed for m in doms]
    if 0 in doms:
        return False
    return perfect_matching(doms)


def _class_analysis(an: Analysis, ln: Line, use_houses: bool):
    """(classes, group masks, group names, surviving assignments, rejected assignments
    with the house that rejects them); an assignment maps class i to group sigma[i]."""
    classes, masks, gnames = ln.data
    k = len(classes)
    vals = {c: _value(an, c) for c in ln.cells}
    touched = []
    if use_houses:
        m = 0
        for c in ln.cells:
            m |= 1 << c
        touched = [h for h, hm in enumerate(an.house_mask) if hm & m and hm & an.unsolved]
    alive, dead = [], []
    for sigma in permutations(range(len(masks)), k):
        ok = True
        restricted: dict[int, int] = {}
        for cl, gi in zip(classes, sigma):
            for c in cl:
                v = vals[c] & masks[gi]
                if not v:
                    ok = False
                    break
                if an.cand[c]:
                    restricted[c] = v
            if not ok:
                break
        if not ok:
            dead.append((sigma, None))
            continue
        bad = next((h for h in touched if not _house_fill_ok(an, h, restricted)), None)
        if bad is not None:
            dead.append((sigma, bad))
            continue
        alive.append(sigma)
    return classes, masks, gnames, alive, dead


def _line_classes(an: Analysis, t: LineTables, ln: Line):
    """The class analysis of one line (cached on the candidates of the houses it touches)."""
    touched = t.touched.get(ln.cells)
    if touched is None:
        m = 0
        for c in ln.cells:
            m |= 1 << c
        hm = 0
        for h in an.house_mask:
            if h & m:
                hm |= h
        touched = t.touched[ln.cells] = tuple(iter_cells(hm))
    key = ("classes", ln.cells, tuple([_value(an, c) for c in touched]))
    res = t.memo.get(key)
    if res is None:
        res = t.remember(key, _class_analysis(an, ln, True))
    return res


def _class_step(an: Analysis, ln: Line, res, alive, name: str, title: str,
                why: list[str]) -> Step | None:
    """The step keeping, on each class of ``ln``, the groups of the ``alive`` assignments."""
    classes, masks, gnames, _, _ = res
    keep_of: dict[int, int] = {}
    for cl_i, cl in enumerate(classes):
        m = 0
        for sigma in alive:
            m |= masks[sigma[cl_i]]
        for c in cl:
            keep_of[c] = m
    cells = list(ln.cells)
    elims = _elims(an, cells, [keep_of.get(c, -1) for c in cells])
    if not elims:
        return None
    parts = []
    for cl_i, cl in enumerate(classes):
        gs = sorted({sigma[cl_i] for sigma in alive})
        parts.append(f"{_names(an, cl)}: {'/'.join(gnames[g] for g in gs)}")
    note = f"{ln.name}: classes " + "; ".join(parts)
    if why:
        note += " (" + "; ".join(why[:2]) + (" ..." if len(why) > 2 else "") + ")"
    return Step(name, eliminations=tuple(sorted(elims)), title=title, namer=an.grid.namer,
                houses=(ln.name,), pattern=_pattern(an, ln.cells), note=note)


#: at most this many joint assignments of the lines crossing one house are tried
_JOINT_MAX = 1000


def _class_steps(an: Analysis, kind: str, name: str, title: str) -> Iterator[Step]:
    t = line_tables(an.puzzle)
    lines = [ln for ln in t.of(kind) if any(an.cand[c] for c in ln.cells)]
    results = {}
    for ln in lines:
        res = results[ln] = _line_classes(an, t, ln)
        classes, masks, gnames, alive, dead = res
        if not alive:
            continue            # no assignment works: a contradiction
        why = [", ".join(f"{an.name(cl[0])}'s class {gnames[g]}" for cl, g in zip(classes, sigma))
               + f" leaves {an.houses[h].name} unfillable" for sigma, h in dead if h is not None]
        step = _class_step(an, ln, res, alive, name, title, why)
        if step is not None:
            yield step
    # lines of this kind that share a house: their assignments together must fill it
    if len(lines) < 2:
        return
    for h in an.full:
        hm = an.house_mask[h]
        if not hm & an.unsolved:
            continue
        here = [ln for ln in lines if results[ln][3] and any(hm >> c & 1 for c in ln.cells)]
        if len(here) < 2:
            continue
        size = 1
        for ln in here:
            size *= len(results[ln][3])
        if size > _JOINT_MAX or size == 1:
            continue
        used: list[set] = [set() for _ in here]
        for combo in product(*(results[ln][3] for ln in here)):
            restricted: dict[int, int] = {}
            ok = True
            for ln, sigma in zip(here, combo):
                classes, masks = results[ln][0], results[ln][1]
                for cl, g in zip(classes, sigma):
                    for c in cl:
                        if hm >> c & 1 and an.cand[c]:
                            restricted[c] = restricted.get(c, an.cand[c]) & masks[g]
                            if not restricted[c]:
                                ok = False
            if ok and _house_fill_ok(an, h, restricted):
                for u, sigma in zip(used, combo):
                    u.add(sigma)
        for ln, u in zip(here, used):
            alive = results[ln][3]
            if not u or len(u) == len(alive):
                continue
            others = ", ".join(o.name for o in here if o is not ln)
            step = _class_step(an, ln, results[ln], sorted(u), name, title,
                               [f"with {others} in {an.houses[h].name}: the other "
                                "assignments leave it unfillable"])
            if step is not None:
                yield step
