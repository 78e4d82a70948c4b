"""``sudoku-csp listen``: a local websocket server speaking the protocol of the f-puzzles
solver userscript (written for the C# variant solver), so f-puzzles' Solve, Check, Solution
Count, True Candidates, Step and Solution Path buttons ask this library.

::

    sudoku-csp listen [--host localhost] [--port 4545] [--max-message BYTES]
                      [--time-limit S] [--verbose]

The server (:mod:`sudoku_csp.workbench.server`; the protocol in docs/listen.md) listens on
loopback only unless ``--host`` says otherwise, and runs until Ctrl-C (exit 130). Once
listening, before it says so, it answers one small job of each kind and freezes the start-up objects out of the
collector's reach (:func:`~sudoku_csp.workbench.server.ready_process`). It needs
the ``websockets`` package (``pip install "sudoku-csp[listen]"``).
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from . import COMMANDS


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``listen`` on the CLI's subparsers."""
    from ..workbench.server import DEFAULT_PORT, MAX_MESSAGE, TRANSPORT_MAX
    from .options import seconds, whole_number
    c = sub.add_parser("listen", help=COMMANDS["listen"])
    c.add_argument("--host", default="localhost",
                   help="address to listen on (default localhost: this machine only)")
    c.add_argument("--port", type=_in_range(0, 65535, whole_number),
                   default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}, the userscript's)")
    c.add_argument("--max-message", type=_in_range(1024, TRANSPORT_MAX, whole_number),
                   default=MAX_MESSAGE, metavar="BYTES",
                   help=f"largest message read, 1024 to {TRANSPORT_MAX} (default "
                        f"{MAX_MESSAGE}); larger ones get 'invalid'")
    c.add_argument("--time-limit", type=seconds, default=None,
                   help="seconds a job may run (default: until cancelled)")
    c.add_argument("--verbose", action="store_true", help="log each command on stderr")
    c.set_defaults(run=run)
    return c


def _in_range(low: int, high: int, read: Any) -> Any:
    """An argparse ``type=``: a whole number in ASCII digits (``read``) from ``low`` to
    ``high``.

    >>> from sudoku_csp.commands.options import whole_number
    >>> _in_range(0, 65535, whole_number)("4545")
    4545
    >>> _in_range(0, 65535, whole_number)("70000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 0..65535, got 70000
    """
    def whole(text: str) -> int:
        value = read(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low}..{high}, got {value}")
        return value
    whole.__name__ = f"whole number {low}..{high}"
    return whole


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from ..errors import UsageError
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise UsageError("listen needs the websockets package "
                         "(pip install \"sudoku-csp[listen]\")") from None
    from ..workbench.server import ListenServer, ready_process
    server = ListenServer(args.host, args.port, args.max_message, args.time_limit,
                          args.verbose)
    try:
        server.serve_forever(on_ready=lambda: (
            ready_process(),            # warm up, and keep the collector off start-up objects
            print(f"sudoku-csp listening on {server.url} (Ctrl-C stops)", flush=True)))
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: "
                         f"{e.strerror or e}") from None
    return 0
