"""The web site in a real browser: headless Chromium, driven by Selenium, against a real
`ocgkb serve` process (the `live_server` fixture) over the knowledge base built from
rulings_data/.

The Chinese site by default (the browser asks for zh-CN), the English one by its switch.
A person types a question or a misspelt card name into the box and submits it, follows
a citation to its section and a concept to its neighbours in the graph, and reads every
kind of page on a 390 px phone without scrolling sideways, every link and button big
enough for a finger. Screenshots of the answer, a card, a scenario and the English
answer at phone width go to $OCGKB_SCREENSHOTS (docs/screenshots/ holds
the committed ones), else to a temporary folder.

Needs Debian's `chromium` and `chromium-driver`; without them the tests skip, except
under CI=true, where they fail. Selenium Manager is never asked to download a driver:
the driver and the browser are given by path.
"""

from __future__ import annotations

import os
import shutil
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # reported by the `browser` fixture, under the skip/fail policy
    webdriver = None

QUESTION = "cost算不算卡片的效果"
FIRST_CLAUSE = "4.2.2/4"  # `ocgkb ask "cost算不算卡片的效果"` cites §4.2.2 cost first
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
DESKTOP = (1280, 900)
SCREENSHOT_MAX_HEIGHT = 2400  # CSS px
WAIT = 20  # seconds

CHROMIUM_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--lang=zh-CN",
]

# On a phone every page stays within the screen (no sideways scrolling) and every
# link and button is big enough to tap. The pages and an element each must show (so a
# 404 or 500 page is not measured instead).
PHONE_PAGES = {
    "home": ("/", "section.intro"),
    "answer": (f"/ask?q={quote(QUESTION)}", "article.passage"),
    "answer-with-scenarios": (f"/ask?q={quote('突进 黑羽 攻击力')}", "article.passage"),
    "card": (f"/card/{quote('maxx c')}", "section.card-box"),
    "unknown-card": (f"/card/{quote('qqq白龙')}", "ul.chips"),
    "section": ("/section/6.3.4.3", "article.passage"),
    "section-with-examples": ("/section/4.2.2", "article.passage"),
    "concept": ("/concept/cost", "figure.graph svg"),
    "passage": (f"/p/{FIRST_CLAUSE}", "article.passage"),
    "deep-passage": ("/p/4.3.3.6.1.1/2", "article.passage"),
    "scenario": ("/scenario/atk_rush_then_gale", "p.verdict"),
    "deck": ("/deck", "form.deck"),
    "read": ("/read", "form.read"),
}

# The links and controls smaller than arguments[0] CSS px either way, every <details>
# opened first so that what it folds is measured too (hidden elements have no size).
SMALL_TARGETS = """
const least = arguments[0];
document.querySelectorAll('details').forEach(d => { d.open = true; });
return Array.from(document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary'))
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && r.height > 0 && (r.width < least || r.height < least))
  .slice(0, 12)
  .map(([e, r]) => e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '') + ' ' + Math.round(r.width) + 'x'
       + Math.round(r.height) + ': ' + (e.textContent || '').trim().slice(0, 30));
"""
MIN_TARGET = 24  # CSS px, WCAG 2.5.8

# The elements that stick out past the right edge of a screen arguments[0] px wide, for
# the failure message.
OVERFLOWING = """
const width = arguments[0];
return Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getBoundingClientRect().right > width + 0.5)
  .slice(0, 8)
  .map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().replace(/\\s+/g, '.') : '')
            + ' right=' + Math.round(e.getBoundingClientRect().right) + ': ' + (e.textContent || '').trim().slice(0, 40));
"""


def missing(reason: str) -> None:
    """Skip, or fail when CI=true: a CI runner that cannot run the browser tests is broken."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def wait(driver: WebDriver) -> WebDriverWait:
    return WebDriverWait(driver, WAIT)


def path_of(url: str) -> str:
    """The decoded path of a URL (Chromium percent-encodes CJK in hrefs)."""
    return unquote(urlsplit(url).path)


def open_page(driver: WebDriver, url: str, ready: str) -> None:
    driver.get(url)
    wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, ready)))


def ask_in_box(driver: WebDriver, base: str, text: str, button: bool = False) -> None:
    """Type TEXT into the search box of the home page, press Enter (or click the
    button) and wait for the answer page."""
    driver.get(base + "/")
    box = wait(driver).until(EC.element_to_be_clickable((By.CSS_SELECTOR, "form.box input[name=q]")))
    box.clear()
    if button:
        box.send_keys(text)
        driver.find_element(By.CSS_SELECTOR, "form.box button[type=submit]").click()
    else:
        box.send_keys(text, Keys.ENTER)
    wait(driver).until(EC.url_contains("/ask?"))
    wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, "h1.query")))
    assert driver.find_element(By.CSS_SELECTOR, "h1.query").text == text


def click_and_follow(driver: WebDriver, link: WebElement, target: WebElement | None = None) -> str:
    """Click TARGET (default: LINK itself), wait for the browser to load LINK's href;
    returns that href's decoded path."""
    href = link.get_dom_attribute("href")  # as written: an SVG <a> has no string .href property
    assert href, link.get_attribute("outerHTML")
    (target or link).click()
    wait(driver).until(EC.staleness_of(link))
    wait(driver).until(lambda d: path_of(d.current_url) == path_of(href))
    wait(driver).until(EC.presence_of_element_located((By.CSS_SELECTOR, "main h1, main .card-box")))
    return path_of(href)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR", f"{path} has no IHDR chunk"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="session")
def browser(tmp_path_factory) -> Iterator[WebDriver]:
    """One headless Chromium for all the tests, quit at the end. Session-scoped so that
    pytest sets it up before `live_server` (and the knowledge base build) and a missing
    browser skips at once."""
    if webdriver is None:
        missing("selenium is not installed: pip install '.[test]'")
    chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not chromedriver:
        missing("chromium and chromium-driver are not installed: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    # What the browser sends as Accept-Language (headless Chromium takes it from here, not --lang).
    options.add_experimental_option("prefs", {"intl.accept_languages": "zh-CN,zh"})
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        driver.set_window_size(*DESKTOP)
        driver.set_page_load_timeout(60)
        yield driver
    finally:
        driver.quit()


@contextmanager
def phone_width(driver: WebDriver) -> Iterator[None]:
    """Emulate a 390 × 844 CSS px phone screen (devicePixelRatio 2, a mobile viewport
    that honours <meta name=viewport>) until the block ends."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def screenshot(driver: WebDriver, path: Path) -> int:
    """Save the page at phone width, as tall as its content up to SCREENSHOT_MAX_HEIGHT
    (the window is made that tall); returns the height in CSS px."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)  # not as tall as the last page
    height = min(driver.execute_script("return document.documentElement.scrollHeight"), SCREENSHOT_MAX_HEIGHT)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**PHONE, "height": height})
    driver.execute_script("window.scrollTo(0, 0)")
    path.unlink(missing_ok=True)
    assert driver.get_screenshot_as_file(str(path)), path
    return height


# ---------------------------------------------------------------------------------------


def test_asking_in_the_box_cites_the_clause_first_with_the_words_marked(browser, live_server):
    ask_in_box(browser, live_server, QUESTION, button=True)
    assert path_of(browser.current_url) == "/ask"
    first = browser.find_element(By.CSS_SELECTOR, "article.passage")
    assert first.find_element(By.CSS_SELECTOR, ".cite").text.startswith("§4.2.2")
    permalink = first.find_element(By.CSS_SELECTOR, "a.pid")
    assert permalink.text == FIRST_CLAUSE
    assert path_of(permalink.get_attribute("href")) == f"/p/{FIRST_CLAUSE}"
    assert "cost不视为卡片效果" in first.find_element(By.CSS_SELECTOR, ".text").text
    marked = [m.text for m in first.find_elements(By.CSS_SELECTOR, ".text mark")]
    assert "cost" in marked, marked
    # The box keeps the question for a second try.
    assert browser.find_element(By.CSS_SELECTOR, "form.box input[name=q]").get_attribute("value") == QUESTION


@pytest.mark.parametrize(
    ("typed", "card", "how"),
    [
        pytest.param("増殖的G", "增殖的G", "a typo (Japanese 増)", id="typo-kanji"),
        pytest.param("增值G", "增殖的G", "a typo", id="typo-homophone"),
        pytest.param("qybl", "青眼白龙", "pinyin initials", id="pinyin-initials"),
        pytest.param("qing yan bai long", "青眼白龙", "pinyin", id="pinyin"),
    ],
)
def test_the_box_finds_a_card_by_a_typo_or_pinyin(browser, live_server, typed, card, how):
    ask_in_box(browser, live_server, typed)
    box = browser.find_element(By.CSS_SELECTOR, "section.card-box")
    assert box.find_element(By.CSS_SELECTOR, "h2 a").text == f"「{card}」", how
    # The card comes before any passage (find_elements returns document order).
    first = browser.find_elements(By.CSS_SELECTOR, "section.card-box, article.passage")[0]
    assert first.tag_name == "section" and "card-box" in first.get_attribute("class")


@pytest.mark.parametrize(
    ("typed", "card", "english", "guessed"),
    [
        pytest.param("増殖的G", "增殖的G", 'Maxx "C"', True, id="typo"),
        pytest.param("qybl", "青眼白龙", "Blue-Eyes White Dragon", False, id="pinyin-initials"),
    ],
)
def test_a_card_page_by_a_typo_shows_the_card_and_its_english_name(
    browser, live_server, typed, card, english, guessed
):
    open_page(browser, f"{live_server}/card/{quote(typed)}", "section.card-box")
    box = browser.find_element(By.CSS_SELECTOR, "section.card-box")
    assert box.find_element(By.CSS_SELECTOR, "h2").text == f"「{card}」"
    names = box.find_element(By.CSS_SELECTOR, "dl.names").text
    assert "英文" in names and english in names, names
    # How the name was read is said for a guess only.
    hows = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "p.how")]
    assert (len(hows) == 1 and typed in hows[0]) if guessed else hows == [], hows
    assert browser.find_elements(By.CSS_SELECTOR, "article.passage"), "no passage mentions the card"


def test_a_citation_leads_to_its_section(browser, live_server):
    ask_in_box(browser, live_server, QUESTION)
    cite = browser.find_element(By.CSS_SELECTOR, "article.passage .cite a")
    assert click_and_follow(browser, cite) == "/section/4.2.2"
    assert "4.2.2" in browser.find_element(By.CSS_SELECTOR, "main h1").text
    assert browser.find_elements(By.ID, f"p-{FIRST_CLAUSE}"), "the section does not list the cited clause"
    ids = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "article.passage a.pid")]
    assert FIRST_CLAUSE in ids, ids


@pytest.mark.parametrize("kind", ["concept", "section"])
def test_a_node_of_the_concept_graph_leads_to_its_page(browser, live_server, kind):
    open_page(browser, f"{live_server}/concept/cost", "figure.graph svg")
    nodes = browser.find_elements(By.CSS_SELECTOR, f"figure.graph svg a.node.{kind}")
    assert nodes, f"the graph of cost draws no {kind}"
    label = nodes[0].find_element(By.CSS_SELECTOR, "text")
    shown = label.text.rstrip("…")
    # A real click on the node's label. (The middle of the node's box falls between its
    # dot and its label, on the edge line, so clicking the <a> itself hits the line.)
    path = click_and_follow(browser, nodes[0], target=label)
    assert path.startswith(f"/{kind}/") and path != "/concept/cost", path
    heading = browser.find_element(By.CSS_SELECTOR, "main h1").text
    if kind == "section":
        assert path.removeprefix("/section/") in heading, (path, heading)
    else:
        assert browser.find_elements(By.CSS_SELECTOR, "figure.graph svg"), "not a concept page"
    assert shown and shown in heading, (shown, heading)


def test_a_related_concept_leads_to_its_page(browser, live_server):
    open_page(browser, f"{live_server}/concept/cost", "ul.related")
    link = browser.find_element(By.CSS_SELECTOR, "ul.related li a")
    name = link.text.removesuffix(link.find_element(By.CSS_SELECTOR, "small").text).strip()
    path = click_and_follow(browser, link)
    assert path.startswith("/concept/") and path != "/concept/cost", path
    assert name and name in browser.find_element(By.CSS_SELECTOR, "main h1").text


@pytest.mark.parametrize("page", list(PHONE_PAGES))
def test_no_page_scrolls_sideways_and_every_target_is_big_enough_to_tap_on_a_phone(
    browser, live_server, page
):
    url, ready = PHONE_PAGES[page]
    screen = PHONE["width"]
    with phone_width(browser):
        open_page(browser, live_server + url, ready)
        # Measured against the screen, not window.innerWidth: a mobile browser widens the
        # layout viewport (and innerWidth with it) to take in content that sticks out.
        seen, scroll = browser.execute_script(
            "return [window.visualViewport.width, document.documentElement.scrollWidth]"
        )
        assert seen == screen, f"the screen is {seen} px wide, not a phone's"
        overflowing = browser.execute_script(OVERFLOWING, screen) if scroll > screen else []
        assert scroll <= screen, f"{page} is {scroll} px wide on a {screen} px phone: {overflowing}"
        assert browser.execute_script("return window.innerWidth") == screen
        small = browser.execute_script(SMALL_TARGETS, MIN_TARGET)  # opens every <details>: last
    assert small == [], f"{page}: targets under {MIN_TARGET} px at {PHONE['width']} px: {small}"


def test_phone_screenshots_of_an_answer_and_a_card(browser, live_server, tmp_path):
    folder = Path(os.environ.get("OCGKB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    shots = {
        "answer.png": (f"/ask?q={quote(QUESTION)}", "article.passage"),
        "card.png": (f"/card/{quote('maxx c')}", "section.card-box"),
        "scenario.png": ("/scenario/atk_rush_then_gale", "p.verdict"),
        "answer-en.png": (f"/ask?q={quote(QUESTION)}&lang=en", "article.passage"),
    }
    with phone_width(browser):
        for name, (page, ready) in shots.items():
            open_page(browser, live_server + page, ready)
            ratio = browser.execute_script("return window.devicePixelRatio")
            height = screenshot(browser, folder / name)
            assert png_size(folder / name) == (PHONE["width"] * ratio, height * ratio), name
            assert (folder / name).stat().st_size < 600_000, f"{name} is too big for the docs"
    browser.delete_all_cookies()  # the English shot chose English: the next test starts without


def first_screen_shows(driver: WebDriver, element: WebElement, lines: int = 2) -> bool:
    """Whether `element` starts on the first screen, with room for its first `lines`
    lines of text under it (the page as loaded, not scrolled)."""
    top = driver.execute_script("return arguments[0].getBoundingClientRect().top + window.scrollY", element)
    line = driver.execute_script(
        "return parseFloat(getComputedStyle(arguments[0]).lineHeight) || 24", element
    )
    return top + lines * line <= PHONE["height"]


def test_a_deck_pasted_on_a_phone_is_checked_and_its_verdict_is_the_first_screen(browser, live_server):
    from test_deck import POT_OF_GREED, forty, ydk

    with phone_width(browser):
        open_page(browser, live_server + "/deck", "form.deck")
        box = browser.find_element(By.ID, "ydk")
        # Set, not typed: forty lines typed key by key take seconds for nothing.
        browser.execute_script("arguments[0].value = arguments[1]", box, ydk(forty(POT_OF_GREED)))
        browser.find_element(By.CSS_SELECTOR, "form.deck button").click()
        verdict = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "section.verdict"))
        assert "不合规" in verdict.text and "强欲之壶" in verdict.text
        assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
        # The verdict, not the deck just pasted, is what the player sees; its problem cites a passage.
        assert first_screen_shows(browser, verdict.find_element(By.TAG_NAME, "h2"))
        assert verdict.find_element(By.CSS_SELECTOR, ".problems a[href^='/p/']")


# Written for the test, in the style of a real card: a cost, a target and a 'when' trigger.
CARD_TEXT = (
    "这个卡名的①的效果1回合只能使用1次。①：把手卡1只怪兽送去墓地，以对方场上1张卡为对象才能发动。"
    "那张卡破坏。②：这张卡被战斗破坏送去墓地时才能发动。从自己卡组把1只4星以下的怪兽加入手卡。"
)


def test_a_card_text_read_on_a_phone_fits_and_links_its_rules(browser, live_server, tmp_path):
    folder = Path(os.environ.get("OCGKB_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    with phone_width(browser):
        open_page(browser, live_server + "/read", "form.read")
        box = browser.find_element(By.ID, "text")
        browser.execute_script("arguments[0].value = arguments[1]", box, CARD_TEXT)
        browser.find_element(By.CSS_SELECTOR, "form.read button").click()
        reading = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "section.reading"))
        parts = reading.find_elements(By.CSS_SELECTOR, ".effect-text .part")
        roles = {c.removeprefix("part-") for p in parts for c in p.get_attribute("class").split()}
        assert {"cost", "target", "condition"} <= roles, roles
        assert browser.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
        assert first_screen_shows(browser, browser.find_element(By.ID, "reading"), lines=4)
        screenshot(browser, folder / "read.png")
        # A conclusion's citation opens the passage it cites (a passage page has no <h1>).
        link = reading.find_element(By.CSS_SELECTOR, "a.read-cite")
        href = path_of(link.get_dom_attribute("href"))
        link.click()
        wait(browser).until(lambda d: path_of(d.current_url) == href)
        pid = href.removeprefix("/p/")
        assert wait(browser).until(EC.presence_of_element_located((By.ID, f"p-{pid}")))


def test_the_language_switch_turns_the_site_english_and_the_choice_sticks(browser, live_server):
    browser.delete_all_cookies()
    try:
        open_page(browser, f"{live_server}/section/4.2.2", "article.passage")
        html = browser.find_element(By.TAG_NAME, "html")
        assert html.get_attribute("lang") == "zh-Hans"  # the browser asks for zh-CN
        box = browser.find_element(By.CSS_SELECTOR, "form.box input[name=q]")
        assert box.get_attribute("aria-label") == "规则问题或卡名"
        switch = browser.find_element(By.CSS_SELECTOR, "a.lang-switch")
        assert switch.text == "English"
        switch.click()
        wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")
        assert path_of(browser.current_url) == "/section/4.2.2"
        assert browser.find_element(By.CSS_SELECTOR, "form.box input[name=q]").get_attribute(
            "aria-label"
        ) == ("A rules question or a card name")
        # Another page, reached by a link with no ?lang, stays English: the cookie holds the choice.
        open_page(browser, f"{live_server}/concept/cost", "figure.graph svg")
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
        assert browser.find_element(By.CSS_SELECTOR, "a.lang-switch").text == "中文"
        browser.find_element(By.CSS_SELECTOR, "a.lang-switch").click()
        wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hans")
    finally:
        browser.delete_all_cookies()


def test_scenario_links_are_one_line_each_and_look_like_links(browser, live_server):
    with phone_width(browser):
        open_page(browser, f"{live_server}/p/4.3.3.6.1.1/2", "ul.scenario-links")
        links = browser.find_elements(By.CSS_SELECTOR, "ul.scenario-links a")
        assert links
        for link in links:
            height, line = browser.execute_script(
                "const s = getComputedStyle(arguments[0]); return [arguments[0].getBoundingClientRect().height,"
                " parseFloat(s.lineHeight)]",
                link,
            )
            assert height <= line + 1, (link.text, height, line)  # one line, however long the title
            assert "underline" in link.value_of_css_property("text-decoration-line")
            assert "▶" not in link.text
