"""The engine's record of when things happen, its bookkeeping of places, its
legality checks, and how `replay` treats malformed and hostile files."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ocgkb.engine import Duel, IllegalActionError
from ocgkb.engine.cards import ScenarioCardError, parse_card
from ocgkb.engine.scenario import read_scenario, replay

WATCHER = {  # "when this card is destroyed: you can draw 1"
    "kind": "monster",
    "made_up": True,
    "atk": 1000,
    "def": 1000,
    "effect": {"type": "trigger", "event": "self_destroyed", "wording": "when", "draw": 1},
}


def duel_with(cards: dict, **placed: tuple[str, str]) -> Duel:
    duel = Duel({k: parse_card(k, v) for k, v in cards.items()})
    for key, (player, zone) in placed.items():
        duel.put(key, key, player, zone, face_up=zone != "spelltrap")
    return duel


@pytest.mark.parametrize("order, missed", [("simultaneous", []), ("sequential", ["watcher"])])
def test_destroy_and_damage_at_once_keeps_the_timing_then_loses_it(order, missed):
    spell = {"kind": "spell", "effect": {"order": order, "do": [{"destroy": "target"}, {"damage": 500}]}}
    duel = duel_with({"watcher": WATCHER, "bolt": spell}, watcher=("B", "monster"), bolt=("A", "hand"))
    duel.activate("bolt", ["watcher"])
    duel.resolve_chain()
    assert duel.missed == missed
    assert ("watcher" in duel.pending) == (not missed)


@pytest.mark.parametrize(
    "text, order", [("破坏，那之后给与500伤害", "sequential"), ("破坏、给与500伤害", "simultaneous")]
)
def test_the_cards_wording_decides_the_order(text, order):
    card = parse_card(
        "x", {"kind": "spell", "effect": {"text": text, "do": [{"destroy": "target"}, {"damage": 5}]}}
    )
    assert card.effects[0].order == order


def test_a_spells_own_trip_to_the_gy_is_not_a_later_event():
    spell = {"kind": "spell", "effect": {"destroy": "target"}}
    duel = duel_with({"watcher": WATCHER, "hole": spell}, watcher=("B", "monster"), hole=("A", "hand"))
    duel.activate("hole", ["watcher"])
    duel.resolve_chain()
    assert duel.card("hole").zone == "gy"
    assert duel.missed == [] and duel.pending == ["watcher"]
    duel.activate("watcher")  # its timing is still open


def test_a_link_that_changes_nothing_still_ends_the_moment():
    hero = {
        "kind": "monster",
        "made_up": True,
        "atk": 1800,
        "def": 300,
        "effect": {"type": "trigger", "event": "self_special_summoned", "wording": "when", "draw": 1},
    }
    cards = {
        "hero": hero,
        "quiet": {"kind": "trap", "effect": {"negate_effects": "target"}},  # logs nothing that happens
        "call": {"kind": "trap", "effect": {"special_summon": "target"}},
        "other": {"kind": "monster", "made_up": True, "atk": 100, "def": 100},
    }
    duel = duel_with(
        cards, hero=("A", "gy"), quiet=("A", "spelltrap"), call=("A", "spelltrap"), other=("B", "monster")
    )
    duel.activate("quiet", ["other"])
    duel.activate("call", ["hero"])
    duel.resolve_chain()
    assert duel.missed == ["hero"]


def test_leaving_the_field_by_any_road_clears_what_applied_and_is_recorded():
    cards = {
        "blazar": {
            "kind": "monster",
            "made_up": True,
            "atk": 2500,
            "def": 1000,
            "effect": {"type": "quick", "cost": [{"banish_self_until": "end_phase"}], "draw": 1},
        },
        "rush": {"kind": "spell", "type": "quick-play", "effect": {"modify": "atk", "by": 700}},
    }
    duel = duel_with(cards, blazar=("A", "monster"), rush=("A", "hand"))
    duel.activate("rush", ["blazar"])
    duel.resolve_chain()
    assert duel.atk("blazar") == 3200
    duel.activate("blazar")
    assert ("left_field", "blazar") in [(e.name, e.subject) for e in duel.timeline.events]
    duel.resolve_chain()
    duel.end_phase()
    assert duel.card("blazar").zone == "monster" and duel.atk("blazar") == 2500


def test_banish_until_the_end_phase_comes_back_and_other_fields_are_refused():
    cards = {
        "mon": {"kind": "monster", "made_up": True, "atk": 100, "def": 100},
        "gate": {"kind": "spell", "type": "quick-play", "effect": {"banish": "target", "until": "end_phase"}},
    }
    duel = duel_with(cards, mon=("B", "monster"), gate=("A", "hand"))
    duel.activate("gate", ["mon"])
    duel.resolve_chain()
    assert duel.card("mon").zone == "banished"
    duel.end_phase()
    assert duel.card("mon").zone == "monster"
    for bad in (
        {"destroy": "target", "amount": 3},
        {"banish": "target", "until": "tomorrow"},
        {"explode": 1},
    ):
        with pytest.raises(ScenarioCardError):
            parse_card("x", {"kind": "spell", "effect": {"do": [bad]}})


def test_a_continuous_lock_applies_while_face_up_and_lifts_when_it_leaves():
    cards = {
        "edict": {
            "kind": "trap",
            "type": "continuous",
            "effect": {"negate_effects": True, "target": "spells"},
        },
        "hole": {"kind": "spell", "effect": {"destroy": "target"}},
        "typhoon": {"kind": "spell", "type": "quick-play", "effect": {"destroy": "target"}},
        "dust": {"kind": "trap", "effect": {"destroy": "target"}},
        "mon": {"kind": "monster", "made_up": True, "atk": 100, "def": 100},
    }
    duel = duel_with(
        cards,
        edict=("B", "spelltrap"),
        hole=("A", "hand"),
        typhoon=("A", "hand"),
        dust=("A", "spelltrap"),
        mon=("B", "monster"),
    )
    duel.activate("edict")
    duel.resolve_chain()
    duel.activate("hole", ["mon"])
    duel.resolve_chain()
    assert duel.card("mon").zone == "monster"  # the spell's effect was negated
    duel.activate("typhoon", ["edict"])  # a spell too: negated while the lock applies
    duel.resolve_chain()
    assert duel.card("edict").zone == "spelltrap"
    duel.activate("dust", ["edict"])  # a trap is not locked
    duel.resolve_chain()
    assert duel.card("edict").zone == "gy" and duel.lock_on(duel.card("hole")) is None


def test_turn_and_phase_legality_name_their_rule():
    cards = {
        "a1": {"kind": "monster", "made_up": True, "atk": 100, "def": 100},
        "a2": {"kind": "monster", "made_up": True, "atk": 100, "def": 100},
        "trap": {"kind": "trap", "effect": {"damage": 100}},
        "qp": {"kind": "spell", "type": "quick-play", "effect": {"damage": 100}},
    }
    duel = duel_with(cards, a1=("A", "hand"), a2=("A", "hand"), trap=("A", "hand"), qp=("B", "hand"))
    duel.turn.phase = "main1"
    duel.summon("a1")
    with pytest.raises(IllegalActionError, match=r"already normal summoned .*§3\.2\.2\.1/2"):
        duel.summon("a2")
    with pytest.raises(IllegalActionError, match=r"battle phase, not the main1 phase .*§6\.3\.4\.2"):
        duel.declare_attack("a1")
    duel.set_spell_trap("trap")
    with pytest.raises(IllegalActionError, match="set this turn"):
        duel.activate("trap")
    with pytest.raises(IllegalActionError, match="tournament/115"):
        duel.activate("qp")
    duel.end_turn()
    duel.activate("trap")  # the opponent's turn: now it can be
    duel.resolve_chain()
    with pytest.raises(IllegalActionError, match="cannot go back"):
        duel.enter_phase("draw")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(["summon", "activate", "resolve", "attack", "damage_step", "end_turn"]), max_size=30
    )
)
def test_random_play_is_deterministic_and_every_lp_change_is_logged(verbs):
    def play() -> tuple[list[str], list[tuple[int, int]]]:
        cards = {
            "a": {"kind": "monster", "made_up": True, "atk": 1600, "def": 1000},
            "b": {"kind": "monster", "made_up": True, "atk": 1200, "def": 1400},
            "burn": {"kind": "trap", "effect": {"damage": 300, "to": "both"}},
        }
        duel = duel_with(cards, a=("A", "hand"), b=("B", "monster"), burn=("B", "spelltrap"))
        seen = []
        for verb in verbs:
            before, lines = {p: x.lp for p, x in duel.players.items()}, len(duel.log)
            try:
                {
                    "summon": lambda: duel.summon("a"),
                    "activate": lambda: duel.activate("burn"),
                    "resolve": duel.resolve_chain,
                    "attack": lambda: duel.declare_attack(
                        "a", "b" if duel.card("b").zone == "monster" else None
                    ),
                    "damage_step": duel.damage_step,
                    "end_turn": duel.end_turn,
                }[verb]()
            except IllegalActionError:
                pass
            for player, lp in before.items():
                if duel.players[player].lp != lp:  # a change of LP always says why
                    assert any(f"{player} takes" in line for line in duel.log[lines:])
            places = [c.zone for c in duel.cards.values()]
            assert len(places) == 3  # every card is in exactly one place
            seen.append((duel.players["A"].lp, duel.players["B"].lp))
            if duel.winner:
                break
        return duel.log, seen

    assert play() == play()


def test_every_scenario_replays_the_same_way_twice(scenario_paths):
    for path in scenario_paths:
        assert replay(read_scenario(path)).log == replay(read_scenario(path)).log


@pytest.fixture
def scenario_paths():
    from conftest import KB

    return sorted((KB / "scenarios").glob("*.yaml"))


BASE = "title: t\ncards:\n  甲: {kind: monster, made_up: true, atk: 100, def: 100}\n"
HOSTILE = {
    "start is a list": BASE + "start: [A, B]\nactions: []\nexpect: {}\n",
    "expect is a number": BASE + "actions: []\nexpect: 5\n",
    "missed is a number": BASE + "actions: []\nexpect: {missed: 3}\n",
    "player Z": BASE + "start: {Z: {monsters: [甲]}}\nactions: []\nexpect: {}\n",
    "negative deck": BASE + "start: {A: {deck: -5}}\nactions: []\nexpect: {}\n",
    "unknown verb": BASE + "actions: [{dance: 甲}]\nexpect: {}\n",
    "unknown field": BASE + "start: {A: {monsters: [甲]}}\nactions: [{attack: 甲, speed: 9}]\nexpect: {}\n",
    "deep nesting": "title: t\ncards: {}\nactions: []\nexpect: " + "[" * 3000 + "]" * 3000 + "\n",
    "alias bomb": "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    )
    + "title: t\ncards: {}\nactions: []\nexpect: {bomb: *i}\n",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_malformed_or_hostile_file_is_one_line_exit_2_in_bounded_time_and_memory(tmp_path, name):
    path = tmp_path / "bad.yaml"
    path.write_text(HOSTILE[name], encoding="utf-8")

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "ocgkb", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit_memory,
    )
    assert time.monotonic() - started < 30
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert len((done.stderr + done.stdout).strip().splitlines()) == 1
    assert "bad.yaml" in done.stderr


def test_a_folder_replay_reports_every_file_and_exits_with_the_worst(tmp_path):
    good = BASE + "start: {A: {monsters: [甲]}}\nactions: []\nexpect: {cards: {甲: {zone: monster}}}\n"
    (tmp_path / "a_pass.yaml").write_text(good, encoding="utf-8")
    (tmp_path / "b_mismatch.yaml").write_text(good.replace("zone: monster", "zone: gy"), encoding="utf-8")
    (tmp_path / "c_malformed.yaml").write_text(HOSTILE["player Z"], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "ocgkb", "replay", str(tmp_path), "-q"], capture_output=True, text=True
    )
    assert done.returncode == 2
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("PASS") and lines[1].startswith("FAIL") and lines[-2].startswith("MALFORMED")
    assert lines[-1] == "1 passed, 1 failed, 1 malformed"
    listed = json.loads(
        subprocess.run(
            [sys.executable, "-m", "ocgkb", "replay", str(tmp_path), "--json"], capture_output=True, text=True
        ).stdout
    )
    assert [o["status"] for o in listed] == ["pass", "mismatch", "malformed"]


def test_a_change_for_damage_calculation_only_is_refused_elsewhere_and_durations_are_checked():
    cards = {
        "mon": {"kind": "monster", "made_up": True, "atk": 100, "def": 100},
        "calc": {
            "kind": "spell",
            "type": "quick-play",
            "effect": {"modify": "atk", "by": 500, "during": "damage_calculation"},
        },
    }
    duel = duel_with(cards, mon=("A", "monster"), calc=("A", "hand"))
    with pytest.raises(IllegalActionError) as refused:
        duel.activate("calc", ["mon"])
    assert refused.value.code == "wrong_timing"
    for bad in (
        {"modify": "atk", "by": 1, "until": "end_phase"},
        {"modify": "atk", "by": 1, "during": "battle"},
        {"modify": "atk", "by": 1, "until": "end_of_turn", "during": "damage_calculation"},
    ):
        with pytest.raises(ScenarioCardError):
            parse_card("x", {"kind": "spell", "effect": {"do": [bad]}})


def test_an_after_calculation_trigger_is_set_off_only_by_its_own_battle_and_upkeep_is_checked():
    trigger = {"type": "trigger", "damage_step": "after_calculation", "damage": 100}
    cards = {
        "atk": {"kind": "monster", "made_up": True, "atk": 1000, "def": 0, "effect": trigger},
        "idle": {"kind": "monster", "made_up": True, "atk": 0, "def": 0, "effect": trigger},
        "wall": {"kind": "monster", "made_up": True, "atk": 0, "def": 2000},
    }
    duel = duel_with(cards, atk=("A", "monster"), idle=("A", "monster"), wall=("B", "monster"))
    duel.card("wall").position = "defense"
    duel.declare_attack("atk", "wall")
    duel.damage_step("after_calculation")
    assert duel.pending == ["atk"]
    with pytest.raises(IllegalActionError) as refused:
        duel.activate("idle")
    assert refused.value.code == "no_event"
    for bad in ({"pay_lp": -1}, {"pay": 100}, 700):
        with pytest.raises(ScenarioCardError):
            parse_card("x", {"kind": "trap", "type": "continuous", "upkeep": bad})
