"""networkx views of a puzzle: constraint graph, cell graph, candidate link graph; DOT text.

These are *views* built on demand from the model and a State; solving never uses them.
Every node, edge and graph attribute is a scalar (str, int, float or bool), so the graphs
export as they are with ``networkx.write_graphml`` and ``networkx.node_link_data``.

>>> from csp import Puzzle, Grid
>>> p = Puzzle(Grid(4)).add_grid_houses()
>>> _ = p.add_less("r1c1", "r2c3")
>>> G = constraint_graph(p)
>>> G.number_of_nodes(), G.nodes[0]["name"], G.nodes["k12"]["label"]
(29, 'r1c1', 'r1c1<r2c3')
>>> C = cell_graph(p)
>>> C.has_edge(0, 6), C.has_edge(0, 5), C.has_edge(0, 11)
(True, True, False)
>>> L = link_graph(p)
>>> L.edges["r1c1:1", "r1c1:2"]["kind"], L.edges["r1c1:1", "r1c2:1"]["via"]
('weak', 'row 1; box 1')
"""
from __future__ import annotations

from typing import Any

import networkx as nx

from .bits import digits_of
from .state import State

__all__ = ["constraint_graph", "cell_graph", "link_graph", "link_graph_size", "candidate_id",
           "parse_candidate_id", "to_dot"]


def _scalar(v: Any) -> str | int | float | bool:
    """A GraphML-safe value: scalars pass, everything else becomes text."""
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list, set, frozenset)):
        items = sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v
        return ",".join(str(x) for x in items)
    return str(v)


def _cell_attrs(puzzle, cell: int) -> dict[str, Any]:
    g = puzzle.grid
    return {"name": g.name(cell), "row": g.row(cell) + 1, "col": g.col(cell) + 1,
            "given": puzzle.given.get(cell, 0)}


def constraint_graph(puzzle) -> nx.Graph:
    """The bipartite constraint graph: a node per cell (the int cell id, ``bipartite=0``,
    attributes ``name``, ``row``, ``col`` (1-based), ``given`` (0 if none)) and a node per
    constraint (``"k<i>"`` for the i-th constraint of the puzzle, ``bipartite=1``,
    ``label`` = its name, ``kind``, ``arity`` and the constraint's own scalar attributes),
    with an edge between a constraint and each cell of its scope (``position`` = the
    first index of the cell in the scope).

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses()
    >>> G = constraint_graph(p)
    >>> sorted(G.nodes[n]["label"] for n in G[0])
    ['box 1', 'col 1', 'row 1']
    >>> import networkx as nx
    >>> nx.is_bipartite(G), G.degree["k0"]
    (True, 4)
    """
    g = puzzle.grid
    G = nx.Graph(kind="constraint", n=g.n, name=puzzle.name or "")
    for c in range(g.size):
        G.add_node(c, bipartite=0, **_cell_attrs(puzzle, c))
    for i, con in enumerate(puzzle.constraints):
        node = f"k{i}"
        attrs = {k: _scalar(v) for k, v in con.attributes().items()}
        attrs.update(bipartite=1, label=con.name, kind=con.kind,
                     arity=len(set(con.cells)), house=con.house() is not None)
        G.add_node(node, **attrs)
        seen: set[int] = set()
        for pos, cell in enumerate(con.cells):
            if cell not in seen:
                seen.add(cell)
                G.add_edge(cell, node, position=pos)
    return G


def _differ_pairs(puzzle) -> dict[tuple[int, int], list[str]]:
    """Pairs of cells (a < b) that must hold different digits, with the names of the
    houses / constraints that say so. A non-house constraint counts when its weak links
    forbid every equal pair of digits between the two cells."""
    n = puzzle.grid.n
    out: dict[tuple[int, int], list[str]] = {}
    for con in puzzle.constraints:
        h = con.house()
        if h is not None:
            cells = sorted(set(h))
            for i, a in enumerate(cells):
                for b in cells[i + 1:]:
                    out.setdefault((a, b), []).append(con.name)
            continue
        equal: dict[tuple[int, int], set[int]] = {}
        for (a, da), (b, db) in con.weak_links(n):
            if a != b and da == db:
                equal.setdefault((min(a, b), max(a, b)), set()).add(da)
        for pair, ds in equal.items():
            if len(ds) == n:
                names = out.setdefault(pair, [])
                if con.name not in names:
                    names.append(con.name)
    return out


def cell_graph(puzzle, attributes: bool = False) -> nx.Graph:
    """The cell graph: cells (int ids, row-major) adjacent when they must hold different
    digits (they share a house, or a binary rule such as ``a != b`` or ``a < b`` forbids
    equal digits). A solution is a proper colouring with n colours. For a classic 9x9
    puzzle this is ``networkx.sudoku_graph(3)``, node for node and edge for edge.

    With ``attributes=True`` cells get ``name``/``row``/``col``/``given`` and edges a
    ``via`` attribute (the names of the houses and constraints, joined by ``"; "``).

    >>> from csp import Puzzle, Grid
    >>> import networkx as nx
    >>> p = Puzzle(Grid(9)).add_grid_houses()
    >>> nx.utils.graphs_equal(cell_graph(p), nx.sudoku_graph(3))
    True
    >>> cell_graph(Puzzle(Grid(4)).add_grid_houses(), attributes=True).edges[0, 5]["via"]
    'box 1'
    """
    g = puzzle.grid
    G = nx.Graph()
    if attributes:
        G.graph.update(kind="cells", n=g.n)
        for c in range(g.size):
            G.add_node(c, **_cell_attrs(puzzle, c))
    else:
        G.add_nodes_from(range(g.size))
    for (a, b), names in sorted(_differ_pairs(puzzle).items()):
        if attributes:
            G.add_edge(a, b, via="; ".join(names))
        else:
            G.add_edge(a, b)
    return G


def candidate_id(grid, cell: int, digit: int) -> str:
    """The link-graph node id of a candidate: ``"r1c1:5"``.

    >>> from csp import Grid
    >>> candidate_id(Grid(16), 255, 16)
    'r16c16:16'
    """
    return f"{grid.name(cell)}:{digit}"


def parse_candidate_id(grid, node: str) -> tuple[int, int]:
    """Inverse of :func:`candidate_id`: ``(cell, digit)``.

    >>> from csp import Grid
    >>> parse_candidate_id(Grid(9), "r2c3:7")
    (11, 7)
    """
    name, _, d = node.partition(":")
    return grid.cell(name), int(d)


def link_graph_size(puzzle, state: State | None = None) -> tuple[int, int]:
    """``(nodes, edges)`` of :func:`link_graph` without building it: the exact number of
    candidate nodes and an upper bound on the edges (a pair linked by two houses is counted
    twice), in time linear in the candidates. Lets a caller refuse a graph too big to hold.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("12..34..........")
    >>> link_graph_size(p), link_graph(p).number_of_nodes(), link_graph(p).number_of_edges()
    ((32, 120), 32, 96)
    """
    g = puzzle.grid
    n = g.n
    if state is None:
        state = puzzle.pencilmarks()
    live = [0 if state.placed[c] else state.cand[c] for c in range(g.size)]
    nodes = sum(m.bit_count() for m in live)
    edges = sum(k * (k - 1) // 2 for k in (m.bit_count() for m in live))
    for h in puzzle.houses():
        for d in range(1, n + 1):
            k = sum(1 for c in set(h.cells) if live[c] >> d & 1)
            edges += k * (k - 1) // 2
    for con in puzzle.constraints:
        if con.house() is None:
            edges += sum(1 for x, y in con.weak_links(n)
                         if live[x[0]] >> x[1] & 1 and live[y[0]] >> y[1] & 1)
    return nodes, edges


def link_graph(puzzle, state: State | None = None) -> nx.Graph:
    """The candidate link graph of ``state`` (default: the puzzle's starting pencil marks,
    :meth:`csp.Puzzle.pencilmarks`).

    Nodes are the candidates of unplaced cells, ids ``"r1c1:5"`` (see
    :func:`candidate_id`), attributes ``cell`` (int id), ``digit``, ``name``, ``row``,
    ``col`` (1-based). An edge joins two candidates that cannot both be true (a weak link):
    ``via`` names what links them, joined by ``"; "``: ``"cell r1c1"`` for two digits of
    one cell, house names for one digit twice in a house, constraint names for the links of
    binary rules (``a < b``, anti-knight, non-consecutive, ...). Edges whose candidates are
    also *strongly* linked in ``state`` (at least one is true: the only two candidates of a
    cell, or the only two places of a digit in a house of n cells) have
    ``kind="strong"`` and ``strong_via`` (the cell or houses); the others
    ``kind="weak"``. Every strong link built this way is also a weak link.

    >>> from csp import Puzzle, Grid
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("12..34..........")
    >>> L = link_graph(p)
    >>> sorted(L.nodes)[:4]
    ['r1c3:3', 'r1c3:4', 'r1c4:3', 'r1c4:4']
    >>> e = L.edges["r1c3:3", "r1c3:4"]
    >>> e["kind"], e["via"], e["strong_via"]
    ('strong', 'cell r1c3', 'cell r1c3')
    >>> e = L.edges["r1c3:3", "r1c4:3"]
    >>> e["kind"], e["via"], e["strong_via"]
    ('strong', 'row 1; box 2', 'row 1; box 2')
    >>> L.edges["r1c3:3", "r3c3:3"]["kind"]
    'weak'
    """
    g = puzzle.grid
    n = g.n
    if state is None:
        state = puzzle.pencilmarks()
    cand = state.cand
    placed = state.placed
    live = [0 if placed[c] else cand[c] for c in range(g.size)]
    G = nx.Graph(kind="links", n=n)
    for c in range(g.size):
        m = live[c]
        for d in range(1, n + 1):
            if m >> d & 1:
                G.add_node(candidate_id(g, c, d), cell=c, digit=d, name=g.name(c),
                           row=g.row(c) + 1, col=g.col(c) + 1)
    via: dict[tuple[tuple[int, int], tuple[int, int]], list[str]] = {}

    def link(x: tuple[int, int], y: tuple[int, int], why: str) -> None:
        if x == y or not (live[x[0]] >> x[1] & 1 and live[y[0]] >> y[1] & 1):
            return
        key = (x, y) if x < y else (y, x)
        names = via.setdefault(key, [])
        if why not in names:
            names.append(why)

    for c in range(g.size):
        ds = digits_of(live[c])
        for i, d1 in enumerate(ds):
            for d2 in ds[i + 1:]:
                link((c, d1), (c, d2), f"cell {g.name(c)}")
    houses = puzzle.houses()
    for h in houses:
        cells = sorted(set(h.cells))
        for d in range(1, n + 1):
            with_d = [c for c in cells if live[c] >> d & 1]
            for i, a in enumerate(with_d):
                for b in with_d[i + 1:]:
                    link((a, d), (b, d), h.name)
    for con in puzzle.constraints:
        if con.house() is not None:
            continue
        for x, y in con.weak_links(n):
            link(x, y, con.name)
    # strong links of the state
    strong: dict[tuple[tuple[int, int], tuple[int, int]], list[str]] = {}
    for c in range(g.size):
        m = live[c]
        if m.bit_count() == 2:
            d1 = (m & -m).bit_length() - 1
            d2 = m.bit_length() - 1
            strong.setdefault(((c, d1), (c, d2)), []).append(f"cell {g.name(c)}")
    for h in houses:
        if len(set(h.cells)) != n:
            continue
        for d in range(1, n + 1):
            if any(placed[c] == d for c in h.cells):
                continue
            with_d = [c for c in sorted(set(h.cells)) if live[c] >> d & 1]
            if len(with_d) == 2:
                strong.setdefault(((with_d[0], d), (with_d[1], d)), []).append(h.name)
    for (x, y), names in sorted(via.items()):
        attrs: dict[str, Any] = {"kind": "weak", "via": "; ".join(names)}
        s = strong.get((x, y))
        if s is not None:
            attrs.update(kind="strong", strong_via="; ".join(s))
        G.add_edge(candidate_id(g, *x), candidate_id(g, *y), **attrs)
    for (x, y), names in sorted(strong.items()):
        if (x, y) not in via:   # cannot happen with houses/cells, kept for safety
            G.add_edge(candidate_id(g, *x), candidate_id(g, *y), kind="strong", via="",
                       strong_via="; ".join(names))
    return G


# -- DOT ---------------------------------------------------------------------------------
def _dot_quote(v: Any) -> str:
    if isinstance(v, bool):
        v = "true" if v else "false"
    s = str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{s}"'


def _dot_attrs(data: dict) -> str:
    if not data:
        return ""
    body = ", ".join(f"{_dot_quote(k)}={_dot_quote(v)}" for k, v in data.items())
    return f" [{body}]"


def to_dot(G: nx.Graph, name: str = "G") -> str:
    """Graphviz DOT text of a graph (no pydot needed): ``graph``/``digraph``, every node
    and edge with its attributes; ids and values are quoted. Parallel edges of a
    multigraph are written one by one.

    >>> import networkx as nx
    >>> G = nx.Graph(kind="demo"); G.add_node(0, name='r1c1'); G.add_edge(0, 'k"1"', w=2)
    >>> print(to_dot(G))
    graph "G" {
      graph ["kind"="demo"];
      "0" ["name"="r1c1"];
      "k\\"1\\"";
      "0" -- "k\\"1\\"" ["w"="2"];
    }
    """
    directed = G.is_directed()
    arrow = "->" if directed else "--"
    lines = [f"{'digraph' if directed else 'graph'} {_dot_quote(name)} {{"]
    if G.graph:
        lines.append(f"  graph{_dot_attrs(dict(G.graph))};")
    for node, data in G.nodes(data=True):
        lines.append(f"  {_dot_quote(node)}{_dot_attrs(data)};")
    for u, v, data in G.edges(data=True):
        lines.append(f"  {_dot_quote(u)} {arrow} {_dot_quote(v)}{_dot_attrs(data)};")
    lines.append("}")
    return "\n".join(lines)
