"""Named techniques of German (and Dutch) whispers: neighbours far apart, and the polarity of
a whisper (its cells alternate low and high) read from the houses or tried as a hypothesis.

- ``whisper_neighbours``: neighbours on a whisper differ by its difference or more: a cell
  keeps the digits with such a partner next to it (no 5 on a German whisper). The rule
  propagation finds the same; this step names it, before it.
- ``whisper_polarity``: on a whisper of difference d with 2d >= n (German whispers: 5 on
  1-9) every cell is low (1..n-d) or high (d+1..n) and neighbours alternate, so the cells at
  even and odd positions form two classes, one low and one high. A class that cannot be low
  (or high) without leaving a house it touches unfillable (more cells than low digits ...)
  is the other one.
- ``polarity_chain``: a German whisper whose polarity is still open is given one polarity;
  the rules' own propagation carries it (thermos and arrows at its ends, other whispers,
  houses) and, if a rule fails or a house is left with more cells of one polarity than
  digits, the whisper has the other polarity. A hypothesis propagated until the rules break:
  the ladder tries it just before the forcing chains, and the setter report counts it with
  the forcing family.
- ``polarity_count``: the same hypothesis, read as a colour: the rules without the houses
  carry it to the whispers it reaches, then the houses are read once with those whispers'
  classes low or high: a house with more cells of one polarity than digits, or a count of
  a digit set (a box that keeps S out of one of its lines puts S on its band's other lines,
  which then hold S only once more each outside the box). No digit placed, no single
  followed: not counted with the forcing family.
"""
from __future__ import annotations

from itertools import permutations
from typing import Iterator, Sequence

from csp.bits import digits_of, iter_cells
from csp.matching import perfect_matching
from csp.step import Candidate, Step, digit_symbol
from techniques.analysis import Analysis
from techniques.registry import register

from .line_classes import _class_steps, _house_fill_ok
from .line_tables import FAMILY, Line, _digit_range, _elims, _names, _pattern, _value, line_tables


# -- whispers --------------------------------------------------------------------------------
@register("whisper_neighbours", "Whisper Neighbours", FAMILY)
def whisper_neighbours(an: Analysis, opts: dict) -> Iterator[Step]:
    """Neighbours on a whisper line differ by the line's difference or more: a cell keeps
    the digits with such a partner among its neighbours' candidates (on a German whisper 5
    has none at all). The rule propagation finds the same; this step names it, before it."""
    t = line_tables(an.puzzle)
    w = an.grid.namer
    for ln in t.of("whisper_pairs"):
        d = ln.data
        cells = ln.cells
        elims: list[Candidate] = []
        why = []
        for i, c in enumerate(cells):
            m = an.cand[c]
            if not m:
                continue
            keep = m
            nbs = []
            for j in (i - 1, i + 1):
                if 0 <= j < len(cells) and cells[j] != c:
                    nb = _value(an, cells[j])
                    ok = 0
                    for v in digits_of(m):
                        if any(abs(v - y) >= d for y in digits_of(nb)):
                            ok |= 1 << v
                    if m & ~ok:
                        nbs.append(f"{an.name(cells[j])} ({_digit_range(nb)})")
                    keep &= ok
            bad = m & ~keep
            if bad:
                elims.extend(Candidate(c, v) for v in digits_of(bad))
                why.append(f"{an.name(c)} next to {' and '.join(nbs)}")
        if elims:
            yield Step("whisper_neighbours", eliminations=tuple(elims), title="Whisper Neighbours",
                       namer=w, houses=(ln.name,), pattern=_pattern(an, cells),
                       note=f"{ln.name}: neighbours differ by {d} or more; {'; '.join(why)}")


@register("whisper_polarity", "Whisper Polarity", FAMILY)
def whisper_polarity(an: Analysis, opts: dict) -> Iterator[Step]:
    """German whispers alternate low (1-4) and high (6-9): the cells at odd and at even
    positions form two classes, one low and one high. If one class cannot be low (say five
    of its cells in one row, or a house with no room left for its low digits), it is
    high, and the other class low (any difference d with 2d >= n)."""
    yield from _class_steps(an, "whispers", "whisper_polarity", "Whisper Polarity")


def _open_assignments(an: Analysis, ln: Line, cand: Sequence[int]) -> list[tuple[int, ...]]:
    """The assignments (class i -> group sigma[i]) of a two-class line that every cell of
    each class still fits in ``cand``."""
    classes, masks, _ = ln.data
    out = []
    for sigma in permutations(range(len(masks)), len(classes)):
        if all(cand[c] & masks[g] for cl, g in zip(classes, sigma) for c in cl):
            out.append(sigma)
    return out


def _polarity_text(an: Analysis, ln: Line, sigma: tuple[int, ...]) -> str:
    classes, _, gnames = ln.data
    return ", ".join(f"{_names(an, cl)} {gnames[g]}" for cl, g in zip(classes, sigma))


def _ends_text(an: Analysis, ln: Line, sigma: tuple[int, ...]) -> str:
    """``r3c9 low``: the polarity of a line's first cell (its class's group)."""
    classes, _, gnames = ln.data
    first = ln.cells[0]
    g = next(g for cl, g in zip(classes, sigma) if first in cl)
    return f"({an.name(first)} {gnames[g]})"


@register("polarity_chain", "Polarity Chain", FAMILY)
def polarity_chain(an: Analysis, opts: dict) -> Iterator[Step]:
    """A German whisper (any difference d with 2d >= n) splits into two classes, one low and
    one high. Give a whisper whose polarity is still open one polarity (every cell of one
    class low, of the other high) and let the rules carry it: a thermo or an arrow at the
    end of the line makes the next whisper's end low or high, a house can hold only so many
    low digits, and so on around the grid (the rules' own propagation, no technique). If
    that breaks a rule, the whisper has the other polarity (the "high/low around the loop"
    argument of loop puzzles such as The Octagon).

    Sound: the hypothesis is a restriction of the candidates and the propagation only
    removes digits that no solution of the restricted state holds, so a contradiction
    refutes the hypothesis. It is trial over a group of cells (pencilmark's "WhatIf" kind of
    step), so it stands just before the forcing chains in the ladder and is counted with the
    forcing family in the setter report."""
    lines, base, opened = _open_whispers(an)
    if not lines:
        return
    engine = an.puzzle.engine(False)
    for ln in lines:
        alive = opened[ln]
        if len(alive) != 2:
            continue
        for sigma in alive:
            cand, failed = _hypothesis(ln, sigma, an.state.cand, engine)
            if failed is not None:
                reason = failed
            else:
                # a house with more cells of one polarity than digits (five high cells in a
                # row): no matching of its cells to different digits
                reason = next((f"{an.houses[h].name} cannot hold different digits"
                               for h in an.full if not perfect_matching(
                                   [cand[c] for c in iter_cells(an.house_mask[h])])), "")
                if not reason:
                    continue
            other, elims = _other_polarity(an, ln, alive, sigma)
            if not elims:
                continue
            # the polarities the rules carried to the other open whispers before failing
            # (``cand`` holds the propagation up to the failure)
            carried = "; ".join(f"{o.name} {_ends_text(an, o, s)}"
                                for o, s in _carried(ln, lines, opened, cand)[0])
            via = f" carry it to {carried} and" if carried else ""
            note = (f"{ln.name}: if {_polarity_text(an, ln, sigma)}, the rules{via} fail "
                    f"({reason}), so {_polarity_text(an, ln, other)}")
            yield _polarity_step(an, "polarity_chain", "Polarity Chain", ln, elims, note)
            break


def _open_whispers(an: Analysis
                   ) -> tuple[list[Line], list[int], dict[Line, list[tuple[int, ...]]]]:
    """The two-class whispers with open cells, the cells' values (candidates, or a placed
    digit's bit) and each whisper's polarities that still fit them."""
    t = line_tables(an.puzzle)
    lines = [ln for ln in t.of("whispers") if len(ln.data[1]) == 2
             and any(an.cand[c] for c in ln.cells)]
    base = [_value(an, c) for c in range(len(an.cand))]
    return lines, base, {ln: _open_assignments(an, ln, base) for ln in lines}


def _hypothesis(ln: Line, sigma: tuple[int, ...], start: Sequence[int], engine
                ) -> tuple[list[int], str | None]:
    """``start`` with whisper ``ln`` given polarity ``sigma``, propagated by ``engine``:
    the candidates reached, and the contradiction's message (None when there is none)."""
    from csp.events import Contradiction
    classes, masks, _ = ln.data
    cand = list(start)
    for cl, g in zip(classes, sigma):
        for c in cl:
            cand[c] &= masks[g]
    try:
        engine.propagate(cand, None, None)
    except Contradiction as exc:
        return cand, str(exc)
    return cand, None


def _other_polarity(an: Analysis, ln: Line, alive: Sequence[tuple[int, ...]],
                    sigma: tuple[int, ...]) -> tuple[tuple[int, ...], list[Candidate]]:
    """Whisper ``ln``'s polarity other than ``sigma`` (of its two ``alive``) and the
    candidates of its cells that polarity removes."""
    classes, masks, _ = ln.data
    other = next(s for s in alive if s != sigma)
    keep = {c: masks[g] for cl, g in zip(classes, other) for c in cl}
    cells = list(ln.cells)
    return other, _elims(an, cells, [keep[c] for c in cells])


def _polarity_step(an: Analysis, name: str, title: str, ln: Line, elims: list[Candidate],
                   note: str) -> Step:
    """The step giving whisper ``ln`` its other polarity (``elims``), explained by ``note``."""
    return Step(name, eliminations=tuple(sorted(elims)), title=title, namer=an.grid.namer,
                houses=(ln.name,), pattern=_pattern(an, ln.cells), note=note)


def _carried(ln: Line, lines: Sequence[Line], opened: dict, cand: Sequence[int]
             ) -> tuple[list[tuple[Line, tuple[int, ...]]], bool]:
    """The other open whispers that ``cand`` leaves one polarity, with it, and whether
    ``cand`` leaves one of them none."""
    out = []
    broken = False
    for o in lines:
        if o is ln or len(opened[o]) != 2:
            continue
        left = [s for s in opened[o] if all(
            cand[c] & o.data[1][g] for cl, g in zip(o.data[0], s) for c in cl)]
        if len(left) == 1:
            out.append((o, left[0]))
        elif not left:
            broken = True
    return out, broken


def _box_counts(an: Analysis) -> list[tuple[int, str, tuple[int, ...], str, int, str, int]]:
    """Per box V and each of its rows (columns) Z, with the other rows (columns) of its band
    (stack): ``(V mask, V name, Z's cells in V, Z name, the other lines' cells outside V,
    their names, how many times each digit stands there once V holds it)``, for the grids
    whose boxes, rows and columns are all full houses. Static."""
    def build():
        g = an.grid
        if not g.box_shape:
            return []
        bh, bw = g.box_shape
        n = an.n
        by_mask = {an.house_mask[h]: an.houses[h].name for h in an.full}
        rows = [sum(1 << (r * n + c) for c in range(n)) for r in range(n)]
        cols = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
        if not all(m in by_mask for m in rows + cols):
            return []
        out = []
        for r0 in range(0, n, bh):
            for c0 in range(0, n, bw):
                box = sum(1 << (r * n + c) for r in range(r0, r0 + bh)
                          for c in range(c0, c0 + bw))
                if box not in by_mask:
                    continue
                for lines in (rows[r0:r0 + bh], cols[c0:c0 + bw]):
                    for z in lines:
                        others = [m for m in lines if m != z]
                        rest = 0
                        for m in others:
                            rest |= m
                        out.append((box, by_mask[box], tuple(iter_cells(z & box)), by_mask[z],
                                    rest & ~box, " and ".join(by_mask[m] for m in others),
                                    len(others) - 1))
        return out
    return an.links_memo("polarity_box_counts", build)


def _overfilled(an: Analysis, vals: Sequence[int]) -> str:
    """Why the cell masks ``vals`` (candidates, or a placed digit's bit) cannot fill the
    houses, by counting a digit set: box V keeps the digits S out of its line Z, so V puts
    all of S on the other lines of its band, and those lines (each a full house) hold each
    digit of S once more outside V; more cells there that must hold a digit of S than that
    is impossible. "" when the count fits everywhere."""
    full = ((1 << an.n) - 1) << 1
    for box, bname, z_in, zname, out, onames, k in _box_counts(an):
        held = 0
        for c in z_in:
            held |= vals[c]
        s = full & ~held
        if not s or not k:
            continue
        forced = [c for c in iter_cells(out) if not vals[c] & ~s]
        limit = k * s.bit_count()
        if len(forced) > limit:
            ds = "".join(digit_symbol(d) for d in digits_of(s))
            return (f"{onames} would hold {ds} in {len(forced)} cells outside {bname} "
                    f"({_names(an, forced)}), room for {limit} only ({bname} cannot hold "
                    f"{ds} in {zname}, so it takes them from {onames})")
    return ""


@register("polarity_count", "Polarity Count", FAMILY)
def polarity_count(an: Analysis, opts: dict) -> Iterator[Step]:
    """Polarity colouring of German whispers (any difference d with 2d >= n), with a count.
    A whisper's polarity (which class is low, which high) is a colour; a thermo or an arrow
    between two whispers links their colours ("a high end makes the thermo's tip high, so
    the next whisper's end is high"): the rules without the houses carry one whisper's
    colour to the others. If the whispers' classes so coloured overfill the houses, the
    colour is wrong: a house with more low cells than low digits, or (the count) box V
    keeps a digit set S out of its line Z, so V puts all of S on the other lines of its
    band, which leaves those lines room for S just once more each outside V ("The
    Octagon": low whisper ends would make eight middle cells high, four of them 7-9 in
    columns 4 and 6 outside box 5, whose column-5 arrow keeps 7-9 out; three fit).

    Unlike :func:`polarity_chain`, the houses are read once, after the colours are
    carried: no digit is placed and no hidden single followed, so it stands before the
    forcing family and is not counted with it. A colour that the rules alone refute is left
    to :func:`polarity_chain`.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from variants.lines import whispers
    >>> from variants.inequality import thermo
    >>> from techniques import StepSolver
    >>> p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2", "r1c3"]),
    ...                   thermo(["r1c3", "r2c3", "r3c3"]), whispers(["r3c3", "r3c4", "r3c5"]))
    >>> st = p.propagate()
    >>> for c in range(6, 10):                       # row 3 has four high cells already
    ...     st.cand[p.cell(f"r3c{c}")] &= 0b1111000000
    >>> [s.explain(2) for s in StepSolver().find_all(st, "polarity_count")][0]
    ... # doctest: +NORMALIZE_WHITESPACE
    'Polarity Count: German whispers r1c1: if r1c1,r1c3 high, r1c2 low, the rules carry it
     to German whispers r3c3 (r3c3 high); then row 3 cannot hold different digits; so
     r1c1,r1c3 low, r1c2 high => r1c1<>6789, r1c2<>12, r1c3<>67'

    The thermo makes r3c3 high when r1c3 is, so r3c5 too: six high cells in row 3.
    """
    from techniques.rules import rule_engine
    lines, base, opened = _open_whispers(an)
    engine = rule_engine(an.puzzle)
    if not lines or engine is None:
        return
    for ln in lines:
        alive = opened[ln]
        if len(alive) != 2:
            continue
        for sigma in alive:
            cand, failed = _hypothesis(ln, sigma, base, engine)
            if failed is not None:
                continue            # the rules alone refute it: polarity_chain's business
            # the colours carried: open whispers left with one polarity
            carried_to, broken = _carried(ln, lines, opened, cand)
            if broken:
                continue
            fixed = [(ln, sigma)] + carried_to
            # the houses read once with the whispers' classes so coloured
            vals = list(base)
            touched = 0
            for o, s in fixed:
                for cl, g in zip(o.data[0], s):
                    for c in cl:
                        if an.cand[c]:
                            vals[c] &= o.data[1][g]
                            touched |= 1 << c
            restricted = {c: vals[c] for c in iter_cells(touched)}
            reason = next((f"{an.houses[h].name} cannot hold different digits"
                           for h in an.full if an.house_mask[h] & touched
                           and not _house_fill_ok(an, h, restricted)), "")
            if not reason:
                reason = _overfilled(an, vals)
            if not reason:
                continue
            other, elims = _other_polarity(an, ln, alive, sigma)
            if not elims:
                continue
            carried = ", ".join(f"{o.name} {_ends_text(an, o, s)}" for o, s in fixed[1:])
            via = f"the rules carry it to {carried}; then " if carried else ""
            note = (f"{ln.name}: if {_polarity_text(an, ln, sigma)}, {via}{reason}; so "
                    f"{_polarity_text(an, ln, other)}")
            yield _polarity_step(an, "polarity_count", "Polarity Count", ln, elims, note)
            break
