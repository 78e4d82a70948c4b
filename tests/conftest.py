"""Shared test helpers: data paths and puzzle/solution loaders."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

#: the project checkout, and its test data (tests are grouped in sub-folders by package)
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def load_solutions(name: str, limit: int | None = None) -> list[tuple[str, list[int]]]:
    """(puzzle, solution digits) pairs from ``tests/data/<name>.solutions.csv``."""
    out = []
    with open(DATA / f"{name}.solutions.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["n_solutions_capped_at_2"] != "1":
                continue
            out.append((row["puzzle"], [int(ch) for ch in row["solution"]]))
            if limit is not None and len(out) >= limit:
                break
    return out


@pytest.fixture
def data_dir() -> Path:
    return DATA


def random_state(p, sol, rng, keep: float, place: float):
    """A state of puzzle ``p`` holding the solution ``sol``: each open cell's candidates are
    its solution digit plus each other digit with probability ``keep``; some cells placed
    (probability ``place``; their digit left as a candidate of their peers: stale marks).
    For fuzz tests of techniques (no step may remove a solution digit)."""
    st = p.initial_state()
    n = p.grid.n
    for c in range(p.grid.size):
        if st.placed[c]:
            continue
        if rng.random() < place:
            st.place(c, sol[c])
            continue
        m = 1 << sol[c]
        for d in range(1, n + 1):
            if rng.random() < keep:
                m |= 1 << d
        st.cand[c] = m
    return st
