"""Retrieval on the real corpus: segmentation, expansion, card lookup, ranking."""

import pytest

from ocgkb.query.lookup import find_cards
from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import Filters, search
from ocgkb.text.tokenize import bigrams, query_words, split_query


def texts(kb, question, limit=5, **filters):
    return [h.text for h in search(kb, question, Filters(**filters), limit=limit)]


@pytest.mark.parametrize(
    "question, expected",
    [
        ("cost算不算卡片的效果", "cost不视为卡片效果"),
        ("开局每个人有多少基本分", "决斗开始时双方都持有8000基本分"),
        ("怪兽被解放算破坏吗", "被解放的怪兽不视为破坏"),
        ("伤害步骤里能发动什么样的卡", "伤害步骤"),
        ("两只攻击力都是0的怪兽战斗会怎样", "双方攻击力为0的攻击表示怪兽进行战斗的场合"),
    ],
)
def test_paraphrased_questions_find_their_clause(kb, question, expected):
    assert any(expected in t for t in texts(kb, question))


@pytest.mark.parametrize(
    "slang, rule_word",
    [
        ("祭品", "解放"),
        ("盖放", "盖伏"),
        ("超量", "xyz"),
        ("卡片速度", "咒文速度"),
        ("除外", "从游戏中除外"),
        ("付血", "支付基本分"),
    ],
)
def test_old_and_new_terms_and_slang_expand_each_other(kb, slang, rule_word):
    plan = plan_query(kb, f"{slang}是怎么回事")
    assert rule_word in plan.words + plan.expansions


def test_english_names_reach_the_chinese_texts(kb):
    assert any("卷回" in t for t in texts(kb, "replay"))
    assert any("cost" in t for t in texts(kb, "cost"))
    plan = plan_query(kb, "miss timing")
    assert "miss_timing" in plan.concepts and "卡时点" in plan.words


def test_query_segmentation_follows_the_index_vocabulary(kb):
    words = query_words(kb.normalize("cost算不算卡片的效果"), kb.vocabulary)
    assert {"卡片", "效果", "cost"} <= set(words)
    assert "片的" not in words and "的效" not in words  # not cross-word junk
    whole, inner = split_query(kb.normalize("装备卡"), kb.vocabulary)
    assert whole == ["装备卡"] and "装备" in inner


def test_card_names_survive_segmentation_whole(kb):
    plan = plan_query(kb, "「No.41 泥睡魔兽 睡梦貘」的cost")
    assert "No.41 泥睡魔兽 睡梦貘" in plan.cards
    assert "no41泥睡魔兽睡梦貘" in plan.words
    hits = search(kb, "暗黑界的龙神 格拉法被丢弃", limit=5)
    assert len(hits) >= 3, [h.id for h in hits]
    assert all("暗黑界的龙神 格拉法" in h.cards for h in hits[:3])


def test_bigrams_cover_lone_characters():
    assert bigrams("卷回") == ["卷回"] and bigrams("卡") == ["卡"] and bigrams("abc") == []


def test_a_rule_clause_outranks_loose_text_that_only_repeats_it(kb):
    from collections import Counter

    from ocgkb.query.ranking import Candidate, _rules_before_repeats

    def candidate(pid: str, doc: str, kind: str, words: str) -> Candidate:
        tokens = words.split()
        fields = ((Counter(tokens), len(tokens)), (Counter(), 0), (Counter(), 0), (Counter(), 0))
        return Candidate(pid, doc, kind, None, None, words, fields, {}, frozenset())

    plan = plan_query(kb, "同名卡最多能放几张")
    said = " ".join(plan.words)
    candidates = {
        "clause": candidate("clause", "rulebook", "clause", said),
        "wiki": candidate("wiki", "masterrule", "paragraph", said),
        "bullet": candidate("bullet", "tournament", "subitem", said),
        "ruling": candidate("ruling", "rulings", "subitem", said),
    }
    scored = {"clause": 0.9, "wiki": 1.0, "bullet": 1.1, "ruling": 1.0}
    _rules_before_repeats(plan, candidates, scored)
    assert scored["clause"] > scored["wiki"] and scored["clause"] > scored["bullet"]
    assert scored["ruling"] == 1.0  # a dated ruling's sub-rule is a rule, not a retelling
    # On the real texts the clause is among the first answers.
    hits = search(kb, "同名卡最多能放几张", limit=5)
    assert "1.2.1/5" in [h.id for h in hits]


def test_near_twins_are_shown_once(kb, db):
    twins = db.execute("SELECT id, dup_of FROM passages WHERE dup_of IS NOT NULL").fetchall()
    assert len(twins) > 20
    hits = search(kb, "连锁的基本处理方法是逆算", limit=10)
    shown = [h.id for h in hits]
    assert shown and len(shown) == len(set(shown))
    assert not any(h.id in {t["id"] for t in twins} for h in hits)
    assert any(h.merged for h in hits)


def test_a_card_in_the_question_ranks_its_rulings(kb):
    hits = search(kb, "宇宙耀变龙的发动被无效", limit=3)
    assert "宇宙耀变龙" in hits[0].cards


@pytest.mark.parametrize(
    "typed, card",
    [
        ("电器尾龙", "电气尾龙"),  # a typo by sound
        ("电汽尾龙", "电气尾龙"),
        ("艾克佐迪亚", "被封印的艾克佐迪亚"),  # a part of the name
        ("青眼白龍", "青眼白龙"),  # traditional characters
        ("月之書", "月之书"),
        ("heidong", "黑洞"),  # pinyin without spaces
        ("qing yan bai long", "青眼白龙"),  # with spaces
        ("QYBL", "青眼白龙"),  # initials, any case
        ("dayuzhou", "大宇宙"),
    ],
)
def test_card_lookup_tolerates_how_players_type(kb, typed, card):
    assert find_cards(kb, typed)[0].name == card


def test_card_lookup_says_when_nothing_is_close(kb):
    assert find_cards(kb, "完全不存在的东西啊啊") == []
    assert find_cards(kb, "zzzzqqqq") == []


def test_filters_narrow_the_candidates_not_just_the_page(kb):
    # A section filter must find matches however far down they rank unfiltered.
    hits = search(kb, "卷回", Filters(section="6.3.4.2.1"), limit=20)
    assert hits and all(h.section == "6.3.4.2.1" for h in hits)
    hits = search(kb, "效果", Filters(kind="note"), limit=5)
    assert hits and all(h.kind == "note" for h in hits)
