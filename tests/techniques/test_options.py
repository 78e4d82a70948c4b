"""Technique options declared once (issue 28, item 3): each technique declares its options
(default, meaning, type) at registration; finders read them through the declaration;
a caller's undeclared option is an error naming it; `sudoku-csp techniques --json` shows
them; the ladder is ordered by its rows' places."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import variants  # noqa: F401  (the rule families' techniques declare options too)
from csp.errors import SudokuCSPError
from sudoku_csp.cli import main
from techniques import StepSolver, ladder, registry
from techniques.registry import Option, Options, UnknownOption, check_options, ladder_order
from techniques.loop import Run
from techniques.se_rating import SESolver
from variants.classic import classic_puzzle

ROOT = Path(__file__).resolve().parents[2]
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


# -- a caller's options -------------------------------------------------------------------
@pytest.mark.parametrize("make", [
    lambda o: StepSolver(options=o),
    lambda o: SESolver(options=o),
    lambda o: Run(classic_puzzle(EASY), options=o),
])
def test_an_undeclared_option_is_an_error_naming_it(make):
    with pytest.raises(UnknownOption, match=r"'max_lenght'; did you mean 'max_length'") as e:
        make({"max_lenght": 8})
    assert isinstance(e.value, SudokuCSPError) and "\n" not in str(e.value)


def test_a_value_of_the_wrong_type_is_an_error():
    with pytest.raises(UnknownOption, match="'max_length' must be int"):
        StepSolver(options={"max_length": "long"})
    with pytest.raises(UnknownOption, match="'shortest' must be bool"):
        check_options({"shortest": 1})
    # an int where a float is declared, None where the default is None
    assert check_options({"seconds": 5, "max_n": None}) == {"seconds": 5, "max_n": None}


def test_a_declared_option_reaches_the_finder():
    """max_length bounds the chains: 4 links leave the AIC of this state out."""
    from techniques.reglib import case_state, parse_case
    st = case_state(parse_case(":0701:7:3.4+52..8...6.+9.....5..7.3.....68+9.2+3...+734"
                               "....6+315+27...1.+9+6......9.+4..6.+6.8217..5::742::5"))
    long_ = StepSolver(options={"max_length": 20}).find_all(st, "x_chain")
    short = StepSolver(options={"max_length": 4}).find_all(st, "x_chain")
    assert long_ and len(short) < len(long_)


def test_cli_undeclared_option_exits_2_with_one_line(capsys):
    rc = main(["solve", EASY, "--logic", "--option", "max_lenght=8"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("sudoku-csp: error:")
    assert "'max_lenght'" in err and "did you mean 'max_length'" in err
    rc = main(["solve", EASY, "--logic", "--option", "max_length"])
    out, err = capsys.readouterr()
    assert rc == 2 and err.count("\n") == 1 and "KEY=VALUE" in err


def test_cli_declared_option_is_used(capsys):
    rc = main(["solve", EASY, "--logic", "--json", "--steps", "--option", "max_length=8",
               "--option", "types=1"])
    out, _ = capsys.readouterr()
    assert rc == 0 and json.loads(out)["status"] == "solved"


# -- the declarations ---------------------------------------------------------------------
def test_every_declared_option_is_in_techniques_json(capsys):
    assert main(["techniques", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(registry.load())
    for t in registry.load().values():
        got = {o["name"]: o for o in rows[t.name]["options"]}
        assert set(got) == set(t.options), t.name
        for k, o in t.options.items():
            default = list(o.default) if isinstance(o.default, tuple) else o.default
            assert got[k]["default"] == default and got[k]["meaning"] == o.meaning
            assert o.meaning.strip(), (t.name, k)
        # the fields the CLI contract had before options are all still there
        assert {"name", "title", "family", "code", "score", "level", "enabled",
                "requires_unique"} <= set(rows[t.name])


def test_text_form_lists_options_on_request(capsys):
    assert main(["techniques"]) == 0
    plain = capsys.readouterr().out.splitlines()
    assert len(plain) == len(registry.load())
    assert main(["techniques", "--options"]) == 0
    lines = capsys.readouterr().out.splitlines()
    aic = lines.index(next(x for x in lines if x.startswith("aic ")))
    assert lines[aic + 1].strip().startswith("max_length=20: ")


def _sources() -> list[Path]:
    """The technique modules, those of the packages within ``techniques`` included."""
    return sorted((ROOT / "techniques").rglob("*.py")) + sorted(
        (ROOT / "variants").glob("*_logic.py"))


def _module_name(path: Path) -> str:
    """``techniques.forcing.scans`` for techniques/forcing/scans.py."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_inline_option_default_is_left():
    """Finders read options through their declaration, never ``opts.get(key, default)``
    (only the accessor itself, in the registry, looks a key up)."""
    bad = []
    for path in _sources():
        if path.name == "registry.py":
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\b(opts|options)\.get\(", line):
                bad.append(f"{path.name}:{i}: {line.strip()}")
    assert bad == []


def test_every_option_a_finder_reads_is_declared():
    """Static: every ``DECL.read(opts, "key")`` names a key its declaration holds, and the
    declaration is a technique's (or a part of one)."""
    import importlib
    declared = {k for t in registry.load().values() for k in t.options}
    reads = 0
    for path in _sources():
        mod = importlib.import_module(_module_name(path))
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "read" and isinstance(node.func.value, ast.Name)
                    and len(node.args) == 2 and isinstance(node.args[1], ast.Constant)):
                decl = getattr(mod, node.func.value.id, None)
                if not isinstance(decl, Options):
                    continue
                key = node.args[1].value
                assert key in decl, f"{path.name}:{node.lineno}: {key!r} not in its declaration"
                assert key in declared, f"{path.name}:{node.lineno}: {key!r}"
                reads += 1
    assert reads >= 90


def test_the_accessor_refuses_an_undeclared_read():
    decl = Options(max_length=Option(20, "longest chain", int))
    assert decl.read({}, "max_length") == 20 and decl.read({"max_length": 3}, "max_length") == 3
    with pytest.raises(KeyError, match="not declared"):
        decl.read({"other": 1}, "other")


def test_register_wants_declarations_and_sized_options_declared(monkeypatch):
    # the real techniques register first: with SIZED patched below, a first load inside
    # this test would fail on the real x_wing and leave this worker without a registry
    registry.load()
    with pytest.raises(TypeError, match="Option"):
        registry.register("x_wing", "X-Wing", "fish", options={"max_fins": 5})
    monkeypatch.setitem(ladder.SIZED, "x_wing", {"max_fins": {16: 2}})
    with pytest.raises(ValueError, match="SIZED gives max_fins"):
        registry.register("x_wing", "X-Wing", "fish", options={})
    # every SIZED option of the real table is declared by its technique
    for name, sized in ladder.SIZED.items():
        if name != "x_wing":
            assert set(sized) <= set(registry.get(name).options), name


def test_sized_options_come_from_the_declarations():
    t = registry.get("aic")
    assert t.options_at(9)["max_length"] == t.options["max_length"].default
    assert t.options_at(16)["max_length"] < t.options["max_length"].default


# -- the ladder by place ------------------------------------------------------------------
def test_order_unchanged_from_main():
    """The order of techniques (default selection, all, the variant ladders) is the one
    main had before the ladder lost its hand-numbered orders (recorded at d73074f)."""
    want = json.loads((ROOT / "tests/data/ladder-order-main.json").read_text())
    assert [t.name for t in registry.select("default")] == want["default"]
    alls = registry.select("all")
    assert [t.name for t in alls] == want["all"]
    assert [t.name for t in sorted(alls, key=lambda t: ladder_order(t, True))] == want["variant"]
    assert [t.name for t in sorted(alls, key=lambda t: ladder_order(t, True, True))] == \
        want["variant_jigsaw"]


def test_a_row_is_inserted_without_renumbering():
    rows = [(r.name, r.hodoku, r.score, r.level, r.on, r.se, r.tags) for r in ladder.LADDER]
    at = [r[0] for r in rows].index("x_wing")
    rows.insert(at, ("new_technique", None, 100, "hard", True, None, 0))
    new = ladder._orders(tuple(rows))
    names = [r.name for r in new]
    orders = [r.order for r in new]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert names.index("new_technique") == at
    old = {r.name: r.order for r in ladder.LADDER}
    assert all(r.order == old[r.name] for r in new if r.hodoku is not None)


def test_the_variant_tuples_come_from_the_ladder_tags():
    assert ladder.JIGSAW_KEEP == {r.name for r in ladder.LADDER if r.tags & ladder.JIG}
    assert ladder.CLASSIC_SKIP == {r.name for r in ladder.LADDER if r.tags & ladder.RULES}
    late = [r.name for r in ladder.LADDER if r.tags & ladder.LATE]
    assert list(ladder.VARIANT_ORDER) == late and ladder.JIGSAW_KEEP <= set(late)
    pos = ladder.VARIANT_POSITION[False]
    after = pos[ladder.VARIANT_LATE_AFTER]
    assert sorted(pos[n] for n in late) == list(range(after + 1, after + 1 + len(late)))
