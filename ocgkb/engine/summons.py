"""The Master Rule's summons (001 召唤, masterrule/53–63): what each asks of its
materials, where the materials go, and the Pendulum summon's scales.

Checks raise a refusal naming its passage (code `materials`, `no_level`,
`level_outside_scales`, …) before anything moves; `use_materials` then sends the
materials to the GY (Synchro, Link, Fusion; Ritual tributes) or attaches them
(Xyz), each recorded with `cause: material` and the summon it was for.
engine/duel.py conducts the summons themselves and the window 特殊召唤之际.
"""

from __future__ import annotations

from collections import Counter

from . import stats
from .cards import MONSTER, parse_count
from .errors import illegal
from .state import Card, State

# The passage that states each summon's procedure.
RULE = {
    "ritual": "masterrule/53",
    "fusion": "masterrule/54",
    "synchro": "masterrule/55",
    "xyz": "masterrule/56",
    "pendulum": "masterrule/57",
    "link": "masterrule/58",
}
# What a summon asks when the card does not say (README "Extra Deck").
DEFAULT_MATERIALS = {
    "synchro": {"tuners": 1, "non_tuners": "1+"},
    "xyz": {"count": "2+"},
    "link": {"count": "1+"},
    "fusion": {"count": "2+"},
}


def level_of(duel: State, card: Card, why: str) -> int:
    """A monster's level where a rule counts it; an Xyz or Link monster has none."""
    if not card.spec.has_level:
        raise illegal(
            f"「{card.key}」 is an {card.spec.frame.capitalize()} monster and has no level: {why}",
            "masterrule/170, masterrule/172",
            "no_level",
        )
    return stats.level(duel, card.key)


def check_summoned(duel: State, card: Card, kind: str) -> None:
    """The monster itself: of the summon's frame, where that summon takes it from."""
    if card.spec.kind != MONSTER or card.spec.frame != kind:
        raise illegal(f"「{card.key}」 is not a {kind} monster", RULE[kind], "materials")
    home = "hand" if kind == "ritual" else "extra"
    if card.zone != home or (home == "extra" and card.face_up):
        where = "the hand" if home == "hand" else "the face-down Extra Deck"
        raise illegal(
            f"「{card.key}」 is {kind} summoned from {where}, not the {card.zone}", RULE[kind], "wrong_zone"
        )


def check_materials(duel: State, card: Card, kind: str, keys: list[str], player: str) -> None:
    """What the summon of `card` asks of these materials (README "Extra Deck")."""
    rule = RULE[kind]
    if not keys or len(set(keys)) != len(keys) or card.key in keys:
        raise illegal(f"「{card.key}」's {kind} summon needs its materials, each once", rule, "materials")
    materials = [duel.card(k) for k in keys]
    on_field_only = kind in ("synchro", "xyz", "link")
    for m in materials:
        if m.spec.kind != MONSTER or m.controller != player:
            raise illegal(f"「{m.key}」 is not a monster {player} has", rule, "materials")
        if on_field_only and not (m.zone == "monster" and m.face_up):
            raise illegal(f"「{m.key}」 is not a face-up monster on {player}'s field", rule, "materials")
        if not on_field_only and m.zone not in ("hand", "monster"):
            raise illegal(f"「{m.key}」 is neither in the hand nor on the field", rule, "materials")
    asked = card.spec.materials or DEFAULT_MATERIALS.get(kind, {})
    {"synchro": _synchro, "xyz": _xyz, "link": _link, "fusion": _fusion, "ritual": _ritual}[kind](
        duel, card, materials, asked
    )


def _count_fits(count: object, have: int) -> bool:
    parsed = parse_count(count)
    return parsed is not None and (have >= parsed[0] if parsed[1] else have == parsed[0])


def _synchro(duel: State, card: Card, materials: list[Card], asked: dict) -> None:
    tuners = [m for m in materials if m.spec.tuner]
    others = [m for m in materials if not m.spec.tuner]
    if not (
        _count_fits(asked.get("tuners", 1), len(tuners))
        and _count_fits(asked.get("non_tuners", "1+"), len(others))
    ):
        raise illegal(
            f"「{card.key}」 needs {asked.get('tuners', 1)} tuner(s) and {asked.get('non_tuners', '1+')} non-tuner(s), "
            f"not {len(tuners)} and {len(others)}",
            RULE["synchro"],
            "materials",
        )
    total = sum(level_of(duel, m, "a Synchro material's level counts") for m in materials)
    if total != level_of(duel, card, "its level must equal its materials'"):
        raise illegal(
            f"the materials' levels add up to {total}, not 「{card.key}」's level {card.spec.level}",
            RULE["synchro"],
            "materials",
        )


def _xyz(duel: State, card: Card, materials: list[Card], asked: dict) -> None:
    for m in materials:
        if m.spec.token:
            raise illegal(
                f"「{m.key}」 is a token and cannot be an Xyz material", "rulings/X素材/3", "materials"
            )
    if not _count_fits(asked.get("count", "2+"), len(materials)):
        raise illegal(
            f"「{card.key}」 needs {asked.get('count')} materials, not {len(materials)}",
            RULE["xyz"],
            "materials",
        )
    for m in materials:
        if level_of(duel, m, "an Xyz material's level must equal the rank") != card.spec.rank:
            raise illegal(
                f"「{m.key}」 is level {stats.level(duel, m.key)}, not {card.spec.rank} (「{card.key}」's rank)",
                RULE["xyz"],
                "materials",
            )


def _link(duel: State, card: Card, materials: list[Card], asked: dict) -> None:
    if not _count_fits(asked.get("count", "1+"), len(materials)):
        raise illegal(
            f"「{card.key}」 needs {asked.get('count')} materials, not {len(materials)}",
            RULE["link"],
            "materials",
        )
    # Each material counts 1, or a Link monster its rating: which totals can they make?
    totals = {0}
    for m in materials:
        ways = {1, m.spec.link} if m.spec.frame == "link" and m.spec.link else {1}
        totals = {t + w for t in totals for w in ways}
    if card.spec.link not in totals:
        raise illegal(
            f"the materials cannot add up to 「{card.key}」's link rating {card.spec.link} "
            f"(they make {', '.join(map(str, sorted(totals)))})",
            RULE["link"],
            "materials",
        )


def _fusion(duel: State, card: Card, materials: list[Card], asked: object) -> None:
    if isinstance(asked, list):
        if Counter(m.spec.name for m in materials) != Counter(asked):
            raise illegal(
                f"「{card.key}」's materials are {'、'.join(asked)}, not {'、'.join(m.spec.name for m in materials)}",
                RULE["fusion"],
                "materials",
            )
    elif not _count_fits(dict(asked).get("count", "2+"), len(materials)):
        raise illegal(
            f"「{card.key}」 needs {dict(asked).get('count')} materials", RULE["fusion"], "materials"
        )


def _ritual(duel: State, card: Card, materials: list[Card], asked: object) -> None:
    total = sum(level_of(duel, m, "a Ritual tribute's level counts") for m in materials)
    if total < level_of(duel, card, "a Ritual summon counts its level"):
        raise illegal(
            f"the tributes' levels total {total}, less than 「{card.key}」's level {card.spec.level}",
            RULE["ritual"],
            "materials",
        )


def use_materials(duel: State, card: Card, kind: str, keys: list[str], player: str) -> None:
    """The materials go: attached under an Xyz monster (not sent anywhere, not leaving
    the field, masterrule/26), the others sent to the GY, tributes tributed; a token
    disappears. Each is recorded `used_as_material`, `cause: material`."""
    with duel.timeline.caused("material", card.key, player, kind):
        for key in keys:
            if kind == "xyz":
                duel.attach(key, card.key, f"becomes an Xyz material of 「{card.key}」")
            elif kind == "ritual":
                duel.tribute(key, f"is tributed for the ritual summon of 「{card.key}」")
            elif duel.card(key).spec.token:
                duel.move(key, "gone", f"is used as a {kind} material of 「{card.key}」")
            else:
                duel.send_to_gy(key, f"is sent to the GY as a {kind} material of 「{card.key}」")
            duel.record("used_as_material", key)


def check_pendulum(duel: State, player: str, keys: list[str], done: set[str]) -> None:
    """§ 灵摆召唤 (masterrule/57): two Pendulum Scales of different scales in the
    player's Pendulum Zones, once per turn, each monster from the hand or the face-up
    Extra Deck, its level strictly between the scales."""
    rule = RULE["pendulum"]
    if player in done:
        raise illegal(f"{player} has already pendulum summoned this turn", rule, "pendulum_once")
    scales = sorted(
        c.spec.scale
        for c in duel.cards.values()
        if c.zone == "spelltrap"
        and c.scale
        and c.face_up
        and c.controller == player
        and c.spec.scale is not None
    )
    if len(scales) != 2 or scales[0] == scales[1]:
        raise illegal(f"{player} needs two Pendulum Scales of different scales", rule, "no_scales")
    if not keys or len(set(keys)) != len(keys):
        raise illegal("a pendulum summon names its monsters, each once", rule, "materials")
    low, high = scales
    for key in keys:
        card = duel.card(key)
        from_extra = card.zone == "extra" and card.face_up
        if card.spec.kind != MONSTER or card.controller != player or not (card.zone == "hand" or from_extra):
            raise illegal(
                f"「{key}」 is neither in {player}'s hand nor face-up in the Extra Deck", rule, "wrong_zone"
            )
        level = level_of(duel, card, "a pendulum summon counts levels")
        if not low < level < high:
            raise illegal(
                f"「{key}」 is level {level}, not strictly between the scales {low} and {high}",
                rule,
                "level_outside_scales",
            )


def check_revivable(card: Card) -> None:
    """苏生限制 (§3.2.1.3/3): a Ritual, Fusion, Synchro, Xyz or Link monster, or one whose
    text says so, is special summoned by another effect only once it has been properly
    summoned (and has not gone back to the hand, deck or Extra Deck since)."""
    if card.spec.revived_only_when_proper and not card.properly_summoned and not card.on_field:
        raise illegal(
            f"「{card.key}」 was not properly summoned first: it cannot be special summoned from the {card.zone} "
            "except by its own procedure",
            "§3.2.1.3/3, masterrule/99",
            "not_properly_summoned",
        )
