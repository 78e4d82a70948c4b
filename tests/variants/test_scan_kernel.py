"""The sandwich and X-sum line scans' compiled kernel (``scan_supports`` in
variants/_sky_kernel.c) against the Python scan of variants/outside.py (``_perm_scan``):
the same supports (or None) on many lines around random permutations, with each line's
own clue and random ones, 4x4 to 12x12; every clue on small lines exhaustively; and the
same true candidates on sandwich and X-sum puzzles with the kernel on and
off."""
from __future__ import annotations

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


def _python(doms, rule):
    """The Python scan (the rule's kernel spec hidden from ``_perm_scan``)."""
    spec = rule.kernel_spec
    rule.kernel_spec = None
    try:
        return outside._perm_scan(list(doms), rule)
    finally:
        rule.kernel_spec = spec



@pytest.mark.parametrize("n", [4, 6, 8, 9, 12])
def test_kernel_matches_python_scan(n):
    rng = random.Random(100 + n)
    checked = answered = 0
    for doms, perm in line_domains(rng, n, 120 if n < 12 else 20):
        i, j = perm.index(1), perm.index(n)
        sandwich = sum(perm[min(i, j) + 1:max(i, j)])
        xsum = sum(perm[:perm[0]])
        for rule in (outside._Sandwich(sandwich, n), outside._Sandwich(rng.randint(0, 40), n),
                     outside._XSum(xsum, n), outside._XSum(rng.randint(1, 51), n)):
            if rule.total > 51:
                continue
            want = _python(doms, rule)
            assert KERNEL.scan_supports(list(doms), *rule.kernel_spec) == want, \
                (type(rule).__name__, rule.total, doms)
            # and through the Python entry point, which takes the kernel
            assert outside._perm_scan(list(doms), rule) == want
            checked += 1
            answered += want is not None
    assert checked >= 60 and answered >= checked // 4


def test_kernel_exhaustive_small_lines():
    """Every total of both rules on random 5-cell lines whose cells keep one to three
    digits."""
    n = 5
    masks = [m for m in range(2, 1 << (n + 1), 2) if 1 <= bin(m).count("1") <= 3]
    rng = random.Random(5)
    for doms in ([rng.choice(masks) for _ in range(n)] for _ in range(150)):
        for total in range(0, 16):
            for rule in (outside._Sandwich(total, n), outside._XSum(max(total, 1), n)):
                assert KERNEL.scan_supports(doms, *rule.kernel_spec) == _python(doms, rule)


def test_kernel_rejects_what_it_does_not_handle():
    with pytest.raises(ValueError):
        KERNEL.scan_supports([2] * 13, 13, 0, 5)        # past 12 cells: the Python scan
    with pytest.raises(ValueError):
        KERNEL.scan_supports([2, 4, 8], 4, 0, 5)        # line shorter than n
    with pytest.raises(ValueError):
        KERNEL.scan_supports([1 << 5] * 4, 4, 1, 3)     # a digit past n
    with pytest.raises(ValueError):
        KERNEL.scan_supports([30] * 4, 4, 1, 52)        # a total past 51 (63 - 12 cells)
    with pytest.raises(ValueError):
        KERNEL.scan_supports([30] * 4, 4, 2, 3)         # no such rule
    with pytest.raises(TypeError):
        KERNEL.scan_supports(["x"] * 4, 4, 0, 3)
    # the Python entry point takes the Python scan for a total past 40 (12x12 X-sum)
    n = 12
    rule = outside._XSum(60, n)
    doms = [(1 << (n + 1)) - 2] * n
    assert outside._perm_scan(list(doms), rule) == _python(doms, rule)


def test_same_true_candidates_with_and_without_kernel(monkeypatch):
    """Sandwich and X-sum puzzles of the f-puzzles set (the workbench's): the same true
    candidates (cap 8) with the kernel and with SUDOKU_CSP_PURE=1."""
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.workbench import true_candidates
    rows = [json.loads(x) for x in
            (Path(__file__).resolve().parents[1] / "data" / "fpuzzles_cc_by.jsonl").open()]
    docs = list({json.dumps(r["fpuzzles_json"], sort_keys=True): r["fpuzzles_json"] for r in rows
                 if any(k in r["title"] for k in ("Sandwich", "X-Sums"))}.values())
    assert docs

    def answer(doc):
        r = true_candidates(load_fpuzzles(doc), cap=8, time_limit=60)
        return str(r.status), [sorted(c) for c in r.candidates], r.counts

    for doc in docs[:3]:
        with_kernel = answer(doc)
        with monkeypatch.context() as m:
            m.setenv("SUDOKU_CSP_PURE", "1")
            assert answer(doc) == with_kernel
