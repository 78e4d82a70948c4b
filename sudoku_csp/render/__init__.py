"""SVG (and PNG) pictures of puzzles, pencil-mark states and explained steps.

:func:`render_svg` draws a :class:`~csp.model.Puzzle` (grid, regions, givens and every rule
it holds: killer cages, thermos, arrows, lines, dots, inequality signs, outside clues ...), a
:class:`~csp.state.State` (placed digits and candidates) or a :class:`~csp.step.Step` on the
state before it (houses shaded, pattern candidates highlighted, eliminations struck in red,
placements in green, chain links as arrows: strong solid, weak dashed). Multi-grids
(:class:`csp.grid.MultiGrid`, e.g. samurai) are drawn on their canvas, each cell at its
canvas row and column. The SVG is written by hand with :mod:`xml.etree.ElementTree` (so all
text is escaped); :func:`svg_to_png` converts it with cairosvg (the ``render`` extra).

Rules are drawn by :func:`draw_rule`, a :func:`functools.singledispatch` function on the type
of the rule bundle ``Puzzle.use`` recorded (``puzzle.bundles``): every public rule class of
:mod:`variants` has a drawer (``tests`` check it), and a rule without one (a bundle of your
own, a function) falls back to drawing its constraints one by one with
:func:`draw_constraint`: recognisable kinds as usual (``<`` signs, Kropki and XV relations,
sums as cages, extra all-different groups), anything else -- a rule made from a Python
predicate (``Puzzle.add_constraint``) -- as a generic marker (a dotted outline and a
numbered badge) with the rule's name in the legend under the grid. Importing
:mod:`sudoku_csp` registers :func:`render_svg` as the ``_repr_svg_`` renderer of
:mod:`csp.display`, so Jupyter shows puzzles, states and steps as pictures.

>>> import xml.etree.ElementTree as ET
>>> from csp import Puzzle
>>> from variants import classic, killer_cage
>>> p = Puzzle(4).use(classic(), killer_cage(["r1c1", "r1c2"], 3)).givens("1...............")
>>> root = ET.fromstring(render_svg(p))
>>> len(root.findall(".//*[@class='cell']")), len(root.findall(".//*[@class='cage']"))
(16, 1)
>>> [t.text for t in root.findall(".//*[@class='given']")]
['1']
>>> has_drawer(killer_cage), has_drawer(dict)
(True, False)

The package, one idea a module: :mod:`~sudoku_csp.render.svg_canvas` (the SVG element
writer, the canvas's geometry and layers, the notes under the grid, the grid lines),
:mod:`~sudoku_csp.render.palette` (colours and font), :mod:`~sudoku_csp.render.wrap` (line
breaking of notes and explanations), :mod:`~sudoku_csp.render.rules` (the rule drawers),
:mod:`~sudoku_csp.render.steps` (the step overlays), :mod:`~sudoku_csp.render.picture`
(whole pictures: :func:`canvas`, :func:`render_svg`) and :mod:`~sudoku_csp.render.files`
(SVG or PNG files). Everything is imported from :mod:`sudoku_csp.render` itself.
"""
from __future__ import annotations

from .files import FORMATS, RenderError, svg_to_png, write_picture
from .palette import CAND, INK, PLACED
from .picture import CellMark, canvas, render_svg
from .rules import DRAWERS, OUTSIDE_RULES, draw_constraint, draw_rule, has_drawer, rule_name
from .steps import STEP_LAYERS, house_markup, link_markers, step_candidates, step_layers
from .svg_canvas import TOTAL_TOP, Canvas, cell_size_for
from .wrap import break_atoms, wrap_text

__all__ = ["RenderError", "render_svg", "CellMark", "svg_to_png", "write_picture", "FORMATS",
           "draw_rule",
           "draw_constraint", "has_drawer", "wrap_text", "break_atoms", "rule_name",
           "cell_size_for"]
