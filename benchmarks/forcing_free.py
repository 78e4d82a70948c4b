"""Can the forcing steps go? Two probes on the setter set's puzzles that need the forcing family.

    python benchmarks/forcing_free.py [2,54,123 ...] [--limit 60] [--fish 3] [--fins 0]

For each puzzle (indices into tests/data/fpuzzles_cc_by.jsonl; default: every puzzle whose
default logic solve takes a forcing-family step, :data:`FORCING_FAMILY` of
benchmarks/variants.py), after the default solve:

- **every other technique**: the puzzle solved again with every registered technique that is
  not of the forcing family, the ones off by default too (Franken and Mutant fish up to
  jellyfish and their finned forms, the finned mutant whale, death blossom, relaxed wings,
  dual kites ...; squirmbags, whales and leviathans otherwise left out for their cost). Without
  the forcing family a solve either finishes (a puzzle that would count "without forcing"
  once those techniques had a place before the forcing family) or stops ("stuck"); the
  table gives the step it stops at next to the default path's first forcing step;
- **clique fish** (``--fish K``): at the state before each forcing step of the default path,
  the single-digit set logic whose base sets are full houses (each holds the digit once) and
  whose cover sets are any cliques of the digit's weak-link graph (each holds it at most
  once: houses, but also anti-knight and anti-king pairs, a house's places with a cell that
  sees them all, any rule's same-digit clique) -- the fish of :mod:`techniques.fish` with
  every clique as a cover, up to ``K`` bases and ``--fins`` fins. Covers are the maximal
  cliques (networkx ``find_cliques`` on the digit's candidates): a larger cover covers as
  much and eliminates more, and the rank argument does not need covers to be disjoint (k
  digits in k disjoint bases, each in at most one cover of k, so every cover holds exactly
  one base digit: a cover's other candidates go, and so do base candidates in two covers).
  Every elimination is checked against the puzzle's stated solution.

Prints one line per puzzle and a summary; CPU time.
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
from csp.bits import iter_cells  # noqa: E402
from sudoku_csp.formats.fpuzzles import load_fpuzzles  # noqa: E402
from techniques import StepSolver, registry  # noqa: E402
from techniques.analysis import Analysis  # noqa: E402
from techniques.loop import replay  # noqa: E402


#: fish sizes left out of "every other technique" for their cost (the finned mutant whale,
#: which fires once in Hanging Vines, is kept)
_BIG = ("squirmbag", "whale", "leviathan")


def non_forcing() -> list[str]:
    """Every registered technique outside the forcing family (on and off by default)."""
    return [n for n in registry.load() if n not in FORCING_FAMILY
            and (not any(b in n for b in _BIG) or n == "finned_mutant_whale")]


def cliques(an: Analysis, d: int) -> list[int]:
    """The maximal cliques (two or more candidates, as cell bitsets) of digit ``d``'s
    weak-link graph on its candidates."""
    cw = an.cells_with[d]
    pd = an.links.peers_d[d]
    g = nx.Graph()
    g.add_nodes_from(iter_cells(cw))
    for a in iter_cells(cw):
        for b in iter_cells(pd[a] & cw):
            if b > a:
                g.add_edge(a, b)
    out = []
    for q in nx.find_cliques(g):
        if len(q) >= 2:
            out.append(sum(1 << c for c in q))
    return out


def clique_fish(an: Analysis, d: int, max_k: int = 3, max_fins: int = 0,
                max_base: int = 7) -> list[tuple[int, int, int]]:
    """Clique-cover fish of digit ``d`` (module docstring): (base candidates, fins, cells
    losing d) for each cover found. Bases: disjoint full houses with 2..``max_base``
    places."""
    cw = an.cells_with[d]
    pd = an.links.peers_d[d]
    bases = [an.house_mask[h] & cw for h in an.full
             if 2 <= (an.house_mask[h] & cw).bit_count() <= max_base]
    by_cell: dict[int, list[int]] = {}
    for q in cliques(an, d):
        for c in iter_cells(q):
            by_cell.setdefault(c, []).append(q)
    found = []

    def seen_by_all(fins: int) -> int:
        out = cw
        for f in iter_cells(fins):
            out &= pd[f]
        return out

    def cover(body: int, k: int, chosen: list[int], covered: int, fins: int) -> None:
        rest = body & ~covered
        if not rest:
            union = multi = 0
            for q in chosen:
                multi |= union & q
                union |= q
            el = (union & ~body) | (multi & body)
            if fins:
                el &= seen_by_all(fins) & ~fins
            if el:
                found.append((body, fins, el))
            return
        low = rest & -rest
        if k:
            for q in by_cell.get(low.bit_length() - 1, ()):
                chosen.append(q)
                cover(body, k - 1, chosen, covered | q, fins)
                chosen.pop()
        if fins.bit_count() < max_fins and seen_by_all(fins | low) & ~(fins | low):
            cover(body, k, chosen, covered | low, fins | low)

    def grow(start: int, n: int, body: int) -> None:
        for i in range(start, len(bases)):
            if bases[i] & body:
                continue
            b = body | bases[i]
            cover(b, n + 1, [], 0, 0)
            if n + 1 < max_k:
                grow(i + 1, n + 1, b)

    grow(0, 0, 0)
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("which", nargs="?", default="",
                    help="comma-separated puzzle indices (default: every puzzle whose "
                         "default solve takes a forcing step)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    ap.add_argument("--fish", type=int, default=0,
                    help="clique fish probe: most bases (0: no probe)")
    ap.add_argument("--fins", type=int, default=0, help="clique fish probe: most fins")
    a = ap.parse_args(argv)
    puzzles = setter_rows()
    idx = [int(x) for x in a.which.split(",") if x] or range(len(puzzles))
    names = non_forcing()
    cleared = probed = fired = unsound = 0
    for i in idx:
        r = puzzles[i]
        p = load_fpuzzles(r["fpuzzles_json"])
        lr = StepSolver("default").solve(p, time_limit=a.limit)
        forcing = [k for k, s in enumerate(lr.steps) if s.technique in FORCING_FAMILY]
        if not forcing:
            continue
        c0 = time.process_time()
        other = StepSolver(names).solve(p, time_limit=a.limit)
        cpu = time.process_time() - c0
        cleared += other.status == "solved"
        line = (f"{i:3d} default {len(lr.steps):4d} steps, {len(forcing):3d} forcing, first at "
                f"{forcing[0]:4d} | every other technique: {other.status} after "
                f"{len(other.steps):4d} steps ({cpu:5.1f} s)")
        if a.fish:
            hits = 0
            sol = r["solution"]
            for k, st in enumerate(replay(p.pencilmarks(), lr.steps)):
                if k not in forcing:
                    continue
                an = Analysis(st)
                probed += 1
                got = False
                for d in range(1, p.grid.n + 1):
                    for _, _, el in clique_fish(an, d, a.fish, a.fins):
                        got = True
                        unsound += sum(int(sol[c], 36) == d for c in iter_cells(el))
                hits += got
            fired += hits
            line += f" | clique fish at {hits}/{len(forcing)} forcing states"
        print(f"{line}  {r['title'][:36]}", flush=True)
    print(f"solved by the other techniques: {cleared}")
    if a.fish:
        print(f"clique fish (bases <= {a.fish}, fins <= {a.fins}): {fired} of {probed} "
              f"forcing states, {unsound} unsound eliminations")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
