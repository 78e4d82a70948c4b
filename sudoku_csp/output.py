"""What a command writes: its output, to a file written whole or not at all (through
:func:`csp.files.write_atomic`) or to stdout. (Messages and drawn text stay printable
through :mod:`csp.text`.)
"""
from __future__ import annotations

import os
import sys

from csp.files import write_atomic


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
