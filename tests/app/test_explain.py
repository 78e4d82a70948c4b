"""The step-through page of a logic solve (sudoku_csp.explain, ``sudoku-csp explain``) and
the notebook view of a LogicResult (``_repr_html_``). The page in a real browser:
tests/app/test_explain_browser.py."""
from __future__ import annotations

import functools
import html
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

import sudoku_csp  # noqa: F401  (registers the display hooks)
from csp.display import repr_html, set_html_renderer
from techniques import StepSolver
from variants import classic_puzzle
from variants.multigrid import samurai
from sudoku_csp.cli import main
from sudoku_csp.explain import (STATUS_TEXT, explain_data, explain_html, focus_house,
                                 rating_scale, states_before)

from conftest import DATA

CLASSIC = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD = open(DATA / "hardest11.txt").read().split()[2]        # needs chains and ALS


@functools.lru_cache(maxsize=None)
def solved(line: str, techniques: str = "default"):
    p = classic_puzzle(line)
    return p, StepSolver(techniques).solve(p)


def page_data(page: str) -> dict:
    m = re.search(r"<script type='application/json' class='scsp-data'>(.*?)</script>", page, re.S)
    assert m, "no data block"
    return json.loads(m.group(1))


def base_svg(page: str) -> ET.Element:
    m = re.search(r"<svg.*?</svg>", page, re.S)
    assert m
    return ET.fromstring(m.group(0))


class _Tags(HTMLParser):
    """Start tags (with attributes) of an HTML text; fails on unbalanced div/script."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.depth = {"div": 0, "script": 0}

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in self.depth:
            self.depth[tag] += 1

    def handle_endtag(self, tag):
        if tag in self.depth:
            self.depth[tag] -= 1
            assert self.depth[tag] >= 0, tag


def tags(text: str) -> list[tuple[str, dict]]:
    t = _Tags()
    t.feed(text)
    t.close()
    assert t.depth == {"div": 0, "script": 0}
    return t.tags


# -- the data -------------------------------------------------------------------------------
def test_replayed_positions_end_in_the_solver_s_final_state():
    p, res = solved(HARD)
    states = list(states_before(p.pencilmarks(), res.steps))
    assert len(states) == len(res.steps) + 1
    assert states[-1].placed == res.state.placed and states[-1].cand == res.state.cand
    data = explain_data(res)
    # the page's deltas, applied to its start position, give every position too
    placed, cand = list(data["placed"]), list(data["cand"])
    for i, st in enumerate(data["steps"]):
        before = states[i]
        assert placed == before.placed
        assert all(cand[c] == before.cand[c] for c in range(81) if not before.placed[c])
        for x in st["d"]:
            placed[x >> 6], cand[x >> 6] = x & 63, 0
        for x in st["r"]:
            assert cand[x >> 6] >> (x & 63) & 1          # only live candidates are removed
            cand[x >> 6] &= ~(1 << (x & 63))
    assert placed == res.state.placed


def test_each_step_has_three_levels_its_overlay_and_its_candidates():
    p, res = solved(HARD)
    data = explain_data(res)
    assert len(data["steps"]) == len(res.steps) > 50
    assert data["status"] == "solved" and data["end"] == STATUS_TEXT["solved"].format(n=len(res.steps))
    layers = set()
    for step, st in zip(res.steps, data["steps"]):
        for level in range(3):
            shown = html.unescape(st["t"][level].replace("<wbr>", ""))
            want = step.explain(level)
            if level == 1 and not step.houses:      # the hint names where it happens
                want += f" in {focus_house(p.grid, step)}"
                assert 'class="house"' in st["o"]["focus"]
            assert shown == want
        layers |= set(st["o"])
        # eliminations are struck in the overlay, placements marked behind their digit, and
        # their candidates are the ones shown when candidates are hidden
        ov = st["o"].get("overlay", "")
        assert ov.count('class="elim"') == len(step.eliminations)
        assert st["o"].get("cand_bg", "").count('class="place"') == len(step.placements)
        for c, d in (*step.eliminations, *step.placements):
            assert c * 64 + d in st["k"]
    assert {"houses", "cand_bg", "overlay", "links"} <= layers
    chain = max((st for s, st in zip(res.steps, data["steps"]) if s.links),
                key=lambda st: st["o"]["links"].count("marker-end"))
    assert chain["o"]["links"].count("marker-end") > 5
    # long chain texts get break points between links, never inside a cell name
    t2 = chain["t"][2]
    around = re.findall(r"(.)<wbr>(.)", t2)
    assert len(around) > 5
    assert all(a == "," or b in "=-" for a, b in around)


def test_stuck_and_limit_say_where_the_solve_stops(capsys, tmp_path):
    p, res = solved(HARD, "singles")
    assert res.status == "stuck"
    data = explain_data(res)
    assert len(data["steps"]) == len(res.steps) and "stuck" in data["end"]
    assert f"after {len(res.steps)} steps" in data["end"]
    out = tmp_path / "stuck.html"
    assert main(["explain", HARD, "--techniques", "singles", "-o", str(out)]) == 1
    assert "stuck" in capsys.readouterr().out
    page = out.read_text()
    assert page_data(page)["status"] == "stuck" and "scsp-stuck" in page


# -- the page -------------------------------------------------------------------------------
def test_page_is_self_contained_and_well_formed():
    p, res = solved(HARD)
    page = explain_html(res, level=1)
    assert page.startswith("<!DOCTYPE html>")
    found = tags(page)
    names = [t for t, _ in found]
    for tag in ("link", "iframe", "img", "object", "embed"):
        assert tag not in names
    assert all("src" not in a and "href" not in a for t, a in found)
    no_ns = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http:" not in no_ns and "https:" not in no_ns and "@import" not in no_ns
    assert re.findall(r"url\((?!#)", no_ns) == []            # only url(#marker) references
    assert "@font-face" not in no_ns
    # one base picture with the layers the script fills, arrow markers defined
    svg = base_svg(page)
    groups = {g.get("class") for g in svg.iter() if g.tag.endswith("}g")}
    assert {"layer-houses", "layer-cand_bg", "layer-digits", "layer-overlay",
            "layer-links"} <= groups
    assert {m.get("id") for m in svg.iter() if m.tag.endswith("marker")} == \
        {"link-strong", "link-weak", "link-implies"}
    assert len([e for e in svg.iter() if e.get("class") == "cell"]) == 81
    assert page_data(page)["level"] == 1
    for act in ("first", "prev", "next", "last", "reveal"):
        assert f"data-act='{act}'" in page
    assert "class='scsp-cands'" in page and "class='scsp-hint'" in page
    assert "name='viewport'" in page and "@media (max-width:760px)" in page


def test_page_lists_rules_rating_and_metadata():
    obj = next(json.loads(line) for line in open(DATA / "fpuzzles_cc_by.jsonl")
               if "October 10, 2023: Killer" in line)
    from sudoku_csp.formats.loader import puzzle_from_json
    p = puzzle_from_json(obj)[0]
    res = StepSolver().solve(p, time_limit=60)
    page = explain_html(res, puzzle=p)
    assert "<h1>October 10, 2023: Killer</h1>" in page
    assert html.escape(p.meta["author"]) in page
    ncages = len(obj["fpuzzles_json"]["killercage"])
    assert f"<b>killer cage</b> &times;{ncages}:" in page
    # the rating on its scale: a killer is rated by ideas, not comparable with 9x9 steps
    assert res.rating.basis == "ideas"
    assert f"rating {res.rating.level} ({res.rating.score} on the idea scale)" in page
    assert html.escape(rating_scale(res.rating.to_dict())[1]) in page
    # the picture: the cages, but not the title (the page has its heading)
    svg = base_svg(page)
    assert len([e for e in svg.iter() if "cage" == e.get("class")]) == ncages
    assert not [e for e in svg.iter() if e.get("class") == "title"]


def test_samurai_page_uses_the_canvas():
    line = next(ln.split()[1] for ln in open(DATA / "samurai.txt") if not ln.startswith("#"))
    # the solution line with some cells blanked: a quick logic solve
    blanked = "".join("." if i % 5 == 0 else ch for i, ch in enumerate(line))
    p = samurai(blanked)
    res = StepSolver("singles").solve(p)
    assert res.status == "solved" and len(res.steps) > 20
    data = explain_data(res)
    g = p.grid
    assert data["size"] == 369 and data["geo"]["pos"] == [x for c in range(369) for x in g.rc(c)]
    assert max(data["geo"]["pos"]) == 20
    svg = base_svg(explain_html(res))
    assert float(svg.get("width")) == pytest.approx(21 * data["geo"]["S"] + 2 * data["geo"]["pad"])


def test_page_size_per_step_stays_small():
    """The picture is sent once; a step costs its overlay and its changes only."""
    line = next(ln for ln in open(DATA / "sixteen.txt") if not ln.startswith("#")).strip()
    p = classic_puzzle(line)
    res = StepSolver().solve(p, time_limit=120)
    assert res.status == "solved" and len(res.steps) > 150
    page = explain_html(res).encode()
    empty = explain_html(type(res)(res.status, res.state, [], res.rating)).encode()
    per_step = (len(page) - len(empty)) / len(res.steps)
    assert per_step < 1500, per_step


# -- the command ----------------------------------------------------------------------------
def test_cli_explain_writes_the_page(tmp_path, capsys):
    out = tmp_path / "s.html"
    assert main(["explain", CLASSIC, "-o", str(out), "--level", "0", "--title", "Mine"]) == 0
    msg = capsys.readouterr().out
    assert msg.startswith(f"{out}: solved, ") and "KB" in msg
    page = out.read_text()
    assert "<title>Mine</title>" in page and page_data(page)["level"] == 0
    assert main(["explain", CLASSIC, "--techniques", "singles,intersections"]) in (0, 1)
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("args, msg", [
    (["explain", CLASSIC, "-o", "x.svg"], "use a .html file name"),
    (["explain", "12"], "not a square grid"),
    (["explain", CLASSIC, "--techniques", "nonsense"], "nonsense"),
    (["explain", CLASSIC, "--time-limit", "0"], "finite number of seconds above 0"),
    (["explain", CLASSIC, "--time-limit", "nan"], "finite number of seconds above 0"),
    (["explain", "11" + "." * 79], "given twice"),
])
def test_cli_explain_bad_input_exit_2_one_line(args, msg, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and msg in err


def test_cli_explain_time_limit_page_says_limit(tmp_path, capsys):
    out = tmp_path / "l.html"
    rc = main(["explain", HARD, "--techniques", "all", "--time-limit", "0.001", "-o", str(out)])
    data = page_data(out.read_text())
    assert rc == 1 and data["status"] == "limit" and "time limit" in data["end"]


# -- notebook view --------------------------------------------------------------------------
def test_logic_result_repr_html_is_a_fragment_step_through():
    p, res = solved(CLASSIC)
    frag = res._repr_html_()
    assert frag is not None and "<!DOCTYPE" not in frag and "<html" not in frag
    found = tags(frag)
    root_tag, attrs = found[0]
    assert root_tag == "div" and attrs["class"] == "scsp scsp-fragment"
    ident = attrs["id"]
    assert re.fullmatch(r"scsp-[0-9a-f]{10}", ident)
    assert attrs["tabindex"] == "0"                  # keys act when the view has focus
    # the style is scoped to this view, the script started on it with page keys off
    style = re.search(r"<style>(.*?)</style>", frag, re.S).group(1)
    selectors = [s.strip() for s in re.findall(r"([^{}]+)\{", style)]
    assert len(selectors) > 20
    assert all(s.startswith(("#" + ident, "@media")) for s in selectors)
    assert all(p.strip().startswith("#" + ident) for s in selectors if not s.startswith("@")
               for p in s.split(","))
    assert frag.rstrip().endswith(f"(document.getElementById('{ident}'), false);</script>")
    assert len(page_data(frag)["steps"]) == len(res.steps)
    # two views in one notebook do not share ids
    assert tags(res._repr_html_())[0][1]["id"] != ident
    # only logic results get the view
    assert repr_html(p) is None and repr_html(res.state) is None
    old = set_html_renderer(None)
    try:
        assert res._repr_html_() is None
    finally:
        set_html_renderer(old)



def test_rating_scale_says_what_a_score_means():
    """A 16x16 "medium" of 82 and a 9x9 "medium" of 602 are on two scales; the page says
    which, and the step scale's band of the level."""
    short, long = rating_scale({"score": 602, "level": "medium", "basis": "steps"})
    assert short == "medium (602 on the step scale: medium is up to 1000)"
    assert "easy up to 800, medium up to 1000, hard up to 1600, unfair up to 1800" in long
    short, long = rating_scale({"score": 82, "level": "medium", "basis": "ideas"})
    assert short == "medium (82 on the idea scale)"
    assert "not comparable" in long and "once" in long
    p = classic_puzzle(next(ln for ln in open(DATA / "sixteen.txt")
                            if not ln.startswith("#")).strip())
    res = StepSolver().solve(p, time_limit=120)
    assert res.rating.basis == "ideas"
    assert "on the idea scale" in explain_html(res).split("scsp-summary", 1)[1][:600]
