"""Scenarios stay true to the cards: a card a scenario names is a real card whose
ATK, DEF and level are the card data's, unless it is marked `made_up`."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import pytest
import yaml

from ocgkb.engine.cards import ScenarioCardError, parse_card
from ocgkb.sources.card_facts import CardFact, read_card_facts

from conftest import DATA, KB

SCENARIOS = sorted((KB / "scenarios").glob("*.yaml"))
KINDS = {"monster": "Monster", "spell": "Spell", "trap": "Trap"}
STATS = (("atk", "atk"), ("def", "def_"), ("level", "level"), ("rank", "rank"))
# The card data's arrows (as drawn) in the scenario format's words.
ARROW_WORDS = {
    "↖": "top-left",
    "⬆": "top",
    "↗": "top-right",
    "⬅": "left",
    "➡": "right",
    "↙": "bottom-left",
    "⬇": "bottom",
    "↘": "bottom-right",
}
FRAMES = ("Ritual", "Fusion", "Synchro", "Xyz", "Link")


def loose(name: str) -> str:
    """A name without the spacing, middle dots and hyphens translations disagree on."""
    return re.sub(r"[\s・·•\-‐‑–—]", "", unicodedata.normalize("NFKC", name))


@cache
def card_data() -> tuple[dict[int, CardFact], dict[str, list[CardFact]]]:
    facts = read_card_facts(DATA / "card_facts.jsonl.xz")
    by_password = {f.password: f for f in facts}
    for fact in facts:
        for alt in fact.alt_passwords:
            by_password.setdefault(alt, fact)
    by_name: dict[str, list[CardFact]] = {}
    for fact in facts:
        for name in {loose(n) for n in (fact.name_zh_ygopro, fact.name_zh_official) if n}:
            by_name.setdefault(name, []).append(fact)
    return by_password, by_name


def problems_of(key: str, card: dict) -> list[str]:
    """What is wrong with one scenario card against the card data (nothing: an empty list)."""
    if card.get("made_up"):
        return []
    by_password, by_name = card_data()
    name = str(card.get("name", key))
    if "password" in card:
        fact = by_password.get(card["password"])
        if fact is None:
            return [f"{name}: no card has password {card['password']}"]
    else:
        found = by_name.get(loose(name), [])
        if not found:
            return [f"{name}: no card of that name; give its `password`, or mark it `made_up: true`"]
        if len(found) > 1:
            numbers = ", ".join(str(f.password) for f in found)
            return [f"{name}: the name fits several cards ({numbers}); give its `password`"]
        fact = found[0]
    real = f"{fact.display_name} ({fact.password})"
    wrong = []
    if KINDS.get(card.get("kind")) != fact.card_type:
        wrong.append(f"{name}: kind {card.get('kind')!r}, but {real} is a {fact.card_type}")
    for key_, field in STATS:
        if key_ in card and card[key_] != getattr(fact, field):
            wrong.append(f"{name}: {key_} {card[key_]!r}, but {real} has {getattr(fact, field)!r}")
    return wrong + master_rule_problems(name, card, fact, real)


def master_rule_problems(name: str, card: dict, fact: CardFact, real: str) -> list[str]:
    """A real card's frame, tuner, link arrows and pendulum scale are the card data's."""
    kinds = set((fact.type_line or "").replace(" ", "").split("/"))
    wrong = []
    frame = next((f.lower() for f in FRAMES if f in kinds), None)
    if card.get("kind") == "monster" and "frame" in card and frame and card["frame"] != frame:
        wrong.append(f"{name}: frame {card['frame']!r}, but {real} is {frame}")
    if card.get("kind") == "monster" and frame and "frame" not in card:
        wrong.append(f"{name}: {real} is a {frame} monster; say frame: {frame}")
    if card.get("tuner") and "Tuner" not in kinds:
        wrong.append(f"{name}: tuner, but {real} is not a tuner")
    if "arrows" in card and fact.link_arrows is not None:
        drawn = fact.link_arrows.split(",") if isinstance(fact.link_arrows, str) else fact.link_arrows
        have = sorted(ARROW_WORDS.get(a.strip(), a.strip()) for a in drawn if a.strip())
        if sorted(card["arrows"]) != have:
            wrong.append(f"{name}: arrows {card['arrows']!r}, but {real} has {have!r}")
    scale = (card.get("pendulum") or {}).get("scale") if isinstance(card.get("pendulum"), dict) else None
    if scale is not None and scale != fact.pendulum_scale:
        wrong.append(f"{name}: pendulum scale {scale!r}, but {real} has {fact.pendulum_scale!r}")
    return wrong


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_cards_are_true_to_the_card_data(path):
    cards = yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]
    wrong = [p for key, card in cards.items() for p in problems_of(str(key), card)]
    assert not wrong, f"{path.name}:\n" + "\n".join(wrong)


def test_a_wrong_atk_is_caught():
    assert problems_of("青眼白龙", {"kind": "monster", "atk": 3000, "def": 2500, "level": 8}) == []
    assert problems_of("青眼白龙", {"kind": "monster", "atk": 2900}) == [
        "青眼白龙: atk 2900, but 青眼白龙 (89631139) has 3000"
    ]
    # An Xyz monster has no level; a 「?」 ATK is '?'; a name is found despite its spacing.
    assert problems_of("铠甲河童", {"kind": "monster", "level": 2})
    assert problems_of("隆隆隆石人 - 黄金形态", {"kind": "monster", "atk": "?", "def": 1500}) == []
    assert problems_of("凯尔特守卫", {"kind": "monster", "atk": 1400})
    assert problems_of("凯尔特守卫", {"kind": "monster", "password": 91152256, "atk": 1400}) == []
    assert problems_of("某怪兽", {"kind": "monster", "made_up": True, "atk": 1234}) == []


def test_a_wrong_master_rule_field_is_caught():
    """A real Link monster's arrows, an Xyz monster's rank and a frame left unsaid."""
    assert (
        problems_of(
            "弹鼓龙", {"kind": "monster", "frame": "link", "link": 3, "arrows": ["left", "bottom", "right"]}
        )
        == []
    )
    assert problems_of(
        "弹鼓龙", {"kind": "monster", "frame": "link", "link": 2, "arrows": ["left", "bottom"]}
    )
    assert problems_of("弹鼓龙", {"kind": "monster", "atk": 1000})  # a Link monster must say its frame
    assert problems_of("威风妖怪·蛤蟆", {"kind": "monster", "pendulum": {"scale": 4}})


def test_made_up_and_password_are_card_properties():
    spec = parse_card("某怪兽", {"kind": "monster", "atk": 1000, "made_up": True})
    assert spec.made_up and spec.password is None
    spec = parse_card("凯尔特守卫", {"kind": "monster", "password": 91152256})
    assert spec.password == 91152256 and not spec.made_up
    bad = (
        {"made_up": "yes"},
        {"password": "91152256"},
        {"password": 0},
        {"password": True},
        {"made_up": True, "password": 1},
    )
    for wrong in bad:
        with pytest.raises(ScenarioCardError):
            parse_card("X", {"kind": "monster", **wrong})
