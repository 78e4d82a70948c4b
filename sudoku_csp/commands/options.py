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
from typing import TYPE_CHECKING, Any, Callable

from csp.text import quoted

if TYPE_CHECKING:
    from csp.budget import Budget
    from csp.model import Puzzle

#: the longest time limit accepted (a week): larger values overflow the platform's timers
MAX_SECONDS = 7 * 24 * 3600.0


def left_of(budget: "Budget") -> float | None:
    """The seconds a command's budget has left, for a call that takes ``time_limit=``
    (None without a limit; a spent budget gives a sliver, so the call stops at once and
    says so).

    >>> from csp.budget import Budget
    >>> left_of(Budget(None)) is None, 0 < left_of(Budget(5)) <= 5
    (True, True)
    """
    left = budget.left()
    return None if left is None else max(left, 1e-3)


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds, above 0 and at most :data:`MAX_SECONDS`."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of seconds") from None
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a finite number of seconds above 0")
    if v > MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{quoted(text)}: at most {MAX_SECONDS:.0f} seconds (a week)")
    return v


#: the largest --node-limit accepted: a trillion nodes is weeks of search, so a larger
#: limit is no limit (leave the option out)
MAX_NODES = 10 ** 12


def whole_number(text: str, least: int = 0) -> int:
    """``text`` as an int of at least ``least``, written in ASCII digits only (``int()``
    also takes ``'٣'``, ``'１'`` or ``'1_000'``: refused, as every reader of the project
    refuses them).

    >>> whole_number(" 12 "), whole_number("+3", 1)
    (12, 3)
    >>> whole_number("１")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '１': expected a whole number 0 or more
    """
    s = text.strip()
    digits = s[1:] if s[:1] in ("+", "-") else s
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 30 or int(s) < least:
        raise argparse.ArgumentTypeError(f"{quoted(text, 40)}: expected a whole number "
                                         f"{least} or more")
    return int(s)


def at_least(least: int) -> Callable[[str], int]:
    """An argparse ``type=``: :func:`whole_number` of at least ``least``."""
    def whole(text: str) -> int:
        return whole_number(text, least)
    whole.__name__ = f"whole number {least} or more"
    return whole


def node_limit(text: str) -> int:
    """A search node limit (``--node-limit``): a whole number from 0 (no search: only what
    propagation settles) to :data:`MAX_NODES`.

    >>> node_limit("0"), node_limit(" 2000 ")
    (0, 2000)
    >>> node_limit("-5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-5': expected a whole number 0 or more
    """
    value = whole_number(text)
    if value > MAX_NODES:
        raise argparse.ArgumentTypeError(f"{quoted(text, 40)}: at most {MAX_NODES:,} nodes "
                                         "(leave --node-limit out for no limit)")
    return value


def techniques(text: str) -> str:
    """A ``--techniques`` selection, checked before any puzzle is read (an unknown name, or
    one removed with ``-`` that does not exist, is a usage error with the closest names);
    ``default`` is taken as it is, without loading the registry.

    >>> techniques("singles,-naked_single")
    'singles,-naked_single'
    """
    if text.strip() == "default":
        return text
    from techniques.registry import UnknownTechnique, select
    try:
        select(text)
    except UnknownTechnique as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def technique_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` of ``--option``: a technique option (``sudoku-csp techniques
    --options`` lists them), checked before any puzzle is read; VALUE is read as a JSON
    value (``8``, ``true``, ``null``, ``[1, 2]``), else taken as text. An option no
    technique declares, or a value of the wrong type, is a usage error.

    >>> technique_option("max_length=8"), technique_option("types=1")
    (('max_length', 8), ('types', '1'))
    """
    import json
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {quoted(text, 40)}")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    import variants  # noqa: F401  (the rule families' techniques declare options too)
    from techniques.registry import Option, UnknownOption, check_options, load
    decl = next((t.options[key] for t in load().values() if key in t.options), None)
    if isinstance(decl, Option) and decl.type is str and not isinstance(value, str):
        value = raw                 # "types=12" is the text '12'
    try:
        check_options({key: value})
    except UnknownOption as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return key, value


def technique_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--option`` values of a command as a dict (later ones win)."""
    return dict(getattr(args, "option", None) or ())


def line_meaning(text: str) -> tuple[str, str]:
    """``COLOUR=MEANING`` of ``--line`` (checked against the known meanings when a command
    reads its puzzles: :func:`line_meanings`)."""
    key, sep, meaning = text.partition("=")
    if not sep or not key.strip() or not meaning.strip():
        raise argparse.ArgumentTypeError(f"{quoted(text)}: expected COLOUR=MEANING, e.g. "
                                         "'#67f067=whispers'")
    return key.strip(), meaning.strip()


#: the help of a PUZZLE argument
PUZZLE_HELP = "line string, f-puzzles or SudokuPad link/payload/JSON, file, or -"


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


def load_puzzle(args: argparse.Namespace, budget: "Budget | None" = None) -> "Puzzle":
    """The one puzzle of a command's PUZZLE argument, with its ``--line`` meanings, read
    and checked within ``budget`` (the whole command's; reading counts): contradictory
    givens are refused here as ``solve`` refuses them (:meth:`csp.model.Puzzle.freeze`).

    >>> load_puzzle(argparse.Namespace(puzzle="1" + "." * 15)).grid.n
    4
    """
    from ..formats.loader import load_one
    p = load_one(args.puzzle, lines=line_meanings(args), budget=budget).puzzle
    assert p is not None
    return p.freeze(budget)


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
    output_folder(out)
    return out


def file_picture_output(out: str | None, command: str) -> str | None:
    """:func:`picture_output` for a command whose answer is on stdout (``candidates``,
    ``why``): its picture goes to a file, so ``-o -`` is refused (it drew nothing) with a
    :class:`sudoku_csp.errors.UsageError`.

    >>> file_picture_output(None, "why") is None
    True
    >>> file_picture_output("-", "why")
    Traceback (most recent call last):
    ...
    sudoku_csp.errors.UsageError: -o -: why prints its answer on stdout; give its picture a file name (FILE.svg or FILE.png)
    """
    from ..errors import UsageError
    if out == "-":
        raise UsageError(f"-o -: {command} prints its answer on stdout; give its picture a "
                         "file name (FILE.svg or FILE.png)")
    return picture_output(out)


def output_folder(out: str) -> None:
    """Check, before a command does its work, that the folder of its ``-o`` file exists
    and that the name is not a folder itself (else the answer would be worked out,
    printed, and then refused with exit 2); raises :class:`sudoku_csp.errors.UsageError`.

    >>> output_folder("x.svg")
    >>> output_folder("/no/such/folder/x.svg")
    Traceback (most recent call last):
    ...
    sudoku_csp.errors.UsageError: /no/such/folder/x.svg: no such folder /no/such/folder
    """
    import os

    from ..errors import UsageError
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise UsageError(f"{out}: no such folder {folder}")
    if os.path.isdir(out):
        raise UsageError(f"{out}: is a directory, not a file to write")


def progress_wanted(mode: str) -> bool:
    """Whether ``--progress MODE`` shows progress: ``on``, or ``auto`` with stderr on a
    terminal."""
    import sys
    return mode == "on" or (mode == "auto" and sys.stderr.isatty())
