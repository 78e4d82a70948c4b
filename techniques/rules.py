"""Rule propagation as a step: the puzzle's own non-house constraints (relations, sums,
variant rules) run to fixpoint, each removal explained by the constraint that made it.
Classic puzzles have no such constraints, so this never fires there."""
from __future__ import annotations

from typing import Iterator

from csp.bits import digits_of
from csp.engine import Engine
from csp.events import Contradiction
from csp.step import Candidate, Step

from .analysis import Analysis
from .registry import register


def rule_engine(puzzle) -> Engine | None:
    """The puzzle's propagators without its houses (None when it has none), built once per
    puzzle (:meth:`Puzzle.derived`). The rule-reading techniques (``constraint``, the
    exclusion family, the forcing nets) run these rules on their own candidates.

    >>> from csp import Puzzle
    >>> from variants.classic import classic
    >>> from variants.lines import whispers
    >>> rule_engine(Puzzle(9).use(classic())) is None      # a classic grid has only houses
    True
    >>> p = Puzzle(9).use(classic(), whispers(["r1c1", "r1c2"]))
    >>> eng = rule_engine(p)
    >>> len(eng.props) > 0, rule_engine(p) is eng
    (True, True)
    """
    return puzzle.derived(_build_rule_engine)


def _build_rule_engine(puzzle) -> Engine | None:
    base = puzzle.engine()
    if not base.props:
        return None
    return Engine(puzzle.grid.n, puzzle.grid.size, [], base.props)


@register("constraint", "Constraint", "rules")
def constraint_step(an: Analysis, opts: dict) -> Iterator[Step]:
    """Eliminations made by one rule of the puzzle (arc consistency, sum bounds ...)."""
    eng = rule_engine(an.puzzle)
    if eng is None:
        return
    state = an.state
    cand = [m if not state.placed[c] else 1 << state.placed[c] for c, m in enumerate(state.cand)]
    # Only the leading run of removals made by one rule: later removals may rest on it.
    run: list[Candidate] = []
    first: list = []

    class _Done(Exception):
        pass

    def trace(cell: int, mask: int, reason) -> None:
        name = reason[0] if isinstance(reason, tuple) else str(reason)
        if not first:
            first.append(name)
            first.append(tuple(reason[1]) if isinstance(reason, tuple) and len(reason) > 1 else ())
        elif name != first[0]:
            raise _Done
        for d in range(1, an.n + 1):
            if mask >> d & 1:
                run.append(Candidate(cell, d))

    try:
        eng.propagate(cand, None, trace)
    except (Contradiction, _Done):
        pass
    elims = tuple(e for e in run if not state.placed[e.cell])
    if elims:
        name, prem = first[0], first[1]
        yield Step("constraint", eliminations=elims, houses=(name,),
                   title=f"Constraint ({name})", namer=an.grid.namer,
                   pattern=tuple(Candidate(c, d) for c in prem for d in digits_of(an.cand[c])))
