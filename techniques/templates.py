"""Templates: every placement of one digit that the candidates still allow.

A *template* of digit d is a set of cells, one per row, holding d (a candidate or the placed
digit), no two of which see each other for d (houses and any variant weak links), and
meeting every full house of the model once. The templates are enumerated row by row (the
grid's rows must be houses of the model: classic, jigsaw, diagonal, anti-knight ... grids).

- Template Set: a cell that lies in every template of d takes d.
- Template Delete: a candidate d in no template is false.

Options: ``max_templates`` (default 50000): enumeration stops there and the digit is skipped
(both deductions need the complete list).
"""
from __future__ import annotations

from typing import Iterator

from csp.step import Candidate, Step

from .analysis import Analysis, iter_cells
from .registry import Option, Options, register

#: templates enumerated per digit before the technique gives up (from the first version;
#: bounds memory and time on sparse grids, not measured)
MAX_TEMPLATES = 50_000


def digit_templates(an: Analysis, d: int, cap: int = MAX_TEMPLATES) -> tuple[int, int, int] | None:
    """``(count, union, intersection)`` (cell bitsets) of the templates of digit ``d``, or
    None when the grid is unsuited (rows are not houses) or some digit has more than ``cap``
    templates. A template of d is dropped when it holds a cell that every template of
    another digit needs (repeated until nothing changes).

    >>> from variants.classic import classic_puzzle
    >>> an = Analysis(classic_puzzle("1" + "." * 15).pencilmarks())
    >>> count, union, inter = digit_templates(an, 1)
    >>> count, inter == 1
    (4, True)
    """
    res = an.memo(("templates", cap), lambda: _all_templates(an, cap))
    return None if res is None else res[d]


def _all_templates(an: Analysis, cap: int) -> list[tuple[int, int, int]] | None:
    lists: dict[int, list[int]] = {}
    for d in range(1, an.n + 1):
        t = _digit_templates(an, d, cap)
        if t is None:
            return None
        lists[d] = t

    def inter_of(ts: list[int]) -> int:
        m = -1
        for t in ts:
            m &= t
        return m if ts else 0

    inters = {d: inter_of(ts) for d, ts in lists.items()}
    changed = True
    while changed:
        changed = False
        for d in lists:
            forbidden = 0
            for e, m in inters.items():
                if e != d:
                    forbidden |= m
            kept = [t for t in lists[d] if not t & forbidden]
            if len(kept) != len(lists[d]):
                lists[d] = kept
                inters[d] = inter_of(kept)
                changed = True
    out: list[tuple[int, int, int]] = [(0, 0, 0)]
    for d in range(1, an.n + 1):
        ts = lists[d]
        u = 0
        for t in ts:
            u |= t
        out.append((len(ts), u, inters[d]))
    return out


def _row_masks(an: Analysis) -> list[int] | None:
    def build():
        rows = []
        hm = set(an.house_mask)
        for r in an.grid.rows:
            m = 0
            for c in r:
                m |= 1 << c
            if m not in hm:
                return None
            rows.append(m)
        return rows
    return an.memo("template_rows", build)


def _digit_templates(an: Analysis, d: int, cap: int) -> list[int] | None:
    rows = _row_masks(an)
    if rows is None:
        return None
    placed = an.state.placed
    pd = an.links.peers_d[d]
    fixed = 0
    for c in range(an.size):
        if placed[c] == d:
            fixed |= 1 << c
    opts = []
    for rm in rows:
        f = rm & fixed
        o = f if f else rm & an.cells_with[d]
        if not o:
            return []
        opts.append([(c, 1 << c, pd[c]) for c in iter_cells(o)])
    full = [an.house_mask[h] for h in an.full]
    # order rows by fewest options (a cheaper search tree)
    order = sorted(range(len(opts)), key=lambda i: len(opts[i]))
    opts = [opts[i] for i in order]
    n_rows = len(opts)
    count = 0
    found: list[int] = []
    chosen = 0
    # iterative DFS; saved_* hold the state before the choice made at each row
    row = 0
    blocked = 0
    idx = [0] * (n_rows + 1)
    saved_chosen = [0] * (n_rows + 1)
    saved_blocked = [0] * (n_rows + 1)
    poll = an.budget.poll
    while True:
        if poll():
            return None     # the solver's deadline: the digit is skipped (incomplete)
        if row == n_rows:
            ok = True
            for m in full:
                if not chosen & m:
                    ok = False
                    break
            if ok:
                count += 1
                if count > cap:
                    return None
                found.append(chosen)
            row -= 1
            if row < 0:
                break
            chosen = saved_chosen[row]
            blocked = saved_blocked[row]
            continue
        lst = opts[row]
        i = idx[row]
        advanced = False
        while i < len(lst):
            c, cb, peers = lst[i]
            i += 1
            if blocked & cb:
                continue
            idx[row] = i
            saved_chosen[row] = chosen
            saved_blocked[row] = blocked
            chosen |= cb
            blocked |= peers
            row += 1
            idx[row] = 0
            advanced = True
            break
        if not advanced:
            idx[row] = 0
            row -= 1
            if row < 0:
                break
            chosen = saved_chosen[row]
            blocked = saved_blocked[row]
    return found


TEMPLATE_OPTIONS = Options(max_templates=Option(
    MAX_TEMPLATES, "templates enumerated per digit (more: the digit is skipped)", int))


@register("template_set", "Template Set", "templates", code="1201", options=TEMPLATE_OPTIONS)
def template_set(an: Analysis, opts: dict) -> Iterator[Step]:
    """Cells common to every template of a digit take it."""
    cap = int(TEMPLATE_OPTIONS.read(opts, "max_templates"))
    for d in range(1, an.n + 1):
        if not an.cells_with[d]:
            continue
        res = digit_templates(an, d, cap)
        if res is None or res[0] == 0:
            continue
        cells = res[2] & an.cells_with[d]
        if cells:
            pl = tuple(Candidate(c, d) for c in iter_cells(cells))
            yield Step("template_set", placements=pl, digits=(d,), title="Template Set",
                       note=f"{res[0]} templates of {d}", namer=an.grid.namer)


@register("template_delete", "Template Delete", "templates", code="1202",
          options=TEMPLATE_OPTIONS)
def template_delete(an: Analysis, opts: dict) -> Iterator[Step]:
    """Candidates of a digit that lie in none of its templates are false."""
    cap = int(TEMPLATE_OPTIONS.read(opts, "max_templates"))
    for d in range(1, an.n + 1):
        if not an.cells_with[d]:
            continue
        res = digit_templates(an, d, cap)
        if res is None or res[0] == 0:
            continue
        cells = an.cells_with[d] & ~res[1]
        if cells:
            el = tuple(Candidate(c, d) for c in iter_cells(cells))
            yield Step("template_delete", eliminations=el, digits=(d,),
                       title="Template Delete", note=f"{res[0]} templates of {d}",
                       namer=an.grid.namer)
