"""HoDoKu regression library runner.

A case is a pencil-mark state where one technique (by library code) must find a step with
the case's digits whose eliminations and placements equal the expected ones (``-x``: must
find no step with these digits; ``-V``: technique options, see ``Technique.variants``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from csp.errors import ParseError
from csp.files import write_atomic
from csp.io import LibraryLine, parse_library_line
from csp.grid import Grid
from csp.model import Puzzle
from csp.state import State
from csp.step import Step

from . import registry
from .analysis import Analysis
from .solver import is_effective


LibraryCase = LibraryLine
parse_case = parse_library_line


def case_state(case: LibraryCase) -> State:
    """Pencil-mark state of a case on a classic 9x9 puzzle (givens only as givens; placed
    digits placed; their digits removed from their houses; deleted candidates removed)."""
    p = Puzzle(Grid(9))
    p.add_grid_houses()
    p.givens({c: v for c, v in enumerate(case.values) if v and case.given[c]})
    p.unique = True
    st = p.initial_state()
    g = p.grid
    for c, v in enumerate(case.values):
        if v:
            st.cand[c] = 1 << v
            st.placed[c] = v
    for c, v in enumerate(case.values):
        if v:
            for h in g.houses:
                if c in h.cells:
                    for o in h.cells:
                        if o != c and not st.placed[o]:
                            st.cand[o] &= ~(1 << v)
    for c, d in case.deleted:
        if not st.placed[c]:
            st.cand[c] &= ~(1 << d)
    st.version += 1
    return st


def run_case(case: LibraryCase) -> tuple[bool, str]:
    techs = registry.by_code(case.code)
    if not techs:
        return False, f"no technique registered for code {case.code}"
    state = case_state(case)
    an = Analysis(state)
    want_e = set(case.eliminations)
    want_p = set(case.placements)
    digits = set(case.digits)
    found: list[Step] = []
    for t in techs:
        opts = t.options_for_variant(case.variant)
        # search hint: a technique may restrict its search to the case's digits (steps
        # with other digits never match); techniques that do not know it ignore it
        opts["only_digits"] = case.digits
        for step in t.find(an, opts):
            if not is_effective(state, step):
                continue
            found.append(step)
            same_digits = set(step.digits) == digits
            if case.must_not_fire:
                if same_digits:
                    return False, f"must not fire, found: {step.explain(2)}"
                continue
            if same_digits and set(step.eliminations) == want_e and set(step.placements) == want_p:
                return True, ""
    if case.must_not_fire:
        return True, ""
    if not found:
        return False, "no step found"
    return False, f"{len(found)} steps, none matches; first: {found[0].explain(2)}"


@dataclass
class Report:
    """Result of a library run. ``table``: code -> [passed, failed]; ``titles``: code ->
    technique title ('?' when no technique has the code); ``failures``: (library line,
    reason) in file order."""

    failures: list[tuple[str, str]] = field(default_factory=list)
    table: dict[str, list[int]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    passed: int = 0
    failed: int = 0
    seconds: float = 0.0


def run_lines(lines: Iterable[str], codes: Iterable[str] | None = None) -> Report:
    """Run the library lines (``codes``: only cases with these codes). A line that is not a
    library line raises :class:`~csp.errors.ParseError` naming its number.

    >>> run_lines(["# a comment", "garbage"])
    Traceback (most recent call last):
    ...
    csp.errors.ParseError: line 2: not a library line: 'garbage'
    """
    want = set(codes) if codes else None
    rep = Report()
    t0 = time.perf_counter()
    for no, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            case = parse_case(line)
        except ParseError as e:
            raise ParseError(f"line {no}: {e}") from None
        if want is not None and case.code not in want:
            continue
        if case.code not in rep.titles:
            techs = registry.by_code(case.code)
            rep.titles[case.code] = techs[0].title if techs else "?"
        try:
            ok, msg = run_case(case)
        except Exception as e:  # a crash in a technique is a failure of that case
            ok, msg = False, f"error: {type(e).__name__}: {e}"
        row = rep.table.setdefault(case.code, [0, 0])
        if ok:
            rep.passed += 1
            row[0] += 1
        else:
            rep.failed += 1
            row[1] += 1
            rep.failures.append((case.line, msg))
    rep.seconds = time.perf_counter() - t0
    return rep


def run_file(path: str, codes: Iterable[str] | None = None) -> Report:
    """Run a library file; ``codes`` selects cases by code (None or empty: all)."""
    with open(path, encoding="utf-8") as f:
        return run_lines(f, codes)


def format_report(rep: Report) -> list[str]:
    """Text lines: each failing case (its library line, then the reason, indented), the
    per-technique table, and last ``N passed, M failed``.

    >>> rep = run_lines([":0003::" + "." * 81 + "::::"])
    >>> format_report(rep)[-1]
    '0 passed, 1 failed'
    """
    out: list[str] = []
    for line, msg in rep.failures:
        out.append(line)
        out.append(f"    {msg}")
    if rep.table:
        out.append(f"{'code':6s} {'technique':40s} {'passed':>6s} {'failed':>6s}")
        for code in sorted(rep.table):
            ok, bad = rep.table[code]
            out.append(f"{code:6s} {rep.titles.get(code, '?'):40s} {ok:6d} {bad:6d}")
    out.append(f"{rep.passed} passed, {rep.failed} failed")
    return out


def report_json(rep: Report) -> dict:
    """JSON-ready dict: passed, failed, seconds, failures [{line, reason}], techniques
    [{code, title, passed, failed}] sorted by code."""
    return {
        "passed": rep.passed,
        "failed": rep.failed,
        "seconds": round(rep.seconds, 3),
        "failures": [{"line": line, "reason": msg} for line, msg in rep.failures],
        "techniques": [{"code": code, "title": rep.titles.get(code, "?"), "passed": ok,
                        "failed": bad} for code, (ok, bad) in sorted(rep.table.items())],
    }


#: The library shipped with the tests (used when no file is given).
DEFAULT_LIBRARY = str(Path(__file__).resolve().parent.parent / "tests" / "data" /
                      "reglib-1.3-public.txt")


def write_known_failures(rep: Report, path: str, library: str) -> None:
    """Write the failing library lines of ``rep`` (one per line, with a comment header):
    the strict-xfail ratchet read by tests/techniques/test_reglib.py."""
    head = (f"# Known failing cases of {Path(library).name} (strict xfail in "
            "tests/techniques/test_reglib.py).\n"
            "# Regenerate: python -m techniques.reglib --write-known-failures "
            f"{path}\n# {rep.passed} passed, {rep.failed} failed\n")
    write_atomic(path, head + "".join(line + "\n" for line, _ in rep.failures))


def main(argv: list[str] | None = None) -> int:
    """``python -m techniques.reglib [LIBRARY] [CODE ...] [--json]
    [--write-known-failures FILE]``"""
    import argparse
    import json

    ap = argparse.ArgumentParser(prog="python -m techniques.reglib",
                                 description="Run the HoDoKu regression library.")
    ap.add_argument("library", nargs="?", default=DEFAULT_LIBRARY)
    ap.add_argument("codes", nargs="*", help="only cases with these codes")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--write-known-failures", metavar="FILE",
                    help="write the failing library lines to FILE (the test ratchet)")
    args = ap.parse_args(argv)
    if args.library.isdigit() and not Path(args.library).exists():   # only codes given
        args.codes.insert(0, args.library)
        args.library = DEFAULT_LIBRARY
    rep = run_file(args.library, args.codes)
    if args.write_known_failures:
        write_known_failures(rep, args.write_known_failures, args.library)
    if args.json:
        print(json.dumps(report_json(rep), indent=1))
    else:
        print("\n".join(format_report(rep)))
    return 0 if rep.failed == 0 else 1


if __name__ == "__main__":
    import sys

    sys.exit(main())
