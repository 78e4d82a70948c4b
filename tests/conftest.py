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
