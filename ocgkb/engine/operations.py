"""What effects do: one function per operation, found by its name.

Each takes the duel, the card whose effect it is, the operation as written (`{destroy:
target}`), the cards it acts on and the chain link resolving (None for a continuous
effect). `FIELDS` says what each operation may carry besides `target` and `then`;
anything else is a malformed scenario (engine/cards.py checks).
"""

from __future__ import annotations

from collections.abc import Callable

from . import stats
from .cards import CARD_OPERATIONS, CLASSES, MONSTER, OPERATION_FIELDS
from .errors import IllegalChainError
from .modifiers import ACTIVATED, Modifier, resolve_amount
from .state import Card, ChainLink, State

Operation = Callable[[State, Card, dict, list[str], "ChainLink | None"], None]
__all__ = ["CARD_OPERATIONS", "CLASSES", "FIELDS", "OPERATIONS", "modify", "negate_effects_of"]


def _modify(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    if link is None or source.spec.continuous:
        # A continuous change is not stored: stats.py finds it while its card applies.
        if source.spec.type == "equip" and chosen:
            source.equipped_to = chosen[0]
        return
    for key in chosen:
        modify(duel, source, key, op)


def modify(duel: State, source: Card, key: str, op: dict) -> None:
    """An activated effect changes a face-up monster's ATK/DEF/level (§4.3.3.6): the
    change is fixed now and kept on the card until it leaves the field."""
    target = duel.card(key)
    if target.zone != "monster" or not target.face_up:
        duel.say(f"   「{key}」 is not a face-up monster: its ATK/DEF cannot change")
        return
    for stat in ["atk", "def"] if op["modify"] == "both" else [op["modify"]]:
        before = stats.value(duel, key, stat)
        mod = Modifier(stat, "add", ACTIVATED, source.key, duel.next_order())
        mod.from_own_effect = source.key == key
        mod.lasts = op.get("until") or op.get("during")
        if "by" in op:
            mod.amount = int(op["by"])
        elif "set" in op:
            mod.kind, mod.fixed = "set", resolve_amount(op["set"], before, stats.original(duel, key, stat))
        elif "original" in op:
            mod.kind = "original"
            # §4.3.3.6.2: halving or doubling a 「?」 original counts it as 0.
            base = 0 if stats.printed(target, stat) is None else stats.original(duel, key, stat)
            rule = op["original"]
            mod.fixed = resolve_amount(
                f"{rule}_original" if rule in ("half", "double") else rule, before, base
            )
        target.modifiers.append(mod)
        after = stats.value(duel, key, stat)
        duel.say(f"   「{key}」 {stat.upper()} {before} → {after}: {mod.describe()} by 「{source.key}」")
        duel.record(f"{stat}_changed", key)


def negate_effects_of(duel: State, key: str) -> None:
    """The card's effects are negated; a monster's own raise by its activated effect
    falls back (§4.3.3.6), and its continuous effects stop applying (stats.py)."""
    card = duel.card(key)
    before = stats.atk(duel, key) if card.spec.kind == MONSTER and card.zone == "monster" else None
    card.effects_negated = True
    if before is None:
        duel.say(f"「{key}」's effects are negated")
        return
    card.modifiers = [m for m in card.modifiers if not (m.source == key and m.from_own_effect)]
    duel.say(f"「{key}」's effects are negated (ATK {before} → {stats.atk(duel, key)})")


def _destroy(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        destroyed = duel.card(key).on_field
        if destroyed and stats.indestructible(duel, key, "effect"):
            # Not destroyed, so a "destroy and banish" banishes nothing either (§4.3.3.4.1/5).
            duel.say(f"   「{key}」 cannot be destroyed by effects: it stays (masterrule/79)")
            destroyed = False
        if destroyed:
            duel.destroy(key, f"is destroyed by 「{source.key}」")
        duel.destroyed_now[key] = destroyed


def _not_destroyed(duel: State, key: str, what: str) -> bool:
    """§4.3.3.4.1/5: "destroy and banish" / "destroy and send": what could not be destroyed is not."""
    if duel.destroyed_now.get(key) is False:
        duel.say(f"   「{key}」 could not be destroyed, so it is not {what} either (§4.3.3.4.1/5)")
        return True
    return False


def _banish(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if not _not_destroyed(duel, key, "banished"):
            duel.banish(key, f"is banished by 「{source.key}」", until=op.get("until"))


def _send_to_gy(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if duel.card(key).spec.token:
            duel.say(f"   「{key}」 is a token: it cannot be sent to the GY (§4.2.2.3/6)")
        elif not _not_destroyed(duel, key, "sent to the GY"):
            duel.send_to_gy(key, f"is sent to the GY by 「{source.key}」")


def _return_to_hand(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.return_to_hand(key, f"is returned to the hand by 「{source.key}」")


def _special_summon(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        # To its owner's field, or with `to: self` to the summoning player's.
        controller = source.controller if op.get("to") == "self" else duel.card(key).owner
        duel.special_summon(key, op.get("position", "attack"), controller=controller)


def _token(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    """A new token special summoned (`to: opponent` for the other player's field)."""
    controller = duel.opponent(source.controller) if op.get("to") == "opponent" else source.controller
    key = duel.create_token(str(op["token"]), controller)
    duel.special_summon(key, op.get("position", "attack"), controller=controller)


def _take_control(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        duel.take_control(key, source.controller, op.get("until"))


def _flip_face_down(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    for key in chosen:
        if duel.card(key).spec.token:
            duel.say(f"   「{key}」 is a token: it cannot be turned face-down (§4.3.3.10/5)")
        else:
            duel.flip_face_down(key)


def _negate_activation(
    duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None
) -> None:
    below = _link_below(duel, link)
    below.activation_negated = True
    below.set_again = bool(op.get("set_again"))
    duel.record("negated", below.card)
    again = ": the card will be set face-down again" if below.set_again else ""
    duel.say(f"   the activation of 「{below.card}」 (link {below.number}) is negated{again}")


def _negate_effect(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    below = _link_below(duel, link)
    below.effect_negated = True
    duel.record("negated", below.card)
    duel.say(f"   the effect of 「{below.card}」 (link {below.number}) is negated")


def _negate_effects(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    if op.get("target") in CLASSES:
        # A lock (王宫的敕命: spell effects on the field are negated) applies for as
        # long as its card is face-up: Duel.lock_on decides at each resolution.
        duel.say(
            f"   from now on, while 「{source.key}」 is face-up, the effects of {CLASSES[op['target']]} are negated"
        )
        return
    for key in chosen:
        negate_effects_of(duel, key)


def _each(verb: str) -> Operation:
    """An operation that applies one duel verb to each card it acts on."""

    def apply(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
        for key in chosen:
            getattr(duel, verb)(key)

    return apply


def _damage(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.damage(duel.players_named(op.get("to", "opponent"), source.controller), int(op["damage"]))


def _lose_lp(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.lose_lp(duel.players_named(op.get("to", "opponent"), source.controller), int(op["lose_lp"]))


def _draw(duel: State, source: Card, op: dict, chosen: list[str], link: ChainLink | None) -> None:
    duel.draw_cards(source.controller, int(op["draw"]))


def _link_below(duel: State, link: ChainLink | None) -> ChainLink:
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
    "flip_face_down": _flip_face_down,
    "flip_face_up": _each("flip_face_up"),
    "change_position": _each("change_position"),
    "damage": _damage,
    "lose_lp": _lose_lp,
    "draw": _draw,
    "token": _token,
    "take_control": _take_control,
}
FIELDS = OPERATION_FIELDS
