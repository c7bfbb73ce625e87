"""What effects do: one function per operation, found by its name.

Each takes the duel, the card whose effect it is, the operation as written (`{destroy:
target}`), the cards it acts on and the chain link resolving (None for a continuous
effect). `FIELDS` says what each operation may carry besides `target` and `then`;
anything else is a malformed scenario (engine/cards.py checks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import IllegalChainError

if TYPE_CHECKING:
    from .duel import Card, ChainLink, Duel

Operation = Callable[["Duel", "Card", dict, list[str], "ChainLink | None"], None]


def _modify(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.modify(source, key, op, continuous=link is None or source.spec.continuous)


def _destroy(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if duel.card(key).on_field:
            duel.destroy(key, f"is destroyed by 「{source.key}」")


def _banish(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.banish(key, f"is banished by 「{source.key}」", until=op.get("until"))


def _send_to_gy(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.send_to_gy(key, f"is sent to the GY by 「{source.key}」")


def _return_to_hand(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.return_to_hand(key, f"is returned to the hand by 「{source.key}」")


def _special_summon(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        # To its owner's field, or with `to: self` to the summoning player's.
        controller = source.controller if op.get("to") == "self" else duel.card(key).owner
        duel.special_summon(key, op.get("position", "attack"), controller=controller)


def _negate_activation(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    below = _link_below(duel, link)
    below.activation_negated = True
    duel.timeline.record("negated", below.card)
    duel.say(f"   the activation of 「{below.card}」 (link {below.number}) is negated")


def _negate_effect(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    below = _link_below(duel, link)
    below.effect_negated = True
    duel.timeline.record("negated", below.card)
    duel.say(f"   the effect of 「{below.card}」 (link {below.number}) is negated")


def _negate_effects(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    if op.get("target") in CLASSES:
        # A lock (王宫的敕命: spell effects on the field are negated) applies for as
        # long as its card is face-up: Duel.lock_on decides at each resolution.
        duel.say(
            f"   from now on, while 「{source.key}」 is face-up, the effects of {CLASSES[op['target']]} are negated"
        )
        return
    for key in chosen:
        duel.negate_effects_of(key)


def _each(verb: str) -> Operation:
    """An operation that applies one duel verb to each card it acts on."""

    def apply(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
        for key in chosen:
            getattr(duel, verb)(key)

    return apply


def _damage(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.damage(duel.players_named(op.get("to", "opponent"), source.controller), int(op["damage"]))


def _lose_lp(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.lose_lp(duel.players_named(op.get("to", "opponent"), source.controller), int(op["lose_lp"]))


def _draw(duel: Duel, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.draw_cards(source.controller, int(op["draw"]))


def _link_below(duel: Duel, link: ChainLink | None) -> ChainLink:
    # Resolution is last-in first-out, so the link below is still on the chain.
    below = [other for other in duel.chain if link and other.number == link.number - 1]
    if not below:
        raise IllegalChainError("there is no chain link below this one to negate")
    return below[0]


OPERATIONS: dict[str, Operation] = {
    "modify": _modify,
    "destroy": _destroy,
    "banish": _banish,
    "send_to_gy": _send_to_gy,
    "return_to_hand": _return_to_hand,
    "special_summon": _special_summon,
    "negate_activation": _negate_activation,
    "negate_effect": _negate_effect,
    "negate_effects": _negate_effects,
    "flip_face_down": _each("flip_face_down"),
    "flip_face_up": _each("flip_face_up"),
    "change_position": _each("change_position"),
    "damage": _damage,
    "lose_lp": _lose_lp,
    "draw": _draw,
}
# Operations that act on cards (the others act on players or on the chain).
CARD_OPERATIONS = frozenset(OPERATIONS) - {"negate_activation", "negate_effect", "damage", "lose_lp", "draw"}
# What an operation may carry besides its own value, `target` and `then`.
FIELDS: dict[str, frozenset[str]] = {
    "modify": frozenset({"by", "set", "original"}),
    "special_summon": frozenset({"position", "to"}),
    "banish": frozenset({"until"}),
    "damage": frozenset({"to"}),
    "lose_lp": frozenset({"to"}),
}
# Whole classes of cards a continuous effect can negate while its card is face-up.
CLASSES = {
    "spells": "spell cards on the field",
    "traps": "trap cards on the field",
    "monsters": "face-up monsters",
}
