"""A live progress line for one long logic solve (``solve --logic`` on one puzzle,
``explain``): steps so far, elapsed time and the technique being searched, on stderr.

``--progress auto`` (the default) shows it only when stderr is a terminal, ``on`` always,
``off`` never; it never writes to stdout, so ``--json`` output stays clean. Batches show
their own bar (:mod:`sudoku_csp.batch`) instead. The line is redrawn twice a second by a
background thread that only reads the run (``len(run.steps)``, ``run.current``), so a
single technique searching for seconds still shows the time passing; the solve itself
pays nothing.

>>> import io, argparse
>>> wants_progress(argparse.Namespace(progress="on")), wants_progress(argparse.Namespace(progress="off"))
(True, False)
>>> from variants.classic import classic_puzzle
>>> from techniques import StepSolver
>>> solver = StepSolver()
>>> run = solver.start(classic_puzzle(
...     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."))
>>> err = io.StringIO()
>>> with RunProgress(run, True, file=err):
...     status = solver.finish(run).status
>>> status, "49 steps" in err.getvalue()
('solved', True)
"""
from __future__ import annotations

import argparse
import sys
import threading
from typing import IO, Any

__all__ = ["RunProgress", "wants_progress", "PROGRESS_HELP"]

PROGRESS_HELP = ("live progress on stderr: steps, elapsed time, current technique (auto: "
                 "only when stderr is a terminal)")

#: seconds between two redraws of the line
REFRESH = 0.5


def wants_progress(args: argparse.Namespace, stream: IO[str] | None = None) -> bool:
    """Whether ``--progress`` (``auto`` / ``on`` / ``off``) asks for a progress display on
    ``stream`` (default stderr): ``auto`` only when it is a terminal."""
    mode = getattr(args, "progress", "auto")
    if mode == "auto":
        stream = stream or sys.stderr
        return bool(getattr(stream, "isatty", lambda: False)())
    return mode == "on"


class RunProgress:
    """``with RunProgress(run, enabled): solver.finish(run)``: a tqdm line on ``file``
    (default stderr) while the :class:`techniques.loop.Run` goes on; nothing when not
    ``enabled``. The line is cleared at the end."""

    def __init__(self, run: Any, enabled: bool, file: IO[str] | None = None,
                 label: str = "logic solve") -> None:
        self.run = run
        self.enabled = enabled
        self.file = file
        self.label = label
        self.bar: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _draw(self) -> None:
        bar, run = self.bar, self.run
        bar.n = len(run.steps)
        current = run.current
        bar.set_postfix_str(current.replace("_", " ") if current else "", refresh=False)
        bar.refresh()

    def _tick(self) -> None:
        while not self._stop.wait(REFRESH):
            self._draw()

    def __enter__(self) -> "RunProgress":
        if self.enabled:
            from tqdm import tqdm
            self.bar = tqdm(total=None, file=self.file or sys.stderr, desc=self.label,
                            unit="step", leave=False, dynamic_ncols=True,
                            bar_format="{desc}: {n_fmt} steps, {elapsed}{postfix}")
            self._thread = threading.Thread(target=self._tick, name="sudoku-csp progress",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.bar is None:
            return
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._draw()        # the final count, then the line is cleared
        self.bar.close()
        self.bar = None
