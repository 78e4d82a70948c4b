"""The ladder: every technique's place among the others, in one table.

One row per registered technique (the technique families' own and the rule families'
``*_logic`` techniques alike, by name: this module imports nothing):

* place: the solver tries techniques in the table's order (HoDoKu's order); a new row is
  inserted where it belongs, with no number to choose. ``hodoku`` keeps HoDoKu's own sort
  value for its techniques; a row's ``order`` (a sort number, for reports) is HoDoKu's
  value where given and spread between its neighbours' elsewhere;
* ``score``: HoDoKu-style rating points per step (:func:`techniques.solver.rate_steps`);
* ``level``: HoDoKu difficulty level of a step (``E``asy, ``M``edium, ``H``ard,
  ``U``nfair, e``X``treme);
* ``on``: in the ``"default"`` selection;
* ``tags``: where the row moves on other grids (:data:`LATE`, :data:`JIG`, :data:`RULES`);
* ``se``: Sudoku Explainer value of the technique's plainest step (SE scale 1.0 .. 11.0;
  None: SE rates no such step). The SE-like rating (:mod:`techniques.se_rating`) takes its
  producers' base values from here; how a step's value grows past it (chain length, nesting
  depth, SE's direct variants) is the rating's own logic.

A technique's code (``@register(name, title, family, code=..., options=...)`` in its family
module) says what it finds; this table says where it stands. Adding a technique touches its
family module and one row here. The registry refuses a technique without a row, and a test
checks that every row names a registered technique.

>>> rung("x_wing")
Rung(name='x_wing', order=2200, score=140, level='hard', on=True, se=3.2, hodoku=2200, tags=0)
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
    """One row of the ladder (see the module docstring): ``order`` is derived from the
    row's place (:func:`_orders`), ``hodoku`` is HoDoKu's own sort value where the row
    carries one, ``tags`` the row's :data:`LATE`, :data:`JIG` and :data:`RULES` flags."""

    name: str
    order: int
    score: int
    level: str
    on: bool
    se: float | None
    hodoku: int | None = None
    tags: int = 0


E, M, H, U, X = "easy", "medium", "hard", "unfair", "extreme"
ON, OFF = True, False
#: row tags. LATE: on a variant puzzle the technique moves to just after
#: :data:`VARIANT_LATE_AFTER` (:data:`VARIANT_ORDER`); JIG: ... but keeps its own place on a
#: jigsaw (:data:`JIGSAW_KEEP`); RULES: a classic grid leaves it out (:data:`CLASSIC_SKIP`)
LATE, JIG, RULES = 1, 2, 4


def _orders(rows: tuple[tuple, ...]) -> tuple[Rung, ...]:
    """The rows as :class:`Rung` with an ``order`` from their place: HoDoKu's value where the
    row gives one (HoDoKu's own techniques), else spread evenly between the neighbouring
    values (ten apart after the last), so a row is inserted with no renumbering."""
    given = [i for i, r in enumerate(rows) if r[1] is not None]
    orders = [0] * len(rows)
    for a, b in zip([None] + given, given + [None]):
        lo = 0 if a is None else rows[a][1]
        start = 0 if a is None else a + 1
        end = len(rows) if b is None else b
        gap = 10 * (end - start + 1) if b is None else rows[b][1] - lo
        if a is not None:
            orders[a] = lo
        span = end - start
        if gap <= span:
            raise ValueError(f"ladder: {span} rows between orders {lo} and {lo + gap}")
        for k in range(start, end):
            orders[k] = lo + (k - start + 1) * gap // (span + 1)
    return tuple(Rung(r[0], orders[i], *r[2:6], r[1], r[6]) for i, r in enumerate(rows))


#: every technique, in solving order: name, HoDoKu's sort value (None: not HoDoKu's),
#: score, level, in the default selection, SE value, tags
LADDER: tuple[Rung, ...] = _orders((
    # name                                hodoku  score level on    se   tags
    ("full_house",                             100,     4, E, ON,   1.0, 0),
    ("naked_single",                           200,     4, E, ON,   2.3, 0),
    ("hidden_single",                          300,    14, E, ON,   1.2, 0),
    ("consecutive_gap_cell",                  None,    10, E, ON,   2.0, RULES),
    ("consecutive_neighbours",                None,    10, E, ON,   2.0, RULES),
    ("thermo_length",                         None,    10, E, ON,   2.0, RULES),
    ("sandwich_crusts",                       None,    10, E, ON,   2.0, RULES),
    ("x_sum_length",                          None,    10, E, ON,   2.0, RULES),
    ("whisper_neighbours",                    None,    10, E, ON,   2.0, RULES),
    ("killer_combinations",                   None,    10, E, ON,   2.0, RULES),
    ("inequality_bounds",                     None,    20, E, ON,   2.0, RULES),
    ("indexing",                              None,    20, E, ON,   2.0, RULES),
    ("constraint",                            None,    10, E, ON,   2.0, RULES),
    ("pair_rules",                            None,    20, E, ON,   2.0, RULES),
    ("consecutive_pair_cell",                 None,    40, M, ON,   2.6, RULES),
    ("consecutive_triple_cell",               None,    40, M, ON,   2.6, RULES),
    ("consecutive_locked_pair",               None,    50, M, ON,   2.6, RULES),
    ("consecutive_locked_nearby",             None,    50, M, ON,   2.6, RULES),
    ("consecutive_locked_triple",             None,    50, M, ON,   2.6, RULES),
    ("consecutive_check_pattern",             None,    50, M, ON,   3.0, RULES),
    ("consecutive_chain",                     None,    50, M, ON,   3.0, RULES),
    ("neighbour_pinch",                       None,    50, M, ON,   2.6, RULES),
    ("dot_chain",                             None,    50, M, ON,   3.0, RULES),
    ("locked_pair",                           1000,    40, M, ON,   3.0, 0),
    ("locked_triple",                         1100,    60, M, ON,   3.6, 0),
    ("locked_candidates_pointing",            1200,    50, M, ON,   2.6, 0),
    ("locked_candidates_claiming",            1210,    50, M, ON,   2.8, 0),
    ("clone_pointing",                        None,    50, M, ON,   2.6, RULES),
    ("parity_count",                          None,    40, M, ON,   2.6, RULES),
    ("pair_mandatory",                        None,    50, M, ON,   2.6, RULES),
    ("mandatory_inclusion",                   None,    50, M, ON,   2.6, RULES),
    ("cage_rules",                            None,    60, M, ON,   2.8, RULES),
    ("cage_house_overlap",                    None,    50, M, ON,   2.6, RULES),
    ("disjoint_cages",                        None,    60, M, ON,   3.0, RULES),
    ("region_sum_segments",                   None,    40, M, ON,   2.8, RULES),
    ("zipper_totals",                         None,    40, M, ON,   2.8, RULES),
    ("between_span",                          None,    40, M, ON,   2.8, RULES),
    ("lockout_span",                          None,    40, M, ON,   2.8, RULES),
    ("renban_mandatory",                      None,    50, M, ON,   2.6, RULES),
    ("renban_house_overlap",                  None,    50, M, ON,   2.6, RULES),
    ("sum_arithmetic",                        None,    40, M, ON,   2.8, RULES),
    ("entropic_groups",                       None,    50, M, ON,   2.8, RULES),
    ("modular_groups",                        None,    50, M, ON,   2.8, RULES),
    ("whisper_polarity",                      None,    50, M, ON,   2.8, RULES),
    ("renban_house_split",                    None,    60, M, ON,   3.0, RULES),
    ("skyscraper_renban",                     None,    60, M, ON,   3.0, RULES),
    ("renban_cage_exclusion",                 None,    50, M, ON,   2.8, RULES),
    ("innies",                                None,    40, M, ON,   2.8, RULES),
    ("outies",                                None,    40, M, ON,   2.8, RULES),
    ("innies_outies",                         None,    60, M, ON,   3.0, RULES),
    ("cage_splitting",                        None,    60, M, ON,   3.0, RULES),
    ("law_of_leftovers",                      None,    60, M, ON,   3.0, RULES),
    ("set_equivalence",                       None,    80, H, ON,   4.4, RULES),
    ("cell_exclusion",                        None,    60, M, ON,   3.2, 0),
    ("house_exclusion",                       None,    60, M, ON,   3.2, 0),
    ("combined_sums",                         None,    90, H, ON,   4.2, RULES),
    ("rule_exclusion",                        None,    80, H, ON,   3.4, RULES),
    ("substituted_sums",                      None,    90, H, ON,   4.2, RULES),
    ("house_sums",                            None,   100, H, ON,   4.4, RULES),
    ("linked_sums",                           None,   100, H, ON,   4.4, RULES),
    ("naked_pair",                            1300,    60, M, ON,   3.0, 0),
    ("naked_triple",                          1400,    80, M, ON,   3.6, 0),
    ("hidden_pair",                           1500,    70, M, ON,   3.4, 0),
    ("hidden_triple",                         1600,   100, M, ON,   4.0, 0),
    ("clique_subset",                         None,   100, M, ON,   4.0, 0),
    ("naked_quadruple",                       2000,   120, H, ON,   5.0, 0),
    ("hidden_quadruple",                      2100,   150, H, ON,   5.4, 0),
    ("house_arrangement",                     None,   150, H, ON,   5.0, RULES),
    ("set_sums",                              None,   150, H, ON,   5.4, RULES),
    ("equal_digit_colouring",                 None,   150, H, ON,   4.4, RULES),
    ("x_wing",                                2200,   140, H, ON,   3.2, 0),
    ("swordfish",                             2300,   150, H, ON,   3.8, 0),
    ("jellyfish",                             2400,   160, H, ON,   5.2, 0),
    ("squirmbag",                             2500,   470, U, OFF, None, 0),
    ("whale",                                 2600,   470, U, OFF, None, 0),
    ("leviathan",                             2700,   470, U, OFF, None, 0),
    ("remote_pair",                           2800,   110, H, ON,   5.0, 0),
    ("bug_plus_1",                            2900,   100, H, ON,   5.6, 0),
    ("skyscraper",                            3000,   130, H, ON,   4.0, 0),
    ("two_string_kite",                       3100,   150, H, ON,   4.1, 0),
    ("dual_two_string_kite",                  3110,   150, H, OFF,  4.1, 0),
    ("turbot_fish",                           3120,   120, H, ON,   4.2, 0),
    ("empty_rectangle",                       3170,   120, H, ON,   4.3, 0),
    ("dual_empty_rectangle",                  3180,   120, H, OFF,  4.3, 0),
    ("w_wing",                                3200,   150, H, ON,   4.4, 0),
    ("xy_wing",                               3300,   160, H, ON,   4.2, 0),
    ("xyz_wing",                              3400,   180, H, ON,   4.4, 0),
    ("wxyz_wing",                             3450,   200, H, ON,   5.5, 0),
    ("vwxyz_wing",                            None,   220, H, ON,   6.2, 0),
    ("uvwxyz_wing",                           None,   240, H, ON,   6.6, 0),
    ("relaxed_wing",                          None,   260, H, OFF, None, 0),
    ("uniqueness_test_1",                     3500,   100, H, ON,   4.5, 0),
    ("uniqueness_test_2",                     3600,   100, H, ON,   4.5, 0),
    ("uniqueness_test_3",                     3700,   100, H, ON,   4.5, 0),
    ("uniqueness_test_4",                     3800,   100, H, ON,   4.5, 0),
    ("uniqueness_test_5",                     3900,   100, H, ON,  None, 0),
    ("uniqueness_test_6",                     4000,   100, H, ON,  None, 0),
    ("hidden_rectangle",                      4010,   100, H, ON,  None, 0),
    ("avoidable_rectangle_1",                 4020,   100, H, ON,  None, 0),
    ("avoidable_rectangle_2",                 4030,   100, H, ON,  None, 0),
    ("finned_x_wing",                         4100,   130, H, ON,   3.4, 0),
    ("sashimi_x_wing",                        4200,   150, H, ON,   3.5, 0),
    ("two_house_exclusion",                   None,   150, H, ON,   3.6, 0),
    ("three_house_exclusion",                 None,   300, U, ON,   6.6, 0),
    ("almost_locked_candidates",              None,   160, H, ON,  None, 0),
    ("finned_swordfish",                      4300,   200, U, ON,   4.0, 0),
    ("siamese_finned_swordfish",              None,   200, U, OFF, None, 0),
    ("sashimi_swordfish",                     4400,   240, U, ON,   4.1, 0),
    ("siamese_sashimi_swordfish",             None,   240, U, OFF, None, 0),
    ("finned_jellyfish",                      4500,   250, U, ON,   5.4, 0),
    ("siamese_finned_jellyfish",              None,   250, U, OFF, None, 0),
    ("sashimi_jellyfish",                     4600,   260, U, ON,   5.6, 0),
    ("siamese_sashimi_jellyfish",             None,   260, U, OFF, None, 0),
    ("finned_squirmbag",                      4700,   470, U, OFF, None, 0),
    ("sashimi_squirmbag",                     4800,   470, U, OFF, None, 0),
    ("finned_whale",                          4900,   470, U, OFF, None, 0),
    ("sashimi_whale",                         5000,   470, U, OFF, None, 0),
    ("finned_leviathan",                      5100,   470, U, OFF, None, 0),
    ("sashimi_leviathan",                     5200,   470, U, OFF, None, 0),
    ("sue_de_coq",                            5300,   250, U, ON,   5.0, 0),
    ("simple_colors_trap",                    5330,   150, H, ON,   6.6, 0),
    ("simple_colors_wrap",                    None,   150, H, ON,   6.6, 0),
    ("multi_colors_1",                        5360,   200, H, ON,   5.0, 0),
    ("multi_colors_2",                        None,   200, H, ON,   5.0, 0),
    ("x_chain",                               5400,   260, U, ON,   6.6, 0),
    ("xy_chain",                              5500,   260, U, ON,   7.0, 0),
    ("continuous_nice_loop",                  5600,   280, U, ON,   6.5, 0),
    ("discontinuous_nice_loop",               None,   280, U, ON,   6.6, 0),
    ("aic",                                   None,   280, U, ON,   6.6, 0),
    ("grouped_continuous_nice_loop",          5650,   300, U, ON,  None, 0),
    ("grouped_discontinuous_nice_loop",       None,   300, U, ON,  None, 0),
    ("grouped_aic",                           None,   300, U, ON,  None, 0),
    ("band_arrangement",                      None,   450, U, ON,   7.2, RULES),
    ("als_xz",                                5700,   300, U, ON,   7.5, 0),
    ("als_xy_wing",                           5800,   320, U, ON,   8.0, 0),
    ("als_chain",                             5900,   340, U, ON,  None, 0),
    ("death_blossom",                         6000,   360, U, OFF, None, 0),
    ("franken_x_wing",                        6100,   300, U, ON,  None, LATE|JIG),
    ("franken_swordfish",                     6200,   350, U, ON,  None, LATE|JIG),
    ("franken_jellyfish",                     6300,   370, U, OFF, None, LATE),
    ("franken_squirmbag",                     6400,   470, X, OFF, None, 0),
    ("franken_whale",                         6500,   470, X, OFF, None, 0),
    ("franken_leviathan",                     6600,   470, X, OFF, None, 0),
    ("finned_franken_x_wing",                 6700,   390, U, ON,  None, LATE|JIG),
    ("finned_franken_swordfish",              6800,   410, U, ON,  None, LATE|JIG),
    ("siamese_finned_franken_swordfish",      None,   410, U, OFF, None, LATE),
    ("finned_franken_jellyfish",              6900,   430, U, OFF, None, LATE),
    ("siamese_finned_franken_jellyfish",      None,   430, U, OFF, None, LATE),
    ("finned_franken_squirmbag",              7000,   470, X, OFF, None, 0),
    ("finned_franken_whale",                  7100,   470, X, OFF, None, 0),
    ("finned_franken_leviathan",              7200,   470, X, OFF, None, 0),
    ("mutant_x_wing",                         7300,   450, X, OFF, None, LATE),
    ("mutant_swordfish",                      7400,   450, X, OFF, None, LATE),
    ("mutant_jellyfish",                      7500,   450, X, OFF, None, LATE),
    ("mutant_squirmbag",                      7600,   470, X, OFF, None, 0),
    ("mutant_whale",                          7700,   470, X, OFF, None, 0),
    ("mutant_leviathan",                      7800,   470, X, OFF, None, 0),
    ("finned_mutant_x_wing",                  7900,   470, X, OFF, None, LATE),
    ("finned_mutant_swordfish",               8000,   470, X, OFF, None, LATE),
    ("finned_mutant_jellyfish",               8100,   470, X, OFF, None, LATE),
    ("siamese_finned_mutant_jellyfish",       None,   470, X, OFF, None, LATE),
    ("finned_mutant_squirmbag",               8200,   470, X, OFF, None, 0),
    ("finned_mutant_whale",                   8300,   470, X, OFF, None, 0),
    ("finned_mutant_leviathan",               8400,   470, X, OFF, None, 0),
    ("house_pair_arrangement",                None,   400, U, ON,   7.0, RULES),
    ("window_arrangement",                    None,   450, U, ON,   7.2, RULES),
    ("polarity_count",                        None,   400, U, ON,   7.2, RULES),
    ("digit_chain_exclusion",                 None,   350, U, ON,  None, 0),
    ("digit_chain_verity",                    None,   380, U, ON,  None, 0),
    ("kraken_fish_type_1",                    8450,   500, X, OFF, None, 0),
    ("kraken_fish_type_2",                    8460,   500, X, OFF, None, 0),
    ("polarity_chain",                        None,   450, X, ON,   7.5, RULES),
    ("forcing_chain_contradiction",           8500,   500, X, ON,   8.0, 0),
    ("forcing_chain_verity",                  8510,   500, X, ON,   8.0, 0),
    ("forcing_net_contradiction",             8600,   700, X, ON,   8.5, 0),
    ("forcing_net_verity",                    8610,   700, X, ON,   8.5, 0),
    ("template_set",                          8700, 10000, X, OFF, None, 0),
    ("template_delete",                       8800, 10000, X, OFF, None, 0),
    ("forcing_net_nested",                    None,  1500, X, ON,  10.5, 0),
))

BY_NAME: dict[str, Rung] = {r.name: r for r in LADDER}

#: where the LATE rows go on a variant puzzle
VARIANT_LATE_AFTER = "forcing_net_verity"

#: On a jigsaw (regions that are not regular boxes) a fish of rows and regions is the plain
#: fish a solver looks for, no longer an exotic one: variant puzzles on such grids keep the
#: Franken X-wing and swordfish (and their finned forms: the JIG rows) at their own place,
#: before the forcing family. On the 22 jigsaw puzzles of the f-puzzles set (antiknight
#: coloring books) they fired only after the forcing nets had taken steps a fish finds.
JIGSAW_KEEP: frozenset[str] = frozenset(r.name for r in LADDER if r.tags & JIG)


#: Techniques that read a puzzle's rules (the RULES rows) and that a classic grid (rows,
#: columns and regular boxes only: :func:`techniques.loop.is_classic_grid`) does not try.
#: Two kinds: the ones that read the houses as rules too (set equivalence, parity counts,
#: innies: HoDoKu has no such steps, and on the first 150 of top1465 they fired in 19
#: solves and moved 6 HoDoKu-style levels: hardest step ``set_sums`` in a classic puzzle),
#: and the ones that read only rules beyond the houses (cages, lines, dots, outside clues,
#: arrangements of rule cells): they find nothing on a classic grid, and asking them cost
#: about a seventh of an easy classic solve (17-clue puzzles, 2026-11-30). Classic solve
#: paths and ratings stay HoDoKu's; jigsaw, extra-region and every rule variant keep them
#: (the law of leftovers is the jigsaw's own). A run that names one explicitly still gets it.
CLASSIC_SKIP: frozenset[str] = frozenset(r.name for r in LADDER if r.tags & RULES)

#: technique -> its place in the ladder (the row's index)
POSITION: dict[str, int] = {r.name: i for i, r in enumerate(LADDER)}


def _variant_positions(jigsaw: bool) -> dict[str, int]:
    """Technique -> place in the variant ladder: the LATE rows (but the JIG ones on a
    jigsaw) moved, in table order, to just after :data:`VARIANT_LATE_AFTER`."""
    moved = [r.name for r in LADDER if r.tags & LATE and not (jigsaw and r.tags & JIG)]
    gone = set(moved)
    names = [r.name for r in LADDER if r.name not in gone]
    at = names.index(VARIANT_LATE_AFTER) + 1
    names[at:at] = moved
    return {name: i for i, name in enumerate(names)}


#: The variant ladder's differences: puzzles with rules beyond all-different houses try
#: these techniques (the LATE rows, in table order) at another place. The Franken and
#: Mutant fish cost tens of milliseconds a state (a finned Franken swordfish about 35 ms)
#: and, on the f-puzzles set, fired only in puzzles that needed forcing chains and nets
#: anyway: they come after the forcing nets (before the nested net). Classic puzzles keep
#: HoDoKu's order.
VARIANT_ORDER: tuple[str, ...] = tuple(r.name for r in LADDER if r.tags & LATE)
#: (jigsaw?) -> technique -> place in the variant ladder
VARIANT_POSITION: dict[bool, dict[str, int]] = {j: _variant_positions(j) for j in (False, True)}


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
