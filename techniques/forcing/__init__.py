"""Last resort: forcing chains and forcing nets (contradiction and verity), and nested
forcing nets, so that a logic-only solve finishes every valid puzzle without guessing.

An *assumption* (a candidate set true or false) is propagated with implications that are
generic over the model: a true candidate removes every candidate weakly linked to it (its
cell, its houses, binary constraints such as anti-knight or a<b), and a removed candidate
makes another one true through

* **chains** (HoDoKu's Forcing Chains): only the strong links of the current grid -- the
  other candidate of a bivalue cell, the other place of a bilocal digit in a full house --
  so every derived fact rests on exactly one earlier fact;
* **nets** (Forcing Nets): any naked or hidden single, which may rest on several earlier
  facts; puzzles with other rules (sums, lines ...) also run those rules' propagators.
  Option ``intersections`` (on from 25x25, :data:`techniques.ladder.SIZED`) adds locked
  candidates: the places of a digit left in a full house all in another house remove it
  from the rest of that house.

Deductions:

* *contradiction*: assuming a candidate true (or false) leads to a contradiction (a
  candidate both true and false, a cell without candidates, a house without a place for a
  digit), so it is false (or true);
* *verity*: every candidate of a cell, every place of a digit in a house, or a candidate
  being true and being false, all imply the same fact, so it holds;
* *nested nets* (``forcing_net_nested``, not a HoDoKu technique): inside an assumption, the
  net contradictions of the next depth are applied until the assumption itself breaks
  (trial and error of depth 2, then 3). Every known valid puzzle falls at depth 2.

Propagation is on int bitmasks: candidate masks per cell and a cell bitset per digit.

>>> from variants.classic import classic_puzzle
>>> from techniques import StepSolver
>>> p = classic_puzzle("85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.")
>>> r = StepSolver(["singles", "forcing"]).solve(p)
>>> r.status, r.state.values() == p.solve().solution
('solved', True)
"""
from __future__ import annotations

# the modules, one idea each: ``engine`` (facts and their propagation), ``explain`` (paths,
# texts, sizes), ``memory`` (what a run keeps across scans), ``scans`` (the contradiction
# and verity scans chains and nets share), ``chains``, ``nets`` and ``nested`` (the
# techniques, registered on import in this order)
from . import chains, nets, nested
from .chains import forcing_chain_contradiction, forcing_chain_verity
from .engine import _assume, _cell, _digit, _fact, _propagate, _static, fact_text
from .explain import path_text
from .memory import _Kept, _kept, _quiet, _untried_first
from .nested import NESTED_BUDGET, NESTED_OPTIONS, NESTED_SECONDS, forcing_net_nested
from .nets import forcing_net_contradiction, forcing_net_verity
from .scans import CONTRADICTION_OPTIONS, FORCING_OPTIONS, VERITY_OPTIONS, _candidates

__all__ = ["CONTRADICTION_OPTIONS", "FORCING_OPTIONS", "NESTED_BUDGET", "NESTED_OPTIONS",
           "NESTED_SECONDS", "VERITY_OPTIONS", "chains", "fact_text",
           "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
           "forcing_net_nested", "forcing_net_verity", "nested", "nets", "path_text",
           # private, for the tests that audit the propagation and the memory
           "_Kept", "_assume", "_candidates", "_cell", "_digit", "_fact", "_kept",
           "_propagate", "_quiet", "_static", "_untried_first"]
