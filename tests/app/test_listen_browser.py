"""``sudoku-csp listen`` from a real browser: headless Chromium (Selenium) opens a local page
that connects to the server the way the f-puzzles solver userscript does and runs its
message sequence -- true candidates after each edit (the earlier question cancelled by the
later one), check, solve, solution count, cancel, step, solution path -- ignoring replies
whose nonce is not the latest, as the userscript does. The page records every reply; the
test checks them.

Needs Chromium, chromedriver and selenium, as tests/app/test_explain_browser.py does; skips
otherwise, saying what is missing.
"""
from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("websockets", reason="needs websockets (the test extra)")

from test_explain_browser import _missing, errors, make_driver  # noqa: E402

from conftest import DATA, fpuzzle_row  # noqa: E402
from sudoku_csp.workbench.server import ListenServer, fpuzzles_payload  # noqa: E402

pytestmark = pytest.mark.skipif(_missing() is not None, reason=str(_missing()))

with open(DATA / "multi_solution_1000.txt") as _f:
    MULTI = _f.read().splitlines()[25]                   # 43 solutions

# the userscript's client, reduced to its protocol: one socket, an increasing nonce, each
# command sent 250 ms after the click, replies with an older nonce ignored, the count
# streamed until inProgress is false, cancel as its own message
PAGE = """<!doctype html><meta charset="utf-8"><title>listen</title><body><script>
var log = [], done = false, nonce = 0, sock;
function send(command, data) {
  nonce++;
  var msg = {nonce: nonce, command: command};
  if (data !== undefined) { msg.dataType = "fpuzzles"; msg.data = data; }
  var m = msg;
  setTimeout(function () { if (nonce === m.nonce || command === "cancel") sock.send(JSON.stringify(m)); },
             command === "cancel" ? 0 : 250);
  return msg.nonce;
}
function wait(pred, ms) {
  return new Promise(function (ok, bad) {
    var t0 = Date.now();
    (function poll() {
      var hit = log.filter(pred);
      if (hit.length) return ok(hit[hit.length - 1]);
      if (Date.now() - t0 > ms) return bad(new Error("timeout"));
      setTimeout(poll, 20);
    })();
  });
}
async function script(P) {
  sock = new WebSocket(P.url);
  await new Promise(function (ok) { sock.onopen = ok; });
  sock.onmessage = function (e) {
    var r = JSON.parse(e.data);
    log.push({current: r.nonce === nonce, reply: r});
  };
  var mine = function (n, type) {
    return function (x) { return x.reply.nonce === n && (!type || x.reply.type === type); };
  };
  // true candidates on, then two quick edits: only the last question counts
  send("truecandidates", P.edit1);
  var last = send("truecandidates", P.tc);
  await wait(mine(last, "truecandidates"), 30000);
  var n = send("check", P.tc);
  await wait(mine(n, "count"), 30000);
  n = send("solve", P.tc);
  await wait(mine(n, "solved"), 30000);
  n = send("count", P.empty);
  await wait(function (x) { return x.reply.nonce === n && x.reply.inProgress; }, 30000);
  var c = send("cancel");
  await wait(mine(c, "canceled"), 30000);
  n = send("count", P.tc);
  await wait(function (x) { return x.reply.nonce === n && x.reply.inProgress === false; }, 30000);
  n = send("step", P.tc);
  await wait(mine(n, "logical"), 30000);
  n = send("solvepath", P.easy);
  await wait(mine(n, "logical"), 30000);
  n = send("truecandidates", P.bad);
  await wait(mine(n, "invalid"), 30000);
  sock.close();
  done = true;
}
</script></body>"""


@pytest.fixture(scope="module")
def server():
    s = ListenServer("127.0.0.1", port=0).start()
    yield s
    s.stop()


def test_userscript_sequence_in_chromium(server, tmp_path) -> None:
    row = fpuzzle_row(0)
    edit1 = dict(row["fpuzzles_json"])
    edit1["grid"] = [[dict(c) for c in r] for r in edit1["grid"]]
    tc = json.loads(json.dumps(edit1))
    tc["truecandidatesoptions"] = ["truecandidatesnumsolutions=8"]
    tc["even"] = tc["even"][1:]                          # the setter removes a clue: 15 solutions
    import lzstring
    lz = lzstring.LZString()
    params = {
        "url": server.url,
        "edit1": lz.compressToBase64(json.dumps(edit1)),
        "tc": lz.compressToBase64(json.dumps(tc)),
        "empty": fpuzzles_payload("." * 81),
        "easy": fpuzzles_payload("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82...."
                                 "26.95..8..2.3..9..5.1.3.."),
        "bad": fpuzzles_payload("." + "12345678" + "." * 63 + "9" + "." * 8),
    }
    page = tmp_path / "listen.html"
    page.write_text(PAGE, encoding="utf-8")
    d = make_driver()
    try:
        d.get(page.resolve().as_uri())
        d.execute_script("script(arguments[0]).catch(function (e) { window.failed = String(e); });",
                         params)
        t0 = time.monotonic()
        while not d.execute_script("return done || !!window.failed;"):
            assert time.monotonic() - t0 < 180, "the page did not finish"
            time.sleep(0.2)
        assert d.execute_script("return window.failed || null;") is None
        log = [x["reply"] for x in d.execute_script("return log;")]
        assert errors(d) == []
    finally:
        d.quit()
    by_type: dict[str, list[dict]] = {}
    for r in log:
        by_type.setdefault(r["type"], []).append(r)
    # the first true-candidates question was cancelled or never sent; the last one answered
    tcs = by_type["truecandidates"]
    assert len(tcs) == 1 and tcs[0]["nonce"] == 2
    flat = tcs[0]["solutionsPerCandidate"]
    assert len(flat) == 729 and max(flat) == 8 and 1 in flat
    from sudoku_csp.formats.fpuzzles import load_fpuzzles
    from sudoku_csp.workbench import true_candidates
    assert flat == true_candidates(load_fpuzzles(tc), cap=8).solutions_per_candidate()
    counts = [r for r in by_type["count"] if not r["inProgress"]]
    assert counts[0] == {"nonce": 3, "type": "count", "count": 2, "inProgress": False}
    assert counts[-1]["count"] == 15
    assert any(r["inProgress"] and r["nonce"] == 5 for r in by_type["count"])
    assert {r["nonce"] for r in by_type["canceled"]} >= {5, 6}
    solved = by_type["solved"][0]["solution"]
    assert load_fpuzzles(tc).check_solution(solved)
    step, path = by_type["logical"]
    assert step["message"] == "Initial candidates.\n" and len(step["cells"]) == 81
    assert path["isValid"] and all(c["value"] for c in path["cells"])
    assert by_type["invalid"][-1]["message"] == "No solutions found."
