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

Big grids: :data:`SIZED` gives technique options that depend on the grid size n (fish fins,
ALS sizes, chain lengths, which techniques run at all), so a 16x16 or 25x25 solve spends its
time where a human would; on 9x9 every option keeps its technique's own default.

>>> sized_options("aic", {"max_length": 20}, 9), sized_options("aic", {"max_length": 20}, 16)
({'max_length': 20}, {'max_length': 10})
>>> sized_options("finned_franken_swordfish", {"max_fins": 5}, 16)
{'max_fins': 5, 'max_n': 12}
"""
from __future__ import annotations

from typing import Any, Mapping, NamedTuple


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
    ("consecutive_gap_cell",                330,    10, E, ON,   2.0),
    ("consecutive_neighbours",              335,    10, E, ON,   2.0),
    ("thermo_length",                       336,    10, E, ON,   2.0),
    ("sandwich_crusts",                     337,    10, E, ON,   2.0),
    ("x_sum_length",                        338,    10, E, ON,   2.0),
    ("whisper_neighbours",                  339,    10, E, ON,   2.0),
    ("killer_combinations",                 340,    10, E, ON,   2.0),
    ("inequality_bounds",                   345,    20, E, ON,   2.0),
    ("indexing",                            347,    20, E, ON,   2.0),
    ("constraint",                          350,    10, E, ON,   2.0),
    ("pair_rules",                          360,    20, E, ON,   2.0),
    ("consecutive_pair_cell",               900,    40, M, ON,   2.6),
    ("consecutive_triple_cell",             910,    40, M, ON,   2.6),
    ("consecutive_locked_pair",             950,    50, M, ON,   2.6),
    ("consecutive_locked_nearby",           960,    50, M, ON,   2.6),
    ("consecutive_locked_triple",           970,    50, M, ON,   2.6),
    ("consecutive_check_pattern",           980,    50, M, ON,   3.0),
    ("consecutive_chain",                   990,    50, M, ON,   3.0),
    ("neighbour_pinch",                     995,    50, M, ON,   2.6),
    ("dot_chain",                           996,    50, M, ON,   3.0),
    ("locked_pair",                        1000,    40, M, ON,   3.0),
    ("locked_triple",                      1100,    60, M, ON,   3.6),
    ("locked_candidates_pointing",         1200,    50, M, ON,   2.6),
    ("locked_candidates_claiming",         1210,    50, M, ON,   2.8),
    ("clone_pointing",                     1215,    50, M, ON,   2.6),
    ("parity_count",                       1217,    40, M, ON,   2.6),
    ("pair_mandatory",                     1219,    50, M, ON,   2.6),
    ("mandatory_inclusion",                1220,    50, M, ON,   2.6),
    ("cage_rules",                         1225,    60, M, ON,   2.8),
    ("cage_house_overlap",                 1230,    50, M, ON,   2.6),
    ("disjoint_cages",                     1231,    60, M, ON,   3.0),
    ("region_sum_segments",                1235,    40, M, ON,   2.8),
    ("between_span",                       1236,    40, M, ON,   2.8),
    ("lockout_span",                       1237,    40, M, ON,   2.8),
    ("renban_mandatory",                   1238,    50, M, ON,   2.6),
    ("renban_house_overlap",               1239,    50, M, ON,   2.6),
    ("sum_arithmetic",                     1240,    40, M, ON,   2.8),
    ("entropic_groups",                    1241,    50, M, ON,   2.8),
    ("modular_groups",                     1242,    50, M, ON,   2.8),
    ("whisper_polarity",                   1243,    50, M, ON,   2.8),
    ("renban_house_split",                 1244,    60, M, ON,   3.0),
    ("skyscraper_renban",                  1245,    60, M, ON,   3.0),
    ("renban_cage_exclusion",              1246,    50, M, ON,   2.8),
    ("innies",                             1250,    40, M, ON,   2.8),
    ("outies",                             1251,    40, M, ON,   2.8),
    ("innies_outies",                      1260,    60, M, ON,   3.0),
    ("cage_splitting",                     1265,    60, M, ON,   3.0),
    ("law_of_leftovers",                   1270,    60, M, ON,   3.0),
    ("set_equivalence",                    1280,    80, H, ON,   4.4),
    ("cell_exclusion",                     1290,    60, M, ON,   3.2),
    ("house_exclusion",                    1291,    60, M, ON,   3.2),
    ("combined_sums",                      1295,    90, H, ON,   4.2),
    ("rule_exclusion",                     1296,    80, H, ON,   3.4),
    ("substituted_sums",                   1297,    90, H, ON,   4.2),
    ("house_sums",                         1298,   100, H, ON,   4.4),
    ("linked_sums",                        1299,   100, H, ON,   4.4),
    ("naked_pair",                         1300,    60, M, ON,   3.0),
    ("naked_triple",                       1400,    80, M, ON,   3.6),
    ("hidden_pair",                        1500,    70, M, ON,   3.4),
    ("hidden_triple",                      1600,   100, M, ON,   4.0),
    ("clique_subset",                      1650,   100, M, ON,   4.0),
    ("naked_quadruple",                    2000,   120, H, ON,   5.0),
    ("hidden_quadruple",                   2100,   150, H, ON,   5.4),
    ("house_arrangement",                  2140,   150, H, ON,   5.0),
    ("set_sums",                           2150,   150, H, ON,   5.4),
    ("equal_digit_colouring",              2160,   150, H, ON,   4.4),
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
    ("two_house_exclusion",                4250,   150, H, ON,   3.6),
    ("three_house_exclusion",              4255,   300, U, ON,   6.6),
    ("almost_locked_candidates",           4260,   160, H, ON,  None),
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
    ("band_arrangement",                   5690,   450, U, ON,   7.2),
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
    ("house_pair_arrangement",             8440,   400, U, ON,   7.0),
    ("window_arrangement",                 8445,   450, U, ON,   7.2),
    ("polarity_count",                     8446,   400, U, ON,   7.2),
    ("digit_chain_exclusion",              8447,   350, U, ON,  None),
    ("digit_chain_verity",                 8448,   380, U, ON,  None),
    ("kraken_fish_type_1",                 8450,   500, X, OFF, None),
    ("kraken_fish_type_2",                 8460,   500, X, OFF, None),
    ("polarity_chain",                     8490,   450, X, ON,   7.5),
    ("forcing_chain_contradiction",        8500,   500, X, ON,   8.0),
    ("forcing_chain_verity",               8510,   500, X, ON,   8.0),
    ("forcing_net_contradiction",          8600,   700, X, ON,   8.5),
    ("forcing_net_verity",                 8610,   700, X, ON,   8.5),
    ("template_set",                       8700, 10000, X, OFF, None),
    ("template_delete",                    8800, 10000, X, OFF, None),
    ("forcing_net_nested",                 8850,  1500, X, ON,  10.5),
))

BY_NAME: dict[str, Rung] = {r.name: r for r in LADDER}

#: The variant ladder's differences: puzzles with rules beyond all-different houses try
#: these techniques at another place. The Franken and Mutant fish cost tens of milliseconds
#: a state (a finned Franken swordfish about 35 ms) and, on the f-puzzles set, fired only in
#: puzzles that needed forcing chains and nets anyway: they come after the forcing nets
#: (before the nested net). Classic puzzles keep HoDoKu's order.
VARIANT_ORDER: dict[str, int] = {
    name: 8620 + i for i, name in enumerate((
        "franken_x_wing", "franken_swordfish", "franken_jellyfish",
        "finned_franken_x_wing", "finned_franken_swordfish",
        "siamese_finned_franken_swordfish", "finned_franken_jellyfish",
        "siamese_finned_franken_jellyfish", "mutant_x_wing", "mutant_swordfish",
        "mutant_jellyfish", "finned_mutant_x_wing", "finned_mutant_swordfish",
        "finned_mutant_jellyfish", "siamese_finned_mutant_jellyfish"))}

#: On a jigsaw (regions that are not regular boxes) a fish of rows and regions is the plain
#: fish a solver looks for, no longer an exotic one: variant puzzles on such grids keep the
#: Franken X-wing and swordfish (and their finned forms) at their own place, before the
#: forcing family. On the 22 jigsaw puzzles of the f-puzzles set (antiknight coloring
#: books) they fired only after the forcing nets had taken steps a fish finds.
JIGSAW_KEEP: frozenset[str] = frozenset((
    "franken_x_wing", "franken_swordfish", "finned_franken_x_wing",
    "finned_franken_swordfish"))


#: Techniques that read a puzzle's rules (set equivalence, parity counts) and that a
#: classic grid (rows, columns and regular boxes only: :func:`techniques.loop.is_classic_grid`)
#: does not try: HoDoKu has no such steps, and on the first 150 of top1465 they fired in 19
#: solves and moved 6 HoDoKu-style levels (hardest step ``set_sums`` in a classic puzzle;
#: time unchanged). Classic solve paths and ratings stay HoDoKu's; jigsaw,
#: extra-region and every rule variant keep them (the law of leftovers is the jigsaw's own).
#: A run that names one of them explicitly still gets it.
CLASSIC_SKIP: frozenset[str] = frozenset((
    "innies", "outies", "innies_outies", "set_sums", "cage_splitting", "law_of_leftovers",
    "set_equivalence", "parity_count"))


def rung(name: str) -> Rung:
    """The ladder row of technique ``name`` (KeyError when it has none)."""
    return BY_NAME[name]


def se_tenths(name: str) -> int | None:
    """The SE value of technique ``name`` in tenths (as the SE rating counts), or None."""
    se = BY_NAME[name].se
    return None if se is None else round(se * 10)


# ------------------------------------------------------------------------------------------
# big grids
# ------------------------------------------------------------------------------------------
class BySize:
    """An option value that depends on the grid size ``n`` (the side of the grid; on a
    multi-grid, of its sub-grids): ``base`` below the first threshold, ``steps[k]`` from
    ``n >= k`` on.

    >>> v = BySize(5, {12: 3, 16: 2})
    >>> v.at(9), v.at(12), v.at(16), v.at(25)
    (5, 3, 2, 2)
    >>> v
    BySize(5, {12: 3, 16: 2})
    """

    __slots__ = ("base", "steps")

    def __init__(self, base: Any, steps: Mapping[int, Any]) -> None:
        self.base = base
        self.steps = tuple(sorted(steps.items()))

    def at(self, n: int) -> Any:
        v = self.base
        for k, x in self.steps:
            if n >= k:
                v = x
        return v

    def __repr__(self) -> str:
        return f"BySize({self.base!r}, {dict(self.steps)!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, BySize) and self.base == other.base
                and self.steps == other.steps)

    def __hash__(self) -> int:
        return hash((self.base, self.steps))


#: the option a technique reads to say on which grids it runs: a run leaves the technique
#: out of its plan (and ``Technique.find`` finds nothing) when the grid's n is above it
MAX_N = "max_n"

#: Size-aware options: technique -> {option: {n: value from that n on}} (the technique's own
#: default below the first n), and ``max_n``: the largest n the technique runs on by
#: default. These searches grow with the number of houses, cells per house and candidates
#: per cell far faster than they find steps: on the first minimal 16x16 of
#: ``tests/data/sizes_16min`` the table halves a logic solve (9.9 s -> 4.9 s CPU, same
#: techniques otherwise); on 25x25 nested forcing nets spent 8.5 of 9.4 s finding nothing.
#: On 25x25 the nets also propagate locked candidates (``intersections``: on the half-given
#: set after singles and intersections, 13-72 more net contradictions on 5 of 8 unsolved
#: grids, for about the same time; neutral on minimal 16x16, so off there; their quiet
#: assumptions are kept between scans as on smaller grids: 36.4 -> 23.4 s CPU on the 10th
#: 25x25, same steps) and the nested
#: net assumes only bivalue cells inside (``inner_max`` 2) within 20,000 propagations a
#: call. ALS chains and Sue de Coq are off above 12x12: on the first 5 minimal 16x16 they
#: took 6.8 of 37 s CPU for 18 steps in ~940 calls (0.4 s a step), where a forcing net,
#: whose quiet assumptions are kept between scans, finds a step in ~10 ms (A/B on the 20
#: of ``16min``: median 3.95 -> 3.36 s, total 93.7 -> 73.3 s CPU, every one solved).
#: A caller's ``options`` override them like any default
#: (``{"max_n": None}`` runs every technique on every grid).
SIZED: dict[str, dict[str, Any]] = {
    "franken_x_wing": {MAX_N: 12},
    "franken_swordfish": {MAX_N: 12},
    "finned_franken_x_wing": {MAX_N: 12},
    "finned_franken_swordfish": {MAX_N: 12},
    "forcing_chain_contradiction": {MAX_N: 12},
    "forcing_chain_verity": {MAX_N: 12},
    "als_xz": {"max_size": {16: 4}},
    "als_xy_wing": {"max_size": {16: 4}},
    "als_chain": {MAX_N: 12},
    "sue_de_coq": {MAX_N: 12},
    "continuous_nice_loop": {MAX_N: 12},
    "grouped_continuous_nice_loop": {MAX_N: 12},
    "discontinuous_nice_loop": {"max_length": {16: 10}},
    "grouped_discontinuous_nice_loop": {"max_length": {16: 10}},
    "aic": {"max_length": {16: 10}},
    "grouped_aic": {"max_length": {16: 10}},
    "x_chain": {"max_length": {16: 10}},
    "xy_chain": {"max_length": {16: 10}},
    "forcing_net_contradiction": {"intersections": {25: True}},
    "forcing_net_verity": {"intersections": {25: True}},
    "forcing_net_nested": {"seconds": {25: 10.0}, "budget": {25: 20_000},
                           "intersections": {25: True}, "inner_max": {25: 2}},
}


def sized_options(name: str, options: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The options of technique ``name`` on an n x n grid: its own ``options`` with the
    values of :data:`SIZED` for that n (a :class:`BySize` value resolved at n)."""
    out = {k: (v.at(n) if isinstance(v, BySize) else v) for k, v in options.items()}
    for k, v in SIZED.get(name, {}).items():
        if isinstance(v, Mapping):
            v = BySize(out.get(k), v).at(n)
        if v is not None or k not in out:
            out[k] = v
    return out
