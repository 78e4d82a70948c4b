"""Help that answers (issue 27, item 2): ``--version``, a description and the default of
every option of every command, "did you mean" for misspelt names, and ``sudoku-csp rate``."""
from __future__ import annotations

import argparse
import json
import re
from importlib import metadata

import pytest

from sudoku_csp import cli
from sudoku_csp.cli import build_parser, main, shows_default
from sudoku_csp.commands import COMMANDS

from conftest import ROOT

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
# Sudoku Exchange puzzles with their published Sudoku Explainer 1.2.1 rating (as in
# tests/techniques/test_se_rating.py)
SE_20 = "3....6.8969.8...7...12..3..4.....91.....2.....35.....2..3..85...4...3.9195.7....4"
SE_32 = "..1...4..5.9.3.1.86..8.1..232.....854..5.6..7.........8..4.3..1.4.....5.9...1...4"
MULTI = "1..............."            # 4x4 with 72 solutions


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def usage_error(capsys, *argv: str) -> str:
    """The one stderr line of a usage error (exit 2), checked."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudoku-csp: error: "), err
    return lines[0]


# -- --version -------------------------------------------------------------------------
def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out == f"sudoku-csp {metadata.version('sudoku-csp')}\n"
    assert re.fullmatch(r"sudoku-csp \d+\.\d+\S*\n", out)


def test_version_falls_back_to_pyproject(monkeypatch):
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "version", missing)
    import tomllib
    with open(ROOT / "pyproject.toml", "rb") as f:
        want = tomllib.load(f)["project"]["version"]
    assert cli.version() == want


# -- every option described, with its default --------------------------------------------
def _subparsers() -> dict[str, argparse.ArgumentParser]:
    ap = build_parser()
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(COMMANDS)
    return {"": ap, **sub.choices}


def _shown(value: object) -> set[str]:
    out = {str(value)}
    if isinstance(value, float) and value.is_integer():
        out.add(str(int(value)))          # "(default 60)" for 60.0
    return out


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_every_option_has_a_description_and_its_default(command):
    parser = _subparsers()[command]
    formatter = parser._get_formatter()
    checked = 0
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        text = formatter._expand_help(action) if action.help else ""
        assert text.strip(), f"{command} {action.option_strings or action.dest}: no help"
        if shows_default(action):
            checked += 1
            assert "default" in text and any(s in text for s in _shown(action.default)), \
                f"{command} {action.option_strings}: default {action.default!r} not shown"
    help_text = parser.format_help()
    assert "%(default)" not in help_text
    if command in ("count", "graph", "generate", "solve"):
        assert checked >= 2            # options with defaults were seen (the walk works)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_number_option_without_a_default_says_what_its_absence_means(command):
    """An option that takes a number (a limit, a seed, a count, a step) but has no default
    value says what leaving it out does (``default: no limit``, ``default: random``)."""
    parser = _subparsers()[command]
    def takes_a_number(a: argparse.Action) -> bool:
        name = getattr(a.type, "__name__", "")
        return name in ("node_limit", "seconds") or name.startswith("whole number")
    silent = [a.option_strings for a in parser._actions
              if a.option_strings and a.default is None and takes_a_number(a)
              and "default" not in (a.help or "")]
    assert silent == []


def test_defaults_appear_in_the_help_text(capsys):
    for argv, want in ((["count", "--help"], "(default: auto)"),
                       (["count", "--help"], "(default 60)"),
                       (["graph", "--help"], "(default: constraint)"),
                       (["generate", "--help"], "(default: 9)"),
                       (["rate", "--help"], "(default: both)")):
        with pytest.raises(SystemExit):
            main(argv)
        out = re.sub(r"\s+", " ", capsys.readouterr().out)
        assert want in out, (argv, want)


# -- did you mean ----------------------------------------------------------------------
def test_did_you_mean_a_technique(capsys):
    line = usage_error(capsys, "solve", "--logic", "--techniques", "xwing", EASY)
    assert "unknown technique or family 'xwing'; did you mean 'x_wing'?" in line
    line = usage_error(capsys, "rate", "--techniques", "singles,-Hidden-Single", EASY)
    assert "did you mean 'hidden_single'?" in line


def test_did_you_mean_a_rule(capsys, tmp_path):
    spec = {"format": "sudoku-csp", "version": 1, "size": 4, "box": [2, 2],
            "givens": "1...............",
            "rules": [{"rule": "classic"}, {"rule": "thremo", "cells": ["r1c1", "r1c2"]}]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    line = usage_error(capsys, "count", str(path))
    assert "unknown rule 'thremo'; did you mean 'thermo'" in line
    spec["rules"][1] = {"rule": "killer_cage", "cells": ["r1c1", "r1c2"], "totl": 4}
    path.write_text(json.dumps(spec))
    assert "unknown argument(s) 'totl'; did you mean 'total'?" in usage_error(capsys, "count",
                                                                            str(path))


def test_did_you_mean_an_fpuzzles_key(capsys, tmp_path):
    obj = {"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)], "thermometr": []}
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj))
    line = usage_error(capsys, "count", str(path))
    assert "'thermometr'; did you mean 'thermometer'" in line


def test_did_you_mean_a_command(capsys):
    line = usage_error(capsys, "slove", EASY)
    assert line.startswith("sudoku-csp: error: unknown command 'slove'; did you mean 'solve'?")
    assert "rate" in line                        # the commands are listed
    assert "did you mean" not in usage_error(capsys, "zzzz")


def test_did_you_mean_an_option_value(capsys):
    assert "invalid choice: 'sta'; did you mean 'sat'?" in usage_error(
        capsys, "solve", "--method", "sta", EASY)
    assert "invalid choice: 'fpuzles'; did you mean 'fpuzzles'" in usage_error(
        capsys, "convert", EASY, "--to", "fpuzles")
    assert "did you mean 'se121'" in usage_error(capsys, "rate", "--rating", "se12", EASY)
    assert "unknown variant 'killr'; did you mean 'killer'?" in usage_error(
        capsys, "generate", "--variant", "killr")


def test_did_you_mean_an_option(capsys):
    line = usage_error(capsys, "count", EASY, "--limt", "3")
    assert "unrecognized arguments: --limt 3; did you mean '--limit'" in line


# -- rate ------------------------------------------------------------------------------
def test_rate_gives_the_published_se_rating_and_the_logic_rating(capsys):
    rc, out, err = run(capsys, "rate", "--rating", "se121", SE_20, SE_32)
    assert rc == 0 and err == ""
    assert [ln.split("/")[0] for ln in out.splitlines()] == ["SE 2.0", "SE 3.2"]
    rc, out, _ = run(capsys, "rate", "--rating", "hodoku", SE_32)
    _, solved, _ = run(capsys, "solve", "--logic", "--json", SE_32)
    rt = json.loads(solved)["rating"]
    assert rc == 0 and out == f"{rt['level']} {rt['score']} (hardest {rt['hardest']})\n"


def test_rate_both_by_default(capsys):
    rc, out, _ = run(capsys, "rate", EASY)
    assert rc == 0
    assert re.fullmatch(r"easy \d+ \(hardest \w+\), SE 1\.2/1\.2/1\.2\n", out)


def test_rate_json(capsys):
    rc, out, _ = run(capsys, "rate", "--json", SE_20, MULTI)
    assert rc == 1
    a, b = map(json.loads, out.splitlines())
    assert a["rated"] is True and a["status"] == "solved" and a["rating"]["level"]
    assert a["se_rating"]["er"] >= 2.0 and len(a["solution"]) == 81 and "reason" not in a
    assert b["rated"] is False and b["status"] == "multiple" and "72 solutions" in b["reason"]
    assert b["rating"] is None and b["se_rating"] is None and b["solution"] is None


def test_rate_refuses_to_rate_an_unsolved_puzzle(capsys):
    rc, out, err = run(capsys, "rate", MULTI)
    assert rc == 1 and out == "not rated: multiple (72 solutions)\n"
    rc, out, _ = run(capsys, "rate", "--techniques", "singles", SE_32)
    assert rc == 1 and out.startswith("not rated: stuck (") and "SE" not in out


def test_rate_a_batch_file(capsys, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text(f"{EASY}\n{MULTI}\nnot a puzzle\n{SE_20}\n")
    rc, out, err = run(capsys, "rate", "--rating", "hodoku", "--progress", "off", str(path))
    assert rc == 1
    lines = out.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(rf"{re.escape(str(path))}:1: easy \d+ \(hardest \w+\)", lines[0])
    assert lines[1] == f"{path}:2: not rated: multiple (72 solutions)"
    assert lines[2].startswith(f"{path}:4: ")
    assert f"{path}:3" in err                     # the bad line is named on stderr
    rc, out, _ = run(capsys, "rate", "--rating", "hodoku", EASY, SE_20)
    assert rc == 0 and len(out.splitlines()) == 2


def test_rate_bad_input_is_a_usage_error(capsys):
    assert "required: puzzle" in usage_error(capsys, "rate")
    assert "not a square grid" in usage_error(capsys, "rate", "12")


def test_rate_result_when_the_se_scale_cannot_rate():
    """With ``both`` a solved puzzle the SE-like scale cannot rate keeps its HoDoKu-style
    rating and says why SE is missing; asked for SE alone it is not rated."""
    from sudoku_csp.commands.rate import rate_result, rating_text
    res = {"puzzle": "p", "status": "solved", "solution": "1", "time_ms": 5.0,
           "rating": {"level": "hard", "score": 900, "hardest": "thermo_chain"},
           "se_rating": {"er": 0.0, "ep": 0.0, "ed": 0.0, "applies": False, "solved": False}}
    both = rate_result(res, "both", 60.0)
    assert both["rated"] and both["rating"] == res["rating"] and both["se_rating"] is None
    assert "does not apply" in both["se_reason"]
    assert rating_text(both) == ("hard 900 (hardest thermo_chain), no SE rating: the SE-like "
                                 "rating does not apply to this variant")
    se = rate_result(res, "se121", 60.0)
    assert not se["rated"] and se["se_rating"] is None and "does not apply" in se["reason"]
    res["se_rating"] = {"er": 20.0, "ep": 20.0, "ed": 1.2, "applies": True, "solved": False}
    assert "do not solve it" in rate_result(res, "se", 60.0)["reason"]
    res["time_ms"] = 60000.0
    assert "time limit (60 s)" in rate_result(res, "se", 60.0)["reason"]
