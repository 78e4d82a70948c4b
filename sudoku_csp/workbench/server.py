"""The local websocket server of ``sudoku-csp listen``: the protocol of the f-puzzles solver
userscript ("Fpuzzles-SudokuSolver", written for the C# variant solver SudokuSolver), so a
setter can point that userscript at this library unchanged. docs/listen.md describes the
protocol; this module is our own code for it (the C# server is GPL: read for the facts).

A client message is one JSON object, ``{"nonce": N, "command": C, "dataType": "fpuzzles",
"data": D}``: D an f-puzzles LZString payload (or a ``?load=`` URL, or the JSON itself).
Commands and replies (each reply carries the message's ``nonce`` and a ``type``):

=================  ===================================================================
``truecandidates`` ``truecandidates`` with ``solutionsPerCandidate`` (flat, index
                   ``(row * N + col) * N + digit - 1``: 0, the solutions holding it up
                   to the cap, -1 for a candidate only the logic keeps)
``solve``          ``solved`` with ``solution`` (a digit per cell)
``check``          ``count`` (``count`` up to 2, ``inProgress`` false)
``count``          ``count`` messages with ``inProgress`` true while counting, then false
``estimate``       ``estimate`` messages (``estimate``, ``stderr``, ``iterations``,
                   ``ci95_lower``, ``ci95_upper``, ``relErrPercent``; null for a bound not
                   known yet) until cancelled
``solvepath``      ``logical``: ``cells`` (``{"value": d}`` or ``{"value": 0,
                   "candidates": [...]}``), ``message`` (one step per line), ``isValid``
``step``           ``logical`` after one step (or "Initial candidates." first)
``cancel``         ``canceled``
=================  ===================================================================

``invalid`` (with ``message``) answers an unsolvable board, a bad puzzle and any bad
message; a cancelled job answers ``canceled``. One job runs per connection: a new message
cancels the running one. A message is never read as a file name, a message over the size
cap is refused with ``invalid``, and nothing a client sends closes the connection or
reaches it as a traceback.

>>> import json
>>> reply = handle_sync({"nonce": 1, "command": "check", "dataType": "fpuzzles",
...                      "data": fpuzzles_payload(".2.4....3.......")})
>>> reply[-1]
{'nonce': 1, 'type': 'count', 'count': 2, 'inProgress': False}
>>> handle_sync({"nonce": 2, "command": "dance"})
[{'nonce': 2, 'type': 'invalid', 'message': "unknown command 'dance'"}]
"""
from __future__ import annotations

import asyncio
import gc
import json
import math
import sys
import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from csp import Puzzle, State
from csp.errors import Cancelled, SudokuCSPError, TimeLimitExceeded
from csp.events import Contradiction
from csp.text import quoted

__all__ = ["COMMANDS", "DEFAULT_PORT", "MAX_MESSAGE", "Job", "ListenServer", "handle_sync",
           "fpuzzles_payload", "parse_message", "ready_process", "technique_selection"]

DEFAULT_PORT = 4545
#: the largest message read (bytes of text); a longer one gets ``invalid``
MAX_MESSAGE = 1 << 20
#: frames larger than this are refused by the websocket library itself (it closes the
#: connection): the transport's guard against memory exhaustion, far above MAX_MESSAGE
TRANSPORT_MAX = 16 << 20
COMMANDS = ("truecandidates", "solve", "check", "count", "estimate", "solvepath", "step",
            "cancel")
#: the userscript's "disabled logic" names -> technique families left out
DISABLED_LOGIC = {
    "tuples": ("subsets",), "pointing": ("intersections",), "fishes": ("fish",),
    "wings": ("wings",), "aic": ("chains", "coloring", "single_digit", "als"),
    "contradictions": ("forcing", "templates"),
}
#: seconds between streamed progress replies (count, estimate)
STREAM_EVERY = 0.5

Send = Callable[[dict], None]


class BadMessage(Exception):
    """A message that cannot be run (the reply is ``invalid`` with this text)."""


def fpuzzles_payload(puzzle: Puzzle | str) -> str:
    """The f-puzzles LZString payload of a puzzle (or of puzzle text): what the userscript
    sends as ``data``."""
    import lzstring

    from ..formats.fpuzzles import to_fpuzzles
    from .candidates import load_puzzle
    return lzstring.LZString().compressToBase64(json.dumps(to_fpuzzles(load_puzzle(puzzle))))


def technique_selection(disabled: Any) -> str:
    """The ``--techniques`` selection for the userscript's ``disabledlogic`` list.

    >>> technique_selection(["fishes", "AIC"])
    'default,-fish,-chains,-coloring,-single_digit,-als'
    """
    out = ["default"]
    for name in disabled if isinstance(disabled, list) else ():
        out += [f"-{fam}" for fam in DISABLED_LOGIC.get(str(name).lower(), ())]
    return ",".join(out)


def parse_message(text: str | bytes, limit: int = MAX_MESSAGE) -> dict:
    """The message object of ``text``, checked; raises :class:`BadMessage`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage("a binary message that is not UTF-8 text") from None
    if len(text) > limit:
        raise BadMessage(f"message too large: {len(text)} characters, at most {limit}")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadMessage(f"malformed JSON: {e}") from None
    if not isinstance(msg, dict):
        raise BadMessage("a message must be a JSON object")
    return msg


def _nonce(msg: dict) -> Any:
    """The message's nonce, echoed in every reply: a number or a string; anything else
    (and NaN or an infinity, which a strict JSON reader such as the browser's cannot read
    back) is None."""
    n = msg.get("nonce")
    if isinstance(n, float) and not math.isfinite(n):
        return None
    return n if isinstance(n, (int, float, str)) and not isinstance(n, bool) else None


def _puzzle_data(msg: dict) -> dict:
    """The f-puzzles object a job message carries (never read as a file name)."""
    if msg.get("dataType") != "fpuzzles":
        raise BadMessage(f"unsupported dataType {quoted(msg.get('dataType'))} (only 'fpuzzles')")
    data = msg.get("data")
    if not isinstance(data, str) or not data.strip():
        raise BadMessage("'data' must be an f-puzzles payload (text)")
    from ..formats.payload import decode_payload
    return decode_payload(data)


class Job:
    """One command run for one message: ``run()`` sends its replies through ``send`` and
    stops early (replying ``canceled``) once ``cancel`` is set."""

    def __init__(self, msg: dict, send: Send, cache: "_Cache | None" = None,
                 time_limit: float | None = None) -> None:
        self.msg = msg
        self.nonce = _nonce(msg)
        self.command = msg.get("command")
        self.cancel = threading.Event()
        self._send = send
        self.cache = cache
        self.time_limit = time_limit
        self.done = threading.Event()

    def send(self, type_: str, **fields: Any) -> None:
        self._send({"nonce": self.nonce, "type": type_, **fields})

    def invalid(self, message: str) -> None:
        self.send("invalid", message=message)

    def run(self) -> None:
        try:
            self._run()
        except (Cancelled, TimeLimitExceeded) as e:
            if self.cancel.is_set() or isinstance(e, Cancelled):
                self.send("canceled")
            else:
                self.invalid(f"time limit: {e}")
        except BadMessage as e:
            self.invalid(str(e))
        except Contradiction as e:
            self.invalid(f"No solutions found: {e}")
        except SudokuCSPError as e:
            self.invalid(str(e))
        except RecursionError:
            self.invalid("the puzzle data is nested too deeply")
        except Exception as e:     # a bug: one line to the client, the traceback to stderr
            import traceback
            traceback.print_exc(file=sys.stderr)
            self.invalid(f"internal error: {type(e).__name__}: {e}")
        finally:
            self.done.set()

    # -- the commands ------------------------------------------------------------------
    def _run(self) -> None:
        cmd = self.command
        if cmd not in COMMANDS or cmd == "cancel":
            raise BadMessage(f"unknown command {quoted(cmd)}")
        obj = _puzzle_data(self.msg)
        from ..formats.fpuzzles import load_fpuzzles
        p = load_fpuzzles(obj)
        p.freeze()
        run = {"truecandidates": self._truecandidates, "solve": self._solve,
               "check": self._check, "count": self._count, "estimate": self._estimate,
               "solvepath": self._solvepath, "step": self._step}[cmd]
        run(p, obj)

    def _truecandidates(self, p: Puzzle, obj: dict) -> None:
        from .candidates import true_candidates
        cap, logical = 1, False
        opts = obj.get("truecandidatesoptions")
        for opt in opts if isinstance(opts, list) else ():
            o = str(opt).lower()
            if o.startswith("truecandidatesnumsolutions="):
                text = o.partition("=")[2].strip()
                if not (text.isascii() and text.isdigit()):
                    raise BadMessage(f"truecandidatesnumsolutions={quoted(text, 40)}: expected "
                                     "a whole number of solutions")
                if len(text) > 30:
                    raise BadMessage(f"truecandidatesnumsolutions={quoted(text, 40)}: "
                                     "too large")
                if int(text) > 0:
                    cap = int(text)
            elif o == "colored":
                cap = max(cap, 8)
            elif o == "logical":
                logical = True
        key = None
        if self.cache is not None:
            key = json.dumps([obj.get("grid"), {k: v for k, v in obj.items() if k != "grid"},
                              cap, logical], sort_keys=True, default=str)
            hit = self.cache.get(key)
            if hit is not None:
                self.send("truecandidates", solutionsPerCandidate=hit)
                return
        res = true_candidates(p, cap=cap, logical=logical,
                              techniques=technique_selection(obj.get("disabledlogic")),
                              cancel=self.cancel, time_limit=self.time_limit)
        if not res.complete:
            if self.cancel.is_set():
                raise Cancelled("canceled")
            raise TimeLimitExceeded(f"true candidates stopped after {self.time_limit} s")
        if res.status == "unsolvable":
            self.invalid("No solutions found.")
            return
        flat = res.solutions_per_candidate()
        if key is not None:
            self.cache.put(key, flat)
        self.send("truecandidates", solutionsPerCandidate=flat)

    def _solve(self, p: Puzzle, obj: dict) -> None:
        from csp.solutions import iter_solutions
        for values in iter_solutions(p, cancel=self.cancel, time_limit=self.time_limit):
            self.send("solved", solution=values)
            return
        self.invalid("No solutions found.")

    def _counting(self, p: Puzzle, limit: int | None) -> None:
        from csp.solutions import count_solutions
        last = [time.perf_counter()]

        def progress(k: int) -> None:
            if time.perf_counter() - last[0] >= STREAM_EVERY and not self.cancel.is_set():
                last[0] = time.perf_counter()
                self.send("count", count=k, inProgress=True)

        res = count_solutions(p, limit=limit, cancel=self.cancel, progress=progress,
                              time_limit=self.time_limit)
        self.send("count", count=res.count, inProgress=False)

    def _check(self, p: Puzzle, obj: dict) -> None:
        self._counting(p, 2)

    def _count(self, p: Puzzle, obj: dict) -> None:
        self._counting(p, None)

    def _estimate(self, p: Puzzle, obj: dict) -> None:
        from csp.solutions import Estimate, estimate_count
        last = [0.0]

        def finite(x: float) -> float | None:   # JSON has no infinity: null instead
            return x if x == x and abs(x) != float("inf") else None

        def say(est: Estimate) -> None:
            self.send("estimate", estimate=est.estimate, stderr=finite(est.stderr),
                      iterations=est.samples, ci95_lower=est.low,
                      ci95_upper=finite(est.high), relErrPercent=finite(est.rel_err))

        def progress(est: Estimate) -> None:
            if (est.samples >= 2 and time.perf_counter() - last[0] >= STREAM_EVERY
                    and not self.cancel.is_set()):
                last[0] = time.perf_counter()
                say(est)

        est = estimate_count(p, samples=10 ** 12, seed=None, cancel=self.cancel,
                             time_limit=self.time_limit, progress=progress)
        if self.cancel.is_set():
            raise Cancelled("canceled")
        say(est)                       # an exact count, or the last word at a time limit

    def _logic_state(self, p: Puzzle, obj: dict) -> tuple[State, bool]:
        """The board of a logic command: givens, the player's digits and centre marks (a
        cell's marks narrow its candidates). Second: the marks already are the candidates
        that placing the digits leaves (else a step first shows those)."""
        from csp.links import link_tables

        from ..formats.fpuzzles.read import to_int
        n = p.grid.n
        st = p.initial_state()
        links = link_tables(p)
        marks_given = True
        rows = obj["grid"]
        for c in range(p.grid.size):
            cell = rows[c // n][c % n]
            v = cell.get("value")
            if st.placed[c] or v in (None, "", 0):
                continue
            try:               # as the reader takes a given: 3, 3.0 or "3"; never 1.5 or true
                d = to_int(v, f"R{c // n + 1}C{c % n + 1}: value")
            except SudokuCSPError:
                raise BadMessage(f"R{c // n + 1}C{c % n + 1}: value {quoted(v, 40)} is not a "
                                 f"digit") from None
            if not 1 <= d <= n:
                raise BadMessage(f"R{c // n + 1}C{c % n + 1}: value {d} is not a digit 1..{n}")
            if not st.cand[c] >> d & 1:
                raise Contradiction(f"{p.grid.name(c)}={d} breaks a rule", "board", (c,))
            st.place(c, d)
        for c in range(p.grid.size):
            if st.placed[c]:
                for c2, d2 in links.weak_neighbours(c, st.placed[c]):
                    if not st.placed[c2]:
                        st.cand[c2] &= ~(1 << d2)
                    elif st.placed[c2] == d2:
                        raise Contradiction(f"{p.grid.name(c)}={st.placed[c]} and "
                                            f"{p.grid.name(c2)}={d2} break a rule", "board",
                                            (c, c2))
        base = list(st.cand)
        for c in range(p.grid.size):
            if st.placed[c]:
                continue
            cell = rows[c // n][c % n]
            marks = cell.get("centerPencilMarks")
            if marks is not None and not isinstance(marks, list):
                raise BadMessage(f"R{c // n + 1}C{c % n + 1}: centerPencilMarks must be a "
                                 f"list of digits, not {quoted(marks, 40)}")
            if marks:
                m = 0
                for x in marks:     # a mark that is no digit would wrongly empty the cell
                    try:
                        d = to_int(x, "mark")
                    except SudokuCSPError:
                        d = 0
                    if not 1 <= d <= n:
                        raise BadMessage(f"R{c // n + 1}C{c % n + 1}: centerPencilMarks holds "
                                         f"{quoted(x, 40)}, not a digit 1..{n}")
                    m |= 1 << d
                if m & ~base[c]:       # marks the placed digits already rule out
                    marks_given = False
                st.cand[c] &= m
            else:                      # no marks: every candidate still to be written
                marks_given = False
            if not st.cand[c]:
                raise Contradiction(f"{p.grid.name(c)} has no candidate left", "board", (c,))
        st.version += 1
        return st, marks_given

    def _logical(self, st: State, message: str, valid: bool) -> None:
        n = st.grid.n
        cells = []
        for c in range(st.grid.size):
            m = st.cand[c]
            if st.placed[c]:
                cells.append({"value": st.placed[c]})
            else:
                cells.append({"value": 0, "candidates": [d for d in range(1, n + 1) if m >> d & 1]})
        if not message.endswith("\n"):
            message += "\n"
        if not valid:
            message += "Board is invalid!\n"
        self.send("logical", cells=cells, message=message.lstrip(), isValid=valid)

    def _logic_run(self, p: Puzzle, obj: dict, max_steps: int) -> None:
        from techniques import StepSolver
        st, marked = self._logic_state(p, obj)
        if max_steps == 1 and not marked:
            self._logical(st, "Initial candidates.", True)
            return
        solver = StepSolver(technique_selection(obj.get("disabledlogic")))
        run = solver.start(st, time_limit=self.time_limit, copy=False)
        lines = []
        for step in run:
            lines.append(step.explain(2))
            if self.cancel.is_set():
                raise Cancelled("canceled")
            if len(lines) >= max_steps:
                break
        if self.cancel.is_set():
            raise Cancelled("canceled")
        valid = run.status != "unsolvable"
        if not valid and run.reason:
            lines.append(str(run.reason))
        if not lines and valid:
            lines.append("No logical steps found." if not all(run.state.placed)
                         else "The puzzle is solved.")
        self._logical(run.state, "\n".join(lines), valid)

    def _solvepath(self, p: Puzzle, obj: dict) -> None:
        self._logic_run(p, obj, 100_000)

    def _step(self, p: Puzzle, obj: dict) -> None:
        self._logic_run(p, obj, 1)


class _Cache:
    """The last answers to true-candidate questions (the userscript asks again after every
    edit, and undo brings old boards back)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.items: OrderedDict[str, list[int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> list[int] | None:
        with self.lock:
            v = self.items.get(key)
            if v is not None:
                self.items.move_to_end(key)
            return v

    def put(self, key: str, value: list[int]) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


def handle_sync(msg: dict | str, time_limit: float | None = None) -> list[dict]:
    """The replies to one message, run here and now (no server): for tests and scripts."""
    out: list[dict] = []
    try:
        m = parse_message(msg) if isinstance(msg, str) else msg
    except BadMessage as e:
        return [{"nonce": None, "type": "invalid", "message": str(e)}]
    if m.get("command") == "cancel":
        return [{"nonce": _nonce(m), "type": "canceled"}]
    Job(m, out.append, time_limit=time_limit).run()
    return out


#: the warm-up of :func:`ready_process`: a classic puzzle with three solutions (true
#: candidates with counts, a count, a solve), small enough to take a few milliseconds
WARM_UP = "..3.2.6.....3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def ready_process(freeze: bool = True) -> int:
    """Ready a long-lived process (``sudoku-csp listen``'s) for setter calls, and return the
    number of objects moved out of the collector's reach (0 with ``freeze=False``).

    First it answers a small job of each kind (:data:`WARM_UP`: true candidates with
    counts, a count, a solve), which imports what the jobs import and fills the kernels'
    and the rules' lazy tables, so the first real message does not pay for them. Then
    ``gc.freeze()`` moves every object alive (the modules, their functions, classes and
    tables: about 30,000) into the collector's permanent generation. The calls pause the
    collector while they run (:func:`csp.budget.gc_paused`), but the objects a call keeps
    until it returns are promoted, and every so often that makes the collector walk the
    whole old generation: 6-17 ms at once, landing on whichever call was running, about
    once in 500 workbench calls (measured: a replay of the workbench's 540 calls in one
    process, ``gc.callbacks``). Frozen, those start-up objects are never walked again
    (their cycles, if any, are never freed: they live as long as the process anyway).

    >>> import gc
    >>> moved = ready_process()
    >>> moved > 1000 and gc.get_freeze_count() > moved // 2
    True
    >>> gc.unfreeze()
    """
    from csp import sat

    from ..formats.fpuzzles import to_fpuzzles
    from .candidates import load_puzzle
    sat.available()                     # imports PySAT (the SAT path's), if installed
    doc = to_fpuzzles(load_puzzle(WARM_UP))
    replies: list[dict] = []
    for command in ("truecandidates", "count", "solve"):
        doc["truecandidatesoptions"] = ["truecandidatesnumsolutions=8"]
        replies += handle_sync({"nonce": 0, "command": command, "dataType": "fpuzzles",
                                "data": json.dumps(doc)})
    if any(r.get("type") == "invalid" for r in replies):      # a broken install says so now
        raise RuntimeError(f"the warm-up job failed: {replies}")
    if not freeze:
        return 0
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


class _Connection:
    """One client: a sender task writing queued replies in order, and at most one job."""

    def __init__(self, ws: Any, server: "ListenServer") -> None:
        self.ws = ws
        self.server = server
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[dict | None] = asyncio.Queue()
        self.job: Job | None = None

    def send(self, reply: dict) -> None:
        """Queue a reply (from any thread)."""
        self.loop.call_soon_threadsafe(self.queue.put_nowait, reply)

    async def sender(self) -> None:
        while True:
            reply = await self.queue.get()
            if reply is None:
                return
            try:
                await self.ws.send(json.dumps(reply))
            except Exception:          # the client went away: drop the rest
                return

    def stop_job(self) -> "Job | None":
        """Cancel the running job (if any) and return it."""
        old, self.job = self.job, None
        if old is not None:
            old.cancel.set()
        return old

    def receive(self, text: str | bytes) -> None:
        srv = self.server
        try:
            msg = parse_message(text, srv.max_message)
        except BadMessage as e:
            self.send({"nonce": None, "type": "invalid", "message": str(e)})
            return
        old = self.stop_job()          # one job per connection: a new message cancels it
        if msg.get("command") == "cancel":
            self.send({"nonce": _nonce(msg), "type": "canceled"})
            return
        job = self.job = Job(msg, self.send, srv.cache, srv.time_limit)
        if srv.verbose:
            print(f"{job.command} nonce={job.nonce}", file=sys.stderr, flush=True)
        threading.Thread(target=_after, args=(old, job), name=f"listen-{job.command}",
                         daemon=True).start()


#: how long a new job waits for the job it cancelled to answer ``canceled`` (a cancelled
#: search stops at its next check, well within this)
CANCEL_WAIT = 5.0


def _after(old: "Job | None", job: "Job") -> None:
    """Run ``job`` once the job it replaced has answered (``canceled``), so a client sees
    the old job's last reply before the new one's first, whatever the load."""
    if old is not None:
        old.done.wait(CANCEL_WAIT)
    job.run()


class ListenServer:
    """``sudoku-csp listen``: a websocket server on ``host:port`` (``localhost``: every
    loopback address it names, IPv4 and IPv6, so the userscript's ``ws://localhost:4545``
    finds it either way; port 0: any free one, :attr:`port` says which -- give one address
    then). :meth:`serve_forever` runs it in this thread; :meth:`start`
    in a background thread (then :meth:`stop`)."""

    def __init__(self, host: str = "localhost", port: int = DEFAULT_PORT,
                 max_message: int = MAX_MESSAGE, time_limit: float | None = None,
                 verbose: bool = False) -> None:
        self.host = host
        self.port = port
        self.max_message = max_message
        self.time_limit = time_limit
        self.verbose = verbose
        self.cache = _Cache()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    async def _handler(self, ws: Any) -> None:
        conn = _Connection(ws, self)
        sender = asyncio.create_task(conn.sender())
        try:
            async for text in ws:
                conn.receive(text)
        except Exception:               # a broken connection ends quietly
            pass
        finally:
            conn.stop_job()
            conn.queue.put_nowait(None)
            await sender

    async def _main(self, on_ready: Callable[[], None] | None = None) -> None:
        from websockets.asyncio.server import serve
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with serve(self._handler, self.host, self.port,
                         max_size=max(TRANSPORT_MAX, self.max_message * 2)) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            if on_ready is not None:
                on_ready()
            await self._stop.wait()

    def serve_forever(self, on_ready: Callable[[], None] | None = None) -> None:
        """Serve until interrupted (``on_ready()`` once listening)."""
        asyncio.run(self._main(on_ready))

    def start(self) -> "ListenServer":
        """Serve in a background thread; returns once listening (raises what failed)."""
        def target() -> None:
            try:
                asyncio.run(self._main())
            except BaseException as e:  # noqa: BLE001 - reported to start()
                self._error = e
                self._ready.set()
        self._thread = threading.Thread(target=target, name="listen", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"
