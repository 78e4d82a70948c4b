"""``sudoku-csp techniques [--json] [--options]``: every registered technique (the
technique families and the rule families' own) in ladder order, with its family, HoDoKu code, score, level and
declared options (default and meaning)."""
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
                        "requires_unique and options (name, default, meaning, type) of "
                        "each technique")
    t.add_argument("--options", action="store_true",
                   help="under each technique, its declared options: name=default: meaning")
    t.set_defaults(run=run)
    return t


def run(args: argparse.Namespace) -> int:
    import variants  # noqa: F401  (adds the rule families' techniques to the registry)
    from techniques import registry
    rows = registry.all_techniques()
    if args.json:
        print(json.dumps([{"name": t.name, "title": t.title, "family": t.family,
                           "code": t.code, "score": t.score, "level": t.level,
                           "enabled": t.enabled, "requires_unique": t.requires_unique,
                           "options": [option_json(k, o) for k, o in t.options.items()]}
                          for t in rows]))
        return 0
    for t in rows:
        flag = "" if t.enabled else "  (off by default)"
        print(f"{t.name:32s} {t.family:14s} {t.code or '-':6s} {t.score:6d} {t.level:8s}"
              f"{t.title}{flag}")
        if args.options:
            for k, o in t.options.items():
                if k not in registry.COMMON_OPTIONS:
                    print(f"    {k}={o.default!r}: {o.meaning}")
    if args.options:
        print("every technique also takes: " + "; ".join(
            f"{k}={o.default!r}: {o.meaning}" for k, o in registry.COMMON_OPTIONS.items()))
    return 0


def option_json(name: str, o: Any) -> dict[str, Any]:
    """One declared option as JSON: name, default (a tuple as a list), meaning, type."""
    t = o.type
    types = [] if t is None else [x.__name__ for x in (t if isinstance(t, tuple) else (t,))]
    default = list(o.default) if isinstance(o.default, tuple) else o.default
    return {"name": name, "default": default, "meaning": o.meaning, "type": types}
