"""SE's level-1 inner rules inside the level probe (hidden pair, naked pair, X-Wing on a
hypothetical grid, techniques/forcing/nested.py ``_se_pairs``): sound, with SE's rule
parents as premises."""
import csv

from conftest import DATA

from techniques.analysis import analyze
from techniques.forcing.engine import _cell, _digit, _fact, _result, _static
from techniques.forcing.nested import SE_PAIR_RULES, _se_pairs
from variants.classic import classic_puzzle


def _solved(k: int) -> list[tuple[str, str]]:
    with open(DATA / "forum_hardest_110626.solutions.csv") as f:
        rows = [(r["puzzle"], r["solution"]) for r in csv.DictReader(f)
                if r["n_solutions_capped_at_2"] == "1"]
    return rows[::max(1, len(rows) // k)][:k]


def test_inner_pairs_are_sound_and_rest_on_the_assumption():
    found = {name: 0 for name in SE_PAIR_RULES}
    for line, sol in _solved(6):
        p = classic_puzzle(line)
        p.unique = True
        an = analyze(p.pencilmarks())
        st = _static(an)
        for c in range(an.size):
            for d in range(1, an.n + 1):
                if not (an.cand[c] >> d & 1) or an.cand[c].bit_count() < 2:
                    continue
                ps = _result(an, _fact(c, d, True), True, True)
                if ps.contra is not None:
                    continue
                for g, prem in _se_pairs(st, ps):
                    x, e = _cell(g), _digit(g)
                    assert not g & 1 and ps.cand[x] >> e & 1      # a live candidate, removed
                    assert prem[0] in SE_PAIR_RULES
                    found[prem[0]] += 1
                    # SE's rule parents: removals the assumption derived, never empty
                    assert prem[1:] and all(not h & 1 and h in ps.parents for h in prem[1:])
                    if int(sol[c]) == d:
                        # inside a true assumption nothing true is removed
                        assert int(sol[x]) != e, (line, c, d, x, e, prem[0])
    # the rules do fire on these grids (each at least once over the sample)
    assert all(found.values()), found
