"""The rulings (002): topics, dates as ISO, the card each date dates, `wiki`."""

import pytest

from ocgkb.sources.dates import find_dates, to_iso

from conftest import passage_at


def dates_at(db, line):
    passage = passage_at(db, "rulings", line)
    rows = db.execute("SELECT date, card FROM dates WHERE passage_id = ? ORDER BY position", (passage["id"],))
    return [(r["date"], r["card"]) for r in rows]


@pytest.mark.parametrize(
    "line, expected",
    [
        (8, [("2017-03-24", "银河旋风")]),  # the statement's card
        (64, [("2017-07-28", "宇宙耀变龙")]),
        (109, [("2025-04-11", "大宇宙"), ("2017-03-24", "大宇宙")]),  # two dates on a line
        (148, [("2017-10-14", "超顶科技血神翼龙"), ("2022-09-10", "重骑甲虫 强劲海神独角仙")]),  # 「X」也一样
        (186, [("2020-01-10", "同盟运输车")]),
        (251, [("2017-03-24", "旧神 诺登"), ("2017-03-24", "光之引导")]),  # right after card names
        (643, [("2015-12-10", "DNA定期健诊"), ("2008-07-19", "精灵术师 树精")]),  # 08 is 2008
        (854, [("2017-03-24", "沼地的魔神王"), ("2017-03-24", "心眼的女神")]),  # right after, not the first
        (885, [("2017-07-08", "霸王眷龙 凶饿毒"), ("2017-04-13", "新空间侠·黑暗豹")]),
        (974, [("2017-03-24", "机壳的冻结"), ("2017-03-24", "钻尘妖")]),
        # A date right after another dates the same statement.
        (1065, [("2018-02-24", "飞龙艇-幻舵拉"), ("2018-03-01", "飞龙艇-幻舵拉")]),
        (
            279,
            [
                ("2017-03-24", "No.45 灭亡之预言者"),
                ("2017-03-24", None),
                ("2017-03-24", "No.106 巨岩掌 巨手"),
            ],
        ),
        # A date inside （…） closes the aside, which names no card; the last closes the sentence.
        (139, [("2019-11-23", None), ("2022-12-03", "虫惑之园")]),
        (1141, [("2017-03-24", "强制转移"), ("2017-03-24", "玄化荷鲁斯龙")]),
    ],
)
def test_rulings_carry_their_iso_dates(db, line, expected):
    assert dates_at(db, line) == expected


def test_wiki_is_a_source_not_a_date(db):
    for line in (838, 1118):
        passage = passage_at(db, "rulings", line)
        assert passage["source_note"] == "wiki"
        assert dates_at(db, line) == []


def test_rulings_sit_under_their_topic(db):
    passage = passage_at(db, "rulings", 64)
    assert passage["kind"] == "example"
    assert passage["topic"] == "基本用语 › cost"
    assert passage["section"] == "rulings/cost"
    link = db.execute(
        "SELECT dst FROM links WHERE src = ? AND relation = 'in_section'", ("passage:" + passage["id"],)
    ).fetchone()
    assert link["dst"] == "section:rulings/cost"


def test_see_references_are_resolved_to_their_topic(db):
    for line, target in ((292, "rulings/持续取对象"), (1114, "rulings/X素材"), (496, "rulings/cost")):
        passage = passage_at(db, "rulings", line)
        row = db.execute(
            "SELECT dst FROM links WHERE src = ? AND relation = 'refers_to'", ("passage:" + passage["id"],)
        ).fetchone()
        assert row is not None and row["dst"] == f"section:{target}", line


def test_a_quoted_heading_after_a_reference_word_is_resolved_like_see(db):
    """参照后面的“怪物战斗规则” (004:4, and 003 which repeats it) names the guide's
    heading 怪物的战斗规则, written without its 的."""
    for doc, line in (("guide", 4), ("tournament", 339)):
        passage = passage_at(db, doc, line)
        assert "参照后面的“怪物战斗规则”" in passage["text"], (doc, line)
        rows = db.execute(
            "SELECT dst FROM links WHERE src = ? AND relation = 'refers_to'", ("passage:" + passage["id"],)
        ).fetchall()
        assert [r["dst"] for r in rows] == ["section:guide/怪物的战斗规则"], (doc, line)


def test_reference_words_on_hand_made_lines():
    from ocgkb.build.pipeline import _section_finder
    from ocgkb.sources.model import ParsedDocument, Section
    from ocgkb.sources.topics import references
    from ocgkb.text.normalize import Normalizer

    assert references("具体参照后面的“怪物战斗规则”。") == ["怪物战斗规则"]
    assert references("请参见“连锁”，另详见持续取对象。") == ["连锁", "持续取对象"]
    assert references("参照该卡上记载的数值") == []  # 参照 a value, no heading
    assert references("因效果需要参照「原本攻击力和守备力」的场合") == []  # a quoted term
    assert references("本条目介绍均仅供参考") == []
    doc = ParsedDocument("guide", "g.txt", "guide")
    doc.sections = [
        Section("g/1", "怪物的战斗规则", "guide", 1),
        Section("g/2", "连锁和咒文速度", "guide", 9),
    ]
    find = _section_finder([doc], Normalizer())
    assert find("怪物战斗规则", "guide") == "g/1"  # without its 的
    assert find("连锁与咒文速度", "guide") == "g/2"  # one character off in seven
    assert find("连锁基础", "guide") is None  # no heading like it


def test_unresolved_references_are_reported(kb):
    unresolved = "\n".join(kb.report()["unresolved"])
    assert "见连锁基础" in unresolved


def test_dates_in_hand_made_lines():
    assert [d.iso for d in find_dates("「A」17/3/24 「B」 08/7/19 等。")] == ["2017-03-24", "2008-07-19"]
    assert [d.card for d in find_dates("「A」17/3/24 「B」 08/7/19 等。")] == ["A", "B"]
    assert [d.card for d in find_dates("「A」的效果。17/7/8 「B」也不能。17/4/13")] == ["A", "B"]
    assert [d.card for d in find_dates("「A」不能用「B」17/3/24")] == ["B"]  # the card it follows
    assert [d.names for d in find_dates("「A」不能用「B」17/3/24")] == [("B", "A")]
    assert find_dates("2500/2/3 与 17/13/40 与 1/2/3") == []  # not YY/M/D days
    assert [d.names for d in find_dates("「A」17/3/24 18/3/1")] == [("A",), ("A",)]  # one statement


def test_a_date_in_an_aside_closes_the_aside_not_the_sentence():
    dates = find_dates("「A」是（「B」不是卡片19/11/23，「C」是），可以。22/12/3")
    assert [(d.iso, d.names) for d in dates] == [("2019-11-23", ("B",)), ("2022-12-03", ("A",))]
    # Two dated clauses in one aside; an aside without a date is part of the sentence.
    dates = find_dates("「A」（「D」也是）（「B」不是17/1/1，「C」是18/1/1）。18/2/2")
    assert [d.names for d in dates] == [("B",), ("C",), ("A", "D")]
    # An unclosed （ (damaged text) is no aside: the date closes the whole line.
    assert [d.names for d in find_dates("「A」是（「B」不是17/1/1")] == [("A", "B")]
    assert to_iso("99", "1", "2") == "1999-01-02"


def test_indented_sub_rules_are_their_own_passages_under_their_ruling(db):
    """002 lines 65–80: the • sub-rules of cost are sub-items of the paragraph's
    lead ruling (60, 基本上，cost是…), not examples of it, and each 例： block below
    one hangs under that sub-rule."""
    ruling = passage_at(db, "rulings", 60)
    assert ruling["kind"] == "ruling"
    for line in (65, 68, 71, 74, 77, 80):
        sub = passage_at(db, "rulings", line)
        assert sub["kind"] == "subitem" and sub["text"].startswith("•"), line
        assert sub["parent"] == ruling["id"], line
        example = passage_at(db, "rulings", line + 2)
        assert example["kind"] == "example" and example["parent"] == sub["id"], line


def test_ruling_examples_link_to_the_right_ruling(db):
    """Each 例： under a sub-rule is about that sub-rule: it names what the sub-rule says."""
    pairs = db.execute(
        """SELECT e.text AS example, s.text AS rule FROM passages e JOIN passages s ON s.id = e.parent
           WHERE e.doc = 'rulings' AND e.kind = 'example' AND s.kind = 'subitem'"""
    ).fetchall()
    assert len(pairs) >= 8
    by_rule = {r["rule"][:10]: r["example"] for r in pairs}
    assert "月镜盾" in by_rule["• 无法支付的场合不"]  # cannot pay the cost
    assert "增殖的G" in by_rule["• 把自身作为cos"]  # itself as the cost: activated in the hand


def test_a_sentence_that_opens_a_list_is_not_a_topic(db):
    assert db.execute("SELECT 1 FROM sections WHERE title LIKE '以下的效果%'").fetchone() is None
    intro = passage_at(db, "rulings", 300)
    assert intro["topic"] == "效果的对象 › 不取对象"


def test_the_guides_chain_steps_are_content_not_topics(db):
    """004: 「连锁结束」 closes each worked chain (lines 50 and 61); 「;」 (line 135) names nothing."""
    titles = {r[0] for r in db.execute("SELECT title FROM sections WHERE doc = 'guide'")}
    assert "连锁结束" not in titles and ";" not in titles
    assert {"连锁图示", "连锁举例"} <= titles
    # 连锁照以下清算 introduces the steps that follow it: a passage over them, not a topic.
    assert "连锁照以下清算" not in titles and passage_at(db, "guide", 62)["text"] == "连锁照以下清算"
    for line, topic in ((50, "连锁图示"), (61, "连锁举例")):
        step = passage_at(db, "guide", line)
        assert step["text"] == "连锁结束" and step["topic"] == topic
