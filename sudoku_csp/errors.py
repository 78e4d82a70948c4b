"""The application's errors and exit codes.

Exit codes of ``sudoku-csp``: 0 all solved / all passed; 1 some puzzle unsolvable, multiple,
stuck or over a limit, or some case failed; 2 bad input or usage (one line on stderr, no
traceback); 130 interrupted.
"""
from __future__ import annotations

import os

from csp.errors import SoundnessError, SudokuCSPError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(SudokuCSPError):
    """Bad command-line usage (exit code 2)."""


def keep_puzzle(puzzle: object) -> str:
    """Save ``puzzle`` as sudoku-csp JSON in a new temporary file, for a bug report; returns
    the words naming it ("the puzzle is saved in PATH"), or, when it cannot be written, its
    givens inline.

    >>> from variants import classic_puzzle
    >>> import json, os
    >>> text = keep_puzzle(classic_puzzle("1" + "." * 15))
    >>> path = text.rsplit(" ", 1)[1]
    >>> json.load(open(path))["givens"], os.remove(path)
    ('1...............', None)
    """
    import json
    import tempfile

    from .formats.spec import to_spec
    try:
        spec = to_spec(puzzle)
        fd, path = tempfile.mkstemp(prefix="sudoku-csp-soundness-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(spec, f)
            f.write("\n")
        return f"the puzzle is saved in {path}"
    except (SudokuCSPError, OSError, TypeError, ValueError) as e:
        from csp.io import write_line
        grid = getattr(puzzle, "grid", None)
        given = getattr(puzzle, "given", {})
        if grid is None:
            return f"the puzzle could not be saved ({e})"
        line = write_line([given.get(c, 0) for c in range(grid.size)], grid.n)
        return f"the puzzle could not be saved ({e}); its givens: {line}"


def soundness_line(e: SoundnessError) -> str:
    """The one line that reports an internal soundness error (a bug caught by the last
    check before an answer): the error, where the puzzle is saved, and a request to
    report it; characters that cannot be printed escaped."""
    line = f"{e}; {keep_puzzle(e.puzzle)} (a bug: please report it)"
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)
