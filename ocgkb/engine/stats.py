"""The one place a value comes from: ATK, DEF, level, and whether a card's effects
are negated, computed from the state each time they are read.

A card keeps only the changes activated effects made to it (突进 +700, 黑羽-疾风之盖尔's
half): they were fixed when they resolved. Continuous effects are never stored: a
face-up card whose continuous effect applies (a field, equip or continuous spell or
trap whose activation resolved, or a face-up monster's continuous effect) changes
whatever meets its condition *now*, so a monster summoned after a field spell
resolved gets its raise, and a source that leaves, is turned face-down or is
negated stops at once. A lock (王宫的敕命 over spells, 魔法抵消器, §4.3.3.8) negates the
effects it covers for as long as it applies itself, including those already applying.

Each continuous change takes its place in §4.3.3.6's order (modifiers.py) at the
moment it began to apply to that card: the later of its source starting to apply
and the card arriving face-up.
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import MONSTER, Effect
from .errors import EngineError
from .modifiers import ACTIVATED, CONTINUOUS, Modifier, current_value, original_value, resolve_amount
from .state import Card, State, locks_of

__all__ = [
    "ACTIVATED",
    "CONTINUOUS",
    "Modifier",
    "atk",
    "current_value",
    "defense",
    "indestructible",
    "is_negated",
    "level",
    "lock_on",
    "original_value",
    "resolve_amount",
    "value",
]
LOCK_CLASSES = ("spells", "traps", "monsters")


def atk(state: State, key: str) -> int:
    return value(state, key, "atk")


def defense(state: State, key: str) -> int:
    return value(state, key, "def")


def level(state: State, key: str) -> int:
    return value(state, key, "level")


def printed(card: Card, stat: str) -> int | None:
    return {"atk": card.spec.atk, "def": card.spec.defense, "level": card.spec.level}[stat]


def value(state: State, key: str, stat: str) -> int:
    """The value now: the card's own activated changes and every continuous one that applies."""
    card = state.card(key)
    mods = list(card.modifiers) + continuous_modifiers(state, card, stat)
    return current_value(printed(card, stat), mods, stat)


def original(state: State, key: str, stat: str) -> int:
    card = state.card(key)
    mods = list(card.modifiers) + continuous_modifiers(state, card, stat)
    return original_value(printed(card, stat), mods, stat)


def continuous_modifiers(state: State, card: Card, stat: str) -> list[Modifier]:
    """The continuous changes applying to `card` now, each ordered by when it began to."""
    if card.zone != "monster" or not card.face_up:
        return []
    found = []
    for source, op in applying_modifications(state):
        if stat not in (["atk", "def"] if op["modify"] == "both" else [op["modify"]]):
            continue
        if card.key not in affected(state, source, op):
            continue
        found.append(_as_modifier(source, card, stat, op))
    return found


def _as_modifier(source: Card, card: Card, stat: str, op: dict) -> Modifier:
    mod = Modifier(stat, "add", CONTINUOUS, source.key, max(source.since, card.since))
    if "by" in op:
        mod.amount = int(op["by"])
    elif "set" in op:
        mod.kind, mod.rule = "set", str(op["set"])
    elif "original" in op:
        mod.kind = "original"
        base = printed(card, stat) or 0
        rule = op["original"]
        mod.fixed = base // 2 if rule == "half" else base * 2 if rule == "double" else int(rule)
    return mod


def applying_modifications(state: State) -> Iterator[tuple[Card, dict]]:
    """Each `modify` of a continuous effect that applies now, with its card."""
    for source in state.cards.values():
        if not _applies(source, state):
            continue
        for effect in continuous_effects(source):
            for op in effect.ops:
                if "modify" in op and not is_negated(state, source):
                    yield source, op


def continuous_effects(card: Card) -> list[Effect]:
    """The effects that apply while the card is face-up rather than once at resolution."""
    if card.spec.kind == MONSTER:
        return [e for e in card.spec.effects if e.type == "continuous"]
    return list(card.spec.effects) if card.spec.continuous else []


def _applies(source: Card, state: State) -> bool:
    """Face-up on the field and started applying; a monster destroyed by the battle
    under way stops applying from damage calculation on (§6.3.4.3.3/5)."""
    doomed = state.battle is not None and source.key in state.battle.destroyed
    return source.applying and source.on_field and source.face_up and not doomed


def affected(state: State, source: Card, op: dict) -> list[str]:
    """The face-up monsters a continuous change reaches now: `target:` names them
    (self, equipped, all_monsters, monsters, own_monsters, opponent_monsters, a card), else the chosen targets still
    where they were chosen, or the monster itself for a monster's own effect."""
    who = op.get("target") or "target"
    if who == "self":
        keys = [source.key]
    elif who == "equipped":
        keys = [source.equipped_to] if source.equipped_to else []
    elif who in ("all_monsters", "monsters"):
        keys = [c.key for c in state.cards.values()]
    elif who in ("own_monsters", "opponent_monsters"):
        side = source.controller if who == "own_monsters" else state.opponent(source.controller)
        keys = [c.key for c in state.monsters(side)]
    elif who == "target":
        keys = [k for k, place in source.chosen if state.card(k).place() == place]
        if source.spec.kind == MONSTER and not source.chosen:
            keys = [source.key]
        elif source.equipped_to and not source.chosen:
            keys = [source.equipped_to]
    elif who in state.cards:
        keys = [who]
    else:
        raise EngineError(f"「{source.key}」: unknown target {who!r}")
    return [k for k in keys if state.card(k).zone == "monster" and state.card(k).face_up]


def lock_on(state: State, card: Card, seen: frozenset[str] = frozenset()) -> str | None:
    """The face-up card whose continuous effect negates this card's effects now
    (王宫的敕命 for a spell on the field), if any; a lock that is itself negated does not."""
    for source in state.cards.values():
        if source.key == card.key or source.key in seen or not _applies(source, state):
            continue
        kinds = locks_of(source)
        if not any(state.in_class(card, kind) for kind in kinds):
            continue
        if not is_negated(state, source, seen | {card.key}):
            return source.key
    return None


def is_negated(state: State, card: Card, seen: frozenset[str] = frozenset()) -> bool:
    """Whether the card's effects are negated now: by an effect that negated them, or by a lock."""
    if card.effects_negated and card.on_field:
        return True
    return lock_on(state, card, seen) is not None


def indestructible(state: State, key: str, by: str) -> bool:
    """Whether the card cannot be destroyed `by` "battle" or "effect" now (§4.3.3.4.3,
    masterrule/79): its own continuous property applies only while it is face-up on
    the field and its effects are not negated (a lock makes it destructible again)."""
    card = state.card(key)
    if not (card.zone == "monster" and card.face_up and card.applying):
        return False
    kinds = {e.indestructible for e in continuous_effects(card)}
    if not kinds & {by, "both"}:
        return False
    return not is_negated(state, card)
