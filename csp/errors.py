"""Exceptions raised by the API. Bad input raises a subclass of :class:`InvalidPuzzle`
(itself a ``ValueError``); running out of a search limit raises :class:`SearchLimit`."""
from __future__ import annotations


class SudokuCSPError(Exception):
    """Base of every exception of this package."""


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
