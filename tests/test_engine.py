"""The rules engine: every scenario of kb/scenarios/ replays as its text states,
the ATK/DEF layers of §4.3.3.6, malformed scenarios, and invariants under random play."""

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ocgkb.cli.main import main
from ocgkb.engine import Duel, IllegalActionError, IllegalChainError
from ocgkb.engine.cards import parse_card
from ocgkb.engine.scenario import ScenarioError, read_scenario, replay
from ocgkb.engine.stats import ACTIVATED, CONTINUOUS, Modifier, current_value

from conftest import DATA, KB

SCENARIOS = sorted((KB / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replays_as_the_text_states(path, db):
    result = replay(read_scenario(path))
    assert result.passed, "\n".join(result.log + result.mismatches)
    assert result.scenario.replays, "a scenario cites the passages it replays"
    for pid in result.scenario.replays:  # it cites passages that exist
        assert db.execute("SELECT 1 FROM passages WHERE id = ?", (pid,)).fetchone(), pid


def test_there_are_scenarios_for_every_kind_of_situation():
    names = " ".join(p.stem for p in SCENARIOS)
    assert len(SCENARIOS) >= 30, names
    for word in ("atk", "battle", "replay", "chain", "timing"):
        assert word in names, word


# §4.3.3.6 in numbers, one modifier list per example of the text.


def mod(kind, layer, order, **values):
    return Modifier("atk", kind, layer, "x", order, **values)


@pytest.mark.parametrize(
    "printed, modifiers, expected",
    [
        (2500, [mod("add", ACTIVATED, 1, amount=700), mod("set", ACTIVATED, 2, fixed=1600)], 1600),
        (2500, [mod("add", ACTIVATED, 1, amount=700), mod("original", ACTIVATED, 2, fixed=1250)], 1950),
        (2500, [mod("set", CONTINUOUS, 1, rule="double"), mod("add", ACTIVATED, 2, amount=700)], 5700),
        (1000, [mod("add", CONTINUOUS, 0, amount=200), mod("set", ACTIVATED, 1, fixed=600)], 600),
        (1000, [mod("add", CONTINUOUS, 0, amount=200), mod("original", ACTIVATED, 1, fixed=500)], 700),
        (2100, [mod("add", CONTINUOUS, 1, amount=200), mod("set", CONTINUOUS, 2, rule="double")], 4400),
        (None, [mod("original", CONTINUOUS, -1, fixed=4000), mod("original", ACTIVATED, 1, fixed=0)], 0),
        (2500, [mod("set", ACTIVATED, 1, fixed=1250), mod("add", ACTIVATED, 2, amount=700)], 1950),
        (2500, [mod("add", ACTIVATED, 1, amount=700), mod("set", CONTINUOUS, 2, rule="double")], 5000),
        (400, [mod("add", ACTIVATED, 1, amount=1000), mod("original", ACTIVATED, 2, fixed=200)], 1200),
        (1000, [mod("add", ACTIVATED, 1, amount=-3000)], 0),  # never below 0
    ],
)
def test_atk_layers_of_section_4_3_3_6(printed, modifiers, expected):
    assert current_value(printed, modifiers, "atk") == expected


# Malformed scenarios: one-line errors that name the file and the step.

GOOD_CARDS = """
cards:
  甲: {kind: monster, atk: 1000, def: 1000}
  乙: {kind: spell, type: normal, effect: {destroy: target}}
  丙: {kind: spell, type: normal, effect: {draw: 1}}
start:
  A: {monsters: [甲], hand: [乙, 丙]}
"""


@pytest.mark.parametrize(
    "body, message",
    [
        ("title: t\n" + GOOD_CARDS + "actions:\n  - activate: 丁\nexpect: {}\n", "step 1: unknown card '丁'"),
        ("title: t\n" + GOOD_CARDS + "actions:\n  - dance: 甲\nexpect: {}\n", "step 1: unknown action"),
        (
            "title: t\n" + GOOD_CARDS + "actions:\n  - activate: 乙\n    target: 丙\nexpect: {}\n",
            "step 1: the target '丙' is not on the field",
        ),
        ("title: t\n" + GOOD_CARDS + "actions: [activate: 甲\nexpect: {}\n", "bad YAML at line"),
        (
            "title: t\n" + GOOD_CARDS.replace("monsters: [甲]", "monsters: 甲") + "actions: []\nexpect: {}\n",
            "must be a list of cards",
        ),
        (
            "title: t\n" + GOOD_CARDS + "actions:\n  - damage: {amount: lots}\nexpect: {}\n",
            "step 1: damage needs players A/B and an amount",
        ),
        (
            "title: t\ncards:\n  甲: {kind: wizard}\nactions: []\nexpect: {}\n",
            "kind must be monster, spell or trap",
        ),
        ("title: t\ncards: {}\nactions: []\n", "missing expect"),
        (
            "title: t\n" + GOOD_CARDS.replace("[甲]", "[戊]") + "actions: []\nexpect: {}\n",
            "unknown card '戊'",
        ),
    ],
)
def test_a_malformed_scenario_is_rejected_with_its_file_and_step(tmp_path, body, message):
    path = tmp_path / "bad.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ScenarioError, match=message) as raised:
        replay(read_scenario(path))
    assert str(path) in str(raised.value)
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_impossible_chain_is_a_malformed_scenario(tmp_path):
    path = tmp_path / "slow.yaml"
    path.write_text(
        "title: t\n"
        + GOOD_CARDS
        + "actions:\n  - activate: 丙\n  - activate: 乙\n    target: 甲\nexpect: {}\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError, match="step 2: impossible: .*spell speed 1 and cannot be chained"):
        replay(read_scenario(path))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2 and "slow.yaml: step 2" in result.output


def test_an_outcome_other_than_the_text_exits_1(tmp_path):
    path = tmp_path / "wrong.yaml"
    path.write_text(
        "title: t\n" + GOOD_CARDS + "actions:\n  - activate: 乙\n    target: 甲\n  - resolve\n"
        "expect:\n  cards: {甲: {zone: monster}}\n",
        encoding="utf-8",
    )
    result = replay(read_scenario(path))
    assert result.mismatches == ["「甲」 zone: the text says 'monster', the replay gives 'gy'"]
    cli = CliRunner().invoke(main, ["replay", str(path)])
    assert cli.exit_code == 1 and "✗" in cli.output


def test_replay_cli_prints_a_numbered_log_and_json(tmp_path):
    result = CliRunner().invoke(main, ["replay", str(SCENARIOS[0])])
    assert result.exit_code == 0 and "  1. " in result.output and "1 passed, 0 failed" in result.output
    data = CliRunner().invoke(main, ["replay", str(SCENARIOS[0]), "--json"])
    import json

    payload = json.loads(data.stdout)
    assert payload[0]["passed"] is True and payload[0]["log"] and "lp" in payload[0]["state"]


# Invariants under random legal play (hypothesis).

CARD_POOL = {
    "m1": {"kind": "monster", "atk": 1800, "def": 1200},
    "m2": {"kind": "monster", "atk": 1500, "def": 1500},
    "m3": {"kind": "monster", "atk": 0, "def": 2000},
    "m4": {"kind": "monster", "atk": None, "def": None, "own_atk": 2400},
    "up": {"kind": "spell", "type": "quick-play", "effect": {"modify": "atk", "by": 700}},
    "down": {"kind": "trap", "type": "normal", "effect": {"modify": "atk", "by": -1000}},
    "halve": {"kind": "trap", "type": "normal", "effect": {"modify": "atk", "set": "half"}},
    "shrink": {"kind": "spell", "type": "quick-play", "effect": {"modify": "atk", "original": "half"}},
    "giant": {"kind": "spell", "type": "equip", "effect": {"modify": "atk", "set": "double"}},
    "burn": {"kind": "trap", "type": "normal", "effect": {"damage": 1500, "to": "both"}},
    "smash": {"kind": "trap", "type": "counter", "effect": {"destroy": "target"}},
    "book": {"kind": "spell", "type": "quick-play", "effect": {"flip_face_down": "target"}},
    # A's hand: with m1 and m2 on the field, summoning all four would be a 6th monster.
    "h1": {"kind": "monster", "atk": 1000, "def": 1000},
    "h2": {"kind": "monster", "atk": 1100, "def": 900},
    "h3": {"kind": "monster", "atk": 1200, "def": 800},
    "h4": {"kind": "monster", "atk": 1300, "def": 700},
}
HAND_MONSTERS = ["h1", "h2", "h3", "h4"]

action = st.one_of(
    st.tuples(
        st.just("activate"),
        st.sampled_from(["up", "down", "halve", "shrink", "giant", "burn", "smash", "book"]),
        st.sampled_from(["m1", "m2", "m3", "m4"]),
    ),
    st.tuples(st.just("resolve"), st.none(), st.none()),
    st.tuples(st.just("attack"), st.sampled_from(["m1", "m2"]), st.sampled_from(["m3", "m4", None])),
    st.tuples(st.just("damage_step"), st.none(), st.none()),
    st.tuples(st.sampled_from(["summon", "special_summon"]), st.sampled_from(HAND_MONSTERS), st.none()),
)


def fresh_duel(lp: int) -> Duel:
    duel = Duel({k: parse_card(k, v) for k, v in CARD_POOL.items()}, lp=lp)
    for key in ("m1", "m2"):
        duel.put(key, key, "A", "monster")
    for key in ("m3", "m4"):
        duel.put(key, key, "B", "monster")
    for key in ("up", "shrink", "giant", "book", *HAND_MONSTERS):
        duel.put(key, key, "A", "hand")
    for key in ("down", "halve", "burn", "smash"):
        duel.put(key, key, "B", "spelltrap", face_up=False)
    return duel


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=100, max_value=8000), st.lists(action, max_size=25))
def test_invariants_hold_under_random_play(lp, actions):
    duel = fresh_duel(lp)
    for key in HAND_MONSTERS[:2]:  # A holds 4 of its 5 monster zones: 2 more summons would be a 6th
        duel.special_summon(key)
    for verb, first, second in actions:
        activated = [link.card for link in duel.chain]
        try:
            if verb == "activate":
                duel.activate(first, [second])
            elif verb == "resolve":
                before = len(duel.resolved)
                duel.resolve_chain()
                assert duel.chain == []  # a resolved chain is empty
                resolved = duel.resolved[before:]  # fewer when the duel ended mid-chain
                assert resolved == list(reversed(activated))[: len(resolved)]  # last in, first out
            elif verb == "attack" and not duel.chain:
                duel.declare_attack(first, second)
            elif verb == "damage_step" and not duel.chain:
                duel.damage_step()
            elif verb == "summon" and not duel.chain:
                duel.summon(first)
            elif verb == "special_summon":
                duel.special_summon(first)
        except IllegalActionError:
            pass
        for player in duel.players.values():
            assert player.lp >= 0  # LP never negative
        for key, card in duel.cards.items():
            assert card.zone in ("hand", "monster", "spelltrap", "field", "gy", "banished")
            if card.spec.kind == "monster":
                assert duel.atk(key) >= 0 and duel.defense(key) >= 0  # ATK never negative
        assert sorted(duel.cards) == sorted(CARD_POOL)  # no card lost or made up
        for player in ("A", "B"):  # five monster zones and five spell & trap zones each
            assert len(duel.monsters(player)) <= 5
            assert (
                sum(1 for c in duel.cards.values() if c.zone == "spelltrap" and c.controller == player) <= 5
            )
        if duel.winner:
            break


def test_a_sixth_monster_is_refused():
    duel = fresh_duel(8000)
    duel.special_summon(HAND_MONSTERS[0])
    duel.special_summon(HAND_MONSTERS[1])
    duel.summon(HAND_MONSTERS[2])
    assert len(duel.monsters("A")) == 5
    with pytest.raises(IllegalActionError, match="monster zones are full"):
        duel.special_summon(HAND_MONSTERS[3])
    duel.end_turn()
    duel.end_turn()  # A's next turn: a normal summon again, but no room
    with pytest.raises(IllegalActionError, match="monster zones are full"):
        duel.summon(HAND_MONSTERS[3])
    assert duel.card(HAND_MONSTERS[3]).zone == "hand" and len(duel.monsters("A")) == 5


def test_a_speed_2_effect_cannot_chain_to_a_counter_trap():
    duel = fresh_duel(8000)
    duel.activate("up", ["m1"])
    duel.activate("smash", ["m1"])
    with pytest.raises(IllegalChainError, match="cannot chain"):
        duel.activate("book", ["m1"])


def test_lp_stops_at_zero_and_both_at_zero_is_a_draw():
    duel = fresh_duel(1000)
    duel.activate("burn", [])
    duel.resolve_chain()
    assert [p.lp for p in duel.players.values()] == [0, 0] and duel.winner == "draw"


def test_any_resolved_effect_after_the_summon_makes_a_when_effect_miss():
    cards = {
        "hero": {
            "kind": "monster",
            "atk": 1800,
            "def": 300,
            "effect": {
                "type": "trigger",
                "event": "self_special_summoned",
                "optional": True,
                "wording": "when",
                "draw": 1,
            },
        },
        "rush": {"kind": "spell", "type": "quick-play", "effect": {"modify": "atk", "by": 700}},
        "call": {"kind": "trap", "type": "continuous", "effect": {"special_summon": "target"}},
        "other": {"kind": "monster", "atk": 1000, "def": 1000},
    }
    duel = Duel({k: parse_card(k, v) for k, v in cards.items()})
    duel.put("other", "other", "A", "monster")
    duel.put("hero", "hero", "A", "gy")
    duel.put("rush", "rush", "A", "hand")
    duel.put("call", "call", "A", "spelltrap", face_up=False)
    duel.activate("rush", ["other"])  # chain link 1 only changes an ATK
    duel.activate("call", ["hero"])  # chain link 2 special summons
    duel.resolve_chain()
    assert duel.missed == ["hero"]
    with pytest.raises(IllegalChainError, match="misses the timing"):
        duel.activate("hero")


def test_zones_hold_five_monsters_and_five_spells_or_traps():
    cards = {f"m{i}": {"kind": "monster", "atk": 100, "def": 100} for i in range(6)}
    cards |= {f"s{i}": {"kind": "spell", "type": "continuous"} for i in range(6)}
    duel = Duel({k: parse_card(k, v) for k, v in cards.items()})
    for i in range(6):
        duel.put(f"m{i}", f"m{i}", "A", "hand")
        duel.put(f"s{i}", f"s{i}", "A", "hand")
    for i in range(5):
        duel.special_summon(f"m{i}")
        duel.activate(f"s{i}")
        duel.resolve_chain()
    with pytest.raises(IllegalActionError, match="monster zones are full"):
        duel.summon("m5")
    with pytest.raises(IllegalActionError, match="spell & trap zones are full"):
        duel.activate("s5")


def test_every_scenario_quotes_its_source_exactly():
    """`quote:` is a span of a source text, copied, never reworded."""
    import yaml

    sources = "".join(p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.txt")))
    for path in SCENARIOS:
        quote = str(yaml.safe_load(path.read_text(encoding="utf-8")).get("quote") or "")
        assert quote in sources, f"{path.name}: the quote is not in rulings_data/: {quote[:40]}"
