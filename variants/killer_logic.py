"""Named killer techniques, generic over the puzzle's own cages (``Sum`` / ``SumIn``
constraints with different digits).

- ``killer_combinations``: a cage keeps only the digits of the digit combinations that still
  fit its cells (each cell needs a digit of the combination, the placed digits are in it, and
  the open cells can take the rest all different).
- ``mandatory_inclusion``: a digit in every fitting combination must be in the cage; like a
  house digit it is removed from the cells that see all of the cage's cells holding it.
- ``cage_house_overlap``: a digit that a house can only place inside a cage is in the cage;
  the combinations without it go.
- ``disjoint_cages``: two cages whose cells all see each other (both in one box, say) share
  no digit: a combination of one cage with no disjoint partner in the other goes.

The 45 rule and its relatives (innies, outies, innie-outie differences, cage splitting, the
law of leftovers) are special cases of set equivalence theory and live with it in
:mod:`techniques.sets` (family ``sets``).

>>> from csp import Puzzle
>>> from variants.classic import classic
>>> from variants.killer import killer_cage
>>> from techniques import StepSolver
>>> p = Puzzle(9).use(classic(), killer_cage(["r1c1", "r1c2"], 4))
>>> [s.explain(2) for s in StepSolver().find_all(p.initial_state(), "killer_combinations")]
['Killer Combinations: cage 4 at r1c1 (r1c1,r1c2): 13 => r1c1<>2456789, r1c2<>2456789']
"""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.step import Candidate, Step, digit_symbol, digits_text
from techniques.analysis import Analysis, iter_cells
from techniques.registry import register
from techniques.sets import Region, cage_combinations, set_tables

FAMILY = "killer"


# -- helpers -----------------------------------------------------------------------------
def _names(an: Analysis, bits: int, sep: str = ",") -> str:
    return sep.join(an.name(c) for c in iter_cells(bits))


def _cage_info(an: Analysis) -> list[tuple[Region, list[int]]]:
    """The cages (regions with a sum and different digits) and their fitting combinations;
    a cage with more than :data:`techniques.sets.COMBINATION_LIMIT` to list is left out."""
    def build():
        out = []
        for r in set_tables(an).regions:
            if r.kind == "cage":
                combos = cage_combinations(an, r.cells, r.totals)
                if combos is not None:      # None: too many to list (a long cage)
                    out.append((r, combos))
        return out
    return an.memo("killer_cage_combos", build)


def _outside(an: Analysis, cage: Region, combos: list[int]) -> tuple[Candidate, ...]:
    """The cage's candidates in none of the combinations ``combos``."""
    union = 0
    for m in combos:
        union |= m
    return tuple(Candidate(c, d) for c in cage.cells for d in digits_of(an.cand[c] & ~union))


def _cage_label(an: Analysis, cage: Region) -> str:
    return f"{cage.name} ({_names(an, cage.mask)})"


# -- techniques --------------------------------------------------------------------------
@register("killer_combinations", "Killer Combinations", FAMILY)
def killer_combinations(an: Analysis, opts: dict) -> Iterator[Step]:
    """Digits of no fitting combination leave the cage."""
    w = an.grid.namer
    for cage, combos in _cage_info(an):
        if not combos:
            continue
        elims = _outside(an, cage, combos)
        if elims:
            yield Step("killer_combinations", eliminations=elims, title="Killer Combinations",
                       houses=(cage.name,), namer=w,
                       note=f"{_cage_label(an, cage)}: {'/'.join(digits_text(m) for m in combos)}")


@register("mandatory_inclusion", "Mandatory Inclusion", FAMILY)
def mandatory_inclusion(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit of every fitting combination is in the cage: cells seeing all of the cage's
    cells with that digit lose it (pointing with a cage as the house)."""
    w = an.grid.namer
    for cage, combos in _cage_info(an):
        if not combos:
            continue
        must = -1
        for m in combos:
            must &= m
        for c in cage.cells:
            if an.state.placed[c]:
                must &= ~(1 << an.state.placed[c])
        for d, s, targets in an.group_pointing(cage.mask, must):
            yield Step("mandatory_inclusion", digits=(d,), houses=(cage.name,), namer=w,
                       title="Mandatory Inclusion",
                       eliminations=tuple(Candidate(c, d) for c in iter_cells(targets)),
                       pattern=tuple(Candidate(c, d) for c in iter_cells(s)),
                       note=f"{digit_symbol(d)} in every combination of "
                            f"{_cage_label(an, cage)} ({'/'.join(digits_text(m) for m in combos)}), "
                            f"only in {_names(an, s)}")


@register("cage_house_overlap", "Cage-House Overlap", FAMILY)
def cage_house_overlap(an: Analysis, opts: dict) -> Iterator[Step]:
    """A digit that a full house can only place inside a cage is in the cage: combinations
    without it go, and the cage loses the digits of no remaining combination."""
    w = an.grid.namer
    for cage, combos in _cage_info(an):
        if len(combos) < 2:
            continue
        forced, why = an.house_forced_digits(cage.mask)
        if not forced:
            continue
        keep = [m for m in combos if m & forced == forced]
        if not keep or len(keep) == len(combos):
            continue
        elims = _outside(an, cage, keep)
        if elims:
            yield Step("cage_house_overlap", eliminations=elims, title="Cage-House Overlap",
                       houses=(cage.name,), namer=w,
                       digits=digits_of(forced),
                       note=f"{'; '.join(why)}: {_cage_label(an, cage)} is "
                            f"{'/'.join(digits_text(m) for m in keep)}")


def _seeing_cages(an: Analysis) -> dict[int, tuple[int, ...]]:
    """Per cage mask: the masks of the other cages whose every cell sees every one of its
    cells (they hold different digits, whatever they are)."""
    def build() -> dict[int, tuple[int, ...]]:
        hp = an.links.house_peers
        masks = [r.mask for r in set_tables(an).regions if r.kind == "cage"]
        out: dict[int, list[int]] = {}
        for i, a in enumerate(masks):
            for b in masks[i + 1:]:
                if a & b or any(hp[c] & b != b for c in iter_cells(a)):
                    continue
                out.setdefault(a, []).append(b)
                out.setdefault(b, []).append(a)
        return {k: tuple(v) for k, v in out.items()}
    return an.links_memo("killer_seeing_cages", build)


@register("disjoint_cages", "Disjoint Cages", FAMILY)
def disjoint_cages(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two cages whose cells all see each other (in one box, say) hold different digits: a
    combination of one cage that meets every combination of the other goes, and the cage
    loses the digits of no remaining combination ("cage 11 is 29/56, cage 8 is 26/35 in
    the same box: 26 meets both, so cage 8 is 35")."""
    seeing = _seeing_cages(an)
    if not seeing:
        return
    w = an.grid.namer
    info = _cage_info(an)
    by_mask = {cage.mask: (cage, combos) for cage, combos in info}
    for cage, combos in info:
        if len(combos) < 2 or not cage.mask & an.unsolved:
            continue
        for other in seeing.get(cage.mask, ()):
            ocage, ocombos = by_mask.get(other, (None, None))
            if not ocombos:
                continue
            keep = [m for m in combos if any(not m & o for o in ocombos)]
            if not keep or len(keep) == len(combos):
                continue
            elims = _outside(an, cage, keep)
            if elims:
                gone = [m for m in combos if m not in keep]
                yield Step("disjoint_cages", eliminations=elims, title="Disjoint Cages",
                           houses=(cage.name, ocage.name), namer=w,
                           note=f"{_cage_label(an, cage)} and {_cage_label(an, ocage)} see "
                                f"each other, {ocage.name} is "
                                f"{'/'.join(digits_text(m) for m in ocombos)}: "
                                f"{'/'.join(digits_text(m) for m in gone)} meet"
                                f"{'s' if len(gone) == 1 else ''} all of them, so "
                                f"{cage.name} is {'/'.join(digits_text(m) for m in keep)}")
                break
