"""``sudoku-csp graph PUZZLE --kind constraint|cells|links --format graphml|json|dot``: the
puzzle's constraint graph, cell graph or candidate link graph (networkx views of
:mod:`csp.graphs`)."""
from __future__ import annotations

import argparse
import json
from typing import Any

from . import COMMANDS
from ..errors import UsageError
from .options import PUZZLE_HELP, add_puzzle_options, at_least, load_puzzle

#: default largest link graph written (candidate nodes): an empty 16x16 grid has 4,096
MAX_NODES = 5000
#: rough bytes per edge and per node in the output, for the size estimate of a refusal
_BYTES = {"graphml": (170, 110), "json": (150, 80), "dot": (120, 60)}


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``graph`` on the CLI's subparsers."""
    g = sub.add_parser("graph", help=COMMANDS["graph"])
    g.add_argument("puzzle", help=PUZZLE_HELP)
    g.add_argument("--kind", choices=("constraint", "cells", "links"), default="constraint",
                   help="constraint: cells and constraints (bipartite); cells: cells joined "
                        "when they must differ; links: candidates joined by weak links")
    g.add_argument("--format", choices=("graphml", "json", "dot"), default="graphml",
                   help="GraphML, node-link JSON (networkx) or Graphviz dot")
    g.add_argument("-o", "--output", default=None, metavar="FILE",
                   help="the file to write (default: stdout)")
    g.add_argument("--max-nodes", type=at_least(1), default=MAX_NODES, metavar="N",
                   help=f"refuse a link graph of more than N candidate nodes (default "
                        f"{MAX_NODES}; the whole graph is built in memory)")
    add_puzzle_options(g)
    g.set_defaults(run=run)
    return g


def run(args: argparse.Namespace) -> int:
    import networkx as nx

    from csp.errors import InvalidPuzzle
    from csp.events import Contradiction
    from csp.graphs import to_dot

    p = load_puzzle(args)
    if args.kind == "constraint":
        G = p.constraint_graph()
    elif args.kind == "cells":
        G = p.cell_graph()
    else:
        from csp.graphs import link_graph_size
        try:
            st = p.propagate()
        except Contradiction as e:
            raise InvalidPuzzle(f"the puzzle has no solution: {e}") from None
        nodes, edges = link_graph_size(p, st)
        if nodes > args.max_nodes:
            per_node, per_edge = _BYTES[args.format]
            mb = (nodes * per_node + edges * per_edge) / 1e6
            raise UsageError(f"the link graph has {nodes:,} candidate nodes and up to "
                             f"{edges:,} edges (about {mb:,.0f} MB of {args.format}, held in "
                             f"memory while it is written); over --max-nodes {args.max_nodes}: "
                             f"pass --max-nodes {nodes} to write it anyway")
        G = p.link_graph(st)
    if args.format == "graphml":
        text = "\n".join(nx.generate_graphml(G)) + "\n"
    elif args.format == "json":
        text = json.dumps(nx.node_link_data(G, edges="edges")) + "\n"
    else:
        text = to_dot(G)
    from ..output import say_wrote, write_output
    write_output(args.output, text)
    say_wrote(args.output)
    return 0
