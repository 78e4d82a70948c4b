"""``sudoku-csp graph PUZZLE --kind constraint|cells|links --format graphml|json|dot``: the
puzzle's constraint graph, cell graph or candidate link graph (networkx views of
:mod:`csp.graphs`)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``graph`` on the CLI's subparsers."""
    g = sub.add_parser("graph", help="export the constraint, cell or link graph")
    g.add_argument("puzzle")
    g.add_argument("--kind", choices=("constraint", "cells", "links"), default="constraint")
    g.add_argument("--format", choices=("graphml", "json", "dot"), default="graphml")
    g.add_argument("-o", "--output", default=None)
    g.set_defaults(run=run)
    return g


def run(args: argparse.Namespace) -> int:
    import networkx as nx

    from csp.errors import InvalidPuzzle
    from csp.events import Contradiction
    from csp.graphs import to_dot

    from ..formats.loader import load_one
    p = load_one(args.puzzle).puzzle
    if args.kind == "constraint":
        G = p.constraint_graph()
    elif args.kind == "cells":
        G = p.cell_graph()
    else:
        try:
            st = p.propagate()
        except Contradiction as e:
            raise InvalidPuzzle(f"the puzzle has no solution: {e}") from None
        G = p.link_graph(st)
    if args.format == "graphml":
        text = "\n".join(nx.generate_graphml(G)) + "\n"
    elif args.format == "json":
        text = json.dumps(nx.node_link_data(G, edges="edges")) + "\n"
    else:
        text = to_dot(G)
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
