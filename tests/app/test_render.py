"""SVG / PNG rendering of puzzles, states and steps (sudoku_csp.render) and the CLI."""
from __future__ import annotations

import functools
import math
import json
import re
import xml.etree.ElementTree as ET

import pytest

import variants  # noqa: F401  (registers the renderer and the variant techniques)
from csp import FunctionConstraint, Puzzle, Sum
from csp.display import repr_svg, set_svg_renderer
from csp.step import Candidate, Link, Step
from techniques import StepSolver, apply_step, registry, reglib
from techniques.analysis import Analysis
from techniques.loop import is_effective
from variants import (arrow, classic, classic_puzzle, killer_cage, little_killer, sandwich,
                      thermo, white_dot)
from sudoku_csp.cli import main
from sudoku_csp.formats.loader import puzzle_from_json
from sudoku_csp.render import RenderError, render_svg, svg_to_png, write_picture

from conftest import DATA, ROOT

CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    return root


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class list contains ``cls``."""
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


@functools.lru_cache(maxsize=None)
def fpuzzles() -> list[dict]:
    with open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def fpuzzle(title_part: str) -> tuple[Puzzle, dict]:
    obj = next(o for o in fpuzzles() if title_part in o["title"])
    return puzzle_from_json(obj)[0], obj["fpuzzles_json"]


# -- puzzles ---------------------------------------------------------------------------------
def test_classic_puzzle_cells_givens_and_regions():
    root = parse(render_svg(classic_puzzle(CLASSIC)))
    assert len(by_class(root, "cell")) == 81
    givens = [(e.text, float(e.get("x")), float(e.get("y"))) for e in by_class(root, "given")]
    assert sorted(t for t, _, _ in givens) == sorted(ch for ch in CLASSIC if ch != ".")
    # the first given (4 at r1c1) is left of and above the second (8 at r1c7)
    assert givens[0][0] == "4" and givens[1][0] == "8" and givens[0][1] < givens[1][1]
    border = by_class(root, "region-border")
    assert len(border) == 1 and border[0].get("d").count("M") == 2 * 9 * 2   # 2 box lines x 9 x 2
    assert by_class(root, "cand") == [] and by_class(root, "cage") == []


def test_jigsaw_borders_follow_regions():
    p, _ = fpuzzle("Irregular Sudoku")
    g = p.grid
    assert g.region_kind == "region"
    d = by_class(parse(render_svg(p)), "region-border")[0].get("d")
    # one border segment per pair of orthogonal neighbours in different regions
    want = sum(1 for c in range(81) for o in g.orthogonal(c)
               if o > c and g.region_of[c] != g.region_of[o])
    assert d.count("M") == want > 36


def test_killer_cages_one_path_each_with_totals():
    p, fp = fpuzzle("October 10, 2023: Killer")
    root = parse(render_svg(p))
    cages = by_class(root, "cage")
    assert len(cages) == len(fp["killercage"]) > 10
    totals = sorted(e.text for e in by_class(root, "cage-total"))
    assert totals == sorted(str(c["value"]) for c in fp["killercage"] if c.get("value"))
    # a 2-cell cage has 6 outline segments (2 long sides, 4 short ends merged into 4 pieces)
    p2 = Puzzle(9).use(classic(), killer_cage(["r1c1", "r1c2"], 3))
    d = by_class(parse(render_svg(p2)), "cage")[0].get("d")
    assert d.count("M") == 6


def test_thermos_arrows_and_lines():
    p = Puzzle(9).use(classic(), thermo("r1c1", "r1c2", "r1c3"), thermo("r9c9", "r8c9"),
                      arrow(["r5c5"], ["r5c6", "r5c7"]), arrow(["r1c8", "r1c9"], ["r2c9"]),
                      variants.renban(["r7c1", "r7c2"]), variants.whispers(["r8c1", "r8c2"]))
    root = parse(render_svg(p))
    assert len(by_class(root, "thermo-bulb")) == 2 and len(by_class(root, "thermo")) == 2
    assert len(by_class(root, "arrow-circle")) == 2 and len(by_class(root, "arrow-shaft")) == 2
    pill = [e for e in by_class(root, "arrow-circle") if e.tag.endswith("rect")]
    assert len(pill) == 1                       # the 2-cell circle is a pill
    assert len(by_class(root, "renban")) == 1 and len(by_class(root, "whispers")) == 1
    bulb = by_class(root, "thermo-bulb")[0]
    cell = by_class(root, "cell")[0]
    assert float(bulb.get("cx")) == pytest.approx(float(cell.get("x")) + float(cell.get("width")) / 2)


def test_dots_signs_and_outside_clues():
    p = Puzzle(9).use(classic(), white_dot("r1c1", "r1c2"), variants.black_dot("r2c1", "r3c1"),
                      variants.x_dot("r4c4", "r4c5"), variants.less_than("r6c6", "r6c7"),
                      little_killer(["r1c2", "r2c1"], 11), sandwich(0, 3, 15))
    root = parse(render_svg(p))
    assert len(by_class(root, "white-dot")) == 1 and len(by_class(root, "black-dot")) == 1
    assert [e.text for e in by_class(root, "xv")] == ["X"]
    assert len(by_class(root, "inequality")) == 1
    assert [e.text for e in by_class(root, "little-killer")] == ["11"]
    assert [e.text for e in by_class(root, "sandwich")] == ["15"]
    # outside clues get a margin: the sandwich clue sits above the grid
    top = float(by_class(root, "border")[0].get("y"))
    assert float(by_class(root, "sandwich")[0].get("y")) < top


def test_direct_constraints_and_unknown_kinds_do_not_crash():
    p = Puzzle(9).add_grid_houses()
    p.add(p["r1c1"] < p["r1c2"])
    p.add(Sum([0, 9, 18], 10, distinct=True, name="s"))
    p.add(FunctionConstraint(lambda a, b, c: a != c, [30, 31, 32], name="weird"))

    class thermo_like:                                   # a bundle the renderer cannot read
        __name__ = "thermo"

        def apply(self, q):
            q.add(FunctionConstraint(lambda a, b: a != b, [40, 41], name="odd rule"))
    thermo_like.__name__ = "thermo"
    p.use(thermo_like())
    p.meta["title"] = "A <b>&</b> title"
    root = parse(render_svg(p))
    assert len(by_class(root, "inequality")) == 1
    assert [e.text for e in by_class(root, "cage-total")] == ["10"]
    assert by_class(root, "title")[0].text == "A <b>&</b> title"
    # a bundle with no drawer of its own is no thermo: its predicate is a generic marker
    assert by_class(root, "thermo") == []
    assert [b.get("data-rule") for b in by_class(root, "rule-badge")] == ["weird", "thermo"]


def test_every_fpuzzle_renders_valid_svg():
    objs = fpuzzles()
    assert len(objs) == 136
    kinds = {}
    for obj in objs:
        p = puzzle_from_json(obj)[0]
        root = parse(render_svg(p))
        n = p.grid.n
        assert len(by_class(root, "cell")) == n * n
        assert len(by_class(root, "given")) == len(p.given)
        for e in root.iter():
            kinds.update(dict.fromkeys((e.get("class") or "").split(), True))
    # the set covers the drawers of most rule kinds
    for cls in ("cage", "thermo", "arrow-shaft", "white-dot", "black-dot", "xv", "quadruple",
                "little-killer", "sandwich", "x-sum", "skyscraper", "line", "odd", "even",
                "clone", "extra-region", "diagonal", "maximum", "minimum", "indexer", "note"):
        assert cls in kinds, cls


# -- states and steps --------------------------------------------------------------------------
def test_state_shows_candidates_of_unplaced_cells():
    p = classic_puzzle(CLASSIC)
    st = p.propagate()
    root = parse(render_svg(st))
    want = sum(m.bit_count() for c, m in enumerate(st.cand) if not st.placed[c])
    assert len(by_class(root, "cand")) == want
    assert len(by_class(root, "given")) == 17


def _reglib_step(family: str):
    codes = {t.code for t in registry.load().values() if t.family == family and t.code}
    with open(DATA / "reglib-1.3-public.txt", encoding="utf-8") as f:
        for line in f:
            if not line.startswith(":"):
                continue
            case = reglib.parse_case(line)
            if case.must_not_fire or case.code not in codes:
                continue
            st = reglib.case_state(case)
            for t in registry.by_code(case.code):
                opts = t.options_for_variant(case.variant)
                opts["only_digits"] = case.digits
                for s in t.find(Analysis(st), opts):
                    if is_effective(st, s):
                        return s, st
    raise LookupError(family)


def _forcing_step():
    line = open(DATA / "hardest11.txt").readline().strip()
    st = classic_puzzle(line).pencilmarks()
    solver = StepSolver("singles")
    while (s := solver.next_step(st)) is not None:
        apply_step(st, s)
    s = next(s for s in registry.get("forcing_chain_contradiction").find(Analysis(st))
             if is_effective(st, s))
    return s, st


def _rules_step():
    p, _ = fpuzzle("October 10, 2023: Killer")
    st = p.pencilmarks()
    s = next(s for s in registry.get("constraint").find(Analysis(st)) if is_effective(st, s))
    return s, st


FAMILIES = ["singles", "intersections", "subsets", "fish", "single_digit", "wings", "coloring",
            "chains", "als", "uniqueness", "misc", "templates", "forcing", "rules", "sets",
            "sums", "exclusion", "inequality", "indexing"]

#: the families of rule-reading techniques: (f-puzzles title, technique) of a step
FPUZZLE_STEPS = {"sets": ("Solver needs SET", "set_sums"),
                 "sums": ("Rapid Fire Crossbow", "combined_sums"),
                 "exclusion": ("5/31/23: Consec Pairs Quads", "rule_exclusion"),
                 "inequality": ("The Initials", "inequality_bounds"),
                 "indexing": ("Box Indexing Test", "indexing")}


def family_step(family: str):
    if family == "forcing":
        return _forcing_step()
    if family == "rules":
        return _rules_step()
    if family in FPUZZLE_STEPS:
        return _fpuzzle_step(*FPUZZLE_STEPS[family])
    return _reglib_step(family)


def _fpuzzle_step(title: str, technique: str):
    """The first step of ``technique`` on the default solve path of an f-puzzles puzzle."""
    p, _ = fpuzzle(title)
    run = StepSolver("default").start(p)
    while (s := run.peek()) is not None and s.technique != technique:
        next(run)
    assert s is not None, (title, technique)
    return s, run.state


def test_families_listed_are_the_registry_families():
    core = {t.family for t in registry.load().values()
            if t.finder.__module__.startswith("techniques.")}
    assert set(FAMILIES) == core


def check_step_svg(step: Step, st) -> ET.Element:
    root = parse(render_svg(step, state=st))
    live = lambda cd: not st.placed[cd.cell]                       # noqa: E731
    assert len(by_class(root, "elim")) == sum(1 for e in step.eliminations if live(e))
    assert len(by_class(root, "place")) == sum(1 for e in step.placements if live(e))
    for g in by_class(root, "elim"):
        assert g.find("{*}line") is not None                         # struck through
    links = by_class(root, "link")
    assert len(links) == len(step.links)
    for e in links:
        strong = "strong" in e.get("class").split()
        assert e.get("marker-end") == ("url(#link-strong)" if strong else "url(#link-weak)")
        assert (e.get("stroke-dasharray") is None) == strong          # weak links dashed
    if step.links:
        ids = {m.get("id") for m in root.iter() if m.tag.endswith("marker")}
        assert {"link-strong", "link-weak"} <= ids
    assert by_class(root, "note")[0].text.startswith(step.name.split()[0])
    return root


@pytest.mark.parametrize("family", FAMILIES)
def test_a_step_of_every_family_renders(family):
    step, st = family_step(family)
    assert registry.get(step.technique).family == family
    root = check_step_svg(step, st)
    if step.houses and family != "rules":
        assert by_class(root, "house")


def test_chain_step_has_strong_and_weak_arrows():
    step, st = family_step("chains")
    assert any(l.strong for l in step.links) and any(not l.strong for l in step.links)
    root = check_step_svg(step, st)
    assert by_class(root, "chain-node")


def test_step_without_state_shows_only_its_candidates():
    s = Step("xy_wing", eliminations=(Candidate(43, 7),),
             pattern=(Candidate(11, 1), Candidate(11, 5), Candidate(16, 1), Candidate(16, 7)),
             links=(Link((Candidate(11, 1),), (Candidate(16, 1),), False),))
    root = parse(render_svg(s))
    assert len(by_class(root, "cand")) == 5
    assert len(by_class(root, "elim")) == 1 and len(by_class(root, "pattern")) == 4
    assert len(by_class(root, "weak")) == 1


# -- Jupyter hook ------------------------------------------------------------------------------
def test_repr_svg_hooks():
    p = classic_puzzle(CLASSIC)
    st = p.propagate()
    step = StepSolver().next_step(p.pencilmarks())
    for obj in (p, st, step):
        parse(obj._repr_svg_())
    old = set_svg_renderer(None)
    try:
        assert p._repr_svg_() is None and repr_svg(step) is None
    finally:
        set_svg_renderer(old)


# -- PNG and files -----------------------------------------------------------------------------
def test_png_conversion(tmp_path):
    p, _ = fpuzzle("October 10, 2023: Killer")
    data = svg_to_png(render_svg(p))
    assert data.startswith(PNG_MAGIC) and len(data) > 2000
    write_picture(render_svg(p), tmp_path / "k.png")
    assert (tmp_path / "k.png").read_bytes().startswith(PNG_MAGIC)
    with pytest.raises(RenderError):
        write_picture("<svg/>", tmp_path / "k.gif")


# -- command line ------------------------------------------------------------------------------
def test_cli_render_svg_png_state_and_step(tmp_path, capsys):
    out = tmp_path / "p.svg"
    assert main(["render", CLASSIC, "-o", str(out)]) == 0
    assert len(by_class(parse(out.read_text()), "given")) == 17
    assert main(["render", CLASSIC, "--state"]) == 0
    root = parse(capsys.readouterr().out)
    assert by_class(root, "cand")
    png = tmp_path / "s.png"
    assert main(["render", CLASSIC, "--step", "3", "-o", str(png)]) == 0
    assert png.read_bytes().startswith(PNG_MAGIC)
    # --step N is the N-th step of the logic solve, drawn on the state before it
    st = classic_puzzle(CLASSIC).pencilmarks()
    solver = StepSolver("singles")
    steps = [solver.next_step(st)]
    apply_step(st, steps[0])
    steps.append(solver.next_step(st))
    assert main(["render", CLASSIC, "--step", "2", "--techniques", "singles"]) == 0
    root = parse(capsys.readouterr().out)
    assert by_class(root, "note")[0].text.startswith(steps[1].explain(2)[:20])


@pytest.mark.parametrize("args, msg", [
    (["render", CLASSIC, "-o", "x.gif"], "unknown picture format"),
    (["render", CLASSIC, "--step", "0"], "--step: '0': expected a whole number 1 or more"),
    (["render", CLASSIC, "--step", "999"], "solved after"),
    (["render", CLASSIC, "--step", "2", "--state"], "not allowed"),
    (["render", "12"], "not a square grid"),
    (["render", CLASSIC, "--step", "1", "--techniques", "nonsense"], "nonsense"),
])
def test_cli_render_bad_input_exit_2_one_line(args, msg, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and msg in err


def test_colouring_classes_and_fins_get_their_own_colours():
    step, st = family_step("coloring")
    root = check_step_svg(step, st)
    colours = step.extra["colours"]
    for i, bits in enumerate(colours, 1):
        assert len(by_class(root, f"colour-{i}")) == bits.bit_count()
    fills = {e.get("fill") for e in by_class(root, "colour")}
    assert len(fills) == min(len(colours), 4) >= 2
    with open(DATA / "reglib-1.3-public.txt", encoding="utf-8") as f:
        line = next(l for l in f if l.startswith(":0310:"))
    case = reglib.parse_case(line)
    st = reglib.case_state(case)
    fish = next(s for s in registry.get("finned_x_wing").find(Analysis(st), {})
                if is_effective(st, s))
    root = check_step_svg(fish, st)
    assert len(by_class(root, "fin")) == fish.extra["fins"].bit_count() >= 1


def test_csp_alone_has_no_renderer():
    """Without ``sudoku_csp`` loaded, _repr_svg_ (and a logic result's _repr_html_) fall back
    to the text repr (None); the library layers never import the application to draw."""
    import subprocess
    import sys
    code = ("import sys\nfrom csp import Puzzle\np = Puzzle(4).add_grid_houses()\n"
            "assert p._repr_svg_() is None and p.propagate()._repr_svg_() is None\n"
            "from techniques import StepSolver\nr = StepSolver().solve(p)\n"
            "assert r._repr_html_() is None\n"
            "assert 'sudoku_csp' not in sys.modules\nimport sudoku_csp\n"
            "assert p._repr_svg_().startswith('<svg')\n"
            "assert r._repr_html_().startswith('<div')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


# -- rule dispatch ------------------------------------------------------------------------------
def test_every_public_rule_class_has_a_drawer():
    """A new rule class in ``variants`` cannot be silently left undrawn: each public rule
    class has a drawer of its own (functions such as ``x_dot`` return one of them)."""
    import inspect
    from sudoku_csp.render import draw_rule, has_drawer
    classes = {name: getattr(variants, name) for name in variants.RULES
               if inspect.isclass(getattr(variants, name))}
    assert len(classes) > 40
    missing = sorted(name for name, cls in classes.items() if not has_drawer(cls))
    assert missing == []
    for mod in variants.rule_modules():          # no rule class outside RULES either
        for name, obj in vars(mod).items():
            if inspect.isclass(obj) and obj.__module__ == mod.__name__ \
                    and not name.startswith("_") and hasattr(obj, "apply"):
                assert name in classes, f"{mod.__name__}.{name} is not in variants.RULES"
    assert variants.x_dot("r1c1", "r1c2").__class__ in (draw_rule.registry.keys())
    assert not has_drawer(object) and not has_drawer(type(lambda: 0))


def test_predicate_rules_get_a_generic_marker_and_their_name():
    def parity_pair(a, b):
        return (a + b) % 2 == 1

    def my_bundle(q):                          # a function used as a rule bundle
        q.add(FunctionConstraint(lambda a, b, c, d: a + b != c + d, [60, 61, 69, 70]))

    p = Puzzle(9).use(classic())
    p.add_constraint(parity_pair, ["r1c1", "r1c2"])                    # a binary Relation
    p.add_constraint(lambda a, b, c: a < b < c, ["r5c1", "r5c2", "r5c3"], name="rising")
    p.use(my_bundle)
    root = parse(render_svg(p))
    marks = by_class(root, "rule-generic")
    assert len(marks) == 3
    badges = by_class(root, "rule-badge")
    assert [b.get("data-rule") for b in badges] == ["parity_pair", "rising", "my bundle"]
    assert [b.find("{*}text").text for b in badges] == ["1", "2", "3"]
    legend = " ".join(e.text for e in by_class(root, "note"))
    assert "(1) parity_pair" in legend and "(2) rising" in legend and "(3) my bundle" in legend
    # the badge sits in the rule's first cell (r1c1), top right
    cell = by_class(root, "cell")[0]
    x0, y0, S = (float(cell.get(k)) for k in ("x", "y", "width"))
    circle = badges[0].find("{*}circle")
    assert x0 + S / 2 < float(circle.get("cx")) < x0 + S and y0 < float(circle.get("cy")) < y0 + S / 2
    # the same predicate rule in a state: its cell's candidates move down, clear of the badge
    st = p.propagate()
    cands = [e for e in by_class(parse(render_svg(st)), "cand")
             if x0 <= float(e.get("x")) <= x0 + S and y0 <= float(e.get("y")) <= y0 + S]
    assert cands and min(float(e.get("y")) - float(e.get("font-size")) for e in cands) > \
        float(circle.get("cy"))


# -- multi-grids and big grids ------------------------------------------------------------------
def _cell_positions(root: ET.Element) -> tuple[list[tuple[int, int]], float, float, float]:
    rects = by_class(root, "cell")
    xs = [float(e.get("x")) for e in rects]
    ys = [float(e.get("y")) for e in rects]
    S = float(rects[0].get("width"))
    x0, y0 = min(xs), min(ys)
    pos = [(round((y - y0) / S), round((x - x0) / S)) for x, y in zip(xs, ys)]
    for (r, c), x, y in zip(pos, xs, ys):
        assert x == pytest.approx(x0 + c * S) and y == pytest.approx(y0 + r * S)
    return pos, x0, y0, S


def test_samurai_cells_on_their_canvas_and_step_placement_in_its_own_cell():
    from variants.multigrid import samurai
    line = next(ln.split()[0] for ln in open(DATA / "samurai.txt") if not ln.startswith("#"))
    p = samurai(line)
    g = p.grid
    root = parse(render_svg(p))
    pos, x0, y0, S = _cell_positions(root)
    assert len(pos) == g.size == 369
    assert pos == [g.rc(c) for c in range(g.size)]              # cell i at its canvas (row, col)
    canvas = {(r, c) for r in range(21) for c in range(21)}
    assert set(pos) == {rc for rc in canvas if g.at(*rc) >= 0}   # nothing in the gaps
    assert (0, 10) not in set(pos) and (10, 0) not in set(pos)
    svg_w = float(root.get("width"))
    assert svg_w == pytest.approx(21 * S + 2 * x0)                # the canvas is 21 cells wide
    # every given is drawn inside its own cell
    givens = by_class(root, "given")
    assert len(givens) == len(p.given)
    for e, (cell, d) in zip(givens, sorted(p.given.items())):
        r, c = g.rc(cell)
        assert e.text == str(d)
        assert x0 + c * S < float(e.get("x")) < x0 + (c + 1) * S
        assert y0 + r * S < float(e.get("y")) < y0 + (r + 1) * S
    # five sub-grid frames at the layout's origins
    frames = by_class(root, "subgrid-border")
    assert sorted((round((float(f.get("y")) - y0) / S), round((float(f.get("x")) - x0) / S))
                  for f in frames) == sorted(g.origins)
    # a step's placement is highlighted in its own cell, far from the 9x9 corner
    st = p.pencilmarks()
    solver = StepSolver("singles")
    for _ in range(200):
        step = solver.next_step(st)
        cell = step.placements[0].cell if step.placements else -1
        if g.rc(cell)[0] >= 9 and g.rc(cell)[1] >= 9:
            break
        apply_step(st, step)
    else:
        raise AssertionError("no placement in the lower right part")
    sroot = parse(render_svg(step, state=st))
    r, c = g.rc(cell)
    (hl,) = by_class(sroot, "place-cell")
    assert float(hl.get("x")) == pytest.approx(x0 + c * S)
    assert float(hl.get("y")) == pytest.approx(y0 + r * S)
    mark = by_class(sroot, "place")[0]           # a square behind the digit, not a ring
    assert mark.tag.endswith("rect")
    cx = float(mark.get("x")) + float(mark.get("width")) / 2
    cy = float(mark.get("y")) + float(mark.get("height")) / 2
    assert x0 + c * S < cx < x0 + (c + 1) * S
    assert y0 + r * S < cy < y0 + (r + 1) * S
    # a step alone (no state) is drawn on the multi-grid too, not on a 9x9 grid
    assert len(by_class(parse(render_svg(step)), "cell")) == 369


@pytest.mark.parametrize("n", [16, 25])
def test_big_grids_legible(n):
    from csp import Grid
    p = Puzzle(Grid(n)).add_grid_houses().givens({0: 1})
    st = p.propagate()
    root = parse(render_svg(st))
    cands = by_class(root, "cand")
    assert len(cands) == sum(m.bit_count() for c, m in enumerate(st.cand) if not st.placed[c])
    sizes = {float(e.get("font-size")) for e in cands}
    assert min(sizes) >= 9.5                            # candidates ~10 units high
    cell = by_class(root, "cell")[0]
    assert float(cell.get("width")) >= 17 * n ** 0.5 - 0.01
    # every candidate text lies inside its cell
    pos, x0, y0, S = _cell_positions(root)
    assert all(x0 <= float(e.get("x")) <= x0 + n * S for e in cands)
    symbols = {e.text for e in cands}
    assert len(symbols) == n and all(len(s) == 1 for s in symbols)


# -- chains and captions ------------------------------------------------------------------------
def _path_ends(d: str) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]]:
    import re
    nums = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return (nums[0], nums[1]), (nums[2], nums[3]), (nums[4], nums[5])


def test_chain_arrows_stop_at_the_candidate_edge():
    step, st = family_step("chains")
    root = parse(render_svg(step, state=st))
    discs = [(float(e.get("cx")), float(e.get("cy")), float(e.get("r")))
             for e in by_class(root, "chain-node")]
    cands = [(float(e.get("x")), float(e.get("y")) - 0.35 * float(e.get("font-size")),
              float(e.get("font-size"))) for e in by_class(root, "cand")]
    links = by_class(root, "link")
    assert links and discs
    for e in links:
        start, _ctrl, end = _path_ends(e.get("d"))
        for (x, y) in (start, end):
            # on the edge of a chain node's disc (just outside it), not on its digit
            near = min(discs, key=lambda c: math.hypot(c[0] - x, c[1] - y))
            dist = math.hypot(near[0] - x, near[1] - y)
            assert near[2] <= dist <= near[2] * 1.6
            for (cx, cy, fs) in cands:
                assert math.hypot(cx - x, cy - y) >= 0.5 * fs


def test_close_chain_nodes_get_a_bend_with_room_for_the_arrowhead():
    # (2)r1c1 = (3)r1c1: two candidates side by side in one cell
    s = Step("x", links=(Link((Candidate(0, 2),), (Candidate(0, 3),), True),), title="T",
             pattern=(Candidate(0, 2), Candidate(0, 3)))
    root = parse(render_svg(s))
    start, ctrl, end = _path_ends(by_class(root, "link")[0].get("d"))
    chord = math.hypot(end[0] - start[0], end[1] - start[1])
    # the curve's length is at least the polygon's lower bound (chord), and the control
    # point lies well off the chord: the arrowhead (4 stroke widths) has room
    stroke = float(by_class(root, "link")[0].get("stroke-width"))
    poly = math.hypot(ctrl[0] - start[0], ctrl[1] - start[1]) + \
        math.hypot(end[0] - ctrl[0], end[1] - ctrl[1])
    assert (chord + poly) / 2 > 3 * 4 * stroke


def test_captions_wrap_at_word_breaks_never_inside_a_cell_name():
    import re
    from sudoku_csp.render import wrap_text
    step, st = family_step("chains")
    text = step.explain(2)
    names = re.compile(r"r\d+c\d+")
    for width in (12, 20, 33, 47, 60):
        lines = wrap_text(text, width)
        assert all(len(ln) <= width for ln in lines)
        assert [m for ln in lines for m in names.findall(ln)] == names.findall(text)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    root = parse(render_svg(step, state=st))
    lines = [e.text for e in by_class(root, "note")]
    assert [m for ln in lines for m in names.findall(ln)] == names.findall(text)


# -- legibility: long captions, lines under candidates, arrangement reasons -------------------
def test_a_long_caption_goes_beside_the_picture_whole() -> None:
    """A step's text that would take more than eight lines under the grid is set beside
    it, in a column as wide as it takes, and never cut ("..." was the old end)."""
    words = [f"reason{i}" for i in range(300)]
    step = Step("x", eliminations=(Candidate(0, 1),), note=" ".join(words))
    root = parse(render_svg(step))
    notes = by_class(root, "note")
    told = " ".join(t.text for t in notes)
    assert "..." not in told
    assert all(w in told for w in words)
    grid_right = max(float(e.get("x")) + float(e.get("width")) for e in by_class(root, "cell"))
    assert min(float(t.get("x")) for t in notes) >= grid_right      # beside, not under
    # every line fits the picture (DejaVu Sans: at most 0.62 em a character)
    width = float(root.get("width"))
    for t in notes:
        assert float(t.get("x")) + len(t.text) * 0.62 * float(t.get("font-size")) <= width
    short = parse(render_svg(Step("x", eliminations=(Candidate(0, 1),), note="short")))
    (under,) = [t for t in by_class(short, "note")]
    assert float(under.get("y")) > max(float(e.get("y")) for e in by_class(short, "cell"))


def test_lines_lie_under_the_candidates_and_are_lightened() -> None:
    """Thermo bulbs and lines are drawn before (under) the digits, and lightened when
    candidates are drawn, so a digit on a line stays legible."""
    p = Puzzle(9).use(classic(), thermo("r1c1", "r1c2", "r1c3"))
    st = p.propagate()
    root = parse(render_svg(st))
    layers = [g.get("class") for g in root if g.tag.endswith("}g")]
    assert layers.index("layer-lines") < layers.index("layer-digits")
    lines = next(g for g in root if g.get("class") == "layer-lines")
    assert by_class(lines, "thermo-bulb") and float(lines.get("opacity")) < 1
    bare = parse(render_svg(p))                 # a puzzle alone: lines at full strength
    assert next(g for g in bare if g.get("class") == "layer-lines").get("opacity") is None


def test_an_arrangement_step_pictures_its_reason() -> None:
    """The house-arrangement example of variants.arrangement_logic: r1c3=1 (tried, orange)
    makes r1c2 9 (blue, an arrow from the 1), and r1c1 is left with nothing (outlined)."""
    from variants.dots import x_dot
    p = Puzzle(9).use(classic(), x_dot("r1c1", "r1c2"))
    st = p.propagate()
    st.cand[p.cell("r1c2")] = 1 << 1 | 1 << 9
    step = StepSolver().find_all(st, "house_arrangement")[0]
    root = parse(render_svg(step, state=st))
    (trial,) = by_class(root, "trial")
    (forced,) = by_class(root, "forced")
    xy = lambda e: (float(e.get("cx")), float(e.get("cy")))   # noqa: E731
    S, x0, y0 = 50, 7.5, 7.5                                   # cell size, grid origin
    assert (xy(trial)[0] - x0) // S == 2 and (xy(trial)[1] - y0) // S == 0     # r1c3
    assert (xy(forced)[0] - x0) // S == 1                                       # r1c2
    assert len(by_class(root, "implies")) == 1
    (broken,) = by_class(root, "broken")
    xs = [float(v) for v in re.findall(r"M([\d.]+)", broken.get("d"))]
    assert min(xs) >= x0 and max(xs) <= x0 + S                                  # r1c1



def test_a_step_naming_its_rule_by_label_shades_the_rule():
    """A step that names its rule by the rule's kind and first cell (``thermo r1c1``, as the
    thermometer techniques do) shades that rule's cells, as it shades a row or a named
    constraint: the renderer once knew only the houses' and constraints' names, so the
    thermometer of every Thermo Length step went unshaded (101 of the 2,009 house names
    the steps of 26 f-puzzles gave)."""
    p, _ = fpuzzle("Thermal Scanner")
    run = StepSolver().start(p)
    state = run.state.copy()
    next(run)
    step = run.steps[-1]
    assert step.technique == "thermo_length" and list(step.houses) == ["thermo r1c1"]
    bulb = next(b for b, _n in p.bundles
                if isinstance(b, thermo) and p.grid.cells(b.cells)[0] == p.grid.cell("r1c1"))
    [house] = by_class(parse(render_svg(step, state=state)), "house")
    assert house.get("d").count("M") == len(set(p.grid.cells(bulb.cells))) > 1


def test_a_line_step_shades_its_line():
    """The line techniques name a whispers line of another difference than 5 as
    ``whispers (difference 4) r1c1``: its step shades that line (it once shaded nothing)."""
    p, _ = fpuzzle("Dutch Whispers")
    run = StepSolver().start(p)
    while True:
        state = run.state.copy()
        next(run)                  # StopIteration: no step names a Dutch whispers line
        step = run.steps[-1]
        if any(h.startswith("whispers (difference 4)") for h in step.houses):
            break
    [house] = by_class(parse(render_svg(step, state=state)), "house")
    line = next(b for b, _n in p.bundles if isinstance(b, variants.whispers)
                and f"{p.grid.name(p.grid.cells(b.cells)[0])}" in step.houses[0])
    assert house.get("d").count("M") == len(set(p.grid.cells(line.cells))) > 1


def test_every_rule_name_a_step_carries_shades_its_cells():
    """On a sample of the shared variant set (the two skyscraper puzzles, whose paired clues
    name their ``constraint`` steps ``skyscraper 2 at r10c8 and 3 opposite``, and a seeded
    sample of four others), every house or rule name of every step of a logic solve shades
    at least one cell of the picture. The renderer once knew the constraints' and bundles'
    names but not the propagators': 33 of 15,164 names on the whole set went unshaded."""
    import random
    from sudoku_csp.render import canvas, house_markup
    rows = fpuzzles()
    sky = [o for o in rows if "scraper" in o["title"].lower()]
    rest = [o for o in rows if o not in sky]
    assert len(sky) >= 2
    names = 0
    for obj in sky + random.Random(12).sample(rest, 8)[:4]:
        p = puzzle_from_json(obj)[0]
        res = StepSolver().solve(p, max_steps=400)
        cv = canvas(p)
        seen: set[str] = set()
        for step in res.steps:
            for name in step.houses:
                if name in seen:
                    continue
                seen.add(name)
                names += 1
                assert 'class="house"' in house_markup(cv, [name], p), (obj["title"], name)
    assert names > 100
