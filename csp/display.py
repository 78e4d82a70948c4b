"""Rich display hooks: ``_repr_svg_`` of Puzzle, State and Step, and ``_repr_html_`` of
results of the layers above (a logic solve), without an upward import.

``csp`` draws nothing itself. An upper layer registers an SVG renderer with
:func:`set_svg_renderer` (the application package ``sudoku_csp`` does when it is imported);
the ``_repr_svg_`` methods of :class:`~csp.model.Puzzle`, :class:`~csp.state.State` and
:class:`~csp.step.Step` look the renderer up at call time, so Jupyter shows a picture once
``sudoku_csp`` is loaded and falls back to the text ``repr`` (``None``) before that.

>>> from csp.step import Step
>>> old = set_svg_renderer(lambda obj: "<svg/>")
>>> Step("x")._repr_svg_()
'<svg/>'
>>> _ = set_svg_renderer(old)

The HTML hook works the same way (:func:`set_html_renderer`; ``techniques``' ``LogicResult``
shows its step-through page once ``sudoku_csp`` is loaded).
"""
from __future__ import annotations

from typing import Any, Callable

SvgRenderer = Callable[[Any], str]

_renderer: SvgRenderer | None = None


def set_svg_renderer(fn: SvgRenderer | None) -> SvgRenderer | None:
    """Register ``fn(obj) -> svg text`` (``None`` unregisters); returns the previous one."""
    global _renderer
    old, _renderer = _renderer, fn
    return old


def repr_svg(obj: Any) -> str | None:
    """SVG text of ``obj`` from the registered renderer, or None when there is none."""
    fn = _renderer
    return None if fn is None else fn(obj)


HtmlRenderer = Callable[[Any], "str | None"]

_html_renderer: HtmlRenderer | None = None


def set_html_renderer(fn: HtmlRenderer | None) -> HtmlRenderer | None:
    """Register ``fn(obj) -> HTML text or None`` (``None`` unregisters); returns the
    previous one."""
    global _html_renderer
    old, _html_renderer = _html_renderer, fn
    return old


def repr_html(obj: Any) -> str | None:
    """HTML of ``obj`` from the registered renderer, or None when there is none.

    >>> old = set_html_renderer(None)
    >>> repr_html(object()) is None
    True
    >>> _ = set_html_renderer(old)
    """
    fn = _html_renderer
    return None if fn is None else fn(obj)
