"""The rule records (variants/record.py): every public rule has every entry (or says that a
format cannot hold it, and why), the application's tables are the records' (renderer,
f-puzzles, SudokuPad, own JSON), and ``sudoku-csp rules`` lists them."""
from __future__ import annotations

import functools
import inspect
import json

import pytest

import variants
from csp import Puzzle
from sudoku_csp.cli import main
from variants.classic import classic
from variants.record import (ARG_TYPES, DRAWING_STYLES, FPUZZLES_SHAPES, SUDOKUPAD_ELEMENTS,
                             record_of, records, rule_classes)

NAMES = sorted(records())
#: f-puzzles keys read by code other than a HANDLERS entry: ``negative`` with the dots,
#: ``givenPencilMarks`` from a cell of the grid
NOT_TOP_LEVEL = {"negative", "givenPencilMarks"}


def test_every_public_rule_class_has_its_own_record():
    classes = rule_classes()
    assert len(classes) >= 44 and set(classes) == set(records())
    for mod in variants.rule_modules():        # a rule class outside __all__ would be missed
        for name in mod.__all__:
            obj = getattr(mod, name)
            if isinstance(obj, type):
                assert record_of(obj) is not None, f"{mod.__name__}.{name} has no record"
            else:
                assert not hasattr(obj, "record"), name    # builders: the classes they make


@pytest.mark.parametrize("name", NAMES)
def test_record_is_complete(name):
    from techniques import registry
    cls, r = rule_classes()[name], records()[name]
    fp = r.fpuzzles
    assert fp.shape in FPUZZLES_SHAPES
    if fp.shape == "none":
        assert fp.reason and not fp.all_keys
    elif fp.shape == "custom":
        assert fp.all_keys or fp.reason
    else:
        assert fp.key and not fp.reason
    assert r.sudokupad, "say what SudokuPad holds, or that it cannot"
    for sp in r.sudokupad:
        assert sp.element in SUDOKUPAD_ELEMENTS and sp.kind
        if sp.element in ("none", "custom"):
            assert sp.reason, (name, sp.kind, "needs the reason")
    assert r.drawing.style
    params = [("*" if p.kind == p.VAR_POSITIONAL else "") + n
              for n, p in inspect.signature(cls).parameters.items()]
    assert [a for a, _ in r.args] == params, "record args are the constructor's, in order"
    assert all(t in ARG_TYPES for _, t in r.args)
    assert set(r.logic) <= set(variants.LOGIC_MODULES)
    techs = registry.load()
    for t in r.techniques:
        assert t in techs, f"{name}: unknown technique {t}"
        assert techs[t].finder.__module__.rsplit(".", 1)[1] in r.logic, (name, t)
    assert bool(r.techniques) == bool(r.logic)


@pytest.mark.parametrize("name", NAMES)
def test_renderer_reads_the_record(name):
    from sudoku_csp.render import DRAWERS, OUTSIDE_RULES, draw_rule, has_drawer
    cls, r = rule_classes()[name], records()[name]
    assert r.drawing.style in DRAWERS and has_drawer(cls)
    assert draw_rule.dispatch(cls) is DRAWERS[r.drawing.style]
    assert (cls in OUTSIDE_RULES) == r.outside
    if r.drawing.style in ("line", "shade"):
        assert r.drawing.colour.startswith("#")
    if r.drawing.style in ("note", "cage"):
        assert r.drawing.label is not None
    assert set(DRAWING_STYLES) <= set(DRAWERS)


@pytest.mark.parametrize("name", NAMES)
def test_formats_read_the_record(name):
    from sudoku_csp.formats import sudokupad as sp_mod
    from sudoku_csp.formats.fpuzzles import HANDLERS, ExportError, export_rule
    from sudoku_csp.formats.fpuzzles.write import _Out
    from sudoku_csp.formats.spec import RULES
    cls, r = rule_classes()[name], records()[name]
    fp = r.fpuzzles
    assert RULES[name] is cls
    assert export_rule.dispatch(cls) is not export_rule.dispatch(object)
    for k in fp.all_keys:
        assert k in HANDLERS or k in NOT_TOP_LEVEL, (name, k)
    if fp.shape == "none":
        with pytest.raises(ExportError, match="f-puzzles cannot express it"):
            export_rule.dispatch(cls)(None, _Out(Puzzle(9)))
    for s in r.sudokupad:
        if s.element == "line":
            key, default = sp_mod.LINE_KINDS[s.kind]
            assert key == fp.key and fp.shape == "line"
            assert default is (s.default or fp.default)
            assert (sp_mod._END_MARKERS.get(s.kind)) == s.ends
        for conv in s.conventions:
            assert sp_mod.CONVENTIONS[conv] == s.kind
        for a in s.aliases:
            assert sp_mod._kind(a) == s.kind
        if s.element == "global":
            assert sp_mod._GLOBAL[s.kind] == s.key == fp.key
        if s.element in ("line", "cage", "shape", "outside"):     # --line COLOUR=MEANING
            assert sp_mod.parse_meanings({"#123456": s.kind}) == {"#123456": (s.kind, None)}
        if s.text:                              # the rules-text reader reads the record
            from sudoku_csp.formats.sudokupad_rules import _RULES, RulesText
            obj = s.drawn or s.element
            assert obj in ("line", "circle", "arrow") and _RULES[s.kind][0] == obj
            assert len(_RULES[s.kind][1]) == len(s.text)
            if s.element == "custom":           # f-puzzles cannot hold it: built after
                assert (s.kind, obj) in sp_mod._BUILT_AFTER
                assert rule_classes()[sp_mod._AFTER_CLASS[s.kind]] is cls
            for sup in s.suppresses:
                assert sup in _RULES, (name, sup)
            # its own name, as a rules-text statement about a red element, reads as it
            words = {"arrow": "arrows outside the grid"}.get(obj, f"{obj}s")
            said = s.text[0].replace("\\b", "").replace("(german )?", "").replace("s?", "")
            said = said.split("(")[0]
            if said.isascii() and said.replace(" ", "").isalpha():
                got = RulesText(f"Red {words} are {said}.").meaning("#E03030", obj)
                assert got is not None and got.kind == s.kind, (name, said, got)


def _sample(r) -> list:
    """Constructor arguments of a rule of the declared f-puzzles shape, on a 9x9 grid."""
    cells = ["r2c2", "r2c3", "r3c4"]
    out: list = []
    for a, t in r.args:
        if a == "*cells":
            out += cells
        elif t == "cells":
            out.append(cells)
        elif t == "int":
            out.append({"row": 0, "col": 3}.get(a, 3))
    return out


DECLARED = [n for n in NAMES if records()[n].fpuzzles.shape in ("line", "flag", "cells",
                                                                 "outside")]


@pytest.mark.parametrize("name", DECLARED)
def test_declared_shapes_round_trip_through_fpuzzles(name):
    """A rule read and written only through its record's shape comes back the same."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles, to_fpuzzles
    from sudoku_csp.formats.spec import bundle_to_dict
    cls, r = rule_classes()[name], records()[name]
    rule = cls(*_sample(r))
    doc = to_fpuzzles(Puzzle(9).use(classic(), rule))
    assert r.fpuzzles.key in doc
    back = [b for b, _ in load_fpuzzles(doc).bundles if type(b) is cls]
    assert [bundle_to_dict(b) for b in back] == [bundle_to_dict(rule)]


def test_the_generic_line_drawer_draws_a_new_rule_from_its_record():
    """A new line rule is drawn by the generic ``line`` drawer in its record's colour and
    width (the renderer has no colour table to extend)."""
    from sudoku_csp.render import DRAWERS
    from variants.lines import renban
    from variants.record import Drawing, FPuzzles, RuleRecord, SudokuPad

    class wide_renban(renban):
        record = RuleRecord(FPuzzles("line", "widerenban"),
                            (SudokuPad("wide-renban", "line"),),
                            Drawing("line", "#123456", width=0.3), args=(("cells", "cells"),))

    from sudoku_csp import render
    from sudoku_csp.render import render_svg
    render.draw_rule.register(wide_renban, DRAWERS[wide_renban.record.drawing.style])
    svg = render_svg(Puzzle(9).use(classic(), wide_renban(["r1c1", "r1c2"])))
    assert 'stroke="#123456"' in svg and "line wide-renban" in svg
    assert 'stroke-width="{}"'.format(round(render.cell_size_for(9) * 0.3, 2)).rstrip("0") \
        in svg or "#123456" in svg


def test_rules_command_lists_every_rule(capsys):
    assert main(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(records())
    for row in rows:
        assert set(row) == {"name", "family", "call", "args", "fpuzzles", "sudokupad",
                            "drawing", "logic", "techniques"}
        assert row["call"].startswith(row["name"] + "(")
        assert row["fpuzzles"]["keys"] or row["fpuzzles"]["reason"]
        assert all(s["element"] != "none" or s["reason"] for s in row["sudokupad"])
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [x.split()[0] for x in lines] == list(records())
    whispers = next(x for x in lines if x.startswith("whispers "))
    assert "whispers(cells, diff=5)" in whispers and "#67F067" in whispers
    assert "whisper_polarity" in whispers


@functools.cache
def _fpuzzles_keys_by_rule() -> dict[str, set[str]]:
    return {n: set(r.fpuzzles.all_keys) for n, r in records().items()}


def test_every_fpuzzles_key_belongs_to_a_rule_record():
    """The reader has no key that no record names (the formats keep no rule of their own)."""
    from sudoku_csp.formats.fpuzzles import HANDLERS
    named = set().union(*_fpuzzles_keys_by_rule().values())
    assert set(HANDLERS) <= named
