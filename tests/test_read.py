"""`ocgkb read` (issue 23): the card-text reader on texts written here in the
style of card texts (never a real card's), the citations against the built
knowledge base, and the command with --card and bad input."""

from __future__ import annotations

import json

import pytest

from ocgkb.store.passages import passage
from ocgkb.text.card_text import CITES, read_card_text

QUICK_PLAY = "5318639"  # 旋风, a quick-play spell
COUNTER_TRAP = "神之宣告"  # a counter trap, named by its name


def effects(text: str, card_kind: str | None = None) -> list[dict]:
    return read_card_text(text, card_kind)["effects"]


def first(text: str, card_kind: str | None = None) -> dict:
    return effects(text, card_kind)[0]


def test_every_cited_passage_exists(kb):
    missing = [pid for pid in CITES.values() if passage(kb, pid) is None]
    assert missing == []


# Numbering: ①②③ keep their number, a summon condition is 0, an unnumbered text counts 1, 2 …


def test_numbered_effects_keep_their_number():
    text = "这张卡不能通常召唤。用自己墓地2只龙族怪兽除外的方法才能特殊召唤。①：这张卡特殊召唤成功时才能发动。自己抽1张。③：自己主要阶段才能发动。对方场上1张卡破坏。"
    assert [(e["n"], e["kind"]) for e in effects(text)] == [
        (0, "summon_condition"),
        (1, "trigger"),
        (3, "ignition"),
    ]


def test_an_unnumbered_text_is_cut_where_a_new_effect_opens():
    text = (
        "这张卡召唤成功时，可以从卡组把1只昆虫族怪兽加入手卡。那之后，选1张手卡丢弃。"
        "只要这张卡在场上表侧表示存在，对方不能选择其他怪兽作为攻击对象。"
        "1回合1次，自己主要阶段才能发动。对方场上1只怪兽破坏。"
    )
    read = effects(text)
    assert [(e["n"], e["kind"]) for e in read] == [(1, "trigger"), (2, "continuous"), (3, "ignition")]
    assert read[0]["text"].endswith("选1张手卡丢弃。")  # a resolution sentence stays with its effect


def test_a_resolution_sentence_referring_back_does_not_open_an_effect():
    text = "自己主要阶段才能发动。从卡组抽1张。那个场合，这个回合自己不能特殊召唤。"
    assert len(effects(text)) == 1


# Kinds and spell speeds


@pytest.mark.parametrize(
    "text, kind, speed",
    [
        ("①：自己主要阶段才能发动。从卡组把1只怪兽加入手卡。", "ignition", 1),
        ("①：这张卡被送去墓地的场合才能发动。自己抽1张。", "trigger", 1),
        ("①：自己·对方回合，以场上1只怪兽为对象才能发动。那只怪兽除外。", "quick", 2),
        ("①：以场上1只怪兽为对象才能发动。那只怪兽破坏。这个效果在对方回合也能发动。", "quick", 2),
        ("①：对方把怪兽的效果发动时，把这张卡从手卡丢弃才能发动。那个发动无效。", "quick", 2),
        ("①：只要这张卡在怪兽区域存在，自己场上的怪兽的攻击力上升300。", "continuous", None),
        ("反转：对方场上1只怪兽破坏。", "flip", 1),
        ("①：对方主要阶段，把这张卡从手卡丢弃才能发动。对方场上1只怪兽破坏。", "quick", 2),
        ("①：战斗阶段，把这张卡解放才能发动。对方场上1只怪兽破坏。", "quick", 2),
        ("①：自己准备阶段发动。自己受到500伤害。", "trigger", 1),
        ("①：这张卡反转的场合才能发动。自己抽1张。", "trigger", 1),
        ("这张卡不会被战斗破坏。", "continuous", None),
    ],
)
def test_kinds_and_speeds_of_monster_effects(text, kind, speed):
    effect = first(text, "monster")
    assert (effect["kind"], effect["spell_speed"]) == (kind, speed)


@pytest.mark.parametrize(
    "card_kind, speed",
    [
        ("normal_spell", 1),
        ("quick_play_spell", 2),
        ("normal_trap", 2),
        ("counter_trap", 3),
        ("continuous_trap", 2),
    ],
)
def test_an_activation_takes_its_speed_from_the_card_type(card_kind, speed):
    effect = first("①：以场上1张卡为对象才能发动。那张卡破坏。", card_kind)
    assert (effect["kind"], effect["spell_speed"], effect["optional"]) == ("activation", speed, True)


def test_a_graveyard_effect_of_a_spell_is_not_its_activation():
    read = effects(
        "①：自己场上1只怪兽的攻击力上升800。②：把墓地的这张卡除外才能发动。自己抽1张。", "quick_play_spell"
    )
    assert [(e["kind"], e["spell_speed"]) for e in read] == [("activation", 2), ("other", 1)]


def test_a_continuous_traps_activation_is_its_first_activated_effect_without_a_limit():
    lasting = "①：只要这张卡在魔法与陷阱区域存在，对方不能攻击。②：1回合1次，以场上1张卡为对象才能发动。那张卡破坏。"
    assert [e["kind"] for e in effects(lasting, "continuous_trap")] == ["continuous", "other"]
    revive = "①：以自己墓地1只怪兽为对象才能发动。那只怪兽特殊召唤。"
    assert (first(revive, "continuous_trap")["kind"], first(revive, "continuous_trap")["spell_speed"]) == (
        "activation",
        2,
    )


def test_a_field_spell_activation_is_the_effect_that_says_so():
    text = "①：作为这张卡的发动时的效果处理，可以从卡组把1只植物族怪兽加入手卡。②：只要这张卡在场地区域存在，自己的植物族怪兽的攻击力上升200。"
    assert [e["kind"] for e in effects(text, "field_spell")] == ["activation", "continuous"]


def test_without_the_card_the_reading_says_what_the_text_cannot_decide():
    reading = read_card_text("①：对方怪兽的攻击宣言时才能发动。那只怪兽破坏。")
    assert any("--card" in note for note in reading["notes"])
    assert reading["effects"][0]["spell_speed"] == 1  # read as a monster's trigger


# Optional, when / if, miss-timing, in both wordings


@pytest.mark.parametrize(
    "text, optional, wording, misses",
    [
        ("①：这张卡召唤成功时才能发动。自己抽1张。", True, "when", True),
        ("①：此卡召唤成功时可以发动。自己抽1张。", True, "when", True),
        ("①：这张卡召唤成功的场合才能发动。自己抽1张。", True, "if", False),
        ("①：此卡召唤成功的情况下可以发动。自己抽1张。", True, "if", False),
        ("①：这张卡被破坏时发动。对方受到500伤害。", False, "when", False),
        ("①：这张卡被破坏的场合发动。对方受到500伤害。", False, "if", False),
        ("此卡被战斗破坏送去墓地时，可以从卡组把1只怪兽特殊召唤。", True, "when", True),
        ("这张卡被战斗破坏时，对方受到800伤害。", False, "when", False),
    ],
)
def test_triggers_optional_or_mandatory_when_or_if(text, optional, wording, misses):
    effect = first(text)
    assert effect["kind"] == "trigger"
    assert (effect["optional"], effect["trigger_wording"], effect["can_miss_timing"]) == (
        optional,
        wording,
        misses,
    )


def test_a_mandatory_when_trigger_notes_where_001_and_000_disagree():
    reading = read_card_text("①：这张卡被破坏时发动。对方受到500伤害。")
    assert any("masterrule/133" in note and "narrower" in note for note in reading["notes"])


def test_a_state_before_the_event_is_not_the_event():
    effect = first("①：这张卡在墓地存在的场合，对方把怪兽召唤时才能发动。这张卡加入手卡。")
    assert (effect["trigger_wording"], effect["can_miss_timing"]) == ("when", True)
    assert first("①：自己场上没有怪兽存在的场合才能发动。自己抽1张。")["kind"] == "ignition"


def test_an_activation_waiting_on_a_when_event_can_miss_the_timing():
    effect = first("①：对方把攻击力2000以上的怪兽特殊召唤时才能发动。那只怪兽破坏。", "normal_trap")
    assert (effect["kind"], effect["trigger_wording"], effect["can_miss_timing"]) == (
        "activation",
        "when",
        True,
    )


@pytest.mark.parametrize(
    "text", ["①：对方把魔法卡发动时才能发动。那个发动无效。", "①：对方把怪兽召唤之际才能发动。那次召唤无效。"]
)
def test_chain_response_timings_are_not_triggers(text):
    effect = first(text, "counter_trap")
    assert (effect["trigger_wording"], effect["can_miss_timing"]) == (None, None)
    assert CITES["chain_response"] in effect["cites"]


# Condition, cost and target


def test_condition_cost_and_target_split_as_002_reads_them():
    effect = first("②：自己主要阶段把墓地的这张卡除外，以场上1张魔法·陷阱卡为对象才能发动。那张卡破坏。")
    assert (effect["condition"], effect["cost"], effect["targets"]) == (
        "自己主要阶段",
        "把墓地的这张卡除外",
        True,
    )
    roles = [role for role, _ in effect["parts"]]
    assert roles[:3] == ["condition", "cost", "text"] and "target" in roles


@pytest.mark.parametrize(
    "text, cost",
    [
        ("①：支付1000基本分才能发动。自己抽2张。", "支付1000基本分"),
        ("①：丢弃1张手卡才能发动。自己抽2张。", "丢弃1张手卡"),
        ("①：把这张卡解放才能发动。从卡组把1只怪兽特殊召唤。", "把这张卡解放"),
        (
            "①：把自己场上1只怪兽送去墓地，支付500基本分才能发动。自己抽1张。",
            "把自己场上1只怪兽送去墓地，支付500基本分",
        ),
        ("①：自己主要阶段才能发动。自己抽1张。", None),
    ],
)
def test_costs(text, cost):
    effect = first(text)
    assert effect["cost"] == cost
    assert effect["targets"] is False


def test_a_cost_after_the_target():
    effect = first("①：对方回合，以对方场上1只怪兽为对象，把这张卡从手卡送去墓地才能发动。那只怪兽破坏。")
    assert (effect["condition"], effect["cost"], effect["targets"]) == (
        "对方回合",
        "把这张卡从手卡送去墓地",
        True,
    )
    assert [role for role, _ in effect["parts"]] == ["condition", "text", "target", "text", "cost", "text"]


def test_a_cost_with_a_condition_notes_001s_broader_reading():
    reading = read_card_text("①：对方回合，把手卡1只怪兽送去墓地才能发动。自己抽1张。")
    effect = reading["effects"][0]
    assert (effect["condition"], effect["cost"]) == ("对方回合", "把手卡1只怪兽送去墓地")
    assert any("masterrule/115" in note for note in reading["notes"])


def test_being_a_target_is_not_targeting():
    effect = first("①：只要这张卡在怪兽区域存在，这张卡不会成为对方的效果的对象。")
    assert effect["targets"] is False


# Once per turn


@pytest.mark.parametrize(
    "text, once",
    [
        ("这个卡名的①的效果1回合只能使用1次。①：自己主要阶段才能发动。自己抽1张。", "card_name"),
        ("①：自己主要阶段才能发动。自己抽1张。这个卡名的①的效果1回合只能使用1次。", "card_name"),
        ("①：1回合1次，自己主要阶段才能发动。自己抽1张。", "this_card"),
        ("1回合1次，可以把对方场上1只怪兽破坏。", "this_card"),
        ("①：自己主要阶段才能发动。自己抽1张。", "none"),
        ("此卡名的①效果每回合只能使用1次。①：自己主要阶段可以发动。自己抽1张。", "card_name"),
        ("①：每回合1次，自己主要阶段可以发动。自己抽1张。", "this_card"),
    ],
)
def test_once_per_turn(text, once):
    assert first(text)["once_per_turn"] == once


def test_a_header_names_the_effects_it_limits():
    text = "这个卡名的②的效果1回合只能使用1次。①：自己主要阶段才能发动。自己抽1张。②：这张卡被送去墓地的场合才能发动。自己抽1张。"
    assert [e["once_per_turn"] for e in effects(text)] == ["none", "card_name"]


def test_a_limit_on_activating_the_card_is_its_activations_alone():
    text = "这个卡名的卡在1回合只能发动1张。①：以场上1张卡为对象才能发动。那张卡破坏。②：把墓地的这张卡除外才能发动。自己抽1张。"
    assert [e["once_per_turn"] for e in effects(text, "quick_play_spell")] == ["card_name", "none"]


def test_every_conclusion_cites_a_known_passage():
    text = "这个卡名的①②的效果1回合只能使用1次。①：这张卡召唤成功时才能发动。自己抽1张。②：丢弃1张手卡，以场上1张卡为对象才能发动。那张卡破坏。"
    for effect in effects(text):
        assert effect["cites"] and set(effect["cites"]) <= set(CITES.values())
        assert all(c["cite"] in effect["cites"] for c in effect["conclusions"])


# The command


def test_read_with_a_quick_play_spell(cli):
    text = "①：以场上1张魔法·陷阱卡为对象才能发动。那张卡破坏。"
    view = json.loads(cli("read", text, "--card", QUICK_PLAY, "--json").stdout)
    assert view["card"]["kind"] == "quick_play_spell"
    assert (view["effects"][0]["kind"], view["effects"][0]["spell_speed"]) == ("activation", 2)
    assert set(view["sources"]) == set(view["effects"][0]["cites"])
    out = cli("read", text, "--card", QUICK_PLAY).stdout
    assert "[target: 以场上1张魔法·陷阱卡为对象]" in out and "① spell speed 2 (rulings/咒文速度/14)" in out


def test_read_with_a_counter_trap(cli):
    text = "①：对方把魔法·陷阱卡发动时，支付1000基本分才能发动。那个发动无效并破坏。"
    view = json.loads(cli("read", text, "--card", COUNTER_TRAP, "--json").stdout)
    effect = view["effects"][0]
    assert (view["card"]["kind"], effect["spell_speed"], effect["cost"]) == (
        "counter_trap",
        3,
        "支付1000基本分",
    )


def test_read_in_the_terminal_says_each_conclusion_with_its_citation(cli):
    out = cli("read", "②：这张卡被送去墓地时才能发动。自己抽1张。").stdout
    assert "② can miss the timing: an optional 'when' trigger (§3.2.2.1.1/5)" in out


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["read", "   "], 2, "the card text is empty"),
        (["read", "抽" * 1001], 2, "at most 1000 are read"),
        (["read", "このカードを手札から捨てて発動できる。"], 2, "only a Chinese card text is read"),
        (["read", "Once per turn: You can draw 1 card."], 2, "only a Chinese card text is read"),
        (["read", "①：自己抽1张。", "--card", "qqqqzzzzxxxx"], 1, "no card is called"),
        (["read", "①：\udcff自己抽1张。"], 1, "not valid UTF-8"),  # bytes the shell could not decode
    ],
)
def test_bad_input_is_one_line(cli, args, code, message):
    result = cli(*args, expect=code)
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_summon_procedure_is_part_of_the_summon_condition():
    text = "这张卡不能通常召唤。把自己墓地2只光属性怪兽除外的场合才能特殊召唤。①：1回合1次，自己主要阶段才能发动。自己抽1张。"
    read = effects(text)
    assert [(e["n"], e["kind"]) for e in read] == [(0, "summon_condition"), (1, "ignition")]
    assert read[1]["parts"][0] == ["limit", "1回合1次"]
