"""Band Arrangement (variants/arrangement_logic.py): a band's three rows (or a stack's columns),
its boxes and every rule inside it filled together; a candidate in no such filling goes.

The real state is "Anti-XV Coverage" (tests/data, CC BY 4.0, negative XV: neighbours
without a marker sum to neither 5 nor 10) on its default path, at the first step that the
band arrangement makes that the default solver without it does not (it takes a forcing net
there). The expected eliminations come from an independent oracle: a puzzle made only of
the rules lying wholly inside the band, solved by the model's own search (``Puzzle.solve``)
once per candidate, not through the link tables the technique reads."""
from __future__ import annotations

import re

import pytest

from csp import Puzzle
from csp.bits import digits_of, iter_cells
from sudoku_csp.formats.loader import marks_state
from techniques import StepSolver
from variants.classic import classic
from variants.arrangement_logic import arrangement_tables, bands

from conftest import fpuzzle, region_oracle
from test_house_arrangement import anti_xv
from test_variant_logic import assert_sound, found


#: the candidates at the default path's first band step that the solver without it does
#: not make (it takes a nested forcing net there)
ANTI_XV_BAND = """
23456789 23456789 23456789 23456789 23456789 23456789 35789 3578 1 1356789 1356789 1356789
1356789 1356789 1356789 35789 4 2 12345789 789 12345789 12345789 1235789 12345789 35789
35789 6 5689 123 234 1234 1234 5689 5689 5689 7 123456789 13456789 123456789 123456789
123456789 6789 1234 125689 4589 123456789 12456789 123456789 123456789 123456789 56789 1234
123568 34589 123456789 123456789 123456789 123456789 1234 1234 1234 56789 34589 123456789
123456789 123456789 123456789 123456789 123456789 123456789 1256789 34589 123456789
123456789 123456789 123456789 123456789 123456789 123456789 1256789 34589"""


def only_forcing_left(st) -> bool:
    """The default solver without the band arrangement and without the forcing family
    finds no step at ``st``."""
    forcing = ("forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
               "forcing_net_verity", "forcing_net_nested")
    return StepSolver(["default", "-band_arrangement", *(f"-{f}" for f in forcing)]
                      ).next_step(st) is None

def oracle(p: Puzzle, st, band_cells: set[int]) -> set[tuple[int, int]]:
    """The candidates of the band's open cells that no filling of the band keeps (its rows,
    boxes and the rules inside it; :func:`conftest.region_oracle`)."""
    return region_oracle(p, st, band_cells)


def test_anti_xv_band_filled_whole() -> None:
    """Rows 4-6 with their boxes and the XV rules inside: the eliminations are exactly the
    oracle's and none removes a digit of the solution; the solver without the band
    arrangement has nothing but the forcing family at this state."""
    p, sol = anti_xv()
    st = marks_state(ANTI_XV_BAND, p)
    assert all(st.cand[c] >> sol[c] & 1 or st.placed[c] == sol[c] for c in range(81))
    assert only_forcing_left(st)
    steps = found(p, st, "band_arrangement")
    assert [s.houses[:3] for s in steps] == [("row 4", "row 5", "row 6")]
    t = arrangement_tables(p)
    for s in steps:
        name = s.explain(2).split(": ", 1)[1].split(" with ", 1)[0]
        houses = next(h for h, n, _ in t.bands if n == name)
        cells = set(iter_cells(t.cells(houses)))
        assert set(s.eliminations) == oracle(p, st, cells), s.explain(2)
        assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert_sound(p, st, steps[:2])


def test_bands_of_grids() -> None:
    """A classic 9x9 grid has three bands and three stacks, but no band is searched when no
    rule joins its cells; a rule inside one band makes that band alone a candidate."""
    p = Puzzle(9).use(classic())
    assert len(bands(p)) == 6
    assert arrangement_tables(p).bands == []
    p = Puzzle(9).use(classic()).add_sum(["r1c1", "r2c4"], 10)
    assert [name for _, name, _ in arrangement_tables(p).bands] == ["rows 1-3"]
    # a killer cage of three cells inside a stack is one of its rules
    p = Puzzle(9).use(classic()).add_sum(["r1c1", "r4c1", "r7c1"], 6)
    got = {name: rules for _, name, rules in arrangement_tables(p).bands}
    assert list(got) == ["columns 1-3"] and len(got["columns 1-3"]) == 1


def test_cage_inside_band_is_kept() -> None:
    """A sum of three cells (one per box of the band, not a house) is read by its check:
    r1c1 + r2c4 + r3c7 = 6 (not all different) with r2c4 and r3c7 from 1 and 2 leaves r1c1
    no 1 (the other two would add up to 5); the eliminations agree with the oracle's
    candidate by candidate."""
    p = Puzzle(9).use(classic()).add_sum(["r1c1", "r2c4", "r3c7"], 6)
    st = p.propagate()
    st.cand[p.cell("r1c1")] = 1 << 1 | 1 << 2 | 1 << 3
    st.cand[p.cell("r2c4")] = 1 << 1 | 1 << 2
    st.cand[p.cell("r3c7")] = 1 << 1 | 1 << 2
    steps = found(p, st, "band_arrangement")
    got = {(c, d) for s in steps for c, d in s.eliminations}
    assert got == oracle(p, st, set(range(27)))
    assert (p.cell("r1c1"), 1) in got and (p.cell("r1c1"), 2) not in got
    assert_sound(p, st, steps)


def test_wide_band_option() -> None:
    """``band_wide``: a band with one more line joined to it by rules (rows 4-6 and row 3,
    XV rules across the edge) is filled too; it finds what the band alone finds and more,
    none of it a digit of the solution."""
    p, sol = anti_xv()
    st = marks_state(ANTI_XV_BAND, p)
    narrow = {(c, d) for s in found(p, st, "band_arrangement") for c, d in s.eliminations}
    steps = StepSolver(options={"band_wide": True}).find_all(st, "band_arrangement")
    wide = {(c, d) for s in steps for c, d in s.eliminations}
    assert narrow < wide
    assert any(" and row " in s.explain(2) for s in steps)
    assert not any(sol[c] == d for c, d in wide)
    assert_sound(p, st, steps[-1:])


#: "Trollscraper" (tests/data, CC BY 4.0, skyscraper clues only) on its default path at the
#: first band step: without the line supports pruning the fillings, the band's search ran
#: out of nodes here and a forcing net took r2c7<>1 (and the next three) instead
TROLLSCRAPER_BAND = """
456 12345678 1234567 12345689 12345689 123456 12345679 123456 34567 12345 12348 1234568
12345678 123456789 1234567 123459 12345 23456 12345 12349 12345679 123456 123456 123456
1234567 1234567 8 12345 12348 12345678 1245678 12345678 12345678 1234567 9 1234567 9
12345678 12345678 12345678 12345678 12345678 1234568 123456 234567 34568 1234567 1234567
12345679 123456789 123456789 123458 1234567 1234567 1234568 1234569 12345689 123456789
123456789 123456789 12345 1234567 1234567 1234568 124568 123459 12345678 123456789
123456789 12345 1234567 1234567 7 123456 123456 123456 123456 123456 3456 8 9"""


def trollscraper() -> tuple[Puzzle, list[int]]:
    return _fpuzzle("Trollscraper")


def test_skyscraper_band_pruned_by_line_supports(monkeypatch) -> None:
    """Rows 1-3 with their six skyscraper clues: the fillings are pruned at each node by the
    clues' exact line supports (``Constraint.supports``), so the search ends within its
    budget; the eliminations are exactly the oracle's (r2c7 keeps only 9 of 1-5 and 9), none
    a digit of the solution. Without the pruning the same search runs out of nodes and
    finds none of them, and the solver without the band step has only the forcing family."""
    p, sol = trollscraper()
    st = marks_state(TROLLSCRAPER_BAND, p)
    assert all(st.cand[c] >> sol[c] & 1 or st.placed[c] == sol[c] for c in range(81))
    assert only_forcing_left(st)
    steps = found(p, st, "band_arrangement")
    rows13 = [s for s in steps if s.explain(2).startswith("Band Arrangement: rows 1-3 ")]
    assert rows13, [s.explain(2) for s in steps]
    got = set(rows13[0].eliminations)
    assert got == oracle(p, st, set(range(27)))
    assert {(p.cell("r2c7"), d) for d in (1, 2, 3, 4, 5)} <= got
    assert not any(sol[c] == d for s in steps for c, d in s.eliminations)
    # the same search without the pruning (a fresh puzzle: no fillings kept from above)
    from variants import arrangement_logic
    monkeypatch.setattr(arrangement_logic._Filler, "prune", lambda self, dom: True)
    p2, _ = trollscraper()
    bare = found(p2, marks_state(TROLLSCRAPER_BAND, p2), "band_arrangement")
    assert not any((p2.cell("r2c7"), 1) in s.eliminations for s in bare)


def test_skyscraper_band_nothing_to_remove() -> None:
    """A band whose clue every candidate left can still satisfy gives no step: one clue of 3
    over row 1 of an empty grid after propagation (the line's own supports have removed
    what it forbids, and each box and row fills around them)."""
    from variants.outside import skyscraper
    p = Puzzle(9).use(classic(), skyscraper(1, 0, 3))
    st = p.propagate()
    assert arrangement_tables(p).bands and not found(p, st, "band_arrangement")


#: "Keep off the Border!" (tests/data, CC BY 4.0: anti-knight, lockout lines, a thermo) on its
#: default path at the first band step: the lockout lines' three-cell rules (a cell and the
#: two ends) prune the fillings through their tables of allowed triples
#: (``FunctionConstraint.supports``); without that the search ran out of nodes and a nested
#: forcing net came next
BORDER_BAND = """
123456789 12346789 146789 12346789 46789 12345678 123456789 123456789 123456789 12346789
12346789 123456789 123456789 12346789 12346789 12346789 12346789 12346789 123456789
12346789 12346789 12346789 12346789 123456789 123456789 123456789 123456789 123456789
12346789 12346789 12346789 123456789 12346789 123456789 123456789 123456789 12346789
123456789 123456789 123456789 12346789 12346789 12346789 123456789 123456789 12346789
123456789 12346789 12346789 123456789 123456789 123456789 123456789 123456789 12346789
123456789 12346789 123456789 123456789 123456789 123456789 12346789 123456789 12346789
123456789 123456789 123456789 123456789 12346789 123456789 123456789 12346789 123456789
123456789 123456789 123456789 123456789 123456789 123456789 123456789 123456789"""


def _fpuzzle(title: str) -> tuple[Puzzle, list[int]]:
    return fpuzzle(title)


def test_lockout_band_pruned_by_rule_tables() -> None:
    """Rows 1-3 with three lockout lines, the thermo and the anti-knight links: no filling
    has r1c1=4 (nor 2, 3, 6, 7, 8), and the solution keeps its digits; the lockout lines'
    three-cell rules prune the search, and a digit a row or box lacks is placed where it
    has one or two places. (The oracle, a SAT search per candidate, removes more here: the
    band's total budget leaves the later candidates undecided, which keeps them.)"""
    p, sol = _fpuzzle("Keep off the Border!")
    st = marks_state(BORDER_BAND, p)
    assert all(st.cand[c] >> sol[c] & 1 for c in range(81))
    steps = [s for s in found(p, st, "band_arrangement")
             if s.explain(2).startswith("Band Arrangement: rows 1-3 ")]
    assert len(steps) == 1
    got = set(steps[0].eliminations)
    # r1c1 keeps only 5 (the solution's) and 9 of 2-9 (the search's total budget is spent
    # on r1c1's candidates, the first cell, before the others')
    assert {(p.cell("r1c1"), d) for d in (2, 3, 4, 6, 7, 8)} <= got
    assert not any(sol[c] == d for c, d in got)
    assert got <= oracle(p, st, set(range(27)))
    # the lockout rules are among the band's pruners
    from variants.arrangement_logic import _Filler, arrangement_tables as tables
    rules = next(r for _, name, r in tables(p).bands if name == "rows 1-3")
    filler = _Filler(list(range(27)), [st.cand[c] for c in range(27)], {
        (c, d): () for c in range(27) for d in range(1, 10)}, [], 10, rules, st.placed)
    assert sum(con.kind == "function" for con, _, _ in filler.pruners) >= 10


def _band_filler(p: Puzzle, st, name: str, budget: int, dead: dict | None = None,
                 rules: tuple | None = None):
    """The band search of ``name`` at ``st`` as :func:`arrangement_logic._fill_regions` builds
    it (its forbid table, groups and lacking digits), with ``dead`` states (or ``rules``
    in place of the band's)."""
    from techniques.analysis import Analysis
    from variants.arrangement_logic import _Filler, _required
    an = Analysis(st)
    t = arrangement_tables(p)
    houses, _, band_rules = next(b for b in t.bands if b[1] == name)
    inside = t.cells(houses)
    cells = [c for c in iter_cells(inside) if st.cand[c]]
    index = {c: i for i, c in enumerate(cells)}
    groups = [sum(1 << index[c] for c in iter_cells(an.house_mask[h] & inside) if c in index)
              for h in houses]
    return _Filler(cells, [st.cand[c] for c in cells], t.removes(houses), groups, budget,
                   rules if rules is not None else band_rules, st.placed, None,
                   _required(an, houses, inside),
                   t.forbid_table(houses, cells), dead)


def test_band_removes_are_symmetric() -> None:
    """What the search takes out on a placement (``ArrangementTables.removes``) is
    symmetric, as weak links are, and takes a digit from every other cell of a house: the
    search's bookkeeping (a placed cell keeps its digit, a house lacks the digits not
    placed in it) relies on both."""
    p, _ = anti_xv()
    t = arrangement_tables(p)
    for houses, _, _ in t.bands:
        removes = t.removes(houses)
        took = {(c, d, c2, d2) for (c, d), out in removes.items() for c2, m in out
                for d2 in range(1, 10) if m >> d2 & 1}
        assert took and all((c2, d2, c, d) in took for c, d, c2, d2 in took)
        for h in houses:
            cells = p.houses()[h].cells
            assert all((c, d, c2, d) in took for c in cells for c2 in cells if c2 != c
                       for d in range(1, 10))


def test_band_search_replays_failed_states() -> None:
    """A band search that keeps the states it saw fail (``dead``) and meets them again (a
    second look at the same cells and digits) counts the nodes of a search that walks
    them all, so every budget stops it at the same place: the same supports, fillings and
    node counts as the search with a rule that always holds (with rules, no state is
    kept), for a budget per candidate or one for all."""
    from csp.constraints import Constraint

    class Always(Constraint):
        def __init__(self, cells) -> None:
            self.cells, self.name = tuple(cells), "always"

        def check(self, *values: int) -> bool:
            return True

    p, _ = anti_xv()
    st = marks_state(ANTI_XV_BAND, p)
    rule = (Always(c for c in range(27, 30) if st.cand[c]),)
    assert len(rule[0].cells) == 3

    def outcome(filler, total):
        try:
            return filler.supports(total), filler.found, filler.nodes
        except TimeoutError:
            return "out of nodes", filler.nodes

    whole = _band_filler(p, st, "rows 4-6", 10 ** 6, rules=rule)
    whole.supports()
    assert whole.dead is None and whole.nodes > 100
    dead: dict = {}
    runs = [(10 ** 6, None), (whole.nodes, None), (whole.nodes - 1, None), (5, 10 ** 6),
            (20, 10 ** 6), (60, 10 ** 6), (20, 200)]
    runs += [(budget, None) for budget in range(1, 300, 2)]
    for budget, total in runs:
        want = outcome(_band_filler(p, st, "rows 4-6", budget, rules=rule), total)
        for _ in range(2):      # the first fills ``dead`` further, the second replays it
            assert outcome(_band_filler(p, st, "rows 4-6", budget, dead), total) == want
    assert dead


#: the forcing family as the setter report counts it (``benchmarks/variants.py``)
FORCING_FAMILY = frozenset((
    "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
    "forcing_net_verity", "forcing_net_nested", "kraken_fish_type_1", "kraken_fish_type_2",
    "template_set", "template_delete", "polarity_chain", "digit_chain_exclusion",
    "digit_chain_verity"))


def _forcing_steps(title: str, options: dict | None = None) -> list[str]:
    p, sol = _fpuzzle(title)
    res = StepSolver("default", options=options, verify=sol).solve(p, time_limit=120)
    assert res.status == "solved"
    return [s.technique for s in res.steps if s.technique in FORCING_FAMILY]


def test_band_total_budget_whispers() -> None:
    """"Y Are We Whispering?" (tests/data, CC BY 4.0: whispers and killer cages): with the
    default budget of a band's searches at one look (``BAND_TOTAL``) its band steps carry
    the whole solve, no forcing-family step (the path's every step checked against the
    stated solution)."""
    from variants.arrangement_logic import BAND_TOTAL
    assert BAND_TOTAL >= 50_000
    assert _forcing_steps("Y Are We Whispering?") == []


@pytest.mark.slow
def test_band_total_budget_is_what_frees_whispers() -> None:
    """The same solve with the former budget (20,000 nodes a band) runs out of search
    and falls back on forcing nets and a polarity trial: the budget is what it needed."""
    assert _forcing_steps("Y Are We Whispering?", {"band_total": 20_000})


def test_reasons_name_each_candidate_and_prove_nothing_false() -> None:
    """The band step says why each candidate goes (a representative's line of reasoning,
    the others grouped by where theirs ends), and the reasoning it tells is sound: on the
    same band, no candidate that has a filling gets a proof (a line of reasoning, or two
    cases that both end), and a search through the cases of a solution digit finds a way
    out rather than counting it as failed."""
    p, sol = anti_xv()
    st = marks_state(ANTI_XV_BAND, p)
    step, = found(p, st, "band_arrangement")
    text = step.explain(2)
    head, why = text.split(". Why: ", 1)
    assert head.endswith("=> r5c4<>4, r5c5<>4, r5c6<>9, r5c7<>1, r6c4<>1, r6c5<>1")
    # r5c4=4 is pictured: its consequences up to the split on box 5's 9, each case's end
    assert why.startswith("r5c4=4 (pictured): r4c3=4 (only 4 in row 4), r4c2=1, r6c5=1 "
                          "(only 1 in box 5), r5c6<>6 (X: no digit of r5c7 fits); then the "
                          "9 of box 5 is in r4c6 or r5c6 (if r4c6=9, ")
    named = {(m.group(1), d) for m in re.finditer(r"(r\d+c\d+)=(\d(?:/\d)*)", why)
             for d in m.group(2).split("/")}
    assert {(p.grid.name(c), str(d)) for c, d in step.eliminations} <= named
    picture = step.extra["detail"].picture()
    assert picture["trial"] == (p.cell("r5c4"), 4)
    assert (p.cell("r4c3"), 4) in picture["forced"]
    w = step.extra["detail"].why
    gone = set(step.eliminations)
    for i, c in enumerate(w.cells):
        for d in digits_of(w.doms[i]):
            if (c, d) not in gone:
                assert w.prove(i, d) is None, (p.grid.name(c), d)
        assert w.search(i, sol[c]).search[2] is False, p.grid.name(c)
