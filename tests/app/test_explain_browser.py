"""The explain page in a real browser: headless Chromium driven by Selenium clicks through
steps with the buttons, the keys and the step list, and checks what the page shows.

Needs Chromium and its driver (Debian: ``apt-get install chromium chromium-driver``) and
``selenium`` (the ``test`` extra); without them these tests skip, saying what is missing.
Screenshots go to a temporary directory, or to ``$SUDOKU_CSP_SCREENSHOTS`` when set (the
pictures in docs/img/explain/ are made that way, by the slow acceptance test:
``SUDOKU_CSP_SCREENSHOTS=docs/img/explain pytest -m slow tests/app/test_explain_browser.py``).
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from techniques import StepSolver
from variants import classic_puzzle
from sudoku_csp.explain import explain_html

from conftest import DATA

HARD = open(DATA / "hardest11.txt").read().split()[2]        # 76 steps, chains and ALS
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _find(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}")
                                      else None)
        if path:
            return path
    return None


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if _find("chromium", "chromium-browser", "google-chrome") is None:
        return "no Chromium (apt-get install chromium chromium-driver)"
    if _find("chromedriver") is None:
        return "no chromedriver (apt-get install chromium-driver)"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=str(_missing()))


def make_driver(width: int = 1280, height: int = 900, phone: bool = False):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = _find("chromium", "chromium-browser", "google-chrome")
    profile = tempfile.mkdtemp(prefix="scsp-chrome-")     # removed when the driver quits
    for flag in FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        opts.add_argument(flag)
    if phone:
        opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 2}})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        d = webdriver.Chrome(options=opts, service=Service(_find("chromedriver")))
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    quit_driver = d.quit

    def quit() -> None:
        try:
            quit_driver()
        finally:
            shutil.rmtree(profile, ignore_errors=True)
    d.quit = quit
    if not phone:        # the page's viewport itself is width x height (not the window's)
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return d


@pytest.fixture(scope="module")
def driver():
    d = make_driver()
    yield d
    d.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    where = os.environ.get("SUDOKU_CSP_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def hard_page(tmp_path_factory) -> tuple[Path, dict]:
    res = StepSolver().solve(classic_puzzle(HARD))
    page = explain_html(res, title="Hardest 11, no. 3")
    path = tmp_path_factory.mktemp("pages") / "hard.html"
    path.write_text(page, encoding="utf-8")
    data = json.loads(re.search(r"class='scsp-data'>(.*?)</script>", page, re.S).group(1))
    return path, data


# -- helpers --------------------------------------------------------------------------------
def css(d, sel: str):
    from selenium.webdriver.common.by import By
    return d.find_element(By.CSS_SELECTOR, sel)


def key(d, name: str) -> None:
    from selenium.webdriver.common.keys import Keys
    css(d, "body").send_keys(getattr(Keys, name))


def shown(d) -> dict:
    """What the page shows: position label, text, and the picture's layers."""
    return d.execute_script("""
        var r = document.querySelector('.scsp'), s = r.querySelector('svg');
        function L(n) { return s.querySelector('g.layer-' + n).innerHTML; }
        return {pos: r.querySelector('.scsp-pos').textContent,
                text: r.querySelector('.scsp-text').textContent,
                digits: L('digits'), overlay: L('cand_bg') + L('overlay') + L('links'),
                houses: L('houses'),
                cands: s.querySelectorAll('g.layer-digits text.cand').length,
                placed: s.querySelectorAll('g.layer-digits text.placed, ' +
                                          'g.layer-digits text.given').length};""")


def errors(d) -> list[dict]:
    return [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def open_page(d, path: Path) -> None:
    d.get(path.resolve().as_uri())
    d.get_log("browser")                      # start with an empty log


def screenshot(d, path: Path) -> None:
    d.save_screenshot(str(path))
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000
    if os.environ.get("SUDOKU_CSP_SCREENSHOTS"):         # for the docs: a smaller file
        try:
            from PIL import Image
        except ImportError:
            return
        with Image.open(path) as im:
            small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
        small.save(path, optimize=True)


# -- tests ----------------------------------------------------------------------------------
def test_buttons_keys_and_list_move_through_the_steps(driver, hard_page, tmp_path):
    path, data = hard_page
    n = len(data["steps"])
    open_page(driver, path)
    start = shown(driver)
    assert start["pos"] == f"Start ({n} steps)" and start["overlay"] == ""
    assert start["placed"] == sum(1 for d in data["placed"] if d)
    css(driver, "[data-act='next']").click()
    one = shown(driver)
    assert one["pos"] == f"Step 1 / {n}"
    assert one["text"] == plain(data["steps"][0]["t"][2])
    assert one["overlay"] and one["overlay"] != start["overlay"]
    key(driver, "ARROW_RIGHT")
    two = shown(driver)
    assert two["pos"] == f"Step 2 / {n}" and two["text"] == plain(data["steps"][1]["t"][2])
    assert two["digits"] != one["digits"]          # step 1 placed a digit
    assert two["placed"] == one["placed"] + len(data["steps"][0]["d"])
    key(driver, "ARROW_LEFT")
    assert shown(driver) == one
    # jump with the list to the longest chain: its arrows are drawn
    i = max(range(n), key=lambda j: data["steps"][j]["o"].get("links", "").count("<path"))
    css(driver, f".scsp-list button[data-i='{i + 1}']").click()
    chain = shown(driver)
    assert chain["pos"] == f"Step {i + 1} / {n}"
    assert chain["overlay"].count("marker-end") == data["steps"][i]["o"]["links"].count(
        "marker-end") > 5
    assert css(driver, ".scsp-list .scsp-cur").get_attribute("data-i") == str(i + 1)
    screenshot(driver, tmp_path / "hard-chain.png")
    key(driver, "END")
    end = shown(driver)
    assert end["pos"] == f"Solved ({n} steps)" and end["text"] == data["end"]
    assert end["cands"] == 0 and end["placed"] == 81
    assert css(driver, "[data-act='next']").get_attribute("disabled") is not None
    key(driver, "HOME")
    assert shown(driver)["pos"].startswith("Start")
    assert errors(driver) == []


def test_candidates_switch_and_hint_mode(driver, hard_page, shots):
    path, data = hard_page
    open_page(driver, path)
    i = next(j for j, st in enumerate(data["steps"]) if j > 10 and "houses" in st["o"]
             and st["r"])                               # a step with houses and eliminations
    css(driver, f".scsp-list button[data-i='{i + 1}']").click()
    step = data["steps"][i]
    full = shown(driver)
    css(driver, ".scsp-cands").click()                       # candidates off
    few = shown(driver)
    assert few["cands"] == len(step["k"]) < full["cands"]
    assert few["overlay"] == full["overlay"]
    css(driver, ".scsp-cands").click()
    assert shown(driver)["cands"] == full["cands"]
    css(driver, ".scsp-hint").click()                        # hint mode: nothing given away
    h0 = shown(driver)
    assert "Reveal more" in h0["text"] and h0["overlay"] == "" and h0["houses"] == ""
    assert css(driver, ".scsp-list .scsp-cur .scsp-nm").value_of_css_property(
        "visibility") == "hidden"
    reveal = css(driver, ".scsp-reveal")
    texts = []
    for level in range(3):
        reveal.click()
        texts.append(shown(driver))
        assert texts[-1]["text"].endswith(plain(step["t"][level]))
    assert texts[0]["houses"] == "" and texts[0]["overlay"] == ""
    assert 'class="house"' in texts[1]["houses"] and texts[1]["overlay"] == ""
    assert texts[2]["overlay"] != ""
    assert reveal.get_attribute("disabled") is not None
    screenshot(driver, shots / "hard-hint.png")
    key(driver, "ARROW_RIGHT")                               # the next step starts hidden
    assert "Reveal more" in shown(driver)["text"]
    css(driver, ".scsp-hint").click()
    assert errors(driver) == []


def test_stuck_page_says_where_it_stops(driver, tmp_path, shots):
    res = StepSolver("singles").solve(classic_puzzle(HARD))
    assert res.status == "stuck"
    path = tmp_path / "stuck.html"
    path.write_text(explain_html(res), encoding="utf-8")
    open_page(driver, path)
    key(driver, "END")
    end = shown(driver)
    assert end["pos"] == f"Stopped ({len(res.steps)} steps)"
    assert "stuck" in end["text"] and f"after {len(res.steps)} steps" in end["text"]
    assert "scsp-stop" in css(driver, ".scsp-text").get_attribute("class")
    assert "Stops here" in css(driver, ".scsp-list .scsp-stopitem").text
    assert end["cands"] > 0                          # the candidates where it stopped
    screenshot(driver, shots / "stuck.png")
    assert errors(driver) == []


def test_phone_layout_stacks_and_fits(hard_page, tmp_path):
    path, data = hard_page
    d = make_driver(390, 844, phone=True)
    try:
        open_page(d, path)
        css(d, "[data-act='next']").click()
        board = css(d, ".scsp-board").rect
        side = css(d, ".scsp-side").rect
        width = d.execute_script("return window.innerWidth")
        assert width == 390
        assert side["y"] >= board["y"] + board["height"] - 1       # controls under the picture
        assert board["width"] >= 0.9 * width                         # the picture fills the width
        assert d.execute_script("return document.documentElement.scrollWidth") <= width
        for b in ("prev", "next"):
            r = css(d, f"[data-act='{b}']").rect
            assert r["height"] >= 32 and r["x"] + r["width"] <= width
        assert shown(d)["pos"] == f"Step 1 / {len(data['steps'])}"
        screenshot(d, tmp_path / "hard-phone.png")
        assert errors(d) == []
    finally:
        d.quit()


def test_two_notebook_views_work_independently(driver, tmp_path):
    res = StepSolver().solve(classic_puzzle(HARD))
    a, b = res._repr_html_(), res._repr_html_()
    path = tmp_path / "nb.html"
    path.write_text(f"<!DOCTYPE html><html><body>{a}<p>text</p>{b}</body></html>",
                    encoding="utf-8")
    open_page(driver, path)
    views = driver.find_elements("css selector", ".scsp")
    assert len(views) == 2
    views[0].find_element("css selector", "[data-act='next']").click()
    pos = [v.find_element("css selector", ".scsp-pos").text for v in views]
    assert pos[0].startswith("Step 1 /") and pos[1].startswith("Start")
    views[1].click()                                 # keys act on the view with focus only
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    pos = [v.find_element("css selector", ".scsp-pos").text for v in views]
    assert pos[0].startswith("Step 1 /") and pos[1].startswith("Step 2 /")
    assert errors(driver) == []


# -- a page a phone can read, a desktop page that fits -------------------------------------
def _layout_puzzles() -> list[tuple[str, str]]:
    fp = {json.loads(line)["title"]: line.strip()
          for line in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")}
    sam = next(ln.split()[0] for ln in open(DATA / "samurai.txt") if not ln.startswith("#"))
    sixteen = next(ln.strip() for ln in open(DATA / "sixteen.txt") if not ln.startswith("#"))
    return [("classic", HARD), ("sixteen", sixteen), ("samurai", sam),
            ("setter", fp["Sistine Hippos"])]


@pytest.fixture(scope="module")
def layout_pages(tmp_path_factory) -> dict[str, Path]:
    from sudoku_csp.cli import main
    where = tmp_path_factory.mktemp("layout")
    pages = {}
    for name, arg in _layout_puzzles():
        if arg.startswith("{"):
            (where / f"{name}.json").write_text(arg, encoding="utf-8")
            arg = str(where / f"{name}.json")
        pages[name] = where / f"{name}.html"
        assert main(["explain", arg, "-o", str(pages[name]), "--time-limit", "120"]) == 0
    return pages


#: what the page shows of its picture: the smallest candidate's font size in screen pixels
#: (its font-size times the SVG's scale on the screen), the picture's box, the scrolling
MEASURE = """
    var r = document.querySelector('.scsp'), s = r.querySelector('.scsp-board svg');
    var px = Infinity, k = s.getScreenCTM().a;
    s.querySelectorAll('g.layer-digits text.cand').forEach(function (t) {
        px = Math.min(px, parseFloat(t.getAttribute('font-size')) * k); });
    var b = s.getBoundingClientRect();
    return {cand_px: px, left: b.left, top: b.top, right: b.right, bottom: b.bottom,
            width: b.width, scroll_h: document.documentElement.scrollHeight,
            scroll_w: document.documentElement.scrollWidth, inner_h: innerHeight,
            inner_w: innerWidth, y: scrollY, pos: r.querySelector('.scsp-pos').textContent,
            zoomed: r.classList.contains('scsp-zoomed')};"""


def measure(d) -> dict:
    return d.execute_script(MEASURE)


def click_board(d, dx: int = 0, dy: int = 0) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(d).move_to_element_with_offset(css(d, ".scsp-board svg"), dx, dy).click() \
        .perform()


def keys_step_without_scrolling(d) -> None:
    """Arrow keys change the step and leave the page where it was."""
    before = measure(d)
    key(d, "ARROW_RIGHT")
    key(d, "ARROW_RIGHT")
    after = measure(d)
    assert after["pos"] != before["pos"] and after["y"] == before["y"]
    key(d, "ARROW_LEFT")
    assert measure(d)["y"] == before["y"]


@pytest.mark.parametrize("name", [n for n, _ in _layout_puzzles()])
def test_desktop_page_fits_and_keys_do_not_scroll(name, layout_pages, driver):
    """1280x900: the whole page fits the window (no vertical scroll), the arrow keys step
    without moving it, also with the focus in the step list, and the enlarged view fits
    the window with its candidates at least 11 px."""
    open_page(driver, layout_pages[name])
    m = measure(driver)
    assert (m["inner_w"], m["inner_h"]) == (1280, 900)
    assert m["scroll_h"] <= m["inner_h"] and m["scroll_w"] <= m["inner_w"], m
    assert m["bottom"] <= m["inner_h"] and m["width"] >= 500
    keys_step_without_scrolling(driver)
    css(driver, ".scsp-list button[data-i='9']").click()        # the focus in the list
    keys_step_without_scrolling(driver)
    click_board(driver)
    big = measure(driver)
    assert big["zoomed"] and big["cand_px"] >= 11
    assert big["left"] >= -0.5 and big["top"] >= -0.5
    assert big["right"] <= big["inner_w"] + 0.5 and big["bottom"] <= big["inner_h"] + 0.5
    keys_step_without_scrolling(driver)
    click_board(driver)
    assert not measure(driver)["zoomed"]
    assert errors(driver) == []


@pytest.mark.parametrize("name", [n for n, _ in _layout_puzzles()])
def test_phone_page_reads(name, layout_pages):
    """390x844: the picture fills the width; a 9x9's candidates are at least 11 px; a
    16x16's or samurai's are when the box tapped on is enlarged (the enlarged part fits the
    window); the arrow keys step without scrolling."""
    d = make_driver(390, 844, phone=True)
    try:
        open_page(d, layout_pages[name])
        css(d, "[data-act='next']").click()
        m = measure(d)
        assert m["inner_w"] == 390 and m["width"] >= 389 and m["scroll_w"] <= 390
        if name in ("classic", "setter"):
            assert m["cand_px"] >= 11, m
        click_board(d)
        z = measure(d)
        assert z["zoomed"] and z["cand_px"] >= 11, z
        assert z["left"] >= -0.5 and z["right"] <= 390.5 and z["bottom"] <= z["inner_h"] + 0.5
        click_board(d)
        d.execute_script("window.scrollTo(0, 120)")
        keys_step_without_scrolling(d)
        assert measure(d)["y"] == 120
        assert errors(d) == []
    finally:
        d.quit()


def test_hint_level_one_names_and_shades_where(driver, hard_page):
    """A naked single's level-1 hint names the box it is in and shades it (it said only
    "Naked Single digit 7" and showed nothing)."""
    path, data = hard_page
    i = next(j for j, st in enumerate(data["steps"]) if plain(st["t"][0]) == "Naked Single")
    open_page(driver, path)
    css(driver, ".scsp-hint").click()
    css(driver, f".scsp-list button[data-i='{i + 1}']").click()
    reveal = css(driver, ".scsp-reveal")
    reveal.click()
    assert shown(driver)["houses"] == ""
    reveal.click()
    one = shown(driver)
    assert re.search(r"Naked Single digit \d in box \d$", one["text"]), one["text"]
    assert 'class="house"' in one["houses"] and one["overlay"] == ""
    css(driver, ".scsp-hint").click()
    assert errors(driver) == []


# -- acceptance: the five pages of the docs, desktop and phone --------------------------------
def _acceptance_puzzles() -> list[tuple[str, str]]:
    fp = {json.loads(line)["title"]: line.strip()
          for line in open(DATA / "fpuzzles_cc_by.jsonl", encoding="utf-8")}
    sam = next(ln.split()[0] for ln in open(DATA / "samurai.txt") if not ln.startswith("#"))
    sixteen = next(ln.strip() for ln in open(DATA / "sixteen.txt") if not ln.startswith("#"))
    return [("classic", HARD), ("killer", fp["October 10, 2023: Killer"]),
            ("samurai", sam), ("sixteen", sixteen), ("setter", fp["Sistine Hippos"])]


@pytest.mark.slow
@pytest.mark.parametrize("name, arg", _acceptance_puzzles(),
                         ids=[name for name, _ in _acceptance_puzzles()])
def test_acceptance_pages(name, arg, tmp_path, shots, driver):
    from sudoku_csp.cli import main
    page = tmp_path / f"{name}.html"
    arg_path = arg
    if arg.startswith("{"):
        arg_path = str(tmp_path / f"{name}.json")
        Path(arg_path).write_text(arg, encoding="utf-8")
    assert main(["explain", arg_path, "-o", str(page)]) == 0
    open_page(driver, page)
    data = json.loads(re.search(r"class='scsp-data'>(.*?)</script>", page.read_text(),
                                re.S).group(1))
    n = len(data["steps"])
    # a step from a third of the way in with a picture worth looking at
    def interest(j: int) -> tuple:
        o = data["steps"][j]["o"]
        return "links" in o, min(o.get("overlay", "").count('class="elim"'), 6), -j
    i = max(range(n // 3, n), key=interest)
    css(driver, f".scsp-list button[data-i='{i + 1}']").click()
    now = shown(driver)
    assert now["pos"] == f"Step {i + 1} / {n}" and now["overlay"]
    # the step's marks are in view (the picture fits the window)
    box = driver.execute_script(
        "return document.querySelector('g.layer-cand_bg').getBoundingClientRect().toJSON()")
    assert box["top"] >= 0 and box["bottom"] <= driver.execute_script("return innerHeight")
    screenshot(driver, shots / f"{name}-desktop.png")
    phone = make_driver(390, 844, phone=True)
    try:
        open_page(phone, page)
        css(phone, f".scsp-list button[data-i='{i + 1}']").click()
        phone.execute_script("window.scrollTo(0, 0)")
        screenshot(phone, shots / f"{name}-phone.png")
        if name in ("samurai", "sixteen"):        # tap-to-zoom on the step's marks
            box = phone.execute_script("var b = document.querySelector('g.layer-cand_bg')"
                                       ".getBoundingClientRect(), s = document.querySelector("
                                       "'.scsp-board svg').getBoundingClientRect(); return "
                                       "[b.left + b.width / 2 - s.left - s.width / 2, "
                                       "b.top + b.height / 2 - s.top - s.height / 2];")
            click_board(phone, int(box[0]), int(box[1]))
            assert measure(phone)["cand_px"] >= 11
            screenshot(phone, shots / f"{name}-phone-zoom.png")
        assert errors(phone) == []
    finally:
        phone.quit()
    assert errors(driver) == []
