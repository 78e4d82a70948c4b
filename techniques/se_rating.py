"""A Sudoku Explainer-like rating (ER / EP / ED) next to the HoDoKu-style :class:`Rating`.

Sudoku Explainer (SE) rates a puzzle by solving it with a fixed list of technique
*producers*, applying one step at a time, and recording each step's difficulty; the
ratings are (see ``/work/shared/data/ratings/SE_RATINGS.md`` for the sources):

* **ER** -- the hardest step of the whole solution path;
* **EP** -- the hardest step up to and including the first step that places a digit;
* **ED** -- the difficulty of the first step.

Step difficulties are SE's values (SE 1.2.1: full house 1.0, hidden single 1.2 in a box /
1.5 in a row or column, direct pointing 1.7, ..., naked single 2.3, pointing 2.6, X-Wing
3.2, XY-Wing 4.2, ...), and chains add SE's length increment
(:func:`length_increment`) to their base value (X-cycle 6.5, forcing X-chain 6.6, mixed
chain 7.0, Nishio 7.5, multiple forcing chains 8.0, dynamic forcing chains 8.5, nested
levels 8.5 + 0.5 x level).

Two modes:

* ``"se121"``: only the techniques SE 1.2.1 knows (registry techniques mapped onto its
  producers), asked in SE's fixed order; the first producer that has a step wins, and
  inside a producer the easiest step (chains: the shortest) is taken.
* ``"extended"`` (default): also the techniques later SE forks rate (Skyscraper 4.0,
  2-String Kite 4.1, Turbot Fish 4.2, Empty Rectangle 4.3, W-Wing 4.4, WXYZ-Wing 5.5,
  finned fish, Sue de Coq, ALS ...), and each time the step with the smallest SE value
  over all producers is applied.

Values are kept in tenths (ints) internally; :class:`SERating` reports floats.

>>> from variants.classic import classic_puzzle
>>> p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
>>> r = rate_se(p)
>>> r.er, r.ep, r.ed, r.solved
(1.2, 1.2, 1.2, True)
>>> length_increment(6), length_increment(7), length_increment(94)
(0, 1, 9)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator, Sequence

from csp.budget import Budget, gc_paused
from csp.errors import SudokuCSPError
from csp.model import Puzzle
from csp.state import State
from csp.step import Step

from . import registry
from .analysis import Analysis, analyze
from .forcing.scans import NO_KEPT, NOTE_LATER, NOTES_LATER, with_note
from .ladder import LADDER, se_tenths
from .loop import MAX_STEPS, Run, is_effective, is_variant

MODES = ("extended", "se121")

#: SE's result when its techniques cannot finish the puzzle.
SE_UNSOLVED = 200


class UnknownSEMode(SudokuCSPError, ValueError):
    """A rating mode that is not one of :data:`MODES`."""


# ------------------------------------------------------------------------------------------
# chain length increment
# ------------------------------------------------------------------------------------------
def length_increment(nodes: int) -> int:
    """SE's chain length bonus in tenths for a chain of complexity ``nodes``.

    With L = nodes - 2 and the thresholds 4, 6, 8, 12, 16, 24, 32, ... (alternately x3/2
    and x4/3), the bonus is the number of thresholds below L.

    >>> [length_increment(c) for c in (4, 6, 7, 8, 9, 11, 15, 19, 27, 35, 51, 67, 99)]
    [0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    """
    length = nodes - 2
    inc = 0
    t = 4
    up = True
    while length > t:
        inc += 1
        t = t * 3 // 2 if up else t * 4 // 3
        up = not up
    return inc


# ------------------------------------------------------------------------------------------
# step valuation
# ------------------------------------------------------------------------------------------
_LOOPS = {"continuous_nice_loop", "grouped_continuous_nice_loop"}
_DISCONTINUOUS = {"discontinuous_nice_loop", "grouped_discontinuous_nice_loop"}


def chain_nodes(step: Step) -> int:
    """SE's node count of a chain step from its links: a loop counts its nodes, a
    discontinuous loop counts its broken candidate twice (assumed on, then off), and an
    open chain adds the eliminated candidate twice (``target on => ... => target off``).

    >>> from csp.step import Candidate, Link
    >>> a, b, c, d = ((Candidate(i, 7),) for i in (0, 4, 31, 30))
    >>> sky = Step("x_chain", links=(Link(a, b, True), Link(b, c, False), Link(c, d, True)))
    >>> chain_nodes(sky)
    6
    """
    n = len(step.links)
    if step.technique in _LOOPS:
        return n
    if step.technique in _DISCONTINUOUS:
        return n + 1
    return n + 3


def chain_value(step: Step) -> int:
    """SE value (tenths) of a chain or loop step: base 6.5 for a single-digit loop
    (X-cycle) or a loop through bivalue cells (Y-cycle), 6.6 for a single-digit chain
    (forcing X-chain), 7.0 for a mixed loop or chain; plus the length increment."""
    digits = {c.digit for ln in step.links for c in ln.a + ln.b}
    nodes = chain_nodes(step)
    if step.technique in _LOOPS:
        if len(digits) == 1:
            base = 65                         # bidirectional X-cycle
        elif all(_y_link(ln) for ln in step.links):
            base = 65                         # bidirectional Y-cycle
        else:
            base = 70                         # bidirectional cycle
    else:
        base = 66 if len(digits) == 1 else 70  # forcing X-chain / forcing chain
    return base + length_increment(nodes)


def _y_link(ln) -> bool:
    """A link of a Y-cycle: strong inside a bivalue cell, weak between cells on one digit."""
    if len(ln.a) != 1 or len(ln.b) != 1:
        return False
    a, b = ln.a[0], ln.b[0]
    return (a.cell == b.cell) if ln.strong else (a.digit == b.digit and a.cell != b.cell)


#: SE's Nishio: a forcing net contradiction on one digit (a dynamic search)
NISHIO = 75
#: SE's "Dynamic Forcing Chains (+)", nesting level 1: locked candidates (pairs, X-Wing)
#: inside the dynamic chains
DFC_PLUS = 90


def forcing_value(step: Step, base: int | None = None) -> int:
    """SE value (tenths) of a forcing chain / net step from ``Step.extra`` (``nodes``,
    ``digits``, ``depth``, ``inner``): Nishio 7.5 (a net contradiction on one digit), else
    the technique's ladder value (static forcing chains 8.0, dynamic (net) forcing 8.5),
    or ``base`` when given (a net with locked candidates inside: SE's level 1, 9.0); plus
    the length increment. Nested nets take the base of SE's nesting level
    (:func:`nested_level`, at least :data:`NESTED_MIN_LEVEL`: they come after the probe's
    levels 2 and 3) and add their inner chains' complexity to their own, as SE does,
    plus :data:`NESTED_SHIFT`; the level probe's steps (``se_level`` in ``Step.extra``) take
    their level's base plus :data:`LEVEL2_SHIFT` at level 2, :data:`LEVEL3_SHIFT` at level
    3, where the complexity weighs the outer facts by :data:`LEVEL3_OUTER` and the nested
    chains by :data:`LEVEL3_NESTED`.

    >>> forcing_value(Step("forcing_net_nested", extra={"nodes": 20, "inner_nodes": [14]}))
    109
    >>> forcing_value(Step("forcing_net_nested", extra={"se_level": 2, "nodes": 20,
    ...                                                 "nested_nodes": 14}))
    98
    >>> [forcing_value(Step("forcing_net_nested", extra={"se_level": 3, "nodes": 100,
    ...                                                  "nested_nodes": n})) for n in (36, 350)]
    [108, 114]
    """
    nodes = int(step.extra.get("nodes", 0))
    t = step.technique
    if base is not None:
        pass
    elif t == "forcing_net_contradiction" and len(step.extra.get("digits", ())) == 1:
        base = NISHIO
    elif t == "forcing_net_nested":
        level, nested = nested_level(step)
        base = 85 + 5 * level
        if "se_level" in step.extra:
            if level == 2:
                base += LEVEL2_SHIFT
            else:
                # SE's complexity of a level-3 step weighs its nested chains more, and
                # the outer chain less, than the probe's counts (docs/se-rating.md)
                base += LEVEL3_SHIFT
                nodes = int(LEVEL3_OUTER * nodes)
                nested *= LEVEL3_NESTED
        else:
            # asked only when the probe found nothing at SE's levels 2 and 3: SE's next
            # producer is level 4 (DFC + dynamic forcing chains), whatever the inner
            # contradictions' sizes say
            base = 85 + 5 * max(NESTED_MIN_LEVEL, level) + NESTED_SHIFT
        nodes += nested
    else:
        base = _SE[t]                         # static chains, dynamic forcing chains
    return base + length_increment(nodes)


#: Calibration of the nested nets on SE's nesting levels (docs/se-rating.md, fitted on
#: the SE-rated puzzles of forum_hardest_1106_rated.csv): an inner contradiction that
#: derives at most ``NESTED_FREE`` facts of its own stands for one of SE's level-1 inner
#: rules (locked candidates, pairs, X-Wing: no complexity); the largest other one decides
#: the level: 1 up to ``NESTED_LEVELS[0]`` facts, 2 (inner forcing chains) up to
#: ``NESTED_LEVELS[1]``, 3 (inner multiple forcing chains) up to ``NESTED_LEVELS[2]``, else
#: 4 (inner dynamic forcing chains)
NESTED_FREE = 3
NESTED_LEVELS = (25, 1000, 1000)
#: Calibration of SE's level 3 (docs/se-rating.md, fitted on the even half of the
#: SE-rated puzzles of forum_hardest_1106_rated.csv by ER, branch se-rho4): a level-3 step
#: of the probe (``se_level3``) is valued on the complexity
#: ``int(LEVEL3_OUTER * nodes) + LEVEL3_NESTED * nested_nodes``: SE adds every nested
#: chain's whole complexity (its own ancestors on the hypothetical grid, its rule parents,
#: its own nested chains), which the probe's length of the inner chain (or the branches
#: of an inner cell / region forcing chain) undercounts, while the probe's outer facts (a
#: net with locked candidates applied throughout, one contradiction) overcount SE's
#: cheapest outer chain; plus ``LEVEL3_SHIFT`` tenths. Was: the complexity as counted,
#: -1 tenth, and +2 more past 350 nested nodes (``LEVEL3_BIG``), which the weights replace
#: (the nested chains decide the top end now).
LEVEL3_SHIFT = -3
LEVEL3_OUTER = 0.5
LEVEL3_NESTED = 3
#: A nested net is asked only after the probe's levels 2 and 3 found nothing, and SE's
#: producer after level 3 is level 4 (DFC + dynamic forcing chains, base 10.5; Solver.java's
#: order), so its level is at least ``NESTED_MIN_LEVEL`` (before: level 1 or 2 by its inner
#: contradictions' sizes, +3), plus ``NESTED_SHIFT`` tenths: its complexity overcounts
#: SE's, as the probe's level-2 steps do (fitted on the even half of the SE-rated puzzles
#: of forum_hardest_1106_rated.csv by ER, branch se-rho; docs/se-rating.md)
NESTED_MIN_LEVEL = 4
NESTED_SHIFT = -2
#: Calibration of the probe's level-2 steps (the low end of the scale, docs/se-rating.md
#: "Calibration", fitted on 12 SE-rated puzzles): tenths added to a level-2 step (the probe
#: finds SE's level-2 contradictions longer than SE's cheapest level-2 hint: it tries only
#: "X true fails" and stops at LEVEL_FIRST steps)
LEVEL2_SHIFT = -3
NESTED_LEVEL2 = NESTED_LEVELS[0]


def nested_level(step: Step) -> tuple[int, int]:
    """(SE nesting level, nested complexity) of a nested net from its ``Step.extra``:
    ``inner_nodes`` holds the size of each inner contradiction it used (the facts that
    contradiction derived itself). SE adds the complexity of every nested chain to the
    step's own; inner contradictions of at most :data:`NESTED_FREE` facts stand for SE's
    level-1 rules, which add nothing; the largest of the others gives the level (see
    :data:`NESTED_LEVELS`). A step without ``inner_nodes`` (older callers) is level 4 with
    its ``nested_nodes``; each depth past 2 is one level more.

    >>> nested_level(Step("forcing_net_nested", extra={"inner_nodes": [2, 3, 14, 20]}))
    (1, 34)
    >>> nested_level(Step("forcing_net_nested", extra={"nested_nodes": 40, "depth": 3}))
    (5, 40)
    """
    x = step.extra
    if "se_level" in x:
        return int(x["se_level"]), int(x.get("nested_nodes", 0))
    extra_depth = int(x.get("depth", 2)) - 2
    if "inner_nodes" not in x:
        return 4 + extra_depth, int(x.get("nested_nodes", 0))
    chains = [int(i) for i in x["inner_nodes"] if i > NESTED_FREE]
    top = max(chains, default=0)
    level = 1 + sum(1 for t in NESTED_LEVELS if top > t)
    return level + extra_depth, sum(chains)


def _hidden_single_value(an: Analysis, step: Step) -> int:
    (c, d), = step.placements
    best = 15
    for h, hm in enumerate(an.house_mask):
        if h not in an.full or not hm >> c & 1:
            continue
        if (hm & an.unsolved).bit_count() == 1:
            return 10                          # the last empty cell of a house
        if an.houses[h].kind not in ("row", "col") and an.pos(h, d) == 1 << c:
            best = 12
    return best


def _ur_value(an: Analysis, step: Step) -> int:
    """Unique rectangles 4.5; type 3 adds the size of its naked set (SE's UR + naked set)."""
    v = _SE[step.technique]
    if step.technique == "uniqueness_test_3":
        v += max(1, len({c.cell for c in step.pattern}) - 4)   # naked set of k = extra + 1
    return v


def _fixed(v: int) -> Callable[[Analysis, Step], int]:
    return lambda an, s: v


# ------------------------------------------------------------------------------------------
# direct variants (an elimination that yields a hidden single at once)
# ------------------------------------------------------------------------------------------
def _house_index(an: Analysis) -> dict[str, int]:
    return an.memo("se_house_index", lambda: {h.name: i for i, h in enumerate(an.houses)})


def _direct_locking(an: Analysis, step: Step) -> bool:
    """SE's Direct Pointing / Claiming: after the elimination, the digit has one place
    left in a house of the base house's kind."""
    if not step.houses:
        return False
    idx = _house_index(an)
    base = idx.get(step.houses[0])
    if base is None:
        return False
    kind = an.houses[base].kind
    d = step.digits[0]
    gone = 0
    for e in step.eliminations:
        gone |= 1 << e.cell
    for h in an.full:
        if h == base or an.houses[h].kind != kind or not an.house_mask[h] & gone:
            continue
        p = an.pos(h, d)
        if p.bit_count() > 1 and (p & ~gone).bit_count() == 1:
            return True
    return False


def _direct_hidden_set(an: Analysis, step: Step) -> bool:
    """SE's Direct Hidden Pair / Triplet: removing the other digits from the set's cells
    leaves another digit with one place in the same house."""
    idx = _house_index(an)
    h = idx.get(step.houses[0]) if step.houses else None
    if h is None:
        return False
    removed: dict[int, int] = {}
    for e in step.eliminations:
        removed[e.digit] = removed.get(e.digit, 0) | 1 << e.cell
    for d, cells in removed.items():
        p = an.pos(h, d)
        if p.bit_count() > 1 and (p & ~cells).bit_count() == 1:
            return True
    return False


# ------------------------------------------------------------------------------------------
# producers
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Producer:
    """One SE producer: the registry techniques it draws steps from, its lowest value
    ``base`` (tenths), how a step is valued, an optional filter, and whether its steps
    count as placing a digit (SE's direct hints include their hidden single)."""

    name: str
    base: int
    techniques: tuple[str, ...]
    value: Callable[[Analysis, Step], int]
    accept: Callable[[Analysis, Step], bool] | None = None
    direct: bool = False
    varies: bool = False      # the value differs between steps: look at every step
    scan: int | None = None   # ... but at most this many (costly producers)
    #: options of this producer's techniques (over the solver's own)
    opts: tuple[tuple[str, object], ...] = ()
    #: its own search (analysis, options) -> steps, instead of the techniques' finders
    #: (SE's nesting levels 2 and 3, which are not solver techniques)
    finder: Callable[[Analysis, dict], Iterable[Step]] | None = None


class _Values(dict):
    """Technique name -> SE value in tenths, from :mod:`techniques.ladder` (KeyError for a
    technique the ladder gives no SE value)."""

    def __missing__(self, name: str) -> int:
        v = se_tenths(name)
        if v is None:
            raise KeyError(f"{name}: no SE value in techniques/ladder.py")
        self[name] = v
        return v


_SE = _Values()


def _p(name: str, techs: str | Sequence[str], value=None, accept=None, direct: bool = False,
       scan: int | None = None, base: int | None = None, opts: dict | None = None,
       finder=None) -> Producer:
    """A producer over ``techs``. Its base is the lowest SE value the ladder gives them,
    unless ``base`` names a value of SE's own (a direct hint, Nishio: a filtered producer
    of a technique whose steps are otherwise rated higher); a step is valued by ``value``,
    else by its technique's ladder value (or the given base)."""
    ts = (techs,) if isinstance(techs, str) else tuple(techs)
    values = {_SE[t] for t in ts}
    varies = value is not None or (base is None and len(values) > 1)
    if base is None:
        base = min(values)
        if value is None:
            value = _fixed(base) if len(values) == 1 else (lambda an, s: _SE[s.technique])
    elif value is None:
        value = _fixed(base)
    return Producer(name, base, ts, value, accept, direct, varies=varies, scan=scan,
                    opts=tuple(sorted((opts or {}).items())), finder=finder)


_chain_v = lambda an, s: chain_value(s)        # noqa: E731
_forcing_v = lambda an, s: forcing_value(s)    # noqa: E731
_nishio = lambda an, s: len(s.extra.get("digits", ())) == 1   # noqa: E731


def _level_steps(an: Analysis, level: int) -> Iterator[Step]:
    from .forcing.nested import se_level_steps
    return se_level_steps(an, level)

#: SE 1.2.1's producers in its order (SE_RATINGS.md section 3), mapped to our techniques;
#: base values from the ladder but for SE's direct hints (an elimination that yields a
#: hidden single at once) and Nishio.
SE121_PRODUCERS: tuple[Producer, ...] = (
    _p("hidden_single", ("full_house", "hidden_single"), _hidden_single_value),
    _p("direct_pointing", "locked_candidates_pointing", accept=_direct_locking, direct=True,
       base=17),
    _p("direct_claiming", "locked_candidates_claiming", accept=_direct_locking, direct=True,
       base=19),
    _p("direct_hidden_pair", "hidden_pair", accept=_direct_hidden_set, direct=True, base=20),
    _p("naked_single", "naked_single"),
    _p("direct_hidden_triple", "hidden_triple", accept=_direct_hidden_set, direct=True,
       base=25),
    _p("pointing", "locked_candidates_pointing"),
    _p("claiming", "locked_candidates_claiming"),
    _p("naked_pair", ("naked_pair", "locked_pair")),
    _p("x_wing", "x_wing"),
    _p("hidden_pair", "hidden_pair"),
    _p("naked_triple", ("naked_triple", "locked_triple")),
    _p("swordfish", "swordfish"),
    _p("hidden_triple", "hidden_triple"),
    _p("xy_wing", "xy_wing"),
    _p("xyz_wing", "xyz_wing"),
    _p("unique_rectangle", ("uniqueness_test_1", "uniqueness_test_2", "uniqueness_test_3",
                            "uniqueness_test_4"), _ur_value),
    _p("naked_quad", "naked_quadruple"),
    _p("jellyfish", "jellyfish"),
    _p("hidden_quad", "hidden_quadruple"),
    _p("bug", "bug_plus_1"),
    _p("chains", ("x_chain", "xy_chain", "continuous_nice_loop", "discontinuous_nice_loop",
                  "aic"), _chain_v),
    _p("nishio", "forcing_net_contradiction", _forcing_v, accept=_nishio, base=NISHIO),
    _p("multiple_forcing", ("forcing_chain_contradiction", "forcing_chain_verity"),
       _forcing_v),
    _p("dynamic_forcing", ("forcing_net_contradiction", "forcing_net_verity"), _forcing_v),
    # SE's nesting levels (docs/se-rating.md): level 1, nets with locked candidates inside
    _p("dynamic_forcing_plus", ("forcing_net_contradiction", "forcing_net_verity"),
       lambda an, s: forcing_value(s, DFC_PLUS), base=DFC_PLUS, opts={"intersections": True}),
    # each nested step costs a full inner closure: the shortest of the first few
    _p("se_level2", "forcing_net_nested", _forcing_v, base=95,
       finder=lambda an, o: _level_steps(an, 2)),
    _p("se_level3", "forcing_net_nested", _forcing_v, base=100,
       finder=lambda an, o: _level_steps(an, 3)),
    _p("nested_forcing", "forcing_net_nested", _forcing_v, scan=8, base=105),
)

#: Techniques SE 1.2.1 lacks, with the values later SE forks give them (the ladder's ``se``
#: column; SE_RATINGS.md section 6: SukakuExplainer where it rates the technique, else KK's
#: SE-variant column, else HodokuSE). Coloring has no fork value; its effective SE value
#: (forcing X-chain) is used. Techniques without an SE-scale value (ALS chain, Death
#: Blossom, UR types 5/6, hidden and avoidable rectangles, grouped chains,
#: Franken/Mutant/Kraken fish, templates) are left out: as in SE, their steps are reached
#: through chains and forcing chains.
EXTENDED_PRODUCERS: tuple[Producer, ...] = (
    _p("skyscraper", "skyscraper"),
    _p("two_string_kite", ("two_string_kite", "dual_two_string_kite")),
    _p("turbot_fish", "turbot_fish"),
    _p("empty_rectangle", ("empty_rectangle", "dual_empty_rectangle")),
    _p("w_wing", "w_wing"),
    _p("finned_x_wing", "finned_x_wing"),
    _p("sashimi_x_wing", "sashimi_x_wing"),
    _p("finned_swordfish", "finned_swordfish"),
    _p("sashimi_swordfish", "sashimi_swordfish"),
    _p("finned_jellyfish", "finned_jellyfish"),
    _p("sashimi_jellyfish", "sashimi_jellyfish"),
    _p("remote_pair", "remote_pair"),
    _p("sue_de_coq", "sue_de_coq"),
    _p("multi_colors", ("multi_colors_1", "multi_colors_2")),
    _p("wxyz_wing", "wxyz_wing"),
    _p("vwxyz_wing", "vwxyz_wing"),
    _p("simple_colors", ("simple_colors_trap", "simple_colors_wrap")),
    _p("uvwxyz_wing", "uvwxyz_wing"),
    _p("als_xz", "als_xz"),
    _p("als_xy_wing", "als_xy_wing"),
)


#: Variant techniques on the SE scale: this project's extension, used by the "extended"
#: mode (SE itself knows no variant rule): every row of the ladder with an SE value that no
#: producer above names, in the ladder's order (which breaks ties between equal values).
#: Their values are in the ladder (:mod:`techniques.ladder`); each sits at the SE value of the
#: classic idea of the same
#: kind: reading one rule directly between a hidden and a naked single (2.0), a rule's digit
#: forced into a group like pointing (2.6), one sum's arithmetic like claiming (2.8), two
#: groups against each other like a naked pair (3.0), a one-link contradiction through the
#: rules like an X-Wing (3.2; through one rule read once 3.4, like a hidden pair), two
#: rules together like an XY-Wing (4.2), set equivalence
#: with cages like a W-Wing (4.4; equal-digit colouring, cells joined over several houses,
#: too), and the sums of set equivalence over many cells like a
#: finned jellyfish (5.4). SE 1.2.1 ("se121" mode) does not apply to variant puzzles:
#: :attr:`SERating.applies` is False there. A new variant technique is rated once its
#: ladder row has an SE value.
VARIANT_TECHNIQUES: tuple[str, ...] = tuple(
    r.name for r in LADDER if r.se is not None
    and not any(r.name in p.techniques for p in SE121_PRODUCERS + EXTENDED_PRODUCERS))
VARIANT_PRODUCERS: tuple[Producer, ...] = tuple(
    _p(f"variant {name}", name) for name in VARIANT_TECHNIQUES)


def producers(mode: str = "extended") -> list[Producer]:
    """The producers of a mode in the order they are asked.

    >>> [p.name for p in producers("se121")][:5]
    ['hidden_single', 'direct_pointing', 'direct_claiming', 'direct_hidden_pair', 'naked_single']
    >>> "skyscraper" in [p.name for p in producers("extended")]
    True
    """
    if mode == "se121":
        return list(SE121_PRODUCERS)
    if mode == "extended":
        allp = list(SE121_PRODUCERS) + list(EXTENDED_PRODUCERS) + list(VARIANT_PRODUCERS)
        return sorted(allp, key=lambda p: p.base)    # stable: SE order among equal bases
    raise UnknownSEMode(f"unknown SE rating mode {mode!r} (one of {', '.join(MODES)})")


def se_value(step: Step, state: State, mode: str = "extended") -> int | None:
    """SE value (tenths) of a registry step in ``state``, as the rating would count it
    (the cheapest producer that accepts it); None when no producer of ``mode`` covers it.

    >>> from variants.classic import classic_puzzle
    >>> st = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..").pencilmarks()
    >>> from techniques import StepSolver
    >>> se_value(StepSolver().next_step(st), st)
    23
    """
    an = analyze(state)
    best = None
    for p in producers(mode):
        if step.technique in p.techniques and (p.accept is None or p.accept(an, step)):
            v = p.value(an, step)
            best = v if best is None else min(best, v)
    return best


# ------------------------------------------------------------------------------------------
# the rating
# ------------------------------------------------------------------------------------------
@dataclass
class SEStep:
    """An applied step with its SE value (tenths) and the producer that found it."""

    step: Step
    value: int
    producer: str
    places: bool

    def to_dict(self) -> dict:
        return {"technique": self.step.technique, "se": self.value / 10,
                "producer": self.producer}


@dataclass
class SERating:
    """Sudoku Explainer-like rating: ``er`` (hardest step), ``ep`` (hardest step up to the
    first placement), ``ed`` (first step). When the techniques cannot finish, ``solved`` is
    False and ``er`` is 20.0 (SE's convention)."""

    er: float
    ep: float
    ed: float
    mode: str = "extended"
    solved: bool = True
    hardest: str | None = None
    steps: list[SEStep] = field(default_factory=list, repr=False)
    #: False when the scale does not apply: a variant puzzle in "se121" mode (SE's own
    #: techniques cannot read variant rules), which is then not solved (ratings 0.0)
    applies: bool = True
    #: "SE" (classic techniques only), "SE + variant extension" (a step of a variant
    #: technique valued by :data:`VARIANT_PRODUCERS`) or "does not apply"
    scale: str = "SE"

    def to_dict(self) -> dict:
        return {"er": self.er, "ep": self.ep, "ed": self.ed, "mode": self.mode,
                "solved": self.solved, "hardest": self.hardest, "applies": self.applies,
                "scale": self.scale}


class SESolver:
    """The SE-like rating: the human loop (:class:`~techniques.loop.Run`) with the
    producers of a mode as its strategy (:meth:`pick`). Configuration only, like
    :class:`~techniques.StepSolver`.

    ``options`` go to every technique; ``unique`` declares whether the puzzle has one
    solution (None: uniqueness techniques are used when the puzzle is known or checked
    to be unique, as in :class:`~techniques.StepSolver`).
    """

    def __init__(self, mode: str = "extended", options: dict | None = None,
                 unique: bool | None = None) -> None:
        self.mode = mode
        self.producers = producers(mode)
        self.options = registry.check_options(options)
        self.unique = unique

    def _steps_of(self, run: Run, an: Analysis, p: Producer, cache: dict) -> Iterable[Step]:
        """Effective steps of the producer's techniques; each technique's finder runs at
        most once per state (the steps found so far are shared between producers)."""
        for name in p.techniques:
            t = registry.load().get(name)
            if t is None or (t.requires_unique and not run.unique_ok()):
                continue
            key = (name, p.opts) if p.finder is None else (p.name,)
            if key not in cache:
                o = {**self.options, **dict(p.opts)}
                cache[key] = ([], t.find(an, o) if p.finder is None else iter(p.finder(an, o)))
            found, it = cache[key]
            i = 0
            while True:
                if i < len(found):
                    yield found[i]
                    i += 1
                    continue
                s = next(it, None)
                if s is None:
                    break
                if is_effective(an.state, s):
                    found.append(s)

    def pick(self, run: Run, an: Analysis) -> SEStep | None:
        """The strategy: the step SE would apply next in this mode, or None when stuck."""
        run.incomplete = False
        # the forcing scans leave their steps' notes and links for later: the producers
        # compare many steps by their complexity, and only the one kept needs them
        an.run_memo[NOTES_LATER] = True
        # (and propagate every net assumption: the kept-quiet check cost more than it saved)
        an.run_memo[NO_KEPT] = True
        cache: dict[tuple, tuple[list[Step], Iterator[Step]]] = {}
        best: SEStep | None = None
        first_wins = self.mode == "se121"
        for p in self.producers:
            if best is not None and (first_wins or best.value <= p.base):
                break
            if run.expired():
                return None      # past the deadline: the run ends ("limit")
            seen = 0
            for s in self._steps_of(run, an, p, cache):
                if p.accept is not None and not p.accept(an, s):
                    continue
                seen += 1
                if p.scan is not None and seen > p.scan:
                    break
                v = p.value(an, s)
                if best is None or v < best.value:
                    best = SEStep(s, v, p.name, p.direct or bool(s.placements))
                    if v <= p.base:
                        break
                if not p.varies:
                    break
        if best is None:
            run.incomplete = an.timed_out
        elif NOTE_LATER in best.step.extra:
            best = replace(best, step=with_note(best.step))
        return best

    def start(self, puzzle_or_state: Puzzle | State, time_limit: float | None = None,
              max_steps: int = MAX_STEPS, copy: bool = True,
              budget: Budget | None = None) -> Run:
        """A run of this rating's loop (iterating it yields :class:`SEStep` objects)."""
        return Run(puzzle_or_state, options=self.options, unique=self.unique,
                   time_limit=time_limit, max_steps=max_steps, strategy=self.pick, copy=copy,
                   budget=budget)

    def next_step(self, state: State) -> SEStep | None:
        """The step SE would apply next in this mode, or None when stuck (``state`` is
        not changed)."""
        return self.start(state, copy=False).peek()

    def rate(self, puzzle_or_state: Puzzle | State, time_limit: float | None = None,
             max_steps: int = MAX_STEPS, budget: Budget | None = None) -> SERating:
        """Solve with this mode's producers and return the :class:`SERating`. Past
        ``time_limit`` seconds (or once ``budget``, the caller's
        :class:`~csp.budget.Budget`, is spent) no step is searched and the costly searches
        stop: the rating is then unsolved. SE 1.2.1's own mode does not apply to a variant puzzle:
        the rating says so (``applies`` False) without solving."""
        puzzle = (puzzle_or_state if isinstance(puzzle_or_state, Puzzle)
                  else puzzle_or_state.puzzle)
        if self.mode == "se121" and is_variant(puzzle):
            return SERating(0.0, 0.0, 0.0, self.mode, False, None, [], applies=False,
                            scale="does not apply")
        run = self.start(puzzle_or_state, time_limit=time_limit, max_steps=max_steps,
                         budget=budget)
        # no cyclic garbage collection while the rating runs: its forcing scans make
        # hundreds of thousands of dicts and tuples, none in a cycle (the run releases each
        # state's analysis, ``Analysis.release``), which the collector's passes only walked
        # (about a tenth of the CPU); switched back on at the end as it was
        with gc_paused():
            done: list[SEStep] = list(run)
        return summarize(done, run.status == "solved", self.mode)


def summarize(steps: Sequence[SEStep], solved: bool = True, mode: str = "extended") -> SERating:
    """ER / EP / ED of a sequence of valued steps.

    >>> from csp.step import Candidate
    >>> e, p = Step("x", eliminations=(Candidate(0, 1),)), Step("y", placements=(Candidate(0, 2),))
    >>> r = summarize([SEStep(e, 94, "a", False), SEStep(e, 97, "b", False),
    ...                SEStep(p, 12, "c", True), SEStep(e, 99, "d", False)])
    >>> r.er, r.ep, r.ed, r.hardest
    (9.9, 9.7, 9.4, 'x')
    """
    er = ep = 0
    ed = steps[0].value if steps else 0
    hardest = None
    placed = False
    for s in steps:
        if s.value > er:
            er = s.value
            hardest = s.step.technique
        if not placed:
            ep = max(ep, s.value)
            placed = s.places
    if not solved:
        er = SE_UNSOLVED
        if not placed:
            ep = SE_UNSOLVED
        if not steps:
            ed = SE_UNSOLVED
    variant = {p.name for p in VARIANT_PRODUCERS}
    scale = "SE + variant extension" if any(s.producer in variant for s in steps) else "SE"
    return SERating(er / 10, ep / 10, ed / 10, mode, solved, hardest, list(steps),
                    scale=scale)


def rate_se(puzzle_or_state: Puzzle | State, mode: str = "extended",
            options: dict | None = None, unique: bool | None = None,
            time_limit: float | None = None, budget: Budget | None = None) -> SERating:
    """SE-like rating of a puzzle or state (see the module docstring); ``time_limit`` /
    ``budget`` as for :meth:`SESolver.rate`."""
    return SESolver(mode, options, unique).rate(puzzle_or_state, time_limit=time_limit,
                                                budget=budget)
