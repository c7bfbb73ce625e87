"""The site in Chinese and English: every label in both, Accept-Language picks, the
switch overrides and is remembered, <html lang> follows, and the texts stay as written."""

from __future__ import annotations

import re
import string
from pathlib import Path
from urllib.parse import quote

import pytest

from ocgkb.web.i18n import Labels, accepted
from ocgkb.web.i18n_catalogue import CATALOGUE, EN, ZH

TEMPLATES = Path(__file__).parent.parent / "ocgkb" / "web" / "templates"
# A key written out (t('box.label'), t.get('how.typo', …)) or a key's fixed start joined
# to a value (t('zone.' ~ card.zone)).
KEY = re.compile(r"""\bt(?:\.get)?\(\s*['"]([\w.-]+)['"]\s*(~)?""")
CHOSEN_KEYS = re.compile(r"""['"]((?:read|scenario)\.[\w_]+)['"]""")  # keys picked in a dict or an if


def used_keys() -> tuple[set[str], set[str]]:
    """The keys the templates name in full, and the prefixes of keys they build."""
    full, prefixes = set(), set()
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        for key, joined in KEY.findall(text):
            (prefixes if joined else full).add(key)
        full.update(CHOSEN_KEYS.findall(text))
    return full, prefixes


def fields(label) -> set[str]:
    texts = label if isinstance(label, tuple) else (label,)
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_labels_with_the_same_fields():
    assert ZH.keys() == EN.keys()
    differ = [key for key in ZH if fields(ZH[key]) != fields(EN[key])]
    assert differ == []


def test_every_label_a_template_uses_exists_in_both_languages():
    full, prefixes = used_keys()
    assert len(full) > 80, "the key pattern no longer finds the templates' labels"
    missing = {lang: sorted(full - table.keys()) for lang, table in CATALOGUE.items()}
    assert missing == {"zh": [], "en": []}
    for prefix in prefixes:
        assert any(key.startswith(prefix) for key in ZH), prefix


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("en", "en"),
        ("en-GB,en;q=0.9", "en"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        ("fr-FR, en;q=0.5", "en"),
        ("en;q=0.2, zh-TW;q=0.7", "zh"),
        ("en;q=0", None),
        ("fr, de", None),
        ("", None),
        ("en;q=abc, ;;, zh-Hans", "zh"),
    ],
)
def test_accept_language_picks_the_language_it_prefers_most(header, lang):
    assert accepted(header) == lang


def test_counts_are_plural_in_english_and_counted_in_chinese():
    assert Labels("en").counts({"concept": 7, "example": 1}) == "7 concepts, 1 example"
    assert Labels("zh").counts({"concept": 7, "example": 1}) == "7 个概念，1 个例"
    assert Labels("en")("passages_n", n=1) == "1 passage" and Labels("en")("passages_n", n=2) == "2 passages"


def test_card_data_words_are_chinese_on_the_chinese_site_only():
    assert Labels("zh").term("Insect / Effect") == "昆虫族 / 效果"
    assert Labels("zh").term("Unheard-of") == "Unheard-of"
    assert Labels("en").term("Insect / Effect") == "Insect / Effect"


@pytest.fixture
def client(web_client):
    """A client of the same site with a cookie jar of its own."""
    from starlette.testclient import TestClient

    return TestClient(web_client.app)


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)">', page).group(1)


@pytest.mark.parametrize(
    ("header", "lang", "label"),
    [
        ({}, "zh-Hans", 'aria-label="规则问题或卡名"'),
        ({"accept-language": "zh-CN"}, "zh-Hans", 'aria-label="规则问题或卡名"'),
        ({"accept-language": "en-US,en;q=0.9"}, "en", 'aria-label="A rules question or a card name"'),
    ],
)
def test_accept_language_picks_the_pages_language(client, header, lang, label):
    page = client.get("/", headers=header).text
    assert html_lang(page) == lang and label in page
    assert "set-cookie" not in client.get("/", headers=header).headers  # only the switch is remembered


def test_an_english_answer_keeps_the_texts_as_written(client):
    page = client.get("/ask?q=" + quote("cost算不算卡片的效果"), headers={"accept-language": "en"}).text
    assert html_lang(page) == "en"
    assert (
        "●<mark>cost</mark>不<mark>视为</mark><mark>卡片</mark><mark>效果</mark>。" in page
    )  # the clause, as written
    assert "<summary>source</summary>" in page and "How the question was read" in page


def test_the_switch_overrides_the_header_and_is_remembered(client):
    page = client.get("/section/4.2.2", headers={"accept-language": "zh"}).text
    switch = re.search(r'<a class="lang-switch" href="([^"]+)" hreflang="en" lang="en">English</a>', page)
    assert switch, "the Chinese page offers no switch to English"
    assert switch.group(1) == "/section/4.2.2?lang=en"
    english = client.get(switch.group(1), headers={"accept-language": "zh"})
    assert html_lang(english.text) == "en" and "Sub-sections" in english.text
    assert "lang=en" in english.headers["set-cookie"]
    assert "Accept-Language" in english.headers["vary"] and "Cookie" in english.headers["vary"]
    # The next page, with no switch in its address, stays English despite the header.
    later = client.get("/concept/cost", headers={"accept-language": "zh"}).text
    assert html_lang(later) == "en" and "Related concepts" in later
    back = client.get("/concept/cost?lang=zh").text
    assert html_lang(back) == "zh-Hans" and "相关概念" in back


def test_the_switch_keeps_the_question(client):
    page = client.get("/ask?q=" + quote("卡时点"), headers={"accept-language": "en"}).text
    href = re.search(r'<a class="lang-switch" href="([^"]+)"', page).group(1)
    assert href == "/ask?q=%E5%8D%A1%E6%97%B6%E7%82%B9&amp;lang=zh"


def test_the_switch_never_leads_off_the_site(client):
    page = client.get("http://testserver//elsewhere.example/x", headers={"accept-language": "en"}).text
    href = re.search(r'<a class="lang-switch" href="([^"]+)"', page).group(1)
    assert href == "/elsewhere.example/x?lang=zh", href


def test_an_unknown_language_is_ignored(client):
    page = client.get("/?lang=xx", headers={"accept-language": "en"})
    assert html_lang(page.text) == "en" and "set-cookie" not in page.headers


@pytest.mark.parametrize(
    ("header", "heading", "back"),
    [
        ({"accept-language": "en"}, "<h1>404 · Not found</h1>", "Back to the start"),
        ({}, "<h1>404 · 找不到此页</h1>", "回到首页"),
    ],
)
def test_the_404_page_is_translated(client, header, heading, back):
    response = client.get("/no/such/page", headers=header)
    assert response.status_code == 404 and heading in response.text and back in response.text


def test_an_unknown_card_is_translated_with_its_suggestions(client):
    english = client.get("/card/" + quote("qqq白龙"), headers={"accept-language": "en"}).text
    chinese = client.get("/card/" + quote("qqq白龙")).text
    assert "No card is called “qqq白龙”" in english and "Did you mean:" in english
    assert "没有名为“qqq白龙”的卡" in chinese and "你要找的是不是" in chinese
    assert "「白角龙」" in english and "「白角龙」" in chinese  # the names as written


def test_the_card_box_type_line_follows_the_language(client):
    chinese = client.get("/card/maxx%20c").text
    english = client.get("/card/maxx%20c", headers={"accept-language": "en"}).text
    assert "<span>昆虫族 / 效果</span>" in chinese and "<span>地</span>" in chinese
    assert "<span>Insect / Effect</span>" in english and "<span>EARTH</span>" in english
    # A name read exactly is not a guess: how it was read is not said.
    assert "read as this card" not in english and "被认作此卡" not in chinese


def test_a_spell_in_the_graveyard_has_no_face_or_position(client):
    page = client.get("/scenario/atk_rush_then_gale", headers={"accept-language": "en"}).text
    rows = re.findall(
        r"<tr><td>(?:<a [^>]*>)?([^<]+)(?:</a>)?</td><td>([^<]+)</td><td>[^<]*</td><td>([^<]*)</td>", page
    )
    zones = {name: (zone, face) for name, zone, face in rows}
    assert zones["突进"] == ("GY", "")
    assert zones["电气尾龙"] == ("Monster Zone", "face-up attack")


def test_the_concept_graph_is_a_labelled_group_of_links(client):
    page = client.get("/concept/cost", headers={"accept-language": "en"}).text
    svg = page[page.index("<svg") : page.index(">", page.index("<svg"))]
    assert 'role="group"' in svg and 'role="img"' not in svg and "aria-label=" in svg
    caption = re.search(r"<figcaption[^>]*>(.*?)</figcaption>", page).group(1)
    assert re.search(r"\b\d+ concepts\b", caption) and not re.search(r"\b([2-9]|\d\d+) concept\b", caption)


def _text(html_part: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html_part)).strip()


def status_items(page: str) -> list[str]:
    """The text of each region's line in a card page's status box."""
    import html

    box = page.split('class="status"')[1].split("</ul>")[0]
    return [_text(html.unescape(li)) for li in re.findall(r"<li>(.*?)</li>", box)]


@pytest.mark.parametrize("on", [None, "2025-06-01", "2020-01-01"])
def test_a_cards_status_is_said_in_the_pages_language_from_the_views_fields(web_client, on):
    """English says what the view's own sentence says; Chinese says it in Chinese."""
    from ocgkb.views.card import card_view

    query = f"?on={on}" if on else ""
    view = card_view(web_client.app.state.kb, "增殖的G", day=on)
    en = web_client.get(f"/card/{quote('增殖的G')}{query}", headers={"Accept-Language": "en"}).text
    zh = web_client.get(f"/card/{quote('增殖的G')}{query}", headers={"Accept-Language": "zh"}).text
    for region, shown in zip(view["status"]["regions"], status_items(en), strict=True):
        said = f"{region['region_name']}: {region['says']} {region['history_says']}"
        assert "".join(shown.lower().split()) == "".join(said.lower().split())  # the labels are capitalised
    for region, shown in zip(view["status"]["regions"], status_items(zh), strict=True):
        assert region["says"] not in shown and re.search(
            r"[\u4e00-\u9fff]", shown.replace(region["region_name"], "")
        )


def test_the_notes_of_an_answer_are_said_in_chinese_on_a_chinese_page(web_client):
    from ocgkb.query.abstain import NO_RULING, NOT_BOTH

    labels = Labels("zh")
    assert labels.note(NO_RULING.format(cards="「灰流丽」")) == "规则原文中没有裁定提到 「灰流丽」"
    assert labels.note(NOT_BOTH.format(cards="「A」 and 「B」")) == "没有一段原文同时提到 「A」 and 「B」"
    assert Labels("en").note(NO_RULING.format(cards="「X」")) == NO_RULING.format(cards="「X」")
    page = web_client.get(
        "/ask", params={"q": "灰流丽能无效增殖的G吗"}, headers={"Accept-Language": "zh"}
    ).text
    assert "规则原文中没有裁定提到 「灰流丽」" in page and "No ruling in the texts" not in page
