"""Saying so when the texts do not answer (issue 18 §2): an off-topic question,
a real card no passage mentions, two cards in one question, a card's Forbidden &
Limited status; in `ask`, `search`, the answer page and the API."""

from __future__ import annotations

import html

import pytest

from ocgkb.query.abstain import NOTHING_FITS, asks_status, judge, read_share, rules_vocabulary
from ocgkb.query.named_cards import named_cards
from ocgkb.query.plan import plan_query
from ocgkb.query.ranking import search
from ocgkb.views import status as status_module
from ocgkb.views.answer import answer, answer_page

from conftest import EN

OFF_TOPIC = "今天天气怎么样"
ASH = "灰流丽能无效增殖的G吗"


# An off-topic question: every hit is the nearest, none an answer, and it is said first.


def test_an_off_topic_question_fits_nothing(cli, cli_json):
    view = cli_json("ask", OFF_TOPIC)
    assert view["nothing_fits"] is True
    assert view["message"] == NOTHING_FITS
    assert view["hits"] and all(h["weak"] for h in view["hits"])
    assert cli("ask", OFF_TOPIC).output.startswith(NOTHING_FITS)
    searched = cli_json("search", OFF_TOPIC)
    assert searched["nothing_fits"] is True and all(h["weak"] for h in searched["hits"])
    assert cli("search", OFF_TOPIC).output.startswith(NOTHING_FITS)


@pytest.mark.parametrize(
    "question",
    ["附近有什么好吃的火锅店推荐吗", "What's a good recipe for banana bread?", "明天北京会下雨吗"],
)
def test_questions_about_other_things_fit_nothing(kb, question):
    assert answer(kb, question)["nothing_fits"] is True


@pytest.mark.parametrize(
    "question",
    [
        "cost算不算卡片的效果",
        "大宇宙在场的时候，手卡的增殖的G还能扔吗",
        "Who exactly is the 'turn player'?",
        "比赛中能不能随手碰对手的卡",
    ],
)
def test_questions_the_texts_answer_fit(cli, kb, question):
    view = answer(kb, question)
    assert view["nothing_fits"] is False and view["message"] is None
    assert not view["hits"][0]["weak"]
    assert not cli("ask", question).output.startswith(NOTHING_FITS)


def test_the_text_output_of_ask_marks_weak_hits(cli):
    assert "(nearest, not an answer)" in cli("ask", OFF_TOPIC).output
    assert "(nearest, not an answer)" not in cli("ask", "cost算不算卡片的效果", "--limit", "1").output


# The signals, on small cases.


def test_rules_vocabulary_is_the_rules_own_words(kb):
    def has(question):
        plan = plan_query(kb, question)
        return rules_vocabulary(kb, plan, named_cards(kb, question))

    assert not has(OFF_TOPIC)  # 天气 is in the texts, but far commoner everywhere else
    assert has("连锁是按什么顺序结算的")
    assert has("卡套里能不能夹点别的东西")


def test_what_the_texts_cannot_read_counts_against_a_question(kb):
    def share(question):
        return read_share(kb, plan_query(kb, question), named_cards(kb, question))

    assert share("猫能吃葡萄吗") < 0.45
    assert share("衍生物能当超量素材吗") == 1.0


def test_when_nothing_fits_every_hit_is_weak(kb):
    plan = plan_query(kb, OFF_TOPIC)
    hits = search(kb, OFF_TOPIC, plan=plan)
    verdict = judge(kb, plan, hits, [])
    assert verdict.nothing_fits and verdict.reasons
    assert all(hit.weak for hit in hits)


# A real card the texts never mention.


def test_a_card_no_passage_mentions_is_recognised_and_reported(cli, cli_json):
    view = cli_json("ask", ASH)
    names = [c["name"] for c in view["cards"]]
    assert names == ["灰流丽", "增殖的G"]
    ash = view["cards"][0]
    assert ash["in_texts"] is False and ash["password"] == 14558127
    assert view["cards"][1]["in_texts"] is True
    assert view["nothing_fits"] is True
    assert view["notes"] == ["No ruling in the texts mentions 「灰流丽」"]
    assert view["hits"]  # the rules that decide it, as the nearest passages
    # Nothing settles it and no passage mentions Ash: what is known of it is its own text.
    assert view["reason"] == "card_text"
    out = cli("ask", ASH).output
    # Why the texts do not answer comes first, then the cards the question names.
    assert out.startswith(view["message"])
    assert (
        out.index("No ruling in the texts mentions 「灰流丽」")
        < out.index("「灰流丽」 Ash Blossom")
        < out.index("1. ")
    )
    # The rules of the situation (negating), not the rulings that merely name 增殖的G.
    assert any("无效" in (h["clause"] or h)["text"] for h in view["hits"][:2])


def test_english_and_bracketed_names_of_unmentioned_cards(kb):
    english = named_cards(
        kb, "Can Called by the Grave be chained to Ash Blossom & Joyous Spring's activation?"
    )
    assert [(c.name, c.in_texts) for c in english] == [("墓穴的指名者", False), ("灰流丽", False)]


def test_a_word_that_is_also_a_card_name_is_a_card_only_in_brackets(kb):
    assert named_cards(kb, "副作用是什么") == []  # the word 副作用, not the card 「副作用？」
    assert [c.name for c in named_cards(kb, "「副作用？」能连锁吗")] == ["副作用？"]
    assert named_cards(kb, "灵摆怪兽往灵摆区放的时候被无效了") == []  # a rule term, also a card's name


def test_a_name_inside_a_texts_card_means_that_card_not_another(kb):
    # The texts rule on 「隆隆隆石人-黄金形态」; 隆隆隆石人 alone is another card.
    assert not [c for c in named_cards(kb, "黄金形态的隆隆隆石人攻击4000") if not c.in_texts]


# Two cards in one question.


def test_two_cards_are_both_shown_and_passages_naming_both_come_first(cli, kb):
    view = answer(kb, "大宇宙在场的时候，手卡的增殖的G还能扔吗")
    assert [c["name"] for c in view["cards"]] == ["大宇宙", "增殖的G"]
    assert {"大宇宙", "增殖的G"} <= set(view["hits"][0]["cards"])
    assert view["notes"] == []
    out = cli("ask", "大宇宙在场的时候，手卡的增殖的G还能扔吗").output
    assert out.startswith("「大宇宙」") and "「增殖的G」" in out.split("\n")[1]


def test_when_no_passage_names_both_cards_it_says_so(kb):
    view = answer(kb, "旋风和增殖的G能连锁吗")
    assert [c["name"] for c in view["cards"]] == ["旋风", "增殖的G"]
    assert view["notes"] == ["No passage names both 「旋风」 and 「增殖的G」"]


def test_the_answer_page_shows_every_card_named(kb):
    page = answer_page(kb, ASH)
    assert [c["name"] for c in page["cards"]] == ["灰流丽", "增殖的G"]


# The Forbidden & Limited status, from the lists.


def test_a_status_question_is_answered_from_the_lists_first(cli, cli_json):
    view = cli_json("ask", "增殖的G现在还是禁卡吗")
    statuses = {s["region"]: s for s in view["status"]["cards"][0]["statuses"]}
    assert view["status"]["cards"][0]["card"] == "增殖的G"
    assert statuses["ocg"]["status"] == "limited" and statuses["ocg"]["effective"] == "2026-07-01"
    assert statuses["ocg-cn"]["status"] == "semi-limited" and statuses["ocg-cn"]["region_name"] == "OCG China"
    assert view["nothing_fits"] is True  # the rules texts do not hold the lists
    out = cli("ask", "增殖的G现在还是禁卡吗").output
    assert "limited (1 copy) under the OCG list of 2026-07-01" in out
    assert out.index("Forbidden & Limited") < out.index(NOTHING_FITS) < out.index("1. ")
    # Then the rules on the list, not the rulings that merely name the card.
    assert "forbidden_limited" in view["hits"][0]["concepts"]


def test_is_pot_of_greed_banned(kb):
    view = answer(kb, "is Pot of Greed banned")
    assert view["status"]["cards"][0]["card"] == "强欲之壶"
    assert {s["status"] for s in view["status"]["cards"][0]["statuses"]} == {"forbidden"}
    assert "forbidden_limited" in view["hits"][0]["concepts"]


def test_a_card_name_holding_a_status_word_is_no_status_question(kb):
    cards = named_cards(kb, "For Forbidden Droplet's cost, can I send a Pendulum Monster?")
    assert not asks_status("For Forbidden Droplet's cost, can I send a Pendulum Monster?", cards)
    assert answer(kb, "禁忌的圣枪能对应连锁吗")["status"] is None


def test_a_partial_list_is_shown_with_a_warning(kb, monkeypatch):
    from ocgkb.query.limits import LimitListInfo, limit_lists

    partial = LimitListInfo("ocg-cn", "2026-01-01", 26, True)
    lists = [lst for lst in limit_lists(kb) if lst.region == "ocg"] + [partial]
    monkeypatch.setattr(status_module, "limit_lists", lambda kb: lists)
    monkeypatch.setattr(
        status_module,
        "newest_statuses",
        lambda kb, cards: [
            {"card": "增殖的G", "region": "ocg-cn", "region_name": "OCG China", "effective": "2026-01-01",
             "status": "unlimited", "copies": 3, "partial": True}
        ],
    )  # fmt: skip
    view = status_module.status_view(kb, ["增殖的G"])
    assert view["warnings"] and "OCG China list of 2026-01-01 names only 26 cards" in view["warnings"][0]


# The web page and the API.


def test_the_api_and_the_page_say_so_first(web_client, cli_json):
    api = web_client.get("/api/ask", params={"q": OFF_TOPIC}).json()
    assert api["nothing_fits"] is True and api["message"] == NOTHING_FITS
    assert api == cli_json("ask", OFF_TOPIC)
    searched = web_client.get("/api/search", params={"q": OFF_TOPIC}).json()
    assert searched["nothing_fits"] is True and searched["message"] == NOTHING_FITS
    page = html.unescape(web_client.get("/ask", params={"q": OFF_TOPIC}, headers=EN).text)
    assert NOTHING_FITS in page
    assert page.index(NOTHING_FITS) < page.index('class="answers"')
    chinese = web_client.get("/ask", params={"q": OFF_TOPIC}).text
    assert chinese.index("规则原文没有回答这个问题") < chinese.index('class="answers"')


def test_the_page_shows_an_unmentioned_card_and_its_note(web_client):
    page = html.unescape(web_client.get("/ask", params={"q": ASH}).text)
    assert (
        "「灰流丽」" in page
        and "Ash Blossom &amp; Joyous Spring" in web_client.get("/ask", params={"q": ASH}).text
    )
    assert "规则原文中没有裁定提到 「灰流丽」" in page  # the note, said as a Chinese page says it
    assert page.index("规则原文中没有裁定提到 「灰流丽」") < page.index('class="answers"')
    english = html.unescape(web_client.get("/ask", params={"q": ASH}, headers={"Accept-Language": "en"}).text)
    assert "No ruling in the texts mentions 「灰流丽」" in english


def test_the_page_shows_a_status_with_its_list(web_client):
    page = html.unescape(web_client.get("/ask", params={"q": "增殖的G现在还是禁卡吗"}, headers=EN).text)
    assert "Forbidden & Limited" in page and "OCG China list of" in page and "2026-07-01" in page


def test_an_english_nickname_names_its_card(kb):
    """A nickname players write in English (kb/card_nicknames.yaml) names its card in
    a question, as the texts' own names do; a short one needs its capital."""
    said = {c.name: c.said for c in named_cards(kb, "Can Ash Blossom negate Pot of Greed?")}
    assert set(said) == {"灰流丽", "强欲之壶"}
    assert "无限泡影" in {c.name for c in named_cards(kb, "Can Imperm negate it?")}
    assert not named_cards(kb, "if both players have cards evenly, who goes first")


def test_abstention_holds_on_the_sets_it_was_set_on_and_one_it_was_not(kb):
    """benchmarks/abstention.py over the real knowledge base: the calibration sets
    stay caught without false alarms, and the held-out set (never tuned on) keeps
    its false alarms low. Floors a few points under today's figures."""
    import json
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from abstention import judge_row

    def rates(name: str) -> tuple[float, float]:
        rows = [
            json.loads(x)
            for x in (ROOT / "benchmarks/questions" / name).read_text(encoding="utf-8").splitlines()
        ]
        results = [(row.get("negative", False), judge_row(kb, row)[0]) for row in rows]
        negatives = [ok for negative, ok in results if negative]
        answerables = [ok for negative, ok in results if not negative]
        return sum(negatives) / len(negatives), 1 - sum(answerables) / len(answerables)

    caught, alarms = rates("abstain_calibrate2.jsonl")
    assert caught >= 0.85 and alarms <= 0.02
    caught, alarms = rates("abstain_heldout2.jsonl")
    assert caught >= 0.6 and alarms <= 0.05


@pytest.mark.parametrize(
    "question, reason, first",
    [
        # 002 marks this point 调整中: the passage saying so comes first.
        ("通常抽卡前被丢弃的暗道化师彼得，抽卡后效果还能发动吗", "under_review", "rulings/通常抽卡/13"),
        # 001 says 连接魔法调整中……: so short a point is found by its subject, in either language.
        ("连接魔法卡发动的时候要注意什么", "under_review", "masterrule/25"),
        ("Are Link Spells legal now?", "under_review", "masterrule/25"),
        # 002 says 没有明确调整 of 「正正堂堂」: undecided too.
        ("正正堂堂适用时双方公开手卡，算玩家必须的行动还是效果处理", "under_review", "rulings/公开/1"),
        # Named by most of its concepts (cost, destroy, replacement, activation), in slang.
        ("把自己场上的卡破坏作为cost发动魔法卡时，代破能用吗", "under_review", "masterrule/82"),
        # What a card's own text says: no rule text prints it.
        ("红色重启要支付多少基本分", "card_text", None),
        ('Is Maxx "C" once per turn?', "card_text", None),
        # Nothing settles it, and no passage mentions the card: its own text is what is known.
        ("无限泡影盖放的回合能从手卡用吗", "card_text", None),
        # 003 hands penalties to the penalty guidelines, which are not among the texts.
        ("比赛迟到会受到什么处罚", "referred", "tournament/36"),
        ("What penalty do I get for a marked sleeve?", "referred", "tournament/36"),
        ("偷看对手的手卡被发现了怎么罚", "referred", "tournament/36"),
    ],
)
def test_the_answer_says_why_the_texts_do_not_settle_it(cli_json, question, reason, first):
    view = cli_json("ask", question)
    assert view["nothing_fits"] is True and view["reason"] == reason, view["message"]
    if first:
        assert view["hits"][0]["id"] == first and not view["hits"][0]["weak"]
    if reason == "card_text":
        assert "cards import" in view["message"] or "imported text" in view["message"]


@pytest.mark.parametrize(
    "question",
    [
        "调整中是什么意思",
        "观众给我支招算违规吗",
        "突进之后黑羽-疾风之盖尔，电气尾龙攻击力怎么算",
        "伤害步骤能发动什么卡",
        "代替破坏的效果什么时候适用",
    ],
)
def test_a_question_the_texts_settle_has_no_reason(cli_json, question):
    """What 调整中 means, whether outside help is allowed, a rule about a named card:
    the texts answer these, so no reason is given."""
    view = cli_json("ask", question)
    assert view["reason"] is None and view["nothing_fits"] is False
