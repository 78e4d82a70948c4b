"""``sudoku-csp reglib FILE [CODE...] [--json]``: run a HoDoKu regression library file
(:mod:`techniques.reglib`): one line per failing case, a per-technique table, and last the
line ``N passed, M failed``."""
from __future__ import annotations

import argparse
import json
import os
from typing import Any

from . import COMMANDS
from ..errors import UsageError


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``reglib`` on the CLI's subparsers."""
    r = sub.add_parser("reglib", help=COMMANDS["reglib"])
    r.add_argument("file", help="a HoDoKu regression library file (one case per line)")
    r.add_argument("codes", nargs="*", help="only these technique codes")
    r.add_argument("--json", action="store_true",
                   help="one JSON object: passed, failed, failures, the per-technique table")
    r.set_defaults(run=run)
    return r


def run(args: argparse.Namespace) -> int:
    """Exit 0 when every case passed, 1 otherwise."""
    from csp.errors import ParseError
    from csp.text import one_line
    from techniques import reglib

    from ..formats.loader import read_text_file
    if not os.path.isfile(args.file):
        raise UsageError(f"{args.file}: no such file")
    codes = set(args.codes) if args.codes else None
    text = read_text_file(args.file)    # a byte that is not UTF-8: FILE:LINE: the byte
    try:
        rep = reglib.run_lines(text.splitlines(keepends=True), codes)
    except ParseError as e:             # a line that is not a library line: bad input
        raise ParseError(f"{one_line(args.file)}: {e}") from None
    if args.json:
        print(json.dumps({"passed": rep.passed, "failed": rep.failed,
                          "failures": [{"line": ln, "reason": msg} for ln, msg in rep.failures],
                          "table": {k: {"passed": v[0], "failed": v[1]}
                                    for k, v in sorted(rep.table.items())},
                          "seconds": round(rep.seconds, 3)}))
    else:
        for line, msg in rep.failures:
            print(line)
            print(f"    {msg}")
        for key, (ok, bad) in sorted(rep.table.items()):
            print(f"{key:50s} {ok:5d} passed {bad:5d} failed")
        print(f"{rep.passed} passed, {rep.failed} failed")
    return 0 if rep.failed == 0 else 1
