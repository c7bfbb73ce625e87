"""`ocgkb serve` over HTTP: every page and API route, the API's JSON against the
CLI's `--json` for the same input, what the answer, card, section, concept,
passage and scenario pages show, escaping, path traversal, bad parameters, the
read-only methods, the OpenAPI description, random input (hypothesis), and the
`serve` command itself (lazy imports, the missing extra, a busy port, Ctrl-C).

Most tests go through `web_client` (the app in process); those about sockets,
raw paths and the command go through a real `ocgkb serve` process."""

from __future__ import annotations

import html
import http.client
import importlib.util
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import quote, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ocgkb.store.schema import MAX_QUERY as MOST

from conftest import DATA, KB, free_port

HTML = "text/html; charset=utf-8"
JSON = "application/json"
API_PATHS = [
    "/api/search",
    "/api/ask",
    "/api/card",
    "/api/section/{number}",
    "/api/concept/{name}",
    "/api/p/{pid}",
    "/api/scenario/{name}",
    "/api/changes",
]
# The site's only POSTs: a deck is checked, a card text read, each stored nowhere.
POST_PATHS = ["/api/deck/check", "/api/read"]
COST_QUESTION = "cost算不算卡片的效果"


# --- helpers ---------------------------------------------------------------------------------


def main_of(page: str) -> str:
    """The page's <main>: what the header's search box echoes does not count."""
    return page[page.index("<main>") : page.index("</main>")]


def passage_ids(page: str) -> list[str]:
    """The ids of the passages a page shows, in order."""
    return [html.unescape(p) for p in re.findall(r'<article class="passage[^"]*" id="p-([^"]+)"', page)]


def ranked_ids(page: str) -> list[str]:
    """The ids of the passages an answer page ranks (1, 2, 3…), in order."""
    found = re.findall(
        r'<article class="passage[^"]*" id="p-([^"]+)">\s*<div class="meta">\s*<span class="rank">', page
    )
    return [html.unescape(p) for p in found]


def internal_links(page: str) -> list[str]:
    """The site's own links on a page (not its style sheet and icon), each once."""
    hrefs = (html.unescape(h) for h in re.findall(r'href="([^"]+)"', page))
    return list(dict.fromkeys(h for h in hrefs if h.startswith("/") and not h.startswith("/static/")))


def assert_secure_headers(response) -> None:
    csp = response.headers["content-security-policy"]
    assert "script-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert response.headers["x-content-type-options"] == "nosniff"


def assert_api_error(response, status: int, says: str | None = None) -> dict:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == JSON
    body = response.json()
    assert isinstance(body["error"], str) and body["error"]
    if says is not None:
        assert says in body["error"]
    return body


def assert_error_page(response, status: int, says: str | None = None) -> str:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == HTML
    main = main_of(response.text)
    assert f"<h1>{status}" in main
    if says is not None:
        assert says in html.unescape(main)
    return main


def raw_get(base: str, path: str) -> tuple[int, bytes]:
    """GET a path exactly as written (no client-side `..` folding), from a real server."""
    address = urlsplit(base)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def ocgkb_command(kb_path, *args: str) -> list[str]:
    """`python -m ocgkb` over the session's knowledge base and sources."""
    paths = ["--db", str(kb_path), "--data-dir", str(DATA), "--kb-dir", str(KB)]
    return [sys.executable, "-m", "ocgkb", *paths, *args]


# --- 1. every route answers, with its content type and the security headers --------------------

PAGES = [
    "/",
    "/ask?q=" + quote(COST_QUESTION),
    "/ask?q=qybl",
    "/card/qybl",
    "/card/maxx%20c",
    "/card/" + quote("青眼白尨"),
    "/section/4.2.2",
    "/section/4",
    "/section/rulings/cost",
    "/concept/cost",
    "/concept/" + quote("卡时点"),
    "/p/4.2.2/4",
    "/p/rulings/cost/1",
    "/scenario/atk_rush_then_gale",
    "/deck",
    "/read",
]
API = [
    "/api/search?q=cost&limit=3",
    "/api/search?q=" + quote("卡时点") + "&kind=ruling",
    "/api/ask?q=" + quote(COST_QUESTION),
    "/api/card?q=qybl",
    "/api/section/4.2.2",
    "/api/section/rulings/cost",
    "/api/concept/cost",
    "/api/concept/" + quote("卡时点"),
    "/openapi.json",
]


@pytest.mark.parametrize("path", PAGES)
def test_page_routes_answer_html(web_client, path):
    response = web_client.get(path)
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"] == HTML
    assert response.text.startswith("<!doctype html>") and "</html>" in response.text
    assert "<script" not in response.text  # the site has no scripts: its CSP forbids them
    assert_secure_headers(response)


@pytest.mark.parametrize("path", API)
def test_api_routes_answer_json(web_client, path):
    response = web_client.get(path)
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"] == JSON
    assert isinstance(response.json(), dict) and "error" not in response.json()
    assert_secure_headers(response)


def test_static_style_sheet(web_client):
    response = web_client.get("/static/style.css")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert_secure_headers(response)


@pytest.mark.parametrize(
    "path",
    [
        "/section/99",
        "/card/zzzzqqq",
        "/ask",
        "/api/ask",
        "/api/section/99",
        "/nowhere",
        "/static/nothing.css",
    ],
)
def test_errors_carry_the_security_headers_too(web_client, path):
    response = web_client.get(path)
    assert response.status_code in (400, 404)
    assert_secure_headers(response)


def test_head_is_allowed_and_has_no_body(web_client):
    response = web_client.head("/api/card?q=qybl")
    assert response.status_code == 200
    assert response.headers["content-type"] == JSON
    assert response.content == b""


def test_json_is_utf8_with_the_characters_as_they_are(web_client):
    response = web_client.get("/api/card", params={"q": "qybl"})
    assert "青眼白龙".encode() in response.content
    assert b"\\u" not in response.content


# --- 2. the API answers exactly what the CLI prints with --json --------------------------------

CONTRACTS = [
    ("/api/search", {"q": COST_QUESTION, "limit": 3}, ["search", COST_QUESTION, "--limit", "3"]),
    (
        "/api/search",
        {"q": "can I activate in the damage step", "limit": 3},
        ["search", "can I activate in the damage step", "--limit", "3"],
    ),
    ("/api/search", {"q": "卡时点", "limit": 3}, ["search", "卡时点", "--limit", "3"]),
    ("/api/ask", {"q": COST_QUESTION}, ["ask", COST_QUESTION]),
    ("/api/ask", {"q": "does a cost count as an effect"}, ["ask", "does a cost count as an effect"]),
    ("/api/ask", {"q": "伤害步骤能发动什么卡"}, ["ask", "伤害步骤能发动什么卡"]),
    ("/api/card", {"q": "maxx c"}, ["card", "maxx c"]),
    ("/api/card", {"q": "qybl"}, ["card", "qybl"]),
    ("/api/card", {"q": "青眼白尨"}, ["card", "青眼白尨"]),
    ("/api/card", {"q": "Blue-Eyes White Dragon"}, ["card", "Blue-Eyes White Dragon"]),
    ("/api/section/4.2.2", {}, ["section", "4.2.2"]),
    ("/api/section/rulings/cost", {}, ["section", "rulings/cost"]),
    ("/api/concept/cost", {}, ["concept", "cost"]),
    ("/api/concept/卡时点", {}, ["concept", "卡时点"]),
]


@pytest.mark.parametrize(("path", "params", "args"), CONTRACTS, ids=[" ".join(c[2]) for c in CONTRACTS])
def test_api_equals_cli_json(web_client, cli_json, path, params, args):
    response = web_client.get(path, params=params)
    assert response.status_code == 200, response.text[:300]
    view = response.json()
    assert view == cli_json(*args)
    assert any(view.get(key) for key in ("hits", "matches", "passages", "definitions"))  # not [] == []


FILTERS = [
    ({"q": "卡时点", "kind": "ruling", "limit": 3}, ["search", "卡时点", "--kind", "ruling", "--limit", "3"]),
    ({"q": "卷回", "section": "6.3"}, ["search", "卷回", "--section", "6.3"]),
    (
        {"q": "对象", "kind": "ruling", "since": "2023-01-01"},
        ["search", "对象", "--kind", "ruling", "--since", "2023-01-01"],
    ),
    ({"q": "发动", "card": "增殖的G", "limit": 3}, ["search", "发动", "--card", "增殖的G", "--limit", "3"]),
]


@pytest.mark.parametrize(("params", "args"), FILTERS, ids=[" ".join(f[1][2:]) for f in FILTERS])
def test_api_search_filters_equal_cli_options(web_client, cli_json, params, args):
    view = web_client.get("/api/search", params=params).json()
    assert view == cli_json(*args)
    assert view["hits"]
    if "kind" in params:  # a ruling is a ruling paragraph or any dated line
        assert all(hit["kind"] == params["kind"] or hit["dates"] for hit in view["hits"])
    if "section" in params:
        assert all(hit["section"].startswith(params["section"] + ".") for hit in view["hits"])


def test_ask_filter_equals_cli_option(web_client, cli_json):
    view = web_client.get("/api/ask", params={"q": "卡时点", "kind": "ruling"}).json()
    assert view == cli_json("ask", "卡时点", "--kind", "ruling")


def test_api_unknown_card_is_404_with_the_cli_fields(web_client, cli):
    response = web_client.get("/api/card", params={"q": "qqq白龙"})
    body = assert_api_error(response, 404, "no card is called anything like")
    printed = json.loads(cli("card", "qqq白龙", "--json", expect=1).stdout)
    assert {k: v for k, v in body.items() if k != "error"} == printed
    assert body["matches"] == [] and body["suggestions"] == ["白角龙", "青眼亚白龙"]


# --- 3. the answer page ------------------------------------------------------------------------


def test_answer_page_cites_the_settling_clause_first(web_client):
    main = main_of(web_client.get("/ask", params={"q": COST_QUESTION}).text)
    ids = passage_ids(main)
    assert ids[0] == "4.2.2/4"
    first, second = (main.index(f'id="p-{pid}"') for pid in ids[:2])
    assert first < main.index("§4.2.2") < second
    assert "●<mark>cost</mark>不<mark>视为</mark><mark>卡片</mark><mark>效果</mark>。" in main[first:second]


@pytest.mark.parametrize(
    "question", [COST_QUESTION, "伤害步骤能发动什么卡", "does a cost count as an effect"]
)
def test_answer_page_ranks_as_the_api(web_client, question):
    page = web_client.get("/ask", params={"q": question}).text
    api = [hit["id"] for hit in web_client.get("/api/ask", params={"q": question}).json()["hits"]]
    assert api and ranked_ids(page) == api


@pytest.mark.parametrize(
    ("question", "card"), [("增殖的G能在伤害步骤发动吗", "增殖的G"), ("黑洞能破坏里侧的怪兽吗", "黑洞")]
)
def test_answer_page_shows_the_named_card_before_the_passages(web_client, question, card):
    main = main_of(web_client.get("/ask", params={"q": question}).text)
    box = main.index('class="card-box"')
    assert box < main.index('<article class="passage')
    assert f"「{card}」</a></h2>" in main[box:]


def test_answer_page_for_initials_shows_the_card(web_client):
    main = main_of(web_client.get("/ask", params={"q": "qybl"}).text)
    box = main[main.index('class="card-box"') :]
    assert "「青眼白龙」" in box and "Blue-Eyes White Dragon" in box and "89631139" in box


# --- 4. the card page --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "card", "english", "password", "guess"),
    [
        ("qybl", "青眼白龙", "Blue-Eyes White Dragon", "89631139", None),
        ("qing yan bai long", "青眼白龙", "Blue-Eyes White Dragon", "89631139", None),
        ("青眼白尨", "青眼白龙", "Blue-Eyes White Dragon", "89631139", "错字"),
        ("maxx c", "增殖的G", "Maxx &#34;C&#34;", "23434538", None),
        ("电器尾龙", "电气尾龙", "Wattaildragon", "87151205", "错字"),
    ],
)
def test_card_page_by_any_name(web_client, name, card, english, password, guess):
    """How a name was read is said only when it was a guess (a typo); the Chinese page
    labels the names in Chinese."""
    response = web_client.get("/card/" + quote(name))
    assert response.status_code == 200
    main = main_of(response.text)
    assert f"<title>{card} · ocgkb</title>" in response.text
    assert f"「{card}」</a></h2>" in main
    assert f"<dt>英文</dt><dd>{english}</dd>" in main
    assert f"<dt>密码</dt><dd>{password}</dd>" in main
    if guess:
        assert f"“{html.escape(name)}” 被认作此卡（{guess}）" in main
    else:
        assert "被认作此卡" not in main


def test_card_page_lists_its_passages(web_client):
    main = main_of(web_client.get("/card/maxx%20c").text)
    assert passage_ids(main) == ["rulings/cost/31", "rulings/文本的阅读方法/5", "rulings/cost/14"]
    assert "<mark>增殖的G</mark>" in main


def test_unknown_card_page_suggests_cards_as_links(web_client):
    main = assert_error_page(web_client.get("/card/" + quote("qqq白龙")), 404)
    assert "没有名为“qqq白龙”的卡" in html.unescape(main) and "你要找的是不是" in main
    links = [h for h in internal_links(main) if h.startswith("/card/")]
    assert links == ["/card/" + quote("白角龙"), "/card/" + quote("青眼亚白龙")]
    for link in links:
        assert web_client.get(link).status_code == 200


def test_unknown_card_page_without_suggestions_offers_to_ask(web_client):
    main = assert_error_page(web_client.get("/card/zzzzqqq"), 404)
    assert "你要找的是不是" not in main
    assert '<a href="/ask?q=zzzzqqq">把它当作问题来问</a>' in main


# --- 5. section, concept, passage and scenario pages --------------------------------------------


def test_section_page_has_breadcrumb_and_sub_sections(web_client):
    main = main_of(web_client.get("/section/4.2.2").text)
    crumbs = main[main.index('<nav class="crumbs">') : main.index("</nav>")]
    assert (
        '<a href="/section/4.2">4.2 卡片•效果的发动</a> › <a href="/section/4.2.2">4.2.2 cost</a>' in crumbs
    )
    assert "<h1>§4.2.2 cost</h1>" in main
    tree = main[main.index('<section class="tree">') :]
    for number, title in [
        ("4.2.2.1", "解放作为cost"),
        ("4.2.2.2", "从手卡丢弃作为cost"),
        ("4.2.2.3", "送去墓地作为cost"),
    ]:
        assert f'<a href="/section/{number}"><b>{number}</b> {title}</a>' in tree
    assert passage_ids(main)[:1] == ["4.2.2/1"]


def test_ruling_topic_page(web_client):
    main = main_of(web_client.get("/section/rulings/cost").text)
    assert '<a href="/section/rulings/%E5%9F%BA%E6%9C%AC%E7%94%A8%E8%AF%AD">基本用语</a>' in main
    assert "rulings/cost/1" in passage_ids(main)


def test_unknown_section_is_404(web_client):
    assert_error_page(web_client.get("/section/99"), 404, "no section '99'")
    assert_api_error(web_client.get("/api/section/99"), 404, "no section '99'")
    assert_api_error(web_client.get("/api/section/4.99"), 404, "sections near it: 4.2")


@pytest.mark.parametrize("name", ["cost", "卡时点"])
def test_concept_page_draws_its_neighbours_as_links(web_client, name):
    main = main_of(web_client.get("/concept/" + quote(name)).text)
    svg = main[main.index("<svg") : main.index("</svg>")]
    neighbours = re.findall(r'<a class="node concept" href="(/concept/[^"]+)"', svg)
    assert len(neighbours) >= 5
    for link in neighbours:
        assert web_client.get(link).status_code == 200, link


def test_concept_graph_of_cost_links_its_defining_section(web_client):
    svg = web_client.get("/concept/cost").text
    assert '<a class="node section" href="/section/4.2.2">' in svg
    assert '<a class="node concept" href="/concept/pay_lp">' in svg


def test_unknown_concept_is_404(web_client):
    assert_error_page(web_client.get("/concept/nope"), 404, "no concept called 'nope'")
    assert_api_error(web_client.get("/api/concept/nope"), 404, "no concept called 'nope'")


@pytest.mark.parametrize(
    ("pid", "text"),
    [("4.2.2/4", "●cost不视为卡片效果。"), ("rulings/cost/1", "基本上，cost是效果发动时需要支付的代价。")],
)
def test_passage_permalink(web_client, pid, text):
    main = main_of(web_client.get("/p/" + pid).text)
    assert passage_ids(main)[0] == pid
    assert f'<p class="text">{text}' in main  # a ruling may go on for more lines
    assert f"条文 {pid}</nav>" in main


def test_passage_permalink_cites_its_section(web_client):
    main = main_of(web_client.get("/p/4.2.2/4").text)
    assert '<a href="/section/4.2.2">§4.2.2 cost</a>' in main
    assert_error_page(web_client.get("/p/4.2.2/999"), 404, "no passage '4.2.2/999'")


def test_passage_permalink_shows_its_examples_and_scenarios(web_client):
    main = main_of(web_client.get("/p/4.3.3.6.1.1/2").text)
    assert passage_ids(main) == ["4.3.3.6.1.1/2", "4.3.3.6.1.1/2/ex1"]
    below = main[main.index("<h2>例与细项") :]
    assert "例：因「突进」的效果攻击力上升至3200的「电气尾龙」" in below
    assert (
        '<a href="/scenario/atk_rush_then_gale" title="突进 then 黑羽-疾风之盖尔 on 电气尾龙 gives 1600">'
        in below
    )


def test_scenario_page_replays_step_by_step(web_client):
    main = main_of(web_client.get("/scenario/atk_rush_then_gale").text)
    assert '<p class="verdict pass">通过：重演结果与条文所述一致</p>' in main
    log = main[main.index('<div class="log">') :]
    steps = re.findall(r"<div>(.*?)</div>", log[: log.index("<h2>")])
    assert len(steps) == 10
    assert steps[0].strip() == "1. 「突进」 is placed on the field face-up"
    assert (
        steps[-1].strip()
        == "10.    「电气尾龙」 ATK 3200 → 1600: becomes 1600 (activated) by 「黑羽-疾风之盖尔」"
    )
    assert '<a href="/p/4.3.3.6.1.1/2">4.3.3.6.1.1/2</a>' in main
    assert "<td>1600 / 1000</td>" in main


def test_every_scenario_on_the_home_page_replays(web_client):
    names = re.findall(r'href="/scenario/([^"]+)"', web_client.get("/").text)
    assert len(names) >= 50
    for name in names:
        response = web_client.get("/scenario/" + name)
        assert response.status_code == 200, name
        assert '<p class="verdict pass">' in response.text, name


@pytest.mark.parametrize(
    ("name", "invented"),
    [("legal_second_normal_summon_refused", "凯尔特守卫"), ("lp_draw_from_empty_deck_loses", "占位怪兽")],
)
def test_scenario_card_links_lead_somewhere(web_client, name, invented):
    """Cards of the texts are links; a card only the scenario has is plain text."""
    page = web_client.get("/scenario/" + name).text
    links = [h for h in internal_links(page) if h.startswith("/card/")]
    assert [link for link in links if web_client.get(link).status_code != 200] == []
    assert invented in page and "/card/" + quote(invented) not in page


def test_unknown_scenario_is_404(web_client):
    assert_error_page(web_client.get("/scenario/nope"), 404, "no scenario 'nope'")


@pytest.mark.parametrize(
    "path",
    [
        "/section/4.2.2",
        "/concept/cost",
        "/card/qybl",
        "/ask?q=" + quote(COST_QUESTION),
        "/p/4.3.3.6.1.1/2",
        "/scenario/atk_rush_then_gale",
    ],
)
def test_every_link_on_a_page_leads_somewhere(web_client, path):
    links = internal_links(web_client.get(path).text)
    assert len(links) > 5
    try:
        broken = [link for link in links if web_client.get(link).status_code != 200]
    finally:  # the language switch is one of the links: its choice is not kept for the next test
        web_client.cookies.clear()
    assert broken == []


# --- 6. escaping -------------------------------------------------------------------------------


def test_question_is_escaped_on_the_answer_page(web_client):
    page = web_client.get("/ask", params={"q": "<script>alert(1)</script>"}).text
    assert "<script" not in page
    assert '<h1 class="query">&lt;script&gt;alert(1)&lt;/script&gt;</h1>' in page
    assert 'value="&lt;script&gt;alert(1)&lt;/script&gt;"' in page  # the search box keeps it, inert


def test_card_name_is_escaped_on_the_404_page(web_client):
    response = web_client.get("/card/" + quote("<script>x</script>", safe=""))
    main = assert_error_page(response, 404)
    assert "<script" not in response.text
    assert "没有名为“&lt;script&gt;x&lt;/script&gt;”的卡" in main  # escaped, not run


@pytest.mark.parametrize("path", ["/section/", "/concept/", "/p/"])
def test_names_are_escaped_on_error_pages(web_client, path):
    response = web_client.get(path + quote("<img src=x onerror=alert(1)>", safe=""))
    assert response.status_code == 404
    assert "<img" not in response.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in response.text


@pytest.mark.parametrize("path", ["/ask?q=", "/card/"])
def test_quotes_cannot_leave_an_attribute(web_client, path):
    attack = "\"'><b>x</b>"
    page = web_client.get(path + quote(attack, safe="")).text
    assert attack not in page and "<b>x" not in page
    assert 'value="&#34;&#39;&gt;&lt;b&gt;x&lt;/b&gt;"' in page
    assert "%22%27%3E%3Cb%3Ex%3C/b%3E" in page  # in the JSON (or ask) link: URL-encoded


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/card", {"q": "<script>x</script>"}),
        ("/api/search", {"q": "cost", "kind": "<script>x</script>"}),
        ("/api/concept/<script>x</script>", {}),
    ],
)
def test_api_errors_with_markup_are_json_not_html(web_client, path, params):
    response = web_client.get(path, params=params)
    body = assert_api_error(response, response.status_code)
    assert response.status_code in (400, 404)
    assert "<script>x</script>" in body["error"]  # raw in JSON is fine: it is never served as HTML
    assert response.headers["x-content-type-options"] == "nosniff"


# --- 7. path traversal -------------------------------------------------------------------------

TRAVERSALS = [
    "/p/../../etc/passwd",
    "/p/..%2f..%2fetc%2fpasswd",
    "/static/../app.py",
    "/static/%2e%2e/app.py",
    "/static/..%2fapp.py",
    "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
    "/static/../../../pyproject.toml",
    "/static/%2fetc%2fpasswd",
    "/scenario/..%2f..%2fpyproject",
    "/scenario/../../pyproject.toml",
    "/scenario/..%2fscenarios%2fatk_rush_then_gale",
    "/section/../../etc/passwd",
    "/card/..%2f..%2fetc%2fpasswd",
    "/concept/..%2f..%2fetc%2fpasswd",
    "/api/section/..%2f..%2fetc%2fpasswd",
    "/api/concept/../../etc/passwd",
]
LEAKS = [b"root:", b"[project]", b"create_app", b"import ", b"steps:"]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_path_traversal_over_a_real_socket(live_server, path):
    status, body = raw_get(live_server, path)
    assert status in (400, 404), body[:300]
    assert not any(leak in body for leak in LEAKS)


@pytest.mark.parametrize("path", TRAVERSALS)
def test_path_traversal_in_process(web_client, path):
    response = web_client.get(path)
    assert response.status_code in (400, 404), response.text[:300]
    assert not any(leak in response.content for leak in LEAKS)


# --- 8. empty, long and malformed parameters ---------------------------------------------------

QUERY_ROUTES = ["/api/search", "/api/ask", "/api/card", "/ask"]
BAD_QUERIES = [
    (None, "the parameter 'q' is missing or empty"),
    ("", "the parameter 'q' is missing or empty"),
    ("   ", "the parameter 'q' is missing or empty"),
    ("\t\n", "the parameter 'q' is missing or empty"),
    ("卡" * (MOST + 1), f"'q' is {MOST + 1} characters long; at most {MOST} are read"),
    ("cost\x00", "'q' holds control characters"),
    ("cost\x1b[31m", "'q' holds control characters"),
    ("cost\x07", "'q' holds control characters"),
    ("cost\x7f", "'q' holds control characters"),
    ("cost\x85", "'q' holds control characters"),
]


@pytest.mark.parametrize("path", QUERY_ROUTES)
@pytest.mark.parametrize(("q", "message"), BAD_QUERIES, ids=[repr(b[0])[:12] for b in BAD_QUERIES])
def test_bad_query_is_400(web_client, path, q, message):
    response = web_client.get(path, params={} if q is None else {"q": q})
    if path.startswith("/api/"):
        assert_api_error(response, 400, message)
    else:
        assert_error_page(response, 400, message)


@pytest.mark.parametrize("path", QUERY_ROUTES)
def test_query_of_the_longest_length_is_read(web_client, path):
    response = web_client.get(path, params={"q": "qybl" + " " * (MOST - 4)})
    assert response.status_code == 200, response.text[:300]
    if path == "/api/card":
        assert response.json()["matches"][0]["name"] == "青眼白龙"


@pytest.mark.parametrize("path", ["/api/search", "/api/ask"])
def test_a_question_as_long_as_the_web_reads_is_answered(web_client, path):
    """The web reads as much as the query layer does: no length passes one and fails the other."""
    question = (COST_QUESTION + " ") * 40
    assert web_client.get(path, params={"q": question[:MOST]}).status_code == 200


@pytest.mark.parametrize(
    ("path", "limit", "status"),
    [
        ("/api/search", "0", 400),
        ("/api/search", "41", 400),
        ("/api/search", "abc", 400),
        ("/api/search", "-1", 400),
        ("/api/search", "3.0", 400),
        ("/api/search", "40", 200),
        ("/api/search", "", 200),
        ("/api/ask", "0", 400),
        ("/api/ask", "11", 400),
        ("/api/ask", "abc", 400),
        ("/api/ask", "10", 200),
        ("/api/card", "0", 400),
        ("/api/card", "201", 400),
        ("/api/card", "abc", 400),
        ("/api/card", "200", 200),
    ],
)
def test_limit(web_client, path, limit, status):
    response = web_client.get(path, params={"q": "cost", "limit": limit})
    if status == 400:
        assert_api_error(response, 400, "'limit' must be")
    else:
        assert response.status_code == 200


def test_limit_caps_the_hits(web_client):
    assert len(web_client.get("/api/search", params={"q": "cost", "limit": 2}).json()["hits"]) == 2
    assert len(web_client.get("/api/search", params={"q": "cost"}).json()["hits"]) == 10


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"kind": "bogus"}, "'bogus' is none of clause"),
        ({"kind": ""}, "is none of clause"),
        ({"section": " "}, "needs a value"),
        ({"section": "99"}, "no section 99"),
        ({"card": "zzzzqqq"}, "no card is called anything like 'zzzzqqq'"),
        ({"since": "notadate"}, "not a date: 'notadate'"),
        ({"until": "2020-13-45"}, "not a date"),
        ({"since": "2020\x00"}, "'since' holds control characters"),
        ({"concept": "x" * (MOST + 1)}, f"'concept' is {MOST + 1} characters long"),
    ],
)
def test_bad_filter_is_400(web_client, params, message):
    assert_api_error(web_client.get("/api/search", params={"q": "cost", **params}), 400, message)


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"section": " "}, "'section' needs a value"),
        ({"card": ""}, "'card' needs a value"),
        ({"since": "2023-13-45"}, "'since': not a date"),
        ({"until": "notadate"}, "'until': not a date"),
        ({"since": "2024-01-01", "until": "2020-01-01"}, "'since' 2024-01-01 is after 'until' 2020-01-01"),
    ],
)
def test_a_bad_filter_names_its_query_parameter_not_a_cli_option(web_client, params, says):
    """The web reads its filters in its own terms: the error names the query
    parameter (section), never the command line's option (--section)."""
    body = assert_api_error(web_client.get("/api/search", params={"q": "cost", **params}), 400, says)
    assert "--" not in body["error"]


def test_unknown_concept_filter_is_400_like_the_other_filters(web_client):
    assert_api_error(web_client.get("/api/search", params={"q": "cost", "concept": "nope"}), 400)


@pytest.mark.parametrize(
    "path", ["/section/", "/api/section/", "/concept/", "/api/concept/", "/p/", "/card/"]
)
def test_bad_path_parameter_is_400(web_client, path):
    response = web_client.get(path + "a" * (MOST + 1))
    assert response.status_code == 400
    response = web_client.get(path + "cost%00")
    assert response.status_code == 400
    assert "holds control characters" in html.unescape(response.text)


@pytest.mark.parametrize("number", ["%25", "_", "4_2", "%25%25"])
def test_section_number_with_like_wildcards_is_not_found(web_client, number):
    assert_api_error(web_client.get("/api/section/" + number), 404)


# --- 9. read-only ------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize(
    "path", ["/", "/ask?q=cost", "/api/search?q=cost", "/card/qybl", "/api/section/4.2.2"]
)
def test_only_get_and_head(web_client, method, path):
    response = web_client.request(method, path, content=b"q=cost")
    assert response.status_code == 405
    assert set(response.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}
    assert_secure_headers(response)
    if path.startswith("/api/"):
        assert_api_error(response, 405, "read-only")
    else:
        assert_error_page(response, 405, "read-only")


# --- 10. the OpenAPI description ----------------------------------------------------------------

PARAMETER_FIELDS = {"name", "in", "required", "schema", "description", "example"}


def test_openapi_lists_every_api_path_and_no_page(web_client):
    spec = web_client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert sorted(spec["paths"]) == sorted(API_PATHS + POST_PATHS)
    for path, operations in spec["paths"].items():
        method = "post" if path in POST_PATHS else "get"
        assert list(operations) == [method], path
        operation = operations[method]
        assert operation["summary"] and "200" in operation["responses"]
        for parameter in operation.get("parameters", []):
            assert set(parameter) <= PARAMETER_FIELDS, (path, parameter)
            assert isinstance(parameter.get("description", ""), str)
            if parameter["in"] == "path":
                assert "{" + parameter["name"] + "}" in path


def test_openapi_limits_are_the_schemas(web_client):
    from ocgkb.store import schema
    from ocgkb.store.schema import PASSAGE_KINDS

    paths = web_client.get("/openapi.json").json()["paths"]

    def parameter(path, name):
        return next(p for p in paths[path]["get"]["parameters"] if p["name"] == name)["schema"]

    for path, most, default in (
        ("/api/search", schema.MOST_HITS, schema.DEFAULT_HITS),
        ("/api/ask", schema.MOST_CLAUSES, schema.DEFAULT_CLAUSES),
        ("/api/card", schema.MOST_CARD_PASSAGES, schema.DEFAULT_CARD_PASSAGES),
    ):
        assert (parameter(path, "limit")["maximum"], parameter(path, "limit")["default"]) == (most, default)
    for path in ("/api/search", "/api/ask"):
        assert tuple(parameter(path, "kind")["enum"]) == PASSAGE_KINDS == schema.PASSAGE_KINDS
    for path in ("/api/search", "/api/ask", "/api/card"):
        assert parameter(path, "q")["maxLength"] == MOST
    for path in ("/api/search", "/api/ask"):
        response = web_client.get(
            path, params={"q": "cost", "limit": parameter(path, "limit")["maximum"] + 1}
        )
        assert response.status_code == 400


# --- 11. random input never breaks the server ---------------------------------------------------

ODD = st.sampled_from(list("%/?#&=+.;:\\ \t\"'<>§￥…卡龙的效果发动cost青眼白qybl_-"))
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
ANY = st.characters(blacklist_categories=("Cs",))
RANDOM_TEXT = st.text(alphabet=st.one_of(ANY, CJK, ODD), max_size=60)


def assert_answered(response, api: bool) -> None:
    assert response.status_code in (200, 400, 404), (response.url, response.status_code, response.text[:300])
    if api:
        assert response.headers["content-type"] == JSON
        body = response.json()
        if response.status_code != 200:
            assert isinstance(body.get("error"), str) and body["error"]
    else:
        assert response.headers["content-type"] == HTML


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=RANDOM_TEXT)
def test_random_text_gets_an_answer_or_a_clean_error(web_client, text):
    for path in ("/api/search", "/api/ask", "/api/card", "/ask"):
        assert_answered(web_client.get(path, params={"q": text}), api=path.startswith("/api/"))
    segment = quote(text, safe="")
    for prefix in ("/card/", "/concept/", "/section/", "/p/"):
        assert_answered(web_client.get(prefix + segment), api=False)
    for prefix in ("/api/section/", "/api/concept/"):
        assert_answered(web_client.get(prefix + segment), api=True)


# --- 12. the CLI's repeated limits ---------------------------------------------------------------


def test_cli_limits_are_the_schemas():
    import click

    from ocgkb.cli import main as cli
    from ocgkb.store import schema
    from ocgkb.store.schema import PASSAGE_KINDS

    def option(command, name):
        return next(p for p in cli.main.commands[command].params if p.name == name).type

    assert option("search", "limit").max == schema.MOST_HITS
    assert option("ask", "limit").max == schema.MOST_CLAUSES
    assert option("card", "limit").max == schema.MOST_CARD_PASSAGES
    for command in ("search", "ask"):
        kind = option(command, "kind")
        assert isinstance(kind, click.Choice) and tuple(kind.choices) == PASSAGE_KINDS


# --- 13. the `serve` command ---------------------------------------------------------------------

LAZY = """
import json, sys
from ocgkb.cli.main import main
for args in (["--help"], ["serve", "--help"]):
    try:
        main(args, prog_name="ocgkb")
    except SystemExit as exit:
        assert exit.code == 0, exit.code
web = lambda: sorted(m for m in sys.modules if m.partition(".")[0] in ("starlette", "uvicorn", "jinja2"))
before = web()
import ocgkb.web.app
print(json.dumps([before, web()]))
"""


def test_help_imports_no_web_code():
    pytest.importorskip("starlette")
    result = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    before, after = json.loads(result.stdout.strip().splitlines()[-1])
    assert before == []
    assert "starlette" in after and "jinja2" in after  # the probe does see them once imported


def test_serve_without_the_web_extra_says_how_to_install_it(cli, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *args: None if name == "starlette" else real(name, *args)
    )
    result = cli("serve", "--port", str(free_port()), expect=None)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "pip install 'ocgkb[web]'" in lines[0]
    assert "Traceback" not in result.output


def test_serve_on_a_busy_port_says_so_in_one_line(kb_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            ocgkb_command(kb_path, "serve", "--port", str(port)), capture_output=True, text=True, timeout=60
        )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")
    assert "Traceback" not in result.stderr


def test_live_server_answers_with_the_headers(live_server, web_client):
    with urllib.request.urlopen(live_server + "/", timeout=30) as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == HTML
        assert "script-src 'none'" in response.headers["Content-Security-Policy"]
        assert "<title>规则知识库 · ocgkb</title>" in response.read().decode()
    with urllib.request.urlopen(live_server + "/api/card?q=qybl", timeout=30) as response:
        assert json.load(response) == web_client.get("/api/card?q=qybl").json()


def test_serve_stops_cleanly_on_ctrl_c(kb_path):
    pytest.importorskip("uvicorn")
    port = free_port()
    server = subprocess.Popen(
        ocgkb_command(kb_path, "serve", "--port", str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/section/4.2.2", timeout=5
                ) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert server.poll() is None, server.communicate()[1][-2000:]
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.2)
        server.send_signal(signal.SIGINT)
        _, stderr = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0, stderr[-2000:]
    assert f"at http://localhost:{port}/" in stderr
    assert "ocgkb: stopped" in stderr
    assert "Traceback" not in stderr


def test_no_update_of_an_added_documentation_is_a_404_and_no_foot_link(web_client):
    answer = web_client.get("/api/changes")
    assert answer.status_code == 404 and answer.json()["error"].startswith("no update")
    assert '<a href="/changes">' not in web_client.get("/").text


def test_a_passage_page_shows_its_breadcrumb_and_an_answer_its_list(web_client):
    main = main_of(web_client.get("/p/6.3.4.3/1").text)
    assert '<a href="/section/6.3.4">6.3.4 战斗阶段</a>' in main
    answer = main_of(web_client.get("/ask", params={"q": "伤害步骤能发动什么卡"}).text)
    items = answer[answer.index('<ul class="items">') :]
    assert "反击陷阱" in items[: items.index("</ul>")]
