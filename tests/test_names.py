"""Card names: what is in 「」 is a card only when the one rule says so."""

import pytest

from ocgkb.sources.curated import name_rules
from ocgkb.text.names import bracket_mentions

from conftest import KB, passage_at

NOT_CARDS = [
    "卷回",
    "卡的发动",
    "原本数值",
    "效果的发动",
    "特殊召唤",
    "通常抽卡",
    "受到伤害",
    "指定的数值",
    "光",
    "暗",
    "永续",
    "速攻",
    "XYZ",
    "调整以外的怪兽",
    "连接标记",
    "金闪",
    "银碎",
    "面闪",
    "○○",
    "?",
    "发动后攻击力•守备力变成指定数值的效果",
    "ウルシク",
]


def test_at_least_300_distinct_card_names(db):
    assert db.execute("SELECT count(*) FROM cards WHERE mentions > 0").fetchone()[0] >= 300


@pytest.mark.parametrize("term", NOT_CARDS)
def test_terms_in_brackets_are_not_cards(db, term):
    assert db.execute("SELECT 1 FROM cards WHERE name = ? AND mentions > 0", (term,)).fetchone() is None


@pytest.mark.parametrize(
    "name",
    ["黑洞", "电气尾龙", "突进", "收缩", "海", "冥界的魔王 哈•迪斯", "No.41 泥睡魔兽 睡梦貘", "增殖的G"],
)
def test_real_cards_are_cards(db, name):
    row = db.execute("SELECT password, mentions FROM cards WHERE name = ?", (name,)).fetchone()
    assert row["password"] and row["mentions"] > 0


def test_set_names_are_archetypes(db):
    for name in ("光道", "暗黑界"):
        assert db.execute("SELECT 1 FROM archetypes WHERE name = ?", (name,)).fetchone()
        assert db.execute("SELECT 1 FROM cards WHERE name = ? AND mentions > 0", (name,)).fetchone() is None


def test_cards_link_to_the_passages_that_name_them(db):
    rows = db.execute(
        "SELECT passage_id FROM passage_cards WHERE card = '电气尾龙' ORDER BY passage_id"
    ).fetchall()
    assert "4.3.3.6.1.1/2/ex1" in [r[0] for r in rows]


def test_bare_card_names_are_found_in_the_wiki(db):
    row = db.execute(
        "SELECT how FROM passage_cards WHERE card = '奈落的落穴' AND passage_id LIKE 'masterrule/%'"
    ).fetchone()
    assert row is not None and row["how"] == "bare"


def test_the_rule_on_hand_made_text():
    rules = name_rules(KB, ["卷回"])
    found = bracket_mentions("名字带有「光道」的怪兽，「卷回」，「○○」，「黑洞」，「剑斗兽」融合怪兽", rules)
    assert [(m.name, m.kind) for m in found] == [
        ("光道", "archetype"),
        ("卷回", "term"),
        ("○○", "placeholder"),
        ("黑洞", "card"),
        ("剑斗兽", "archetype"),
    ]


def test_a_term_that_names_a_card_is_the_card_where_a_card_is_used(db):
    """「融合」 is the printed label in 000 (记载了「融合」的怪兽, 「融合」「仪式」「同调」…)
    and the card Polymerization in 002:842 (不使用「融合」来特殊召唤)."""
    fusion = db.execute("SELECT password FROM cards WHERE name = '融合'").fetchone()
    assert fusion is not None and fusion[0] == 24094653
    used = passage_at(db, "rulings", 842)["id"]
    assert db.execute(
        "SELECT 1 FROM passage_cards WHERE passage_id = ? AND card = '融合'", (used,)
    ).fetchone()
    for line in (77, 148):
        label = passage_at(db, "rulebook", line)
        assert "「融合」" in label["text"], line
        assert not db.execute(
            "SELECT 1 FROM passage_cards WHERE passage_id = ? AND card = '融合'", (label["id"],)
        ).fetchone(), line


def test_the_context_rule_on_hand_made_text():
    rules = name_rules(KB).with_card_terms(lambda name: name in {"融合", "死者苏生"})
    assert rules.card_terms == {"融合"}  # only a term can be read as a card by its context

    def kinds(text):
        return [m.kind for m in bracket_mentions(text, rules) if m.name == "融合"]

    assert kinds("不使用「融合」来特殊召唤") == ["card"]
    assert kinds("「融合」的效果把怪兽融合召唤") == ["card"]
    assert kinds("「死者苏生」「融合」等魔法卡") == ["card"]  # beside another card
    assert kinds("「死者苏生」、「融合」") == ["card"]
    assert kinds("种族的右侧记载了「融合」的怪兽为融合怪兽") == ["term"]
    assert kinds("卡面上有「融合」「仪式」「同调」的记述") == ["term"]  # beside terms
    assert kinds("「死者苏生」以外的「融合」的怪兽") == ["term"]  # near a card, not listed with it
