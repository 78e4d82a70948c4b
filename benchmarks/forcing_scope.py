"""How wide is a forcing step? The smallest region whose own rules already refute it.

    python benchmarks/forcing_scope.py 54 [--nth 1] [--limit 60]

Solves f-puzzle number ``i`` of tests/data/fpuzzles_cc_by.jsonl with the default logic
solver up to its ``nth`` step of the forcing family, then asks, for each candidate that step
eliminates, which regions of a fixed family refute it on their own: the candidates of the
region's cells as they stand before the step, the houses of the grid (every cell of the grid
all-different per house, cells outside the region free) and only the rules whose cells all
lie in the region. Each question goes to the SAT solver (:mod:`csp.sat`), so the answer is
exact for that relaxation.

The answer sorts a forcing step into one of two kinds:

- *local* (one house, a box with a row or column, a band or a stack): the rules of a few
  houses already decide the candidate, so a named technique (or a stronger propagation of
  one rule) can replace the forcing step;
- *wide* (several bands and stacks, or the whole grid): a human solver bifurcates too, and
  the forcing net is the honest step.

Regions tried, smallest first: the cell's row, column and box; its box with its row or its
column; its band; its stack; band and stack together; windows of 4 to 8 consecutive rows
(columns) through the cell; the whole grid.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))
from setter_set import FORCING_FAMILY, rows as setter_rows  # noqa: E402  (the repository onto sys.path)

from csp import Puzzle  # noqa: E402
from csp.sat import sat_search  # noqa: E402
from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402
from techniques import StepSolver  # noqa: E402

# the setter report's definitions (benchmarks/variants.py; the name ``variants`` is the
# rule package's, so the script is loaded by its path)


def regions(n: int, box_h: int, box_w: int, cell: int) -> Iterator[tuple[str, set[int]]]:
    """The region family, smallest first, each containing ``cell`` (a square-box grid)."""
    r, c = divmod(cell, n)

    def rows(lo: int, hi: int) -> set[int]:
        return {x for x in range(n * n) if lo <= x // n < hi}

    def cols(lo: int, hi: int) -> set[int]:
        return {x for x in range(n * n) if lo <= x % n < hi}
    br, bc = r // box_h * box_h, c // box_w * box_w
    box = rows(br, br + box_h) & cols(bc, bc + box_w)
    yield f"row {r + 1}", rows(r, r + 1)
    yield f"col {c + 1}", cols(c, c + 1)
    yield "its box", box
    yield "box + row", box | rows(r, r + 1)
    yield "box + col", box | cols(c, c + 1)
    yield "band", rows(br, br + box_h)
    yield "stack", cols(bc, bc + box_w)
    yield "band + stack", rows(br, br + box_h) | cols(bc, bc + box_w)
    for k in range(box_h + 1, n):
        for lo in range(max(0, r - k + 1), min(r, n - k) + 1):
            yield f"rows {lo + 1}-{lo + k}", rows(lo, lo + k)
        for lo in range(max(0, c - k + 1), min(c, n - k) + 1):
            yield f"cols {lo + 1}-{lo + k}", cols(lo, lo + k)
    yield "whole grid", set(range(n * n))


def refutes(p: Puzzle, cand: list[int], region: set[int], cell: int, digit: int) -> bool:
    """True when the rules inside ``region`` leave no solution with ``cell`` = ``digit``."""
    sub = Puzzle(p.grid).add_grid_houses()
    for con in p.constraints:
        if set(con.cells) <= region:
            sub.add(con)
    full = (1 << (p.grid.n + 1)) - 2
    cs = [cand[x] if x in region else full for x in range(p.grid.size)]
    cs[cell] &= 1 << digit
    if not cs[cell]:
        return True
    sols, _ = sat_search(sub, cs, limit=1, time_limit=60)
    return not sols


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("index", type=int)
    ap.add_argument("--nth", type=int, default=1, help="which forcing step (1 = first)")
    ap.add_argument("--limit", type=float, default=60.0, help="solver time limit, seconds")
    a = ap.parse_args()
    row = setter_rows()[a.index]
    p = load_fpuzzles(row["fpuzzles_json"])
    run = StepSolver("default").start(p, time_limit=a.limit)
    before = run.state.copy()
    seen = 0
    for step in run:
        if step.technique in FORCING_FAMILY:
            seen += 1
            if seen == a.nth:
                break
        before = run.state.copy()
    else:
        print(f"{row['title']}: only {seen} forcing step(s) ({run.status})")
        return
    cand = [m if not before.placed[x] else 1 << before.placed[x]
            for x, m in enumerate(before.cand)]
    g = p.grid
    side = int(g.n ** 0.5)
    bh, bw = getattr(g, "box_shape", None) or (side, g.n // side)
    print(f"{row['title']}: forcing step {a.nth} ({step.technique}), "
          f"{sum(1 for m in cand if m & (m - 1))} cells open")
    # a placement eliminates the cell's other candidates: ask about each of them
    targets = [(e.cell, e.digit) for e in step.eliminations]
    for pl in step.placements:
        targets += [(pl.cell, d) for d in range(1, g.n + 1)
                    if d != pl.digit and cand[pl.cell] >> d & 1]
    for cell, digit in targets:
        where = next((name for name, reg in regions(g.n, bh, bw, cell)
                      if refutes(p, cand, reg, cell, digit)), "none (needs placements)")
        print(f"  {g.name(cell)}<>{digit}: refuted by {where}")


if __name__ == "__main__":
    main()
