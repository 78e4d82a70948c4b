"""The compiled kernels (``csp/kernel.py``, ``setup.py``): every extension ``setup.py`` lists
has its C source, is built by the install where a C compiler is found, and
``SUDOKU_CSP_PURE=1`` switches every one of them off.

CI sets ``SUDOKU_CSP_REQUIRE_KERNELS=1``: there a kernel that did not build fails this test,
instead of leaving every comparison test skipped and the run on the Python path unseen.
"""
from __future__ import annotations

import ast
import os
import pathlib

import pytest

import csp  # noqa: F401  (import the package before tests/csp can shadow it)
import csp.cnf_enum
import csp.engine
import csp.sat
import csp.constraints.sums
import techniques.als
import techniques.chains
import techniques.fish
import techniques.singles
import techniques.forcing.engine
import techniques.forcing.nested
import variants.arrangement_logic
import variants.outside
from csp import kernel

#: each kernel as its owner module imported it (statically), None when off or not built
OWNERS = {"csp._enum_kernel": csp.cnf_enum.compiled_kernel,
          "csp._auto_kernel": lambda: kernel.active(csp.sat._auto_kernel),
          "csp._engine_kernel": lambda: kernel.active(csp.engine._engine_kernel),
          "csp.constraints._linear_kernel":
              lambda: kernel.active(csp.constraints.sums._linear_kernel),
          "techniques._fish_kernel": lambda: kernel.active(techniques.fish._fish_kernel),
          "techniques._se_kernel": lambda: kernel.active(techniques.forcing.nested._se_kernel),
          "variants._sky_kernel": lambda: kernel.active(variants.outside._sky_kernel),
          "variants._band_kernel":
              lambda: kernel.active(variants.arrangement_logic._band_kernel),
          "techniques._als_kernel": lambda: kernel.active(techniques.als._als_kernel),
          "techniques._forcing_kernel":
              lambda: kernel.active(techniques.forcing.engine._forcing_kernel),
          "techniques._chain_kernel": lambda: kernel.active(techniques.chains._chain_kernel),
          "techniques._singles_kernel":
              lambda: kernel.active(techniques.singles._singles_kernel)}

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _extensions() -> list[tuple[str, list[str]]]:
    """(module name, sources) of every ``Extension(...)`` in setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Extension":
            out.append((ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])))
    return out


NAMES = [name for name, _ in _extensions()]


def test_setup_lists_each_kernel_with_its_source():
    exts = _extensions()
    assert exts, "setup.py lists no compiled kernel"
    for name, sources in exts:
        assert sources == [name.replace(".", "/") + ".c"], name
        assert (ROOT / sources[0]).is_file(), sources[0]


@pytest.mark.parametrize("name", NAMES)
def test_kernel_is_built_and_imports(name, monkeypatch):
    monkeypatch.delenv("SUDOKU_CSP_PURE", raising=False)
    module = OWNERS[name]()
    if module is None:
        if os.environ.get("SUDOKU_CSP_REQUIRE_KERNELS", "") not in ("", "0"):
            pytest.fail(f"{name} is not built: the install found no C compiler, or its "
                        f"build failed (pip install -e . -v shows why)")
        pytest.skip(f"{name} is not built (no C compiler at install time?): the Python path runs")
    assert module.__name__ == name


def test_pure_switches_every_kernel_off(monkeypatch):
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    assert kernel.pure()
    assert set(OWNERS) == set(NAMES)
    assert all(OWNERS[name]() is None for name in NAMES)
    monkeypatch.setenv("SUDOKU_CSP_PURE", "0")
    assert not kernel.pure()
