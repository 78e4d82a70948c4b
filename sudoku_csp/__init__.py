"""sudoku-csp, the application: the ``sudoku-csp`` command line (:mod:`sudoku_csp.cli`, one
module per command in :mod:`sudoku_csp.commands`), puzzle formats
(:mod:`sudoku_csp.formats`), pictures (:mod:`sudoku_csp.render`), batches
(:mod:`sudoku_csp.batch`) and the puzzle generator (:mod:`sudoku_csp.generate`), on top of
the library layers ``csp``, ``techniques`` and ``variants``.
"""
from __future__ import annotations

from typing import Any

from csp.display import set_html_renderer, set_svg_renderer


def _svg(obj: Any) -> str:
    """Jupyter's picture of a Puzzle, State or Step (:func:`sudoku_csp.render.render_svg`,
    imported on first use), or of true candidates
    (:func:`sudoku_csp.workbench.candidates_svg`)."""
    from .workbench.candidates import TrueCandidates
    if isinstance(obj, TrueCandidates):
        from .workbench.picture import candidates_svg
        return candidates_svg(obj)
    from .render import render_svg
    return render_svg(obj)


def _html(obj: Any) -> str | None:
    """Jupyter's view of a logic result: the step-through of
    :func:`sudoku_csp.explain.explain_html` (a fragment with its own style and script)."""
    from techniques.solver import LogicResult
    if not isinstance(obj, LogicResult):
        return None
    from .explain import explain_html
    return explain_html(obj, fragment=True)


set_svg_renderer(_svg)
set_html_renderer(_html)
