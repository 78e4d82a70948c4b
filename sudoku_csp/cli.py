"""The ``sudoku-csp`` console script: the parser, the dispatch to one module per command
(:mod:`sudoku_csp.commands`) and the exit codes.

::

    sudoku-csp solve PUZZLE... [--logic] [--first] [--steps] [--level 0|1|2] [--json] ...
    sudoku-csp hint PUZZLE [--marks GRID] [--level 0|1|2] [--techniques SEL] [--json] ...
    sudoku-csp explain PUZZLE [-o solve.html] [--level 0|1|2] [--techniques SEL] ...
    sudoku-csp count PUZZLE [--limit K] [--list] [--estimate] [--json] ...
    sudoku-csp candidates PUZZLE [--counts K] [--logical] [--json] [-o FILE.svg|.png] ...
    sudoku-csp listen [--host localhost] [--port 4545] ...
    sudoku-csp reglib FILE [CODE...] [--json]
    sudoku-csp graph PUZZLE [--kind constraint|cells|links] [--format graphml|json|dot] [-o FILE]
    sudoku-csp techniques [--json] [--options]
    sudoku-csp rules [--json]
    sudoku-csp render PUZZLE [--step N | --state] [--techniques SEL] [-o out.svg|out.png]
    sudoku-csp generate [--variant classic|jigsaw|killer|FAMILY,...] [--difficulty LEVEL] ...
    sudoku-csp convert PUZZLE --to spec|fpuzzles|fpuzzles-url|sudokupad-url|line
    sudoku-csp report PUZZLE [--json] [-o report.html] [--techniques SEL] [--time-limit S]
    sudoku-csp why PUZZLE r5c3=7 [--marks GRID] [--json] [-o why.svg|why.png]
    sudoku-csp rate PUZZLE... [--rating hodoku|se|se121|both] [--json] ...
    sudoku-csp --version

Every command and option is in docs/cli.md (its synopsis lists them all).

Every option's help says what it does and, where it has one, its default
(:class:`HelpFormatter`); a misspelt command, option or option value is a usage error
that names the closest ones (``did you mean 'solve'?``).

Exit codes (:mod:`sudoku_csp.errors`): 0 all solved / all passed; 1 some puzzle unsolvable,
multiple, stuck (or over a limit), or some case failed, or an internal error (a bug: one line
on stderr; an internal soundness error also saves the puzzle as sudoku-csp JSON and names the
file); 2 bad input or usage, with one line on stderr.

>>> main(["count", "1...............", "--limit", "3"])
3+
0
>>> version().count(".") >= 1
True
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from typing import Any, Sequence

from csp.errors import SearchLimit, SoundnessError, SudokuCSPError
from csp.text import QUOTE_LIMIT, did_you_mean, one_line, quoted

from .commands import COMMANDS
from .errors import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError,
                     keep_puzzle, soundness_line)  # noqa: F401 (keep_puzzle: re-exported)


#: a help text that already says its default ("(default 60)", "default: stdout", "(default)")
_SAYS_DEFAULT = re.compile(r"%\(default\)|\bdefault(?::|\)| \w)")


def shows_default(action: argparse.Action) -> bool:
    """Whether ``--help`` should show ``action``'s default: an option with a value (not a
    flag, not ``None``, not ``--help`` or ``--version``).

    >>> ap = argparse.ArgumentParser()
    >>> [shows_default(ap.add_argument(*a, **k)) for a, k in [(("--n",), {"default": 3}),
    ...     (("--json",), {"action": "store_true"}), (("--o",), {})]]
    [True, False, False]
    """
    return (bool(action.option_strings) and action.nargs != 0
            and action.default not in (None, argparse.SUPPRESS)
            and not isinstance(action.default, bool))


#: the value names of options that do not set their own ``metavar``, as docs/cli.md writes
#: them (argparse would print the option's name in capitals: ``--time-limit TIME_LIMIT``)
METAVARS = {"time_limit": "S", "techniques": "SEL", "seed": "S", "difficulty": "LEVEL",
            "variant": "VARIANT", "title": "TEXT", "host": "HOST", "port": "PORT"}


class HelpFormatter(argparse.HelpFormatter):
    """The help of every ``sudoku-csp`` parser: an option with a default (see
    :func:`shows_default`) gets ``(default: VALUE)`` after its description, unless the
    description already says its default; value names follow docs/cli.md (:data:`METAVARS`).
    """

    def _get_default_metavar_for_optional(self, action: argparse.Action) -> str:
        return METAVARS.get(action.dest) or super()._get_default_metavar_for_optional(action)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if shows_default(action) and not _SAYS_DEFAULT.search(text):
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(message)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """A value outside an option's choices, or an unknown command: name the closest."""
        if action.choices is None or value in action.choices:
            return
        hint = did_you_mean(str(value), map(str, action.choices))
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(None, f"unknown command {one_line(quoted(value))}{hint} "
                                               f"(commands: {', '.join(action.choices)})")
        shown = ", ".join(map(str, action.choices))
        raise argparse.ArgumentError(action, f"invalid choice: {one_line(quoted(value))}{hint} "
                                             f"(choose from {shown})")


class _Version(argparse.Action):
    """``--version``: print ``sudoku-csp VERSION`` and exit 0 (the version is looked up
    only then)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"sudoku-csp {version()}")
        parser.exit(EXIT_OK)


def version() -> str:
    """The installed package's version (:mod:`importlib.metadata`); from a source tree that
    is not installed, the ``version`` of the ``pyproject.toml`` beside the package; else
    ``"unknown"``."""
    from importlib import metadata
    try:
        return metadata.version("sudoku-csp")
    except metadata.PackageNotFoundError:
        pass
    try:
        import tomllib
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with open(os.path.join(root, "pyproject.toml"), "rb") as f:
            return str(tomllib.load(f)["project"]["version"])
    except (OSError, KeyError, ValueError, ImportError):
        return "unknown"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or, when ``command`` is given, of that one only (the
    others are listed with their help but their modules are not imported: start-up)."""
    ap = _Parser(prog="sudoku-csp",
                 description="Solve, count and explain Sudoku and variant puzzles.")
    ap.add_argument("--version", action=_Version, help="print the version and exit")
    sub = ap.add_subparsers(dest="cmd", parser_class=_Parser, metavar="COMMAND",
                            title="commands (sudoku-csp COMMAND --help for each)")
    for name, text in COMMANDS.items():
        if command is None or name == command:
            importlib.import_module(f"{__package__}.commands.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=text)
    return ap


def _unrecognized(ap: argparse.ArgumentParser, args: argparse.Namespace,
                  extra: Sequence[str]) -> str:
    """The message for arguments no parser took, with the closest option of the command
    for a misspelt one (``--limt``: did you mean '--limit'?)."""
    given = " ".join(extra)
    shown = given if len(given) <= QUOTE_LIMIT else quoted(given)
    msg = f"unrecognized arguments: {one_line(shown)}"
    first = next((a.split("=", 1)[0] for a in extra if a.startswith("-")), None)
    if first is None:
        return msg
    parser = ap
    if args.cmd is not None:
        sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[args.cmd]
    return msg + did_you_mean(first, [o for o in parser._option_string_actions
                                      if o.startswith("--")])


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of a closed pipe
    does not print a second error at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    try:
        args, extra = ap.parse_known_args(argv)
        if extra:
            raise UsageError(_unrecognized(ap, args, extra))
        if args.cmd is None:
            raise UsageError(f"a command is required: {', '.join(COMMANDS)}")
        return args.run(args)
    except SoundnessError as e:   # a bug caught by the last check before an answer
        print(f"sudoku-csp: {soundness_line(e)}", file=sys.stderr)
        return EXIT_FAILED
    except SearchLimit as e:      # a limit a command did not report itself (while reading)
        print(f"sudoku-csp: limit: {e}", file=sys.stderr)
        return EXIT_FAILED
    except SudokuCSPError as e:   # bad input or usage (UsageError is one)
        print(f"sudoku-csp: error: {one_line(e)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:   # the reader went away (| head): stop quietly
        _silence_stdout()
        return EXIT_OK
    except OSError as e:
        what = e.strerror or str(e) or type(e).__name__
        where = f": {one_line(e.filename)}" if e.filename is not None else ""
        print(f"sudoku-csp: error: {one_line(what)}{where}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("sudoku-csp: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:  # a bug: one line unless debugging
        if os.environ.get("SUDOKU_CSP_DEBUG"):
            raise
        print(f"sudoku-csp: internal error: {type(e).__name__}: {one_line(e)} "
              "(set SUDOKU_CSP_DEBUG=1 for a traceback)", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
