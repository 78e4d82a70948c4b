"""networkx views: constraint graph, cell graph, link graph, exports."""
from __future__ import annotations

import io
import json
import re

import networkx as nx
import pytest

from conftest import load_solutions
from csp import AbsDiff, Grid, Less, NotAbsDiff, NotEqual, Puzzle, Sum
from csp.constraints import Domain, FunctionConstraint, Linear
from csp.graphs import (candidate_id, cell_graph, constraint_graph, link_graph,
                        parse_candidate_id, to_dot)
from csp.links import link_tables


def classic(line: str | None = None, n: int = 9) -> Puzzle:
    p = Puzzle(Grid(n)).add_grid_houses()
    if line:
        p.givens(line)
    return p


# -- cell graph ---------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3, 4])
def test_cell_graph_is_networkx_sudoku_graph(k):
    G = cell_graph(classic(n=k * k))
    S = nx.sudoku_graph(k)
    assert nx.utils.graphs_equal(G, S)
    assert sorted(G.edges) == sorted(S.edges)
    assert nx.is_isomorphic(G, S)


def test_cell_graph_jigsaw_regions_and_relations():
    p = classic(n=4)
    p.add(NotEqual(0, 15), Less(1, 14), NotAbsDiff(2, 13), AbsDiff(3, 12),
          Sum((4, 11), 5), Sum((5, 10), 4))
    G = cell_graph(p)
    base = nx.sudoku_graph(2)
    extra = {tuple(sorted(e)) for e in G.edges} - {tuple(sorted(e)) for e in base.edges}
    # != , < and |a-b|=1 forbid equal digits; non-consecutive and a sum 4 (2+2) do not;
    # an odd sum does
    assert extra == {(0, 15), (1, 14), (3, 12), (4, 11)}


def test_cell_graph_attributes_and_colouring():
    line, sol = load_solutions("norvig_top95", limit=1)[0]
    p = classic(line)
    G = cell_graph(p, attributes=True)
    assert G.edges[0, 1]["via"] == "row 1; box 1"
    assert G.edges[0, 9]["via"] == "col 1; box 1"
    assert G.nodes[80]["name"] == "r9c9" and G.nodes[80]["row"] == 9
    # a solution is a proper colouring of the cell graph
    assert all(sol[a] != sol[b] for a, b in G.edges)
    assert G.number_of_edges() == 81 * 20 // 2


# -- constraint graph ---------------------------------------------------------------------
def test_constraint_graph_bipartite_scopes():
    p = classic("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    p.add(Less(0, 1), Sum((2, 3, 12), 15, distinct=True), Domain(39, [1, 3, 5]),
          FunctionConstraint(lambda a, b, c: a + b > c, [10, 11, 10]),
          Linear([20, 21, 22], [1, 1, -1], 0))
    G = constraint_graph(p)
    cells = {n for n, d in G.nodes(data=True) if d["bipartite"] == 0}
    cons = {n for n, d in G.nodes(data=True) if d["bipartite"] == 1}
    assert cells == set(range(81))
    assert len(cons) == len(p.constraints) == 27 + 5
    assert nx.is_bipartite(G)
    for i, c in enumerate(p.constraints):
        node = f"k{i}"
        assert set(G[node]) == set(c.cells)
        assert G.nodes[node]["label"] == c.name
        assert G.nodes[node]["arity"] == len(set(c.cells))
    assert G.nodes[0]["given"] == 4 and G.nodes[1]["given"] == 0
    assert G.nodes["k27"]["kind"] == "relation" and G.nodes["k27"]["label"] == "r1c1<r1c2"
    assert G.nodes["k28"]["house"] is True and G.nodes["k28"]["total"] == 15
    assert G.nodes["k29"]["digits"] == "135"
    assert G.nodes["k31"]["coeffs"] == "1,1,-1"
    # every cell of a classic grid is in exactly three all-different houses, plus the cage
    assert all(sum(1 for k in G[c] if G.nodes[k]["house"]) == 3 + (c in (2, 3, 12))
               for c in range(81))


# -- link graph ---------------------------------------------------------------------------
def _live(state):
    return [(c, d) for c in range(state.grid.size) if not state.placed[c]
            for d in range(1, state.grid.n + 1) if state.cand[c] >> d & 1]


@pytest.mark.parametrize("idx", [0, 5])
def test_link_graph_matches_link_tables_and_solution(idx):
    line, sol = load_solutions("norvig_top95", limit=idx + 1)[idx]
    p = classic(line)
    st = p.pencilmarks()
    L = link_graph(p, st)
    live = _live(st)
    assert set(L.nodes) == {candidate_id(p.grid, c, d) for c, d in live}
    t = link_tables(p)
    expected = set()
    for i, (c1, d1) in enumerate(live):
        for c2, d2 in live[i + 1:]:
            if t.sees(c1, d1, c2, d2):
                expected.add(frozenset((candidate_id(p.grid, c1, d1),
                                        candidate_id(p.grid, c2, d2))))
    assert {frozenset(e) for e in L.edges} == expected
    for u, v, data in L.edges(data=True):
        cu, du = L.nodes[u]["cell"], L.nodes[u]["digit"]
        cv, dv = L.nodes[v]["cell"], L.nodes[v]["digit"]
        # weak: never both true in the solution
        assert not (sol[cu] == du and sol[cv] == dv)
        if data["kind"] == "strong":
            assert sol[cu] == du or sol[cv] == dv
            assert data["strong_via"]
        if cu == cv:
            assert data["via"] == f"cell {p.grid.name(cu)}"
        else:
            assert du == dv
            assert all(any(h.name == name and cu in h.cells and cv in h.cells
                           for h in p.houses()) for name in data["via"].split("; "))


def test_link_graph_strong_links_exact():
    line, _ = load_solutions("norvig_top95", limit=1)[0]
    p = classic(line)
    st = p.propagate()
    L = link_graph(p, st)
    strong = {frozenset((u, v)) for u, v, d in L.edges(data=True) if d["kind"] == "strong"}
    expected = set()
    g = p.grid
    for c in range(g.size):
        if not st.placed[c] and st.cand[c].bit_count() == 2:
            d1, d2 = [d for d in range(1, 10) if st.cand[c] >> d & 1]
            expected.add(frozenset((candidate_id(g, c, d1), candidate_id(g, c, d2))))
    for h in g.houses:
        for d in range(1, 10):
            if any(st.placed[c] == d for c in h.cells):
                continue
            cs = [c for c in h.cells if not st.placed[c] and st.cand[c] >> d & 1]
            if len(cs) == 2:
                expected.add(frozenset((candidate_id(g, cs[0], d), candidate_id(g, cs[1], d))))
    assert strong == expected
    assert strong   # the propagated top95 #1 has bivalue cells


def test_link_graph_constraint_links_named():
    p = classic(n=4)
    p.add(Less(0, 5, name="sign"))
    L = link_graph(p, p.initial_state())
    # r1c1 < r2c2: (r1c1,3) and (r2c2,2) cannot both hold; same box also links (.,d),(.,d)
    assert L.edges["r1c1:3", "r2c2:2"]["via"] == "sign"
    assert L.edges["r1c1:3", "r2c2:3"]["via"] == "box 1; sign"
    assert not L.has_edge("r1c1:2", "r2c2:3")
    assert L.number_of_nodes() == 64


def test_link_graph_default_state_and_puzzle_methods():
    p = classic("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    L = p.link_graph()
    assert L.number_of_nodes() == sum(m.bit_count() for c, m in enumerate(p.pencilmarks().cand)
                                      if c not in p.given)
    L2 = p.link_graph(p.propagate())
    assert L2.number_of_nodes() < L.number_of_nodes()
    assert nx.utils.graphs_equal(p.cell_graph(), nx.sudoku_graph(3))
    assert p.constraint_graph().number_of_nodes() == 81 + 27


def test_candidate_ids_roundtrip():
    g = Grid(16)
    for c in (0, 17, 255):
        for d in (1, 9, 16):
            assert parse_candidate_id(g, candidate_id(g, c, d)) == (c, d)


# -- exports ------------------------------------------------------------------------------
def _graphs():
    p = classic("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    p.add(Less(0, 1), Sum((2, 3), 9), Domain(39, [1, 3, 5]),
          FunctionConstraint(lambda a, b, c: a + b > c, [10, 11, 12]),
          Linear([20, 21, 22], [1, 1, -1], 0))
    return {"constraint": p.constraint_graph(), "cells": p.cell_graph(),
            "cells_attr": cell_graph(p, attributes=True), "links": p.link_graph()}


@pytest.mark.parametrize("kind", ["constraint", "cells", "cells_attr", "links"])
def test_graphml_and_node_link_export(kind):
    G = _graphs()[kind]
    buf = io.BytesIO()
    nx.write_graphml(G, buf)
    buf.seek(0)
    H = nx.read_graphml(buf)
    assert H.number_of_nodes() == G.number_of_nodes()
    assert H.number_of_edges() == G.number_of_edges()
    data = nx.node_link_data(G, edges="links")
    text = json.dumps(data)
    back = nx.node_link_graph(json.loads(text), edges="links")
    assert back.number_of_edges() == G.number_of_edges()
    for _, d in G.nodes(data=True):
        assert all(isinstance(v, (str, int, float, bool)) for v in d.values())
    for *_, d in G.edges(data=True):
        assert all(isinstance(v, (str, int, float, bool)) for v in d.values())


@pytest.mark.parametrize("kind", ["constraint", "links"])
def test_dot_text(kind):
    G = _graphs()[kind]
    text = to_dot(G)
    lines = text.splitlines()
    assert lines[0] == 'graph "G" {' and lines[-1] == "}"
    edges = [ln for ln in lines if re.match(r'^  "[^"]*" -- "', ln)]
    assert len(edges) == G.number_of_edges()
    # every node is declared once, with its quoted id
    decl = [ln for ln in lines[1:-1] if " -- " not in ln and not ln.startswith("  graph")]
    assert len(decl) == G.number_of_nodes()
    assert text.count("{") == 1


def test_dot_quotes_and_directed():
    D = nx.DiGraph()
    D.add_edge('a"b', "c\\d", label="x\ny", flag=True)
    text = to_dot(D, name="T")
    assert text.splitlines()[0] == 'digraph "T" {'
    assert '"a\\"b" -> "c\\\\d" ["label"="x\\ny", "flag"="true"];' in text


def test_variant_links_in_graphs():
    """Anti-knight and non-consecutive rules show up as cell-graph edges and named links."""
    from variants.chess import anti_knight
    from variants.classic import classic as classic_rules
    from variants.dots import non_consecutive

    p = Puzzle(9).use(classic_rules(), anti_knight())
    C = p.cell_graph()
    g = p.grid
    knight_pairs = {tuple(sorted((c, o))) for c in range(81) for o in g.knight(c)}
    base = {tuple(sorted(e)) for e in nx.sudoku_graph(3).edges}
    assert {tuple(sorted(e)) for e in C.edges} == base | knight_pairs
    L = p.link_graph()
    via = L.edges["r1c1:5", "r2c3:5"]["via"].split("; ")
    assert via[0] == "box 1" and "knight" in via[1]
    assert "knight" in L.edges["r1c3:5", "r2c5:5"]["via"]   # knight move across boxes
    assert not L.has_edge("r1c3:5", "r2c5:6")

    q = Puzzle(9).use(classic_rules(), non_consecutive())
    L = q.link_graph()
    assert "consecutive" in L.edges["r1c1:5", "r1c2:6"]["via"]
    assert not L.has_edge("r1c1:5", "r1c2:7")
    # non-consecutive does not force different digits, so the cell graph is the classic one
    assert nx.utils.graphs_equal(q.cell_graph(), nx.sudoku_graph(3))
