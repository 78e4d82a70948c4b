"""Batch solving for ``sudoku-csp solve``: serial, a local process pool, or a Dask cluster;
a progress bar, a run summary, clean interruption.

All three back ends feed one output loop, so the output is the same whichever runs it: one
result per puzzle **in input order** (a pool streams chunks back in order; Dask partitions are
collected in order), flushed line by line, so an interrupted run keeps every line written.

* serial (default, ``--workers 1``): puzzles solved one after the other in this process;
* ``--workers N``: a :mod:`multiprocessing` pool of N processes; the puzzle *lines* are sent
  in chunks of ``--chunk-size`` (default: about 1/8 of a worker's share, at most 100), and
  each worker parses and solves its chunk, so the per-puzzle overhead is one pickled line and
  one pickled result;
* ``--dask ADDRESS``: a ``dask.bag`` over the lines, computed on the Dask cluster at
  ``ADDRESS`` (``tcp://host:8786``), or ``--dask local`` for a ``distributed.LocalCluster``
  on this machine (``--workers`` processes, default 2). Needs the optional ``dask`` extra.

The summary (``--summary``, or automatically when stderr is a terminal) counts statuses and
per-puzzle times; ``--summary-json FILE`` writes it as JSON.

>>> s = Summary(workers=1, backend="serial")
>>> for st, ms in [("solved", 2.0), ("solved", 4.0), ("stuck", 10.0)]:
...     s.add({"status": st, "time_ms": ms})
>>> s.to_dict()["counts"]
{'solved': 2, 'stuck': 1, 'unsolvable': 0, 'multiple': 0, 'limit': 0, 'error': 0}
>>> s.to_dict()["time_ms"]["median"]
4.0
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from csp.budget import Budget
from csp.errors import SearchLimit, SoundnessError, SudokuCSPError
from csp.status import SolveStatus
from csp.text import one_line

from .errors import soundness_line
from .formats.loader import Item, load_arg
from .output import say_wrote, write_output

#: a batch line whose input could not be read as a puzzle (a batch status, not a solve outcome)
ERROR = "error"
#: every status a batch line can have: the solve outcomes, then ERROR (summary order)
STATUSES: tuple[str, ...] = (*(s.value for s in SolveStatus), ERROR)
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")

SolveOne = Callable[[Item, argparse.Namespace], dict]
PrintResult = Callable[[dict, argparse.Namespace, int], None]


class BatchUsageError(SudokuCSPError):
    """Bad batch options (the CLI reports it with exit code 2)."""


# -- summary ---------------------------------------------------------------------------
@dataclass
class Summary:
    """Counts per status, per-puzzle times, and (for --logic runs) a histogram of rating
    levels and of the hardest technique used."""

    workers: int = 1
    backend: str = "serial"
    counts: Counter = field(default_factory=Counter)
    times_ms: list[float] = field(default_factory=list)
    levels: Counter = field(default_factory=Counter)
    hardest: Counter = field(default_factory=Counter)
    wall_s: float = 0.0
    interrupted: bool = False

    def add(self, res: dict[str, Any]) -> None:
        status = res.get("status", ERROR)
        self.counts[status] += 1
        if status != ERROR:
            self.times_ms.append(float(res.get("time_ms", 0.0)))
        rating = res.get("rating")
        if isinstance(rating, dict):
            self.levels[rating.get("level")] += 1
            if rating.get("hardest"):
                self.hardest[rating["hardest"]] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> dict[str, Any]:
        from statistics import fmean, median
        counts = {s: self.counts.get(s, 0) for s in STATUSES}
        counts.update({s: k for s, k in self.counts.items() if s not in counts})
        t = self.times_ms
        out: dict[str, Any] = {
            "puzzles": self.total, "counts": counts,
            "time_ms": {"median": round(median(t), 3) if t else None,
                        "mean": round(fmean(t), 3) if t else None,
                        "max": round(max(t), 3) if t else None,
                        "total": round(sum(t), 3)},
            "wall_s": round(self.wall_s, 3), "workers": self.workers, "backend": self.backend,
            "interrupted": self.interrupted}
        if self.levels:
            out["ratings"] = {lv: self.levels.get(lv, 0) for lv in LEVELS}
            out["ratings"].update({str(k): v for k, v in self.levels.items() if k not in LEVELS})
            out["hardest"] = dict(self.hardest.most_common())
        return out

    def text(self) -> str:
        d = self.to_dict()
        c = d["counts"]
        head = "interrupted after" if self.interrupted else "summary:"
        lines = [f"{head} {d['puzzles']} puzzles in {d['wall_s']:.2f} s "
                 f"({self.backend}, {self.workers} worker{'s' if self.workers != 1 else ''})",
                 "  " + ", ".join(f"{c[s]} {s if s != ERROR else 'errors'}" for s in STATUSES)]
        tm = d["time_ms"]
        if tm["median"] is not None:
            lines.append(f"  time per puzzle: median {tm['median']:.2f} ms, mean "
                         f"{tm['mean']:.2f} ms, max {tm['max']:.1f} ms, total "
                         f"{tm['total'] / 1000:.2f} s")
        if "ratings" in d:
            lines.append("  ratings: " + ", ".join(f"{k} {v}" for k, v in d["ratings"].items()))
            top = list(d["hardest"].items())[:5]
            lines.append("  hardest step: " + ", ".join(f"{k} {v}" for k, v in top))
        return "\n".join(lines)


# -- work units ------------------------------------------------------------------------
def _error_result(item: Item, msg: str) -> dict[str, Any]:
    return {"puzzle": item.label, "where": item.where, "status": ERROR, "error": msg,
            "solution": None, "grid": None, "time_ms": 0.0}


def work(item: Item, solve_one: SolveOne, args: argparse.Namespace) -> dict[str, Any]:
    """Parse (if needed) and solve one item; a bad batch entry becomes an ``error`` result,
    a bad single puzzle raises. Whatever goes wrong with one entry of a batch, even a bug
    (any exception but Ctrl-C), is that entry's error and the batch goes on (with
    ``SUDOKU_CSP_DEBUG`` set a bug raises, for its traceback). The grid size rides along
    as ``_n``. The time limit is the puzzle's: one :class:`~csp.budget.Budget` for its
    parsing and its solve (a puzzle parsed before, when it was read, has what its parsing
    used taken off)."""
    t0 = time.perf_counter()
    budget = Budget(getattr(args, "time_limit", None), spent=item.parse_s)
    if not item.where:
        return _solve(item, solve_one, args, budget, t0)
    try:
        return _solve(item, solve_one, args, budget, t0)
    except SoundnessError as e:    # a bug caught before the answer: this line's error
        return _error_result(item, soundness_line(e))
    except SudokuCSPError as e:    # bad input, said by the library
        return _error_result(item, one_line(e))
    except Exception as e:  # a bug: this line's error, not the end of the batch
        if os.environ.get("SUDOKU_CSP_DEBUG"):
            raise
        return _error_result(item, one_line(f"internal error: {type(e).__name__}: {e}"))


def _solve(item: Item, solve_one: SolveOne, args: argparse.Namespace, budget: Budget,
           t0: float) -> dict[str, Any]:
    """Parse ``item`` within ``budget`` (a limit met while reading is the puzzle's
    ``limit`` answer) and solve it; a bad entry raises its error."""
    try:
        item = item.parsed(budget)
    except SearchLimit as e:      # the time ran out while the puzzle was read
        return {"puzzle": item.label, "where": item.where, "status": SolveStatus.LIMIT,
                "reason": str(e), "solution": None, "grid": None,
                "time_ms": round((time.perf_counter() - t0) * 1000, 3)}
    item.budget = budget
    if item.error is not None:
        raise item.error
    res = solve_one(item, args)
    assert item.puzzle is not None
    res["_n"] = item.puzzle.grid.n
    return res


def _work_chunk(items: Sequence[Item], fn: Callable[[Item], dict]) -> list[dict]:
    return [fn(it) for it in items]


def _ignore_sigint() -> None:  # pool workers: Ctrl-C is the parent's business
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.environ.get("SUDOKU_CSP_WORKER_SESSIONS") == "1" and hasattr(os, "setsid"):
        # benchmarks/batch.py --own-sessions: each worker its own session, so a kernel with
        # autogroup scheduling gives it its own CPU share (as separate jobs would get)
        os.setsid()


class _DeferSigint:
    """Ctrl-C (SIGINT) is held back while a result's line is written and counted, so an
    interrupted run's summary always matches its output; outside that window it raises
    KeyboardInterrupt at once, as usual. Only installed in the main thread."""

    def __init__(self) -> None:
        self.critical = False
        self.pending = False
        self.previous: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        if self.critical:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def __enter__(self) -> "_DeferSigint":
        import threading
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    @contextlib.contextmanager
    def section(self) -> Iterator[None]:
        self.critical = True
        try:
            yield
        finally:
            self.critical = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


def worker_count(asked: int, puzzles: int, local: bool = True,
                 cpus: int | None = None) -> int:
    """The processes a run starts for ``--workers asked`` (0: one per CPU): never more than
    the puzzles to solve, nor (on this machine: ``local``) more than its CPUs, so a large
    ``--workers`` on a short file starts no idle processes; at least 1.

    >>> worker_count(1000, 2, cpus=8), worker_count(1000, 50, cpus=8), worker_count(0, 50, cpus=4)
    (2, 8, 4)
    >>> worker_count(3, 1000, local=False, cpus=1)
    3
    """
    cores = (cpus if cpus is not None else os.cpu_count()) or 1
    n = asked if asked > 0 else cores
    if local:
        n = min(n, cores)
    return max(1, min(n, puzzles))


def _chunk_size(n_items: int, workers: int, requested: int | None) -> int:
    if requested is not None:
        return requested
    return max(1, min(100, n_items // (workers * 8)))


def ramp(items: Sequence[Item], chunk: int) -> list[Sequence[Item]]:
    """``items`` cut into chunks of 1, 2, 4, ... items, then ``chunk`` each: the first
    results come back after one puzzle, and long runs still send few messages.

    >>> [len(c) for c in ramp(list(range(20)), 6)]
    [1, 2, 4, 6, 6, 1]
    """
    out = []
    i, size = 0, 1
    while i < len(items):
        out.append(items[i:i + size])
        i += size
        size = min(chunk, size * 2)
    return out


def _serial(items: Iterable[Item], fn: Callable[[Item], dict]) -> Iterator[dict]:
    for it in items:
        yield fn(it)


class _Pool:
    """A process pool streaming results in input order; started at once (before any
    progress-bar thread exists, as it forks), closed by :meth:`close`. Without a requested
    chunk size the chunks grow from one puzzle (:func:`ramp`), so the first lines are
    written as soon as the first puzzles are solved."""

    def __init__(self, items: Sequence[Item], fn: Callable[[Item], dict], workers: int,
                 chunk: int, fixed: bool = False) -> None:
        import multiprocessing   # only a pool run pays for it
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.pool = ctx.Pool(workers, initializer=_ignore_sigint)
        self.chunks = [items[i:i + chunk] for i in range(0, len(items), chunk)] if fixed \
            else ramp(items, chunk)
        self.results = self.pool.imap(functools.partial(_work_chunk, fn=fn), self.chunks)
        self.finished = False

    def __iter__(self) -> Iterator[dict]:
        for chunk in self.chunks:
            try:
                part = next(self.results)
            except Exception as e:  # the chunk's results could not come back (pickling):
                if os.environ.get("SUDOKU_CSP_DEBUG"):   # its lines' error; the rest go on
                    raise
                msg = one_line(f"internal error: {type(e).__name__}: {e}")
                part = [_error_result(item, msg) for item in chunk]
            yield from part
        self.finished = True

    def close(self) -> None:
        if self.finished:
            self.pool.close()
            self.pool.join()
            return
        # interrupted, broken pipe or an error: stop the workers now. Killing them can break
        # the pool's own pipes; that must not replace the exception that brought us here
        # (a BrokenPipeError would turn Ctrl-C into a quiet exit 0)
        try:
            self.pool.terminate()
            self.pool.join()
        except OSError:
            pass


# how long a Dask run waits while its cluster has no worker at all before it gives up with an
# error (a local cluster's workers died, e.g. killed for memory; a remote cluster lost its
# workers or never had any): a run never hangs. A remote cluster may be scaling up from zero,
# so it gets longer.
DASK_NO_WORKERS_S = {"local": 60.0, "remote": 600.0}


class DaskClusterError(SudokuCSPError):
    """The Dask cluster has had no worker for too long (the CLI reports it with exit code 2)."""


def _dask_result(client: Any, fut: Any, stall_s: float, poll_s: float = 2.0,
                 clock: Callable[[], float] = time.monotonic) -> Any:
    """``fut.result()``, waiting as long as the cluster has workers; once it has had none for
    ``stall_s`` seconds, a `DaskClusterError` instead of a hang."""
    since: float | None = None
    while True:
        try:
            return fut.result(timeout=poll_s)
        except TimeoutError:
            pass
        try:
            alive = len(client.scheduler_info().get("workers", {}))
        except Exception:        # the scheduler itself is gone: count it as no workers
            alive = 0
        if alive:
            since = None
            continue
        now = clock()
        since = now if since is None else since
        if now - since >= stall_s:
            raise DaskClusterError(f"the Dask cluster has had no workers for {stall_s:g} s; "
                                   "stopping (the results so far were written)")


def _dask(items: Sequence[Item], fn: Callable[[Item], dict], address: str, workers: int,
          chunk: int, summary: "Summary") -> Iterator[dict]:
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        raise BatchUsageError("--dask needs dask and distributed: "
                              "pip install 'sudoku-csp[dask]'") from None
    import logging
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout="20s")
        except (OSError, TimeoutError, ValueError) as e:
            raise BatchUsageError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        with contextlib.suppress(Exception):
            info = client.scheduler_info()["workers"].values()
            summary.workers = sum(int(w.get("nthreads", 1)) for w in info)
    futures: list = []
    try:
        bag = db.from_sequence(list(items), partition_size=chunk)
        parts = bag.map_partitions(_work_chunk, fn).to_delayed()
        futures = client.compute(parts)
        stall = DASK_NO_WORKERS_S["local" if cluster is not None else "remote"]
        for fut in futures:  # in partition order: output order = input order
            yield from _dask_result(client, fut, stall)
    finally:
        with contextlib.suppress(Exception):
            client.cancel(futures)
        with contextlib.suppress(Exception):
            client.close()
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close()


# -- the solve command -----------------------------------------------------------------
class _Progress:
    def __init__(self, total: int, enabled: bool) -> None:
        self.bar = None
        if enabled:
            from tqdm import tqdm
            self.bar = tqdm(total=total, file=sys.stderr, unit="puzzle", dynamic_ncols=True,
                            mininterval=0.2)

    def update(self) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def err(self, msg: str) -> None:
        if self.bar is not None:
            self.bar.write(msg, file=sys.stderr)
        else:
            print(msg, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _plain_args(args: argparse.Namespace) -> argparse.Namespace:
    """The options a worker needs (no callables: the namespace is pickled)."""
    return argparse.Namespace(**{k: v for k, v in vars(args).items() if not callable(v)})


def run_solve(args: argparse.Namespace, solve_one: SolveOne, print_result: PrintResult) -> int:
    """Run ``sudoku-csp solve`` over every PUZZLE argument; returns the exit code (0 all
    solved, 1 otherwise). KeyboardInterrupt propagates after the workers are stopped and the
    summary (if asked for) is written."""
    if args.workers < 0:
        raise BatchUsageError("--workers must be 0 or more")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise BatchUsageError("--chunk-size must be at least 1")
    from .commands.options import line_meanings
    lines = line_meanings(args)
    items: list[Item] = []
    for arg in args.puzzle:
        # a single puzzle argument is read at once, within its own time limit
        items.extend(load_arg(arg, parse=False, lines=lines,
                              budget=Budget(getattr(args, "time_limit", None))))
    asked = 2 if args.dask and args.workers == 1 else args.workers  # a local cluster: 2
    workers = worker_count(asked, len(items), local=args.dask in (None, "local"))
    batch = len(items) > 1 or any(it.where for it in items)
    tty = sys.stderr.isatty()
    # one puzzle: no bar (a single --logic solve draws its own line: sudoku_csp.progress)
    show_bar = batch and (args.progress == "on" or (args.progress == "auto" and tty))
    show_summary = args.summary or (tty and batch and args.progress != "off")
    args.batch = batch      # solve_one shows a single solve's own progress line
    fn = functools.partial(work, solve_one=solve_one, args=_plain_args(args))
    chunk = _chunk_size(len(items), workers, args.chunk_size)
    t0 = time.perf_counter()
    summary = Summary(workers=workers)
    closer: Any
    if args.dask:
        backend = "dask"
        results = _dask(items, fn, args.dask, workers, chunk, summary)
        closer = results
    elif workers > 1 and len(items) > 1:
        backend = "pool"
        pool = _Pool(items, fn, workers, chunk, fixed=args.chunk_size is not None)
        results, closer = iter(pool), pool
    else:
        backend, workers = "serial", 1
        results = _serial(items, fn)
        closer = results
    summary.backend, summary.workers = backend, workers
    progress = _Progress(len(items), show_bar)
    worst = 0
    failed = False
    # a result's line and its count in the summary go together (Ctrl-C waits for both), so
    # an interrupted run's summary matches what was written
    try:
        with _DeferSigint() as sigint, contextlib.closing(closer):
            for res in results:
                n = res.pop("_n", 9)
                with sigint.section():
                    if res["status"] == ERROR:
                        progress.err(f"error: {res['where']}: {res['error']}")
                        if args.json:
                            print(json.dumps(res), flush=True)
                        worst = 1
                    else:
                        print_result(res, args, n)
                        if res["status"] != SolveStatus.SOLVED:
                            worst = 1
                    summary.add(res)
                progress.update()
    except KeyboardInterrupt:
        summary.interrupted = True
        raise
    except BrokenPipeError:    # the reader went away: the summary is still the run's
        raise
    except Exception:
        failed = True          # exit 2 (or a bug): no summary replaces an earlier one
        raise
    finally:
        summary.wall_s = time.perf_counter() - t0
        progress.close()
        if show_summary and (summary.total or summary.interrupted):
            print(summary.text(), file=sys.stderr, flush=True)
        if args.summary_json and not failed:
            write_output(args.summary_json, json.dumps(summary.to_dict(), indent=1) + "\n")
            say_wrote(args.summary_json)
    return worst
