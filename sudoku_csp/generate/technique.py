"""Puzzles for one technique: HoDoKu's practice mode (issue 26 item 2).

:func:`for_technique` looks for a puzzle whose logic solve **needs** the technique and
**nothing harder**:

* the default solver solves the puzzle with the technique on its path, and every step of
  that path is of the technique or of one before it in the puzzle's ladder ("harder" is what
  the solver tries later: it takes the first technique of the ladder that applies; a variant
  puzzle has the variant ladder, :meth:`techniques.loop.Run.plan`);
* without it, the same solver limited to the techniques before it gets stuck at the very
  state where the path used it (the state just before its first step,
  :attr:`Practice.state`): checked, not assumed.

The puzzle's rules follow the technique (:func:`practice_variant`): a classic technique
gets a classic puzzle; a technique that reads killer cages (the killer family and the 45
rule's set techniques: innies, outies, innies-outies, cage splitting) a killer, the law of
leftovers a jigsaw; ``variant`` asks for a family explicitly (any variant ``generate``
makes, e.g. ``"killer"`` for an X-Wing on a killer, ``"renban"`` for a renban technique).
A technique that reads rules no generated family has, with no ``variant``, is refused.

Candidates are the generator's candidates of that variant from ``seed``, ``seed + 1``, ...
(minimal classic and jigsaw puzzles, killers of 2-3-cell cages covering the grid
(:data:`PRACTICE_CAGES`) with givens only where needed, rule-family puzzles with every
element and minimal givens), each steered towards the technique before it is judged
(:func:`_descend`): a candidate that the techniques up to ``name`` cannot finish (it needs
a later one) gets givens back from its solution, one at a time, the best of a few random
cells, until they finish it (it stays unique: givens are only added); a killer they finish
without ``name`` loses cages one at a time while it stays unique and finished
(:func:`_drop_cages`), until ``name`` is used. Either way :func:`_check` judges the result
exactly as above. A seed reproduces its puzzle, and a killer's or rule family's uniqueness
is proved again by the SAT path before it is kept. Random minimal puzzles rarely need some
techniques as their hardest idea (an X-Wing: about one candidate in 500 before the
steering), and some stay rare (see docs/performance.md for every technique on the default
path of the Sudoku Exchange set). Techniques off the default path (``enabled`` false in the
ladder) are refused: the default solver never uses them.

For the rarest (:data:`BANK_FIRST`) a classic puzzle comes from the seed bank instead
(:mod:`.bank`; ``method="bank"`` asks for it for any technique the bank has): a bank
puzzle that needs the technique, turned into a random isomorph and mutated from the seed
(:func:`_bank_candidate`), judged by the same :func:`_check`. :attr:`Practice.method` says
which way a puzzle was made ("generated" or "bank isomorph").

:func:`for_technique_iter` yields ``count`` such puzzles as they are found, with a
:class:`~sudoku_csp.generate.Progress` per candidate and a time limit per puzzle.

>>> pr = for_technique("xy_wing", seed=1)
>>> pr.step.technique, pr.seed, pr.puzzle.count_solutions(2)
('xy_wing', 6, 1)
>>> for_technique("xy_wing", seed=pr.seed).line() == pr.line()
True
>>> k = for_technique("innies", seed=8)
>>> k.variant, k.seed, k.step.technique, k.puzzle.count_solutions(2, method="sat")
('killer', 8, 'innies', 1)
"""
from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from csp import Puzzle
from csp.errors import (NodeLimitExceeded, SearchLimit, SoundnessError, SudokuCSPError,
                        TimeLimitExceeded)
from csp.search import search
from csp.io import write_line, write_pencilmarks
from csp.state import State
from csp.budget import Budget
from csp.step import Step
from techniques import StepSolver, registry
from variants.killer import killer_cage

from . import GenerateError, Progress, VARIANTS
from .candidates import make_candidate
from .rules import make_rules_candidate, parse_families
from csp.text import quoted

#: seconds of CPU time (``time.process_time``, not the wall clock: a loaded machine gives
#: the same result) each logic solve of a candidate may take (:func:`_budget`); a candidate
#: whose solve runs past it is dropped. The call's ``time_limit`` stays a wall-clock bound
CANDIDATE_SECONDS = 20.0
#: the generated variant a technique that reads variant rules is practised on, by the
#: technique's family (``sets``: the 45 rule's innies, outies, ... on killer cages) and, first,
#: by its name
PRACTICE_VARIANTS = {"killer": "killer", "sets": "killer"}
PRACTICE_VARIANT_OF = {"law_of_leftovers": "jigsaw"}
#: killer practice candidates: cages of 2 to 3 cells over the whole grid (measured
#: 2026-11-29 on seeds 1-23: bigger cages leave many candidates whose uniqueness search runs
#: past its 5 s; 2-3 cells take about 0.3-1 s CPU a candidate and innies come up in 2 of 11)
PRACTICE_CAGES = (2, 3)
#: steering of a candidate the technique cannot finish (:func:`_descend`): at most this many
#: givens are added back, each the best of this many random cells tried (measured
#: 2026-11-29 on X-Wing, CPU: 1 or 3 cells tried found none in 200 seeds, 6 found 2 in 117
#: seeds at 0.3 s a seed, 12 found 1 in 40 at 0.9 s a seed; without steering about 1 in 500
#: candidates at 0.1 s each)
STEER_STEPS = 40
STEER_TRIES = 6
#: depth-first nodes the uniqueness search of a killer without one more cage may use (a
#: search past it keeps the cage: node-based, so the seed reproduces the puzzle on any machine)
STEER_CAGE_NODES = 3000
#: techniques whose pattern random added givens almost never make appear: their steering
#: first searches, from the stuck state, for added givens after which the technique applies
#: where the techniques before it get stuck (:func:`_pattern_cells`, at most
#: :data:`PATTERN_NODES` states), nearest the pattern first by the technique's own measure
#: (:func:`_near`). Measured 2026-11-29 on swordfish, CPU: without it none in
#: 150 seeds (60 s); with 60 states 1 find in seeds 1-70 (seed 25, 115 s), 20 states 1 in
#: 1-120 (89 s), 8 states 2 in 1-450 (seeds 25 and 295, 149 s; seed 25 after 12.8 s). With
#: a measure of their own (8 states, from seed 1, CPU under load): naked quadruple seed 189
#: (24 s), Uniqueness Test 4 seed 286 (29 s), Avoidable Rectangle 1 seed 335 (39 s), Multi
#: Colors 1 seed 118 (17 s); all four none in 60 s before. The hidden triple keeps the plain
#: steering (found at seed 287 without it)
PATTERN_STEER = frozenset({"swordfish", "naked_quadruple", "uniqueness_test_4",
                           "avoidable_rectangle_1", "multi_colors_1"})
PATTERN_NODES = 8
#: techniques steered by the edges of random orders of added givens (:func:`_edges`), and
#: how many orders a candidate gets. Measured 2026-11-29 (from seed 1, CPU, beside other
#: work on 2 cores): Simple Colors Trap seed 112 after 7.9 s, Grouped Continuous Nice Loop
#: seed 940 after 41.1 s (both none in 60 s before, with or without the pattern search:
#: 528 and 678 candidates). The finds cluster: seed 940 gives the loop in 9 of 60 orders,
#: seeds 112 and 118 the trap in 1 of 60, so 10 orders beat 30 (the loop 65.8 s, the same
#: seed). Finned Jellyfish and Avoidable Rectangle 2 found none this way in 90 s (674
#: candidates each; a trial of the jellyfish with its pattern search first: none, 508)
EDGE_STEER = frozenset({"simple_colors_trap", "grouped_continuous_nice_loop"})
EDGE_ORDERS = 10
#: techniques whose classic 9x9 candidates are built around their pattern instead
#: (:func:`_shaped`): a hidden quadruple is only needed in a house of 9 open cells (in one of
#: 5 to 8 its complement is a naked single, pair, triple or quadruple, all tried before it),
#: so the candidate keeps one box without givens and four digits out of five of its cells
#: from the start. Measured 2026-11-30 (CPU, beside other work on 2 cores): 3 finds in seeds
#: 1-1,500 (0.036 s a seed; plain and pattern-searched candidates none in 2,674); the
#: steering of :func:`_descend` never kept a house that open
SHAPE_STEER = frozenset({"hidden_quadruple", "avoidable_rectangle_2"})
#: random orders of added givens a stuck shaped candidate gets (:func:`_shaped`)
SHAPE_EDGE_ORDERS = 6
#: shaped candidates made by climbing (:func:`_climbed`) instead: a random minimal puzzle's
#: givens are changed one move at a time (a given removed while unique, a given added, or
#: both), a move kept when the stuck state of the ladder before the technique is at least as
#: near it (:func:`_ar2_score`). An avoidable rectangle 2 needs its two placed corners
#: placed by logic after an elimination that is not a placement (a wing or a chain takes b
#: out of a corner that no given can reach) and its two open corners kept open through two
#: stuck states; random and dug puzzles almost never have it (docs/performance.md).
#: Measured 2026-11-30 (CPU, beside other work on 2 cores): a prototype found one at its
#: seed 4 after 8.9 s (1 in 129 s; the bank's row); this version none in 43
#: candidates (463 s): the climbs stop one step short (the pattern with no cell to clear),
#: so :data:`BANK_FIRST` keeps the technique
CLIMB_STEER = frozenset({"avoidable_rectangle_2"})
#: moves a climbed candidate gets, and the depth-first nodes each uniqueness check may use
#: (a count, not a time: the seed reproduces the puzzle on any machine)
CLIMB_MOVES = 6000
CLIMB_UNIQUE_NODES = 20000
#: techniques whose classic 9x9 puzzles come from the seed bank first (``method`` None):
#: those the steered generator finds none for within 60 s CPU (docs/performance.md) and the
#: bank has puzzles for (:func:`sudoku_csp.generate.bank.entries`); ``method="bank"`` asks
#: for the bank for any technique it has. The hidden quadruple left it (2026-11-30): its
#: shaped candidates (:data:`SHAPE_STEER`) find one within 60 s CPU from every seed
#: measured; its bank rows (found that way) serve ``method="bank"``. The avoidable
#: rectangle 2's one bank row was found by climbing (:data:`CLIMB_STEER`)
BANK_FIRST = frozenset({"avoidable_rectangle_2", "finned_jellyfish"})
#: mutations tried on a bank isomorph (:func:`_bank_candidate`): a random given removed
#: and, while the puzzle has a second solution, the solution's digit given in a random
#: cell where the two differ (at most :data:`BANK_REPAIRS` times); kept when the puzzle is
#: then unique (searches of at most :data:`BANK_UNIQUE_NODES` nodes: node-based, so the
#: seed reproduces the puzzle on any machine) and the judge accepts it. Measured
#: 2026-11-30 on an X-Wing puzzle: 6 of 40 such mutations kept (a random given moved to a
#: random blank cell: 0 of 40, the puzzles are minimal: 38 not unique), 0.4 s CPU for 40.
#: At most :data:`BANK_MUTATIONS` are tried, until :data:`BANK_KEEP` are kept (24 tries
#: left 6 of 20 finned-jellyfish isomorphs with none kept)
BANK_MUTATIONS = 60
BANK_KEEP = 4
BANK_REPAIRS = 6
BANK_UNIQUE_NODES = 20000


class UnknownPractice(SudokuCSPError, ValueError):
    """A technique no puzzle can be made for (off the default path, or reading rules no
    generated family has, or not the rules of the variant asked for)."""


class NoPracticePuzzle(SudokuCSPError):
    """No puzzle for the technique was found within the time limit (``tried`` candidates)."""

    def __init__(self, message: str, tried: int,
                 puzzles: list["Practice"] | None = None) -> None:
        super().__init__(message)
        self.tried = tried
        #: the puzzles made before the limit ran out (:func:`for_technique_iter`)
        self.puzzles = puzzles or []


@dataclass
class Practice:
    """A puzzle for practising ``technique``: ``state`` is the solve's state just before the
    technique's first step (``step``), after ``before`` easier steps; ``solution`` the
    puzzle's one solution; ``seed`` reproduces it."""

    puzzle: Puzzle
    solution: list[int]
    technique: str
    state: State
    step: Step
    before: int
    seed: int
    tries: int
    rating: Any = None
    variant: str = "classic"
    #: how it was made: "generated" (a random candidate of the generator, steered towards
    #: the technique) or "bank isomorph" (a random isomorph of a seed-bank puzzle, mutated)
    method: str = "generated"
    #: for a bank isomorph: the bank puzzle's source and the mutations kept
    source: str | None = None
    mutations: int = 0

    def line(self) -> str:
        """The puzzle's givens as a line."""
        return write_line([self.puzzle.given.get(c, 0) for c in range(self.puzzle.grid.size)],
                          self.puzzle.grid.n)

    def text(self) -> str:
        """What the CLI prints: the line for classic, the sudoku-csp JSON spec otherwise."""
        if self.variant == "classic":
            return self.line()
        from ..formats.spec import to_spec
        return json.dumps(to_spec(self.puzzle))

    def marks(self) -> str:
        """The pencil marks of :attr:`state` (the boxed candidate grid HoDoKu prints)."""
        return write_pencilmarks(self.state)

    def to_dict(self) -> dict[str, Any]:
        """JSON object of ``sudoku-csp generate --technique ... --json``."""
        g = self.puzzle.grid
        from ..formats.spec import to_spec
        out: dict[str, Any] = {"variant": self.variant, "technique": self.technique,
                               "puzzle": (self.line() if self.variant == "classic"
                                          else to_spec(self.puzzle)),
                               "solution": write_line(self.solution, g.n),
                               "seed": self.seed, "tried": self.tries, "method": self.method}
        if self.method == "bank isomorph":
            out["bank"] = {"source": self.source, "mutations": self.mutations}
        if self.rating is not None:
            out.update(level=self.rating.level, rating=self.rating.to_dict(),
                       hardest=self.rating.hardest)
        out["practice"] = {"steps_before": self.before, "step": self.step.explain(1),
                           "state": write_line(list(self.state.placed), g.n),
                           "candidates": _cand_line(self.state)}
        return out


def _cand_line(state: State) -> list[str]:
    return ["".join(str(d) for d in range(1, m.bit_length()) if m >> d & 1) for m in state.cand]




def practice_variant(name: str, variant: str | None = None) -> str:
    """The variant a puzzle for technique ``name`` is made in: ``variant`` when given (checked:
    a technique that reads variant rules is not practised on classic puzzles), else
    classic for a technique of the classic ladder, else the variant of its family
    (:data:`PRACTICE_VARIANTS`). Raises :class:`UnknownPractice` for a technique off the
    default path or one whose rules the generator cannot infer,
    :class:`techniques.registry.UnknownTechnique` for an unknown name.

    >>> practice_variant("x_wing"), practice_variant("innies"), practice_variant("x_wing", "killer")
    ('classic', 'killer', 'killer')
    >>> practice_variant("renban_mandatory")
    Traceback (most recent call last):
    ...
    sudoku_csp.generate.technique.UnknownPractice: technique 'renban_mandatory' reads variant rules (family lines) the generator cannot choose: name the rule family with variant (e.g. --variant renban)
    """
    import variants  # noqa: F401  (registers the rule families' techniques: their names)
    from techniques.ladder import CLASSIC_SKIP
    tech = registry.get(name)
    if not tech.enabled:
        raise UnknownPractice(f"technique {quoted(name)} is not on the default path (off by "
                              "default): no puzzle needs it")
    reads_rules = tech.name in CLASSIC_SKIP or tech.finder.__module__.startswith("variants.")
    if variant is not None:
        if variant not in VARIANTS and parse_families(variant) is None:
            raise GenerateError(f"unknown variant {quoted(variant)} for a practice puzzle (classic, "
                                "jigsaw, killer or rule families joined by commas)")
        if variant == "classic" and reads_rules:
            raise UnknownPractice(f"technique {quoted(name)} reads variant rules: a classic puzzle "
                                  "never needs it")
        return variant
    if not reads_rules:
        return "classic"
    got = PRACTICE_VARIANT_OF.get(tech.name) or PRACTICE_VARIANTS.get(tech.family)
    if got is None:
        raise UnknownPractice(f"technique {quoted(name)} reads variant rules (family {tech.family}) "
                              "the generator cannot choose: name the rule family with variant "
                              "(e.g. --variant renban)")
    return got


def for_technique(name: str, seed: int | None = None, time_limit: float = 60.0,
                  size: int = 9, progress: Callable[[int], Any] | None = None,
                  variant: str | None = None, method: str | None = None) -> Practice:
    """A puzzle that needs technique ``name`` and nothing harder (see the module), within
    ``time_limit`` seconds (wall clock; :class:`NoPracticePuzzle` past it); ``variant`` as
    for :func:`practice_variant`, ``method`` as for :func:`for_technique_iter`;
    ``progress(candidates tried)`` after each candidate.
    The first puzzle of :func:`for_technique_iter`."""
    tell = None if progress is None else (lambda p: progress(p.candidate))
    return next(for_technique_iter(name, 1, seed, time_limit, size, tell, variant=variant,
                                   method=method))


def practice_method(name: str, variant: str = "classic", size: int = 9,
                    method: str | None = None) -> str:
    """How puzzles for technique ``name`` are made: ``method`` when given ("generated" or
    "bank": checked, the bank holds classic 9x9 puzzles for some techniques only), else
    "bank" for a technique of :data:`BANK_FIRST` the bank has puzzles for (classic 9x9),
    else "generated".

    >>> practice_method("xy_wing"), practice_method("xy_wing", method="generated")
    ('generated', 'generated')
    >>> try:
    ...     practice_method("xy_wing", method="bank")
    ... except GenerateError as e:
    ...     print(str(e).split(" (")[0])
    the seed bank has no puzzle for xy_wing
    """
    from . import bank
    has = variant == "classic" and size == 9 and bool(bank.entries(name))
    if method is None:
        return "bank" if has and name in BANK_FIRST else "generated"
    if method not in ("generated", "bank"):
        raise GenerateError(f"unknown method {quoted(method)} for a practice puzzle (generated or "
                            "bank)")
    if method == "bank" and not has:
        if variant != "classic" or size != 9:
            raise GenerateError(f"the seed bank holds classic 9x9 puzzles only, not {variant} "
                                f"{size}x{size}")
        raise GenerateError(f"the seed bank has no puzzle for {name} (it has: "
                            f"{', '.join(bank.techniques()) or 'none'})")
    return method


def for_technique_iter(name: str, count: int = 1, seed: int | None = None,
                       time_limit: float | None = 60.0, size: int = 9,
                       progress: Callable[[Progress], Any] | None = None, *,
                       variant: str | None = None,
                       method: str | None = None) -> Iterator[Practice]:
    """Yield ``count`` puzzles for technique ``name`` as they are found (candidate seeds
    ``seed``, ``seed + 1``, ...; 0 when None), each within ``time_limit`` seconds (None: no
    limit; past it :class:`NoPracticePuzzle`, whose ``puzzles`` are the ones yielded).
    ``method`` (:func:`practice_method`): "generated" (random candidates steered towards
    the technique), "bank" (random isomorphs of the seed bank's puzzles for it, mutated:
    :func:`_bank_candidate`) or None (the bank for the rare techniques of
    :data:`BANK_FIRST`, else generated); either way :func:`_check` judges every puzzle.
    ``progress`` gets a :class:`~sudoku_csp.generate.Progress` per candidate: its
    ``outcome`` is "kept", "not used" (the technique is not on the solve's path), "needs
    harder" (a later technique too), "not needed" (solved without it), "stuck elsewhere",
    "logic stuck", "no puzzle" or "search limit".

    >>> seen = []
    >>> got = list(for_technique_iter("xy_wing", 2, seed=11, progress=seen.append))
    >>> [pr.seed for pr in got], [p.puzzle for p in seen if p.outcome == "kept"], len(seen)
    ([11, 15], [1, 2], 5)
    """
    variant = practice_variant(name, variant)
    tech = registry.get(name)
    families = parse_families(variant)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise GenerateError(f"count must be a positive integer, got {quoted(count)}")
    if families is not None and size > 9:
        raise GenerateError(f"rule families are generated up to 9x9, not {size}x{size}")
    how = practice_method(tech.name, variant, size, method)
    s = 0 if seed is None else seed
    made: list[Practice] = []
    tried = 0
    for _ in range(count):
        t0 = time.perf_counter()
        deadline = None if time_limit is None else t0 + time_limit
        k = 0
        while deadline is None or time.perf_counter() < deadline:
            k += 1
            tried += 1
            tc = time.perf_counter()
            outcome = (_bank_candidate(tech.name, s, deadline) if how == "bank" else
                       _candidate(tech.name, variant, families, s, size, deadline))
            if progress is not None:
                progress(Progress(len(made) + 1, count, k, s,
                                  outcome if isinstance(outcome, str) else "kept", None,
                                  time.perf_counter() - tc, time.perf_counter() - t0))
            s += 1
            if isinstance(outcome, Practice):
                outcome.tries = k
                made.append(outcome)
                yield outcome
                break
        else:
            raise NoPracticePuzzle(f"no puzzle needing {name} found in {time_limit:g} s "
                                   f"({k} candidates from seed {s - k}; made {len(made)} of "
                                   f"{count})", tried, made)


def _candidate(name: str, variant: str, families: list[str] | None, s: int, size: int,
               deadline: float | None) -> "Practice | str":
    """The practice puzzle of seed ``s``, or what became of the candidate."""
    try:
        if families is not None:
            got = make_rules_candidate(families, s, size, deadline=deadline)
            made = None if got is None else got[:2]
        elif variant == "classic" and size == 9 and name in SHAPE_STEER:
            shaped = (_climbed if name in CLIMB_STEER else _shaped)(name, s, deadline)
            if isinstance(shaped, str):
                return shaped
            p, solution, found = shaped
            _sat_unique(p, solution, f"practice puzzle (seed {s})", deadline)
            state, step, before, rating = found
            return Practice(p, solution, name, state, step, before, s, 1, rating, variant)
        elif variant == "killer":
            made = make_candidate("killer", s, size, deadline=deadline,
                                  cage_sizes=PRACTICE_CAGES)
        else:
            made = make_candidate(variant, s, size, deadline=deadline)
        if made is None:
            return "no puzzle"
        p, solution = made
        p, found = _descend(p, solution, name, s, deadline)
        if isinstance(found, str):
            return found
        if variant != "classic":     # proved by the SAT path, not taken from the dig
            _sat_unique(p, solution, f"practice {variant} puzzle (seed {s})", deadline)
    except SearchLimit:
        return "search limit"
    state, step, before, rating = found
    return Practice(p, solution, name, state, step, before, s, 1, rating, variant)


def _sat_unique(p: Puzzle, solution: Sequence[int], what: str,
                deadline: float | None) -> None:
    """Prove ``p`` unique by the SAT path within the deadline (SoundnessError naming
    ``what`` if it is not)."""
    left = None if deadline is None else max(0.001, deadline - time.perf_counter())
    if p.count_solutions(2, method="sat", time_limit=left) != 1:
        raise SoundnessError(f"{what} is not unique by SAT", p, solution)


def _bank_candidate(name: str, s: int, deadline: float | None) -> "Practice | str":
    """The practice puzzle of seed ``s`` from the seed bank (:mod:`.bank`), or what became
    of it: ``random.Random(s)`` picks one of the bank's puzzles for ``name`` and a random
    isomorph of it (:func:`.bank.isomorph`: digits relabelled, rows and columns permuted
    within bands and stacks, bands and stacks permuted, maybe transposed), which
    :func:`_check` judges (the solver's tie order may depend on positions: not assumed);
    then up to :data:`BANK_MUTATIONS` random mutations (a given removed, and givens from the
    solution added where a second solution differs until it is unique again), each kept
    when the puzzle is unique by search and the judge still accepts it, until
    :data:`BANK_KEEP` are kept: so the result is mostly not only a relabelled copy. The result is proved unique by the SAT path.

    >>> pr = _bank_candidate("finned_jellyfish", 1, None)
    >>> pr.method, pr.step.technique, pr.puzzle.count_solutions(2, method="sat")
    ('bank isomorph', 'finned_jellyfish', 1)
    >>> _bank_candidate("finned_jellyfish", 1, None).line() == pr.line(), pr.mutations > 0
    (True, True)
    """
    from variants.classic import classic_puzzle
    from . import bank
    rows = bank.entries(name)
    if not rows:
        return "no puzzle"
    rng = random.Random(s)
    line, source = rows[rng.randrange(len(rows))]
    iso = bank.isomorph(rng)

    def build(gv: list[int]) -> Puzzle:
        q = classic_puzzle("".join(str(v) if v else "." for v in gv))
        q.unique = True
        return q

    def solutions(q: Puzzle) -> list[list[int]] | None:
        try:
            return q.solve(node_limit=BANK_UNIQUE_NODES, method="search").solutions
        except NodeLimitExceeded:
            return None
    try:
        p = build(iso.values([0 if ch in ".0" else int(ch) for ch in line]))
        sols = solutions(p)
        if sols is None or len(sols) != 1:
            raise SoundnessError(f"seed-bank puzzle for {name} ({source}) is not unique", p,
                                 None)
        solution = list(sols[0])
        found = _check(p, name, deadline)
        if isinstance(found, str):
            return found
        givens = [p.given.get(c, 0) for c in range(81)]
        kept = 0
        for _ in range(BANK_MUTATIONS):
            if kept >= BANK_KEEP:
                break
            gv = givens[:]
            g = rng.choice([c for c in range(81) if gv[c]])
            gv[g] = 0
            for _ in range(BANK_REPAIRS + 1):
                q = build(gv)
                sols = solutions(q)
                if sols is None or len(sols) < 2:
                    break
                other = sols[0] if list(sols[0]) != solution else sols[1]
                b = rng.choice([c for c in range(81) if other[c] != solution[c] and c != g])
                gv[b] = solution[b]
            if sols is None or len(sols) != 1:
                continue
            got = _check(q, name, deadline)
            if isinstance(got, str):
                continue
            givens, p, found = gv, q, got
            kept += 1
        _sat_unique(p, solution, f"practice puzzle from the seed bank (seed {s})", deadline)
    except SearchLimit:
        return "search limit"
    state, step, before, rating = found
    return Practice(p, solution, name, state, step, before, s, 1, rating, "classic",
                    "bank isomorph", source, kept)


def _shaped(name: str, s: int, deadline: float | None
            ) -> "tuple[Puzzle, list[int], tuple[State, Step, int, Any]] | str":
    """A classic 9x9 candidate of seed ``s`` built around technique ``name`` of
    :data:`SHAPE_STEER`, and the verdict of :func:`_check` on it: the puzzle, its solution
    and the practice state, or what became of it ("no puzzle": the shaped start is not
    unique; "not used", "needs harder" ...).

    Hidden quadruple: a random full grid; one random box B loses all its givens, and of its
    cells the four C outside one row r and one column c of B are the quadruple's (their
    digits D); every D digit of row r and column c outside B stays given, so D is out of
    B's other five cells from the start (the complement of C is a naked quintuple, which the
    ladder does not have). The other givens outside B are dug in a random order while the
    puzzle stays unique (a depth-first search, exact: the seed reproduces the puzzle). A
    minimal puzzle the ladder up to ``name`` finishes is judged as it is; one it cannot
    finish gets givens back from the solution, outside B only, in
    :data:`SHAPE_EDGE_ORDERS` random orders, each bisected to the fewest after which the
    ladder up to ``name`` finishes; that puzzle is judged when the ladder before ``name``
    cannot finish it (then ``name`` was needed). Everything from ``random.Random(s)``.

    >>> got = _shaped("hidden_quadruple", 81, None)
    >>> p, sol, (state, step, before, rating) = got
    >>> step.technique, len(step.houses), p.count_solutions(2, method="sat")
    ('hidden_quadruple', 1, 1)
    """
    from variants.classic import classic
    from .dig import unique_within
    from .fill import random_fill
    rng = random.Random(s)
    full = Puzzle(9).use(classic())
    sol = random_fill(full, rng, deadline=deadline)
    if sol is None:
        return "no puzzle"
    b = rng.randrange(9)
    br, bc = 3 * (b // 3), 3 * (b % 3)
    box = {9 * (br + i) + bc + j for i in range(3) for j in range(3)}
    r0, c0 = br + rng.randrange(3), bc + rng.randrange(3)
    quad = {sol[c] for c in box if c // 9 != r0 and c % 9 != c0}
    keep = {c for c in range(81) if c not in box and sol[c] in quad
            and (c // 9 == r0 or c % 9 == c0)}
    eng = full.engine()
    allm = full.grid.all_mask

    def unique(gv: list[int]) -> bool:
        return unique_within(eng, [(1 << v) if v else allm for v in gv], deadline, None)

    givens = [0 if c in box else sol[c] for c in range(81)]
    if not unique(givens):
        return "no puzzle"
    order = [c for c in range(81) if givens[c] and c not in keep]
    rng.shuffle(order)
    for c in order:
        givens[c] = 0
        if not unique(givens):
            givens[c] = sol[c]
    plan = [t.name for t, _, _ in
            StepSolver("default", unique=True).start(full).plan()]
    upto = StepSolver(plan[:plan.index(name) + 1], unique=True)
    before = StepSolver(plan[:plan.index(name)], unique=True)

    build = _classic_of

    def finished(solver: StepSolver, gv: list[int]) -> bool:
        return _steered_solve(solver, build(gv), deadline).status == "solved"

    def judged(gv: list[int]) -> "tuple[Puzzle, list[int], Any] | str":
        q = build(gv)
        found = _check(q, name, deadline)
        return found if isinstance(found, str) else (q, sol, found)

    if finished(upto, givens):
        return judged(givens)
    blank = [c for c in range(81) if not givens[c] and c not in box]
    verdict = "needs harder"
    for gv in _bisected_edges(givens, blank, sol, rng, lambda g: finished(upto, g)):
        if not finished(before, gv):
            got = judged(gv)
            if not isinstance(got, str):
                return got
            verdict = got
    return verdict



def _classic_of(gv: list[int]) -> Puzzle:
    """A classic 9x9 puzzle of the givens ``gv`` (0: open), marked as unique."""
    from variants.classic import classic
    q = Puzzle(9).use(classic()).givens(gv)
    q.unique = True
    return q


def _steered_solve(solver: StepSolver, q: Puzzle, deadline: float | None) -> Any:
    """``solver``'s solve of ``q`` within what is left before ``deadline``, ``solved`` or
    ``stuck``; a solve the limit stopped (or no time left) raises
    :class:`TimeLimitExceeded`, which ends the steering."""
    b_ = _budget(deadline)
    if b_.exhausted:
        raise TimeLimitExceeded("time limit reached while steering")
    res = solver.solve(q, budget=b_)
    if res.status not in ("solved", "stuck"):
        raise TimeLimitExceeded("time limit reached while steering")
    return res

def _bisected_edges(givens: list[int], blank: list[int], sol: list[int],
                    rng: random.Random, finishes: Callable[[list[int]], bool]
                    ) -> Iterator[list[int]]:
    """The edges where a stuck candidate starts to finish: for each of
    :data:`SHAPE_EDGE_ORDERS` random orders of ``blank`` (shuffled in place, one order a
    step of the iteration), ``givens`` with the shortest prefix of the order given back
    (from ``sol``) for which ``finishes`` holds, found by bisection (the whole order is
    assumed to finish). Used by :func:`_shaped` and :func:`_climbed`: the caller keeps an
    edge where the ladder before the technique is still stuck.

    >>> import random
    >>> sol = list(range(1, 10)) * 9
    >>> edge = next(_bisected_edges([0] * 81, list(range(81)), sol, random.Random(1),
    ...                             lambda g: sum(map(bool, g)) >= 5))
    >>> sum(map(bool, edge))
    5
    """
    for _ in range(SHAPE_EDGE_ORDERS):
        rng.shuffle(blank)
        lo, hi = 0, len(blank)              # prefix lo: stuck; hi: finished
        while hi - lo > 1:
            mid = (lo + hi) // 2
            g = givens[:]
            for c in blank[:mid]:
                g[c] = sol[c]
            if finishes(g):
                hi = mid
            else:
                lo = mid
        g = givens[:]
        for c in blank[:hi]:
            g[c] = sol[c]
        yield g


def _climbed(name: str, s: int, deadline: float | None
             ) -> "tuple[Puzzle, list[int], tuple[State, Step, int, Any]] | str":
    """A classic 9x9 candidate of seed ``s`` for technique ``name`` of :data:`CLIMB_STEER`
    (the avoidable rectangle 2), as :func:`_shaped` returns it: the minimal puzzle of
    :func:`make_candidate` of seed ``s`` is changed by at most :data:`CLIMB_MOVES` random
    moves (from ``random.Random(s)``: a random given removed, a random blank cell given
    its solution digit, or both at once; a move that leaves two solutions, by a search of
    :data:`CLIMB_UNIQUE_NODES` nodes, is not made), each kept when the state where the
    ladder before ``name`` gets stuck scores at least as high as before
    (:func:`_ar2_score`: hill climbing, sideways moves allowed). When the score says the
    technique applies there, :func:`_check` judges the puzzle; one that needs something
    harder later gets givens back in :data:`SHAPE_EDGE_ORDERS` random orders outside the
    rectangle, each bisected to the fewest after which the ladder up to ``name`` finishes
    (as :func:`_shaped` does), and is judged there. "needs harder" when no move got there.
    """
    from variants.classic import classic
    from .dig import unique_within
    rng = random.Random(s)
    made = make_candidate("classic", s, deadline=deadline)
    if made is None:
        return "no puzzle"
    p, sol = made
    full = Puzzle(9).use(classic())
    eng = full.engine()
    allm = full.grid.all_mask
    plan = [t.name for t, _, _ in StepSolver("default", unique=True).start(p).plan()]
    upto = StepSolver(plan[:plan.index(name) + 1], unique=True)
    before = StepSolver(plan[:plan.index(name)], unique=True)

    build = _classic_of

    def solved(solver: StepSolver, gv: list[int]) -> "tuple[bool, State]":
        res = _steered_solve(solver, build(gv), deadline)
        return res.status == "solved", res.state

    def score(gv: list[int]) -> "tuple[float, tuple[int, int, int, int] | None, list[int]]":
        """The score of ``gv`` (-5: the ladder before ``name`` finishes it), its rectangle,
        and the givens that keep a digit the two open corners could share (r's and s's
        extra digits) out of the open cells seeing both (removing one of them is tried
        first half the time: the cell to clear needs that digit)."""
        done, st = solved(before, gv)
        if done:
            return -5.0, None, []
        sc, rect = _ar2_score(st, sol)
        if rect is None:
            return sc, rect, []
        p_, q_, r_, s_ = rect
        extra = (st.cand[r_] | st.cand[s_]) & ~(1 << sol[p_] | 1 << sol[q_])
        seen: set[int] = set()
        for o in peers[r_] & peers[s_]:
            if not st.placed[o]:
                seen |= peers[o]
        return sc, rect, [g for g in sorted(seen) if gv[g] and extra >> gv[g] & 1]

    def judged(gv: list[int], rect: tuple[int, ...]) -> "tuple | str":
        found = _check(build(gv), name, deadline)
        if found not in ("needs harder", "logic stuck"):
            return found if isinstance(found, str) else (build(gv), sol, found)
        blank = [c for c in range(81) if not gv[c] and c not in rect]
        verdict = found
        for g in _bisected_edges(gv, blank, sol, rng, lambda g_: solved(upto, g_)[0]):
            if not solved(before, g)[0]:
                found = _check(build(g), name, deadline)
                if not isinstance(found, str):
                    return build(g), sol, found
                verdict = found
        return verdict

    peers = _peer_sets(full.grid)
    givens = [p.given.get(c, 0) for c in range(81)]
    cur, rect, focus = score(givens)
    tried: set[tuple[int, ...]] = set()
    verdict = "needs harder"
    for _ in range(CLIMB_MOVES):
        gv = givens[:]
        move = rng.random()
        given = [c for c in range(81) if gv[c]]
        blank = [c for c in range(81) if not gv[c]]
        if move < 0.7:
            gv[rng.choice(focus if focus and rng.random() < 0.5 else given)] = 0
        if move >= 0.4:
            c = rng.choice(blank)
            gv[c] = sol[c]
        if move < 0.7 and not unique_within(eng, [(1 << v) if v else allm for v in gv],
                                            deadline, CLIMB_UNIQUE_NODES):
            continue
        sc, r, f = score(gv)
        if sc < cur:
            continue
        givens, cur, rect, focus = gv, sc, r, f
        if cur >= AR2_APPLIES and rect is not None and tuple(givens) not in tried:
            tried.add(tuple(givens))
            got = judged(givens, rect)
            if not isinstance(got, str):
                return got
            verdict = got
    return verdict


#: :func:`_ar2_score` at or past which an avoidable rectangle 2 likely applies
AR2_APPLIES = 16


def _ar2_score(state: State, solution: Sequence[int]
               ) -> "tuple[float, tuple[int, int, int, int] | None]":
    """How near stuck ``state`` (classic 9x9) is to an Avoidable Rectangle Type 2, and the
    rectangle (p, q, r, s: p and q adjacent, r opposite q, s opposite p) nearest it. Over
    the rectangles with no given whose corners can still take the deadly pattern of the
    solution's digits a = p, b = q (r holds b, s holds a, p and q hold a and b or are placed
    by logic): 6 a placed corner, less 2 for each candidate of r and s beyond {b, c} and
    {a, c} (one extra digit c, the same in both), plus 4 when a cell seeing r and s holds
    one of their common extra digits, plus a quarter of the open cells seeing both (at most
    4). :data:`AR2_APPLIES` (16 or more): the pattern with a cell to clear. A guide only
    (the judge asks the technique itself); -4 when no rectangle qualifies.

    >>> from variants.classic import classic_puzzle
    >>> _ar2_score(classic_puzzle("." * 81).initial_state(), [0] * 81)[0]
    -4
    """
    cand, placed, given = state.cand, state.placed, state.given
    peers = _peer_sets(state.grid)
    best: float = -4
    arg = None
    for rect in _rectangles(state.grid):
        if any(given[c] for c in rect):
            continue
        p0, q0, r0, s0 = rect
        for p, q, r, s in ((p0, q0, r0, s0), (q0, p0, s0, r0), (r0, s0, p0, q0),
                           (s0, r0, q0, p0), (p0, r0, q0, s0), (r0, p0, s0, q0),
                           (q0, s0, p0, r0), (s0, q0, r0, p0)):
            if placed[r] or placed[s]:
                continue
            a, b = solution[p], solution[q]
            if not (cand[r] >> b & 1 and cand[s] >> a & 1):
                continue
            k = 0
            for x in (p, q):
                if placed[x]:
                    k += 1
                elif not (cand[x] >> a & 1 and cand[x] >> b & 1):
                    break
            else:
                er, es = cand[r] & ~(1 << b), cand[s] & ~(1 << a)
                pen = er.bit_count() + es.bit_count() - 2 + (er ^ es).bit_count()
                common = [o for o in peers[r] & peers[s] if not placed[o]]
                hit = any(cand[o] & er & es for o in common)
                sc = 6 * k - 2 * pen + 4 * hit + 0.25 * min(4, len(common))
                if sc > best:
                    best, arg = sc, (p, q, r, s)
    return best, arg


_PEERS: dict[tuple, list[set[int]]] = {}


def _peer_sets(g) -> list[set[int]]:
    """The peers of each cell (cached per layout)."""
    key = (g.height, g.width, tuple(g.regions or ()))
    if key not in _PEERS:
        houses = list(g.rows) + list(g.cols) + list(g.regions or [])
        out: list[set[int]] = [set() for _ in range(g.size)]
        for h in houses:
            for c in h:
                out[c].update(o for o in h if o != c)
        _PEERS[key] = out
    return _PEERS[key]


def _descend(p: Puzzle, solution: list[int], name: str, s: int, deadline: float | None
             ) -> tuple[Puzzle, "tuple[State, Step, int, Any] | str"]:
    """Steer a unique candidate towards technique ``name`` (classic and jigsaw): solve it with
    the techniques of its ladder up to ``name``; when that gets stuck (the puzzle needs a
    later technique) add back givens from ``solution`` one at a time, each the best of
    :data:`STEER_TRIES` random blank cells (first a puzzle the limited solve finishes
    using ``name``, else one whose limited solve used ``name`` before getting stuck, else
    the fewest cells left unsolved), at most :data:`STEER_STEPS` times, until the limited
    solve finishes; for a technique of :data:`PATTERN_STEER` (swordfish, quadruple, ...) a
    search for added givens after which it applies (:func:`_pattern_cells`) comes first and
    the random cells only finish a puzzle that uses it; a technique of :data:`EDGE_STEER`
    (the colour trap, the grouped continuous loop) is steered by the edges of random orders
    of added givens instead (:func:`_edges`). Added givens keep the puzzle unique.
    The puzzle found and the verdict of
    :func:`_check` on it (the judge), or why none: "not used" (finished without ``name``),
    "needs harder" (still stuck); the cells tried come from ``random.Random(s)``, so the
    seed reproduces the result.

    >>> from sudoku_csp.generate.candidates import make_candidate
    >>> p, sol = make_candidate("classic", 6)       # minimal, needs more than an XY-Wing
    >>> q, got = _descend(p, sol, "xy_wing", 6, None)
    >>> got[1].technique, len(p.given), len(q.given), q.count_solutions(2, method="sat")
    ('xy_wing', 26, 28, 1)
    """
    run = StepSolver("default", unique=True).start(p)
    plan = [t.name for t, _, _ in run.plan()]
    if name not in plan:
        return p, "not used"
    upto = StepSolver(plan[:plan.index(name) + 1], unique=True)
    rng = random.Random(s)
    givens = [p.given.get(c, 0) for c in range(p.grid.size)]

    def build(gv: list[int]) -> Puzzle:
        q = Puzzle(p.grid).use(*[b for b, _ in p.bundles]).givens(gv)
        q.unique = True
        return q

    pattern = name in PATTERN_STEER
    before = StepSolver(plan[:plan.index(name)], unique=True) if pattern else upto
    stuck: list[State | None] = [None]     # the last limited solve's stuck state (None: used T)

    def verdict(gv: list[int]) -> tuple[str, int]:
        """("found" | "easy" | "hard", badness) of the limited solve of ``gv``."""
        b = _budget(deadline)
        if b.exhausted:
            raise TimeLimitExceeded("time limit reached while steering")
        res = upto.solve(build(gv), budget=b)
        used = any(st.technique == name for st in res.steps)
        if res.status == "solved":
            return ("found" if used else "easy"), 0
        if res.status != "stuck":
            raise TimeLimitExceeded("time limit reached while steering")
        stuck[0] = None if used else res.state       # T used: any cell may finish it
        open_ = sum(1 for m in res.state.cand if m & (m - 1))
        if pattern and not used:     # nearest the pattern first, then the fewest open
            return "hard", 2 * p.grid.size + _near(res.state, name) * p.grid.size + open_
        return "hard", open_ + (0 if used else p.grid.size)

    def judge() -> "tuple[Puzzle, tuple[State, Step, int, Any]] | None":
        """The puzzle of ``givens`` and :func:`_check`'s practice state, when it passes."""
        q = build(givens)
        found = _check(q, name, deadline)
        return None if isinstance(found, str) else (q, found)

    how, _ = verdict(givens)
    if how == "easy":
        return _drop_cages(p, name, upto, rng, deadline)
    if name in EDGE_STEER and how == "hard":
        return _edges(givens, solution, verdict, judge, build, rng)
    if pattern and how == "hard" and stuck[0] is not None:
        for cells in _pattern_cells(stuck[0], givens, solution, name, before, rng, deadline):
            for c in cells:
                givens[c] = solution[c]
            how, _ = verdict(givens)
            if how == "found" and (got := judge()) is not None:
                return got
            if how == "hard" and stuck[0] is None:
                break                   # T used, a later technique too: finish it below
            for c in cells:
                givens[c] = 0
        else:
            return build(givens), "needs harder"
    for _ in range(STEER_STEPS):
        if how != "hard":
            break
        blank = [c for c in range(len(givens)) if not givens[c]]
        rng.shuffle(blank)
        best: tuple[int, int, State | None] | None = None
        how = "easy"
        for c in blank[:STEER_TRIES]:
            givens[c] = solution[c]
            how_c, bad = verdict(givens)
            if how_c == "found" and (got := judge()) is not None:
                return got
            if how_c == "hard" and (best is None or bad < best[0]):
                best = (bad, c, stuck[0])
            givens[c] = 0
        if best is not None:
            givens[best[1]] = solution[best[1]]
            stuck[0] = best[2]
            how = "hard"
    if how == "found":
        q = build(givens)
        return q, _check(q, name, deadline)
    return build(givens), ("needs harder" if how == "hard" else "not used")


def _edges(givens: list[int], solution: list[int],
           verdict: Callable[[list[int]], tuple[str, int]], judge: Callable[[], Any],
           build: Callable[[list[int]], Puzzle], rng: random.Random
           ) -> "tuple[Puzzle, tuple[State, Step, int, Any] | str]":
    """Edge steering of a candidate the ladder up to the technique cannot finish (for
    :data:`EDGE_STEER`): givens from ``solution`` are added back in a random order, and a
    bisection over that order finds the fewest added (a prefix) after which the limited
    solve (``verdict``) finishes; the puzzle there is judged when that solve used the
    technique. :data:`EDGE_ORDERS` orders are tried (each some log2(blank cells) solves).
    The puzzles found this way are barely stuck without the technique: one given less and
    the ladder up to it cannot finish, so a late pattern that one more given would break
    is needed there or nowhere. ``givens`` is left as it came."""
    blank = [c for c in range(len(givens)) if not givens[c]]
    start = givens[:]
    for _ in range(EDGE_ORDERS):
        rng.shuffle(blank)
        lo, hi, how_hi = 0, len(blank), "easy"    # prefix lo: stuck; hi: finished
        while hi - lo > 1:
            mid = (lo + hi) // 2
            givens[:] = start
            for c in blank[:mid]:
                givens[c] = solution[c]
            how, _ = verdict(givens)
            if how == "hard":
                lo = mid
            else:
                hi, how_hi = mid, how
        if how_hi == "found":
            givens[:] = start
            for c in blank[:hi]:
                givens[c] = solution[c]
            if (got := judge()) is not None:
                return got
    givens[:] = start
    return build(givens), "needs harder"


def _pattern_cells(state: State, givens: list[int], solution: list[int], name: str,
                   before: StepSolver, rng: random.Random, deadline: float | None
                   ) -> Iterator[list[int]]:
    """Sets of blank cells whose digits from ``solution``, added to ``givens``, most likely
    make technique ``name`` needed: a depth-first search from the stuck ``state`` of
    ``before`` (the ladder before ``name``) over added digits that leave ``before`` stuck
    (placed in the state, then solved from there), nearest the pattern first
    (:func:`_near`), at most :data:`PATTERN_NODES` states scanned; yielded when ``name``
    applies where ``before`` gets stuck. A guide only (the solve from a state is not the
    solve of the puzzle): the caller judges each set on the puzzle itself."""
    g = state.grid
    houses = list(g.rows) + list(g.cols) + list(getattr(g, "regions", None) or [])
    stack: list[tuple[State, list[int]]] = [(state, [])]
    nodes = 0
    while stack and nodes < PATTERN_NODES:
        st0, added = stack.pop()
        nodes += 1
        blank = [c for c in range(len(givens)) if not givens[c] and c not in added]
        rng.shuffle(blank)
        children: list[tuple[int, int, State, int]] = []
        for c in blank:
            m = st0.cand[c]
            if not m >> solution[c] & 1 or not m & (m - 1):
                continue
            b = _budget(deadline)
            if b.exhausted:
                raise TimeLimitExceeded("time limit reached while steering")
            st = st0.copy()
            st.place(c, solution[c])
            st.given = st.given[:]          # a given of the puzzle (avoidable rectangles)
            st.given[c] = True
            for h in houses:
                if c in h:
                    for o in h:
                        if o != c:
                            st.remove(o, solution[c])
            res = before.solve(st, budget=b)
            if res.status != "stuck":
                continue
            if before.find_all(res.state, name):
                yield added + [c]
            else:
                children.append((_near(res.state, name), len(children), res.state, c))
        for _, _, st, c in sorted(children, reverse=True):     # nearest popped first
            stack.append((st, added + [c]))


#: the fish size of each fish technique of :data:`PATTERN_STEER`, and the :func:`_near` of a
#: state with no near instance
PATTERN_SIZE = {"swordfish": 3, "finned_jellyfish": 4}
FAR = 99


def _near(state: State, name: str) -> int:
    """How far ``state`` is from an instance of technique ``name`` of :data:`PATTERN_STEER`
    (0: one that likely applies, :data:`FAR`: none near), by the technique's kind: a fish
    (:func:`_near_fish`), a quadruple (:func:`_near_subset`), a unique or avoidable
    rectangle (:func:`_near_rectangle`, :func:`_near_avoidable`), colouring
    (:func:`_near_colours`); 0 for the others (the search is then unguided). A guide
    only: the search asks the technique itself whether it applies.

    >>> from variants.classic import classic_puzzle
    >>> _near(classic_puzzle("." * 81).initial_state(), "swordfish")
    99
    """
    if name in PATTERN_SIZE:
        return _near_fish(state, PATTERN_SIZE[name])
    if name in ("naked_quadruple", "hidden_quadruple"):
        return _near_subset(state, 4, name == "hidden_quadruple")
    if name.startswith("uniqueness_test"):
        return _near_rectangle(state)
    if name.startswith("avoidable_rectangle"):
        return _near_avoidable(state, 3 if name.endswith("_1") else 2)
    if name in ("simple_colors_trap", "multi_colors_1"):
        return _near_colours(state, 2 if name == "multi_colors_1" else 1)
    return 0


def _near_fish(state: State, n: int) -> int:
    """Over the digits and ``n`` rows (or columns) holding 2 to n + 2 candidates of the
    digit, none placed, the fewest columns (rows) beyond n that hold them, counting only
    sets whose fish would eliminate something; :data:`FAR` when there is none (0: a fish
    of size n applies; a finned fish has 1 or 2 beyond)."""
    from itertools import combinations
    g = state.grid
    cand = state.cand
    best = FAR
    for d in g.digits:
        bit = 1 << d
        for lines in (g.rows, g.cols):
            masks = []
            for line in lines:
                m = sum(1 << i for i, c in enumerate(line) if cand[c] & bit)
                if bin(m).count("1") >= 2 and not any(cand[c] == bit for c in line):
                    masks.append(m)
            for sub in combinations([m for m in masks if bin(m).count("1") <= n + 2], n):
                u = 0
                for m in sub:
                    u |= m
                extra = bin(u).count("1") - n
                if 0 <= extra < best and sum(1 for m in masks if m & u) > n:   # eliminates
                    best = extra
    return best


def _near_subset(state: State, n: int, hidden: bool) -> int:
    """Over the houses with at least 2 n open cells (hidden: 2 n + 1; fewer: the complement
    is a naked or hidden subset found before, a naked quadruple the same as a hidden one in a
    house of 8 open cells), the fewest digits (hidden: cells) beyond n that n open cells
    (digits) of the house hold, counting only sets that would eliminate something."""
    from itertools import combinations
    g = state.grid
    cand = state.cand
    best = FAR
    for h in list(g.rows) + list(g.cols) + list(g.regions or []):
        open_ = [c for c in h if cand[c] & (cand[c] - 1)]
        if len(open_) < 2 * n + hidden:
            continue
        if hidden:
            digits = [d for d in g.digits if any(cand[c] >> d & 1 for c in open_)]
            where = [sum(1 << i for i, c in enumerate(open_) if cand[c] >> d & 1)
                     for d in digits]
            for sub in combinations(range(len(digits)), n):
                u = 0
                for j in sub:
                    u |= where[j]
                extra = bin(u).count("1") - n
                dm = sum(1 << digits[j] for j in sub)
                if 0 <= extra < best and any(cand[open_[i]] & ~dm for i in range(len(open_))
                                             if u >> i & 1):
                    best = extra
        else:
            for sub in combinations(open_, n):
                u = 0
                for c in sub:
                    u |= cand[c]
                extra = bin(u).count("1") - n
                if 0 <= extra < best and any(cand[c] & u for c in open_ if c not in sub):
                    best = extra
    return best


_RECTANGLES: dict[tuple, list[tuple[int, int, int, int]]] = {}


def _rectangles(g) -> list[tuple[int, int, int, int]]:
    """Cells p, q, r, s of the rectangles of rows and columns that span two boxes (p, s and
    q, r opposite; cached per layout)."""
    key = (g.height, g.width, tuple(g.regions or ()))
    if key not in _RECTANGLES:
        _RECTANGLES[key] = _make_rectangles(g)
    return _RECTANGLES[key]


def _make_rectangles(g) -> list[tuple[int, int, int, int]]:
    box = {c: i for i, h in enumerate(g.regions or []) for c in h}
    out = []
    for r1 in range(g.height):
        for r2 in range(r1 + 1, g.height):
            for c1 in range(g.width):
                for c2 in range(c1 + 1, g.width):
                    rect = (g.at(r1, c1), g.at(r1, c2), g.at(r2, c1), g.at(r2, c2))
                    if len({box.get(c) for c in rect}) == 2:
                        out.append(rect)
    return out


def _near_rectangle(state: State) -> int:
    """Over the rectangles whose four open cells share two digits a, b: the fewest extra
    candidates beyond {a, b} in the two cells of a side, plus the fewest other places of a
    or b in a house the two other cells share (0: a Uniqueness Test 4 applies)."""
    g = state.grid
    cand = state.cand
    best = FAR
    houses = list(g.rows) + list(g.cols) + list(g.regions or [])
    for p, q, r, s in _rectangles(g):
        common = cand[p] & cand[q] & cand[r] & cand[s]
        if bin(common).count("1") < 2 or any(state.placed[c] for c in (p, q, r, s)):
            continue
        for floor, roof in (((p, q), (r, s)), ((r, s), (p, q)), ((p, r), (q, s)),
                            ((q, s), (p, r))):
            for a in range(1, common.bit_length()):
                for b in range(a + 1, common.bit_length()):
                    if not (common >> a & 1 and common >> b & 1):
                        continue
                    ab = 1 << a | 1 << b
                    fl = sum(bin(cand[c] & ~ab).count("1") for c in floor)
                    if fl >= best:
                        continue
                    x, y = roof
                    for h in houses:
                        if x in h and y in h:
                            for d in (a, b):
                                other = sum(1 for c in h if c not in roof and cand[c] >> d & 1)
                                best = min(best, fl + other)
    return best


def _near_avoidable(state: State, placed: int) -> int:
    """Over the rectangles with no given corner whose open corners still hold the digit that
    completes a deadly pattern of the placed ones (the digit of the opposite corner): how
    many corners short of ``placed`` are placed (by logic); for type 2 (``placed`` 2), with
    two adjacent corners placed, how far the open two are from {b, c} and {a, c} (one extra
    digit c, the same in both)."""
    g = state.grid
    cand = state.cand
    val = state.placed
    best = FAR
    for rect in _rectangles(g):
        if any(state.given[c] for c in rect):
            continue
        p, q, r, s = rect
        pair = []
        for x, y in ((p, s), (q, r)):          # opposite corners take one digit
            if val[x] and val[y] and val[x] != val[y]:
                break
            v = val[x] or val[y]
            if v and not all(val[c] or cand[c] >> v & 1 for c in (x, y)):
                break
            pair.append(v)
        else:
            if pair[0] and pair[0] == pair[1]:
                continue
            k = sum(1 for c in rect if val[c])
            if placed == 3 or k < 2:
                best = min(best, abs(placed - k) + (placed - k if placed == 2 else 0))
            elif k == 2 and not (val[p] and val[s] or val[q] and val[r]):
                # type 2: the open corners {b, c} and {a, c}, one extra digit c in both
                opp = dict(zip(rect, rect[::-1]))
                extra = [cand[c] & ~(1 << val[opp[c]]) for c in rect if not val[c]]
                best = min(best, sum(abs(bin(e).count("1") - 1) for e in extra)
                           + (extra[0] != extra[1]))
    return best


def _near_colours(state: State, clusters: int) -> int:
    """FAR less the cells of the ``clusters`` largest clusters of one digit's strong links
    (the two-cell houses of the digit): long chains of strong links first."""
    g = state.grid
    cand = state.cand
    best = FAR
    for d in g.digits:
        parent: dict[int, int] = {}

        def root(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c
        for h in list(g.rows) + list(g.cols) + list(g.regions or []):
            where = [c for c in h if cand[c] >> d & 1 and cand[c] & (cand[c] - 1)]
            if len(where) == 2:
                a, b = where
                parent.setdefault(a, a)
                parent.setdefault(b, b)
                parent[root(a)] = root(b)
        sizes: dict[int, int] = {}
        for c in parent:
            sizes[root(c)] = sizes.get(root(c), 0) + 1
        top = sorted(sizes.values(), reverse=True)[:clusters]
        best = min(best, max(0, FAR - sum(top)))
    return best


def _drop_cages(p: Puzzle, name: str, upto: StepSolver, rng: random.Random,
                deadline: float | None) -> tuple[Puzzle, "tuple[State, Step, int, Any] | str"]:
    """Steer a killer that ``upto`` (the ladder up to ``name``) finishes without ``name``:
    its cages are taken away one at a time in a random order, each removal kept while the
    puzzle stays unique (a search within :data:`STEER_CAGE_NODES` nodes; past them the cage
    stays) and ``upto`` still finishes it, until ``name`` is used (then :func:`_check` is the
    judge). Random killers whose cages cover the grid are finished by innies before outies
    can be needed; with fewer cages fewer houses are covered. "not used" when no cage can
    go any more and ``name`` is still not needed; a puzzle with no killer cage is returned
    as it is."""
    cages = [b for b, _ in p.bundles if isinstance(b, killer_cage)]
    rules = [b for b, _ in p.bundles if not isinstance(b, killer_cage)]
    givens = [p.given.get(c, 0) for c in range(p.grid.size)]
    order = list(range(len(cages)))
    rng.shuffle(order)
    dropped: set[int] = set()

    def build(out: set[int]) -> Puzzle:
        q = Puzzle(p.grid).use(*rules, *[b for i, b in enumerate(cages) if i not in out])
        q.givens(givens)
        q.unique = True
        return q

    for i in order:
        q = build(dropped | {i})
        left = None if deadline is None else max(0.001, deadline - time.perf_counter())
        try:
            sols, _ = search(q.engine(), q.initial_state().cand, 2, STEER_CAGE_NODES, left)
        except NodeLimitExceeded:
            continue
        if len(sols) != 1:
            continue
        b = _budget(deadline)
        if b.exhausted:
            raise TimeLimitExceeded("time limit reached while steering")
        res = upto.solve(q, budget=b)
        if res.status != "solved":
            continue
        dropped.add(i)
        if any(st.technique == name for st in res.steps):
            found = _check(q, name, deadline)
            if not isinstance(found, str):
                return q, found
    return build(dropped), "not used"


def _check(p: Puzzle, name: str, deadline: float | None
           ) -> tuple[State, Step, int, Any] | str:
    """The practice state of ``p`` for technique ``name`` (see the module), or why not."""
    b = _budget(deadline)
    if b.exhausted:
        return "search limit"
    run = StepSolver("default", unique=True).start(p, budget=b)
    plan = [t.name for t, _, _ in run.plan()]        # in the puzzle's ladder order
    res = StepSolver("default", unique=True).finish(run)
    if res.status != "solved":
        return "logic stuck"             # not solved by logic in time
    first = next((i for i, st in enumerate(res.steps) if st.technique == name), None)
    if first is None:
        return "not used"
    allowed = set(plan[:plan.index(name) + 1])
    if any(st.technique not in allowed for st in res.steps):
        return "needs harder"            # needs something harder too
    b = _budget(deadline)
    if b.exhausted:
        return "search limit"
    res2 = StepSolver(plan[:plan.index(name)], unique=True).solve(p, budget=b)
    if res2.status != "stuck":
        return "not needed"              # solved another way: the technique is not needed
    same = [(st.technique, st.placements, st.eliminations) for st in res.steps[:first]]
    if [(st.technique, st.placements, st.eliminations) for st in res2.steps] != same:
        return "stuck elsewhere"         # stuck elsewhere: not where the path used it
    return res2.state, res.steps[first], first, res.rating


def _budget(deadline: float | None) -> Budget:
    """The budget of one logic solve of a candidate: :data:`CANDIDATE_SECONDS` of this
    process's CPU time (the same work on a loaded machine as on an idle one), within the
    call's wall-clock ``deadline`` (the whole call's hard bound).

    >>> b = _budget(None)
    >>> b.deadline is None, b.cpu_limit == CANDIDATE_SECONDS, b.exhausted
    (True, True, False)
    """
    return Budget(deadline=deadline, cpu_limit=CANDIDATE_SECONDS)
