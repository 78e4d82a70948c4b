"""Layering: csp imports neither techniques nor variants; techniques does not import
variants (checked in a fresh interpreter)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _loaded_after(stmt: str) -> set[str]:
    code = (f"import sys\n{stmt}\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


@pytest.mark.parametrize("stmt", [
    "import csp",
    "import csp.graphs, csp.interop, csp.links, csp.io, csp.step",
    "from csp import Puzzle, Grid; p = Puzzle(Grid(4)).add_grid_houses(); p.solve(); "
    "p.constraint_graph(); p.cell_graph(); p.link_graph(); p.to_problem()",
])
def test_csp_does_not_import_upper_layers(stmt):
    mods = _loaded_after(stmt)
    assert "csp" in mods
    assert "techniques" not in mods
    assert "variants" not in mods


def test_techniques_does_not_import_variants():
    mods = _loaded_after("import techniques, techniques.solver, techniques.verify")
    assert "techniques" in mods
    assert "variants" not in mods


def test_every_techniques_module_alone():
    pkg = ROOT / "techniques"
    names = sorted(p.stem for p in pkg.glob("*.py") if p.stem != "__init__")
    stmt = "; ".join(f"import techniques.{n}" for n in names)
    mods = _loaded_after(stmt)
    assert "variants" not in mods


def test_check_can_fail():
    """The probe itself sees an upper-layer import."""
    assert "variants" in _loaded_after("import variants")
