"""Hostile input to the setter's workbench: the ``listen`` protocol's messages (entered
digits, centre marks, options and nonces of the wrong type) and the ``candidates``,
``count``, ``report`` and ``why`` commands (seeded mutations of real f-puzzles documents,
hostile option values and candidate specs).

The server must answer every message with replies a strict JSON reader can read back
(the browser's ``JSON.parse`` refuses ``NaN``), ``invalid`` with a one-line message for a
bad one, never "internal error". The CLI must exit 0 or 1, or 2 with exactly one line on
stderr, never a traceback; every limit bounds the whole call (CPU time). Seeded and fast.
"""
from __future__ import annotations

import copy
import json
import random
import time
from typing import Any

import pytest

from conftest import DATA
from sudoku_csp.workbench.server import handle_sync

from test_fuzz_inputs import alarm, answers_cleanly

FOUR = ".2.4....3......."             # a 4x4 with three solutions


def _doc(puzzle: str = FOUR) -> dict:
    from sudoku_csp.formats.fpuzzles import to_fpuzzles
    from variants import classic_puzzle
    return to_fpuzzles(classic_puzzle(puzzle))


def _ask(command: str, doc: dict, nonce: Any = 1) -> list[dict]:
    replies = handle_sync({"nonce": nonce, "command": command, "dataType": "fpuzzles",
                           "data": json.dumps(doc)}, time_limit=10)
    for r in replies:
        json.dumps(r, allow_nan=False)      # what the browser can read back
        if r["type"] == "invalid":
            assert "internal error" not in r["message"] and "\n" not in r["message"], r
    return replies


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1e30, 1.5,
                                   True, [1], {"a": 1}, "x", "1.5", "\u0663"])
def test_listen_entered_value_that_is_no_digit_is_invalid(value):
    """A player's digit (``value`` without ``given``) is read as the reader reads a given:
    an int, an integral float or a string of ASCII digits. Infinity was an internal error
    (OverflowError); 1.5 and true were silently read as the digit 1."""
    doc = _doc()
    doc["grid"][0][0] = {"value": value}
    [reply] = _ask("step", doc)
    assert reply["type"] == "invalid" and "R1C1" in reply["message"], reply
    assert "not a digit" in reply["message"]


@pytest.mark.parametrize("value", [1, 1.0, "1"])
def test_listen_entered_digit_forms_still_read(value):
    doc = _doc()
    doc["grid"][0][0] = {"value": value}
    [reply] = _ask("solvepath", doc)
    assert reply["type"] == "logical" and reply["cells"][0] == {"value": 1}, reply


@pytest.mark.parametrize("marks", [[1, 1.5], [True], [0], [5], [10 ** 30], ["x"], "13", {},
                                   [float("nan")]])
def test_listen_bad_centre_marks_are_invalid_not_unsolvable(marks):
    """Centre marks that are not digits of the grid were dropped, which could empty the
    cell and answer "Board is invalid" (or no solutions) for a board that has them; now
    they are a bad message naming the cell."""
    doc = _doc()
    doc["grid"][0][0] = {"centerPencilMarks": marks}
    [reply] = _ask("step", doc)
    assert reply["type"] == "invalid" and "R1C1" in reply["message"], reply
    assert "centerPencilMarks" in reply["message"]


def test_listen_good_centre_marks_still_narrow():
    doc = _doc()
    doc["grid"][0][0] = {"centerPencilMarks": [1, "3"]}      # r1c1 is 1 or 3
    [reply] = _ask("solvepath", doc)
    assert reply["type"] == "logical" and reply["isValid"], reply
    assert reply["cells"][0] == {"value": 1}


@pytest.mark.parametrize("nonce", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("command", ["solve", "cancel", "dance"])
def test_listen_nonce_that_json_cannot_hold_is_not_echoed(nonce, command):
    """A NaN or infinite nonce was echoed, making replies no strict JSON reader (the
    userscript's ``JSON.parse``) can read."""
    text = json.dumps({"nonce": nonce, "command": command, "dataType": "fpuzzles",
                       "data": json.dumps(_doc())})
    replies = handle_sync(text, time_limit=10)
    assert replies and all(r["nonce"] is None for r in replies), replies
    json.dumps(replies, allow_nan=False)


@pytest.mark.parametrize("option, words", [("truecandidatesnumsolutions=1e3", "whole number"),
                                           ("truecandidatesnumsolutions=\u0663", "whole number"),
                                           ("truecandidatesnumsolutions=" + "9" * 40, "large")])
def test_listen_bad_solution_cap_is_invalid(option, words):
    """The cap is ASCII digits (``int()`` also took '٣'; '1e3' was silently cap 1)."""
    doc = _doc()
    doc["truecandidatesoptions"] = [option]
    [reply] = _ask("truecandidates", doc)
    assert reply["type"] == "invalid" and words in reply["message"], reply


def test_listen_solution_cap_still_read():
    doc = _doc()
    doc["truecandidatesoptions"] = ["truecandidatesnumsolutions= 8 "]
    [reply] = _ask("truecandidates", doc)
    assert reply["type"] == "truecandidates" and max(reply["solutionsPerCandidate"]) == 3


# -- seeded mutations of real documents, through handle_sync -------------------------------
HOSTILE: list[Any] = [None, True, 0, -1, 10 ** 30, 1.5, float("nan"), float("inf"), "", "x",
                      "R99C99", "R0C0", "\u0661", [], {}, [None], [[]], ["R1C1", "R1C1"],
                      "9" * 400]


def _mutated_message(rng: random.Random, docs: list[dict]) -> dict:
    doc = copy.deepcopy(rng.choice(docs))
    n = doc["size"]
    for _ in range(rng.randint(0, 2)):
        key = rng.choice(sorted(doc))
        if key == "grid" and rng.random() < 0.8 and isinstance(doc["grid"], list):
            r, c = rng.randrange(n), rng.randrange(n)
            field = rng.choice(["value", "centerPencilMarks", "given", "region"])
            doc["grid"][r][c] = {**doc["grid"][r][c], field: rng.choice(HOSTILE + [1, 2, [1, 2]])}
        elif isinstance(doc[key], list) and doc[key] and isinstance(doc[key][0], dict):
            el = rng.choice(doc[key])
            field = rng.choice(sorted(el))
            el[field] = rng.choice(HOSTILE)
        else:
            doc[key] = rng.choice(HOSTILE)
    if rng.random() < 0.3:
        doc["truecandidatesoptions"] = rng.choice([["logical"], ["colored"], [None, 5],
                                                   ["truecandidatesnumsolutions=x"], "logical"])
    return {"nonce": rng.choice([1, "n", None, 1.5, float("nan"), [], {}]),
            "command": rng.choice(["truecandidates", "solve", "check", "count", "solvepath",
                                   "step"]),
            "dataType": "fpuzzles", "data": json.dumps(doc)}


def test_listen_mutated_documents_answered_cleanly():
    rows = [json.loads(x) for x in (DATA / "fpuzzles_cc_by.jsonl").read_text().splitlines()]
    docs = [r["fpuzzles_json"] for r in rows if r["size"] <= 6]
    docs += [_doc(), _doc("1" + "." * 15)]
    kinds: dict[str, int] = {}
    for seed in range(150):
        msg = _mutated_message(random.Random(seed), docs)
        with alarm(30):
            t0 = time.process_time()
            replies = handle_sync(msg, time_limit=2)
            assert time.process_time() - t0 < 8, (seed, msg["command"])
        assert replies, seed
        json.dumps(replies, allow_nan=False)
        for r in replies:
            kinds[r["type"]] = kinds.get(r["type"], 0) + 1
            if r["type"] == "invalid":
                assert "internal error" not in r["message"], (seed, r)
                assert "\n" not in r["message"], (seed, r)
    assert kinds.get("invalid", 0) >= 30 and len(kinds) >= 4, kinds


# -- the CLI's workbench options -------------------------------------------------------------
CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("argv, words", [
    # a true candidate was answered (exit 0) whatever --techniques said; a false one
    # failed later without naming the option
    (["why", CLASSIC, "r1c2=1", "--techniques", "bogus"], "argument --techniques: unknown"),
    (["why", CLASSIC, "r1c3=1", "--techniques", "singles,"], "argument --techniques: empty"),
    (["report", "1234" + "." * 12, "--techniques", "bogus"], "argument --techniques: unknown"),
    # int() took other scripts' digits: '٣' was 3
    (["why", CLASSIC, "r1c2=1", "--cap", "\u0663"], "argument --cap"),
    (["report", "1234" + "." * 12, "--count-limit", "\u0663"], "argument --count-limit"),
    (["listen", "--port", "\u0663"], "argument --port"),
    (["listen", "--port", "70000"], "argument --port: must be 0..65535"),
    (["listen", "--max-message", "\u0663\u0663\u0663\u0663"], "argument --max-message"),
    # a huge --max-message lifted the websocket library's own frame cap with it
    (["listen", "--max-message", "9" * 20], "argument --max-message: must be 1024..16777216"),
    (["listen", "--max-message", "100"], "argument --max-message: must be 1024..16777216"),
])
def test_workbench_option_values_refused_up_front(argv, words, capsys):
    rc, out, err = answers_cleanly(argv, capsys, repr(argv))
    assert rc == 2 and words in err and out == "", (argv, err)


def test_report_time_limit_bounds_the_step_texts():
    """"Whispering Rains" (f-puzzles set, row 69): the break-in's alternatives hold a Band
    Arrangement of 48 eliminations whose text (worked out when first asked) followed 80,000
    consequences: 5 s of CPU, so ``report --time-limit 2`` took 7 s of CPU (11 s on the
    wall). The explanation now has a budget of its own (``WHY_WORK``), the report stops
    listing alternatives at its deadline, and hands that deadline to an explanation that
    takes one (``_Reasons.deadline``: 20,000 consequences took 3.2 s of CPU on a loaded CI
    machine, and the report 5.1 s)."""
    from conftest import fpuzzle_row
    from sudoku_csp.formats.loader import load_one
    from sudoku_csp.workbench.report import report
    row = fpuzzle_row(69)
    assert row["title"] == "Whispering Rains"
    p = load_one(json.dumps(row["fpuzzles_json"])).puzzle.freeze()
    t0 = time.process_time()
    rep = report(p, time_limit=2)
    texts = [a["text"] for a in rep.break_in["alternatives"]] if rep.break_in else []
    spent = time.process_time() - t0
    assert rep.status == "unique" and spent < 4.5, spent
    assert all(t for t in texts)


@pytest.mark.parametrize("argv", [
    ["report", "1234" + "." * 12, "-o", "{tmp}/no/such/r.html", "--time-limit", "5"],
    ["candidates", "1234" + "." * 12, "-o", "{tmp}/no/such/c.svg"],
    ["why", "1234" + "." * 12, "r2c1=3", "-o", "{tmp}/no/such/w.svg"],
])
def test_output_folder_checked_before_the_work(argv, tmp_path, capsys):
    """An ``-o`` file in a folder that does not exist was found out at the end: the answer
    was worked out and printed, then the command exited 2 (``report`` naming the
    step-through page it writes first, not the file asked for)."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    rc, out, err = answers_cleanly(argv, capsys, repr(argv))
    assert rc == 2 and out == "" and "no such folder" in err, err
    assert argv[argv.index("-o") + 1] in err


@pytest.mark.parametrize("argv", [
    ["report", "1234" + "." * 12, "-o", "{tmp}/r.html", "--time-limit", "5"],
    ["candidates", "1234" + "." * 12, "-o", "{tmp}/c.svg"],
    ["why", "1234" + "." * 12, "r2c1=3", "-o", "{tmp}/w.svg"],
])
def test_output_that_is_a_folder_refused_before_the_work(argv, tmp_path, capsys):
    """An ``-o`` name that is an existing folder is refused before the answer is worked
    out and printed (it was refused only when the file was written, after the answer)."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    target = argv[argv.index("-o") + 1]
    import os
    os.mkdir(target)
    rc, out, err = answers_cleanly(argv, capsys, repr(argv))
    assert rc == 2 and out == "" and "is a directory" in err, err
    assert target in err


@pytest.mark.parametrize("spec, words", [
    ("r1c1=" + "9" * 5000, "the digit must be 1..4"),       # was an internal error (int())
    ("r" + "9" * 5000 + "c1=1", "no cell"),
    ("r\u0661c1=1", "expected a candidate"),                # \\d took other scripts' digits
    ("r1c1=\u0663", "expected a candidate"),
    ("r0c1=1", "no cell r0c1"), ("r5c1=1", "no cell r5c1"), ("r1c1=0", "the digit must be"),
    ("r1c1=5", "the digit must be"), ("r1c1=E", "the digit must be"), ("r1c1", "expected"),
    ("", "expected"), ("r1c1=1,r1c2=2", "expected"), ("r1c1<>1", "expected"),
])
def test_why_candidate_specs(spec, words, capsys):
    rc, out, err = answers_cleanly(["why", "1234" + "." * 12, spec], capsys, repr(spec[:40]))
    assert rc == 2 and words in err and len(err) < 300, err


@pytest.mark.parametrize("spec, answer", [("R2C1=3", "r2c1=3 is true in"),
                                          (" r02c01 = 4 ", "r2c1=4 is true in"),
                                          ("r2c1=1", "r2c1=1 is not a candidate")])
def test_why_candidate_specs_read(spec, answer, capsys):
    rc, out, err = answers_cleanly(["why", "1234" + "." * 12, spec], capsys, spec)
    assert rc == 0 and out.startswith(answer), out


# -- a seeded fuzz of the four commands ------------------------------------------------------
def _cli_case(rng: random.Random, docs: list[dict], tmp) -> list[str]:
    import lzstring
    doc = copy.deepcopy(rng.choice(docs))
    if rng.random() < 0.5:
        msg = _mutated_message(rng, [doc])
        doc = json.loads(msg["data"])
    form = rng.randrange(4)
    text = json.dumps(doc)
    if form == 1:
        text = "https://www.f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(text)
    elif form == 2:
        text = lzstring.LZString().compressToBase64(text)
        text = text[:rng.randrange(len(text))] if rng.random() < 0.3 else text
    elif form == 3:
        text = rng.choice(["1234" + "." * 12, FOUR, "11" + "." * 14, "." * 36, CLASSIC,
                           "1" * 16, "." * 17, ""])
    cmd = rng.choice(["candidates", "count", "report", "why", "why"])
    argv = [cmd, text]
    pick = rng.random
    if cmd == "candidates":
        argv += rng.choice([[], ["--counts", rng.choice(["1", "3", "0", "-1", "x"])],
                            ["--logical"], ["--logical", "--techniques", "singles"],
                            ["--marks", rng.choice(["1 2", "x" * 50])]])
    elif cmd == "count":
        argv += rng.choice([[], ["--list"], ["--list", "--limit", "3"], ["--estimate"],
                            ["--estimate", "--samples", rng.choice(["5", "0", "x"])],
                            ["--limit", rng.choice(["1", "-5", "1e3", "\u0663"])]])
    elif cmd == "report":
        argv += rng.choice([["--no-without"], ["--count-limit", rng.choice(["5", "0"])],
                            ["-o", str(tmp / rng.choice(["r.html", "r.svg", "no/r.html"]))]])
    else:
        argv.insert(2, rng.choice(["r1c1=1", "r2c3=4", "r9c9=9", "r1c1=A", "r0c0=1", "r1c1"]))
        argv += rng.choice([[], ["--cap", rng.choice(["1", "0"])], ["--no-shorten"]])
    if pick() < 0.5:
        argv += ["--json"]
    return argv + ["--time-limit", "1"]


def test_workbench_commands_answer_hostile_input_cleanly(tmp_path, capsys):
    """150 seeded command lines (mutated f-puzzles documents of the set, truncated payloads,
    hostile option values): exit 0/1, or 2 with one line; each within its 1 s time limit
    plus reading (CPU); all three exit codes occur."""
    rows = [json.loads(x) for x in (DATA / "fpuzzles_cc_by.jsonl").read_text().splitlines()]
    docs = [r["fpuzzles_json"] for r in rows if r["size"] <= 6] + [_doc(), _doc("1" + "." * 15)]
    codes: dict[int, int] = {}
    for seed in range(150):
        argv = _cli_case(random.Random(seed), docs, tmp_path)
        t0 = time.process_time()
        rc, _out, _err = answers_cleanly(argv, capsys, f"seed {seed}: {argv[0]}")
        assert time.process_time() - t0 < 4, (seed, argv[0])
        codes[rc] = codes.get(rc, 0) + 1
    assert all(codes.get(k, 0) >= 10 for k in (0, 1, 2)), codes


@pytest.mark.parametrize("key, element, copies", [
    ("betweenline", {"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}, 6000),
    ("sandwichsum", {"cell": "R0C1", "value": "5"}, 12000),
])
def test_true_candidates_time_limit_bounds_the_encoding(key, element, copies):
    """One rule given thousands of times over (a hostile or broken document, under the
    input cap): the SAT encoding of true candidates had no deadline (``count`` had), so
    ``candidates --time-limit 2`` ran for minutes (12,000 between lines: over 60 s; the
    sandwich clues' encoding then filled the compiled enumerator with 375 million
    literals). SatSession now takes the caller's budget."""
    from sudoku_csp.formats.loader import load_one
    from sudoku_csp.workbench import true_candidates
    doc = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], key: [element] * copies}
    p = load_one(json.dumps(doc)).puzzle.freeze()
    with alarm(60):
        t0 = time.process_time()
        res = true_candidates(p, time_limit=1)
        spent = time.process_time() - t0
    assert spent < 3, spent
    assert res.status == "limit" or res.complete


def test_cancel_stops_the_encoding_without_a_time_limit():
    """``listen`` cancels a running job when a new message comes, and runs its jobs with
    no time limit by default: the SAT encoding of 6,000 copies of a between line (minutes)
    read the caller's deadline but not its cancel, so the job ran on and held the server.
    The cancel now stops the encoding as a deadline does (csp.budget.CancelBudget)."""
    import threading

    from sudoku_csp.formats.loader import load_one
    from sudoku_csp.workbench import true_candidates
    doc = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)],
           "betweenline": [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}] * 6000}
    p = load_one(json.dumps(doc)).puzzle.freeze()
    stop = threading.Event()
    timer = threading.Timer(0.5, stop.set)
    with alarm(60):
        timer.start()
        t0 = time.process_time()
        res = true_candidates(p, cancel=stop)
        spent = time.process_time() - t0
    timer.cancel()
    assert stop.is_set() and spent < 5, spent
    assert not res.complete


def test_estimate_time_limit_bounds_the_encoding():
    """``count --estimate --time-limit 2`` on 12,000 copies of a between line ran over a
    minute: the estimate's SAT session was encoded with no deadline."""
    from csp.solutions import estimate_count
    from sudoku_csp.formats.loader import load_one
    doc = {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)],
           "betweenline": [{"lines": [["R1C1", "R1C2", "R1C3", "R1C4"]]}] * 6000}
    p = load_one(json.dumps(doc)).puzzle.freeze()
    with alarm(60):
        t0 = time.process_time()
        est = estimate_count(p, samples=100, time_limit=1)
        spent = time.process_time() - t0
    assert spent < 3, spent
    assert est.samples == 0 or est.estimate >= 0


@pytest.mark.parametrize("cap", [2 ** 31, 2 ** 63, 10 ** 20])
def test_true_candidates_huge_cap(cap):
    """A cap past a C int (``--counts 99999999999999999999``, the userscript's
    ``truecandidatesnumsolutions=``) reached the compiled enumerator of a variant puzzle
    as is: OverflowError (an internal error). A cap past csp.solutions.MAX_CAP is that."""
    from conftest import fpuzzle_row
    from csp.solutions import MAX_CAP
    from sudoku_csp.formats.loader import load_one
    from sudoku_csp.workbench import true_candidates
    p = load_one(json.dumps(fpuzzle_row(0)["fpuzzles_json"])).puzzle.freeze()
    res = true_candidates(p, cap=cap, time_limit=10)
    assert res.complete and res.status == "unique" and res.cap == MAX_CAP
    doc = fpuzzle_row(0)["fpuzzles_json"]
    [reply] = _ask("truecandidates", {**doc, "truecandidatesoptions":
                                      [f"truecandidatesnumsolutions={cap}"]})
    assert reply["type"] == "truecandidates", reply


@pytest.mark.parametrize("argv", [
    ["candidates", "1234" + "." * 12, "-o", "-"],
    ["why", "1234" + "." * 12, "r2c1=3", "-o", "-"],
])
def test_picture_to_stdout_refused_where_the_answer_is(argv, capsys):
    """``candidates`` and ``why`` print their answer on stdout; ``-o -`` (stdout, as for
    ``render``) drew nothing and said nothing. Now refused, before the work."""
    rc, out, err = answers_cleanly(argv, capsys, repr(argv))
    assert rc == 2 and out == "" and "-o -:" in err and "file name" in err, err
