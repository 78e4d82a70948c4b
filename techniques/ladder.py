"""The ladder: every technique's place among the others, in one table.

One row per registered technique (the technique families' own and the rule families'
``*_logic`` techniques alike, by name: this module imports nothing):

* ``order``: the solver tries techniques in this order (lowest first; HoDoKu's order);
* ``score``: HoDoKu-style rating points per step (:func:`techniques.solver.rate_steps`);
* ``level``: HoDoKu difficulty level of a step (``E``asy, ``M``edium, ``H``ard,
  ``U``nfair, e``X``treme);
* ``on``: in the ``"default"`` selection;
* ``se``: Sudoku Explainer value of the technique's plainest step (SE scale 1.0 .. 11.0;
  None: SE rates no such step). The SE-like rating (:mod:`techniques.se_rating`) takes its
  producers' base values from here; how a step's value grows past it (chain length, nesting
  depth, SE's direct variants) is the rating's own logic.

A technique's code (``@register(name, title, family, code=..., options=...)`` in its family
module) says what it finds; this table says where it stands. Adding a technique touches its
family module and one row here. The registry refuses a technique without a row, and a test
checks that every row names a registered technique.

>>> rung("x_wing")
Rung(name='x_wing', order=2200, score=140, level='hard', on=True, se=3.2)
>>> se_tenths("x_wing"), se_tenths("template_set")
(32, None)
"""
from __future__ import annotations

from typing import NamedTuple


class Rung(NamedTuple):
    """One row of the ladder (see the module docstring)."""

    name: str
    order: int
    score: int
    level: str
    on: bool
    se: float | None


E, M, H, U, X = "easy", "medium", "hard", "unfair", "extreme"
ON, OFF = True, False

#: every technique, in solving order
LADDER: tuple[Rung, ...] = tuple(Rung(*row) for row in (
    # name                                 order  score level on    se
    ("full_house",                          100,     4, E, ON,   1.0),
    ("naked_single",                        200,     4, E, ON,   2.3),
    ("hidden_single",                       300,    14, E, ON,   1.2),
    ("consecutive_gap_cell",                330,    10, E, ON,  None),
    ("consecutive_neighbours",              335,    10, E, ON,  None),
    ("thermo_length",                       336,    10, E, ON,  None),
    ("sandwich_crusts",                     337,    10, E, ON,  None),
    ("x_sum_length",                        338,    10, E, ON,  None),
    ("whisper_neighbours",                  339,    10, E, ON,  None),
    ("killer_combinations",                 340,    10, E, ON,  None),
    ("inequality_bounds",                   345,    20, E, ON,  None),
    ("constraint",                          350,    10, E, ON,  None),
    ("pair_rules",                          360,    20, E, ON,  None),
    ("consecutive_pair_cell",               900,    40, M, ON,  None),
    ("consecutive_triple_cell",             910,    40, M, ON,  None),
    ("consecutive_locked_pair",             950,    50, M, ON,  None),
    ("consecutive_locked_nearby",           960,    50, M, ON,  None),
    ("consecutive_locked_triple",           970,    50, M, ON,  None),
    ("consecutive_check_pattern",           980,    50, M, ON,  None),
    ("consecutive_chain",                   990,    50, M, ON,  None),
    ("neighbour_pinch",                     995,    50, M, ON,  None),
    ("dot_chain",                           996,    50, M, ON,  None),
    ("locked_pair",                        1000,    40, M, ON,   3.0),
    ("locked_triple",                      1100,    60, M, ON,   3.6),
    ("locked_candidates_pointing",         1200,    50, M, ON,   2.6),
    ("locked_candidates_claiming",         1210,    50, M, ON,   2.8),
    ("clone_pointing",                     1215,    50, M, ON,  None),
    ("parity_count",                       1217,    40, M, ON,  None),
    ("rule_pointing",                      1218,    60, M, ON,  None),
    ("pair_mandatory",                     1219,    50, M, ON,  None),
    ("mandatory_inclusion",                1220,    50, M, ON,  None),
    ("cage_rules",                         1225,    60, M, ON,  None),
    ("cage_house_overlap",                 1230,    50, M, ON,  None),
    ("region_sum_segments",                1235,    40, M, ON,  None),
    ("between_span",                       1236,    40, M, ON,  None),
    ("lockout_span",                       1237,    40, M, ON,  None),
    ("renban_mandatory",                   1238,    50, M, ON,  None),
    ("renban_house_overlap",               1239,    50, M, ON,  None),
    ("entropic_groups",                    1240,    50, M, ON,  None),
    ("modular_groups",                     1241,    50, M, ON,  None),
    ("whisper_polarity",                   1242,    50, M, ON,  None),
    ("innies",                             1250,    40, M, ON,  None),
    ("outies",                             1251,    40, M, ON,  None),
    ("innies_outies",                      1260,    60, M, ON,  None),
    ("cage_splitting",                     1265,    60, M, ON,  None),
    ("law_of_leftovers",                   1270,    60, M, ON,  None),
    ("naked_pair",                         1300,    60, M, ON,   3.0),
    ("naked_triple",                       1400,    80, M, ON,   3.6),
    ("hidden_pair",                        1500,    70, M, ON,   3.4),
    ("hidden_triple",                      1600,   100, M, ON,   4.0),
    ("naked_quadruple",                    2000,   120, H, ON,   5.0),
    ("hidden_quadruple",                   2100,   150, H, ON,   5.4),
    ("x_wing",                             2200,   140, H, ON,   3.2),
    ("swordfish",                          2300,   150, H, ON,   3.8),
    ("jellyfish",                          2400,   160, H, ON,   5.2),
    ("squirmbag",                          2500,   470, U, OFF, None),
    ("whale",                              2600,   470, U, OFF, None),
    ("leviathan",                          2700,   470, U, OFF, None),
    ("remote_pair",                        2800,   110, H, ON,   5.0),
    ("bug_plus_1",                         2900,   100, H, ON,   5.6),
    ("skyscraper",                         3000,   130, H, ON,   4.0),
    ("two_string_kite",                    3100,   150, H, ON,   4.1),
    ("dual_two_string_kite",               3110,   150, H, OFF,  4.1),
    ("turbot_fish",                        3120,   120, H, ON,   4.2),
    ("empty_rectangle",                    3170,   120, H, ON,   4.3),
    ("dual_empty_rectangle",               3180,   120, H, OFF,  4.3),
    ("w_wing",                             3200,   150, H, ON,   4.4),
    ("xy_wing",                            3300,   160, H, ON,   4.2),
    ("xyz_wing",                           3400,   180, H, ON,   4.4),
    ("wxyz_wing",                          3450,   200, H, ON,   5.5),
    ("vwxyz_wing",                         3460,   220, H, ON,   6.2),
    ("uvwxyz_wing",                        3470,   240, H, ON,   6.6),
    ("relaxed_wing",                       3480,   260, H, OFF, None),
    ("uniqueness_test_1",                  3500,   100, H, ON,   4.5),
    ("uniqueness_test_2",                  3600,   100, H, ON,   4.5),
    ("uniqueness_test_3",                  3700,   100, H, ON,   4.5),
    ("uniqueness_test_4",                  3800,   100, H, ON,   4.5),
    ("uniqueness_test_5",                  3900,   100, H, ON,  None),
    ("uniqueness_test_6",                  4000,   100, H, ON,  None),
    ("hidden_rectangle",                   4010,   100, H, ON,  None),
    ("avoidable_rectangle_1",              4020,   100, H, ON,  None),
    ("avoidable_rectangle_2",              4030,   100, H, ON,  None),
    ("finned_x_wing",                      4100,   130, H, ON,   3.4),
    ("sashimi_x_wing",                     4200,   150, H, ON,   3.5),
    ("finned_swordfish",                   4300,   200, U, ON,   4.0),
    ("siamese_finned_swordfish",           4301,   200, U, OFF, None),
    ("sashimi_swordfish",                  4400,   240, U, ON,   4.1),
    ("siamese_sashimi_swordfish",          4401,   240, U, OFF, None),
    ("finned_jellyfish",                   4500,   250, U, ON,   5.4),
    ("siamese_finned_jellyfish",           4501,   250, U, OFF, None),
    ("sashimi_jellyfish",                  4600,   260, U, ON,   5.6),
    ("siamese_sashimi_jellyfish",          4601,   260, U, OFF, None),
    ("finned_squirmbag",                   4700,   470, U, OFF, None),
    ("sashimi_squirmbag",                  4800,   470, U, OFF, None),
    ("finned_whale",                       4900,   470, U, OFF, None),
    ("sashimi_whale",                      5000,   470, U, OFF, None),
    ("finned_leviathan",                   5100,   470, U, OFF, None),
    ("sashimi_leviathan",                  5200,   470, U, OFF, None),
    ("sue_de_coq",                         5300,   250, U, ON,   5.0),
    ("simple_colors_trap",                 5330,   150, H, ON,   6.6),
    ("simple_colors_wrap",                 5331,   150, H, ON,   6.6),
    ("multi_colors_1",                     5360,   200, H, ON,   5.0),
    ("multi_colors_2",                     5361,   200, H, ON,   5.0),
    ("x_chain",                            5400,   260, U, ON,   6.6),
    ("xy_chain",                           5500,   260, U, ON,   7.0),
    ("continuous_nice_loop",               5600,   280, U, ON,   6.5),
    ("discontinuous_nice_loop",            5601,   280, U, ON,   6.6),
    ("aic",                                5602,   280, U, ON,   6.6),
    ("grouped_continuous_nice_loop",       5650,   300, U, ON,  None),
    ("grouped_discontinuous_nice_loop",    5651,   300, U, ON,  None),
    ("grouped_aic",                        5652,   300, U, ON,  None),
    ("als_xz",                             5700,   300, U, ON,   7.5),
    ("als_xy_wing",                        5800,   320, U, ON,   8.0),
    ("als_chain",                          5900,   340, U, ON,  None),
    ("death_blossom",                      6000,   360, U, OFF, None),
    ("franken_x_wing",                     6100,   300, U, ON,  None),
    ("franken_swordfish",                  6200,   350, U, ON,  None),
    ("franken_jellyfish",                  6300,   370, U, OFF, None),
    ("franken_squirmbag",                  6400,   470, X, OFF, None),
    ("franken_whale",                      6500,   470, X, OFF, None),
    ("franken_leviathan",                  6600,   470, X, OFF, None),
    ("finned_franken_x_wing",              6700,   390, U, ON,  None),
    ("finned_franken_swordfish",           6800,   410, U, ON,  None),
    ("siamese_finned_franken_swordfish",   6801,   410, U, OFF, None),
    ("finned_franken_jellyfish",           6900,   430, U, OFF, None),
    ("siamese_finned_franken_jellyfish",   6901,   430, U, OFF, None),
    ("finned_franken_squirmbag",           7000,   470, X, OFF, None),
    ("finned_franken_whale",               7100,   470, X, OFF, None),
    ("finned_franken_leviathan",           7200,   470, X, OFF, None),
    ("mutant_x_wing",                      7300,   450, X, OFF, None),
    ("mutant_swordfish",                   7400,   450, X, OFF, None),
    ("mutant_jellyfish",                   7500,   450, X, OFF, None),
    ("mutant_squirmbag",                   7600,   470, X, OFF, None),
    ("mutant_whale",                       7700,   470, X, OFF, None),
    ("mutant_leviathan",                   7800,   470, X, OFF, None),
    ("finned_mutant_x_wing",               7900,   470, X, OFF, None),
    ("finned_mutant_swordfish",            8000,   470, X, OFF, None),
    ("finned_mutant_jellyfish",            8100,   470, X, OFF, None),
    ("siamese_finned_mutant_jellyfish",    8101,   470, X, OFF, None),
    ("finned_mutant_squirmbag",            8200,   470, X, OFF, None),
    ("finned_mutant_whale",                8300,   470, X, OFF, None),
    ("finned_mutant_leviathan",            8400,   470, X, OFF, None),
    ("kraken_fish_type_1",                 8450,   500, X, OFF, None),
    ("kraken_fish_type_2",                 8460,   500, X, OFF, None),
    ("forcing_chain_contradiction",        8500,   500, X, ON,   8.0),
    ("forcing_chain_verity",               8510,   500, X, ON,   8.0),
    ("forcing_net_contradiction",          8600,   700, X, ON,   8.5),
    ("forcing_net_verity",                 8610,   700, X, ON,   8.5),
    ("template_set",                       8700, 10000, X, OFF, None),
    ("template_delete",                    8800, 10000, X, OFF, None),
    ("forcing_net_nested",                 8850,  1500, X, ON,  10.5),
))

BY_NAME: dict[str, Rung] = {r.name: r for r in LADDER}


def rung(name: str) -> Rung:
    """The ladder row of technique ``name`` (KeyError when it has none)."""
    return BY_NAME[name]


def se_tenths(name: str) -> int | None:
    """The SE value of technique ``name`` in tenths (as the SE rating counts), or None."""
    se = BY_NAME[name].se
    return None if se is None else round(se * 10)
