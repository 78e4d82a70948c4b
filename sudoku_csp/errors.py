"""The application's errors and exit codes.

Exit codes of ``sudoku-csp``: 0 all solved / all passed; 1 some puzzle unsolvable, multiple,
stuck or over a limit, or some case failed; 2 bad input or usage (one line on stderr, no
traceback); 130 interrupted.
"""
from __future__ import annotations

from csp.errors import SudokuCSPError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(SudokuCSPError):
    """Bad command-line usage (exit code 2)."""
