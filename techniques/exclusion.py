"""Exclusions through the rules' links: a candidate that would leave a cell without a digit,
or a house without a place for a digit, at once.

Variant rules link candidates of different digits (a whisper, a white dot, a renban, a
2-cell cage, an entropic line ...): assuming r4c1=4 removes, in one step, every candidate
weakly linked to it. When those include every candidate of another cell, or every place of
a digit in a full house, the assumption is impossible:

- ``cell_exclusion``: (a, v) sees every candidate of a cell b, so a is not v ("r4c1=4 would
  leave r4c2 without a digit: 1-3 through the entropic line, 4 through the row ...");
- ``house_exclusion``: (a, v) sees every place of a digit d in a full house (its own cell
  among them; for d = v through links other than the houses, such as a knight's move), so a
  is not v ("r1c3=5 would leave row 1 without a 4");
- ``rule_exclusion``: with the candidates (a, v) sees removed, one of the puzzle's rules
  (read alone, once) has no way left to be satisfied ("r7c7=6 would leave the white dot
  r6c7-r6c8 without a consecutive pair").

Both are one link deep, like a pointing pair: no chain, no assumption followed further. With
houses only (classic sudoku) they say nothing that singles and locked candidates do not, so
they return at once on puzzles without links between different digits.

>>> from csp import Puzzle, Grid
>>> from techniques import StepSolver
>>> p = Puzzle(Grid(4)).add_grid_houses().add_not_abs_diff("r1c1", "r1c2")
>>> st = p.initial_state()
>>> st.cand[1] = 0b01100          # r1c2 is 2 or 3: r1c1=2 sees r1c2=3 and r1c2=2 ...
>>> [s.explain(2) for s in StepSolver().find_all(st, "cell_exclusion")]
['Cell Exclusion: r1c1=2 would leave r1c2 without a digit (r1c2: 23) => r1c1<>2', 'Cell Exclusion: r1c1=3 would leave r1c2 without a digit (r1c2: 23) => r1c1<>3']
"""
from __future__ import annotations

from typing import Iterator

from csp.events import Contradiction
from csp.propagator import Context
from csp.step import Candidate, Step, digit_symbol

from .analysis import Analysis, iter_cells
from .registry import register
from .rules import _rule_engine
from .sets import house_placed

FAMILY = "exclusion"


def _cross_masks(an: Analysis) -> dict[tuple[int, int], list[int]]:
    """(cell, digit) -> per digit v, the cells a whose (a, v) is linked to (cell, digit)
    through a rule (different digits; the same digit goes through ``peers_d``)."""
    def build() -> dict[tuple[int, int], list[int]]:
        n = an.n
        out: dict[tuple[int, int], list[int]] = {}
        for (c, d), others in an.links.cross.items():
            row = out.get((c, d))
            if row is None:
                row = out[(c, d)] = [0] * (n + 1)
            for c2, d2 in others:
                if c2 != c:
                    row[d2] |= 1 << c2
        return out
    return an.links_memo("exclusion_cross", build)


def _digits(mask: int) -> str:
    return "".join(digit_symbol(d) for d in range(1, mask.bit_length()) if mask >> d & 1)


@register("cell_exclusion", "Cell Exclusion", FAMILY)
def cell_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate weakly linked to every candidate of another cell is false: it would leave
    that cell without a digit."""
    if not an.links.cross:
        return
    cross = _cross_masks(an)
    n = an.n
    cand, cw = an.cand, an.cells_with
    peers_d = an.links.peers_d
    zero = [0] * (n + 1)
    for b in iter_cells(an.unsolved):
        cb = cand[b]
        digits = [d for d in range(1, n + 1) if cb >> d & 1]
        rows = [cross.get((b, d), zero) for d in digits]
        for v in range(1, n + 1):
            x = cw[v] & ~(1 << b)
            for d, row in zip(digits, rows):
                x &= peers_d[v][b] if d == v else row[v]
                if not x:
                    break
            if not x:
                continue
            for a in iter_cells(x):
                yield Step("cell_exclusion", eliminations=(Candidate(a, v),),
                           title="Cell Exclusion", width=an.grid.namer,
                           pattern=tuple(Candidate(b, d) for d in digits),
                           digits=(v,),
                           note=f"{an.name(a)}={digit_symbol(v)} would leave {an.name(b)} "
                                f"without a digit ({an.name(b)}: {_digits(cb)})")


@register("house_exclusion", "House Exclusion", FAMILY)
def house_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate weakly linked to every place of a digit in a full house (its own cell
    among them) is false: it would leave the house without that digit."""
    links = an.links
    # same-digit links beyond the houses (anti-knight, anti-king, ...)?
    uniform = an.links_memo("exclusion_same_digit_houses_only", lambda: all(
        links.peers_d[d] == links.house_peers for d in range(1, an.n + 1)))
    if not links.cross and uniform:
        return
    cross = _cross_masks(an)
    n = an.n
    cw = an.cells_with
    zero = [0] * (n + 1)
    done = an.memo("house_placed_digits", lambda: house_placed(an))
    for h in an.full:
        hm = an.house_mask[h]
        for d in range(1, n + 1):
            if done[h] >> d & 1:
                continue
            peers_d = an.links.peers_d[d]
            places = hm & cw[d]
            if not places:
                continue
            cells = list(iter_cells(places))
            rows = [cross.get((s, d), zero) for s in cells]
            for v in range(1, n + 1):
                if v == d:
                    # the digit's own places: through the houses that is locked candidates
                    # (earlier in the ladder); other same-digit links (anti-knight, ...) too
                    if uniform:
                        continue
                    x = cw[d] & ~places
                    for s in cells:
                        x &= peers_d[s]
                        if not x:
                            break
                else:
                    x = cw[v]
                    for s, row in zip(cells, rows):
                        x &= row[v] | (1 << s)
                        if not x:
                            break
                if not x:
                    continue
                for a in iter_cells(x):
                    yield Step("house_exclusion", eliminations=(Candidate(a, v),),
                               title="House Exclusion", width=an.grid.namer,
                               houses=(an.houses[h].name,), digits=(d,),
                               pattern=tuple(Candidate(s, d) for s in cells),
                               note=f"{an.name(a)}={digit_symbol(v)} would leave "
                                    f"{an.houses[h].name} without a {digit_symbol(d)} "
                                    f"({','.join(an.name(s) for s in cells)})")


@register("rule_exclusion", "Rule Exclusion", FAMILY)
def rule_exclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate whose direct consequences (the candidates it sees, removed) leave one of
    the puzzle's rules -- a dot, a line, a cage, an arrow -- with no way to be satisfied is
    false: one rule read once, no chain ("r7c7=6 would leave the white dot r6c7-r6c8 no
    consecutive pair")."""
    eng = _rule_engine(an.puzzle)
    if eng is None:
        return
    max_scope = opts.get("max_scope", 12)
    st = an.state
    base = [m if not st.placed[c] else 1 << st.placed[c] for c, m in enumerate(st.cand)]
    cand = an.cand
    found: dict[tuple[int, int], str] = {}
    for i, p in enumerate(eng.props):
        if len(p.scope) > max_scope:
            continue
        # which candidates break the rule depends on its own cells' candidates only
        key = ("rule_exclusion", i, tuple(base[c] for c in p.scope))
        for a, v in an.shared_memo(key, lambda p=p, i=i: _breakers(an, eng, i, base)):
            if cand[a] >> v & 1 and (a, v) not in found:
                found[(a, v)] = p.name
    for (a, v), name in sorted(found.items()):
        p = next(q for q in eng.props if q.name == name)
        yield Step("rule_exclusion", eliminations=(Candidate(a, v),), title="Rule Exclusion",
                   width=an.grid.namer, houses=(name,), digits=(v,),
                   pattern=tuple(Candidate(x, d) for x in p.scope for d in range(1, an.n + 1)
                                 if cand[x] >> d & 1),
                   note=f"{an.name(a)}={digit_symbol(v)} would leave {name} without a "
                        f"solution")


def _breakers(an: Analysis, eng, i: int, base: list[int]) -> tuple[tuple[int, int], ...]:
    """The candidates (a, v) whose direct consequences on rule ``i``'s cells -- the
    candidates there that (a, v) sees, removed -- leave the rule without a solution."""
    p = eng.props[i]
    out = []
    for (a, v), rem in _reach(an, eng, i):
        work = base[:]
        hit = False
        for c, m in rem.items():
            if work[c] & m:
                hit = True
                work[c] &= ~m
                if not work[c]:
                    break        # a cell of the rule left empty: cell exclusion's business
        else:
            if not hit:
                continue
            ctx = Context(work)
            ctx.source = p.name
            try:
                p.propagate(ctx)
            except Contradiction:
                out.append((a, v))
    return tuple(out)


def _reach(an: Analysis, eng, i: int) -> list[tuple[tuple[int, int], dict[int, int]]]:
    """Every candidate (a, v) that sees a candidate of rule ``i``'s cells (or is one of
    them), with what it removes from those cells when true (cell -> digit mask). Static:
    the links only, whatever the candidates."""
    def build() -> list[tuple[tuple[int, int], dict[int, int]]]:
        p = eng.props[i]
        n = an.n
        peers_d, cross = an.links.peers_d, an.links.cross
        full = ((1 << n) - 1) << 1
        out: dict[tuple[int, int], dict[int, int]] = {}
        for c in p.scope:
            for d in range(1, n + 1):
                # same digit: every a that sees c for d
                m = peers_d[d][c]
                while m:
                    low = m & -m
                    a = low.bit_length() - 1
                    m ^= low
                    out.setdefault((a, d), {})
                    out[(a, d)][c] = out[(a, d)].get(c, 0) | 1 << d
                for a, v in cross.get((c, d), ()):
                    out.setdefault((a, v), {})
                    out[(a, v)][c] = out[(a, v)].get(c, 0) | 1 << d
        for a in p.scope:
            for v in range(1, n + 1):
                rem = out.setdefault((a, v), {})
                rem[a] = rem.get(a, 0) | (full & ~(1 << v))
        return sorted(out.items())
    return an.links_memo(("rule_exclusion_reach", i), build)
