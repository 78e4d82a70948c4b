"""The compiled SE probe kernel (techniques/_se_kernel.c) against its pure-Python reference
(techniques/forcing/nested.py: se_reach, _scan_py): identical results on many grids (the
hardest puzzles that Sudoku Explainer rates, Sudoku Exchange puzzles, and hypothetical grids
inside assumptions), and identical SE ratings and step lists from both paths.

Skipped when the kernel is not built (``pip install -e .`` builds it where a C compiler
is found). The fallback itself is what tests/techniques/test_se_rating.py tests with
``SUDOKU_CSP_PURE=1``.
"""
from __future__ import annotations

import csv
import random

import pytest

from csp.kernel import active
from techniques.forcing import nested
from techniques.analysis import _shared, analyze
from techniques.forcing.engine import _base, _fact, _result, _static
from techniques.forcing.nested import (_SELinks, _forcing_py, _kernel, _news, _news_py, _pack,
                                       _scan, _scan_py, se_reach)
from techniques.se_rating import SESolver
from variants.classic import classic_puzzle

from conftest import DATA, ROOT

KERNEL = active(nested._se_kernel)
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="techniques._se_kernel is not built "
                                  "(no C compiler at install, or SUDOKU_CSP_PURE=1)")

RATED = ROOT.parent / "shared" / "data" / "classic" / "forum_hardest_1106_rated.csv"


def _hardest(k: int, offset: int = 0) -> list[str]:
    """Every 22nd SE-rated puzzle of the shared rated file in the order of ER (the
    benchmark's samples), else (a lone clone) every 90th of tests/data's forum hardest."""
    for path in (RATED, ROOT.parent.parent / "shared" / "data" / "classic" / RATED.name):
        if path.exists():
            with open(path) as f:
                rows = sorted(((float(r["ER"]), r["puzzle"]) for r in csv.DictReader(f)
                               if r.get("ER")))
            return [p for _, p in rows[offset::22]][:k]
    lines = (DATA / "forum_hardest_1106.txt").read_text().split()
    return lines[offset::90][:k]


def _exchange(k: int) -> list[str]:
    with open(DATA / "sudoku_exchange_1000_rated.tsv") as f:
        rows = [(float(r["se_rating"]), r["puzzle"]) for r in csv.DictReader(f, delimiter="\t")]
    rows.sort()
    return [p for _, p in rows[::len(rows) // k]][:k]


def _puzzle(line: str):
    p = classic_puzzle(line)
    p.unique = True
    return p


def _grids(st, an, rng, k):
    """The state's own grid, then ``k`` hypothetical ones: the grids inside assumptions
    (nets with locked candidates, as the level probe propagates them) that stay open."""
    yield None
    cands = [(c, d) for c in range(an.size) for d in range(1, an.n + 1)
             if an.cand[c] >> d & 1 and an.cand[c].bit_count() > 1]
    for c, d in rng.sample(cands, min(len(cands), 4 * k)):
        ps = _result(an, _fact(c, d, True), True, True)
        if ps.contra is None:
            yield ps
            k -= 1
            if not k:
                return


def _rule_facts_ref(st, L, waves, x, d, on):
    """The rule facts of a chain read with the grid's :class:`_SELinks` (the reading of
    ``_rule_parents`` before ``_rule_facts``), unfiltered: the reference of the scan's."""
    base, hm, peers_d = st.cand, st.house_mask, st.peers_d
    out = []
    j = nested._wave_depth(waves, x, d, on)
    if not j:
        return ()
    j = (j - 1) // 2
    while True:
        if not on:           # the false step is shared; the strong links are what differs
            nxt = nested._true_source(waves[j][0], x, d, st.n + 1, peers_d)
            if nxt is None:
                break
            x, d, on = nxt[0], nxt[1], 1
            continue
        if j == 0:
            break
        b = waves[j - 1][1]
        j -= 1
        k = L.cand[x]
        if k.bit_count() == 2 and b[(k & ~(1 << d)).bit_length() - 1] >> x & 1:
            out += [_fact(x, r, False) for r in L.digits if (base[x] & ~k) >> r & 1]
            x, d, on = x, (k & ~(1 << d)).bit_length() - 1, 0
            continue
        src = L.partner[d].get(x, 0) & b[d]
        if not src:
            break
        y = (src & -src).bit_length() - 1
        for h in st.cell_full[x]:
            if hm[h] >> y & 1 and (hm[h] & L.cw[d]).bit_count() == 2:
                out += [_fact(z, d, False) for z in range(st.size)
                        if (hm[h] & st.cw[d] & ~L.cw[d]) >> z & 1]
                break
        x, on = y, 0
    return tuple(dict.fromkeys(out))


def _plain(r: tuple) -> tuple:
    """A scan's answer with its closures as the Python path's dict (the kernel keeps them
    in C memory: ``Closures.to_dict()``)."""
    cl = r[3]
    return r[:3] + ((cl if isinstance(cl, dict) else cl.to_dict()),)


def _compare_state(an, rng, grids: int, forcing: list[int],
                   rules: list[int] | None = None) -> int:
    """Kernel and Python on the state of ``an`` and on hypothetical grids inside it: every
    candidate's reach, and the scan (no previous closures; the state's closures as the
    level probe carries them over, at levels 2 and 3; a search budget that runs out), and
    the level-3 forcing conclusions from the closures (``forcing``: [grids where the
    forcing chains concluded something], added to); the scan's found chains with their
    rule facts, both ways and against :func:`_rule_facts_ref` (``rules``: [chains with
    rule facts], added to)."""
    if rules is None:
        rules = [0]
    st = _static(an)
    k, tables = _kernel(st)
    base_py = _scan_py(st, st.cand, st.cw, st.unsolved, st.unsolved, 0, None, 0, 0, 2, None)
    base_c = k.scan(tables, st.cand, st.cw, st.unsolved, st.unsolved, 0, None, 0, 0, 2, None)
    assert isinstance(base_c[3], k.Closures) and len(base_c[3]) == len(base_py[3])
    assert base_py == _plain(base_c)
    checked = 0
    for ps in _grids(st, an, rng, grids):
        cand, cw = (st.cand, st.cw) if ps is None else (ps.cand, ps.cw)
        on_mask = 0 if ps is None else ps.on
        L = _SELinks(st, cand, cw)
        for x in range(st.size):
            for e in range(1, st.n + 1):
                if cand[x] >> e & 1:
                    n, _, on, off = se_reach(st, L, x, e)
                    assert k.reach(tables, cand, cw, st.unsolved, x, e) == (
                        n, _pack(on, st.size), _pack(off, st.size)), (x, e)
                    checked += 1
        cells = st.unsolved & ~on_mask
        runs = [(None, 0, 0, 2, None), (None, 0, 0, 3, 40)]
        if ps is not None:
            gone, fresh = _news(st, st.cw, ps)
            assert (gone, fresh) == _news_py(st, st.cw, ps)
            assert k.news(tables, st.cw, ps.cand, ps.cw) == (gone, fresh)
            prev = base_py[3]
            runs += [(prev, fresh, gone, 2, 10_000), (prev, fresh, gone, 3, 10_000),
                     (prev, fresh, gone, 3, 5), (prev, fresh, gone, 2, 0)]
            # a closure marked stale already (level 2 keeps it, level 3 searches again)
            marked = {key: (a, b, True) for key, (a, b, _) in list(prev.items())[::3]}
            runs.append(({**prev, **marked}, fresh, gone, 3, 10_000))
            runs.append(({**prev, **marked}, fresh, gone, 2, 10_000))
        for prev, fresh, gone, level, left in runs:
            py = _scan_py(st, cand, cw, st.unsolved, cells, 2, prev, fresh, gone, level, left)
            c = k.scan(tables, cand, cw, st.unsolved, cells, 2, prev, fresh, gone, level, left)
            assert _plain(c) == py, (level, left)
            if prev is not None:
                # the previous closures as the kernel keeps them (C memory), not as a dict
                kept = k.closures(tables, prev)
                assert kept.to_dict() == prev and len(kept) == len(prev)
                c2 = k.scan(tables, cand, cw, st.unsolved, cells, 2, kept, fresh, gone, level,
                            left)
                assert _plain(c2) == py, (level, left)
            checked += 1
            # the found chains with their rule facts (the state's grid as the base)
            py_r = _scan_py(st, cand, cw, st.unsolved, cells, 2, prev, fresh, gone, level, left,
                            st.cw)
            c_r = k.scan(tables, cand, cw, st.unsolved, cells, 2, prev, fresh, gone, level,
                         left, st.cw)
            assert _plain(c_r) == py_r, (level, left)
            assert py_r[:2] == py[:2] and py_r[3] == py[3]
            assert [h[:3] for h in py_r[2]] == [h[:3] for h in py[2]]
            for (x, e, _, waves), (_, _, _, rf) in zip(py[2], py_r[2]):
                assert rf == _rule_facts_ref(st, L, waves, x, e, 0)
                rules[0] += bool(rf)
            checked += 1
            if level == 3 and py[0]:
                # the static cell / region forcing chains from those closures (in the
                # order the Python code concludes them: the order of the facts applied)
                grid = _base(st) if ps is None else ps
                waves = {}

                def waves_of(key):
                    if key not in waves:
                        waves[key] = se_reach(st, L, key >> 5, key & 31, full=True)[1]
                    return waves[key]

                concl_py = _forcing_py(st, grid, py[3], waves_of)
                concl_c = k.forcing(tables, cand, cw, st.unsolved, grid.on, py[3],
                                    nested.SE_FORCING_CELL)
                assert list(concl_c.items()) == list(concl_py.items())
                # (from the scan's own closures, kept in C memory)
                assert list(k.forcing(tables, cand, cw, st.unsolved, grid.on, c[3],
                                      nested.SE_FORCING_CELL).items()) == list(concl_py.items())
                # (the kernel's default is SE's rule; two candidates: every group)
                assert k.forcing(tables, cand, cw, st.unsolved, grid.on, py[3]) == concl_c
                every_c = k.forcing(tables, cand, cw, st.unsolved, grid.on, py[3], 2)
                saved, nested.SE_FORCING_CELL = nested.SE_FORCING_CELL, 2
                try:
                    every_py = _forcing_py(st, grid, py[3], waves_of)
                finally:
                    nested.SE_FORCING_CELL = saved
                assert list(every_c.items()) == list(every_py.items())
                checked += 1
                forcing[0] += bool(concl_py)
    return checked


@needs_kernel
def test_kernel_matches_python_on_many_grids():
    rng = random.Random(29)
    checked, forcing, rules = 0, [0], [0]
    for line in _hardest(6, offset=3) + _exchange(6):
        checked += _compare_state(analyze(_puzzle(line).pencilmarks()), rng, 2, forcing, rules)
    assert checked > 2000 and forcing[0] > 0 and rules[0] > 0


@needs_kernel
@pytest.mark.slow
def test_kernel_matches_python_on_many_grids_long():
    rng = random.Random(1106)
    checked, forcing, rules = 0, [0], [0]
    for off in (0, 7, 11, 16):
        for line in _hardest(12, offset=off):
            checked += _compare_state(analyze(_puzzle(line).pencilmarks()), rng, 6, forcing,
                                      rules)
    for line in _exchange(40):
        checked += _compare_state(analyze(_puzzle(line).pencilmarks()), rng, 3, forcing, rules)
    assert checked > 20000 and forcing[0] > 10 and rules[0] > 10


def _rate(line: str, pure: bool, monkeypatch):
    """The se121 rating of ``line`` on one path, the shared level-probe memo cleared (it
    lives with the puzzle's link tables, shared by every classic puzzle)."""
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1" if pure else "0")
    p = _puzzle(line)
    analyze(p.pencilmarks()).links.derived(_shared).clear()
    r = SESolver("se121", unique=True).rate(p)
    steps = [(s.step.technique, s.step.placements, s.step.eliminations, s.step.pattern,
              s.step.links, s.step.note, sorted(s.step.extra.items()), s.value, s.producer,
              s.places) for s in r.steps]
    return (r.er, r.ep, r.ed, r.solved, r.hardest), steps


def _same_rating(line: str, monkeypatch) -> tuple:
    c = _rate(line, False, monkeypatch)
    py = _rate(line, True, monkeypatch)
    assert c[0] == py[0]
    assert c[1] == py[1]
    return c[0]


@needs_kernel
def test_rating_is_identical_on_both_paths(monkeypatch):
    # an ER-10.3 puzzle (SE) of the rated file: the level probe asks levels 2 and 3
    line = "1...5.7.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
    er, ep, ed, solved, _ = _same_rating(line, monkeypatch)
    assert solved and er >= 10.0


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize("line", _hardest(12, offset=11)[1:7])
def test_rating_is_identical_on_both_paths_hardest(line, monkeypatch):
    assert _same_rating(line, monkeypatch)[3]


@needs_kernel
def test_kernel_rejects_bad_input_with_an_exception():
    an = analyze(_puzzle(_hardest(1)[0]).pencilmarks())
    st = _static(an)
    k, tables = _kernel(st)
    args = [tables, st.cand, st.cw, st.unsolved, st.unsolved, 2, None, 0, 0, 2, None]
    for i, bad in ((1, st.cand[:-1]), (2, st.cw + [0]), (1, st.cand[:-1] + [1 << 12]),
                   (1, st.cand[:-1] + ["x"]), (3, -1), (4, 1 << 81), (0, "tables"),
                   (6, [1, 2]), (10, "many")):
        with pytest.raises((TypeError, ValueError, OverflowError)):
            k.scan(*args[:i], bad, *args[i + 1:])
    for bad in ([0] * 3, "cw", [1 << 90] * (st.n + 1)):
        with pytest.raises((TypeError, ValueError, OverflowError)):
            k.scan(*args, bad)
    with pytest.raises(ValueError):
        k.reach(tables, st.cand, st.cw, st.unsolved, 81, 1)
    with pytest.raises(ValueError):
        k.static_new(256, 16, [], [])
    keys = _scan_py(st, *args[1:])[3]
    for bad in ({key: "x" for key in keys}, {key: (1, 2) for key in keys},
                {key: (-1, 0, False) for key in keys}, {key: (1 << 900, 0, False) for key in keys},
                [1]):
        with pytest.raises((TypeError, ValueError, OverflowError)):
            k.forcing(tables, st.cand, st.cw, st.unsolved, 0, bad)


def test_grids_the_kernel_does_not_take_go_to_python():
    """A 16x16 grid (256 cells) is past the kernel's 128 cells: the Python scan answers."""
    line = next(x for x in (DATA / "sixteen.txt").read_text().split()
                if not x.startswith("#") and len(x) == 256)
    an = analyze(_puzzle(line).pencilmarks())
    st = _static(an)
    assert _kernel(st) is None
    args = (st.cand, st.cw, st.unsolved, st.unsolved, 2, None, 0, 0, 2, 50)
    assert _scan(st, *args) == _scan_py(st, *args)
