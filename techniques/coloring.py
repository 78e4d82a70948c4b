"""Colouring: simple colours (trap, wrap) and multi colours (1, 2).

For one digit, *strong links* join two cells that are the only places of the digit in some
full house of the model (bilocal digit). The connected components of the strong-link graph
are *clusters*; each is two-coloured so that strongly linked cells get opposite colours, and
exactly one colour of a cluster is true. "Sees" means weakly linked for that digit
(``an.peers``), so variant houses and links take part.

- Simple Colors Trap: a candidate that sees both colours of a cluster is eliminated.
- Simple Colors Wrap: two cells of one colour see each other: that colour is false.
- Multi Colors 1: colour a of cluster A sees colour b of cluster B, so a' or b' (the opposite
  colours) is true: candidates seeing both a' and b' are eliminated.
- Multi Colors 2: colour a of cluster A sees both colours of cluster B: colour a is false.
"""
from __future__ import annotations

from typing import Iterator

from csp.step import Candidate, Namer, Step, cell_name

from .analysis import Analysis, iter_cells
from .registry import register

Cluster = tuple[int, int]  # (colour A cells, colour B cells), cell bitsets


def _clusters(an: Analysis, d: int) -> list[Cluster]:
    """Two-coloured clusters of digit ``d`` (only clusters with a strong link)."""

    def build() -> list[Cluster]:
        adj: dict[int, int] = {}
        for h in an.full:
            p = an.pos(h, d)
            if p and p.bit_count() == 2:
                a = p.bit_length() - 1
                b = (p ^ (1 << a)).bit_length() - 1
                adj[a] = adj.get(a, 0) | 1 << b
                adj[b] = adj.get(b, 0) | 1 << a
        out: list[Cluster] = []
        done = 0
        for start in sorted(adj):
            if done >> start & 1:
                continue
            col = [1 << start, 0]
            frontier = [(start, 0)]
            done |= 1 << start
            while frontier:
                c, k = frontier.pop()
                for o in iter_cells(adj[c] & ~done):
                    done |= 1 << o
                    col[1 - k] |= 1 << o
                    frontier.append((o, 1 - k))
            out.append((col[0], col[1]))
        return out

    return an.digit_memo("color_clusters", d, build)   # depends on d's cells only


def _sees_any(an: Analysis, d: int, cells: int) -> int:
    """Cells (holding ``d``) that see at least one cell of ``cells``."""
    out = 0
    for c in iter_cells(cells):
        out |= an.peers(c, d)
    return out & an.cells_with[d]


def _sees_all_colour(an: Analysis, d: int, a: int, b: int) -> int:
    """Cells holding ``d`` that see some cell of ``a`` and some cell of ``b``."""
    return _sees_any(an, d, a) & _sees_any(an, d, b)


def _names(cells: int, w: "int | Namer") -> str:
    return ",".join(cell_name(c, w) for c in iter_cells(cells))


def _step(name: str, title: str, an: Analysis, d: int, elim: int, colours: list[int],
          note: str) -> Step:
    pattern = tuple(Candidate(c, d) for col in colours for c in iter_cells(col))
    return Step(name, eliminations=tuple(Candidate(c, d) for c in iter_cells(elim)),
                pattern=pattern, digits=(d,), title=title, note=note, namer=an.grid.namer,
                extra={"colours": tuple(colours)})


@register("simple_colors_trap", "Simple Colors Trap", "coloring", code="0500")
def simple_colors_trap(an: Analysis, opts: dict) -> Iterator[Step]:
    """A candidate seeing both colours of one cluster is eliminated.

    >>> from techniques.reglib import parse_case, case_state
    >>> st = case_state(parse_case(":0500:1:+23.7.+68+955972+8...+6+6..+9+3+5.+7.+3.+6.9.5.7+7+5."
    ...     "+36...+9+4.+9+5+7.+683+872.+5396.+94+5+6.7..+8+1638.+9+7+5.:439:127 128 132 133::"))
    >>> [s.explain(2) for s in simple_colors_trap(Analysis(st), {})]
    ['Simple Colors Trap: 1: r1c3,r2c6,r4c4,r7c9,r8c5 / r1c5,r3c9,r7c4 => r2c7<>1, r2c8<>1, r3c2<>1, r3c3<>1']
    """
    for d in range(1, an.n + 1):
        yield from _per_digit(an, "simple_colors_trap", d, _trap)


def _per_digit(an: Analysis, name: str, d: int, steps) -> list[Step]:
    """``steps(an, d)``, a technique's steps for digit ``d``, kept per puzzle on the cells
    holding ``d`` (:meth:`Analysis.digit_memo`): every colouring step reads nothing but the
    digit's candidate cells and the static links (its eliminations among those cells, so
    every kept step is still effective), so after a step only the digits it touched are
    searched again (the same steps in the same order)."""
    return an.digit_memo(("coloring", name), d, lambda: steps(an, d))


def _trap(an: Analysis, d: int) -> list[Step]:
    w = an.grid.namer
    out = []
    for a, b in _clusters(an, d):
        elim = _sees_all_colour(an, d, a, b) & ~(a | b)
        if elim:
            out.append(_step("simple_colors_trap", "Simple Colors Trap", an, d, elim, [a, b],
                             f"{d}: {_names(a, w)} / {_names(b, w)}"))
    return out


@register("simple_colors_wrap", "Simple Colors Wrap", "coloring", code="0501")
def simple_colors_wrap(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two cells of one colour see each other: every cell of that colour loses the digit."""
    for d in range(1, an.n + 1):
        yield from _per_digit(an, "simple_colors_wrap", d, _wrap)


def _wrap(an: Analysis, d: int) -> list[Step]:
    w = an.grid.namer
    out = []
    for a, b in _clusters(an, d):
        for bad, good in ((a, b), (b, a)):
            if any(an.peers(c, d) & bad for c in iter_cells(bad)):
                out.append(_step("simple_colors_wrap", "Simple Colors Wrap", an, d, bad,
                                 [bad, good], f"{d}: {_names(bad, w)} / {_names(good, w)}"))
    return out


@register("multi_colors_1", "Multi Colors 1", "coloring", code="0502")
def multi_colors_1(an: Analysis, opts: dict) -> Iterator[Step]:
    """Colour a1 of one cluster sees colour b1 of another: a2 or b2 is true, so candidates
    seeing both a2 and b2 are eliminated (one step per pair of clusters)."""
    for d in range(1, an.n + 1):
        yield from _per_digit(an, "multi_colors_1", d, _multi_1)


def _multi_1(an: Analysis, d: int) -> list[Step]:
    w = an.grid.namer
    out = []
    cl = _clusters(an, d)
    for i in range(len(cl)):
        for j in range(i + 1, len(cl)):
            elim = 0
            used: list[str] = []
            for a1, a2 in (cl[i], cl[i][::-1]):
                see_a1 = _sees_any(an, d, a1)
                for b1, b2 in (cl[j], cl[j][::-1]):
                    if see_a1 & b1:
                        e = _sees_all_colour(an, d, a2, b2) & ~(a2 | b2)
                        if e:
                            elim |= e
                            used.append(f"{_names(a1, w)} sees {_names(b1, w)}")
            if elim:
                out.append(_step("multi_colors_1", "Multi Colors 1", an, d, elim,
                                 [*cl[i], *cl[j]], f"{d}: " + "; ".join(used)))
    return out


@register("multi_colors_2", "Multi Colors 2", "coloring", code="0503")
def multi_colors_2(an: Analysis, opts: dict) -> Iterator[Step]:
    """Colour a of one cluster sees both colours of another cluster: colour a is false."""
    for d in range(1, an.n + 1):
        yield from _per_digit(an, "multi_colors_2", d, _multi_2)


def _multi_2(an: Analysis, d: int) -> list[Step]:
    w = an.grid.namer
    out = []
    cl = _clusters(an, d)
    for i, (a, b) in enumerate(cl):
        for bad in (a, b):
            see = _sees_any(an, d, bad)
            for j, (c1, c2) in enumerate(cl):
                if j != i and see & c1 and see & c2:
                    out.append(_step("multi_colors_2", "Multi Colors 2", an, d, bad,
                                     [a, b, c1, c2],
                                     f"{d}: {_names(bad, w)} sees {_names(c1, w)} and "
                                     f"{_names(c2, w)}"))
                    break
    return out
