"""Picture files (:mod:`sudoku_csp.render`): SVG or PNG by the file's extension, PNG through
cairosvg (the ``render`` extra)."""
from __future__ import annotations

import os

from csp.errors import SudokuCSPError

#: output formats by file extension
FORMATS = (".svg", ".png")


class RenderError(SudokuCSPError):
    """A picture cannot be written as asked (unknown format, PNG library missing)."""


def svg_to_png(svg: str, scale: float = 2.0) -> bytes:
    """PNG bytes of SVG text (needs cairosvg: ``pip install "sudoku-csp[render]"``).

    >>> from variants import classic_puzzle
    >>> from sudoku_csp.render import render_svg
    >>> svg_to_png(render_svg(classic_puzzle("1..............."))).startswith(b"\\x89PNG")
    True
    """
    try:
        import cairosvg
    except (ImportError, OSError) as e:   # OSError: the cairo C library is missing
        raise RenderError(f"PNG output needs cairosvg and libcairo "
                          f"(pip install \"sudoku-csp[render]\"): {e}") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8", "backslashreplace"), scale=scale)


def write_picture(svg: str, path: str | os.PathLike[str]) -> None:
    """Write SVG text to ``path`` as SVG or PNG, by its extension (see :data:`FORMATS`)."""
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in FORMATS:
        raise RenderError(f"{os.fspath(path)}: unknown picture format {ext or '(none)'!r} "
                          f"(use {' or '.join(FORMATS)})")
    from ..output import write_output
    write_output(path, svg_to_png(svg) if ext == ".png" else svg)
