"""python-constraint interop: the puzzle as a ``constraint.Problem``.

The export is deliberately plain (one variable per cell, the givens and unary rules as
domains, an ``AllDifferentConstraint`` per house and a function constraint per other rule,
written here from each rule's definition), so that python-constraint's own backtracking
solver is an independent oracle for this project's propagators and search.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(4)).add_grid_houses().givens("1.........2.....")
>>> _ = p.add_sum(["r1c2", "r1c3"], 5)
>>> sols = problem_solutions(p)
>>> len(sols), p.count_solutions(limit=1000)
(3, 3)
>>> all(p.check_solution(s) for s in sols)
True
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import constraint as pc

from .bits import digits_of
from .constraints import AllDifferent, Constraint, FunctionConstraint, Linear, Relation, Sum

__all__ = ["to_problem", "problem_solutions", "iter_problem_solutions"]


def _domains(puzzle) -> list[list[int]]:
    """Digits allowed per cell by the givens and unary rules (``unary_mask``), without
    freezing the puzzle."""
    n = puzzle.grid.n
    masks = [((1 << n) - 1) << 1] * puzzle.grid.size
    for con in puzzle.constraints:
        um = con.unary_mask()
        if um is not None:
            for cell in con.cells:
                masks[cell] &= um
    for cell, d in puzzle.given.items():
        masks[cell] &= 1 << d
    return [list(digits_of(m)) for m in masks]


def _positions(cells: Sequence[int]) -> tuple[list[int], tuple[int, ...]]:
    """Distinct cells in first-seen order, and for each scope position its index among
    them (a rule may list a cell twice)."""
    uniq: list[int] = []
    index: dict[int, int] = {}
    for c in cells:
        if c not in index:
            index[c] = len(uniq)
            uniq.append(c)
    return uniq, tuple(index[c] for c in cells)


def _over_scope(fn: Callable[..., bool], cells: Sequence[int]):
    """Wrap ``fn(*values_in_scope_order)`` as a function of the distinct cells."""
    uniq, pos = _positions(cells)
    if len(uniq) == len(cells):
        return uniq, fn

    def wrapped(*vals: int) -> bool:
        return bool(fn(*(vals[i] for i in pos)))

    return uniq, wrapped


def _rule(con) -> Callable[..., bool] | None:
    """The rule's predicate over its scope (in ``con.cells`` order), written from its
    definition; None when the rule adds nothing beyond its house and domains."""
    if isinstance(con, Relation):
        pred = con.pred
        return lambda a, b: bool(pred(a, b))
    if isinstance(con, Sum):
        total = con.total
        return lambda *v: sum(v) == total
    if isinstance(con, Linear):
        coeffs, total = con.coeffs, con.total
        return lambda *v: sum(a * x for a, x in zip(coeffs, v)) == total
    if isinstance(con, FunctionConstraint):
        pred, distinct = con.pred, con.distinct
        if distinct:
            return lambda *v: len(set(v)) == len(v) and bool(pred(*v))
        return lambda *v: bool(pred(*v))
    if con.unary_mask() is not None:
        return None                      # applied to the domains
    if type(con).check is not Constraint.check:
        return con.check                 # any other rule: its own check
    return None


def _never(*values: int) -> bool:
    return False


def to_problem(puzzle, solver: Any = None) -> pc.Problem:
    """An equivalent python-constraint ``Problem``: variables are the cell ids (ints),
    domains the digits left by givens and unary rules; houses become
    ``AllDifferentConstraint``; every other rule a ``FunctionConstraint`` over its distinct
    cells. Rules with no cells (whole-puzzle helpers such as ordering bounds) add nothing.
    The puzzle is not frozen.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> _ = p.add(p["r1c1"] < p["r1c2"])
    >>> prob = to_problem(p)
    >>> len(prob.getSolutions())
    144
    """
    prob = pc.Problem(solver) if solver is not None else pc.Problem()
    for cell, dom in enumerate(_domains(puzzle)):
        if dom:
            prob.addVariable(cell, dom)
        else:   # no digit allowed (a given outside its unary rule): python-constraint
            # refuses empty domains, so keep the digits and forbid them all
            prob.addVariable(cell, list(range(1, puzzle.grid.n + 1)))
            prob.addConstraint(pc.FunctionConstraint(_never), [cell])
    for con in puzzle.constraints:
        if not con.cells:
            continue
        h = con.house()
        if h is not None and len(set(h)) > 1:
            prob.addConstraint(pc.AllDifferentConstraint(), sorted(set(h)))
        if isinstance(con, AllDifferent):
            continue
        fn = _rule(con)
        if fn is None:
            continue
        uniq, wrapped = _over_scope(fn, con.cells)
        prob.addConstraint(pc.FunctionConstraint(wrapped), uniq)
    return prob


def iter_problem_solutions(puzzle, solver: Any = None) -> Iterator[list[int]]:
    """Solutions found by python-constraint, as digit lists (row-major)."""
    size = puzzle.grid.size
    for sol in to_problem(puzzle, solver).getSolutionIter():
        yield [sol[c] for c in range(size)]


def problem_solutions(puzzle, solver: Any = None) -> list[list[int]]:
    """All solutions found by python-constraint, as sorted digit lists."""
    return sorted(iter_problem_solutions(puzzle, solver))

