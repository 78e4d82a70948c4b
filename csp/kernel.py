"""Compiled kernels: optional C extensions, each with a pure-Python fallback.

``pip install -e .`` builds them where a C compiler is found (``setup.py``: every extension is
``optional=True``, so an install never fails for want of one). Each kernel's owner imports it
statically in its own layer (``try: from . import _fish_kernel``; no dynamic import, no
reaching up) and asks :func:`active` at each call: every caller keeps a pure-Python path
giving identical results, taken when the module is not built or when ``SUDOKU_CSP_PURE=1``
is set in the environment (the tests compare both paths).

>>> import os
>>> active(os) is os or pure()
True
>>> active(None) is None
True
"""
from __future__ import annotations

import os
from types import ModuleType


#: the environment's own mapping and the variable's key in it (``os.environ`` keeps its
#: entries there, encoded): :func:`pure` is asked at each kernel call, and a plain dict
#: lookup costs a tenth of ``os.environ.get``'s; anything else goes through ``os.environ``
try:
    _ENV: dict | None = os.environ._data                    # type: ignore[attr-defined]
    _KEY = os.environ.encodekey("SUDOKU_CSP_PURE")          # type: ignore[attr-defined]
    _OFF = {None, os.environ.encodevalue(""),               # type: ignore[attr-defined]
            os.environ.encodevalue("0")}                    # type: ignore[attr-defined]
except AttributeError:                                      # pragma: no cover - not CPython's
    _ENV = None


def pure() -> bool:
    """True when the compiled kernels are switched off (``SUDOKU_CSP_PURE=1``)."""
    if _ENV is not None:
        return _ENV.get(_KEY) not in _OFF
    return os.environ.get("SUDOKU_CSP_PURE", "") not in ("", "0")


def active(module: ModuleType | None) -> ModuleType | None:
    """``module`` (a kernel its owner imported, or None when it is not built), or None when
    the kernels are switched off. Asked at each call, so a test can switch paths."""
    return None if module is None or pure() else module
