"""sudoku-csp's own JSON puzzle format (version 1).

A puzzle is the grid, the givens and the list of rule bundles it uses, each written as its
rule name and its constructor arguments::

    {"format": "sudoku-csp", "version": 1, "size": 9, "box": [3, 3],
     "givens": "4.....8.5...",
     "rules": [{"rule": "classic"}, {"rule": "killer_cage", "cells": ["r1c1", "r1c2"], "total": 7}],
     "title": "...", "author": "...", "unique": true}

An ``inferred`` list (what a SudokuPad reading took from the rules text,
``puzzle.meta["inferred"]``) is written beside the metadata and not read back.

``box`` is ``[rows, cols]``, or ``null`` for no boxes; ``regions`` (a list of n*n region
numbers) replaces boxes for jigsaw grids.

Version 2 adds multi-grids (gattai, samurai: :class:`csp.grid.MultiGrid`)::

    {"format": "sudoku-csp", "version": 2, "size": 9, "box": [3, 3],
     "multigrid": {"origins": [[0, 0], [0, 12], [6, 6], [12, 0], [12, 12]],
                   "labels": ["TL", "TR", "C", "BL", "BR"]},
     "givens": "<one character per cell of the multi-grid, canvas row-major>",
     "rules": [{"rule": "classic"}]}

``origins`` are the 0-based canvas (row, col) of each n x n sub-grid; cell names in rules
are canvas coordinates. Documents are written with the lowest version that holds them
(version 1 unless there is a multi-grid); this release reads versions 1 and 2. Every bundle of :data:`RULES` round-trips;
constraints added directly with ``Puzzle.add`` (not through a bundle) cannot be exported and
raise :class:`SpecError` naming them.

>>> from csp import Puzzle
>>> from variants import classic, killer_cage
>>> p = Puzzle(4).use(classic(), killer_cage(["r1c1", "r1c2"], total=4)).givens("1...............")
>>> spec = to_spec(p)
>>> spec["rules"][1]
{'rule': 'killer_cage', 'cells': ['r1c1', 'r1c2'], 'total': 4, 'name': ''}
>>> from_spec(spec).count_solutions(100) == p.count_solutions(100) > 1
True
"""
from __future__ import annotations

import inspect
import json
from typing import Any

from csp import Grid, Puzzle
from csp.budget import Budget
from csp.grid import MultiGrid
from csp.errors import InvalidPuzzle
from csp.io import parse_line, write_line
from csp.text import did_you_mean, quoted, quoted_list
from variants import rule_modules
from variants.record import find_record


FORMAT = "sudoku-csp"
VERSION = 2
#: versions this release reads
READS = (1, 2)


class SpecError(InvalidPuzzle):
    """A puzzle that cannot be written in, or a document that is not valid, sudoku-csp JSON."""


def _rule_classes() -> dict[str, type]:
    out: dict[str, type] = {}
    for mod in rule_modules():
        for name, obj in vars(mod).items():
            if (inspect.isclass(obj) and obj.__module__ == mod.__name__
                    and not name.startswith("_") and callable(getattr(obj, "apply", None))):
                out[name] = obj
    return out


#: rule name -> bundle class
RULES: dict[str, type] = _rule_classes()


def _jsonable(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise TypeError(type(v).__name__)


def bundle_to_dict(b: Any) -> dict:
    """``{"rule": name, **arguments}`` of a rule bundle (its constructor arguments are read
    back from the attributes of the same name)."""
    cls = type(b)
    name = cls.__name__
    if RULES.get(name) is not cls:
        raise SpecError(f"rule bundle {name} is not a registered sudoku-csp rule")
    out: dict[str, Any] = {"rule": name}
    if cls.__init__ is object.__init__:
        return out
    for pname, par in inspect.signature(cls.__init__).parameters.items():
        if pname == "self":
            continue
        if not hasattr(b, pname):
            raise SpecError(f"rule {name}: argument {quoted(pname)} is not kept on the bundle")
        try:
            out[pname] = _jsonable(getattr(b, pname))
        except TypeError as e:
            raise SpecError(f"rule {name}: argument {quoted(pname)} is not JSON data ({e})") from None
    return out


#: the largest number a rule argument may be (sums, differences, clue values, cell ids)
MAX_NUMBER = 10 ** 6


def _kind_ok(kind: str, v: Any) -> bool:
    """Whether JSON value ``v`` fits a rule argument of type ``kind`` (one of
    :data:`variants.record.ARG_TYPES`, as the rule's record declares it)."""
    def is_int(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_NUMBER

    if kind == "int?":
        return v is None or is_int(v)
    if kind == "int":
        return is_int(v)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "str":
        return isinstance(v, str)
    if kind == "ints":
        return isinstance(v, list) and all(is_int(x) for x in v)
    if kind == "positions":
        return isinstance(v, list) and all(isinstance(x, list) and len(x) == 2
                                           and all(is_int(y) for y in x) for x in v)
    if kind in ("cells", "cell-lists"):
        inner = "cell" if kind == "cells" else "cells"
        return isinstance(v, list) and all(_kind_ok(inner, x) for x in v)
    # a cell (name, id, [row, col]) or a list of them / of digits
    if isinstance(v, list):
        return all(_kind_ok("cell", x) for x in v)
    return is_int(v) or isinstance(v, str)


_KIND_WORDS = {"int": "an integer", "int?": "an integer or null", "bool": "true or false",
               "str": "a string", "ints": "a list of integers", "cells": "a list of cells",
               "cell-lists": "a list of cell lists", "cell": "a cell or a list of cells",
               "positions": "a list of [row, col] clue places"}


def _check_args(name: str, sig: inspect.Signature, args: dict) -> None:
    kinds = {n.lstrip("*"): k for n, k in find_record(RULES[name]).args}
    for pname, par in sig.parameters.items():
        if pname not in args:
            continue
        kind = kinds.get(pname, "cell")
        v = args[pname]
        if par.kind == par.VAR_POSITIONAL:
            ok = _kind_ok(kind, v) or (isinstance(v, list) and all(_kind_ok(kind, x) for x in v))
        else:
            ok = _kind_ok(kind, v)
        if not ok:
            size = f" of at most {MAX_NUMBER:,} in size" if _big_int(v) else ""
            raise SpecError(f"rule {name}: {quoted(pname)} must be {_KIND_WORDS[kind]}{size}, "
                            f"got {_shown(v)}")


def _jsonable_ok(v: Any) -> bool:
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


def bundle_from_dict(d: dict) -> Any:
    if not isinstance(d, dict) or "rule" not in d:
        raise SpecError("each rule must be an object with a 'rule' key")
    name = d["rule"]
    if not isinstance(name, str):
        raise SpecError(f"a rule's 'rule' must be its name (a string), got {json.dumps(name)[:40]}")
    cls = RULES.get(name)
    if cls is None:
        raise SpecError(f"unknown rule {quoted(name)}{did_you_mean(name, RULES)}")
    args = {k: v for k, v in d.items() if k != "rule"}
    if cls.__init__ is object.__init__:
        if args:
            raise SpecError(f"rule {name}: takes no arguments, got {', '.join(sorted(args))}")
        return cls()
    sig = inspect.signature(cls.__init__)
    _check_args(name, sig, args)
    pos: list[Any] = []
    kw: dict[str, Any] = {}
    for pname, par in sig.parameters.items():
        if pname == "self":
            continue
        if pname not in args:
            if par.default is inspect.Parameter.empty and par.kind != par.VAR_POSITIONAL:
                raise SpecError(f"rule {name}: missing argument {quoted(pname)}")
            continue
        v = args.pop(pname)
        if par.kind == par.VAR_POSITIONAL:
            pos.extend(v if isinstance(v, list) else [v])
        else:
            kw[pname] = v
    if args:
        first = sorted(args)[0]
        hint = did_you_mean(first, [k for k in sig.parameters if k != "self"])
        raise SpecError(f"rule {name}: unknown argument(s) {quoted_list(sorted(args))}{hint}")
    try:
        return cls(*pos, **kw)
    except (TypeError, ValueError) as e:
        raise SpecError(f"rule {name}: {e}") from None


def to_spec(p: Puzzle) -> dict:
    """The puzzle as a sudoku-csp JSON object (see the module docstring)."""
    used = p.bundles
    covered = 0
    rules = []
    for b, count in used:
        if isinstance(b, (tuple, list)):
            continue
        rules.append(bundle_to_dict(b))
        covered += count
    if covered != len(p.constraints):
        direct = [c for c in p.constraints if not any(c in cs for cs in p.bundle_constraints)]
        names = ", ".join(repr(c) for c in direct[:3])
        raise SpecError(f"constraints added without a rule bundle cannot be exported: {names}")
    g = p.grid
    out: dict[str, Any] = {"format": FORMAT, "version": 1, "size": g.n}
    if isinstance(g, MultiGrid):
        out["version"] = 2
        out["box"] = list(g.box_shape) if g.box_shape else None
        out["multigrid"] = {"origins": [list(o) for o in g.origins], "labels": list(g.labels)}
    elif g.region_kind == "region":
        out["box"] = None
        out["regions"] = [g.region_of[c] for c in range(g.size)]
    else:
        out["box"] = list(g.box_shape) if g.box_shape else None
    out["givens"] = write_line([p.given.get(c, 0) for c in range(g.size)], g.n)
    out["rules"] = rules
    for k in ("title", "author", "ruleset", "inferred"):
        if k in p.meta:
            out[k] = p.meta[k]
    if p.unique is not None:
        out["unique"] = p.unique
    return out


def _multigrid(obj: dict, n: int) -> MultiGrid:
    """The multi-grid of a version 2 document: every shape, type and bound checked before
    anything is built (a canvas over :data:`csp.grid.MAX_CANVAS_CELLS` is refused with
    the size it would have)."""
    if obj.get("version") == 1:
        raise SpecError("'multigrid' needs format version 2")
    mg = obj["multigrid"]
    if not isinstance(mg, dict) or not isinstance(mg.get("origins"), list):
        raise SpecError("'multigrid' must be an object with an 'origins' list")
    unknown = sorted(k for k in mg if k not in ("origins", "labels"))
    if unknown:
        raise SpecError(f"'multigrid' has unknown key(s) {quoted_list(unknown)} "
                        "(it takes 'origins' and 'labels')")
    origins = mg["origins"]
    if not all(isinstance(o, list) and len(o) == 2 for o in origins):
        raise SpecError("multigrid 'origins' must be [row, col] pairs")
    box = obj.get("box")
    if box is not None and not (isinstance(box, list) and len(box) == 2
                                and all(isinstance(x, int) and not isinstance(x, bool)
                                        for x in box)):
        raise SpecError("'box' must be [rows, cols]")
    if not all(isinstance(x, int) and not isinstance(x, bool) for o in origins for x in o):
        raise SpecError("multigrid 'origins' must be [row, col] pairs of integers")
    labels = mg.get("labels")
    if labels is not None and not (isinstance(labels, list)
                                   and all(isinstance(x, str) for x in labels)):
        raise SpecError("multigrid 'labels' must be a list of strings, one per sub-grid, got "
                        + _shown(labels))
    try:
        return MultiGrid(n, [tuple(o) for o in origins], tuple(box) if box else None, labels)
    except InvalidPuzzle as e:
        raise SpecError(f"multigrid: {e}") from None


def _shown(v: Any) -> str:
    """A JSON value for a message: at most 40 characters, on one line (an int too long to
    print, given through the API, by :func:`csp.text.quoted`)."""
    try:
        text = json.dumps(v) if _jsonable_ok(v) else repr(v)
    except ValueError:
        return quoted(v, 37)
    return text if len(text) <= 40 else text[:37] + "..."


def _big_int(v: Any) -> bool:
    """Whether ``v`` holds an int past :data:`MAX_NUMBER` (in lists, as rule arguments do)."""
    if isinstance(v, list):
        return any(_big_int(x) for x in v[:10_000])
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_NUMBER


#: the top-level keys a sudoku-csp document may hold (docs/formats.md); ``inferred`` is
#: written for the reader and not read back, ``solution`` is a stated solution the loader
#: reads (as in a JSON line of any format)
KEYS = ("format", "version", "size", "box", "regions", "multigrid", "givens", "rules", "title",
        "author", "ruleset", "unique", "inferred", "solution")


def is_spec(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("format") == FORMAT


def from_spec(obj: dict, budget: Budget | None = None) -> Puzzle:
    """Build a Puzzle from a sudoku-csp JSON object, within ``budget`` (each rule ticks
    it)."""
    if not is_spec(obj):
        raise SpecError(f"not a sudoku-csp document (needs \"format\": \"{FORMAT}\")")
    if obj.get("version") not in READS:
        raise SpecError(f"unsupported sudoku-csp format version {quoted(obj.get('version'))} "
                        f"(this release reads versions {', '.join(map(str, READS))})")
    unknown = sorted((k for k in obj if k not in KEYS), key=str)
    if unknown:
        raise SpecError(f"unknown key(s) {quoted_list(unknown)}"
                        f"{did_you_mean(str(unknown[0]), KEYS)} (the keys of a sudoku-csp "
                        f"document: {', '.join(KEYS)})")
    n = obj.get("size")
    if not isinstance(n, int) or isinstance(n, bool):
        raise SpecError("'size' must be an integer")
    if obj.get("multigrid") is not None:
        grid = _multigrid(obj, n)
    elif obj.get("regions") is not None:
        regs = obj["regions"]
        if not isinstance(regs, list) or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in regs):
            raise SpecError("'regions' must be a list of region numbers, one per cell")
        grid = Grid(n, regions=regs)
    elif "box" in obj and obj["box"] is None:
        grid = Grid(n, box=False)
    elif "box" in obj:
        box = obj["box"]
        if not (isinstance(box, list) and len(box) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in box)):
            raise SpecError("'box' must be [rows, cols] or null")
        grid = Grid(n, box=tuple(box))
    else:
        grid = Grid(n)
    p = Puzzle(grid, name=str(obj.get("title", "")))
    rules = obj.get("rules", [{"rule": "classic"}])
    if not isinstance(rules, list):
        raise SpecError("'rules' must be a list")
    for r in rules:
        if budget is not None:
            budget.check("parsing")
        b = bundle_from_dict(r)
        try:
            p.use(b)
        except InvalidPuzzle as e:
            msg, prefix = str(e), f"rule {type(b).__name__}: "
            raise SpecError(msg if msg.startswith(prefix) else prefix + msg) from None
    givens = obj.get("givens")
    if givens:
        if not isinstance(givens, str):
            raise SpecError("'givens' must be a line string")
        _, vals = parse_line(givens, n, grid.size)
        p.givens(vals)
    for k in ("title", "author", "ruleset"):
        if k in obj:
            p.meta[k] = obj[k]
    if "unique" in obj:
        p.unique = bool(obj["unique"])
    return p


__all__ = ["FORMAT", "VERSION", "READS", "RULES", "SpecError", "to_spec", "from_spec", "is_spec",
           "bundle_to_dict", "bundle_from_dict"]

