"""The outcome of a solve, shared by the search (:class:`csp.search.SolveResult`), the logic
solver (``techniques.LogicResult``), the CLI's JSON and the batch summary.

A :class:`SolveStatus` is a ``str``: it compares, hashes, formats and serialises to JSON as
its value, and shows as its value too, so code and output that used the plain strings read
the same.

>>> SolveStatus.SOLVED == "solved", SolveStatus("limit") is SolveStatus.LIMIT
(True, True)
>>> import json
>>> json.dumps({"status": SolveStatus.MULTIPLE}), SolveStatus.STUCK
('{"status": "multiple"}', 'stuck')
>>> [str(s) for s in SolveStatus]
['solved', 'stuck', 'unsolvable', 'multiple', 'limit']
"""
from __future__ import annotations

from enum import StrEnum


class SolveStatus(StrEnum):
    #: one solution found (search: exactly one, or the first with ``first=True``; logic: every
    #: cell placed)
    SOLVED = "solved"
    #: logic only: no enabled technique finds a step
    STUCK = "stuck"
    #: no solution (a contradiction)
    UNSOLVABLE = "unsolvable"
    #: a second solution exists (search; logic: its uniqueness check found several, so a
    #: logic solve cannot finish)
    MULTIPLE = "multiple"
    #: a time or node limit was reached first
    LIMIT = "limit"

    def __repr__(self) -> str:
        return repr(self.value)
