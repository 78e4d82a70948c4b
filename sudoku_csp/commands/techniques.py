"""``sudoku-csp techniques [--json]``: every registered technique (the technique families
and the rule families' own) in ladder order, with its family, HoDoKu code, score and
level."""
from __future__ import annotations

import argparse
import json
from typing import Any

from . import COMMANDS


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``techniques`` on the CLI's subparsers."""
    t = sub.add_parser("techniques", help=COMMANDS["techniques"])
    t.add_argument("--json", action="store_true",
                   help="a JSON list: name, title, family, code, score, level, enabled, "
                        "requires_unique of each technique")
    t.set_defaults(run=run)
    return t


def run(args: argparse.Namespace) -> int:
    import variants  # noqa: F401  (adds the rule families' techniques to the registry)
    from techniques import registry
    rows = registry.all_techniques()
    if args.json:
        print(json.dumps([{"name": t.name, "title": t.title, "family": t.family,
                           "code": t.code, "score": t.score, "level": t.level,
                           "enabled": t.enabled, "requires_unique": t.requires_unique}
                          for t in rows]))
        return 0
    for t in rows:
        flag = "" if t.enabled else "  (off by default)"
        print(f"{t.name:32s} {t.family:14s} {t.code or '-':6s} {t.score:6d} {t.level:8s}"
              f"{t.title}{flag}")
    return 0
