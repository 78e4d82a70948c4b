"""The whole public HoDoKu regression library, one test per case.

Cases listed in tests/data/reglib_known_failures.txt are strict xfails (a ratchet: a case
that starts passing turns the run red until the file is regenerated with
``python -m techniques.reglib --write-known-failures tests/data/reglib_known_failures.txt``).
"""
from __future__ import annotations

import json

import pytest

from techniques import reglib

from conftest import DATA

LIBRARY = DATA / "reglib-1.3-public.txt"
KNOWN = DATA / "reglib_known_failures.txt"


def _cases() -> list[tuple[int, str]]:
    out = []
    for i, line in enumerate(open(LIBRARY, encoding="utf-8"), 1):
        if line.strip() and not line.startswith("#"):
            out.append((i, line.rstrip("\n")))
    return out


def _known() -> set[str]:
    if not KNOWN.exists():
        return set()
    return {l.rstrip("\n") for l in open(KNOWN, encoding="utf-8")
            if l.strip() and not l.startswith("#")}


CASES = _cases()
KNOWN_FAILURES = _known()


def _param(i: int, line: str):
    case = reglib.parse_case(line)
    cid = f"L{i}-{line.split(':')[1]}"
    marks = ()
    if line in KNOWN_FAILURES:
        marks = (pytest.mark.xfail(strict=True, reason=f"known failure: {case.code}"),)
    return pytest.param(line, id=cid, marks=marks)


def test_library_has_the_public_cases():
    assert len(CASES) == 772
    lines = {line for _, line in CASES}
    stale = KNOWN_FAILURES - lines
    assert not stale, f"known-failure lines not in the library: {sorted(stale)[:3]}"


@pytest.mark.parametrize("line", [_param(i, line) for i, line in CASES])
def test_reglib_case(line):
    ok, msg = reglib.run_case(reglib.parse_case(line))
    assert ok, msg


def test_report_format_and_json():
    lines = [line for _, line in CASES]
    singles = [l for l in lines if l.startswith(":0003:")][:2]
    unknown = ":9999::" + "." * 81 + "::::"
    rep = reglib.run_lines(singles + [unknown])
    assert (rep.passed, rep.failed) == (2, 1)
    text = reglib.format_report(rep)
    assert text[0] == unknown and "no technique registered" in text[1]
    assert text[-1] == "2 passed, 1 failed"
    assert any(t.startswith("0003") and "Naked Single" in t for t in text)
    js = reglib.report_json(rep)
    json.dumps(js)
    assert js["passed"] == 2 and js["failed"] == 1
    assert js["failures"] == [{"line": unknown, "reason": rep.failures[0][1]}]
    assert {"code": "0003", "title": "Naked Single", "passed": 2, "failed": 0} in js["techniques"]
    only = reglib.run_lines(lines, {"0003"})
    assert only.failed == 0 and only.passed == sum(l.startswith(":0003:") for l in lines)


def test_write_known_failures_round_trip(tmp_path):
    out = tmp_path / "known.txt"
    lines = [line for _, line in CASES][:40] + [":9999::" + "." * 81 + "::::"]
    rep = reglib.run_lines(lines)
    reglib.write_known_failures(rep, str(out), str(LIBRARY))
    body = [l.rstrip("\n") for l in open(out) if not l.startswith("#")]
    assert body == [line for line, _ in rep.failures]
    assert reglib.main(["--write-known-failures", str(out), str(LIBRARY), "0000"]) == 0
    assert [l for l in open(out) if not l.startswith("#")] == []
