"""An added rulings documentation on the site, the JSON API and the MCP server's
quotes: the small editions of tests/fixtures/rst, added over the small corpus, the
2025 one then the 2026 one (an update, whose changes the site shows)."""

from __future__ import annotations

import shutil

import pytest

from ocgkb.mcp.quotes import hits_quote
from ocgkb.views.schemas import SCHEMAS

from conftest import EDITIONS, KB, SMALL


@pytest.fixture(scope="module")
def updated(tmp_path_factory):
    """A knowledge base of the small corpus with mini-rules added, then updated."""
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    import os

    from ocgkb.store.door import build
    from ocgkb.views.sources import add_source

    folder = tmp_path_factory.mktemp("added-web")
    before = os.environ.get("OCGKB_SOURCES")
    os.environ["OCGKB_SOURCES"] = str(folder / "sources")
    try:
        shutil.copytree(EDITIONS / "edition_2025", folder / "ed")
        add_source(str(folder / "ed"))
        shutil.rmtree(folder / "ed")
        shutil.copytree(EDITIONS / "edition_2026", folder / "ed")
        add_source(str(folder / "ed"))
        build(folder / "kb.sqlite", SMALL, KB)
        yield folder / "kb.sqlite"
    finally:
        if before is None:
            os.environ.pop("OCGKB_SOURCES", None)
        else:
            os.environ["OCGKB_SOURCES"] = before


@pytest.fixture(scope="module")
def client(updated):
    from starlette.testclient import TestClient

    from ocgkb.web.app import create_app

    with TestClient(create_app(updated, SMALL, KB), raise_server_exceptions=False) as web:
        yield web


def test_the_changes_page_shows_the_totals_and_each_ruling_by_topic(client):
    page = client.get("/changes", headers={"accept-language": "en"})
    assert page.status_code == 200
    assert "3 rulings added, 2 removed, 2 changed" in page.text
    assert "of them, official FAQ ids: 2 added, 1 removed, 1 changed" in page.text
    assert "<h3>基本用语 › 卷回</h3>" in page.text
    assert 'href="https://www.db.yugioh-card.com/yugiohdb/faq_search.action?ope=5&amp;fid=104' in page.text
    assert "以「黑洞」为例，发动时不需要支付cost。" in page.text  # a changed ruling's old words


def test_the_foot_of_every_page_links_what_changed(client):
    assert '<a href="/changes">' in client.get("/").text


def test_the_changes_api_answers_its_schema_and_filters(client):
    from jsonschema import Draft202012Validator

    answer = client.get("/api/changes").json()
    Draft202012Validator({**SCHEMAS["Changes"], "components": {"schemas": SCHEMAS}}).validate(answer)
    assert answer["totals"]["faq_ids"] == {"added": 2, "removed": 1, "changed": 1}
    recent = client.get("/api/changes?since=2026-01-01&only=added").json()
    assert [r["fid"] for r in recent["added"]] == [104] and recent["removed"] == []
    assert client.get("/api/changes?only=everything").status_code == 400
    assert client.get("/api/changes?since=yesterday").status_code == 400
    assert client.get("/api/changes?source=nosuch").status_code == 404


def test_a_hit_cites_its_faq_link_on_the_page_and_in_the_api(client):
    hits = client.get("/api/search", params={"q": "攻击宣言后对方发动死者苏生 卷回"}).json()["hits"]
    place = hits[0]["citations"][0]
    assert place["document"] == "Mini Rules" and place["faq"][0]["fid"] == 104
    page = client.get("/ask", params={"q": "攻击宣言后对方发动死者苏生 卷回"}).text
    assert ">FAQ 104</a>" in page and "Mini Rules · 基本用语 › 卷回" in page


def test_a_seed_ruling_the_documentation_repeats_shows_both_places(client):
    page = client.get("/p/rulings/cost/1", headers={"accept-language": "en"}).text
    assert "also in Mini Rules · 基本用语 › cost" in page and ">FAQ 100</a>" in page


def test_an_undated_example_says_where_it_comes_from(client):
    page = client.get("/p/mini-rules/cost/4", headers={"accept-language": "en"}).text
    assert "undated: from a mail reply" in page


def test_the_mcp_quote_carries_the_faq_link_and_the_other_place(client):
    view = client.get("/api/search", params={"q": "支付cost后发动被无效也不会返还"}).json()
    quote = hits_quote(view)
    assert "(also in Mini Rules › 基本用语 › cost · mini-rules/cost/1)" in quote
    assert "(FAQ 100, 2018-01-05: https://www.db.yugioh-card.com/" in quote
    assert "any FAQ link" in quote
