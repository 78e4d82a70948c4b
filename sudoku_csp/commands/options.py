"""Option types shared by the commands: argparse ``type=`` callables that refuse what a
command cannot honour (argparse turns their ``ArgumentTypeError`` into a one-line usage
error, exit code 2); the ``--line`` option; checks of ``-o`` for pictures
(:func:`picture_output`) and of ``--progress`` (:func:`progress_wanted`).

>>> seconds("1.5"), seconds("60")
(1.5, 60.0)
>>> seconds("inf")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 'inf' is not a finite number of seconds above 0
"""
from __future__ import annotations

import argparse
import math

#: the longest time limit accepted (a week): larger values overflow the platform's timers
MAX_SECONDS = 7 * 24 * 3600.0


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds, above 0 and at most :data:`MAX_SECONDS`."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of seconds above 0")
    if v > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r}: at most {MAX_SECONDS:.0f} seconds (a week)")
    return v


def line_meaning(text: str) -> tuple[str, str]:
    """``COLOUR=MEANING`` of ``--line`` (checked against the known meanings when a command
    reads its puzzles: :func:`line_meanings`)."""
    key, sep, meaning = text.partition("=")
    if not sep or not key.strip() or not meaning.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected COLOUR=MEANING, e.g. "
                                         "'#67f067=whispers'")
    return key.strip(), meaning.strip()


def add_puzzle_options(parser: argparse.ArgumentParser) -> None:
    """Options of every command that reads a PUZZLE: ``--line COLOUR=MEANING`` (repeated)
    says what a SudokuPad drawing of that colour means."""
    parser.add_argument("--line", action="append", type=line_meaning, default=None,
                        metavar="COLOUR=MEANING",
                        help="what a SudokuPad line (or cage, shape) of that colour means, "
                             "e.g. '#67f067=whispers', '#60c060=renban', 'cage=killer', "
                             "'outside=sandwich', '#cfcfcf=ignore' (repeatable)")


def line_meanings(args: argparse.Namespace) -> dict[str, str] | None:
    """The ``--line`` options as a ``lines`` mapping for the loader, checked (an unknown
    meaning is a usage error naming it); None without any."""
    pairs = getattr(args, "line", None)
    if not pairs:
        return None
    from ..formats.sudokupad import parse_meanings
    out = dict(pairs)
    parse_meanings(out)
    return out


def picture_output(out: str | None) -> str | None:
    """Check ``-o`` of a command that draws: None or ``-`` (SVG on stdout), or a ``.svg``
    or ``.png`` file name (PNG only when cairosvg can be loaded); returns the file name
    (None for stdout). Raises :class:`sudoku_csp.render.RenderError` (exit 2)."""
    import os

    from ..render import FORMATS, RenderError
    if not out or out == "-":
        return None
    if os.path.splitext(out)[1].lower() not in FORMATS:
        raise RenderError(f"{out}: unknown picture format (use .svg or .png)")
    if out.lower().endswith(".png"):
        try:
            import cairosvg  # noqa: F401
        except (ImportError, OSError):
            raise RenderError("PNG output needs cairosvg and libcairo "
                              "(pip install \"sudoku-csp[render]\")") from None
    return out


def progress_wanted(mode: str) -> bool:
    """Whether ``--progress MODE`` shows progress: ``on``, or ``auto`` with stderr on a
    terminal."""
    import sys
    return mode == "on" or (mode == "auto" and sys.stderr.isatty())
