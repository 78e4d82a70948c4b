"""The ``sudoku-csp`` console script: the parser, the dispatch to one module per command
(:mod:`sudoku_csp.commands`) and the exit codes.

::

    sudoku-csp solve PUZZLE... [--logic] [--first] [--steps] [--level 0|1|2] [--json] ...
    sudoku-csp hint PUZZLE [--marks GRID] [--level 0|1|2] [--techniques SEL] [--json]
    sudoku-csp explain PUZZLE [-o solve.html] [--level 0|1|2] [--techniques SEL] [--time-limit S]
    sudoku-csp count PUZZLE [--limit K]
    sudoku-csp reglib FILE [--json]
    sudoku-csp graph PUZZLE --kind constraint|cells|links --format graphml|json|dot [-o FILE]
    sudoku-csp techniques
    sudoku-csp render PUZZLE [--step N | --state] [--techniques SEL] [-o out.svg|out.png]
    sudoku-csp generate [--variant classic|jigsaw|killer] [--difficulty LEVEL] [--count N] ...
    sudoku-csp convert PUZZLE --to spec|fpuzzles|fpuzzles-url|line
    sudoku-csp report PUZZLE [--json] [-o report.html] [--techniques SEL] [--time-limit S]
    sudoku-csp why PUZZLE r5c3=7 [--marks GRID] [--json] [-o why.svg|why.png]

Exit codes (:mod:`sudoku_csp.errors`): 0 all solved / all passed; 1 some puzzle unsolvable,
multiple, stuck (or over a limit), or some case failed, or an internal error (a bug: one line
on stderr; an internal soundness error also saves the puzzle as sudoku-csp JSON and names the
file); 2 bad input or usage, with one line on stderr.

>>> main(["count", "1...............", "--limit", "3"])
3+
0
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from csp.errors import SearchLimit, SoundnessError, SudokuCSPError
from csp.text import one_line

from .commands import COMMANDS
from .errors import (EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError,
                     keep_puzzle, soundness_line)  # noqa: F401 (keep_puzzle: re-exported)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or, when ``command`` is given, of that one only (the
    others are listed with their help but their modules are not imported: start-up)."""
    ap = _Parser(prog="sudoku-csp",
                 description="Solve, count and explain Sudoku and variant puzzles.")
    sub = ap.add_subparsers(dest="cmd", parser_class=_Parser)
    for name, text in COMMANDS.items():
        if command is None or name == command:
            importlib.import_module(f"{__package__}.commands.{name}").add_parser(sub)
        else:
            sub.add_parser(name, help=text)
    return ap


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
        args = ap.parse_args(argv)
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
