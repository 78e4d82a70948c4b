"""What a command writes: its output, to a file written whole or not at all (through
:func:`csp.files.write_atomic`) or to stdout. (Messages and drawn text stay printable
through :mod:`csp.text`.) :func:`say_wrote` is the one line a command prints on stderr for
each file it wrote, so stdout stays the answer.
"""
from __future__ import annotations

import os
import sys

from csp.files import write_atomic
from csp.text import one_line


def write_output(path: str | os.PathLike[str] | None, data: str | bytes) -> None:
    """Write a command's output: to ``path`` atomically (:func:`csp.files.write_atomic`), or
    to stdout when ``path`` is None or ``"-"`` (text a terminal's encoding cannot hold is
    written with escapes rather than failing)."""
    if path is not None and os.fspath(path) != "-":
        write_atomic(path, data)
        return
    if isinstance(data, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        sys.stdout.write(data)
    except UnicodeEncodeError:
        enc = sys.stdout.encoding or "utf-8"
        sys.stdout.write(data.encode(enc, "backslashreplace").decode(enc))


def to_file(path: str | os.PathLike[str] | None) -> bool:
    """Whether ``path`` names a file (not None, not ``"-"`` for stdout)."""
    return path is not None and os.fspath(path) != "-"


def say_wrote(*paths: str | os.PathLike[str] | None) -> None:
    """Say on stderr which files a command wrote, in one line: ``sudoku-csp: wrote FILE``
    (``... wrote FILE and OTHER`` for several); stdout (None or ``"-"``) is not named, and
    nothing is printed when no file was written. Every command that writes a file with
    ``-o`` (or ``--picture``, ``--summary-json``) says so through this helper.

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     say_wrote("a.svg"); say_wrote("-"); say_wrote(None)
    ...     say_wrote("r.html", "r.explain.html"); say_wrote("x\\n.svg")
    >>> print(err.getvalue(), end="")
    sudoku-csp: wrote a.svg
    sudoku-csp: wrote r.html and r.explain.html
    sudoku-csp: wrote x\\n.svg
    """
    files = [one_line(os.fspath(p)) for p in paths if to_file(p)]
    if files:
        sys.stdout.flush()          # after the answer printed so far, in a pipe too
        print(f"sudoku-csp: wrote {' and '.join(files)}", file=sys.stderr, flush=True)
