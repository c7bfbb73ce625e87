"""The engine's state over time: values computed when read (engine/stats.py), continuous
effects that reach cards arriving later and stop or resume with their source and its
locks, and the timing windows that close (§6.3.4.2, §6.3.4.3)."""

from __future__ import annotations

import pytest

from ocgkb.engine import Duel, IllegalChainError, stats
from ocgkb.engine.cards import parse_card

FIELD = {"kind": "spell", "type": "field", "effect": {"modify": "atk", "by": 300, "target": "all_monsters"}}
ORDER = {"kind": "trap", "type": "continuous", "effect": {"negate_effects": True, "target": "spells"}}
MON = {"kind": "monster", "made_up": True, "atk": 1000, "def": 1000, "level": 4}


def duel_with(cards: dict, **placed: tuple[str, str]) -> Duel:
    duel = Duel({k: parse_card(k, v) for k, v in cards.items()})
    for key, (player, zone) in placed.items():
        duel.put(key, key, player, zone, face_up=zone != "spelltrap")
    return duel


def test_a_field_spell_reaches_a_monster_that_arrives_after_it_resolved():
    duel = duel_with(
        {"field": FIELD, "mon": MON, "other": MON},
        field=("A", "hand"),
        mon=("A", "monster"),
        other=("A", "hand"),
    )
    duel.activate("field")
    duel.resolve_chain()
    duel.summon("other")
    assert duel.atk("mon") == duel.atk("other") == 1300
    assert not duel.card("other").modifiers  # nothing stored: the raise is found when read
    duel.destroy("field")
    assert duel.atk("mon") == duel.atk("other") == 1000


def test_a_lock_negates_what_already_applies_and_lifts_when_it_leaves():
    duel = duel_with(
        {"field": FIELD, "order": ORDER, "mon": MON},
        field=("A", "field"),
        order=("B", "spelltrap"),
        mon=("A", "monster"),
    )
    assert duel.atk("mon") == 1300
    duel.activate("order")
    duel.resolve_chain()
    assert duel.atk("mon") == 1000 and stats.is_negated(duel, duel.card("field"))
    assert duel.lock_on(duel.card("field")) == "order"
    duel.destroy("order")
    assert duel.atk("mon") == 1300 and not stats.is_negated(duel, duel.card("field"))


def test_a_field_spell_activated_under_a_lock_applies_once_the_lock_leaves():
    duel = duel_with(
        {"field": FIELD, "order": ORDER, "mon": MON},
        field=("A", "hand"),
        order=("B", "spelltrap"),
        mon=("A", "monster"),
    )
    duel.card("order").face_up = True
    duel.start_applying(duel.card("order"))
    duel.activate("field")
    duel.resolve_chain()
    assert duel.card("field").zone == "field" and duel.atk("mon") == 1000
    duel.destroy("order")
    assert duel.atk("mon") == 1300


def test_a_negated_lock_does_not_lock():
    canceller = {
        "kind": "monster",
        "made_up": True,
        "atk": 100,
        "def": 100,
        "effect": {"type": "continuous", "negate_effects": True, "target": "spells"},
    }
    duel = duel_with(
        {"field": FIELD, "canceller": canceller, "mon": MON},
        field=("A", "field"),
        canceller=("B", "monster"),
        mon=("A", "monster"),
    )
    assert duel.atk("mon") == 1000
    duel.negate_effects_of("canceller")
    assert duel.atk("mon") == 1300


def test_level_is_a_value_computed_like_atk():
    stars = {
        "kind": "spell",
        "type": "field",
        "effect": {"modify": "level", "by": 1, "target": "all_monsters"},
    }
    duel = duel_with({"stars": stars, "mon": MON}, stars=("A", "field"), mon=("A", "monster"))
    assert stats.level(duel, "mon") == 5
    duel.flip_face_down("mon")
    assert stats.level(duel, "mon") == 4


def test_a_continuous_change_takes_its_place_in_the_layer_order_when_it_begins():
    """§4.3.3.6.1.2: an activated 'becomes' absorbs the continuous raise applying before it;
    one that begins after it is added on top."""
    gale = {
        "kind": "monster",
        "made_up": True,
        "atk": 100,
        "def": 100,
        "effect": {"modify": "atk", "set": "half"},
    }
    duel = duel_with(
        {"field": FIELD, "gale": gale, "mon": MON},
        field=("A", "field"),
        gale=("B", "monster"),
        mon=("A", "monster"),
    )
    duel.activate("gale", ["mon"])
    duel.resolve_chain()
    assert duel.atk("mon") == 650  # (1000 + 300) / 2: the raise is not calculated again
    duel.destroy("field")
    assert duel.atk("mon") == 650


PRISON = {"kind": "trap", "effect": {"event": "attack_declared", "banish": "target"}}


def test_a_when_card_answers_only_the_window_its_event_opened():
    jammer = {"kind": "trap", "type": "counter", "effect": {"negate_activation": True}}
    cards = {"gaia": MON, "prison": PRISON, "mirror": PRISON, "jammer": jammer}
    duel = duel_with(
        cards,
        gaia=("A", "monster"),
        prison=("B", "spelltrap"),
        mirror=("B", "spelltrap"),
        jammer=("A", "spelltrap"),
    )
    duel.declare_attack("gaia")
    duel.activate("prison", ["gaia"])
    duel.activate("mirror", ["gaia"])  # the same window: a second card on that chain is fine
    duel.activate("jammer")
    duel.resolve_chain()
    assert duel.card("gaia").zone == "banished"


def test_after_its_chain_the_attack_declaration_window_is_closed():
    duel = duel_with(
        {"gaia": MON, "prison": PRISON, "mirror": PRISON},
        gaia=("A", "monster"),
        prison=("B", "spelltrap"),
        mirror=("B", "spelltrap"),
    )
    duel.declare_attack("gaia")
    duel.activate("prison", [])
    duel.resolve_chain()
    with pytest.raises(IllegalChainError) as refused:
        duel.activate("mirror", ["gaia"])
    assert refused.value.code == "timing_passed" and "§6.3.4.2/4" in str(refused.value)


def test_a_refusal_is_matched_by_its_code_or_its_words(tmp_path):
    from ocgkb.engine.scenario import ScenarioError, read_scenario, replay

    body = """title: t
replays: [x]
cards:
  甲: {kind: monster, made_up: true, atk: 1000, def: 1000}
start: {turn: A, phase: main1, A: {monsters: [甲]}}
actions:
  - attack: 甲
    expect_error: %s
expect: {}
"""
    for refusal, passed in (
        ("{code: wrong_phase}", True),
        ("{code: timing_passed}", False),
        ("battle phase", True),
    ):
        path = tmp_path / "s.yaml"
        path.write_text(body % refusal, encoding="utf-8")
        assert replay(read_scenario(path)).passed is passed, refusal
    path.write_text(body % "{cde: x}", encoding="utf-8")
    with pytest.raises(ScenarioError, match="step 1: expect_error takes code and words"):
        replay(read_scenario(path))


HEAD = "title: t\nreplays: [x]\ncards:\n  甲: {kind: monster, made_up: true, atk: 1000, def: 1000}\n"


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "start: {A: {monsters: [{card: 甲, owner: C}]}}\nactions: []\nexpect: {}\n",
            "monsters.甲.owner: 'C'",
        ),
        (
            "start: {A: {monsters: [{card: 甲, sleepy: true}]}}\nactions: []\nexpect: {}\n",
            "unknown field sleepy",
        ),
        (
            "start: {A: {monsters: [{card: 甲, set_this_turn: 1}]}}\nactions: []\nexpect: {}\n",
            "must be true or false",
        ),
        ("start: {duel_turn: 0}\nactions: []\nexpect: {}\n", "start.duel_turn: 0 is not a turn number"),
        ("actions:\n  - expect: {handz: {A: 1}}\nexpect: {}\n", "step 1: expect: unknown field handz"),
        ("actions:\n  - {expect: {}, resolve: true}\nexpect: {}\n", "step 1: a checkpoint holds only expect"),
        ("actions: []\nexpect: {hand: {A: -1}}\n", "expect.hand.A: -1 is not a count"),
        ("actions: []\nexpect: {pending: 甲}\n", "expect.pending must be a list of cards"),
        ("actions: []\nexpect: {events: [{card: 甲}]}\n", "expect.events[1]: needs `event`"),
        ("actions: []\nexpect: {events: [{event: destroyed, why: x}]}\n", "(unknown: why)"),
        ("actions: []\nexpect: {events: [{event: destroyed, cause: magic}]}\n", "'magic' is not one of"),
    ],
)
def test_a_malformed_addition_is_one_line_naming_file_step_and_field(tmp_path, body, message):
    from ocgkb.engine.scenario import ScenarioError, read_scenario, replay

    path = tmp_path / "bad.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(ScenarioError) as error:
        replay(read_scenario(path))
    assert message in str(error.value) and str(path) in str(error.value) and "\n" not in str(error.value)


def test_an_unknown_card_field_is_refused():
    from ocgkb.engine.cards import ScenarioCardError

    with pytest.raises(ScenarioCardError, match="no field do"):
        parse_card("x", {"kind": "spell", "do": [{"draw": 1}]})


def test_a_checkpoint_reports_its_step():
    from ocgkb.engine.scenario import Scenario, replay

    scenario = Scenario(
        path=__import__("pathlib").Path("t.yaml"),
        title="t",
        replays=["x"],
        cards={"甲": {"kind": "monster", "made_up": True, "atk": 1000, "def": 1000}},
        start={"A": {"monsters": ["甲"]}},
        actions=[{"expect": {"cards": {"甲": {"atk": 900}}}}],
        expect={},
    )
    assert replay(scenario).mismatches == ["step 1: 「甲」 atk: the text says 900, the replay gives 1000"]


def test_a_field_spell_can_reach_only_its_controllers_monsters():
    own = {"kind": "spell", "type": "field", "effect": {"modify": "atk", "by": 300, "target": "own_monsters"}}
    duel = duel_with(
        {"field": own, "mine": MON, "theirs": MON},
        field=("A", "field"),
        mine=("A", "monster"),
        theirs=("B", "monster"),
    )
    assert (duel.atk("mine"), duel.atk("theirs")) == (1300, 1000)


def test_an_unknown_continuous_target_is_an_error_not_silence():
    from ocgkb.engine import EngineError

    odd = {"kind": "spell", "type": "field", "effect": {"modify": "atk", "by": 300, "target": "nobody"}}
    duel = duel_with({"field": odd, "mon": MON}, field=("A", "field"), mon=("A", "monster"))
    with pytest.raises(EngineError, match="unknown target 'nobody'"):
        duel.atk("mon")


def test_every_event_records_its_zone_and_its_cause():
    """What happened, to which card, from which zone, by whose effect or cost, by
    battle, by a player's action or by the rules, and which player."""
    from ocgkb.engine.cards import parse_card
    from ocgkb.engine.duel import Duel

    specs = {
        "甲": parse_card("甲", {"kind": "monster", "made_up": True, "atk": 2000, "def": 1000, "level": 4}),
        "乙": parse_card("乙", {"kind": "monster", "made_up": True, "atk": 1000, "def": 1000, "level": 4}),
        "丙": parse_card("丙", {"kind": "monster", "made_up": True, "atk": 500, "def": 500, "level": 4}),
        "雷": parse_card(
            "雷",
            {
                "kind": "spell",
                "made_up": True,
                "effect": {"cost": [{"discard": "丙"}], "do": [{"destroy": "target"}]},
            },
        ),
    }
    duel = Duel(specs)
    duel.put("甲", "甲", "A", "monster")
    duel.put("乙", "乙", "B", "monster")
    duel.put("丙", "丙", "A", "hand")
    duel.put("雷", "雷", "A", "hand")
    duel.activate("雷", targets=["乙"])
    duel.resolve_chain()
    events = {(e.name, e.subject): e for e in duel.timeline.events}
    discarded, destroyed = events[("sent_to_gy", "丙")], events[("destroyed", "乙")]
    assert (discarded.origin, discarded.cause.kind, discarded.cause.by, discarded.cause.player) == (
        "hand",
        "cost",
        "雷",
        "A",
    )
    assert (destroyed.origin, destroyed.cause.kind, destroyed.cause.by) == ("monster", "effect", "雷")
    spell_trip = [e for e in duel.timeline.events if e.subject == "雷" and e.name == "sent_to_gy"][0]
    assert spell_trip.cause.kind == "rule" and spell_trip.origin == "spelltrap"
