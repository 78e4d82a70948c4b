"""Kept results that must equal a fresh search. The colouring techniques' steps are kept per
digit (``coloring._per_digit``, on ``Analysis.digit_memo``): a digit whose candidate cells
did not change since its steps were found is not searched again, and the kept steps are the
ones a fresh search finds. The avoidable rectangles read a per-puzzle list of the
rectangles without a given."""
from __future__ import annotations

from csp import links
from techniques import coloring
from techniques.analysis import Analysis
from variants.classic import classic_puzzle

from conftest import counted_calls, path_states, sample_lines

FINDERS = (coloring.simple_colors_trap, coloring.simple_colors_wrap,
           coloring.multi_colors_1, coloring.multi_colors_2)


def _found(an: Analysis) -> list:
    return [[(s.explain(2), s.eliminations, s.extra) for s in f(an, {})] for f in FINDERS]


def test_kept_steps_are_a_fresh_search(monkeypatch):
    """Along solve paths, each state's colouring steps from an analysis derived from the
    previous one (the memo warm) equal those of a cold search (empty link-table caches)."""
    lines = sample_lines("tdoku_magictour_top1465", 6, seed=4)
    states = found = 0
    prev = None
    for st in path_states(lines, 60, 3):
        an = Analysis(st, prev=prev if prev is not None and prev.puzzle is st.puzzle
                      else None)
        warm = _found(an)
        with monkeypatch.context() as m:
            m.setattr(links, "_LAYOUTS", {})
            cold = _found(Analysis(st.copy()))
        assert warm == cold
        prev = Analysis(st)
        states += 1
        found += sum(map(len, warm))
    assert states >= 30 and found > 0


def test_an_unchanged_digit_is_not_searched_again(monkeypatch):
    monkeypatch.setattr(links, "_LAYOUTS", {})     # cold caches
    st = classic_puzzle(sample_lines("tdoku_magictour_top1465", 1, seed=4)[0]).pencilmarks()
    calls = {name: counted_calls(monkeypatch, coloring, name)
             for name in ("_trap", "_wrap", "_multi_1", "_multi_2")}
    first = _found(Analysis(st))
    assert all(len(c) == 9 for c in calls.values())
    # one digit loses a candidate: only that digit is searched again
    c = next(c for c in range(81) if st.cand[c] >> 5 & 1 and st.cand[c].bit_count() > 1)
    st2 = st.copy()
    st2.cand[c] &= ~(1 << 5)
    st2.version += 1
    _found(Analysis(st2))
    assert all(len(c) == 10 for c in calls.values())
    assert _found(Analysis(st)) == first
    assert all(len(c) == 10 for c in calls.values())


def test_avoidable_rectangles_of_puzzles_sharing_a_layout():
    """The avoidable rectangles' list (rectangles with 2+ corners placed by logic and no
    given) is the same as a direct count, on states of several puzzles whose link tables
    (and so the per-puzzle memo of the rectangles without a given) are shared."""
    from techniques import uniqueness
    lines = sample_lines("tdoku_magictour_top1465", 4, seed=8)
    states = 0
    for st in path_states(lines, 80, 8):
        an = Analysis(st)
        want = []
        for rect, rm in uniqueness._rect_masks(an):
            corners = [c for c in rect if st.placed[c]]
            if len(corners) >= 2 and not any(st.given[c] for c in corners):
                want.append((rect, [uniqueness._solved_value(an, c) for c in rect]))
        assert uniqueness._avoidable(an) == want
        states += 1
    assert states >= 20


def test_lazy_als_list_is_the_eager_list(monkeypatch):
    """On the compiled path :func:`techniques.als.find_als` is a :class:`LazyALS` over the
    kernel's rows: the same ALS (cells, digits, places, house, full house, index) in the
    same order as the Python enumeration's sorted list, and an object is made only when
    read."""
    import pytest

    from techniques import als
    if als._enum_kernel(Analysis(classic_puzzle("." * 81).pencilmarks())) is None:
        pytest.skip("techniques._als_kernel is not built (or SUDOKU_CSP_PURE=1)")
    lines = sample_lines("tdoku_magictour_top1465", 4, seed=9)
    states = 0
    for st in path_states(lines, 60, 6):
        an = Analysis(st)
        lazy = als.find_als(an, 0)
        assert isinstance(lazy, als.LazyALS)
        assert lazy._objs.count(None) == len(lazy)
        with monkeypatch.context() as m:
            m.setattr(als, "_enum_kernel", lambda an: None)     # the Python enumeration
            eager = als._find_als(Analysis(st.copy()), 0)
        assert lazy.cells() == [a.cells for a in eager]
        assert lazy.masks() == [a.mask for a in eager]
        assert len(lazy) == len(eager) and lazy[-1:] == [lazy[len(lazy) - 1]]
        assert [(a.cells, a.mask, a.pos, a.house, a.in_full, a.index) for a in lazy] == \
            [(a.cells, a.mask, a.pos, a.house, a.in_full, a.index) for a in eager]
        assert lazy[0] is lazy[0]
        states += 1
    assert states >= 10
