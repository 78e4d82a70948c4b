"""Layering: csp <- techniques <- variants <- sudoku_csp (the application); imports go one way.

Three checks:

* static: no import statement in csp/, techniques/ or variants/ (at module level, inside a
  function or under ``TYPE_CHECKING``) and no ``importlib.import_module`` / ``__import__``
  call names a higher layer or an application-only dependency; csp and techniques make no
  dynamic import at all, variants only of its own modules;
* lazy paths, in a fresh interpreter: everything a layer can do (solve by search and SAT,
  propagate, pencil marks, graphs, interop, the display hooks, the human solver ...) loads no
  module of a higher layer;
* the three library layers, imported and used, load no application module (CLI, commands,
  formats, rendering, batch, generator) and none of the application's own dependencies
  (tqdm, dask, distributed, cairosvg).

``multiprocessing`` is not on the list: it is the standard library's, and a dependency of the
library may use it; the batch module that does is an application module, which is checked.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

#: the layers, lowest first: a module may import its own layer and the ones before it
LAYERS = ("csp", "techniques", "variants", "sudoku_csp")
LIBRARY = LAYERS[:3]
#: third-party packages only the application may use
APP_ONLY = ("tqdm", "dask", "distributed", "cairosvg", "websockets")
#: module names that are application work wherever they sit
APP_NAMES = ("cli", "commands", "batch", "render", "generate", "formats", "loader",
             "fpuzzles", "spec", "convert", "hint", "__main__")
#: dynamic-import calls
DYNAMIC = ("import_module", "__import__")


# -- static ---------------------------------------------------------------------------------
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an ``ImportFrom`` reads (relative levels resolved)."""
    if not node.level:
        return node.module or ""
    pkg = module.split(".") if is_package else module.split(".")[:-1]
    base = pkg[:len(pkg) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _own_dynamic(call: ast.Call, layer: str) -> bool:
    """A dynamic import of the caller's own package (``f"{__name__}.{mod}"``)."""
    if not call.args:
        return False
    arg = call.args[0]
    if isinstance(arg, ast.JoinedStr) and arg.values:
        first = arg.values[0]
        if isinstance(first, ast.Constant):             # f"variants.{name}"
            return str(first.value).startswith(f"{layer}.")
        return (isinstance(first, ast.FormattedValue) and isinstance(first.value, ast.Name)
                and first.value.id == "__name__")
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value.split(".")[0] == layer
    return False


def layer_violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """What in ``source`` (the text of ``module``) reaches above its layer."""
    layer = module.split(".")[0]
    rank = LAYERS.index(layer)
    out = []
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = [_resolve(node, module, is_package)]
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in DYNAMIC:
                if layer in ("csp", "techniques") or not _own_dynamic(node, layer):
                    out.append(f"{module}:{node.lineno}: dynamic import "
                               f"{ast.unparse(node)[:60]}")
                continue
        for t in targets:
            top = t.split(".")[0]
            if top in LAYERS and LAYERS.index(top) > rank:
                out.append(f"{module}:{node.lineno}: imports {t} (a higher layer)")
            elif top in APP_ONLY:
                out.append(f"{module}:{node.lineno}: imports {t} (application-only)")
    return out


def test_no_import_reaches_a_higher_layer():
    """Every import of csp/, techniques/ and variants/, wherever it sits in a file."""
    found = []
    files = 0
    for pkg in LIBRARY:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            files += 1
            found += layer_violations(path.read_text(encoding="utf-8"), _module_name(path),
                                      path.name == "__init__.py")
    assert files > 50
    assert found == []


@pytest.mark.parametrize("module,source", [
    # the breach of 73e8331: csp reached techniques inside Puzzle.propagate(techniques=...)
    ("csp.model", "def f():\n    import importlib\n    importlib.import_module('techniques')\n"),
    ("csp.model", "def f():\n    from techniques import registry\n"),
    ("csp.constraints.base", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                             "    from ...variants import classic\n"),
    ("techniques.solver", "def f():\n    return __import__('variants')\n"),
    ("techniques.solver", "import importlib\nm = importlib.import_module('csp.io')\n"),
    ("variants.killer", "from sudoku_csp import render\n"),
    ("variants.killer", "def f():\n    import importlib\n    importlib.import_module(x)\n"),
    ("variants.killer", "def f():\n    from tqdm import tqdm\n"),
    ("variants.killer", "import importlib\nm = importlib.import_module(f'sudoku_csp.{x}')\n"),
])
def test_static_check_can_fail(module, source):
    assert layer_violations(source, module)


def test_static_check_allows_the_layers_own_imports():
    assert layer_violations("from .constraints import Less\nfrom . import bits\n"
                            "def f():\n    from .links import link_tables\n", "csp.model") == []
    assert layer_violations("import importlib\n"
                            "def f(m):\n    return importlib.import_module(f'{__name__}.{m}')\n"
                            "from csp import Puzzle\nfrom techniques.registry import register\n"
                            "n = importlib.import_module(f'variants.{x}')\n",
                            "variants", is_package=True) == []


# -- lazy paths, in a fresh interpreter -----------------------------------------------------
def _loaded_after(stmt: str) -> set[str]:
    """Every module loaded after running ``stmt`` in a fresh interpreter (full names)."""
    code = f"import sys\n{stmt}\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def _above(mods: set[str], layer: str) -> list[str]:
    """Loaded modules of a layer above ``layer``."""
    higher = LAYERS[LAYERS.index(layer) + 1:]
    return sorted(m for m in mods if m.split(".")[0] in higher)


def _application(mods: set[str]) -> list[str]:
    """Loaded application modules and application-only dependencies."""
    return sorted(m for m in mods
                  if m.split(".")[0] in ("sudoku_csp",) + APP_ONLY
                  or (m.split(".")[0] in LIBRARY and set(m.split(".")[1:]) & set(APP_NAMES)))


#: everything csp does on its own (each of these once imported something lazily)
CSP_PATHS = """
from csp import Puzzle, Grid
from csp import graphs, interop, io
from csp.grid import MultiGrid
from csp.links import link_tables
from csp.step import Candidate, Step
p = Puzzle(Grid(4)).add_grid_houses()
p.add(p["r1c1"] < p["r1c2"])
p.add_sum(["r4c1", "r4c2"], 7)
p.add_abs_diff("r2c1", "r2c2", 1)
p.add_constraint(lambda a, b, c: a + b > c, ["r3c3", "r3c4", "r3c1"])
p.givens("1...............")
for method in ("auto", "search", "sat"):
    p.solve(method=method)
    p.count_solutions(limit=20, method=method)
p.solve(first=True)
st = p.propagate(gac=True, trace=lambda *a: None)
pm = p.pencilmarks()
str(pm), pm.to_string(), p.state_from(pm.cand)
link_tables(p).sees(0, 1, 1, 1)
graphs.to_dot(p.constraint_graph()), p.cell_graph(), p.link_graph(pm)
p.to_problem(), interop.problem_solutions(p)
assert p._repr_svg_() is None and pm._repr_svg_() is None
step = Step("demo", eliminations=(Candidate(1, 2),))
step.explain(2), step._repr_svg_()
io.write_line(io.parse_line("1...............")[1], 4), io.write_pencilmarks(pm)
g = MultiGrid(4, [(0, 0), (2, 2)])
Puzzle(g).add_grid_houses().solve(first=True)
"""

#: the human solver on a classic puzzle built with csp alone
TECHNIQUE_PATHS = """
from csp import Puzzle, Grid
import techniques
from techniques import StepSolver, propagate, rate_se
from techniques.verify import check_solve
line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
def classic():
    return Puzzle(Grid(9)).add_grid_houses().givens(line)
r = StepSolver().solve(classic())
assert r.status == "solved"
StepSolver().next_step(classic().pencilmarks())
propagate(classic(), "intersections")
rate_se(classic())
check_solve(classic(), r.state.values())
techniques.load_families()
"""

#: the rule catalogue and its logic, as a user of the library would use it
VARIANT_PATHS = """
import csp, techniques, variants
from csp import Puzzle
from techniques import StepSolver
from variants import classic, killer_cage, thermo, white_dot, sandwich
from variants.classic import classic_puzzle
p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
assert StepSolver().solve(p).status == "solved" and p.solve().status == "solved"
assert p._repr_svg_() is None
q = Puzzle(9).use(classic(), killer_cage(["r1c1", "r1c2"], 3), thermo(["r2c1", "r2c2", "r2c3"]),
                  white_dot("r5c5", "r5c6"), sandwich(0, 1, 10))
q.solve(first=True, method="sat")
StepSolver().solve(q, time_limit=2)
variants.load_logic(), variants.rule_modules()
"""


def test_csp_lazy_paths_load_no_upper_layer():
    mods = _loaded_after(CSP_PATHS)
    assert "csp.sat" in mods and "csp.interop" in mods and "csp.graphs" in mods
    assert _above(mods, "csp") == []


def test_techniques_lazy_paths_load_no_upper_layer():
    mods = _loaded_after(TECHNIQUE_PATHS)
    assert "techniques.forcing" in mods and "techniques.se_rating" in mods
    assert _above(mods, "techniques") == []


def test_library_loads_no_application_module():
    """Importing the three library layers and solving with them (brute force, SAT and the
    human solver, on classic and variant puzzles) loads no CLI, command, format, rendering,
    batch or generator module, and none of tqdm, dask, distributed, cairosvg."""
    mods = _loaded_after(VARIANT_PATHS)
    assert "variants.killer_logic" in mods and "variants.consecutive_logic" in mods
    assert _application(mods) == []


@pytest.mark.parametrize("stmt", [
    "import csp",
    "import csp.graphs, csp.interop, csp.links, csp.io, csp.step, csp.sat, csp.display",
])
def test_csp_does_not_import_upper_layers(stmt):
    mods = _loaded_after(stmt)
    assert "csp" in mods
    assert _above(mods, "csp") == []


def test_techniques_does_not_import_variants():
    mods = _loaded_after("import techniques, techniques.solver, techniques.verify")
    assert "techniques" in mods
    assert _above(mods, "techniques") == []


def test_every_techniques_module_alone():
    pkg = ROOT / "techniques"
    names = sorted(p.stem for p in pkg.glob("*.py") if p.stem != "__init__")
    stmt = "; ".join(f"import techniques.{n}" for n in names)
    mods = _loaded_after(stmt)
    assert _above(mods, "techniques") == []


def test_every_library_module_alone_loads_no_application_module():
    names = sorted(_module_name(p) for pkg in LIBRARY for p in (ROOT / pkg).rglob("*.py"))
    mods = _loaded_after("; ".join(f"import {n}" for n in names))
    assert _application(mods) == []


def test_check_can_fail():
    """The probes themselves see an upper-layer and an application import."""
    mods = _loaded_after("import variants, sudoku_csp.cli")
    assert _above(mods, "techniques") and _application(mods)
