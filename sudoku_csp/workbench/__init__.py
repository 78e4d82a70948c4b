"""The setter's workbench: questions a setter asks about a puzzle while making it.

* :func:`true_candidates` (:mod:`.candidates`): the digits each cell holds in at least one
  solution, per-candidate solution counts up to a cap, and what the logic solver keeps that
  no solution uses; :func:`candidates_svg` draws the answer.
* :func:`iter_solutions`, :func:`count_solutions`, :func:`estimate_count`
  (:mod:`.solutions`): every solution in turn, counting with progress and cancellation, and
  a Monte-Carlo estimate with a 95 % interval when there are too many to count.

The counting itself lives in the library (:mod:`csp.solutions`, on :class:`csp.sat.SatSession`);
this package takes puzzles as text, start states and pencil marks, adds the logic solver's
view and writes what the command line and the websocket server (``sudoku-csp listen``) say.

>>> from sudoku_csp.workbench import true_candidates, TrueCandidates
>>> res = true_candidates(".2.4....3.......")
>>> isinstance(res, TrueCandidates), res.status, res.solutions_seen, res.complete
(True, 'multiple', 3, True)
"""
from __future__ import annotations

from .candidates import TrueCandidates, load_puzzle, start_state, true_candidates
from .picture import candidates_svg
from .solutions import count_solutions, estimate_count, iter_solutions

__all__ = ["TrueCandidates", "true_candidates", "candidates_svg", "iter_solutions",
           "count_solutions", "estimate_count", "load_puzzle", "start_state"]
