"""The exact supports of a linear sum in C (csp/constraints/_linear_kernel.c) against the
Python code of csp/constraints/sums.py (``_linear_supports_py``): the same masks on many
random sums (coefficients of either sign and above 1, some cells that must differ, empty
and single-digit domains, totals in and out of reach), None only beyond the kernel's
limits; and the same steps on the setter puzzle whose double arrows ask it most, with the
kernel on and off."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from csp import kernel
from csp.constraints import sums

KERNEL = kernel.active(sums._linear_kernel)
pytestmark = pytest.mark.skipif(KERNEL is None, reason="csp.constraints._linear_kernel is "
                                "not built (or SUDOKU_CSP_PURE=1)")


def _case(rng: random.Random, n: int):
    k = rng.randint(1, 7)
    doms = []
    for _ in range(k):
        r = rng.random()
        if r < 0.04:
            doms.append(0)
        elif r < 0.2:
            doms.append(1 << rng.randint(1, n))
        else:
            doms.append(sum(1 << d for d in range(1, n + 1) if rng.random() < 0.5) or 2)
    coeffs = [rng.choice((1, 1, 1, -1, -1, 2, 10, -3, 0)) for _ in range(k)]
    # a total some filling reaches, or one near it
    total = sum(a * rng.randint(1, n) for a in coeffs) + rng.choice((0, 0, 0, 1, -2, 7))
    differ = [tuple(j for j in range(i) if rng.random() < 0.4) for i in range(k)]
    if rng.random() < 0.3:
        differ = [()] * k
    return doms, coeffs, total, differ


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_kernel_matches_python(n):
    rng = random.Random(n)
    for _ in range(1500 if n < 16 else 300):
        doms, coeffs, total, differ = _case(rng, n)
        want = sums._linear_supports_py(doms, coeffs, total, differ)
        got = KERNEL.linear_supports(doms, coeffs, total, differ)
        assert got == want, (doms, coeffs, total, differ)
        assert sums.linear_supports(tuple(doms), tuple(coeffs), total,
                                    tuple(map(tuple, differ))) == want


def test_kernel_declines_what_it_does_not_take():
    # a digit above 63, a huge coefficient, a later position in ``differ``, too many cells
    assert KERNEL.linear_supports([1 << 70, 2], [1, 1], 3, [(), ()]) is None
    assert KERNEL.linear_supports([2, 2], [1 << 40, 1], 3, [(), ()]) is None
    assert KERNEL.linear_supports([6, 6], [1, 1], 3, [(1,), ()]) is None
    assert KERNEL.linear_supports([2] * 65, [1] * 65, 65, [()] * 65) is None
    # and the public function still answers through the Python code
    assert sums.linear_supports([1 << 70, 2], [1, 1], 71, [(), ()]) == [1 << 70, 2]


def test_same_steps_with_and_without_kernel(monkeypatch):
    """The first 60 steps of "Modular Nabner DA Coverage" (double arrows: the sum rules
    whose supports the forcing nets and the band searches ask most) are the same."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from techniques import StepSolver
    data = Path(__file__).resolve().parents[1] / "data" / "fpuzzles_cc_by.jsonl"
    row = next(r for r in map(json.loads, data.read_text().splitlines())
               if r["title"] == "Modular Nabner DA Coverage")

    def path(pure: str):
        monkeypatch.setenv("SUDOKU_CSP_PURE", pure)
        r = StepSolver("default").solve(load_fpuzzles(row["fpuzzles_json"]), max_steps=60)
        return [(s.technique, s.placements, s.eliminations) for s in r.steps]

    assert path("0") == path("1")
