"""The joint sum searches after issue 26's speed-up: the counted search (``_search``) still
gives up exactly where it did, and ``linked_sums`` / ``combined_sums`` skip it only where
it could not have made a step (every digit of the rules' cells in a solution)."""
from __future__ import annotations

import json
import random

from conftest import DATA, joint_solutions, narrowed_doms
from techniques import StepSolver
from techniques import sums as S
from techniques.analysis import Analysis

LITTLE_KILLER = DATA / "little_killer_hard_seed1.json"   # generate("little_killer", "hard", seed=1)


def _little_killer():
    from sudoku_csp.formats.spec import from_spec
    return from_spec(json.loads(LITTLE_KILLER.read_text(encoding="utf-8")))


def _deflation():
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    for line in (DATA / "fpuzzles_cc_by.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec["title"] == "Deflation":
            return load_fpuzzles(rec["fpuzzles_json"])
    raise KeyError("Deflation")


def _reference_search(an, cells, doms, rules, limit):
    """The joint search as it was before the speed-up (commit 9947c3d, without covers),
    with its node count: ``(supports or None, nodes)``."""
    k = len(cells)
    pos = {c: i for i, c in enumerate(cells)}
    weight = [sum(1 for r in rules if r.mask >> c & 1) for c in cells]
    order = sorted(range(k), key=lambda i: (-weight[i], doms[i].bit_count()))
    rank = [0] * k
    for j, i in enumerate(order):
        rank[i] = j
    eqs = []
    for r in rules:
        items = sorted(((rank[pos[c]], a) for c, a in zip(r.cells, r.coeffs)))
        eqs.append(([j for j, _ in items], [a for _, a in items], r.totals))
    member = [[] for _ in range(k)]
    for e, (js, coefs, _) in enumerate(eqs):
        for j, a in zip(js, coefs):
            member[j].append((e, a))
    sd = [doms[i] for i in order]
    lo = [(m & -m).bit_length() - 1 for m in sd]
    hi = [m.bit_length() - 1 for m in sd]
    rest_lo, rest_hi = [], []
    for js, coefs, _ in eqs:
        rl, rh = [0] * (k + 1), [0] * (k + 1)
        clo, chi = [0] * k, [0] * k
        for j, a in zip(js, coefs):
            clo[j] = min(a * lo[j], a * hi[j])
            chi[j] = max(a * lo[j], a * hi[j])
        for j in range(k - 1, -1, -1):
            rl[j] = rl[j + 1] + clo[j]
            rh[j] = rh[j + 1] + chi[j]
        rest_lo.append(rl)
        rest_hi.append(rh)
    tlo = [min(t) for _, _, t in eqs]
    thi = [max(t) for _, _, t in eqs]
    peers_d = an.links.peers_d
    sc = [cells[i] for i in order]
    later = [[()] * (an.n + 1) for _ in range(k)]
    for j in range(k):
        for d in range(1, an.n + 1):
            if sd[j] >> d & 1:
                later[j][d] = tuple(j2 for j2 in range(j + 1, k)
                                    if sd[j2] >> d & 1 and peers_d[d][sc[j]] >> sc[j2] & 1)
    cross = an.links.cross
    sums, vals, cur, sup = [0] * len(eqs), [0] * k, list(sd), [0] * k
    nodes = [0]
    need = [(1 << k) - 1]

    class Budget(Exception):
        pass

    def rec(j):
        nodes[0] += 1
        if nodes[0] > limit:
            raise Budget
        if not need[0] >> j and all(sup[i] >> vals[i] & 1 for i in range(j)):
            return
        if j == k:
            if any(sums[e] not in eqs[e][2] for e in range(len(eqs))):
                return
            for i in range(k):
                sup[i] |= 1 << vals[i]
                if sup[i] == sd[i]:
                    need[0] &= ~(1 << i)
            return
        for d in range(1, an.n + 1):
            low = 1 << d
            if not cur[j] & low:
                continue
            links = cross.get((sc[j], d)) if cross else None
            if links and any((sc[j2], vals[j2]) in links for j2 in range(j)):
                continue
            if any(sums[e] + a * d + rest_lo[e][j + 1] > thi[e]
                   or sums[e] + a * d + rest_hi[e][j + 1] < tlo[e] for e, a in member[j]):
                continue
            hit, bad = [], False
            for j2 in later[j][d]:
                if cur[j2] & low:
                    cur[j2] ^= low
                    hit.append(j2)
                    bad = bad or not cur[j2]
            if not bad:
                vals[j] = d
                for e, a in member[j]:
                    sums[e] += a * d
                rec(j + 1)
                for e, a in member[j]:
                    sums[e] -= a * d
            for j2 in hit:
                cur[j2] |= low

    try:
        rec(0)
    except Budget:
        return None, nodes[0]
    return [sup[rank[i]] for i in range(k)], nodes[0]


def _groups(an):
    rules = S._rules(an)
    chosen = an.links_memo("arrow_like_sum_rules", lambda: S._arrow_like(rules))
    return list(S._pairs(an, rules)) + list(S._linked(an, chosen))


def _cases(rnd, every, per_state):
    """``(analysis, rule group, its cells, their candidates)`` at every ``every[0]``-th
    state of the little killer's path and every ``every[1]``-th of Deflation's, up to
    ``per_state`` groups of each state at random."""
    for p, step in zip((_little_killer(), _deflation()), every):
        for st in _states(p, step):
            an = Analysis(st)
            groups = _groups(an)
            for group in rnd.sample(groups, min(per_state, len(groups))):
                cells = sorted({c for r in group for c in r.cells})
                yield an, group, cells, [an.cand[c] or (1 << st.placed[c]) for c in cells]


def _states(p, every):
    run = StepSolver("default").start(p, max_steps=400)
    i = 0
    while run.peek() is not None:
        if i % every == 0:
            yield run.state.copy()
        next(run)
        i += 1


def test_counted_search_gives_up_where_it_did():
    """The same node count as before: for each group of rules on a little killer's and
    an arrow puzzle's path, the search with the limit at the reference's count finishes
    with the reference's supports, one node less gives up (and both give up alike at
    the techniques' limit)."""
    checked = 0
    for an, group, cells, doms in _cases(random.Random(5), (30, 90), 6):
        for limit in (S.LINKED_NODE_LIMIT, 4 * S.LINKED_NODE_LIMIT):
            want, nodes = _reference_search(an, cells, doms, list(group), limit)
            assert S._search(an, cells, doms, list(group), limit) == want
            if want is not None:
                assert S._search(an, cells, doms, list(group), nodes) == want
                assert S._search(an, cells, doms, list(group), nodes - 1) is None
                checked += 1
    assert checked > 30, checked


def test_skipped_searches_could_not_eliminate():
    """``_useful_supports`` (from no kept solution) answers None only where the counted
    search gives up or eliminates nothing, and the counted search's supports otherwise."""
    S._WITNESSES.clear()
    seen = {"skipped": 0, "ran": 0}
    for an, group, cells, doms in _cases(random.Random(3), (15, 45), 30):
        limit = S.LINKED_NODE_LIMIT if len(group) > 2 else S.NODE_LIMIT
        got = S._useful_supports(an, cells, group, limit)
        want = S._search(an, cells, doms, list(group), limit)
        if got is None:
            seen["skipped"] += 1
            assert want is None or want == doms or not all(want)
        else:
            seen["ran"] += 1
            assert got == want
    assert seen["skipped"] > 100 and seen["ran"] > 0, seen


def test_finder_solutions_are_solutions_and_it_misses_none():
    """Each solution :class:`techniques.sums._Finder` returns is one (checked by plain
    enumeration), and with an unbounded budget it finds one for every digit some solution
    holds: on the little killer's groups, cells narrowed to a few candidates each."""
    p = _little_killer()
    sol = p.solve().solutions[0]
    an = Analysis(p.pencilmarks())
    rnd = random.Random(7)
    groups = [g for g in _groups(an) if len({c for r in g for c in r.cells}) <= 9]
    assert len(groups) >= 10
    for group in rnd.sample(groups, 10):
        cells = sorted({c for r in group for c in r.cells})
        doms = narrowed_doms(an, cells, sol, rnd)
        sols = set(joint_solutions(an, cells, doms, group))
        finder = S._Finder(an, cells, group)
        for i, m in enumerate(doms):
            for d in range(1, 10):
                if m >> d & 1:
                    got = finder.find(doms, i, d, [0] * len(cells), 10 ** 9)
                    if got is None:
                        assert not any(s[i] == d for s in sols)
                    else:
                        assert got in sols and got[i] == d
