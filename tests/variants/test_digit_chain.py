"""Digit chain exclusion and verity (techniques/exclusion.py): one digit followed through
its hidden singles, its same-digit links (a knight's move) and equal cells (palindromes),
on the antiknight coloring books of the f-puzzles set where a forcing net used to be the
step, with their exact eliminations checked against the known solutions; where they must
stay silent; and a fuzz over random states that hold the solution."""
from __future__ import annotations

import random

from csp import Grid, Puzzle
from techniques import StepSolver
from techniques.analysis import Analysis
from techniques.exclusion import digit_chain_exclusion, digit_chain_verity
from variants.chess import anti_knight
from variants.classic import classic_puzzle

from conftest import fpuzzle, fpuzzle_row

FORCING = frozenset((
    "forcing_chain_contradiction", "forcing_chain_verity", "forcing_net_contradiction",
    "forcing_net_verity", "forcing_net_nested", "kraken_fish_type_1", "kraken_fish_type_2",
    "template_set", "template_delete"))
NEW = ",-digit_chain_exclusion,-digit_chain_verity"


_row, _puzzle = fpuzzle_row, fpuzzle


def _before_forcing(p):
    """The state where the default solve without the digit chains first takes a forcing
    step."""
    run = StepSolver("default" + NEW).start(p, time_limit=30)
    prev = run.state.copy()
    for s in run:
        if s.technique in FORCING:
            return prev
        prev = run.state.copy()
    raise AssertionError("no forcing step without the digit chains")


def _names(p, steps) -> set[str]:
    return {f"{p.grid.name(c)}<>{d}" for s in steps for c, d in s.eliminations}


def _sound(p, sol, steps) -> None:
    for s in steps:
        for c, d in s.eliminations:
            assert sol[c] != d, f"unsound: {s.explain(2)}"


def test_digit_chain_exclusion_hanging_vines():
    """Antiknight Coloring Book: Hanging Vines (palindromes, a thermometer): where a
    forcing net took r1c4<>2 (r1c4 is 2 or 3), 3 alone refutes r1c4=3: column 5 is left
    r9c5 (its palindrome partner r6c6 too), region 9 r8c9, row 5 r5c3, and column 2 has no
    3 left. Every step of the state is sound, the chosen one is checked by brute force,
    and the whole solve takes no forcing step now (it took 6)."""
    from test_variant_logic import assert_sound
    p, sol = _puzzle(123)
    st = _before_forcing(p)
    steps = StepSolver().find_all(st, "digit_chain_exclusion")
    _sound(p, sol, steps)
    step = next(s for s in steps if _names(p, [s]) == {"r1c4<>3"})
    assert step.explain(2) == (
        "Digit Chain Exclusion: r1c4=3 would put 3 in r9c5=r6c6 (only place of col 5), "
        "then r8c9 (only place of region 9), then r5c3 (only place of row 5), leaving "
        "col 2 without a place for 3 => r1c4<>3 (r1c4 sees r2c2 by the anti-knight rule)")
    assert step.houses == ("col 5", "region 9", "row 5", "col 2")
    assert_sound(p, st, [step], sol)
    r = StepSolver("default", verify=sol).solve(p, time_limit=60)
    assert r.status == "solved"
    assert not [s.technique for s in r.steps if s.technique in FORCING]


def test_digit_chain_verity_two_hooks():
    """Almost Boxless Antiknight Coloring Book: Two Hooks Intertwined: 6 goes in row 1 at
    six places; each of them, followed through the hidden singles of 6 (a palindrome
    r6c1=r4c4 among them), takes 6 from r5c5, where a forcing net (verity over row 1)
    used to be the step."""
    p, sol = _puzzle(131)
    run = StepSolver("default" + ",-digit_chain_verity").start(p, time_limit=30)
    st = None
    prev = run.state.copy()
    for s in run:
        if s.technique in FORCING:
            st = prev
            break
        prev = run.state.copy()
    assert st is not None
    steps = StepSolver().find_all(st, "digit_chain_verity")
    _sound(p, sol, steps)
    step = next(s for s in steps if s.houses == ("row 1",) and s.digits == (6,))
    assert _names(p, [step]) == {"r5c5<>6"}
    assert step.explain(2) == (
        "Digit Chain Verity: 6 goes in row 1 at r1c1,r1c2,r1c5,r1c7,r1c8,r1c9; following "
        "the hidden singles of 6 from each, r5c5 loses 6 (r1c1 puts 6 in r7c4; r1c2 puts "
        "6 in r7c4; r1c5 sees it; r1c7 puts 6 in r3c5; r1c8 puts 6 in r3c5; r1c9 puts 6 "
        "in r3c5) => r5c5<>6 (r5c5 sees r7c4 by the anti-knight rule)")


def test_digit_chains_silent_without_links():
    """With houses only (a classic grid) a chain of one digit's hidden singles is an
    X-chain's or a fish's business: nothing, at once; on an anti-knight grid's first state
    (one given) every candidate and house leaves room, so nothing either."""
    st = classic_puzzle("." * 81).pencilmarks()
    an = Analysis(st)
    assert list(digit_chain_exclusion(an, {})) == []
    assert list(digit_chain_verity(an, {})) == []
    p = Puzzle(Grid(9)).add_grid_houses().use(anti_knight())
    st = p.givens("1" + "." * 80).propagate()
    assert StepSolver().find_all(st, "digit_chain_exclusion") == []
    assert StepSolver().find_all(st, "digit_chain_verity") == []


def test_digit_chains_never_lose_the_solution():
    """Random candidate states holding the stated solution, on the coloring books and the
    anti-knight puzzles: no digit chain step removes a solution digit, and both fire."""
    from conftest import random_state
    rng = random.Random(123)
    fired = {"digit_chain_exclusion": 0, "digit_chain_verity": 0}
    for i in [2, 3, 4, 5] + list(range(120, 136)):
        p, sol = _puzzle(i)
        if not p.check_solution(sol):
            continue
        for _ in range(3):
            st = random_state(p, sol, rng, keep=rng.choice((0.15, 0.3, 0.5)),
                              place=rng.choice((0.0, 0.3, 0.6)))
            an = Analysis(st)
            for name, fn in (("digit_chain_exclusion", digit_chain_exclusion),
                             ("digit_chain_verity", digit_chain_verity)):
                for s in fn(an, {}):
                    fired[name] += 1
                    assert not any(sol[c] == d for c, d in s.eliminations), s.explain(2)
    assert all(fired.values()), fired
