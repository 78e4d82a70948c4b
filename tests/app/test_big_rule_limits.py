"""Every rule family with one long element on a big grid (a 30-cell line or cage on a 35x35,
a clue over a whole row): the logic techniques that read the rule stop at the time limit.
Fuzzing found four that did not (a cage's digit sets, a renban's house split, a region-sum
segment's digit sets and rule exclusion's propagation per candidate ran on for minutes, one
growing to gigabytes). Each case runs the rule's own techniques and the generic ones that
read any rule from the start state, with a 0.5 s limit; the bound is on CPU time."""
from __future__ import annotations

import json
import time

import pytest

from sudoku_csp.formats.spec import from_spec
from techniques import StepSolver

#: the grids and element lengths fuzzing found the failures on
SHAPES = [(25, 17), (35, 17), (35, 30)]
#: CPU seconds a 0.5 s solve may take (the second plus the work left when the clock is read)
CPU_BOUND = 3.0


def _path(N: int, k: int) -> list[str]:
    """k cells snaking along the rows from r1c1."""
    out, r, c, dc = [], 0, 0, 1
    while len(out) < k:
        out.append(f"r{r + 1}c{c + 1}")
        if 0 <= c + dc < N:
            c += dc
        else:
            r, dc = r + 1, -dc
    return out


def _row(k: int, r: int = 0) -> list[str]:
    return [f"r{r + 1}c{c + 1}" for c in range(k)]


def _cases(N: int, L: int) -> dict[str, dict]:
    HALF = L * (N + 1) // 2
    return {
        "killer cage": {"rule": "killer_cage", "cells": _row(L), "total": HALF},
        "multi-sum cage": {"rule": "multi_sum_cage", "cells": _row(L),
                           "totals": [HALF, HALF + 1]},
        "little killer": {"rule": "little_killer",
                          "cells": [f"r{i + 1}c{i + 1}" for i in range(N)],
                          "total": N * (N + 1) // 2 + 7},
        "arrow": {"rule": "arrow", "circle": ["r1c1", "r1c2"], "shaft": _path(N, L)[2:]},
        "thermo": {"rule": "thermo", "cells": _path(N, L)},
        "between line": {"rule": "between_line", "cells": _path(N, L)},
        "entropic line": {"rule": "entropic_line", "cells": _path(N, L)},
        "lockout": {"rule": "lockout", "cells": _path(N, L), "diff": N // 2},
        "modular line": {"rule": "modular_line", "cells": _path(N, L)},
        "nabner": {"rule": "nabner", "cells": _path(N, L)},
        "region-sum line": {"rule": "region_sum_line", "cells": _path(N, L)},
        "renban": {"rule": "renban", "cells": _path(N, L)},
        "whispers": {"rule": "whispers", "cells": _path(N, L), "diff": N // 2},
        "zipper line": {"rule": "zipper_line", "cells": _path(N, L)},
        "frame sum": {"rule": "frame_sum", "row": 0, "col": 1, "value": N * 3},
        "sandwich": {"rule": "sandwich", "row": 0, "col": 1, "value": N * (N + 1) // 4},
        "x-sum": {"rule": "x_sum", "row": 0, "col": 1, "value": N * (N + 1) // 4},
        "skyscraper": {"rule": "skyscraper", "row": 0, "col": 1, "value": N // 3},
    }


#: the techniques that read any rule (beside each rule's own, from its bundle)
GENERIC = ("rule_exclusion", "house_arrangement", "innies", "outies", "set_equivalence",
           "house_sums")


def _techniques(rule: str) -> str:
    from sudoku_csp.formats.spec import RULES
    own = tuple(getattr(RULES[rule], "techniques", ()) or ())
    return ",".join(dict.fromkeys(own + GENERIC))


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[0]}-{s[1]}")
@pytest.mark.parametrize("case", sorted(_cases(9, 5)))
def test_rule_techniques_hold_the_limit_on_a_big_grid(case, shape):
    N, L = shape
    rule = _cases(N, L)[case]
    p = from_spec({"format": "sudoku-csp", "version": 1, "size": N,
                   "rules": [{"rule": "classic"}, rule]})
    solver = StepSolver(_techniques(rule["rule"]))
    t0 = time.process_time()
    res = solver.solve(p, time_limit=0.5)
    cpu = time.process_time() - t0
    assert cpu < CPU_BOUND, (case, cpu, json.dumps(rule)[:80])
    # (an empty grid: the uniqueness check may also find many solutions in time)
    assert str(res.status) in ("limit", "stuck", "multiple"), res.status
