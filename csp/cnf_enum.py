"""Every model of a puzzle's CNF in one compiled call: the front of the SAT stage of
:mod:`csp.solutions`.

Counting by SAT costs a solver call and a blocking clause a solution (85-190 µs on a
setter puzzle with thousands of solutions), plus the solver's set-up and first call. The
compiled kernel ``csp._enum_kernel`` (C, ``csp/_enum_kernel.c``, see :mod:`csp.kernel`)
walks the whole search tree of the same CNF (:class:`csp.sat.SatSession`'s encoding) once
instead: DPLL without learning (unit propagation with two watched literals, chronological
backtracking, branching on the cell or house-digit clause with the fewest candidates
left), counting solutions, per-candidate counts up to a cap (skipping a subtree once every
candidate left in it is seen ``cap`` times) or the solutions themselves. It has no
learning, so a puzzle that needs it (a hard setter puzzle whose uniqueness takes a CDCL
solver) would take it forever (probing the root for failed literals, :data:`PROBE_AFTER`, makes
most of the workbench's hard unique puzzles easy, not all): the kernel runs within
:data:`NODES` decisions plus
:data:`NODES_PER_SOLUTION` a solution found and then *gives up*, and the caller goes on
with the SAT solver as before, having lost that budget only. It gives up too when a leaf
of its tree does not extend to a model with the auxiliary variables it never decides left
false (no encoding of :mod:`csp.sat` was seen to need that); rules checked lazily
(``enc.lazy``) are not run at all. Between slices of :data:`CHUNK` decisions control comes
back to Python, which checks the deadline and the cancel.

Without the module (no C compiler at install) or with ``SUDOKU_CSP_PURE=1``,
:func:`enumerator` answers None and the callers take the SAT path alone: the answers are
the same either way (tests/csp/test_cnf_enum.py compares them).

>>> from csp import Puzzle, Grid
>>> from csp.sat import SatSession
>>> p = Puzzle(Grid(4)).add_grid_houses().givens(".2.4....3.......")
>>> with SatSession(p, defer=True) as s:
...     en = enumerator(s)
...     code = None if en is None else run(en, None)
>>> en is None or (code == DONE and en.found == 3)
True
"""
from __future__ import annotations

from typing import Any, Callable

from .bits import digits_of
from .constraints import Relation
from .constraints.binary import _eq, _ne
from .kernel import active

try:                                   # the compiled kernel, where the install built it
    from . import _enum_kernel as _KERNEL
except ImportError:                    # pragma: no cover - no C compiler at install time
    _KERNEL = None
try:                                   # the relations' support clauses in C (optional)
    from . import _auto_kernel
except ImportError:                    # pragma: no cover - not built
    _auto_kernel = None


def compiled_kernel() -> Any:
    """The compiled enumerator ``csp._enum_kernel``, or None: not built, or switched off
    (``SUDOKU_CSP_PURE=1``, :mod:`csp.kernel`)."""
    return active(_KERNEL)

__all__ = ["enumerator", "run", "Decided", "DONE", "STOPPED", "NODES", "NODES_PER_SOLUTION",
           "PROBE_LOOKAHEAD", "PROBE_YIELD", "PROBE_YIELD_FROM", "PROBE_PAUSE",
           "PROBE_PAUSE_NODES", "PROBE_PAUSE_PACE", "PROBE_RESORT", "PROBE_INTERSECT",
           "PROBE_INTERSECT_NODE", "NATIVES", "NATIVE_ROUND", "PROBE_INTERSECT_NATIVE",
           "FIRST_WALK", "FIRST_CHECK", "FIRST_PACE", "FIRST_SHRINK",
           "FIRST_AGAIN", "AGAIN_CHECK", "AGAIN_PACE", "AGAIN_FOUND", "AGAIN_NONE",
           "PROBE_HOUSE_SKIP",
           "NODES_CAPPED", "NODES_PER_SOLUTION_CAPPED", "CHUNK", "BRANCH_CAPPED",
           "STALL_NODES", "STALL_PROGRESS",
           "BRANCH_COUNT", "COUNT_RETRY", "COUNT_RETRY_NODES", "CAPPED_RETRY",
           "CAPPED_RETRY_NODES", "CAPPED_RETRY_FOUND"]

#: the kernel's codes (``Enumerator.run``)
DONE, PAUSED, STOPPED, GAVE_UP = 0, 1, 2, 3
#: decisions the kernel may make before it gives up, plus :data:`NODES_PER_SOLUTION` for
#: each solution found (a tree that keeps yielding solutions cheaply goes on). A decision
#: costs 3-9 µs on a 9x9 setter puzzle; the SAT path costs about 12 ms before its first
#: answer (the solver's set-up and first call) and 85-190 µs a solution: past 1,000
#: decisions without a solution (a hard unique puzzle, whose proof wants clause learning)
#: the kernel has lost about what it could save. Counting candidates up to a cap finds
#: fewer solutions (a subtree whose candidates are all seen is skipped), and the SAT path
#: asks one question per candidate not seen yet: :data:`NODES_CAPPED` and
#: :data:`NODES_PER_SOLUTION_CAPPED`. (v08, 3,799 solutions, finds its first after 1,000
#: to 1,500 decisions and then 7.5 a solution: 0.15 s against 0.45 s by SAT.) Capped: 1,500
#: and 24 since 2026-12-01 (from 1,000 and 16, once the cells' walk kept the counters of
#: the cells' clauses only, 13 % less a decision): "Anti-Ratio Coverage" (u058, 1,280-1,410
#: decisions) and v29 (2,686-2,991) now finish in the walk, and v08 with a cap of 8 (14,491
#: decisions, 694 solutions, about 21 a solution) too: 125 -> 80 ms against SAT; the grids
#: of houses only v02 and v03 (45 decisions a solution) give up later, 5-14 ms lost each
#: (docs/performance.md, 2026-12-01)
NODES = 1_500
NODES_PER_SOLUTION = 64
NODES_CAPPED = 1_500
NODES_PER_SOLUTION_CAPPED = 24
#: failed-literal probing (the compiled kernel): once the walk has made
#: :data:`PROBE_AFTER` decisions without finishing, it starts again from the root, where
#: every candidate left is placed in turn and propagated, and one that propagates to a
#: conflict is removed (until a sweep removes nothing), then walks the smaller tree
#: (nothing is counted twice: the counts start again with it). A sweep costs about as
#: much as a few hundred decisions; on the hard setter puzzles of the workbench's unique
#: set it cuts the walk from thousands of decisions to tens (u080: 6,927 -> 0; the
#: anti-knight "coloring book" puzzles 3,000-17,000 -> 0-1,400). Listing (``keep``)
#: probes the root from the start instead (what it listed cannot be taken back), and so
#: does every walk on a model with rules other than houses (:data:`PROBE_FIRST`)
PROBE_DEPTH = 1
PROBE_AFTER = 150
#: probing reads each cell's probes together: once every open digit of a cell is probed
#: in a sweep, a candidate literal all of those without a conflict propagated to holds
#: (the cell takes one of them). It finds what failed literals find only a sweep or two
#: later, and some they never find:
#: "Endless Knight" (u072), answered by the probing alone, 5 -> 3 sweeps, 2,179 -> 1,303
#: probes, the kernel 8.4 -> 5.4 ms; "Crawfish" (u082) 1,827 -> 1,304 probes, 7.5 -> 5.2
#: ms. The root it leaves holds every literal the probing without it sets. Whole calls:
#: docs/performance.md, "Root probing: a cell's probes read together"
PROBE_LOOKAHEAD = True
#: probing stops after a sweep, from the second on, that set fewer candidate variables
#: than this per mille of its probes (0: it sweeps until a sweep sets nothing): a long
#: tail of sweeps that find a few literals each costs more than the walk it saves ("Y Are
#: We Whispering?": 2,005 probes and 83 decisions -> 981 and 82). The first two sweeps
#: always run: "Crawfish" sets 9 variables in its first and 61 in its second, and is then
#: decided. The replayed kernel calls of the unique and variants sets: 1,486 -> 1,432 ms
#: (docs/performance.md, "Root probing and the kernel's groups ...", 2026-12-01)
PROBE_YIELD = 60
#: ... from this sweep on (``Enumerator(..., yield_from=)``): 1, the first sweep too. A
#: first sweep of under 6 % finds little more in a second: over the unique and variants
#: sets' kernel calls the second sweep after such a first one (14 puzzles) set no
#: candidate variable on 11 of them (4, 5 and 13 on the others), at 131-588 probes each
#: ("It being a weekend...", u067: 592 probes set 4, then 332 more set none; its kernel
#: 8.2 -> 5.3 ms). The second sweep was kept for "Crawfish" (9 variables in its first, 61
#: in its second), which its skyscraper natives (:data:`NATIVES`) decide in its first
#: (docs/performance.md, branch arrow16, 2026-12-01)
PROBE_YIELD_FROM = 1
#: the root's probing pauses within a sweep (from the second on) once its first
#: :data:`PROBE_PAUSE` probes or more set fewer candidate variables than
#: :data:`PROBE_YIELD` per mille of them: the walk goes first, and when it has not ended
#: within :data:`PROBE_PAUSE_NODES` decisions (or has walked less than
#: :data:`PROBE_PAUSE_PACE` per mille of its tree at a third of them) the kernel goes back
#: to the root, forgets that walk (its counts, solutions, conflict weights and the moves of
#: its watches) and goes on probing from the cell it paused at, so from there on the run is
#: decision for decision the run without the pause: a pause costs at most that walk. A
#: second sweep that finds little at its start mostly finds little to its end, and the
#: walk from there is short ("Endless Knight", u072: 1,210 probes and no decision -> 726
#: probes and 73 decisions, the kernel 5.2 -> 3.5 ms; "Deflation" u060 1,072 probes and
#: 49-79 decisions -> 677 and 44-52, 2.4 -> 1.7 ms; "Whispering Rains" u070 840 / 170 ->
#: 715 / 146, 2.7 -> 2.2 ms); the hard walks pay the walk of the pause (u056, u057,
#: u067, u087: 1-1.5 ms each, 5-15 %). Not when listing (what was listed cannot be taken
#: back). docs/performance.md, "Root probing pauses ...", 2026-12-01
PROBE_PAUSE = 100
PROBE_PAUSE_NODES = 200
PROBE_PAUSE_PACE = 300
#: ... and the walk of that pause goes on at its check (a third of
#: :data:`PROBE_PAUSE_NODES`) where it has found solutions, whatever its pace, checked
#: again at each doubling of its decisions, and past :data:`PROBE_PAUSE_NODES` while each
#: check finds more (``Enumerator(..., pause_found=)``); a check that finds none goes back
#: to the probing as before. The sweep it paused in finds little (that is what paused
#: it), so what is left of it seldom shortens a walk that reaches its leaves: "Forgiven"
#: without its diagonal (v31, 568 solutions) paused its third sweep after 102 probes that
#: set 1 variable, walked 66 decisions (9-30 solutions), went back for 311 probes that set
#: 1 more, then walked 950-1,692 decisions from there; now the walk of the pause is the
#: walk (689 probes; tc8 1,547 -> 1,126 decisions, propagated literals -26 %, tc1 -15 %,
#: count -12 %). Over the unique and variants sets' kernel calls only six multi-solution
#: puzzles change (v07, v15, v20, v27, v31, v35: 17 of their 18 calls propagate fewer
#: literals, v35's count 7.5 % more); a walk that finds no solution by its check (the
#: hard unique puzzles) goes back as before (docs/performance.md, branch midk)
PROBE_PAUSE_FOUND = True
#: once the root changes in a sweep (a failed literal, the lookahead's literals), the
#: cells left in the sweep are sorted again, fewest open digits first, so the cells the
#: change narrowed are probed next: the puzzles that probing decides cascade in fewer
#: probes ("Downright Odd", u071: 463 -> 137 probes, the kernel 1.8 -> 0.75 ms; "Sistine
#: Hippos" v32 324 -> 148, u063 167 -> 102; "Exclusive Singularity" u052 931 -> 878); the
#: replayed kernel calls of the unique and variants sets 2.4 % less in all, u068 and v08
#: 1-8 ms more (docs/performance.md, "Root probing pauses ...", 2026-12-01)
PROBE_RESORT = True
#: the first this many sweeps of the root probing propagate the kernel's intersections of
#: groups too (``Enumerator(..., intersect=k)``: an exactly-one group whose open members all
#: lie in another group clears the other's remaining members, a box's digit confined to a
#: line and the converse; an all-positive clause of candidates inside a group, at the
#: sweep's start). 0: off. "Crawfish" (u082) 1,072 -> 328 probes, kernel 5.4 -> 2.9 ms
#: (k = 1 or every sweep alike), "Downright Odd" 463 -> 103; but "Endless Knight" +1 ms,
#: "Whispering Rains" +0.4 ms (k = 1; +2 ms on every sweep: its sweeps go on under the
#: yield stop), and the replayed kernel calls of the unique and variants sets within noise
#: (k = 1: 1,625 -> 1,610 ms) or 2-4 % more (every sweep) (docs/performance.md,
#: "Intersections of groups in the probes", 2026-12-01). With the pause and the resort
#: still off: k = 1 takes u082 8.4 -> 6.9-8.1 ms cold but u070 +1.1 ms, u060 +0.5-0.7,
#: u072 +0.6, the sets level (docs/performance.md, "... branch mix14", 2026-12-01)
PROBE_INTERSECT = 0
#: the node's own propagation in the root probing (not the probes: :data:`PROBE_INTERSECT`)
#: uses the groups' intersections in every sweep (``Enumerator(..., ixnode=1)``): the
#: pairs built at the first probe, the clauses inside a group read at each sweep's start,
#: a failed literal's and the lookahead's consequences cleared through the groups; the
#: probes cost what they did. "Exclusive Singularity" (u052) 878 -> 608 probes (kernel
#: 2.3 -> 1.7 ms), "Downright Odd" (u071) 137 -> 13 (0.7 -> 0.35 ms) (docs/performance.md,
#: "Intersections at the node ...", 2026-12-01)
PROBE_INTERSECT_NODE = True
#: rules the kernel propagates itself (``Enumerator(..., natives=)``,
#: :attr:`csp.sat.Encoding.natives`), their auxiliary variables' clauses left out of its
#: CNF (the SAT solver keeps them): a skyscraper clue is made arc consistent on its
#: automaton (the states reachable forward and backward, as bit masks of the tallest
#: digit per count seen); a renban keeps the digits of the windows of consecutive digits
#: that fit its cells (each cell a digit in it, each of its digits in a cell), and a digit
#: every such window holds goes to the one cell left for it (:data:`csp.sat.RENBAN_NATIVE`).
#: "Crawfish" (u082, six clues: 762 state variables in 11,478 of its 12,551 clauses): the
#: root probing 1,039 probes and 92,841 propagated literals -> 743 and 28,928, the kernel
#: 5.1 -> 3.2 ms; "Trollscraper" (u087, 24 clues) counts in the kernel's second walk (348
#: decisions) where it gave up to the SAT solver (the count 107 -> 55 ms; its true
#: candidates' walks give up either way, +3 ms); "Endless Knight" (u072, 26 renbans of
#: 5): 675 probes and 45 decisions -> 364 probes, the kernel 3.5 -> 2.2 ms; "Effluence"
#: (u065) 2.8 -> 1.8 ms (docs/performance.md, branch probe15)
NATIVES = True
#: the natives' round comes at each unit propagation's fixpoint and, before it, after
#: every this many propagated literals: a rule's conflict is met before the rest of the
#: propagation runs on ("Renban Whispers", v08, counting: 17,727 decisions of 72 literals
#: with the renbans' clauses, 19,246 of 87 with natives at the fixpoint only, 15,623 of 70
#: with a round every 32)
NATIVE_ROUND = 32
#: on a model with skyscraper natives the probes of the first this many sweeps use the
#: groups' intersections too (:data:`PROBE_INTERSECT`, which stays off elsewhere): the
#: clues' removals and the boxes' and lines' locked candidates feed each other, "Crawfish"
#: is decided in 45 probes (743 without them; 442 with them and without the natives), the
#: kernel 3.2 -> 0.8 ms (with the renbans' natives too it costs "Endless Knight" 0.8 ms
#: and "Exclusive Singularity" 1.5 ms: not for them)
PROBE_INTERSECT_NATIVE = 1
#: the first walk: where the root is probed before any walk (:data:`PROBE_FIRST`), the
#: first sweep pauses before its first probe (the root's own propagation and the groups'
#: intersections done) for a walk of at most :data:`FIRST_WALK` decisions, the pause of
#: :data:`PROBE_PAUSE` (its watches and conflict weights set back when the probing goes
#: on, so that the run from there is the run without it, decision for decision). The walk
#: goes on only at a pace to end soon (``Enumerator.progress``, the share of its tree
#: walked): at :data:`FIRST_CHECK` decisions the share left, times the decisions made,
#: within :data:`FIRST_PACE` per mille of a decision (a fifth of the tree walked in 5
#: decisions), and at each doubling of the decisions the share left at most
#: :data:`FIRST_SHRINK` per mille of what it was at the check before. A walk that ends
#: within the budget is the answer (any complete walk counts every solution); one that
#: does not costs its decisions ("Crawfish" and the hard walks: 5, about 0.05-0.1 ms).
#: "Whispering Rains" (u070): 712 probes and 170-192 decisions -> a walk of 150-169
#: decisions, the kernel 2.4 -> 1.0 ms; small trees of a few decisions skip the probing
#: (docs/performance.md, "The first walk ...", branch mid15, 2026-12-01). Not when
#: listing (what was listed cannot be taken back)
FIRST_WALK = 200
FIRST_CHECK = 5
FIRST_PACE = 4_000
FIRST_SHRINK = 850
#: ... and once more, a second first walk, at the first cell's start after
#: :data:`FIRST_AGAIN` probes of the first sweep (0: none), on while the share of its tree
#: left times the decisions made stays within :data:`AGAIN_PACE` per mille of a decision,
#: checked at :data:`AGAIN_CHECK` decisions and each doubling: what the first sweep found
#: by then shortens some walks that were long from the root ("Endless Knight", u072: 675
#: probes and 45 decisions -> 252 probes and a walk of 75, the kernel 3.5 -> 2.3 ms;
#: "Deflation", u060, 652 probes and 44-86 decisions -> 251 and 75-91, 2.0-2.8 -> 1.2-1.8
#: ms, its share left times the decisions 18 at 20 decisions); a walk that does not keep
#: its pace costs its 20-40 decisions ("Crawfish": 0.1-0.3 ms; docs/performance.md, "The
#: first walk ...")
FIRST_AGAIN = 250
AGAIN_CHECK = 5
AGAIN_PACE = 20_000
#: ... and where the first sweep's probes so far set fewer candidate variables than
#: :data:`PROBE_YIELD` per mille of them (the probing finds little), that second walk goes
#: on at a check where it has found solutions since the last one, whatever its pace, and
#: past its :data:`FIRST_WALK` decisions while each check (at each doubling) finds more:
#: a walk that reaches its leaves where the probing does not pay. "Arrow" (v06, 10
#: solutions; its 250 probes set 8 variables): its second walk stalls at 0.92 of its tree
#: left at 40 decisions with a solution found, and ends in 174 (460 probes and 174-196
#: decisions -> 257 probes and the same walk, the kernel 1.9-2.0 -> 1.6 ms); v34 (252
#: probes set 3) walks on from there (604 -> 252 probes, 0.3-0.8 ms less); no other
#: kernel call of the unique and variants sets changes (docs/performance.md, branch
#: arrow16, 2026-12-01)
AGAIN_FOUND = True
#: ... and that second walk goes back to the probing at its first check
#: (:data:`AGAIN_CHECK` decisions) when it has walked none of its tree (no decision's
#: first branch closed), unless :data:`AGAIN_FOUND` keeps it on: such a walk went on to 40
#: decisions and back for nothing ("Exclusive Singularity", u052: 29,926 -> 26,863
#: propagated literals, the same probes; "Deflation", u060, at 0.94 of its tree left there,
#: walks on and ends in 75); over the unique and variants sets' kernel calls the probes and
#: the decisions after it are the same but u086 and u087's (+35 of 6,000-12,500), 3-12 %
#: fewer literals on 25 puzzles (docs/performance.md, branch bulk, 2026-12-02)
AGAIN_NONE = True
#: the root's first sweep passes over the house-only cells (each candidate in no binary or
#: long clause and no native, only in its cell's and its houses' groups) once this many of
#: them, probed, set nothing and none set something; later sweeps probe them (0: never).
#: The first sweep reaches its end, and the next sweep the rule cells' cascade, sooner
#: ("Exclusive Singularity" u052: 608 -> 372 probes, the kernel 1.73 -> 1.44 ms; "Y Are
#: We Whispering?" u068 970 -> 391; "Effluence" u065 602 -> 1,406, whose house cells'
#: lookahead pays: docs/performance.md, branch u052k)
PROBE_HOUSE_SKIP = 1
#: probe the root before the first decision on models with rules beyond all-different
#: houses (not ``Engine.pure``): the walk of :data:`PROBE_AFTER` decisions before a
#: restart mostly served the puzzles the probing then finished (the workbench's unique
#: set, CPU of whole calls in one process: true candidates (cap 1) about 1,250 -> 1,040
#: ms, counts 1,170 -> 1,020 ms; the variants set within 2 %; "It being a weekend..." and
#: "Rapid Fire Crossbow" no longer go to SAT: 40-53 -> 18-19 ms each); on classic grids
#: the walk often finishes first, where a sweep costs more than it saves (classic true
#: candidates 64 -> 69 ms with it)
PROBE_FIRST = True
#: a walk past its budget goes on, :data:`EXTEND_SLICE` decisions at a time up to
#: :data:`EXTEND_MAX` in all, while it has left at least this share of its tree behind
#: (``Enumerator.progress``: each decision's first branch counted as half its subtree;
#: :data:`EXTEND_PROGRESS_FOUND` once it has found :data:`EXTEND_FOUND` solutions, as
#: "Rapid Fire Crossbow", 59 solutions, at 0.44 with 14-22 found: 85 -> 50 ms a call;
#: the hard unique puzzles have found none when their budget runs out):
#: the SAT path costs 10-30 ms more than the few hundred to few thousand decisions such a
#: walk still needs (the workbench's sets, cap 1: "Forgiven" gave up 30 decisions before
#: its end, 0.92 of its tree walked; "It being a weekend..." at 0.90 needs 3,000 more,
#: 25 ms against 50 ms by SAT; the hard unique puzzles the SAT solver is for stand at
#: 0.25-0.58 when the budget runs out and stay there)
EXTEND_PROGRESS = 0.75
EXTEND_FOUND = 2
EXTEND_PROGRESS_FOUND = 0.4
#: ... at most :data:`EXTEND_MAX` decisions in all, and only while the walk's size
#: foreseen from its progress (decisions / ``progress``) is within it too: 30,000 since
#: 2026-12-01 (from 6,000): the walks that found solutions steadily and stopped at 6,000
#: were half way through a tree that the SAT path's questions cost more than ("Renban
#: Whispers" without one given, v08, cap 1: 81 solutions at 6,172 decisions, 0.498 of its
#: tree, 13,365 to its end; the call 54 -> 47 ms; v02 cap 8, 12,084 decisions at 0.417:
#: 77 -> 65 ms; v03 cap 8 at 0.699 55 -> 58 ms; no other call of the workbench's sets
#: changes: the hard unique walks give up below the progress they need)
EXTEND_SLICE = 250
#: a capped walk (true candidates) gives up to the SAT path once this many decisions have
#: passed since a solution last raised a count below the cap (``Enumerator.gain_at``; 0:
#: never), within its budget or past it: what is left of such a walk is mostly the proof
#: that its last few candidates are in no solution, which the SAT path asks one by one
#: (the derived set's u067a, cap 8: 602 of its 615 candidates capped by about 27,000
#: decisions, then nothing new until its budget ran out at 51,564; 350 -> 240 ms a call;
#: u100a cap 8 144 -> 84, u057a 147 -> 129. Swept over every capped walk of the
#: workbench's and the derived sets past 3,000 decisions, best of 3: 8,399 ms in all
#: without it, 8,307 at 8,000, 8,215 at 6,000, 8,347 at 12,000; at 6,000 and below u076a
#: cap 8 gives up a walk that a dry stretch of 6,757 decisions comes before the end of,
#: 55 -> 160 ms)
STALL_NODES = 8_000
#: ... unless the walk has left this share of its tree behind (``Enumerator.progress``):
#: then it goes on within its budget (and :data:`EXTEND_MAX`) whatever its dry stretch.
#: The held-out u076a ("Keep off the Border!" less two rule elements, cap 1) stalled at
#: 10,462 decisions, 0.99999 of its tree by that measure, and gave up to the SAT path
#: (17-20 ms more); on, its walk ends at 13,852 (a last candidate's first solution at
#: 13,191): 59 -> 45 ms a call. Of every capped walk of the workbench's four sets (cap 1
#: and 8, 798 calls), no other walk changes at 0.999 or 0.99 (docs/performance.md)
STALL_PROGRESS = 0.999
EXTEND_MAX = 30_000
#: the kernel's branching when counting candidates up to a cap (``cap`` > 0): 1 branches on
#: the cells' "some digit" clauses only (the unseen digits of a cell first), with conflict
#: weights halved every 256 conflicts (``choose_cells`` in ``csp/_enum_kernel.c``; such a
#: walk keeps the counters and weights of the cells' clauses only, ``mark_cell_clauses``); 0 is
#: the choice on every branching clause (cell or house-digit clause, the fewest literals
#: left per conflict met there, no decay). The workbench's sets, CPU of whole calls in one
#: process (2 rounds, A/B interleaved): variants true candidates cap 1 / cap 8 750 -> 600 /
#: 905 -> 825 ms, unique cap 1 3-4 % less, cap 8 and classic within 1-2 %; the same
#: answers (any branching walks every solution once)
BRANCH_CAPPED = 1
#: ... and when counting solutions (``cap`` 0, not listing them: a list keeps its order,
#: branch 0): the same choice, 1. Counting kept 0 while it was measured to make the
#: smaller trees ("Renban Whispers" without one given, 3,799 solutions: 130 -> 530 ms on
#: cells only, before the walk probed the root first and before the weights decayed).
#: On 2026-12-01 the walks to their end (root probed, kernel CPU only) of the workbench's
#: models beyond houses took 621 -> 589 ms on the unique set and 419 -> 330 ms on the
#: variants; "Modular Nabner DA Coverage" 11,046 -> 5,033 decisions and "Locking Out
#: the Odds" 4,079 -> 1,117, both now within the budget where they went to the SAT
#: solver; the two many-solution grids of houses only 34,691 -> 22,718 and 47,854 ->
#: 27,343. Puzzles of house-digit branching ("Keep off the Border!", anti-knight: 691 ->
#: 5,085 decisions) lose. Whole counts: docs/performance.md, 2026-12-01
BRANCH_COUNT = 1
#: a count's walk on the cells' clauses that has found fewer than one solution per
#: :data:`TRIAL_RATE` decisions when it reaches :data:`TRIAL_NODES` (within its budget,
#: so at least ``(TRIAL_NODES - NODES) / NODES_PER_SOLUTION``) tries the walk on every
#: branching clause for as many decisions and goes on with the one that found more
#: (:func:`trial`; None: never). The two branchings' trees differ by up to 7x either way,
#: and their solutions per decision early on foretell which is smaller: "Hotel" without
#: its anti-knight rule (derived u090a, 11,264 solutions, palindromes and a thermometer)
#: 324,804 decisions on the cells' clauses, 48,262 on every clause (at 8,000 decisions 320
#: solutions against 1,280), its count 0.85 -> 0.13 s; the grids whose cells' walk finds a
#: solution every 1-12 decisions (v02, v03, the classic sets) are not tried (2026-12-02)
TRIAL_NODES: int | None = 8_000
TRIAL_RATE = 20
TRIAL_GAIN = 2
TRIAL_SLACK = 16
#: a count whose walk gave up walks again on this branching before the SAT solver takes
#: over (None: never): the two choices fail on different puzzles ("Renban Whispers", 3,799
#: solutions, finds none in its first 2,000 decisions on the cells' clauses alone and 42
#: on every clause; "Modular Nabner DA Coverage" the other way round), and a second walk
#: of the budget costs less than the SAT path's set-up and first answers
COUNT_RETRY: int | None = 0
#: ... within this many decisions (plus :data:`NODES_PER_SOLUTION` a solution found, and
#: the extension near its end as any walk): a walk that finds solutions goes on, one that
#: finds none gives up soon (only three of the workbench's puzzles give up on the cells'
#: clauses: "Renban Whispers" finds 6 solutions in its second walk's first 453
#: decisions and finishes in it; "Trollscraper" and "Limited Lines" find none in either,
#: and lose 6-10 ms to the second walk)
COUNT_RETRY_NODES = 500
#: true candidates (a cap): a walk that gave up walks again on this branching, within
#: :data:`CAPPED_RETRY_NODES` decisions plus :data:`NODES_PER_SOLUTION_CAPPED` a solution
#: (and the extension near its end), before the SAT solver is set up (None: never), as a
#: count does (:data:`COUNT_RETRY`). "Trollscraper" (u087, 24 skyscraper clues, unique):
#: the cells' walk does not finish in 1,500 decisions (10,596 to its end with a cap of 1,
#: 17,281 with 8), every clause in 441 / 499 (the house-digit clauses meet the clues'
#: natives' conflicts sooner); the SAT path (the solver's set-up and 2,400 conflicts) cost
#: 55-60 ms of its 75-85 ms calls. The second walk starts from the first's probed root
#: (``enumerator(..., root=)``: the same root, 497 probes not made again, 8.4 -> 5.0 ms
#: for the same 441 decisions). Only after a walk that found fewer than
#: :data:`CAPPED_RETRY_FOUND` solutions: one that finds solutions steadily gives up for
#: their number, not for its branching (the grids of houses only v02, v03 and "Renban
#: Whispers" v08, 58-549 solutions by then), and the SAT loop it seeds asks only about the
#: candidates not seen yet; a second walk there finds solutions too, so its budget grows
#: and it walks up to 8,948 decisions more before it gives up as well (v03 cap 8: +27 ms)
CAPPED_RETRY: int | None = 0
CAPPED_RETRY_NODES = 500
CAPPED_RETRY_FOUND = 2
#: decisions (and ``CHUNK * PROPS_PER_NODE`` propagated literals) between two checks of
#: the deadline and the cancel
CHUNK = 2_000
PROPS_PER_NODE = 64


def enumerator(session: Any, cap: int = 0, keep: bool = False, listing: bool = True,
               branch: int | None = None, root: list[int] | None = None) -> Any:
    """A kernel enumerator over ``session``'s encoding (a :class:`csp.sat.SatSession`,
    built with ``defer=True`` so that its solver is set up only if the kernel gives up),
    or None: no kernel (not built, or ``SUDOKU_CSP_PURE``), no encoding (the root
    propagation failed), or rules checked lazily. A session whose root propagation decided
    every cell gets a :class:`Decided` instead (no encoding built). ``cap``: count the solutions of each
    candidate up to it (0: count solutions only); ``keep``: buffer the solutions, for a
    caller that takes them as they come (``listing``: the root is probed from the start,
    a restart would take back what was listed) or only once the run is over or gave up
    (``listing=False``: the walk may restart with probing, which empties the buffer with
    the counts, so what is buffered then is exactly the ``found`` solutions of the walk).
    ``branch``: the kernel's branching (default :data:`BRANCH_CAPPED` with a cap,
    :data:`BRANCH_COUNT` counting, 0 listing). ``root``: the literals an earlier
    enumerator of the same session left set at its root (``Enumerator.root()``, after its
    probing: consequences of the rules), given as unit clauses, and no probing of its own
    (a second walk, :data:`CAPPED_RETRY`: the same root without probing it again; not on
    a model of houses only, whose walk is made from the candidates, which probes by its
    own rule)."""
    mod = compiled_kernel()
    if mod is None or session.cand is None:
        return None
    if not session.free:               # decided at the root: no encoding, no walk
        return Decided(session, cap, keep)
    after = PROBE_AFTER
    pause = 0 if keep and listing else PROBE_PAUSE
    first = 0 if keep and listing else FIRST_WALK
    if (keep and listing) or (PROBE_FIRST and not session.puzzle.engine().pure):
        after = 0                      # the root is probed before the first decision
    # listing keeps its order of solutions (what `count --list` prints): branch 0
    if branch is None:
        branch = BRANCH_CAPPED if cap else 0 if keep else BRANCH_COUNT
    n, size = session.n, session.size
    if session.houses is not None:     # all-different rules only: the kernel encodes them
        return mod.Enumerator(size * n + n, n, size, None, cap, keep, PROBE_DEPTH, after,
                              branch, cand=session.cand, houses=session.houses,
                              lookahead=PROBE_LOOKAHEAD, probe_yield=PROBE_YIELD,
                              yield_from=PROBE_YIELD_FROM, pause=pause,
                              pause_nodes=PROBE_PAUSE_NODES, pause_pace=PROBE_PAUSE_PACE,
                              resort=PROBE_RESORT,
                              intersect=PROBE_INTERSECT, ixnode=PROBE_INTERSECT_NODE,
                              first_walk=first, first_check=FIRST_CHECK,
                              first_pace=FIRST_PACE, first_shrink=FIRST_SHRINK,
                              first_again=FIRST_AGAIN, again_check=AGAIN_CHECK,
                              again_pace=AGAIN_PACE, again_found=AGAIN_FOUND,
                              pause_found=PROBE_PAUSE_FOUND, again_none=AGAIN_NONE)
    if session.lazy:
        return None
    enc = session.enc
    natives = enc.natives if NATIVES and enc.natives else None
    # with the natives, their deferred clauses are not needed (they would be left out)
    clauses = enc.clauses + session._units if natives else session.clauses()
    if not session.supported:          # a deferred session holds them in its extra
        clauses.extend(relation_supports(session.puzzle, session.cand, enc.n))
    clauses.extend(enc.extra)
    depth = PROBE_DEPTH
    # every native's clauses with a state variable deferred (an entry each in
    # enc.deferred, not written: materialize empties it): none is in the clauses, which the
    # kernel then does not scan for them (nodrop)
    nodrop = bool(natives) and root is None and len(enc.deferred) == len(natives)
    if root is not None:               # probed already: its literals, no probing
        clauses.extend([lit] for lit in root)
        depth = 0
    return mod.Enumerator(enc.top, n, size, clauses, cap, keep, depth, after, branch,
                          lookahead=PROBE_LOOKAHEAD, probe_yield=PROBE_YIELD,
                          yield_from=PROBE_YIELD_FROM, pause=pause,
                          pause_nodes=PROBE_PAUSE_NODES, pause_pace=PROBE_PAUSE_PACE,
                          resort=PROBE_RESORT,
                          intersect=max(PROBE_INTERSECT, PROBE_INTERSECT_NATIVE)
                          if natives and any(x[0] == 0 for x in natives) else PROBE_INTERSECT,
                          ixnode=PROBE_INTERSECT_NODE, first_walk=first,
                          first_check=FIRST_CHECK, first_pace=FIRST_PACE,
                          first_shrink=FIRST_SHRINK, first_again=FIRST_AGAIN,
                          again_check=AGAIN_CHECK, again_pace=AGAIN_PACE,
                          again_found=AGAIN_FOUND, natives=natives, natk=NATIVE_ROUND,
                          hskip=PROBE_HOUSE_SKIP, pause_found=PROBE_PAUSE_FOUND,
                          again_none=AGAIN_NONE, nodrop=nodrop)


class Decided:
    """The enumerator of a session whose root propagation left one candidate in every
    cell (:attr:`csp.sat.SatSession.free` empty), with the kernel's protocol (``run``,
    ``found``, ``first``, ``counts()``, ``take()`` ...): those digits are the one solution
    when every rule holds on them (``check``, the test every rule's encoding is exact to),
    else there is none. It answers without the encoding, which such a session does not
    build until it is read (a third of the workbench's unique puzzles are decided at the
    root; the encoding was about a tenth of their calls).

    >>> from csp import Puzzle, Grid
    >>> from csp.sat import SatSession
    >>> p = Puzzle(Grid(4)).add_grid_houses().givens("12.43.1221.34.21")
    >>> with SatSession(p, defer=True) as s:
    ...     en = Decided(s, cap=1, keep=True)
    ...     en.run(CHUNK, CHUNK), en.found, en.first, "enc" in vars(s)
    (0, 1, [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], False)
    """

    nodes = props = probed = implied = gain_at = 0
    progress = 1.0

    def __init__(self, session: Any, cap: int = 0, keep: bool = False) -> None:
        cand = session.cand
        values = [m.bit_length() - 1 for m in cand]
        ok = _holds(session.puzzle.constraints, values, session.n,
                    session.root_fixpoint)
        self.n, self.size, self.cap = session.n, session.size, cap
        self.found = 1 if ok else 0
        self.first = values if ok else None
        self._kept = [list(values)] if ok and keep else []

    def run(self, nodes: int, props: int, stop_at: int = 0) -> int:
        return DONE

    def counts(self) -> list[int]:
        n = self.n
        out = [0] * (self.size * n + n + 1)
        if self.cap and self.found:
            for c, d in enumerate(self.first):
                out[c * n + d] = 1
        return out

    def take(self) -> list[list[int]]:
        kept, self._kept = self._kept, []
        return kept


def _holds(constraints: Any, values: list[int], n: int, fixpoint: bool = False) -> bool:
    """Every rule's ``check`` on the digits ``values`` (1..n in every cell); a plain binary
    relation (most of a setter puzzle's rules) read from its support table, which holds
    its predicate on the digits 1..n. ``fixpoint``: ``values`` are the one candidate left
    in each cell by the puzzle's own engine at its fixpoint, without a contradiction,
    which holds every plain relation already (its arc consistency, in the engine's
    binary table or, for ``!=``, its two-cell house, removes a digit of one cell that no
    digit of the other goes with: a pair that broke it would have emptied a cell); only
    the other rules are checked (u024 "Caterpillars", 196 relations: 32 of 54 us)."""
    for con in constraints:
        if type(con) is Relation:
            if fixpoint:
                continue
            if not con.tables(n)[0][values[con.a]] >> values[con.b] & 1:
                return False
            continue
        cells = con.cells
        if not cells:
            continue
        if not con.check(*[values[c] for c in cells]):
            return False
    return True


def relation_supports(puzzle: Any, cand: list[int], n: int,
                      packed: bool = False) -> list[Any]:
    """The support clauses of the binary relations other than "different" (whispers,
    kropki dots, thermometer steps ...): a digit of one cell needs one of the digits of
    the other it goes with. The encoding forbids the pairs that clash, which unit
    propagation reads weaker (it does not see that every digit left in the other cell
    clashes); these clauses follow from it, so the solutions are the same, and the search
    needs fewer nodes (a fifth of them on a whispers-and-renban puzzle). An equality is
    encoded as its supports already (:func:`csp.sat._relation`) and adds none. A deferred
    :class:`csp.sat.SatSession` puts them first in its ``enc.extra``, so its solver has
    them too. ``packed``: where the compiled writer is there, one packed block of them
    (a list holding it: :attr:`csp.sat.Encoding.packed`, read back by
    :func:`csp.sat.unpacked`)."""
    rels = []
    for con in puzzle.constraints:
        if not isinstance(con, Relation) or con.pred is _ne or con.pred is _eq:
            continue                   # an equality's encoding is its supports already
        # the digits of the other cell each digit goes with
        rels.append((con.a, con.b, *con.tables(n)))
    kernel = active(_auto_kernel)
    if kernel is not None and n <= 62 and type(cand) is list:
        if packed:                                 # the same clauses, written in C
            return [kernel.supports(rels, cand, n, True)]
        return kernel.supports(rels, cand, n)
    out: list[list[int]] = []
    for a, b, sup_a, sup_b in rels:
        ma, mb = cand[a], cand[b]
        na, nb = a * n, b * n
        for v in digits_of(ma):
            out.append([-(na + v)] + [nb + w for w in digits_of(mb & sup_a[v])])
        for w in digits_of(mb):
            out.append([-(nb + w)] + [na + v for v in digits_of(ma & sup_b[w])])
    return out


def run(en: Any, check: Callable[[], Any] | None, stop_at: int = 0,
        on_slice: Callable[[], Any] | None = None, capped: bool = False,
        nodes: int | None = None, upto: int | None = None) -> int | None:
    """Run ``en`` on: :data:`DONE` (every solution seen), :data:`STOPPED` (``stop_at``
    solutions found; call again to go on), or None when it gave up (past its budget, or a
    leaf it cannot complete: take the SAT path). ``check()`` (raising to stop: a deadline,
    a cancel) and ``on_slice()`` are called between slices of :data:`CHUNK` decisions;
    ``capped``: ``en`` counts candidates up to a cap (its budget is then
    :data:`NODES_CAPPED` and :data:`NODES_PER_SOLUTION_CAPPED` a solution; past it, a
    walk that has left :data:`EXTEND_PROGRESS` of its tree behind goes on, see there);
    ``nodes``: the first budget instead (:data:`COUNT_RETRY_NODES`); ``upto``: pause
    (:data:`PAUSED`) once the walk has made that many decisions (:func:`trial`)."""
    first, per_solution = ((NODES_CAPPED, NODES_PER_SOLUTION_CAPPED) if capped
                           else (NODES, NODES_PER_SOLUTION))
    if nodes is not None:
        first = nodes
    stall = STALL_NODES if capped else 0
    while True:
        if upto is not None and en.nodes >= upto:
            return PAUSED
        if stall and en.progress >= STALL_PROGRESS:
            stall = 0                  # at its tree's end by its own measure: on
        if stall and en.nodes - en.gain_at >= stall:
            return None                # no count has changed for STALL_NODES decisions
        allowed = first + per_solution * en.found - en.nodes
        if allowed <= 0:               # past the budget: on only near the tree's end
            if (en.nodes >= EXTEND_MAX or en.nodes > EXTEND_MAX * en.progress
                    or en.progress < (EXTEND_PROGRESS_FOUND if en.found >= EXTEND_FOUND
                                      else EXTEND_PROGRESS)):
                return None
            allowed = EXTEND_SLICE
        if upto is not None:
            allowed = min(allowed, upto - en.nodes)
        if stall:                      # the slice ends where the walk would stall
            allowed = min(allowed, en.gain_at + stall - en.nodes)
        code = en.run(min(CHUNK, allowed), CHUNK * PROPS_PER_NODE, stop_at)
        if code == GAVE_UP:
            return None
        if code != PAUSED:
            return code
        if check is not None:
            check()
        if on_slice is not None:
            on_slice()


def trial(session: Any, en: Any, check: Callable[[], Any] | None, stop_at: int = 0,
          on_slice: Callable[[], Any] | None = None) -> tuple[int | None, Any]:
    """A count's walk on the cells' clauses (:data:`BRANCH_COUNT`), paused at
    :data:`TRIAL_NODES` decisions (``run(..., upto=)``), that has found fewer than one
    solution per :data:`TRIAL_RATE` decisions: the walk on every branching clause
    (branch 0, from ``en``'s probed root) is tried for as many decisions, and the count
    goes on with the one of the two that found more solutions (the new one when it found
    at least :data:`TRIAL_GAIN` times as many, plus :data:`TRIAL_SLACK`). Returns (code,
    walk): :data:`PAUSED` to go on with ``run`` on that walk, or what ``run`` returned on
    it (the tried walk ended, stopped at ``stop_at`` or gave up: then ``en``, PAUSED).
    Either walk counts every solution once, so the count is the same."""
    if en.found * TRIAL_RATE >= en.nodes or en.nodes < TRIAL_NODES:
        return PAUSED, en
    other = enumerator(session, branch=0, root=en.root())
    if other is None:
        return PAUSED, en
    code = run(other, check, stop_at, on_slice, nodes=en.nodes, upto=en.nodes)
    if code is None:                   # gave up within en's decisions: en goes on
        return PAUSED, en
    if code != PAUSED:                 # it ended (or stopped at stop_at) first
        return code, other
    if other.found >= TRIAL_GAIN * en.found + TRIAL_SLACK:
        return PAUSED, other
    return PAUSED, en
