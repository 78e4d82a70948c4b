"""How far does set logic go where the setter set needs forcing? Three ceilings, measured.

    python benchmarks/set_logic_probe.py [2,54,123 ...] [--mode rank|digit|lp] [--bases 5]

Needs scipy (HiGHS, ``scipy.optimize.milp`` / ``linprog``), which is no dependency of the
library: this is a probe, not a technique. For each puzzle (indices into
tests/data/fpuzzles_cc_by.jsonl; default: the 20 that need the forcing family in the setter
report) the puzzle is solved with the default techniques minus the forcing family
(:data:`FORCING_FAMILY` of benchmarks/variants.py); wherever that run is stuck, the probe
asks for eliminations of one kind, removes them and resumes, until the puzzle is solved or
the probe finds nothing more. Every elimination is checked against the stated solution.

The sets (Allan Barker's set logic, the candidates as they stand): **base sets** hold exactly
one true candidate: each open cell, and each digit of each full house (its places);
**cover sets** hold at most one: every maximal clique of the candidates' weak-link graph
(the cells, the houses' digits, and any rule's pairwise exclusions: anti-knight pairs, a
house's places with a cell that sees them all, dots, XV, indexers ...). A choice of B bases
and C covers such that every candidate lies in at least as many chosen covers as chosen
bases has rank R = C - B; the true candidates then fill every base once and at most every
cover, so a candidate that lies in R + 1 more covers than bases is false (rank 0: a cover
candidate outside the bases; fish, ALS chains, MSLS are rank-0 instances). Bases may overlap
(a true candidate in two bases counts twice on both sides; the argument holds).

Modes:

- ``rank`` (default): the smallest such certificate (fewest bases, then covers) with at
  most ``--bases`` base sets, bases and covers used once each (0/1): multi-digit rank logic
  of a size a strong human can still check. Found by a 0/1 program per candidate, tried on
  the candidates the ``lp`` mode removes (a superset);
- ``digit``: the same restricted to one digit (houses as bases, the digit's weak-link cliques
  as covers): single-digit rank logic, fish whose covers are any cliques, rank above 0
  allowed;
- ``lp``: weights free (the linear-programming relaxation: the candidate is false when the
  relaxation with it set to 1 is infeasible; by Farkas' lemma that is a set-logic argument
  with fractional multiplicities, of any size): the ceiling of every counting argument over
  these sets. Not a human technique; it shows what the sets can carry at all.

Prints one line per stuck state and per puzzle and a summary; CPU time.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from setter_set import FORCING_FAMILY, rows as setter_rows  # noqa: E402  (the repository onto sys.path)

import networkx as nx  # noqa: E402

import variants  # noqa: E402,F401  (registers the rule families' techniques)
from csp.bits import digits_of, iter_cells  # noqa: E402
from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402
from techniques import StepSolver  # noqa: E402
from techniques.analysis import Analysis  # noqa: E402


#: the setter report's puzzles whose default solve takes a forcing-family step (at 53e312b)
FORCING_20 = (2, 3, 4, 5, 54, 55, 56, 57, 59, 66, 85, 86, 96, 108, 119, 121, 123, 130, 131, 135)

Cand = tuple[int, int]          # (cell, digit)


def candidate_sets(an: Analysis) -> tuple[list[Cand], list[tuple[str, list[int]]],
                                           list[list[int]]]:
    """The candidates, the base sets (label, candidate indices) and the cover sets (the
    maximal cliques of the weak-link graph, two candidates or more) of a state."""
    n, g = an.n, an.grid
    cands = [(c, d) for c in range(an.size) for d in digits_of(an.cand[c])]
    idx = {x: i for i, x in enumerate(cands)}
    bases = [(f"cell {g.name(c)}", [idx[(c, d)] for d in digits_of(an.cand[c])])
             for c in iter_cells(an.unsolved)]
    placed = an.state.placed
    for h in an.full:
        m = an.house_mask[h]
        for d in range(1, n + 1):
            cs = m & an.cells_with[d]
            if cs and not any(placed[c] == d for c in an.houses[h].cells):
                bases.append((f"{an.houses[h].name}#{d}", [idx[(c, d)] for c in iter_cells(cs)]))
    graph = nx.Graph()
    graph.add_nodes_from(range(len(cands)))
    links = an.links
    for i, (c, d) in enumerate(cands):
        for d2 in digits_of(an.cand[c]):
            if d2 > d:
                graph.add_edge(i, idx[(c, d2)])
        for b in iter_cells(links.peers_d[d][c] & an.cells_with[d]):
            if b > c:
                graph.add_edge(i, idx[(b, d)])
        for other in links.cross.get((c, d), ()):
            j = idx.get(other)
            if j is not None and j > i:
                graph.add_edge(i, j)
    covers = [sorted(q) for q in nx.find_cliques(graph) if len(q) >= 2]
    return cands, bases, covers


def _scipy():
    try:
        import scipy.optimize as opt
        import scipy.sparse as sp
    except ImportError:                                   # pragma: no cover
        raise SystemExit("this probe needs scipy (pip install scipy)")
    return opt, sp


def lp_eliminations(sets, only: list[int] | None = None) -> list[int]:
    """Indices of the candidates whose value 1 makes the relaxation infeasible (bases = 1,
    covers <= 1, every candidate in [0, 1]); with ``only``, of those candidates only (one
    linear program a candidate: a whole grid's is some 14 s)."""
    opt, sp = _scipy()
    import numpy as np
    cands, bases, covers = sets
    x = len(cands)
    aeq = sp.lil_matrix((len(bases), x))
    for j, (_, s) in enumerate(bases):
        for i in s:
            aeq[j, i] = 1
    aub = sp.lil_matrix((len(covers), x))
    for k, s in enumerate(covers):
        for i in s:
            aub[k, i] = 1
    aeq, aub = aeq.tocsr(), aub.tocsr()
    out = []
    for i0 in (range(x) if only is None else only):
        lo = np.zeros(x)
        lo[i0] = 1
        r = opt.linprog(np.zeros(x), A_ub=aub, b_ub=np.ones(len(covers)), A_eq=aeq,
                        b_eq=np.ones(len(bases)), bounds=np.c_[lo, np.ones(x)], method="highs")
        if r.status == 2:                                 # infeasible
            out.append(i0)
    return out


def rank_certificate(sets, i0: int, max_bases: int, digit: int | None = None,
                     time_limit: float = 10.0):
    """The smallest 0/1 rank certificate eliminating candidate ``i0`` (bases, covers, rank)
    with at most ``max_bases`` bases, or None. ``digit``: single-digit sets only."""
    opt, sp = _scipy()
    import numpy as np
    cands, bases, covers = sets
    if digit is not None:
        bases = [b for b in bases if "#" in b[0] and cands[b[1][0]][1] == digit]
        # a clique's candidates of the digit are a clique too (mixed cliques: cross links)
        covers = [list(q) for q in dict.fromkeys(
            tuple(i for i in q if cands[i][1] == digit) for q in covers) if len(q) >= 2]
    nb, nc, x = len(bases), len(covers), len(cands)
    a = sp.lil_matrix((x + 2, nb + nc))
    for j, (_, s) in enumerate(bases):
        for i in s:
            a[i, j] -= 1
    for k, s in enumerate(covers):
        for i in s:
            a[i, nb + k] += 1
    a = a.tocsr()
    last = a[i0].toarray().ravel() + np.r_[np.ones(nb), -np.ones(nc)]
    a = sp.vstack([a[:x], sp.csr_matrix(last), sp.csr_matrix(np.r_[np.ones(nb), np.zeros(nc)])])
    lo = np.r_[np.zeros(x), 1, 1]
    hi = np.r_[np.full(x, np.inf), np.inf, max_bases]
    r = opt.milp(np.r_[np.full(nb, 100.0), np.ones(nc)],
                 constraints=opt.LinearConstraint(a, lo, hi), integrality=np.ones(nb + nc),
                 bounds=opt.Bounds(0, 1), options={"time_limit": time_limit})
    if r.x is None:
        return None
    v = np.round(r.x).astype(int)
    chosen_b = [bases[j][0] for j in range(nb) if v[j]]
    chosen_c = [covers[k] for k in range(nc) if v[nb + k]]
    return chosen_b, chosen_c, len(chosen_c) - len(chosen_b)


def probe_state(an: Analysis, mode: str, max_bases: int) -> list[tuple[Cand, int, int]]:
    """Eliminations at a stuck state: (candidate, bases, rank) each (bases 0 in ``lp``)."""
    sets = candidate_sets(an)
    cands = sets[0]
    lp = lp_eliminations(sets)
    if mode == "lp":
        return [(cands[i], 0, 0) for i in lp]
    out = []
    for i in lp:
        cert = rank_certificate(sets, i, max_bases, cands[i][1] if mode == "digit" else None)
        if cert is not None:
            out.append((cands[i], len(cert[0]), cert[2]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("which", nargs="?", default="", help="comma-separated puzzle indices")
    ap.add_argument("--mode", choices=("rank", "digit", "lp"), default="rank")
    ap.add_argument("--bases", type=int, default=5, help="most base sets (rank, digit)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    a = ap.parse_args(argv)
    puzzles = setter_rows()
    idx = [int(x) for x in a.which.split(",") if x] or FORCING_20
    names = [t.name for t in StepSolver("default").techniques if t.name not in FORCING_FAMILY]
    done = unsound = 0
    for i in idx:
        r = puzzles[i]
        sol = r["solution"]
        p = load_fpuzzles(r["fpuzzles_json"])
        st = p.pencilmarks()
        rounds = biggest = 0
        c0 = time.process_time()
        while True:
            res = StepSolver(names).solve(st, time_limit=a.limit)
            st = res.state
            if res.status != "stuck":
                break
            an = Analysis(st)
            found = probe_state(an, a.mode, a.bases)
            bad = [x for x, _, _ in found if int(sol[x[0]], 36) == x[1]]
            unsound += len(bad)
            small = min((b for _, b, _ in found), default=0)
            print(f"  #{i} stuck after {len(res.steps)} steps: {len(found)} eliminations"
                  f" ({len(bad)} unsound)" + (f", fewest bases {small}: " + ", ".join(
                      f"{an.grid.name(x[0])}<>{x[1]} (rank {rk})" for x, b, rk in found
                      if b == small)[:160] if found else ""), flush=True)
            if not found or bad:
                break
            for (c, d), b, _ in found:
                if b == small:                     # the smallest arguments first
                    st.remove(c, d)
            rounds += 1
            biggest = max(biggest, small)
        done += res.status == "solved"
        print(f"#{i} {r['title'][:40]!r}: {res.status} after {rounds} probe round(s), "
              f"largest {biggest} bases, {time.process_time() - c0:.1f} s", flush=True)
    print(f"{a.mode} (bases <= {a.bases}): {done} of {len(idx)} solved without the forcing "
          f"family; {unsound} unsound eliminations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
