"""Compiled kernels: optional C extensions, each with a pure-Python fallback.

``pip install -e .`` builds them where a C compiler is found (``setup.py``: every extension is
``optional=True``, so an install never fails for want of one). Every caller keeps a
pure-Python path giving identical results, and takes it when the module is not built or when
``SUDOKU_CSP_PURE=1`` is set in the environment (the tests compare both paths).

>>> compiled("csp._no_such_kernel") is None
True
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

_CACHE: dict[str, ModuleType | None] = {}


def pure() -> bool:
    """True when the compiled kernels are switched off (``SUDOKU_CSP_PURE=1``)."""
    return os.environ.get("SUDOKU_CSP_PURE", "") not in ("", "0")


def compiled(name: str) -> ModuleType | None:
    """The compiled module ``name`` (``"csp._enum_kernel"``), or None: not built, or switched off."""
    if pure():
        return None
    if name not in _CACHE:
        try:
            _CACHE[name] = importlib.import_module(name)
        except ImportError:
            _CACHE[name] = None
    return _CACHE[name]
