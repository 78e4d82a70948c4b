"""Build the three puzzle sets of ``benchmarks/workbench.py`` (deterministic).

    python benchmarks/make_workbench_sets.py [--out benchmarks/data] [--time-limit 30]

Writes, each file starting with a ``#`` source line, one JSON object a line:

* ``workbench_unique.jsonl``: the 103 distinct f-puzzles documents of
  ``tests/data/fpuzzles_cc_by.jsonl`` (136 lines, 33 repeats; CC BY 4.0, from the
  SudokuVariantSolverJS regression set), in file order: ``row`` (the line, 0-based), title,
  author, licence, and ``solutions`` (1 for every one, counted here).
* ``workbench_variants.jsonl``: 40 multi-solution variants made from that set, at most one
  per source puzzle, the sources taken in the order 1st, 3rd, 5th, ... then 2nd, 4th, ...
  (so that the 40 spread over the whole set). For a source, the edits are tried in a fixed
  order: removing one given (reading order) or one rule element (one entry of a rule list
  such as one thermometer or one killer cage, or one global flag such as ``antiknight``),
  givens first for every other source and rules first for the others, then removing the
  first 2, 3, ... givens. The variants cycle through four bands of solution counts (2-9,
  10-99, 100-999, 1,000-5,000), so that a cap of 8 matters: the first edit whose count is in
  the current band is kept, or, when no edit is (or after 60 s of counting for one source),
  the first one with 2 to 5,000 solutions. ``edit`` records what was removed
  (``{"givens": ["R3C4", ...]}``, ``{"rule": "thermometer", "index": 2}`` or
  ``{"rule": "antiknight"}``), ``solutions`` the count, both made with this project's SAT
  path (``count_solutions(limit=5001, method="sat")``; a count stopped by ``--time-limit``
  skips the edit).
* ``workbench_classic.jsonl``: 40 classic puzzles with several solutions, every 25th line of
  ``tests/data/multi_solution_1000.txt`` (tdoku's "serg" set; the shared copy is
  ``/work/shared/data/classic/``), with ``line`` (0-based), ``puzzle`` and ``solutions``.

:func:`load_sets` reads the files back and returns each puzzle as an f-puzzles document
(the classic ones through ``sudoku_csp.formats.fpuzzles.to_fpuzzles``).
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
# this checkout's package, unless a checkout on the path already has one (workbench.py
# --package puts the other checkout first: its package is the one measured)
if not any((Path(p) / "csp" / "__init__.py").exists() for p in sys.path if p):
    sys.path.insert(0, str(ROOT))

from csp.errors import ContradictoryGivens, InvalidPuzzle, SearchLimit  # noqa: E402
from sudoku_csp.formats.fpuzzles import IGNORED, load_fpuzzles, to_fpuzzles  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402

FPUZZLES = ROOT / "tests" / "data" / "fpuzzles_cc_by.jsonl"
CLASSIC = ROOT / "tests" / "data" / "multi_solution_1000.txt"
OUT = ROOT / "benchmarks" / "data"
NAMES = {"unique": "workbench_unique.jsonl", "variants": "workbench_variants.jsonl",
         "classic": "workbench_classic.jsonl"}
MAX_SOLUTIONS = 5000
N_VARIANTS = 40
CLASSIC_STEP = 25
#: the solution-count bands the variants cycle through (so that a cap of 8 matters)
BANDS = ((2, 9), (10, 99), (100, 999), (1000, MAX_SOLUTIONS))
#: CPU seconds of counting per source puzzle before settling for an edit outside the band
SOURCE_BUDGET = 60.0


def distinct_rows() -> list[tuple[int, dict]]:
    """(line index, row) of the distinct f-puzzles documents, in file order."""
    seen: set[str] = set()
    out = []
    for i, line in enumerate(FPUZZLES.read_text().splitlines()):
        row = json.loads(line)
        key = json.dumps(row["fpuzzles_json"], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append((i, row))
    return out


def apply_edit(doc: dict, edit: dict) -> dict:
    """A copy of the f-puzzles document without the given or rule element ``edit`` names."""
    doc = copy.deepcopy(doc)
    doc.pop("solution", None)
    if "givens" in edit:
        for name in edit["givens"]:
            r, c = (int(x) for x in name[1:].split("C"))
            cell = doc["grid"][r - 1][c - 1]
            if not cell.get("given"):
                raise ValueError(f"{name} holds no given")
            cell.pop("value", None)
            cell.pop("given", None)
    else:
        key = edit["rule"]
        if "index" in edit:
            del doc[key][edit["index"]]
            if not doc[key]:
                del doc[key]
        else:
            del doc[key]
    return doc


def edits(doc: dict, givens_first: bool) -> Iterator[dict]:
    """The removals of ``doc`` in a fixed order: each given or each rule element alone
    (givens or rules first), then the first 2, 3, ... givens in reading order."""
    names = [f"R{r + 1}C{c + 1}" for r, row in enumerate(doc["grid"])
             for c, cell in enumerate(row) if cell.get("given") and cell.get("value")]
    givens = [{"givens": [g]} for g in names]
    rules: list[dict] = []
    for key in sorted(doc):
        if key in IGNORED:
            continue
        v = doc[key]
        if isinstance(v, list):
            rules += [{"rule": key, "index": i} for i in range(len(v))]
        elif v:
            rules.append({"rule": key})
    yield from (givens + rules) if givens_first else (rules + givens)
    for j in range(2, len(names) + 1):
        yield {"givens": names[:j]}


def count(doc: dict, time_limit: float) -> int | None:
    """Solutions up to MAX_SOLUTIONS + 1 with the SAT path (None: stopped by the limit; 0
    when the givens break a rule, e.g. a maximum cell that is no longer one)."""
    try:
        return load_fpuzzles(doc).count_solutions(limit=MAX_SOLUTIONS + 1, method="sat",
                                                  time_limit=time_limit)
    except SearchLimit:
        return None
    except InvalidPuzzle:
        return 0


def write(path: Path, source: str, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        f.write(f"# {source}\n")
        for r in rows:
            f.write(json.dumps(r) + "\n")
    print(f"wrote {len(rows)} puzzles to {path.relative_to(ROOT)}", flush=True)


def build(out: Path, time_limit: float) -> None:
    rows = distinct_rows()
    unique = []
    for k, (i, row) in enumerate(rows):
        n = load_fpuzzles(row["fpuzzles_json"]).count_solutions(limit=2, method="sat")
        if n != 1:
            raise SystemExit(f"line {i} ({row['title']}) has {n} solutions, not 1")
        unique.append({"id": f"u{k + 1:03d}", "row": i, "title": row["title"],
                       "author": row["author"], "license": row["license"], "solutions": 1})
    write(out / NAMES["unique"], f"the {len(unique)} distinct f-puzzles documents of "
          "tests/data/fpuzzles_cc_by.jsonl (CC BY 4.0; titles, authors and licence kept; "
          "from the SudokuVariantSolverJS regression set), each with one solution; made by "
          "python benchmarks/make_workbench_sets.py", unique)

    variants = []
    order = list(range(0, len(rows), 2)) + list(range(1, len(rows), 2))
    for k in order:
        i, row = rows[k]
        if len(variants) == N_VARIANTS:
            break
        lo, hi = BANDS[len(variants) % len(BANDS)]
        t0 = time.process_time()
        fallback = None
        for edit in edits(row["fpuzzles_json"], givens_first=k % 4 == 0):
            n = count(apply_edit(row["fpuzzles_json"], edit), time_limit)
            if n is None or n > MAX_SOLUTIONS:
                if len(edit.get("givens", ())) > 1:
                    break       # more givens out: only more solutions
            elif lo <= n <= hi:
                fallback = (edit, n)
                break
            elif n >= 2 and fallback is None:
                fallback = (edit, n)
            if time.process_time() - t0 > SOURCE_BUDGET and fallback:
                break
        if fallback:
            edit, n = fallback
            variants.append({"id": f"v{len(variants) + 1:02d}", "row": i,
                             "title": row["title"], "author": row["author"],
                             "license": row["license"], "edit": edit, "solutions": n})
            print(f"  {row['title'][:40]:40s} {json.dumps(edit)[:40]:40s} {n:5d} solutions "
                  f"({time.process_time() - t0:.1f} s)", flush=True)
    variants.sort(key=lambda v: v["row"])
    for j, v in enumerate(variants):
        v["id"] = f"v{j + 1:02d}"
    write(out / NAMES["variants"], f"{len(variants)} multi-solution variants (2-"
          f"{MAX_SOLUTIONS} solutions) of the puzzles of workbench_unique.jsonl, each "
          "without one given or one rule element (CC BY 4.0, as their source puzzles); "
          "made by python benchmarks/make_workbench_sets.py", variants)

    lines = CLASSIC.read_text().split()
    classic = []
    for j in range(0, len(lines), CLASSIC_STEP):
        n = classic_puzzle(lines[j]).count_solutions(limit=10 ** 6)
        classic.append({"id": f"c{len(classic) + 1:02d}", "line": j, "puzzle": lines[j],
                        "solutions": n})
    write(out / NAMES["classic"], f"every {CLASSIC_STEP}th line of "
          "tests/data/multi_solution_1000.txt (tdoku's 'serg' benchmark: classic puzzles "
          "with several solutions), with its solution count; made by "
          "python benchmarks/make_workbench_sets.py", classic)


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


#: the seed of the held-out set (:func:`derived_set`)
DERIVED_SEED = 20261202


def _default_box(n: int) -> tuple[int, int]:
    """(rows, columns) of an n x n grid's default box, as f-puzzles draws it."""
    h = int(n ** 0.5)
    while h > 1 and n % h:
        h -= 1
    return h, n // h


def derived_set(seed: int = DERIVED_SEED, data: Path = OUT) -> list[dict[str, Any]]:
    """A held-out set: puzzles none of the other sets has, made the way a setter's edits
    make them, from the same distinct documents (in file order; ``random.Random(seed)``):

    * ``uNNNa``: two rule elements of different kinds removed (one entry of each of two
      rule lists, or a global flag), when the puzzle has two kinds or more;
    * ``uNNNb``: a random third of the givens removed, when it has three givens or more;
    * ``uNNNd``: a given added that is not the solution's digit and repeats no given of any
      house (unsolvable, but no house says so at once).

    Each item is ``{"id", "title", "solutions": None, "edit", "doc"}``; the set is the same
    on every run; an edit that makes a puzzle of the variants set is left out (u057 less a
    third of its three givens is v29). The benchmark found a sandwich clue's table 23 times ISS's time on one of
    these (u050b; fixed) that none of the three sets showed."""
    import random
    rng = random.Random(seed)
    rows = FPUZZLES.read_text().splitlines()
    known = {json.dumps(apply_edit(json.loads(rows[r["row"]])["fpuzzles_json"], r["edit"]),
                        sort_keys=True) for r in _read(data / NAMES["variants"])}
    made: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    for k, (_, row) in enumerate(distinct_rows()):
        doc, sol = row["fpuzzles_json"], row["solution"]
        n = doc["size"]
        uid, title = f"u{k + 1:03d}", doc.get("title", "")
        kinds: dict[str, list[int | None]] = {}
        for key in sorted(doc):
            v = doc[key]
            if key in IGNORED or key in ("size", "grid", "solution") or not v:
                continue
            kinds[key] = list(range(len(v))) if isinstance(v, list) else [None]
        if len(kinds) >= 2:
            edit = []
            for key in sorted(rng.sample(sorted(kinds), 2)):
                edit.append({"rule": key} if kinds[key] == [None]
                             else {"rule": key, "index": rng.choice(kinds[key])})
            d = doc
            for e in edit:
                d = apply_edit(d, e)
            out.append({"id": uid + "a", "title": f"{title} less two rule elements",
                        "solutions": None, "edit": edit, "doc": d})
        givens = [f"R{r + 1}C{c + 1}" for r, cells in enumerate(doc["grid"])
                  for c, cell in enumerate(cells) if cell.get("given") and cell.get("value")]
        if len(givens) >= 3:
            gone = sorted(rng.sample(givens, len(givens) // 3),
                          key=lambda g: tuple(int(x) for x in g[1:].split("C")))
            out.append({"id": uid + "b", "title": f"{title} less a third of its givens",
                        "solutions": None, "edit": {"givens": gone},
                        "doc": apply_edit(doc, {"givens": gone})})
        bh, bw = _default_box(n)
        region = {(r, c): cell.get("region", (r // bh) * (n // bw) + c // bw)
                  for r, cells in enumerate(doc["grid"]) for c, cell in enumerate(cells)}
        held = {(r, c): int(cell["value"]) for r, cells in enumerate(doc["grid"])
                for c, cell in enumerate(cells) if cell.get("value")}
        empty = [(r, c) for r in range(n) for c in range(n) if (r, c) not in held]
        rng.shuffle(empty)
        for r, c in empty:
            seen = {v for (r2, c2), v in held.items()
                    if r2 == r or c2 == c or region[(r2, c2)] == region[(r, c)]}
            wrong = [v for v in range(1, n + 1)
                     if v != int(sol[r * n + c]) and v not in seen]
            if wrong:
                v = rng.choice(wrong)
                d = copy.deepcopy(doc)
                d.pop("solution", None)
                d["grid"][r][c] = {**d["grid"][r][c], "value": v, "given": True}
                try:                   # another house (a diagonal, extra regions) may
                    load_fpuzzles(d).initial_state()   # repeat it: the next cell then
                except ContradictoryGivens:
                    continue
                out.append({"id": uid + "d", "title": f"{title} with a wrong R{r + 1}C{c + 1}",
                            "solutions": 0, "edit": {"add": f"R{r + 1}C{c + 1}={v}"},
                            "doc": d})
                break
    for item in out:
        if json.dumps(item["doc"], sort_keys=True) not in known:
            made.append(item)
    return made


def load_sets(data: Path = OUT) -> dict[str, list[dict[str, Any]]]:
    """{set name: [{"id", "title", "solutions", "doc": f-puzzles document}, ...]}."""
    rows = FPUZZLES.read_text().splitlines()
    sets: dict[str, list[dict[str, Any]]] = Sets()
    sets.data = data
    sets["unique"] = [dict(r, doc=json.loads(rows[r["row"]])["fpuzzles_json"])
                      for r in _read(data / NAMES["unique"])]
    sets["variants"] = [dict(r, doc=apply_edit(json.loads(rows[r["row"]])["fpuzzles_json"],
                                               r["edit"]))
                        for r in _read(data / NAMES["variants"])]
    sets["classic"] = [dict(r, title=f"multi_solution_1000 line {r['line'] + 1}",
                            doc=to_fpuzzles(classic_puzzle(r["puzzle"])))
                       for r in _read(data / NAMES["classic"])]
    return sets


class Sets(dict):
    """:func:`load_sets`' sets, and ``derived`` (:func:`derived_set`) made when first asked
    for (the three sets alone read no more than before)."""

    data = OUT

    def __missing__(self, name: str) -> list[dict[str, Any]]:
        if name != "derived":
            raise KeyError(name)
        self[name] = derived_set(data=self.data)
        return self[name]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT, help="directory to write (default "
                    "benchmarks/data)")
    ap.add_argument("--time-limit", type=float, default=30.0,
                    help="seconds per count while choosing variants (default 30)")
    args = ap.parse_args()
    build(args.out, args.time_limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
