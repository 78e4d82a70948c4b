"""Forcing chains (HoDoKu's Forcing Chains): the scans of :mod:`.scans` on
propagations along strong links only, so each derived fact rests on one earlier fact."""
from __future__ import annotations

from typing import Iterator

from csp.step import Step

from ..analysis import Analysis
from ..registry import register
from .scans import CONTRADICTION_OPTIONS, VERITY_OPTIONS, _contradictions, _verities


@register("forcing_chain_contradiction", "Forcing Chain Contradiction", "forcing",
          code="1301", options=CONTRADICTION_OPTIONS)
def forcing_chain_contradiction(an: Analysis, opts: dict) -> Iterator[Step]:
    """Assuming a candidate true (false) leads along strong and weak links to a
    contradiction: it is false (true). Candidates of cells with few candidates are tried
    first; option ``shortest`` orders all steps by the size of their explanation."""
    return _contradictions(an, opts, False, "forcing_chain_contradiction",
                           "Forcing Chain Contradiction")


@register("forcing_chain_verity", "Forcing Chain Verity", "forcing", code="1302",
          options=VERITY_OPTIONS)
def forcing_chain_verity(an: Analysis, opts: dict) -> Iterator[Step]:
    """Every candidate of a cell (every place of a digit in a house, or a candidate true
    and false) leads along chains to the same fact: it holds.

    Options: ``max_branches`` (default n: cells / houses with more branches are skipped),
    ``candidate_verity`` (the true/false form), ``shortest`` (order the steps by the size of
    their explanation; costs a full scan, default off)."""
    return _verities(an, opts, False, "forcing_chain_verity", "Forcing Chain Verity")
