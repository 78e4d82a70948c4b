"""``Regular``: a rule read as an automaton keeps exactly the digits some accepted reading
uses (checked against listing every assignment), and states the same rule to the SAT path."""
from __future__ import annotations

import itertools
import random

import pytest

from csp import Grid, Puzzle
from csp.constraints import Automaton, Regular
from csp.constraints.regular import layered_supports


def _digits(mask: int) -> list[int]:
    return [d for d in range(1, mask.bit_length()) if mask >> d & 1]


def _brute(auto: Automaton, doms: list[int]) -> list[int] | None:
    out = [0] * len(doms)
    hit = False
    for word in itertools.product(*(_digits(m) for m in doms)):
        if auto.distinct and len(set(word)) != len(word):
            continue
        s = auto.start
        for i, d in enumerate(word):
            s = auto.step(i, s, d)
            if s is None:
                break
        else:
            if auto.accept(s):
                hit = True
                for i, d in enumerate(word):
                    out[i] |= 1 << d
    return out if hit else None


AUTOMATA = {
    # segments adding up to 10
    "tens": Automaton(0, lambda i, s, d: (s + d) % 10 if s + d <= 10 else None,
                      lambda s: s == 0),
    # odd and even alternate
    "parity": Automaton(-1, lambda i, s, d: d & 1 if s != d & 1 else None, lambda s: True),
    # different digits adding up to 15, by position weight (i + 1)
    "weighted": Automaton(0, lambda i, s, d: s + (i + 1) * d if s + (i + 1) * d <= 40 else None,
                          lambda s: s % 7 == 3, distinct=True),
}


@pytest.mark.parametrize("name", sorted(AUTOMATA))
def test_supports_equal_enumeration(name):
    auto = AUTOMATA[name]
    rng = random.Random(name)
    outcomes = set()
    for _ in range(300):
        k = rng.randint(1, 5)
        doms = [sum(1 << d for d in rng.sample(range(1, 10), rng.randint(1, 5)))
                for _ in range(k)]
        want = _brute(auto, doms)
        assert layered_supports(auto, doms) == want, (doms, want)
        outcomes.add(want is None)
    assert outcomes == {True, False}


def test_too_many_states_keeps_every_digit():
    count = Automaton((), lambda i, s, d: s + (d,), lambda s: True)   # every word its state
    doms = [0b1111111110] * 6
    assert layered_supports(count, doms, max_states=1000) == doms


@pytest.mark.parametrize("name", sorted(AUTOMATA))
def test_search_and_sat_count_alike(name):
    """On a 4x4 Latin square with the rule along a row and a column: the engine's
    propagator (search) and the automaton (SAT) count the same solutions."""
    auto = AUTOMATA[name]
    for cells in ((0, 1, 2), (0, 4, 8, 12), (5, 6, 10, 9)):
        p = Puzzle(Grid(4)).add_grid_houses().add(Regular(cells, auto, name))
        assert p.count_solutions(500, method="search") == p.count_solutions(500, method="sat")


def test_check_reads_the_automaton():
    r = Regular((0, 1, 2), AUTOMATA["tens"], "10 line")
    assert r.check(3, 7, 1) is False and r.check(4, 6, 10) is True
    assert r.house() is None and Regular((0, 1), AUTOMATA["weighted"]).house() == (0, 1)
