"""A card text read on the web: the /read form and its reading, POST /api/read, and
the reading on a card's page and beside an answer. Every card text here is written
for the tests, in the style of real ones."""

from __future__ import annotations

import hashlib
import html
import json
import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ocgkb.store.schema import MAX_CARD_TEXT
from ocgkb.views.read import read_view
from ocgkb.web.limits import READ_BODY_BYTES

from conftest import EN

pytestmark = pytest.mark.usefixtures("web_client")

# Written for the tests: a targeting ignition effect and an optional 'when' trigger,
# once per turn by card name.
TWO_EFFECTS = (
    "这个卡名的②的效果1回合只能使用1次。①：以对方场上1张卡为对象才能发动。那张卡破坏。"
    "②：这张卡被送去墓地时才能发动。从自己卡组抽1张。"
)
# A cost and a target, for a quick-play spell.
COST_AND_TARGET = "①：把手卡1只怪兽送去墓地，以对方场上1只怪兽为对象才能发动。那只怪兽破坏。"
# A mandatory 'if' trigger.
MANDATORY_IF = "①：此卡被战斗破坏的情况下发动。对方受到500伤害。"
QUICK_PLAY = "旋风"  # a quick-play spell in the card facts: its activation is spell speed 2


def main_of(page: str) -> str:
    return page[page.index("<main>") : page.index("</main>")]


def linked_cites(page: str) -> set[str]:
    """The passage ids a page links to."""
    return {html.unescape(p) for p in re.findall(r'href="/p/([^"]+)"', page)}


def cites_of(view: dict) -> set[str]:
    return {quote(c["cite"], safe="/") for effect in view["effects"] for c in effect["conclusions"]}


def one_line_error(response, status: int, words: str = "") -> dict:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert isinstance(body["error"], str) and body["error"] and "\n" not in body["error"], body
    assert words in body["error"], body
    return body


# --- the page ----------------------------------------------------------------------------------


def test_the_form_asks_for_a_text_and_a_card_and_is_linked_from_every_page(web_client):
    page = web_client.get("/read")
    assert page.status_code == 200
    main = main_of(page.text)
    for field in ('action="/read"', 'method="post"', 'name="text"', 'name="card"', 'type="submit"'):
        assert field in main
    assert '<label for="text">' in main and '<label for="card">' in main
    assert "placeholder=" in main and "可以发动" in main  # an example in the official wording
    assert f'maxlength="{MAX_CARD_TEXT}"' in main
    assert 'href="/read"' in web_client.get("/").text


def test_a_reading_marks_each_part_and_links_each_conclusion_to_its_passage(web_client, kb):
    page = web_client.post("/read", data={"text": TWO_EFFECTS, "card": ""}, headers=EN)
    assert page.status_code == 200, page.text[:300]
    main = main_of(page.text)
    view = read_view(kb, TWO_EFFECTS)
    assert cites_of(view) and cites_of(view) <= linked_cites(main)
    # Each part by its word as well as its style; each effect by its label and kind.
    assert (
        '<span class="part part-target"><span class="role">target</span> 以对方场上1张卡为对象</span>' in main
    )
    assert (
        '<span class="part part-condition"><span class="role">condition</span> 这张卡被送去墓地时</span>'
        in main
    )
    assert "①</span> 起动效果 · ignition" in main and "②</span> 诱发效果 · trigger" in main
    assert "can miss it" in main and "once per turn by card name" in main
    assert all(note in html.unescape(main) for note in view["notes"])
    # The text stays in the form for a second try.
    assert f">{TWO_EFFECTS}</textarea>" in main


def test_a_cited_passage_link_opens_that_passage(web_client, kb):
    cite = sorted(cites_of(read_view(kb, TWO_EFFECTS)))[0]
    assert web_client.get(f"/p/{cite}").status_code == 200


def test_a_card_named_decides_its_activation(web_client):
    page = web_client.post("/read", data={"text": COST_AND_TARGET, "card": QUICK_PLAY}, headers=EN)
    assert page.status_code == 200, page.text[:300]
    main = main_of(page.text)
    assert f"「{QUICK_PLAY}」" in main and "卡的发动 · activation" in main
    assert "<dt>spell speed</dt><dd>2</dd>" in main
    assert '<span class="role">cost</span> 把手卡1只怪兽送去墓地' in main
    assert f'value="{QUICK_PLAY}"' in main


def test_a_mandatory_if_trigger_cannot_miss_the_timing(web_client):
    main = main_of(web_client.post("/read", data={"text": MANDATORY_IF}, headers=EN).text)
    assert "mandatory" in main and "if (…的场合 / 的情况下)" in main and "cannot miss it" in main


@pytest.mark.parametrize(
    "data, status, reason",
    [
        ({"text": "   "}, 400, "the card text is empty"),
        ({"text": "破坏。" * 400}, 400, f"at most {MAX_CARD_TEXT}"),
        ({"text": "Lorem ipsum dolor sit amet."}, 400, "no card effect found"),
        ({"text": TWO_EFFECTS, "card": "zzqqxxjj"}, 404, "no card is called anything like"),
    ],
)
def test_a_text_not_read_is_the_form_again_with_the_reason(web_client, data, status, reason):
    page = web_client.post("/read", data=data)
    assert page.status_code == status
    main = html.unescape(main_of(page.text))
    assert reason in main and 'name="text"' in main
    assert f">{data['text']}</textarea>" in main  # kept filled
    if "card" in data:
        assert f'value="{data["card"]}"' in main


def test_a_form_body_past_the_limit_is_refused_unread(web_client):
    body = b"text=" + b"%E7%A0%B4" * READ_BODY_BYTES
    page = web_client.post(
        "/read", content=body, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert page.status_code == 413
    not_a_form = web_client.post("/read", content=b"{}", headers={"content-type": "application/json"})
    assert not_a_form.status_code == 400 and "send the card text as a form" in not_a_form.text


# --- the API -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, card", [(TWO_EFFECTS, None), (COST_AND_TARGET, QUICK_PLAY)])
def test_the_api_answers_the_read_view(web_client, kb, text, card):
    response = web_client.post("/api/read", json={"text": text, "card": card})
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    assert response.json() == json.loads(json.dumps(read_view(kb, text, card)))


def test_the_api_takes_text_alone(web_client):
    response = web_client.post("/api/read", json={"text": MANDATORY_IF})
    assert response.status_code == 200
    assert [e["kind"] for e in response.json()["effects"]] == ["trigger"]


BAD_BODIES = [
    pytest.param(b"not json", "not JSON", id="not-json"),
    pytest.param(b"", "not JSON", id="empty"),
    pytest.param(b'{"text": "\xff\xfe"}', "not UTF-8", id="not-utf8"),
    pytest.param(b"[" * 5000 + b"]" * 5000, "not JSON", id="nested-deep"),
    pytest.param(b'["text"]', "a JSON object", id="array"),
    pytest.param(b'"text"', "a JSON object", id="string"),
    pytest.param(b'{"card": null}', "'text' must be a string", id="no-text"),
    pytest.param(b'{"text": 12}', "'text' must be a string", id="text-number"),
    pytest.param(b'{"text": null}', "'text' must be a string", id="text-null"),
    pytest.param(
        json.dumps({"text": TWO_EFFECTS, "card": 5318639}).encode(), "'card' must be", id="card-number"
    ),
    pytest.param(json.dumps({"text": TWO_EFFECTS, "card": " "}).encode(), "'card' must be", id="card-blank"),
    pytest.param(
        json.dumps({"text": TWO_EFFECTS, "cards": "x"}).encode(), "unknown field 'cards'", id="unknown"
    ),
    pytest.param(b'{"text": "\\ud800\\u7834"}', "not valid UTF-8", id="lone-surrogate"),
    pytest.param(b'{"text": "\\u0000\\u7834"}', "control characters", id="control"),
    pytest.param(
        json.dumps({"text": TWO_EFFECTS, "card": "x" * 301}).encode(), "at most 300", id="card-long"
    ),
    pytest.param(b'{"text": ""}', "the card text is empty", id="text-empty"),
    pytest.param(
        json.dumps({"text": "破" * (MAX_CARD_TEXT + 1)}).encode(), f"at most {MAX_CARD_TEXT}", id="long"
    ),
    pytest.param(
        json.dumps({"text": "Lorem ipsum dolor sit amet."}).encode(), "no card effect", id="no-effect"
    ),
]


@pytest.mark.parametrize(
    "text, language",
    [
        ("①：自分フィールドのカード1枚を対象として発動できる。そのカードを破壊する。", "ja"),
        ("You can target 1 card on the field; destroy it.", "en"),
    ],
)
def test_japanese_and_english_texts_are_read_from_their_markers(web_client, text, language):
    reading = web_client.post("/api/read", json={"text": text}).json()
    assert reading["language"] == language and reading["effects"][0]["targets"] is True


@pytest.mark.parametrize("body, words", BAD_BODIES)
def test_a_bad_body_is_a_one_line_400(web_client, body, words):
    one_line_error(web_client.post("/api/read", content=body), 400, words)


# Pieces of card text, shuffled: the reader meets odd texts, never a 500.
PIECES = st.sampled_from(
    ["①：", "②：", "这张卡", "此卡", "召唤成功时", "的场合", "的情况下", "才能发动", "可以发动", "。", "，",
     "以场上1张卡为对象", "把手卡1张送去墓地", "支付1000基本分", "这个卡名的", "1回合只能使用1次", "1回合1次",
     "发动时", "之际", "破坏", "只要", "反转：", "；", "：", " ", "\n", "破"]
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(PIECES, max_size=30).map("".join))
def test_any_text_is_read_or_refused_in_one_line(web_client, text):
    response = web_client.post("/api/read", json={"text": text})
    if response.status_code != 200:
        one_line_error(response, 400)


def test_a_body_past_the_limit_is_413_unread(web_client):
    body = json.dumps({"text": "破" * READ_BODY_BYTES}).encode()
    one_line_error(web_client.post("/api/read", content=body), 413, f"{READ_BODY_BYTES:,} bytes")


def test_an_unknown_card_is_404_with_the_nearest_names(web_client):
    body = one_line_error(web_client.post("/api/read", json={"text": TWO_EFFECTS, "card": "zzqqxxjj"}), 404)
    assert body["query"] == "zzqqxxjj" and isinstance(body["suggestions"], list)


def test_only_post(web_client):
    one_line_error(web_client.get("/api/read"), 405, "read-only")


def test_the_openapi_document_describes_it_with_the_schemas_limits(web_client):
    read = web_client.get("/openapi.json").json()["paths"]["/api/read"]["post"]
    body = read["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["text"]["maxLength"] == MAX_CARD_TEXT and body["required"] == ["text"]
    assert {"200", "400", "404", "413"} <= set(read["responses"])
    assert str(READ_BODY_BYTES) in read["responses"]["413"]["description"]


def test_reading_writes_nothing(web_client, kb_path):
    def state():
        folder = sorted((p.name, p.stat().st_size) for p in kb_path.parent.iterdir())
        return folder, kb_path.stat().st_mtime_ns, hashlib.sha256(kb_path.read_bytes()).hexdigest()

    before = state()
    for text in (TWO_EFFECTS, COST_AND_TARGET, MANDATORY_IF):
        assert web_client.post("/api/read", json={"text": text}).status_code == 200
        assert web_client.post("/read", data={"text": text, "card": QUICK_PLAY}).status_code == 200
    assert state() == before


# --- the reading on a card's page and beside an answer --------------------------------------------


@pytest.fixture
def with_effect_text(monkeypatch, kb):
    """The card page's view with `effect_text` as given (the card view's own key)."""
    from ocgkb.web import pages

    real = pages.card_view

    def given(effect_text):
        monkeypatch.setattr(pages, "card_view", lambda *a, **k: {**real(*a, **k), "effect_text": effect_text})

    return given


def test_a_card_page_shows_an_imported_text_and_its_reading(web_client, kb, with_effect_text):
    reading = read_view(kb, COST_AND_TARGET, QUICK_PLAY)
    with_effect_text({"text": COST_AND_TARGET, "source": "cards.cdb (imported)", "reading": reading})
    main = main_of(web_client.get(f"/card/{quote(QUICK_PLAY)}").text)
    assert f'<blockquote class="card-text">{COST_AND_TARGET}</blockquote>' in main
    assert "cards.cdb (imported)" in main and '<section class="reading">' in main
    assert cites_of(reading) <= linked_cites(main)


def test_a_card_page_says_why_a_text_was_not_read(web_client, with_effect_text):
    with_effect_text(
        {
            "text": "①：このカードは破壊されない。",
            "source": "cards.cdb",
            "reading": None,
            "reason": "not Chinese",
        }
    )
    main = main_of(web_client.get(f"/card/{quote(QUICK_PLAY)}").text)
    assert "このカードは破壊されない" in main and "not Chinese" in main and 'class="reading"' not in main


def test_a_card_page_without_a_text_gives_the_hint_in_one_quiet_line(web_client, with_effect_text):
    """The hint in the page's language, and a warning about damaged texts beside it."""
    from ocgkb.web.i18n_catalogue import EN, ZH

    with_effect_text({"text": None, "hint": EN["card.no_text"], "warning": "the imported texts are damaged"})
    for lang, labels in (("en", EN), ("zh", ZH)):
        page = web_client.get(f"/card/{quote(QUICK_PLAY)}", headers={"Accept-Language": lang}).text
        main = html.unescape(main_of(page))
        assert f'<p class="quiet">{labels["card.no_text"]}</p>' in main
        assert "the imported texts are damaged" in main and "effect-text-box" not in main


def test_a_card_page_before_imported_texts_says_where_to_get_one(web_client):
    main = main_of(web_client.get(f"/card/{quote(QUICK_PLAY)}").text)
    assert "effect-text-box" not in main and 'class="quiet"' in main and "cards import" in main


@pytest.mark.parametrize("where", ["page", "answer"])
def test_an_answer_shows_each_reading_with_its_citations(web_client, kb, monkeypatch, where):
    from ocgkb.web import pages

    real = pages.answer_page
    quoted, imported = read_view(kb, MANDATORY_IF), read_view(kb, COST_AND_TARGET, QUICK_PLAY)
    readings = [
        {"card": None, "from": "quoted", "reading": quoted},
        {"card": {"name": QUICK_PLAY, "password": 5318639}, "from": "imported", "reading": imported},
    ]

    def with_readings(*args, **kwargs):
        view = real(*args, **kwargs)
        if where == "page":
            return {**view, "readings": readings}
        return {**view, "answer": {**view["answer"], "readings": readings}}

    monkeypatch.setattr(pages, "answer_page", with_readings)
    main = main_of(web_client.get("/ask", params={"q": "这个效果会错过时点吗"}, headers=EN).text)
    aside = main[main.index('<aside class="readings">') : main.index("</aside>")]
    assert "quoted in the question" in aside and "its imported text" in aside
    assert f'href="/card/5318639">「{QUICK_PLAY}」' in aside
    assert cites_of(quoted) | cites_of(imported) <= linked_cites(aside)
    assert "cannot miss the timing" in html.unescape(aside)


def test_an_answer_without_readings_shows_none(web_client):
    assert "readings" not in main_of(web_client.get("/ask", params={"q": "这个效果会错过时点吗"}).text)


def test_each_conclusion_is_said_in_the_pages_language(web_client, kb):
    view = read_view(kb, TWO_EFFECTS)
    for lang, field in (("zh", "says_zh"), ("en", "says")):
        page = web_client.post("/read", data={"text": TWO_EFFECTS}, headers={"Accept-Language": lang}).text
        main = html.unescape(main_of(page))
        said = [c[field] for effect in view["effects"] for c in effect["conclusions"]]
        assert said and all(line in main for line in said), [line for line in said if line not in main]
    assert "会错过时点：任意发动的“…时”诱发效果" in html.unescape(
        web_client.post("/read", data={"text": TWO_EFFECTS}, headers={"Accept-Language": "zh"}).text
    )


def test_the_notes_are_said_in_the_pages_language(web_client, kb):
    text = "①：这张卡被破坏时发动。对方受到500伤害。"  # a mandatory 'when': the rule texts disagree
    view = read_view(kb, text)
    assert view["notes"] and len(view["notes_zh"]) == len(view["notes"])
    for lang, field in (("zh", "notes_zh"), ("en", "notes")):
        page = html.unescape(
            web_client.post("/read", data={"text": text}, headers={"Accept-Language": lang}).text
        )
        assert all(note in page for note in view[field])
