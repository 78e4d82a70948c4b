"""Generation benchmark: how long `sudoku_csp.generate` takes to make puzzles of each logic
level, with every puzzle verified independently.

    python benchmarks/generate.py [--classic 20] [--jigsaw 5] [--killer 5]
                                  [--levels easy,medium,hard,unfair,extreme] [--seed 1]
                                  [--time-limit 120] [--write docs/performance.md]
                                  [--big 3] [--sizes 12,16,25] [--symmetric]

For each variant and level, ``generate_iter`` makes the asked number of puzzles (seeds from
``--seed``); each puzzle is rebuilt from its printed form (line string or sudoku-csp JSON),
its solutions are counted by search (must be 1), and a fresh ``StepSolver("default")``
(deciding uniqueness itself) must solve it at the asked level. A level that runs out of its
per-puzzle time limit is reported with the number made. Times are per puzzle, CPU time of
this process (the machine is shared; wall time swings with the load) and wall time.
"Level by technique" counts the puzzles whose hardest technique is of the level itself; the
others reach it by their total score (HoDoKu's rule: a score past the level's maximum moves
the rating up). ``--big N`` adds N classic puzzles per level for each of ``--sizes`` (big
grids, dug to a level-dependent floor of givens; ``--symmetric`` digs point-symmetric pairs).

``--families thermo,kropki,...`` (each entry a ``--variant`` value; ``+`` joins a
combination, e.g. ``thermo+kropki``) adds the rule families: ``--family-count N`` puzzles
per family and level, each from its own seed (``--seed`` + 100 i) and its own time limit
(``--time-limit`` seconds of CPU time, a CPU timer that stops the generator; no wall-clock
limit), so the table gives the success rate within the limit, the median and
90th-percentile CPU of the puzzles made and the histogram of their re-rated levels
(``--family-size``, ``--givens``, ``--negative`` as for ``sudoku-csp generate``); each one
is rebuilt from its JSON and must be unique by search and by SAT and re-rate at its level.
``--write-families FILE`` writes that table between its own markers. ``--pencilmark`` adds,
interleaved, rows for pencilmark's generator (PyPI; ``pencilmark.gen.api.generate``, one
element kind, ``target_band`` Easy / Medium / Hard / Very Hard / Extreme for easy ..
extreme: its own bands, not HoDoKu's levels, so the rows compare cost, not identical grades;
its histogram is of its own bands) on the families it has (killer as cages, thermo, kropki,
xv, parity, arrow, whispers, renban, between).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from techniques import StepSolver, registry  # noqa: E402
from techniques.registry import LEVELS  # noqa: E402
from variants.classic import classic_puzzle  # noqa: E402
from sudoku_csp.generate import GenerationTimeout, generate_iter  # noqa: E402
from sudoku_csp.formats.spec import from_spec  # noqa: E402

BEGIN = "<!-- generate:begin -->"
END = "<!-- generate:end -->"
FAMILY_BEGIN = "<!-- generate-families:begin -->"
FAMILY_END = "<!-- generate-families:end -->"
TECH_BEGIN = "<!-- generate-techniques:begin -->"
TECH_END = "<!-- generate-techniques:end -->"
SE_SET = Path("/work/shared/data/classic/sudoku_exchange_1000_rated.tsv")


def se_techniques(path: Path, sample: int, seed: int) -> dict[str, int]:
    """Every technique on the default path of the Sudoku Exchange set (``sample`` puzzles
    drawn with ``seed``; 0 = all): technique -> how many puzzles use it."""
    import random
    rows = [ln.split("\t")[0] for ln in path.read_text().splitlines()
            if ln.strip() and not ln.startswith("puzzle")]
    if sample:
        rows = random.Random(seed).sample(rows, min(sample, len(rows)))
    seen: dict[str, int] = {}
    for line in rows:
        res = StepSolver("default", unique=True).solve(classic_puzzle(line), time_limit=60)
        for t in {st.technique for st in res.steps}:
            seen[t] = seen.get(t, 0) + 1
    return seen


def _one_technique(job: tuple[str, int, float]) -> dict:
    """``for_technique(name, seed=seed)`` within ``limit`` CPU seconds of this process (a
    worker of its own): what was found, at which seed, CPU and wall seconds."""
    from sudoku_csp.generate import NoPracticePuzzle, for_technique
    name, seed, limit = job
    c0, w0 = time.process_time(), time.perf_counter()
    tried = [0]

    def stop(k: int) -> None:
        tried[0] = k
        if time.process_time() - c0 > limit:
            raise NoPracticePuzzle(f"past {limit:g} s CPU", k)
    try:
        pr = for_technique(name, seed=seed, time_limit=None, progress=stop)
        got = {"seed": pr.seed, "tried": pr.tries, "method": pr.method}
    except NoPracticePuzzle:
        got = {"seed": None, "tried": tried[0], "method": None}
    got.update(name=name, cpu=time.process_time() - c0, wall=time.perf_counter() - w0)
    return got


def run_techniques(names: dict[str, int], seed: int, limit: float, workers: int) -> list[str]:
    """The table rows of ``--techniques`` (one worker process per technique)."""
    import multiprocessing as mp
    order = sorted(names, key=lambda t: registry.ladder_order(registry.get(t), False, False))
    jobs = [(t, seed, limit) for t in order]
    with mp.get_context("spawn").Pool(workers, maxtasksperchild=1) as pool:
        got = {r["name"]: r for r in pool.imap_unordered(_one_technique, jobs)
               if print(f"  {r['name']}: seed {r['seed']} ({r['method']}), {r['cpu']:.1f} s CPU",
                        flush=True)
               or True}
    out = ["| technique | SE puzzles using it | found at seed | candidates | CPU s | wall s |",
           "|---|---:|---:|---:|---:|---:|"]
    cpus = []
    for t in order:
        r = got[t]
        cpus.append(r["cpu"] if r["seed"] is not None else math.inf)
        where = str(r["seed"]) if r["seed"] is not None else f"none in {limit:g} s CPU"
        if r["method"] not in (None, "generated"):
            where += f" ({r['method']})"
        out.append(f"| {t} | {names[t]} | {where} | {r['tried']} | {r['cpu']:.1f} "
                   f"| {r['wall']:.1f} |")
    med = statistics.median(cpus)
    found = sum(1 for c in cpus if c != math.inf)
    out.append("")
    out.append(f"Found {found} of {len(order)} within {limit:g} s CPU each; median CPU over "
               f"all {len(order)} (a miss counts as past the limit): "
               + (f"{med:.1f} s." if med != math.inf else f"more than {limit:g} s."))
    return out


def verify(g) -> str | None:
    """None when the puzzle checks out, else what is wrong."""
    if g.variant == "classic":
        q = classic_puzzle(g.line())
    else:
        q = from_spec(json.loads(json.dumps(g.to_spec())))
    if q.count_solutions(2) != 1:
        return "not unique"
    res = StepSolver("default").solve(q)
    if res.status != "solved":
        return "logic solver stuck"
    if res.rating.level != g.level:
        return f"re-rated {res.rating.level}"
    return None


def run_level(variant: str, level: str, count: int, seed: int, limit: float, size: int = 9,
              symmetric: bool = False) -> dict:
    cpu: list[float] = []
    wall: list[float] = []
    cands: list[int] = []
    givens: list[int] = []
    by_technique = 0
    bad: list[str] = []
    timeout = None
    it = generate_iter(variant, level, count, seed, limit, size=size, symmetric=symmetric)
    while True:
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            g = next(it)
        except StopIteration:
            break
        except GenerationTimeout as e:
            timeout = str(e)
            break
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        cands.append(g.candidates)
        givens.append(g.givens)
        top = max(LEVELS.index(registry.get(t).level) for t in g.rating.counts)
        by_technique += LEVELS[top] == level
        why = verify(g)
        if why:
            bad.append(f"seed {g.seed}: {why}")
    label = variant if size == 9 else f"{variant} {size}x{size}"
    return {"variant": label, "level": level, "asked": count, "made": len(cpu), "cpu": cpu,
            "wall": wall, "candidates": cands, "givens": givens, "bad": bad,
            "by_technique": by_technique,
            "timeout": timeout}


def verify_rules(g) -> tuple[str | None, str]:
    """(None when a rule-family puzzle checks out (unique by search and by SAT, the logic
    re-rates it at its level), else what is wrong; the re-rated level)."""
    q = from_spec(json.loads(json.dumps(g.to_spec())))
    if q.count_solutions(2, method="search") != 1 or q.count_solutions(2, method="sat") != 1:
        return "not unique", "-"
    res = StepSolver("default").solve(q)
    if res.status != "solved":
        return "logic solver stuck", "stuck"
    lv = res.rating.level
    return (None if lv == g.level else f"re-rated {lv}"), lv


class _CpuLimit(BaseException):
    """Raised once a puzzle's CPU time passes the limit (a BaseException: no ``except
    Exception`` of the library catches it)."""


def _cpu_alarm(seconds: float | None) -> None:
    """Raise :class:`_CpuLimit` after ``seconds`` more of this process's CPU time (an
    ``ITIMER_PROF`` timer; None: cancel it)."""
    import signal

    def ring(_sig, _frame):
        raise _CpuLimit
    signal.signal(signal.SIGPROF, ring)
    signal.setitimer(signal.ITIMER_PROF, seconds or 0.0)


def _hist(levels: list[str]) -> str:
    """``easy 1, hard 2``: how many of each level (in level order)."""
    order = list(LEVELS) + sorted(set(levels) - set(LEVELS))
    return ", ".join(f"{x} {levels.count(x)}" for x in order if x in levels) or "-"


def _med_p90(made: list[float]) -> tuple[str, str]:
    med = f"{statistics.median(made):.2f}" if made else "-"
    p90 = f"{sorted(made)[math.ceil(0.9 * len(made)) - 1]:.2f}" if made else "-"   # nearest rank
    return med, p90


def run_family(variant: str, level: str, count: int, seed: int, limit: float, size: int,
               givens: str | None, negative: bool) -> str:
    """One table row: puzzle i from seed ``seed + 100 i`` within ``limit`` seconds of CPU
    time (:func:`_cpu_alarm`; no wall-clock limit: under load the wall clock stops a
    puzzle long before its CPU is spent); the level histogram is the verification's
    re-rating of every puzzle made."""
    made: list[float] = []
    spent: list[float] = []
    levels: list[str] = []
    bad: list[str] = []
    for i in range(count):
        c0 = time.process_time()
        try:
            _cpu_alarm(limit)
            g = generate_iter(variant, level, 1, seed + 100 * i, None, size,
                              givens=givens, negative=negative and any(
                                  f in variant for f in ("kropki", "xv")))
            g = next(g)
        except (GenerationTimeout, _CpuLimit):
            spent.append(time.process_time() - c0)
            continue
        finally:
            _cpu_alarm(None)
        cpu = time.process_time() - c0
        spent.append(cpu)
        if cpu <= limit:
            made.append(cpu)
        why, rated = verify_rules(g)
        levels.append(rated)
        if why:
            bad.append(f"seed {g.seed}: {why}")
    med, p90 = _med_p90(made)
    ok = "all" if not bad else "; ".join(bad)
    return (f"| {variant} | {level} | {len(made)}/{count} | {med} | {p90} | "
            f"{sum(spent):.1f} | {_hist(levels)} | {ok} |")


#: our family -> pencilmark's element kind (the families both generate)
PENCILMARK_KINDS = {"killer": "cage", "thermo": "thermo", "kropki": "kropki", "xv": "xv",
                    "parity": "parity", "arrow": "arrow", "whispers": "whisper",
                    "renban": "renban", "between": "between"}
PENCILMARK_BANDS = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "unfair": "Very Hard",
                    "extreme": "Extreme"}


def run_pencilmark(family: str, level: str, count: int, seed: int, limit: float,
                   size: int) -> str | None:
    """The same row for pencilmark's generator, or None when it lacks the family. Its
    ``time_limit`` is its own (wall clock); a puzzle past ``limit`` s of CPU is not counted
    as made within it. The histogram is of pencilmark's own bands (its card)."""
    kinds = [PENCILMARK_KINDS.get(f) for f in family.split(",")]
    if None in kinds:
        return None
    from pencilmark.gen.api import GenerationFailed, generate as pm_generate
    made: list[float] = []
    spent: list[float] = []
    bands: list[str] = []
    for i in range(count):
        c0 = time.process_time()
        try:
            got = pm_generate({"size": size, "kinds": kinds,
                               "target_band": PENCILMARK_BANDS[level],
                               "seed": seed + 100 * i, "time_limit": limit})
        except GenerationFailed:
            spent.append(time.process_time() - c0)
            continue
        cpu = time.process_time() - c0
        spent.append(cpu)
        if cpu <= limit:
            made.append(cpu)
        bands.append(str(got.get("card", {}).get("band", "?")))
    med, p90 = _med_p90(made)
    hist = ", ".join(f"{b} {bands.count(b)}" for b in dict.fromkeys(bands)) or "-"
    return (f"| pencilmark {family} | {PENCILMARK_BANDS[level]} | {len(made)}/{count} | {med} "
            f"| {p90} | {sum(spent):.1f} | {hist} | (its own check) |")


def fmt(r: dict) -> str:
    cpu, wall = r["cpu"], r["wall"]
    if cpu:
        med, mx, tot = statistics.median(cpu), max(cpu), sum(cpu)
        cells = (f"{med:.2f} | {mx:.2f} | {tot:.1f} | {sum(wall):.1f} | "
                 f"{statistics.mean(r['candidates']):.1f} | "
                 f"{min(r['givens'])}-{max(r['givens'])} | {r['by_technique']}")
    else:
        cells = "- | - | - | - | - | - | -"
    ok = "all" if not r["bad"] else f"{r['made'] - len(r['bad'])} ({'; '.join(r['bad'])})"
    made = f"{r['made']}/{r['asked']}" + (" (time limit)" if r["timeout"] else "")
    return f"| {r['variant']} | {r['level']} | {made} | {cells} | {ok} |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--classic", type=int, default=20, help="classic puzzles per level")
    ap.add_argument("--jigsaw", type=int, default=5, help="jigsaw puzzles per level")
    ap.add_argument("--killer", type=int, default=5, help="killer puzzles per level")
    ap.add_argument("--levels", default="easy,medium,hard,unfair,extreme")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per puzzle")
    ap.add_argument("--big", type=int, default=0,
                    help="classic puzzles per level for each of --sizes (default 0: none)")
    ap.add_argument("--sizes", default="12,16,25", help="big grid sizes for --big")
    ap.add_argument("--symmetric", action="store_true", help="big grids: symmetric givens")
    ap.add_argument("--families", default="",
                    help="rule families, comma-separated (thermo+kropki: a combination)")
    ap.add_argument("--family-count", type=int, default=3, help="puzzles per family and level")
    ap.add_argument("--family-size", type=int, default=9)
    ap.add_argument("--givens", default=None, help="rule families: none, few or any")
    ap.add_argument("--negative", action="store_true", help="kropki, xv: negative constraint")
    ap.add_argument("--pencilmark", action="store_true",
                    help="rule families: pencilmark's generator side by side")
    ap.add_argument("--write-families", type=Path, default=None,
                    help="write the rule-family table into this markdown file")
    ap.add_argument("--write", type=Path, default=None,
                    help="write the results section into this markdown file")
    ap.add_argument("--techniques", action="store_true",
                    help="for_technique(name, seed) for every technique on the default path "
                         "of the Sudoku Exchange set (--se-sample puzzles), instead of levels")
    ap.add_argument("--se-sample", type=int, default=0, help="--techniques: SE puzzles (0: all)")
    ap.add_argument("--names", default="", help="--techniques: these names instead of the SE set")
    ap.add_argument("--workers", type=int, default=2, help="--techniques: worker processes")
    ap.add_argument("--write-techniques", type=Path, default=None,
                    help="write the --techniques table into this markdown file")
    args = ap.parse_args(argv)
    if args.techniques:
        if args.names:
            names = {t: 0 for t in args.names.split(",")}
        else:
            names = se_techniques(SE_SET, args.se_sample, args.seed)
        print(f"{len(names)} techniques: {', '.join(sorted(names))}", flush=True)
        tout = run_techniques(names, args.seed, args.time_limit, args.workers)
        print("\n".join(tout), flush=True)
        if args.write_techniques:
            write_section(args.write_techniques, "\n".join(tout),
                          argv if argv is not None else sys.argv[1:], TECH_BEGIN, TECH_END)
        return 0
    if args.families:
        fhead = ("| family | level | made within the limit (CPU) | median CPU s | 90th pct CPU s "
                 "| total CPU s (failures included) | levels made | verified |")
        fout = [fhead, "|" + "---|" * 8]
        print(fhead, flush=True)
        for fam in args.families.split(","):
            for level in args.levels.split(","):
                line = run_family(fam.replace("+", ","), level, args.family_count, args.seed,
                                  args.time_limit, args.family_size, args.givens,
                                  args.negative)
                fout.append(line)
                print(line, flush=True)
                if args.pencilmark:
                    pm = run_pencilmark(fam.replace("+", ","), level, args.family_count,
                                        args.seed, args.time_limit, args.family_size)
                    if pm is not None:
                        fout.append(pm)
                        print(pm, flush=True)
        if args.write_families:
            write_section(args.write_families, "\n".join(fout),
                          argv if argv is not None else sys.argv[1:], FAMILY_BEGIN, FAMILY_END)
    rows = []
    head = ("| variant | level | made | median CPU s | max CPU s | total CPU s | total wall s "
            "| candidates per puzzle | givens | level by technique | verified |")
    out = [head, "|" + "---|" * 11]
    print(head, flush=True)
    t0 = time.perf_counter()
    jobs = [(v, 9, getattr(args, v)) for v in ("classic", "jigsaw", "killer")]
    jobs += [("classic", int(n), args.big) for n in args.sizes.split(",") if n.strip()]
    for variant, size, count in jobs:
        if count < 1:
            continue
        for level in args.levels.split(","):
            r = run_level(variant, level, count, args.seed, args.time_limit, size,
                          args.symmetric and size != 9)
            rows.append(r)
            line = fmt(r)
            out.append(line)
            print(line, flush=True)
            if r["timeout"]:
                print(f"    {r['timeout']}", flush=True)
    total = time.perf_counter() - t0
    out.append("")
    out.append(f"Whole run: {total:.0f} s wall. Per-puzzle time limit {args.time_limit:g} s, "
               f"seeds from {args.seed}.")
    for r in rows:
        if r["timeout"]:
            out.append(f"* {r['variant']} {r['level']}: {r['timeout']}")
    print(out[-1] if rows and rows[-1]["timeout"] else "", flush=True)
    if args.write:
        write_section(args.write, "\n".join(out), argv if argv is not None else sys.argv[1:])
    return 0 if all(not r["bad"] for r in rows) else 1


def write_section(path: Path, body: str, argv: list[str], begin: str = BEGIN,
                  end: str = END) -> None:
    text = path.read_text() if path.exists() else ""
    block = (f"{begin}\n`python benchmarks/generate.py {' '.join(argv)}` "
             f"({time.strftime('%Y-%m-%d', time.gmtime())}):\n\n{body}\n{end}")
    if begin in text and end in text:
        a = text.index(begin)
        b = text.index(end) + len(end)
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n## Generation: results\n\n" + block + "\n"
    path.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
