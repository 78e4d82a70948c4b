"""Declared contracts between the layers: constraint hooks with defaults, relation kinds,
derived caches, SUBSUMED, the shared solve status, bit helpers."""
from __future__ import annotations

from csp import Grid, Puzzle
from csp.constraints import Less
from csp.engine import Engine
from csp.events import Cost, Event, Status
from csp.propagator import Context, Propagator

from conftest import ROOT


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
    root = ROOT
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


# -- constraint hooks -------------------------------------------------------------------------
#: getattr / hasattr calls that are not hook probes: (file, the call's source)
_REFLECTION = {
    # PEP 562 lazy names: a module attribute by name
    ("techniques/__init__.py", "getattr(_module(mod), name)"),
    ("csp/constraints/__init__.py", "getattr(_module(mod), name)"),
    ("csp/__init__.py", "getattr(constraints, name)"),
    ("variants/__init__.py", "getattr(importlib.import_module(f'{__name__}.{mod}'), name)"),
    # a user's predicate may be any callable (functools.partial has no __name__)
    ("csp/model.py", "getattr(pred, '__name__', 'function')"),
    ("csp/constraints/function.py", "getattr(pred, '__name__', 'function')"),
    # Puzzle.use: a rule bundle is an object with apply(puzzle) or a plain callable, and a
    # rule that cannot be built is named by the callable's name or the bundle's class
    ("csp/model.py", "hasattr(b, 'apply')"),
    ("csp/model.py", "getattr(b, '__name__', None)"),
    # Puzzle.check_cell_lists: a bundle may declare which of its attributes hold cell lists
    # (``cell_lists``, names read by reflection) and whether they may close a loop; a bundle
    # is a plain object with no base class to declare defaults on (issue 28's rule record
    # is to hold these declarations)
    ("csp/model.py", "getattr(bundle, 'cell_lists', ())"),
    ("csp/model.py", "getattr(bundle, 'closed_loop', False)"),
    ("csp/model.py", "getattr(bundle, attr, None)"),
    ("csp/model.py", "getattr(bundle, '__name__', None)"),
    # csp.sat.new_solver: PySAT's C handle of a Glucose or MiniSat solver and the C
    # module's add-clause function for it (``_RAW``), when this PySAT has them (a fallback
    # to the public API otherwise)
    ("csp/sat.py", "getattr(getattr(solver, 'solver', None), attr, None)"),
    ("csp/sat.py", "getattr(solver, 'solver', None)"),
    ("csp/sat.py", "getattr(pysolvers, fn)"),
}


def test_no_hook_is_probed_with_getattr():
    """The library calls declared hooks (csp.constraints.Constraint declares every one with a
    default); getattr / hasattr appear only for the reflection listed above."""
    import ast
    root = ROOT
    found = set()
    for pkg in ("csp", "techniques", "variants"):
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("getattr", "hasattr", "setattr")):
                    found.add((path.relative_to(root).as_posix(), ast.unparse(node)))
    assert found - _REFLECTION == set()


def test_no_private_attribute_is_set_from_outside():
    """Nothing sets an underscore attribute on an object other than ``self`` (the old
    per-puzzle caches): derived tables go through Puzzle.derived / LinkTables.derived."""
    import ast
    root = ROOT
    found = []
    for pkg in ("csp", "techniques", "variants", "sudoku_csp"):
        for path in sorted((root / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                targets = (node.targets if isinstance(node, ast.Assign) else
                           [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                           else [])
                for t in targets:
                    for sub in ast.walk(t):
                        if (isinstance(sub, ast.Attribute) and sub.attr.startswith("_")
                                and not sub.attr.startswith("__")
                                and ast.unparse(sub.value) not in ("self", "cls")):
                            found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []


def test_a_bare_constraint_has_every_hook():
    from csp.constraints import Constraint

    class Odd(Constraint):
        kind = "odd"

        def __init__(self, cell: int) -> None:
            self.cells = (cell,)
            self.name = "odd"

        def check(self, v: int) -> bool:
            return v % 2 == 1

        def unary_mask(self) -> int | None:
            return 0b1010101010

    p = Puzzle(Grid(4)).add_grid_houses().add(Odd(0))
    assert p.initial_state().candidates(0) == (1, 3)
    assert p.count_solutions(limit=1000) == 144
    assert p.count_solutions(limit=1000, method="sat") == 144
    assert len(p.to_problem().getSolutions()) == 144
    assert p.constraint_graph().nodes[f"k{len(p.constraints) - 1}"]["kind"] == "odd"


# -- relation kinds ---------------------------------------------------------------------------
def test_relations_state_their_kind():
    from csp import RelationKind as K
    from csp.constraints import (AbsDiff, AllowedPairs, Equal, LessEqual, NotAbsDiff,
                                 NotEqual, NotRatio, Ratio, Relation)
    p = Puzzle(Grid(4))
    a, b = p["r1c1"], p["r1c2"]
    made = [a < b, a > b, a <= b, a >= b, a == b, a != b, Less(0, 1), LessEqual(0, 1),
            Equal(0, 1), NotEqual(0, 1), AbsDiff(0, 1, 2), NotAbsDiff(0, 1), Ratio(0, 1, 3),
            NotRatio(0, 1), AllowedPairs(0, 1, [(1, 2)])]
    assert [(r.relation, r.param) for r in made] == [
        (K.LT, None), (K.LT, None), (K.LE, None), (K.LE, None), (K.EQ, None), (K.NE, None),
        (K.LT, None), (K.LE, None), (K.EQ, None), (K.NE, None), (K.ABS_DIFF, 2),
        (K.NOT_ABS_DIFF, 1), (K.RATIO, 3), (K.NOT_RATIO, 2), (K.PAIRS, frozenset({(1, 2)}))]
    assert (a > b).cells == (1, 0)
    # a custom relation whose cache key happens to read like a built-in one is no "<":
    # the ordering bounds must not take r1c1 > r1c2 for r1c1 < r1c2
    odd = Relation(0, 1, lambda x, y: x > y, ">", ("lt",))
    assert odd.relation is K.CUSTOM
    from variants import less_than
    q = Puzzle(4).add_grid_houses().use(less_than("r1c3", "r1c4")).add(odd)
    assert q.count_solutions(limit=1000) == q.count_solutions(limit=1000, method="sat") > 0


def test_no_relation_is_read_through_its_cache_key():
    import re
    root = ROOT
    # c.key == ("lt",), kind, d = c.key, ("absdiff", d)
    pattern = re.compile(r"\.key\s*==|\.key\[|= c\.key|\(\"(lt|le|eq|ne)\",\)"
                         r"|\(\"(absdiff|notabsdiff|ratio|notratio)\", \w+\)")
    hits = [f"{path.relative_to(root)}:{i}"
            for pkg in ("csp", "techniques", "variants", "sudoku_csp")
            for path in sorted((root / pkg).rglob("*.py"))
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if pattern.search(line)]
    assert hits == []


# -- derived caches ---------------------------------------------------------------------------
def test_derived_tables_are_kept_per_builder():
    calls = []

    def count_givens(p):              # two builders with one name: two entries
        calls.append("a")
        return len(p.given)

    def other():
        def count_givens(p):
            calls.append("b")
            return -1
        return count_givens

    p = Puzzle(Grid(4)).add_grid_houses().givens("12..............")
    assert not p.frozen
    assert p.derived(count_givens) == 2 and p.frozen
    assert p.derived(count_givens) == 2 and p.derived(other()) == -1
    assert calls == ["a", "b"]
    q = Puzzle(Grid(4)).add_grid_houses()
    assert q.derived(count_givens) == 0 and calls == ["a", "b", "a"]


def test_link_tables_are_derived_and_shared_by_layout():
    from csp.links import LinkTables, link_tables
    from variants.classic import classic_puzzle
    p, q = classic_puzzle("1" + "." * 80), classic_puzzle("." * 80 + "9")
    t = link_tables(p)
    assert isinstance(t, LinkTables) and link_tables(q) is t      # one house layout

    def full_count(links):
        return len(links.full)

    assert t.derived(full_count) == 27 and link_tables(q).derived(full_count) == 27
    import pickle
    assert pickle.loads(pickle.dumps(t)).derived(full_count) == 27
