"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish, Empty Rectangle and the
Dual 2-String Kite / Dual Empty Rectangle (two patterns sharing their box, one step).

Skyscraper, kite and turbot fish are the same chain ``u = x - y = v`` for one digit: two
strong links (a full house with exactly two candidates: ``u``/``x`` and ``y``/``v``) whose
inner ends ``x`` and ``y`` see each other. One of ``u``, ``v`` is true, so the digit goes
from every cell that sees both. HoDoKu names: *Skyscraper* when both strong links are rows
(or both columns) and ``x``, ``y`` share a column (row); *2-String Kite* for a row and a
column link whose inner ends share a box; *Turbot Fish* for any other pair (box strong
links, variant houses, or a weak link that comes from a variant constraint).

An *Empty Rectangle*: in a box the digit lies only in one row ``R`` and one column ``C``;
with a strong link in a column (row) outside the box with one end in ``R`` (``C``), the
digit goes from the cell in ``C`` (``R``) in line with the other end.

>>> from variants.classic import classic_puzzle
>>> from techniques.analysis import Analysis
>>> st = classic_puzzle("." * 81).pencilmarks()
>>> keep = {(0, 0), (0, 4), (4, 0), (4, 5)}          # rows 1 and 5 strong links for 7
>>> for c in range(81):
...     r, k = divmod(c, 9)
...     if r in (0, 4) and (r, k) not in keep:
...         st.cand[c] &= ~(1 << 7)
>>> st.version += 1
>>> [s.explain(2) for s in skyscraper(Analysis(st), {}) if s.digits == (7,)]
['Skyscraper: 7 r1c1 r5c1 =r1c5 =r5c6 => r2c6<>7, r3c6<>7, r4c5<>7, r6c5<>7']
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator, NamedTuple

from csp.step import Candidate, Link, Step

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register


class Chain(NamedTuple):
    digit: int
    u: int          # outer end of the first strong link
    x: int          # inner end of the first strong link
    y: int          # inner end of the second strong link
    v: int          # outer end of the second strong link
    h1: int         # house of the first strong link
    h2: int
    kind: str       # skyscraper / kite / turbot
    elims: int


def _kind(an: Analysis, h: int) -> str:
    k = an.houses[h].kind
    return "box" if k == "region" else k


def _shared_kinds(an: Analysis, a: int, b: int) -> set[str]:
    ch = an.links.cell_houses
    return {_kind(an, h) for h in set(ch[a]) & set(ch[b])}


def strong_links(an: Analysis, d: int) -> list[tuple[int, int, int]]:
    """(house, cell, cell) for every full house holding ``d`` exactly twice."""
    def run() -> list[tuple[int, int, int]]:
        out = []
        seen = set()
        for h in an.full:
            p = an.pos(h, d)
            if p.bit_count() == 2:
                a = (p & -p).bit_length() - 1
                b = p.bit_length() - 1
                if (a, b) in seen:      # the same pair in two houses: keep one
                    continue
                seen.add((a, b))
                out.append((h, a, b))
        return out

    return an.memo(("strong_links", d), run)


def two_link_chains(an: Analysis) -> list[Chain]:
    """Every ``u = x - y = v`` chain with eliminations, classified, memoised (per digit
    across the states of a puzzle: a digit's chains depend on its candidate cells only)."""
    def run() -> list[Chain]:
        out: list[Chain] = []
        for d in range(1, an.n + 1):
            out += an.digit_memo("two_link_chains", d, lambda d=d: _chains_of_digit(an, d))
        return out

    return an.memo("two_link_chains", run)


def _chains_of_digit(an: Analysis, d: int) -> list[Chain]:
    out: list[Chain] = []
    links = strong_links(an, d)
    peers = an.links.peers_d[d]
    P = an.cells_with[d]
    for (h1, a1, b1), (h2, a2, b2) in combinations(links, 2):
        if len({a1, b1, a2, b2}) < 4:
            continue
        for u, x in ((a1, b1), (b1, a1)):
            for y, v in ((a2, b2), (b2, a2)):
                if not peers[x] >> y & 1:
                    continue
                elims = P & peers[u] & peers[v] & ~((1 << x) | (1 << y))
                if not elims:
                    continue
                k1, k2 = _kind(an, h1), _kind(an, h2)
                xy = _shared_kinds(an, x, y)
                if {k1, k2} <= {"row", "col"} and k1 == k2 and \
                        ("col" if k1 == "row" else "row") in xy:
                    kind = "skyscraper"
                elif {k1, k2} == {"row", "col"} and "box" in xy:
                    kind = "kite"
                else:
                    kind = "turbot"
                out.append(Chain(d, u, x, y, v, h1, h2, kind, elims))
    return out


def _chain_step(an: Analysis, name: str, title: str, ch: Chain, elims: int | None = None,
                note_extra: str = "") -> Step:
    d = ch.digit
    nm = an.name
    e = ch.elims if elims is None else elims
    links = (Link((Candidate(ch.u, d),), (Candidate(ch.x, d),), True),
             Link((Candidate(ch.x, d),), (Candidate(ch.y, d),), False),
             Link((Candidate(ch.y, d),), (Candidate(ch.v, d),), True))
    return Step(name, eliminations=tuple(Candidate(c, d) for c in iter_cells(e)),
                pattern=tuple(Candidate(c, d) for c in (ch.u, ch.x, ch.y, ch.v)),
                houses=(an.houses[ch.h1].name, an.houses[ch.h2].name), links=links,
                digits=(d,), title=title, namer=an.grid.namer,
                note=f"{d} {nm(ch.x)} {nm(ch.y)} ={nm(ch.u)} ={nm(ch.v)}{note_extra}")


@register("skyscraper", "Skyscraper", "single_digit", code="0400")
def skyscraper(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two parallel strong links (rows or columns) whose inner ends share a line."""
    for ch in two_link_chains(an):
        if ch.kind == "skyscraper":
            yield _chain_step(an, "skyscraper", "Skyscraper", ch)


@register("two_string_kite", "2-String Kite", "single_digit", code="0401")
def two_string_kite(an: Analysis, opts: dict) -> Iterator[Step]:
    """A row and a column strong link whose inner ends share a box."""
    for ch in two_link_chains(an):
        if ch.kind == "kite":
            yield _chain_step(an, "two_string_kite", "2-String Kite", ch)


@register("turbot_fish", "Turbot Fish", "single_digit", code="0403")
def turbot_fish(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two strong links joined by a weak link, not a Skyscraper or a 2-String Kite (box
    strong links, variant houses or variant weak links)."""
    for ch in two_link_chains(an):
        if ch.kind == "turbot":
            yield _chain_step(an, "turbot_fish", "Turbot Fish", ch)


@register("dual_two_string_kite", "Dual 2-String Kite", "single_digit", code="0404")
def dual_two_string_kite(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two 2-String Kites on the same two box cells, reported as one step."""
    groups: dict[tuple, list[Chain]] = {}
    for ch in two_link_chains(an):
        if ch.kind == "kite":
            groups.setdefault((ch.digit, frozenset((ch.x, ch.y))), []).append(ch)
    for group in groups.values():
        for a, b in combinations(group, 2):
            if a.elims & ~b.elims and b.elims & ~a.elims:
                nm = an.name
                yield _chain_step(an, "dual_two_string_kite", "Dual 2-String Kite", a,
                                  a.elims | b.elims, f" / ={nm(b.u)} ={nm(b.v)}")


# -- empty rectangles ----------------------------------------------------------------


class ER(NamedTuple):
    digit: int
    box: int
    row: int        # house index of the ER row R
    col: int        # house index of the ER column C
    link: int       # house of the strong link
    p: int          # end of the strong link in line with the ER
    q: int          # other end
    elim: int       # cell


def empty_rectangles(an: Analysis, allow_two: bool) -> list[ER]:
    """Every Empty Rectangle with an elimination (memoised per ``allow_two``, and per digit
    across the states of a puzzle: a digit's ERs depend on its candidate cells only)."""
    def run() -> list[ER]:
        out: list[ER] = []
        for d in range(1, an.n + 1):
            out += an.digit_memo(("empty_rectangles", allow_two), d,
                                 lambda d=d: _er_digit(an, d, allow_two))
        return out

    return an.memo(("empty_rectangles", allow_two), run)


def _er_tables(an: Analysis) -> tuple[list, list, list]:
    """Static tables: per box (rows meeting it, columns meeting it), the rows, the columns
    (kept per puzzle)."""
    def build():
        hm = an.house_mask
        lines = {k: [h for h in an.full if _kind(an, h) == k] for k in ("row", "col")}
        boxes = [h for h in an.full if _kind(an, h) == "box"]
        per_box = [(b, [h for h in lines["row"] if hm[h] & hm[b]],
                    [h for h in lines["col"] if hm[h] & hm[b]]) for b in boxes]
        return per_box, lines["row"], lines["col"]
    return an.links_memo("er_tables", build)


def _er_digit(an: Analysis, d: int, allow_two: bool) -> list[ER]:
    out: list[ER] = []
    hm = an.house_mask
    per_box, rows_all, cols_all = _er_tables(an)
    P = an.cells_with[d]
    links = strong_links(an, d)
    for b, rows, cols in per_box:
        pb = hm[b] & P
        if pb.bit_count() < (2 if allow_two else 3):
            continue
        for R in rows:
            for C in cols:
                cross = hm[R] | hm[C]
                if pb & ~cross:
                    continue
                if not pb & hm[R] & ~hm[C] or not pb & hm[C] & ~hm[R]:
                    continue
                for lh, a, bb in links:
                    k = _kind(an, lh)
                    if k not in ("row", "col") or hm[lh] & hm[b]:
                        continue
                    # column link meets row R; row link meets column C
                    meet, other = (hm[R], hm[C]) if k == "col" else (hm[C], hm[R])
                    for p, q in ((a, bb), (bb, a)):
                        if not meet >> p & 1 or meet >> q & 1:
                            continue
                        if hm[b] >> q & 1:
                            continue
                        # target: in `other` (outside the box), in line with q
                        qline = [h for h in (rows_all if k == "col" else cols_all)
                                 if hm[h] >> q & 1]
                        if not qline:
                            continue
                        t = hm[qline[0]] & other & P & ~hm[b]
                        if t:
                            out.append(ER(d, b, R, C, lh, p, q, t.bit_length() - 1))
    return out


def _allow_two(default: bool) -> Options:
    return Options(allow_two=Option(
        default, "the box may hold only two candidates of the digit (else 3 or more)", bool))


ER_OPTIONS = _allow_two(False)
DUAL_ER_OPTIONS = _allow_two(True)


def _er_step(an: Analysis, name: str, title: str, er: ER, elims: int, more: str = "") -> Step:
    d = er.digit
    box_cells = an.house_mask[er.box] & an.cells_with[d]
    nm = an.name
    bname = an.houses[er.box].name
    return Step(name, eliminations=tuple(Candidate(c, d) for c in iter_cells(elims)),
                pattern=tuple(Candidate(c, d) for c in iter_cells(box_cells | (1 << er.p)
                                                                  | (1 << er.q))),
                houses=(bname, an.houses[er.link].name), digits=(d,), title=title,
                namer=an.grid.namer,
                note=f"{d} in {bname} ({' '.join(nm(c) for c in iter_cells(box_cells))}) "
                     f"{nm(er.p)}={nm(er.q)}{more}")


@register("empty_rectangle", "Empty Rectangle", "single_digit", code="0402",
          options=ER_OPTIONS,
          variants={1: {"allow_two": True}})
def empty_rectangle(an: Analysis, opts: dict) -> Iterator[Step]:
    """A box whose digit lies in one row and one column, plus a strong link outside it."""
    for er in empty_rectangles(an, bool(ER_OPTIONS.read(opts, "allow_two"))):
        yield _er_step(an, "empty_rectangle", "Empty Rectangle", er, 1 << er.elim)


@register("dual_empty_rectangle", "Dual Empty Rectangle", "single_digit", code="0405",
          options=DUAL_ER_OPTIONS)
def dual_empty_rectangle(an: Analysis, opts: dict) -> Iterator[Step]:
    """Two Empty Rectangles on the same box, reported as one step (boxes with two
    candidates count, as in HoDoKu: they hold two crosses)."""
    groups: dict[tuple, list[ER]] = {}
    for er in empty_rectangles(an, bool(DUAL_ER_OPTIONS.read(opts, "allow_two"))):
        groups.setdefault((er.digit, er.box), []).append(er)
    for group in groups.values():
        for a, b in combinations(group, 2):
            if a.elim != b.elim:
                yield _er_step(an, "dual_empty_rectangle", "Dual Empty Rectangle", a,
                               (1 << a.elim) | (1 << b.elim),
                               f" / {an.name(b.p)}={an.name(b.q)}")
