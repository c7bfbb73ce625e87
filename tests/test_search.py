"""Retrieval on the real corpus: segmentation, expansion, card lookup, ranking.

The questions here are the tests' own, never those of an evaluation set
(benchmarks/questions/, ../shared/eval): a test that passes on the questions
used to measure would measure nothing."""

import json
import re

import pytest

from ocgkb.query.filters import Filters
from ocgkb.query.lookup import find_cards
from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import search
from ocgkb.text.tokenize import bigrams, query_words, split_query


def texts(kb, question, limit=5, **filters):
    return [h.text for h in search(kb, question, Filters(**filters), limit=limit)]


@pytest.mark.parametrize(
    "question, expected",
    [
        ("支付的cost算是卡的效果吗", "cost不视为卡片效果"),
        ("一局开始时每位玩家的基本分是多少", "决斗开始时双方都持有8000基本分"),
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
    naming = [h for h in hits if "暗黑界的龙神 格拉法" in h.cards]
    assert hits and hits[0] in naming and len(naming) >= 3, [h.id for h in hits]


def test_bigrams_cover_lone_characters():
    assert bigrams("卷回") == ["卷回"] and bigrams("卡") == ["卡"] and bigrams("abc") == []


def test_a_rule_clause_outranks_loose_text_that_only_repeats_it(kb):
    from collections import Counter

    from ocgkb.query.candidates import Candidate
    from ocgkb.query.ranking import _rules_before_repeats

    def candidate(pid: str, doc: str, kind: str, words: str) -> Candidate:
        tokens = words.split()
        fields = ((Counter(tokens), len(tokens)), (Counter(), 0), (Counter(), 0), (Counter(), 0))
        return Candidate(pid, doc, kind, None, None, words, fields, {})

    plan = plan_query(kb, "一副卡组里同名的卡可以放几张")
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
    hits = search(kb, "一副卡组里同名的卡可以放几张", limit=5)
    assert "1.2.1/5" in [h.id for h in hits]


def test_near_twins_are_shown_once(kb, db):
    twins = db.execute("SELECT id, dup_of FROM passages WHERE dup_of IS NOT NULL").fetchall()
    assert len(twins) > 20
    hits = search(kb, "连锁是按什么顺序处理的", limit=10)
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


def test_an_example_is_followed_by_its_rule(kb):
    hits = search(kb, "暗黑界的龙神 格拉法被丢弃", limit=5)
    ids = [h.id for h in hits]
    for i, hit in enumerate(hits[:3]):
        if hit.kind == "example" and hit.parent:
            assert hit.parent in ids[: i + 2], ids


def test_a_heading_that_introduces_a_list_is_not_the_answer(kb):
    hits = search(kb, "What Spell Speeds can a Spell Speed 3 effect be chained to?", limit=5)
    assert not any(h.text.rstrip().endswith(("：", ":")) and len(h.text) <= 20 for h in hits[:3])


# Floors a few points under what the ranking scores on a blind set (written by
# someone who read only the source texts): a broken ranking falls through them.
# Only the totals are compared, and only they are shown on failure.
BLIND_FLOORS = [
    ("blind2_zh.jsonl", 0.80, 0.92),  # scored 0.850 / 0.958 (issue 18)
    ("blind3_zh.jsonl", 0.72, 0.94),  # scored 0.754 / 0.977
    ("blind2_en.jsonl", 0.60, 0.80),  # scored 0.675 / 0.875
]


@pytest.mark.parametrize("name, floor_at_1, floor_at_5", BLIND_FLOORS)
def test_ranking_keeps_its_recall_on_a_blind_set(kb, name, floor_at_1, floor_at_5):
    from conftest import ROOT

    def squashed(text: str) -> str:
        return re.sub(r"\s+", "", text or "").replace("•", "·").replace("・", "·")

    path = ROOT / "benchmarks" / "questions" / name
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    ranks = []
    for row in rows:
        wanted = [squashed(e) for e in row["expect"]]
        texts = [squashed(h.text) for h in search(kb, row["q"], limit=5)]
        ranks.append(next((i for i, t in enumerate(texts, 1) if any(w in t for w in wanted)), None))
    at_1 = sum(r == 1 for r in ranks) / len(rows)
    at_5 = sum(r is not None for r in ranks) / len(rows)
    assert at_1 >= floor_at_1 and at_5 >= floor_at_5, f"R@1 {at_1:.3f}, R@5 {at_5:.3f}"


def test_english_words_meet_in_their_stem():
    """The index and a question stem English alike: an inflected question word meets
    the curated question that says it otherwise."""
    from ocgkb.text.tokenize import english_stem, latin_words

    assert latin_words("Tributed monsters are destroyed") == latin_words("tribute monster are destroy")
    assert english_stem("copies") == "copy" and english_stem("chains") == "chain"
    # Every inflection meets its base word: short plurals, doubled consonants, a final e.
    assert {english_stem(w) for w in ("wins", "win")} == {"win"}
    assert {english_stem(w) for w in ("flipped", "flips", "flip")} == {"flip"}
    assert {english_stem(w) for w in ("makes", "make", "making")} == {"mak"}
    assert {english_stem(w) for w in ("used", "uses", "use")} == {"use"}
    assert english_stem("speed") == "speed"  # not speed → spe
    assert latin_words("does this") == ["does", "this"]  # stop words are left whole


def test_an_english_question_meets_its_nearest_curated_question(kb):
    """An English question is also ranked by the curated English question it comes
    nearest to, whole: switched off, the nearest one's passage no longer leads."""
    from ocgkb.query import candidates as reader
    from ocgkb.query import scoring
    from ocgkb.query.plan import plan_query
    from ocgkb.store.passages import passage_keys
    from ocgkb.store.search_index import document_counts

    question = "Can a Token be sent to the Graveyard as a cost?"
    plan = plan_query(kb, question)
    candidates = {
        c.id: c for c in reader.read_candidates(kb, [rowid for rowid, _ in passage_keys(kb)]).values()
    }
    counts = document_counts(kb, plan.words)
    seeds = kb.families[0]
    nearest = scoring.nearest_question(seeds, plan, candidates, counts)
    best = candidates[nearest[0]]
    assert any({"token", "cost"} <= q for q in best.questions)
    assert scoring.nearest_question(seeds, plan_query(kb, "的"), candidates, counts) == []
