"""Declared contracts between the layers: constraint hooks with defaults, relation kinds,
derived caches, SUBSUMED, the shared solve status, bit helpers."""
from __future__ import annotations

from csp import Grid, Puzzle
from csp.constraints import Less
from csp.engine import Engine
from csp.events import Cost, Event, Status
from csp.propagator import Context, Propagator


class _Counting(Propagator):
    """Removes nothing; counts its runs and answers ``status``."""

    cost = Cost.BINARY
    events = Event.DOM

    def __init__(self, scope: tuple[int, ...], status: Status) -> None:
        self.scope = scope
        self.name = f"count-{status.value}"
        self.status = status
        self.runs = 0

    def propagate(self, ctx: Context) -> Status:
        self.runs += 1
        return self.status


class _Shrink(Propagator):
    """Removes the highest digit of cell 0 on each run while it has more than one left
    (one removal per run, so it is woken again: NOFIX); dearer than the counters, so they
    run between its runs."""

    cost = Cost.LINEAR
    events = Event.DOM
    scope = (0,)
    name = "shrink"

    def propagate(self, ctx: Context) -> Status:
        m = ctx.cand[0]
        if m & (m - 1):
            ctx.remove(0, 1 << (m.bit_length() - 1))
        return Status.NOFIX


def test_engine_does_not_wake_a_subsumed_propagator_again():
    n = 9
    fix = _Counting((0,), Status.FIX)
    sub = _Counting((0,), Status.SUBSUMED)
    eng = Engine(n, 2, [], [_Shrink(), fix, sub])
    cand = [((1 << n) - 1) << 1] * 2
    eng.propagate(cand, None)
    assert cand[0] == 1 << 1                 # cell 0 shrank eight times, one digit a run
    assert sub.runs == 1                     # entailed at once: never woken again
    assert fix.runs == 9                     # FIX: woken by each of the eight removals
    cand = [((1 << n) - 1) << 1] * 2
    eng.propagate(cand, None)                # a new call runs it afresh, once
    assert sub.runs == 2


def test_less_is_subsumed_once_entailed_and_stays_sound():
    p = Puzzle(Grid(4)).add_grid_houses()
    p.add(Less(p.cell("r1c1"), p.cell("r1c2")))
    (prop,) = p.engine().props
    cand = [0b11110] * 16
    assert prop.propagate(Context(cand)) is Status.FIX        # 1..4 vs 1..4: 1 < 2 ...
    assert cand[0] == 0b01110 and cand[1] == 0b11100
    cand[0], cand[1] = 0b00110, 0b11000                     # {1,2} < {3,4}: entailed
    assert prop.propagate(Context(cand)) is Status.SUBSUMED
    # the search (engine, SUBSUMED honoured) and the SAT solver (no propagators) agree
    assert (p.count_solutions(limit=1000, method="search")
            == p.count_solutions(limit=1000, method="sat") > 0)


def test_one_solve_status_for_search_logic_cli_and_batch():
    import json

    from csp import SolveStatus
    from sudoku_csp.batch import STATUSES
    from techniques import StepSolver
    p = Puzzle(Grid(4)).add_grid_houses().givens("1...............")
    r = p.solve()
    assert r.status is SolveStatus.MULTIPLE and r.status == "multiple"
    assert json.dumps({"status": r.status}) == '{"status": "multiple"}'
    logic = StepSolver().solve(Puzzle(Grid(4)).add_grid_houses().givens("12..34..21..43.."))
    assert type(logic.status) is SolveStatus
    assert STATUSES == ("solved", "stuck", "unsolvable", "multiple", "limit", "error")
    assert [type(s) for s in STATUSES] == [str] * 6


def _is_bit_walk(fn) -> bool:
    """A small function that walks the set bits of a mask and yields / collects each bit's
    index (``low = m & -m`` ... ``low.bit_length() - 1``): a copy of csp.bits.iter_bits."""
    import ast
    if len(fn.body) > 6:
        return False
    for loop in ast.walk(fn):
        if not isinstance(loop, ast.While) or " & -" not in ast.unparse(loop):
            continue
        for node in ast.walk(loop):
            value = None
            if isinstance(node, ast.Yield):
                value = node.value
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "append" and len(node.args) == 1):
                value = node.args[0]
            if value is not None and ast.unparse(value).endswith(".bit_length() - 1"):
                return True
    return False


def test_bit_iteration_has_one_home():
    import ast
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    copies = []
    for pkg in ("csp", "techniques", "variants", "sudoku_csp"):
        for path in sorted((root / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for fn in ast.walk(tree):
                if isinstance(fn, ast.FunctionDef) and _is_bit_walk(fn):
                    copies.append(f"{path.relative_to(root)}:{fn.name}")
    assert copies == ["csp/bits.py:iter_bits", "csp/bits.py:digits_of"]


def test_bit_walk_probe_sees_a_copy():
    import ast
    src = ("def _bits(m):\n    out = []\n    while m:\n        low = m & -m\n"
           "        out.append(low.bit_length() - 1)\n        m ^= low\n    return out\n")
    assert _is_bit_walk(ast.parse(src).body[0])
