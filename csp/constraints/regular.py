"""A rule read along its cells as a finite automaton, propagated exactly (the "regular"
constraint of constraint programming).

A rule that can be read cell by cell with a small memory (a running sum that restarts at
10, the parity of the last digit, how often each digit was seen) states itself as an
:class:`~csp.constraints.Automaton`; :class:`Regular` then gives it everything else: the
check of a full assignment, the SAT encoding (the automaton itself), and a propagator that
keeps exactly the digits some accepted reading uses (domain consistency): the states
reachable from the start through each cell's candidates, pruned to those from which an
accepting state can still be reached.

>>> from csp.constraints import Automaton
>>> tens = Automaton(0, lambda i, s, d: (s + d) % 10 if s + d <= 10 else None,
...                  lambda s: s == 0)
>>> r = Regular((0, 1, 2), tens, "10 line")
>>> r.check(3, 7, 1), r.check(4, 6, 10)
(False, True)
>>> r.supports([0b1111111110, 1 << 7, 0b1111111110])   # 1..9, 7, 1..9: 1+7+2 or 2+7+1
[6, 128, 6]
"""
from __future__ import annotations

from typing import Any, Hashable, Sequence

from ..errors import InvalidConstraint
from ..propagator import Propagator
from .base import Automaton, Constraint, SupportsPropagator

#: states in one layer past which the propagator gives up for this call (keeps every
#: digit: pruning less is sound). The rules built on it stay far below: a 10 line has at
#: most 10 states a layer, counting circles a few hundred on 9x9.
MAX_LAYER_STATES = 20_000


def layered_supports(auto: Automaton, doms: Sequence[int],
                     max_states: int = MAX_LAYER_STATES) -> list[int] | None:
    """Per cell, the digits of ``doms`` (candidate masks, in the automaton's reading order)
    that some accepted reading uses; None when no reading is accepted. Past ``max_states``
    states in a layer the answer keeps every digit (``list(doms)``).

    >>> par = Automaton(None, lambda i, s, d: d & 1 if s is None or s != d & 1 else None,
    ...                 lambda s: True)          # parity alternates
    >>> layered_supports(par, [0b10, 0b1110, 0b1110])   # 1, then 1..3, then 1..3
    [2, 4, 10]
    """
    step = auto.step
    distinct = auto.distinct
    # forward: per layer, state -> set of (previous state, digit)
    layers: list[dict[Hashable, list[tuple[Hashable, int]]]] = []
    cur: dict[Hashable, Any] = {(auto.start, 0) if distinct else auto.start: None}
    for i, dom in enumerate(doms):
        nxt: dict[Hashable, list[tuple[Hashable, int]]] = {}
        for key in cur:
            s, used = key if distinct else (key, 0)
            m = dom & ~used if distinct else dom
            while m:
                low = m & -m
                m ^= low
                d = low.bit_length() - 1
                t = step(i, s, d)
                if t is None:
                    continue
                tk = (t, used | low) if distinct else t
                edges = nxt.get(tk)
                if edges is None:
                    nxt[tk] = [(key, d)]
                else:
                    edges.append((key, d))
        if not nxt:
            return None
        if len(nxt) > max_states:
            return list(doms)
        layers.append(nxt)
        cur = nxt
    accept = auto.accept
    alive = {k for k in cur if accept(k[0] if distinct else k)}
    if not alive:
        return None
    out = [0] * len(doms)
    for i in range(len(doms) - 1, -1, -1):
        layer = layers[i]
        prev: set[Hashable] = set()
        m = 0
        for k in alive:
            for pk, d in layer[k]:
                m |= 1 << d
                prev.add(pk)
        out[i] = m
        alive = prev
    return out


class Regular(Constraint):
    """The digits of ``cells``, read in order, are a word ``auto`` accepts.

    ``kind`` names the rule in graph views and explanations (``"10-line"``); with
    ``auto.distinct`` the cells must also hold different digits.
    """

    kind = "regular"

    def __init__(self, cells: Sequence[int], auto: Automaton, name: str = "",
                 kind: str = "regular") -> None:
        if not cells:
            raise InvalidConstraint(f"{name or kind}: a rule over no cells")
        self.cells = tuple(cells)
        self.auto = auto
        self.name = name or kind
        self.kind = kind

    def propagators(self, n: int) -> list[Propagator]:
        return [SupportsPropagator(self)]

    def house(self) -> tuple[int, ...] | None:
        return self.cells if self.auto.distinct else None

    def check(self, *values: int) -> bool:
        auto = self.auto
        if auto.distinct and len(set(values)) != len(values):
            return False
        s = auto.start
        for i, d in enumerate(values):
            s = auto.step(i, s, d)
            if s is None:
                return False
        return bool(auto.accept(s))

    def automaton(self) -> Automaton:
        return self.auto

    def supports(self, doms: list[int]) -> list[int] | None:
        return layered_supports(self.auto, doms)

    def attributes(self) -> dict:
        return {"kind": self.kind, "cells": len(self.cells)}
