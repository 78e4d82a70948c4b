"""Exceptions raised by the API. Bad input raises a subclass of :class:`InvalidPuzzle`
(itself a ``ValueError``); running out of a search limit raises :class:`SearchLimit`; an
answer that fails the library's own final check raises :class:`SoundnessError` (a bug, not
bad input)."""
from __future__ import annotations

from .text import one_line


class SudokuCSPError(Exception):
    """Base of every exception of this package. Its message is one line: a newline or
    another control character of the input it quotes shows escaped (:func:`csp.text.one_line`).

    >>> str(InvalidPuzzle("not a cell: R5C1\\nrm -rf"))
    'not a cell: R5C1\\\\nrm -rf'
    """

    def __str__(self) -> str:
        return one_line(super().__str__())


class InvalidPuzzle(SudokuCSPError, ValueError):
    """The puzzle or its input is malformed (message names the problem)."""


class ParseError(InvalidPuzzle):
    """A puzzle string, file or JSON object could not be read."""


class GridSizeError(InvalidPuzzle):
    """A size has no valid box shape, or cells/regions do not fit the grid."""


class ContradictoryGivens(InvalidPuzzle):
    """Two givens break a rule directly (e.g. the same digit twice in a house)."""


class InvalidConstraint(InvalidPuzzle):
    """A constraint cannot be built as asked (unknown cell, impossible sum, chained comparison)."""


class InvalidArgument(SudokuCSPError, ValueError):
    """An API argument outside its domain (an unknown search method, a NaN time limit)."""


class FrozenPuzzleError(SudokuCSPError):
    """The puzzle was frozen by solving; rules can no longer be added."""


class SoundnessError(SudokuCSPError):
    """An internal soundness error, never bad input: the library was about to answer
    "solved" with a grid that :meth:`csp.Puzzle.check_solution` rejects (a bug in a
    technique, a propagator or a constraint's own check). ``puzzle`` is the puzzle,
    ``values`` the grid it would have answered (a digit per cell, 0 = empty) and ``why``
    what that grid breaks; report it with the puzzle.

    >>> str(SoundnessError("the grid breaks arrow r1c1", None, [1, 4]))
    'internal soundness error: the grid breaks arrow r1c1'
    """

    def __init__(self, why: str, puzzle: object = None, values: "list[int] | None" = None) -> None:
        super().__init__(f"internal soundness error: {why}")
        self.why = why
        self.puzzle = puzzle
        self.values = list(values) if values is not None else None


class SearchLimit(SudokuCSPError):
    """A search ran out of its node or time budget (``nodes``: depth-first nodes searched)."""

    nodes: int = 0


class NodeLimitExceeded(SearchLimit):
    pass


class TimeLimitExceeded(SearchLimit):
    pass


class Cancelled(SearchLimit):
    """A search was cancelled from outside (a ``cancel`` event set or callable true) before
    it finished."""
