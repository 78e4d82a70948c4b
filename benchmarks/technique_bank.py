"""Scan a puzzle corpus for the seed bank of ``generate --technique`` (issue 26 item 2).

    python benchmarks/technique_bank.py [--corpus se|radcliffe|none|FILE ...] [--names a,b,...]
                                        [--per 3] [--steer] [--limit N] [--write [--add]]
                                        [--generate NAME:SHAPE:FIRST-LAST ...]
                                        [--check-isomorphs N]

Each puzzle of the corpora (classic 9x9, one a line; the first 81-character field is the
puzzle) is solved by the default solver (``StepSolver("default")``); for each technique of
``--names`` (default: :data:`sudoku_csp.generate.bank.RARE`) on its path, the judge of
``for_technique`` (``technique._check``: the path needs the technique, nothing harder, and
the techniques before it get stuck at the very state where the path used it) decides whether
the puzzle is one for that technique. ``--steer``: a puzzle whose path uses the technique but
also something harder is steered as ``for_technique`` steers its candidates (givens added
back from its solution, ``technique._descend``, seed 0) and judged again; such a puzzle is
kept as derived from its source. ``--per`` puzzles are kept per technique (the first found);
``--write`` writes them to ``sudoku_csp/generate/bank_data.py`` with their source
(``--add``: added to the rows already there).

``--generate NAME:SHAPE:FIRST-LAST`` also makes shaped candidates of those seeds for NAME
(minimal puzzles dug after clearing a shape first: ``box`` one box, ``twobox`` two boxes of
a band, ``digit`` every cell of one digit), steered and judged as ``for_technique`` does;
``steer``: the generator's own shaped candidates of a technique of
``technique.SHAPE_STEER`` (``technique._shaped``, the hidden quadruple's empty box;
``technique._climbed`` for ``CLIMB_STEER``, the avoidable rectangle 2's climb);
``--corpus none`` scans no corpus. ``--check-isomorphs N`` judges N random isomorphs of each
bank row instead (does the technique's need survive the transformation?).

Only public-domain or permissively licensed corpora may go into the package: ``se`` (the
Sudoku Exchange puzzle bank, public domain: the shared 1,000-puzzle sample) and
``radcliffe`` (Kaggle "3 million Sudoku puzzles with ratings", CC0: the shared 5,000).
A FILE corpus is scanned and reported but its source must be stated by hand before its
puzzles are written (``--source``). Times are CPU (``time.process_time``).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from techniques import StepSolver  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402
from sudoku_csp.generate import bank  # noqa: E402
from sudoku_csp.generate.technique import _check, _descend  # noqa: E402

DATA = Path("/work/shared/data/classic")
CORPORA = {
    "se": (DATA / "sudoku_exchange_1000_rated.tsv",
           "Sudoku Exchange puzzle bank (GitHub grantm/sudoku-exchange-puzzle-bank, public "
           "domain), its 1,000-puzzle rated sample; sha1: the bank's own puzzle id"),
    "radcliffe": (DATA / "radcliffe_5000_with_solutions.csv",
                  "Kaggle '3 million Sudoku puzzles with ratings' (David Radcliffe, CC0), a "
                  "5,000-puzzle sample"),
}


def read_corpus(path: Path) -> list[tuple[str, str]]:
    """The 81-character puzzles of a file (the first field of each line that is one), each
    with where it is: ``line N`` of the file's puzzles, and the puzzle's hash when the line
    has one (the Sudoku Exchange bank's 12-digit SHA-1 prefix names it in the whole bank)."""
    out = []
    for ln in path.read_text().splitlines():
        fields = ln.replace(",", " ").replace("\t", " ").split()
        for field in fields:
            f = field.replace("0", ".")
            if len(f) == 81 and all(ch == "." or ch.isdigit() for ch in f):
                where = f"line {len(out) + 1}"
                sha = [x for x in fields if len(x) == 12
                       and all(ch in "0123456789abcdef" for ch in x)]
                out.append((f, where + (f" (sha1 {sha[0]})" if sha else "")))
                break
    return out


def scan(lines: list[tuple[str, str]], names: list[str], per: int, steer: bool, tag: str,
         kept: dict[str, list[tuple[str, str]]], stats: dict[str, dict[str, int]]) -> None:
    for line, where in lines:
        want = [t for t in names if len(kept[t]) < per]
        if not want:
            return
        p = classic_puzzle(line)
        p.unique = True
        res = StepSolver("default", unique=True).solve(p, time_limit=60)
        if res.status != "solved":
            continue
        used = {st.technique for st in res.steps}
        for t in want:
            if t not in used:
                continue
            st = stats.setdefault(t, {})
            st["used"] = st.get("used", 0) + 1
            got = _check(p, t, None)
            how = "as is"
            q = p
            if isinstance(got, str) and got == "needs harder" and steer:
                q, got = _descend(p, p.solve().solutions[0], t, 0, None)
                how = "steered"
            if isinstance(got, str):
                st[got] = st.get(got, 0) + 1
                continue
            st["kept " + how] = st.get("kept " + how, 0) + 1
            gv = "".join(str(q.given.get(c, 0) or ".") for c in range(81))
            kept[t].append((gv, f"{tag} {where}" + ("" if how == "as is"
                                                     else ", givens added")))
            print(f"  {t}: {tag} {where} ({how})", flush=True)


def shaped(kind: str, seed: int) -> tuple[str, list[int]] | None:
    """A minimal classic puzzle of ``seed`` dug from a random full grid after a shape was
    cleared first: ``box`` (one box left empty: a house of 9 open cells, where a hidden
    quadruple can be needed), ``twobox`` (two boxes of a band: rectangles with no given, as
    avoidable rectangles need) or ``digit`` (no given of one digit: its candidates spread,
    as big fish need). Its line and solution, or None (the cleared grid is not unique)."""
    import random
    from csp import Puzzle
    from variants.classic import classic
    from sudoku_csp.generate.fill import random_fill
    rng = random.Random(seed)
    sol = random_fill(Puzzle(9).use(classic()), rng)
    if sol is None:
        return None
    gv = list(sol)
    if kind == "box":
        b = rng.randrange(9)
        clear = [9 * (3 * (b // 3) + i) + 3 * (b % 3) + j for i in range(3) for j in range(3)]
    elif kind == "twobox":
        b = rng.randrange(9)
        o = 3 * (b // 3) + (b % 3 + rng.randrange(1, 3)) % 3     # another box of its band
        clear = [9 * (3 * (x // 3) + i) + 3 * (x % 3) + j for x in (b, o)
                 for i in range(3) for j in range(3)]
    elif kind == "digit":
        d = rng.randrange(1, 10)
        clear = [c for c in range(81) if sol[c] == d]
    else:
        raise SystemExit(f"unknown shape {kind!r} (box, twobox or digit)")
    for c in clear:
        gv[c] = 0
    if Puzzle(9).use(classic()).givens(gv).count_solutions(2) != 1:
        return None
    order = [c for c in range(81) if gv[c]]
    rng.shuffle(order)
    for c in order:
        v, gv[c] = gv[c], 0
        if Puzzle(9).use(classic()).givens(gv).count_solutions(2) != 1:
            gv[c] = v
    return "".join(str(v) if v else "." for v in gv), list(sol)


def generate_shaped(spec: str, per: int, kept: dict[str, list[tuple[str, str]]],
                    stats: dict[str, dict[str, int]]) -> int:
    """``NAME:SHAPE:FIRST-LAST``: shaped candidates of seeds FIRST..LAST, each steered
    towards NAME as ``for_technique`` steers its candidates (``technique._descend``, the
    same seed) and judged; found puzzles are kept as generated by sudoku-csp."""
    name, kind, seeds = spec.split(":")
    first, last = (int(x) for x in seeds.split("-"))
    kept.setdefault(name, [])
    st = stats.setdefault(name, {})
    n = 0
    for s in range(first, last + 1):
        if len(kept[name]) >= per:
            break
        n += 1
        if kind == "steer":          # the generator's own shaped candidate (SHAPE_STEER)
            from sudoku_csp.generate.technique import CLIMB_STEER, _climbed, _shaped
            made = (_climbed if name in CLIMB_STEER else _shaped)(name, s, None)
            if isinstance(made, str):
                st[made] = st.get(made, 0) + 1
                continue
            q = made[0]
            st["kept"] = st.get("kept", 0) + 1
            gv = "".join(str(q.given.get(c, 0) or ".") for c in range(81))
            kept[name].append((gv, f"sudoku-csp for_technique shaped candidate seed {s}"))
            print(f"  {name}: shaped candidate seed {s}", flush=True)
            continue
        got = shaped(kind, s)
        if n % 50 == 0:
            print(f"  ({name}: {n} shaped candidates, to seed {s}, "
                  f"{time.process_time():.0f} s CPU)", file=sys.stderr, flush=True)
        if got is None:
            continue
        p = classic_puzzle(got[0])
        p.unique = True
        q, found = _descend(p, got[1], name, s, None)
        if isinstance(found, str):
            st[found] = st.get(found, 0) + 1
            continue
        st["kept"] = st.get("kept", 0) + 1
        gv = "".join(str(q.given.get(c, 0) or ".") for c in range(81))
        kept[name].append((gv, f"sudoku-csp shape {kind} seed {s}"))
        print(f"  {name}: shape {kind} seed {s}", flush=True)
    return n


def check_isomorphs(count: int) -> None:
    """For each bank row, ``count`` random isomorphs (seeds 1..count, no mutation) judged
    by ``technique._check``: does the technique need survive relabelling and permuting (the
    solver's tie order may depend on positions)?"""
    import random
    from sudoku_csp.generate.bank import entries, isomorph, techniques
    total = kept = 0
    for name in techniques():
        for line, source in entries(name):
            ok = 0
            for s in range(1, count + 1):
                iso = isomorph(random.Random(s))
                q = classic_puzzle(iso.apply(line))
                q.unique = True
                ok += not isinstance(_check(q, name, None), str)
            total += count
            kept += ok
            print(f"  {name} ({source.rsplit(': ', 1)[-1]}): {ok} of {count} isomorphs "
                  "accepted", flush=True)
    print(f"isomorphs accepted by the judge: {kept} of {total}")


BANK_FILE = ROOT / "sudoku_csp" / "generate" / "bank_data.py"


def write_bank(rows: list[tuple[str, str, str]], sources: dict[str, str]) -> None:
    """Write the bank's data module (only the corpora its rows come from)."""
    used = {src.split(" ", 1)[0] for _, _, src in rows}
    out = ['"""Data of the seed bank (:mod:`sudoku_csp.generate.bank`), written by',
           '``benchmarks/technique_bank.py --write``: do not edit by hand."""', "",
           "#: corpus tag -> its source and licence", "SOURCES: dict[str, str] = {"]
    import textwrap
    for tag in sorted(used):
        parts = textwrap.wrap(sources[tag], 80, drop_whitespace=False)
        out.append(f"    {tag!r}: (" + "\n         ".join(repr(x) for x in parts) + "),")
    out += ["}", "#: (technique, puzzle line, source: corpus tag and line, how derived)",
            "BANK: tuple[tuple[str, str, str], ...] = ("]
    out += [f"    ({t!r},\n     {line!r},\n     {src!r})," for t, line, src in rows]
    out += [")", ""]
    BANK_FILE.write_text("\n".join(out))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", nargs="+", default=["se", "radcliffe"])
    ap.add_argument("--source", default=None, help="source line of a FILE corpus")
    ap.add_argument("--names", default=",".join(bank.RARE))
    ap.add_argument("--per", type=int, default=3)
    ap.add_argument("--limit", type=int, default=0, help="puzzles per corpus (0: all)")
    ap.add_argument("--steer", action="store_true")
    ap.add_argument("--check-isomorphs", type=int, default=0, metavar="N",
                    help="only judge N random isomorphs of each bank row")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--add", action="store_true",
                    help="with --write: keep the bank's rows and add the new ones")
    ap.add_argument("--generate", nargs="*", default=[], metavar="NAME:SHAPE:FIRST-LAST",
                    help="also make shaped candidates (shape box or digit) of these seeds "
                         "for technique NAME, steered and judged as for_technique does")
    a = ap.parse_args(argv)
    if a.check_isomorphs:
        check_isomorphs(a.check_isomorphs)
        return 0
    names = [t for t in a.names.split(",") if t]
    kept: dict[str, list[tuple[str, str]]] = {t: [] for t in names}
    stats: dict[str, dict[str, int]] = {}
    sources: dict[str, str] = {}
    scanned = 0
    c0 = time.process_time()
    for corpus in a.corpus if a.corpus != ["none"] else []:
        path, source = CORPORA.get(corpus, (Path(corpus), a.source))
        lines = read_corpus(path)
        if a.limit:
            lines = lines[:a.limit]
        tag = corpus if corpus in CORPORA else path.name
        sources[tag] = source or "(source not stated)"
        scan(lines, names, a.per, a.steer, tag, kept, stats)
        scanned += len(lines)
    for spec in a.generate:
        made = generate_shaped(spec, a.per, kept, stats)
        sources["sudoku-csp"] = ("generated by sudoku-csp (this project, MIT licence): "
                                 "benchmarks/technique_bank.py --generate, shaped "
                                 "candidates")
        print(f"{spec}: {made} shaped candidates")
    names += [n for n in kept if n not in names]
    print(f"scanned {scanned} puzzles in {time.process_time() - c0:.0f} s CPU")
    for t in names:
        print(f"{t}: kept {len(kept[t])}; {stats.get(t, {})}")
    if a.write:
        if any(s == "(source not stated)" for s in sources.values()):
            print("a corpus without --source: not written", file=sys.stderr)
            return 2
        rows = [(t, gv, src) for t in names for gv, src in kept[t]]
        if a.add:
            from sudoku_csp.generate import bank_data
            old = list(bank_data.BANK)
            rows = old + [r for r in rows if r not in old]
            sources = {**bank_data.SOURCES, **sources}
        write_bank(rows, sources)
        print(f"wrote {len(rows)} puzzles to {BANK_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
