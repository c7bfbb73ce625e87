"""How a question's own words become the texts' words: the English glossary,
one-character slang verbs, and the answer types ranking looks for."""

from __future__ import annotations

import yaml

from ocgkb.query.plan import plan_query
from ocgkb.query.scoring import ANSWER_TYPES
from ocgkb.text.glossary import Glossary

from conftest import DATA, KB

SMALL = Glossary(
    {
        "set": ["盖放"],
        "banish": ["除外"],
        "destroyed by battle": ["战斗破坏"],
        "destroy": ["破坏"],
        "chain link": ["连锁"],
        "chain": ["连锁"],
        "copy": ["复制"],
        "stop": ["停止"],
    }
)


def test_english_words_are_matched_whole_and_inflected():
    assert SMALL.translate("Can I reset it?") == []  # set is not inside reset
    assert SMALL.translate("It was banished") == ["除外"]
    assert SMALL.translate("destroying, destroys, destroyed") == ["破坏"]
    assert SMALL.translate("two copies") == ["复制"]
    assert SMALL.translate("it stopped") == ["停止"]
    assert SMALL.translate("chains") == ["连锁"]


def test_longer_phrases_win_and_keys_are_read_like_questions():
    assert SMALL.translate("it was destroyed by battle") == ["战斗破坏"]
    # The key says "destroyed"; a lone "destroyed" still means destroy.
    assert SMALL.translate("it was destroyed") == ["破坏"]
    assert SMALL.translate("the 2nd chain link") == ["连锁"]


def test_a_key_word_is_never_read_as_another_key_word():
    # timing is its own key, not an inflection of the time in "time limit".
    glossary = Glossary(
        {"timing": ["时点"], "time limit": ["限制时间"], "rule": ["规则"], "ruling": ["裁定"]}
    )
    assert glossary.translate("every time") == []
    assert glossary.translate("the timing") == ["时点"]
    assert glossary.translate("a ruling") == ["裁定"]
    assert glossary.translate("rules") == ["规则"]


def test_every_glossary_value_is_a_word_of_the_texts():
    entries = yaml.safe_load((KB / "glossary.yaml").read_text(encoding="utf-8"))["glossary"]
    assert len(entries) >= 250
    texts = "".join(p.read_text(encoding="utf-8") for p in DATA.glob("*.txt"))
    missing = {key: value for key, values in entries.items() for value in values if value not in texts}
    assert not missing, missing
    assert all(key == key.lower() and key.isascii() for key in entries)


def test_an_english_question_is_searched_in_the_texts_words(kb):
    plan = plan_query(kb, "Is a banished monster destroyed by battle?")
    assert {"除外", "战斗破坏"} <= set(plan.words)


def test_an_english_card_name_is_not_read_as_game_words(kb):
    plan = plan_query(kb, "Does Torrential Tribute destroy face-down monsters?")
    assert "激流葬" in plan.words and "破坏" in plan.words
    assert "解放" not in plan.words  # the card's name says tribute; the question does not


def test_a_slang_verb_counts_only_beside_a_particle(kb):
    assert "无效" in plan_query(kb, "被康了还能发动吗").words
    assert "破坏" in plan_query(kb, "这张会被炸吗").words
    # 接 inside 直接 is not 连锁.
    assert "连锁" not in plan_query(kb, "直接攻击").words + plan_query(kb, "直接攻击").expansions


def test_who_decides_and_which_step_questions_have_answer_types():
    who, when = ANSWER_TYPES
    assert who[0].search("放哪个格子谁决定？") and who[1].search("由对方自行选择")
    assert when[0].search("反转效果是在哪一步处理的") and when[1].search("伤害步骤")
    assert not who[0].search("攻击力打不过守备力怎么办")
