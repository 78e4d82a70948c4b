"""Steps that eliminate through a rule's links name the rule (csp.links.rule_citations,
recorded by the human loop for every technique): "Locked Candidates (Pointing)" on an
anti-knight grid removes a digit from a cell off the line, and says which knight's move
links it to the pattern."""
from __future__ import annotations

import re

from csp.links import link_tables, rule_kind
from techniques import StepSolver
from variants import classic_puzzle

from conftest import fpuzzle

#: the anti-knight puzzle of the f-puzzles set whose solve starts with pointing steps
ANTI_KNIGHT = "Anti-knight minimal givens 1"


def knight(p, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = p.grid.rc(a), p.grid.rc(b)
    return {abs(ra - rb), abs(ca - cb)} == {1, 2}


def test_pointing_names_the_knight_move_off_its_line() -> None:
    p, _ = fpuzzle(ANTI_KNIGHT)
    run = StepSolver().start(p)
    steps = [s for s, _ in zip(run, range(20)) if s.technique == "locked_candidates_pointing"]
    assert steps
    links = link_tables(p)
    cited = 0
    for s in steps:
        text = s.explain(2)
        pattern = {c for c, _ in s.pattern}
        for c, d in s.eliminations:
            # the pattern's cells that share no house with the eliminated one: it sees them
            # by knight's moves, and the text says so
            off = [q for q in pattern if not links.house_peers[c] >> q & 1]
            if not off:
                continue
            near = [q for q in off if knight(p, c, q)]
            assert near == off, text
            said = re.search(rf"\b{p.grid.name(c)}(?:, r\d+c\d+)* sees? ([r0-9c,]+) by the "
                             r"anti-knight rule", text)
            assert said, text
            assert {p.grid.cell(x) for x in said.group(1).split(",")} <= set(near), text
            cited += 1
    assert cited >= 3
    first = steps[0].explain(2)
    assert first == ("Locked Candidates Type 1 (Pointing): 4 in box 4 => r2c1<>4 "
                     "(r2c1 sees r4c2 by the anti-knight rule)")


def test_no_citation_where_houses_do_it_all() -> None:
    """A classic grid has no rule links: its texts are as before; a rule's own technique
    that names its rule is not told it again."""
    p = classic_puzzle("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3"
                       "..9..5.1.3..")
    assert all("by the" not in s.explain(2) for s in StepSolver().solve(p).steps)
    jester, _ = fpuzzle("The Jester")
    run = StepSolver().start(jester)
    for s, _ in zip(run, range(35)):
        if s.technique in ("neighbour_pinch", "whisper_neighbours", "thermo_length"):
            assert s.extra.get("via") == "", s.explain(2)


def test_a_chain_weak_link_through_a_rule_is_named() -> None:
    """The Jester's nice loop runs (5)r4c6-(5)r3c7 along a thermometer: the two 5s exclude
    each other by the thermo rule, not by a house."""
    jester, _ = fpuzzle("The Jester")
    res = StepSolver().solve(jester)
    loops = [s for s in res.steps if s.links and "by the thermo rule" in s.explain(2)]
    assert loops
    links = link_tables(jester)
    for s in loops:
        for ln in s.links:
            if not ln.strong and len(ln.a) == len(ln.b) == 1:
                (a,), (b,) = ln.a, ln.b
                rule = links.rule_of(a.cell, a.digit, b.cell, b.digit)
                if rule is not None and rule_kind(rule) == "thermo":
                    assert f"{jester.grid.name(a.cell)} sees {jester.grid.name(b.cell)}" \
                           in s.explain(2) or a.digit != b.digit


def test_rule_of_tells_rule_links_from_house_links() -> None:
    p, _ = fpuzzle(ANTI_KNIGHT)
    t = link_tables(p)
    r1c3, r2c5, r1c2, r3c1 = (p.grid.cell(x) for x in ("r1c3", "r2c5", "r1c2", "r3c1"))
    assert rule_kind(t.rule_of(r1c3, 5, r2c5, 5) or "") == "anti-knight"
    assert t.rule_of(r1c3, 5, r1c2, 5) is None          # a row
    assert t.rule_of(r1c2, 5, r3c1, 5) is None          # a knight's move but also a box
    assert t.rule_of(r1c3, 5, r2c5, 6) is None          # a knight's move, other digits
