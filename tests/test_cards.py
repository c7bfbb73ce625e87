"""Every card known by every name: the texts' cards linked to the card facts,
what is no card, the dates of "「X」也…" rulings, and lookups in every language."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from ocgkb.query.lookup import find_cards
from ocgkb.sources.card_facts import read_card_facts

from conftest import DATA, passage_at


@pytest.fixture(scope="module")
def report(kb):
    return kb.report()


def test_the_card_facts_are_the_shared_data_byte_for_byte():
    """The compressed copy holds exactly the bytes the manifest's sha256 names."""
    import hashlib
    import lzma

    import yaml

    manifest = yaml.safe_load((DATA / "manifest.yaml").read_text(encoding="utf-8"))
    raw = lzma.decompress((DATA / manifest["cards"]["file"]).read_bytes())
    assert hashlib.sha256(raw).hexdigest() == manifest["cards"]["sha256"]
    assert raw.count(b"\n") == manifest["cards"]["count"] == 14344
    assert "yaml-yugi" in manifest["cards"]["provenance"]


def test_alternate_artworks_are_one_card():
    facts = {f.password: f for f in read_card_facts(DATA / "card_facts.jsonl.xz")}
    dark_magician = facts[36996508]
    assert dark_magician.alt_passwords == (46986414,)
    assert dark_magician.name_zh_ygopro == "黑魔术师"  # taken from the artwork that has it
    assert 46986414 not in facts


def test_at_least_95_percent_of_the_texts_cards_are_linked(db, report):
    linked, total = db.execute("SELECT count(password), count(*) FROM cards WHERE mentions > 0").fetchone()
    assert total >= 600
    assert linked / total >= 0.95
    note = next(n for n in report["notes"] if "linked to a password" in n)
    assert f"{linked} of {total}" in note


def test_the_report_lists_the_unlinked_cards_with_a_reason(db, report):
    unlinked = [
        r["name"] for r in db.execute("SELECT name FROM cards WHERE mentions > 0 AND password IS NULL")
    ]
    assert unlinked  # the two tokens the card data lacks
    assert "原始生命态衍生物" in unlinked
    for name in unlinked:
        entry = next(line for line in report["unlinked_cards"] if line.startswith(f"{name}:"))
        assert "token" in entry or "newer" in entry or "translated" in entry or "ambiguous" in entry


def test_texts_names_link_to_the_right_password(db):
    expected = {
        "增殖的G": 23434538,  # exact ygopro name
        "黑洞": 53129443,
        "魔法干扰阵": 77414722,  # the texts also write 魔法妨碍 (alias)
        "古遗物-巨怒剑": 85103922,  # also written 古遗物 巨怒剑
        "炎舞-「玉衡」": 19059929,  # a name holding 「」
        "闭锁世界的冥神": 98127546,  # translated otherwise: alias
    }
    for name, password in expected.items():
        assert db.execute("SELECT password FROM cards WHERE name = ?", (name,)).fetchone()[0] == password


NOT_CARDS_NOW = [
    "元素英雄",
    "魔导书",
    "魔术师",
    "灵兽",
    "妖仙兽",  # archetypes
    "让特殊召唤无效",
    "影响魔法与陷阱区域",  # terms
    "玉衡",  # cut out of 「炎舞-「玉衡」」
    "希朢皇 霍普",  # a corrupted spelling
    "古遗物 巨怒剑",  # a variant spelling of 古遗物-巨怒剑
]


@pytest.mark.parametrize("name", NOT_CARDS_NOW)
def test_what_is_no_card_of_its_own_is_not_in_the_cards(db, name):
    assert db.execute("SELECT 1 FROM cards WHERE name = ?", (name,)).fetchone() is None


def test_archetypes_are_kept_as_archetypes(db):
    for name in ("元素英雄", "魔导书", "灵兽", "光道", "暗黑界"):
        assert db.execute("SELECT mentions FROM archetypes WHERE name = ?", (name,)).fetchone()[0] >= 1


def test_terms_in_brackets_are_reported_as_not_cards(report):
    assert any("让特殊召唤无效" in line for line in report["not_cards"])


def test_spelling_variants_are_one_card(db):
    row = db.execute("SELECT spellings, mentions FROM cards WHERE password = 85103922").fetchone()
    assert set(json.loads(row["spellings"])) >= {"古遗物-巨怒剑", "古遗物 巨怒剑"}
    utopia = db.execute("SELECT name, spellings FROM cards WHERE password = 84013237").fetchone()
    assert "希朢皇 霍普" in json.loads(utopia["spellings"])
    assert utopia["name"] == "No.39 希望皇 霍普"  # the corrupted spelling is never the name shown


@pytest.mark.parametrize(
    "doc, card",
    [
        ("tournament", "盗贼七道具"),
        ("guide", "魔法干扰阵"),
        ("masterrule", "变形壶"),
        ("masterrule", "通灵盘"),
    ],
)
def test_cards_written_without_brackets_are_linked(db, doc, card):
    rows = db.execute(
        """SELECT pc.how FROM passage_cards pc JOIN passages p ON p.id = pc.passage_id
           WHERE p.doc = ? AND pc.card = ?""",
        (doc, card),
    ).fetchall()
    assert rows and {r[0] for r in rows} == {"bare"}


def test_a_card_name_inside_a_longer_one_is_not_a_mention(db):
    # 001 writes 元素英雄 荒野侠 bare: the whole card, not the archetype 元素英雄.
    pid = passage_at(db, "masterrule", _line_of("001", "元素英雄 荒野侠"))["id"]
    cards = {r[0] for r in db.execute("SELECT card FROM passage_cards WHERE passage_id = ?", (pid,))}
    assert "元素英雄 荒野侠" in cards
    # A rule term that holds or is a card name is the term: 灵摆区域 is no mention of 灵摆区.
    assert db.execute("SELECT count(*) FROM passage_cards WHERE card = '灵摆区'").fetchone()[0] == 0


def test_the_longest_name_wins_where_names_overlap(db):
    # 003 writes 例：黑魔导女孩杀龙战士: Buster Blader, not 龙战士 (Ryu Senshi) inside it.
    line = _line_of("003", "黑魔导女孩杀龙战士")
    pid = passage_at(db, "tournament", line)["id"]
    cards = {r[0] for r in db.execute("SELECT card FROM passage_cards WHERE passage_id = ?", (pid,))}
    assert "龙战士" not in cards and "杀龙战士" in cards
    assert db.execute("SELECT password FROM cards WHERE name = '杀龙战士'").fetchone()[0] == 78193831
    # Where 龙战士 stands alone (例：栗子球，龙战士), it is the card.
    pid = passage_at(db, "tournament", _line_of("003", "例：栗子球，龙战士"))["id"]
    assert db.execute(
        "SELECT 1 FROM passage_cards WHERE passage_id = ? AND card = '龙战士'", (pid,)
    ).fetchone()


def test_the_name_scanner_takes_the_longest_of_overlapping_names():
    from ocgkb.text.names import NameScanner

    scanner = NameScanner({"龙战士": "short", "杀龙战士": "long", "黑魔导女孩": "girl"})
    assert scanner.find("例：黑魔导女孩杀龙战士") == ["girl", "long"]
    assert scanner.find("栗子球，龙战士") == ["short"]
    # A longer name that starts later still wins over a shorter one it overlaps.
    scanner = NameScanner({"青眼白龙": "blue", "白龙骑士团长": "longer"})
    assert scanner.find("青眼白龙骑士团长与青眼白龙") == ["longer", "blue"]


def _line_of(prefix: str, text: str) -> int:
    path = next(DATA.glob(f"{prefix}_*.txt"))
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


@pytest.mark.parametrize(
    "line, card, date",
    [
        (148, "重骑甲虫 强劲海神独角仙", "2022-09-10"),
        (279, "No.106 巨岩掌 巨手", "2017-03-24"),
        (643, "精灵术师 树精", "2008-07-19"),
        (810, "超越融合", "2017-03-24"),
        (885, "新空间侠·黑暗豹", "2017-04-13"),
    ],
)
def test_a_date_records_the_card_whose_statement_it_closes(db, line, card, date):
    pid = passage_at(db, "rulings", line)["id"]
    dated = db.execute("SELECT date FROM dates WHERE passage_id = ? AND card = ?", (pid, card)).fetchall()
    assert [r[0] for r in dated] == [date]


def test_card_view_dates_a_ruling_by_its_own_card(cli_json):
    view = cli_json("card", "新空间侠·黑暗豹")
    line_885 = next(r for r in view["rulings"] if r["source"]["line"] == 885)
    assert line_885["date"] == "2017-04-13"  # not 2017-07-08, the date of 霸王眷龙 凶饿毒
    dates = [r["date"] for r in view["rulings"] if r["date"]]
    assert dates == sorted(dates, reverse=True)


LOOKUPS = {
    "en": [
        ("Maxx C", 23434538),
        ("maxx c", 23434538),
        ('Maxx "C"', 23434538),
        ("dark hole", 53129443),
        ("Compulsory Evacuation Device", 94192409),
        ("Mystical Space Typhoon", 5318639),
    ],
    "ja": [
        ("増殖するG", 23434538),
        ("ブラック・ホール", 53129443),
        ("サイクロン", 5318639),
        ("ぞうしょくするじー", 23434538),
        ("強制脱出装置", 94192409),
    ],
    "zh_official": [
        ("增殖的Z", 23434538),
        ("气旋", 5318639),
        ("暗黑界之龙神 漆黑古拉法", 34230233),
        ("新空间人 漆黑猎豹", 43237273),
        ("魔法干扰", 77414722),
    ],
    "nickname": [
        ("强脱", 94192409),
        ("羽毛扫", 18144506),
        ("增G", 23434538),
        ("神宣", 41420027),
        ("MST", 5318639),
    ],
}


@pytest.mark.parametrize(
    "query, password", [pair for pairs in LOOKUPS.values() for pair in pairs], ids=lambda v: str(v)
)
def test_card_is_found_by_every_name(cli_json, query, password):
    view = cli_json("card", query)
    assert view["matches"][0]["password"] == password


def test_card_json_carries_the_facts_and_the_texts_name(cli_json):
    top = cli_json("card", "Maxx C")["matches"][0]
    assert top["name"] == "增殖的G"
    assert top["names"] == {
        "zh": "增殖的G",
        "zh_official": "增殖的Z",
        "en": 'Maxx "C"',
        "ja": "増殖するＧ",
        "ja_reading": "ぞうしょくするジー",
    }
    assert (top["card_type"], top["type_line"], top["level"], top["atk"], top["def"]) == (
        "Monster",
        "Insect / Effect",
        2,
        "500",
        "200",
    )


def test_a_real_card_no_passage_mentions(cli):
    result = cli("card", "Parl, Hermit of Dark World")
    assert "#3289027" in result.output
    assert "Fiend / Effect" in result.output
    assert "No passage in the texts mentions this card." in result.output


@pytest.mark.parametrize("query", ["xyzzyq", "qqq白龙"])
def test_something_that_is_no_card_is_no_match_with_suggestions(cli, query):
    result = cli("card", query, expect=1)
    assert "no card is called anything like" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("query", ["连锁", "元素英雄"])
def test_a_part_many_names_share_lists_them_as_a_set(cli_json, query):
    # Issue 22: a set's name is not "no card" followed by five of its cards.
    view = cli_json("card", query)
    assert view["set"] == query and "matches" not in view
    holding = [card for card in view["cards"] if query in card["name"].replace("－", "")]
    assert len(holding) > 0.8 * len(view["cards"]) >= 10


def test_search_card_filter_takes_any_name_form(cli_json):
    by_en = cli_json("search", "发动", "--card", "Maxx C")
    by_zh = cli_json("search", "发动", "--card", "增殖的G")
    assert by_en["hits"] and [h["id"] for h in by_en["hits"]] == [h["id"] for h in by_zh["hits"]]


@pytest.mark.parametrize("question", ["Maxx C 在哪里发动", "增殖的Z在哪里发动", "增G在哪里发动"])
def test_a_question_naming_a_card_in_any_form_finds_its_passages(cli_json, question):
    hits = cli_json("search", question)["hits"]
    assert "增殖的G" in hits[0]["cards"]


def test_lookup_speed_does_not_need_the_fuzzy_path_for_a_whole_name(kb):
    # Whole names of any language are one indexed lookup; the score says so.
    assert find_cards(kb, "Dark Hole")[0].score == 100.0
    assert find_cards(kb, "ブラック・ホール")[0].how == "ja"


def test_card_nodes_carry_password_and_names_in_graphml(cli, tmp_path: Path):
    out = tmp_path / "graph.graphml"
    cli("export", "--format", "graphml", "-o", str(out))
    graph = nx.read_graphml(out)
    node = graph.nodes["card:增殖的G"]
    assert int(node["password"]) == 23434538
    assert (node["name_en"], node["name_zh_official"], node["name_ja"]) == (
        'Maxx "C"',
        "增殖的Z",
        "増殖するＧ",
    )
    cards = [n for n, d in graph.nodes(data=True) if d["kind"] == "card"]
    assert sum("password" in graph.nodes[n] for n in cards) / len(cards) >= 0.95
    assert graph.nodes["archetype:元素英雄"]["kind"] == "archetype"
