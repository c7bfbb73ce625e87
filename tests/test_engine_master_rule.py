"""The Master Rule in the engine (issue 31): the zones' grid and link arrows, the
Extra Deck's summons and their window 特殊召唤之际, Xyz materials, Pendulum scales,
苏生限制; the one registration of every verb; the README that documents them; and
a malformed Extra Deck entry that is one line, never a traceback. The curated
scenarios (kb/scenarios/master_*.yaml) replay the texts' own situations."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import pytest

from ocgkb.engine import IllegalActionError
from ocgkb.engine.actions import ACTIONS
from ocgkb.engine.cards import ScenarioCardError, parse_card
from ocgkb.engine.duel import Duel
from ocgkb.engine.scenario import replay_text
from ocgkb.engine.verbs import OPERATIONS, Registry
from ocgkb.engine.zones import pointed, position, zone_at

from conftest import KB, ROOT

ENGINE = ROOT / "ocgkb" / "engine"
README = (KB / "scenarios" / "README.md").read_text(encoding="utf-8")


# --- the grid ------------------------------------------------------------------------


def test_the_extra_monster_zones_sit_between_the_players_main_zones():
    assert position("A", "emz_left") == position("B", "emz_left") == (1, 2)
    # emz_left is above A's zone 2 and below B's zone 4; B's zone 1 faces A's zone 5.
    assert position("A", 2)[1] == position("B", 4)[1] == 2
    assert position("B", 1)[1] == position("A", 5)[1]
    assert zone_at(0, 5) == ("B", 1) and zone_at(1, 4) == (None, "emz_right") and zone_at(3, 1) is None


def test_a_link_monsters_arrows_point_to_the_neighbouring_zones():
    # 001's grid: from emz_left, A's bottom-left arrow points to A's zone 1, bottom to 2, bottom-right to 3.
    assert pointed("A", "emz_left", ("bottom-left", "bottom", "bottom-right")) == [
        ("A", 1),
        ("A", 2),
        ("A", 3),
    ]
    assert pointed("A", 3, ("top-left", "top-right", "left")) == [
        (None, "emz_left"),
        (None, "emz_right"),
        ("A", 2),
    ]
    # B faces A: B's "bottom" points away from A, off the grid; its "top" into the Extra Monster Zone.
    assert pointed("B", 4, ("bottom",)) == [] and pointed("B", 4, ("top",)) == [(None, "emz_left")]
    # B's link monster in an Extra Monster Zone points its top arrow at A's zone.
    assert pointed("B", "emz_left", ("top",)) == [("A", 2)]


# --- summons -------------------------------------------------------------------------


def duel_of(cards: dict, **zones) -> Duel:
    duel = Duel({name: parse_card(name, spec) for name, spec in cards.items()})
    for player, places in zones.items():
        for zone, names in places.items():
            for name in names:
                duel.put(name, name, player, zone, face_up=zone != "extra")
    return duel


CARDS = {
    "调整": {"kind": "monster", "made_up": True, "atk": 0, "def": 0, "level": 2, "tuner": True},
    "甲": {"kind": "monster", "made_up": True, "atk": 0, "def": 0, "level": 4},
    "乙": {"kind": "monster", "made_up": True, "atk": 0, "def": 0, "level": 4},
    "同调": {"kind": "monster", "made_up": True, "frame": "synchro", "atk": 2000, "def": 0, "level": 6},
    "超量": {"kind": "monster", "made_up": True, "frame": "xyz", "rank": 4, "atk": 2000, "def": 0},
    "宣告": {"kind": "trap", "type": "counter", "made_up": True, "effect": {"negate_summon": True}},
}


def test_in_the_window_the_monster_is_not_yet_on_the_field_and_can_be_negated():
    duel = duel_of(CARDS, A={"monster": ["调整", "甲"], "extra": ["同调"]}, B={"spelltrap": ["宣告"]})
    duel.summon_by_rule("synchro", "同调", ["调整", "甲"])
    assert duel.card("同调").zone == "summoning" and duel.field_monsters("A") == 0
    duel.activate("宣告", player="B")
    duel.resolve_chain()
    assert duel.card("同调").zone == "gy" and not duel.card("同调").properly_summoned
    names = [(e.name, e.subject, e.cause.material) for e in duel.timeline.events]
    assert ("sent_to_gy", "调整", "synchro") in names and ("summon_negated", "同调", None) in names
    assert ("special_summoned", "同调", None) not in names


def test_any_other_action_ends_the_window_and_then_the_negation_is_too_late():
    duel = duel_of(CARDS, A={"monster": ["甲", "乙"], "extra": ["超量"]}, B={"spelltrap": ["宣告"]})
    duel.summon_by_rule("xyz", "超量", ["甲", "乙"])
    duel.end_summon_window()
    assert duel.card("超量").zone == "monster" and duel.materials_of("超量") == ["甲", "乙"]
    assert duel.field_monsters("A") == 1 and duel.card("超量").properly_summoned
    with pytest.raises(IllegalActionError) as refused:
        duel.activate("宣告", player="B")
    assert refused.value.code == "timing_passed"


def test_xyz_materials_go_to_the_gy_not_from_the_field_when_their_monster_leaves():
    duel = duel_of(CARDS, A={"monster": ["甲", "乙"], "extra": ["超量"]})
    duel.summon_by_rule("xyz", "超量", ["甲", "乙"])
    duel.end_summon_window()
    duel.destroy("超量")
    sent = [e for e in duel.timeline.events if e.name == "sent_to_gy" and e.subject in ("甲", "乙")]
    assert [e.origin for e in sent] == ["material", "material"]
    assert not [e for e in duel.timeline.events if e.name == "left_field" and e.subject in ("甲", "乙")]


@pytest.mark.parametrize(
    "materials, code",
    [(["甲", "乙"], "materials"), (["调整", "甲", "乙"], "materials"), (["调整", "超量"], "no_level")],
)
def test_wrong_synchro_materials_are_refused_before_anything_moves(materials, code):
    duel = duel_of(CARDS, A={"monster": ["调整", "甲", "乙", "超量"], "extra": ["同调"]})
    with pytest.raises(IllegalActionError) as refused:
        duel.summon_by_rule("synchro", "同调", materials)
    assert refused.value.code == code
    assert all(duel.card(k).zone == "monster" for k in ("调整", "甲", "乙", "超量"))


def test_a_pendulum_monster_leaving_the_field_for_the_gy_goes_face_up_to_the_extra_deck():
    cards = {
        "摆": {"kind": "monster", "made_up": True, "atk": 0, "def": 0, "level": 4, "pendulum": {"scale": 2}}
    }
    duel = duel_of(cards, A={"monster": ["摆"]})
    duel.destroy("摆")
    card = duel.card("摆")
    assert (card.zone, card.face_up) == ("extra", True)
    assert "sent_to_gy" not in [e.name for e in duel.timeline.events]


# --- cards and files -----------------------------------------------------------------


@pytest.mark.parametrize(
    "card, words",
    [
        ({"frame": "pendulum"}, "frame is one of"),
        ({"frame": "link", "link": 1, "arrows": ["top"], "def": 100}, "has no DEF"),
        ({"frame": "link", "link": 2, "arrows": ["up", "down"]}, "arrows is a list"),
        ({"frame": "link", "link": 2, "arrows": ["top"]}, "has 2 arrows"),
        ({"frame": "xyz", "rank": 4, "level": 4}, "not a level"),
        ({"frame": "xyz"}, "rank is a whole number"),
        ({"frame": "synchro", "level": 6, "materials": [1, 2]}, "materials are"),
        ({"frame": "synchro", "level": 6, "materials": {"tuners": "a lot"}}, "is N or 'N+'"),
        ({"level": 4, "materials": {"count": 2}}, "materials are for"),
        ({"level": 4, "pendulum": 4}, "pendulum is {scale: N}"),
    ],
)
def test_a_malformed_extra_deck_card_is_refused_with_what_is_wrong(card, words):
    with pytest.raises(ScenarioCardError, match=re.escape(words)):
        parse_card("X", {"kind": "monster", "made_up": True, "atk": 0, **card})


def test_a_malformed_extra_deck_entry_is_one_line_from_the_command(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "title: t\ncards:\n  L: {kind: monster, made_up: true, frame: link, link: 1, arrows: [sideways], atk: 1}\n"
        "start: {A: {extra: [L]}}\nactions: []\nexpect: {}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "ocgkb", "replay", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "arrows" in done.stderr


def test_a_scenario_states_zones_materials_and_scales_at_the_start():
    outcome = replay_text(
        "title: t\ncards:\n"
        "  X: {kind: monster, made_up: true, frame: xyz, rank: 4, atk: 1, def: 1}\n"
        "  M: {kind: monster, made_up: true, atk: 1, def: 1, level: 4}\n"
        "  S: {kind: monster, made_up: true, atk: 1, def: 1, level: 4, pendulum: {scale: 1}}\n"
        "start: {A: {monsters: [{card: X, zone: emz_right, materials: [M]}], spelltrap: [{card: S, pendulum: right}]}}\n"
        "actions: []\n"
        "expect: {cards: {X: {zone: emz, zone_number: emz_right, materials: [M]}, M: {zone: material},"
        " S: {zone_number: 5}}, monsters: {A: 1}}\n"
    )
    assert outcome.status == "pass", outcome.reason


# --- one registration, documented --------------------------------------------------------


def test_a_verb_is_registered_once():
    registry = Registry("operation")
    registry.register("destroy")(lambda: None)
    with pytest.raises(ValueError, match="registered twice"):
        registry.register("destroy")(lambda: None)


def test_every_operation_and_action_is_registered_in_its_module_only():
    """The verbs' names stand in one registration each: no module lists them again."""
    for module in ("operations.py", "actions.py"):
        tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Dict) and len(n.keys) > 5], module
    assert {"synchro_summon", "xyz_summon", "link_summon", "pendulum_summon"} <= set(ACTIONS)
    assert {"fusion_summon", "ritual_summon", "negate_summon", "attach"} <= set(OPERATIONS)


def _engine_strings(pattern: str) -> set[str]:
    found = set()
    for path in ENGINE.glob("*.py"):
        found |= set(re.findall(pattern, path.read_text(encoding="utf-8")))
    return found


def test_the_readme_documents_every_verb_code_and_event():
    codes = _engine_strings(r'illegal\([^)]*?"([a-z_]+)"\)') | _engine_strings(r'code="([a-z_]+)"')
    events = _engine_strings(r'record\(\s*"([a-z_]+)"') | _engine_strings(r'record\(f"\{kind\}_([a-z_]+)"')
    events = {e if e != "summoned" else "summoned" for e in events}
    documented = set(re.findall(r"`?([a-z_]+)`?", README))
    missing = {
        "actions": sorted(set(ACTIONS) - documented),
        "operations": sorted(set(OPERATIONS) - documented),
        "codes": sorted(codes - documented),
        "events": sorted(events - documented),
    }
    assert not any(missing.values()), missing
    for kind in ("synchro", "xyz", "link", "pendulum", "fusion", "ritual"):
        assert f"{kind}_summoned" in README


def test_the_engine_has_no_import_circle():
    """Each engine module's imports of the engine (lazy ones too) form no circle."""
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        name = path.stem
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level == 1 or base.startswith("ocgkb.engine"):
                    inner = base.removeprefix("ocgkb.engine").lstrip(".")
                    found |= {inner} if inner else {alias.name for alias in node.names}
        graph[name] = {m for m in found if (ENGINE / f"{m}.py").is_file()} - {name}
    graph["__init__"] = graph.get("__init__", set())
    visiting, done = set(), set()

    def visit(module: str, trail: list[str]) -> None:
        assert module not in visiting, " → ".join([*trail, module])
        if module in done:
            return
        visiting.add(module)
        for target in sorted(graph.get(module, ())):
            visit(target, [*trail, module])
        visiting.discard(module)
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert graph["verbs"] == set() and graph["zones"] <= {"cards"}


def test_the_readme_documents_every_field_a_file_may_write():
    """A card's, an effect's, a start entry's and an expectation's fields are all in the README."""
    from ocgkb.engine import cards, scenario

    documented = set(re.findall(r"`?([a-z_]+)`?", README))
    fields = (
        cards.CARD_FIELDS
        | cards.EFFECT_FIELDS
        | scenario.ENTRY_FIELDS
        | scenario.CARD_STATE
        | scenario.EXPECT_FIELDS
        | set(scenario.ZONES)
    )
    assert not sorted(fields - documented)
