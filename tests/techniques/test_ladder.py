"""The ladder (techniques/ladder.py): one row per technique, the registry's only source of
order, score, level, default on/off and SE value."""
from __future__ import annotations

import pytest

import variants  # noqa: F401  (registers the rule families' own techniques)
from techniques import ladder, registry
from techniques.se_rating import producers


def test_every_technique_has_a_row_and_every_row_a_technique():
    registered = set(registry.load())
    rows = [r.name for r in ladder.LADDER]
    assert len(rows) == len(set(rows))
    assert registered - set(rows) == set()
    assert set(rows) - registered == set()
    # the rule families' techniques are rows too
    assert {"consecutive_chain", "killer_combinations", "inequality_bounds",
            "law_of_leftovers"} <= set(rows)


def test_the_registry_takes_its_values_from_the_ladder():
    for r in ladder.LADDER:
        t = registry.get(r.name)
        assert (t.order, t.score, t.level, t.enabled, t.se) == (r.order, r.score, r.level,
                                                                r.on, r.se)
    assert [t.name for t in registry.all_techniques()] == [
        r.name for r in sorted(ladder.LADDER, key=lambda r: (r.order, r.name))]


def test_rows_are_well_formed():
    orders = [r.order for r in ladder.LADDER]
    assert len(set(orders)) == len(orders)
    assert orders == sorted(orders)          # the table reads in solving order
    for r in ladder.LADDER:
        assert r.level in registry.LEVELS and r.score > 0
        assert r.se is None or 1.0 <= r.se <= 11.0


def test_the_se_producers_and_the_ladder_agree():
    """Every technique an SE producer draws on has an SE value, every SE value is used by
    a producer, and a producer's base is its techniques' lowest value unless it is one of
    SE's own filtered producers (direct hints, Nishio below it; DFC+, SE's nesting level 1,
    above it: nets with an option; SE's nesting levels 2 and 3, below the nested nets:
    their own probe, docs/se-rating.md)."""
    own = {"direct_pointing", "direct_claiming", "direct_hidden_pair", "direct_hidden_triple",
           "nishio", "se_level2", "se_level3"}
    above = {"dynamic_forcing_plus"}
    used = set()
    for p in producers("extended"):
        values = [ladder.se_tenths(t) for t in p.techniques]
        assert None not in values, p.name
        used.update(p.techniques)
        if p.name in above:
            assert p.base > min(values), p.name
        elif p.name not in own:
            assert p.base == min(values), p.name
        else:
            assert p.base < min(values), p.name
    assert used == {r.name for r in ladder.LADDER if r.se is not None}


def test_register_refuses_ladder_fields_and_unknown_techniques():
    with pytest.raises(TypeError, match="ladder"):
        registry.register("x_wing", "X-Wing", "fish", score=1)
    with pytest.raises(ValueError, match="no row"):
        registry.register("no_such_technique", "None", "misc")


# -- the classic ladder leaves the rule-reading techniques out ------------------------------
#: top1465 #47: with set equivalence on, its HoDoKu-style path had a ``set_sums`` step
SET_CLASSIC = "...9.3.5.2.....7............59..1......4..6...43......4..67...........91....2...."


def test_classic_grid_skips_rule_reading_techniques() -> None:
    from techniques import StepSolver
    from techniques.ladder import CLASSIC_SKIP
    from techniques.loop import is_classic_grid
    from variants.classic import classic_puzzle
    p = classic_puzzle(SET_CLASSIC)
    assert is_classic_grid(p)
    default = StepSolver("default").solve(p, time_limit=30)
    assert default.status == "solved"
    assert not {s.technique for s in default.steps} & CLASSIC_SKIP
    # named explicitly, a run still gets it (the same puzzle, set_sums before x-wings)
    named = StepSolver("default,set_sums").solve(classic_puzzle(SET_CLASSIC), time_limit=30)
    assert "set_sums" in {s.technique for s in named.steps}


def test_jigsaw_and_variants_keep_rule_reading_techniques() -> None:
    from csp.grid import Grid
    from techniques.loop import is_classic_grid
    from variants.classic import classic_puzzle
    from variants import diagonal
    rows = [[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)]
    rows[0][2], rows[3][2] = rows[3][2], rows[0][2]    # r1c3 and r4c3 swap regions
    jigsaw = classic_puzzle("." * 81, grid=Grid(9, regions=[v for row in rows for v in row]))
    assert not is_classic_grid(jigsaw)
    x = classic_puzzle("." * 81)
    x.use(diagonal())
    assert not is_classic_grid(x)
    assert is_classic_grid(classic_puzzle("." * 256))


def test_jigsaw_variants_keep_franken_fish_before_the_forcing_family() -> None:
    """A variant on irregular regions tries the Franken X-wing / swordfish (rows against
    regions: its plain fish) before the forcing nets; on regular boxes they stay after."""
    from csp.grid import Grid
    from techniques import StepSolver
    from techniques.ladder import JIGSAW_KEEP
    from variants.chess import anti_knight
    from variants.classic import classic_puzzle
    rows = [[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)]
    rows[0][2], rows[3][2] = rows[3][2], rows[0][2]
    jig = classic_puzzle("." * 81, grid=Grid(9, regions=[v for row in rows for v in row]))
    box = classic_puzzle("." * 81)
    for p in (jig, box):
        p.use(anti_knight())

    def plan(p):
        return [t.name for t, _, _ in StepSolver("default").start(p).plan()]
    for p, before in ((jig, True), (box, False)):
        names = plan(p)
        for f in JIGSAW_KEEP & set(names):
            assert (names.index(f) < names.index("forcing_net_contradiction")) is before, f
