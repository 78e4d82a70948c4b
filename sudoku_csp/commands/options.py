"""Option types shared by the commands: argparse ``type=`` callables that refuse what a
command cannot honour (argparse turns their ``ArgumentTypeError`` into a one-line usage
error, exit code 2).

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
