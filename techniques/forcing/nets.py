"""Forcing nets: the scans of :mod:`.scans` on propagations where a fact may rest on
several earlier ones (naked and hidden singles, the puzzle's other rules and, with option
``intersections``, locked candidates)."""
from __future__ import annotations

from typing import Iterator

from csp.step import Step

from ..analysis import Analysis
from ..registry import register
from .scans import CONTRADICTION_OPTIONS, FORCING_OPTIONS, _NET, _contradictions, _verities


@register("forcing_net_contradiction", "Forcing Net Contradiction", "forcing", code="1303",
          options=CONTRADICTION_OPTIONS.with_(intersections=_NET))
def forcing_net_contradiction(an: Analysis, opts: dict) -> Iterator[Step]:
    """Like the chain form, with naked and hidden singles resting on several facts (and
    with option ``intersections``, locked candidates: see :mod:`techniques.forcing`)."""
    return _contradictions(an, opts, True, "forcing_net_contradiction",
                           "Forcing Net Contradiction")


@register("forcing_net_verity", "Forcing Net Verity", "forcing", code="1304",
          options=FORCING_OPTIONS)
def forcing_net_verity(an: Analysis, opts: dict) -> Iterator[Step]:
    """Like the chain form, with naked and hidden singles resting on several facts."""
    return _verities(an, opts, True, "forcing_net_verity", "Forcing Net Verity")
