"""``sudoku-csp rules [--json]``: every public rule of :mod:`variants`, read from its record
(:mod:`variants.record`): its name, the Python call that makes it, how f-puzzles holds it,
its SudokuPad meanings and conventions, how it is drawn, the ``*_logic`` modules serving it
and the named techniques they bring.

>>> rows = rule_rows()
>>> w = next(r for r in rows if r["name"] == "whispers")
>>> w["call"], w["fpuzzles"]["key"], [s["kind"] for s in w["sudokupad"]]
('whispers(cells, diff=5)', 'whispers', ['whispers', 'dutch-whispers'])
>>> next(r for r in rows if r["name"] == "multi_sum_cage")["fpuzzles"]["reason"]
'a killer cage has one total'
"""
from __future__ import annotations

import argparse
import inspect
import json
from typing import Any

from . import COMMANDS


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``rules`` on the CLI's subparsers."""
    t = sub.add_parser("rules", help=COMMANDS["rules"])
    t.add_argument("--json", action="store_true",
                   help="a JSON list: name, family, call, args, fpuzzles, sudokupad, drawing, "
                        "logic, techniques of each rule")
    t.set_defaults(run=run)
    return t


def python_call(cls: type) -> str:
    """The call that makes a rule, its arguments with their defaults
    (``whispers(cells, diff=5)``, ``thermo(*cells)``)."""
    parts = []
    for name, par in inspect.signature(cls).parameters.items():
        if par.kind == par.VAR_POSITIONAL:
            parts.append(f"*{name}")
        elif par.default is par.empty:
            parts.append(name)
        else:
            parts.append(f"{name}={par.default!r}")
    return f"{cls.__name__}({', '.join(parts)})"


def rule_rows() -> list[dict[str, Any]]:
    """One JSON-ready row per public rule, in catalogue order (see the module docstring)."""
    import variants
    from variants.record import records, rule_classes
    families = variants.rules()
    rows = []
    for name, r in records().items():
        fp, dr = r.fpuzzles, r.drawing
        rows.append({
            "name": name, "family": families[name], "call": python_call(rule_classes()[name]),
            "args": [{"name": a.lstrip("*"), "type": t} for a, t in r.args],
            "fpuzzles": {"shape": fp.shape, "key": fp.key or None, "keys": list(fp.all_keys),
                         "value": fp.value, "reason": fp.reason or None},
            "sudokupad": [{"kind": s.kind, "element": s.element,
                           "conventions": [{"colour": c, "thickness": th}
                                           for c, th in s.conventions],
                           "ends": s.ends, "aliases": list(s.aliases),
                           "reason": s.reason or None} for s in r.sudokupad],
            "drawing": {"style": dr.style, "colour": dr.colour or None},
            "logic": list(r.logic), "techniques": list(r.techniques)})
    return rows


def _fpuzzles_text(fp: dict[str, Any]) -> str:
    if fp["shape"] == "none":
        return "cannot: " + fp["reason"]
    return "/".join(fp["keys"]) or f"({fp['reason']})"


def _sudokupad_text(sps: list[dict[str, Any]]) -> str:
    out = []
    for s in sps:
        if s["element"] == "none":
            out.append("cannot: " + s["reason"])
            continue
        conv = " ".join(c["colour"] + (f"/{c['thickness']}" if c["thickness"] else "")
                        for c in s["conventions"])
        out.append(f"{s['kind']} ({s['element']}{' ' + conv if conv else ''})")
    return "; ".join(out)


def run(args: argparse.Namespace) -> int:
    rows = rule_rows()
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        print(f"{r['name']:25s} {r['call']:45s} f-puzzles: {_fpuzzles_text(r['fpuzzles'])}"
              f" | SudokuPad: {_sudokupad_text(r['sudokupad'])}"
              f" | techniques: {', '.join(r['techniques']) or '-'}")
    return 0
