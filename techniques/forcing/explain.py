"""How a forcing step explains itself: the derivation path of a fact back to its
assumption, as text and links, and the size and Sudoku Explainer complexity of an
explanation."""
from __future__ import annotations

from typing import Sequence

from csp.step import Candidate, Link, Namer

from .engine import _PState, _cell, _digit, fact_text


def _path(ps: _PState, f: int, width: "int | Namer") -> list[tuple[int, tuple[int, ...] | str]]:
    """The derivation of ``f`` back to its assumption, as [(fact, other premises)], the
    assumption first. For nets the main line follows the latest-derived premise. Kept
    per state (:meth:`_PState.paths`): the caller must not change the list."""
    cache = ps.paths()
    out = cache.get(f)
    if out is None:
        out = cache[f] = _derive_path(ps, f)
    return out


def _derive_path(ps: _PState, f: int) -> list[tuple[int, tuple[int, ...] | str]]:
    order = ps.order()
    out: list[tuple[int, tuple[int, ...] | str]] = []
    seen = set()
    while f in ps.parents and f not in seen:
        seen.add(f)
        prem = ps.parents[f]
        if isinstance(prem, str):
            out.append((f, prem))
            break
        label = ""
        if prem and isinstance(prem[0], str):     # (rule name, facts ...)
            label, prem = prem[0], prem[1:]
            if not prem:
                out.append((f, label))
                break
        if not prem:
            out.append((f, ()))
            break
        if len(prem) == 1:
            main, rest = prem[0], ()
        else:
            # the first premise derived last (as max(prem, key=...) picks it)
            ks = [order.get(g, -1) for g in prem]
            main = prem[ks.index(max(ks))]
            rest = tuple(g for g in prem if g != main)
        out.append((f, (label,) + rest if label else rest))
        f = main
    out.reverse()
    return out


def path_text(ps: _PState, f: int, width: "int | Namer" = 9) -> str:
    parts = []
    for g, extra in _path(ps, f, width):
        t = fact_text(g, width)
        if isinstance(extra, str):
            t += f" [{extra}]"
        elif extra:
            if isinstance(extra[0], str):
                t += f" [{extra[0]}]"
                extra = extra[1:]
            if extra:
                t += "{" + ",".join(fact_text(x, width) for x in extra) + "}"
        parts.append(t)
    return " -> ".join(parts)


def _links(ps: _PState, f: int, width: "int | Namer") -> tuple[Link, ...]:
    p = [g for g, _ in _path(ps, f, width)]
    out = []
    for a, b in zip(p, p[1:]):
        out.append(Link((Candidate(_cell(a), _digit(a)),), (Candidate(_cell(b), _digit(b)),),
                        bool(b & 1)))
    return tuple(out)


def _contra_text(ps: _PState, width: "int | Namer") -> str:
    text, fs = ps.contra
    chains = [path_text(ps, g, width) for g in fs if g in ps.parents]
    return " | ".join(chains) + f" : {text}"


def _size(ps: _PState, facts: Sequence[int]) -> int:
    """Size of an explanation: the distinct facts on the main lines to ``facts``."""
    seen: set[int] = set()
    for f in facts:
        seen.update(g for g, _ in _path(ps, f, 9))
    return len(seen)


def _complexity(ps: _PState, facts: Sequence[int]) -> dict:
    """Sudoku Explainer's complexity of a deduction (informative, in ``Step.extra``):
    ``nodes`` is the sum over ``facts`` of the number of distinct facts each one rests on
    (itself and its assumption included), ``digits`` the digits of those facts."""
    nodes = 0
    digits: set[int] = set()
    for f in facts:
        sup = _support(ps, [f])
        nodes += len(sup)
        digits.update(_digit(g) for g in sup)
    return {"nodes": nodes, "digits": sorted(digits)}


def _support(ps: _PState, facts: Sequence[int]) -> set[int]:
    """Every fact the derivation of ``facts`` rests on (themselves included)."""
    seen: set[int] = set()
    parents = ps.parents
    stack = [f for f in facts if f in parents]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        prem = parents.get(f)
        if prem.__class__ is tuple and prem:
            # premises are facts, after a label (a str: a rule's name) in first place
            stack.extend(prem[1:] if prem[0].__class__ is str else prem)
    return seen
