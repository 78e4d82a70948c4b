"""The skyscraper line scan's compiled kernel (variants/_sky_kernel.c) against the Python
scan of variants/outside.py: the same supports (or None) on many lines, both clues, one
clue or none, from empty lines to nearly placed ones, on 4x4 to 12x12 lines; and the same
steps on a skyscraper puzzle of the f-puzzles set with the kernel on and off."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from conftest import line_domains

from csp import kernel
from variants import outside

KERNEL = kernel.active(outside._sky_kernel)
pytestmark = pytest.mark.skipif(KERNEL is None, reason="variants._sky_kernel is not built "
                                "(or SUDOKU_CSP_PURE=1)")


def _python(doms, n, left, right, monkeypatch):
    with monkeypatch.context() as m:
        m.setenv("SUDOKU_CSP_PURE", "1")
        return outside._line_supports(list(doms), n, left, right)



@pytest.mark.parametrize("n", [4, 6, 8, 9, 12])
def test_kernel_matches_python_scan(n, monkeypatch):
    rng = random.Random(n)
    checked = 0
    for doms, perm in line_domains(rng, n, 150 if n < 12 else 25):
        seen_l = outside._Skyscraper._count(perm)
        seen_r = outside._Skyscraper._count(perm[::-1])
        for left, right in ((seen_l, seen_r), (seen_l, 0), (0, seen_r), (0, 0),
                            (rng.randint(1, n), rng.randint(1, n))):
            want = _python(doms, n, left, right, monkeypatch)
            got = KERNEL.line_supports(list(doms), n, left, right)
            assert got == want, (doms, n, left, right)
            checked += 1
    assert checked >= 125


def test_kernel_exhaustive_small_lines(monkeypatch):
    """Every pair of clues on random 4-cell lines whose cells keep one or two digits."""
    n = 4
    masks = [m for m in range(2, 1 << (n + 1), 2) if 1 <= bin(m).count("1") <= 2]
    rng = random.Random(4)
    for doms in ([rng.choice(masks) for _ in range(n)] for _ in range(400)):
        for left, right in itertools.product(range(n + 1), repeat=2):
            assert KERNEL.line_supports(doms, n, left, right) == \
                _python(doms, n, left, right, monkeypatch)


def test_kernel_rejects_what_it_does_not_handle():
    with pytest.raises(ValueError):
        KERNEL.line_supports([2] * 13, 13, 1, 0)        # past 12 cells: the Python scan
    with pytest.raises(ValueError):
        KERNEL.line_supports([2, 4, 8], 4, 1, 0)        # line shorter than n
    with pytest.raises(ValueError):
        KERNEL.line_supports([1 << 5] * 4, 4, 1, 0)     # a digit past n
    with pytest.raises(ValueError):
        KERNEL.line_supports([30] * 4, 4, 5, 0)         # a clue past n
    with pytest.raises(TypeError):
        KERNEL.line_supports(["x"] * 4, 4, 1, 0)
    # the Python entry point takes the Python scan for those
    assert outside._line_supports([2 | 4] * 2 + [8, 16], 4, 5, 0) is None


def test_same_steps_with_and_without_kernel(monkeypatch):
    """A skyscraper puzzle of the f-puzzles set: the logic solve takes the same steps."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from techniques import StepSolver
    rows = [json.loads(x) for x in
            (Path(__file__).resolve().parents[1] / "data" / "fpuzzles_cc_by.jsonl").open()]
    row = next(r for r in rows if "skyscraper" in r["categories"]
               and r["title"] == "Skyscrapers Sudoku")

    def steps():
        lr = StepSolver("default").solve(load_fpuzzles(row["fpuzzles_json"]), time_limit=60)
        return lr.status, [s.explain(1) for s in lr.steps]

    with_kernel = steps()
    monkeypatch.setenv("SUDOKU_CSP_PURE", "1")
    assert steps() == with_kernel
    assert with_kernel[0] == "solved"
